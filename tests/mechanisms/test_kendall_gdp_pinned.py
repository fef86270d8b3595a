"""The Kendall GDP quadrature's values, pinned: computed with the quadrature before it was restructured for speed.

The restructured evaluation (empty ρ pieces skipped, per-pair constants computed once, arcs evaluated only inside
(0, 2), blocks of rows) computes the same quadrature sum in another order, so every value agrees to rounding
(about 1e-12 relative); the pins allow 1e-9.
"""

import math

import numpy as np
import pytest

from geodp_core.mechanisms.kendall_gdp import kendall_gaussian_calibration, kendall_gdp_mu, kendall_privacy_profile

HALF_PI = math.pi / 2
RTOL = 1e-9

#: (k, sigma, Δ, ε grid, δ(ε)) from the quadrature before the change.
PROFILES = [
    (4, 0.3, 0.2, [0.23902458590754128, 0.20228690065688854, 0.08777274826554793, 0.0200614336716008,
                   1.8082800718300562e-08]),
    (4, 0.05, 0.01, [0.07945739095778456, 0.041297778179126346, 0.0005014194200149725, 1.635809624850227e-08,
                     1.1768535110146199e-52]),
    (4, 1.0, HALF_PI, [0.18310166168927228, 0.1442507745624041, 0.036552513123252625, 0.000557485361010265, 0.0]),
    (12, 0.3, 0.2, [0.1973588371907862, 0.1591958505800316, 0.0522212748010882, 0.006603128813374119,
                    4.712975942146011e-14]),
    (12, 0.05, 0.01, [0.0789338424068067, 0.040812759208805324, 0.00047292747535394484, 1.3571552281135997e-08,
                      2.4717120112310407e-53]),
    (12, 1.0, HALF_PI, [0.10734933217835196, 0.06786742473982475, 0.00330853413182761, 5.434686501707059e-08, 0.0]),
    (20, 0.3, 0.2, [0.17090821259974878, 0.13202431110807406, 0.033168401718812725, 0.00230773109234989,
                    4.056007173303192e-20]),
    (20, 0.05, 0.01, [0.07841790628329234, 0.04033559579307371, 0.00044600667391603494, 1.1251493020702884e-08,
                      5.149733076380717e-54]),
    (20, 1.0, HALF_PI, [0.08423851602705848, 0.04566717242842387, 0.0005669364460097469, 1.3928834035448852e-11,
                        0.0]),
]
EPS = [0.0, 0.1, 0.5, 1.0, 3.0]

#: (k, sigma, Δ, μ) from the quadrature before the change.
MUS = [
    (4, 0.3, 0.2, 0.6084063930226526),
    (12, 1.0, HALF_PI, 0.26990456832689536),
]

#: (k, target μ, Δ, sigma, achieved μ) from the calibration before the change.
CALIBRATIONS = [
    (5, 0.5, HALF_PI, 0.9106119039615055, 0.4980000000012386),
    (4, 2.0, 0.005, 0.002510049446729887, 1.9920000059173337),
    (20, 0.5, 0.5, 0.45545808419417555, 0.4979999999995062),
]


@pytest.mark.parametrize("k,sigma,delta,expected", PROFILES)
def test_privacy_profile_is_pinned(k, sigma, delta, expected):
    got = kendall_privacy_profile(k, sigma, delta, EPS)
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=0.0)


@pytest.mark.slow
@pytest.mark.parametrize("k,sigma,delta,expected", MUS)
def test_gdp_mu_is_pinned(k, sigma, delta, expected):
    assert kendall_gdp_mu(k, sigma, delta) == pytest.approx(expected, rel=RTOL)


@pytest.mark.slow
@pytest.mark.parametrize("k,mu,delta,sigma,achieved", CALIBRATIONS)
def test_calibration_is_pinned(k, mu, delta, sigma, achieved):
    got_sigma, got_mu = kendall_gaussian_calibration(k, mu, delta)
    assert got_sigma == pytest.approx(sigma, rel=RTOL)
    assert got_mu == pytest.approx(achieved, rel=RTOL)
