"""Scene figures of the Explorer build with the expected traces for every display kind."""

import numpy as np
import pytest

from geodp_core.explorer import run_scenario
from geodp_core.scenario import Scenario
from geodp_core.viz import scene_figure, spd_cone_figure, spd_glyph_figure


@pytest.mark.parametrize(
    "kwargs, title",
    [
        (dict(), "3D sphere"),
        (dict(manifold="hyperbolic", data="uniform_ball", radius=1.0), "Poincaré disk"),
        (dict(manifold="spd", data="wishart", radius=1.0), "SPD(2) ellipses"),
        (dict(manifold="sphere", dim=3, data="uniform_ball"), "tangent view"),
        (dict(manifold="euclidean", dim=3, data="wrapped_normal", radius=1.0), "tangent view"),
    ],
)
def test_scene_figure_kinds(kwargs, title):
    result = run_scenario(Scenario(n=30, n_releases=10, **kwargs))
    fig = scene_figure(result)
    assert title in fig.layout.title.text
    names = [t.name for t in fig.data]
    assert any("true Fréchet mean" in (n or "") for n in names)
    assert sum("releases" in (n or "") for n in names) == len([o for o in result.outcomes if o.status == "ok"])
    for trace in fig.data:  # no NaN coordinates leak into a plot (None separators are fine)
        for axis in ("x", "y"):
            values = getattr(trace, axis, None)
            if values is not None:
                arr = np.array([v for v in values if v is not None], dtype=float)
                assert np.isfinite(arr).all()


def test_spd_glyphs_and_cone():
    result = run_scenario(Scenario(manifold="spd", data="wishart", radius=1.0, n=30, n_releases=10))
    glyphs = spd_glyph_figure(result, per_row=5)
    ok = [o for o in result.outcomes if o.status == "ok"]
    assert len(glyphs.data) == 2 + len(ok)  # data row, mean row, one row per mechanism
    labels = [a.text for a in glyphs.layout.annotations]  # row labels sit above their rows
    assert labels[0].startswith("<b>data (sample)</b>") and labels[1].startswith("<b>true mean (teaching view)</b>")
    assert all("axis ratio" in label for label in labels)
    cone = spd_cone_figure(result)
    surfaces = [t for t in cone.data if t.type == "surface"]  # the boundary ac = b², only where it crosses the box
    assert cone.data[: len(surfaces)] == tuple(surfaces) and len(surfaces) <= 2
    assert len(cone.data) == len(surfaces) + 2 + len(ok)


def test_spd_spectrum_figure_any_size():
    """SPD(m), m > 2: log-spectra relative to the public centre; their norm is the affine-invariant distance."""
    from geodp_core.explorer import run_scenario
    from geodp_core.scenario import Scenario
    from geodp_core.viz import spd_spectrum_figure
    from geodp_core.viz.spd_spectrum import relative_log_spectrum

    for scenario in (Scenario(manifold="spd", dim=4, data="wishart", radius=1.0, n=30, n_releases=10),
                     Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=1, radius=8.0,
                              n_releases=10, mechanisms=("riemannian_gaussian", "brownian_motion"))):
        result = run_scenario(scenario)
        spectra = relative_log_spectrum(result.center, result.data)
        assert spectra.shape == (len(result.data), scenario.dim)
        assert np.all(np.diff(spectra, axis=-1) <= 1e-12)  # largest first
        np.testing.assert_allclose(np.linalg.norm(spectra, axis=-1), result.manifold.dist(result.center, result.data),
                                   rtol=1e-8)
        fig = spd_spectrum_figure(result)
        ok = [o for o in result.outcomes if o.status == "ok"]
        assert len(fig.data) == 2 + len(ok)  # data, releases per available mechanism, true mean
        assert fig.layout.title.text.startswith(f"SPD({scenario.dim})")


def test_principal_directions_find_a_planted_direction():
    from geodp_core.viz.scene import principal_directions

    rng = np.random.default_rng(3)
    direction = np.zeros(50)
    direction[7] = 1.0
    coords = rng.standard_normal((400, 1))* 2.0 * direction + 0.05 * rng.standard_normal((400, 50))
    axes, shares = principal_directions(coords)
    assert axes.shape == (50, 2) and abs(abs(axes[7, 0]) - 1.0) < 1e-3
    assert shares[0] > 0.9 and shares[0] >= shares[1] > 0.0
    axes2, shares2 = principal_directions(coords[:, :2])  # d <= 2: the frame's own axes
    np.testing.assert_array_equal(axes2, np.eye(2))


def test_high_dimensional_views_show_the_ball_as_a_disk_and_every_mechanism_as_a_histogram():
    from geodp_core.viz.distances import release_distance_figure

    result = run_scenario(Scenario(manifold="sphere", dim=200, data="vmf", spread=0.02, n=60, n_releases=30,
                                   mechanisms=("riemannian_laplace", "riemannian_gaussian", "tangent_gaussian")))
    fig = scene_figure(result)
    assert "tangent view" in fig.layout.title.text and "principal direction 1" in fig.layout.xaxis.title.text
    ring = next(t for t in fig.data if "public ball" in (t.name or ""))
    np.testing.assert_allclose(np.hypot(np.asarray(ring.x, float), np.asarray(ring.y, float)), result.scenario.radius,
                               rtol=1e-6)  # Log maps B(m0, r) to the tangent ball of radius r: a disk in any projection
    hist = release_distance_figure(result)
    ok = [o for o in result.outcomes if o.status == "ok"]
    assert len(hist.data) == len(ok) == 3
    for trace, outcome in zip(hist.data, ok):
        shares = np.asarray(trace.y, float)[::2]
        assert abs(shares.sum() - 1.0) < 1e-9 and outcome.title in trace.name


def test_kendall_shapes_are_drawn_as_outlines_rotated_onto_the_mean():
    from geodp_core.viz.shapes import SHAPES_PER_PANEL

    result = run_scenario(Scenario(manifold="kendall", dim=8, data="shape_perturbation", spread=0.02, radius=0.3,
                                   n=40, n_releases=30, mechanisms=("riemannian_laplace", "tangent_gaussian")))
    fig = scene_figure(result)
    assert "Kendall" in fig.layout.title.text
    names = [t.name for t in fig.data]
    assert names.count("data shapes") == 1 and sum("private mean shapes" in n for n in names) == 2
    data = next(t for t in fig.data if t.name == "data shapes")
    # closed outlines of 8 landmarks, None-separated: 10 values per shape, at most SHAPES_PER_PANEL shapes
    assert len(data.x) == 10 * min(40, SHAPES_PER_PANEL)
    mean = next(t for t in fig.data if t.name.startswith("true mean shape"))
    outline = np.column_stack([np.asarray(mean.x, float)[:8], np.asarray(mean.y, float)[:8]])
    np.testing.assert_allclose(outline, result.true_mean, atol=1e-12)


def test_shape_space_titles_use_superscript_landmarks():
    """Figure titles of Kendall shape space read Σ¹²₂, not the plain-text label Σ^12_2."""
    from geodp_core.viz.shapes import shape_space_title

    assert shape_space_title(12) == "Kendall shapes Σ¹²₂" and "^" not in shape_space_title(5)


def test_rotations_are_drawn_as_rotation_vectors_in_the_pi_ball():
    """SO(3): every point drawn is ω = vee log(m₀ᵀR), inside the ball of radius π, |ω| = d(m₀, R)."""
    from geodp_core.explorer import run_scenario
    from geodp_core.scenario import Scenario
    from geodp_core.viz.scene import scene_figure

    result = run_scenario(Scenario(manifold="so3", dim=3, data="hand_orientations", radius=1.2, n_releases=100))
    fig = scene_figure(result)
    assert "rotation vectors" in fig.layout.title.text
    points = [t for t in fig.data if t.mode == "markers"]
    assert len(points) >= 3  # data, mean, at least one mechanism's releases
    data = np.column_stack([points[0].x, points[0].y, points[0].z]).astype(float)
    np.testing.assert_allclose(np.sort(np.linalg.norm(data, axis=1)),
                               np.sort(result.manifold.dist(result.center, result.data)), atol=1e-5)
    for trace in points:
        xyz = np.column_stack([trace.x, trace.y, trace.z]).astype(float)
        assert np.all(np.linalg.norm(xyz, axis=1) <= np.pi + 1e-5)
