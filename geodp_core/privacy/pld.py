r"""Privacy-loss distributions (PLDs) of calibrated releases and their tight composition.

Every calibrated release is turned into a *dominating pair* of distributions :math:`(P, Q)` whose privacy loss
:math:`L = \log(dP/dQ)(Y)`, :math:`Y \sim P`, has hockey-stick divergences

.. math:: \delta(\varepsilon) = \mathbb{E}_P\big[(1 - e^{\varepsilon - L})_+\big]

at least those of the mechanism at every :math:`\varepsilon`; a discretised PLD is handed to Google's
``dp_accounting`` (``PrivacyLossDistribution``), which composes by FFT convolution and reports
:math:`\delta(\varepsilon)` and :math:`\varepsilon(\delta)` of the composition. Constructions:

* **Riemannian Gaussian** (:math:`S^d`, :math:`H^d`, :math:`\mathbb{R}^d`, flat SPD, Kendall :math:`\Sigma^k_2`,
  :math:`k \le 20`): the worst pair :math:`\operatorname{dist}(\eta, \eta') = \Delta` of the exact reduction that
  gives :math:`\mu` (:mod:`geodp_core.mechanisms.gaussian_gdp`, :mod:`geodp_core.mechanisms.kendall_gdp`): the exact
  privacy profile :math:`\delta(\varepsilon)` on a grid of :math:`\varepsilon` (both signs:
  :math:`\delta(-\varepsilon) = 1 - e^{-\varepsilon}(1 - \delta(\varepsilon))` by the reflection swapping
  :math:`\eta, \eta'`), times :math:`1 + m` (a safety margin above the quadrature's measured relative error), then the
  pessimistic *connect-the-dots* PMF of Doroshenko, Ghazi, Kamath, Kumar & Manurangsi (2022). Because
  :math:`\delta` is convex in :math:`e^{\varepsilon}`, the chord through upper bounds at the grid points lies above
  the exact profile everywhere, so the PLD is pessimistic at every :math:`\varepsilon` (proof in
  ``docs/derivations/privacy_ledger.md``).
* **pure** :math:`\varepsilon`-DP calibrations (Riemannian Laplace, EW Laplace, conformal, KNG, the bounded-diameter
  Kendall Gaussian): the randomized-response pair, which dominates every :math:`\varepsilon`-DP mechanism
  (``from_privacy_parameters``);
* **μ-GDP** calibrations without an exact profile here (EW Gaussian, tangent Gaussian, SPD affine heuristics):
  the Gaussian pair :math:`N(0, 1/\mu^2)` vs :math:`N(1, 1/\mu^2)` (``from_gaussian_mechanism``);
* **zCDP** calibrations (Brownian motion, Langevin): no PLD (a Rényi curve does not determine one); they are
  composed through their Rényi curves (``dp_accounting``'s RDP accountant), see :func:`rdp_curve`.

A calibration is never credited with more than it states: the exact profile is used only where the
calibration's own guarantee comes from that same reduction; otherwise its stated guarantee decides the pair.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from geodp_core._validation import check_real
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.privacy.conversions import _eps_dp_to_rdp, _log_gdp_delta
from geodp_core.privacy.guarantees import GDP, ZCDP, ApproxDP, Guarantee, PureDP

__all__ = [
    "VALUE_DISCRETIZATION",
    "ComposedReleases",
    "ReleaseAccount",
    "compose_releases",
    "privacy_loss_distribution",
    "rdp_curve",
    "release_account",
]

#: Spacing of the privacy-loss grid shared by every PLD (dp_accounting composes only equal spacings).
VALUE_DISCRETIZATION = 1e-4
#: The exact profile is evaluated at about this many ε ≥ 0 (fewer on a narrow loss range).
PROFILE_POINTS = 600
#: The Kendall quadrature (k ≥ 4) costs ~10 ms per ε: fewer points (the chord bound stays valid, a little looser).
KENDALL_PROFILE_POINTS = 250
#: Grid points of a closed-form profile (flat space): every multiple of the spacing, up to this many.
CLOSED_FORM_POINTS = 500_000
#: Hockey-stick divergence left beyond the largest grid ε (it becomes mass at +∞: counted, never dropped).
TAIL_DELTA = 1e-20
#: Relative safety margin on the quadrature's δ(ε): constant curvature (measured error ~1e-10) and Kendall
#: (measured ~5e-7, the margin its μ already carries).
PROFILE_MARGIN = 1e-8
KENDALL_PROFILE_MARGIN = 1e-5
#: Rényi orders of the RDP path (dp_accounting's defaults).
RDP_ORDERS = tuple([1.0 + x / 10.0 for x in range(1, 100)] + list(range(11, 64)) + [128, 256, 512, 1024])
#: Tail mass dp_accounting may truncate at each convolution (moved to +∞, pessimistic).
TAIL_MASS_TRUNCATION = 1e-15

_HONEST_LABELS = ("exact", "approximate sampler")


def _pld_module():
    from dp_accounting.pld import (
        privacy_loss_distribution as pld_lib,  # imported on first use (slow import)
    )

    return pld_lib


# ------------------------------------------------------------------------------------------ release accounts
@dataclass(frozen=True)
class ReleaseAccount:
    r"""How one calibrated release enters the accounting.

    Attributes
    ----------
    mechanism, manifold : str
        Registry name of the mechanism and label of the manifold.
    method : str
        ``"exact_profile"``, ``"pure_dp"``, ``"gdp"`` or ``"zcdp"``: which dominating pair (or curve) is used.
    theorem : str
        One sentence: the reduction or guarantee the accounting rests on.
    label : str
        The calibration's honesty label.
    pure_eps : float or None
        :math:`\varepsilon` when the release is :math:`\varepsilon`-DP.
    gdp_mu : float or None
        :math:`\mu` when the release is :math:`\mu`-GDP (pure DP: the implied :math:`\mu`).
    zcdp_rho : float or None
        :math:`\rho` when the release is only known to be :math:`\rho`-zCDP.
    sampling_probability : float
        Poisson subsampling rate of the records (1: none).
    """

    mechanism: str
    manifold: str
    method: str
    theorem: str
    label: str
    pure_eps: float = None
    gdp_mu: float = None
    zcdp_rho: float = None
    sampling_probability: float = 1.0
    profile: object = field(default=None, repr=False, compare=False)
    profile_key: tuple = ()

    @property
    def has_pld(self):
        """Whether a privacy-loss distribution is available (every method but ``"zcdp"``)."""
        return self.method != "zcdp"

    def rdp(self, orders):
        r"""Rényi curve :math:`\varepsilon(\alpha)` at ``orders`` (an upper bound of the release's Rényi divergences)."""
        orders = np.asarray(orders, dtype=float)
        if self.method == "zcdp":
            return self.zcdp_rho * orders
        if self.pure_eps is not None and self.method == "pure_dp":
            return np.asarray(_eps_dp_to_rdp(self.pure_eps, orders), dtype=float)
        return 0.5 * orders * self.gdp_mu**2

    def to_dict(self):
        """JSON-ready summary."""
        return {"mechanism": self.mechanism, "manifold": self.manifold, "method": self.method,
                "theorem": self.theorem, "label": self.label, "pure_eps": self.pure_eps, "gdp_mu": self.gdp_mu,
                "zcdp_rho": self.zcdp_rho, "sampling_probability": self.sampling_probability}


def mechanism_title(name):
    """The human title of a registered mechanism (e.g. "Riemannian Gaussian"), else ``name``."""
    from geodp_core.mechanisms.registry import MECHANISM_NAMES, mechanism_class

    return mechanism_class(name).title if name in MECHANISM_NAMES else name


def _check_pair(calibration, manifold):
    from geodp_core.geometry.base import Manifold
    from geodp_core.mechanisms.base import Calibration

    if not isinstance(calibration, Calibration):
        raise InvalidParameterError(
            f"calibration must be a Calibration returned by a mechanism's calibrate(...); got "
            f"{type(calibration).__name__}", param="calibration")
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
            param="manifold")
    if calibration.manifold != manifold.label:
        raise InvalidParameterError(
            f"calibration is for {calibration.manifold}, not for manifold {manifold.label}; pass the manifold it "
            "was calibrated on", param="manifold")


def _gaussian_profile(calibration, manifold):
    r"""``((log_profile, margin, points), theorem, (σ, Δ))`` of the exact reduction behind a Riemannian Gaussian
    calibration, or ``None`` when the calibration's guarantee does not come from that reduction.

    ``log_profile(eps)`` returns :math:`(\log\delta(\varepsilon), \log(1 - \delta(\varepsilon)))` for
    :math:`\varepsilon \ge 0` at the worst pair :math:`\operatorname{dist}(\eta, \eta') = \Delta`.
    """
    from geodp_core.mechanisms import gaussian_gdp, kendall_gdp
    from geodp_core.mechanisms.base import LABEL_EXACT
    from geodp_core.mechanisms.riemannian_laplace import (
        diameter_capped_sensitivity,
        noise_geometry,
    )

    if calibration.mechanism != "riemannian_gaussian" or calibration.label != LABEL_EXACT:
        return None
    if not isinstance(calibration.native, GDP):
        return None
    kind, volume = noise_geometry(manifold)
    if kind != "radial":
        return None
    sigma = float(calibration.noise["sigma"])
    delta = diameter_capped_sensitivity(manifold, calibration.sensitivity, [])
    theorem = ("exact privacy profile of the worst pair dist(η, η') = Δ (GDP-on-manifolds paper Thm. 4.1: one pair "
               "determines the profile on a two-point homogeneous space), by deterministic quadrature")
    # Each branch also states the σ range (in the model's units) where its quadrature is validated
    # (gaussian_gdp); outside it the calibration's stated μ-GDP is used instead (a valid, looser pair).
    landmarks = kendall_gdp.complex_projective_landmarks(volume)
    if gaussian_gdp.exact_gdp_available(volume):
        model, dim, s, d, _ = gaussian_gdp._validate(volume, None, sigma, delta)  # unit-curvature units

        def log_profile(eps):
            return gaussian_gdp._log_profile(model, dim, s, d, eps)

        if model.is_flat:
            built, unit_sigma = (log_profile, 0.0, CLOSED_FORM_POINTS, math.inf), s
        else:
            max_sigma = gaussian_gdp._SPHERE_MAX_SIGMA if model.r_max < math.inf else gaussian_gdp._HYPERBOLIC_MAX_SIGMA
            built, unit_sigma = (log_profile, PROFILE_MARGIN, PROFILE_POINTS, max_sigma), s
    elif landmarks is not None and landmarks <= kendall_gdp.KENDALL_EXACT_MAX_K:

        def log_profile(eps):
            return kendall_gdp._log_profile(landmarks - 2, sigma, delta, eps)

        built = (log_profile, KENDALL_PROFILE_MARGIN, KENDALL_PROFILE_POINTS, gaussian_gdp._SPHERE_MAX_SIGMA)
        unit_sigma = sigma
    else:
        return None
    log_profile, margin, points, max_sigma = built
    if not gaussian_gdp._SMALL_SIGMA <= unit_sigma <= max_sigma:
        return None
    return (log_profile, margin, points), theorem, (sigma, delta)


def release_account(calibration, manifold, sampling_probability=1.0):
    """The :class:`ReleaseAccount` of one calibrated release (see the module docstring for the cases).

    Parameters
    ----------
    calibration : Calibration
        From ``get_mechanism(name, manifold).calibrate(...)``.
    manifold : Manifold
        The manifold it was calibrated on.
    sampling_probability : float, optional
        Poisson subsampling rate of the records, in (0, 1]; below 1 only for μ-GDP releases (see
        :func:`privacy_loss_distribution`).

    Returns
    -------
    ReleaseAccount

    Raises
    ------
    UnavailableError
        For a calibration with no formal guarantee or unavailable, or subsampling of a release whose
        amplification is not supported.
    """
    _check_pair(calibration, manifold)
    q = check_real(sampling_probability, "sampling_probability", low=0.0, high=1.0, high_closed=True)
    if calibration.label not in _HONEST_LABELS:
        raise UnavailableError(
            f"{mechanism_title(calibration.mechanism)} on {calibration.manifold} is labelled '{calibration.label}': "
            "it has no proved privacy guarantee, so it cannot be accounted for (its stated parameter is a "
            "heuristic); use a calibration with a proved guarantee", param="calibration")
    native = calibration.native
    common = {"mechanism": calibration.mechanism, "manifold": calibration.manifold, "label": calibration.label,
              "sampling_probability": q}
    if isinstance(native, PureDP):
        if q < 1.0:
            raise UnavailableError(
                "Poisson subsampling of a pure ε-DP release is not supported here: dp_accounting amplifies "
                "Gaussian-dominated releases only; use sampling_probability=1", param="sampling_probability")
        from geodp_core.privacy.conversions import _eps_dp_to_gdp

        return ReleaseAccount(method="pure_dp", pure_eps=float(native.eps), gdp_mu=float(_eps_dp_to_gdp(native.eps)),
                              theorem=f"ε-DP with ε = {native.eps:.6g} (calibration); dominated by randomized "
                                      "response", **common)
    if isinstance(native, GDP):
        profile = _gaussian_profile(calibration, manifold) if q == 1.0 else None
        if profile is not None:
            return ReleaseAccount(method="exact_profile", gdp_mu=float(native.mu), theorem=profile[1],
                                  profile=profile[0], profile_key=profile[2], **common)
        theorem = f"μ-GDP with μ = {native.mu:.6g} (calibration); dominated by the Gaussian pair N(0,1), N(μ,1)"
        if q < 1.0:
            theorem += (f"; Poisson subsampling at rate {q:g} (add-or-remove-one neighbours: the sensitivity must "
                        "bound the change of the summary when one record is added or removed)")
        return ReleaseAccount(method="gdp", gdp_mu=float(native.mu), theorem=theorem, **common)
    if isinstance(native, ZCDP):
        if q < 1.0:
            raise UnavailableError(
                "Poisson subsampling of a zCDP release is not supported: the amplified Rényi curve depends on the "
                "mechanism beyond its ρ; use sampling_probability=1", param="sampling_probability")
        return ReleaseAccount(method="zcdp", zcdp_rho=float(native.rho),
                              theorem=f"ρ-zCDP with ρ = {native.rho:.6g} (calibration): (α, ρα)-RDP for every α > 1; "
                                      "no privacy-loss distribution follows from a Rényi curve", **common)
    raise UnavailableError(
        f"{mechanism_title(calibration.mechanism)}: its native guarantee {native.describe()} has no accounting here",
        param="calibration")


# ----------------------------------------------------------------------------------------------- PLD builders
def _exact_profile_pld(account, discretization):
    r"""Pessimistic connect-the-dots PLD from the exact profile (see the module docstring)."""
    from dp_accounting.pld import pld_pmf

    log_profile, margin, points = account.profile
    mu = account.gdp_mu
    # Largest ε: δ(ε) ≤ δ_μ(ε) (μ is the calibration's exact μ, an upper envelope); solve δ_μ(ε) = TAIL_DELTA.
    log_tail = math.log(TAIL_DELTA)
    hi = max(mu * mu, 1e-3)
    while float(_log_gdp_delta(mu, hi)) > log_tail:
        hi *= 2.0
    lo = 0.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if float(_log_gdp_delta(mu, mid)) > log_tail:
            lo = mid
        else:
            hi = mid
    n_top = max(math.ceil(hi / discretization), 1)
    step = max(1, math.ceil(n_top / points))
    index = np.arange(0, n_top + step, step, dtype=np.int64)
    eps = index * discretization
    log_delta, _ = log_profile(eps)
    if not np.all(np.isfinite(log_delta) | (log_delta == -np.inf)):
        # a quadrature value that is not a number: fall back to the calibration's μ-GDP pair (valid, looser)
        return _pld_module().from_gaussian_mechanism(1.0 / mu, value_discretization_interval=discretization)
    with np.errstate(under="ignore"):
        delta = np.minimum(np.exp(log_delta) * (1.0 + margin), 1.0)
    # upper bounds stay upper bounds when raised to the running maximum from the right (δ is non-increasing)
    delta = np.maximum.accumulate(delta[::-1])[::-1]
    # negative side by the reflection symmetry: δ(−ε) = 1 − e^{−ε}(1 − δ(ε)), increasing in δ(ε)
    with np.errstate(divide="ignore"):
        negative = -np.expm1(-eps[1:] + np.log1p(-np.minimum(delta[1:], 1.0)))
    all_index = np.concatenate([-index[1:][::-1], index])
    all_delta = np.clip(np.concatenate([negative[::-1], delta]), 0.0, 1.0)
    all_delta = np.maximum.accumulate(all_delta[::-1])[::-1]
    if step == 1:  # every multiple of h: the vectorised fixed-gap form of the same construction
        pmf = pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(discretization, int(all_index[0]),
                                                                     int(all_index[-1]), all_delta)
    else:
        pmf = pld_pmf.create_pmf_pessimistic_connect_dots(discretization, all_index, all_delta)
    return _pld_module().PrivacyLossDistribution(pmf)


def _pld_of_account(account, discretization):
    pld_lib = _pld_module()
    from dp_accounting.pld import common

    if account.method == "exact_profile":
        return _exact_profile_pld(account, discretization)
    if account.method == "pure_dp":
        return pld_lib.from_privacy_parameters(common.DifferentialPrivacyParameters(account.pure_eps, 0.0),
                                               value_discretization_interval=discretization)
    if account.method == "gdp":
        return pld_lib.from_gaussian_mechanism(1.0 / account.gdp_mu, sensitivity=1.0,
                                               value_discretization_interval=discretization,
                                               sampling_prob=account.sampling_probability, use_connect_dots=True)
    raise UnavailableError(
        f"{mechanism_title(account.mechanism)} on {account.manifold} is accounted for only by its Rényi curve "
        "(ρ-zCDP): no "
        "privacy-loss distribution follows from it; use rdp_curve(...) or compose_releases(...), which composes "
        "it through dp_accounting's RDP accountant", param="calibration")


def privacy_loss_distribution(calibration, manifold, sampling_probability=1.0,
                              value_discretization_interval=VALUE_DISCRETIZATION):
    r"""Pessimistic privacy-loss distribution of one calibrated release (a ``dp_accounting`` object).

    Parameters
    ----------
    calibration : Calibration
        From ``get_mechanism(name, manifold).calibrate(target, sensitivity)``.
    manifold : Manifold
        The manifold it was calibrated on.
    sampling_probability : float, optional
        Poisson subsampling rate q in (0, 1] (default 1: no subsampling). Below 1 only for μ-GDP releases,
        through ``dp_accounting``'s subsampled Gaussian PLD (add-or-remove-one neighbours: the calibration's
        sensitivity must bound the change of the summary when one record is added or removed).
    value_discretization_interval : float, optional
        Spacing of the loss grid (default :data:`VALUE_DISCRETIZATION`); PLDs compose only at equal spacing.

    Returns
    -------
    dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution
        ``get_delta_for_epsilon(eps) >= δ(ε)`` of the release at every ε (pessimistic).

    Raises
    ------
    UnavailableError
        For zCDP-only releases (Brownian motion, Langevin: use :func:`rdp_curve`), calibrations without a proved
        guarantee, or unsupported subsampling.
    """
    h = check_real(value_discretization_interval, "value_discretization_interval", low=1e-7, high=1.0,
                   high_closed=True)
    return _pld_of_account(release_account(calibration, manifold, sampling_probability), h)


def rdp_curve(calibration, manifold, orders=RDP_ORDERS):
    r"""Rényi-DP curve :math:`\varepsilon(\alpha)` of one release at ``orders`` (every calibration with a proof).

    μ-GDP: :math:`\alpha\mu^2/2`; ρ-zCDP: :math:`\rho\alpha`; ε-DP: the randomized-response curve
    (heat-diffusion paper eq. 12). Returns an ``ndarray`` of the same length as ``orders``.
    """
    orders = np.asarray(orders, dtype=float)
    if orders.ndim != 1 or orders.size == 0 or not np.all(np.isfinite(orders)) or np.any(orders <= 1.0):
        raise InvalidParameterError("orders must be a non-empty 1-D sequence of finite reals > 1", param="orders")
    return release_account(calibration, manifold).rdp(orders)


# ------------------------------------------------------------------------------------------------ composition
def _rdp_events(accounts, relation):
    from dp_accounting import dp_event

    events = []
    for a in accounts:
        if a.method == "zcdp":
            events.append(dp_event.ZCDpEvent(a.zcdp_rho))
        elif a.method == "pure_dp":
            # binary randomized response with noise parameter p = 2/(1 + e^ε) is ε-DP and dominates every ε-DP
            # mechanism (replace-one neighbours)
            events.append(dp_event.RandomizedResponseDpEvent(2.0 / (1.0 + math.exp(a.pure_eps)), 2))
        elif a.sampling_probability < 1.0:
            events.append(dp_event.PoissonSampledDpEvent(a.sampling_probability,
                                                         dp_event.GaussianDpEvent(1.0 / a.gdp_mu)))
        else:
            events.append(dp_event.GaussianDpEvent(1.0 / a.gdp_mu))
    return events


def _rdp_accountant(accounts):
    from dp_accounting import privacy_accountant
    from dp_accounting.rdp import rdp_privacy_accountant

    subsampled = any(a.sampling_probability < 1.0 for a in accounts)
    pure = any(a.method == "pure_dp" for a in accounts)
    if subsampled and pure:
        return None
    relation = (privacy_accountant.NeighboringRelation.ADD_OR_REMOVE_ONE if subsampled
                else privacy_accountant.NeighboringRelation.REPLACE_ONE)
    accountant = rdp_privacy_accountant.RdpAccountant(list(RDP_ORDERS), neighboring_relation=relation)
    for event in _rdp_events(accounts, relation):
        accountant.compose(event)
    return accountant


@dataclass
class ComposedReleases:
    r"""Composition of several releases: tight PLD accounting with the classical bounds beside it.

    Attributes
    ----------
    accounts : list of ReleaseAccount
    pld : PrivacyLossDistribution or None
        The composed PLD of the releases that have one (``None`` if none has).
    rdp_only : list of ReleaseAccount
        Releases composed through their Rényi curves only (zCDP).
    """

    accounts: list
    pld: object
    rdp_only: list
    _rdp: object = field(default=None, repr=False)
    _h: float = field(default=VALUE_DISCRETIZATION, repr=False)

    @property
    def k(self):
        """Number of releases."""
        return len(self.accounts)

    def _rdp_part(self):
        if self._rdp is None:
            self._rdp = _rdp_accountant(self.rdp_only) if self.rdp_only else False
        return self._rdp

    def delta(self, eps):
        r"""Smallest certified :math:`\delta` at :math:`\varepsilon` (tight PLD; split with the RDP part if any)."""
        eps = check_real(eps, "eps", low=0.0, low_closed=True)
        if not self.rdp_only:
            return float(min(self.pld.get_delta_for_epsilon(eps), 1.0))
        rdp = self._rdp_part()
        if self.pld is None:
            return float(min(rdp.get_delta(eps), 1.0))
        # basic composition of the two parts, best split of ε on a grid
        fractions = np.linspace(0.0, 1.0, 101)
        best = 1.0
        for f in fractions:
            best = min(best, float(self.pld.get_delta_for_epsilon(f * eps)) + float(rdp.get_delta((1 - f) * eps)))
        return float(min(best, 1.0))

    def epsilon(self, delta):
        r"""Smallest certified :math:`\varepsilon` at :math:`\delta` (tight PLD; split with the RDP part if any)."""
        delta = check_real(delta, "delta", low=0.0, high=1.0)
        if not self.rdp_only:
            return float(self.pld.get_epsilon_for_delta(delta))
        rdp = self._rdp_part()
        if self.pld is None:
            return float(rdp.get_epsilon(delta))
        best = math.inf
        for f in np.linspace(0.01, 0.99, 99):
            best = min(best, float(self.pld.get_epsilon_for_delta(f * delta)) + float(rdp.get_epsilon((1 - f) * delta)))
        return float(best)

    # -------------------------------------------------------------- the classical bounds, for comparison
    def basic_epsilon(self, delta):
        r"""Basic composition: :math:`\sum_i \varepsilon_i(\delta/k)` with each release's own tight
        :math:`\varepsilon_i` at :math:`\delta_i = \delta/k` (pure-DP releases: :math:`\delta_i = 0`)."""
        delta = check_real(delta, "delta", low=0.0, high=1.0)
        approx = [a for a in self.accounts if a.method != "pure_dp"]
        share = delta / max(len(approx), 1)
        groups = {}
        for a in self.accounts:
            groups.setdefault(_account_key(a), [a, 0])[1] += 1
        total = 0.0
        for a, count in groups.values():
            if a.method == "pure_dp":
                each = a.pure_eps
            elif a.method == "zcdp":
                each = float(_rdp_accountant([a]).get_epsilon(share))
            else:
                each = float(_cached_pld(a, self._h).get_epsilon_for_delta(share))
            total += count * each
        return total

    @property
    def gdp_mu(self):
        r"""GDP composition :math:`\sqrt{\sum_i \mu_i^2}` (Dong, Roth & Su 2022, Cor. 3.3), ``None`` when a release
        is not GDP (zCDP) or is subsampled."""
        if any(a.gdp_mu is None or a.sampling_probability < 1.0 for a in self.accounts):
            return None
        return math.sqrt(math.fsum(a.gdp_mu**2 for a in self.accounts))

    def gdp_epsilon(self, delta):
        r""":math:`\varepsilon` at :math:`\delta` of the GDP composition (``None`` when it does not apply)."""
        delta = check_real(delta, "delta", low=0.0, high=1.0)
        mu = self.gdp_mu
        if mu is None:
            return None
        return _gdp_epsilon_for_delta(mu, delta)

    def rdp_epsilon(self, delta):
        r""":math:`\varepsilon` at :math:`\delta` of the Rényi composition of every release (dp_accounting's RDP
        accountant; ``None`` when pure-DP and subsampled releases are mixed)."""
        delta = check_real(delta, "delta", low=0.0, high=1.0)
        accountant = _rdp_accountant(self.accounts)
        return None if accountant is None else float(accountant.get_epsilon(delta))

    def summary(self, delta):
        """``{"k", "tight", "basic", "gdp", "rdp"}``: ε at ``delta`` by each accountant (JSON-ready)."""
        return {"k": self.k, "delta": float(delta), "tight": self.epsilon(delta), "basic": self.basic_epsilon(delta),
                "gdp": self.gdp_epsilon(delta), "rdp": self.rdp_epsilon(delta)}


def _gdp_epsilon_for_delta(mu, delta):
    r"""Smallest :math:`\varepsilon \ge 0` with :math:`\delta_\mu(\varepsilon) \le \delta` (bisection, safe side)."""
    log_target = math.log(delta)
    if float(_log_gdp_delta(mu, 0.0)) <= log_target:
        return 0.0
    lo, hi = 0.0, max(1.0, mu * mu)
    while float(_log_gdp_delta(mu, hi)) > log_target:
        lo, hi = hi, 2.0 * hi
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if float(_log_gdp_delta(mu, mid)) > log_target:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return hi


def compose_releases(releases, sampling_probability=1.0, value_discretization_interval=VALUE_DISCRETIZATION):
    r"""Tight composition of several releases (heterogeneous mechanisms allowed, chosen adaptively or not).

    The composed PLD is the convolution of the releases' PLDs (``dp_accounting``); it certifies
    :math:`(\varepsilon, \delta(\varepsilon))`-DP of the composition for adaptively chosen *queries* whose
    mechanisms (and their parameters) are fixed in advance (Zhu, Dong & Wang 2022, dominating pairs compose
    adaptively). For parameters chosen adaptively from earlier outputs use a :class:`~geodp_core.privacy.ledger.
    PrivacyLedger` (a privacy filter). Releases known only by a Rényi curve (ρ-zCDP) are composed through
    ``dp_accounting``'s RDP accountant and joined to the PLD part by basic composition, with the best split.

    Parameters
    ----------
    releases : sequence of (Calibration, Manifold)
        At least one pair.
    sampling_probability : float or sequence of float, optional
        Poisson subsampling rate of each release (one value for all, or one per release).
    value_discretization_interval : float, optional
        Loss grid spacing of the PLDs.

    Returns
    -------
    ComposedReleases
        ``.delta(eps)``, ``.epsilon(delta)`` (tight), ``.basic_epsilon(delta)``, ``.gdp_mu``,
        ``.gdp_epsilon(delta)``, ``.rdp_epsilon(delta)``, ``.pld``.
    """
    if not hasattr(releases, "__iter__") or isinstance(releases, (str, bytes, tuple)) and len(releases) == 2 \
            and not isinstance(releases[0], (tuple, list)):
        raise InvalidParameterError(
            "releases must be a sequence of (calibration, manifold) pairs, e.g. [(cal, manifold)]", param="releases")
    items = list(releases)
    if not items:
        raise InvalidParameterError("releases must contain at least one (calibration, manifold) pair; got none",
                                    param="releases")
    if np.ndim(sampling_probability) == 0:
        rates = [sampling_probability] * len(items)
    else:
        rates = list(sampling_probability)
        if len(rates) != len(items):
            raise InvalidParameterError(
                f"sampling_probability must be one number or one per release ({len(items)}); got {len(rates)}",
                param="sampling_probability")
    h = check_real(value_discretization_interval, "value_discretization_interval", low=1e-7, high=1.0,
                   high_closed=True)
    accounts = []
    for i, (item, rate) in enumerate(zip(items, rates)):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise InvalidParameterError(
                f"releases[{i}] must be a (calibration, manifold) pair; got {type(item).__name__}", param="releases")
        accounts.append(release_account(item[0], item[1], rate))
    return _compose_accounts(accounts, h)


def _account_key(account):
    return (account.mechanism, account.manifold, account.method, account.pure_eps, account.gdp_mu,
            account.zcdp_rho, account.sampling_probability, account.theorem, account.profile_key)


_PLD_CACHE = {}
_PLD_CACHE_SIZE = 64


def _cached_pld(account, h):
    key = _account_key(account) + (h,)
    pld = _PLD_CACHE.get(key)
    if pld is None:
        pld = _pld_of_account(account, h)
        if len(_PLD_CACHE) >= _PLD_CACHE_SIZE:
            _PLD_CACHE.pop(next(iter(_PLD_CACHE)))
        _PLD_CACHE[key] = pld
    return pld


def _compose_accounts(accounts, h):
    """Group identical releases (self-composition by FFT powers), then convolve the groups."""
    groups = {}
    for a in accounts:
        if a.has_pld:
            groups.setdefault(_account_key(a), [a, 0])[1] += 1
    composed = None
    for account, count in groups.values():
        pld = _cached_pld(account, h)
        if count > 1:
            pld = pld.self_compose(count, tail_mass_truncation=TAIL_MASS_TRUNCATION)
        composed = pld if composed is None else composed.compose(pld, tail_mass_truncation=TAIL_MASS_TRUNCATION)
    result = ComposedReleases(accounts=list(accounts), pld=composed, rdp_only=[a for a in accounts if not a.has_pld])
    result._h = h
    return result


def guarantee_pld(guarantee, value_discretization_interval=VALUE_DISCRETIZATION):
    """Dominating PLD of a bare guarantee: ``PureDP`` (randomized response), ``ApproxDP`` (``from_privacy_parameters``),
    ``GDP`` (Gaussian pair). ``RDP`` / ``ZCDP`` have none (raises :class:`UnavailableError`)."""
    from dp_accounting.pld import common

    pld_lib = _pld_module()
    if not isinstance(guarantee, Guarantee):
        raise InvalidParameterError(f"guarantee must be a Guarantee; got {type(guarantee).__name__}",
                                    param="guarantee")
    if isinstance(guarantee, PureDP):
        return pld_lib.from_privacy_parameters(common.DifferentialPrivacyParameters(guarantee.eps, 0.0),
                                               value_discretization_interval)
    if isinstance(guarantee, ApproxDP):
        return pld_lib.from_privacy_parameters(common.DifferentialPrivacyParameters(guarantee.eps, guarantee.delta),
                                               value_discretization_interval)
    if isinstance(guarantee, GDP):
        return pld_lib.from_gaussian_mechanism(1.0 / guarantee.mu, value_discretization_interval=
                                               value_discretization_interval)
    raise UnavailableError(f"{guarantee.describe()} determines no privacy-loss distribution (a Rényi bound only)",
                           param="guarantee")

