"""Budget helpers: meet ONE common target guarantee with mechanisms of different native notions.

docs/specification.md §4.5: a comparison states one target guarantee; each mechanism
is calibrated to it natively or through a valid conversion, and the UI shows
which. A mechanism family asks the helper of its native notion:

* :func:`pure_dp_budget` — :math:`\\varepsilon`-DP mechanisms (Riemannian Laplace, ...),
* :func:`gdp_budget` — :math:`\\mu`-GDP mechanisms (Riemannian Gaussian, ...),
* :func:`zcdp_budget` — mechanisms with a linear RDP curve
  :math:`\\varepsilon(\\alpha) = \\rho\\alpha` (Brownian motion, Langevin, Gaussian).

Each returns a :class:`Budget`; its ``achieved`` guarantee (in the target's
notion) is verified to imply the target. When no valid conversion exists the
helper raises :class:`~geodp_core.exceptions.UnavailableError` with the reason.
"""

from dataclasses import dataclass

import numpy as np

from geodp_core.exceptions import InvalidParameterError, NumericalOverflowError, UnavailableError
from geodp_core.privacy._solvers import bracket_increasing, largest_feasible
from geodp_core.privacy.conversions import (
    _eps_dp_to_gdp,
    _eps_dp_to_rdp,
    _gdp_to_eps_dp,
    _log_gdp_delta,
    _zcdp_to_approx_dp_unclipped,
)
from geodp_core.privacy.gaussian import _gdp_mu_for_approx_dp
from geodp_core.privacy.guarantees import GDP, RDP, ZCDP, ApproxDP, Guarantee, PureDP

__all__ = ["Budget", "pure_dp_budget", "gdp_budget", "zcdp_budget"]

_NUDGE = 1e-12
_MAX_NUDGES = 10_000


@dataclass(frozen=True)
class Budget:
    """Native privacy parameter that meets a target guarantee.

    Attributes
    ----------
    value : float
        The native parameter: :math:`\\varepsilon` (``notion == "pure_dp"``),
        :math:`\\mu` (``"gdp"``) or :math:`\\rho` (``"zcdp"``).
    notion : str
        The native notion of ``value``.
    achieved : Guarantee
        The guarantee actually achieved, in the target's notion (implies the target).
    note : str
        The theorem or conversion used.
    """

    value: float
    notion: str
    achieved: Guarantee
    note: str

    def describe(self):
        """One line for the UI, e.g. ``"ε=0.98 (ε-DP) → (α=2, ε=0.3)-RDP: ..."``."""
        symbol = {"pure_dp": "ε", "gdp": "μ", "zcdp": "ρ"}.get(self.notion, "value")
        return f"{symbol}={self.value:.6g} ({self.notion}) achieves {self.achieved.describe()}: {self.note}"


def _check_target(target):
    if not isinstance(target, Guarantee):
        raise InvalidParameterError(
            f"target must be a PureDP, ApproxDP, GDP, RDP or ZCDP guarantee; got {type(target).__name__}",
            param="target",
        )
    return target


def _shrink_until(value, ok, target=None):
    """Decrease ``value`` by relative 1e-12 steps until ``ok(value)`` (safe side).

    A value that is not a positive finite double (overflow/underflow of the budget formula
    for an extreme target) raises :class:`NumericalOverflowError` naming ``target``.
    """
    value = float(value)
    if not (np.isfinite(value) and value > 0.0):
        raise NumericalOverflowError(
            f"the native budget for target {target} is {value!r}, not a positive finite double: the target is "
            "too extreme for double precision; choose a less extreme target",
            param="target",
        )
    for _ in range(_MAX_NUDGES):
        if ok(value):
            return float(value)
        value = value * (1.0 - _NUDGE)
    raise NumericalOverflowError(  # pragma: no cover - defensive
        f"the budget for target {target} could not be verified on the safe side in double precision",
        param="target",
    )


def pure_dp_budget(target):
    """Largest :math:`\\varepsilon` such that an :math:`\\varepsilon`-DP mechanism meets ``target``.

    ========================  ============================================================
    target                    :math:`\\varepsilon`
    ========================  ============================================================
    PureDP(eps)               eps (native)
    ApproxDP(eps, delta)      eps (eps-DP implies (eps, delta)-DP; delta unused)
    GDP(mu)                   gdp_to_eps_dp(mu), verified: eps_dp_to_gdp(eps) <= mu
    RDP(alpha, e)             largest eps with eps_dp_to_rdp(eps, alpha) <= e (root-found)
    ZCDP(rho)                 sqrt(2 rho) (Bun–Steinke: eps-DP implies eps^2/2-zCDP)
    ========================  ============================================================

    Parameters
    ----------
    target : Guarantee

    Returns
    -------
    Budget
        ``notion == "pure_dp"``.
    """
    target = _check_target(target)
    if isinstance(target, PureDP):
        return Budget(target.eps, "pure_dp", target, "native ε-DP")
    if isinstance(target, ApproxDP):
        if target.eps == 0.0:
            raise UnavailableError(
                "an ε-DP mechanism needs ε > 0, and the conversion used here (ε-DP implies "
                "(ε, δ)-DP) ignores δ, so the target (ε=0, δ) cannot be met; choose ε > 0",
                param="target",
            )
        return Budget(
            target.eps, "pure_dp", target,
            "ε-DP implies (ε, δ)-DP for every δ ≥ 0 (δ unused: the mechanism achieves δ = 0)",
        )
    if isinstance(target, GDP):
        eps = _shrink_until(float(_gdp_to_eps_dp(target.mu)), lambda e: _eps_dp_to_gdp(e) <= target.mu, target)
        return Budget(
            eps, "pure_dp", GDP(float(_eps_dp_to_gdp(eps))),
            "ε-DP implies μ-GDP with μ = −2 Φ⁻¹(1/(1+e^ε)) (Dong, Roth & Su 2022); "
            "ε = log(Φ(μ/2)/Φ(-μ/2))",
        )
    if isinstance(target, RDP):
        alpha, e = target.alpha, target.eps

        def excess(eps):
            return float(_eps_dp_to_rdp(eps, alpha)) - e

        # eps(alpha) <= min(eps, alpha eps^2/2) and eps(alpha) >= eps - log 2/(alpha - 1).
        lo = max(e, np.sqrt(2.0 * e / alpha))
        hi = e + np.log(2.0) / (alpha - 1.0) + 1.0
        eps = largest_feasible(excess, lo, hi, "eps")
        return Budget(
            eps, "pure_dp", RDP(alpha, float(_eps_dp_to_rdp(eps, alpha))),
            "ε-DP implies (α, ε(α))-RDP, ε(α) = log(exp(αε)/(e^ε+1) + e^ε·exp(−αε)/(e^ε+1))/(α−1) "
            "(heat-diffusion paper eq. 12); largest ε with ε(α) ≤ target, root-found",
        )
    eps = _shrink_until(np.sqrt(2.0 * target.rho), lambda x: x**2 / 2.0 <= target.rho, target)
    return Budget(
        eps, "pure_dp", ZCDP(eps**2 / 2.0),
        "ε-DP implies (ε²/2)-zCDP (Bun & Steinke 2016, Prop. 1.4); ε = sqrt(2ρ)",
    )


def gdp_budget(target):
    """Largest :math:`\\mu` such that a :math:`\\mu`-GDP mechanism meets ``target``.

    ========================  ============================================================
    target                    :math:`\\mu`
    ========================  ============================================================
    GDP(mu)                   mu (native)
    ApproxDP(eps, delta)      largest mu with delta_mu(eps) <= delta (root-found, verified)
    RDP(alpha, e)             sqrt(2 e / alpha)  (mu-GDP implies (alpha, alpha mu^2/2)-RDP)
    ZCDP(rho)                 sqrt(2 rho)        (mu-GDP implies (mu^2/2)-zCDP)
    PureDP(eps)               unavailable (unbounded privacy loss)
    ========================  ============================================================

    Parameters
    ----------
    target : Guarantee

    Returns
    -------
    Budget
        ``notion == "gdp"``.

    Raises
    ------
    UnavailableError
        For a pure-DP target.
    """
    target = _check_target(target)
    if isinstance(target, GDP):
        return Budget(target.mu, "gdp", target, "native μ-GDP")
    if isinstance(target, ApproxDP):
        mu = _gdp_mu_for_approx_dp(target.eps, target.delta)
        delta = float(np.exp(_log_gdp_delta(mu, target.eps)))
        delta = delta if delta > 0.0 else target.delta  # underflow: the verified bound is target.delta
        return Budget(
            mu, "gdp", ApproxDP(target.eps, delta),
            "μ-GDP implies (ε, δ_μ(ε))-DP, δ_μ(ε) = Φ(-ε/μ+μ/2) - e^ε Φ(-ε/μ-μ/2) "
            "(Dong, Roth & Su 2022, Cor. 2.13); largest μ with δ_μ(ε) ≤ δ, root-found",
        )
    if isinstance(target, RDP):
        alpha = target.alpha
        mu = _shrink_until(np.sqrt(2.0 * target.eps / alpha), lambda m: alpha * m**2 / 2.0 <= target.eps, target)
        return Budget(
            mu, "gdp", RDP(alpha, alpha * mu**2 / 2.0),
            "μ-GDP implies (α, αμ²/2)-RDP (Rényi divergence of N(0,1) and N(μ,1)); μ = sqrt(2ε/α)",
        )
    if isinstance(target, ZCDP):
        mu = _shrink_until(np.sqrt(2.0 * target.rho), lambda m: m**2 / 2.0 <= target.rho, target)
        return Budget(
            mu, "gdp", ZCDP(mu**2 / 2.0),
            "μ-GDP implies (μ²/2)-zCDP (Rényi divergence of N(0,1) and N(μ,1)); μ = sqrt(2ρ)",
        )
    raise UnavailableError(
        f"a μ-GDP mechanism cannot meet the pure target {target.describe()}: Gaussian-type noise has "
        "unbounded privacy loss, so μ-GDP implies no ε-DP with δ = 0; choose an (ε, δ), GDP, RDP "
        "or zCDP target",
        param="target",
    )


def zcdp_budget(target):
    """Largest :math:`\\rho` such that a mechanism with RDP curve :math:`\\varepsilon(\\alpha)=\\rho\\alpha` meets ``target``.

    ========================  ============================================================
    target                    :math:`\\rho`
    ========================  ============================================================
    ZCDP(rho)                 rho (native)
    RDP(alpha, e)             e / alpha
    ApproxDP(eps, delta)      largest rho with zcdp_to_approx_dp(rho, delta) <= eps
    GDP(mu), PureDP(eps)      unavailable (no valid conversion from zCDP)
    ========================  ============================================================

    Parameters
    ----------
    target : Guarantee

    Returns
    -------
    Budget
        ``notion == "zcdp"``.

    Raises
    ------
    UnavailableError
        For GDP and pure-DP targets.
    """
    target = _check_target(target)
    if isinstance(target, ZCDP):
        return Budget(target.rho, "zcdp", target, "native ρ-zCDP")
    if isinstance(target, RDP):
        alpha = target.alpha
        rho = _shrink_until(target.eps / alpha, lambda r: r * alpha <= target.eps, target)
        return Budget(
            rho, "zcdp", RDP(alpha, rho * alpha),
            "ρ-zCDP is (α, ρα)-RDP for every α > 1; ρ = ε/α",
        )
    if isinstance(target, ApproxDP):
        eps, log_delta = target.eps, np.log(target.delta)

        def excess(rho):
            return _zcdp_to_approx_dp_unclipped(rho, log_delta)[0] - eps

        lo, hi = bracket_increasing(excess, 1.0, "rho", param="target")
        rho = largest_feasible(excess, lo, hi, "rho")
        achieved_eps = max(_zcdp_to_approx_dp_unclipped(rho, log_delta)[0], 0.0)
        return Budget(
            rho, "zcdp", ApproxDP(achieved_eps, target.delta),
            "ρ-zCDP implies (ε, δ)-DP with ε = min over α of ρα + log((α-1)/α) - (log δ + log α)/(α-1) "
            "(Canonne, Kamath & Steinke 2020, Prop. 12); largest ρ with ε ≤ target, root-found",
        )
    if isinstance(target, GDP):
        reason = ("zCDP bounds Rényi divergences only, which does not determine a Gaussian trade-off "
                  "curve (μ-GDP implies zCDP, not conversely)")
    else:
        reason = "zCDP mechanisms (Gaussian-type noise) have unbounded privacy loss, so zCDP implies no ε-DP"
    raise UnavailableError(
        f"a ρ-zCDP mechanism cannot meet the target {target.describe()}: no valid conversion from zCDP; "
        f"{reason}; choose an (ε, δ), RDP or zCDP target",
        param="target",
    )
