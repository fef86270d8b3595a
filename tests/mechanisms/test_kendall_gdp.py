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
