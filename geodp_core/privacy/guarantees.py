"""Privacy guarantee value objects.

Frozen, validated dataclasses, one per privacy notion (docs/specification.md §4.1):

* :class:`PureDP` — :math:`\\varepsilon`-DP,
* :class:`ApproxDP` — :math:`(\\varepsilon, \\delta)`-DP,
* :class:`GDP` — :math:`\\mu`-Gaussian DP (Dong, Roth & Su 2022),
* :class:`RDP` — :math:`(\\alpha, \\varepsilon)`-Rényi DP (Mironov 2017),
* :class:`ZCDP` — :math:`\\rho`-zero-concentrated DP (Bun & Steinke 2016), i.e.
  :math:`(\\alpha, \\rho\\alpha)`-RDP for every :math:`\\alpha > 1`.

A guarantee is a *value*: it is hashable, compares by its parameters, is
validated on construction (NaN, inf, bool and out-of-range values raise
:class:`~geodp_core.exceptions.InvalidParameterError`) and carries a short
human description (:meth:`describe`) and a machine name (:attr:`notion`).
``to_dict`` / :func:`guarantee_from_dict` round-trip through JSON.
"""

from dataclasses import dataclass, fields
from typing import ClassVar

from geodp_core._validation import check_option, check_real
from geodp_core.exceptions import InvalidParameterError

__all__ = [
    "Guarantee",
    "PureDP",
    "ApproxDP",
    "GDP",
    "RDP",
    "ZCDP",
    "NOTIONS",
    "guarantee_from_dict",
]


def _fmt(value):
    return f"{value:g}"


class Guarantee:
    """Base class of the guarantee values (not instantiated directly)."""

    notion: ClassVar[str] = ""

    def describe(self):  # pragma: no cover - overridden
        raise NotImplementedError

    @staticmethod
    def from_notion(notion, **params):
        """The guarantee of ``notion`` with its parameters taken from ``params``: the one notion → guarantee factory.

        Parameters
        ----------
        notion : str
            A key of :data:`NOTIONS`: ``"pure_dp"`` (``eps``), ``"approx_dp"`` (``eps``, ``delta``), ``"gdp"``
            (``mu``), ``"rdp"`` (``alpha``, ``eps``) or ``"zcdp"`` (``rho``).
        **params : float
            At least the notion's parameters. Parameters of the other notions are ignored (a scenario or a form
            holds all of them, e.g. ``Guarantee.from_notion(s.notion, eps=s.eps, delta=s.delta, mu=s.mu, ...)``);
            any other name is refused.

        Returns
        -------
        Guarantee

        Raises
        ------
        InvalidParameterError
            For an unknown notion, an unknown or missing parameter, or a value outside its range (naming it).

        Examples
        --------
        >>> Guarantee.from_notion("approx_dp", eps=1.0, delta=1e-5, mu=0.5)
        ApproxDP(eps=1.0, delta=1e-05)
        """
        notion = check_option(notion, "notion", tuple(NOTIONS))
        cls = NOTIONS[notion]
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            raise InvalidParameterError(
                f"unknown guarantee parameter(s) {', '.join(map(repr, unknown))}; the parameters are "
                f"{', '.join(PARAMETERS)}", param=unknown[0])
        names = [f.name for f in fields(cls)]
        missing = [n for n in names if n not in params]
        if missing:
            raise InvalidParameterError(
                f"notion {notion!r} needs {', '.join(names)}; missing {', '.join(missing)}", param=missing[0])
        # the constructors reject NaN, inf, booleans, strings and out-of-range values, naming the parameter
        return cls(**{n: params[n] for n in names})

    def to_dict(self):
        """Return ``{"notion": ..., <parameter>: <float>, ...}`` (JSON-ready)."""
        out = {"notion": self.notion}
        out.update({f.name: getattr(self, f.name) for f in fields(self)})
        return out

    def __str__(self):
        return self.describe()


@dataclass(frozen=True)
class PureDP(Guarantee):
    """Pure :math:`\\varepsilon`-differential privacy.

    .. math::
        \\Pr[M(D) \\in S] \\le e^{\\varepsilon} \\Pr[M(D') \\in S]
        \\quad \\text{for all neighbours } D \\sim D' \\text{ and events } S.

    Parameters
    ----------
    eps : float
        Privacy budget, :math:`\\varepsilon \\in (0, \\infty)`.
    """

    eps: float
    notion: ClassVar[str] = "pure_dp"

    def __post_init__(self):
        object.__setattr__(self, "eps", check_real(self.eps, "eps", low=0.0))

    def describe(self):
        """Return e.g. ``"ε=1-DP"``."""
        return f"ε={_fmt(self.eps)}-DP"


@dataclass(frozen=True)
class ApproxDP(Guarantee):
    """Approximate :math:`(\\varepsilon, \\delta)`-differential privacy.

    .. math::
        \\Pr[M(D) \\in S] \\le e^{\\varepsilon} \\Pr[M(D') \\in S] + \\delta .

    Parameters
    ----------
    eps : float
        :math:`\\varepsilon \\in [0, \\infty)`.
    delta : float
        :math:`\\delta \\in (0, 1)`.
    """

    eps: float
    delta: float
    notion: ClassVar[str] = "approx_dp"

    def __post_init__(self):
        object.__setattr__(self, "eps", check_real(self.eps, "eps", low=0.0, low_closed=True))
        object.__setattr__(self, "delta", check_real(self.delta, "delta", low=0.0, high=1.0))

    def describe(self):
        """Return e.g. ``"(ε=1, δ=1e-05)-DP"``."""
        return f"(ε={_fmt(self.eps)}, δ={_fmt(self.delta)})-DP"


@dataclass(frozen=True)
class GDP(Guarantee):
    """:math:`\\mu`-Gaussian differential privacy (Dong, Roth & Su 2022).

    Distinguishing :math:`M(D)` from :math:`M(D')` is at least as hard as
    distinguishing :math:`N(0, 1)` from :math:`N(\\mu, 1)`; equivalently
    :math:`(\\varepsilon, \\delta_\\mu(\\varepsilon))`-DP for every
    :math:`\\varepsilon \\ge 0` with

    .. math::
        \\delta_\\mu(\\varepsilon) = \\Phi\\!\\left(-\\frac{\\varepsilon}{\\mu} + \\frac{\\mu}{2}\\right)
        - e^{\\varepsilon} \\Phi\\!\\left(-\\frac{\\varepsilon}{\\mu} - \\frac{\\mu}{2}\\right).

    Parameters
    ----------
    mu : float
        :math:`\\mu \\in (0, \\infty)`.
    """

    mu: float
    notion: ClassVar[str] = "gdp"

    def __post_init__(self):
        object.__setattr__(self, "mu", check_real(self.mu, "mu", low=0.0))

    def describe(self):
        """Return e.g. ``"μ=0.5-GDP"``."""
        return f"μ={_fmt(self.mu)}-GDP"


@dataclass(frozen=True)
class RDP(Guarantee):
    """:math:`(\\alpha, \\varepsilon)`-Rényi differential privacy (Mironov 2017).

    .. math::
        D_\\alpha\\big(M(D) \\,\\|\\, M(D')\\big) \\le \\varepsilon, \\qquad
        D_\\alpha(P\\|Q) = \\frac{1}{\\alpha - 1}\\log \\mathbb{E}_Q\\!\\left[(dP/dQ)^{\\alpha}\\right].

    Parameters
    ----------
    alpha : float
        Rényi order, :math:`\\alpha \\in (1, \\infty)`.
    eps : float
        :math:`\\varepsilon \\in (0, \\infty)`.
    """

    alpha: float
    eps: float
    notion: ClassVar[str] = "rdp"

    def __post_init__(self):
        object.__setattr__(self, "alpha", check_real(self.alpha, "alpha", low=1.0))
        object.__setattr__(self, "eps", check_real(self.eps, "eps", low=0.0))

    def describe(self):
        """Return e.g. ``"(α=2, ε=0.3)-RDP"``."""
        return f"(α={_fmt(self.alpha)}, ε={_fmt(self.eps)})-RDP"


@dataclass(frozen=True)
class ZCDP(Guarantee):
    """:math:`\\rho`-zero-concentrated differential privacy (Bun & Steinke 2016).

    .. math::
        D_\\alpha\\big(M(D) \\,\\|\\, M(D')\\big) \\le \\rho\\,\\alpha
        \\quad \\text{for every } \\alpha > 1 .

    Parameters
    ----------
    rho : float
        :math:`\\rho \\in (0, \\infty)`.
    """

    rho: float
    notion: ClassVar[str] = "zcdp"

    def __post_init__(self):
        object.__setattr__(self, "rho", check_real(self.rho, "rho", low=0.0))

    def describe(self):
        """Return e.g. ``"ρ=0.5-zCDP"``."""
        return f"ρ={_fmt(self.rho)}-zCDP"


#: Map from :attr:`Guarantee.notion` to the class.
NOTIONS = {cls.notion: cls for cls in (PureDP, ApproxDP, GDP, RDP, ZCDP)}
#: Every parameter name a guarantee can have (:meth:`Guarantee.from_notion` ignores the other notions' ones).
PARAMETERS = tuple(dict.fromkeys(f.name for cls in NOTIONS.values() for f in fields(cls)))


def guarantee_from_dict(data):
    """Rebuild a guarantee from :meth:`Guarantee.to_dict` output.

    Parameters
    ----------
    data : mapping
        ``{"notion": name, <parameters>}`` with ``name`` in :data:`NOTIONS`.

    Returns
    -------
    Guarantee

    Raises
    ------
    InvalidParameterError
        If ``data`` is not a mapping, ``notion`` is unknown, a parameter is missing, an
        unknown key is present, or a value is not a finite real number in its range
        (booleans and numeric strings are refused).
    """
    if not hasattr(data, "get") or not hasattr(data, "keys"):
        raise InvalidParameterError(
            f"data must be a mapping with a 'notion' key; got {type(data).__name__}", param="data"
        )
    notion = check_option(data.get("notion"), "notion", tuple(NOTIONS))
    cls = NOTIONS[notion]
    names = [f.name for f in fields(cls)]
    missing = [n for n in names if n not in data]
    if missing:
        raise InvalidParameterError(
            f"data for notion {notion!r} must contain {', '.join(names)}; missing {', '.join(missing)}",
            param="data",
        )
    unknown = [k for k in data if k != "notion" and k not in names]
    if unknown:
        raise InvalidParameterError(
            f"data for notion {notion!r} must contain only the keys 'notion', {', '.join(map(repr, names))}; "
            f"got unknown key(s) {', '.join(map(repr, unknown))}",
            param="data",
        )
    return Guarantee.from_notion(notion, **{n: data[n] for n in names})
