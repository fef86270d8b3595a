"""Gaussian calibration: analytic (Balle & Wang) vs classical sigma, GDP mu for an (eps, delta) target."""

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import analytic_gaussian_sigma, classical_gaussian_sigma, gdp_delta, gdp_mu_for_approx_dp

DPS = 50


def mp_balle_wang_lhs(sigma, eps, sensitivity):
    with mp.workdps(DPS):
        s, e, d = mp.mpf(sigma), mp.mpf(eps), mp.mpf(sensitivity)
        return mp.ncdf(d / (2 * s) - e * s / d) - mp.exp(e) * mp.ncdf(-d / (2 * s) - e * s / d)


def mp_analytic_sigma(eps, delta, sensitivity, guess):
    with mp.workdps(DPS):
        return float(mp.findroot(lambda s: mp_balle_wang_lhs(s, eps, sensitivity) - delta, guess))


@pytest.mark.parametrize("eps", [0.0, 0.1, 0.5, 1.0, 3.0, 10.0, 50.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-5, 0.01, 0.5])
def test_analytic_sigma_round_trip_and_mpmath(eps, delta):
    sensitivity = 0.7
    sigma = analytic_gaussian_sigma(eps, delta, sensitivity)
    achieved = gdp_delta(sensitivity / sigma, eps)
    assert achieved <= delta  # verified safe side
    assert achieved == pytest.approx(delta, rel=1e-9)  # and tight: delta(eps) == delta
    assert sigma == pytest.approx(mp_analytic_sigma(eps, delta, sensitivity, sigma), rel=1e-9)
    # smallest: 1e-9 less noise violates the Balle–Wang inequality (high-precision check)
    assert mp_balle_wang_lhs(sigma * (1 - 1e-9), eps, sensitivity) > delta


def test_analytic_sigma_known_value_and_scale_equivariance():
    # Balle & Wang (2018) report sigma ~ 3.73 for eps = 1, delta = 1e-5, Delta = 1
    assert analytic_gaussian_sigma(1.0, 1e-5, 1.0) == pytest.approx(3.7306, abs=1e-4)
    base = analytic_gaussian_sigma(0.5, 1e-6, 1.0)
    assert analytic_gaussian_sigma(0.5, 1e-6, 2.5) == pytest.approx(2.5 * base, rel=1e-12)


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 0.9, 0.999])
@pytest.mark.parametrize("delta", [1e-12, 1e-5, 0.1])
def test_analytic_sigma_not_larger_than_classical(eps, delta):
    classical = classical_gaussian_sigma(eps, delta, 1.0)
    assert analytic_gaussian_sigma(eps, delta, 1.0) <= classical
    assert classical == pytest.approx(np.sqrt(2 * np.log(1.25 / delta)) / eps, rel=1e-15)
    assert gdp_delta(1.0 / classical, eps) <= delta  # classical is DP where the theorem applies


@pytest.mark.parametrize("eps", [1.0, 1.5, 8.0])
def test_classical_refused_for_eps_at_least_one(eps):
    with pytest.raises(InvalidParameterError) as info:
        classical_gaussian_sigma(eps, 1e-5, 1.0)
    assert info.value.param == "eps"
    assert "(0, 1)" in str(info.value) and repr(eps) in str(info.value)


@pytest.mark.parametrize(
    "eps, delta, is_dp",
    [
        (8.0, 1e-3, False),  # fails from eps ~ 7.46 at delta = 1e-3
        (9.0, 1e-5, False),  # fails from eps ~ 8.42 at delta = 1e-5
        (8.0, 1e-5, True),   # NB: at (8, 1e-5) it still holds: delta(eps) = 7.97e-6 < 1e-5
        (10.0, 1e-10, False),
    ],
)
def test_classical_formula_not_dp_for_large_eps(eps, delta, is_dp):
    # The formula itself (the function refuses eps >= 1) evaluated with 50-digit arithmetic.
    sigma = np.sqrt(2 * np.log(1.25 / delta)) / eps
    lhs = mp_balle_wang_lhs(sigma, eps, 1.0)
    assert (lhs <= delta) == is_dp
    assert (gdp_delta(1.0 / sigma, eps) <= delta) == is_dp
    if not is_dp:
        assert analytic_gaussian_sigma(eps, delta, 1.0) > sigma


@pytest.mark.parametrize(
    "mu, eps",
    [(0.1, 0.0), (0.1, 0.5), (0.1, 0.05), (1.0, 0.0), (1.0, 0.5), (1.0, 5.0), (4.0, 0.0), (4.0, 0.5), (4.0, 5.0),
     (4.0, 50.0), (1e-3, 0.0)],
)  # (0.1, 5) is left out: delta ~ 1e-543 underflows
def test_gdp_mu_round_trip(mu, eps):
    delta = gdp_delta(mu, eps)
    assert 1e-300 < delta < 1.0
    assert gdp_mu_for_approx_dp(eps, delta) == pytest.approx(mu, rel=1e-9)


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda v: analytic_gaussian_sigma(v, 1e-5, 1.0), "eps"),
        (lambda v: analytic_gaussian_sigma(1.0, v, 1.0), "delta"),
        (lambda v: analytic_gaussian_sigma(1.0, 1e-5, v), "sensitivity"),
        (lambda v: classical_gaussian_sigma(v, 1e-5, 1.0), "eps"),
        (lambda v: classical_gaussian_sigma(0.5, v, 1.0), "delta"),
        (lambda v: classical_gaussian_sigma(0.5, 1e-5, v), "sensitivity"),
        (lambda v: gdp_mu_for_approx_dp(v, 1e-5), "eps"),
        (lambda v: gdp_mu_for_approx_dp(1.0, v), "delta"),
    ],
)
@pytest.mark.parametrize("bad", [np.nan, np.inf, True, -1.0, None])
def test_validation(call, param, bad):
    with pytest.raises(InvalidParameterError) as info:
        call(bad)
    assert info.value.param == param


@pytest.mark.parametrize("bad_delta", [0.0, 1.0, 2.0])
def test_delta_outside_unit_interval(bad_delta):
    with pytest.raises(InvalidParameterError, match=r"delta must be a real number in \(0, 1\)"):
        analytic_gaussian_sigma(1.0, bad_delta, 1.0)


@settings(max_examples=60, deadline=None)
@given(
    eps=st.floats(0.0, 30.0),
    delta=st.floats(1e-12, 0.5),
    factor=st.floats(1.01, 3.0),
)
def test_property_sigma_decreases_with_budget(eps, delta, factor):
    sigma = analytic_gaussian_sigma(eps, delta, 1.0)
    assert gdp_delta(1.0 / sigma, eps) <= delta
    assert analytic_gaussian_sigma(eps * factor + 0.01, delta, 1.0) < sigma
    assert analytic_gaussian_sigma(eps, min(delta * factor, 0.9), 1.0) < sigma
