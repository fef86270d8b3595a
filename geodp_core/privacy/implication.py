"""``implies``: is one guarantee provably at least as strong as another?"""

import numpy as np

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy.conversions import (
    _eps_dp_to_gdp,
    _eps_dp_to_rdp,
    _gdp_profile_ok,
    _rdp_to_approx_dp,
    zcdp_to_approx_dp,
)
from geodp_core.privacy.guarantees import GDP, RDP, ZCDP, ApproxDP, Guarantee, PureDP

__all__ = ["implies"]


def _check_guarantee(value, name):
    if not isinstance(value, Guarantee):
        raise InvalidParameterError(
            f"{name} must be a PureDP, ApproxDP, GDP, RDP or ZCDP; got {type(value).__name__}", param=name
        )


def implies(achieved, target):
    """Whether ``achieved`` provably implies ``target`` through the conversions of docs/specification.md §4.2.

    Rules (exact floating-point comparisons, no tolerance):

    ===========  ==============================================================================
    achieved     implies target when
    ===========  ==============================================================================
    PureDP(e)    PureDP(t): e <= t;  ApproxDP(t, d): e <= t or delta_{mu(e)}(t) <= d with
                 mu(e) = eps_dp_to_gdp(e);  GDP(m): mu(e) <= m;
                 RDP(a, t): eps_dp_to_rdp(e, a) <= t;  ZCDP(r): e^2/2 <= r (Bun–Steinke)
    ApproxDP     ApproxDP(t, d): e <= t and delta <= d
    GDP(mu)      GDP(m): mu <= m;  ApproxDP(t, d): delta_mu(t) <= d;  RDP(a, t): a mu^2/2 <= t;
                 ZCDP(r): mu^2/2 <= r
    RDP(a, e)    RDP(a', t): a' <= a and e <= t (Rényi divergence is non-decreasing in the order);
                 ApproxDP(t, d): rdp_to_approx_dp(a, e, d) <= t
    ZCDP(rho)    ZCDP(r): rho <= r;  RDP(a, t): rho a <= t;  ApproxDP(t, d): zcdp_to_approx_dp(rho, d) <= t
    ===========  ==============================================================================

    Every other pair returns ``False`` (no valid conversion: e.g. GDP, RDP,
    zCDP or (eps, delta) never imply pure DP; a single RDP order implies no GDP).

    Parameters
    ----------
    achieved, target : Guarantee

    Returns
    -------
    bool
    """
    _check_guarantee(achieved, "achieved")
    _check_guarantee(target, "target")
    return bool(_implies(achieved, target))


def _implies(a, t):
    if isinstance(a, PureDP):
        if isinstance(t, PureDP):
            return a.eps <= t.eps
        if isinstance(t, ApproxDP):
            if a.eps <= t.eps:
                return True
            return _gdp_profile_ok(float(_eps_dp_to_gdp(a.eps)), t.eps, t.delta)
        if isinstance(t, GDP):
            return _eps_dp_to_gdp(a.eps) <= t.mu
        if isinstance(t, RDP):
            return _eps_dp_to_rdp(a.eps, t.alpha) <= t.eps
        return a.eps**2 / 2.0 <= t.rho
    if isinstance(a, ApproxDP):
        return isinstance(t, ApproxDP) and a.eps <= t.eps and a.delta <= t.delta
    if isinstance(a, GDP):
        if isinstance(t, GDP):
            return a.mu <= t.mu
        if isinstance(t, ApproxDP):
            return _gdp_profile_ok(a.mu, t.eps, t.delta)
        if isinstance(t, RDP):
            return t.alpha * a.mu**2 / 2.0 <= t.eps
        if isinstance(t, ZCDP):
            return a.mu**2 / 2.0 <= t.rho
        return False
    if isinstance(a, RDP):
        if isinstance(t, RDP):
            return t.alpha <= a.alpha and a.eps <= t.eps
        if isinstance(t, ApproxDP):
            return _rdp_to_approx_dp(a.alpha, a.eps, np.log(t.delta)) <= t.eps
        return False
    # ZCDP
    if isinstance(t, ZCDP):
        return a.rho <= t.rho
    if isinstance(t, RDP):
        return a.rho * t.alpha <= t.eps
    if isinstance(t, ApproxDP):
        return zcdp_to_approx_dp(a.rho, t.delta) <= t.eps
    return False
