"""The mechanism interface shared by every family (docs/architecture.md §4; docs/specification.md §5.0).

A mechanism is a noise law plus a privacy map. ``calibrate`` turns ONE target
guarantee and a sensitivity into noise parameters, the guarantee actually
achieved (in the target's notion, never weaker) and an honesty label
(docs/specification.md §8); ``sample`` draws exactly ``size`` releases, vectorised.
"""

import dataclasses
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from geodp_core._validation import check_int, check_real, check_rng
from geodp_core.constraints import MAX_SAMPLE_COORDINATES, check_cost
from geodp_core.exceptions import GeoDPError, InvalidParameterError, NumericalOverflowError, UnavailableError
from geodp_core.geometry.base import Manifold
from geodp_core.geometry.radial_volume import (  # re-exported: the mechanisms' public range statements use them
    chi_tail_quantile,
    gamma_tail_quantile,
    log_concave_gaussian_tail_quantile,
)
from geodp_core.privacy import Guarantee

__all__ = [
    "LABEL_EXACT",
    "LABEL_APPROXIMATE",
    "LABEL_NO_GUARANTEE",
    "LABEL_UNAVAILABLE",
    "HONESTY_LABELS",
    "Availability",
    "Calibration",
    "NOISE_WORDS",
    "noise_text",
    "BoundMechanism",
    "DatasetMechanism",
    "Mechanism",
    "TAIL_PROBABILITY",
    "representable_radius",
    "check_sample_size",
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

def representable_radius(manifold):
    r"""Public radius :math:`L` of the ball :math:`B(o, L)`, :math:`o` = ``manifold.default_center()``, inside which
    points are represented accurately in double precision (``None`` on compact spaces): the space's own
    ``representable_radius`` (:math:`H^d` 22, SPD 20 or 12 under log-Cholesky, :math:`\mathbb{R}^d` :math:`10^{100}`).
    """
    return manifold.representable_radius


def check_sample_size(size, manifold, name="size"):
    """``size`` checked before anything is allocated: an integer ``>= 1`` whose cost ``size × coordinates`` per point
    of ``manifold`` stays within :data:`~geodp_core.constraints.MAX_SAMPLE_COORDINATES`.

    Raises
    ------
    InvalidParameterError
        Naming ``size`` and the largest size allowed on this manifold.
    """
    size = check_int(size, name, low=1, high=10_000_000)
    coordinates = math.prod(manifold.point_shape)
    return check_cost(name, size, coordinates, MAX_SAMPLE_COORDINATES, "the releases",
                      f"on {manifold.label} ({coordinates} coordinates per point)")


def _describe_noise(noise):
    return ", ".join(f"{k} = {v:.4g}" for k, v in noise.items() if isinstance(v, (int, float))) or "this noise"


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

    def noise_text(self):
        """The noise parameters in words and symbols for people, e.g. ``noise scale σ = 0.102``
        (:data:`NOISE_WORDS`; a key without words is spelled with spaces)."""
        return noise_text(self.noise)

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


#: How a person reads each key of :attr:`Calibration.noise`.
NOISE_WORDS = {
    "sigma": "noise scale σ",
    "sigma_first_stage": "first-stage noise scale σ₁",
    "t": "diffusion time t",
    "rho": "zCDP parameter ρ",
    "lam": "potential strength λ",
    "lambda_star": "density exponent λ*",
    "eps_phi": "ε spent on the conformal factor",
    "eps_conf": "ε of the conformal release",
    "kernel_mass_bound": "kernel mass bound",
    "l1_sensitivity": "ℓ¹ sensitivity",
    "phi_min": "smallest conformal factor φ",
    "phi_max": "largest conformal factor φ",
    "conformal_sensitivity": "conformal sensitivity",
    "acceptance_lower_bound": "acceptance rate at least",
}


def noise_text(noise, digits=4):
    """``"noise scale σ = 0.102 · ..."``: the scalar entries of a calibration's noise dictionary in words."""
    return " · ".join(f"{NOISE_WORDS.get(k, str(k).replace('_', ' '))} = {v:.{digits}g}" for k, v in noise.items()
                      if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool))


class BoundMechanism(ABC):
    """What every mechanism shares: bound to one manifold, available there or not (with the reason), and a
    calibration record (:class:`Calibration`) checked before sampling.

    Subclasses are :class:`Mechanism` (releases a summary of the data) and :class:`DatasetMechanism` (releases
    from the whole dataset). Each concrete class declares a ``spec``
    (:class:`~geodp_core.mechanisms.registry.MechanismSpec`) and is decorated with
    :func:`~geodp_core.mechanisms.registry.register_mechanism`, which sets ``name`` and ``title`` from it.

    Parameters
    ----------
    manifold : Manifold
        The space the releases live in.
    """

    spec: ClassVar[Any] = None
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

    def __repr__(self):
        return f"<{type(self).__name__} on {self.manifold.label}>"


class DatasetMechanism(BoundMechanism):
    """A mechanism that releases from a whole dataset (e.g. private geodesic regression), not from a summary.

    ``calibrate(target, n, **public_options)`` reads PUBLIC inputs only (the number of records and the public
    bounds the sensitivities follow from, never the records); ``sample(data, calibration, size, rng)`` runs the
    calibrated mechanism on the private dataset and returns its releases.
    """

    @abstractmethod
    def calibrate(self, target, n, **options):
        """Calibrate to ``target`` for datasets of ``n`` records from public inputs only; returns a
        :class:`Calibration`."""

    @abstractmethod
    def sample(self, data, calibration, size, rng):
        """``size`` independent releases computed from the private ``data`` with ``calibration``."""


class Mechanism(BoundMechanism):
    """Base class of the mechanisms that release a summary (a point of the manifold) of the data.

    Subclasses declare a ``spec``, implement :meth:`_calibrate` and :meth:`_sample`, and override
    :meth:`availability` when they do not run on every manifold.

    Parameters
    ----------
    manifold : Manifold
        The space the releases live in.
    """

    # ------------------------------------------------------------- calibration
    def calibrate(self, target, sensitivity, public_ball=None, **options):
        """Calibrate to ``target`` for a summary of global sensitivity ``sensitivity``.

        Parameters
        ----------
        target : Guarantee
        sensitivity : float
        public_ball : tuple (point, float), optional
            A PUBLIC ball ``(centre, radius)`` known to contain every summary this calibration will be used with
            (e.g. the clipping ball of a Fréchet mean on a Hadamard space). On spaces that state an
            ``accurate_radius`` around their origin (:math:`H^d`) the numerical range is then decided for the
            whole ball at once (see :meth:`_with_public_range`); ignored elsewhere.
        **options
            Mechanism-specific options.

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
        sensitivity, diameter_note = self._cap_at_diameter(sensitivity)
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
        if diameter_note:
            calibration = dataclasses.replace(calibration, notes=(diameter_note,) + tuple(calibration.notes))
        return self._with_public_range(calibration, self._public_ball_reach(public_ball))

    def _public_ball_reach(self, public_ball):
        """``dist(o, centre) + radius`` of a public ball (``None`` when not given or not needed)."""
        if public_ball is None or getattr(self.manifold, "accurate_radius", None) is None:
            # only spaces whose accuracy radius is measured around the origin (H^d); on SPD the radius from the
            # identity overstates the conditioning of matrices far from it along cI, so the ball is not used there
            return None
        try:
            ball_center, ball_radius = public_ball
        except (TypeError, ValueError):
            raise InvalidParameterError(
                f"public_ball must be a pair (centre, radius); got {type(public_ball).__name__}", param="public_ball"
            ) from None
        ball_center = self.manifold.validate_points(ball_center, "public_ball", single=True)
        ball_radius = check_real(ball_radius, "public_ball radius", low=0.0, low_closed=True)
        origin = self.manifold.default_center()
        return float(self.manifold.dist(origin, ball_center)) + ball_radius

    def _cap_at_diameter(self, sensitivity):
        r"""``(min(Δ, D), note)`` with :math:`D` the manifold's diameter (public): no two points are farther apart
        than :math:`D`, so no summary can move by more, whatever bound was passed. ``note`` is empty unless
        :math:`\Delta \ge D` (the bound was capped, here or by the caller)."""
        diameter = float(getattr(self.manifold, "diameter", math.inf))
        if not sensitivity >= diameter:
            return sensitivity, ""
        if sensitivity > diameter:
            note = (f"sensitivity bound {sensitivity:.6g} exceeds the diameter {diameter:.6g} of "
                    f"{self.manifold.label}: using Δ = {diameter:.6g} (no two points are farther apart, so no "
                    "summary can move by more)")
        else:
            note = (f"Δ = {diameter:.6g}, the diameter of {self.manifold.label} (a sensitivity bound capped there: "
                    "no two points are farther apart, so no summary can move by more)")
        return diameter, note

    def release_reach(self, calibration, tail=TAIL_PROBABILITY):
        r"""Public bound ``(a, b)``: :math:`\mathrm{dist}(o, Y) \le a\,\mathrm{dist}(o, \eta) + b` with probability
        :math:`\ge 1 -` ``tail``, :math:`o` the public origin; ``None`` when not needed (compact spaces, compact
        release domains). Computed from the calibration only (public)."""
        return None

    def best_case_reach(self, calibration, tail=REFUSAL_TAIL):
        r"""Public bound on :math:`\mathrm{dist}(o, Y)` for the summary the noise moves least far from the origin.

        Calibration refuses a noise only when even this best case leaves the accurate range. By default the
        summary at the origin (``b`` of :meth:`release_reach`); a mechanism whose noise is centred elsewhere (a
        public footpoint) overrides it."""
        reach = self.release_reach(calibration, tail)
        return None if reach is None else float(reach[1])

    def _with_public_range(self, calibration, ball_reach=None):
        r"""Public decision on double-precision range, taken at calibration (never in ``sample``).

        With :math:`L` = :func:`representable_radius` (where the geometry is accurate) and ``(a, b)`` =
        :meth:`release_reach`: refuse when :meth:`best_case_reach` :math:`\ge L` at tail :data:`REFUSAL_TAIL`, i.e.
        when even from the most favourable summary (by default the public origin) most releases would leave the
        accurate range. With a public ball of reach
        :math:`R = \mathrm{dist}(o, c) + r` (``ball_reach``) containing every summary, also refuse when
        :math:`aR + b > L` at tail :data:`TAIL_PROBABILITY`: otherwise every release around every summary in the
        ball stays in the accurate range with probability :math:`\ge 1 - 10^{-15}`. Without a public ball the
        calibration notes how far from the origin a summary may lie for that (:math:`(L - b)/a`).
        :meth:`sample` never replaces a release: every decision here reads public inputs only.
        """
        limit = self.manifold.representable_radius
        best = None if limit is None else self.best_case_reach(calibration, REFUSAL_TAIL)
        if best is None:
            return calibration
        if not best < limit:
            raise UnavailableError(
                f"{self.title or self.name} at {_describe_noise(calibration.noise)} moves most releases more than "
                f"{limit:g} away from where they start: beyond {limit:g} from the origin of {self.manifold.label}, "
                "double precision no longer represents points accurately; choose a larger privacy budget or a "
                "smaller sensitivity",
                param="target",
            )
        factor, offset = (float(v) for v in self.release_reach(calibration, TAIL_PROBABILITY))
        if ball_reach is not None:
            farthest = factor * ball_reach + offset
            if not farthest <= limit:
                raise UnavailableError(
                    f"{self.title or self.name} at {_describe_noise(calibration.noise)}: releases around a summary "
                    f"in the public ball (up to {ball_reach:.4g} from the origin of {self.manifold.label}) may reach "
                    f"{farthest:.4g} from it with probability above {TAIL_PROBABILITY:g}, beyond {limit:g}, where "
                    "double precision no longer represents points accurately; choose a larger privacy budget, a "
                    "smaller sensitivity, or a public ball nearer the origin",
                    param="target",
                )
            where = (f"every release around every summary in the public ball (within {ball_reach:.4g} of the origin) "
                     f"stays within {limit:g} of the origin, where double precision is accurate, with probability "
                     f"≥ 1 - {TAIL_PROBABILITY:g} (decided from the public ball and the noise only)")
        elif offset < limit:
            where = (f"releases stay within {limit:g} of the origin, where double precision is accurate, with "
                     f"probability ≥ 1 - {TAIL_PROBABILITY:g} for every summary within {(limit - offset) / factor:.4g} "
                     "of it")
        else:
            where = (f"this noise may move a release out of the range where double precision is accurate "
                     f"({limit:g} from the origin), with a probability that grows with the summary's distance from it")
        note = (f"numerical range (public): {where}; no release is ever replaced, and a release that is not a valid "
                "point in double precision (far beyond this range) raises NumericalOverflowError")
        return dataclasses.replace(calibration, notes=tuple(calibration.notes) + (note,))

    @abstractmethod
    def _calibrate(self, target, sensitivity, **options):
        """Mechanism-specific calibration (arguments already validated)."""

    # ---------------------------------------------------------------- sampling
    def sample(self, center, calibration, size, rng):
        """Draw exactly ``size`` releases around ``center`` (the private summary).

        Returns
        -------
        ndarray of shape ``(size, *manifold.point_shape)``
        """
        center = self.manifold.validate_points(center, "center", single=True)
        self._check_calibration(calibration)
        size = check_sample_size(size, self.manifold)
        rng = check_rng(rng)
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(self._sample(center, calibration, size, rng), dtype=float)
        expected = (size,) + tuple(self.manifold.point_shape)
        if out.shape != expected:  # a sampler never returns fewer samples silently
            raise RuntimeError(f"{self.name} sampler returned shape {out.shape}, expected {expected}")
        with np.errstate(over="ignore", invalid="ignore"):
            on_manifold = np.asarray(self.manifold.belongs(out, atol=1e-5), dtype=bool)  # False where not finite
        if not on_manifold.all():
            # Never replaced by a default point: the floating-point release is not the exact one there, so a
            # replacement would not be post-processing. Calibration with a public ball makes this event have
            # probability below 1e-15 for every summary in the ball (a public decision).
            raise NumericalOverflowError(
                f"{self.title or self.name}: a release is not a valid point of {self.manifold.label} in double "
                "precision (the summary or the noise lies far beyond the accurate range stated in the calibration "
                "notes); calibrate with public_ball to decide the range publicly",
                param="center",
            )
        return out

    @abstractmethod
    def _sample(self, center, calibration, size, rng):
        """Mechanism-specific sampler (arguments already validated)."""

    # ------------------------------------------------------------ coupled releases
    def coupling_reason(self, calibration):
        """``None`` when :meth:`sample_coupled` can draw releases at this calibration, else why not (plain words).

        Only mechanisms whose exact law is a push-forward of uniforms through a map monotone in the noise scale
        (the radial mechanisms) can share their uniforms across budgets; every other mechanism says so here.
        """
        return f"{self.title or self.name} has no coupled sampler: its releases cannot be shared across budgets"

    def sample_coupled(self, center, calibrations, size, rng):
        """``size`` releases at each of several calibrations, drawn from ONE set of shared uniforms.

        Returns
        -------
        ndarray of shape ``(len(calibrations), size, *manifold.point_shape)``

        Raises
        ------
        UnavailableError
            When :meth:`coupling_reason` is not ``None`` for one of the calibrations.
        """
        calibrations = list(calibrations)
        for calibration in calibrations:
            self._check_calibration(calibration)
            reason = self.coupling_reason(calibration)
            if reason is not None:
                raise UnavailableError(reason, param="calibrations")
        center = self.manifold.validate_points(center, "center", single=True)
        size = check_sample_size(size, self.manifold)
        rng = check_rng(rng)
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.asarray(self._sample_coupled(center, calibrations, size, rng), dtype=float)
        expected = (len(calibrations), size) + tuple(self.manifold.point_shape)
        if out.shape != expected:
            raise RuntimeError(f"{self.name} coupled sampler returned shape {out.shape}, expected {expected}")
        with np.errstate(over="ignore", invalid="ignore"):
            on_manifold = np.asarray(self.manifold.belongs(out, atol=1e-5), dtype=bool)
        if not on_manifold.all():
            raise NumericalOverflowError(
                f"{self.title or self.name}: a coupled release is not a valid point of {self.manifold.label} in "
                "double precision; calibrate with public_ball to decide the range publicly", param="center",
            )
        return out

    def _sample_coupled(self, center, calibrations, size, rng):
        """Mechanism-specific coupled sampler (arguments already validated)."""
        raise UnavailableError(self.coupling_reason(calibrations[0]) or "no coupled sampler", param="calibrations")

    # ------------------------------------------------------------ optional API
    def log_density(self, center, points, calibration):
        """Unnormalised log density of the release law w.r.t. Riemannian volume (where known)."""
        raise NotImplementedError(f"{self.name} has no closed-form density")

    def utility_bound(self, calibration, center=None):
        """Bound on :math:`E\\,\\mathrm{dist}(\\tilde\\eta, \\eta)` from the source paper, or ``None``."""
        return None
