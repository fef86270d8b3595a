"""Conversions between notions: high-precision references (mpmath), stability, bound ordering."""

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import (
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_delta,
    gdp_to_eps_dp,
    log_gdp_delta,
    mironov_rdp_to_approx_dp,
    rdp_curve_to_approx_dp,
    rdp_to_approx_dp,
    zcdp_to_approx_dp,
)
from geodp_core.privacy.conversions import _cks_unclipped

DPS = 60  # mpmath digits for the references


def mp_gdp_delta(mu, eps):
    with mp.workdps(DPS):
        mu, eps = mp.mpf(mu), mp.mpf(eps)
        return mp.ncdf(-eps / mu + mu / 2) - mp.exp(eps) * mp.ncdf(-eps / mu - mu / 2)


def mp_eps_dp_to_rdp(eps, alpha):
    with mp.workdps(DPS):
        eps, a = mp.mpf(eps), mp.mpf(alpha)
        inner = (mp.exp(a * eps) + mp.exp(eps) * mp.exp(-a * eps)) / (mp.exp(eps) + 1)
        return mp.log(inner) / (a - 1)


# --------------------------------------------------------------------------- GDP profile
@pytest.mark.parametrize("mu", [0.1, 1.0, 4.0])
@pytest.mark.parametrize("eps", [0.0, 0.5, 5.0, 50.0])
def test_gdp_delta_matches_mpmath(mu, eps):
    reference = mp_gdp_delta(mu, eps)
    with mp.workdps(DPS):
        log_reference = float(mp.log(reference))
    # log space: relative error of log(delta) (covers the underflow cases, e.g. mu=0.1, eps=5: 1e-543)
    assert abs(log_gdp_delta(mu, eps) - log_reference) <= 1e-9 * max(1.0, abs(log_reference))
    if reference > 1e-300:  # representable as a normal double: relative error of delta itself
        assert gdp_delta(mu, eps) == pytest.approx(float(reference), rel=1e-9)
    else:
        assert gdp_delta(mu, eps) < 1e-300


def test_gdp_delta_large_eps_where_naive_formula_fails():
    # Bug with power: the naive difference of two normal CDFs underflows to 0 (log = -inf) at
    # eps = 50, mu = 1, where delta ~ 1e-545; the log-space form keeps full relative accuracy.
    from scipy.stats import norm

    mu, eps = 1.0, 50.0
    naive = norm.cdf(-eps / mu + mu / 2) - np.exp(eps) * norm.cdf(-eps / mu - mu / 2)
    assert naive <= 0.0
    with mp.workdps(DPS):
        log_reference = float(mp.log(mp_gdp_delta(mu, eps)))
    assert log_reference < -1000
    assert log_gdp_delta(mu, eps) == pytest.approx(log_reference, rel=1e-12)
    # a representable case in the same regime: relative accuracy of delta itself
    assert gdp_delta(4.0, 50.0) == pytest.approx(float(mp_gdp_delta(4.0, 50.0)), rel=1e-12)


@pytest.mark.parametrize("mu, eps", [(1e-4, 1e-8), (1e-4, 1e-3), (0.3, 20.0), (10.0, 1.0), (40.0, 200.0),
                                     (100.0, 1000.0), (2.0, 2.0), (2.0, 1.999999)])
def test_gdp_delta_extremes_match_mpmath(mu, eps):
    reference = mp_gdp_delta(mu, eps)
    with mp.workdps(DPS):
        log_reference = float(mp.log(reference))
    assert abs(log_gdp_delta(mu, eps) - log_reference) <= 1e-9 * max(1.0, abs(log_reference))


def test_gdp_delta_is_vectorised_and_broadcasts():
    eps = np.array([0.0, 0.5, 5.0, 50.0])
    out = gdp_delta(1.0, eps)
    assert isinstance(out, np.ndarray) and out.shape == (4,)
    assert np.all(np.diff(out) < 0)  # decreasing in eps
    grid = gdp_delta(np.array([[0.5], [1.0], [2.0]]), eps)
    assert grid.shape == (3, 4)
    log_grid = log_gdp_delta(np.array([[0.5], [1.0], [2.0]]), eps)
    assert np.all(np.diff(log_grid, axis=0) > 0)  # increasing in mu (log: no underflow ties)
    np.testing.assert_allclose(grid, np.exp(log_grid), rtol=1e-15)
    assert isinstance(gdp_delta(1.0, 1.0), float)
    np.testing.assert_allclose(out, [gdp_delta(1.0, e) for e in eps], rtol=0, atol=0)


def test_gdp_delta_at_zero_eps_is_total_variation():
    # delta_mu(0) = 2 Phi(mu/2) - 1 = erf(mu / (2 sqrt 2)), the TV distance of N(0,1), N(mu,1)
    mus = np.array([1e-6, 0.1, 1.0, 5.0])
    expected = [float(mp.erf(mp.mpf(m) / (2 * mp.sqrt(2)))) for m in mus]
    np.testing.assert_allclose(gdp_delta(mus, 0.0), expected, rtol=1e-12)


# --------------------------------------------------------------------------- eps-DP <-> GDP
@pytest.mark.parametrize("eps", [1e-12, 1e-6, 0.1, 0.5, 1.0, 1.0 + 1e-12, 2.0, 5.0, 50.0, 800.0, 1e4])
def test_eps_dp_to_gdp_matches_mpmath_and_round_trips(eps):
    with mp.workdps(DPS):
        # mu solves Phi(-mu/2) = 1/(1+e^eps), in logs (mpmath's exponent range is unbounded)
        e = mp.mpf(eps)
        target = -(e + mp.log1p(mp.exp(-e)))
        reference = float(mp.findroot(lambda m: mp.log(mp.ncdf(-m / 2)) - target, eps_dp_to_gdp(eps)))
    mu = eps_dp_to_gdp(eps)
    assert mu == pytest.approx(reference, rel=1e-12)
    assert gdp_to_eps_dp(mu) == pytest.approx(eps, rel=1e-12)


@pytest.mark.parametrize("mu", [1e-12, 1e-6, 0.1, 1.0, 2.0, 2.0 + 1e-12, 5.0, 50.0, 1000.0])
def test_gdp_to_eps_dp_matches_mpmath_and_round_trips(mu):
    with mp.workdps(DPS):
        m = mp.mpf(mu)
        reference = float(mp.log((1 - mp.ncdf(-m / 2)) / mp.ncdf(-m / 2)))
    eps = gdp_to_eps_dp(mu)
    assert eps == pytest.approx(reference, rel=1e-12)
    assert eps_dp_to_gdp(eps) == pytest.approx(mu, rel=1e-12)


def test_eps_dp_to_gdp_curve_is_below_dp_curve():
    # mu-GDP trade-off G_mu(a) = Phi(Phi^{-1}(1-a) - mu) must lie below the eps-DP curve
    # f(a) = max(0, 1 - e^eps a, e^-eps (1 - a)) (that is why eps-DP implies mu-GDP).
    from scipy.stats import norm

    a = np.linspace(1e-9, 1 - 1e-9, 20001)
    for eps in [0.1, 1.0, 3.0]:
        mu = eps_dp_to_gdp(eps)
        g = norm.cdf(norm.ppf(1 - a) - mu)
        f = np.maximum.reduce([np.zeros_like(a), 1 - np.exp(eps) * a, np.exp(-eps) * (1 - a)])
        assert np.all(g <= f + 1e-12)
        # and it touches at the kink a = 1/(1+e^eps) (so mu is the smallest such)
        kink = 1.0 / (1.0 + np.exp(eps))
        assert norm.cdf(norm.ppf(1 - kink) - mu) == pytest.approx(kink, rel=1e-10)


# --------------------------------------------------------------------------- eps-DP -> RDP
@pytest.mark.parametrize("eps", [1e-8, 1e-3, 0.1, 1.0, 5.0, 50.0, 500.0])
@pytest.mark.parametrize("alpha", [1 + 1e-10, 1 + 1e-6, 1.5, 2.0, 10.0, 1e4, 1e8])
def test_eps_dp_to_rdp_matches_mpmath(eps, alpha):
    reference = float(mp_eps_dp_to_rdp(eps, alpha))
    value = eps_dp_to_rdp(eps, alpha)
    assert value == pytest.approx(reference, rel=1e-11)
    assert value <= eps


def test_eps_dp_to_rdp_bounds_and_monotonicity():
    alphas = np.concatenate([1 + np.logspace(-9, 0, 50), np.logspace(0.31, 8, 200)])
    for eps in [1e-4, 0.3, 1.0, 4.0, 30.0]:
        curve = eps_dp_to_rdp(eps, alphas)
        assert np.all(curve <= eps)  # never exceeds eps (bug: unclipped overflow / wrong sign)
        assert np.all(np.diff(curve) >= -1e-14 * eps)  # non-decreasing in alpha (up to rounding)
        assert np.all(curve <= alphas * eps**2 / 2 * (1 + 1e-12))  # Bun–Steinke eps^2/2-zCDP
        assert curve[0] == pytest.approx(eps * np.tanh(eps / 2), rel=1e-6)  # KL limit at alpha -> 1
    assert eps_dp_to_rdp(0.0, 2.0) == 0.0


# --------------------------------------------------------------------------- RDP -> (eps, delta)
def test_rdp_to_approx_dp_closed_form_and_ordering():
    alpha, eps, delta = 2.0, 0.3, 1e-5
    tight = eps + np.log((alpha - 1) / alpha) - (np.log(delta) + np.log(alpha)) / (alpha - 1)
    assert rdp_to_approx_dp(alpha, eps, delta) == pytest.approx(tight, rel=1e-14)
    assert mironov_rdp_to_approx_dp(alpha, eps, delta) == pytest.approx(eps + np.log(1 / delta), rel=1e-14)
    alphas = 1 + np.logspace(-6, 6, 400)
    for e in [0.0, 0.01, 1.0, 10.0]:
        for d in [1e-12, 1e-5, 0.5, 0.999]:
            t = rdp_to_approx_dp(alphas, e, d)
            m = mironov_rdp_to_approx_dp(alphas, e, d)
            assert np.all(t <= m) and np.all(t >= 0.0)


def test_rdp_to_approx_dp_never_negative():
    # (alpha, tiny)-RDP with large delta: the raw CKS expression is negative, clipped to 0
    assert _cks_unclipped(np.array(1e6), np.array(1e-9), np.log(0.5)) < 0
    assert rdp_to_approx_dp(1e6, 1e-9, 0.5) == 0.0


def test_rdp_curve_to_approx_dp_picks_best_order():
    alphas = np.array([1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0])
    rho = 0.05
    best_eps, best_alpha = rdp_curve_to_approx_dp(alphas, rho * alphas, 1e-6)
    individual = rdp_to_approx_dp(alphas, rho * alphas, 1e-6)
    assert best_eps == pytest.approx(individual.min(), rel=0, abs=0)
    assert best_alpha == alphas[np.argmin(individual)]
    assert best_eps >= zcdp_to_approx_dp(rho, 1e-6)  # continuous optimum is at least as good
    with pytest.raises(InvalidParameterError, match="eps_rdp_values"):
        rdp_curve_to_approx_dp(alphas, alphas[:-1], 1e-6)
    with pytest.raises(InvalidParameterError, match="alphas"):
        rdp_curve_to_approx_dp([], [], 1e-6)
    with pytest.raises(InvalidParameterError, match="alpha"):
        rdp_curve_to_approx_dp([1.0, 2.0], [0.1, 0.2], 1e-6)


@pytest.mark.parametrize("rho", [1e-6, 1e-3, 0.1, 1.0, 10.0, 100.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-5, 0.1, 0.9])
def test_zcdp_to_approx_dp_vs_dense_grid(rho, delta):
    alphas = 1 + np.logspace(-8, 8, 40001)
    grid_min = max(float(np.min(_cks_unclipped(alphas, rho * alphas, np.log(delta)))), 0.0)
    value = zcdp_to_approx_dp(rho, delta)
    assert value <= grid_min + 1e-12 * max(1.0, grid_min)  # the optimiser finds the minimum
    assert value >= grid_min - 1e-6 * max(1.0, grid_min)  # ...and is attained at some alpha (valid)
    assert value <= rho + 2 * np.sqrt(rho * np.log(1 / delta))  # Bun–Steinke bound


# --------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "call, param",
    [
        (lambda v: gdp_delta(v, 1.0), "mu"),
        (lambda v: gdp_delta(1.0, v), "eps"),
        (lambda v: log_gdp_delta(v, 1.0), "mu"),
        (lambda v: eps_dp_to_gdp(v), "eps"),
        (lambda v: gdp_to_eps_dp(v), "mu"),
        (lambda v: eps_dp_to_rdp(v, 2.0), "eps"),
        (lambda v: eps_dp_to_rdp(1.0, v), "alpha"),
        (lambda v: rdp_to_approx_dp(v, 1.0, 1e-5), "alpha"),
        (lambda v: rdp_to_approx_dp(2.0, v, 1e-5), "eps_rdp"),
        (lambda v: rdp_to_approx_dp(2.0, 1.0, v), "delta"),
        (lambda v: mironov_rdp_to_approx_dp(2.0, 1.0, v), "delta"),
        (lambda v: zcdp_to_approx_dp(v, 1e-5), "rho"),
        (lambda v: zcdp_to_approx_dp(0.1, v), "delta"),
        (lambda v: rdp_curve_to_approx_dp([2.0], [0.1], v), "delta"),
    ],
)
@pytest.mark.parametrize("bad", [np.nan, np.inf, True, -1.0, "x", [1.0, np.nan], [2.0, -1.0], [True]])
def test_conversion_validation(call, param, bad):
    with pytest.raises(InvalidParameterError) as info:
        call(bad)
    assert info.value.param == param
    assert param in str(info.value)


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: gdp_delta(0.0, 1.0), "mu"),
        (lambda: eps_dp_to_gdp(0.0), "eps"),
        (lambda: eps_dp_to_rdp(1.0, 1.0), "alpha"),
        (lambda: eps_dp_to_rdp(1.0, [2.0, 1.0]), "alpha"),
        (lambda: rdp_to_approx_dp(2.0, 1.0, 1.0), "delta"),
        (lambda: rdp_to_approx_dp(2.0, 1.0, 0.0), "delta"),
        (lambda: zcdp_to_approx_dp(0.0, 1e-5), "rho"),
        (lambda: gdp_delta([1.0, 2.0], [1.0, 2.0, 3.0]), "eps"),
    ],
)
def test_conversion_boundaries(call, param):
    with pytest.raises(InvalidParameterError) as info:
        call()
    assert info.value.param == param


def test_array_error_message_gives_value_index_and_range():
    with pytest.raises(InvalidParameterError) as info:
        eps_dp_to_rdp(1.0, [2.0, 3.0, 0.5])
    assert str(info.value) == "alpha must contain only real numbers in (1, inf); got 0.5 at index (2,)"


# --------------------------------------------------------------------------- properties
@settings(max_examples=200, deadline=None)
@given(
    mu=st.floats(1e-3, 50.0),
    eps1=st.floats(0.0, 100.0),
    eps2=st.floats(0.0, 100.0),
)
def test_property_gdp_delta_in_unit_interval_and_decreasing(mu, eps1, eps2):
    lo, hi = sorted((eps1, eps2))
    d_lo, d_hi = gdp_delta(mu, lo), gdp_delta(mu, hi)
    assert 0.0 <= d_hi <= d_lo * (1 + 1e-12)
    assert d_lo <= 1.0


@settings(max_examples=200, deadline=None)
@given(eps=st.floats(1e-6, 200.0), alpha=st.floats(1.000001, 1e6), delta=st.floats(1e-15, 0.99))
def test_property_pure_to_rdp_to_approx_is_consistent(eps, alpha, delta):
    rdp = eps_dp_to_rdp(eps, alpha)
    assert 0.0 <= rdp <= eps
    assert rdp_to_approx_dp(alpha, rdp, delta) <= mironov_rdp_to_approx_dp(alpha, rdp, delta)
