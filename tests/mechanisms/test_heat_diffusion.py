"""Tests of the heat-diffusion mechanisms (Brownian motion, Langevin) and their samplers.

Statistical tests use fixed seeds and alpha = 1e-6 (KS p-value threshold, or |z| < 4.89
for two-sided normal approximations of Monte Carlo means); each names the bug it has
power against.
"""

import math

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, stats

from geodp_core.exceptions import InvalidParameterError, OffManifoldError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import LABEL_APPROXIMATE, LABEL_EXACT, get_mechanism
from geodp_core.mechanisms import bm_diffusion_time as lazy_bm_diffusion_time
from geodp_core.mechanisms import heat_kernel as hk
from geodp_core.mechanisms import langevin_diffusion_time as lazy_langevin_diffusion_time
from geodp_core.mechanisms.heat_diffusion import (
    bm_diffusion_time,
    bm_privacy_floor,
    bm_rdp_eps,
    bm_zcdp_rho,
    langevin_diffusion_time,
    langevin_rdp_eps,
    langevin_zcdp_rho,
)
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP, implies
from tests.mechanisms.contract import MechanismContract

ALPHA_TEST = 1e-6
Z_CRIT = 4.89  # two-sided normal quantile for alpha = 1e-6


# =============================================================================== contracts
class TestBrownianMotionSphereContract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("sphere", 2)
    target = RDP(2.0, 1.0)


class TestBrownianMotionHyperbolicContract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("hyperbolic", 2)
    target = ZCDP(0.5)


class TestBrownianMotionSPDAffineContract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("spd", 2, "affine")
    target = ApproxDP(1.0, 1e-5)
    calibrate_options = {"n_steps": 20}


class TestBrownianMotionLogCholeskyContract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("spd", 2, "log_cholesky")
    target = ZCDP(0.5)


class TestLangevinHyperbolicContract(MechanismContract):
    name = "langevin"
    manifold_args = ("hyperbolic", 2)
    target = RDP(2.0, 1.0)
    unavailable_on = [("sphere", 2), ("sphere", 1)]


class TestLangevinEuclideanContract(MechanismContract):
    name = "langevin"
    manifold_args = ("euclidean", 3)
    target = ApproxDP(1.0, 1e-5)


class TestLangevinSPDAffineContract(MechanismContract):
    name = "langevin"
    manifold_args = ("spd", 2, "affine")
    target = ZCDP(0.5)
    calibrate_options = {"lam": 1.5, "n_steps": 20}


# =============================================================================== formulas
KS = [-3.0, -1.0, -1e-9, 0.0, 1e-9, 0.5, 2.0]


@pytest.mark.parametrize("K", KS)
@pytest.mark.parametrize("alpha", [1.5, 2.0, 10.0])
@pytest.mark.parametrize("sensitivity", [0.01, 0.5])
def test_bm_time_and_eps_are_inverse(K, alpha, sensitivity):
    floor = max(K, 0.0) * alpha * sensitivity**2 / 2.0
    for eps in [floor + 1e-3, floor + 0.1, floor + 1.0, floor + 50.0]:
        t = bm_diffusion_time(K, alpha, sensitivity, eps)
        assert t > 0
        assert bm_rdp_eps(K, alpha, sensitivity, t) == pytest.approx(eps, rel=1e-11)


@pytest.mark.parametrize("K", [-2.0, -0.3, 0.7, 3.0])
def test_bm_time_matches_paper_expression(K):
    alpha, sensitivity, eps = 2.0, 0.3, 1.5
    paper = (math.log(2 * eps) - math.log(2 * eps - K * alpha * sensitivity**2)) / (2 * K)
    assert bm_diffusion_time(K, alpha, sensitivity, eps) == pytest.approx(paper, rel=1e-12)
    paper_eps = K * alpha * sensitivity**2 / (2 * (1 - math.exp(-2 * K * paper)))
    assert bm_rdp_eps(K, alpha, sensitivity, paper) == pytest.approx(paper_eps, rel=1e-12)


@pytest.mark.parametrize("K", [1e-14, -1e-10, 1e-6, -1e-4])
def test_bm_small_K_against_mpmath(K):
    # Reference: the paper's formulas at 50 digits (catches catastrophic cancellation near K = 0).
    mp.mp.dps = 50
    alpha, sensitivity, eps = 3.0, 0.2, 0.7
    Km, a, d, e = mp.mpf(K), mp.mpf(alpha), mp.mpf(sensitivity), mp.mpf(eps)
    t_ref = (mp.log(2 * e) - mp.log(2 * e - Km * a * d**2)) / (2 * Km)
    assert bm_diffusion_time(K, alpha, sensitivity, eps) == pytest.approx(float(t_ref), rel=1e-13)
    tm = mp.mpf(1.234)
    eps_ref = Km * a * d**2 / (2 * (1 - mp.exp(-2 * Km * tm)))
    assert bm_rdp_eps(K, alpha, sensitivity, 1.234) == pytest.approx(float(eps_ref), rel=1e-13)


def test_bm_K_to_zero_is_continuous():
    alpha, sensitivity, eps = 2.0, 0.1, 1.0
    t0 = bm_diffusion_time(0.0, alpha, sensitivity, eps)
    assert t0 == pytest.approx(alpha * sensitivity**2 / (4 * eps), rel=1e-15)
    for K in [1e-300, -1e-300, 1e-12, -1e-12]:
        assert bm_diffusion_time(K, alpha, sensitivity, eps) == pytest.approx(t0, rel=1e-10)
        assert bm_rdp_eps(K, alpha, sensitivity, t0) == pytest.approx(eps, rel=1e-10)


def test_bm_euclidean_rdp_is_sharp():
    # K = 0: D_alpha(N(x, 2tI) || N(y, 2tI)) = alpha |x - y|^2 / (2 * 2t) exactly (paper §3.2 (ii)).
    alpha, sensitivity, t = 4.0, 0.3, 0.05
    assert bm_rdp_eps(0.0, alpha, sensitivity, t) == pytest.approx(alpha * sensitivity**2 / (4 * t), rel=1e-15)


@pytest.mark.parametrize("alpha", [1.01, 2.0, 7.5, 100.0])
def test_zcdp_rho_is_eps_over_alpha(alpha):
    for K in [-1.0, 0.0, 1.0]:
        for t in [0.01, 0.3, 4.0]:
            assert bm_zcdp_rho(K, 0.2, t) * alpha == pytest.approx(bm_rdp_eps(K, alpha, 0.2, t), rel=1e-14)
            for lam in [1.5, 3.0]:
                assert langevin_zcdp_rho(max(K, 0.0), lam, 0.2, t) * alpha == pytest.approx(
                    langevin_rdp_eps(max(K, 0.0), lam, alpha, 0.2, t), rel=1e-14
                )


def test_bm_eps_accepts_arrays_and_is_decreasing():
    times = np.geomspace(1e-3, 10.0, 50)
    for K in [-1.0, 0.0, 1.0]:
        eps = bm_rdp_eps(K, 2.0, 0.5, times)
        assert eps.shape == times.shape and np.all(np.diff(eps) < 0)
    # K > 0: the budget tends to the floor K alpha Delta^2 / 2 from above.
    eps = bm_rdp_eps(1.0, 2.0, 0.5, np.array([50.0, 400.0]))
    assert np.all(eps >= bm_privacy_floor(1.0, 2.0, 0.5)) and eps[-1] == pytest.approx(0.25, rel=1e-12)
    assert bm_privacy_floor(-1.0, 2.0, 0.5) == 0.0


@pytest.mark.parametrize("eps", [0.25, 0.1])
def test_bm_floor_error(eps):
    # K = 1, alpha = 2, Delta = 0.5: floor = 0.25.
    with pytest.raises(ValueError, match="floor") as info:
        bm_diffusion_time(1.0, 2.0, 0.5, eps)
    message = str(info.value)
    assert "0.25" in message and "Langevin" in message
    assert isinstance(info.value, InvalidParameterError) and info.value.param == "eps"
    assert bm_diffusion_time(1.0, 2.0, 0.5, 0.2500001) > 0  # just above the floor is fine


@pytest.mark.parametrize("K", [0.0, 0.5, 1.0, 3.0])
@pytest.mark.parametrize("lam_gap", [1e-9, 0.1, 2.0])
def test_langevin_time_and_eps_are_inverse(K, lam_gap):
    lam = K + lam_gap
    for alpha, sensitivity, eps in [(2.0, 0.1, 1.0), (10.0, 1.0, 0.01), (1.5, 0.02, 20.0)]:
        t = langevin_diffusion_time(K, lam, alpha, sensitivity, eps)
        # Reference: the paper's formula at 50 digits (the naive float form loses digits for tiny lam - K).
        mp.mp.dps = 50
        gap = mp.mpf(lam) - mp.mpf(K)
        paper = mp.log(1 + gap * alpha * mp.mpf(sensitivity) ** 2 / (2 * mp.mpf(eps))) / (2 * gap)
        assert t == pytest.approx(float(paper), rel=1e-12)
        assert langevin_rdp_eps(K, lam, alpha, sensitivity, t) == pytest.approx(eps, rel=1e-11)


def test_langevin_limit_lam_to_K_is_bm_flat_rate():
    t = langevin_diffusion_time(1.0, 1.0 + 1e-13, 2.0, 0.1, 1.0)
    assert t == pytest.approx(2.0 * 0.01 / 4.0, rel=1e-9)


def test_langevin_euclidean_rdp_is_sharp():
    # K = 0: the OU laws from x and y are N(o + e^{-lam t}(x - o), (1 - e^{-2 lam t})/lam I); their Rényi
    # divergence alpha e^{-2 lam t} Delta^2 / (2 sigma^2) equals Theorem 8's budget exactly.
    lam, alpha, sensitivity, t = 2.0, 3.0, 0.4, 0.3
    var = (1 - math.exp(-2 * lam * t)) / lam
    exact = alpha * math.exp(-2 * lam * t) * sensitivity**2 / (2 * var)
    assert langevin_rdp_eps(0.0, lam, alpha, sensitivity, t) == pytest.approx(exact, rel=1e-14)


@pytest.mark.parametrize("lam", [1.0, 0.5, -1.0])
def test_langevin_lam_not_above_K_raises(lam):
    with pytest.raises(InvalidParameterError, match="lam") as info:
        langevin_diffusion_time(1.0, lam, 2.0, 0.1, 1.0)
    assert info.value.param == "lam"
    if lam > 0:
        assert "K = 1" in str(info.value)


def test_lazy_public_names():
    assert lazy_bm_diffusion_time is bm_diffusion_time
    assert lazy_langevin_diffusion_time is langevin_diffusion_time


@pytest.mark.parametrize(
    "call, param",
    [
        (lambda: bm_diffusion_time(0.0, 1.0, 0.1, 1.0), "alpha"),
        (lambda: bm_diffusion_time(0.0, 2.0, 0.0, 1.0), "sensitivity"),
        (lambda: bm_diffusion_time(0.0, 2.0, 0.1, -1.0), "eps"),
        (lambda: bm_diffusion_time(float("nan"), 2.0, 0.1, 1.0), "K"),
        (lambda: bm_diffusion_time(True, 2.0, 0.1, 1.0), "K"),
        (lambda: bm_diffusion_time(0.0, 2.0, 0.1, float("inf")), "eps"),
        (lambda: bm_rdp_eps(0.0, 2.0, 0.1, 0.0), "t"),
        (lambda: bm_rdp_eps(0.0, 2.0, 0.1, [0.1, -0.1]), "t"),
        (lambda: bm_rdp_eps(0.0, 2.0, 0.1, [0.1, float("nan")]), "t"),
        (lambda: langevin_diffusion_time(-0.5, 1.0, 2.0, 0.1, 1.0), "K"),
        (lambda: langevin_diffusion_time(0.0, "1", 2.0, 0.1, 1.0), "lam"),
        (lambda: langevin_rdp_eps(0.0, 1.0, 2.0, 0.1, -2.0), "t"),
    ],
)
def test_formula_validation(call, param):
    with pytest.raises(InvalidParameterError, match=param) as info:
        call()
    assert info.value.param == param


# =============================================================================== calibration
def test_bm_calibration_matches_closed_form_on_safe_side():
    for args, K in [(("sphere", 2), -1.0), (("euclidean", 2), 0.0), (("hyperbolic", 3), 2.0)]:
        mech = get_mechanism("brownian_motion", get_manifold(*args))
        cal = mech.calibrate(RDP(3.0, 2.0), 0.1)
        t = cal.noise["t"]
        assert t == pytest.approx(bm_diffusion_time(K, 3.0, 0.1, 2.0), rel=1e-9)
        assert bm_rdp_eps(K, 3.0, 0.1, t) <= 2.0
        assert cal.native == ZCDP(cal.noise["rho"]) and implies(cal.native, RDP(3.0, 2.0))


def test_langevin_calibration_matches_closed_form():
    mech = get_mechanism("langevin", get_manifold("hyperbolic", 2))
    cal = mech.calibrate(RDP(2.0, 0.5), 0.2, lam=1.7)
    assert cal.noise["lam"] == 1.7
    assert cal.noise["t"] == pytest.approx(langevin_diffusion_time(1.0, 1.7, 2.0, 0.2, 0.5), rel=1e-9)
    assert langevin_rdp_eps(1.0, 1.7, 2.0, 0.2, cal.noise["t"]) <= 0.5
    assert cal.label == LABEL_APPROXIMATE and any("n_steps" in n for n in cal.notes)
    assert any("PUBLIC" in n for n in cal.notes)


def test_bm_below_floor_unavailable_with_reason():
    mech = get_mechanism("brownian_motion", get_manifold("hyperbolic", 2))  # K = 1
    with pytest.raises(UnavailableError, match="floor") as info:
        mech.calibrate(ZCDP(0.004), 0.1)  # floor K Delta^2 / 2 = 0.005
    assert "0.005" in str(info.value) and "angevin" in str(info.value)
    assert mech.calibrate(ZCDP(0.0051), 0.1).noise["t"] > 0
    lang = get_mechanism("langevin", get_manifold("hyperbolic", 2))
    assert lang.calibrate(ZCDP(0.004), 0.1).noise["t"] > 0  # Langevin has no floor


@pytest.mark.parametrize("name, args", [("brownian_motion", ("sphere", 2)), ("langevin", ("euclidean", 2))])
@pytest.mark.parametrize("target", [GDP(1.0), PureDP(1.0)])
def test_gdp_and_pure_targets_unavailable(name, args, target):
    with pytest.raises(UnavailableError, match="zCDP"):
        get_mechanism(name, get_manifold(*args)).calibrate(target, 0.1)


def test_option_validation():
    sphere = get_mechanism("brownian_motion", get_manifold("sphere", 2))
    with pytest.raises(InvalidParameterError, match="anchor"):
        sphere.calibrate(ZCDP(0.5), 0.1, anchor=np.array([0.0, 0.0, 1.0]))  # unknown for BM
    with pytest.raises(InvalidParameterError, match="sampler"):
        sphere.calibrate(ZCDP(0.5), 0.1, sampler="euler")
    with pytest.raises(InvalidParameterError, match="n_steps"):
        sphere.calibrate(ZCDP(0.5), 0.1, sampler="random_walk", n_steps=0)
    with pytest.raises(InvalidParameterError, match="sampler"):
        get_mechanism("brownian_motion", get_manifold("hyperbolic", 2)).calibrate(ZCDP(0.5), 0.1, sampler="exact")
    lang = get_mechanism("langevin", get_manifold("hyperbolic", 2))
    with pytest.raises(InvalidParameterError, match="lam"):
        lang.calibrate(ZCDP(0.5), 0.1, lam=1.0)  # K = 1
    with pytest.raises(OffManifoldError, match="anchor"):
        lang.calibrate(ZCDP(0.5), 0.1, anchor=np.array([1.0, 1.0, 0.0]))
    with pytest.raises(InvalidParameterError, match="sampler"):
        lang.calibrate(ZCDP(0.5), 0.1, sampler="exact")
    with pytest.raises(InvalidParameterError, match="n_steps"):
        lang.calibrate(ZCDP(1e-4), 0.1, n_steps=1)  # lam t > 1: unstable scheme


def test_labels_and_default_samplers():
    sphere = get_mechanism("brownian_motion", get_manifold("sphere", 2))
    cal = sphere.calibrate(ZCDP(0.5), 0.1)
    assert cal.label == LABEL_EXACT and cal.options["sampler"] == "exact"
    walk = sphere.calibrate(ZCDP(0.5), 0.1, sampler="random_walk", n_steps=37)
    assert walk.label == LABEL_APPROXIMATE and any("37" in n for n in walk.notes)
    # Exact heat-kernel samplers on S^3 and H^3; H^2, and S^100 at t = 0.006 (between the ranges of its two
    # exact samplers), use the labelled random walk.
    assert get_mechanism("brownian_motion", get_manifold("sphere", 3)).calibrate(ZCDP(0.5), 0.1).label == LABEL_EXACT
    assert get_mechanism("brownian_motion", get_manifold("hyperbolic", 3)).calibrate(ZCDP(0.5), 0.1).label == LABEL_EXACT
    assert get_mechanism("brownian_motion", get_manifold("hyperbolic", 2)).calibrate(ZCDP(0.5), 0.1).label == LABEL_APPROXIMATE
    s100 = get_mechanism("brownian_motion", get_manifold("sphere", 100))
    assert s100.calibrate(ZCDP(bm_zcdp_rho(-99.0, 0.1, 0.006)), 0.1).label == LABEL_APPROXIMATE
    assert get_mechanism("brownian_motion", get_manifold("euclidean", 2)).calibrate(ZCDP(0.5), 0.1).label == LABEL_EXACT
    assert get_mechanism("langevin", get_manifold("spd", 2, "log_euclidean")).calibrate(ZCDP(0.5), 0.1).label == LABEL_EXACT
    # t below the exact series range: the default falls back to the (labelled) random walk.
    tiny = sphere.calibrate(RDP(2.0, 10.0), 1e-4)
    assert tiny.noise["t"] < 1e-9 and tiny.options["sampler"] == "random_walk" and tiny.label == LABEL_APPROXIMATE
    with pytest.raises(InvalidParameterError, match="sampler"):
        sphere.calibrate(RDP(2.0, 10.0), 1e-4, sampler="exact")


# =============================================================================== S^2 heat kernel
def test_series_tail_bound_dominates_tail():
    for t in [1e-3, 0.05, 1.0]:
        n = hk.sphere2_series_terms(t, 1e-10)
        tail = sum(math.exp(-l * (l + 1) * t) for l in range(n + 1, n + 5000))
        assert tail <= hk.sphere2_series_tail_bound(t, n) <= 1e-10
        assert hk.sphere2_series_tail_bound(t, n - 1) > 1e-10 if n > 0 else True


@pytest.mark.parametrize("t", [0.02, 0.3, 2.0])
def test_series_cdf_vs_quadrature_of_density(t):
    # Catches a wrong integral of P_l (e.g. a missing 1/(2l+1)) or a wrong l = 0 term.
    def radial_density(r):
        return 2 * np.pi * np.sin(r) * hk.sphere2_heat_kernel(np.array([r]), t)[0]

    radii = np.array([0.05, 0.3, 1.0, 2.0, 3.0, np.pi])
    cdf = hk.sphere2_radial_cdf(radii, t)
    for r, value in zip(radii, cdf):
        ref, err = integrate.quad(radial_density, 0.0, r, epsabs=1e-13, epsrel=1e-12, limit=200)
        assert value == pytest.approx(ref, abs=1e-11)
    assert cdf[-1] == pytest.approx(1.0, abs=1e-13)


def test_heat_kernel_against_mpmath_legendre():
    # Independent reference: mpmath's Legendre functions at 30 digits, same truncation tolerance.
    mp.mp.dps = 30
    t = 0.05
    for r in [0.0, 0.2, 1.3, 3.0]:
        c = mp.cos(mp.mpf(r))
        ref = sum((2 * l + 1) / (4 * mp.pi) * mp.exp(-l * (l + 1) * mp.mpf(t)) * mp.legendre(l, c) for l in range(60))
        assert hk.sphere2_heat_kernel(np.array([r]), t)[0] == pytest.approx(float(ref), rel=1e-12, abs=1e-14)


def test_heat_kernel_small_t_is_euclidean():
    # Varadhan / flat limit: p_t(r) ~ exp(-r^2/(4t))/(4 pi t) for small t and r.
    t = 1e-4
    r = np.array([0.0, 0.01, 0.02])
    flat = np.exp(-r**2 / (4 * t)) / (4 * np.pi * t)
    np.testing.assert_allclose(hk.sphere2_heat_kernel(r, t), flat, rtol=2e-3)


@pytest.mark.parametrize("t", [0.003, 0.1, 1.5])
def test_exact_radius_ks_against_series_cdf(t):
    # KS at alpha = 1e-6 with n = 20000: power against a wrong time scale (Delta/2 generator: t -> t/2)
    # or a non-uniform inversion; the inverse CDF is certified, so the statistic is only sampling noise.
    radii = hk.sample_sphere2_heat_radius(t, 20_000, np.random.default_rng(11))
    assert radii.min() >= 0 and radii.max() <= np.pi
    result = stats.kstest(radii, lambda r: hk.sphere2_radial_cdf(np.clip(r, 0, np.pi), t))
    assert result.pvalue > ALPHA_TEST
    wrong = stats.kstest(radii, lambda r: hk.sphere2_radial_cdf(np.clip(r, 0, np.pi), t / 2))
    assert wrong.pvalue < ALPHA_TEST


@pytest.mark.parametrize("t", [0.001, 0.05, 1.0])
def test_exact_sphere_mean_cosine(t):
    # cos r is a first spherical harmonic (Laplacian eigenvalue -2), so E cos r = exp(-2t) exactly.
    # z-test at alpha = 1e-6; power against the Delta/2 generator (exp(-t)).
    mech = get_mechanism("brownian_motion", get_manifold("sphere", 2))
    target_rho = bm_zcdp_rho(-1.0, 0.1, t)
    cal = mech.calibrate(ZCDP(target_rho), 0.1)
    assert cal.noise["t"] == pytest.approx(t, rel=1e-9)
    center = get_manifold("sphere", 2).from_lat_lon(20.0, 40.0)
    x = mech.sample(center, cal, 20_000, np.random.default_rng(5))
    cosines = x @ center
    z = (cosines.mean() - math.exp(-2 * cal.noise["t"])) / (cosines.std() / math.sqrt(cosines.size))
    assert abs(z) < Z_CRIT


def test_exact_sphere_small_t_matches_flat_heat_kernel():
    # E r^2 = 4t - 4t^2/3 + O(t^3) on S^2 (flat: 4t = E|N(0, 2t I_2)|^2); relative correction 3e-4 here,
    # far below the Monte Carlo error. z-test at alpha = 1e-6; power against Delta/2 (E r^2 = 2t).
    M = get_manifold("sphere", 2)
    t = 1e-3
    radii = hk.sample_sphere2_heat_radius(t, 20_000, np.random.default_rng(8))
    sq = radii**2
    z = (sq.mean() - (4 * t - 4 * t**2 / 3)) / (sq.std() / math.sqrt(sq.size))
    assert abs(z) < Z_CRIT
    # The direction is uniform: the tangent angle is uniform on the circle (KS, alpha = 1e-6).
    mech = get_mechanism("brownian_motion", M)
    cal = mech.calibrate(ZCDP(bm_zcdp_rho(-1.0, 0.1, 0.2)), 0.1)
    x = mech.sample(M.default_center(), cal, 5_000, np.random.default_rng(9))
    angle = np.arctan2(x[:, 1], x[:, 0])
    assert stats.kstest(angle, stats.uniform(loc=-np.pi, scale=2 * np.pi).cdf).pvalue > ALPHA_TEST


def test_random_walk_matches_exact_on_sphere():
    # Two-sample KS (alpha = 1e-6) of the radius, exact vs random walk with 100 steps (weak error O(h), h=8e-4).
    # Power against a wrong step scale (sqrt(h) instead of sqrt(2h)).
    M = get_manifold("sphere", 2)
    mech = get_mechanism("brownian_motion", M)
    center = M.from_lat_lon(-30.0, 10.0)
    exact = mech.calibrate(ZCDP(bm_zcdp_rho(-1.0, 0.1, 0.08)), 0.1)
    walk = mech.calibrate(ZCDP(bm_zcdp_rho(-1.0, 0.1, 0.08)), 0.1, sampler="random_walk", n_steps=100)
    r_exact = M.dist(center, mech.sample(center, exact, 4_000, np.random.default_rng(1)))
    r_walk = M.dist(center, mech.sample(center, walk, 4_000, np.random.default_rng(2)))
    assert stats.ks_2samp(r_exact, r_walk).pvalue > ALPHA_TEST
    r_half = M.dist(center, hk.geodesic_random_walk(M, center, 0.04, 100, 4_000, np.random.default_rng(3)))
    assert stats.ks_2samp(r_exact, r_half).pvalue < ALPHA_TEST


def test_theorem9_bound_on_sphere():
    # E dist(a, B_t) <= sqrt(2 d t) (Theorem 9); one-sided check with the Monte Carlo error (alpha = 1e-6).
    M = get_manifold("sphere", 2)
    mech = get_mechanism("brownian_motion", M)
    for t in [0.005, 0.1, 1.0]:
        cal = mech.calibrate(ZCDP(bm_zcdp_rho(-1.0, 0.1, t)), 0.1)
        bound = mech.utility_bound(cal)
        assert bound == pytest.approx(math.sqrt(4 * cal.noise["t"]), rel=1e-12)
        r = M.dist(M.default_center(), mech.sample(M.default_center(), cal, 5_000, np.random.default_rng(4)))
        assert r.mean() - Z_CRIT * r.std() / math.sqrt(r.size) <= bound
    assert get_mechanism("brownian_motion", get_manifold("hyperbolic", 2)).utility_bound(
        get_mechanism("brownian_motion", get_manifold("hyperbolic", 2)).calibrate(ZCDP(0.5), 0.1)
    ) is None


def test_sphere_log_density_is_normalised():
    M = get_manifold("sphere", 2)
    mech = get_mechanism("brownian_motion", M)
    cal = mech.calibrate(ZCDP(bm_zcdp_rho(-1.0, 0.1, 0.05)), 0.1)
    center = M.default_center()
    radii = np.linspace(0.0, np.pi, 2001)
    points = M.exp(np.broadcast_to(center, (radii.size, 3)), radii[:, None] * np.array([1.0, 0.0, 0.0]))
    density = np.exp(mech.log_density(center, points, cal))
    total = integrate.simpson(2 * np.pi * np.sin(radii) * density, x=radii)
    assert total == pytest.approx(1.0, abs=1e-6)


def test_exact_sampler_validation():
    with pytest.raises(InvalidParameterError, match="random_walk"):
        hk.sample_sphere2_heat_radius(1e-12, 10, np.random.default_rng(0))
    with pytest.raises(InvalidParameterError, match="radius"):
        hk.sphere2_radial_cdf([0.1, 4.0], 0.1)
    with pytest.raises(InvalidParameterError, match="t"):
        hk.sphere2_radial_cdf([0.1], 0.0)


# =============================================================================== flat spaces
def test_euclidean_bm_is_gaussian_with_variance_2t():
    # KS on each coordinate vs N(x_i, 2t) at alpha = 1e-6 (n = 20000); the Delta/2 bug (variance t) is rejected.
    M = get_manifold("euclidean", 3)
    mech = get_mechanism("brownian_motion", M)
    cal = mech.calibrate(RDP(2.0, 1.0), 0.5)
    t = cal.noise["t"]
    assert t == pytest.approx(2.0 * 0.25 / 4.0)
    center = np.array([1.0, -2.0, 0.5])
    x = mech.sample(center, cal, 20_000, np.random.default_rng(21))
    for i in range(3):
        assert stats.kstest(x[:, i], stats.norm(center[i], math.sqrt(2 * t)).cdf).pvalue > ALPHA_TEST
    assert stats.kstest(x[:, 0], stats.norm(center[0], math.sqrt(t)).cdf).pvalue < ALPHA_TEST
    logp = mech.log_density(center, x[:5], cal)
    np.testing.assert_allclose(logp, stats.multivariate_normal(center, 2 * t * np.eye(3)).logpdf(x[:5]), rtol=1e-12)


@pytest.mark.parametrize("metric", ["log_euclidean", "log_cholesky"])
def test_flat_spd_bm_is_gaussian_in_chart(metric):
    # Chart coordinates of B_t are N(chart(x), 2t I) (KS per coordinate, alpha = 1e-6); power against a
    # noise added in matrix entries instead of the isometric chart (wrong scale on off-diagonal terms).
    M = get_manifold("spd", 2, metric)
    mech = get_mechanism("brownian_motion", M)
    cal = mech.calibrate(ZCDP(0.5), 0.2)
    t = cal.noise["t"]
    center = np.array([[2.0, 0.3], [0.3, 0.5]])
    x = mech.sample(center, cal, 8_000, np.random.default_rng(31))
    basis = M.chart_basis()
    coords = np.einsum("nij,kij->nk", M.chart(x) - M.chart(center), basis)
    for k in range(M.dim):
        assert stats.kstest(coords[:, k], stats.norm(0.0, math.sqrt(2 * t)).cdf).pvalue > ALPHA_TEST
    # dist^2 / (2t) is chi-square with d degrees of freedom.
    assert stats.kstest(M.dist(center, x) ** 2 / (2 * t), stats.chi2(M.dim).cdf).pvalue > ALPHA_TEST


def test_langevin_exact_ou_on_euclidean():
    # Exact OU: coordinates ~ N(o + e^{-lam t}(x - o), (1 - e^{-2 lam t})/lam) (KS, alpha = 1e-6);
    # power against the generator Delta/2 convention (variance halved).
    M = get_manifold("euclidean", 2)
    mech = get_mechanism("langevin", M)
    anchor = np.array([0.5, 0.5])
    cal = mech.calibrate(ZCDP(0.01), 0.3, lam=2.0, anchor=anchor)
    lam, t = 2.0, cal.noise["t"]
    center = np.array([3.0, -1.0])
    mean = anchor + math.exp(-lam * t) * (center - anchor)
    var = (1 - math.exp(-2 * lam * t)) / lam
    x = mech.sample(center, cal, 20_000, np.random.default_rng(41))
    for i in range(2):
        assert stats.kstest(x[:, i], stats.norm(mean[i], math.sqrt(var)).cdf).pvalue > ALPHA_TEST
    assert stats.kstest(x[:, 0], stats.norm(mean[0], math.sqrt(var / 2)).cdf).pvalue < ALPHA_TEST
    np.testing.assert_allclose(
        mech.log_density(center, x[:4], cal), stats.multivariate_normal(mean, var * np.eye(2)).logpdf(x[:4]), rtol=1e-12
    )


def test_langevin_euler_maruyama_matches_exact_on_euclidean():
    # Two-sample KS (alpha = 1e-6) of each coordinate: EM with 200 steps vs the exact OU law.
    # Power against a drift of the wrong sign or scale (e.g. a missing factor lam).
    M = get_manifold("euclidean", 2)
    mech = get_mechanism("langevin", M)
    center = np.array([2.0, 1.0])
    exact = mech.calibrate(ZCDP(0.01), 0.3, lam=1.5)
    em = mech.calibrate(ZCDP(0.01), 0.3, lam=1.5, sampler="euler_maruyama", n_steps=200)
    assert em.label == LABEL_APPROXIMATE and exact.label == LABEL_EXACT
    xe = mech.sample(center, exact, 5_000, np.random.default_rng(51))
    xm = mech.sample(center, em, 5_000, np.random.default_rng(52))
    for i in range(2):
        assert stats.ks_2samp(xe[:, i], xm[:, i]).pvalue > ALPHA_TEST
    no_drift = hk.geodesic_random_walk(M, center, exact.noise["t"], 200, 5_000, np.random.default_rng(53))
    assert stats.ks_2samp(xe[:, 0], no_drift[:, 0]).pvalue < ALPHA_TEST


def test_langevin_on_hyperbolic_concentrates_toward_anchor():
    # On H^2, Brownian motion drifts outward, the Langevin drift pulls back toward the anchor o.
    # z-tests at alpha = 1e-6 on mean distances; Theorem 10's bound checked one-sided.
    M = get_manifold("hyperbolic", 2)
    lang = get_mechanism("langevin", M)
    anchor = M.default_center()
    start = M.from_poincare(np.array([math.tanh(1.5), 0.0]))  # dist(o, start) = 3
    cal = lang.calibrate(ZCDP(1e-3), 0.1)  # lam = 1.1, t ~ 2
    x = lang.sample(start, cal, 3_000, np.random.default_rng(61))
    assert M.belongs(x, atol=1e-9).all()
    d_anchor = M.dist(anchor, x)
    assert d_anchor.mean() + Z_CRIT * d_anchor.std() / math.sqrt(d_anchor.size) < 3.0 - 1.0
    walk = hk.geodesic_random_walk(M, start, cal.noise["t"], 100, 3_000, np.random.default_rng(62))
    d_walk = M.dist(anchor, walk)
    assert d_walk.mean() - Z_CRIT * d_walk.std() / math.sqrt(d_walk.size) > 3.0
    d_start = M.dist(start, x)
    bound = lang.utility_bound(cal, start)
    assert d_start.mean() - Z_CRIT * d_start.std() / math.sqrt(d_start.size) <= bound
    assert lang.utility_bound(cal) is None


def test_theorem10_bound_formula():
    M = get_manifold("hyperbolic", 3)  # K = 2
    lang = get_mechanism("langevin", M)
    cal = lang.calibrate(ZCDP(0.05), 0.2, lam=3.0)
    start = M.from_poincare(np.array([0.3, 0.1, 0.0]))
    dist = float(M.dist(M.default_center(), start))
    t = cal.noise["t"]
    expected = math.sqrt((2 * 3 / 3.0 + (dist + math.sqrt(2 * 2.0) / 3.0) ** 2) * (1 - math.exp(-3.0 * t)))
    assert lang.utility_bound(cal, start) == pytest.approx(expected, rel=1e-12)


def test_random_walk_on_spd_affine_stays_spd():
    M = get_manifold("spd", 3, "affine")
    mech = get_mechanism("brownian_motion", M)
    cal = mech.calibrate(ZCDP(0.5), 0.3, n_steps=30)
    x = mech.sample(np.diag([1.0, 2.0, 0.5]), cal, 200, np.random.default_rng(71))
    assert M.belongs(x, atol=1e-9).all()
    assert np.all(np.linalg.eigvalsh(x) > 0)
