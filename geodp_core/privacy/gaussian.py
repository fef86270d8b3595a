"""Gaussian mechanism calibration: GDP parameter for an (eps, delta) target, analytic and classical sigma."""

import numpy as np

from geodp_core._validation import check_real
from geodp_core.exceptions import InvalidParameterError, NumericalOverflowError
from geodp_core.privacy._solvers import bracket_increasing, largest_feasible
from geodp_core.privacy.conversions import _gdp_profile_ok, _log_gdp_delta

__all__ = ["gdp_mu_for_approx_dp", "analytic_gaussian_sigma", "classical_gaussian_sigma"]

_NUDGE = 1e-12
_MAX_NUDGES = 10_000


def _gdp_mu_for_approx_dp(eps, delta):
    log_delta = np.log(delta)

    def excess(mu):
        return float(_log_gdp_delta(mu, eps)) - log_delta

    lo, hi = bracket_increasing(excess, 1.0, "the GDP parameter mu", param="eps")
    mu = largest_feasible(excess, lo, hi, "mu")
    for _ in range(_MAX_NUDGES):  # also holds after exp (delta itself, not only its log)
        if _gdp_profile_ok(mu, eps, delta):
            return mu
        mu = min(mu * (1.0 - _NUDGE), float(np.nextafter(mu, 0.0)))  # always moves, even if subnormal
    raise NumericalOverflowError(  # pragma: no cover
        f"the GDP parameter mu for eps = {eps!r}, delta = {delta!r} could not be verified in double precision; "
        "use a less extreme eps/delta",
        param="delta",
    )


def gdp_mu_for_approx_dp(eps, delta):
    """Largest :math:`\\mu` such that :math:`\\mu`-GDP implies :math:`(\\varepsilon, \\delta)`-DP.

    .. math::
        \\mu^* = \\max\\{\\mu > 0 : \\delta_\\mu(\\varepsilon) \\le \\delta\\}

    where :math:`\\delta_\\mu` (:func:`~geodp_core.privacy.gdp_delta`) is increasing in
    :math:`\\mu`. Found by Brent's method on :math:`\\log\\delta_\\mu(\\varepsilon) - \\log\\delta`
    and verified: the returned value satisfies the inequality as evaluated.

    Parameters
    ----------
    eps : float
        :math:`\\varepsilon \\in [0, \\infty)`.
    delta : float
        :math:`\\delta \\in (0, 1)`.

    Returns
    -------
    float
    """
    eps = check_real(eps, "eps", low=0.0, low_closed=True)
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    return _gdp_mu_for_approx_dp(eps, delta)


def _check_sigma(sigma, sensitivity, mu):
    """Refuse a sigma that overflows (huge sensitivity, tiny eps) or underflows to 0 or a subnormal.

    A subnormal sigma (below 2.2e-308) has lost relative precision (1e-320 has 3 significant
    digits), so neither it nor ``sensitivity / sigma`` can be verified to 1e-12.
    """
    tiny = np.finfo(float).tiny
    if not (np.isfinite(sigma) and sigma >= tiny and np.isfinite(sigma * (1.0 + 1e-9))):
        raise NumericalOverflowError(
            f"sensitivity = {sensitivity!r} gives sigma = sensitivity / mu = {sensitivity!r} / {mu!r}, which is not "
            f"a normal positive finite double (in [{np.finfo(float).tiny:.3g}, 1.8e308)); use a sensitivity in a "
            "range where sigma is representable (or a less extreme eps/delta)",
            param="sensitivity",
        )


def analytic_gaussian_sigma(eps, delta, sensitivity):
    """Analytic Gaussian mechanism (Balle & Wang 2018, Thm. 8): the smallest admissible :math:`\\sigma`.

    The Gaussian mechanism :math:`N(f(D), \\sigma^2 I)` with L2 sensitivity
    :math:`\\Delta` is :math:`(\\varepsilon, \\delta)`-DP if and only if

    .. math::
        \\Phi\\!\\left(\\frac{\\Delta}{2\\sigma} - \\frac{\\varepsilon\\sigma}{\\Delta}\\right)
        - e^{\\varepsilon}\\,\\Phi\\!\\left(-\\frac{\\Delta}{2\\sigma} - \\frac{\\varepsilon\\sigma}{\\Delta}\\right)
        \\le \\delta .

    The left side is :math:`\\delta_{\\Delta/\\sigma}(\\varepsilon)`, so
    :math:`\\sigma = \\Delta/\\mu^*` with :math:`\\mu^*` from :func:`gdp_mu_for_approx_dp`;
    the returned :math:`\\sigma` is then verified against the inequality and
    increased by relative steps of :math:`10^{-12}` until it holds.

    Parameters
    ----------
    eps : float
        :math:`\\varepsilon \\in [0, \\infty)`.
    delta : float
        :math:`\\delta \\in (0, 1)`.
    sensitivity : float
        L2 sensitivity :math:`\\Delta \\in (0, \\infty)`.

    Returns
    -------
    float
        :math:`\\sigma > 0`.

    Raises
    ------
    NumericalOverflowError
        If :math:`\\sigma` overflows or underflows double precision (e.g. ``sensitivity = 1e308``
        with a tiny ``eps``), naming ``sensitivity``.
    """
    eps = check_real(eps, "eps", low=0.0, low_closed=True)
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    mu = _gdp_mu_for_approx_dp(eps, delta)
    sigma = sensitivity / mu
    _check_sigma(sigma, sensitivity, mu)
    for _ in range(_MAX_NUDGES):
        if _gdp_profile_ok(sensitivity / sigma, eps, delta):
            return float(sigma)
        sigma = max(sigma * (1.0 + _NUDGE), float(np.nextafter(sigma, np.inf)))
        _check_sigma(sigma, sensitivity, mu)
    raise NumericalOverflowError(  # pragma: no cover
        f"sigma for sensitivity = {sensitivity!r}, eps = {eps!r}, delta = {delta!r} could not be verified in "
        "double precision; use a less extreme sensitivity",
        param="sensitivity",
    )


def classical_gaussian_sigma(eps, delta, sensitivity):
    """Classical Gaussian mechanism calibration (Dwork & Roth 2014, Thm. A.1).

    .. math::
        \\sigma = \\frac{\\Delta\\sqrt{2\\ln(1.25/\\delta)}}{\\varepsilon}

    Valid only for :math:`\\varepsilon < 1` (the theorem's hypothesis); for
    larger :math:`\\varepsilon` it is not DP in general (for :math:`\\delta = 10^{-3}`
    it fails from :math:`\\varepsilon \\approx 7.46`, for :math:`\\delta = 10^{-5}`
    from :math:`\\varepsilon \\approx 8.42`). Kept only as the tangent-Gaussian
    paper's baseline; :func:`analytic_gaussian_sigma` is always smaller and exact.

    Parameters
    ----------
    eps : float
        :math:`\\varepsilon \\in (0, 1)`.
    delta : float
        :math:`\\delta \\in (0, 1)`.
    sensitivity : float
        L2 sensitivity :math:`\\Delta \\in (0, \\infty)`.

    Returns
    -------
    float

    Raises
    ------
    InvalidParameterError
        If ``eps >= 1`` (the classical theorem does not apply).
    """
    eps = check_real(eps, "eps", low=0.0)
    if eps >= 1.0:
        raise InvalidParameterError(
            f"eps must be a real number in (0, 1) for the classical Gaussian mechanism "
            f"(Dwork & Roth Thm. A.1 assumes eps < 1 and the formula is not DP for large eps); "
            f"got {eps!r}; use analytic_gaussian_sigma instead",
            param="eps",
        )
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    sigma = float(sensitivity * np.sqrt(2.0 * np.log(1.25 / delta)) / eps)
    _check_sigma(sigma, sensitivity, eps / np.sqrt(2.0 * np.log(1.25 / delta)))
    return sigma
