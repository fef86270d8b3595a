"""Declaring a URL-bound control: what its URL value may hold (:class:`UrlParam`), derived generically from a
study's declared constraint (:func:`from_settings`) or, for a control of the app alone (a camera, a tab), declared
beside the page's ``PageSpec`` with :func:`number`, :func:`choice`, :func:`grid`, :func:`tabs`.

Plain Python (no Streamlit): ``geodp_app.pages`` declares each page's controls with these helpers, and
``geodp_app.urlstate`` checks, decodes and writes URL values by them.
"""

import re
from dataclasses import dataclass, field, replace

from geodp_core.exceptions import InvalidParameterError
from geodp_core.studies.settings import constraints

__all__ = ["UrlParam", "slug", "choice", "coded", "tabs", "grid", "number", "from_settings"]


@dataclass(frozen=True)
class UrlParam:
    """What a URL parameter may hold.

    kind
        ``"int"``, ``"float"``, ``"grid"`` (a select-slider of numbers), ``"choice"`` (one option),
        ``"multi"`` (several options), ``"bool"`` (a toggle: ``true`` / ``false``) or ``"text"``.
    low, high, low_open
        Range of ``int``/``float``/``grid`` values (``low_open``: ``low`` itself is excluded).
    choices
        The codes of the options, as written into the URL.
    values
        The widget's option values, in the order of ``choices`` (empty: the codes themselves).
    aliases
        Other accepted spellings -> the code (the options' labels, older spellings).
    grid
        The select-slider's numeric values, as the widget holds them (an off-grid value moves to the largest
        value not above it, i.e. towards more privacy, with a message).
    grid_format
        How the widget spells a grid value in the URL (default ``str``).
    bounds
        Optional ``bounds(params) -> (low, high, why)`` giving a range that depends on other parameters.
    max_chars
        Longest accepted value.
    default
        Optional ``default(state) -> value``: what the control shows in a fresh browser given the others' values
        (``state``); without it, the value the control showed when it started from its default this session.
    context
        Optional ``context(state) -> hashable``: what an observed default depends on (the space, for the size of
        a space), so that a value is left out of the URL only when it is the default of that context.
    source
        ``(Settings, field)`` when the control sets a field of a study's ``Settings`` (its range lies within
        the field's declared constraint, checked by :func:`from_settings`).
    """

    kind: str
    low: float = None
    high: float = None
    low_open: bool = False
    choices: tuple = ()
    values: tuple = ()
    aliases: dict = field(default_factory=dict)
    grid: tuple = ()
    grid_format: object = str
    bounds: object = None
    max_chars: int = 200
    default: object = None
    context: object = None
    source: tuple = None


_CODE = re.compile(r"[a-z0-9_]+")


def slug(option):
    """The URL code of a widget option: the option itself when it is a code already, else its text in lower case
    with every run of other characters as one ``_`` (``"4 values"`` -> ``4_values``)."""
    text = str(option)
    if isinstance(option, (int, float)) or _CODE.fullmatch(text):
        return text
    return re.sub(r"[^0-9a-z]+", "_", text.casefold()).strip("_") or "option"


def choice(options, labels=None, kind="choice"):
    """A choice among the widget's ``options`` (any values), written into the URL as codes (:func:`_slug`);
    ``labels`` (``{option: label}``) and the options' own text are accepted spellings too."""
    options = tuple(options)
    codes = tuple(slug(o) for o in options)
    aliases = {str(o): c for o, c in zip(options, codes) if str(o) != c}
    aliases.update({label: slug(o) for o, label in (labels or {}).items() if label})
    values = () if all(isinstance(o, str) and o == c for o, c in zip(options, codes)) else options
    return UrlParam(kind, choices=codes, values=values, aliases=aliases)


def coded(labels, kind="choice"):
    """A choice whose options are codes already (``labels``: code -> label, accepted spellings too)."""
    return choice(labels, labels, kind)


def tabs(labels):
    """Tabs (``labels``: code -> the tab's title, which the widget holds), written into the URL as codes."""
    return UrlParam("choice", choices=tuple(labels), values=tuple(labels.values()),
                    aliases={label: code for code, label in labels.items()})


def grid(options, fmt=None):
    """A select-slider of numbers (an off-grid URL value moves towards more privacy)."""
    options = tuple(options)
    if fmt is None:
        fmt = (lambda g: str(int(g))) if all(isinstance(o, int) for o in options) else str
    return UrlParam("grid", grid=options, low=0.0, low_open=True, grid_format=fmt)


def number(low, high, integer=False, low_open=False):
    """A number control of the app alone, in ``[low, high]`` (``(low, high]`` when ``low_open``)."""
    return UrlParam("int" if integer else "float", low, high, low_open=low_open)


def from_settings(settings, name, low=None, high=None, labels=None):
    """The control of field ``name`` of a study's ``settings`` (a ``Settings`` class), derived from its declared
    constraint: its choices, or its range narrowed to ``[low, high]`` for the widget (the narrowed range must lie
    within the declared one: a control never offers a value the study refuses).

    Raises
    ------
    InvalidParameterError
        When ``low`` or ``high`` lies outside the field's declared constraint.
    """
    constraint = constraints(settings)[name]
    if constraint.choices is not None:
        spec = choice(constraint.choices, labels)
        return UrlParam(spec.kind, choices=spec.choices, values=spec.values, aliases=spec.aliases,
                        source=(settings, name))
    low = constraint.low if low is None else low
    high = constraint.high if high is None else high
    element = replace(constraint, sequence=False, optional=False)  # a sequence field: the range of one element
    for bound, declared in ((low, constraint.low), (high, constraint.high)):
        if bound is None:
            raise InvalidParameterError(f"the control of {settings.__qualname__}.{name} needs a finite range; "
                                        f"the field is {constraint.describe()}", param=name)
        if bound != declared:  # a narrowed bound lies within the declared range
            element.check(name, int(bound) if constraint.integer else bound)
    low_open = low == constraint.low and not constraint.low_closed
    return UrlParam("int" if constraint.integer else "float", low, high, low_open=low_open,
                    source=(settings, name))
