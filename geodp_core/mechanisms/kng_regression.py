r"""Private geodesic regression with the K-norm gradient mechanism (SPEC §5.8).

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

Samplers: random-walk Metropolis–Hastings (approximate sampler, SPEC §8). Stage 1 on the tangent
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
from geodp_core.exceptions import InvalidParameterError
from geodp_core.mechanisms.base import LABEL_APPROXIMATE, LABEL_NO_GUARANTEE
from geodp_core.mechanisms.mcmc import riemannian_metropolis_hastings
from geodp_core.privacy import PureDP
from geodp_core.regression import (
    _Geodesic,
    _check_manifold,
    _gradients,
    _npt,
    _project_tangent,
    _validate_data,
    fit_geodesic_regression,
    mean_squared_prediction_error,
    predict,
    regression_sensitivities,
)

__all__ = [
    "KNGRegressionResult",
    "RegressionPrivacyWarning",
    "kng_geodesic_regression",
    "predict",
    "mean_squared_prediction_error",
    "OPTION_DEFAULTS",
    "RegressionDemo",
    "regression_demo",
    "REGRESSION_PRESETS",
    "REGRESSION_SPACES",
]

SOURCE = "Differentially private geodesic regression (KNG), §2.3, §3, appendices A, C, D, F"

OPTION_DEFAULTS = {
    "n_releases": 1,
    "burn_in": 500,
    "chain_length": 1000,
    "step_scale": 1.0,
    "center": None,
    "data_radius": None,
    "footpoint_radius": None,
    "max_speed": None,
    "x_range": (0.0, 1.0),
    "footpoint_velocity": "joint",
    "scale_convention": "rigorous",
    "clip_residuals": True,
    "init": "nonprivate",
}

_VELOCITY_STEP_RATIO = 2.0  # velocity steps are this many times the footpoint steps (E is flatter in v)
_TARGET_ACCEPTANCE = 0.3
_LOW_ACCEPTANCE = 0.02


class RegressionPrivacyWarning(UserWarning):
    """A public assumption of the private regression is violated or the sampler looks unreliable."""


@dataclass(frozen=True)
class KNGRegressionResult:
    r"""Output of :func:`kng_geodesic_regression`.

    Attributes
    ----------
    footpoints, shooting_vectors : ndarray, shape ``(n_releases, *point_shape)``
        Independent private releases :math:`(\tilde p, \tilde v)`; each row alone has ``guarantee``
        (publishing k rows costs k times the budget).
    nonprivate_footpoint, nonprivate_shooting_vector : ndarray
        The least-squares fit :math:`(\hat p, \hat v)` (NOT private: a teaching view).
    guarantee : PureDP
        :math:`(\varepsilon_p + \varepsilon_v)`-DP for the exact KNG law (see ``label``).
    label : str
        ``"approximate sampler"`` or ``"no formal guarantee"`` (SPEC §8).
    notes, warnings : tuple of str
    diagnostics : dict
        Chain lengths, acceptance rates and proposal scales of both stages.
    sigma_footpoint, sigma_shooting : float
        KNG scales :math:`\sigma_p, \sigma_v`.
    sensitivity_footpoint, sensitivity_shooting : float
        The sensitivities used (:math:`\Delta_{p,v}` or :math:`\Delta_p`, and :math:`\Delta_v`).
    tau, max_speed : float
    footpoint_radius : float or None
        Public footpoint domain radius around ``center`` (``None`` = the whole sphere).
    center : ndarray
    x : ndarray
        Covariates after the (public) rescaling to [0, 1].
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
    opts["burn_in"] = check_int(opts["burn_in"], "burn_in", low=0, high=1_000_000)
    opts["chain_length"] = check_int(opts["chain_length"], "chain_length", low=1, high=1_000_000)
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
    compact = manifold.name == "sphere"
    high = np.pi if compact else None
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
    if x_range == "data":
        if np.ptp(x) == 0.0:
            raise InvalidParameterError(f"x must take at least two distinct values; all equal {x[0]!r}", param="x")
        return (x - x.min()) / np.ptp(x)
    low, high = x_range
    scaled = (x - low) / (high - low)
    outside = (scaled < 0.0) | (scaled > 1.0)
    if outside.any():
        idx = int(np.argmax(outside))
        raise InvalidParameterError(
            f"x must lie in the public covariate range x_range=[{low:g}, {high:g}] so that x lies in [0, 1] after "
            f"rescaling; got x[{idx}] = {x[idx]!r} (rescaled {scaled[idx]:.4g})",
            param="x",
        )
    return scaled


# ------------------------------------------------------------------ samplers
def _joint_log_target(manifold, x, y, sigma, tau, max_speed, center, radius):
    def log_target(p, v):
        grads = _gradients(manifold, p, v, x, y, tau)
        value = -np.hypot(grads.footpoint_norm, grads.shooting_norm) / sigma
        inside = manifold.norm(p, v) <= max_speed
        if radius is not None:
            inside &= manifold._dist(center, p) <= radius
        return np.where(inside, value, -np.inf)

    return log_target


def _step_cap(manifold, max_speed, radius):
    if manifold.name == "sphere":
        return np.pi / 2.0
    return max(max_speed, radius if radius is not None else max_speed)


def _adapt(log_scale, accept, step, low, high):
    return np.clip(log_scale + (accept - _TARGET_ACCEPTANCE) / (step + 1.0) ** 0.6, low, high)


def _joint_footpoint_chain(manifold, x, y, sigma, tau, max_speed, center, radius, init_p, init_v,
                           n_chains, n_steps, burn_in, step_scale, rng):
    r"""Random-walk MH on the tangent bundle for :math:`f_1(p, v)`; returns ``(p, v, acceptance, scales)``."""
    k = _npt(manifold)
    shape = (n_chains,) + tuple(manifold.point_shape)
    p = np.broadcast_to(init_p, shape).copy()
    v = np.broadcast_to(init_v, shape).copy()
    log_target = _joint_log_target(manifold, x, y, sigma, tau, max_speed, center, radius)
    log_pi = log_target(p, v)
    if not np.isfinite(log_pi).all():  # pragma: no cover - callers start inside the domain
        raise InvalidParameterError("the footpoint chain must start inside the public domain", param="init")
    cap = _step_cap(manifold, max_speed, radius)
    start = np.log(min(step_scale * sigma, cap))
    log_scale = np.full(n_chains, start)
    low, high = start - 20.0, np.log(cap)
    accepted = np.zeros(n_chains)
    for step in range(burn_in + n_steps):
        scale = np.exp(log_scale)[:, None, None]
        noise = rng.standard_normal((n_chains, 2, manifold.dim)) * scale
        noise[:, 1] *= _VELOCITY_STEP_RATIO
        xi, zeta = np.moveaxis(manifold.from_frame(p[:, None], noise), 1, 0)
        geo = _Geodesic(manifold, p, xi)
        p_new = geo.end_point
        v_new = _project_tangent(manifold, p_new, geo.transport(v + zeta))
        log_pi_new = log_target(p_new, v_new)
        accept = np.log(rng.uniform(size=n_chains)) < log_pi_new - log_pi
        mask = accept.reshape((n_chains,) + (1,) * k)
        p, v = np.where(mask, p_new, p), np.where(mask, v_new, v)
        log_pi = np.where(accept, log_pi_new, log_pi)
        if step < burn_in:
            log_scale = _adapt(log_scale, accept, step, low, high)
        else:
            accepted += accept
    return p, v, accepted / n_steps, np.exp(log_scale)


def _paper_footpoint_chain(manifold, x, y, sigma, tau, max_speed, center, radius, p_hat, v_hat, init_p,
                           n_chains, n_steps, burn_in, step_scale, rng):
    r"""The paper's stage 1: :math:`\exp(-|\nabla_p E(p, \Gamma_{\hat p \to p}\hat v)|/\sigma)` on :math:`M` (generic MH)."""

    def log_target(p):
        v = manifold.parallel_transport(np.broadcast_to(p_hat, p.shape), p, np.broadcast_to(v_hat, p.shape))
        value = -_gradients(manifold, p, v, x, y, tau).footpoint_norm / sigma
        if radius is not None:
            value = np.where(manifold._dist(center, p) <= radius, value, -np.inf)
        return value

    cap = _step_cap(manifold, max_speed, radius)
    result = riemannian_metropolis_hastings(
        manifold, log_target, init_p, n_chains, n_steps, min(step_scale * sigma, cap), rng,
        burn_in=burn_in, adapt=burn_in > 0, target_acceptance=_TARGET_ACCEPTANCE,
    )
    return result.samples, result.chain_acceptance, result.proposal_scale


def _shooting_chain(manifold, x, y, footpoints, sigma, tau, max_speed, init_v, n_steps, burn_in, step_scale, rng):
    r"""Random-walk MH for :math:`\exp(-|\nabla_v E(\tilde p, v)|/\sigma)` on :math:`\{|v| \le v_{\max}\}` per chain."""
    n_chains = footpoints.shape[0]
    frame = manifold.tangent_frame(footpoints)  # (k, d, *ps)
    axes = "abcdefgh"[: _npt(manifold)]

    def to_vec(coords):
        return np.einsum(f"kd,kd{axes}->k{axes}", coords, frame)

    def log_target(coords):
        value = -_gradients(manifold, footpoints, to_vec(coords), x, y, tau).shooting_norm / sigma
        return np.where(np.linalg.norm(coords, axis=-1) <= max_speed, value, -np.inf)

    coords = manifold.to_frame(footpoints, init_v)
    log_pi = log_target(coords)
    start = np.log(min(step_scale * sigma * _VELOCITY_STEP_RATIO, max_speed))
    log_scale = np.full(n_chains, start)
    low, high = start - 20.0, np.log(max_speed)
    accepted = np.zeros(n_chains)
    for step in range(burn_in + n_steps):
        proposal = coords + rng.standard_normal(coords.shape) * np.exp(log_scale)[:, None]
        log_pi_new = log_target(proposal)
        accept = np.log(rng.uniform(size=n_chains)) < log_pi_new - log_pi
        coords = np.where(accept[:, None], proposal, coords)
        log_pi = np.where(accept, log_pi_new, log_pi)
        if step < burn_in:
            log_scale = _adapt(log_scale, accept, step, low, high)
        else:
            accepted += accept
    return to_vec(coords), accepted / n_steps, np.exp(log_scale)


# ---------------------------------------------------------------- mechanism
def kng_geodesic_regression(manifold, x, y, eps_p, eps_v, tau, rng, **options):
    r"""Differentially private geodesic regression by the K-norm gradient mechanism (SPEC §5.8).

    Releases a footpoint :math:`\tilde p` (budget :math:`\varepsilon_p`) and then a shooting vector
    :math:`\tilde v \in T_{\tilde p}M` (budget :math:`\varepsilon_v`), together
    :math:`(\varepsilon_p + \varepsilon_v)`-DP for the exact KNG laws

    .. math::
        f_1(p, v) \propto \exp\Big(-\frac{|(\nabla_p E_\tau, \nabla_v E_\tau)(p, v; D)|}{\sigma_p}\Big),\qquad
        f_2(v) \propto \exp\Big(-\frac{|\nabla_v E_\tau(\tilde p, v; D)|}{\sigma_v}\Big),

    :math:`\sigma_p = 2\Delta_{p,v}/\varepsilon_p`, :math:`\sigma_v = 2\Delta_v/\varepsilon_v`, where
    :math:`E_\tau` clips residuals at the public :math:`\tau` and :math:`\Delta` are given by
    :func:`geodp_core.regression.regression_sensitivities`. Sampled by Metropolis–Hastings, hence
    labelled "approximate sampler".

    Parameters
    ----------
    manifold : Manifold
        Sphere, hyperbolic space, SPD(m) (any metric) or Euclidean space.
    x : array_like, shape ``(n,)``
        Covariates; must lie in the PUBLIC range ``x_range`` (rescaled affinely to [0, 1]).
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
            Independent releases (one chain each); each alone has the stated guarantee.
        burn_in, chain_length : int, default 500, 1000
            Metropolis steps per chain before (with step-size adaptation) and after burn-in.
        step_scale : float, default 1
            Initial proposal scale as a multiple of :math:`\sigma`.
        center : point, default ``manifold.default_center()``
            PUBLIC centre :math:`m_0` of the data ball and of the footpoint domain.
        data_radius : float, optional
            PUBLIC radius :math:`\tau_m` of a ball :math:`B(m_0, \tau_m)` meant to contain the responses.
            Required on non-compact spaces unless both ``footpoint_radius`` and ``max_speed`` are given.
        footpoint_radius : float, optional
            PUBLIC footpoint domain :math:`d(m_0, p) \le R`; default :math:`\tau_m + \tau` (paper appendix C);
            on :math:`S^d` without ``data_radius``, the whole sphere.
        max_speed : float, optional
            PUBLIC bound :math:`v_{\max}` on :math:`|v|`; default :math:`2(\tau_m + \tau)` (paper appendix C),
            capped at :math:`\pi` on the sphere (:math:`\pi` without ``data_radius``). Enters the sensitivity
            when the curvature can be negative. KNG's density is as large near every critical point of
            :math:`E_\tau` (maxima and saddles too), so a tight public domain matters for utility.
        x_range : (float, float) or "data", default (0, 1)
            PUBLIC covariate range; ``"data"`` (min/max of x, the paper's rescaling) is not DP.
        footpoint_velocity : {"joint", "nonprivate"}, default "joint"
            ``"nonprivate"`` holds :math:`v = \Gamma_{\hat p \to p}\hat v` in stage 1 (the paper): no formal guarantee.
        scale_convention : {"rigorous", "paper"}, default "rigorous"
            :math:`\sigma = 2\Delta/\varepsilon` or the paper's :math:`\Delta/\varepsilon` (no formal guarantee).
        clip_residuals : bool, default True
            ``False`` uses raw residuals (the paper): no formal guarantee unless :math:`\tau \ge \pi` on the sphere.
        init : {"nonprivate", "public"}, default "nonprivate"
            Chains start at :math:`(\hat p, \hat v)` (the paper) or at :math:`(m_0, 0)`.

    Returns
    -------
    KNGRegressionResult

    Warns
    -----
    RegressionPrivacyWarning
        When the residuals at the non-private fit exceed :math:`\tau`, the fit lies outside the public
        domain, the responses leave the stated ball, or a chain barely moves. Also listed in ``warnings``.
    """
    manifold, x, y = _validate_data(_check_manifold(manifold), x, y, min_n=2)
    n = y.shape[0]
    eps_p = check_real(eps_p, "eps_p", low=0.0)
    eps_v = check_real(eps_v, "eps_v", low=0.0)
    if isinstance(tau, str):
        check_option(tau, "tau", ("data",))
    else:
        tau = check_real(tau, "tau", low=0.0)
    rng = check_rng(rng)
    opts = _parse_options(manifold, options)
    x_scaled = _rescale_covariates(x, opts["x_range"])
    if np.ptp(x_scaled) == 0.0:
        raise InvalidParameterError(f"x must take at least two distinct values; all equal {x[0]!r}", param="x")

    notes, warns, not_dp = [], [], []
    fit = fit_geodesic_regression(manifold, x_scaled, y)
    p_hat, v_hat = fit.footpoint, fit.shooting_vector
    if not fit.converged:  # pragma: no cover - Gauss–Newton converges on the supported spaces
        warns.append(f"the non-private fit did not converge (gradient norm {fit.gradient_norm:.3g})")
    pred = manifold._exp(np.broadcast_to(p_hat, y.shape), x_scaled.reshape((n,) + (1,) * _npt(manifold)) * v_hat)
    max_residual = float(np.max(manifold._dist(pred, y)))

    if tau == "data":
        tau = max(max_residual, 1e-12)
        not_dp.append(f"tau = max_i |e_i| = {tau:.4g} is read from the data (the paper's choice): not DP")
    elif max_residual > tau:
        if opts["clip_residuals"]:
            warns.append(
                f"residuals at the non-private fit reach {max_residual:.4g} > tau = {tau:.4g}: the public bound is "
                "wrong for these data. The privacy guarantee still holds here because residuals are clipped at tau, "
                "but the release then targets the clipped (Huber) fit, and the paper's unclipped mechanism would "
                "have NO guarantee (its tau-closeness assumption is violated). Use a larger public tau."
            )
        else:
            warns.append(
                f"residuals at the non-private fit reach {max_residual:.4g} > tau = {tau:.4g}: the guarantee is VOID "
                "(unclipped gradients, tau-closeness violated)."
            )

    # ------------------------------------------------------ public domain
    center = opts["center"]
    compact = manifold.name == "sphere"
    data_radius, radius, max_speed = opts["data_radius"], opts["footpoint_radius"], opts["max_speed"]
    if not compact and data_radius is None and (radius is None or max_speed is None):
        raise InvalidParameterError(
            f"data_radius (public radius tau_m of a ball B(center, tau_m) containing the responses) is required on "
            f"{manifold.label}: it fixes the public sampling domain (footpoint_radius = tau_m + tau, "
            f"max_speed = 2 (tau_m + tau)); alternatively pass both footpoint_radius and max_speed",
            param="data_radius",
        )
    if radius is None and data_radius is not None:
        radius = data_radius + tau if not compact else (data_radius + tau if data_radius + tau < np.pi else None)
    if max_speed is None:
        max_speed = 2.0 * (data_radius + tau) if data_radius is not None else np.pi
        if compact:
            max_speed = min(max_speed, np.pi)
    if data_radius is not None:
        far = float(np.max(manifold._dist(center, y)))
        if far > data_radius * (1 + 1e-9):
            warns.append(
                f"responses reach distance {far:.4g} from the public centre, beyond data_radius = {data_radius:.4g}; "
                "the guarantee does not depend on it (residuals are clipped), but the default domain may exclude "
                "the fit"
            )
    speed_hat = float(manifold.norm(p_hat, v_hat))
    fit_inside = speed_hat <= max_speed and (radius is None or float(manifold._dist(center, p_hat)) <= radius)
    if not fit_inside:
        warns.append(
            f"the non-private fit lies outside the public domain (|v_hat| = {speed_hat:.3g} vs max_speed = "
            f"{max_speed:.3g}" + ("" if radius is None else
                                  f", d(center, p_hat) = {float(manifold._dist(center, p_hat)):.3g} vs "
                                  f"footpoint_radius = {radius:.3g}") + "): private fits cannot be close to it"
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
    if not opts["clip_residuals"] and not (compact and tau >= np.pi):
        not_dp.append("unclipped residuals (the paper): the sensitivity bound needs |e_i| <= tau at every sampled "
                      "(p, v), which the sampling domain does not ensure")
    if not joint:
        not_dp.append("stage 1 holds v at the non-private v_hat(D) transported to p (the paper): the density then "
                      "depends on the data through v_hat, which the sensitivity argument (v fixed) does not cover")
    if opts["x_range"] == "data":
        not_dp.append("covariates rescaled by their own min/max (the paper): one record can move every x_i")
    label = LABEL_NO_GUARANTEE if not_dp else LABEL_APPROXIMATE

    notes.append(f"K-norm gradient mechanism for geodesic regression ({SOURCE}).")
    curvature = f"sectional curvature >= k_l = {k_low:g}"
    notes.append(
        f"Sensitivities for n = {n}, public tau = {tau:.4g}, covariates in [0, 1], |v| <= v_max = {max_speed:.4g}, "
        f"{curvature}: Delta_p = 2 tau C_p/n = {sens.footpoint:.4g} (C_p = {sens.jacobi_footpoint:.4g}), "
        f"Delta_v = 2 tau C_v/n = {sens.shooting:.4g} (C_v = {sens.jacobi_shooting:.4g})"
        + (f", joint Delta_(p,v) = sqrt(Delta_p^2 + Delta_v^2) = {sens.joint:.4g}." if joint else ".")
    )
    if opts["clip_residuals"]:
        notes.append("Residuals are clipped at tau (gradient of the Huber energy), so these bounds hold for every "
                     "dataset and every (p, v) in the domain, whatever the data.")
    domain = "the whole sphere" if radius is None else f"d(m0, p) <= {radius:.4g}"
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

    # ------------------------------------------------------ sampling
    k = _npt(manifold)
    n_chains = opts["n_releases"]
    if opts["init"] == "nonprivate" and fit_inside:
        init_p, init_v = p_hat, v_hat
        init_note = ("chains start at the non-private fit (the paper's choice; fast mixing) — a finite chain's "
                     "output still depends on this private starting point, which is part of the sampler "
                     "approximation: use init='public' with long chains to remove it")
    else:
        init_p, init_v = center, np.zeros_like(center)
        init_note = "chains start at the public point (m0, 0)"
        if opts["init"] == "nonprivate":
            init_note += " (the non-private fit lies outside the domain)"
    common = dict(n_chains=n_chains, n_steps=opts["chain_length"], burn_in=opts["burn_in"],
                  step_scale=opts["step_scale"], rng=rng)
    if joint:
        footpoints, _, acc1, scale1 = _joint_footpoint_chain(
            manifold, x_scaled, y, sigma_p, tau_clip, max_speed, center, radius, init_p, init_v, **common)
    else:
        footpoints, acc1, scale1 = _paper_footpoint_chain(
            manifold, x_scaled, y, sigma_p, tau_clip, max_speed, center, radius, p_hat, v_hat,
            np.broadcast_to(init_p, (n_chains,) + tuple(manifold.point_shape)), **common)
    if opts["init"] == "nonprivate":
        start_v = manifold.parallel_transport(np.broadcast_to(p_hat, footpoints.shape), footpoints,
                                              np.broadcast_to(v_hat, footpoints.shape))
        start_v = _project_tangent(manifold, footpoints, start_v)
        speeds = manifold.norm(footpoints, start_v)
        shrink = np.minimum(1.0, 0.999 * max_speed / np.maximum(speeds, 1e-300))
        start_v = start_v * shrink.reshape((-1,) + (1,) * k)
    else:
        start_v = np.zeros_like(footpoints)
    shooting, acc2, scale2 = _shooting_chain(
        manifold, x_scaled, y, footpoints, sigma_v, tau_clip, max_speed, start_v, opts["chain_length"],
        opts["burn_in"], opts["step_scale"], rng)
    notes.append(
        f"Sampler: random-walk Metropolis–Hastings, {n_chains} independent chain(s) per stage, burn-in "
        f"{opts['burn_in']} + {opts['chain_length']} steps each; acceptance {float(np.mean(acc1)):.2f} (stage 1), "
        f"{float(np.mean(acc2)):.2f} (stage 2); {init_note}. The guarantee is for the exact KNG laws; the "
        "chain's output law only approximates them (approximate sampler)."
    )
    if n_chains > 1:
        notes.append(f"{n_chains} independent releases: each alone is {eps_p + eps_v:g}-DP; publishing all of them "
                     f"costs {n_chains * (eps_p + eps_v):g} by composition.")
    if float(np.min(acc1)) < _LOW_ACCEPTANCE or float(np.min(acc2)) < _LOW_ACCEPTANCE:
        warns.append(
            f"a Metropolis chain barely moved (minimum acceptance {min(float(np.min(acc1)), float(np.min(acc2))):.3f}): "
            "increase burn_in / chain_length or change step_scale"
        )
    for message in not_dp:
        notes.append("NOT DP: " + message + ".")
    for message in warns:
        warnings.warn(message, RegressionPrivacyWarning, stacklevel=2)

    diagnostics = {
        "sampler": "random-walk Metropolis–Hastings",
        "n_chains": n_chains,
        "burn_in": opts["burn_in"],
        "chain_length": opts["chain_length"],
        "footpoint_acceptance": float(np.mean(acc1)),
        "shooting_acceptance": float(np.mean(acc2)),
        "footpoint_acceptance_per_chain": np.asarray(acc1, dtype=float),
        "shooting_acceptance_per_chain": np.asarray(acc2, dtype=float),
        "footpoint_step": float(np.mean(scale1)),
        "shooting_step": float(np.mean(scale2)),
        "nonprivate_fit_iterations": fit.n_iter,
        "max_residual_at_fit": max_residual,
    }
    used = {key: (value.tolist() if isinstance(value, np.ndarray) else value) for key, value in opts.items()}
    used.update(footpoint_radius=radius, max_speed=max_speed)
    return KNGRegressionResult(
        footpoints=footpoints,
        shooting_vectors=shooting,
        nonprivate_footpoint=p_hat,
        nonprivate_shooting_vector=v_hat,
        guarantee=PureDP(eps_p + eps_v),
        label=label,
        notes=tuple(notes),
        warnings=tuple(warns),
        diagnostics=diagnostics,
        sigma_footpoint=float(sigma_p),
        sigma_shooting=float(sigma_v),
        sensitivity_footpoint=float(delta_first),
        sensitivity_shooting=float(sens.shooting),
        tau=float(tau),
        max_speed=float(max_speed),
        footpoint_radius=None if radius is None else float(radius),
        center=center,
        x=x_scaled,
        options=used,
    )


# --------------------------------------------------------------- demo helper
REGRESSION_SPACES = {
    "sphere": ("sphere", 2),
    "spd": ("spd", 2, "affine"),
    "hyperbolic": ("hyperbolic", 2),
}

# Ground-truth geodesics of the demo: footpoint = Exp(m0, offset) and shooting vector, both in frame
# coordinates (offset in T_{m0}M, velocity in T_pM); m0 = manifold.default_center().
REGRESSION_PRESETS = {
    "sphere": {"short arc": ([-0.3, -0.2], [0.6, 0.3]), "long arc": ([-0.6, -0.3], [1.2, 0.5])},
    "spd": {"short arc": ([0.2, -0.1, 0.1], [0.5, -0.3, 0.3]), "long arc": ([0.4, -0.3, 0.2], [1.0, -0.8, 0.6])},
    "hyperbolic": {"short arc": ([-0.3, -0.2], [0.6, 0.3]), "long arc": ([-0.6, -0.3], [1.2, 0.5])},
}


@dataclass(frozen=True)
class RegressionDemo:
    """Synthetic data, the true geodesic, a KNG release and prediction errors (what the regression page shows)."""

    manifold: object
    x: np.ndarray
    y: np.ndarray
    true_footpoint: np.ndarray
    true_shooting_vector: np.ndarray
    result: KNGRegressionResult
    mspe_truth: float
    mspe_nonprivate: float
    mspe_private: np.ndarray


def regression_demo(space, n, noise_std, preset, eps_total, footpoint_share, tau, data_radius, chain_length,
                    n_fits, seed, footpoint_velocity="joint", scale_convention="rigorous", tau_from_data=False):
    r"""Generate geodesic-regression data and release ``n_fits`` independent KNG fits (plain-valued inputs).

    Parameters
    ----------
    space : {"sphere", "spd", "hyperbolic"}
        :math:`S^2`, SPD(2) affine-invariant or :math:`H^2`.
    n : int
        Records, in [5, 2000].
    noise_std : float
        Tangent noise standard deviation, in [0, 1].
    preset : str
        A key of ``REGRESSION_PRESETS[space]`` (the true geodesic).
    eps_total : float
        :math:`\varepsilon = \varepsilon_p + \varepsilon_v > 0`.
    footpoint_share : float
        :math:`\varepsilon_p / \varepsilon \in (0, 1)`.
    tau, data_radius : float
        Public residual bound and data-ball radius around ``manifold.default_center()``.
    chain_length : int
        Post-burn-in Metropolis steps (burn-in = half of it).
    n_fits : int
        Independent private fits to draw, in [1, 20].
    seed : int
        Seeds the data and the releases.
    footpoint_velocity, scale_convention : str
        Passed to :func:`kng_geodesic_regression`.
    tau_from_data : bool
        Use the paper's data-derived tau (not DP).

    Returns
    -------
    RegressionDemo
    """
    from geodp_core.data import sample_geodesic_regression
    from geodp_core.geometry import get_manifold

    space = check_option(space, "space", tuple(REGRESSION_SPACES))
    preset = check_option(preset, "preset", tuple(REGRESSION_PRESETS[space]))
    n = check_int(n, "n", low=5, high=2000)
    noise_std = check_real(noise_std, "noise_std", low=0.0, high=1.0, low_closed=True, high_closed=True)
    eps_total = check_real(eps_total, "eps_total", low=0.0)
    footpoint_share = check_real(footpoint_share, "footpoint_share", low=0.0, high=1.0)
    n_fits = check_int(n_fits, "n_fits", low=1, high=20)
    seed = check_int(seed, "seed", low=0, high=2**32 - 1)
    if not isinstance(tau_from_data, (bool, np.bool_)):
        raise InvalidParameterError(f"tau_from_data must be True or False; got {tau_from_data!r}",
                                    param="tau_from_data")
    manifold = get_manifold(*REGRESSION_SPACES[space])
    offset, velocity = REGRESSION_PRESETS[space][preset]
    center = manifold.default_center()
    p0 = manifold._exp(center, manifold.from_frame(center, np.asarray(offset, dtype=float)))
    v0 = manifold.from_frame(p0, np.asarray(velocity, dtype=float))
    data_rng = np.random.default_rng([seed, 0])
    x, y = sample_geodesic_regression(manifold, p0, v0, n, noise_std, data_rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RegressionPrivacyWarning)  # kept in result.warnings
        result = kng_geodesic_regression(
            manifold, x, y, footpoint_share * eps_total, (1.0 - footpoint_share) * eps_total,
            "data" if tau_from_data else tau, np.random.default_rng([seed, 1]),
            n_releases=n_fits, burn_in=max(chain_length // 2, 1), chain_length=chain_length,
            data_radius=data_radius, center=center, footpoint_velocity=footpoint_velocity,
            scale_convention=scale_convention,
        )
    return RegressionDemo(
        manifold=manifold, x=x, y=y, true_footpoint=p0, true_shooting_vector=v0, result=result,
        mspe_truth=mean_squared_prediction_error(manifold, p0, v0, x, y),
        mspe_nonprivate=mean_squared_prediction_error(manifold, *result.nonprivate, x, y),
        mspe_private=np.atleast_1d(mean_squared_prediction_error(manifold, result.footpoints,
                                                                 result.shooting_vectors, x, y)),
    )
