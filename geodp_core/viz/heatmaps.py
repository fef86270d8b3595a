"""Plotly heatmaps of a field given at the vertices of a triangle mesh (the conformal lab's figures).

- on the sphere :math:`S^2`: a ``Mesh3d`` surface coloured by per-vertex ``intensity``;
- on the Poincaré disk (a geodesic ball of :math:`H^2`): a 2-D contour map of the piecewise-linear
  interpolant (``style="contour"``), or the flat triangulated surface seen from above (``style="mesh"``).

Points (data, the true mean, releases) can be drawn on top with :class:`Overlay`. No Streamlit here.
"""

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from scipy.interpolate import LinearNDInterpolator
from scipy.spatial import ConvexHull

from geodp_core._validation import check_finite_array, check_int, check_option
from geodp_core.exceptions import InvalidParameterError
from geodp_core.viz.curves import chart_layout
from geodp_core.viz.scene import CAMERA_PRESETS, data_camera

__all__ = [
    "Overlay",
    "sphere_heatmap",
    "disk_heatmap",
    "mesh_heatmap",
    "conformal_field_figure",
    "CONFORMAL_FIELDS",
]

CONFORMAL_FIELDS = {
    "f": ("Kernel density estimate f of the data (non-private: teaching view)", "f (1/area)"),
    "f_tilde": ("Sanitised density f̃ = f + Laplace noise (differentially private)", "f̃ (1/area)"),
    "f_smooth": ("Clipped and smoothed f̃: u (public post-processing)", "u (1/area)"),
    "sigma": ("Conformal scaling σ (dimensionless)", "σ"),
    "phi": ("Conformal factor φ = exp(2σ) (dimensionless; below 1 it shrinks distances)", "φ"),
    "rho_star": ("Conformal distance ρ* from the centre point", "ρ* (distance)"),
}
"""Field name -> (figure title, colour-bar title with the unit)."""
_SPHERE_TITLE = "Field on the sphere S²"
_DISK_TITLE = "Field on the Poincaré disk (a ball of H²)"


def _camera(camera, overlays):
    """The preset's camera; the computed "on the data" preset looks at the overlays' mean direction."""
    view = CAMERA_PRESETS[camera]
    if view is not None:
        return view
    points = [_overlay_points(o) for o in overlays if len(_overlay_points(o))]
    centre = np.concatenate(points).mean(axis=0) if points else np.array([0.0, 0.0, 1.0])
    return data_camera(centre if np.linalg.norm(centre) > 1e-9 else np.array([0.0, 0.0, 1.0]))


@dataclass(frozen=True)
class Overlay:
    """Points drawn over a heatmap.

    Attributes
    ----------
    points : array_like, shape (k, 3)
        Points of the manifold (sphere or hyperboloid ambient coordinates).
    name : str
        Legend entry.
    color, size, symbol, opacity
        Marker style (``symbol`` is a Plotly 2-D symbol name; 3-D plots map it to the nearest 3-D one).
    """

    points: object
    name: str
    color: str = "black"
    size: float = 5.0
    symbol: str = "circle"
    opacity: float = 1.0


_SYMBOLS_3D = {"circle", "circle-open", "cross", "diamond", "diamond-open", "square", "square-open", "x"}


def _check_field(vertices, triangles, values, vertex_dim):
    vertices = check_finite_array(vertices, "vertices", ndim=2, shape_tail=(vertex_dim,), min_rows=3)
    triangles = np.asarray(triangles)
    if triangles.ndim != 2 or triangles.shape[1] != 3 or not np.issubdtype(triangles.dtype, np.integer):
        raise InvalidParameterError(
            f"triangles must be an integer array of shape (T, 3); got dtype {triangles.dtype}, shape {triangles.shape}",
            param="triangles",
        )
    if triangles.size and (triangles.min() < 0 or triangles.max() >= len(vertices)):
        raise InvalidParameterError(
            f"triangles must index the {len(vertices)} vertices (0..{len(vertices) - 1}); got indices in "
            f"[{triangles.min()}, {triangles.max()}]",
            param="triangles",
        )
    values = check_finite_array(values, "values", ndim=1)
    if values.shape[0] != vertices.shape[0]:
        raise InvalidParameterError(
            f"values must have one entry per vertex ({vertices.shape[0]}); got {values.shape[0]}", param="values"
        )
    return vertices, triangles, values


def _colorbar(title):
    return dict(title=dict(text=title), thickness=14, len=0.75)


def _overlay_points(overlay):
    pts = check_finite_array(overlay.points, f"overlay {overlay.name!r} points", ndim=(1, 2), shape_tail=(3,))
    return pts.reshape(-1, 3)


def sphere_heatmap(vertices, triangles, values, title="", colorbar_title="", colorscale="Viridis", cmin=None,
                   cmax=None, cmid=None, overlays=(), camera="oblique", height=None):
    """Field on :math:`S^2` as a ``Mesh3d`` surface coloured per vertex.

    Parameters
    ----------
    vertices : array_like, shape (N, 3)
        Unit vectors (mesh vertices).
    triangles : array_like of int, shape (T, 3)
    values : array_like, shape (N,)
    title, colorbar_title : str
        Default (empty): a generic title, "value".
    colorscale : str
        A Plotly colour scale name.
    cmin, cmax, cmid : float, optional
        Colour range (``cmid`` centres a diverging scale, e.g. 1 for the conformal factor).
    overlays : sequence of Overlay
    camera : str
        A key of :data:`geodp_core.viz.CAMERA_PRESETS`.
    height : int, optional
        Default: a 440 px view plus the title and the legend as laid out on a phone.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    vertices, triangles, values = _check_field(vertices, triangles, values, 3)
    camera = check_option(camera, "camera", tuple(CAMERA_PRESETS))
    height = None if height is None else check_int(height, "height", low=100, high=4000)
    colorbar_title = colorbar_title or "value"
    mesh = go.Mesh3d(
        x=vertices[:, 0], y=vertices[:, 1], z=vertices[:, 2], i=triangles[:, 0], j=triangles[:, 1], k=triangles[:, 2],
        intensity=values, intensitymode="vertex", colorscale=colorscale, cmin=cmin, cmax=cmax, cmid=cmid,
        colorbar=_colorbar(colorbar_title), name=colorbar_title or "field", showscale=True,
        lighting=dict(ambient=0.85, diffuse=0.25, specular=0.05), hovertemplate="%{intensity:.4g}<extra></extra>",
    )
    fig = go.Figure(mesh)
    for overlay in overlays:
        pts = _overlay_points(overlay) * 1.012  # just above the surface
        symbol = overlay.symbol if overlay.symbol in _SYMBOLS_3D else "circle"
        fig.add_trace(go.Scatter3d(
            x=pts[:, 0], y=pts[:, 1], z=pts[:, 2], mode="markers", name=overlay.name, opacity=overlay.opacity,
            marker=dict(size=overlay.size, color=overlay.color, symbol=symbol, line=dict(color="black", width=1)),
        ))
    axis = dict(visible=False, showbackground=False)
    fig.update_layout(
        scene=dict(xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="data", camera=_camera(camera, overlays)),
    )
    chart_layout(fig, title or _SPHERE_TITLE, height=height, plot_px=440)
    fig.update_layout(margin=dict(l=0, r=0))
    return fig


def disk_heatmap(disk_coords, triangles, values, title="", colorbar_title="", colorscale="Viridis", cmin=None,
                 cmax=None, cmid=None, overlays=(), style="contour", grid_size=181, height=None):
    r"""Field on a domain of the Poincaré disk.

    Parameters
    ----------
    disk_coords : array_like, shape (N, 2)
        Vertices in Poincaré-disk coordinates (:math:`|x| < 1`).
    triangles : array_like of int, shape (T, 3)
    values : array_like, shape (N,)
    style : {"contour", "mesh"}
        ``"contour"``: a 2-D map of the piecewise-linear interpolant on a ``grid_size`` square grid
        (blank outside the meshed domain); ``"mesh"``: the flat triangulated surface (``Mesh3d``, z = 0)
        seen from above.
    overlays : sequence of Overlay
        Points of the hyperboloid; drawn at their Poincaré-disk coordinates.
    Other parameters as in :func:`sphere_heatmap`.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    disk, triangles, values = _check_field(disk_coords, triangles, values, 2)
    if np.any(np.sum(disk**2, axis=1) >= 1.0):
        raise InvalidParameterError("disk_coords must lie inside the unit disk (|x| < 1)", param="disk_coords")
    style = check_option(style, "style", ("contour", "mesh"))
    grid_size = check_int(grid_size, "grid_size", low=11, high=2001)
    height = None if height is None else check_int(height, "height", low=100, high=4000)
    colorbar_title = colorbar_title or "value"
    overlay_xy = []
    for overlay in overlays:
        pts = _overlay_points(overlay)
        overlay_xy.append((overlay, pts[:, 1:] / (1.0 + pts[:, :1])))
    circle = np.linspace(0.0, 2.0 * np.pi, 241)
    if style == "mesh":
        fig = go.Figure(go.Mesh3d(
            x=disk[:, 0], y=disk[:, 1], z=np.zeros(len(disk)), i=triangles[:, 0], j=triangles[:, 1], k=triangles[:, 2],
            intensity=values, intensitymode="vertex", colorscale=colorscale, cmin=cmin, cmax=cmax, cmid=cmid,
            colorbar=_colorbar(colorbar_title), name=colorbar_title or "field", lighting=dict(ambient=1.0, diffuse=0.0),
            hovertemplate="%{intensity:.4g}<extra></extra>",
        ))
        fig.add_trace(go.Scatter3d(x=np.cos(circle), y=np.sin(circle), z=np.zeros_like(circle), mode="lines",
                                   line=dict(color="gray", dash="dot"), name="ideal boundary |x| = 1"))
        for overlay, xy in overlay_xy:
            symbol = overlay.symbol if overlay.symbol in _SYMBOLS_3D else "circle"
            fig.add_trace(go.Scatter3d(
                x=xy[:, 0], y=xy[:, 1], z=np.full(len(xy), 1e-3), mode="markers", name=overlay.name,
                opacity=overlay.opacity, marker=dict(size=overlay.size, color=overlay.color, symbol=symbol),
            ))
        axis = dict(visible=False, showbackground=False)
        fig.update_layout(scene=dict(
            xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="data",
            camera=dict(eye=dict(x=0.0, y=0.0, z=2.0), up=dict(x=0, y=1, z=0), projection=dict(type="orthographic")),
        ))
    else:
        grid = np.linspace(-1.0, 1.0, grid_size)
        gx, gy = np.meshgrid(grid, grid)
        field = LinearNDInterpolator(disk, values)(gx, gy)  # NaN outside the convex hull (the domain)
        fig = go.Figure(go.Contour(
            x=grid, y=grid, z=field, colorscale=colorscale, zmin=cmin, zmax=cmax, zmid=cmid, ncontours=24,
            contours=dict(coloring="heatmap", showlines=False), line=dict(width=0),
            colorbar=_colorbar(colorbar_title),
            name=colorbar_title or "field", hovertemplate="x=%{x:.3f}, y=%{y:.3f}: %{z:.4g}<extra></extra>",
            connectgaps=False,
        ))
        hull = disk[ConvexHull(disk).vertices]
        hull = np.vstack([hull, hull[:1]])
        fig.add_trace(go.Scatter(x=hull[:, 0], y=hull[:, 1], mode="lines", line=dict(color="black", width=1.5),
                                 name="meshed domain (public ball)"))
        fig.add_trace(go.Scatter(x=np.cos(circle), y=np.sin(circle), mode="lines",
                                 line=dict(color="gray", dash="dot"), name="ideal boundary |x| = 1"))
        for overlay, xy in overlay_xy:
            fig.add_trace(go.Scatter(
                x=xy[:, 0], y=xy[:, 1], mode="markers", name=overlay.name, opacity=overlay.opacity,
                marker=dict(size=overlay.size, color=overlay.color, symbol=overlay.symbol,
                            line=dict(color="black", width=1)),
            ))
        fig.update_xaxes(range=[-1.02, 1.02], visible=False)
        fig.update_yaxes(range=[-1.02, 1.02], visible=False, scaleanchor="x", scaleratio=1)
        fig.update_layout(plot_bgcolor="white")
    chart_layout(fig, title or _DISK_TITLE, height=height, plot_px=400)
    fig.update_layout(margin=dict(l=0, r=0))
    return fig


def mesh_heatmap(mesh, values, **kwargs):
    """Heatmap of ``values`` on a :class:`~geodp_core.geometry.mesh.TriangleMesh` (sphere or disk)."""
    view = getattr(getattr(mesh, "manifold", None), "view", None)  # how the meshed surface is drawn
    if view == "sphere3d":
        kwargs.pop("style", None)
        kwargs.pop("grid_size", None)
        return sphere_heatmap(mesh.vertices, mesh.triangles, values, **kwargs)
    if view == "poincare_disk":
        kwargs.pop("camera", None)
        return disk_heatmap(mesh.display, mesh.triangles, values, **kwargs)
    raise InvalidParameterError(f"mesh must be a TriangleMesh of S^2 or of a ball of H^2; got {mesh!r:.60}",
                                param="mesh")


def conformal_field_figure(fields, name, center=None, overlays=(), **kwargs):
    r"""Heatmap of one field of the conformal mechanism (:class:`~geodp_core.mechanisms.conformal.ConformalFields`).

    Parameters
    ----------
    fields : ConformalFields
    name : {"f", "f_tilde", "f_smooth", "sigma", "phi", "rho_star"}
        ``"rho_star"`` needs ``center`` (the conformal distance from it).
    center : array_like, optional
    overlays : sequence of Overlay
    **kwargs
        Passed to :func:`sphere_heatmap` / :func:`disk_heatmap` (``title`` defaults to the field's name).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    name = check_option(name, "name", tuple(CONFORMAL_FIELDS))
    title, symbol = CONFORMAL_FIELDS[name]
    if name == "rho_star":
        if center is None:
            raise InvalidParameterError("center is required for the conformal distance rho_star", param="center")
        values = fields.rho_star(center)
    else:
        values = getattr(fields, name)
    kwargs.setdefault("title", title)
    kwargs.setdefault("colorbar_title", symbol)
    if name == "phi":
        kwargs.setdefault("colorscale", "RdBu_r")
        kwargs.setdefault("cmid", 1.0)
    if name == "sigma":
        kwargs.setdefault("colorscale", "RdBu_r")
        kwargs.setdefault("cmid", 0.0)
    return mesh_heatmap(fields.mesh, values, overlays=overlays, **kwargs)
