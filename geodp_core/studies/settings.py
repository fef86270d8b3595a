r"""Declared constraints for the frozen ``Settings`` of every study (one helper, written once).

A study's settings are a frozen dataclass whose fields declare their range or choices beside their default::

    @dataclass(frozen=True)
    class Settings(StudySettings):
        n_reps: int = setting(200, low=2, high=200_000, integer=True, doc="releases per cell")
        figure: str = setting("eps", choices=("dimension", "n", "spread", "eps"))

:class:`StudySettings` validates every declared field in ``__post_init__``: a bad value raises
:class:`~geodp_core.exceptions.InvalidParameterError` naming the field, the value and the valid range (booleans,
NaN and ±inf are refused where a number is expected; a sequence field checks each element). The declarations are
data: :func:`constraints` returns them so that a page can derive its widgets' bounds, and a URL its parameters,
from the same place.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from numbers import Integral, Real

from geodp_core.exceptions import InvalidParameterError

__all__ = ["Constraint", "StudySettings", "setting", "constraints"]


@dataclass(frozen=True)
class Constraint:
    """What values a settings field accepts.

    Attributes
    ----------
    low, high : float or None
        Bounds of a number (``None`` = unbounded on that side).
    low_closed, high_closed : bool
        Whether the bounds are allowed.
    choices : tuple or None
        The allowed values of a categorical field.
    integer : bool
        The number must be an integer.
    sequence : bool
        The field is a non-empty sequence; each element is checked (``max_len`` elements at most).
    optional : bool
        ``None`` is also accepted.
    text : bool
        The value is a non-empty string (checked further by the study, e.g. against another field).
    doc : str
        What the field means (shown beside a control).
    """

    low: float = None
    high: float = None
    low_closed: bool = True
    high_closed: bool = True
    choices: tuple = None
    integer: bool = False
    sequence: bool = False
    max_len: int = None
    optional: bool = False
    text: bool = False
    doc: str = ""

    def describe(self):
        """The valid range in words, e.g. ``an integer in [2, 200000]`` or ``one of ('a', 'b')``."""
        if self.choices is not None:
            text = f"one of {tuple(self.choices)!r}"
        elif self.text:
            text = "a non-empty string"
        else:
            kind = "an integer" if self.integer else "a number"
            if self.low is None and self.high is None:
                text = f"{kind}"
            else:
                left = "(-inf" if self.low is None else ("[" if self.low_closed else "(") + f"{self.low:g}"
                right = "inf)" if self.high is None else f"{self.high:g}" + ("]" if self.high_closed else ")")
                text = f"{kind} in {left}, {right}"
        if self.sequence:
            text = f"a non-empty sequence{'' if self.max_len is None else f' of at most {self.max_len}'} of {text}"
        return text + (" or None" if self.optional else "")

    def _fail(self, name, value):
        raise InvalidParameterError(f"{name} must be {self.describe()}; got {value!r}", param=name)

    def _scalar(self, name, value, whole):
        if self.text:
            if not isinstance(value, str) or not value:
                self._fail(name, whole)
            return value
        if self.choices is not None:
            if isinstance(value, str) or not isinstance(value, (list, dict, set)):
                try:
                    if value in self.choices:
                        return value
                except TypeError:
                    pass
            self._fail(name, whole)
        if isinstance(value, bool) or not isinstance(value, Integral if self.integer else Real):
            self._fail(name, whole)
        number = float(value)
        if not math.isfinite(number):
            self._fail(name, whole)
        if self.low is not None and (number < self.low or (number == self.low and not self.low_closed)):
            self._fail(name, whole)
        if self.high is not None and (number > self.high or (number == self.high and not self.high_closed)):
            self._fail(name, whole)
        return int(value) if self.integer else number

    def check(self, name, value):
        """``value`` normalised (a tuple for a sequence; an int for an integer), or a named ``InvalidParameterError``."""
        if value is None and self.optional:
            return None
        if self.sequence:
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                self._fail(name, value)
            items = tuple(value)
            if not items or (self.max_len is not None and len(items) > self.max_len):
                self._fail(name, value)
            return tuple(self._scalar(name, item, value) for item in items)
        return self._scalar(name, value, value)


def setting(default, *, low=None, high=None, low_closed=True, high_closed=True, choices=None, integer=False,
            sequence=False, max_len=None, optional=False, text=False, doc=""):
    """A dataclass field with a declared :class:`Constraint` (its ``metadata["constraint"]``)."""
    constraint = Constraint(low=low, high=high, low_closed=low_closed, high_closed=high_closed,
                            choices=_choices(choices), integer=integer, sequence=sequence,
                            max_len=max_len, optional=optional, text=text, doc=doc)
    if isinstance(default, (list, dict, set)):
        raise InvalidParameterError("a setting's default must be immutable (use a tuple)", param="default")
    return field(default=default, metadata={"constraint": constraint})


def _choices(choices):
    """``None``, a tuple, or a live read-only sequence kept as it is (e.g. the ids of a registry that grows)."""
    if choices is None or (isinstance(choices, Sequence) and not isinstance(choices, (str, list))):
        return choices
    return tuple(choices)


class StudySettings:
    """Base of every study's frozen ``Settings``: validates each declared field on construction."""

    def __post_init__(self):
        for item in fields(self):
            constraint = item.metadata.get("constraint")
            if constraint is not None:
                object.__setattr__(self, item.name, constraint.check(item.name, getattr(self, item.name)))


def constraints(settings):
    """``{field name: Constraint}`` of a ``Settings`` class or instance (for widgets, URLs and docs)."""
    return {item.name: item.metadata["constraint"] for item in fields(settings) if "constraint" in item.metadata}
