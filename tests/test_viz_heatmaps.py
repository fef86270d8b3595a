"""Tests of the vertex-field heatmaps (geodp_core.viz.heatmaps) and an AppTest of the Conformal lab page."""

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from geodp_core.data import sample_von_mises_fisher, sample_wrapped_normal
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.mesh import hyperbolic_ball_mesh, sphere_mesh
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import PureDP
from geodp_core.viz.heatmaps import (
    CONFORMAL_FIELDS,
    Overlay,
    conformal_field_figure,
    disk_heatmap,
    mesh_heatmap,
    sphere_heatmap,
)

S2 = get_manifold("sphere", 2)
H2 = get_manifold("hyperbolic", 2)


@pytest.fixture(scope="module")
def sphere_fields():
    data = sample_von_mises_fisher(S2.default_center(), 10.0, 200, np.random.default_rng(0))
    cal = get_mechanism("conformal", S2).calibrate(PureDP(1.0), 0.05, data=data, seed=1, mesh_size=300,
                                                   bandwidth=0.6)
    return cal.options["fields"], data


@pytest.fixture(scope="module")
def disk_fields():
    data = sample_wrapped_normal(H2, H2.default_center(), 0.4, 200, np.random.default_rng(0))
    cal = get_mechanism("conformal", H2).calibrate(PureDP(1.0), 0.05, data=data, seed=1, mesh_size=300,
                                                   bandwidth=0.6, domain_radius=1.5, radius=1.0, ball_center=H2.default_center())
    return cal.options["fields"], data


def test_sphere_heatmap_colours_every_vertex():
    mesh = sphere_mesh(200)
    values = mesh.vertices[:, 2]
    fig = sphere_heatmap(mesh.vertices, mesh.triangles, values, title="z", colorbar_title="z",
                         overlays=[Overlay(mesh.vertices[:5], "five points", "red", 4)], camera="side")
    assert isinstance(fig, go.Figure)
    surface = fig.data[0]
    assert isinstance(surface, go.Mesh3d) and surface.intensitymode == "vertex"
    np.testing.assert_array_equal(surface.intensity, values)
    np.testing.assert_array_equal(np.c_[surface.i, surface.j, surface.k], mesh.triangles)
    markers = fig.data[1]
    assert markers.name == "five points" and len(markers.x) == 5
    assert np.allclose(np.sqrt(np.asarray(markers.x) ** 2 + np.asarray(markers.y) ** 2 + np.asarray(markers.z) ** 2),
                       1.012)  # drawn just above the surface


@pytest.mark.parametrize("style", ["contour", "mesh"])
def test_disk_heatmap_styles(style):
    mesh = hyperbolic_ball_mesh(300, 1.5)
    values = np.linalg.norm(mesh.display, axis=1)
    point = H2.from_poincare(np.array([[0.1, 0.2]]))
    fig = disk_heatmap(mesh.display, mesh.triangles, values, style=style, grid_size=61,
                       overlays=[Overlay(point, "a point", "gold", 8, "diamond")])
    names = [trace.name for trace in fig.data]
    assert "a point" in names and "ideal boundary |x| = 1" in names
    marker = fig.data[names.index("a point")]
    assert marker.x[0] == pytest.approx(0.1) and marker.y[0] == pytest.approx(0.2)
    if style == "contour":
        contour = fig.data[0]
        z = np.asarray(contour.z, dtype=float)
        assert z.shape == (61, 61)
        outside = np.hypot(*np.meshgrid(contour.x, contour.y)) > np.tanh(1.5 / 2) + 1e-9
        assert np.all(np.isnan(z[outside]))  # blank outside the meshed ball
        inside = ~np.isnan(z)
        assert np.nanmax(z) <= values.max() + 1e-12 and inside.sum() > 500
    else:
        np.testing.assert_array_equal(fig.data[0].intensity, values)


def test_heatmap_validation():
    mesh = sphere_mesh(200)
    with pytest.raises(InvalidParameterError, match="values"):
        sphere_heatmap(mesh.vertices, mesh.triangles, np.ones(3))
    with pytest.raises(InvalidParameterError, match="values"):
        sphere_heatmap(mesh.vertices, mesh.triangles, np.full(mesh.n_vertices, np.nan))
    with pytest.raises(InvalidParameterError, match="triangles"):
        sphere_heatmap(mesh.vertices, mesh.triangles + mesh.n_vertices, np.ones(mesh.n_vertices))
    with pytest.raises(InvalidParameterError, match="camera"):
        sphere_heatmap(mesh.vertices, mesh.triangles, np.ones(mesh.n_vertices), camera="below")
    disk = hyperbolic_ball_mesh(300, 1.5)
    with pytest.raises(InvalidParameterError, match="style"):
        disk_heatmap(disk.display, disk.triangles, np.ones(disk.n_vertices), style="3d")
    with pytest.raises(InvalidParameterError, match="disk_coords"):
        disk_heatmap(disk.display * 3.0, disk.triangles, np.ones(disk.n_vertices))
    with pytest.raises(InvalidParameterError, match="mesh"):
        mesh_heatmap("not a mesh", np.ones(3))


@pytest.mark.parametrize("which", ["sphere_fields", "disk_fields"])
def test_every_conformal_field_has_a_figure(which, request):
    fields, data = request.getfixturevalue(which)
    center = fields.manifold.default_center()
    for name in CONFORMAL_FIELDS:
        fig = conformal_field_figure(fields, name, center=center, overlays=[Overlay(data, "data")])
        assert isinstance(fig, go.Figure)
        assert fig.layout.title.text.replace("<br>", " ") == CONFORMAL_FIELDS[name][0]  # wrapped for phones
        assert any(trace.name == "data" for trace in fig.data)
    fig = conformal_field_figure(fields, "phi")
    colour_axis = fig.data[0]
    mid = colour_axis.cmid if isinstance(colour_axis, go.Mesh3d) else colour_axis.zmid
    assert mid == 1.0  # diverging scale centred at phi = 1
    with pytest.raises(InvalidParameterError, match="center"):
        conformal_field_figure(fields, "rho_star")
    with pytest.raises(InvalidParameterError, match="name"):
        conformal_field_figure(fields, "density")


# --------------------------------------------------------------------------- the page
TIMEOUT = 90


def _lab():
    # a first run registers the navigation, so switch_page finds a page whose URL path is not its
    # file name (utility_curves.py is /utility)
    at = AppTest.from_file("../app.py", default_timeout=TIMEOUT).run()
    at.switch_page("app_pages/conformal_lab.py")
    return at


class TestConformalLabPage:
    def test_runs_without_exception_and_shows_fields(self):
        at = _lab().run()
        assert not at.exception, at.exception
        assert at.title[0].value == "Conformal lab"
        labels = [m.label for m in at.metric]
        for label in ("φ_min", "φ_max", "λ*", "Kernel bound B", "Riemannian Laplace: mean dist to η"):
            assert label in labels
        assert not at.error
        assert any("exact guarantee" in m.value for m in at.markdown)

    def test_hyperbolic_and_the_knn_variant(self):
        at = _lab().run()
        at.slider(key="conformal_mesh").set_value(200)
        at.radio(key="conformal_space").set_value("hyperbolic").run()
        assert not at.exception and not at.error
        at.radio(key="conformal_laplacian").set_value("knn_data").run()
        assert not at.exception and not at.error
        assert any("no formal guarantee" in m.value for m in at.markdown)

    def test_bad_input_shows_an_error_not_a_traceback(self):
        at = _lab().run()
        at.number_input(key="conformal_ball_sphere").set_value(1.0).run()  # r >= r* = pi/4 on the sphere
        assert not at.exception
        assert at.error and "radius" in at.error[0].value
        assert at.number_input(key="conformal_ball_sphere").value == 1.0  # the setting is kept
        at.number_input(key="conformal_bandwidth").set_value(2.0)
        at.number_input(key="conformal_ball_sphere").set_value(0.7).run()  # h >= pi/2 on the sphere
        assert not at.exception
        assert at.error and "bandwidth" in at.error[0].value
