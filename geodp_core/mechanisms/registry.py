"""Registry of mechanisms (docs/architecture.md §3, §7).

Every mechanism declares itself ONCE, beside its implementation: its class carries a :class:`MechanismSpec`
(name, title, colour, the target notions its privacy map meets, its public options, its teaching card, a ready
Explorer scenario, its place in the audit) and is decorated with :func:`register_mechanism`. The package
``geodp_core.mechanisms`` imports each family module explicitly (so static tools follow the path), and that
import registers the class. Everything else reads this registry: :func:`get_mechanism`,
:data:`MECHANISM_NAMES`, the viz colours (:data:`MECHANISM_COLORS`), the Learn page's cards
(:mod:`geodp_core.mechanisms.cards`), the pipeline's public options and the audit's rows.

Which spaces a mechanism runs on is its class method ``availability(manifold)``.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Callable, Optional

from geodp_core._validation import check_option
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.base import Manifold
from geodp_core.mechanisms.base import DatasetMechanism, Mechanism

__all__ = [
    "Card",
    "MechanismSpec",
    "register_mechanism",
    "MECHANISM_NAMES",
    "DATASET_MECHANISM_NAMES",
    "MECHANISM_COLORS",
    "get_mechanism",
    "mechanism_class",
    "mechanism_names_where",
    "mechanism_spec",
    "mechanism_specs",
    "availability_table",
]

#: The target notions a guarantee can have (:data:`geodp_core.privacy.NOTIONS`).
_NOTIONS = ("pure_dp", "approx_dp", "gdp", "rdp", "zcdp")


@dataclass(frozen=True)
class Card:
    r"""A mechanism's teaching card (the Learn page renders it; a notebook can print it).

    Attributes
    ----------
    title, notion : str
        Card heading and the guarantee it carries, as shown (e.g. ``"ε-DP"``).
    idea, guarantee, assumptions, sampler, source : str
        Plain text.
    formula : str
        LaTeX (for ``st.latex`` / MathJax).
    """

    title: str
    notion: str
    idea: str
    formula: str
    guarantee: str
    assumptions: str
    sampler: str
    source: str


@dataclass(frozen=True)
class MechanismSpec:
    """Everything the package and the app need to know about a mechanism, declared once in its module.

    Attributes
    ----------
    name : str
        Registry name (``get_mechanism(name, manifold)``; the code written in URLs and scenarios).
    title : str
        Human title.
    color : str
        Colour of its releases and curves in every figure (CSS colour).
    notions : tuple of str
        Target notions its privacy map meets where it is available, natively or through a valid conversion
        (a subset of ``("pure_dp", "approx_dp", "gdp", "rdp", "zcdp")``); calibrating to any other raises
        :class:`~geodp_core.exceptions.UnavailableError`.
    card : Card
        Its teaching card.
    try_it : mapping, optional
        Fields of a ready Explorer :class:`~geodp_core.scenario.Scenario` showing it (plain values; ``None``
        for a mechanism with a page of its own).
    public_options : callable, optional
        ``public_options(manifold, center, radius, data, noise_seed) -> dict``: the calibration options a
        scenario passes it, from PUBLIC inputs only (the public ball centre and radius, a seed of its own), and
        the records only where its own privacy budget pays for reading them.
    options : mapping
        ``{option: constraint}`` of the options :attr:`public_options` sets, stating what each must be.
    audit_variants : tuple of str
        The audit's mechanism-specific variants (baselines without the guarantee) that apply to it, beside
        the variants every mechanism has (see :data:`geodp_core.audit.VARIANT_INFO`).
    audit_controls : tuple of str
        Variants the audit of every mechanism (``audit_all``) runs as negative controls.
    audit_options : mapping
        Extra calibration options of its audit (e.g. a faster exact sampler).
    """

    name: str
    title: str
    color: str
    notions: tuple
    card: Card
    try_it: Optional[Mapping] = None
    public_options: Optional[Callable[..., dict]] = None
    options: Mapping = field(default_factory=dict)
    audit_variants: tuple = ()
    audit_controls: tuple = ()
    audit_options: Mapping = field(default_factory=dict)

    def __post_init__(self):
        if not (isinstance(self.name, str) and self.name.isidentifier()):
            raise InvalidParameterError(f"a mechanism's name must be an identifier; got {self.name!r}", param="name")
        if not isinstance(self.card, Card):
            raise InvalidParameterError(f"card must be a Card; got {type(self.card).__name__}", param="card")
        unknown = [n for n in self.notions if n not in _NOTIONS]
        if not self.notions or unknown:
            raise InvalidParameterError(
                f"notions must be a non-empty subset of {', '.join(_NOTIONS)}; got {self.notions!r}", param="notions")
        if set(self.audit_controls) - set(self.audit_variants) - {"understated_noise", "understated_sensitivity"}:
            raise InvalidParameterError(
                f"audit_controls {self.audit_controls!r} must be variants that apply to {self.name}", param="audit_controls")


#: name -> class, in registration order (the import order of ``geodp_core/mechanisms/__init__.py``).
_CLASSES = {}


def register_mechanism(cls):
    """Class decorator: register a mechanism class under ``cls.spec.name``.

    Sets the class's ``name`` and ``title`` from its :class:`MechanismSpec` (declared once) and returns the class.

    Raises
    ------
    InvalidParameterError
        When the class has no spec, is not a mechanism, or its name is taken by another class.
    """
    spec = getattr(cls, "spec", None)
    if not isinstance(spec, MechanismSpec):
        raise InvalidParameterError(f"{cls.__name__} must declare spec = MechanismSpec(...)", param="spec")
    if not (isinstance(cls, type) and issubclass(cls, (Mechanism, DatasetMechanism))):
        raise InvalidParameterError(f"{cls.__name__} is not a Mechanism or DatasetMechanism", param="cls")
    if spec.name in _CLASSES and _CLASSES[spec.name] is not cls:
        raise InvalidParameterError(f"mechanism name {spec.name!r} is already registered by "
                                    f"{_CLASSES[spec.name].__qualname__}", param="name")
    cls.name, cls.title = spec.name, spec.title
    _CLASSES[spec.name] = cls
    return cls


class _Names(Sequence):
    """A read-only, live tuple of the registered names whose class passes ``select`` (registration order)."""

    def __init__(self, select):
        self._select = select

    def _names(self):
        return tuple(name for name, cls in _CLASSES.items() if self._select(cls))

    def __getitem__(self, index):
        return self._names()[index]

    def __len__(self):
        return len(self._names())

    def __iter__(self):
        return iter(self._names())

    def __contains__(self, name):
        return name in self._names()

    def __eq__(self, other):
        return self._names() == (tuple(other) if isinstance(other, (tuple, list, _Names)) else other)

    def __hash__(self):
        return hash(self._names())

    def __add__(self, other):
        return self._names() + tuple(other)

    def __radd__(self, other):
        return tuple(other) + self._names()

    def __repr__(self):
        return repr(self._names())

    def __reduce__(self):  # pickles as the plain tuple of this moment
        return tuple, (self._names(),)


class _SpecField(Mapping):
    """A read-only, live mapping ``{name: spec.<field>}`` over every registered mechanism."""

    def __init__(self, field_name):
        self._field = field_name

    def __getitem__(self, name):
        return getattr(_CLASSES[name].spec, self._field)

    def __iter__(self):
        return iter(tuple(_CLASSES))

    def __len__(self):
        return len(_CLASSES)

    def __repr__(self):
        return repr(dict(self))


#: Names of the mechanisms that release a summary (``get_mechanism``, the Scenario, the Explorer), in menu order.
#: A live view of the registry: a mechanism registered later appears here too.
MECHANISM_NAMES = _Names(lambda cls: issubclass(cls, Mechanism))
#: Names of the mechanisms that release from a whole dataset (private geodesic regression).
DATASET_MECHANISM_NAMES = _Names(lambda cls: issubclass(cls, DatasetMechanism))
#: ``{name: colour}`` of every registered mechanism (summary and dataset), read by every figure.
MECHANISM_COLORS = _SpecField("color")


def mechanism_names_where(predicate):
    """A live tuple of the summary mechanisms whose spec satisfies ``predicate`` (registration order)."""
    return _Names(lambda cls: issubclass(cls, Mechanism) and predicate(cls.spec))


def mechanism_specs():
    """``{name: MechanismSpec}`` of every registered mechanism (summary ones first, in registration order)."""
    return {name: cls.spec for name, cls in _CLASSES.items()}


def mechanism_spec(name):
    """The :class:`MechanismSpec` of the mechanism ``name`` (summary or dataset mechanism)."""
    return _CLASSES[check_option(name, "name", tuple(_CLASSES))].spec


def mechanism_class(name):
    """Return the summary-mechanism class registered under ``name``."""
    name = check_option(name, "name", tuple(MECHANISM_NAMES))
    return _CLASSES[name]


def get_mechanism(name, manifold):
    """Return the mechanism ``name`` bound to ``manifold``.

    The instance is returned even where the mechanism is unavailable (so that a
    user interface can show it greyed out with ``available()``'s reason);
    ``calibrate`` then raises :class:`~geodp_core.exceptions.UnavailableError`.
    """
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
            param="manifold",
        )
    return mechanism_class(name)(manifold)


def availability_table(manifold):
    """``{name: Availability}`` for every registered summary mechanism on ``manifold``."""
    return {name: mechanism_class(name).availability(manifold) for name in MECHANISM_NAMES}

