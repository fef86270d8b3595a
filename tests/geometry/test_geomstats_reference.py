"""Closed forms agree with geomstats (the reference implementation) and with the table of docs/specification.md §1.2."""

import numpy as np
import pytest
from geomstats.geometry.hyperboloid import Hyperboloid
from geomstats.geometry.hypersphere import Hypersphere
from geomstats.geometry.spd_matrices import SPDAffineMetric, SPDLogEuclideanMetric, SPDMatrices

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold


def _points(manifold, rng, n, radius):
    center = manifold.default_center()
    coords = rng.standard_normal((n, manifold.dim)) * radius / np.sqrt(manifold.dim)
    return manifold.exp(center, manifold.from_frame(center, coords))


@pytest.mark.parametrize(
    "args, reference",
    [
        (("sphere", 2), lambda: Hypersphere(2)),
        (("sphere", 3), lambda: Hypersphere(3)),
        (("hyperbolic", 2), lambda: Hyperboloid(2)),
        (("spd", 2, "affine"), lambda: SPDMatrices(2, equip=False).equip_with_metric(SPDAffineMetric)),
        (("spd", 3, "log_euclidean"), lambda: SPDMatrices(3, equip=False).equip_with_metric(SPDLogEuclideanMetric)),
    ],
)
def test_against_geomstats(args, reference):
    manifold = get_manifold(*args)
    space = reference()
    rng = np.random.default_rng(7)
    a, b = _points(manifold, rng, 6, 1.0), _points(manifold, rng, 6, 1.0)
    np.testing.assert_allclose(manifold.dist(a, b), space.metric.dist(a, b), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(manifold.log(a, b), space.metric.log(b, a), rtol=1e-6, atol=1e-8)
    vec = manifold.log(a, b)
    np.testing.assert_allclose(manifold.exp(a, vec), space.metric.exp(vec, a), rtol=1e-6, atol=1e-8)


def test_log_cholesky_distance_closed_form():
    """Lin (2019): d^2 = |strict lower(L - K)|_F^2 + |log diag L - log diag K|^2."""
    manifold = get_manifold("spd", 3, "log_cholesky")
    rng = np.random.default_rng(3)
    a, b = _points(manifold, rng, 2, 1.0)
    la, lb = np.linalg.cholesky(a), np.linalg.cholesky(b)
    expected = np.sqrt(np.sum(np.tril(la - lb, -1) ** 2) + np.sum((np.log(np.diag(la)) - np.log(np.diag(lb))) ** 2))
    assert manifold.dist(a, b) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "args, K, k_high, inj, rstar, hadamard",
    [
        (("sphere", 2), -1.0, 1.0, np.pi, np.pi / 4, False),
        (("sphere", 5), -4.0, 1.0, np.pi, np.pi / 4, False),
        (("hyperbolic", 3), 2.0, -1.0, np.inf, np.inf, True),
        (("spd", 2, "affine"), 1.0, 0.0, np.inf, np.inf, True),
        (("spd", 2, "log_euclidean"), 0.0, 0.0, np.inf, np.inf, True),
        (("spd", 3, "log_cholesky"), 0.0, 0.0, np.inf, np.inf, True),
        (("euclidean", 4), 0.0, 0.0, np.inf, np.inf, True),
    ],
)
def test_spec_table(args, K, k_high, inj, rstar, hadamard):
    manifold = get_manifold(*args)
    assert manifold.ricci_constant == K
    assert manifold.curvature_bounds[1] == k_high
    assert manifold.injectivity_radius == inj
    assert manifold.ball_radius_limit == rstar
    assert manifold.is_hadamard is hadamard
    assert manifold.is_homogeneous


def test_spd_dimension_and_curvature():
    manifold = get_manifold("spd", 3)
    assert manifold.dim == 6 and manifold.metric == "affine"
    assert manifold.curvature_bounds == (-0.5, 0.0)


def test_poincare_round_trip():
    manifold = get_manifold("hyperbolic", 2)
    rng = np.random.default_rng(1)
    pts = _points(manifold, rng, 10, 2.0)
    ball = manifold.to_poincare(pts)
    assert np.all(np.linalg.norm(ball, axis=1) < 1)
    np.testing.assert_allclose(manifold.from_poincare(ball), pts, rtol=1e-10)


def test_radial_density_sphere_matches_table():
    manifold = get_manifold("sphere", 3)
    np.testing.assert_allclose(np.exp(manifold.radial_log_density(1.0)), np.sin(1.0) ** 2)
    manifold = get_manifold("hyperbolic", 3)
    np.testing.assert_allclose(np.exp(manifold.radial_log_density(1.0)), np.sinh(1.0) ** 2)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(name="torus", dim=2), "name"),
        (dict(name="sphere", dim=0), "dim"),
        (dict(name="sphere", dim=2.5), "dim"),
        (dict(name="sphere", dim=True), "dim"),
        (dict(name="spd", dim=2, metric="bures"), "metric"),
        (dict(name="sphere", dim=2, metric="affine"), "metric"),
    ],
)
def test_get_manifold_validation(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        get_manifold(**kwargs)


def test_check_radius_enforces_rstar():
    sphere = get_manifold("sphere", 2)
    assert sphere.check_radius(0.5) == 0.5
    with pytest.raises(InvalidParameterError, match=r"radius.*0.785"):
        sphere.check_radius(0.8)
    with pytest.raises(InvalidParameterError, match="radius"):
        get_manifold("hyperbolic", 2).check_radius(-1.0)
