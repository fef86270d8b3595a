"""The Explorer's figures show the data: framing, camera, draw order, legends, titles and payload."""

import math

import numpy as np
import pytest

from geodp_core.explorer import run_scenario
from geodp_core.scenario import Scenario
from geodp_core.viz import (
    CAMERA_PRESETS,
    scene_figure,
    spd_cone_figure,
    spd_glyph_figure,
)
from geodp_core.viz.scene import MAX_DATA_DRAWN, MAX_ELLIPSES_DRAWN, MAX_RELEASES_DRAWN

PAYLOAD_LIMIT = 250_000  # characters of figure JSON per Explorer run
MEAN = "true Fréchet mean"


@pytest.fixture(scope="module")
def disk_result():
    return run_scenario(Scenario(manifold="hyperbolic", data="uniform_ball", n_releases=50))


@pytest.fixture(scope="module")
def spd_result():
    return run_scenario(Scenario(manifold="spd", data="uniform_ball"))


@pytest.fixture(scope="module")
def sphere_result():
    return run_scenario(Scenario())


def _ok(result):
    return [o for o in result.outcomes if o.status == "ok"]


def _explorer_figures(result):
    """The figures the Explorer page draws for one result."""
    figures = [scene_figure(result)]
    if result.manifold.name == "spd" and result.manifold.m == 2:
        figures += [spd_glyph_figure(result), spd_cone_figure(result)]
    return figures


def _index(fig, predicate):
    return [i for i, trace in enumerate(fig.data) if predicate(trace.name or "")]


# --------------------------------------------------------------------------------------- Poincaré disk
def test_disk_axes_frame_the_data(disk_result):
    fig = scene_figure(disk_result)
    (x0, x1), (y0, y1) = fig.layout.xaxis.range, fig.layout.yaxis.range
    assert x1 - x0 < 1.0 and y1 - y0 < 1.0  # zoomed: the data occupy a small part of the unit disk
    assert math.isclose(x1 - x0, y1 - y0, rel_tol=1e-9)  # square window ...
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1  # ... with aspect ratio 1
    manifold = disk_result.manifold
    for points in [disk_result.data, disk_result.true_mean[None]]:
        b = manifold.to_poincare(points)
        assert np.all((b[:, 0] >= x0) & (b[:, 0] <= x1) & (b[:, 1] >= y0) & (b[:, 1] <= y1))
    for outcome in _ok(disk_result):  # the release clouds are framed too (99% of them at least)
        b = manifold.to_poincare(outcome.releases)
        inside = (b[:, 0] >= x0) & (b[:, 0] <= x1) & (b[:, 1] >= y0) & (b[:, 1] <= y1)
        assert inside.mean() >= 0.95
    # the unit circle is out of the window: not drawn (nor listed) in the main view
    assert not _index(fig, lambda n: "boundary at infinity" in n)


def test_disk_inset_shows_the_whole_disk_and_the_zoomed_region(disk_result):
    fig = scene_figure(disk_result)
    inset = [t for t in fig.data if t.xaxis == "x2"]
    assert inset and all(t.yaxis == "y2" and t.showlegend is False for t in inset)
    assert fig.layout.xaxis2.range[0] <= -1 and fig.layout.xaxis2.range[1] >= 1  # the whole unit disk
    lo, hi = fig.layout.xaxis2.domain
    assert 0 < hi - lo <= 0.3  # small, in a corner
    (rect,) = [t for t in inset if "zoomed region" in t.name]
    assert np.allclose(sorted(set(np.asarray(rect.x, dtype=float))), fig.layout.xaxis.range, atol=1e-5)
    assert np.allclose(sorted(set(np.asarray(rect.y, dtype=float))), fig.layout.yaxis.range, atol=1e-5)


def test_disk_shows_everything_when_the_data_fill_it():
    result = run_scenario(Scenario(manifold="hyperbolic", data="uniform_ball", radius=3.0, n=40, n_releases=20))
    fig = scene_figure(result)
    assert fig.layout.xaxis.range[0] <= -1 and fig.layout.xaxis.range[1] >= 1
    assert not [t for t in fig.data if t.xaxis == "x2"]  # no inset needed
    assert _index(fig, lambda n: "boundary at infinity" in n)


# ---------------------------------------------------------------------------------------------- sphere
def _angle(eye, direction):
    eye = np.array([eye.x, eye.y, eye.z])
    direction = np.asarray(direction, dtype=float)
    cos = eye @ direction / (np.linalg.norm(eye) * np.linalg.norm(direction))
    return math.degrees(math.acos(min(1.0, max(-1.0, cos))))


@pytest.mark.parametrize("offset", [(), (1.2, 0.4), (0.3, -2.0)])
def test_sphere_default_camera_looks_at_the_public_centre(offset):
    result = run_scenario(Scenario(center_offset=offset, n=30, n_releases=10))
    eye = scene_figure(result).layout.scene.camera.eye
    assert 3.0 <= _angle(eye, result.center) <= 20.0  # on the data, slightly tilted so the sphere looks 3D
    assert 1.3 <= math.dist((eye.x, eye.y, eye.z), (0, 0, 0)) <= 2.5  # from outside the unit sphere
    up = scene_figure(result).layout.scene.camera.up
    assert _angle(up, [eye.x, eye.y, eye.z]) > 45  # a usable "up" even when m0 is a pole


def test_camera_presets(sphere_result):
    keys = list(CAMERA_PRESETS)
    assert keys[0] == "on the data" and CAMERA_PRESETS["on the data"] is None  # computed from the result
    assert {"oblique", "top (north pole)", "side", "front"} <= set(keys)  # old URLs keep working
    default = scene_figure(sphere_result).layout.scene.camera.eye
    named = scene_figure(sphere_result, camera="on the data").layout.scene.camera.eye
    assert (default.x, default.y, default.z) == (named.x, named.y, named.z)
    oblique = scene_figure(sphere_result, camera="oblique").layout.scene.camera.eye
    assert (oblique.x, oblique.y, oblique.z) == (1.15, 1.15, 0.95)


def test_sphere_surface_is_light(sphere_result):
    sphere = scene_figure(sphere_result).data[0]  # a wireframe: a transparent surface redraws 3-4x slower
    assert sphere.type == "scatter3d" and sphere.mode == "lines" and np.asarray(sphere.x).size <= 2000
    points = np.column_stack([np.array([np.nan if v is None else v for v in getattr(sphere, a)]) for a in "xyz"])
    points = points[np.isfinite(points).all(axis=1)]
    np.testing.assert_allclose(np.linalg.norm(points, axis=1), 1.0, atol=1e-3)


# ----------------------------------------------------------------------------------- shared conventions
def _all_figures():
    cases = [
        dict(),
        dict(manifold="hyperbolic", data="uniform_ball"),
        dict(manifold="spd", data="uniform_ball"),
        dict(manifold="sphere", dim=3, data="uniform_ball"),
    ]
    for kwargs in cases:
        yield from _explorer_figures(run_scenario(Scenario(n=40, n_releases=30, **kwargs)))


@pytest.fixture(scope="module")
def all_figures():
    return list(_all_figures())


def test_true_mean_is_drawn_beneath_the_releases(all_figures):
    for fig in all_figures:
        if "SPD(2) ellipses" in fig.layout.title.text or "glyphs" in fig.layout.title.text:
            continue  # outlines: the mean is a dashed outline on top (it hides nothing); glyphs do not overlap
        means = _index(fig, lambda n: MEAN in n)
        releases = _index(fig, lambda n: n.endswith("releases") or "releases (showing" in n)
        assert means and releases, fig.layout.title.text
        assert max(means) < min(releases), fig.layout.title.text
        (mean,) = [fig.data[i] for i in means]
        assert mean.marker.size <= 11 and mean.marker.line.width <= 1.5  # smaller, thin outline


def test_every_figure_has_a_title_and_readable_legend(all_figures):
    for fig in all_figures:
        assert fig.layout.title.text and len(fig.layout.title.text) <= 50  # fits a phone
        subtitle = fig.layout.title.subtitle.text or ""
        assert all(len(line) <= 60 for line in subtitle.split("<br>")), subtitle
        if fig.layout.showlegend is False:
            continue
        legend = fig.layout.legend
        assert legend.itemsizing == "constant"
        assert legend.orientation == "h" and (legend.y <= 0 or legend.yref == "container")  # below the plot
        assert legend.itemclick == "toggleothers" and legend.itemdoubleclick == "toggle"
        assert "isolate" in subtitle  # the reader is told
        for trace in fig.data:
            size = getattr(getattr(trace, "marker", None), "size", None)
            if getattr(trace, "mode", None) == "markers" and trace.showlegend is not False and np.isscalar(size):
                assert size >= 2.5  # 3D point sizes; 2D ones are larger


def test_axis_titles_explain_coordinates(all_figures):
    by_title = {fig.layout.title.text.replace("<br>", " "): fig for fig in all_figures}
    tangent = next(fig for title, fig in by_title.items() if "tangent view" in title)
    assert "radians" in tangent.layout.xaxis.title.text and "radians" in tangent.layout.yaxis.title.text
    assert "log map" in tangent.layout.title.subtitle.text and "_{" not in tangent.layout.title.subtitle.text
    disk = next(fig for title, fig in by_title.items() if "Poincaré disk" in title)
    assert disk.layout.xaxis.title.text and "tanh" in disk.layout.title.subtitle.text


def test_cone_is_titled_explained_and_zoomed(spd_result):
    cone = spd_cone_figure(spd_result)
    assert "cone" in cone.layout.title.text
    scene = cone.layout.scene
    assert scene.xaxis.title.text == "a = P₁₁" and scene.yaxis.title.text == "b = P₁₂"
    assert scene.zaxis.title.text == "c = P₂₂"
    assert "ac = b²" in cone.layout.title.subtitle.text
    display = spd_result.manifold.to_display(spd_result.data)
    for k, axis in enumerate((scene.xaxis, scene.yaxis, scene.zaxis)):
        lo, hi = axis.range
        assert lo <= display[:, k].min() and display[:, k].max() <= hi  # every data point inside ...
        assert hi - lo < 3 * (display[:, k].max() - display[:, k].min())  # ... and zoomed on them


def test_cone_draws_the_boundary_where_it_crosses_the_box():
    result = run_scenario(Scenario(manifold="spd", data="wishart", radius=1.0, n=60, n_releases=30))
    cone = spd_cone_figure(result)
    surfaces = [t for t in cone.data if t.type == "surface"]
    assert surfaces and "ac = b²" in surfaces[0].name
    a, b, c = (np.asarray(getattr(surfaces[0], axis), dtype=float) for axis in "xyz")
    assert np.allclose(a * c, b * b, rtol=1e-4, atol=1e-5)


def test_spd_ellipses_are_few_per_group_with_the_mean_dashed(spd_result):
    fig = scene_figure(spd_result)
    for trace in fig.data:
        if trace.name.endswith("releases") or "releases (showing" in trace.name or trace.name.startswith("data"):
            assert sum(v is None for v in trace.x) <= MAX_ELLIPSES_DRAWN
            assert trace.line.width <= 1
    means = [t for t in fig.data if MEAN in t.name]
    assert means and all(t.line.dash == "dash" and t.line.width >= 2 for t in means)
    colors = {t.line.color for t in fig.data if "releases" in t.name}
    assert len(colors) == len(_ok(spd_result))  # one distinct colour per mechanism


def test_glyph_rows_state_the_anisotropy(spd_result):
    glyphs = spd_glyph_figure(spd_result)
    labels = [a.text for a in glyphs.layout.annotations]
    assert len(labels) == 2 + len(_ok(spd_result)) and all("axis ratio" in label for label in labels)
    assert "near-circles" in glyphs.layout.title.subtitle.text  # uniform_ball around the identity: near-circles
    assert "same (true) scale" in glyphs.layout.title.subtitle.text


# --------------------------------------------------------------------------------------------- payload
@pytest.mark.parametrize("n_releases", [200, 5000])
@pytest.mark.parametrize(
    "kwargs",
    [dict(), dict(manifold="hyperbolic", data="uniform_ball"), dict(manifold="spd", data="uniform_ball")],
    ids=["S2", "H2", "SPD2"],
)
def test_payload_of_one_explorer_run_is_bounded(kwargs, n_releases):
    result = run_scenario(Scenario(n_releases=n_releases, **kwargs))
    figures = _explorer_figures(result)
    assert sum(len(fig.to_json()) for fig in figures) <= PAYLOAD_LIMIT
    for fig in figures:
        for trace in fig.data:
            if trace.type in ("scatter3d", "scattergl") and trace.mode == "markers":
                assert len(trace.x) <= max(MAX_RELEASES_DRAWN, MAX_DATA_DRAWN)
                if "releases" in trace.name:
                    assert len(trace.x) <= MAX_RELEASES_DRAWN
                    if n_releases > MAX_RELEASES_DRAWN:
                        assert f"(showing {MAX_RELEASES_DRAWN} of {n_releases})" in trace.name


def test_data_are_capped_too():
    result = run_scenario(Scenario(n=3000, n_releases=5))
    fig = scene_figure(result)
    (data,) = [t for t in fig.data if (t.name or "").startswith("data")]
    assert len(data.x) == MAX_DATA_DRAWN and f"showing {MAX_DATA_DRAWN}" in data.name
