"""Fréchet means and their sensitivity on the Kendall shape space (curvature in [1, 4]: r* = π/8)."""

import warnings

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.summaries import (
    empirical_sensitivity,
    frechet_mean,
    frechet_mean_sensitivity,
    p_mean,
    validate_public_ball,
)

SEED = 20261125


def _ball_data(shapes, radius, n, rng):
    center = shapes.default_center()
    radii = radius * rng.uniform(0, 1, (n, 1, 1)) ** (1.0 / shapes.dim)
    return center, shapes.exp(center, radii * shapes.random_unit_tangent(center, n, rng))


@pytest.mark.parametrize("k", [3, 6])
def test_frechet_mean_is_stationary_and_agrees_with_geomstats(k):
    shapes = get_manifold("kendall", k)
    rng = np.random.default_rng(SEED)
    _, points = _ball_data(shapes, 0.35, 30, rng)
    mean = frechet_mean(shapes, points)
    assert shapes.belongs(mean)
    assert np.linalg.norm(shapes.log(mean, points).mean(axis=0)) < 1e-9  # zero Riemannian gradient
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from geomstats.geometry.pre_shape import PreShapeSpace
        from geomstats.learning.frechet_mean import FrechetMean

        space = PreShapeSpace(k, 2)
        space.equip_with_group_action("rotations")
        space.equip_with_quotient()
        estimator = FrechetMean(space.quotient)
        estimator.optimizer.epsilon = 1e-12
        estimator.optimizer.max_iter = 10_000
        estimator.fit(points)
    assert shapes.dist(mean, estimator.estimate_) < 1e-5  # geomstats stops at gradient ~1e-6
    # invariant under rotating individual records (points are shapes, not configurations)
    angles = rng.uniform(0, 2 * np.pi, (30, 1))
    z = (points[..., 0] + 1j * points[..., 1]) * np.exp(1j * angles)
    rotated = np.stack([z.real, z.imag], axis=-1)
    assert shapes.dist(frechet_mean(shapes, rotated), mean) < 1e-9


def test_sensitivity_uses_curvature_four_and_bounds_the_empirical_change():
    shapes = get_manifold("kendall", 5)
    kappa = shapes.curvature_bounds[1]
    assert kappa == 4.0 and shapes.ball_radius_limit == pytest.approx(np.pi / 8)
    radius = 0.3
    rng = np.random.default_rng(SEED + 1)
    center, points = _ball_data(shapes, radius, 40, rng)
    delta = frechet_mean_sensitivity(40, radius, kappa)
    h = 2 * radius * 2 * (1 / np.tan(2 * radius * 2))  # 2r sqrt(κ) cot(2r sqrt(κ))
    assert delta == pytest.approx(2 * radius * (2 - h) / (40 * h), rel=1e-12)
    observed = empirical_sensitivity(shapes, lambda x: frechet_mean(shapes, x), points, center, radius, 12, rng)
    assert observed.max_change <= delta
    with pytest.raises(InvalidParameterError, match="radius"):
        frechet_mean_sensitivity(40, np.pi / 8, kappa)
    with pytest.raises(InvalidParameterError, match="radius"):
        validate_public_ball(shapes, center, 0.4)  # > r* = π/8 ≈ 0.3927


def test_p_mean_on_shapes():
    shapes = get_manifold("kendall", 4)
    _, points = _ball_data(shapes, 0.3, 25, np.random.default_rng(SEED + 2))
    median = p_mean(shapes, points, 1.5)
    assert shapes.belongs(median)
