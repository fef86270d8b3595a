r"""Empirical privacy audit of the private Fréchet mean (docs/specification.md §7).

An audit cannot prove a guarantee; it can refute one. We build two neighbouring
datasets whose Fréchet means are as far apart as we can make them, draw many
releases of a mechanism under each, and look for an event that is much more
likely under one dataset than under the other. For an :math:`(\varepsilon,\delta)`-DP
mechanism every event :math:`S` satisfies

.. math::
    P_D(S) \le e^{\varepsilon} P_{D'}(S) + \delta
    \quad\Longrightarrow\quad
    \varepsilon \ge \log\frac{P_D(S) - \delta}{P_{D'}(S)},

and the same with :math:`D, D'` swapped. With a Clopper–Pearson lower bound
:math:`\underline{\mathrm{TPR}}` on :math:`P_D(S)` and an upper bound :math:`\overline{\mathrm{FPR}}`
on :math:`P_{D'}(S)`, each at level :math:`\alpha/2`,

.. math::
    \hat\varepsilon_{lb} = \max\Big(0,\ \log\frac{\underline{\mathrm{TPR}} - \delta}{\overline{\mathrm{FPR}}}\Big)

is a lower bound on the mechanism's true :math:`\varepsilon` (at the claimed :math:`\delta`) with
probability at least :math:`1-\alpha` — provided the event :math:`S` was fixed before the
evaluation samples were drawn. We therefore choose :math:`S` (statistic, direction, threshold,
which dataset is "positive") on one half of the releases and evaluate it on the other half.
If the bound exceeds the claimed :math:`\varepsilon`, the claim is refuted at confidence :math:`1-\alpha`.

Public entry points: :func:`audit` (a private Fréchet mean), :func:`audit_kng_regression` (the footpoint of KNG
geodesic regression, with a data-derived or a public residual bound) and :func:`audit_all`. See
``docs/derivations/audit.md``.

The study's shape (``Settings`` with declared constraints, ``run``, ``figures``) is
:mod:`geodp_core.studies.audit`, which calls this module.
"""

import dataclasses
import math
import re
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.exceptions import GeoDPError, InvalidParameterError, UnavailableError
from geodp_core.executors import run_cells
from geodp_core.geometry.base import Manifold
from geodp_core.mechanisms import (
    LABEL_NO_GUARANTEE,
    MECHANISM_NAMES,
    get_mechanism,
    mechanism_class,
    mechanism_spec,
    mechanism_specs,
)
from geodp_core.mechanisms.registry import mechanism_names_where
from geodp_core.mechanisms.riemannian_laplace import noise_geometry
from geodp_core.pipeline import public_options, summarise
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    Guarantee,
    PureDP,
    implies,
    log_gdp_delta,
    rdp_to_approx_dp,
    zcdp_to_approx_dp,
)

__all__ = [
    "AuditResult",
    "COMPOSITION_ACCOUNTING",
    "CompositionAuditResult",
    "audit",
    "audit_composition",
    "clopper_pearson",
    "claimed_approx_dp",
    "neighbouring_datasets",
    "VARIANTS",
    "VARIANT_INFO",
    "LAYOUTS",
    "variant_applies",
    "DEFAULT_N_RELEASES",
    "DEFAULT_N",
    "DEFAULT_RADIUS",
    "DEFAULT_ALPHA",
    "DEFAULT_DELTA",
    "UNDERSTATED_SCALE",
    "UNDERSTATED_NOISE",
    "MAX_FRESH_RELEASES",
    "AUDIT_PRESETS",
    "audit_all",
    "control_noise_scale",
    "mean_shift_ratio",
    "NOT_AUDITED",
    "SLOW_RELEASES",
    "audit_kng_regression",
    "regression_neighbouring_datasets",
    "REGRESSION_CONTROL",
    "REGRESSION_INFO",
    "REGRESSION_RELEASES",
    "REGRESSION_BURN_IN",
    "REGRESSION_CHAIN_LENGTH",
    "REGRESSION_N",
    "AUDIT_SPACES",
    "AUDIT_MAX_DIM",
    "AUDIT_LINE_SPACES",
    "audit_space_manifold",
]

DEFAULT_N_RELEASES = 4000
DEFAULT_N = 10
DEFAULT_RADIUS = 0.5
DEFAULT_ALPHA = 0.05
DEFAULT_DELTA = 1e-5
UNDERSTATED_SCALE = 0.25
UNDERSTATED_NOISE = 0.5
MIN_RELEASES = 100
MAX_RELEASES = 400_000
MAX_FRESH_RELEASES = 5000
MAX_N = 1_000_000
LAYOUTS = ("boundary_point", "uniform_ball")
_STATISTIC_TEXT = {
    "dist_to_mean": "dist(release, η)",
    "dist_to_neighbour_mean": "dist(release, η′)",
    "distance_difference": "dist(release, η) − dist(release, η′)",
}
_LAYOUT_TEXT = {"boundary_point": "n copies of one boundary point", "uniform_ball": "uniform in the ball"}
_N_LEVELS = 30  # quantile levels per tail for the candidate thresholds
_LOOSE_LEVEL = 0.3  # one-sided level of the tie-break score (selection only)
_SELECTION_LEVEL = 1e-5  # strictest one-sided level at which candidate events are scored (selection only)
_GRID = 1000  # grid cells per mean shift d(η, η′) that the statistics are rounded to (see _statistics)

def _applies_to(variant):
    """The mechanisms whose spec lists ``variant`` among its audit variants (a live view of the registry)."""
    return mechanism_names_where(lambda spec: variant in spec.audit_variants)


# variant -> (title, mechanisms it applies to, explanation); a mechanism-specific variant applies to the
# mechanisms whose spec lists it (``MechanismSpec.audit_variants``), the last two to every mechanism
VARIANT_INFO = {
    "data_footpoint": (
        "data-dependent footpoint",
        _applies_to("data_footpoint"),
        "the exponential-wrapped mechanism with its footpoint set to the PRIVATE mean itself (p0 = η under D, "
        "p0 = η′ under D′), i.e. noise added in the tangent space at the data-dependent mean (the naive tangent "
        "baseline). The proof needs a PUBLIC footpoint: Log_p0 is then 1-Lipschitz; with p0 = η the volume "
        "distortion of Exp differs between η and η′ and is not paid for. NOT DP as calibrated",
    ),
    "tangent_at_mean": (
        "tangent Gaussian at the mean",
        _applies_to("tangent_at_mean"),
        "the conformal paper's baseline Exp_η(N(0, σ² I)) in the tangent space at the data-dependent mean, σ "
        "calibrated as if Euclidean; exact only on flat spaces, no proof on S², H², SPD affine (this is what the "
        "Tangent Gaussian mechanism does there; the variant only names it)",
    ),
    "understated_sensitivity": (
        "understated sensitivity (power check)",
        MECHANISM_NAMES,
        "the mechanism calibrated with a sensitivity smaller than the true one (Δ × sensitivity_scale, default "
        f"{UNDERSTATED_SCALE:g}): deliberately under-noised, to check that the audit can detect a broken claim",
    ),
    "understated_noise": (
        "understated noise (negative control)",
        MECHANISM_NAMES,
        "the mechanism calibrated correctly, then run with LESS noise than its calibration states: every noise "
        f"scale multiplied by a factor s (default {UNDERSTATED_NOISE:g}; a Laplace or Gaussian σ × s, a diffusion "
        "time t × s², the conformal rate λ* / s) while the claim is left unchanged. For the Laplace mechanism the "
        "true ε becomes ε/s (twice the claim at s = 1/2): a known-broken claim, to check that the audit catches it",
    ),
    "knn_data": (
        "kNN graph on the data points",
        _applies_to("knn_data"),
        "the conformal paper's graph Laplacian built on the DATA points (a kNN graph): the conformal "
        "factor φ then depends on the records outside the sanitised channel. Audited with a fresh calibration "
        "(fresh density sanitisation) for every release, i.e. the whole mechanism; slow (~6 ms per release). The "
        "audit does NOT refute it at a reasonable cost (at ε = 1, n = 10, r = 0.5: lower bounds 0.3–0.8 with "
        "1500–5000 releases for most seeds): the density sanitisation noise hides most of the data dependence "
        "at these settings — not being refuted is not a guarantee",
    ),
}
VARIANTS = tuple(VARIANT_INFO)


def variant_applies(variant, mechanism_name):
    """Whether ``variant`` (``None`` or a name of :data:`VARIANTS`) applies to ``mechanism_name``."""
    return variant is None or mechanism_name in VARIANT_INFO[variant][1]


# ============================================================================ Clopper–Pearson
def clopper_pearson(successes, trials, alpha):
    r"""One-sided Clopper–Pearson bounds on a binomial proportion.

    For :math:`k` successes in :math:`m` trials,

    .. math::
        \underline p = B^{-1}(\alpha;\ k, m-k+1), \qquad
        \overline p = B^{-1}(1-\alpha;\ k+1, m-k),

    :math:`B^{-1}(\cdot; a, b)` the Beta quantile, with :math:`\underline p = 0` for
    :math:`k = 0` and :math:`\overline p = 1` for :math:`k = m`. Each bound alone holds
    with probability at least :math:`1-\alpha` (:math:`P(p < \underline p) \le \alpha`,
    :math:`P(p > \overline p) \le \alpha`); the interval :math:`[\underline p, \overline p]`
    has coverage at least :math:`1 - 2\alpha`.

    Parameters
    ----------
    successes : int or array_like of int
        :math:`0 \le k \le m`.
    trials : int or array_like of int
        :math:`m \ge 1`; broadcast against ``successes``.
    alpha : float
        One-sided error level in :math:`(0, 1)`.

    Returns
    -------
    (lower, upper)
        Floats (scalar inputs) or arrays.
    """
    alpha = check_real(alpha, "alpha", low=0.0, high=1.0)
    scalar = np.ndim(successes) == 0 and np.ndim(trials) == 0
    k = np.asarray(successes)
    m = np.asarray(trials)
    for name, arr in (("successes", k), ("trials", m)):
        if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
            raise InvalidParameterError(f"{name} must be integers; got dtype {arr.dtype}", param=name)
    if np.any(m < 1):
        raise InvalidParameterError(f"trials must be >= 1; got {m.min()!r}", param="trials")
    if np.any(k < 0) or np.any(k > m):
        raise InvalidParameterError("successes must lie in [0, trials]", param="successes")
    k, m = np.broadcast_arrays(k.astype(float), m.astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        lower = np.where(k > 0, special.betaincinv(np.maximum(k, 1.0), m - k + 1.0, alpha), 0.0)
        upper = np.where(k < m, special.betaincinv(k + 1.0, np.maximum(m - k, 1.0), 1.0 - alpha), 1.0)
    if scalar:
        return float(lower), float(upper)
    return lower, upper


# ============================================================================ the claim
def _gdp_eps_at_delta(mu, delta):
    """Smallest ε with δ_μ(ε) <= δ (μ-GDP's privacy profile is decreasing in ε), on the safe side."""
    log_delta = math.log(delta)
    if log_gdp_delta(mu, 0.0) <= log_delta:
        return 0.0
    hi = 1.0
    while log_gdp_delta(mu, hi) > log_delta:
        hi *= 2.0
    eps = optimize.brentq(lambda e: log_gdp_delta(mu, e) - log_delta, 0.0, hi, xtol=1e-14, rtol=1e-14)
    while not implies(GDP(mu), ApproxDP(eps, delta)):  # verified as evaluated
        eps = eps * (1.0 + 1e-12) + 1e-300
    return float(eps)


def claimed_approx_dp(guarantee, delta=DEFAULT_DELTA):
    r"""The :math:`(\varepsilon, \delta)` pair an audit checks for a claimed guarantee.

    ============  ==============================================================================
    claimed       audited pair
    ============  ==============================================================================
    PureDP(ε)     :math:`(\varepsilon, 0)`
    ApproxDP      its own :math:`(\varepsilon, \delta)`
    GDP(μ)        :math:`(\varepsilon, \delta)` with :math:`\delta_\mu(\varepsilon) = \delta` (exact profile)
    RDP(α, ε)     :func:`~geodp_core.privacy.rdp_to_approx_dp` at :math:`\delta`
    ZCDP(ρ)       :func:`~geodp_core.privacy.zcdp_to_approx_dp` at :math:`\delta`
    ============  ==============================================================================

    Parameters
    ----------
    guarantee : Guarantee
    delta : float
        :math:`\delta \in (0, 1)` for the GDP / RDP / zCDP conversions (ignored otherwise).

    Returns
    -------
    (float, float, str)
        :math:`\varepsilon`, :math:`\delta` and a sentence saying how they were obtained.
    """
    if not isinstance(guarantee, Guarantee):
        raise InvalidParameterError(
            f"guarantee must be a PureDP, ApproxDP, GDP, RDP or ZCDP value; got {type(guarantee).__name__}",
            param="guarantee",
        )
    if isinstance(guarantee, PureDP):
        return guarantee.eps, 0.0, f"claimed {guarantee.describe()}: audited as (ε = {guarantee.eps:.4g}, δ = 0)"
    if isinstance(guarantee, ApproxDP):
        return guarantee.eps, guarantee.delta, f"claimed {guarantee.describe()}: audited as stated"
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    if isinstance(guarantee, GDP):
        eps = _gdp_eps_at_delta(guarantee.mu, delta)
        how = "the exact μ-GDP privacy profile δ_μ(ε)"
    elif isinstance(guarantee, RDP):
        eps = float(rdp_to_approx_dp(guarantee.alpha, guarantee.eps, delta))
        how = "the RDP conversion of Canonne, Kamath & Steinke (2020)"
    elif isinstance(guarantee, ZCDP):
        eps = float(zcdp_to_approx_dp(guarantee.rho, delta))
        how = "the zCDP conversion (CKS 2020, optimised over the Rényi order)"
    else:  # pragma: no cover - every Guarantee subclass is handled above
        raise InvalidParameterError(f"unsupported guarantee {guarantee!r}", param="guarantee")
    return eps, delta, (f"claimed {guarantee.describe()}: converted to (ε = {eps:.4g}, δ = {delta:g})-DP with {how}; "
                        "the audit checks this pair")


# ============================================================================ neighbouring datasets
def neighbouring_datasets(manifold, n, radius, layout="boundary_point", rng=None):
    r"""Neighbouring datasets :math:`D \sim D'` in the public ball :math:`B(m_0, r)` with a large mean shift.

    :math:`m_0` = ``manifold.default_center()``, :math:`u` the first vector of its tangent frame.

    ``"boundary_point"``
        :math:`D` = :math:`n` copies of :math:`x = \mathrm{Exp}_{m_0}(r u)`; :math:`D'` = :math:`D` with
        one copy moved to the antipodal boundary point :math:`x' = \mathrm{Exp}_{m_0}(-r u)`. The means
        are :math:`x` and the point at distance :math:`2r/n` from :math:`x` towards :math:`x'`:
        the sensitivity :math:`2r/n` is attained exactly on Hadamard spaces.
    ``"uniform_ball"``
        :math:`D` uniform in the ball (seeded by ``rng``); the record farthest from :math:`m_0`,
        :math:`x_i = \mathrm{Exp}_{m_0}(t u_i)`, moved to :math:`\mathrm{Exp}_{m_0}(-r u_i)`.

    Parameters
    ----------
    manifold : Manifold
    n : int
        Records, :math:`n \ge 2`.
    radius : float
        Public radius, :math:`0 < r < r^*`.
    layout : {"boundary_point", "uniform_ball"}
    rng : numpy.random.Generator or int, optional
        Needed for ``"uniform_ball"``.

    Returns
    -------
    (D, D_prime, moved_index)
    """
    _check_manifold(manifold)
    n = check_int(n, "n", low=2, high=MAX_N)
    radius = manifold.check_radius(radius, "radius")
    layout = check_option(layout, "layout", LAYOUTS)
    center = manifold.default_center()
    if layout == "boundary_point":
        direction = manifold.tangent_frame(center)[0]
        x = manifold.exp(center, radius * direction, check=False)
        data = np.repeat(x[None], n, axis=0)
        moved = n - 1
        far = manifold.exp(center, -radius * direction, check=False)
    else:
        from geodp_core.data import sample_uniform_ball

        if rng is None:
            raise InvalidParameterError("rng is required for layout='uniform_ball'", param="rng")
        data = sample_uniform_ball(manifold, center, radius, n, rng)
        logs = manifold.log(center, data, check=False)
        norms = manifold.norm(center, logs)
        moved = int(np.argmax(norms))
        direction = logs[moved] / norms[moved]
        far = manifold.exp(center, -radius * direction, check=False)
    neighbour = data.copy()
    neighbour[moved] = far
    return data, neighbour, moved


def _check_manifold(manifold):
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
            param="manifold",
        )
    return manifold


# ============================================================================ the result
@dataclass(frozen=True, eq=False)
class AuditResult:
    r"""Outcome of :func:`audit`.

    Attributes
    ----------
    mechanism, manifold : str
        Registry name and manifold label.
    variant : str or None
    label : str
        Honesty label of what was audited (a variant is "no formal guarantee").
    target, achieved : Guarantee
        Requested and claimed (achieved) guarantee.
    claimed_eps, delta : float
        The audited :math:`(\varepsilon, \delta)` claim (:func:`claimed_approx_dp`).
    eps_lower_bound : float
        :math:`\max(0, \log((\underline{\mathrm{TPR}} - \delta)/\overline{\mathrm{FPR}}))`, a lower bound on the
        true :math:`\varepsilon` at :math:`\delta` with probability :math:`\ge` ``confidence``.
    eps_point_estimate : float
        :math:`\log((\mathrm{TPR} - \delta)/\mathrm{FPR})` without confidence correction (may be ``inf``).
    tpr, fpr, tpr_lower, fpr_upper : float
        Rates of the chosen event on the evaluation half and their Clopper–Pearson bounds.
    statistic, direction, threshold, positive : str, str, float, str
        The event :math:`S = \{\text{statistic} \le t\}` (``direction="<="``) or :math:`\ge t`; ``positive``
        is the dataset (``"D"`` or ``"D'"``) whose releases should fall in :math:`S`.
    n_releases, n_evaluation : int
        Releases per dataset, and how many of them (per dataset) evaluated the event.
    confidence : float
        :math:`1 - \alpha`.
    n, radius, sensitivity, sensitivity_used, mean_shift : float
        Dataset size, public radius, the public sensitivity :math:`\Delta`, the one the mechanism was
        calibrated with, and :math:`d(\eta, \eta')`. (:func:`audit_kng_regression`: the footpoint stage's
        sensitivity under :math:`D` and under :math:`D'`, and the distance between the two fits' footpoints.)
    mean_D, mean_D_prime : ndarray
        The two neighbouring datasets' Fréchet means :math:`\eta, \eta'` (:func:`audit_kng_regression`: the
        footpoints :math:`\hat p, \hat p'` of their non-private regression fits).
    moved_from, moved_to : ndarray
        The record that differs.
    values_D, values_D_prime : ndarray
        The chosen statistic on the evaluation releases, rounded to the grid (multiples of ``grid_step``).
    grid_step : float
        :math:`h = d(\eta, \eta')/G`: the statistics are rounded to multiples of :math:`h` before counting,
        and ``threshold`` is a cell boundary :math:`(k \pm \tfrac12) h`, half a cell away from any value a
        rounded statistic can take (:func:`_statistics` says why).
    releases_D, releases_D_prime : ndarray
        Up to 400 evaluation releases under each dataset (for plotting).
    notes : tuple of str
    """

    mechanism: str
    manifold: str
    variant: object
    label: str
    target: Guarantee
    achieved: Guarantee
    claimed_eps: float
    delta: float
    eps_lower_bound: float
    eps_point_estimate: float
    tpr: float
    fpr: float
    tpr_lower: float
    fpr_upper: float
    statistic: str
    direction: str
    threshold: float
    positive: str
    n_releases: int
    n_evaluation: int
    confidence: float
    n: int
    radius: float
    sensitivity: float
    sensitivity_used: float
    mean_shift: float
    mean_D: np.ndarray
    mean_D_prime: np.ndarray
    moved_from: np.ndarray
    moved_to: np.ndarray
    values_D: np.ndarray
    values_D_prime: np.ndarray
    releases_D: np.ndarray
    releases_D_prime: np.ndarray
    grid_step: float = float("nan")
    notes: tuple = ()

    @property
    def claim_refuted(self):
        """Whether the empirical lower bound exceeds the claimed ε (the claim is false at this confidence)."""
        return self.eps_lower_bound > self.claimed_eps

    @property
    def event(self):
        """The distinguishing event in words."""
        texts = _REGRESSION_STATISTIC_TEXT if self.mechanism == REGRESSION_CONTROL else _STATISTIC_TEXT
        return f"{texts[self.statistic]} {self.direction} {self.threshold:.4g}"

    def summary(self):
        """One line: claim vs bound."""
        verdict = "REFUTED" if self.claim_refuted else "not refuted"
        return (f"{self.mechanism}{'' if self.variant is None else ' [' + self.variant + ']'} on {self.manifold}: "
                f"claimed ε = {self.claimed_eps:.4g} (δ = {self.delta:g}), empirical lower bound "
                f"{self.eps_lower_bound:.4g} at confidence {self.confidence:g} — claim {verdict}")


# ============================================================================ the distinguishing test
def _grid_step(shift, sensitivity):
    r"""Step :math:`h = s/G` of the public grid the statistics are rounded to, :math:`s = d(\eta, \eta')`.

    :math:`G` = :data:`_GRID`; :math:`s` is fixed before any release is drawn (it is a function of the two
    datasets only). Falls back to :math:`\Delta/G` if the two means coincide in floating point.
    """
    scale = shift if np.isfinite(shift) and shift > 0 else sensitivity
    return float(scale) / _GRID


def _statistics(manifold, releases, eta, eta_prime, step):
    r"""The three statistics, rounded to a public grid so that no event can split a rounding atom.

    With :math:`d_0 = d(y, \eta)`, :math:`d_1 = d(y, \eta')`, :math:`s = d(\eta, \eta')` and the grid step
    :math:`h = s/G` (:func:`_grid_step`), the statistics are the integers

    .. math::
        K_0 = \operatorname{rint}(d_0/h), \qquad K_1 = \operatorname{rint}(d_1/h), \qquad
        K_\Delta = \operatorname{clip}\big(\operatorname{rint}((d_0 - d_1)/h),\ -G,\ G\big).

    **Why.** By the triangle inequality :math:`|d_0 - d_1| \le s`, and the law of :math:`d_0 - d_1` has
    atoms exactly at :math:`\pm s` for every isotropic law on :math:`\mathbb R^1` and :math:`S^1` (every
    release beyond :math:`\eta'` on the far side gives :math:`+s`) and a density piling up there in any
    dimension. Computed in floating point, the atom is smeared over a few ulps, differently under
    :math:`D` and :math:`D'` (the releases are :math:`\eta + z` and :math:`\eta' + z`, rounded differently),
    so a raw threshold placed *at* the atom separates the two datasets by rounding alone and "refutes"
    an exact mechanism. After rounding to the grid, :math:`\pm s` are the grid points :math:`\pm G`
    (cell centres): a floating-point error below :math:`h/2` cannot move a release across a cell
    boundary there, and every event :math:`\{K \ge k\}` / :math:`\{K \le k\}` contains an atom
    entirely or not at all, under both datasets. In exact arithmetic the events are
    :math:`\{T \ge (k - \tfrac12) h\}` and :math:`\{T < (k + \tfrac12) h\}`: thresholds half a cell
    away from the atoms, strictly inside :math:`(-s, s)` at the extremes. The other cell boundaries
    carry no atom of the ideal law, so rounding moves :math:`O(\text{ulp} \times \text{density})` of
    probability there. The same grid (with :math:`0` a cell centre) is applied to the distances, which
    guards an atom at :math:`d = 0`. ``_GRID`` = 1000 cells per :math:`s` cost no measurable power.

    Any fixed function of the release is a valid statistic: releases whose distance overflows
    (extreme SPD noise) get :math:`K_0, K_1 = +\infty` and :math:`K_\Delta = 0`.

    Returns
    -------
    (dict, int)
        Statistic name -> array of grid indices (floats holding integers, or ``inf``), and the number of
        releases with :math:`|d_0 - d_1| > s + h/2` — impossible values whose rounding error exceeds the
        tolerance :math:`h/2` (reported in the notes; 0 in every measured case).
    """
    shift = float(manifold.dist(eta, eta_prime, check=False))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        d0 = np.nan_to_num(manifold.dist(eta, releases, check=False), nan=np.inf)
        d1 = np.nan_to_num(manifold.dist(eta_prime, releases, check=False), nan=np.inf)
        finite = np.isfinite(d0) & np.isfinite(d1)
        diff = np.where(finite, d0 - d1, 0.0)
        stats = {
            "dist_to_mean": np.rint(d0 / step),
            "dist_to_neighbour_mean": np.rint(d1 / step),
            "distance_difference": np.clip(np.rint(diff / step), -_GRID, _GRID),
        }
    beyond = int(np.count_nonzero(np.abs(diff) > shift + 0.5 * step))
    return stats, beyond


def _threshold_value(index, direction, step):
    """The exact-arithmetic threshold of the grid event: half a cell below (``>=``) or above (``<=``)."""
    return float((index - 0.5) * step) if direction == ">=" else float((index + 0.5) * step)


def _candidate_thresholds(pooled, m):
    tail = np.geomspace(0.5 / m, 0.5, _N_LEVELS)
    levels = np.unique(np.clip(np.concatenate([tail, 1.0 - tail]), 0.0, 1.0))
    return np.unique(np.quantile(pooled, levels, method="inverted_cdf"))


def _counts(sorted_values, thresholds, direction):
    if direction == "<=":
        return np.searchsorted(sorted_values, thresholds, side="right")
    return sorted_values.size - np.searchsorted(sorted_values, thresholds, side="left")


def _eps_bounds(tp, m_pos, fp, m_neg, delta, alpha_each):
    tpr_lo, _ = clopper_pearson(tp, m_pos, alpha_each)
    _, fpr_hi = clopper_pearson(fp, m_neg, alpha_each)
    excess = np.asarray(tpr_lo) - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        eps = np.where(excess > 0, np.log(np.where(excess > 0, excess, 1.0) / fpr_hi), 0.0)
    return np.maximum(eps, 0.0), tpr_lo, fpr_hi


def _select_event(stats_d, stats_dp, delta, alpha_each):
    """Best event on the selection half: (statistic, direction, grid index of the threshold, positive).

    Candidates are scored by the bound they would give at the strict level
    ``min(alpha_each, _SELECTION_LEVEL)``, not at ``alpha_each``: a rare event whose apparent ratio on the
    selection half is mostly noise (a handful of counts) then loses to a frequent one, which curbs the
    winner's curse on the evaluation half (measured: the minimum bound over 8 seeds rises from 0.72 to 1.40
    on H² with half the noise, 4000 releases). Validity does not depend on it: the evaluation half is
    independent of whatever the selection does.
    """
    level = min(alpha_each, _SELECTION_LEVEL)
    best, best_score = None, -np.inf
    for name in stats_d:
        a, b = np.sort(stats_d[name]), np.sort(stats_dp[name])
        thresholds = _candidate_thresholds(np.concatenate([a, b]), min(a.size, b.size))
        for direction in ("<=", ">="):
            ca, cb = _counts(a, thresholds, direction), _counts(b, thresholds, direction)
            for positive, (tp, mp, fp, mn) in (("D", (ca, a.size, cb, b.size)), ("D'", (cb, b.size, ca, a.size))):
                eps, _, _ = _eps_bounds(tp, mp, fp, mn, delta, level)
                # tie-breaks (all bounds 0, e.g. a very private mechanism): the same bound at a loose level,
                # then a smoothed likelihood ratio, so that the event shown is still the most telling one
                loose, _, _ = _eps_bounds(tp, mp, fp, mn, delta, _LOOSE_LEVEL)
                score = eps + 1e-3 * loose + 1e-9 * np.log((tp + 0.5) / (fp + 0.5))
                i = int(np.argmax(score))
                if score[i] > best_score:
                    best_score, best = score[i], (name, direction, float(thresholds[i]), positive)
    return best


@dataclass(frozen=True)
class _Test:
    """Outcome of :func:`_distinguish`: the chosen event and its evaluation."""

    statistic: str
    direction: str
    threshold: float
    positive: str
    half: int
    m: int
    eval_d: np.ndarray
    eval_dp: np.ndarray
    eps_lb: float
    tpr_lo: float
    fpr_hi: float
    tpr: float
    fpr: float
    point: float


def _distinguish(stats_d, stats_dp, step, delta, alpha):
    r"""Choose an event on the first half of the releases, evaluate it on the second half.

    ``stats_d``, ``stats_dp``: statistic name -> grid indices (:func:`_statistics`) of the releases under
    :math:`D` and :math:`D'`, in release order (equal sizes). The event (statistic, direction, threshold,
    positive dataset) is chosen by :func:`_select_event` on the first ``len // 2`` values of each and then
    counted once on the rest; Clopper–Pearson bounds at level :math:`\alpha/2` each give
    :math:`\hat\varepsilon_{lb}` (:func:`_eps_bounds`). Shared by :func:`audit` and :func:`audit_kng_regression`.
    """
    alpha_each = alpha / 2.0
    size = min(v.size for v in (*stats_d.values(), *stats_dp.values()))
    half = size // 2
    statistic, direction, index, positive = _select_event(
        {k: v[:half] for k, v in stats_d.items()}, {k: v[:half] for k, v in stats_dp.items()}, delta, alpha_each,
    )
    threshold = _threshold_value(index, direction, step)
    eval_d, eval_dp = stats_d[statistic][half:size], stats_dp[statistic][half:size]
    m = eval_d.size
    in_d = int(_counts(np.sort(eval_d), np.array([index]), direction)[0])
    in_dp = int(_counts(np.sort(eval_dp), np.array([index]), direction)[0])
    tp, fp = (in_d, in_dp) if positive == "D" else (in_dp, in_d)
    eps_lb, tpr_lo, fpr_hi = _eps_bounds(np.array([tp]), m, np.array([fp]), m, delta, alpha_each)
    tpr, fpr = tp / m, fp / m
    with np.errstate(divide="ignore"):
        point = max(0.0, float(np.log(tpr - delta) - np.log(fpr))) if tpr > delta else 0.0
    return _Test(statistic=statistic, direction=direction, threshold=threshold, positive=positive, half=half, m=m,
                 eval_d=eval_d, eval_dp=eval_dp, eps_lb=float(eps_lb[0]), tpr_lo=float(tpr_lo[0]),
                 fpr_hi=float(fpr_hi[0]), tpr=tpr, fpr=fpr, point=point)


# ============================================================================ releases
def _public_options(name, manifold, center, radius, data, seed):
    """Public calibration options as in the Explorer (:func:`geodp_core.pipeline.public_options`) and the audit
    options of the mechanism's spec (the conformal mechanism's vertex sampler: exact for the law it samples, fast)."""
    return {**public_options(name, manifold, center, radius, data, seed), **mechanism_spec(name).audit_options}


def _understate_noise(calibration, factor):
    r"""The calibration with its noise shrunk by ``factor`` :math:`= s \in (0, 1)`, the claim untouched.

    Scale parameters (``sigma``, ``sigma_first_stage``: Laplace and Gaussian laws, EW, tangent Gaussian) are
    multiplied by :math:`s`; diffusion times ``t`` (Brownian motion, Langevin) by :math:`s^2` (the spread of
    a diffusion is :math:`\propto \sqrt t`); the conformal rate :math:`\lambda^*` is divided by :math:`s`.
    For a Laplace-type law :math:`\propto e^{-d(\eta, y)/\sigma}` the privacy loss of the pair is
    :math:`d(\eta,\eta')/(s\sigma)`: the true :math:`\varepsilon` is the calibrated one divided by :math:`s`.

    Returns
    -------
    (Calibration, str)
        The modified calibration and a description of what was scaled.
    """
    noise = dict(calibration.noise)
    if "lambda_star" in noise:
        noise["lambda_star"] = noise["lambda_star"] / factor
        how = "the rate λ* / s"
    elif "t" in noise:
        noise["t"] = noise["t"] * factor**2
        how = "the diffusion time t × s²"
    elif "sigma" in noise:
        for key in ("sigma", "sigma_first_stage"):
            if key in noise:
                noise[key] = noise[key] * factor
        how = "σ × s"
    else:  # pragma: no cover - every registry mechanism has one of the keys above
        raise InvalidParameterError(f"cannot understate the noise of {calibration.mechanism}: no noise scale among "
                                    f"{sorted(noise)}", param="variant")
    return dataclasses.replace(calibration, noise=noise), how


def _human(text):
    """``text`` with registry names (``ew_laplace``, ...) replaced by the mechanisms' titles."""
    for name in MECHANISM_NAMES:
        # plain words ("conformal") only where they are the subject of a mechanism's own message
        pattern = rf"\b{name}\b" if "_" in name else rf"^{name}(?= is unavailable|:)"
        text = re.sub(pattern, mechanism_class(name).title, text)
    return text


def _fresh_releases(mechanism, target, sensitivity, options, data, center, size, seed_sequence):
    """One fresh calibration (new sanitisation noise) per release; a loop over releases is unavoidable."""
    seeds = seed_sequence.generate_state(2 * size).reshape(size, 2)
    out = np.empty((size,) + tuple(mechanism.manifold.point_shape))
    calibration = None
    for i, (cal_seed, draw_seed) in enumerate(seeds):
        calibration = mechanism.calibrate(target, sensitivity, **{**options, "data": data, "seed": int(cal_seed)})
        out[i] = mechanism.sample(center, calibration, 1, np.random.default_rng(int(draw_seed)))[0]
    return out, calibration


# ============================================================================ the audit
def audit(mechanism_name, manifold, target, n_releases=DEFAULT_N_RELEASES, n=DEFAULT_N, radius=DEFAULT_RADIUS,
          alpha=DEFAULT_ALPHA, seed=0, variant=None, layout="boundary_point", delta=None, sensitivity_scale=None,
          fresh_calibration=False, noise_scale=None, **options):
    r"""Empirical lower bound on the privacy loss of a mechanism releasing a Fréchet mean (docs/specification.md §7).

    1. Neighbouring datasets :math:`D \sim D'` in the PUBLIC ball :math:`B(m_0, r)`, one record moved to the
       far side of the ball (:func:`neighbouring_datasets`); :math:`\eta, \eta'` their Fréchet means.
    2. The mechanism is calibrated ONCE to ``target`` with the public sensitivity
       :math:`\Delta` = :func:`~geodp_core.summaries.frechet_mean_sensitivity` ``(n, r, κ)``
       (per dataset for the data-dependent variants) and releases ``n_releases`` points around
       :math:`\eta` and as many around :math:`\eta'` (one vectorised ``sample`` call each).
    3. Events :math:`S = \{T \le t\}` or :math:`\{T \ge t\}` for the statistics
       :math:`T \in \{d(y, \eta),\ d(y, \eta'),\ d(y, \eta) - d(y, \eta')\}` (the last is the likelihood
       ratio's direction for a radial law) and thresholds at quantiles of the pooled values are scored
       on the first half of each sample; the best one (and which dataset is "positive") is evaluated
       once on the second half.
    4. :math:`\hat\varepsilon_{lb} = \max(0, \log((\underline{\mathrm{TPR}} - \delta)/\overline{\mathrm{FPR}}))`,
       Clopper–Pearson bounds each at level :math:`\alpha/2`: with probability :math:`\ge 1-\alpha` it is
       below the true :math:`\varepsilon` of every :math:`(\varepsilon, \delta)` guarantee the mechanism has.

    Parameters
    ----------
    mechanism_name : str
        A registry name (:data:`~geodp_core.mechanisms.MECHANISM_NAMES`).
    manifold : Manifold
    target : Guarantee
        The guarantee the mechanism is calibrated to; the claim audited is the achieved one, as an
        :math:`(\varepsilon, \delta)` pair (:func:`claimed_approx_dp`).
    n_releases : int, default 4000
        Releases per dataset, in ``[100, 400000]`` (``[100, 5000]`` with a fresh calibration per release).
    n : int, default 10
        Records per dataset (the sensitivity scales as :math:`1/n`).
    radius : float, default 0.5
        Public ball radius :math:`0 < r < r^*`.
    alpha : float, default 0.05
        Error level; the bound holds with confidence :math:`1-\alpha`, :math:`\alpha \in (0, 0.5]`.
    seed : int, default 0
        Seeds the data (``"uniform_ball"``), the calibration noise (conformal) and the releases.
    variant : None or str
        ``None`` (the mechanism as offered) or one of :data:`VARIANTS`, each labelled non-DP:
        ``"data_footpoint"`` (EW mechanisms with :math:`p_0 = \eta`), ``"tangent_at_mean"``
        (tangent_gaussian, what it does on curved spaces), ``"understated_sensitivity"`` (any
        mechanism calibrated with :math:`\Delta \times` ``sensitivity_scale``), ``"understated_noise"`` (any
        mechanism run with its calibrated noise × ``noise_scale``: a negative control), ``"knn_data"`` (conformal
        with the kNN graph on the data points).
    layout : {"boundary_point", "uniform_ball"}
        Neighbouring datasets (:func:`neighbouring_datasets`).
    delta : float, optional
        :math:`\delta \in (0, 1)` at which GDP / RDP / zCDP claims are audited (default :math:`10^{-5}`).
        Not accepted for ε-DP and (ε, δ)-DP claims (their δ is the claim's own).
    sensitivity_scale : float, optional
        Only with ``variant="understated_sensitivity"``: factor in :math:`(0, 1)` (default 0.25).
    noise_scale : float, optional
        Only with ``variant="understated_noise"``: factor :math:`s \in (0, 1)` (default 0.5) applied to the
        calibrated noise (:func:`_understate_noise`); the claim is not changed.
    fresh_calibration : bool, default False
        Conformal only: a fresh calibration (new sanitised density, from :math:`D` resp. :math:`D'`) for
        every release, auditing the whole mechanism's point output. Default: the density is sanitised
        once from :math:`D` and used under both datasets, which audits the point channel given the
        published density (worth :math:`\varepsilon_{conf} < \varepsilon`). Forced by ``"knn_data"``.
    **options
        Extra calibration options of the mechanism (override the public defaults: footpoint and
        anchor = :math:`m_0`; conformal: the data, a seed, ``sampler="vertex"``).

    Returns
    -------
    AuditResult

    Raises
    ------
    InvalidParameterError
        Bad arguments (the message names the parameter), a variant that does not apply.
    UnavailableError
        The mechanism is unavailable on ``manifold`` or for ``target`` (with the reason).
    """
    name = check_option(mechanism_name, "mechanism_name", MECHANISM_NAMES)
    _check_manifold(manifold)
    if not isinstance(target, Guarantee):
        raise InvalidParameterError(
            f"target must be a guarantee (PureDP, ApproxDP, GDP, RDP or ZCDP); got {type(target).__name__}",
            param="target",
        )
    if variant is not None:
        variant = check_option(variant, "variant", VARIANTS)
        if not variant_applies(variant, name):
            raise InvalidParameterError(
                f"variant {variant!r} applies to {', '.join(VARIANT_INFO[variant][1])} only; got mechanism "
                f"{name!r}", param="variant",
            )
    if not isinstance(fresh_calibration, (bool, np.bool_)):
        raise InvalidParameterError(f"fresh_calibration must be True or False; got {fresh_calibration!r}",
                                    param="fresh_calibration")
    fresh = bool(fresh_calibration) or variant == "knn_data"
    if fresh and name != "conformal":
        raise InvalidParameterError(
            f"fresh_calibration applies to the conformal mechanism only (its calibration depends on the data); "
            f"got mechanism {name!r}", param="fresh_calibration",
        )
    n_releases = check_int(n_releases, "n_releases", low=MIN_RELEASES,
                           high=MAX_FRESH_RELEASES if fresh else MAX_RELEASES)
    n = check_int(n, "n", low=2, high=MAX_N)
    radius = manifold.check_radius(radius, "radius")
    alpha = check_real(alpha, "alpha", low=0.0, high=0.5, high_closed=True)
    seed = check_int(seed, "seed", low=0, high=2**63 - 1)
    layout = check_option(layout, "layout", LAYOUTS)
    if isinstance(target, (PureDP, ApproxDP)) and delta is not None:
        raise InvalidParameterError(
            f"delta is set by the claim for a {target.describe()} target (0 for ε-DP, its own δ for (ε, δ)-DP); "
            f"got delta={delta!r}; pass delta only for GDP, RDP or zCDP targets", param="delta",
        )
    conversion_delta = DEFAULT_DELTA if delta is None else check_real(delta, "delta", low=0.0, high=1.0)
    if variant == "understated_sensitivity":
        scale = UNDERSTATED_SCALE if sensitivity_scale is None else check_real(
            sensitivity_scale, "sensitivity_scale", low=0.0, high=1.0)
    elif sensitivity_scale is not None:
        raise InvalidParameterError(
            f"sensitivity_scale applies only with variant='understated_sensitivity'; got "
            f"sensitivity_scale={sensitivity_scale!r} with variant={variant!r}", param="sensitivity_scale",
        )
    else:
        scale = 1.0
    if variant == "understated_noise":
        noise_factor = UNDERSTATED_NOISE if noise_scale is None else check_real(
            noise_scale, "noise_scale", low=0.0, high=1.0)
    elif noise_scale is not None:
        raise InvalidParameterError(
            f"noise_scale applies only with variant='understated_noise'; got noise_scale={noise_scale!r} with "
            f"variant={variant!r}", param="noise_scale",
        )
    if variant == "data_footpoint" and "footpoint" in options:
        raise InvalidParameterError("footpoint is set to the private mean by variant='data_footpoint'; do not "
                                    "pass it", param="footpoint")
    if variant == "knn_data" and n < 3:
        raise InvalidParameterError(f"the graph on the data points needs n >= 3 records (two neighbours of a point "
                                    f"besides itself); got n={n}", param="n")
    if variant == "knn_data" and options.get("laplacian", "knn_data") != "knn_data":
        raise InvalidParameterError(f"variant='knn_data' uses laplacian='knn_data'; got "
                                    f"laplacian={options['laplacian']!r}", param="laplacian")

    mechanism = get_mechanism(name, manifold)
    mechanism.require_available()

    streams = np.random.SeedSequence(seed).spawn(4)  # data, calibration noise, releases under D, under D'
    data, neighbour, moved = neighbouring_datasets(manifold, n, radius, layout, np.random.default_rng(streams[0]))
    center = manifold.default_center()
    prepared, prepared_prime = (summarise(manifold, d, center, radius) for d in (data, neighbour))
    eta, eta_prime, sensitivity = prepared.true_mean, prepared_prime.true_mean, prepared.sensitivity
    used = sensitivity * scale
    cal_seed = int(streams[1].generate_state(1)[0])
    base_options = {**_public_options(name, manifold, center, radius, data, cal_seed), **options}
    if variant == "knn_data":
        base_options["laplacian"] = "knn_data"
        base_options.setdefault("knn", min(10, max(2, n // 2)))  # < n - 1: the copies of x stay neighbours
    rng_d, rng_dp = np.random.default_rng(streams[2]), np.random.default_rng(streams[3])

    notes = []
    if fresh:
        releases_d, calibration = _fresh_releases(mechanism, target, used, base_options, data, eta, n_releases,
                                                  streams[2])
        releases_dp, _ = _fresh_releases(mechanism, target, used, base_options, neighbour, eta_prime, n_releases,
                                         streams[3])
        notes.append(f"a fresh calibration (new sanitised density from D, resp. D′, fresh noise) for each of the "
                     f"{2 * n_releases} releases: the audit covers the whole mechanism's point output")
    elif variant == "data_footpoint":
        calibration = mechanism.calibrate(target, used, **{**base_options, "footpoint": eta})
        cal_prime = mechanism.calibrate(target, used, **{**base_options, "footpoint": eta_prime})
        releases_d = mechanism.sample(eta, calibration, n_releases, rng_d)
        releases_dp = mechanism.sample(eta_prime, cal_prime, n_releases, rng_dp)
    elif variant == "understated_noise":
        calibration = mechanism.calibrate(target, used, **base_options)
        broken, how = _understate_noise(calibration, noise_factor)
        releases_d = mechanism.sample(eta, broken, n_releases, rng_d)
        releases_dp = mechanism.sample(eta_prime, broken, n_releases, rng_dp)
        notes.append(f"negative control: calibrated as stated, then sampled with {how} (noise × {noise_factor:g}); "
                     "the claim below is the calibration's, which these releases do not honour")
    else:
        calibration = mechanism.calibrate(target, used, **base_options)
        releases_d = mechanism.sample(eta, calibration, n_releases, rng_d)
        releases_dp = mechanism.sample(eta_prime, calibration, n_releases, rng_dp)
        if name == "conformal":
            notes.append(
                "conformal: the density is sanitised once (from D) and used under both datasets, so this audits "
                f"the point channel given the published density, worth ε_conf = {calibration.noise['eps_conf']:.4g} "
                "of the claimed ε (a fresh calibration per release audits the whole mechanism, slowly)"
            )

    claimed_eps, claim_delta, claim_note = claimed_approx_dp(calibration.achieved, conversion_delta)
    alpha_each = alpha / 2.0
    step = _grid_step(float(manifold.dist(eta, eta_prime, check=False)), sensitivity)
    stats_d, beyond_d = _statistics(manifold, releases_d, eta, eta_prime, step)
    stats_dp, beyond_dp = _statistics(manifold, releases_dp, eta, eta_prime, step)
    test = _distinguish(stats_d, stats_dp, step, claim_delta, alpha)
    statistic, direction, threshold, positive = test.statistic, test.direction, test.threshold, test.positive
    eval_d, eval_dp, half, m = test.eval_d, test.eval_dp, test.half, test.m
    eps_lb, tpr_lo, fpr_hi, tpr, fpr, point = test.eps_lb, test.tpr_lo, test.fpr_hi, test.tpr, test.fpr, test.point

    label = calibration.label if variant is None else LABEL_NO_GUARANTEE
    shift = float(manifold.dist(eta, eta_prime, check=False))
    other = "D′" if positive == "D" else "D"
    notes = [
        f"neighbouring datasets ({_LAYOUT_TEXT[layout]}): n = {n} records in the public ball B(m₀, r = {radius:g}); one record "
        f"moved to the far side of the ball; d(η, η′) = {shift:.4g} vs the public sensitivity Δ = "
        f"{sensitivity:.4g}",
        f"calibrated once with Δ = {used:.4g}" + (f" = {scale:g} × the true Δ (deliberately understated)"
                                                 if scale != 1.0 else "") + f": {calibration.describe()}",
        claim_note,
        *notes,
        f"{n_releases} releases under each dataset; the event was chosen on the first {half} of each (statistics "
        f"{', '.join(_STATISTIC_TEXT.values())}; {2 * _N_LEVELS} quantile thresholds; both directions; either "
        f"dataset positive) and evaluated on the other {m}",
        f"statistics rounded to a public grid of step h = d(η, η′)/{_GRID} = {step:.3g} before counting, so that "
        f"thresholds sit half a cell away from the atoms of dist(release, η) − dist(release, η′) at ±d(η, η′) and "
        f"floating-point rounding (far below h/2) cannot split them"
        + ("" if beyond_d + beyond_dp == 0 else
           f" — WARNING: {beyond_d + beyond_dp} releases gave |difference| > d(η, η′) + h/2, i.e. a rounding error "
           f"above the tolerance h/2: the verdict may reflect floating-point error"),
        f"event S = {{{_STATISTIC_TEXT[statistic]} {direction} {threshold:.4g}}}: P_{positive.replace(chr(39), '′')}(S) "
        f"≈ TPR = {tpr:.4g} (≥ {tpr_lo:.4g}), P_{other}(S) ≈ FPR = {fpr:.4g} (≤ {fpr_hi:.4g}); Clopper–Pearson "
        f"bounds at level {alpha_each:g} each",
        f"ε_lb = max(0, log((TPR_lo − δ)/FPR_hi)) = {eps_lb:.4g} with δ = {claim_delta:g}: with probability ≥ "
        f"{1 - alpha:g} the mechanism is not ({eps_lb:.4g}-ε, δ)-DP for any smaller ε; claimed ε = {claimed_eps:.4g}"
        + (" — CLAIM REFUTED" if eps_lb > claimed_eps else " — not refuted (an audit can never prove a guarantee)"),
    ]
    if variant is not None:
        notes.insert(0, f"variant: {VARIANT_INFO[variant][0]} — {VARIANT_INFO[variant][2]}")
    if calibration.label != "exact" and variant is None:
        notes.insert(0, f"the mechanism's honesty label is '{calibration.label}'")

    notes = [_human(note) for note in notes]
    keep = min(400, m)
    return AuditResult(
        mechanism=name, manifold=manifold.label, variant=variant, label=label, target=target,
        achieved=calibration.achieved, claimed_eps=float(claimed_eps), delta=float(claim_delta),
        eps_lower_bound=eps_lb, eps_point_estimate=point, tpr=tpr, fpr=fpr, tpr_lower=tpr_lo, fpr_upper=fpr_hi,
        statistic=statistic, direction=direction, threshold=threshold, positive=positive,
        n_releases=n_releases, n_evaluation=m, confidence=1.0 - alpha, n=n, radius=radius,
        sensitivity=sensitivity, sensitivity_used=used, mean_shift=shift, mean_D=eta, mean_D_prime=eta_prime,
        moved_from=data[moved], moved_to=neighbour[moved], values_D=eval_d * step, values_D_prime=eval_dp * step,
        grid_step=step,
        releases_D=releases_d[half:half + keep], releases_D_prime=releases_dp[half:half + keep], notes=tuple(notes),
    )


# ============================================================================ KNG regression: data-derived τ
REGRESSION_CONTROL = "kng_regression"  # the name of the regression rows of audit_all (not a registry mechanism)
REGRESSION_RELEASES = 300  # releases per dataset of the regression rows (one Metropolis chain per release)
REGRESSION_BURN_IN = 250
REGRESSION_CHAIN_LENGTH = 500
REGRESSION_WIGGLE = 0.05  # offsets ± w r of the records of D from the geodesic (tiny residuals, tiny data τ)
REGRESSION_N = (3, 20)  # records the regression rows of audit_all accept (the chains cost O(n) per step)
MAX_REGRESSION_RELEASES = 5000
_REGRESSION_CHUNK = 1000  # releases per call of kng_geodesic_regression (its n_releases cap)
_REGRESSION_STATISTIC_TEXT = {
    "dist_to_mean": "dist(p̃, p̂)",
    "dist_to_neighbour_mean": "dist(p̃, p̂′)",
    "distance_difference": "dist(p̃, p̂) − dist(p̃, p̂′)",
    "dist_to_center": "dist(p̃, m₀)",
}
REGRESSION_INFO = {
    "data_tau": (
        "data-derived residual bound τ",
        "KNG geodesic regression with the paper's τ = max residual at the non-private fit, read from the records. "
        "τ sets the noise scale (σ ∝ τ) and the sampling domain (footpoint within r + τ of m₀, speed at most "
        "2(r + τ)): records close to a geodesic give a small τ, a neighbour with one record far off it a large "
        "one, whose releases reach footpoints the first dataset can never release: NOT DP",
    ),
    None: (
        "public τ",
        "KNG geodesic regression with a PUBLIC residual bound τ (residuals clipped at τ): ε-DP for the exact KNG "
        "laws, sampled by Metropolis chains (approximate sampler)",
    ),
}


def regression_neighbouring_datasets(manifold, n, radius, wiggle=REGRESSION_WIGGLE):
    r"""Neighbouring regression datasets :math:`D \sim D'` in the public ball :math:`B(m_0, r)`.

    Covariates :math:`x_i = i/(n-1)` (public range [0, 1]); :math:`u_1, u_2` the first two vectors of the
    tangent frame at :math:`m_0` (:math:`u_2 = u_1` in dimension 1). :math:`D`: the records
    :math:`y_i = \mathrm{Exp}_{m_0}\big((x_i - \tfrac12)\, 1.6 r\, u_1 + (-1)^i w r\, u_2\big)`, within
    :math:`w r` of the geodesic :math:`t \mapsto \mathrm{Exp}_{m_0}((t - \tfrac12) 1.6 r u_1)`;
    :math:`D'`: record :math:`k = \lfloor n/2 \rfloor` moved to the boundary point
    :math:`\mathrm{Exp}_{m_0}(r u_2)` (:math:`\mathrm{Exp}_{m_0}(-r u_1)` in dimension 1), far off the geodesic.

    Parameters
    ----------
    manifold : Manifold
    n : int
        Records, :math:`n \ge 3`.
    radius : float
        Public radius :math:`0 < r < r^*`.
    wiggle : float
        :math:`w \in [0, 0.2)`: the residuals under :math:`D` are of order :math:`w r`.

    Returns
    -------
    (x, D, D_prime, moved_index)
    """
    _check_manifold(manifold)
    n = check_int(n, "n", low=3, high=MAX_N)
    radius = manifold.check_radius(radius, "radius")
    wiggle = check_real(wiggle, "wiggle", low=0.0, high=0.2, low_closed=True)
    center = manifold.default_center()
    frame = manifold.tangent_frame(center)
    u1 = frame[0]
    u2 = frame[1] if len(frame) > 1 else frame[0]
    x = np.linspace(0.0, 1.0, n)
    signs = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    shape = (n,) + (1,) * len(manifold.point_shape)
    tangent = ((x - 0.5) * 1.6 * radius).reshape(shape) * u1 + (signs * wiggle * radius).reshape(shape) * u2
    data = manifold.exp(np.broadcast_to(center, tangent.shape), tangent, check=False)
    moved = n // 2
    neighbour = data.copy()
    neighbour[moved] = manifold.exp(center, radius * u2 if len(frame) > 1 else -radius * u1, check=False)
    return x, data, neighbour, moved


def _kng_releases(manifold, x, y, eps, tau, n_releases, radius, burn_in, chain_length, seed_sequence):
    """``n_releases`` KNG releases (one chain each, in chunks), the first result and the sampler warnings."""
    from geodp_core.mechanisms import kng_regression as kng

    options = dict(burn_in=burn_in, chain_length=chain_length, init="public", data_radius=radius,
                   center=manifold.default_center(), x_range=(0.0, 1.0), footpoint_velocity="joint",
                   scale_convention="rigorous", clip_residuals=True)
    options["owner_diagnostics"] = False  # extra diagnostic chains: not needed here
    prefix = kng.OWNER_ONLY
    sizes = [min(_REGRESSION_CHUNK, n_releases - start) for start in range(0, n_releases, _REGRESSION_CHUNK)]
    footpoints, first, warned = [], None, []
    for size, child in zip(sizes, seed_sequence.spawn(len(sizes))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", kng.RegressionPrivacyWarning)  # every message is in result.warnings
            result = kng.kng_geodesic_regression(manifold, x, y, eps / 2.0, eps / 2.0, tau,
                                                 np.random.default_rng(child), n_releases=size, **options)
        for text in result.warnings:
            warned.append(text[len(prefix):] if prefix and text.startswith(prefix) else text)
        footpoints.append(np.asarray(result.footpoints))
        first = result if first is None else first
    return np.concatenate(footpoints), first, list(dict.fromkeys(warned))


def _radius_text(result):
    radius = getattr(result, "footpoint_radius", None)
    return "π (the whole sphere)" if radius is None else f"{radius:.4g}"


def _footpoint_acceptance(result):
    """Mean acceptance of the footpoint chains, wherever the result keeps it (``None`` if nowhere)."""
    for diagnostics in (getattr(result, "owner_diagnostics", None), getattr(result, "diagnostics", None)):
        if isinstance(diagnostics, dict) and "footpoint_acceptance" in diagnostics:
            return float(diagnostics["footpoint_acceptance"])
    return None


def audit_kng_regression(manifold, target, tau="data", n_releases=REGRESSION_RELEASES, n=DEFAULT_N,
                         radius=DEFAULT_RADIUS, alpha=DEFAULT_ALPHA, seed=0, burn_in=REGRESSION_BURN_IN,
                         chain_length=REGRESSION_CHAIN_LENGTH, wiggle=REGRESSION_WIGGLE):
    r"""Empirical privacy audit of the footpoint released by KNG geodesic regression.

    The same test as :func:`audit` (events chosen on one half of the releases, Clopper–Pearson bound on the
    other half, :func:`_distinguish`) applied to a regression release:

    1. Neighbouring datasets :func:`regression_neighbouring_datasets`: :math:`D` within :math:`w r` of a
       geodesic, :math:`D'` with one record moved far off it (both in the public ball :math:`B(m_0, r)`);
       :math:`\hat p, \hat p'` the footpoints of their non-private least-squares fits.
    2. :func:`~geodp_core.mechanisms.kng_regression.kng_geodesic_regression` with
       :math:`\varepsilon_p = \varepsilon_v = \varepsilon/2`, ``data_radius`` = :math:`r`, chains started at the
       PUBLIC point (``init="public"``), ``n_releases`` independent chains per dataset.
    3. Statistics of the released footpoint :math:`\tilde p`: :math:`d(\tilde p, \hat p)`,
       :math:`d(\tilde p, \hat p')` and their difference (:func:`_statistics` with the fits in place of the
       means), and :math:`d(\tilde p, m_0)`, the distance from the public centre, on the same grid.

    The footpoint is a post-processing of the released pair :math:`(\tilde p, \tilde v)`, so a lower bound for it
    is a lower bound for the pair, whose claim is :math:`\varepsilon = \varepsilon_p + \varepsilon_v` (audited as
    :math:`(\varepsilon, 0)`).

    With ``tau="data"`` (the paper's :math:`\tau = \max_i |e_i|` at the non-private fit) :math:`D` gets a small
    :math:`\tau` and :math:`D'` a large one. :math:`\tau` sets the KNG scale (:math:`\sigma \propto \tau`) and
    the public sampling domain (footpoint radius :math:`r + \tau`, speed bound :math:`2(r + \tau)`); with residuals
    clipped at :math:`\tau` the energy's gradient scales with :math:`\tau` too, so the law barely narrows under
    :math:`D`, but footpoints beyond :math:`r + \tau_D` from :math:`m_0` are released under :math:`D'` and never
    under :math:`D` (measured: the event chosen is :math:`\{d(\tilde p, m_0) \ge t\}`). The claim is refuted
    (a negative control). With a PUBLIC ``tau`` (a float) the mechanism is the rigorous KNG ("approximate
    sampler"), which the audit should not refute (docs/derivations/audit.md for the measured numbers).

    Parameters
    ----------
    manifold : Manifold
        A manifold KNG regression supports (sphere, hyperbolic, SPD, Euclidean).
    target : PureDP or ApproxDP
        Its :math:`\varepsilon` is the KNG budget (KNG is pure :math:`\varepsilon`-DP; an (ε, δ) target is
        audited as :math:`(\varepsilon, 0)`).
    tau : "data" or float
        The residual bound.
    n_releases : int, default 300
        Releases per dataset, in ``[100, 5000]``.
    n : int, default 10
        Records, :math:`n \ge 3`.
    radius : float, default 0.5
        Public ball radius (also KNG's ``data_radius``).
    alpha : float, default 0.05
    seed : int, default 0
    burn_in, chain_length : int
        Metropolis steps per chain (passed explicitly).
    wiggle : float
        Offsets of :math:`D` from the geodesic, as a fraction of :math:`r`.

    Returns
    -------
    AuditResult
        ``mechanism = "kng_regression"``, ``variant = "data_tau"`` or ``None``; ``mean_D``, ``mean_D_prime``
        are the fits' footpoints :math:`\hat p, \hat p'`, ``sensitivity`` and ``sensitivity_used`` the footpoint
        stage's sensitivity under :math:`D` and :math:`D'` (equal for a public :math:`\tau`).
    """
    _check_manifold(manifold)
    if not isinstance(target, (PureDP, ApproxDP)):
        raise InvalidParameterError(
            f"target must be PureDP or ApproxDP for KNG regression (a pure ε-DP mechanism); got "
            f"{type(target).__name__}", param="target")
    if isinstance(tau, str):
        check_option(tau, "tau", ("data",))
    else:
        tau = check_real(tau, "tau", low=0.0)
    n_releases = check_int(n_releases, "n_releases", low=MIN_RELEASES, high=MAX_REGRESSION_RELEASES)
    n = check_int(n, "n", low=3, high=MAX_N)
    radius = manifold.check_radius(radius, "radius")
    alpha = check_real(alpha, "alpha", low=0.0, high=0.5, high_closed=True)
    seed = check_int(seed, "seed", low=0, high=2**63 - 1)
    burn_in = check_int(burn_in, "burn_in", low=0, high=1_000_000)
    chain_length = check_int(chain_length, "chain_length", low=1, high=1_000_000)
    eps = float(target.eps)

    x, data, neighbour, moved = regression_neighbouring_datasets(manifold, n, radius, wiggle)
    streams = np.random.SeedSequence(seed).spawn(2)  # releases under D, under D'
    releases_d, result_d, warned_d = _kng_releases(manifold, x, data, eps, tau, n_releases, radius, burn_in,
                                                   chain_length, streams[0])
    releases_dp, result_dp, warned_dp = _kng_releases(manifold, x, neighbour, eps, tau, n_releases, radius,
                                                      burn_in, chain_length, streams[1])
    fit_d, fit_dp = np.asarray(result_d.nonprivate_footpoint), np.asarray(result_dp.nonprivate_footpoint)
    claimed_eps, claim_delta, claim_note = claimed_approx_dp(result_d.guarantee)

    shift = float(manifold.dist(fit_d, fit_dp, check=False))
    step = _grid_step(shift, radius)
    stats_d, beyond_d = _statistics(manifold, releases_d, fit_d, fit_dp, step)
    stats_dp, beyond_dp = _statistics(manifold, releases_dp, fit_d, fit_dp, step)
    center = manifold.default_center()
    for stats, releases in ((stats_d, releases_d), (stats_dp, releases_dp)):  # the public centre, same grid
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            stats["dist_to_center"] = np.rint(np.nan_to_num(manifold.dist(center, releases, check=False), nan=np.inf) / step)
    test = _distinguish(stats_d, stats_dp, step, claim_delta, alpha)

    variant = "data_tau" if tau == "data" else None
    label = LABEL_NO_GUARANTEE if variant is not None else result_d.label
    other = "D′" if test.positive == "D" else "D"
    acceptance = [_footpoint_acceptance(r) for r in (result_d, result_dp)]
    tau_text = ("τ = max residual at the non-private fit, read from the records (NOT DP): "
                if variant else "PUBLIC τ (residuals clipped at τ): ")
    notes = [
        f"{REGRESSION_INFO[variant][0]} — {REGRESSION_INFO[variant][1]}",
        f"neighbouring regression datasets: n = {n} records in the public ball B(m₀, r = {radius:g}), covariates "
        f"x_i = i/(n − 1); D within {wiggle * radius:.3g} of a geodesic through m₀, D′ with the record at "
        f"x = {x[moved]:.3g} moved to the boundary of the ball, {float(manifold.dist(data[moved], neighbour[moved], check=False)):.3g} "
        f"away; the non-private fits' footpoints p̂, p̂′ are {shift:.4g} apart",
        tau_text + f"τ = {result_d.tau:.4g} under D, {result_dp.tau:.4g} under D′; KNG scale of the footpoint stage "
        f"σ_p = {result_d.sigma_footpoint:.4g} under D, {result_dp.sigma_footpoint:.4g} under D′; footpoint domain "
        f"d(m₀, p) ≤ {_radius_text(result_d)} under D, ≤ {_radius_text(result_dp)} under D′",
        f"claimed (ε_p + ε_v) = ({eps / 2:g} + {eps / 2:g})-DP for the pair (p̃, ṽ); the footpoint p̃ alone is a "
        f"post-processing of the pair, so a bound on it bounds the pair's ε. " + claim_note,
        f"Metropolis chains started at public points (init = public): burn-in {burn_in} + {chain_length} steps per "
        f"chain, one chain per release"
        + ("" if None in acceptance else
           f"; acceptance of the footpoint stage {acceptance[0]:.2f} (D), {acceptance[1]:.2f} (D′)"),
        *(f"sampler message under D: {w}" for w in warned_d),
        *(f"sampler message under D′: {w}" for w in warned_dp),
        f"{n_releases} releases under each dataset; the event was chosen on the first {test.half} of each "
        f"(statistics {', '.join(_REGRESSION_STATISTIC_TEXT.values())} of the released footpoint p̃; "
        f"{2 * _N_LEVELS} quantile thresholds; both directions; either dataset positive) and evaluated on the "
        f"other {test.m}; statistics rounded to a grid of step {step:.3g}"
        + ("" if beyond_d + beyond_dp == 0 else f" — WARNING: {beyond_d + beyond_dp} rounding errors above h/2"),
        f"event S = {{{_REGRESSION_STATISTIC_TEXT[test.statistic]} {test.direction} {test.threshold:.4g}}}: "
        f"P_{test.positive.replace(chr(39), '′')}(S) ≈ TPR = {test.tpr:.4g} (≥ {test.tpr_lo:.4g}), P_{other}(S) ≈ "
        f"FPR = {test.fpr:.4g} (≤ {test.fpr_hi:.4g}); Clopper–Pearson bounds at level {alpha / 2:g} each",
        f"ε_lb = max(0, log((TPR_lo − δ)/FPR_hi)) = {test.eps_lb:.4g}: with probability ≥ {1 - alpha:g} the release "
        f"is not ε-DP for any smaller ε; claimed ε = {claimed_eps:.4g}"
        + (" — CLAIM REFUTED" if test.eps_lb > claimed_eps else
           " — not refuted (an audit can never prove a guarantee)"),
    ]
    keep = min(400, test.m)
    half = test.half
    return AuditResult(
        mechanism=REGRESSION_CONTROL, manifold=manifold.label, variant=variant, label=label, target=target,
        achieved=result_d.guarantee, claimed_eps=float(claimed_eps), delta=float(claim_delta),
        eps_lower_bound=test.eps_lb, eps_point_estimate=test.point, tpr=test.tpr, fpr=test.fpr,
        tpr_lower=test.tpr_lo, fpr_upper=test.fpr_hi, statistic=test.statistic, direction=test.direction,
        threshold=test.threshold, positive=test.positive, n_releases=n_releases, n_evaluation=test.m,
        confidence=1.0 - alpha, n=n, radius=radius, sensitivity=float(result_d.sensitivity_footpoint),
        sensitivity_used=float(result_dp.sensitivity_footpoint), mean_shift=shift, mean_D=fit_d,
        mean_D_prime=fit_dp, moved_from=data[moved], moved_to=neighbour[moved], values_D=test.eval_d * step,
        values_D_prime=test.eval_dp * step, grid_step=step, releases_D=releases_d[half:half + keep],
        releases_D_prime=releases_dp[half:half + keep], notes=tuple(notes),
    )


# ============================================================================ several audits
# Negative controls added by audit_all(include_variants=True): claims known to be false at suitable settings.
# (mechanism, variant), as each mechanism's spec declares them (``MechanismSpec.audit_controls``); "knn_data" only
# with include_slow=True (a fresh calibration per release); (REGRESSION_CONTROL, "data_tau"): KNG regression with
# τ read from the data (audit_kng_regression).
def _control_rows():
    return tuple((name, variant) for name, spec in mechanism_specs().items() for variant in spec.audit_controls)


_SLOW_VARIANTS = ("knn_data",)
SLOW_RELEASES = 500  # releases per dataset of the slow controls in audit_all (~20 s for the kNN graph on S²)
NOT_AUDITED = ()  # controls shown without an audit (title, reason): none — every control is audited


def mean_shift_ratio(manifold, n=DEFAULT_N, radius=DEFAULT_RADIUS, layout="boundary_point", seed=0):
    r""":math:`d(\eta, \eta')/\Delta` for the neighbouring datasets :func:`audit` builds with these arguments.

    The Riemannian Laplace mechanism's exact privacy loss for the pair is this ratio times its :math:`\varepsilon`:
    1 on flat and Hadamard spaces (the shift :math:`2r/n` attains the sensitivity), below 1 on the sphere, where
    the public sensitivity (Reimherr et al.) exceeds the attainable shift (0.47 at :math:`r = 0.5`, 0.97 at
    :math:`r = 0.1`).
    """
    _check_manifold(manifold)
    n = check_int(n, "n", low=2, high=MAX_N)
    radius = manifold.check_radius(radius, "radius")
    seed = check_int(seed, "seed", low=0, high=2**63 - 1)
    streams = np.random.SeedSequence(seed).spawn(4)  # as in audit()
    data, neighbour, _ = neighbouring_datasets(manifold, n, radius, layout, np.random.default_rng(streams[0]))
    center = manifold.default_center()
    prepared, prepared_prime = (summarise(manifold, d, center, radius) for d in (data, neighbour))
    shift = float(manifold.dist(prepared.true_mean, prepared_prime.true_mean, check=False))
    return shift / prepared.sensitivity


def control_noise_scale(manifold, n=DEFAULT_N, radius=DEFAULT_RADIUS, layout="boundary_point", seed=0):
    r"""Noise factor :math:`s` of the "understated noise" control of :func:`audit_all` at these settings.

    With :math:`q` = :func:`mean_shift_ratio`, the Riemannian Laplace run with noise :math:`\times s` has true
    :math:`\varepsilon = q\,\varepsilon_{claim}/s` for the audited pair. :math:`s = 1/2` when :math:`q \ge 3/4`
    (flat and Hadamard spaces, the sphere with a small radius): the true :math:`\varepsilon` is at least
    :math:`1.5\times` the claim; otherwise :math:`s = 1/4` (e.g. S² at :math:`r = 0.5`, :math:`q = 0.47`: halving the
    noise would give only :math:`0.95\times` the claim, which no sound audit can refute).
    """
    return UNDERSTATED_NOISE if mean_shift_ratio(manifold, n, radius, layout, seed) >= 0.75 else 0.25


def audit_all(manifold, target, include_variants=True, mechanisms=None, include_slow=False, executor=None,
              progress=None, **kwargs):
    """Audit every mechanism and the negative controls at one setting.

    Parameters
    ----------
    manifold : Manifold
    target : Guarantee
    include_variants : bool, default True
        Add the negative controls: Riemannian Laplace with understated noise (noise ×
        :func:`control_noise_scale`), the exponential-wrapped mechanisms with a data-dependent footpoint,
        KNG geodesic regression with the data-derived residual bound τ (:func:`audit_kng_regression`, beside
        the same audit with a public τ = r, a "mechanism" row), and (with ``include_slow``) the conformal
        mechanism with its graph on the data points.
    mechanisms : sequence of str, optional
        Registry names, and ``"kng_regression"`` (:data:`REGRESSION_CONTROL`) for the two KNG regression rows
        (default: all of them).
    include_slow : bool, default False
        Also run the data-point graph control (a fresh calibration per release) with at most
        :data:`SLOW_RELEASES` releases per dataset.
    executor : optional
        Where the rows run (:mod:`geodp_core.executors`); each audit has its own seeds, so the rows are the
        same on every executor.
    progress : callable, optional
        Called as ``progress(done, total)`` after each finished audit (``done`` of ``total`` rows), e.g. to show
        "3 of 10 audits". Public: the count of rows does not depend on the data.
    **kwargs
        Passed to :func:`audit` (``n_releases``, ``n``, ``radius``, ``alpha``, ``seed``, ``layout``, ``delta``).
        The KNG regression rows use ``n``, ``radius``, ``alpha``, ``seed`` and at most
        :data:`REGRESSION_RELEASES` releases per dataset (their own datasets, see
        :func:`regression_neighbouring_datasets`); they are "not run" for a GDP / RDP / zCDP target and for
        ``n`` outside :data:`REGRESSION_N`.

    Returns
    -------
    list of dict
        One row per audit: ``name`` (human title), ``mechanism``, ``variant``, ``role`` (``"mechanism"`` or
        ``"negative control"``), ``status`` (``"ok"``, ``"unavailable"`` or ``"not run"``, with ``reason``),
        ``label``, ``claimed_eps``, ``delta``, ``eps_lower_bound``, ``refuted``, ``tpr``, ``fpr``,
        ``n_releases``, ``verdict`` (``"refuted"``, ``"not refuted"`` or ``""``).
    """
    _check_manifold(manifold)
    for flag, value in (("include_variants", include_variants), ("include_slow", include_slow)):
        if not isinstance(value, (bool, np.bool_)):
            raise InvalidParameterError(f"{flag} must be True or False; got {value!r}", param=flag)
    valid = (*MECHANISM_NAMES, REGRESSION_CONTROL)
    names = valid if mechanisms is None else [check_option(m, "mechanisms", valid) for m in mechanisms]
    cases = [(name, None) for name in names]
    if include_variants:
        cases += [(name, variant) for name, variant in _control_rows() if name in names]
    if progress is not None and not callable(progress):
        raise InvalidParameterError(f"progress must be a callable progress(done, total) or None; got "
                                    f"{type(progress).__name__}", param="progress")
    total = len(cases)
    advance = None if progress is None else (lambda fraction: progress(int(round(fraction * total)), total))
    return run_cells(_audit_row, [(manifold, target, name, variant, include_slow, kwargs) for name, variant in cases],
                     executor, advance)


def _audit_row(manifold, target, name, variant, include_slow, kwargs):
    """One row of :func:`audit_all` (module level: runs on any executor)."""
    if name == REGRESSION_CONTROL:
        return _regression_row(manifold, target, variant, kwargs)
    mechanism = get_mechanism(name, manifold)
    extra = {}
    title = mechanism.title
    if variant == "understated_noise":
        extra["noise_scale"] = control_noise_scale(
            manifold, **{k: kwargs[k] for k in ("n", "radius", "layout", "seed") if k in kwargs})
        title += f" [understated noise: × {extra['noise_scale']:g}]"
    elif variant is not None:
        title += f" [{VARIANT_INFO[variant][0]}]"
    row = dict(name=title, mechanism=name, variant=variant,
               role="mechanism" if variant is None else "negative control", status="ok", reason="", label="",
               claimed_eps=None, delta=None, eps_lower_bound=None, refuted=None, tpr=None, fpr=None,
               n_releases=None, verdict="")
    options = {**kwargs, **extra}
    if variant == "data_footpoint" and all(float(k) == 0.0 for k in manifold.curvature_bounds):
        row.update(status="not run", reason="flat space: Exp and Log at any footpoint are isometries, so the "
                                            "data-dependent footpoint is exactly DP here — not a negative control")
        return row
    if variant in _SLOW_VARIANTS:
        if not include_slow:
            row.update(status="not run", reason="slow (a fresh calibration per release): not run here")
            return row
        options["n_releases"] = min(int(options.get("n_releases", DEFAULT_N_RELEASES)), SLOW_RELEASES)
    try:
        result = audit(name, manifold, target, variant=variant, **options)
    except UnavailableError as exc:
        row.update(status="unavailable", reason=_human(str(exc)), label="unavailable")
    except InvalidParameterError as exc:
        if variant is None:  # bad settings: the caller shows the error next to its control
            raise
        row.update(status="not run", reason=_human(str(exc)))  # a control that does not fit these settings
    else:
        row.update(label=result.label, claimed_eps=result.claimed_eps, delta=result.delta,
                   eps_lower_bound=result.eps_lower_bound, refuted=result.claim_refuted, tpr=result.tpr,
                   fpr=result.fpr, n_releases=result.n_releases,
                   verdict="refuted" if result.claim_refuted else "not refuted")
    return row


def _regression_row(manifold, target, variant, kwargs):
    """The :func:`audit_all` row of KNG regression with a public τ = r (``variant=None``) or the data τ."""
    radius = kwargs.get("radius", DEFAULT_RADIUS)
    if variant is None:
        title = "KNG geodesic regression [public residual bound τ = r]"
    else:
        title = f"KNG geodesic regression [{REGRESSION_INFO[variant][0]}]"
    row = dict(name=title, mechanism=REGRESSION_CONTROL, variant=variant,
               role="mechanism" if variant is None else "negative control", status="ok", reason="", label="",
               claimed_eps=None, delta=None, eps_lower_bound=None, refuted=None, tpr=None, fpr=None,
               n_releases=None, verdict="")
    n = kwargs.get("n", DEFAULT_N)
    low, high = REGRESSION_N
    if not isinstance(target, (PureDP, ApproxDP)):
        row.update(status="not run", reason="KNG regression is calibrated to ε-DP: not run for this target")
        return row
    if isinstance(n, (int, np.integer)) and not isinstance(n, bool) and not low <= n <= high:
        row.update(status="not run", reason=f"the regression audit runs one Metropolis chain per release, at a "
                                            f"cost that grows with n: run here for {low} ≤ n ≤ {high} records")
        return row
    releases = min(int(kwargs.get("n_releases", DEFAULT_N_RELEASES)), REGRESSION_RELEASES)
    try:
        result = audit_kng_regression(
            manifold, target, tau="data" if variant is not None else radius, n_releases=max(releases, MIN_RELEASES),
            n=n, radius=radius, **{k: kwargs[k] for k in ("alpha", "seed") if k in kwargs})
    except InvalidParameterError as exc:  # settings KNG regression does not accept (e.g. the space or radius)
        row.update(status="not run", reason=_human(str(exc)))
        return row
    except (GeoDPError, np.linalg.LinAlgError, FloatingPointError, OverflowError) as exc:
        # e.g. the non-private fit did not converge, or a singular matrix far out on SPD at a large radius
        row.update(status="not run", reason=f"the regression could not be run at these settings: {exc}")
        return row
    row.update(label=result.label, claimed_eps=result.claimed_eps, delta=result.delta,
               eps_lower_bound=result.eps_lower_bound, refuted=result.claim_refuted, tpr=result.tpr,
               fpr=result.fpr, n_releases=result.n_releases,
               verdict="refuted" if result.claim_refuted else "not refuted",
               reason=(f"a regression fit, not a mean: its own neighbouring datasets (n = {result.n} records near a "
                       f"geodesic, one moved far off it), {result.n_releases} releases of the footpoint per dataset, "
                       f"bound {result.eps_lower_bound:.3g} vs claimed ε = {result.claimed_eps:.3g}"))
    return row


# ============================================================================ showcase settings
#: Largest intrinsic dimension of a space the audit page offers at its default size (small spaces: quick audits).
AUDIT_MAX_DIM = 3
#: The page's one-dimensional cases, where the audit's bound can come close to the claim: key -> get_manifold
#: arguments (the study's own choice of sizes, not a fact about the spaces).
AUDIT_LINE_SPACES = {
    "circle": ("sphere", 1),
    "line": ("euclidean", 1),
}


def _audit_spaces():
    """Spaces of the audit page: key -> get_manifold arguments.

    Every registered space, at its default size and metric, whose intrinsic dimension is at most
    :data:`AUDIT_MAX_DIM` and on which distance-isotropic noise has an exact sampler (what the space declares: a
    radial volume density or an eigenvalue-polar sampler; the Riemannian Laplace and Gaussian mechanisms are then
    exact there), keyed by its code in menu order; then :data:`AUDIT_LINE_SPACES`. A new space with these
    capabilities is offered without being named here.
    """
    from geodp_core.geometry import MANIFOLD_NAMES, get_manifold

    spaces = {}
    for code in MANIFOLD_NAMES:
        manifold = get_manifold(code)
        if manifold.dim <= AUDIT_MAX_DIM and noise_geometry(manifold)[0] is not None:
            spaces[code] = (code, manifold.size) + ((manifold.metric,) if manifold.metric else ())
    return {**spaces, **AUDIT_LINE_SPACES}


AUDIT_SPACES = _audit_spaces()


def audit_space_manifold(space):
    """The manifold of an :data:`AUDIT_SPACES` key (a space's code at its default size, ``"circle"`` = S¹,
    ``"line"`` = R¹)."""
    from geodp_core.geometry import get_manifold

    return get_manifold(*AUDIT_SPACES[check_option(space, "space", tuple(AUDIT_SPACES))])


# Plain values (a page applies them to its widgets). Measured with seed 0 (docs/derivations/audit.md).
AUDIT_PRESETS = {
    "Exact: Riemannian Laplace on S²": dict(
        space="sphere", mechanism="riemannian_laplace", variant=None, notion="pure_dp", eps=1.0, n=10, radius=0.5,
        n_releases=4000),
    "Exact: Riemannian Laplace on the line R¹ (bound close to the claim)": dict(
        space="line", mechanism="riemannian_laplace", variant=None, notion="pure_dp", eps=1.0, n=10, radius=0.5,
        n_releases=100000),
    "Exact: exponential-wrapped Laplace on H² (n = 2, r = 2)": dict(
        space="hyperbolic", mechanism="ew_laplace", variant=None, notion="pure_dp", eps=1.0, n=2, radius=2.0,
        n_releases=4000),
    "Not DP: data-dependent footpoint on H² (n = 2, r = 2)": dict(
        space="hyperbolic", mechanism="ew_laplace", variant="data_footpoint", notion="pure_dp", eps=1.0, n=2,
        radius=2.0, n_releases=4000),
    "Not DP: tangent Gaussian at the mean on S² (ε = 0.2)": dict(
        space="sphere", mechanism="tangent_gaussian", variant="tangent_at_mean", notion="approx_dp", eps=0.2,
        delta=1e-5, n=2, radius=0.7, n_releases=4000),
    "Negative control: half the noise on the circle S¹ (n = 2, r = 0.1)": dict(
        space="circle", mechanism="riemannian_laplace", variant="understated_noise", notion="pure_dp", eps=1.0,
        n=2, radius=0.1, n_releases=16000),
    "Exact: Riemannian Laplace on the rotations SO(3)": dict(
        space="so3", mechanism="riemannian_laplace", variant=None, notion="pure_dp", eps=1.0, n=10, radius=0.5,
        n_releases=4000),
    "Negative control: half the noise on the rotations SO(3) (n = 2, r = 0.1)": dict(
        space="so3", mechanism="riemannian_laplace", variant="understated_noise", notion="pure_dp", eps=1.0,
        n=2, radius=0.1, n_releases=16000),
    "Power check: understated sensitivity (Δ/4) on H²": dict(
        space="hyperbolic", mechanism="riemannian_laplace", variant="understated_sensitivity", notion="pure_dp",
        eps=1.0, n=10, radius=0.5, n_releases=4000),
}


# ============================================================================ composed releases
COMPOSITION_ACCOUNTING = ("tight", "maximum")
"""How the audited claim of ``k`` composed releases is computed: ``"tight"`` (the composed privacy-loss
distribution, :func:`~geodp_core.privacy.compose_releases`) or ``"maximum"`` (a negative control: composition
counted as the largest single release instead of the sum — wrong, and refuted)."""
MAX_COMPOSED = 200
_COMPOSITION_STATISTIC_TEXT = {
    "dist_to_mean": "Σ_j d(y_j, η)",
    "dist_to_neighbour_mean": "Σ_j d(y_j, η′)",
    "distance_difference": "Σ_j [d(y_j, η) − d(y_j, η′)]",
}


@dataclass(frozen=True)
class CompositionAuditResult:
    """Outcome of :func:`audit_composition`: the composed claim, the empirical lower bound and how they were found.

    Attributes
    ----------
    mechanism, manifold : str
    k : int
        Releases composed (each observation of the audit is ``k`` releases of one dataset's mean).
    accounting : str
        ``"tight"`` or ``"maximum"`` (negative control).
    per_release : Guarantee
        The guarantee each release's calibration achieves.
    claimed_eps, delta : float
        The audited claim of the composition.
    eps_lower_bound : float
        Lower bound on the composition's true ε at ``delta``, valid with probability ``confidence``.
    statistic, direction, threshold, positive : str, str, float, str
        The chosen event on the summed per-release statistics.
    n_observations, n_evaluation : int
        Composed observations per dataset and how many evaluated the event.
    notes : tuple of str
    """

    mechanism: str
    manifold: str
    k: int
    accounting: str
    per_release: Guarantee
    claimed_eps: float
    delta: float
    eps_lower_bound: float
    eps_point_estimate: float
    tpr: float
    fpr: float
    statistic: str
    direction: str
    threshold: float
    positive: str
    n_observations: int
    n_evaluation: int
    confidence: float
    notes: tuple = ()

    @property
    def claim_refuted(self):
        """Whether the empirical lower bound exceeds the claimed ε of the composition."""
        return self.eps_lower_bound > self.claimed_eps

    def summary(self):
        verdict = "REFUTED" if self.claim_refuted else "not refuted"
        return (f"{self.k} × {self.mechanism} on {self.manifold} ({self.accounting} accounting): claimed ε = "
                f"{self.claimed_eps:.4g} (δ = {self.delta:g}), empirical lower bound {self.eps_lower_bound:.4g} at "
                f"confidence {self.confidence:g} — claim {verdict}")


def audit_composition(mechanism_name, manifold, target, k, accounting="tight", n_observations=2000, n=DEFAULT_N,
                      radius=DEFAULT_RADIUS, alpha=DEFAULT_ALPHA, seed=0, delta=DEFAULT_DELTA):
    r"""Empirical lower bound on the privacy loss of ``k`` releases of one private Fréchet mean, against the
    claim of their composition.

    The mechanism is calibrated once to ``target`` (public sensitivity of the neighbouring datasets of
    :func:`neighbouring_datasets`); an observation is ``k`` independent releases around :math:`\eta` (resp.
    :math:`\eta'`). The statistics are the per-release statistics of :func:`audit`, rounded to its public grid and
    summed over the ``k`` releases (integers, so the grid argument against rounding atoms still holds); the event
    is chosen on one half of the observations and evaluated on the other (Clopper–Pearson at level
    :math:`\alpha/2` each), which makes :math:`\hat\varepsilon_{lb}` a lower bound on the composition's
    :math:`\varepsilon` at ``delta`` with probability :math:`\ge 1 - \alpha`.

    The claim: ``"tight"`` — :math:`\varepsilon(\delta)` of the composed privacy-loss distribution
    (:func:`~geodp_core.privacy.compose_releases`), never refuted for a correctly composed mechanism;
    ``"maximum"`` — a negative control counting the composition as one release (the per-release
    :math:`(\varepsilon, \delta)`), which the audit refutes once ``k`` releases reveal more than one.

    Parameters
    ----------
    mechanism_name : str
    manifold : Manifold
    target : Guarantee
        Per-release target.
    k : int
        Releases composed, in ``[1, 200]``.
    accounting : {"tight", "maximum"}
    n_observations : int
        Composed observations per dataset, in ``[100, 20000]`` (``k × n_observations`` releases each, at most
        400,000).
    n, radius, alpha, seed, delta
        As in :func:`audit` (``delta`` is the δ at which the composed claim is read).

    Returns
    -------
    CompositionAuditResult
    """
    from geodp_core.privacy import compose_releases

    name = check_option(mechanism_name, "mechanism_name", MECHANISM_NAMES)
    _check_manifold(manifold)
    if not isinstance(target, Guarantee):
        raise InvalidParameterError(
            f"target must be a guarantee (PureDP, ApproxDP, GDP, RDP or ZCDP); got {type(target).__name__}",
            param="target")
    k = check_int(k, "k", low=1, high=MAX_COMPOSED)
    accounting = check_option(accounting, "accounting", COMPOSITION_ACCOUNTING)
    n_observations = check_int(n_observations, "n_observations", low=MIN_RELEASES, high=20_000)
    if k * n_observations > MAX_RELEASES:
        raise InvalidParameterError(
            f"k × n_observations = {k * n_observations} releases per dataset exceeds {MAX_RELEASES}; use at most "
            f"n_observations = {MAX_RELEASES // k} at k = {k}", param="n_observations")
    n = check_int(n, "n", low=2, high=MAX_N)
    radius = manifold.check_radius(radius, "radius")
    alpha = check_real(alpha, "alpha", low=0.0, high=0.5, high_closed=True)
    seed = check_int(seed, "seed", low=0, high=2**63 - 1)
    delta = check_real(delta, "delta", low=0.0, high=1.0)

    mechanism = get_mechanism(name, manifold)
    mechanism.require_available()
    streams = np.random.SeedSequence(seed).spawn(4)
    data, neighbour, _ = neighbouring_datasets(manifold, n, radius, "boundary_point", np.random.default_rng(streams[0]))
    center = manifold.default_center()
    prepared, prepared_prime = (summarise(manifold, d, center, radius) for d in (data, neighbour))
    eta, eta_prime, sensitivity = prepared.true_mean, prepared_prime.true_mean, prepared.sensitivity
    options = _public_options(name, manifold, center, radius, data, int(streams[1].generate_state(1)[0]))
    calibration = mechanism.calibrate(target, sensitivity, **options)

    step = _grid_step(float(manifold.dist(eta, eta_prime, check=False)), sensitivity)
    summed = []
    for mean, stream in ((eta, streams[2]), (eta_prime, streams[3])):
        releases = mechanism.sample(mean, calibration, k * n_observations, np.random.default_rng(stream))
        stats, _ = _statistics(manifold, releases, eta, eta_prime, step)
        summed.append({key: value.reshape(n_observations, k).sum(axis=1) for key, value in stats.items()})
    test = _distinguish(summed[0], summed[1], step, delta, alpha)

    if accounting == "tight":
        composed = compose_releases([(calibration, manifold)] * k)
        claimed = float(composed.epsilon(delta))
        how = (f"the composed privacy-loss distribution of {k} releases (dp_accounting convolution of the exact "
               f"per-release PLD): ε({delta:g}) = {claimed:.4g}")
    else:
        claimed, _, _ = claimed_approx_dp(calibration.achieved, delta)
        claimed = float(claimed)
        how = (f"NEGATIVE CONTROL: the composition counted as its largest single release, ε({delta:g}) = "
               f"{claimed:.4g} — wrong for k > 1")
    notes = (
        f"{k} releases of one calibration ({calibration.describe()}) per observation; {n_observations} observations "
        f"under each of the neighbouring datasets (d(η, η′) = {float(manifold.dist(eta, eta_prime)):.4g}, public "
        f"Δ = {sensitivity:.4g})",
        f"claim: {how}",
        f"event {_COMPOSITION_STATISTIC_TEXT[test.statistic]} {test.direction} {test.threshold:.4g}, chosen on the "
        f"first {test.half} observations of each dataset, evaluated on the other {test.m}: TPR = {test.tpr:.4g} "
        f"(≥ {test.tpr_lo:.4g}), FPR = {test.fpr:.4g} (≤ {test.fpr_hi:.4g})",
        f"ε_lb = {test.eps_lb:.4g} at confidence {1 - alpha:g} against the claimed ε = {claimed:.4g}"
        + (" — CLAIM REFUTED" if test.eps_lb > claimed else " — not refuted (an audit can never prove a guarantee)"),
    )
    return CompositionAuditResult(
        mechanism=name, manifold=manifold.label, k=k, accounting=accounting, per_release=calibration.achieved,
        claimed_eps=claimed, delta=float(delta), eps_lower_bound=float(test.eps_lb),
        eps_point_estimate=float(test.point), tpr=float(test.tpr), fpr=float(test.fpr), statistic=test.statistic,
        direction=test.direction, threshold=float(test.threshold), positive=test.positive,
        n_observations=n_observations, n_evaluation=int(test.m), confidence=1.0 - alpha,
        notes=tuple(_human(note) for note in notes),
    )
