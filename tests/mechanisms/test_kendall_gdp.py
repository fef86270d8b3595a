"""Exact GDP accounting of the Riemannian Gaussian on Kendall shape spaces (``kendall_gdp``).

References independent of the quadrature: the unit sphere's own quadrature (k = 3: Σ^3_2 = S²(1/2), so the
profile with (σ, Δ) is the sphere's with (2σ, 2Δ)), Monte Carlo privacy profiles computed from Kendall
distances of exact releases (k = 4, 8), the flat limit μ → Δ/σ, and the valid (looser) bounded-diameter bound.
"""

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.radial import RadialLaw
from geodp_core.mechanisms.gaussian_gdp import gdp_mu, privacy_profile
from geodp_core.mechanisms.kendall_gdp import (
    QUADRATURE_MARGIN,
    kendall_gaussian_calibration,
    kendall_gdp_mu,
    kendall_privacy_profile,
)
from geodp_core.privacy import eps_dp_to_gdp


@pytest.mark.parametrize("sigma, delta", [(0.2, 0.25), (0.05, 0.02), (1.0, 0.5), (0.3, 1.2), (3.0, 1.5),
                                          (0.5, 1.57)])
def test_triangles_match_the_sphere_quadrature(sigma, delta):
    eps = np.linspace(0.0, delta * (np.pi - delta) / (2 * sigma**2), 9)[:-1]
    np.testing.assert_allclose(kendall_privacy_profile(3, sigma, delta, eps),
                               privacy_profile("sphere", 2, 2 * sigma, 2 * delta, eps), rtol=1e-8, atol=1e-300)
    mu = kendall_gdp_mu(3, sigma, delta)
    assert mu == pytest.approx(gdp_mu("sphere", 2, 2 * sigma, 2 * delta) * (1 + QUADRATURE_MARGIN), rel=1e-7)


@pytest.mark.parametrize("k, sigma, delta", [(4, 0.2, 0.25), (4, 1.0, 1.2), (8, 0.1, 0.1), (8, 2.0, 1.5)])
def test_profile_matches_monte_carlo_from_kendall_distances(k, sigma, delta):
    shapes = get_manifold("kendall", k)
    rng = np.random.default_rng(k)
    size = 400_000
    center = shapes.random_uniform(1, rng)[0]
    other = shapes.exp(center, delta * shapes.random_unit_tangent(center, 1, rng)[0])
    radii = RadialLaw("kendall", shapes.dim, "gaussian", sigma).sample(size, rng)
    releases = shapes.exp(center, radii[:, None, None] * shapes.random_unit_tangent(center, size, rng), check=False)
    loss = (shapes.dist(other, releases) ** 2 - shapes.dist(center, releases) ** 2) / (2 * sigma**2)
    eps = np.array([0.0, 0.1, 0.3, 0.6, 1.0])
    eps = eps[eps < delta * (np.pi - delta) / (2 * sigma**2)]
    monte_carlo = np.array([np.mean(loss > e) - np.exp(e) * np.mean(loss < -e) for e in eps])
    # Monte Carlo standard error <= ~1.6e-3 here (the e^eps P[L < -eps] term included)
    np.testing.assert_allclose(kendall_privacy_profile(k, sigma, delta, eps), monte_carlo, atol=6e-3)


def test_flat_limit_and_the_bounded_diameter_bound():
    assert kendall_gdp_mu(6, 1e-3, 1e-3) == pytest.approx(1.0, rel=1e-3)  # curvature invisible at scale σ
    for k, sigma, delta in [(4, 0.3, 0.2), (8, 1.0, 1.0), (20, 0.2, 0.5)]:
        mu = kendall_gdp_mu(k, sigma, delta)
        assert mu < delta / sigma  # positive curvature: below the flat value
        assert mu <= eps_dp_to_gdp(delta * (np.pi - delta) / (2 * sigma**2))  # below the valid ε-DP bound
    assert kendall_gdp_mu(5, 0.4, 0.3) > kendall_gdp_mu(5, 0.8, 0.3) > kendall_gdp_mu(5, 1.6, 0.3)


@pytest.mark.parametrize("k, mu, delta", [(4, 1.0, 0.1), (6, 0.5, 0.6), (8, 2.0, 0.3), (5, 1.0, 1e-4)])
def test_calibration_meets_the_budget_and_wastes_at_most_one_percent(k, mu, delta):
    sigma, achieved = kendall_gaussian_calibration(k, mu, delta)
    assert 0.99 * mu <= achieved <= mu
    assert kendall_gdp_mu(k, sigma, delta) == achieved


def test_bad_arguments_name_the_parameter():
    with pytest.raises(InvalidParameterError, match="sensitivity"):
        kendall_gdp_mu(5, 0.3, 2.0)  # beyond the diameter pi/2
    with pytest.raises(InvalidParameterError, match="k"):
        kendall_gdp_mu(2, 0.3, 0.1)
    with pytest.raises(InvalidParameterError, match="sigma"):
        kendall_privacy_profile(5, -1.0, 0.1, [0.0])


def test_mu_increases_with_the_distance_of_the_pair():
    """The accounting uses a pair at distance exactly Δ (as on the sphere): closer pairs must be no worse."""
    mus = [kendall_gdp_mu(4, 0.3, d) for d in (0.05, 0.3, 0.7, 1.1, 1.5, np.pi / 2)]
    assert np.all(np.diff(mus) > 0)


# ----------------------------------------------------------- every k the app offers (k > 20 used a loose bound)
def _reference_profile(k, sigma, delta, eps):
    """Independent reference of the profile: adaptive QUADPACK (``scipy.integrate.quad``) in double precision on
    the naive arc formula P[cos φ < t], t = (c² − A² − B²ρ²)/(2ABρ), nested over ρ (density 2(n−1)ρ(1−ρ²)^(n−2))
    and r (density ∝ e^(−r²/2σ²) sin^(d−1) r cos r). Accurate where δ is not tiny (the two tail probabilities
    cancel in double precision below δ ~ 1e-12), i.e. on the bulk of the profile where μ binds. ρ is split at the
    kinks |c ∓ A|/B where an arc becomes empty or full."""
    import math

    from scipy import integrate, optimize

    n, d = k - 2, 2 * (k - 2)

    def log_radial(r):
        return (d - 1) * math.log(math.sin(r)) + math.log(math.cos(r)) - r * r / (2 * sigma * sigma)

    mode = optimize.brentq(lambda r: (d - 1) / math.tan(r) - math.tan(r) - r / sigma**2, 1e-12, math.pi / 2 - 1e-12)
    width = ((d - 1) / math.sin(mode) ** 2 + 1 / math.cos(mode) ** 2 + 1 / sigma**2) ** -0.5
    low, high = max(1e-300, mode - 40 * width), min(math.pi / 2, mode + 40 * width)
    points = [mode + j * width for j in (-8, -4, -2, -1, 0, 1, 2, 4, 8) if low < mode + j * width < high]
    peak = log_radial(mode)
    options = dict(points=points, limit=400, epsabs=1e-15, epsrel=1e-10)
    norm = integrate.quad(lambda r: math.exp(log_radial(r) - peak), low, high, **options)[0]
    rho_points = [min(0.999, j / math.sqrt(2 * n - 3)) for j in (0.5, 1, 2, 4)]

    def tails(r):
        a, b = math.cos(r) * math.cos(delta), math.sin(r) * math.sin(delta)
        s_plus, s_minus = r * r + 2 * sigma**2 * eps, r * r - 2 * sigma**2 * eps

        def arc(c2, upper):
            def f(q):
                t = min(1.0, max(-1.0, (c2 - a * a - b * b * q * q) / (2 * a * b * q)))
                p = 1 - math.acos(t) / math.pi if upper else math.acos(t) / math.pi
                return 2 * (n - 1) * q * (1 - q * q) ** (n - 2) * p

            c = math.sqrt(c2)  # kinks where t = ±1: rho = |c - A|/B and (c + A)/B
            kinks = sorted(x for x in (abs(c - a) / b, (c + a) / b) if 0.0 < x < 1.0)
            edges = [0.0] + kinks + [1.0]
            return sum(integrate.quad(f, lo, hi, points=[x for x in rho_points if lo < x < hi] or None, limit=400,
                                      epsabs=1e-15, epsrel=1e-11)[0] for lo, hi in zip(edges[:-1], edges[1:]))

        upper = arc(math.cos(math.sqrt(s_plus)) ** 2, True) if s_plus < (math.pi / 2) ** 2 else 0.0
        lower = arc(math.cos(math.sqrt(s_minus)) ** 2, False) if s_minus > 0 else 0.0
        return upper, lower

    cache = {}

    def weighted(r, which):
        if r not in cache:
            cache[r] = tails(r)
        return math.exp(log_radial(r) - peak) * cache[r][which] / norm

    upper = integrate.quad(lambda r: weighted(r, 0), low, high, **options)[0]
    lower = integrate.quad(lambda r: weighted(r, 1), low, high, **options)[0]
    return upper - math.exp(eps) * lower


def test_exact_accounting_reaches_every_k_the_app_offers():
    from geodp_core.constraints import dim_range
    from geodp_core.mechanisms.kendall_gdp import KENDALL_EXACT_MAX_K

    assert KENDALL_EXACT_MAX_K >= dim_range("kendall")[1]


@pytest.mark.slow
@pytest.mark.parametrize("k, sigma, delta", [(25, 0.2, 0.1), (50, 0.05, 0.02), (100, 0.2, 0.1)])
def test_large_k_profile_and_mu_match_an_independent_reference(k, sigma, delta):
    """Profile to 1e-5 relative on its bulk (ε ≤ 1.5, δ down to ~1e-11; measured <= 2e-6) and μ = the reference's
    sup over an ε grid (where μ binds) to 1e-6 relative before the 1e-5 safety margin; μ stays below the ε-DP
    bound's and below the flat Δ/σ."""
    from scipy import optimize

    from geodp_core.privacy import gdp_delta

    grid = np.array([0.0, 0.25, 0.5, 1.0, 1.5])
    reference = np.array([_reference_profile(k, sigma, delta, float(e)) for e in grid])
    np.testing.assert_allclose(kendall_privacy_profile(k, sigma, delta, grid), reference, rtol=1e-5)
    mu_grid = max(optimize.brentq(lambda m: float(gdp_delta(m, float(e))) - r, 1e-6, 50.0, xtol=1e-14)
                  for e, r in zip(grid, reference))
    mu = kendall_gdp_mu(k, sigma, delta)
    assert mu_grid <= mu <= mu_grid * (1 + QUADRATURE_MARGIN) * (1 + 1e-6)
    assert mu < delta / sigma and mu < eps_dp_to_gdp(delta * (np.pi - delta) / (2 * sigma**2))
