"""Planar shape data on the Kendall shape space: templates, perturbation model, uniform balls, cell outlines."""

import numpy as np
import pytest
from scipy import stats

from geodp_core.data import (
    arch_template,
    ellipse_template,
    list_datasets,
    load_planar_cells,
    resample_closed_curve,
    sample_landmark_perturbation,
    sample_uniform_ball,
)
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold

SEED = 20261125


def test_ellipse_template_is_a_preshape_and_aspect_one_is_the_regular_polygon():
    shapes = get_manifold("kendall", 7)
    template = ellipse_template(7, 2.5)
    assert shapes.belongs(template)
    assert shapes.same_shape(ellipse_template(7, 1.0), shapes.default_center())
    assert shapes.dist(template, shapes.default_center()) > 0.1
    with pytest.raises(InvalidParameterError, match="aspect"):
        ellipse_template(7, 0.5)
    with pytest.raises(InvalidParameterError, match="k"):
        ellipse_template(2)


def test_arch_template_is_a_preshape_far_from_the_circle():
    shapes = get_manifold("kendall", 12)
    arch = arch_template(12)
    assert shapes.belongs(arch)
    assert shapes.dist(arch, shapes.default_center()) > 0.5  # a public geodesic of length about 0.7 to the circle
    assert arch_template(5).shape == (5, 2)
    with pytest.raises(InvalidParameterError, match="k"):
        arch_template(2)


def test_landmark_perturbation_model():
    shapes = get_manifold("kendall", 8)
    template = ellipse_template(8)
    points = sample_landmark_perturbation(shapes, template, 0.05, 200, SEED)
    assert points.shape == (200, 8, 2) and shapes.belongs(points).all()
    radii = shapes.dist(template, points)
    assert 0 < np.median(radii) < 0.3
    exact = sample_landmark_perturbation(shapes, template, 0.0, 3, SEED)
    np.testing.assert_allclose(exact, np.broadcast_to(template, exact.shape), atol=1e-12)
    with pytest.raises(InvalidParameterError, match="manifold"):
        sample_landmark_perturbation(get_manifold("sphere", 2), template, 0.1, 5, SEED)
    with pytest.raises(InvalidParameterError, match="template"):
        sample_landmark_perturbation(shapes, template + 1.0, 0.1, 5, SEED)


def test_uniform_ball_on_kendall_has_radius_cdf_sin_ratio():
    shapes = get_manifold("kendall", 5)
    center, radius, d = ellipse_template(5), 0.6, shapes.dim
    points = sample_uniform_ball(shapes, center, radius, 3000, SEED)
    radii = shapes.dist(center, points)
    assert radii.max() <= radius + 1e-12
    cdf = lambda r: (np.sin(np.clip(r, 0, radius)) / np.sin(radius)) ** d
    assert stats.kstest(radii, cdf).pvalue > 1e-4


def test_resample_closed_curve_by_arc_length():
    angles = np.linspace(0, 2 * np.pi, 2000, endpoint=False)
    circle = np.stack([np.cos(angles), np.sin(angles)], axis=-1)
    points = resample_closed_curve(circle, 10)
    steps = np.linalg.norm(np.diff(np.concatenate([points, points[:1]]), axis=0), axis=1)
    np.testing.assert_allclose(steps, 2 * np.sin(np.pi / 10), rtol=1e-5)
    np.testing.assert_allclose(points[0], circle[0])
    square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    np.testing.assert_allclose(resample_closed_curve(square, 8),
                               [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2], [0, 1]], atol=1e-12)
    with pytest.raises(InvalidParameterError, match="curve"):
        resample_closed_curve(square[:2], 5)
    with pytest.raises(InvalidParameterError, match="curve"):
        resample_closed_curve(np.ones((5, 2)), 5)
    with pytest.raises(InvalidParameterError, match="curve"):
        resample_closed_curve(np.full((5, 2), np.nan), 5)


def test_planar_cells_load_offline_as_shapes():
    cells = load_planar_cells(16)
    assert cells.n_points == 650 and cells.points.shape == (650, 16, 2)
    assert cells.manifold_spec == ("kendall", 16, None)
    assert cells.manifold().belongs(cells.points).all()
    assert "not available offline" in cells.description and "corpus callosum" in cells.description
    subset = load_planar_cells(16, cell_line="dunn", treatment="control")
    assert subset.n_points == 204 and set(subset.labels) == {"dunn/control"}
    subset.points[0, 0, 0] = 99.0  # fresh copies: the cache is untouched
    assert load_planar_cells(16, cell_line="dunn", treatment="control").points[0, 0, 0] != 99.0
    with pytest.raises(InvalidParameterError, match="cell_line"):
        load_planar_cells(16, cell_line="hela")
    assert "cells" not in list_datasets()  # core-only: the app's dataset list is unchanged
