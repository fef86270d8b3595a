"""Tests of the exact Brownian-motion samplers on S^d (every d >= 2) and on H^3.

Statistical tests use fixed seeds and alpha = 1e-6 (KS p-value threshold, or |z| < 4.89 for
two-sided normal approximations of Monte Carlo means); each names the bug it has power against.
"""

import math

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, special, stats

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import LABEL_APPROXIMATE, LABEL_EXACT, get_mechanism
from geodp_core.mechanisms import heat_kernel as hk
from geodp_core.mechanisms import hyperbolic_heat_kernel as hh
from geodp_core.mechanisms import sphere_heat_kernel as sh
from geodp_core.mechanisms.heat_diffusion import bm_zcdp_rho
from geodp_core.privacy import ZCDP
from tests.mechanisms.contract import MechanismContract

ALPHA_TEST = 1e-6
Z_CRIT = 4.89  # two-sided normal quantile for alpha = 1e-6


# =============================================================================== contracts
class TestBrownianMotionSphere3Contract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("sphere", 3)
    target = ZCDP(0.5)


class TestBrownianMotionSphere5Contract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("sphere", 5)
    target = ZCDP(0.5)


class TestBrownianMotionHyperbolic3Contract(MechanismContract):
    name = "brownian_motion"
    manifold_args = ("hyperbolic", 3)
    target = ZCDP(0.5)


def _exact_t(d, t):
    """A zCDP target whose BM calibration on S^d has diffusion time t (sensitivity 0.1)."""
    return ZCDP(bm_zcdp_rho(-(d - 1.0), 0.1, t))


# =============================================================================== S^d series
@pytest.mark.parametrize("t", [1e-3, 0.05, 1.0])
def test_sphere_series_matches_sphere2_at_d2(t):
    # The Gegenbauer CDF at d = 2 is the Legendre CDF of the S^2 code (a different formula).
    r = np.linspace(0.0, np.pi, 801)
    np.testing.assert_allclose(sh.sphere_radial_cdf(r, t, 2), hk.sphere2_radial_cdf(r, t), atol=1e-12)
    k2 = hk.sphere2_heat_kernel(r, t)
    np.testing.assert_allclose(sh.sphere_heat_kernel(r, t, 2), k2, atol=1e-11 * k2.max())


@pytest.mark.parametrize("t", [1e-3, 0.05, 0.5, 1.0, 2.0])
def test_sphere3_series_matches_image_sum(t):
    # S^3 closed form: p_t(r) = e^t (4 pi t)^{-3/2} sum_k (r + 2 pi k)/sin r e^{-(r + 2 pi k)^2/(4t)}.
    r = np.linspace(0.0, np.pi - 1e-3, 700)
    images = sh.sphere3_heat_kernel(r, t)
    direct = np.array([
        math.exp(t) / (4 * math.pi * t) ** 1.5 / math.sin(x)
        * sum((x + 2 * math.pi * k) * math.exp(-((x + 2 * math.pi * k) ** 2) / (4 * t)) for k in range(-6, 7))
        for x in r[1:]
    ])
    np.testing.assert_allclose(images[1:], direct, rtol=1e-11, atol=1e-14 * images.max())
    np.testing.assert_allclose(sh.sphere_heat_kernel(r, t, 3), images, atol=1e-11 * images.max())


@pytest.mark.parametrize("d,t", [(3, 0.01), (4, 0.02), (5, 0.1), (10, 0.01), (10, 1.0), (100, 0.01), (1000, 0.02)])
def test_sphere_density_integrates_to_one_and_is_the_cdf_derivative(d, t):
    # f = |S^{d-1}| sin^{d-1} r p_t(r) integrates to 1, F(pi) = 1, and F(r) = int_0^r f at a few radii:
    # catches a wrong constant c_d, a wrong incomplete-beta term or a misindexed series.
    f = lambda x: float(sh.sphere_radial_density(np.array([x]), t, d)[0])
    peak = math.sqrt(2 * d * t)
    total, _ = integrate.quad(f, 0.0, math.pi, points=[min(peak, 3.0)], limit=400, epsabs=1e-13)
    assert total == pytest.approx(1.0, abs=1e-9)
    assert sh.sphere_radial_cdf([math.pi], t, d)[0] == pytest.approx(1.0, abs=1e-12)
    for r in [0.3 * peak, peak, min(1.5 * peak, 3.0)]:
        r = min(r, math.pi)
        integral, _ = integrate.quad(f, 0.0, r, limit=400, epsabs=1e-13)
        assert sh.sphere_radial_cdf([r], t, d)[0] == pytest.approx(integral, abs=1e-9)
    # the kernel is the density divided by the sphere's radial area element
    area = 2 * math.pi ** (d / 2) / math.gamma(d / 2) if d < 300 else None
    if area is not None:
        x = np.minimum(np.array([0.5 * peak, peak]), 3.0)
        np.testing.assert_allclose(sh.sphere_heat_kernel(x, t, d) * area * np.sin(x) ** (d - 1),
                                   sh.sphere_radial_density(x, t, d), rtol=1e-10)


def _mp_cdf(r, t, d, n_terms):
    r, t = mp.mpf(r), mp.mpf(t)
    x, mu = mp.cos(r), mp.mpf(d + 1) / 2
    cd = mp.gamma(mp.mpf(d + 1) / 2) / (mp.sqrt(mp.pi) * mp.gamma(mp.mpf(d) / 2))
    total = mp.betainc(mp.mpf(d) / 2, mp.mpf(d) / 2, 0, mp.sin(r / 2) ** 2, regularized=True)
    sd = mp.sin(r) ** d
    for n in range(n_terms):
        total += cd * mp.exp(-(n + 1) * (n + d) * t) * (2 * n + d + 1) / mp.mpf((n + 1) * (n + d)) * sd * mp.gegenbauer(n, mu, x)
    return total


@pytest.mark.parametrize("d,t", [(5, 0.01), (10, 0.003), (30, 0.01), (100, 0.01)])
def test_sphere_cdf_matches_50_digit_mpmath(d, t):
    # Near the boundary of the usable region the terms cancel; the measured error stays far below the
    # rounding estimate that gates the series (and below 1e-11).
    plan = sh.sphere_series_plan(t, d)
    assert plan.usable
    with mp.workdps(50):
        for r in [0.05, 0.4, 1.0, 1.6, 2.5, 3.1]:
            ref = _mp_cdf(r, t, d, plan.n_terms + 40)
            err = abs(float(ref) - float(sh._series(np.array([r]), plan, want_density=False)[0][0]))
            assert err <= min(1e-11, plan.rounding_bound)


@pytest.mark.parametrize("d", [2, 3, 10, 100])
def test_erdelyi_magnus_nevai_bound_holds(d):
    # sin^d r |C_n^mu(cos r)| <= sqrt(B h_n): the inequality behind the certified truncation bound.
    mu = (d + 1) / 2
    r = np.linspace(1e-4, np.pi - 1e-4, 4001)
    log_b = math.log(2 * math.e * (2 + math.sqrt(2) * (mu - 0.5)))
    for n in [0, 1, 2, 5, 20, 50]:
        log_h = (math.log(math.pi) + (1 - 2 * mu) * math.log(2) + special.gammaln(n + 2 * mu) - special.gammaln(n + 1)
                 - math.log(n + mu) - 2 * special.gammaln(mu))
        value = np.sin(r) ** d * np.abs(special.eval_gegenbauer(n, mu, np.cos(r)))
        assert value.max() <= math.exp(0.5 * (log_b + log_h)) * (1 + 1e-12)


@pytest.mark.parametrize("d,t", [(3, 0.01), (3, 0.3), (5, 0.02), (10, 0.05), (100, 0.02)])
def test_certified_tail_bound_dominates_the_omitted_terms(d, t):
    # |sum_{n >= N} term_n(r)| <= sphere_series_tail_bound(t, d, N) for several N, at many radii.
    plan = sh.sphere_series_plan(t, d, tol=1e-30)
    r = np.linspace(0.0, np.pi, 1201)
    x = np.cos(r)
    mu = (d + 1) / 2
    terms = []
    for n in range(plan.n_terms):
        terms.append(np.exp(plan.log_cdf_coef[n] + d * np.log(np.maximum(np.sin(r), 1e-300)))
                     * special.eval_gegenbauer(n, mu, x) / special.binom(n + d, n))
    terms = np.array(terms)
    for n_kept in [1, 2, 5, 10, 20]:
        bound = sh.sphere_series_tail_bound(t, d, n_kept)
        if n_kept >= plan.n_terms or not math.isfinite(bound):
            continue
        omitted = np.abs(terms[n_kept:].sum(axis=0)).max()
        assert omitted <= bound
    assert sh.sphere_series_plan(t, d).tail_bound <= sh.SPHERE_CDF_TOL


def test_sphere_plan_regimes_are_public_and_documented():
    # Large t: one term; S^3 always available (images below t = 1); S^1000 at t = 1e-3 is between the ranges
    # of the series (t >~ 2.1e-3) and of the small-time sampler (t <~ 2.1e-4).
    assert sh.sphere_series_plan(10.0, 1000).n_terms == 1
    assert sh.sphere_exact_available(1e-9, 3)
    assert not sh.sphere_exact_available(1e-3, 1000)
    assert "cancel" in sh.sphere_exact_reason(1e-3, 1000)
    assert sh.sphere_exact_reason(0.1, 10) == ""
    methods = {(d, t): sh.sphere_sampler_method(t, d) for d, t in
               [(3, 1e-9), (3, 5.0), (4, 1e-6), (10, 0.1), (10, 1e-4), (100, 0.003), (1000, 1e-4), (1000, 1e-3)]}
    assert methods == {(3, 1e-9): "images", (3, 5.0): "series", (4, 1e-6): "girsanov", (10, 0.1): "series",
                       (10, 1e-4): "girsanov", (100, 0.003): "girsanov", (1000, 1e-4): "girsanov",
                       (1000, 1e-3): None}
    assert sh.sphere_girsanov_tv_bound(1e-4, 10) <= sh.SPHERE_GIRSANOV_TV_TOL


# =============================================================================== S^d samplers
KS_CASES = [(3, 1e-4), (3, 0.01), (3, 0.5), (3, 2.0), (5, 0.01), (5, 1.0), (10, 0.005), (10, 0.5),
            (100, 0.01), (100, 1.0), (1000, 0.01), (1000, 2.0)]


@pytest.mark.parametrize("d,t", KS_CASES)
def test_sphere_radius_ks_against_series_cdf(d, t):
    # KS at alpha = 1e-6, n = 10000, against the certified series CDF (for S^3 with t <= 1 the sampler is
    # the independent image-sum rejection sampler). Power against a wrong time scale (t/2: the Delta/2
    # generator) wherever the law is not nearly degenerate.
    radii = sh.sample_sphere_heat_radius(t, d, 10_000, np.random.default_rng(21))
    assert radii.min() >= 0 and radii.max() <= np.pi
    cdf = lambda r: sh.sphere_radial_cdf(np.clip(r, 0, np.pi), t, d)
    assert stats.kstest(radii, cdf).pvalue > ALPHA_TEST
    if t <= 0.5 and sh.sphere_exact_available(t / 2, d) and not (d == 3 and t / 2 <= 1 and t < 1e-3):
        assert stats.kstest(radii, lambda r: sh.sphere_radial_cdf(np.clip(r, 0, np.pi), t / 2, d)).pvalue < ALPHA_TEST


@pytest.mark.parametrize("d,t", [(3, 0.05), (3, 1.5), (5, 0.05), (10, 0.02), (100, 0.01), (1000, 0.01)])
def test_sphere_first_two_harmonics_have_exact_means(d, t):
    # cos r and ((d+1) cos^2 r - 1)/d are zonal harmonics with eigenvalues d and 2(d+1):
    # E = exp(-d t) and exp(-2(d+1) t) exactly. z-tests at alpha = 1e-6 (power against Delta/2).
    radii = sh.sample_sphere_heat_radius(t, d, 20_000, np.random.default_rng(5))
    c = np.cos(radii)
    for values, mean in [(c, math.exp(-d * t)), (((d + 1) * c**2 - 1) / d, math.exp(-2 * (d + 1) * t))]:
        z = (values.mean() - mean) / (values.std() / math.sqrt(values.size))
        assert abs(z) < Z_CRIT


def test_sphere_exact_matches_random_walk_in_law():
    # Two-sample KS (alpha = 1e-6): exact S^5 radius vs the geodesic random walk with 200 steps
    # (weak error O(h)), an independent construction of the same Brownian motion (generator Delta).
    M = get_manifold("sphere", 5)
    t = 0.05
    exact = sh.sample_sphere_heat_radius(t, 5, 4_000, np.random.default_rng(1))
    center = M.default_center()
    walk = M.dist(center, hk.geodesic_random_walk(M, center, t, 200, 4_000, np.random.default_rng(2)))
    assert stats.ks_2samp(exact, walk).pvalue > ALPHA_TEST
    half = M.dist(center, hk.geodesic_random_walk(M, center, t / 2, 200, 4_000, np.random.default_rng(3)))
    assert stats.ks_2samp(exact, half).pvalue < ALPHA_TEST


# =============================================================================== H^3
@pytest.mark.parametrize("t", [1e-4, 0.1, 1.0, 5.0])
def test_hyperbolic3_density_cdf_and_kernel_agree(t):
    top = 2 * t + 40 * math.sqrt(t) + 1
    f = lambda x: float(hh.hyperbolic3_radial_density(np.array([x]), t)[0])
    total, _ = integrate.quad(f, 0.0, top, points=[2 * t + math.sqrt(2 * t)], limit=400)
    assert total == pytest.approx(1.0, abs=1e-10)
    r = np.linspace(0.0, top, 500)
    # noncentral chi-square with 3 degrees of freedom, noncentrality 2t, of r^2/(2t)
    np.testing.assert_allclose(hh.hyperbolic3_radial_cdf(r, t), stats.ncx2.cdf(r**2 / (2 * t), 3, 2 * t), atol=1e-12)
    # density = 4 pi sinh^2 r p_t(r) with the closed-form kernel (4 pi t)^{-3/2} r/sinh r e^{-t - r^2/4t}
    x = r[(r > 0) & (r < 300)]
    np.testing.assert_allclose(hh.hyperbolic3_radial_density(x, t),
                               4 * np.pi * np.sinh(x) ** 2 * hh.hyperbolic3_heat_kernel(x, t), rtol=1e-11, atol=1e-300)
    kernel_mp = [float(mp.power(4 * mp.pi * t, -1.5) * mp.mpf(v) / mp.sinh(v) * mp.exp(-t - mp.mpf(v) ** 2 / (4 * t)))
                 for v in x[:20]]
    np.testing.assert_allclose(hh.hyperbolic3_heat_kernel(x[:20], t), kernel_mp, rtol=1e-12)


@pytest.mark.parametrize("t", [1e-4, 0.1, 1.0, 5.0])
def test_hyperbolic3_radius_ks_against_closed_form(t):
    # KS at alpha = 1e-6, n = 10000; power against Delta/2 (t/2).
    radii = hh.sample_hyperbolic3_heat_radius(t, 10_000, np.random.default_rng(31))
    assert radii.min() >= 0
    assert stats.kstest(radii, lambda r: hh.hyperbolic3_radial_cdf(np.maximum(r, 0), t)).pvalue > ALPHA_TEST
    assert stats.kstest(radii, lambda r: hh.hyperbolic3_radial_cdf(np.maximum(r, 0), t / 2)).pvalue < ALPHA_TEST


def test_hyperbolic3_exact_matches_random_walk_in_law():
    M = get_manifold("hyperbolic", 3)
    t = 0.3
    center = M.default_center()
    exact = hh.sample_hyperbolic3_heat_radius(t, 4_000, np.random.default_rng(4))
    walk = M.dist(center, hk.geodesic_random_walk(M, center, t, 200, 4_000, np.random.default_rng(5)))
    assert stats.ks_2samp(exact, walk).pvalue > ALPHA_TEST


# =============================================================================== mechanism
@pytest.mark.parametrize("name,d,t", [("sphere", 3, 0.004), ("sphere", 3, 1.7), ("sphere", 5, 0.01),
                                      ("sphere", 10, 0.02), ("sphere", 100, 0.02), ("sphere", 100, 0.003),
                                      ("hyperbolic", 3, 0.05)])
def test_mechanism_uses_exact_path_with_exact_label(name, d, t):
    M = get_manifold(name, d)
    mech = get_mechanism("brownian_motion", M)
    K = M.ricci_constant
    cal = mech.calibrate(ZCDP(bm_zcdp_rho(K, 0.1, t)), 0.1)
    assert cal.label == LABEL_EXACT and cal.options == {"sampler": "exact"}
    assert cal.noise["t"] == pytest.approx(t, rel=1e-9)
    assert any(n.startswith("exact sampler") for n in cal.notes)
    center = M.default_center()
    x = mech.sample(center, cal, 500, np.random.default_rng(0))
    M.validate_points(x, "x")  # on the manifold
    # The radius law does not depend on the (private) centre: same seed, other centre, same radii.
    other = M.exp(center, M.from_frame(center, np.full(d, 0.3)), check=False)
    y = mech.sample(other, cal, 500, np.random.default_rng(0))
    np.testing.assert_allclose(M.dist(other, y), M.dist(center, x), atol=1e-9)
    # the density is normalised over the radial law (not evaluable in the small-time regime of S^d, d >= 4)
    if name == "sphere" and sh.sphere_sampler_method(t, d) == "girsanov":
        assert any("Poisson thinning" in n for n in cal.notes)
        with pytest.raises(NotImplementedError):
            mech.log_density(center, x[:3], cal)
        return
    if name == "sphere":
        r = np.linspace(0.0, np.pi, 4001)
        area = 2 * math.pi ** (d / 2) / math.gamma(d / 2)
        weight = area * np.sin(r) ** (d - 1)
    else:
        r = np.linspace(0.0, 2 * t + 40 * math.sqrt(t), 4001)
        weight = 4 * np.pi * np.sinh(r) ** 2
    direction = M.from_frame(center, np.eye(d)[0])
    points = M.exp(np.broadcast_to(center, (r.size, center.size)), r[:, None] * direction, check=False)
    density = np.exp(mech.log_density(center, points, cal))
    assert integrate.simpson(weight * density, x=r) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("name,d,t", [("hyperbolic", 2, 0.05), ("hyperbolic", 4, 0.05), ("sphere", 100, 0.006),
                                      ("sphere", 1000, 0.001)])
def test_mechanism_random_walk_elsewhere_with_approximate_label(name, d, t):
    # H^d (d != 3) has no exact sampler; S^100 at t = 0.006 and S^1000 at t = 0.001 lie between the ranges of
    # the small-time sampler and of the series.
    M = get_manifold(name, d)
    mech = get_mechanism("brownian_motion", M)
    cal = mech.calibrate(ZCDP(bm_zcdp_rho(M.ricci_constant, 0.1, t)), 0.1)
    assert cal.label == LABEL_APPROXIMATE and cal.options["sampler"] == "random_walk"
    with pytest.raises(InvalidParameterError, match="sampler") as info:
        mech.calibrate(ZCDP(bm_zcdp_rho(M.ricci_constant, 0.1, t)), 0.1, sampler="exact")
    assert info.value.param == "sampler"


# =============================================================================== validation
@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf"), "1", True])
def test_bad_t_names_the_parameter(bad):
    for call in [lambda: sh.sample_sphere_heat_radius(bad, 4, 10, 0),
                 lambda: sh.sphere_radial_cdf([0.1], bad, 4),
                 lambda: sh.sphere_heat_kernel([0.1], bad, 4),
                 lambda: hh.sample_hyperbolic3_heat_radius(bad, 10, 0),
                 lambda: hh.hyperbolic3_radial_cdf([0.1], bad)]:
        with pytest.raises(InvalidParameterError) as info:
            call()
        assert info.value.param == "t" and isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [0, -3, 2.5, None])
def test_bad_size_names_the_parameter(bad):
    for call in [lambda: sh.sample_sphere_heat_radius(0.1, 4, bad, 0), lambda: hh.sample_hyperbolic3_heat_radius(0.1, bad, 0)]:
        with pytest.raises(InvalidParameterError) as info:
            call()
        assert info.value.param == "size"


def test_bad_dim_radius_and_small_t_name_the_parameter():
    with pytest.raises(InvalidParameterError) as info:
        sh.sphere_radial_cdf([0.1], 0.1, 1)
    assert info.value.param == "dim"
    with pytest.raises(InvalidParameterError) as info:
        sh.sphere_radial_cdf([0.1, 4.0], 0.1, 4)
    assert info.value.param == "radius"
    with pytest.raises(InvalidParameterError) as info:
        hh.hyperbolic3_radial_cdf([-0.1], 0.1)
    assert info.value.param == "radius"
    with pytest.raises(InvalidParameterError, match="random_walk") as info:
        sh.sample_sphere_heat_radius(1e-3, 1000, 10, 0)
    assert info.value.param == "t"


# =============================================================================== extreme times
@pytest.mark.parametrize("d", [3, 4, 10, 1000])
@pytest.mark.parametrize("t", [5e-324, 1e-300, 1e-12])
def test_sphere_tiny_t_is_the_flat_law(d, t):
    # At tiny t the S^d radius is sqrt(2t) chi_d up to a relative O(d t) correction (KS, alpha = 1e-6);
    # the image-sum (d = 3) and small-time (d >= 4) samplers have no lower limit on t and never loop
    # forever on underflow.
    radii = sh.sample_sphere_heat_radius(t, d, 5_000, np.random.default_rng(41))
    assert stats.kstest(radii, stats.chi(d, scale=math.sqrt(2 * t)).cdf).pvalue > ALPHA_TEST


@pytest.mark.parametrize("d", [3, 5, 100])
def test_sphere_huge_t_is_the_uniform_law(d):
    # t -> inf: the uniform law, radius CDF I_{sin^2(r/2)}(d/2, d/2) (KS, alpha = 1e-6).
    radii = sh.sample_sphere_heat_radius(1e300, d, 5_000, np.random.default_rng(42))
    uniform = lambda r: special.betainc(d / 2, d / 2, np.sin(np.clip(r, 0, np.pi) / 2) ** 2)
    assert stats.kstest(radii, uniform).pvalue > ALPHA_TEST
    area = 2 * math.pi ** ((d + 1) / 2) / math.gamma((d + 1) / 2)
    np.testing.assert_allclose(sh.sphere_heat_kernel([0.0, 1.0, np.pi], 1e300, d), 1 / area, rtol=1e-12)


# =============================================================================== small-time sampler (d >= 4)
@pytest.mark.parametrize("d,t", [(4, 0.005), (5, 0.002), (10, 0.004), (20, 0.008), (25, 0.0085)])
def test_small_time_sampler_ks_against_series_where_both_apply(d, t):
    # Two independent exact constructions: the Girsanov/Poisson-thinning sampler against the certified series
    # CDF (KS, alpha = 1e-6, n = 10000), with power against a 5% error in t.
    assert sh.sphere_series_plan(t, d).usable and sh._girsanov_plan(t, d).usable
    radii = sh._sample_sphere_girsanov(t, d, 10_000, np.random.default_rng(51))
    cdf = lambda r: sh.sphere_radial_cdf(np.clip(r, 0, np.pi), t, d)
    assert stats.kstest(radii, cdf).pvalue > ALPHA_TEST
    assert stats.kstest(radii, lambda r: sh.sphere_radial_cdf(np.clip(r, 0, np.pi), 1.05 * t, d)).pvalue < ALPHA_TEST


@pytest.mark.parametrize("d,t", [(4, 1e-5), (10, 1e-4), (50, 0.005), (100, 0.003), (1000, 1e-4), (1000, 2e-4)])
def test_small_time_sampler_harmonic_means(d, t):
    # Where only the small-time sampler applies: E cos r = e^{-dt}, E[((d+1)cos^2 r - 1)/d] = e^{-2(d+1)t}
    # exactly (z-tests, alpha = 1e-6, n = 20000; power against the flat law / a wrong time scale).
    assert sh.sphere_sampler_method(t, d) == "girsanov"
    radii = sh.sample_sphere_heat_radius(t, d, 20_000, np.random.default_rng(52))
    c = np.cos(radii)
    for values, mean in [(c, math.exp(-d * t)), (((d + 1) * c**2 - 1) / d, math.exp(-2 * (d + 1) * t))]:
        z = (values.mean() - mean) / (values.std() / math.sqrt(values.size))
        assert abs(z) < Z_CRIT


def test_small_time_sampler_tiny_t_is_the_flat_law():
    # t = 1e-9 on S^10: the radius is sqrt(2t) chi_10 up to a relative O(d t) correction (KS, alpha = 1e-6).
    radii = sh.sample_sphere_heat_radius(1e-9, 10, 10_000, np.random.default_rng(53))
    assert stats.kstest(radii, stats.chi(10, scale=math.sqrt(2e-9)).cdf).pvalue > ALPHA_TEST


def test_small_time_potential_is_increasing_and_matches_its_series():
    # psi = c1 (cot^2 r - 1/r^2 + 2/3) must increase on (0, pi) (the thinning rate psi(y + m) dominates psi
    # along the path); the series branch near 0 matches 40-digit mpmath.
    r = np.linspace(1e-6, np.pi - 1e-3, 100_001)
    g = sh._cot2_excess(r)
    assert np.all(np.diff(g) > 0) and g[0] >= 0
    with mp.workdps(40):
        for x in [1e-5, 0.003, 0.0199, 0.0201, 0.5, 2.0]:
            ref = mp.cot(mp.mpf(x)) ** 2 - 1 / mp.mpf(x) ** 2 + mp.mpf(2) / 3
            assert float(sh._cot2_excess(np.array([x]))[0]) == pytest.approx(float(ref), rel=1e-9)


@pytest.mark.parametrize("d,t", [(100, 0.02), (1000, 0.02), (1000, 1.0)])
def test_log_heat_kernel_on_high_dimensional_spheres(d, t):
    # p_t and 1/|S^d| exceed the doubles' range for large d: the log kernel is finite and consistent with the
    # radial density, log p + log|S^{d-1}| + (d-1) log sin r = log f (catches an overflow or a pole fallback).
    r = np.array([0.0, 0.3, 1.2, 1.5, 1.8])
    log_p = sh.sphere_log_heat_kernel(r, t, d)
    assert np.all(np.isfinite(log_p))
    log_area = math.log(2) + d / 2 * math.log(math.pi) - special.gammaln(d / 2)
    inner = r[2:]
    np.testing.assert_allclose(log_p[2:] + log_area + (d - 1) * np.log(np.sin(inner)),
                               np.log(sh.sphere_radial_density(inner, t, d)), rtol=1e-10, atol=1e-10)


def test_small_time_sampler_matches_random_walk_where_only_it_applies():
    # S^50 at t = 0.005: neither the series (cancellation) nor the images apply, so compare the small-time
    # sampler with an independent construction, the geodesic random walk (50 steps, weak error O(h)),
    # by a two-sample KS test (alpha = 1e-6); the flat law sqrt(2t) chi_50 is rejected (curvature matters).
    M = get_manifold("sphere", 50)
    t = 0.005
    assert sh.sphere_sampler_method(t, 50) == "girsanov"
    exact = sh.sample_sphere_heat_radius(t, 50, 1_000, np.random.default_rng(61))
    center = M.default_center()
    walk = M.dist(center, hk.geodesic_random_walk(M, center, t, 50, 1_000, np.random.default_rng(62)))
    assert stats.ks_2samp(exact, walk).pvalue > ALPHA_TEST
    assert stats.kstest(exact, stats.chi(50, scale=math.sqrt(2 * t)).cdf).pvalue < ALPHA_TEST
