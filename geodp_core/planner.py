r"""The budget planner: inverse questions answered from the exact laws of the release error.

For a distance-isotropic mechanism (Riemannian Laplace, Riemannian Gaussian) the error of a release,
:math:`R = \operatorname{dist}(Y, \eta)` (:math:`\eta` the private summary, e.g. the Fréchet mean of the data),
has a law that depends on the noise scale :math:`\sigma` only: the radial law
:math:`p_\sigma(r) \propto g_\sigma(r) J(r)` (:mod:`geodp_core.geometry.radial`; SPD(2) affine-invariant: the
Struve-function law of the eigen-log radius). Its mean and CDF are exact deterministic quadratures, and both are
monotone in :math:`\sigma` (for :math:`\sigma < \sigma'` the density ratio :math:`p_{\sigma'}/p_\sigma` increases
in :math:`r`, so :math:`R` increases stochastically). Hence

1. :func:`scale_for_error`: the :math:`\sigma^*` with :math:`\mathbb{E}R = e` (or :math:`P[R \le e] = q`), one
   Brent root search in :math:`\log\sigma`;
2. :func:`budget_for_error`: the privacy of the mechanism at :math:`\sigma^*` and the given sensitivity, in the
   notion asked (Laplace: :math:`\varepsilon = \Delta/\sigma^*` on homogeneous spaces; Gaussian: the exact
   :math:`\mu(\sigma^*, \Delta)` of the GDP reduction, then its (ε, δ) or zCDP consequences);
3. :func:`records_for_error`: the smallest number of records :math:`n` whose sensitivity
   :math:`\Delta(n) = C/n` (Fréchet mean in a public ball) lets the given budget reach the target error.

SPD(m ≥ 3) affine-invariant has no closed form of the eigen-log radius law: there the mean and quantiles are
estimated from the exact polar sampler (a fixed seed, :data:`SPD_MONTE_CARLO_SAMPLES` draws): an estimate with a
relative standard error of about 0.3%, not a quadrature. Derivations: ``docs/derivations/privacy_ledger.md``.
"""

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.privacy import (
    GDP,
    ZCDP,
    ApproxDP,
    Guarantee,
    PureDP,
    gdp_budget,
    pure_dp_budget,
)
from geodp_core.privacy.conversions import _eps_dp_to_gdp
from geodp_core.privacy.pld import _gdp_epsilon_for_delta

#: The three model spaces of the curvature comparison: positive, zero and negative constant curvature.
CURVATURE_COMPARISON = ("sphere", "euclidean", "hyperbolic")

__all__ = [
    "SERIES_ACCOUNTANTS",
    "SeriesRow",
    "plan_series",
    "NOTIONS",
    "PLANNER_MECHANISMS",
    "SPD_MONTE_CARLO_SAMPLES",
    "budget_for_error",
    "curvature_comparison",
    "error_quantile_probability",
    "expected_error",
    "records_for_error",
    "scale_for_error",
]

PLANNER_MECHANISMS = ("riemannian_laplace", "riemannian_gaussian")
NOTIONS = ("pure_dp", "approx_dp", "gdp", "zcdp")
SPD_MONTE_CARLO_SAMPLES = 1 << 15
_SPD_SEED = 20240917
_SCALE_MIN, _SCALE_MAX = 1e-8, 1e8
_PANELS = 400
_GL_X, _GL_W = np.polynomial.legendre.leggauss(20)


# ------------------------------------------------------------------------------------------- the error law
def _mechanism(mechanism, manifold):
    from geodp_core.mechanisms import get_mechanism
    from geodp_core.mechanisms.base import Mechanism

    if isinstance(mechanism, Mechanism):
        name = mechanism.name
    else:
        name = mechanism
    name = check_option(name, "mechanism", PLANNER_MECHANISMS)
    mech = get_mechanism(name, manifold)
    mech.require_available()
    return mech


def _radial_mean(law):
    r""":math:`\mathbb{E}R = \int r\,p(r)\,dr` by Gauss–Legendre on panels covering where the (log-concave) density
    is within :math:`e^{-60}` of its peak."""
    mode = float(law.mode)
    peak = float(law.logpdf(np.array([mode]))[0])
    upper = float(law.upper)
    width = max(float(law.scale), 1e-3 * max(mode, 1e-300), 1e-12)

    def low_enough(r):
        return float(law.logpdf(np.array([r]))[0]) < peak - 60.0

    right = mode + width
    while right < upper and not low_enough(right):
        right = mode + 2.0 * (right - mode)
    right = min(right, upper)
    left = max(mode - width, 0.0)
    while left > 0.0 and not low_enough(left):
        left = max(mode - 2.0 * (mode - left), 0.0)
    edges = np.linspace(left, right, _PANELS + 1)
    half = 0.5 * np.diff(edges)
    nodes = edges[:-1, None] + half[:, None] * (_GL_X + 1.0)
    with np.errstate(under="ignore"):
        dens = np.exp(law.logpdf(nodes))
    mass = half * ((dens * nodes) @ _GL_W)
    total = half * (dens @ _GL_W)
    return float(np.sum(mass) / np.sum(total))


class _ErrorLaw:
    """Mean and CDF of dist(Y, η) for one mechanism profile, manifold and scale."""

    def __init__(self, profile, manifold, sigma):
        from geodp_core.geometry.radial import get_radial_law
        from geodp_core.mechanisms.riemannian_laplace import (
            _spd2_radius_law,
            noise_geometry,
        )

        kind, volume = noise_geometry(manifold)
        self.exact = True
        if kind == "radial":
            law = get_radial_law(volume, None, profile, sigma)
            self._mean = lambda: _radial_mean(law)
            self._cdf = lambda x: float(law.cdf(np.array([x]))[0])
        elif manifold.m == 2:
            law = _spd2_radius_law(profile, sigma)
            self._mean = law.mean
            self._cdf = lambda x: float(law.cdf(np.array([x]))[0])
        else:
            radii = _spd_monte_carlo_radii(manifold.m, profile, sigma)
            self.exact = False
            self._mean = lambda: float(np.mean(radii))
            self._cdf = lambda x: float(np.searchsorted(radii, x, side="right") / radii.size)

    def mean(self):
        return self._mean()

    def cdf(self, x):
        return self._cdf(x)


@functools.lru_cache(maxsize=32)
def _spd_monte_carlo_radii(m, profile, sigma):
    from geodp_core.geometry.spd_polar import sample_eigen_logs

    rng = np.random.default_rng(_SPD_SEED)
    return np.sort(np.linalg.norm(sample_eigen_logs(m, profile, sigma, SPD_MONTE_CARLO_SAMPLES, rng), axis=1))


def _profile_of(mech):
    return mech.profile


def expected_error(mechanism, manifold, scale):
    r""":math:`\mathbb{E}\operatorname{dist}(Y, \eta)` of ``mechanism`` at noise scale ``scale`` (exact quadrature;
    SPD(m ≥ 3) affine: Monte Carlo from the exact sampler, fixed seed)."""
    mech = _mechanism(mechanism, manifold)
    sigma = check_real(scale, "scale", low=_SCALE_MIN, high=_SCALE_MAX, low_closed=True, high_closed=True)
    return _ErrorLaw(_profile_of(mech), manifold, sigma).mean()


def error_quantile_probability(mechanism, manifold, scale, error):
    r""":math:`P[\operatorname{dist}(Y, \eta) \le e]` at noise scale ``scale``."""
    mech = _mechanism(mechanism, manifold)
    sigma = check_real(scale, "scale", low=_SCALE_MIN, high=_SCALE_MAX, low_closed=True, high_closed=True)
    error = check_real(error, "error", low=0.0)
    return _ErrorLaw(_profile_of(mech), manifold, sigma).cdf(error)


def _scale_limit(mech):
    limit = getattr(mech, "scale_limit", None)
    top = _SCALE_MAX
    if callable(limit):
        top = min(top, float(limit()) * (1.0 - 1e-9))
    return top


def scale_for_error(mechanism, manifold, target_error, quantile=None):
    r"""The noise scale :math:`\sigma^*` at which the release error meets the target exactly.

    Parameters
    ----------
    mechanism : str or Mechanism
        ``"riemannian_laplace"`` or ``"riemannian_gaussian"``.
    manifold : Manifold
    target_error : float
        :math:`e > 0`, in units of geodesic distance.
    quantile : float, optional
        ``None``: :math:`\mathbb{E}\operatorname{dist}(Y, \eta) = e`; ``q`` in (0, 1):
        :math:`P[\operatorname{dist}(Y, \eta) \le e] = q` (e.g. 0.95: "95% of releases within e").

    Returns
    -------
    float

    Raises
    ------
    UnavailableError
        When no scale reaches the target (on a compact space the error of the noisiest release is bounded:
        e.g. :math:`\mathbb{E}R \to \pi/2` on :math:`S^d` as :math:`\sigma \to \infty`).
    """
    mech = _mechanism(mechanism, manifold)
    e = check_real(target_error, "target_error", low=0.0)
    if quantile is not None:
        quantile = check_real(quantile, "quantile", low=0.0, high=1.0)
    profile = _profile_of(mech)

    top = _scale_limit(mech)

    def gap(log_sigma):
        law = _ErrorLaw(profile, manifold, min(max(math.exp(log_sigma), _SCALE_MIN), top))
        if quantile is None:
            return math.log(law.mean()) - math.log(e)
        return quantile - law.cdf(e)  # increasing in sigma

    log_top, log_bottom = math.log(top), math.log(_SCALE_MIN)
    hi = min(math.log(e), log_top)
    while gap(hi) < 0.0:
        if hi >= log_top:
            raise UnavailableError(
                f"no noise scale of {mech.title} on {manifold.label} gives "
                f"{'a mean error' if quantile is None else f'a {quantile:g}-quantile of the error'} of {e:g}: even "
                f"the largest scale ({math.exp(log_top):.4g}) gives less; ask for a smaller error",
                param="target_error")
        hi = min(hi + 1.0, log_top)
    lo = hi - 1.0
    while gap(lo) > 0.0:
        if lo <= log_bottom:
            raise UnavailableError(f"the target error {e:g} needs a noise scale below {_SCALE_MIN:g}",
                                   param="target_error")
        lo = max(lo - 1.0, log_bottom)
    # a Monte Carlo law (SPD, m >= 3) is resolved to its own accuracy (~0.3%), an exact one to 1e-11
    exact = _ErrorLaw(profile, manifold, min(math.exp(hi), top)).exact
    return float(min(top, math.exp(optimize.brentq(gap, lo, hi, xtol=1e-12 if exact else 1e-4, rtol=1e-11 if exact else 1e-4))))


# ------------------------------------------------------------------------------------- privacy at a scale
def _gaussian_mu(mech, manifold, sigma, sensitivity):
    r"""Exact :math:`\mu(\sigma, \Delta)` of the Riemannian Gaussian (the reduction its calibration uses), with
    ``exact`` False on SPD affine (the flat heuristic Δ/σ the calibration labels "no formal guarantee") and
    ``None`` where the calibration uses the bounded-diameter ε-DP instead (Kendall, k > 20)."""
    from geodp_core.mechanisms import gaussian_gdp, kendall_gdp
    from geodp_core.mechanisms.riemannian_laplace import (
        diameter_capped_sensitivity,
        noise_geometry,
    )

    kind, volume = noise_geometry(manifold)
    delta = diameter_capped_sensitivity(manifold, sensitivity, [])
    if kind != "radial":
        return sensitivity / sigma, False
    if gaussian_gdp.exact_gdp_available(volume):
        return gaussian_gdp.gdp_mu(volume, None, sigma, delta), True
    landmarks = kendall_gdp.complex_projective_landmarks(volume)
    if landmarks is not None and landmarks <= kendall_gdp.KENDALL_EXACT_MAX_K:
        return kendall_gdp.kendall_gdp_mu(landmarks, sigma, delta), True
    return None, True


def _pure_to_notion(eps, notion, delta):
    if notion == "pure_dp":
        return PureDP(eps)
    if notion == "approx_dp":
        return ApproxDP(eps, delta)
    if notion == "gdp":
        return GDP(float(_eps_dp_to_gdp(eps)))
    return ZCDP(0.5 * eps * eps)


def budget_for_error(mechanism, manifold, sensitivity, target_error, notion="pure_dp", quantile=None, delta=None):
    r"""The budget a mechanism needs for a target error of its releases.

    Parameters
    ----------
    mechanism : str or Mechanism
        ``"riemannian_laplace"`` or ``"riemannian_gaussian"``.
    manifold : Manifold
    sensitivity : float
        :math:`\Delta > 0` of the summary (public).
    target_error : float
        Mean geodesic error :math:`\mathbb{E}\operatorname{dist}(Y, \eta)` (or its ``quantile``).
    notion : {"pure_dp", "approx_dp", "gdp", "zcdp"}
        The notion of the returned guarantee (``"approx_dp"`` needs ``delta``).
    quantile : float, optional
        See :func:`scale_for_error`.
    delta : float, optional
        :math:`\delta` of an ``"approx_dp"`` answer.

    Returns
    -------
    Guarantee
        Calibrating the mechanism to it (``calibrate(answer, sensitivity)``) gives the noise scale
        :math:`\sigma^*` of :func:`scale_for_error` (the Riemannian Gaussian's calibration may leave up to 1% of
        :math:`\mu` unused, giving a slightly larger scale).

    Raises
    ------
    UnavailableError
        A pure-DP answer for the Gaussian (unbounded privacy loss; except on Kendall spaces, bounded diameter), or
        an unreachable target.
    """
    mech = _mechanism(mechanism, manifold)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    notion = check_option(notion, "notion", NOTIONS)
    if notion == "approx_dp":
        if delta is None:
            raise InvalidParameterError("delta is required for notion='approx_dp' (a value in (0, 1))", param="delta")
        delta = check_real(delta, "delta", low=0.0, high=1.0)
    sigma = scale_for_error(mech, manifold, target_error, quantile)
    from geodp_core.mechanisms.riemannian_laplace import diameter_capped_sensitivity

    effective = diameter_capped_sensitivity(manifold, sensitivity, [])
    if mech.profile == "laplace":
        factor = 1.0 if manifold.is_homogeneous else 2.0
        return _pure_to_notion(factor * effective / sigma, notion, delta)
    mu, _ = _gaussian_mu(mech, manifold, sigma, sensitivity)
    if mu is None:  # bounded-diameter ε-DP (Kendall, many landmarks): ε = Δ(2D − Δ)/(2σ²)
        return _pure_to_notion(effective * (2.0 * manifold.diameter - effective) / (2.0 * sigma**2), notion, delta)
    if notion == "gdp":
        return GDP(mu)
    if notion == "zcdp":
        return ZCDP(0.5 * mu * mu)
    if notion == "approx_dp":
        return ApproxDP(_gdp_epsilon_for_delta(mu, delta), delta)
    raise UnavailableError(
        f"the Riemannian Gaussian on {manifold.symbol} is not ε-DP for any ε (its privacy loss is unbounded): ask for "
        "an (ε, δ)-DP, μ-GDP or ρ-zCDP budget, or plan the Riemannian Laplace", param="notion")


def records_for_error(mechanism, manifold, target_error, budget, radius, quantile=None):
    r"""Smallest number of records :math:`n` for which the Fréchet mean released at ``budget`` meets the target.

    The sensitivity of the Fréchet mean of :math:`n` records in a public ball of radius ``radius`` is
    :math:`\Delta(n) = C/n` (:func:`geodp_core.summaries.frechet_mean_sensitivity`). The noise scale the budget
    gives grows with :math:`\Delta`; :math:`n` is the least integer with :math:`\sigma(\Delta(n)) \le \sigma^*`
    (:func:`scale_for_error`): Laplace :math:`\Delta_{max} = \sigma^*\varepsilon/f`; Gaussian
    :math:`\mu(\sigma^*, \Delta_{max}) = \mu_{budget}` (root in :math:`\Delta`; μ increases with Δ).

    Parameters
    ----------
    mechanism : str or Mechanism
    manifold : Manifold
    target_error : float
    budget : Guarantee
        The budget of one release (any notion the mechanism's calibration accepts).
    radius : float
        Public ball radius :math:`r` (:math:`r < \pi/(4\sqrt\kappa)` on positively curved spaces).
    quantile : float, optional

    Returns
    -------
    int
    """
    from geodp_core.summaries import frechet_mean_sensitivity

    mech = _mechanism(mechanism, manifold)
    if not isinstance(budget, Guarantee):
        raise InvalidParameterError(f"budget must be a guarantee (PureDP, ApproxDP, GDP, ZCDP, RDP); got "
                                    f"{type(budget).__name__}", param="budget")
    sigma = scale_for_error(mech, manifold, target_error, quantile)
    kappa = manifold.curvature_bounds[1]
    constant = 2.0 * frechet_mean_sensitivity(2, radius, kappa)  # Δ(n) = C/n
    if mech.profile == "laplace":
        factor = 1.0 if manifold.is_homogeneous else 2.0
        delta_max = sigma * pure_dp_budget(budget).value / factor
    else:
        mu_b = gdp_budget(budget).value

        def mu_at(d):
            return _gaussian_mu(mech, manifold, sigma, d)[0]

        if mu_at(constant / 2.0) <= mu_b:
            delta_max = constant / 2.0
        else:
            lo = constant / 2.0
            while mu_at(lo) > mu_b:
                lo /= 2.0
            delta_max = optimize.brentq(lambda d: math.log(mu_at(d)) - math.log(mu_b), lo, 2.0 * lo, xtol=1e-14,
                                        rtol=1e-10)
    n = max(2, math.ceil(constant / delta_max))
    while frechet_mean_sensitivity(n, radius, kappa) > delta_max:
        n += 1
    return n


def curvature_comparison(mechanism, dim, sensitivity, target_error, notion="gdp", quantile=None, delta=None):
    r"""The same question on :math:`S^d`, :math:`\mathbb{R}^d` and :math:`H^d`: ``{label: Guarantee}``
    (curvature's effect side by side)."""
    from geodp_core.geometry import get_manifold

    out = {}
    for code in CURVATURE_COMPARISON:
        manifold = get_manifold(code, dim)
        out[manifold.label] = budget_for_error(mechanism, manifold, sensitivity, target_error, notion, quantile, delta)
    return out


# ------------------------------------------------------------------------------------- a series of releases
#: How a total (ε, δ) budget is split over k equal releases, in the order the plan lists them.
SERIES_ACCOUNTANTS = ("basic", "gdp", "tight")
_ACCOUNTANT_TEXT = {
    "basic": "basic composition: ε/k and δ/k per release",
    "gdp": "GDP composition (the ledger's filter): μ/√k per release, μ the GDP equivalent of the total",
    "tight": "tight composition of a fixed plan: the largest per-release budget whose composed privacy-loss "
             "distribution meets the total",
}


@dataclass(frozen=True)
class SeriesRow:
    """One accountant's plan: the per-release target, the noise it calibrates to and the error it gives."""

    accountant: str
    explanation: str
    per_release: Guarantee
    scale: float
    expected_error: float


def plan_series(mechanism, manifold, sensitivity, total, k):
    r"""The per-release budget of ``k`` equal releases within a total :math:`(\varepsilon, \delta)` budget, by each
    accountant, and the expected geodesic error of a release at that budget (exact radial laws).

    * ``"basic"``: :math:`(\varepsilon/k, \delta/k)` per release (basic composition);
    * ``"gdp"``: :math:`\mu/\sqrt k`-GDP per release, :math:`\mu` the GDP parameter whose profile meets the total
      (GDP composes as :math:`\sqrt{\sum\mu_i^2}`; the privacy ledger's default filter, valid for adaptive choices);
    * ``"tight"``: the largest per-release :math:`\mu` whose ``k``-fold composed privacy-loss distribution
      (:func:`~geodp_core.privacy.compose_releases`) meets :math:`(\varepsilon, \delta)` — a fixed plan.

    Parameters
    ----------
    mechanism : {"riemannian_laplace", "riemannian_gaussian"}
    manifold : Manifold
    sensitivity : float
    total : ApproxDP
    k : int
        Releases, ``1 <= k <= 1000``.

    Returns
    -------
    tuple of SeriesRow
    """
    from geodp_core.privacy import ApproxDP, compose_releases
    from geodp_core.privacy.calibration import gdp_budget

    mech = _mechanism(mechanism, manifold)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    if not isinstance(total, ApproxDP):
        raise InvalidParameterError(f"total must be an ApproxDP(ε, δ) budget; got {total!r}", param="total")
    k = check_int(k, "k", low=1, high=1000)
    eps, delta = float(total.eps), float(total.delta)
    mu_total = gdp_budget(total).value
    targets = {"basic": ApproxDP(eps / k, delta / k), "gdp": GDP(mu_total / math.sqrt(k))}
    if mech.profile == "laplace":
        targets["gdp"] = ApproxDP(eps / k, delta / k)  # ε-DP noise: the plan's GDP row is its ε split
        targets["tight"] = _tight_pure_share(mech, eps, delta, k)
    else:
        lo, hi = mu_total / math.sqrt(k), mu_total  # the tight share lies between the GDP share and the total

        def fits(mu):
            calibration = mech.calibrate(GDP(mu), sensitivity)
            return compose_releases([(calibration, manifold)] * k).epsilon(delta) <= eps

        if fits(hi):
            lo = hi
        for _ in range(12):
            mid = math.sqrt(lo * hi)
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        targets["tight"] = GDP(lo)
    rows = []
    for name in SERIES_ACCOUNTANTS:
        calibration = mech.calibrate(targets[name], sensitivity)
        scale = float(calibration.noise["sigma"])
        rows.append(SeriesRow(name, _ACCOUNTANT_TEXT[name], targets[name], scale,
                              float(expected_error(mech, manifold, scale))))
    return tuple(rows)


def _tight_pure_share(mech, eps, delta, k):
    r"""Largest per-release :math:`\varepsilon_0` whose ``k``-fold composition is :math:`(\varepsilon, \delta)`-DP by
    the optimal composition of :math:`\varepsilon_0`-DP mechanisms (dp_accounting's PLD of the randomized-response
    pair), found by bisection."""
    from geodp_core.privacy import PureDP
    from geodp_core.privacy.pld import guarantee_pld

    lo, hi = eps / k, eps
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        pld = guarantee_pld(PureDP(mid)).self_compose(k) if k > 1 else guarantee_pld(PureDP(mid))
        lo, hi = (mid, hi) if pld.get_epsilon_for_delta(delta) <= eps else (lo, mid)
    return PureDP(lo)
