"""Plotly figures of one scenario: data, true mean, release clouds, public ball.

- ``S^2``: a 3D sphere with camera presets;
- ``H^2``: the Poincaré disk with the public geodesic ball and geodesics to releases;
- ``SPD(2)``: ellipses ``{x : x^T P^{-1} x = 1}`` and points in the SPD cone in 3D;
- anything else: a 2D tangent-space view at the PUBLIC centre (``Log_{m0}``, first two frame coordinates).

No Streamlit here: a notebook user gets the same figures.
"""

import numpy as np
import plotly.graph_objects as go

__all__ = ["CAMERA_PRESETS", "MECHANISM_COLORS", "scene_figure", "spd_cone_figure", "spd_glyph_figure", "ball_boundary"]

CAMERA_PRESETS = {
    "oblique": dict(eye=dict(x=1.15, y=1.15, z=0.95)),
    "top (north pole)": dict(eye=dict(x=0.0, y=0.0, z=1.9)),
    "side": dict(eye=dict(x=1.9, y=0.0, z=0.2)),
    "front": dict(eye=dict(x=0.0, y=1.9, z=0.2)),
}

MECHANISM_COLORS = {
    "riemannian_laplace": "#d62728",
    "riemannian_gaussian": "#1f77b4",
    "tangent_gaussian": "#8c564b",
    "ew_laplace": "#ff7f0e",
    "ew_gaussian": "#2ca02c",
    "brownian_motion": "#9467bd",
    "langevin": "#e377c2",
    "conformal": "#17becf",
}
DATA_COLOR = "rgba(90, 90, 90, 0.55)"
MEAN_NAME = "true Fréchet mean (teaching view: private!)"


def ball_boundary(manifold, center, radius, n_points=240):
    """Points on the geodesic circle ``dist(center, .) = radius`` in the first two frame directions."""
    angles = np.linspace(0.0, 2 * np.pi, n_points)
    coords = np.zeros((n_points, manifold.dim))
    coords[:, 0] = radius * np.cos(angles)
    if manifold.dim > 1:
        coords[:, 1] = radius * np.sin(angles)
    return manifold.exp(center, manifold.from_frame(center, coords))


def _geodesic(manifold, start, end, n_points=40):
    t = np.linspace(0.0, 1.0, n_points)[:, None]
    vec = manifold.log(start, end)
    return manifold.exp(np.broadcast_to(start, (n_points,) + start.shape), t * vec[None] if vec.ndim == 1 else t[..., None] * vec)


def _outcomes(result):
    return [o for o in result.outcomes if o.status == "ok"]


def _sphere_figure(result, camera):
    u, v = np.mgrid[0 : 2 * np.pi : 60j, 0 : np.pi : 30j]
    fig = go.Figure()
    fig.add_trace(
        go.Surface(
            x=np.cos(u) * np.sin(v), y=np.sin(u) * np.sin(v), z=np.cos(v), opacity=0.18, showscale=False,
            colorscale=[[0, "#c8d7ea"], [1, "#c8d7ea"]], hoverinfo="skip", name="S²",
        )
    )
    ring = ball_boundary(result.manifold, result.center, result.scenario.radius)
    fig.add_trace(go.Scatter3d(x=ring[:, 0], y=ring[:, 1], z=ring[:, 2], mode="lines",
                               line=dict(color="black", width=3, dash="dash"), name="public ball B(m₀, r)"))
    d = result.data
    fig.add_trace(go.Scatter3d(x=d[:, 0], y=d[:, 1], z=d[:, 2], mode="markers",
                               marker=dict(size=2.5, color=DATA_COLOR), name=f"data (n={len(d)})"))
    for o in _outcomes(result):
        r = o.releases
        fig.add_trace(go.Scatter3d(x=r[:, 0], y=r[:, 1], z=r[:, 2], mode="markers",
                                   marker=dict(size=2.5, color=MECHANISM_COLORS.get(o.name, "#333"), opacity=0.7),
                                   name=f"{o.title} releases"))
    m = result.true_mean
    fig.add_trace(go.Scatter3d(x=[m[0]], y=[m[1]], z=[m[2]], mode="markers",
                               marker=dict(size=7, color="gold", symbol="diamond", line=dict(color="black", width=1)),
                               name=MEAN_NAME))
    axis = dict(visible=False, range=[-1.05, 1.05])
    fig.update_layout(
        scene=dict(xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="cube", camera=CAMERA_PRESETS.get(camera)),
        uirevision=camera,
    )
    return fig


def _disk_figure(result):
    manifold = result.manifold
    fig = go.Figure()
    t = np.linspace(0, 2 * np.pi, 361)
    fig.add_trace(go.Scatter(x=np.cos(t), y=np.sin(t), mode="lines", line=dict(color="black", width=1.5),
                             name="boundary at infinity", hoverinfo="skip"))
    ring = manifold.to_poincare(ball_boundary(manifold, result.center, result.scenario.radius))
    fig.add_trace(go.Scatter(x=ring[:, 0], y=ring[:, 1], mode="lines", line=dict(color="black", dash="dash"),
                             name="public ball B(m₀, r)"))
    d = manifold.to_poincare(result.data)
    fig.add_trace(go.Scatter(x=d[:, 0], y=d[:, 1], mode="markers", marker=dict(size=4, color=DATA_COLOR),
                             name=f"data (n={len(d)})"))
    for o in _outcomes(result):
        color = MECHANISM_COLORS.get(o.name, "#333")
        r = manifold.to_poincare(o.releases)
        fig.add_trace(go.Scatter(x=r[:, 0], y=r[:, 1], mode="markers", marker=dict(size=4, color=color, opacity=0.6),
                                 name=f"{o.title} releases"))
        for release in o.releases[:3]:
            path = manifold.to_poincare(_geodesic(manifold, result.true_mean, release))
            fig.add_trace(go.Scatter(x=path[:, 0], y=path[:, 1], mode="lines", line=dict(color=color, width=1),
                                     showlegend=False, hoverinfo="skip"))
    m = manifold.to_poincare(result.true_mean)
    fig.add_trace(go.Scatter(x=[m[0]], y=[m[1]], mode="markers",
                             marker=dict(size=13, color="gold", symbol="star", line=dict(color="black", width=1)),
                             name=MEAN_NAME))
    fig.update_xaxes(range=[-1.05, 1.05], visible=False)
    fig.update_yaxes(range=[-1.05, 1.05], visible=False, scaleanchor="x", scaleratio=1)
    return fig


def ellipse_outline(matrix, n_points=60):
    """Boundary of the ellipse ``{x : x^T P^{-1} x = 1}`` of a 2x2 SPD matrix, shape ``(2, n_points)``."""
    t = np.linspace(0, 2 * np.pi, n_points)
    eigvals, eigvecs = np.linalg.eigh(matrix)
    circle = np.stack([np.cos(t), np.sin(t)])
    return eigvecs @ (np.sqrt(eigvals)[:, None] * circle)


def _spd_ellipse_figure(result, max_per_group=40):
    fig = go.Figure()

    def add(matrices, color, name, width=1.0, opacity=0.5):
        xs, ys = [], []
        for mat in matrices[:max_per_group]:
            e = ellipse_outline(mat)
            xs += list(e[0]) + [None]
            ys += list(e[1]) + [None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=color, width=width), opacity=opacity, name=name))

    add(result.data, "rgba(90,90,90,0.8)", f"data ellipses (first {min(len(result.data), max_per_group)})", opacity=0.35)
    for o in _outcomes(result):
        add(o.releases, MECHANISM_COLORS.get(o.name, "#333"), f"{o.title} releases", width=1.5, opacity=0.75)
    e = ellipse_outline(result.true_mean)
    fig.add_trace(go.Scatter(x=e[0], y=e[1], mode="lines", line=dict(color="black", width=2.5, dash="dash"),
                             name=MEAN_NAME))
    fig.update_yaxes(scaleanchor="x", scaleratio=1, title="x₂")
    fig.update_xaxes(title="x₁")
    return fig


def spd_glyph_figure(result, per_row=8, height=None):
    """SPD(2) matrices as ellipse glyphs laid out in rows: data sample, true mean, releases per mechanism.

    Each glyph is ``{x : x^T P^{-1} x = 1}`` drawn at its own grid position (same scale everywhere), so shapes
    and sizes can be compared one by one — the classic tensor-glyph layout.
    """
    rows = [("data (sample)", result.data[:per_row], DATA_COLOR)]
    rows.append(("true mean (teaching view)", result.true_mean[None], "black"))
    rows += [(o.title, o.releases[:per_row], MECHANISM_COLORS.get(o.name, "#333")) for o in _outcomes(result)]
    radii = [np.sqrt(np.linalg.eigvalsh(m)[-1]) for _, mats, _ in rows for m in mats]
    spacing = 2.3 * max(radii)
    fig = go.Figure()
    for r, (name, mats, color) in enumerate(rows):
        xs, ys = [], []
        for c, mat in enumerate(mats):
            e = ellipse_outline(mat)
            xs += list(e[0] + c * spacing) + [None]
            ys += list(e[1] - r * spacing) + [None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=color, width=2), name=name,
                                 fill="toself", opacity=0.8))
    fig.update_yaxes(scaleanchor="x", scaleratio=1, tickmode="array", tickvals=[-r * spacing for r in range(len(rows))],
                     ticktext=[name for name, _, _ in rows], showgrid=False, zeroline=False)
    fig.update_xaxes(visible=False)
    fig.update_layout(height=height or 70 + 75 * len(rows), margin=dict(l=10, r=10, t=40, b=10),
                      title=dict(text="SPD(2) glyphs: one ellipse per matrix", x=0.01, font=dict(size=14)),
                      showlegend=False, template="plotly_white")
    return fig


def spd_cone_figure(result):
    """SPD(2) as the open cone ``{a > 0, ac > b^2}`` in coordinates ``(a, b, c)`` of ``[[a, b], [b, c]]``."""
    manifold = result.manifold
    pts = [result.data] + [o.releases for o in _outcomes(result)] + [result.true_mean[None]]
    scale = float(np.percentile(np.concatenate([manifold.to_display(p)[:, [0, 2]].ravel() for p in pts]), 98)) * 1.2
    s, t = np.mgrid[0 : scale : 30j, 0 : 2 * np.pi : 40j]
    # boundary ac = b^2: a = s(1 + cos t)/2, c = s(1 - cos t)/2, b = s sin(t)/2
    fig = go.Figure()
    fig.add_trace(go.Surface(x=s * (1 + np.cos(t)) / 2, y=s * np.sin(t) / 2, z=s * (1 - np.cos(t)) / 2, opacity=0.15,
                             showscale=False, colorscale=[[0, "#c8d7ea"], [1, "#c8d7ea"]], hoverinfo="skip",
                             name="cone boundary ac = b²"))
    d = manifold.to_display(result.data)
    fig.add_trace(go.Scatter3d(x=d[:, 0], y=d[:, 1], z=d[:, 2], mode="markers", marker=dict(size=2.5, color=DATA_COLOR),
                               name="data"))
    for o in _outcomes(result):
        r = manifold.to_display(o.releases)
        fig.add_trace(go.Scatter3d(x=r[:, 0], y=r[:, 1], z=r[:, 2], mode="markers",
                                   marker=dict(size=2.5, color=MECHANISM_COLORS.get(o.name, "#333"), opacity=0.7),
                                   name=f"{o.title} releases"))
    m = manifold.to_display(result.true_mean)
    fig.add_trace(go.Scatter3d(x=[m[0]], y=[m[1]], z=[m[2]], mode="markers",
                               marker=dict(size=7, color="gold", symbol="diamond", line=dict(color="black", width=1)),
                               name=MEAN_NAME))
    fig.update_layout(scene=dict(xaxis_title="a", yaxis_title="b", zaxis_title="c", aspectmode="cube"),
                      margin=dict(l=0, r=0, t=30, b=0), legend=dict(orientation="h"))
    return fig


def _tangent_view_figure(result):
    """2D view through ``Log_{m0}``: first two frame coordinates at the public centre."""
    manifold, center = result.manifold, result.center

    def coords(points):
        c = manifold.to_frame(center, manifold.log(center, points))
        return c if c.shape[-1] > 1 else np.concatenate([c, np.zeros_like(c)], axis=-1)

    fig = go.Figure()
    ring = coords(ball_boundary(manifold, center, result.scenario.radius))
    fig.add_trace(go.Scatter(x=ring[:, 0], y=ring[:, 1], mode="lines", line=dict(color="black", dash="dash"),
                             name="public ball B(m₀, r)"))
    d = coords(result.data)
    fig.add_trace(go.Scatter(x=d[:, 0], y=d[:, 1], mode="markers", marker=dict(size=4, color=DATA_COLOR), name="data"))
    for o in _outcomes(result):
        r = coords(o.releases)
        fig.add_trace(go.Scatter(x=r[:, 0], y=r[:, 1], mode="markers",
                                 marker=dict(size=4, color=MECHANISM_COLORS.get(o.name, "#333"), opacity=0.6),
                                 name=f"{o.title} releases"))
    m = coords(result.true_mean[None])[0]
    fig.add_trace(go.Scatter(x=[m[0]], y=[m[1]], mode="markers",
                             marker=dict(size=13, color="gold", symbol="star", line=dict(color="black", width=1)),
                             name=MEAN_NAME))
    fig.update_xaxes(title="Log_{m₀} frame coordinate 1")
    fig.update_yaxes(title="frame coordinate 2", scaleanchor="x", scaleratio=1)
    return fig


def scene_figure(result, camera="oblique", height=560):
    """The main picture of a :class:`~geodp_core.explorer.ScenarioResult`.

    Parameters
    ----------
    result : ScenarioResult
    camera : str
        A key of :data:`CAMERA_PRESETS` (3D sphere only).
    height : int
    """
    manifold = result.manifold
    if manifold.name == "sphere" and manifold.dim == 2:
        fig, kind = _sphere_figure(result, camera), "3D sphere"
    elif manifold.name == "hyperbolic" and manifold.dim == 2:
        fig, kind = _disk_figure(result), "Poincaré disk"
    elif manifold.name == "spd" and manifold.m == 2:
        fig, kind = _spd_ellipse_figure(result), "SPD(2) ellipses {x: xᵀP⁻¹x = 1}"
    else:
        fig, kind = _tangent_view_figure(result), f"{manifold.label}: tangent view at the public centre"
    fig.update_layout(
        height=height, margin=dict(l=10, r=10, t=40, b=10), title=dict(text=kind, x=0.01, font=dict(size=14)),
        legend=dict(orientation="h", yanchor="top", y=-0.02, x=0.0), template="plotly_white",
    )
    return fig
