r"""Private geodesic regression with the K-norm gradient mechanism (docs/specification.md §5.8).

Release :math:`(\tilde p, \tilde v)` in two stages (DP geodesic regression paper, §2.3, §3,
appendices A and D; KNG: Reimherr & Awan 2019, on manifolds Soto et al. 2022):

1. **footpoint** (budget :math:`\varepsilon_p`). Default (``footpoint_velocity="joint"``): draw
   :math:`(p, v)` from

   .. math::
       f_1(p, v; D) \propto \exp\Big(-\frac{\sqrt{|\nabla_p E_\tau(p, v; D)|^2 + |\nabla_v E_\tau(p, v; D)|^2}}{\sigma_p}\Big)

   on the PUBLIC domain :math:`\{d(m_0, p) \le R\} \times \{|v| \le v_{\max}\}` of the tangent bundle
   (Liouville measure) and release only :math:`\tilde p`. The paper instead holds :math:`v` at the
   non-private :math:`\hat v(D)` transported to :math:`p` (``footpoint_velocity="nonprivate"``); its
   sensitivity argument treats :math:`v` as fixed, but :math:`\hat v` depends on every record, so that
   variant carries no formal guarantee.
2. **shooting vector** (budget :math:`\varepsilon_v`): draw :math:`\tilde v` from
   :math:`f_2(v; D) \propto \exp(-|\nabla_v E_\tau(\tilde p, v; D)|/\sigma_v)` on
   :math:`\{|v| \le v_{\max}\} \subset T_{\tilde p}M` (Lebesgue measure in an orthonormal frame).

:math:`E_\tau` uses residuals clipped at the PUBLIC level :math:`\tau` (the Huber energy), so the
sensitivities of :func:`geodp_core.regression.regression_sensitivities` hold for every dataset and
every :math:`(p, v)` in the domain. Since the normalising constants depend on :math:`D`,
:math:`\sigma = 2\Delta/\varepsilon` gives :math:`\varepsilon`-DP per stage, and the pair is
:math:`(\varepsilon_p + \varepsilon_v)`-DP by (adaptive) composition. The paper's
:math:`\sigma = \Delta/\varepsilon` is available as ``scale_convention="paper"`` (no formal guarantee).

Samplers: parallel-tempering Metropolis–Hastings with multi-scale proposals (:func:`_tempered_sampler`) from
PUBLIC starting points, on a PUBLIC temperature ladder (:func:`temperature_ladder`), with proposal scales adapted
on a PUBLIC proxy dataset and a chain length chosen by a convergence check (split-R̂ and effective sample size)
on that proxy (approximate sampler, docs/specification.md §8). Stage 1 on the tangent
bundle (a symmetric "geodesic-flow" proposal, below) or, for the paper's variant, the generic
:func:`geodp_core.mechanisms.mcmc.riemannian_metropolis_hastings` on :math:`M`; stage 2 a Euclidean
random walk in frame coordinates of :math:`T_{\tilde p}M`. Derivation: ``docs/derivations/kng_regression.md``.

Tangent-bundle proposal: from :math:`(p, v)` draw :math:`\xi, \zeta \sim N(0, s^2 I), N(0, (r s)^2 I)` in
:math:`T_pM`, set :math:`p' = \mathrm{Exp}_p(\xi)`, :math:`v' = \Gamma_\xi(v + \zeta)` (transport along
:math:`t \mapsto \mathrm{Exp}_p(t\xi)`). The map :math:`(p, v, \xi, \zeta) \mapsto (p', v', -\Gamma_\xi\xi,
-\Gamma_\xi\zeta)` is an involution that preserves the product of the Liouville measure and the Gaussian
auxiliary densities (geodesic flow preserves Liouville measure, :math:`\Gamma_\xi` is an isometry), so
the Metropolis ratio :math:`f_1(p', v')/f_1(p, v)` is the exact Hastings ratio on any Riemannian manifold.
"""

import warnings
from dataclasses import dataclass, field

import numpy as np

from geodp_core._validation import check_int, check_option, check_real, check_rng
from geodp_core.exceptions import GeoDPError, InvalidParameterError
from geodp_core.mechanisms.base import LABEL_APPROXIMATE, LABEL_NO_GUARANTEE, Availability, DatasetMechanism
from geodp_core.mechanisms.kng_mode_jumps import (
    JUMP_EVERY,
    FootpointJump,
    ShootingJump,
    joint_peak,
    rows_or_nan,
    shooting_peaks,
    values_or_fill,
)
from geodp_core.mechanisms.mcmc import riemannian_metropolis_hastings
from geodp_core.mechanisms.registry import Card, MechanismSpec, register_mechanism
from geodp_core.privacy import Guarantee, PureDP, pure_dp_budget
from geodp_core.regression import (
    GeodesicFit,
    _bundle_step,
    _check_manifold,
    _energy,
    _gradients,
    _initial_guess,
    _npt,
    _project_tangent,
    _validate_data,
    fit_geodesic_regression,
    mean_squared_prediction_error,
    predict,
    regression_sensitivities,
)

__all__ = [
    "KNGGeodesicRegression",
    "KNGRegressionResult",
    "RegressionPrivacyWarning",
    "kng_geodesic_regression",
    "predict",
    "mean_squared_prediction_error",
    "OPTION_DEFAULTS",
    "split_rhat",
    "effective_sample_size",
    "temperature_ladder",
]

SOURCE = "Differentially private geodesic regression (KNG), §2.3, §3, appendices A, C, D, F"

OPTION_DEFAULTS = {
    "n_releases": 1,
    "shooting_per_footpoint": 1,
    "burn_in": "auto",
    "chain_length": "auto",
    "max_chain_length": 2000,
    "rhat_threshold": 1.05,
    "owner_diagnostics": True,
    "step_scale": 1.0,
    "center": None,
    "data_radius": None,
    "footpoint_radius": None,
    "max_speed": None,
    "x_range": (0.0, 1.0),
    "footpoint_velocity": "joint",
    "scale_convention": "rigorous",
    "clip_residuals": True,
    "init": "public",
}

_VELOCITY_STEP_RATIO = 2.0  # velocity steps are this many times the footpoint steps (E is flatter in v)
_TARGET_ACCEPTANCE = 0.3
_SCALE_JITTER = 1.5  # each step's local scale is the rung's scale times e^u, u ~ U(-1.5, 1.5) (public)
_JUMP_SHARE = 0.25  # share of steps whose scale is log-uniform up to the public cap (long jumps)
_PIVOT_SHARE = 0.5  # share of stage-1 random-walk proposals that turn the geodesic about one of its points
_PIVOT_SLACK = 0.25  # footpoint noise of a pivot move, relative to its rung scale
_MAX_RUNGS = 12  # at most this many temperatures in the public ladder
_LADDER_RATIO = float(np.sqrt(2.0))  # adjacent inverse temperatures differ by this factor (public)
_LOW_ACCEPTANCE = 0.02
_MAX_START_AXES = 8  # dispersed public starts along at most this many frame axes (both signs)
_MIN_AUTO_LENGTH = 250  # first candidate chain length of the public proxy check (then doubled)
_PROXY_SEED = 20261121  # fixed PUBLIC seed of the proxy dataset and of its chains

#: Prefix of every message computed from the private data (warnings, owner notes): never part of a release.
OWNER_ONLY = "For the data owner only (computed from the private data; not part of the release): "


class RegressionPrivacyWarning(UserWarning):
    """A public assumption of the private regression is violated or the sampler looks unreliable."""


@dataclass(frozen=True)
class KNGRegressionResult:
    r"""Output of :func:`kng_geodesic_regression`.

    Attributes
    ----------
    footpoints, shooting_vectors : ndarray, shape ``(n_releases, *point_shape)``
        Private releases :math:`(\tilde p, \tilde v)`; each row alone has ``guarantee`` (publishing k independent
        rows costs k times the budget; with ``shooting_per_footpoint`` = m, rows i // m share a footpoint).
    nonprivate_footpoint, nonprivate_shooting_vector : ndarray
        The least-squares fit :math:`(\hat p, \hat v)` (NOT private: a teaching view for the data owner).
    guarantee : PureDP
        :math:`(\varepsilon_p + \varepsilon_v)`-DP for the exact KNG law (see ``label``).
    label : str
        ``"approximate sampler"`` or ``"no formal guarantee"`` (docs/specification.md §8). Depends on public inputs and
        options only (never on the private data).
    notes : tuple of str
        PUBLIC description of the release: n, tau, eps, sigma, sensitivities, domain, sampler, the chosen chain
        length and the public proxy diagnostics. Contains no number computed from the private data.
    warnings : tuple of str
        Every warning message. Messages that contain numbers computed from the private data start with
        :data:`OWNER_ONLY` ("For the data owner only ...") and must not be published: they are data on the
        result only (``owner_warnings``), never emitted as Python warnings; the others (e.g. a failed public
        convergence check, also emitted as :class:`RegressionPrivacyWarning`) are public (``public_warnings``).
    diagnostics : dict
        PUBLIC sampler diagnostics (functions of public inputs only): chain length and burn-in, how they were
        chosen, the public proxy check (split-R̂ per candidate length, pass/fail, proxy acceptance rates),
        the public starting points.
    owner_notes : tuple of str
        FOR THE DATA OWNER ONLY — computed from the private data, must NOT be published and are not part of
        the release (each starts with :data:`OWNER_ONLY`): residuals at the non-private fit, |v_hat|,
        d(center, p_hat), how far the responses reach, acceptance rates and split-R̂ of the chains run on the
        private data. They do not change ``label`` or ``notes``.
    owner_diagnostics : dict
        FOR THE DATA OWNER ONLY — computed from the private data, must NOT be published: acceptance rates,
        adapted proposal scales and split-R̂ of the release chains plus extra diagnostic chains from the
        public starts (option ``owner_diagnostics``), the largest residual at the fit, fit iterations.
    sigma_footpoint, sigma_shooting : float
        KNG scales :math:`\sigma_p, \sigma_v`.
    sensitivity_footpoint, sensitivity_shooting : float
        The sensitivities used (:math:`\Delta_{p,v}` or :math:`\Delta_p`, and :math:`\Delta_v`).
    tau, max_speed : float
    footpoint_radius : float or None
        Public footpoint domain radius around ``center`` (``None`` = the whole space: sphere or shape space).
    center : ndarray
    x : ndarray
        Covariates after the (public) clamping to ``x_range`` and rescaling to [0, 1] (private data).
    options : dict
        The options used (JSON-friendly values).
    """

    footpoints: np.ndarray
    shooting_vectors: np.ndarray
    nonprivate_footpoint: np.ndarray
    nonprivate_shooting_vector: np.ndarray
    guarantee: PureDP
    label: str
    notes: tuple
    warnings: tuple
    diagnostics: dict
    sigma_footpoint: float
    sigma_shooting: float
    sensitivity_footpoint: float
    sensitivity_shooting: float
    tau: float
    max_speed: float
    footpoint_radius: object
    center: np.ndarray
    x: np.ndarray
    options: dict = field(default_factory=dict)
    owner_notes: tuple = ()
    owner_diagnostics: dict = field(default_factory=dict)

    @property
    def public_warnings(self):
        """The warnings that contain no number computed from the private data."""
        return tuple(w for w in self.warnings if not w.startswith(OWNER_ONLY))

    @property
    def owner_warnings(self):
        """The warnings computed from the private data (for the data owner only, never published)."""
        return tuple(w for w in self.warnings if w.startswith(OWNER_ONLY))

    @property
    def footpoint(self):
        """The first private footpoint :math:`\\tilde p`."""
        return self.footpoints[0]

    @property
    def shooting_vector(self):
        """The first private shooting vector :math:`\\tilde v \\in T_{\\tilde p}M`."""
        return self.shooting_vectors[0]

    @property
    def nonprivate(self):
        """``(p_hat, v_hat)``, the non-private least-squares fit."""
        return self.nonprivate_footpoint, self.nonprivate_shooting_vector


# ------------------------------------------------------------------ options
def _parse_options(manifold, options):
    unknown = sorted(set(options) - set(OPTION_DEFAULTS))
    if unknown:
        raise InvalidParameterError(
            f"unknown option {unknown[0]!r} for kng_geodesic_regression; valid options: "
            f"{', '.join(sorted(OPTION_DEFAULTS))}",
            param=unknown[0],
        )
    opts = dict(OPTION_DEFAULTS, **options)
    opts["n_releases"] = check_int(opts["n_releases"], "n_releases", low=1, high=1000)
    opts["shooting_per_footpoint"] = check_int(opts["shooting_per_footpoint"], "shooting_per_footpoint", low=1,
                                               high=1000)
    for name, low in (("burn_in", 0), ("chain_length", 1)):
        if isinstance(opts[name], str):
            check_option(opts[name], name, ("auto",))
        else:
            opts[name] = check_int(opts[name], name, low=low, high=1_000_000)
    opts["max_chain_length"] = check_int(opts["max_chain_length"], "max_chain_length", low=4, high=1_000_000)
    opts["rhat_threshold"] = check_real(opts["rhat_threshold"], "rhat_threshold", low=1.0, high=10.0,
                                        high_closed=True)
    if not isinstance(opts["owner_diagnostics"], (bool, np.bool_)):
        raise InvalidParameterError(
            f"owner_diagnostics must be True or False; got {opts['owner_diagnostics']!r}", param="owner_diagnostics"
        )
    opts["step_scale"] = check_real(opts["step_scale"], "step_scale", low=0.0)
    opts["footpoint_velocity"] = check_option(opts["footpoint_velocity"], "footpoint_velocity", ("joint", "nonprivate"))
    opts["scale_convention"] = check_option(opts["scale_convention"], "scale_convention", ("rigorous", "paper"))
    opts["init"] = check_option(opts["init"], "init", ("nonprivate", "public"))
    if not isinstance(opts["clip_residuals"], (bool, np.bool_)):
        raise InvalidParameterError(
            f"clip_residuals must be True or False; got {opts['clip_residuals']!r}", param="clip_residuals"
        )
    center = manifold.default_center() if opts["center"] is None else opts["center"]
    opts["center"] = manifold.validate_points(center, "center", single=True)
    high = _diameter(manifold)
    for name in ("data_radius", "footpoint_radius", "max_speed"):
        if opts[name] is not None:
            opts[name] = check_real(opts[name], name, low=0.0, high=high, high_closed=True)
    x_range = opts["x_range"]
    if isinstance(x_range, str):
        check_option(x_range, "x_range", ("data",))
    else:
        if not isinstance(x_range, (tuple, list, np.ndarray)) or len(x_range) != 2:
            raise InvalidParameterError(
                f"x_range must be a public pair (low, high) with low < high, or 'data'; got {x_range!r}",
                param="x_range",
            )
        low = check_real(x_range[0], "x_range[0]")
        high_x = check_real(x_range[1], "x_range[1]")
        if not low < high_x:
            raise InvalidParameterError(f"x_range must satisfy low < high; got ({low!r}, {high_x!r})", param="x_range")
        opts["x_range"] = (low, high_x)
    return opts


def _rescale_covariates(x, x_range):
    r"""Covariates mapped to [0, 1] by the PUBLIC range: :math:`x_i \mapsto \min(1, \max(0, (x_i - a)/(b - a)))`.

    Each record is clamped to the public range ``x_range = (a, b)`` (a map of one record by public values, so
    neighbouring datasets stay neighbouring and the sensitivity bounds, which need covariates in [0, 1], hold);
    nothing is refused and no record is quoted. ``"data"`` (the paper's min/max rescaling, labelled not DP) maps
    constant covariates to 0. Returns ``(scaled, n_clamped)``; ``n_clamped`` is for the data owner only.
    """
    if isinstance(x_range, str):
        span = float(np.ptp(x)) if x.size else 0.0
        return ((x - x.min()) / span if span > 0.0 else np.zeros_like(x)), 0
    low, high = x_range
    with np.errstate(over="ignore", invalid="ignore"):
        scaled = (0.5 * x - 0.5 * low) / (0.5 * high - 0.5 * low)  # halves: no overflow for any finite range
    outside = ~((scaled >= 0.0) & (scaled <= 1.0))
    return np.clip(np.nan_to_num(scaled, nan=0.0), 0.0, 1.0), int(np.count_nonzero(outside))


# ------------------------------------------------------------------ samplers
_ROW_BLOCK = 48  # rows per batched gradient evaluation
_NUMERIC_FLOOR = -1e300  # log target of an in-domain state whose gradient is not representable (never -inf/NaN)
def _representable(manifold, points, domain=False):
    r"""Boolean mask (leading axes) of points that are finite, on the manifold and numerically well conditioned.

    A function of the points only (never of the data). Well conditioned: ``manifold.well_conditioned`` at the
    manifold's state limit, or its stricter public-domain limit when ``domain`` (``manifold.conditioning_limits``:
    SPD, condition number 1e13 / 1e10 — beyond, inverses, square roots and logarithms lose all accuracy and may
    raise ``LinAlgError``; hyperbolic space, time coordinate 1e7 / 1e5 — beyond, the Minkowski products lose all
    accuracy).
    """
    pts = np.asarray(points, dtype=float)
    k = len(manifold.point_shape)
    axes = tuple(range(pts.ndim - k, pts.ndim))
    ok = np.all(np.isfinite(pts), axis=axes)
    safe = np.where(np.expand_dims(ok, axes) if k else ok, pts, manifold.default_center())
    with np.errstate(all="ignore"):
        ok = ok & np.asarray(manifold._belongs(safe, 1e-6), dtype=bool)
        limits = manifold.conditioning_limits
        if limits is not None:
            ok = ok & np.asarray(manifold.well_conditioned(safe, limits[1] if domain else limits[0]), dtype=bool)
    return ok


def _masked(values_fn, ok, n_rows, fill=-np.inf):
    """``values_fn(index)`` on the rows where ``ok`` (float array of ``n_rows``), ``fill`` elsewhere.

    Evaluated in blocks of at most :data:`_ROW_BLOCK` rows (each row is computed independently; blocks keep the
    batched gradients' temporaries small, which is faster for the many rows of the tempered chains)."""
    out = np.full(n_rows, fill, dtype=float)
    idx = np.flatnonzero(ok)
    if idx.size > _ROW_BLOCK:
        for start in range(0, idx.size, _ROW_BLOCK):
            block = idx[start:start + _ROW_BLOCK]
            mask = np.zeros(n_rows, dtype=bool)
            mask[block] = True
            out[block] = _masked(values_fn, mask, n_rows, fill)[block]
        return out
    if idx.size:  # a prediction that leaves the representable range: row by row, the floor where a row fails
        vals = values_or_fill(values_fn, idx, _NUMERIC_FLOOR)
        out[idx] = np.where(np.isfinite(vals), vals, _NUMERIC_FLOOR)
    return out


def _endpoint_ok(manifold, p, v):
    r"""Whether the geodesic end point :math:`\mathrm{Exp}_p(v)` is representable (a function of the state only).

    Always on the compact spaces (sphere, shape space: Exp of a finite vector is a unit vector)."""
    if _diameter(manifold) is not None:
        v = np.asarray(v, dtype=float)
        return np.all(np.isfinite(v), axis=tuple(range(1, v.ndim)))
    with np.errstate(all="ignore"):
        try:
            return _representable(manifold, manifold.exp(p, v, check=False))
        except np.linalg.LinAlgError:
            return np.zeros(p.shape[0], dtype=bool)


def _joint_log_target(manifold, x, y, sigma, tau, max_speed, center, radius):
    r"""Log density of :math:`f_1` on the public domain; ``-inf`` outside it and at states that are not
    numerically representable (a function of the state only), never NaN and never raising ``LinAlgError``."""

    def log_target(p, v):
        n_rows = p.shape[0]
        ok = _representable(manifold, p) & np.all(np.isfinite(v.reshape(n_rows, -1)), axis=1)
        with np.errstate(all="ignore"):
            if radius is not None:
                dist = _masked(lambda i: manifold.dist(np.broadcast_to(center, p[i].shape), p[i], check=False), ok, n_rows,
                               np.inf)
                ok &= dist <= radius
            speed = _masked(lambda i: manifold.norm(p[i], v[i]), ok, n_rows, np.inf)
            ok &= speed <= max_speed
            ok[ok] &= _endpoint_ok(manifold, p[ok], v[ok])

        def value(i):
            grads = _gradients(manifold, p[i], v[i], x, y, tau)
            return -np.hypot(grads.footpoint_norm, grads.shooting_norm) / sigma

        return _masked(value, ok, n_rows)

    return log_target


def _domain_representable(manifold, center, radius):
    r"""Whether the PUBLIC footpoint ball :math:`B(m_0, R)` is numerically representable (public inputs only):
    the points :math:`\mathrm{Exp}_{m_0}(R u)` for the frame directions :math:`u = \pm e_j, (\pm e_i \pm e_j)/\sqrt2`
    must be finite, on the manifold and well conditioned."""
    if radius is None or manifold.conditioning_limits is None:  # every point is well conditioned
        return True
    dim = manifold.dim
    eye = np.eye(dim)
    dirs = [s * eye[j] for j in range(dim) for s in (1.0, -1.0)]
    dirs += [(a * eye[i] + b * eye[j]) / np.sqrt(2.0) for i in range(dim) for j in range(i + 1, dim)
             for a in (1.0, -1.0) for b in (1.0, -1.0)]
    coords = radius * np.array(dirs)
    base = np.broadcast_to(center, (len(dirs),) + center.shape)
    with np.errstate(all="ignore"):
        points = manifold.exp(base, manifold.from_frame(base, coords), check=False)
    return bool(np.all(_representable(manifold, points, domain=True)))


def _largest_representable_radius(manifold, center, upper):
    """Largest PUBLIC radius below ``upper`` whose ball passes :func:`_domain_representable` (bisection)."""
    low, high = 0.0, float(upper)
    for _ in range(60):
        mid = 0.5 * (low + high)
        if _domain_representable(manifold, center, mid):
            low = mid
        else:
            high = mid
    return low


def _nonprivate_fit(manifold, x, y):
    """The non-private least-squares fit; if Gauss–Newton stalls in floating point (far from the centre on
    :math:`H^d`), the last iterate (``converged=False``) instead of a data-dependent crash. Constant covariates
    (which the mechanism accepts: its proof does not need distinct covariates) give the tangent-space initial
    guess. Never raises on valid data (the fit is for the data owner only)."""
    failures = (GeoDPError, ValueError, ArithmeticError, np.linalg.LinAlgError)
    if np.ptp(x) > 0.0:  # constant covariates: the fit is not identified; the owner gets the initial guess
        try:
            return fit_geodesic_regression(manifold, x, y)
        except failures:
            pass
    fit = None
    for _ in range(200 if np.ptp(x) > 0.0 else 0):  # replay one step at a time and keep the last iterate
        try:
            step = fit_geodesic_regression(manifold, x, y, max_iter=1,
                                           init=None if fit is None else (fit.footpoint, fit.shooting_vector))
        except failures:
            break
        fit = step
        if step.converged:
            break
    if fit is None:
        try:
            with np.errstate(all="ignore"):
                p, v = _initial_guess(manifold, x, y)
            if not (np.all(np.isfinite(p)) and np.all(np.isfinite(v))):
                raise ArithmeticError("initial guess not finite")
        except failures:
            p, v = y[0], np.zeros_like(y[0])
        fit = GeodesicFit(footpoint=p, shooting_vector=v, energy=float(_energy(manifold, p[None], v[None], x, y)[0]),
                          gradient_norm=float("inf"), n_iter=0, converged=False)
    return GeodesicFit(footpoint=fit.footpoint, shooting_vector=fit.shooting_vector, energy=fit.energy,
                       gradient_norm=fit.gradient_norm, n_iter=fit.n_iter, converged=False)


def _diameter(manifold):
    r"""``manifold.diameter`` on a compact space (:math:`\pi` on :math:`S^d`, :math:`\pi/2` on Kendall shape
    space), else ``None``.

    On these spaces the footpoint domain may be the whole space, radii are capped at the diameter and
    :math:`|v|` at the diameter (a longer geodesic only wraps around)."""
    return float(manifold.diameter) if manifold.is_compact else None


def _step_cap(manifold, max_speed, radius):
    if _diameter(manifold) is not None:
        return _diameter(manifold) / 2.0
    return max(max_speed, radius if radius is not None else max_speed)


def _adapt(log_scale, accept, step, low, high):
    return np.clip(log_scale + (accept - _TARGET_ACCEPTANCE) / (step + 1.0) ** 0.6, low, high)


# ------------------------------------------------------------ diagnostics
_MAX_TRACE = 400  # recorded post-burn-in states per chain (thinned)


def _thinning(n_steps):
    return max(1, -(-n_steps // _MAX_TRACE))


def _footpoint_summaries(manifold, center, p, v):
    r"""Scalar summaries of tangent-bundle states: :math:`d(m_0, p)`, :math:`|v|` and the frame coordinates
    of :math:`\mathrm{Log}_{m_0} p` (shape ``(n_chains, 2 + dim)``)."""
    n_chains = p.shape[0]
    base = np.broadcast_to(center, p.shape)
    coords = manifold.to_frame(base, manifold.log(base, p, check=False)).reshape(n_chains, -1)
    dist = np.asarray(manifold.dist(base, p, check=False), dtype=float).reshape(n_chains, 1)
    speed = np.asarray(manifold.norm(p, v), dtype=float).reshape(n_chains, 1)
    return np.nan_to_num(np.concatenate([dist, speed, coords], axis=1))


def split_rhat(trace):
    r"""Split-:math:`\hat R` (Gelman–Rubin with each chain cut in two halves) of every scalar summary.

    Parameters
    ----------
    trace : array_like, shape ``(n_draws, n_chains, n_summaries)``
        Post-burn-in draws of several chains (``n_draws >= 4``, ``n_chains >= 1``).

    Returns
    -------
    ndarray, shape ``(n_summaries,)``
        :math:`\hat R = \sqrt{\widehat{\mathrm{var}}^+/W}` per summary; values near 1 mean that the chains
        (and the halves of each chain) agree; ``inf`` when some chain did not move while the chains disagree.
    """
    trace = np.asarray(trace, dtype=float)
    half = trace.shape[0] // 2
    if half < 2:
        return np.full(trace.shape[2], np.inf)
    parts = np.concatenate([trace[:half], trace[trace.shape[0] - half:]], axis=1)  # (half, 2 chains, s)
    within = np.mean(np.var(parts, axis=0, ddof=1), axis=0)
    between = np.var(np.mean(parts, axis=0), axis=0, ddof=1) * half
    var_plus = (half - 1) / half * within + between / half
    with np.errstate(divide="ignore", invalid="ignore"):
        rhat = np.sqrt(var_plus / within)
    rhat = np.where(within > 0, rhat, np.where(between > 0, np.inf, 1.0))
    return rhat


def effective_sample_size(trace):
    r"""Multi-chain effective sample size of every scalar summary (Geyer's initial monotone sequence).

    With :math:`m` chains of :math:`n` draws, :math:`W` the mean within-chain variance,
    :math:`\widehat{\mathrm{var}}^+ = \frac{n-1}{n}W + \frac{B}{n}` (:math:`B/n` the variance of the chain means)
    and :math:`\bar\gamma_t` the within-chain autocovariance at lag :math:`t` averaged over chains,
    :math:`\hat\rho_t = 1 - (W - \bar\gamma_t)/\widehat{\mathrm{var}}^+` (so that disagreeing chains lower the
    ESS). The sums :math:`P_j = \hat\rho_{2j} + \hat\rho_{2j+1}` are kept while positive and made
    non-increasing, :math:`\hat\tau = -1 + 2\sum_j P_j` and :math:`\mathrm{ESS} = mn/\hat\tau`
    (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, without rank normalisation). For independent draws
    ESS ≈ :math:`mn`; for an AR(1) chain with coefficient :math:`\phi`, ESS ≈ :math:`mn(1-\phi)/(1+\phi)`.

    Parameters
    ----------
    trace : array_like, shape ``(n_draws, n_chains, n_summaries)``
        Draws of several chains (``n_draws >= 4``).

    Returns
    -------
    ndarray, shape ``(n_summaries,)``
        The ESS of each summary, in :math:`(0, mn \log_{10}(mn)]`; ``0`` for a summary on which the chains
        disagree while none moves.
    """
    trace = np.asarray(trace, dtype=float)
    n, m, count = trace.shape
    if n < 4:
        raise InvalidParameterError(f"trace must have at least 4 draws per chain; got {n}", param="trace")
    centred = trace - trace.mean(axis=0)
    spectrum = np.fft.rfft(centred, n=2 * n, axis=0)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=2 * n, axis=0)[:n] / n  # (lag, chain, summary)
    within = acov[0].mean(axis=0) * n / (n - 1)
    between = n * np.var(trace.mean(axis=0), axis=0, ddof=1) if m > 1 else np.zeros(count)
    var_plus = (n - 1) / n * within + between / n
    out = np.empty(count)
    for s in range(count):
        if not within[s] > 0.0:  # no chain moves: no information if they disagree, else a constant
            out[s] = 0.0 if between[s] > 0.0 else float(n * m)
            continue
        rho = 1.0 - (within[s] - acov[:, :, s].mean(axis=1)) / var_plus[s]
        rho[0] = 1.0
        total, previous = 0.0, np.inf
        for lag in range(0, n - 1, 2):
            pair = rho[lag] + rho[lag + 1]
            if pair < 0.0:
                break
            previous = min(pair, previous)
            total += previous
        tau = max(-1.0 + 2.0 * total, 1.0 / np.log10(max(n * m, 10)))
        out[s] = n * m / tau
    return out


def _public_starts(manifold, center, radius, max_speed):
    r"""Dispersed PUBLIC starting states of the tangent-bundle chains (never the data's fit).

    :math:`(m_0, 0)` and, for every frame direction :math:`\pm e_j` of :math:`T_{m_0}M`, the point
    :math:`\mathrm{Exp}_{m_0}(\pm r e_j)` at the public distance :math:`r = 0.6 R` (half the diameter on the whole
    sphere or shape space) with the public velocity :math:`v_{\max}/2` along the next frame direction there. Also the
    stage-2 starts: frame coordinates :math:`0` and :math:`\pm (v_{\max}/2) e_j`.
    Only the first :data:`_MAX_START_AXES` frame directions are used (``dim`` can reach 96 on shape space,
    where ``1 + 2 dim`` chains per check would dominate the cost without adding evidence).
    Returns ``(points, velocities, shooting_coords)`` with ``1 + 2 min(dim, 8)`` rows each.
    """
    dim = manifold.dim
    reach = _diameter(manifold) / 2.0 if radius is None else 0.6 * radius
    eye = np.eye(dim)
    points, velocities, coords = [center], [np.zeros_like(center)], [np.zeros(dim)]
    for j in range(min(dim, _MAX_START_AXES)):
        for sign in (1.0, -1.0):
            p = manifold.exp(center, manifold.from_frame(center, sign * reach * eye[j]), check=False)
            points.append(p)
            velocities.append(manifold.from_frame(p, 0.5 * max_speed * sign * eye[(j + 1) % dim]))
            coords.append(0.5 * max_speed * sign * eye[j])
    return np.stack(points), np.stack(velocities), np.stack(coords)


def _proxy_data(manifold, n, center, tau, data_radius, radius, max_speed):
    r"""A PUBLIC proxy dataset: same ``n``, :math:`x_i` = linspace(0, 1, n), responses on the geodesic through
    :math:`m_0` along the first frame direction of length :math:`s = \min(\tau_m, v_{\max}/2, R)` (centred at
    :math:`m_0`) plus tangent Gaussian residuals of size about :math:`\min(\tau, 1)/2`, fixed public seed.
    Returns ``(x, y, footpoint, shooting_vector)``."""
    k = _npt(manifold)
    length = min(1.0 if data_radius is None else data_radius, 0.5 * max_speed)
    if radius is not None:
        length = min(length, radius)
    length = max(length, 1e-3)
    half = manifold.from_frame(center, 0.5 * length * np.eye(manifold.dim)[0])
    foot = manifold.exp(center, -half, check=False)
    velocity = _project_tangent(manifold, foot, 2.0 * manifold.log(foot, center, check=False))
    x = np.linspace(0.0, 1.0, n)
    rng = np.random.default_rng(_PROXY_SEED)
    on = manifold.exp(np.broadcast_to(foot, (n,) + foot.shape), x.reshape((n,) + (1,) * k) * velocity, check=False)
    noise = rng.standard_normal((n, manifold.dim)) * (min(tau, 1.0) / (2.0 * np.sqrt(manifold.dim)))
    y = manifold.exp(on, manifold.from_frame(on, noise), check=False)
    return x, y, foot, velocity


_PROXY_CACHE = {}
_PROXY_CACHE_SIZE = 64


def _proxy_check(manifold, n, tau, tau_clip, sigma_p, sigma_v, center, radius, max_speed, data_radius,
                 lengths, burn_in, step_scale, threshold, betas_p=None, betas_v=None, jumps=True):
    r"""Run the convergence check on the PUBLIC proxy dataset (a function of public inputs only; cached).

    For each candidate chain length (in order) run ``2 (1 + 2 min(dim, 8))`` stage-1 chains and as many stage-2 chains
    (at the proxy's public footpoint) from the dispersed public starts, with burn-in ``burn_in`` (``None`` =
    the chain length), and compute split-:math:`\hat R` of the scalar summaries; stop at the first length whose
    largest :math:`\hat R` is below ``threshold``. The chains are tempered on the PUBLIC ladders ``betas_p``,
    ``betas_v`` (:func:`temperature_ladder`) and adapt one proposal scale per rung during burn-in; the adapted
    scales are returned (``scales_footpoint``, ``scales_shooting``) and used, frozen, by the chains on the
    private data. Also returned: the effective sample size of every summary (:func:`effective_sample_size`),
    the swap acceptance between rungs and thinned traces of a few summaries of the cold chains (for plots).
    Returns a dict (all entries public).
    """
    betas_p = np.ones(1) if betas_p is None else np.asarray(betas_p, dtype=float)
    betas_v = np.ones(1) if betas_v is None else np.asarray(betas_v, dtype=float)
    key = (manifold, n, tau, tau_clip, sigma_p, sigma_v, center.tobytes(), radius, max_speed, data_radius,
           tuple(lengths), burn_in, step_scale, threshold, tuple(betas_p), tuple(betas_v), jumps)
    if key in _PROXY_CACHE:
        return _PROXY_CACHE[key]
    x, y, foot, _ = _proxy_data(manifold, n, center, tau, data_radius, radius, max_speed)
    peak = _jump_peak(manifold, _nonprivate_fit(manifold, x, y), x, y, tau_clip) if jumps else None
    starts_p, starts_v, starts_c = _public_starts(manifold, center, radius, max_speed)
    reps = 2
    init_p, init_v = np.repeat(starts_p, reps, axis=0), np.repeat(starts_v, reps, axis=0)
    n_chains = init_p.shape[0]
    feet = np.broadcast_to(foot, init_p.shape).copy()
    init_c = manifold.from_frame(feet, np.repeat(starts_c, reps, axis=0))
    rng = np.random.default_rng(_PROXY_SEED + 1)
    history = []
    for length in lengths:
        warm = length if burn_in is None else burn_in
        trace1, trace2, swap1, swap2 = [], [], {}, {}
        _, _, acc1, scales1 = _joint_footpoint_chain(
            manifold, x, y, sigma_p, tau_clip, max_speed, center, radius, init_p, init_v, n_chains, length, warm,
            step_scale, rng, trace=trace1, betas=betas_p, tempering=swap1, peak=peak)
        _, acc2, scales2 = _shooting_chain(manifold, x, y, feet, sigma_v, tau_clip, max_speed, init_c, length, warm,
                                           step_scale, rng, trace=trace2, betas=betas_v, tempering=swap2,
                                           jumps=jumps)
        trace1, trace2 = np.stack(trace1), np.stack(trace2)
        rhat1, rhat2 = split_rhat(trace1), split_rhat(trace2)
        ess1, ess2 = effective_sample_size(trace1), effective_sample_size(trace2)
        worst = float(max(np.max(rhat1), np.max(rhat2)))
        history.append(dict(chain_length=int(length), burn_in=int(warm), max_rhat=worst,
                            rhat_footpoint=rhat1, rhat_shooting=rhat2, ess_footpoint=ess1, ess_shooting=ess2,
                            min_ess=float(min(np.min(ess1), np.min(ess2))),
                            acceptance_footpoint=float(np.mean(acc1)), acceptance_shooting=float(np.mean(acc2)),
                            swap_footpoint=float(swap1["swap_acceptance"]),
                            swap_shooting=float(swap2["swap_acceptance"]),
                            jump_footpoint=float(swap1["jump_acceptance"]),
                            jump_shooting=float(swap2["jump_acceptance"]),
                            scales_footpoint=np.asarray(scales1), scales_shooting=np.asarray(scales2)))
        if worst < threshold:
            break
    last = history[-1]
    # thinned traces for plots: d(m0, p), |v| and the first coordinate of Log_m0 p (stage 1); the first frame
    # coordinate of v and |v| (stage 2)
    result = dict(passed=bool(last["max_rhat"] < threshold), chain_length=last["chain_length"],
                  burn_in=last["burn_in"], max_rhat=last["max_rhat"], min_ess=last["min_ess"], history=history,
                  n_chains=n_chains, n_starts=starts_p.shape[0], betas_footpoint=betas_p, betas_shooting=betas_v,
                  scales_footpoint=last["scales_footpoint"], scales_shooting=last["scales_shooting"],
                  trace_footpoint=trace1[:, :, :3].astype(np.float32),
                  trace_shooting=trace2[:, :, [0, -1]].astype(np.float32))
    if len(_PROXY_CACHE) >= _PROXY_CACHE_SIZE:
        _PROXY_CACHE.pop(next(iter(_PROXY_CACHE)))
    _PROXY_CACHE[key] = result
    return result


def _jump_peak(manifold, fit, x, y, tau):
    """The peak ``(p, v)`` of the stage-1 law for the mode-jump moves (:func:`joint_peak` from the least-squares
    fit), if it is a finite, representable state (else ``None``: random-walk moves only)."""
    p, v = joint_peak(manifold, fit.footpoint, fit.shooting_vector, x, y, tau)
    if not (np.all(np.isfinite(v)) and bool(_representable(manifold, p[None])[0])):
        return None
    return p, v


def _length_schedule(chain_length, max_chain_length):
    """Candidate chain lengths: the fixed one, or 250, 500, 1000, ... doubling up to the public budget."""
    if chain_length != "auto":
        return [chain_length]
    lengths = [min(_MIN_AUTO_LENGTH, max_chain_length)]
    while lengths[-1] < max_chain_length:
        lengths.append(min(2 * lengths[-1], max_chain_length))
    return lengths


def _propose(manifold, p, v, xi, zeta):
    """Tangent-bundle proposal; a step that leaves the representable range gives NaN (rejected), never an error."""

    return rows_or_nan(lambda i: _bundle_step(manifold, p[i], v[i], xi[i], zeta[i]), p.shape[0], p.shape[1:])


def _joint_footpoint_chain(manifold, x, y, sigma, tau, max_speed, center, radius, init_p, init_v,
                           n_chains, n_steps, burn_in, step_scale, rng, trace=None, betas=None, scales=None,
                           tempering=None, peak=None):
    r"""Tempered multi-scale Metropolis–Hastings on the tangent bundle for :math:`f_1(p, v)`.

    Returns ``(p, v, acceptance, scales)``: the cold (:math:`\beta = 1`) state and post-burn-in acceptance of
    each chain, and the proposal scale of each rung of the temperature ladder (adapted during burn-in when
    ``scales`` is ``None``, else the given frozen ``scales``). ``betas``: the inverse temperatures (``None`` =
    no tempering, one rung); see :func:`_tempered_sampler` for the kernel. ``init_p, init_v`` are one start or
    one per chain. If ``trace`` is a list, the scalar summaries of :func:`_footpoint_summaries` (about
    ``center``) of every chain's cold state are appended to it every few post-burn-in steps. If ``tempering``
    is a dict, the swap and jump acceptance rates are stored in it. ``peak``: the target's peak ``(p, v)`` (the
    least-squares fit) for the mode-jump moves of :class:`~geodp_core.mechanisms.kng_mode_jumps.FootpointJump`
    (``None``: random-walk moves only).
    """
    shape = (n_chains,) + tuple(manifold.point_shape)
    log_target = _joint_log_target(manifold, x, y, sigma, tau, max_speed, center, radius)
    cap = _step_cap(manifold, max_speed, radius)

    def propose(state, scale):
        p, v = state
        rows = p.shape[0]
        noise = rng.standard_normal((rows, 2, manifold.dim)) * scale[:, None, None]
        noise[:, 1] *= _VELOCITY_STEP_RATIO
        # pivot moves: turn the geodesic about its point at a public random covariate x_c (p moves by -x_c dv)
        pivot = rng.uniform(size=rows) < _PIVOT_SHARE
        centre = rng.uniform(size=rows)
        noise[:, 0] = np.where(pivot[:, None], _PIVOT_SLACK * noise[:, 0] - centre[:, None] * noise[:, 1],
                               noise[:, 0])
        xi, zeta = np.moveaxis(manifold.from_frame(p[:, None], noise), 1, 0)
        return _propose(manifold, p, v, xi, zeta)

    def summaries(state):
        return _footpoint_summaries(manifold, center, *state)

    state = (np.broadcast_to(init_p, shape).copy(), np.broadcast_to(init_v, shape).copy())
    jump = None
    domain = _diameter(manifold) if radius is None else radius
    if peak is not None and domain > 0.0 and max_speed > 0.0:  # a degenerate public domain: random walk only
        jump = FootpointJump(manifold, peak[0], peak[1], sigma, center, domain, max_speed, cap)
    state, accepted, scales, swap_rate, jump_rate = _tempered_sampler(
        state, lambda s: log_target(*s), propose, n_chains, n_steps, burn_in, min(step_scale * sigma, cap),
        sigma, cap, rng, betas, scales, trace, summaries, jump)
    if tempering is not None:
        tempering.update(swap_acceptance=swap_rate, jump_acceptance=jump_rate)
    return state[0], state[1], accepted, scales


def _tempered_sampler(state, log_target, propose, n_chains, n_steps, burn_in, start_scale, sigma, cap, rng,
                      betas, scales, trace, summaries, jump=None):
    r"""Parallel-tempering Metropolis–Hastings with multi-scale symmetric proposals, vectorised over chains.

    Every chain :math:`c` carries one replica per rung :math:`t` of the PUBLIC ladder
    :math:`1 = \beta_0 > \beta_1 > \dots` (rows ``c * T + t``); replica :math:`t` targets :math:`\pi^{\beta_t}`.
    Each step: (1) every replica proposes with a symmetric proposal ``propose(state, scale)`` whose scale is
    drawn afresh, independently of the state: with probability 3/4 the rung's scale :math:`s_t` times
    :math:`e^{u}`, :math:`u \sim U(-1.5, 1.5)`, else log-uniform between :math:`\min(\sigma/2, \mathrm{cap})`
    and the cap (a long jump); accepted with probability :math:`\min\{1, (\pi(y')/\pi(y))^{\beta_t}\}`. A
    mixture of kernels each reversible for :math:`\pi^{\beta_t}` is reversible for it. (2) Adjacent rungs
    :math:`(t, t+1)` of the same chain (even pairs on even steps, odd pairs on odd steps) swap states with
    probability :math:`\min\{1, \exp((\beta_t - \beta_{t+1})(\log\pi(y_{t+1}) - \log\pi(y_t)))\}`, which leaves
    :math:`\prod_t \pi^{\beta_t}` invariant, whose marginal on the cold rung is :math:`\pi` (the release is
    the cold state at the end). Chains never share information.

    Scales: if ``scales`` is ``None`` they start at ``start_scale`` :math:`/\sqrt{\beta_t}` and are adapted
    during burn-in, pooled over the chains of a rung (Robbins–Monro on :math:`\log s_t` towards acceptance
    0.3), then frozen; otherwise the given ``scales`` are used unchanged throughout. The mechanism adapts only
    on the PUBLIC proxy dataset and passes the frozen scales to the chains on the private data, so no tuning
    decision depends on the private data.

    Jumps: if ``jump`` is given (a :mod:`~geodp_core.mechanisms.kng_mode_jumps` proposal), every
    :data:`~geodp_core.mechanisms.kng_mode_jumps.JUMP_EVERY`-th step is an independence move from it instead of
    the random-walk move, accepted with probability :math:`\min\{1, (\pi(y')/\pi(y))^{\beta_t} g(y)/g(y')\}`
    (invariant for :math:`\pi^{\beta_t}`); acceptance counts and scale adaptation use the random-walk steps.

    Returns ``(state, cold_acceptance, scales, swap_acceptance, jump_acceptance)`` (the last over the cold
    replicas after burn-in; NaN without jumps).
    """
    betas = np.ones(1) if betas is None else np.asarray(betas, dtype=float)
    n_rungs = betas.size
    rows = n_chains * n_rungs
    state = tuple(np.repeat(s, n_rungs, axis=0) for s in state)
    beta_row = np.tile(betas, n_chains)
    log_pi = log_target(state)  # public starts lie in the domain (checked publicly); never raises
    adapt = scales is None
    high = np.log(cap)
    if adapt:
        log_scale = np.minimum(np.log(start_scale) - 0.5 * np.log(betas), high)
    else:
        log_scale = np.log(np.broadcast_to(np.asarray(scales, dtype=float), (n_rungs,)))
    low = log_scale.min() - 20.0
    jump_low = np.log(min(0.5 * sigma, cap))
    accepted = np.zeros(rows)
    jumped = np.zeros(rows)
    n_walk = n_jump = 0
    swaps = swapped = 0
    thin = _thinning(n_steps)
    cold = np.arange(n_chains) * n_rungs
    jump = None if jump is None else jump.for_rungs(n_rungs)
    for step in range(burn_in + n_steps):
        is_jump = jump is not None and step % JUMP_EVERY == JUMP_EVERY - 1
        if is_jump:  # independence move from the mode-jump proposal g
            log_q = jump.log_density(state)
            proposal, log_q_new = jump.propose(state, rng)
            log_pi_new = log_target(proposal)
            with np.errstate(invalid="ignore"):  # inf - inf = NaN: not accepted
                log_ratio = beta_row * (log_pi_new - log_pi) + log_q - log_q_new
        else:
            local = np.exp(np.tile(log_scale, n_chains) + rng.uniform(-_SCALE_JITTER, _SCALE_JITTER, size=rows))
            long_jump = np.exp(rng.uniform(min(jump_low, high), high, size=rows))
            scale = np.where(rng.uniform(size=rows) < _JUMP_SHARE, long_jump, local)
            proposal = propose(state, scale)
            log_pi_new = log_target(proposal)
            with np.errstate(invalid="ignore"):
                log_ratio = beta_row * (log_pi_new - log_pi)
        with np.errstate(invalid="ignore"):  # -inf - (-inf) = NaN: not accepted
            accept = np.log(rng.uniform(size=rows)) < log_ratio
        state = tuple(np.where(accept.reshape((rows,) + (1,) * (s.ndim - 1)), new, s)
                      for s, new in zip(state, proposal))
        log_pi = np.where(accept, log_pi_new, log_pi)
        if step < burn_in:
            if adapt and not is_jump:
                rate = accept.reshape(n_chains, n_rungs).mean(axis=0)
                log_scale = np.clip(log_scale + (rate - _TARGET_ACCEPTANCE) / (step + 1.0) ** 0.6, low, high)
        elif is_jump:
            jumped += accept
            n_jump += 1
        else:
            accepted += accept
            n_walk += 1
        for t in range(step % 2, n_rungs - 1, 2):  # replica exchange between adjacent rungs
            i = np.arange(n_chains) * n_rungs + t
            j = i + 1
            with np.errstate(invalid="ignore"):
                ok = np.log(rng.uniform(size=n_chains)) < (betas[t] - betas[t + 1]) * (log_pi[j] - log_pi[i])
            swaps += n_chains
            swapped += int(np.count_nonzero(ok))
            a, b = i[ok], j[ok]
            for s in state:
                s[a], s[b] = s[b].copy(), s[a].copy()
            log_pi[a], log_pi[b] = log_pi[b].copy(), log_pi[a].copy()
        if trace is not None and step >= burn_in and (step - burn_in) % thin == 0:
            trace.append(summaries(tuple(s[cold] for s in state)))
    return (tuple(s[cold] for s in state), accepted[cold] / max(n_walk, 1), np.exp(log_scale),
            swapped / swaps if swaps else float("nan"),
            float(np.mean(jumped[cold])) / n_jump if n_jump else float("nan"))


def temperature_ladder(n, eps, factor=2.0):
    r"""The PUBLIC ladder of inverse temperatures :math:`1, 2^{-1/2}, 2^{-1}, \dots, 2^{-(T-1)/2}` of the KNG samplers.

    With residuals clipped at :math:`\tau`, :math:`|\nabla E_\tau| \le n\Delta/2` (the sensitivity is twice the
    largest gradient over :math:`n`), so the log density of :math:`\exp(-|\nabla E_\tau|/\sigma)`,
    :math:`\sigma = f\Delta/\varepsilon`, varies by at most :math:`L = n\varepsilon/(2f)` over the domain. The
    hottest rung :math:`2^{-(T-1)/2} \approx 1/L` sees a nearly flat law (moves freely); rungs a factor
    :math:`\sqrt2` apart keep swaps frequent within each region. Between the narrow cone near the fit and the
    plateau far from it the transition is of first order (no ladder swaps across it); the mode-jump moves of
    :mod:`~geodp_core.mechanisms.kng_mode_jumps` cross it. :math:`T = 1 + \lceil 2\log_2 \max(L, 1)\rceil`, at
    most 12. A function of the public ``n``, ``eps`` and scale factor ``factor`` (2 rigorous, 1 the paper's) only.
    """
    spread = n * eps / (2.0 * factor)
    rungs = min(_MAX_RUNGS, 1 + int(np.ceil(np.log(max(spread, 1.0)) / np.log(_LADDER_RATIO))))
    return _LADDER_RATIO ** -np.arange(rungs, dtype=float)


def _paper_footpoint_chain(manifold, x, y, sigma, tau, max_speed, center, radius, p_hat, v_hat, init_p,
                           n_chains, n_steps, burn_in, step_scale, rng):
    r"""The paper's stage 1: :math:`\exp(-|\nabla_p E(p, \Gamma_{\hat p \to p}\hat v)|/\sigma)` on :math:`M` (generic MH)."""

    def log_target(p):
        n_rows = p.shape[0]
        ok = _representable(manifold, p)
        if radius is not None:
            dist = _masked(lambda i: manifold.dist(np.broadcast_to(center, p[i].shape), p[i], check=False), ok, n_rows, np.inf)
            ok &= dist <= radius

        def value(i):
            v = manifold.parallel_transport(np.broadcast_to(p_hat, p[i].shape), p[i],
                                            np.broadcast_to(v_hat, p[i].shape))
            return -_gradients(manifold, p[i], v, x, y, tau).footpoint_norm / sigma

        return _masked(value, ok, n_rows)

    cap = _step_cap(manifold, max_speed, radius)
    with np.errstate(all="ignore"):  # proposals beyond the representable range get -inf (rejected)
        result = riemannian_metropolis_hastings(
            manifold, log_target, init_p, n_chains, n_steps, min(step_scale * sigma, cap), rng,
            burn_in=burn_in, adapt=burn_in > 0, target_acceptance=_TARGET_ACCEPTANCE,
        )
    return result.samples, result.chain_acceptance, result.proposal_scale


def _shooting_chain(manifold, x, y, footpoints, sigma, tau, max_speed, init_v, n_steps, burn_in, step_scale, rng,
                    trace=None, betas=None, scales=None, tempering=None, jumps=True):
    r"""Tempered multi-scale Metropolis–Hastings for :math:`\exp(-|\nabla_v E(\tilde p, v)|/\sigma)` on
    :math:`\{|v| \le v_{\max}\}` per chain (Euclidean random walk in frame coordinates of :math:`T_{\tilde p}M`,
    the kernel of :func:`_tempered_sampler`). Returns ``(v, acceptance, scales)``.

    If ``trace`` is a list, the frame coordinates of :math:`v` and :math:`|v|` of every chain's cold state are
    appended to it every few post-burn-in steps (comparable across chains only for chains at the same footpoint).
    ``jumps``: add the mode-jump moves of :class:`~geodp_core.mechanisms.kng_mode_jumps.ShootingJump` around each
    footpoint's best shooting vector (:func:`~geodp_core.mechanisms.kng_mode_jumps.shooting_peaks`).
    """
    n_chains = footpoints.shape[0]
    frame = manifold.tangent_frame(footpoints)  # (k, d, *ps)
    axes = "abcdefgh"[: _npt(manifold)]

    def to_vec(coords, feet_frame):
        return np.einsum(f"kd,kd{axes}->k{axes}", coords, feet_frame)

    def log_target(state):
        coords, feet, fr = state
        ok = np.all(np.isfinite(coords), axis=-1)
        ok &= np.linalg.norm(np.where(ok[:, None], coords, 0.0), axis=-1) <= max_speed
        ok[ok] &= _endpoint_ok(manifold, feet[ok], to_vec(coords[ok], fr[ok]))

        def value(i):
            return -_gradients(manifold, feet[i], to_vec(coords[i], fr[i]), x, y, tau).shooting_norm / sigma

        return _masked(value, ok, coords.shape[0])

    def propose(state, scale):
        coords, feet, fr = state
        return coords + rng.standard_normal(coords.shape) * scale[:, None], feet, fr

    def summaries(state):
        coords = state[0]
        return np.concatenate([coords, np.linalg.norm(coords, axis=-1, keepdims=True)], axis=-1)

    state = (manifold.to_frame(footpoints, init_v), footpoints, frame)
    start = min(step_scale * sigma * _VELOCITY_STEP_RATIO, max_speed)
    jump = None
    if jumps and max_speed > 0.0:  # a degenerate public domain: random walk only
        jump = ShootingJump(shooting_peaks(manifold, footpoints, x, y, tau, max_speed), sigma, max_speed)
    state, accepted, scales, swap_rate, jump_rate = _tempered_sampler(
        state, log_target, propose, n_chains, n_steps, burn_in, start, sigma, max_speed, rng, betas, scales,
        trace, summaries, jump)
    if tempering is not None:
        tempering.update(swap_acceptance=swap_rate, jump_acceptance=jump_rate)
    return to_vec(state[0], frame), accepted, scales


# ---------------------------------------------------------------- mechanism
def _public_init_text(manifold, n_starts, radius, max_speed):
    return (f"release chain i starts at public start i mod {n_starts}: (m0, 0) and the points at public "
            f"distance {(_diameter(manifold) / 2 if radius is None else 0.6 * radius):.4g} from m0 along +-frame "
            f"directions with |v| = {0.5 * max_speed:.4g} (never at the non-private fit)")


def _rate(value):
    return "n/a" if not np.isfinite(value) else f"{value:.2f}"


def _sampler_note(n_feet, n_releases, state, init_text):
    chains = (f"{n_releases} independent chain(s) per stage" if n_feet == n_releases else
              f"{n_feet} independent stage-1 chain(s) and {n_releases} stage-2 chains ({n_releases // n_feet} at "
              "each released footpoint)")
    last = state["proxy"]["history"][-1]
    return (
        f"Sampler: parallel-tempering Metropolis–Hastings with multi-scale proposals, {chains}, each with "
        f"{len(state['proxy']['betas_footpoint'])} (stage 1) and "
        f"{len(state['proxy']['betas_shooting'])} (stage 2) replicas at the public inverse temperatures 1, 1/√2, "
        "1/2, ... (only the replica at temperature 1 is released), proposal scales adapted on the public proxy "
        f"dataset and then frozen (no tuning on the private data); every {JUMP_EVERY}th step "
        f"{'' if state['joint'] else 'of stage 2 (the proxy check: of both stages) '}is a mode-jump move "
        "(an independence proposal: with probability 1/2 a K-norm draw of public shape around the peak of the "
        "law, else a uniform draw on the public domain, accepted by the Metropolis–Hastings rule, so the law "
        "targeted is unchanged; the peak is where the gradient of the energy vanishes, computed from the same "
        f"data as the law; jump acceptance on the proxy {_rate(last['jump_footpoint'])} (stage 1), "
        f"{_rate(last['jump_shooting'])} (stage 2)), burn-in "
        f"{state['burn_in']} + {state['chain_length']} steps each (a public choice: {state['how']}); "
        f"public convergence check {'PASSED' if state['proxy']['passed'] else 'FAILED'} (largest split-R̂ "
        f"{state['proxy']['max_rhat']:.3g}, smallest effective sample size {state['proxy']['min_ess']:.0f} over "
        f"{state['proxy']['n_chains']} chains); {init_text}; stage 2 starts "
        "at v = 0. The guarantee is for the exact KNG laws; the chain's output law only approximates them "
        "(approximate sampler): if it is within total variation gamma of the exact law for every dataset, the "
        "release is (eps, (1 + e^eps) gamma)-DP; the check is evidence of a small gamma, not a proof."
    )


def _public_state(manifold, n, eps_p, eps_v, tau, opts, tau_from_data=False):
    r"""Everything the release needs that is computed from PUBLIC inputs: domain, sensitivities, scales, the
    public chain length (proxy check), label, public notes and warnings.

    ``tau_from_data`` (only from :func:`kng_geodesic_regression` with ``tau="data"``): ``tau`` was read from the
    data (not DP); then the footpoint radius is cut back instead of raising (so that no error depends on the
    data) and the returned ``owner`` list may hold a note for the data owner.
    """
    notes, warns, not_dp, owner = [], [], [], []
    if tau_from_data:
        not_dp.append("tau = max_i |e_i| is read from the data (the paper's choice): not DP; tau, the "
                      "sensitivities, sigma and the proxy check below then depend on the data")

    # ------------------------------------------------------ public domain
    center = opts["center"]
    diameter = _diameter(manifold)
    compact = diameter is not None
    data_radius, radius, max_speed = opts["data_radius"], opts["footpoint_radius"], opts["max_speed"]
    if not compact and data_radius is None and (radius is None or max_speed is None):
        raise InvalidParameterError(
            f"data_radius (public radius tau_m of a ball B(center, tau_m) containing the responses) is required on "
            f"{manifold.label}: it fixes the public sampling domain (footpoint_radius = tau_m + tau, "
            f"max_speed = 2 (tau_m + tau)); alternatively pass both footpoint_radius and max_speed",
            param="data_radius",
        )
    if radius is None and data_radius is not None:
        radius = data_radius + tau if not compact or data_radius + tau < diameter else None
    if max_speed is None:
        max_speed = 2.0 * (data_radius + tau) if data_radius is not None else diameter
        if compact:
            max_speed = min(max_speed, diameter)
    if not _domain_representable(manifold, center, radius):
        # A function of public inputs only, except with tau="data" (then the data-derived part of the radius is
        # cut back instead of raising, so that a crash never depends on the private data).
        public_part = opts["footpoint_radius"] if opts["footpoint_radius"] is not None else data_radius
        if tau_from_data and opts["footpoint_radius"] is None and _domain_representable(manifold, center,
                                                                                         public_part):
            radius = _largest_representable_radius(manifold, center, radius)
            owner.append(OWNER_ONLY + f"the data-derived footpoint radius data_radius + tau was cut to {radius:.4g}, "
                         f"the largest ball around the centre that is representable in double precision on "
                         f"{manifold.label}.")
        else:
            name = ("footpoint_radius" if opts["footpoint_radius"] is not None
                    else "data_radius" if not _domain_representable(manifold, center, data_radius) else "tau")
            limit = _largest_representable_radius(manifold, center, radius)
            raise InvalidParameterError(
                f"the public footpoint domain d(center, p) <= {radius:.4g}"
                + ("" if opts["footpoint_radius"] is not None else
                   f" (footpoint_radius = data_radius + tau = {data_radius:g} + {tau:g})")
                + f" is not representable in double precision on {manifold.label}: points that far from the "
                f"centre are numerically singular ({manifold.conditioning_measure} beyond "
                f"{manifold.conditioning_limits[1]:.0e}); use a footpoint radius "
                f"below about {limit:.3g} (a smaller {name})",
                param=name,
            )

    # ------------------------------------------------------ calibration
    k_low = manifold.curvature_bounds[0]
    sens = regression_sensitivities(n, tau, k_low, max_speed)
    factor = 2.0 if opts["scale_convention"] == "rigorous" else 1.0
    if opts["scale_convention"] == "paper":
        not_dp.append("sigma = Delta/eps (the paper's scale): KNG's normalising constant depends on the data, "
                      "so only sigma = 2 Delta/eps is proven eps-DP")
    joint = opts["footpoint_velocity"] == "joint"
    delta_first = sens.joint if joint else sens.footpoint
    sigma_p = factor * delta_first / eps_p
    sigma_v = factor * sens.shooting / eps_v
    tau_clip = tau if opts["clip_residuals"] else None
    if not opts["clip_residuals"] and not (compact and tau >= diameter):
        not_dp.append("unclipped residuals (the paper): the sensitivity bound needs |e_i| <= tau at every sampled "
                      "(p, v), which the sampling domain does not ensure")
    if not joint:
        not_dp.append("stage 1 holds v at the non-private v_hat(D) transported to p (the paper): the density then "
                      "depends on the data through v_hat, which the sensitivity argument (v fixed) does not cover")
    if opts["x_range"] == "data":
        not_dp.append("covariates rescaled by their own min/max (the paper): one record can move every x_i")
    covariate_note = None if opts["x_range"] == "data" else (
        f"Covariates: each is clamped to the public range x_range = [{opts['x_range'][0]:g}, {opts['x_range'][1]:g}] "
        "and rescaled affinely to [0, 1] (a map of each record by public values, so neighbouring datasets stay "
        "neighbouring); the sensitivities hold for every dataset, and no dataset is refused for its covariates.")
    if opts["init"] == "nonprivate":
        not_dp.append("chains start at the non-private fit (p_hat, v_hat) (init='nonprivate', the paper's choice): "
                      "a finite chain's output then depends on the private data beyond the KNG law, through its "
                      "starting point, and is typically more concentrated around p_hat than the exact law")

    notes.append(f"K-norm gradient mechanism for geodesic regression ({SOURCE}).")
    curvature = f"sectional curvature >= k_l = {k_low:g}"
    notes.append(
        f"Sensitivities for n = {n}, public tau = {tau:.4g}, covariates in [0, 1], |v| <= v_max = {max_speed:.4g}, "
        f"{curvature}: Delta_p = 2 tau C_p/n = {sens.footpoint:.4g} (C_p = {sens.jacobi_footpoint:.4g}), "
        f"Delta_v = 2 tau C_v/n = {sens.shooting:.4g} (C_v = {sens.jacobi_shooting:.4g})"
        + (f", joint Delta_(p,v) = √(Delta_p² + Delta_v²) = {sens.joint:.4g}." if joint else ".")
    )
    if covariate_note is not None:
        notes.append(covariate_note)
    if opts["clip_residuals"]:
        notes.append("Residuals are clipped at tau (gradient of the Huber energy), so these bounds hold for every "
                     "dataset and every (p, v) in the domain, whatever the data.")
    domain = f"all of {manifold.label}" if radius is None else f"d(m0, p) <= {radius:.4g}"
    if joint:
        notes.append(
            f"Stage 1 (eps_p = {eps_p:g}): (p, v) drawn jointly from exp(-|(grad_p E, grad_v E)|/sigma_p) on the public "
            f"domain [{domain}] x [|v| <= {max_speed:.4g}] of the tangent bundle; only p is released. "
            f"sigma_p = {factor:g} Delta_(p,v)/eps_p = {sigma_p:.4g}."
        )
    else:
        notes.append(
            f"Stage 1 (eps_p = {eps_p:g}): p drawn from exp(-|grad_p E(p, Gamma v_hat)|/sigma_p) on [{domain}], "
            f"sigma_p = {factor:g} Delta_p/eps_p = {sigma_p:.4g} (the paper's variant)."
        )
    notes.append(
        f"Stage 2 (eps_v = {eps_v:g}): v drawn from exp(-|grad_v E(p~, v)|/sigma_v) on |v| <= {max_speed:.4g} in "
        f"T_p~M, sigma_v = {factor:g} Delta_v/eps_v = {sigma_v:.4g}."
    )
    notes.append(f"Composition: the pair (p~, v~) is (eps_p + eps_v) = {eps_p + eps_v:g}-DP for the exact laws.")
    if opts["scale_convention"] == "rigorous":
        notes.append("sigma = 2 Delta/eps because the normalising constants depend on the data (Soto et al. 2022).")

    # ------------------------------------------------------ public chain length (proxy check)
    auto = opts["chain_length"] == "auto"
    burn_opt = None if opts["burn_in"] == "auto" else opts["burn_in"]
    lengths = _length_schedule(opts["chain_length"], opts["max_chain_length"])
    betas_p, betas_v = temperature_ladder(n, eps_p, factor), temperature_ladder(n, eps_v, factor)
    proxy = _proxy_check(manifold, n, float(tau), tau_clip, float(sigma_p), float(sigma_v), center, radius,
                         float(max_speed), data_radius, lengths, burn_opt, opts["step_scale"],
                         opts["rhat_threshold"], betas_p, betas_v)
    chain_length, burn_in = proxy["chain_length"], proxy["burn_in"]
    threshold = opts["rhat_threshold"]
    tried = ", ".join(f"{h['chain_length']}: {h['max_rhat']:.3f}" for h in proxy["history"])
    proxy_sampler = "" if joint else " (with the joint stage-1 sampler: the paper's stage 1 needs v_hat)"
    if auto:
        how = (f"chain length chosen on a public proxy dataset (same n, x = linspace(0, 1, n), responses around a "
               f"public geodesic through m0 with residuals of size ~min(tau, 1)/2, fixed public seed){proxy_sampler}: "
               f"{proxy['n_chains']} chains per stage from {proxy['n_starts']} dispersed public starts, split-R-hat "
               f"of d(m0, p), |v|, Log_m0 p coordinates (stage 1) and v coordinates, |v| (stage 2), chain length "
               f"doubled from {lengths[0]} up to the public budget max_chain_length = {opts['max_chain_length']} "
               f"until max R-hat < {threshold:g}; max R-hat per length tried: {tried}")
    else:
        how = (f"chain length {chain_length} set by the caller, checked on a public proxy dataset (same n, "
               f"x = linspace(0, 1, n), responses around a public geodesic through m0, fixed public seed)"
               f"{proxy_sampler}: {proxy['n_chains']} chains per stage from {proxy['n_starts']} dispersed public "
               f"starts, max split-R-hat {proxy['max_rhat']:.3f} (threshold {threshold:g})")
    if not proxy["passed"]:
        length = (f"{opts['max_chain_length']} steps (the longest allowed)" if auto
                  else f"the requested {chain_length} steps")
        reason = (f"the public convergence check failed: chains started from different public points still disagree "
                  f"after {length} on a public stand-in dataset (largest split-R̂ {proxy['max_rhat']:.3g}, needs < "
                  f"{threshold:g}), so the sampler's output may be far from the mechanism's law and the ε guarantee "
                  "is not supported")
        not_dp.append(reason)
        warns.append(reason[0].upper() + reason[1:] + ". Try longer chains, a tighter public domain (smaller data "
                     "radius or τ) or a smaller ε (a flatter law mixes faster).")
    label = LABEL_NO_GUARANTEE if not_dp else LABEL_APPROXIMATE
    return dict(
        n=n, eps_p=eps_p, eps_v=eps_v, tau=tau, tau_clip=tau_clip, tau_from_data=tau_from_data, opts=opts,
        center=center, data_radius=data_radius, radius=radius, max_speed=max_speed, sens=sens,
        delta_first=delta_first, sigma_p=sigma_p, sigma_v=sigma_v, joint=joint, proxy=proxy, auto=auto,
        chain_length=chain_length, burn_in=burn_in, threshold=threshold, how=how, label=label,
        notes=tuple(notes), not_dp=tuple(not_dp), warnings=tuple(warns), owner=tuple(owner),
    )


def _prepare_data(manifold, x, y, x_range, n=None):
    """Validated data with covariates clamped and rescaled by the public ``x_range``: ``(x, x_scaled, y, n_clamped)``.

    A dataset outside the mechanism's domain (non-finite covariates, responses off the manifold, wrong shapes)
    is refused with a message that names the argument and the valid range but quotes no record (neither its
    value nor its index). ``n`` (public) is the calibrated number of records, when known.
    """
    try:
        manifold, x, y = _validate_data(manifold, x, y, min_n=2)
    except InvalidParameterError as exc:
        param = getattr(exc, "param", None)
        count = "n" if n is None else f"n = {n}"
        if param == "x":
            message = (f"x must be a 1-D array of {count} finite real covariates (one per response; values outside "
                       "the public x_range are clamped to it)")
        elif param == "y":
            message = (f"y must be a stack of {count} >= 2 points of shape {tuple(manifold.point_shape)}, each "
                       f"finite and on {manifold.label}")
        else:
            raise
        raise type(exc)(message + " (no record is quoted: errors are not part of the data owner's private view)",
                        param=param) from None
    x_scaled, n_clamped = _rescale_covariates(x, x_range)
    return x, x_scaled, y, n_clamped


def _fit_for_owner(manifold, x_scaled, y, n_clamped=0):
    """The non-private fit and its owner-only messages: ``(fit, max_residual, warnings, owner_notes)``.

    Everything here is computed from the private data: it goes to the result's owner-only fields and is
    never raised or emitted as a Python warning."""
    n = y.shape[0]
    warns, owner = [], []
    fit = _nonprivate_fit(manifold, x_scaled, y)
    p_hat, v_hat = fit.footpoint, fit.shooting_vector
    if not fit.converged:
        warns.append(OWNER_ONLY + f"the non-private fit did not converge (gradient norm {fit.gradient_norm:.3g})")
    if n_clamped:
        warns.append(OWNER_ONLY + f"{n_clamped} covariate(s) lay outside the public x_range and were clamped to it.")
    with np.errstate(all="ignore"):
        pred = manifold.exp(np.broadcast_to(p_hat, y.shape), x_scaled.reshape((n,) + (1,) * _npt(manifold)) * v_hat,
                            check=False)
        max_residual = float(np.max(manifold.dist(pred, y, check=False)))
    owner.append(OWNER_ONLY + f"the largest residual at the non-private fit is {max_residual:.4g} (tau is the "
                 "public bound used for clipping).")
    return fit, max_residual, warns, owner


def _release(manifold, x_scaled, y, state, fit, max_residual, warns, owner, n_releases, rng):
    r"""Run the chains on the private data with the public settings ``state``; returns a
    :class:`KNGRegressionResult`. ``warns`` and ``owner`` hold the messages of :func:`_fit_for_owner`."""
    opts = state["opts"]
    warns, owner, notes, not_dp = list(warns), list(owner), list(state["notes"]), list(state["not_dp"])
    p_hat, v_hat = fit.footpoint, fit.shooting_vector
    tau, tau_clip = state["tau"], state["tau_clip"]
    if not state["tau_from_data"] and max_residual > tau:
        if opts["clip_residuals"]:
            warns.append(OWNER_ONLY +
                f"residuals at the non-private fit reach {max_residual:.4g} > tau = {tau:.4g}: the public bound is "
                "wrong for these data. The privacy guarantee still holds here because residuals are clipped at tau, "
                "but the release then targets the clipped (Huber) fit, and the paper's unclipped mechanism would "
                "have NO guarantee (its tau-closeness assumption is violated). Use a larger public tau."
            )
        else:
            warns.append(OWNER_ONLY +
                f"residuals at the non-private fit reach {max_residual:.4g} > tau = {tau:.4g}: the guarantee is VOID "
                "(unclipped gradients, tau-closeness violated)."
            )
    owner.extend(state["owner"])
    center, data_radius = state["center"], state["data_radius"]
    radius, max_speed = state["radius"], state["max_speed"]
    far = float(np.max(manifold.dist(center, y, check=False)))
    owner.append(OWNER_ONLY + f"the responses reach distance {far:.4g} from the public centre.")
    if data_radius is not None and far > data_radius * (1 + 1e-9):
        warns.append(OWNER_ONLY +
            f"responses reach distance {far:.4g} from the public centre, beyond data_radius = {data_radius:.4g}; "
            "the guarantee does not depend on it (residuals are clipped), but the default domain may exclude "
            "the fit"
        )
    speed_hat = float(manifold.norm(p_hat, v_hat))
    dist_hat = float(manifold.dist(center, p_hat, check=False))
    fit_inside = speed_hat <= max_speed and (radius is None or dist_hat <= radius)
    owner.append(OWNER_ONLY + f"non-private fit: |v_hat| = {speed_hat:.4g}, d(center, p_hat) = {dist_hat:.4g}"
                 f" ({'inside' if fit_inside else 'outside'} the public domain); {fit.n_iter} Gauss–Newton "
                 "iterations.")
    if not fit_inside:
        warns.append(OWNER_ONLY +
            f"the non-private fit lies outside the public domain (|v_hat| = {speed_hat:.3g} vs max_speed = "
            f"{max_speed:.3g}" + ("" if radius is None else
                                  f", d(center, p_hat) = {dist_hat:.3g} vs footpoint_radius = {radius:.3g}")
            + "): private fits cannot be close to it"
        )
    warns.extend(state["warnings"])  # public (the proxy check)
    sigma_p, sigma_v, joint = state["sigma_p"], state["sigma_v"], state["joint"]
    chain_length, burn_in, threshold = state["chain_length"], state["burn_in"], state["threshold"]
    proxy = state["proxy"]
    eps_p, eps_v = state["eps_p"], state["eps_v"]

    # ------------------------------------------------------ sampling (private data)
    k = _npt(manifold)
    starts_p, starts_v, starts_c = _public_starts(manifold, center, radius, max_speed)
    n_starts = starts_p.shape[0]
    n_extra = n_starts if opts["owner_diagnostics"] else 0
    per_foot = opts["shooting_per_footpoint"]
    if n_releases % per_foot:  # public: the count of releases and the grid are the caller's choices
        raise InvalidParameterError(
            f"the number of releases ({n_releases}) must be a multiple of shooting_per_footpoint ({per_foot}): "
            "each released footpoint carries that many shooting vectors", param="shooting_per_footpoint")
    n_feet = n_releases // per_foot
    pick = np.arange(n_feet) % n_starts
    pub_p, pub_v = starts_p[pick], starts_v[pick]
    if opts["init"] == "nonprivate":  # the public text is the rule; which branch ran is for the owner only
        init_text = ("chains start at the non-private fit (p_hat, v_hat) (the paper's choice) when it lies in the "
                     "public domain, else at the public starts")
    else:
        init_text = _public_init_text(manifold, n_starts, radius, max_speed)
    if opts["init"] == "nonprivate" and fit_inside:
        rel_p = np.broadcast_to(p_hat, (n_feet,) + p_hat.shape)
        rel_v = np.broadcast_to(v_hat, (n_feet,) + v_hat.shape)
        owner.append(OWNER_ONLY + "the non-private fit lies inside the public domain: the chains started there.")
    else:
        rel_p, rel_v = pub_p, pub_v
        if opts["init"] == "nonprivate":
            owner.append(OWNER_ONLY + "the non-private fit lies outside the public domain, so the chains started "
                         "at public points instead.")
    init_p = np.concatenate([rel_p, starts_p[:n_extra]])
    init_v = np.concatenate([rel_v, starts_v[:n_extra]])
    n_chains = n_feet + n_extra
    trace1 = [] if (opts["owner_diagnostics"] and joint) else None
    common = dict(n_steps=chain_length, burn_in=burn_in, step_scale=opts["step_scale"], rng=rng)
    if joint:  # the public ladder and the proposal scales adapted on the public proxy, frozen
        feet, _, acc1, scale1 = _joint_footpoint_chain(
            manifold, x_scaled, y, sigma_p, tau_clip, max_speed, center, radius, init_p, init_v,
            n_chains=n_chains, trace=trace1, betas=proxy["betas_footpoint"], scales=proxy["scales_footpoint"],
            peak=_jump_peak(manifold, fit, x_scaled, y, tau_clip), **common)
    else:
        feet, acc1, scale1 = _paper_footpoint_chain(
            manifold, x_scaled, y, sigma_p, tau_clip, max_speed, center, radius, p_hat, v_hat, init_p,
            n_chains=n_chains, **common)
    footpoints = np.repeat(feet[:n_feet], per_foot, axis=0)  # footpoint i // per_foot for release i
    if opts["init"] == "nonprivate" and fit_inside:
        start_v = manifold.parallel_transport(np.broadcast_to(p_hat, footpoints.shape), footpoints,
                                              np.broadcast_to(v_hat, footpoints.shape))
        start_v = _project_tangent(manifold, footpoints, start_v)
        speeds = manifold.norm(footpoints, start_v)
        shrink = np.minimum(1.0, 0.999 * max_speed / np.maximum(speeds, 1e-300))
        start_v = start_v * shrink.reshape((-1,) + (1,) * k)
    else:
        start_v = np.zeros_like(footpoints)
    # stage 2: the release chains, plus (owner diagnostics) chains at the first footpoint from dispersed starts
    feet2 = np.concatenate([footpoints, np.broadcast_to(footpoints[0], (n_extra,) + footpoints.shape[1:])])
    start_v2 = np.concatenate([start_v, manifold.from_frame(feet2[n_releases:], starts_c[:n_extra])]) \
        if n_extra else start_v
    trace2 = [] if opts["owner_diagnostics"] else None
    shooting_all, acc2, scale2 = _shooting_chain(
        manifold, x_scaled, y, feet2, sigma_v, tau_clip, max_speed, start_v2, chain_length, burn_in,
        opts["step_scale"], rng, trace=trace2, betas=proxy["betas_shooting"], scales=proxy["scales_shooting"])
    shooting = shooting_all[:n_releases]
    acc1_rel, acc2_rel = np.asarray(acc1, dtype=float)[:n_feet], np.asarray(acc2, dtype=float)[:n_releases]

    notes.append(_sampler_note(n_feet, n_releases, state, init_text))
    if per_foot > 1:
        notes.append(f"{n_feet} footpoint(s), each with {per_foot} shooting vectors drawn at it: every (footpoint, "
                     f"shooting vector) pair alone is {eps_p + eps_v:g}-DP; publishing all of them costs "
                     f"{n_feet:g} × {eps_p:g} + {n_releases:g} × {eps_v:g} = {n_feet * eps_p + n_releases * eps_v:g} "
                     "by composition.")
    elif n_releases > 1:
        notes.append(f"{n_releases} independent releases: each alone is {eps_p + eps_v:g}-DP; publishing all of them "
                     f"costs {n_releases * (eps_p + eps_v):g} by composition.")
    owner.append(OWNER_ONLY + f"acceptance of the release chains {float(np.mean(acc1_rel)):.2f} (stage 1), "
                 f"{float(np.mean(acc2_rel)):.2f} (stage 2).")
    if float(np.min(acc1_rel)) < _LOW_ACCEPTANCE or float(np.min(acc2_rel)) < _LOW_ACCEPTANCE:
        warns.append(OWNER_ONLY +
            f"a Metropolis chain barely moved (minimum acceptance "
            f"{min(float(np.min(acc1_rel)), float(np.min(acc2_rel))):.3f}): increase chain_length / "
            "max_chain_length or change step_scale"
        )

    owner_diag = {
        "footpoint_acceptance": float(np.mean(acc1_rel)),
        "shooting_acceptance": float(np.mean(acc2_rel)),
        "footpoint_acceptance_per_chain": acc1_rel,
        "shooting_acceptance_per_chain": acc2_rel,
        "footpoint_step": float(np.mean(scale1)),
        "shooting_step": float(np.mean(scale2)),
        "nonprivate_fit_iterations": fit.n_iter,
        "max_residual_at_fit": max_residual,
        "nonprivate_speed": speed_hat,
        "nonprivate_distance_to_center": dist_hat,
        "responses_reach": far,
        "n_diagnostic_chains": n_extra,
    }
    if opts["init"] == "nonprivate" and fit_inside:
        owner_diag.update(start_footpoints=np.array(rel_p), start_shooting_vectors=np.array(rel_v))
    if opts["owner_diagnostics"]:
        rhat1 = split_rhat(np.stack(trace1)) if trace1 is not None else None
        ess1 = effective_sample_size(np.stack(trace1)) if trace1 is not None and len(trace1) >= 4 else None
        # stage 2: only chains at the same footpoint are comparable (release chain 0 + the extra chains)
        same_foot = np.stack(trace2)[:, [0] + list(range(n_releases, n_releases + n_extra))]
        rhat2 = split_rhat(same_foot)
        ess2 = effective_sample_size(same_foot) if same_foot.shape[0] >= 4 else np.zeros(same_foot.shape[2])
        worst = float(max(np.max(rhat2), -np.inf if rhat1 is None else np.max(rhat1)))
        least = float(min(np.min(ess2), np.inf if ess1 is None else np.min(ess1)))
        owner_diag.update(rhat_footpoint=rhat1, rhat_shooting=rhat2, max_rhat=worst,
                          ess_footpoint=ess1, ess_shooting=ess2, min_ess=least, passed=bool(worst < threshold))
        owner.append(
            OWNER_ONLY + f"split-R-hat on the private data over {n_chains} stage-1 chains (the release chains and "
            f"{n_extra} extra chains from the public starts) and {1 + n_extra} stage-2 chains at the first released "
            f"footpoint: max R-hat {worst:.3f} ({'below' if worst < threshold else 'NOT below'} {threshold:g}), "
            f"smallest effective sample size {least:.0f}"
            + ("" if rhat1 is not None else "; stage 1 not traced for the paper's variant")
            + ". This does not change the public label or notes (it is not part of the release)."
        )
    for message in not_dp:
        notes.append("NOT DP: " + message + ".")
    for message in state["warnings"]:  # public messages only; the owner's stay data on the result
        warnings.warn(message, RegressionPrivacyWarning, stacklevel=3)

    # the starts of the release chains when they are public (init='public'); with init='nonprivate' they depend
    # on the data (owner_diagnostics only): the keys depend on the public option, never on the data
    public_starts = dict(start_footpoints=np.array(pub_p), start_shooting_vectors=np.array(pub_v)) \
        if opts["init"] == "public" else {}
    diagnostics = {
        "sampler": "tempered multi-scale Metropolis–Hastings",
        "n_chains": n_releases,
        "n_footpoints": n_feet,
        "burn_in": burn_in,
        "chain_length": chain_length,
        "chain_length_mode": "auto" if state["auto"] else "fixed",
        "max_chain_length": opts["max_chain_length"],
        "rhat_threshold": threshold,
        "proxy_passed": proxy["passed"],
        "proxy_max_rhat": proxy["max_rhat"],
        "proxy_history": [{key: (np.array(val) if isinstance(val, np.ndarray) else val) for key, val in h.items()}
                          for h in proxy["history"]],
        "proxy_n_chains": proxy["n_chains"],
        "proxy_acceptance_footpoint": proxy["history"][-1]["acceptance_footpoint"],
        "proxy_acceptance_shooting": proxy["history"][-1]["acceptance_shooting"],
        "proxy_min_ess": proxy["min_ess"],
        "proxy_ess_footpoint": np.array(proxy["history"][-1]["ess_footpoint"]),
        "proxy_ess_shooting": np.array(proxy["history"][-1]["ess_shooting"]),
        "proxy_rhat_footpoint": np.array(proxy["history"][-1]["rhat_footpoint"]),
        "proxy_rhat_shooting": np.array(proxy["history"][-1]["rhat_shooting"]),
        "proxy_swap_footpoint": proxy["history"][-1]["swap_footpoint"],
        "proxy_swap_shooting": proxy["history"][-1]["swap_shooting"],
        "proxy_jump_footpoint": proxy["history"][-1]["jump_footpoint"],
        "proxy_jump_shooting": proxy["history"][-1]["jump_shooting"],
        "proxy_trace_footpoint": np.array(proxy["trace_footpoint"]),
        "proxy_trace_shooting": np.array(proxy["trace_shooting"]),
        "temperatures_footpoint": np.array(proxy["betas_footpoint"]),
        "temperatures_shooting": np.array(proxy["betas_shooting"]),
        "proposal_scales_footpoint": np.array(proxy["scales_footpoint"]),
        "proposal_scales_shooting": np.array(proxy["scales_shooting"]),
        "init": opts["init"],
        "public_start_footpoints": starts_p,
        "public_start_velocities": starts_v,
        **public_starts,
    }
    used = {key: (value.tolist() if isinstance(value, np.ndarray) else value) for key, value in opts.items()}
    used.update(n_releases=n_releases, footpoint_radius=radius, max_speed=max_speed)
    return KNGRegressionResult(
        footpoints=footpoints,
        shooting_vectors=shooting,
        nonprivate_footpoint=p_hat,
        nonprivate_shooting_vector=v_hat,
        guarantee=PureDP(eps_p + eps_v),
        label=state["label"],
        notes=tuple(notes),
        warnings=tuple(warns),
        diagnostics=diagnostics,
        sigma_footpoint=float(sigma_p),
        sigma_shooting=float(sigma_v),
        sensitivity_footpoint=float(state["delta_first"]),
        sensitivity_shooting=float(state["sens"].shooting),
        tau=float(tau),
        max_speed=float(max_speed),
        footpoint_radius=None if radius is None else float(radius),
        center=center,
        x=x_scaled,
        options=used,
        owner_notes=tuple(owner),
        owner_diagnostics=owner_diag,
    )


@register_mechanism
class KNGGeodesicRegression(DatasetMechanism):
    r"""K-norm gradient private geodesic regression as a mechanism object (docs/specification.md §5.8).

    The same two-step contract as the other mechanisms, split along what is public:

    * :meth:`calibrate` takes the target guarantee and PUBLIC inputs only (``n``, ``tau``, the public domain,
      the covariate range and the chain options). It computes the sensitivities, the KNG scales
      :math:`\sigma_p, \sigma_v`, runs the convergence check on the PUBLIC proxy dataset to choose the chain
      length, and sets the honesty label and the (public) notes. Two datasets with the same public inputs
      get identical calibrations.
    * :meth:`sample` takes the private data ``(x, y)`` and runs the Metropolis–Hastings chains with the
      calibrated settings. It returns a :class:`KNGRegressionResult`: the releases (``footpoints``,
      ``shooting_vectors``, ``size`` rows, each alone with the calibrated guarantee) together with the
      owner-only fields (``nonprivate_*``, ``owner_notes``, ``owner_diagnostics``, the warnings starting
      with :data:`OWNER_ONLY`), which are never part of a release.

    :func:`kng_geodesic_regression` is ``calibrate`` followed by ``sample``.

    Unlike the summary-perturbation mechanisms, ``calibrate`` takes the sample size ``n`` and the residual
    bound ``tau`` in place of a sensitivity (the sensitivities are derived from them), and ``sample`` takes
    the dataset in place of a summary: a :class:`~geodp_core.mechanisms.base.DatasetMechanism`, registered
    beside the summary mechanisms but not offered where a summary is released (``get_mechanism``).

    Parameters
    ----------
    manifold : Manifold
        Sphere, hyperbolic space, SPD(m) (any metric) or Euclidean space.
    """

    spec = MechanismSpec(
        name="kng_regression",
        title="K-norm gradient geodesic regression",
        color="#bcbd22",
        notions=("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="K-norm gradient geodesic regression (KNG)",
            notion="(ε_p + ε_v)-DP",
            idea=(
                "Privatise the two parameters of geodesic regression y ≈ Exp(p, x v) one after the other with the K-norm "
                "gradient mechanism: parameters where the gradient of the least-squares energy is small are "
                "exponentially more likely. Only the footpoint p̃ of the first stage is released, then the shooting "
                "vector ṽ at p̃."
            ),
            formula=(
                r"\begin{gathered}(\tilde p, \cdot) \sim \exp\!\Big(-\frac{\sqrt{|\nabla_p E_\tau|^2 + "
                r"|\nabla_v E_\tau|^2}}{\sigma_p}\Big) \\ "
                r"\tilde v \sim \exp\!\Big(-\frac{|\nabla_v E_\tau(\tilde p, v; D)|}{\sigma_v}\Big),\quad "
                r"\sigma = \frac{2\Delta}{\varepsilon}\end{gathered}"
            ),
            guarantee=(
                "(ε_p + ε_v)-DP by composition, under the sampler's approximation: the chains are Metropolis–Hastings, "
                "labelled 'approximate sampler' with their length. σ = 2Δ/ε is rigorous (the normalising constant "
                "depends on D); the paper's σ = Δ/ε, and its first stage with v held at the non-private v̂(D), are "
                "offered only as labelled 'no formal guarantee' options."
            ),
            assumptions=(
                "A PUBLIC residual level τ: residuals are clipped at τ (a Huber energy E_τ) so the sensitivities hold "
                "for every dataset — the paper takes τ = max |e_i| from the data, which is not DP. Sensitivities "
                "Δ_p = 2τ/n when the curvature is ≥ 0, with a cosh factor in negative curvature; a public "
                "domain d(m₀, p) ≤ R, |v| ≤ v_max."
            ),
            sampler=("Parallel-tempering Metropolis–Hastings with multi-scale proposals: on the tangent bundle for "
                     "the first stage (an exact Hastings ratio via the geodesic flow), in frame coordinates of T_p̃ M "
                     "for the second; public temperatures, proposal scales tuned on public stand-in data; burn-in, "
                     "chain length, split-R̂ and effective sample size shown."),
            source="Differentially private geodesic regression (K-norm gradient mechanism), under review.",
        ),
        try_it=None,  # a page of its own: private geodesic regression releases from a dataset
        audit_variants=("data_tau",),
        audit_controls=("data_tau",),
    )
    native_notion = "pure_dp"
    source = SOURCE

    def __init__(self, manifold):
        super().__init__(manifold)
        if self.available():
            _check_manifold(manifold)

    @classmethod
    def availability(cls, manifold):
        """Available where the space declares a closed-form differential of Exp (its ``jacobi_model``): spheres,
        hyperbolic and Euclidean spaces, SPD(m) (any metric), Kendall shape spaces, the rotations SO(3)."""
        if manifold.jacobi_model is not None:
            return Availability(True, "")
        return Availability(False, "private geodesic regression needs the closed-form differential of Exp (the "
                                   "Jacobi fields along a geodesic), which is not implemented on "
                                   f"{manifold.label}")

    # ------------------------------------------------------------- calibration
    def calibrate(self, target, n, tau, **options):
        r"""Calibrate to ``target`` from PUBLIC inputs only (never the data).

        Parameters
        ----------
        target : Guarantee
            ``PureDP(eps)`` (native) or a guarantee met through :math:`\varepsilon`-DP by
            :func:`geodp_core.privacy.pure_dp_budget` (e.g. ``ApproxDP(eps, delta)``: :math:`\delta` unused).
            The budget is split as :math:`\varepsilon_p = s\varepsilon`, :math:`\varepsilon_v = (1-s)\varepsilon`.
        n : int
            Number of records (public), at least 2.
        tau : float
            PUBLIC residual bound and clipping level :math:`\tau > 0` (the paper's data-derived ``"data"`` is
            only available through :func:`kng_geodesic_regression`).
        **options
            footpoint_share : float in (0, 1), default 0.5
                :math:`s = \varepsilon_p/\varepsilon`.
            and the public options of :func:`kng_geodesic_regression` except ``n_releases`` (the ``size`` of
            :meth:`sample`): ``center``, ``data_radius``, ``footpoint_radius``, ``max_speed``, ``x_range``,
            ``chain_length``, ``burn_in``, ``max_chain_length``, ``rhat_threshold``, ``step_scale``,
            ``owner_diagnostics``, ``footpoint_velocity``, ``scale_convention``, ``clip_residuals``, ``init``.

        Returns
        -------
        Calibration
            ``noise``: ``sigma_footpoint``, ``sigma_shooting``, ``sensitivity_footpoint``,
            ``sensitivity_shooting``, ``eps_footpoint``, ``eps_shooting``, ``chain_length``, ``burn_in``,
            ``proxy_passed``, ``proxy_max_rhat``; ``label``: ``"approximate sampler"`` when the public proxy check
            passes and every option is a DP one, else ``"no formal guarantee"`` (the reasons are in ``notes``);
            ``notes``: public only; ``options``: the public state :meth:`sample` needs.

        Raises
        ------
        InvalidParameterError
            (a ``ValueError``) naming the bad argument.
        UnavailableError
            On an unsupported manifold or a target that ε-DP cannot meet.
        """
        self.require_available()
        if not isinstance(target, Guarantee):
            raise InvalidParameterError(
                f"target must be a guarantee (PureDP, ApproxDP, GDP, RDP or ZCDP); got {type(target).__name__}",
                param="target",
            )
        n = check_int(n, "n", low=2, high=10_000_000)
        tau = check_real(tau, "tau", low=0.0)
        options = dict(options)
        share = check_real(options.pop("footpoint_share", 0.5), "footpoint_share", low=0.0, high=1.0)
        if "n_releases" in options:
            raise InvalidParameterError(
                "n_releases is not a calibration option: pass the number of releases as size to sample(...)",
                param="n_releases",
            )
        opts = _parse_options(self.manifold, options)
        budget = pure_dp_budget(target)
        eps = float(budget.value)
        if not eps > 0.0:
            raise InvalidParameterError(f"the target's ε must be positive; got {target.describe()}", param="target")
        return self._calibration(target, budget.achieved, budget.note, share * eps, (1.0 - share) * eps, n, tau,
                                 opts)

    def _calibration(self, target, achieved, how, eps_p, eps_v, n, tau, opts, tau_from_data=False):
        state = _public_state(self.manifold, n, eps_p, eps_v, tau, opts, tau_from_data)
        if opts["init"] == "nonprivate":
            init_text = ("chains start at the non-private fit (p_hat, v_hat) (the paper's choice) when it lies in "
                         "the public domain, else at the public starts")
        else:
            init_text = _public_init_text(self.manifold, state["proxy"]["n_starts"], state["radius"],
                                          state["max_speed"])
        notes = ([f"target met through ε-DP: {how}"] + list(state["notes"])
                 + [_sampler_note(1, 1, state, init_text)] + ["NOT DP: " + m + "." for m in state["not_dp"]])
        proxy = state["proxy"]
        noise = {
            "sigma_footpoint": float(state["sigma_p"]),
            "sigma_shooting": float(state["sigma_v"]),
            "sensitivity_footpoint": float(state["delta_first"]),
            "sensitivity_shooting": float(state["sens"].shooting),
            "eps_footpoint": float(eps_p),
            "eps_shooting": float(eps_v),
            "chain_length": int(state["chain_length"]),
            "burn_in": int(state["burn_in"]),
            "proxy_passed": bool(proxy["passed"]),
            "proxy_max_rhat": float(proxy["max_rhat"]),
        }
        return self._make_calibration(target, achieved, PureDP(eps_p + eps_v), state["delta_first"], noise,
                                      state["label"], notes, {"state": state})

    # ---------------------------------------------------------------- sampling
    def sample(self, data, calibration, size, rng):
        r"""Run the chains on the private data ``data = (x, y)`` with the calibrated public settings.

        Parameters
        ----------
        data : tuple ``(x, y)``
            Covariates (shape ``(n,)``; each is clamped to the public ``x_range``) and responses (``(n, *point_shape)``); ``n``
            must be the calibrated one.
        calibration : Calibration
            From :meth:`calibrate` on this mechanism and manifold.
        size : int
            Independent releases (one chain per stage each), in [1, 1000]; each alone has
            ``calibration.achieved`` (publishing k costs k times the budget).
        rng : numpy.random.Generator or int

        Returns
        -------
        KNGRegressionResult
            ``footpoints`` and ``shooting_vectors`` of shape ``(size, *point_shape)`` are the releases; the
            owner-only fields must not be published.

        Warns
        -----
        RegressionPrivacyWarning
            As :func:`kng_geodesic_regression`: only the PUBLIC messages (a failed public convergence check).

        Raises
        ------
        InvalidParameterError
            For a dataset outside the mechanism's domain (wrong shapes or ``n``, non-finite covariates,
            responses off the manifold), naming the argument and quoting no record. Nothing else about the
            data can make it raise: the control flow (errors, warnings, label, notes) depends on public inputs
            only.
        """
        self._check_calibration(calibration)
        state = calibration.options.get("state") if isinstance(calibration.options, dict) else None
        if state is None:
            raise InvalidParameterError("calibration must come from KNGGeodesicRegression.calibrate(...)",
                                        param="calibration")
        if not isinstance(data, (tuple, list)) or len(data) != 2:
            raise InvalidParameterError(f"data must be a pair (x, y); got {type(data).__name__}", param="data")
        size = check_int(size, "size", low=1, high=1000)
        rng = check_rng(rng)
        _, x_scaled, y, n_clamped = _prepare_data(self.manifold, data[0], data[1], state["opts"]["x_range"],
                                                  state["n"])
        if y.shape[0] != state["n"]:
            raise InvalidParameterError(
                f"data has n = {y.shape[0]} records but the calibration is for n = {state['n']}", param="data")
        fit, max_residual, warns, owner = _fit_for_owner(self.manifold, x_scaled, y, n_clamped)
        return _release(self.manifold, x_scaled, y, state, fit, max_residual, warns, owner, size, rng)



def kng_geodesic_regression(manifold, x, y, eps_p, eps_v, tau, rng, **options):
    r"""Differentially private geodesic regression by the K-norm gradient mechanism (docs/specification.md §5.8).

    Releases a footpoint :math:`\tilde p` (budget :math:`\varepsilon_p`) and then a shooting vector
    :math:`\tilde v \in T_{\tilde p}M` (budget :math:`\varepsilon_v`), together
    :math:`(\varepsilon_p + \varepsilon_v)`-DP for the exact KNG laws

    .. math::
        f_1(p, v) \propto \exp\Big(-\frac{|(\nabla_p E_\tau, \nabla_v E_\tau)(p, v; D)|}{\sigma_p}\Big),\qquad
        f_2(v) \propto \exp\Big(-\frac{|\nabla_v E_\tau(\tilde p, v; D)|}{\sigma_v}\Big),

    :math:`\sigma_p = 2\Delta_{p,v}/\varepsilon_p`, :math:`\sigma_v = 2\Delta_v/\varepsilon_v`, where
    :math:`E_\tau` clips residuals at the public :math:`\tau` and :math:`\Delta` are given by
    :func:`geodp_core.regression.regression_sensitivities`. Sampled by Metropolis–Hastings from public
    starting points with a publicly chosen chain length, hence labelled "approximate sampler" (if the
    sampler's output law is within total variation :math:`\gamma` of the exact law for every dataset, the
    release is :math:`(\varepsilon, (1 + e^\varepsilon)\gamma)`-DP; the public convergence check is evidence
    of a small :math:`\gamma`, not a proof).

    Parameters
    ----------
    manifold : Manifold
        Sphere, hyperbolic space, SPD(m) (any metric), Euclidean space or Kendall shape space
        (curvature in [1, 4]: the sensitivities are those of a space of curvature >= 1).
    x : array_like, shape ``(n,)``
        Covariates; each is clamped to the PUBLIC range ``x_range`` and rescaled affinely to [0, 1] (any finite
        values are accepted; how many were clamped is an owner-only message).
    y : array_like, shape ``(n, *point_shape)``
        Responses, :math:`n \ge 2`.
    eps_p, eps_v : float
        Budgets of the footpoint and shooting-vector stages, in :math:`(0, \infty)`.
    tau : float or "data"
        PUBLIC residual bound and clipping level :math:`\tau > 0` (from domain knowledge, never from the
        data). ``"data"`` uses the paper's :math:`\max_i|\varepsilon_i|` at the non-private fit: NOT DP,
        labelled "no formal guarantee".
    rng : numpy.random.Generator or int
    **options
        n_releases : int, default 1
            Releases (one chain per stage each); each alone has the stated guarantee.
        shooting_per_footpoint : int, default 1
            Shooting vectors drawn at each released footpoint (a divisor of ``n_releases``): ``n_releases /
            shooting_per_footpoint`` stage-1 chains, then ``shooting_per_footpoint`` stage-2 chains at each of
            their footpoints (the paper's figures: 10 footpoints × 10 shooting vectors). Each pair alone has the
            stated guarantee; publishing all costs (footpoints) · ε_p + (pairs) · ε_v.
        chain_length : int or "auto", default "auto"
            Post-burn-in Metropolis steps per chain. ``"auto"``: chosen PUBLICLY by a convergence check on a
            public proxy dataset built from public inputs only (same n, x = linspace(0, 1, n), responses
            around a public geodesic through ``center`` with residuals of size about min(tau, 1)/2, fixed
            public seed): ``2 (1 + 2 min(dim, 8))`` chains per stage from dispersed public starts, split-R̂ of
            d(m0, p), |v|, the frame coordinates of Log_m0 p (stage 1) and of v, |v| (stage 2); the length is
            doubled from 250 until max R̂ < ``rhat_threshold`` or ``max_chain_length`` is reached. An int:
            that length, and the same check runs at that length. Either way the length, the proxy R̂ and
            pass/fail depend on public inputs only (they are in ``notes`` and ``diagnostics``); if the check
            fails the release is labelled "no formal guarantee" with the reason.
        burn_in : int or "auto", default "auto"
            Metropolis steps with step-size adaptation before the counted steps; ``"auto"`` = the chain length.
        max_chain_length : int, default 2000
            PUBLIC budget of the automatic chain length.
        rhat_threshold : float, default 1.05
            The check passes when every split-R̂ on the proxy is below this value.
        owner_diagnostics : bool, default True
            Also run ``1 + 2 min(dim, 8)`` extra chains per stage on the private data from the public starts and
            report split-R̂ and acceptance rates in ``owner_diagnostics`` / ``owner_notes`` (for the data
            owner only; never part of the release; they do not change the label).
        step_scale : float, default 1
            Initial proposal scale as a multiple of :math:`\sigma`.
        center : point, default ``manifold.default_center()``
            PUBLIC centre :math:`m_0` of the data ball and of the footpoint domain.
        data_radius : float, optional
            PUBLIC radius :math:`\tau_m` of a ball :math:`B(m_0, \tau_m)` meant to contain the responses.
            Required on non-compact spaces unless both ``footpoint_radius`` and ``max_speed`` are given.
        footpoint_radius : float, optional
            PUBLIC footpoint domain :math:`d(m_0, p) \le R`; default :math:`\tau_m + \tau` (paper appendix C);
            on :math:`S^d` and Kendall shape space without ``data_radius``, the whole space.
        max_speed : float, optional
            PUBLIC bound :math:`v_{\max}` on :math:`|v|`; default :math:`2(\tau_m + \tau)` (paper appendix C),
            capped at the diameter on the compact spaces (:math:`\pi` on the sphere, :math:`\pi/2` on Kendall shape
            space; the diameter without ``data_radius``). Enters the sensitivity
            when the curvature can be negative. KNG's density is as large near every critical point of
            :math:`E_\tau` (maxima and saddles too), so a tight public domain matters for utility.
        x_range : (float, float) or "data", default (0, 1)
            PUBLIC covariate range; ``"data"`` (min/max of x, the paper's rescaling) is not DP.
        footpoint_velocity : {"joint", "nonprivate"}, default "joint"
            ``"nonprivate"`` holds :math:`v = \Gamma_{\hat p \to p}\hat v` in stage 1 (the paper): no formal guarantee.
        scale_convention : {"rigorous", "paper"}, default "rigorous"
            :math:`\sigma = 2\Delta/\varepsilon` or the paper's :math:`\Delta/\varepsilon` (no formal guarantee).
        clip_residuals : bool, default True
            ``False`` uses raw residuals (the paper): no formal guarantee unless :math:`\tau` is at least the diameter of a compact space.
        init : {"public", "nonprivate"}, default "public"
            ``"public"``: release chain i starts at public start i mod (1 + 2 min(dim, 8)): :math:`(m_0, 0)` or
            :math:`\mathrm{Exp}_{m_0}(\pm r e_j)` (:math:`r = 0.6 R`, half the diameter on the whole sphere or shape space) with
            the public velocity :math:`v_{\max}/2` along a frame direction; stage 2 starts at :math:`v = 0`.
            Never the data's fit. ``"nonprivate"``: start at :math:`(\hat p, \hat v)` (the paper): the finite
            chain's output then depends on the private data beyond the KNG law, so it is labelled "no formal
            guarantee".

    Returns
    -------
    KNGRegressionResult

    Warns
    -----
    RegressionPrivacyWarning
        Only when the public convergence check fails (a public message). The messages computed from the
        private data (residuals at the non-private fit beyond :math:`\tau`, a fit outside the public domain,
        responses beyond the stated ball, clamped covariates, a chain that barely moves) start with "For the
        data owner only" and are returned as data in ``warnings`` (see ``owner_warnings``), never emitted as
        Python warnings (they would otherwise depend on the data and reach logs).
    """
    manifold = _check_manifold(manifold)
    eps_p = check_real(eps_p, "eps_p", low=0.0)
    eps_v = check_real(eps_v, "eps_v", low=0.0)
    if isinstance(tau, str):
        check_option(tau, "tau", ("data",))
    else:
        tau = check_real(tau, "tau", low=0.0)
    rng = check_rng(rng)
    opts = _parse_options(manifold, options)
    _, x_scaled, y, n_clamped = _prepare_data(manifold, x, y, opts["x_range"])
    n = y.shape[0]

    fit, max_residual, warns, owner = _fit_for_owner(manifold, x_scaled, y, n_clamped)
    tau_from_data = isinstance(tau, str)
    if tau_from_data:  # the paper's choice: not DP (labelled), so the "calibration" below reads the data
        tau = max(max_residual, 1e-12)
        owner.append(OWNER_ONLY + f"tau read from the data = {tau:.4g}.")
    target = PureDP(eps_p + eps_v)
    calibration = KNGGeodesicRegression(manifold)._calibration(target, target, "native ε-DP", eps_p, eps_v, n, tau,
                                                               opts, tau_from_data)
    return _release(manifold, x_scaled, y, calibration.options["state"], fit, max_residual, warns, owner,
                    opts["n_releases"], rng)
