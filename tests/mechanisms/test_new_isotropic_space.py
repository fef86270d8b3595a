"""A new isotropic space gets the Riemannian Laplace and Gaussian mechanisms without any edit in ``mechanisms/``.

The space is defined here only: the round 2-sphere of radius R = 2 (curvature 1/4), points stored as unit vectors
of R^3 with the metric R² × the round one. It declares its facts (diameter 2π, curvature bounds, its radial volume
``SphericalVolume(2, curvature=1/4)``); the mechanisms ask it. References are independent of the package's radial
laws: the radius laws are integrated here by adaptive quadrature of R sin(r/R) g(r) on [0, πR], and the exact GDP
accounting is checked against the unit sphere with (σ/R, Δ/R) (a sphere of curvature κ is the unit sphere scaled
by 1/√κ, same privacy loss). KS tests at alpha = 1e-6 with fixed seeds.
"""

import math

import numpy as np
import pytest
from scipy import integrate, stats

from geodp_core.geometry.radial_volume import SphericalVolume
from geodp_core.geometry.sphere import Sphere
from geodp_core.mechanisms import LABEL_EXACT, get_mechanism
from geodp_core.mechanisms.gaussian_gdp import gdp_mu
from geodp_core.privacy import GDP, PureDP

ALPHA = 1e-6
N_KS = 20_000
RADIUS = 2.0


def _angle(point_a, point_b):
    """Angle between unit vectors (the unit sphere's distance)."""
    cos = np.sum(point_a * point_b, axis=-1)
    perp = point_b - cos[..., None] * point_a
    return np.arctan2(np.linalg.norm(perp, axis=-1), cos)


class ScaledSphere(Sphere):
    """The sphere of radius R: unit vectors of R^{d+1} with the metric R² g_round (not registered: test only)."""

    name = "test_scaled_sphere"

    def __init__(self, dim, radius=RADIUS):
        super().__init__(dim)
        self.radius = float(radius)
        self.curvature_bounds = (1.0 / self.radius**2, 1.0 / self.radius**2)
        self.ricci_constant = -(self.dim - 1.0) / self.radius**2
        self.injectivity_radius = math.pi * self.radius

    diameter = math.pi * RADIUS

    @property
    def label(self):
        return f"S^{self.dim}({self.radius:g})"

    @property
    def radial_volume(self):
        return SphericalVolume(self.dim, curvature=1.0 / self.radius**2)

    def inner(self, base_point, tangent_a, tangent_b):
        return self.radius**2 * super().inner(base_point, tangent_a, tangent_b)

    def _dist(self, point_a, point_b):
        return self.radius * _angle(point_a, point_b)

    def _at_cut_locus(self, base_point, point):
        return _angle(base_point, point) >= math.pi - 1e-9  # antipodal

    def tangent_frame(self, base_point):
        return super().tangent_frame(base_point) / self.radius

    def from_frame(self, base_point, coords):
        return super().from_frame(base_point, coords) / self.radius

    def to_frame(self, base_point, tangent_vec):
        return self.radius * super().to_frame(base_point, tangent_vec)


SPACE = ScaledSphere(2)


def _center():
    base = SPACE.default_center()
    return SPACE.exp(base, SPACE.from_frame(base, np.array([0.7, -1.1])))


def _radius_cdf(profile):
    """CDF of dist(η, Y) for the density ∝ profile(r) R sin(r/R) on [0, πR] (adaptive quadrature)."""
    top = math.pi * RADIUS

    def density(r):
        return profile(r) * RADIUS * math.sin(r / RADIUS)

    total = integrate.quad(density, 0.0, top, epsabs=0.0, epsrel=1e-12, limit=200)[0]
    grid = np.linspace(0.0, top, 801)
    cumulative = np.concatenate([[0.0], np.cumsum([integrate.quad(density, a, b, epsabs=0.0, epsrel=1e-12)[0]
                                                   for a, b in zip(grid[:-1], grid[1:])])]) / total
    return lambda x: np.interp(x, grid, cumulative)


def test_the_space_is_what_it_declares():
    """Sanity of the test space itself: distances are at most the declared diameter, attained at the antipode,
    Exp/Log are inverse and |Log| is the distance."""
    rng = np.random.default_rng(0)
    points = rng.standard_normal((400, 3))
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    center = _center()
    distances = SPACE.dist(center, points)
    assert distances.max() <= SPACE.diameter
    assert SPACE.dist(center, -center) == pytest.approx(SPACE.diameter, rel=1e-12)
    back = SPACE.exp(center, SPACE.log(center, points[:5]))
    np.testing.assert_allclose(back, points[:5], atol=1e-12)
    np.testing.assert_allclose(SPACE.norm(center, SPACE.log(center, points[:5])), distances[:5], rtol=1e-12)


def test_riemannian_laplace_samples_the_exact_law_on_a_new_space():
    """Power against sampling with the unit sphere's J (radius π range) or Exp of an unscaled radius."""
    mechanism = get_mechanism("riemannian_laplace", SPACE)
    assert mechanism.available().ok
    calibration = mechanism.calibrate(PureDP(1.0), 0.8)
    sigma = calibration.noise["sigma"]
    assert sigma == pytest.approx(0.8) and calibration.label == LABEL_EXACT
    center = _center()
    releases = mechanism.sample(center, calibration, N_KS, np.random.default_rng(5))
    assert np.all(SPACE.belongs(releases))
    radii = SPACE.dist(center, releases)
    cdf = _radius_cdf(lambda r: math.exp(-r / sigma))
    assert stats.kstest(radii, cdf).pvalue > ALPHA
    assert stats.kstest(radii / RADIUS, cdf).pvalue < ALPHA  # a unit-sphere radius is distinguishable
    capped = mechanism.calibrate(PureDP(1.0), 10.0)
    assert capped.noise["sigma"] == pytest.approx(2.0 * math.pi)
    assert any("diameter" in note and "6.28" in note for note in capped.notes)


def test_riemannian_gaussian_gets_exact_gdp_accounting_on_a_new_sphere():
    """μ(σ, Δ) on the sphere of radius R is μ on the unit sphere at (σ/R, Δ/R); the sampler is exact."""
    mechanism = get_mechanism("riemannian_gaussian", SPACE)
    calibration = mechanism.calibrate(GDP(1.0), 0.6)
    sigma = calibration.noise["sigma"]
    mu = gdp_mu("sphere", 2, sigma / RADIUS, 0.6 / RADIUS)
    assert calibration.label == LABEL_EXACT and calibration.achieved == GDP(mu)
    assert 0.99 <= mu <= 1.0
    assert any("S²(2)" in note and "κ = 0.25" in note for note in calibration.notes)
    center = _center()
    radii = SPACE.dist(center, mechanism.sample(center, calibration, N_KS, np.random.default_rng(6)))
    assert stats.kstest(radii, _radius_cdf(lambda r: math.exp(-0.5 * (r / sigma) ** 2))).pvalue > ALPHA


# ------------------------------------------------------------------- the facts the mechanisms ask
@pytest.mark.parametrize("space, dim, profile, scale", [("euclidean", 3, "laplace", 0.7), ("euclidean", 4, "gaussian", 1.3),
                                                        ("hyperbolic", 2, "laplace", 0.6), ("hyperbolic", 3, "gaussian", 0.9),
                                                        ("hyperbolic", 5, "laplace", 0.2)])
def test_radius_tail_bounds_hold_for_the_exact_radial_laws(space, dim, profile, scale):
    """P[r > q] <= tail for the release-reach bound q of the volume (flat: exact quantile; H^d: a dominating law)."""
    from geodp_core.geometry import get_manifold

    manifold = get_manifold(space, dim)
    law = manifold.radial_law(profile, scale)
    for tail in (1e-3, 1e-6):
        q = manifold.radial_volume.radius_tail_bound(profile, scale, tail)
        assert 1.0 - float(law.cdf(np.array([q]))[0]) <= tail * (1.0 + 1e-6)
    flat_exact = manifold.radial_volume.is_flat
    if flat_exact:  # the flat bound is the exact quantile, not only a bound
        q = manifold.radial_volume.radius_tail_bound(profile, scale, 1e-3)
        assert 1.0 - float(law.cdf(np.array([q]))[0]) == pytest.approx(1e-3, rel=1e-6)
    assert SPACE.radial_volume.radius_tail_bound(profile, scale, 1e-6) is None  # bounded range: not needed


def test_hyperbolic_exp_polar_is_exp_and_stays_accurate_far_away():
    from geodp_core.geometry import get_manifold

    h3 = get_manifold("hyperbolic", 3)
    center = h3.exp(h3.default_center(), h3.from_frame(h3.default_center(), np.array([0.4, -0.2, 1.0])))
    units = h3.random_unit_tangent(center, 6, np.random.default_rng(0))
    coords = h3.to_frame(center, units)
    radii = np.array([0.0, 1e-9, 0.3, 2.0, 10.0, 25.0])
    np.testing.assert_allclose(h3.exp_polar(center, radii, coords),
                               h3.exp(center, radii[:, None] * units), rtol=1e-10, atol=1e-12)
    far = h3.exp_polar(center, np.full(6, 300.0), coords)
    assert np.all(h3.belongs(far))
    np.testing.assert_allclose(h3.dist(center, far), 300.0, rtol=1e-9)
