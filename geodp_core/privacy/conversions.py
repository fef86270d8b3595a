"""Conversions between privacy notions (docs/specification.md §4.2).

Every function validates its arguments and is vectorised where natural (a
scalar in gives a ``float`` out; array_like in gives a broadcast ``ndarray``).
All formulas are evaluated in a numerically stable form; the derivations and
the sources are in ``docs/derivations/privacy_accounting.md``.
"""

import numpy as np
from scipy import optimize, special

from geodp_core._validation import check_finite_array, check_real
from geodp_core.exceptions import InvalidParameterError, NumericalOverflowError
from geodp_core.privacy._checks import check_real_or_array, return_like

__all__ = [
    "gdp_delta",
    "log_gdp_delta",
    "eps_dp_to_gdp",
    "gdp_to_eps_dp",
    "eps_dp_to_rdp",
    "rdp_to_approx_dp",
    "mironov_rdp_to_approx_dp",
    "rdp_curve_to_approx_dp",
    "zcdp_to_approx_dp",
]

_SQRT2 = np.sqrt(2.0)
_LOG2 = np.log(2.0)


# ---------------------------------------------------------------------------
# GDP privacy profile
# ---------------------------------------------------------------------------
def _fallback_nodes():
    """Composite Gauss–Legendre rule on [0, 80]: 20 panels of width 4, 12 nodes each."""
    x, w = np.polynomial.legendre.leggauss(12)
    left = np.arange(0.0, 80.0, 4.0)[:, None]
    return (left + 2.0 * (x + 1.0)).ravel(), np.tile(2.0 * w, left.size)


_FALLBACK_NODES, _FALLBACK_WEIGHTS = _fallback_nodes()


def _log_gdp_delta_integral(mu, a):
    r"""Cancellation-free :math:`\log\delta_\mu(\varepsilon)` in the regime :math:`a < 0` (1-D arrays).

    Since :math:`\partial_\varepsilon\delta_\mu = -e^{\varepsilon}\Phi(-\varepsilon/\mu - \mu/2)` and
    :math:`\delta_\mu(\infty) = 0`, :math:`\delta_\mu(\varepsilon) = \int_\varepsilon^\infty
    e^{s}\Phi(-s/\mu - \mu/2)\,ds`, a positive integral. With :math:`c = -a > 0` it equals

    .. math::
        \mu\, e^{-c^2/2}\, \sigma_c \int_0^\infty \tfrac12\operatorname{erfcx}\big((c + \mu + \sigma_c w)/\sqrt2\big)
        e^{-c\sigma_c w - \sigma_c^2 w^2/2}\,dw, \qquad \sigma_c = 1/(1 + c).

    The weight is below :math:`e^{-40}` beyond ``w = 80`` for every ``c`` and the integrand is
    analytic, so a composite Gauss–Legendre rule on [0, 80] (240 nodes) is accurate to
    double precision. Used where the erfcx difference of the closed form cancels (tiny
    :math:`\mu` relative to the scale of erfcx).
    """
    c = -np.asarray(a, dtype=float)[:, None]
    mu = np.asarray(mu, dtype=float)[:, None]
    scale = 1.0 / (c + 1.0)
    v = scale * _FALLBACK_NODES
    integrand = 0.5 * special.erfcx((c + mu + v) / _SQRT2) * np.exp(-c * v - 0.5 * v * v)
    value = scale[:, 0] * (integrand @ _FALLBACK_WEIGHTS)
    return np.log(mu[:, 0]) - 0.5 * c[:, 0] ** 2 + np.log(value)


#: Below this relative change of erfcx across [-a, -b]/sqrt2 the closed form loses digits.
_CANCELLATION_LIMIT = 1e-4


def _log_gdp_delta(mu, eps):
    r"""Stable :math:`\log\delta_\mu(\varepsilon)` on validated float arrays (broadcast).

    ``-inf`` where :math:`\delta` underflows to 0 (e.g. ``eps/mu`` overflows); never NaN and no
    floating-point warning for finite ``mu > 0``, ``eps >= 0``.
    """
    mu, eps = np.broadcast_arrays(np.asarray(mu, dtype=float), np.asarray(eps, dtype=float))
    out = np.empty(mu.shape, dtype=float)
    with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
        ratio = eps / mu  # may overflow to +inf: then delta = 0 (a = -inf)
        a = -ratio + mu / 2.0
        b = -ratio - mu / 2.0
        # Regime a < 0 (eps > mu^2/2): Phi(x) = erfcx(-x/sqrt2) exp(-x^2/2)/2 and
        # -a^2/2 = eps - b^2/2 =: E, hence
        # delta = exp(E) (erfcx(-a/sqrt2) - erfcx(-b/sqrt2)) / 2, both terms positive.
        tail = a < 0
        if tail.any():
            at, bt = a[tail], b[tail]
            exponent = -0.5 * at * at  # -inf when a^2 overflows: delta far below 1e-308
            first = special.erfcx(-at / _SQRT2)
            diff = first - special.erfcx(-bt / _SQRT2)
            values = exponent - _LOG2 + np.log(diff)
            # Where the erfcx difference cancels (mu tiny relative to the scale of erfcx), use
            # the positive-integral form instead (finite exponent only: else delta = 0).
            redo = np.isfinite(exponent) & ~(diff > _CANCELLATION_LIMIT * first)
            if redo.any():
                values[redo] = _log_gdp_delta_integral(mu[tail][redo], at[redo])
            values[np.isnan(values)] = -np.inf
            out[tail] = values
        # Regime a >= 0 (b < 0 always): Phi(a) - Phi(b) = (erf(a/sqrt2) + erf(-b/sqrt2))/2
        # has no cancellation; delta = Phi(a) - Phi(b) - expm1(eps) Phi(b).
        body = ~tail
        if body.any():
            ab, bb, eb = a[body], b[body], eps[body]
            head = 0.5 * (special.erf(ab / _SQRT2) + special.erf(-bb / _SQRT2))
            log_expm1_eps = eb + np.log(-np.expm1(-eb))  # log(e^eps - 1); -inf at eps = 0
            delta = head - np.exp(log_expm1_eps + special.log_ndtr(bb))
            out[body] = np.log(np.clip(delta, 0.0, 1.0))
    return out


def _gdp_profile_ok(mu, eps, delta):
    """Whether delta_mu(eps) <= delta holds as evaluated, both in log space and after exp."""
    log_value = float(_log_gdp_delta(mu, eps))
    return log_value <= np.log(delta) and np.exp(log_value) <= delta


def log_gdp_delta(mu, eps):
    """Natural log of the :math:`\\mu`-GDP privacy profile, :math:`\\log \\delta_\\mu(\\varepsilon)`.

    Useful where :math:`\\delta_\\mu(\\varepsilon)` underflows (e.g.
    :math:`\\mu = 0.1, \\varepsilon = 5` gives :math:`\\delta \\approx 10^{-543}`).
    See :func:`gdp_delta` for the formula and parameters.

    Returns
    -------
    float or numpy.ndarray

    Raises
    ------
    NumericalOverflowError
        Where the log is not computable (huge ``eps/mu``: :math:`\\delta` is far below the
        smallest double and the two terms cancel).
    """
    mu_arr, mu_scalar = check_real_or_array(mu, "mu", low=0.0)
    eps_arr, eps_scalar = check_real_or_array(eps, "eps", low=0.0, low_closed=True)
    _check_broadcast(("mu", mu_arr), ("eps", eps_arr))
    value = _log_gdp_delta(mu_arr, eps_arr)
    bad = ~np.isfinite(value)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        m, e = np.broadcast_arrays(mu_arr, eps_arr)
        raise NumericalOverflowError(
            f"log delta_mu(eps) is not computable in double precision for mu = {float(m[idx])!r}, "
            f"eps = {float(e[idx])!r} (eps/mu too large: delta underflows far below 1e-308 and its log "
            "cancels); gdp_delta returns 0 there",
            param="mu",
        )
    return return_like(value, mu_scalar and eps_scalar)


def gdp_delta(mu, eps):
    """Privacy profile of :math:`\\mu`-GDP: the smallest :math:`\\delta` with :math:`(\\varepsilon,\\delta)`-DP.

    .. math::
        \\delta_\\mu(\\varepsilon) = \\Phi\\!\\left(-\\frac{\\varepsilon}{\\mu} + \\frac{\\mu}{2}\\right)
        - e^{\\varepsilon}\\,\\Phi\\!\\left(-\\frac{\\varepsilon}{\\mu} - \\frac{\\mu}{2}\\right)

    (Dong, Roth & Su 2022, Cor. 2.13; Balle & Wang 2018, Thm. 8). It is
    evaluated without cancellation: for :math:`a = -\\varepsilon/\\mu + \\mu/2 < 0`,

    .. math::
        \\delta_\\mu(\\varepsilon) = \\tfrac12 e^{E}\\left[\\operatorname{erfcx}(-a/\\sqrt2)
        - \\operatorname{erfcx}(-b/\\sqrt2)\\right],\\quad
        E = \\frac{\\varepsilon}{2} - \\frac{\\varepsilon^2}{2\\mu^2} - \\frac{\\mu^2}{8},

    with :math:`b = a - \\mu`, accurate in relative terms for large
    :math:`\\varepsilon` (e.g. :math:`\\varepsilon = 50, \\mu = 1`, where the naive
    formula returns 0 or a negative number).

    Parameters
    ----------
    mu : float or array_like
        :math:`\\mu \\in (0, \\infty)`.
    eps : float or array_like
        :math:`\\varepsilon \\in [0, \\infty)`; broadcast against ``mu``.

    Returns
    -------
    float or numpy.ndarray
        :math:`\\delta_\\mu(\\varepsilon) \\in [0, 1)` (a float if both inputs are scalars).
    """
    mu_arr, mu_scalar = check_real_or_array(mu, "mu", low=0.0)
    eps_arr, eps_scalar = check_real_or_array(eps, "eps", low=0.0, low_closed=True)
    _check_broadcast(("mu", mu_arr), ("eps", eps_arr))
    return return_like(np.exp(_log_gdp_delta(mu_arr, eps_arr)), mu_scalar and eps_scalar)


def _check_broadcast(*named_arrays):
    try:
        np.broadcast_shapes(*(arr.shape for _, arr in named_arrays))
    except ValueError:
        desc = ", ".join(f"{name} {arr.shape}" for name, arr in named_arrays)
        raise InvalidParameterError(
            f"array arguments must broadcast together; got shapes {desc}", param=named_arrays[-1][0]
        ) from None


# ---------------------------------------------------------------------------
# eps-DP <-> mu-GDP
# ---------------------------------------------------------------------------
#: Largest mu for which gdp_to_eps_dp (~ mu^2/8) is a finite double.
MAX_GDP_MU = 3.7e154


def _check_finite_result(value, name, arg, why, limit):
    """Raise :class:`NumericalOverflowError` naming ``name`` where ``value`` is not finite."""
    bad = ~np.isfinite(np.asarray(value, dtype=float))
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        got = float(np.broadcast_to(arg, bad.shape)[idx])
        raise NumericalOverflowError(
            f"{name} = {got!r} is too large: {why} in double precision; {name} must be in (0, {limit:g}]",
            param=name,
        )
def _eps_dp_to_gdp(eps):
    eps = np.asarray(eps, dtype=float)
    small = eps <= 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        # 2 Phi^{-1}(1/(1+e^eps)) - 1 = -tanh(eps/2)  =>  mu = 2 sqrt2 erfinv(tanh(eps/2))
        mu_small = 2.0 * _SQRT2 * special.erfinv(np.tanh(eps / 2.0))
        # log(1/(1+e^eps)) = -logaddexp(0, eps); ndtri_exp never underflows.
        mu_large = -2.0 * special.ndtri_exp(-np.logaddexp(0.0, eps))
    return np.where(small, mu_small, mu_large)


def eps_dp_to_gdp(eps):
    """The :math:`\\mu` such that :math:`\\varepsilon`-DP implies :math:`\\mu`-GDP.

    .. math::
        \\mu = -2\\,\\Phi^{-1}\\!\\left(\\frac{1}{1 + e^{\\varepsilon}}\\right)
        = 2\\sqrt2\\,\\operatorname{erfinv}\\!\\big(\\tanh(\\varepsilon/2)\\big)

    (the :math:`\\mu`-GDP trade-off curve is convex and meets the
    :math:`\\varepsilon`-DP curve at its kink, so it lies below it; Dong, Roth &
    Su 2022). The erfinv form is used for :math:`\\varepsilon \\le 1`, the
    ``ndtri_exp`` form (no underflow) above.

    Parameters
    ----------
    eps : float or array_like
        :math:`\\varepsilon \\in (0, \\infty)`.

    Returns
    -------
    float or numpy.ndarray
        :math:`\\mu > 0`.
    """
    eps_arr, scalar = check_real_or_array(eps, "eps", low=0.0)
    return return_like(_eps_dp_to_gdp(eps_arr), scalar)


def _gdp_to_eps_dp(mu):
    mu = np.asarray(mu, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        # Phi(mu/2)/Phi(-mu/2) = (1 + x)/(1 - x) with x = erf(mu/(2 sqrt2))
        eps_small = 2.0 * np.arctanh(special.erf(mu / (2.0 * _SQRT2)))
        eps_large = special.log_ndtr(mu / 2.0) - special.log_ndtr(-mu / 2.0)
    return np.where(mu <= 2.0, eps_small, eps_large)


def gdp_to_eps_dp(mu):
    """Inverse of :func:`eps_dp_to_gdp`: the :math:`\\varepsilon` whose DP curve has the :math:`\\mu`-GDP kink.

    .. math::
        \\varepsilon = \\log\\frac{1 - \\Phi(-\\mu/2)}{\\Phi(-\\mu/2)}
        = 2\\,\\operatorname{artanh}\\!\\big(\\operatorname{erf}(\\mu / (2\\sqrt2))\\big)

    An :math:`\\varepsilon`-DP mechanism with this :math:`\\varepsilon` is
    :math:`\\mu`-GDP. (The converse is false: :math:`\\mu`-GDP implies no pure DP.)

    Parameters
    ----------
    mu : float or array_like
        :math:`\\mu \\in (0, \\infty)`.

    Returns
    -------
    float or numpy.ndarray
        :math:`\\varepsilon > 0`.

    Raises
    ------
    NumericalOverflowError
        For :math:`\\mu > 3.7\\cdot 10^{154}` (:math:`\\varepsilon \\approx \\mu^2/8` overflows).
    """
    mu_arr, scalar = check_real_or_array(mu, "mu", low=0.0)
    value = _gdp_to_eps_dp(mu_arr)
    _check_finite_result(value, "mu", mu_arr, "eps = log(Phi(mu/2)/Phi(-mu/2)) ~ mu^2/8 overflows", MAX_GDP_MU)
    return return_like(value, scalar)


# ---------------------------------------------------------------------------
# eps-DP -> RDP
# ---------------------------------------------------------------------------
def _log_sinh(y):
    """log(sinh(y)) for y >= 0 without overflow (-inf at 0)."""
    return y + np.log(-np.expm1(-2.0 * y)) - _LOG2


def _eps_dp_to_rdp(eps, alpha):
    eps, alpha = np.broadcast_arrays(np.asarray(eps, dtype=float), np.asarray(alpha, dtype=float))
    s = alpha - 1.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # (e^{a eps} + e^{eps} e^{-a eps})/(e^eps + 1) = 1 + x with
        # x = tanh(eps/2) sinh(s eps) + 2 sinh^2(s eps / 2)  (all terms >= 0)
        log_tanh_half = np.log(-np.expm1(-eps)) - np.log1p(np.exp(-eps))
        log_x = np.logaddexp(log_tanh_half + _log_sinh(s * eps), _LOG2 + 2.0 * _log_sinh(s * eps / 2.0))
        value = np.logaddexp(0.0, log_x) / s  # log1p(x)/(alpha - 1)
    value = np.where(eps == 0.0, 0.0, value)
    return np.minimum(value, eps)  # exact bound eps(alpha) <= eps; guards rounding


def eps_dp_to_rdp(eps, alpha):
    """RDP curve implied by :math:`\\varepsilon`-DP (heat-diffusion paper, eq. 12).

    .. math::
        \\varepsilon(\\alpha) = \\frac{1}{\\alpha - 1}\\log\\left(
        \\frac{e^{\\alpha\\varepsilon}}{e^{\\varepsilon} + 1}
        + \\frac{e^{\\varepsilon} e^{-\\alpha\\varepsilon}}{e^{\\varepsilon} + 1}\\right)
        = \\frac{\\log(1 + x)}{\\alpha - 1},\\quad
        x = \\tanh\\tfrac{\\varepsilon}{2}\\sinh\\big((\\alpha-1)\\varepsilon\\big)
        + 2\\sinh^2\\tfrac{(\\alpha-1)\\varepsilon}{2}.

    This is the Rényi divergence of randomized response, the worst case among
    :math:`\\varepsilon`-DP mechanisms. It is increasing in :math:`\\alpha`,
    tends to :math:`\\varepsilon\\tanh(\\varepsilon/2)` as :math:`\\alpha \\to 1`
    and never exceeds :math:`\\min(\\varepsilon, \\alpha\\varepsilon^2/2)`.
    The sum-of-positive-terms form is evaluated in log space (no overflow, no
    cancellation near :math:`\\alpha = 1`).

    Parameters
    ----------
    eps : float or array_like
        :math:`\\varepsilon \\in [0, \\infty)`.
    alpha : float or array_like
        :math:`\\alpha \\in (1, \\infty)`; broadcast against ``eps``.

    Returns
    -------
    float or numpy.ndarray
        :math:`\\varepsilon(\\alpha) \\in [0, \\varepsilon]`.
    """
    eps_arr, eps_scalar = check_real_or_array(eps, "eps", low=0.0, low_closed=True)
    alpha_arr, alpha_scalar = check_real_or_array(alpha, "alpha", low=1.0)
    _check_broadcast(("eps", eps_arr), ("alpha", alpha_arr))
    return return_like(_eps_dp_to_rdp(eps_arr, alpha_arr), eps_scalar and alpha_scalar)


# ---------------------------------------------------------------------------
# RDP / zCDP -> (eps, delta)
# ---------------------------------------------------------------------------
def _mironov(alpha, eps_rdp, log_delta):
    return eps_rdp - log_delta / (alpha - 1.0)


def _cks_unclipped(alpha, eps_rdp, log_delta):
    """Canonne–Kamath–Steinke conversion before taking min with Mironov and clipping at 0."""
    return eps_rdp + (np.log(alpha - 1.0) - np.log(alpha)) - (log_delta + np.log(alpha)) / (alpha - 1.0)


def _rdp_to_approx_dp(alpha, eps_rdp, log_delta):
    tight = np.minimum(_cks_unclipped(alpha, eps_rdp, log_delta), _mironov(alpha, eps_rdp, log_delta))
    return np.maximum(tight, 0.0)


def _check_rdp_args(alpha, eps_rdp, delta):
    alpha_arr, alpha_scalar = check_real_or_array(alpha, "alpha", low=1.0)
    eps_arr, eps_scalar = check_real_or_array(eps_rdp, "eps_rdp", low=0.0, low_closed=True)
    delta_arr, delta_scalar = check_real_or_array(delta, "delta", low=0.0, high=1.0)
    _check_broadcast(("alpha", alpha_arr), ("eps_rdp", eps_arr), ("delta", delta_arr))
    return alpha_arr, eps_arr, np.log(delta_arr), alpha_scalar and eps_scalar and delta_scalar


def mironov_rdp_to_approx_dp(alpha, eps_rdp, delta):
    """Mironov's conversion: :math:`(\\alpha, \\varepsilon)`-RDP implies :math:`(\\varepsilon', \\delta)`-DP.

    .. math::
        \\varepsilon' = \\varepsilon + \\frac{\\log(1/\\delta)}{\\alpha - 1}

    (Mironov 2017, Prop. 3). Kept for comparison; :func:`rdp_to_approx_dp` is tighter.

    Parameters
    ----------
    alpha : float or array_like
        :math:`\\alpha \\in (1, \\infty)`.
    eps_rdp : float or array_like
        :math:`\\varepsilon \\in [0, \\infty)`.
    delta : float or array_like
        :math:`\\delta \\in (0, 1)`.

    Returns
    -------
    float or numpy.ndarray
    """
    alpha_arr, eps_arr, log_delta, scalar = _check_rdp_args(alpha, eps_rdp, delta)
    return return_like(_mironov(alpha_arr, eps_arr, log_delta), scalar)


def rdp_to_approx_dp(alpha, eps_rdp, delta):
    """Tight conversion of :math:`(\\alpha, \\varepsilon)`-RDP to :math:`(\\varepsilon', \\delta)`-DP.

    .. math::
        \\varepsilon' = \\max\\Big(0,\\ \\min\\Big(
        \\varepsilon + \\log\\frac{\\alpha-1}{\\alpha} - \\frac{\\log\\delta + \\log\\alpha}{\\alpha - 1},\\
        \\varepsilon + \\frac{\\log(1/\\delta)}{\\alpha - 1}\\Big)\\Big)

    The first term is Canonne, Kamath & Steinke (2020, Prop. 12), the second
    Mironov (2017, Prop. 3); the first is never larger (both extra terms are
    :math:`\\le 0` for :math:`\\alpha > 1`), the min only guards rounding.

    Parameters
    ----------
    alpha : float or array_like
        :math:`\\alpha \\in (1, \\infty)`.
    eps_rdp : float or array_like
        :math:`\\varepsilon \\in [0, \\infty)`.
    delta : float or array_like
        :math:`\\delta \\in (0, 1)`.

    Returns
    -------
    float or numpy.ndarray
        :math:`\\varepsilon' \\ge 0`.
    """
    alpha_arr, eps_arr, log_delta, scalar = _check_rdp_args(alpha, eps_rdp, delta)
    return return_like(_rdp_to_approx_dp(alpha_arr, eps_arr, log_delta), scalar)


def rdp_curve_to_approx_dp(alphas, eps_rdp_values, delta):
    """Best :math:`(\\varepsilon, \\delta)`-DP over a finite RDP curve.

    .. math::
        \\varepsilon^* = \\min_i \\varepsilon'(\\alpha_i, \\varepsilon_i, \\delta)

    with :math:`\\varepsilon'` from :func:`rdp_to_approx_dp`.

    Parameters
    ----------
    alphas : array_like, shape (k,)
        Orders :math:`\\alpha_i \\in (1, \\infty)`.
    eps_rdp_values : array_like, shape (k,)
        :math:`\\varepsilon_i \\in [0, \\infty)`, the RDP guarantee at :math:`\\alpha_i`.
    delta : float
        :math:`\\delta \\in (0, 1)`.

    Returns
    -------
    (float, float)
        The best :math:`\\varepsilon^*` and the order :math:`\\alpha_i` achieving it.
    """
    alphas = check_finite_array(alphas, "alphas", ndim=1, min_rows=1)
    eps_values = check_finite_array(eps_rdp_values, "eps_rdp_values", ndim=1, min_rows=1)
    if eps_values.shape != alphas.shape:
        raise InvalidParameterError(
            f"eps_rdp_values must have the same shape as alphas {alphas.shape}; got {eps_values.shape}",
            param="eps_rdp_values",
        )
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    alpha_arr, eps_arr, log_delta, _ = _check_rdp_args(alphas, eps_values, delta)
    converted = _rdp_to_approx_dp(alpha_arr, eps_arr, log_delta)
    best = int(np.argmin(converted))
    return float(converted[best]), float(alphas[best])


def _zcdp_objective_log_s(log_s, rho, log_delta):
    r"""CKS conversion of :math:`(\alpha, \rho\alpha)`-RDP written in :math:`t = \log(\alpha - 1)`.

    With :math:`s = \alpha - 1 = e^t`:
    :math:`\rho(1 + s) + t - \log(1 + s) - (\log\delta + \log(1 + s))/s`, free of the
    rounding :math:`1 + s = 1` that made the :math:`\alpha` form return NaN for huge :math:`\rho`
    (optimal :math:`s \approx \sqrt{\log(1/\delta)/\rho}` below machine epsilon).
    """
    log_s = np.asarray(log_s, dtype=float)
    with np.errstate(over="ignore"):
        s = np.exp(log_s)
        log1p_s = np.where(log_s > 700.0, log_s, np.log1p(s))
        inv_s = np.exp(-log_s)
        return rho * (1.0 + s) + log_s - log1p_s - (log_delta + log1p_s) * inv_s


def _zcdp_to_approx_dp_unclipped(rho, log_delta):
    """min over alpha > 1 of the CKS conversion of (alpha, rho*alpha)-RDP; returns (value, alpha)."""
    # Grid over log(alpha - 1), then Brent refinement between the neighbours of the best node.
    # The Mironov optimum alpha = 1 + sqrt(log(1/delta)/rho) sets the scale.
    centre = 0.5 * (np.log(-log_delta) - np.log(rho))
    log_s = centre + np.linspace(-12.0, 12.0, 241)
    values = _zcdp_objective_log_s(log_s, rho, log_delta)
    best = int(np.nanargmin(values))
    lo, hi = log_s[max(best - 1, 0)], log_s[min(best + 1, log_s.size - 1)]
    res = optimize.minimize_scalar(
        lambda t: float(_zcdp_objective_log_s(t, rho, log_delta)),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-12},
    )
    if res.fun < values[best]:
        return float(res.fun), float(1.0 + np.exp(res.x))
    return float(values[best]), float(1.0 + np.exp(log_s[best]))


def zcdp_to_approx_dp(rho, delta):
    """:math:`\\rho`-zCDP to :math:`(\\varepsilon, \\delta)`-DP, optimised over the Rényi order.

    .. math::
        \\varepsilon = \\max\\Big(0,\\ \\inf_{\\alpha > 1}\\ \\rho\\alpha
        + \\log\\frac{\\alpha-1}{\\alpha} - \\frac{\\log\\delta + \\log\\alpha}{\\alpha - 1}\\Big)

    (Canonne, Kamath & Steinke 2020, Prop. 12 applied to
    :math:`(\\alpha, \\rho\\alpha)`-RDP). The infimum is located on a grid in
    :math:`\\log(\\alpha-1)` around Mironov's optimum
    :math:`1 + \\sqrt{\\log(1/\\delta)/\\rho}` and refined with bounded Brent;
    any :math:`\\alpha` gives a valid bound, so the result is always safe. It is
    never larger than Bun & Steinke's :math:`\\rho + 2\\sqrt{\\rho\\log(1/\\delta)}`.

    Parameters
    ----------
    rho : float
        :math:`\\rho \\in (0, \\infty)`.
    delta : float
        :math:`\\delta \\in (0, 1)`.

    Returns
    -------
    float
        :math:`\\varepsilon \\ge 0`.
    """
    rho = check_real(rho, "rho", low=0.0)
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    value, _ = _zcdp_to_approx_dp_unclipped(rho, np.log(delta))
    return max(value, 0.0)
