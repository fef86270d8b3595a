"""The exact Riemannian Laplace / Gaussian samplers after their speed-up: the same algorithm gives the same releases,
and every sampler still follows its exact law.

Statistical tests: KS, alpha = 1e-6 per statistic, fixed seeds.
"""

import numpy as np
import pytest
from scipy import stats

from geodp_core.geometry import get_manifold
from geodp_core.geometry.spd_polar import sample_eigen_logs
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import GDP, PureDP

ALPHA = 1e-6
SEED = 20261127
SPACES = [("sphere", 2), ("sphere", 5), ("hyperbolic", 2), ("hyperbolic", 4), ("kendall", 6), ("euclidean", 3),
          ("spd", 2, "log_euclidean")]


def _center(manifold):
    """A public centre away from the default point (its tangent frame is not the trivial one)."""
    base = manifold.default_center()
    coords = np.linspace(0.3, 0.9, manifold.dim)
    return manifold.exp(base, manifold.from_frame(base, 0.6 * coords / np.linalg.norm(coords)))


def _calibrated(name, manifold, sensitivity=0.3):
    mechanism = get_mechanism(name, manifold)
    target = PureDP(1.0) if name == "riemannian_laplace" else GDP(1.0)
    return mechanism, mechanism.calibrate(target, sensitivity)


@pytest.mark.parametrize("name", ["riemannian_laplace", "riemannian_gaussian"])
@pytest.mark.parametrize("args", SPACES)
def test_releases_are_those_of_the_reference_construction(args, name):
    # radius from the radial law, direction = random_unit_tangent (the same normal draws), Y = Exp_η(r u)
    manifold = get_manifold(*args)
    mechanism, calibration = _calibrated(name, manifold)
    center = _center(manifold)
    got = mechanism.sample(center, calibration, 3000, np.random.default_rng(SEED))
    rng = np.random.default_rng(SEED)
    radii = mechanism._radial_law(calibration.noise["sigma"]).sample(3000, rng)
    directions = manifold.random_unit_tangent(center, 3000, rng)
    expected = manifold.exp(center, radii.reshape((-1,) + (1,) * len(manifold.point_shape)) * directions)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-11)


@pytest.mark.parametrize("name", ["riemannian_laplace", "riemannian_gaussian"])
@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("kendall", 12), ("sphere", 30)])
def test_distances_follow_the_exact_radial_law(args, name):
    manifold = get_manifold(*args)
    mechanism, calibration = _calibrated(name, manifold, sensitivity=0.2)
    center = _center(manifold)
    releases = mechanism.sample(center, calibration, 20_000, np.random.default_rng(SEED))
    distances = manifold.dist(center, releases)
    assert stats.kstest(distances, lambda t: mechanism.distance_cdf(calibration, t)).pvalue > ALPHA
    # isotropy: the direction's first frame coordinate of a uniform unit vector in R^d has a known law
    logs = manifold.log(np.broadcast_to(center, releases.shape), releases)
    first = manifold.to_frame(center, logs)[:, 0] / np.linalg.norm(manifold.to_frame(center, logs), axis=1)
    d = manifold.dim
    reference = stats.beta((d - 1) / 2, (d - 1) / 2, loc=-1, scale=2) if d > 1 else None
    assert stats.kstest(first, reference.cdf).pvalue > ALPHA


@pytest.mark.parametrize("name", ["riemannian_laplace", "riemannian_gaussian"])
def test_spd3_affine_distance_follows_the_eigen_log_law(name):
    # dist(η, Y) = |r| for the polar sampler: two-sample KS against eigen-logs drawn with the exponential envelope
    # (uniform directions, no Vandermonde directions, no Haar matrices), at a centre that is not the identity.
    manifold = get_manifold("spd", 3, "affine")
    mechanism, calibration = _calibrated(name, manifold)
    center = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, 0.2], [0.1, 0.2, 1.5]])
    releases = mechanism.sample(center, calibration, 20_000, np.random.default_rng(SEED))
    assert manifold.belongs(releases).all()
    reference = sample_eigen_logs(3, mechanism.profile, calibration.noise["sigma"], 20_000,
                                  np.random.default_rng(SEED + 1), method="exponential")
    assert stats.ks_2samp(manifold.dist(center, releases), np.linalg.norm(reference, axis=1)).pvalue > ALPHA
    # the eigenvalue spread (Vandermonde part of the law): gap between the extreme eigen-logs
    inv_sqrt = np.linalg.inv(np.linalg.cholesky(center))
    logs = np.log(np.linalg.eigvalsh(inv_sqrt @ releases @ inv_sqrt.T))
    assert stats.ks_2samp(logs[:, -1] - logs[:, 0], np.ptp(reference, axis=1)).pvalue > ALPHA
