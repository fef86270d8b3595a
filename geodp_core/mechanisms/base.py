"""The mechanism interface shared by every family (DESIGN.md "Core abstractions").

A mechanism is a noise law plus a privacy map. ``calibrate`` turns ONE target
guarantee and a sensitivity into noise parameters, the guarantee actually
achieved (in the target's notion, never weaker) and an honesty label
(SPEC §8); ``sample`` draws exactly ``size`` releases, vectorised.
"""

import dataclasses
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from scipy import stats

from geodp_core._validation import check_int, check_real, check_rng
from geodp_core.exceptions import GeoDPError, InvalidParameterError, NumericalOverflowError, UnavailableError
from geodp_core.geometry.base import Manifold
from geodp_core.privacy import Guarantee

__all__ = [
    "LABEL_EXACT",
    "LABEL_APPROXIMATE",
    "LABEL_NO_GUARANTEE",
    "LABEL_UNAVAILABLE",
    "HONESTY_LABELS",
    "Availability",
    "Calibration",
    "Mechanism",
    "Release",
    "TAIL_PROBABILITY",
    "representable_radius",
    "gamma_tail_quantile",
    "chi_tail_quantile",
    "log_concave_gaussian_tail_quantile",
]

#: Supported range of sensitivity / budget (the Euclidean noise scale, e.g. sigma = Delta/eps or Delta/mu).
NOISE_RATIO_MIN = 1e-9
NOISE_RATIO_MAX = 1e9


def budget_scale(target):
    r"""The budget a noise scale is inversely proportional to: :math:`\varepsilon` (pure, approximate, Rényi),
    :math:`\mu` (GDP), :math:`\sqrt{2\rho}` (zCDP)."""
    if hasattr(target, "mu"):
        return float(target.mu)
    if hasattr(target, "rho"):
        return math.sqrt(2.0 * float(target.rho))
    return float(target.eps)


#: Tail probability of the public range statements in calibration notes.
TAIL_PROBABILITY = 1e-15
#: Calibration refuses a noise whose releases leave the representable range, even from the origin, with a larger
#: probability than this (public: from the calibration only).
REFUSAL_TAIL = 0.5

_REPRESENTABLE_RADIUS = {"hyperbolic": 340.0, "euclidean": 1e100}


def representable_radius(manifold):
    r"""Public radius :math:`L` of the ball :math:`B(o, L)`, :math:`o` = ``manifold.default_center()``, inside which
    points are represented accurately in double precision; ``None`` on compact spaces (sphere, Kendall).

    * :math:`H^d` (hyperboloid): 340 (:math:`x_0 = \cosh\rho`, :math:`x_0^2` must stay below the largest double);
    * SPD, affine-invariant or log-Euclidean: 20 (condition number :math:`\le e^{20\sqrt2}`: the smallest eigenvalue
      still resolved by ``eigvalsh``; measured distance error ``4e-7`` at 16, ``4e-4`` at 20, invalid points at 28);
    * SPD, log-Cholesky: 12 (measured distance error ``3e-7`` at 10, ``2e-5`` at 12, ``0.09`` at 16);
    * :math:`\mathbb{R}^d`: :math:`10^{100}` (squared distances stay finite).
    """
    if manifold.name == "spd":
        return 12.0 if manifold.metric == "log_cholesky" else 20.0
    return _REPRESENTABLE_RADIUS.get(manifold.name)


def _describe_noise(noise):
    return ", ".join(f"{k} = {v:.4g}" for k, v in noise.items() if isinstance(v, (int, float))) or "this noise"


def gamma_tail_quantile(shape, scale, tail=TAIL_PROBABILITY):
    r"""``q`` with :math:`P[\Gamma(\text{shape}, \text{scale}) > q] = ` ``tail`` (``inf`` when ``scale`` is not finite positive)."""
    if not (math.isfinite(scale) and scale > 0):
        return math.inf
    return float(stats.gamma.isf(tail, shape, scale=scale))


def chi_tail_quantile(dim, scale, tail=TAIL_PROBABILITY):
    r"""``q`` with :math:`P[\text{scale}\,\chi_{\text{dim}} > q] = ` ``tail``."""
    return float(scale * math.sqrt(stats.chi2.isf(tail, dim)))


def log_concave_gaussian_tail_quantile(power, drift, scale, tail=TAIL_PROBABILITY):
    r"""Upper bound of the ``tail`` quantile of the density :math:`\propto r^k e^{-r^2/(2s^2) + cr}` on :math:`r > 0`.

    The density is :math:`s^{-2}`-strongly log-concave, so :math:`P[R > \mathbb{E}R + t] \le e^{-t^2/(2s^2)}`
    (Bakry–Émery / Herbst), and :math:`\mathbb{E}R \le \text{mode} + \sqrt3\,\mathrm{sd} \le \text{mode} + \sqrt3 s`
    for a one-dimensional log-concave law, the mode being :math:`(cs^2 + \sqrt{c^2s^4 + 4ks^2})/2`.
    """
    k, c, sd = float(power), float(drift), float(scale)
    mode = 0.5 * (c * sd * sd + math.sqrt((c * sd * sd) ** 2 + 4.0 * k * sd * sd))
    return float(mode + math.sqrt(3.0) * sd + sd * math.sqrt(2.0 * math.log(1.0 / tail)))

LABEL_EXACT = "exact"
LABEL_APPROXIMATE = "approximate sampler"
LABEL_NO_GUARANTEE = "no formal guarantee"
LABEL_UNAVAILABLE = "unavailable"
HONESTY_LABELS = (LABEL_EXACT, LABEL_APPROXIMATE, LABEL_NO_GUARANTEE, LABEL_UNAVAILABLE)


@dataclass(frozen=True)
class Availability:
    """Whether a mechanism runs on a manifold, and why not. Unpacks as ``ok, reason``."""

    ok: bool
    reason: str = ""

    def __iter__(self):
        return iter((self.ok, self.reason))

    def __bool__(self):
        return self.ok


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    if isinstance(value, Guarantee):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Calibration:
    """The result of calibrating a mechanism to a target guarantee.

    Attributes
    ----------
    mechanism : str
        Registry name of the mechanism.
    manifold : str
        Label of the manifold it was calibrated on.
    target : Guarantee
        The requested guarantee.
    achieved : Guarantee
        The guarantee actually achieved, in the target's notion (never weaker).
    native : Guarantee
        The mechanism's guarantee in its own notion (e.g. ``PureDP`` for Laplace).
    sensitivity : float
        Global sensitivity in Riemannian distance used for calibration.
    noise : dict
        Named noise parameters (e.g. ``{"sigma": 0.12}``).
    label : str
        Honesty label, one of :data:`HONESTY_LABELS`.
    notes : tuple of str
        Which theorem or conversion was used, sampler approximations, caveats.
    options : dict
        Public inputs and mechanism state needed by ``sample`` (footpoint, anchor, mesh, ...).
    """

    mechanism: str
    manifold: str
    target: Guarantee
    achieved: Guarantee
    native: Guarantee
    sensitivity: float
    noise: dict
    label: str
    notes: tuple = ()
    options: dict = field(default_factory=dict)

    def describe(self):
        """One-line summary, e.g. ``riemannian_laplace on S^2: ε=1-DP (exact), sigma=0.1``."""
        params = ", ".join(f"{k}={v:.4g}" for k, v in self.noise.items() if np.isscalar(v))
        return f"{self.mechanism} on {self.manifold}: {self.achieved.describe()} ({self.label}); {params}"

    def to_dict(self):
        """JSON-ready dictionary (arrays become lists)."""
        return {
            "mechanism": self.mechanism,
            "manifold": self.manifold,
            "target": self.target.to_dict(),
            "achieved": self.achieved.to_dict(),
            "native": self.native.to_dict(),
            "sensitivity": self.sensitivity,
            "noise": _plain(self.noise),
            "label": self.label,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Release:
    """A private release as a page shows it: the value, its guarantee and how it was made."""

    value: Any
    calibration: Calibration
    seed: Any = None

    @property
    def guarantee(self):
        return self.calibration.achieved

    @property
    def label(self):
        return self.calibration.label


class Mechanism(ABC):
    """Base class of the mechanisms.

    Subclasses set the class attributes, implement :meth:`_calibrate` and
    :meth:`_sample`, and override :meth:`availability` when they do not run on
    every manifold.

    Parameters
    ----------
    manifold : Manifold
        The space the releases live in.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    native_notion: ClassVar[str] = ""
    source: ClassVar[str] = ""

    def __init__(self, manifold):
        if not isinstance(manifold, Manifold):
            raise InvalidParameterError(
                f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
                param="manifold",
            )
        self.manifold = manifold

    # ------------------------------------------------------------ availability
    @classmethod
    def availability(cls, manifold):
        """Return :class:`Availability` of this mechanism on ``manifold`` (default: available)."""
        return Availability(True, "")

    def available(self, manifold=None):
        """``(ok, reason)`` for ``manifold`` (default: the bound manifold)."""
        return type(self).availability(self.manifold if manifold is None else manifold)

    def require_available(self):
        """Raise :class:`UnavailableError` with the reason when unavailable here."""
        ok, reason = self.available()
        if not ok:
            raise UnavailableError(f"{self.title or self.name} is unavailable on {self.manifold.label}: {reason}", param="mechanism")

    # ------------------------------------------------------------- calibration
    def calibrate(self, target, sensitivity, **options):
        """Calibrate to ``target`` for a summary of global sensitivity ``sensitivity``.

        Returns
        -------
        Calibration

        Raises
        ------
        UnavailableError
            When the mechanism cannot meet the target here (with the reason).
        """
        self.require_available()
        if not isinstance(target, Guarantee):
            raise InvalidParameterError(
                f"target must be a guarantee (PureDP, ApproxDP, GDP, RDP or ZCDP); got {type(target).__name__}",
                param="target",
            )
        sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
        ratio = sensitivity / budget_scale(target)
        if not NOISE_RATIO_MIN <= ratio <= NOISE_RATIO_MAX:
            raise InvalidParameterError(
                f"sensitivity / budget = {sensitivity:.4g} / {budget_scale(target):.4g} = {ratio:.4g} is outside "
                f"[{NOISE_RATIO_MIN:g}, {NOISE_RATIO_MAX:g}], the range of noise scales calibrated reliably in double "
                f"precision (target {target.describe()}); rescale the data or choose another budget",
                param="target",
            )
        try:
            calibration = self._calibrate(target, sensitivity, **options)
        except InvalidParameterError:
            raise
        except ValueError as exc:  # a clear message that names no argument: it concerns the target
            raise InvalidParameterError(str(exc), param="target") from exc
        except (ArithmeticError, RecursionError, RuntimeError, GeoDPError) as exc:  # incl. ConvergenceError
            raise NumericalOverflowError(
                f"{self.title or self.name} cannot be calibrated to {target.describe()} at sensitivity "
                f"{sensitivity:.4g} in double precision ({type(exc).__name__}); choose a budget or sensitivity "
                "nearer the usual range",
                param="target",
            ) from exc
        return self._with_public_range(calibration)

    def release_reach(self, calibration, tail=TAIL_PROBABILITY):
        r"""Public bound ``(a, b)``: :math:`\mathrm{dist}(o, Y) \le a\,\mathrm{dist}(o, \eta) + b` with probability
        :math:`\ge 1 -` ``tail``, :math:`o` the public origin; ``None`` when not needed (compact spaces, compact
        release domains). Computed from the calibration only (public)."""
        return None

    def _with_public_range(self, calibration):
        r"""Public decision on double-precision range, taken at calibration (never in ``sample``).

        With :math:`L` = :func:`representable_radius` and ``(a, b)`` = :meth:`release_reach`: refuse when
        :math:`b \ge L` at tail :data:`REFUSAL_TAIL`, i.e. when even from a summary at the public origin most
        releases would leave the range where points are represented accurately. Otherwise the
        calibration notes how far from the origin a summary may lie for its releases to stay in range with
        probability :math:`1 - 10^{-15}` (:math:`(L - b)/a` at :data:`TAIL_PROBABILITY`). :meth:`sample` replaces a
        release that is not a valid point by the public origin, a post-processing of the release (a function of
        the released value only), so the guarantee is unchanged and no error can depend on the summary.
        """
        limit = representable_radius(self.manifold)
        reach = None if limit is None else self.release_reach(calibration, REFUSAL_TAIL)
        if reach is None:
            return calibration
        factor, offset = (float(v) for v in reach)
        if not offset < limit:
            raise UnavailableError(
                f"{self.title or self.name} at {_describe_noise(calibration.noise)} moves most releases more than "
                f"{limit:g} away from where they start: beyond {limit:g} from the origin of {self.manifold.label}, "
                "double precision no longer represents points accurately; choose a larger privacy budget or a "
                "smaller sensitivity",
                param="target",
            )
        factor, offset = (float(v) for v in self.release_reach(calibration, TAIL_PROBABILITY))
        if offset < limit:
            where = (f"releases stay within {limit:g} of the origin, where double precision is accurate, with "
                     f"probability ≥ 1 - {TAIL_PROBABILITY:g} for every summary within {(limit - offset) / factor:.4g} "
                     "of it")
        else:
            where = (f"this noise may move a release out of the range where double precision is accurate "
                     f"({limit:g} from the origin), with a probability that grows with the summary's distance from it")
        note = (f"numerical range (public): {where}; a release that is not a valid point in double precision is "
                "replaced by the origin (post-processing of the release: the guarantee is unchanged)")
        return dataclasses.replace(calibration, notes=tuple(calibration.notes) + (note,))

    @abstractmethod
    def _calibrate(self, target, sensitivity, **options):
        """Mechanism-specific calibration (arguments already validated)."""

    def _make_calibration(self, target, achieved, native, sensitivity, noise, label, notes=(), options=None):
        return Calibration(
            mechanism=self.name,
            manifold=self.manifold.label,
            target=target,
            achieved=achieved,
            native=native,
            sensitivity=float(sensitivity),
            noise=dict(noise),
            label=label,
            notes=tuple(notes),
            options=dict(options or {}),
        )

    # ---------------------------------------------------------------- sampling
    def sample(self, center, calibration, size, rng):
        """Draw exactly ``size`` releases around ``center`` (the private summary).

        Returns
        -------
        ndarray of shape ``(size, *manifold.point_shape)``
        """
        center = self.manifold.validate_points(center, "center", single=True)
        self._check_calibration(calibration)
        size = check_int(size, "size", low=1, high=10_000_000)
        rng = check_rng(rng)
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(self._sample(center, calibration, size, rng), dtype=float)
        expected = (size,) + tuple(self.manifold.point_shape)
        if out.shape != expected:  # a sampler never returns fewer samples silently
            raise RuntimeError(f"{self.name} sampler returned shape {out.shape}, expected {expected}")
        with np.errstate(over="ignore", invalid="ignore"):
            on_manifold = np.asarray(self.manifold.belongs(out, atol=1e-5), dtype=bool)  # False where not finite
        if not on_manifold.all():
            # A release beyond the representable range is replaced by the public origin: a function of the
            # released value only (post-processing), never an error, so no failure can depend on the summary.
            out[~on_manifold] = self.manifold.default_center()
        return out

    @abstractmethod
    def _sample(self, center, calibration, size, rng):
        """Mechanism-specific sampler (arguments already validated)."""

    def _check_calibration(self, calibration):
        if not isinstance(calibration, Calibration):
            raise InvalidParameterError(
                f"calibration must come from {self.name}.calibrate(...); got {type(calibration).__name__}",
                param="calibration",
            )
        if calibration.mechanism != self.name or calibration.manifold != self.manifold.label:
            raise InvalidParameterError(
                f"calibration is for {calibration.mechanism} on {calibration.manifold}, "
                f"not {self.name} on {self.manifold.label}",
                param="calibration",
            )

    def release(self, center, calibration, rng, seed=None):
        """One private release wrapped in a :class:`Release` record."""
        value = self.sample(center, calibration, 1, rng)[0]
        return Release(value=value, calibration=calibration, seed=seed)

    # ------------------------------------------------------------ optional API
    def log_density(self, center, points, calibration):
        """Unnormalised log density of the release law w.r.t. Riemannian volume (where known)."""
        raise NotImplementedError(f"{self.name} has no closed-form density")

    def utility_bound(self, calibration, center=None):
        """Bound on :math:`E\\,\\mathrm{dist}(\\tilde\\eta, \\eta)` from the source paper, or ``None``."""
        return None

    def __repr__(self):
        return f"<{type(self).__name__} on {self.manifold.label}>"
