"""Plotly figures of one scenario: data, true mean, release clouds, public ball.

- ``S^2``: a 3D sphere; the default camera looks at the public centre ``m0`` from outside;
- ``H^2``: the Poincaré disk, zoomed to the data, the public ball and the release clouds, with an inset of the
  whole disk marking the zoomed region;
- ``SPD(2)``: ellipses ``{x : x^T P^{-1} x = 1}``, a glyph table and points in the SPD cone in 3D;
- anything else: a 2D tangent-space view at the PUBLIC centre (``Log_{m0}``, first two frame coordinates).

Every figure has a title, axis explanations and a horizontal legend below the plot (constant-size markers; a
click on an entry isolates it). Payload is bounded whatever the scenario size: at most
:data:`MAX_RELEASES_DRAWN` releases per mechanism and :data:`MAX_DATA_DRAWN` data points are drawn (the legend
says "showing k of N"), coordinates are sent as float32 (or rounded), and 2D point clouds use WebGL.
Distances are geodesic distances in radians.

No Streamlit here: a notebook user gets the same figures.
"""

import dataclasses
import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from geodp_core.geometry.base import unicode_powers
from geodp_core.mechanisms import registry
from geodp_core.viz.layout import NOTE_CHARS, TITLE_CHARS, title_below_modebar, wrap_text

__all__ = [
    "CAMERA_PRESETS",
    "DEFAULT_CAMERA",
    "MECHANISM_COLORS",
    "MAX_DATA_DRAWN",
    "MAX_RELEASES_DRAWN",
    "scene_figure",
    "add_budget_frames",
    "budget_frames_figure",
    "show_budget",
    "spd_cone_figure",
    "spd_glyph_figure",
    "ball_boundary",
    "ellipse_outline",
    "data_camera",
]

DEFAULT_CAMERA = "on the data"

CAMERA_PRESETS = {
    # None = computed from the result: :func:`data_camera` looks at the public centre m0 from outside.
    DEFAULT_CAMERA: None,
    "oblique": dict(eye=dict(x=1.15, y=1.15, z=0.95)),
    "top (north pole)": dict(eye=dict(x=0.0, y=0.0, z=1.9)),
    "side": dict(eye=dict(x=1.9, y=0.0, z=0.2)),
    "front": dict(eye=dict(x=0.0, y=1.9, z=0.2)),
}
"""Camera of the 3D sphere by name. A value ``None`` means "computed from the result" (see :func:`data_camera`)."""

#: ``{mechanism name: colour}``, read from each mechanism's spec (a live view of the registry).
MECHANISM_COLORS = registry.MECHANISM_COLORS
DATA_COLOR = "rgba(90, 90, 90, 0.55)"
MEAN_NAME = "true Fréchet mean (teaching view: private!)"
MEAN_COLOR = "gold"

MAX_RELEASES_DRAWN = 400
"""Most releases drawn per mechanism in a point cloud (the legend says "showing k of N")."""
MAX_DATA_DRAWN = 1000
"""Most data points drawn in a point cloud."""
MAX_ELLIPSES_DRAWN = 25
"""Most ellipses drawn per group in the SPD(2) ellipse view."""

ISOLATE_HINT = "click a legend entry to isolate it, again to show all"
_EYE_DISTANCE = 1.6
_EYE_TILT = math.radians(15.0)
_ZOOM_QUANTILE = 99.0  # release clouds are framed up to this percentile of their spread
_FULL_DISK_HALF_WIDTH = 0.6  # zoom windows wider than this show the whole disk (no inset)


# --------------------------------------------------------------------------------------------- helpers
def _f32(values):
    """Coordinates for display: float32 is plenty and halves the JSON payload (Plotly sends typed arrays)."""
    return np.ascontiguousarray(np.asarray(values, dtype=float), dtype=np.float32)


def _thin(points, cap):
    """At most ``cap`` points, evenly spaced through the array (deterministic); also returns the total."""
    points = np.asarray(points)
    total = len(points)
    if total <= cap:
        return points, total
    return points[np.linspace(0, total - 1, cap).round().astype(int)], total


def _showing(shown, total):
    return "" if shown >= total else f" (showing {shown} of {total})"


def _decimals(scale, digits=4):
    """Decimals keeping about ``digits`` significant digits of a figure whose coordinates are ``scale`` big."""
    if not np.isfinite(scale) or scale <= 0:
        return digits
    return int(min(12, max(0, digits - 1 - math.floor(math.log10(scale)))))


def _polylines(curves, digits=4):
    """``x``, ``y`` lists of several 2D curves separated by ``None`` gaps, rounded for a small payload.

    ``curves`` is a sequence of ``(2, k)`` arrays.
    """
    curves = [np.asarray(c, dtype=float) for c in curves]
    if not curves:
        return [], []
    decimals = _decimals(max(float(np.max(np.abs(c))) for c in curves), digits)
    xs, ys = [], []
    for c in curves:
        xs += np.round(c[0], decimals).tolist() + [None]
        ys += np.round(c[1], decimals).tolist() + [None]
    return xs, ys


def _outcomes(result):
    return [o for o in result.outcomes if o.status == "ok"]


def _color(outcome):
    return MECHANISM_COLORS.get(outcome.name, "#333")


def _release_name(outcome, shown, total):
    return f"{outcome.title} releases{_showing(shown, total)}"


def _data_name(shown, total):
    return f"data (n={total}{', showing ' + str(shown) if shown < total else ''})"


def _style(fig, title, subtitle="", height=560, legend=True, legend_on_container=True):
    """Shared layout: title + subtitle, readable horizontal legend below the plot, click isolates."""
    legend_layout = dict(
        orientation="h", x=0.0, xanchor="left", itemsizing="constant", itemclick="toggleothers",
        itemdoubleclick="toggle", font=dict(size=12), tracegroupgap=4,
    )
    if legend_on_container:  # below everything (axis titles included); the plot shrinks to make room
        legend_layout.update(yref="container", y=0.0, yanchor="bottom")
    else:
        legend_layout.update(y=-0.02, yanchor="top")
    fig.update_layout(height=height, template="plotly_white", showlegend=legend, margin=dict(l=10, r=10, b=10),
                      legend=legend_layout)
    title_below_modebar(fig, wrap_text(title, TITLE_CHARS), subtitle=wrap_text(subtitle, NOTE_CHARS) if subtitle else "",
                        font_size=15, gap=10, pad=dict(l=10))
    return fig


def _hint(*lines):
    return "<br>".join(line for line in lines if line)


def _frame_2d(required, clouds, margin=0.12, min_half=1e-3):
    """Square window ``((x0, x1), (y0, y1))`` containing every ``required`` point and, of each cloud, the points
    up to the :data:`_ZOOM_QUANTILE` percentile of their distance (max-norm) from the window centre."""
    required = np.asarray(required, dtype=float).reshape(-1, 2)
    lo, hi = required.min(axis=0), required.max(axis=0)
    center = (lo + hi) / 2
    half = float(np.max(np.abs(required - center)))
    for cloud in clouds:
        cloud = np.asarray(cloud, dtype=float).reshape(-1, 2)
        if len(cloud):
            spread = np.max(np.abs(cloud - center), axis=1)
            half = max(half, float(np.percentile(spread, _ZOOM_QUANTILE)))
    half = max(half * (1 + margin), min_half)
    return (center[0] - half, center[0] + half), (center[1] - half, center[1] + half)


def _mean_marker(size=9, symbol="star"):
    return dict(size=size, color=MEAN_COLOR, symbol=symbol, line=dict(color="black", width=1))


# ----------------------------------------------------------------------------------------------- S^2
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


def data_camera(center, distance=_EYE_DISTANCE, tilt=_EYE_TILT):
    """Plotly camera looking at the point ``center`` of the unit sphere from outside.

    The eye is at ``distance`` along ``center``, tilted by ``tilt`` radians towards the north (or towards ``+y``
    when ``center`` is near a pole) so the sphere still looks round and 3D; north is up on the screen.
    """
    m0 = np.asarray(center, dtype=float).reshape(3)
    m0 = m0 / max(np.linalg.norm(m0), 1e-12)
    up = np.array([0.0, 0.0, 1.0])
    tangent = up - (up @ m0) * m0
    if np.linalg.norm(tangent) < 0.3:  # near a pole: "north" is ill-defined, use +y
        up = np.array([0.0, 1.0, 0.0])
        tangent = up - (up @ m0) * m0
    tangent /= np.linalg.norm(tangent)
    eye = distance * (math.cos(tilt) * m0 + math.sin(tilt) * tangent)
    return dict(eye=dict(x=float(eye[0]), y=float(eye[1]), z=float(eye[2])),
                up=dict(x=float(tangent[0]), y=float(tangent[1]), z=float(tangent[2])),
                center=dict(x=0.0, y=0.0, z=0.0))


def _add_ball_data_mean_2d(fig, ring, data, mean):
    """The public ball, the data (thinned) and the true mean of a 2-D view; the mean first, beneath the clouds."""
    ring32 = _f32(ring)
    fig.add_trace(go.Scattergl(x=ring32[:, 0], y=ring32[:, 1], mode="lines", line=dict(color="black", dash="dash"),
                               name="public ball B(m₀, r)", hoverinfo="skip"))
    d, n_data = _thin(data, MAX_DATA_DRAWN)
    d = _f32(d)
    fig.add_trace(go.Scattergl(x=d[:, 0], y=d[:, 1], mode="markers", marker=dict(size=5, color=DATA_COLOR),
                               name=_data_name(len(d), n_data)))
    m = _f32(np.asarray(mean).reshape(-1))
    fig.add_trace(go.Scattergl(x=m[:1], y=m[1:2], mode="markers", marker=_mean_marker(11), name=MEAN_NAME))


def _sphere_wireframe(n_parallels=11, n_meridians=12, n_points=73):
    """The unit sphere as one line trace of parallels and meridians.

    A transparent WebGL surface took 3–4× longer to draw in the browser (measured in headless Chromium:
    about 350 ms per redraw against 90 ms for these lines), and an ε change redraws the whole scene.
    """
    t = np.linspace(0.0, 2.0 * np.pi, n_points)
    gap = np.full(1, np.nan)
    xs, ys, zs = [], [], []
    for lat in np.linspace(-75.0, 75.0, n_parallels) * np.pi / 180.0:
        xs += [np.cos(lat) * np.cos(t), gap]
        ys += [np.cos(lat) * np.sin(t), gap]
        zs += [np.full(n_points, np.sin(lat)), gap]
    for lon in np.linspace(0.0, np.pi, n_meridians, endpoint=False):
        xs += [np.cos(lon) * np.cos(t), gap]
        ys += [np.sin(lon) * np.cos(t), gap]
        zs += [np.sin(t), gap]
    def gapped(parts):  # None separates the circles (rounded: a display needs 4 digits)
        values = np.round(np.concatenate(parts), 4)
        return [None if np.isnan(v) else float(v) for v in values]

    return go.Scatter3d(x=gapped(xs), y=gapped(ys), z=gapped(zs), mode="lines", line=dict(color="#b8c7dc", width=1),
                        hoverinfo="skip", name="S²", showlegend=False, connectgaps=False)


def _sphere_figure(result, camera, wireframe=True):
    fig = go.Figure()
    if wireframe:  # (a budget frame's traces do not need it: the frames are matched by mechanism, not position)
        fig.add_trace(_sphere_wireframe())
    ring = _f32(ball_boundary(result.manifold, result.center, result.scenario.radius, n_points=120))
    fig.add_trace(go.Scatter3d(x=ring[:, 0], y=ring[:, 1], z=ring[:, 2], mode="lines",
                               line=dict(color="black", width=3, dash="dash"), name="public ball B(m₀, r)",
                               hoverinfo="skip"))
    d, n_data = _thin(result.data, MAX_DATA_DRAWN)
    d = _f32(d)
    fig.add_trace(go.Scatter3d(x=d[:, 0], y=d[:, 1], z=d[:, 2], mode="markers",
                               marker=dict(size=2.5, color=DATA_COLOR), name=_data_name(len(d), n_data)))
    # a hair below the surface: releases at the same place are nearer the camera and drawn over it
    m = _f32(0.985 * np.asarray(result.true_mean, dtype=float))
    fig.add_trace(go.Scatter3d(x=[m[0]], y=[m[1]], z=[m[2]], mode="markers", marker=_mean_marker(4.5, "diamond"),
                               name=MEAN_NAME))
    for o in _outcomes(result):
        r, total = _thin(o.releases, MAX_RELEASES_DRAWN)
        r = _f32(r)
        fig.add_trace(go.Scatter3d(x=r[:, 0], y=r[:, 1], z=r[:, 2], mode="markers", legendgroup=o.name,
                                   marker=dict(size=2.5, color=_color(o), opacity=0.75),
                                   name=_release_name(o, len(r), total)))
    key = camera if camera in CAMERA_PRESETS else DEFAULT_CAMERA
    view = CAMERA_PRESETS[key]
    revision = key
    if view is None:
        view = data_camera(result.center)
        revision = f"{key}@" + ",".join(f"{c:.3f}" for c in np.asarray(result.center, dtype=float).ravel())
    axis = dict(visible=False, range=[-1.05, 1.05])
    fig.update_layout(
        scene=dict(xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="cube", camera=view),
        uirevision=revision,  # keeps a user's rotation across reruns, re-aims when the public centre moves
    )
    return fig


# ----------------------------------------------------------------------------------------------- H^2
def _visible_arc(x_range, y_range, n_points=721):
    """The unit circle (boundary at infinity) where it crosses the window, ``None`` where it is outside."""
    t = np.linspace(0.0, 2 * np.pi, n_points)
    x, y = np.cos(t), np.sin(t)
    inside = (x >= x_range[0]) & (x <= x_range[1]) & (y >= y_range[0]) & (y <= y_range[1])
    # keep one point either side of each visible run so the arc reaches the window edge
    keep = inside | np.roll(inside, 1) | np.roll(inside, -1)
    if not keep.any():
        return None, None
    xs, ys, gap = [], [], False
    for xi, yi, k in zip(np.round(x, 4), np.round(y, 4), keep):
        if k:
            xs.append(float(xi))
            ys.append(float(yi))
            gap = False
        elif not gap:
            xs.append(None)
            ys.append(None)
            gap = True
    return xs, ys


def _disk_figure(result):
    manifold = result.manifold
    ring = manifold.to_poincare(ball_boundary(manifold, result.center, result.scenario.radius, n_points=120))
    data_all = manifold.to_poincare(result.data)
    mean = manifold.to_poincare(result.true_mean)
    clouds = [(o, manifold.to_poincare(o.releases)) for o in _outcomes(result)]
    x_range, y_range = _frame_2d(np.vstack([ring, data_all, mean[None]]), [c for _, c in clouds])
    zoomed = (x_range[1] - x_range[0]) / 2 < _FULL_DISK_HALF_WIDTH
    if not zoomed:
        x_range = y_range = (-1.05, 1.05)

    fig = go.Figure()
    xs, ys = _visible_arc(x_range, y_range)
    if xs is not None:
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="black", width=1.5),
                                 name="boundary at infinity", hoverinfo="skip"))
    _add_ball_data_mean_2d(fig, ring, data_all, mean)
    for o, cloud in clouds:
        color = _color(o)
        paths = [manifold.to_poincare(_geodesic(manifold, result.true_mean, rel, n_points=30)).T
                 for rel in o.releases[:3]]
        gx, gy = _polylines(paths)
        fig.add_trace(go.Scattergl(x=gx, y=gy, mode="lines", line=dict(color=color, width=1), opacity=0.7,
                                   legendgroup=o.name, showlegend=False, hoverinfo="skip",
                                   name=f"{o.title}: geodesics from the true mean to 3 draws"))
        r, total = _thin(cloud, MAX_RELEASES_DRAWN)
        r = _f32(r)
        fig.add_trace(go.Scattergl(x=r[:, 0], y=r[:, 1], mode="markers", legendgroup=o.name,
                                   marker=dict(size=5, color=color, opacity=0.6), name=_release_name(o, len(r), total)))
    fig.update_xaxes(range=list(x_range), constrain="domain", zeroline=False, showgrid=True, gridcolor="#eee",
                     title=dict(text="Poincaré-disk coordinate b₁", font=dict(size=12)), domain=[0.0, 1.0])
    fig.update_yaxes(range=list(y_range), constrain="domain", scaleanchor="x", scaleratio=1, zeroline=False,
                     showgrid=True, gridcolor="#eee", title=dict(text="b₂", font=dict(size=12)))
    if zoomed:
        _add_disk_inset(fig, x_range, y_range)
    return fig, zoomed


def _add_disk_inset(fig, x_range, y_range):
    """Small axes in the top-right corner: the whole unit disk and a rectangle marking the zoomed region."""
    t = np.linspace(0.0, 2 * np.pi, 73)
    x0, x1 = x_range
    y0, y1 = y_range
    common = dict(xaxis="x2", yaxis="y2", showlegend=False)
    # WebGL like the main clouds, so the opaque disk is drawn above them
    fig.add_trace(go.Scattergl(x=_f32(np.cos(t)), y=_f32(np.sin(t)), mode="lines", fill="toself",
                               fillcolor="rgba(236, 241, 248, 1)", line=dict(color="black", width=1),
                               name="inset: the whole Poincaré disk", hoverinfo="skip", **common))
    fig.add_trace(go.Scattergl(x=_f32([x0, x1, x1, x0, x0]), y=_f32([y0, y0, y1, y1, y0]), mode="lines",
                               line=dict(color="#d62728", width=2), name="inset: zoomed region",
                               hoverinfo="name", **common))
    inset_axis = dict(range=[-1.08, 1.08], visible=False, fixedrange=True, constrain="domain")
    fig.update_layout(
        xaxis2=dict(domain=[0.80, 1.0], anchor="y2", **inset_axis),
        yaxis2=dict(domain=[0.78, 1.0], anchor="x2", scaleanchor="x2", scaleratio=1, **inset_axis),
    )


# ---------------------------------------------------------------------------------------------- SPD(2)
def ellipse_outline(matrix, n_points=60):
    """Boundary of the ellipse ``{x : x^T P^{-1} x = 1}`` of a 2x2 SPD matrix, shape ``(2, n_points)``."""
    t = np.linspace(0, 2 * np.pi, n_points)
    eigvals, eigvecs = np.linalg.eigh(matrix)
    circle = np.stack([np.cos(t), np.sin(t)])
    return eigvecs @ (np.sqrt(eigvals)[:, None] * circle)


def _axis_ratio(matrices):
    """Ratio of the ellipse axes ``sqrt(lambda_max / lambda_min)`` of each 2x2 SPD matrix."""
    eig = np.linalg.eigvalsh(np.asarray(matrices, dtype=float).reshape(-1, 2, 2))
    return np.sqrt(eig[:, -1] / np.maximum(eig[:, 0], 1e-300))


def _spd_ellipse_figure(result, max_per_group=MAX_ELLIPSES_DRAWN, n_points=48):
    """Small multiples: one panel per group (data, each mechanism), all at the same scale, each with the true
    mean as a thick dashed outline on top. Overlaid in one panel, near-identical ellipses merge into one band."""
    groups = [("data", f"data ellipses (n={len(result.data)})", result.data, "rgba(90,90,90,0.9)", 0.8, "data")]
    groups += [(o.title, f"{o.title} releases", o.releases, _color(o), 1.0, o.name) for o in _outcomes(result)]
    shown = [_thin(mats, max_per_group) for _, _, mats, _, _, _ in groups]
    extent = max(float(np.sqrt(np.max(np.linalg.eigvalsh(np.asarray(mats, dtype=float))))) for mats, _ in shown)
    extent = 1.08 * max(extent, float(np.sqrt(np.linalg.eigvalsh(result.true_mean)[-1])))
    n_cols = 2 if len(groups) <= 4 else 3
    n_rows = -(-len(groups) // n_cols)
    mean_xs, mean_ys = _polylines([ellipse_outline(result.true_mean, n_points)])
    fig = go.Figure()
    annotations = []
    for k, ((label, name, _, color, width, group), (mats, total)) in enumerate(zip(groups, shown)):
        row, col = divmod(k, n_cols)
        suffix = "" if k == 0 else str(k + 1)
        x_domain = [col / n_cols + 0.02, (col + 1) / n_cols - 0.02]
        y_domain = [1 - (row + 1) / n_rows + 0.02, 1 - row / n_rows - 0.08]
        xs, ys = _polylines([ellipse_outline(mat, n_points) for mat in mats])
        fig.add_trace(go.Scattergl(x=xs, y=ys, mode="lines", line=dict(color=color, width=width), opacity=0.8,
                                   hoverinfo="skip", name=name + _showing(len(mats), total), legendgroup=group,
                                   xaxis="x" + suffix, yaxis="y" + suffix))
        fig.add_trace(go.Scattergl(x=mean_xs, y=mean_ys, mode="lines", line=dict(color="black", width=2.2, dash="dash"),
                                   name=MEAN_NAME, legendgroup="true mean", showlegend=k == 0, hoverinfo="name",
                                   xaxis="x" + suffix, yaxis="y" + suffix))
        axis = dict(range=[-extent, extent], constrain="domain", zeroline=False, gridcolor="#eee", nticks=5,
                    showticklabels=True, tickfont=dict(size=9))
        last_row = row == n_rows - 1 or k + n_cols >= len(groups)  # nothing below: its x ticks are read here
        fig.update_layout({
            "xaxis" + suffix: dict(domain=x_domain, anchor="y" + suffix, **dict(axis, showticklabels=last_row)),
            "yaxis" + suffix: dict(domain=y_domain, anchor="x" + suffix, scaleanchor="x" + suffix, scaleratio=1, **axis),
        })
        annotations.append(dict(text=f"<b>{label.split(' (')[0]}</b>", x=sum(x_domain) / 2,
                                y=y_domain[1], xref="paper", yref="paper", xanchor="center", yanchor="bottom",
                                showarrow=False, font=dict(size=11, color=color if k else "#444")))
    fig.update_layout(annotations=annotations)
    return fig


def spd_glyph_figure(result, per_row=8, height=None):
    """SPD(2) matrices as ellipse glyphs laid out in rows: data sample, true mean, releases per mechanism.

    Each glyph is ``{x : x^T P^{-1} x = 1}`` drawn at its own grid position at TRUE scale (the same scale
    everywhere), so shapes and sizes can be compared one by one — the classic tensor-glyph layout. Each row
    label gives the range of the axis ratio (anisotropy) of its glyphs, and the subtitle says when they are all
    near-circles (then the rows differ in size and orientation only).
    """
    rows = [("data (sample)", _thin(result.data, per_row)[0], DATA_COLOR)]
    rows.append(("true mean (teaching view)", np.asarray(result.true_mean)[None], "black"))
    rows += [(o.title, _thin(o.releases, per_row)[0], _color(o)) for o in _outcomes(result)]
    radii = [np.sqrt(np.linalg.eigvalsh(m)[-1]) for _, mats, _ in rows for m in mats]
    spacing = 2.3 * max(radii)
    pitch = 1.45 * spacing  # row height: a glyph plus room for its label above
    ratios = [_axis_ratio(mats) for _, mats, _ in rows]
    fig = go.Figure()
    annotations = []
    for r, ((name, mats, color), ratio) in enumerate(zip(rows, ratios)):
        curves = [ellipse_outline(mat, 40) + np.array([[c * spacing], [-r * pitch]]) for c, mat in enumerate(mats)]
        xs, ys = _polylines(curves)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=color, width=1.5), name=name,
                                 fill="toself", opacity=0.8, hoverinfo="name"))
        span = f"{ratio.min():.2f}" if np.ptp(ratio) < 0.005 else f"{ratio.min():.2f}–{ratio.max():.2f}"
        # the label sits above its row (not beside it), so the glyphs keep the full width on a phone
        annotations.append(dict(text=f"<b>{name}</b> · axis ratio {span}", x=-0.5 * spacing, y=-r * pitch + 0.5 * spacing,
                                xref="x", yref="y", xanchor="left", yanchor="bottom", showarrow=False,
                                font=dict(size=11, color="#333")))

    all_ratios = np.concatenate(ratios)
    note = (f"all glyphs are near-circles (axis ratio ≤ {np.max(all_ratios):.2f}):<br>rows differ in size and "
            "orientation, hardly in shape" if np.max(all_ratios) < 1.3 else "axis ratio √(λ_max/λ_min): 1 = circle")
    fig.update_yaxes(range=[-(len(rows) - 1) * pitch - 0.55 * spacing, 0.55 * spacing + 0.45 * spacing],
                     scaleanchor="x", scaleratio=1, visible=False, constrain="domain", constraintoward="top")
    fig.update_xaxes(range=[-0.55 * spacing, (per_row - 0.45) * spacing], visible=False, constrain="domain")
    fig.update_layout(annotations=annotations)
    _style(fig, "SPD(2) glyphs: one ellipse per matrix",
           _hint("{x : xᵀP⁻¹x = 1} at the same (true) scale in every row", note),
           height=height or 120 + 80 * len(rows), legend=False)
    return fig


def _overlaps(first, second):
    return first[0] <= second[1] and second[0] <= first[1]


def _cone_box(points, clouds, pad=0.15):
    """Axis ranges (a, b, c) framing every point of ``points`` and 99% of each cloud, padded."""
    lo, hi = points.min(axis=0), points.max(axis=0)
    tail = (100.0 - _ZOOM_QUANTILE) / 2
    for cloud in clouds:
        if len(cloud):
            lo = np.minimum(lo, np.percentile(cloud, tail, axis=0))
            hi = np.maximum(hi, np.percentile(cloud, 100.0 - tail, axis=0))
    span = np.maximum(hi - lo, 1e-3 * max(float(np.max(np.abs(hi))), 1e-12))
    lo, hi = lo - pad * span, hi + pad * span
    lo[[0, 2]] = np.maximum(lo[[0, 2]], 0.0)  # a, c > 0 on SPD(2)
    return lo, hi


def spd_cone_figure(result, height=560):
    """SPD(2) as the open cone ``{a > 0, ac > b^2}`` in coordinates ``(a, b, c)`` of ``[[a, b], [b, c]]``.

    The axes are zoomed to the data and the release clouds; the boundary surface ``ac = b^2`` (the singular
    matrices) is drawn where it crosses the box, and the subtitle says so when it lies outside.
    """
    manifold = result.manifold
    data_all = manifold.to_display(result.data)
    mean = manifold.to_display(result.true_mean)
    clouds = [(o, manifold.to_display(o.releases)) for o in _outcomes(result)]
    lo, hi = _cone_box(np.vstack([data_all, mean[None]]), [c for _, c in clouds])

    fig = go.Figure()
    # boundary ac = b^2 (det = 0): the sheets b = +sqrt(ac) and b = -sqrt(ac) over the (a, c) box, kept when
    # they cross the b range ({sqrt(ac)} over the box is [sqrt(a_lo c_lo), sqrt(a_hi c_hi)]); Plotly clips the rest
    low_b, high_b = math.sqrt(lo[0] * lo[2]), math.sqrt(hi[0] * hi[2])
    a, c = np.meshgrid(np.linspace(lo[0], hi[0], 25), np.linspace(lo[2], hi[2], 25))
    sheets = [sign for sign in (1.0, -1.0) if _overlaps(sorted((sign * low_b, sign * high_b)), (lo[1], hi[1]))]
    for k, sign in enumerate(sheets):
        fig.add_trace(go.Surface(x=_f32(a), y=_f32(sign * np.sqrt(a * c)), z=_f32(c), opacity=0.25, showscale=False,
                                 colorscale=[[0, "#7f9cc6"], [1, "#7f9cc6"]], hoverinfo="skip", legendgroup="boundary",
                                 name="cone boundary ac = b² (singular matrices)", showlegend=k == 0))
    d, n_data = _thin(data_all, MAX_DATA_DRAWN)
    d = _f32(d)
    fig.add_trace(go.Scatter3d(x=d[:, 0], y=d[:, 1], z=d[:, 2], mode="markers", marker=dict(size=2.5, color=DATA_COLOR),
                               name=_data_name(len(d), n_data)))
    m = _f32(mean)
    fig.add_trace(go.Scatter3d(x=[m[0]], y=[m[1]], z=[m[2]], mode="markers", marker=_mean_marker(4.5, "diamond"),
                               name=MEAN_NAME))
    for o, cloud in clouds:
        r, total = _thin(cloud, MAX_RELEASES_DRAWN)
        r = _f32(r)
        fig.add_trace(go.Scatter3d(x=r[:, 0], y=r[:, 1], z=r[:, 2], mode="markers", legendgroup=o.name,
                                   marker=dict(size=2.5, color=_color(o), opacity=0.75),
                                   name=_release_name(o, len(r), total)))
    shown = np.vstack([data_all] + [c for _, c in clouds])
    det = float(np.min(shown[:, 0] * shown[:, 2] - shown[:, 1] ** 2))
    where = (["surface: the boundary ac = b² (det P = 0, singular)"] if sheets else
             ["zoomed: the boundary ac = b² (det P = 0) is outside;", f"det P = ac − b² ≥ {det:.2g} for every point shown"])
    axis = dict(showbackground=True, backgroundcolor="rgba(236,241,248,0.7)", gridcolor="white",
                title_font=dict(size=12))
    fig.update_layout(scene=dict(
        xaxis=dict(title="a = P₁₁", range=[lo[0], hi[0]], **axis),
        yaxis=dict(title="b = P₁₂", range=[lo[1], hi[1]], **axis),
        zaxis=dict(title="c = P₂₂", range=[lo[2], hi[2]], **axis),
        aspectmode="cube",
    ), uirevision="spd-cone")
    _style(fig, "SPD(2) as a cone in (a, b, c)",
           _hint("P = [[a, b], [b, c]] is SPD iff a > 0 and ac > b²", *where, ISOLATE_HINT), height=height,
           legend_on_container=False)
    fig.update_layout(margin=dict(l=0, r=0))
    return fig


# ---------------------------------------------------------------------------------------- tangent view
def principal_directions(coords, k=2):
    r"""The ``k`` leading principal directions (columns, ``(d, k)``) of frame coordinates ``(n, d)`` and their shares.

    Right singular vectors of the centred coordinates; the shares are the fractions of the total variance along
    them. With :math:`d \le k` the identity (all of the variance).
    """
    coords = np.asarray(coords, dtype=float)
    d = coords.shape[-1]
    if d <= k or len(coords) < 2:
        return np.eye(d)[:, :k], np.ones(min(d, k)) / max(min(d, k), 1)
    centred = coords - coords.mean(axis=0)
    _, singular, vt = np.linalg.svd(centred, full_matrices=False)
    total = float(np.sum(singular**2))
    shares = singular[:k] ** 2 / total if total > 0 else np.zeros(k)
    return vt[:k].T, shares


def _tangent_view_figure(result):
    """2D view through ``Log_{m0}``: the data's two principal directions in the frame at the public centre.

    In dimension 2 (or 1) these are the frame's own axes. In higher dimension the picture is a projection (a
    distance in it is at most the geodesic distance to m₀); the directions come from the data, so the view is
    for the data owner, like the data it shows.
    """
    manifold, center = result.manifold, result.center

    def frame_coords(points):
        return manifold.to_frame(center, manifold.log(center, points, check=False))

    axes, shares = principal_directions(frame_coords(result.data))

    def coords(points):
        c = frame_coords(points) @ axes
        return c if c.shape[-1] > 1 else np.concatenate([c, np.zeros_like(c)], axis=-1)

    # Log_{m0} maps B(m0, r) onto the ball of radius r of the tangent space: every 2-D projection is a disk of radius r.
    angle = np.linspace(0.0, 2.0 * np.pi, 121) if manifold.dim > 1 else np.array([np.pi, 0.0])  # d = 1: [-r, r]
    ring = result.scenario.radius * np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    data_all = coords(result.data)
    mean = coords(result.true_mean[None])
    clouds = [(o, coords(o.releases)) for o in _outcomes(result)]
    x_range, y_range = _frame_2d(np.vstack([ring, data_all, mean]), [c for _, c in clouds])
    projected = manifold.dim > 2
    unit = manifold.distance_unit  # radians on a sphere, data units on ℝᵈ, ...
    x_title = (f"principal direction 1 ({shares[0]:.0%} of the data's variance), {unit}" if projected else
               f"coordinate 1 of the tangent vector at m₀ ({unit})")
    y_title = f"direction 2 ({shares[1]:.0%}), {unit}" if projected else f"coordinate 2 ({unit})"

    fig = go.Figure()
    _add_ball_data_mean_2d(fig, ring, data_all, mean[0])
    for o, cloud in clouds:
        r, total = _thin(cloud, MAX_RELEASES_DRAWN)
        r = _f32(r)
        fig.add_trace(go.Scattergl(x=r[:, 0], y=r[:, 1], mode="markers", legendgroup=o.name,
                                   marker=dict(size=5, color=_color(o), opacity=0.6),
                                   name=_release_name(o, len(r), total)))
    fig.update_xaxes(range=list(x_range), constrain="domain", title=dict(text=x_title, font=dict(size=12)))
    fig.update_yaxes(range=list(y_range), constrain="domain", scaleanchor="x", scaleratio=1,
                     title=dict(text=y_title, font=dict(size=12)))
    return fig


# ------------------------------------------------------------------------------------------- SO(3)
def _sphere_lines(radius, n_circles=6, n_points=61):
    """Latitude and longitude circles of the sphere of ``radius`` as one polyline (NaN-separated)."""
    t = np.linspace(0.0, 2.0 * np.pi, n_points)
    gap = np.full(1, np.nan)
    xs, ys, zs = [], [], []
    for lat in np.linspace(-60.0, 60.0, n_circles - 1) * np.pi / 180.0:
        xs += [radius * np.cos(lat) * np.cos(t), gap]
        ys += [radius * np.cos(lat) * np.sin(t), gap]
        zs += [np.full(n_points, radius * np.sin(lat)), gap]
    for lon in np.linspace(0.0, np.pi, n_circles, endpoint=False):
        xs += [radius * np.cos(lon) * np.cos(t), gap]
        ys += [radius * np.sin(lon) * np.cos(t), gap]
        zs += [radius * np.sin(t), gap]

    def gapped(parts):
        values = np.round(np.concatenate(parts), 4)
        return [None if np.isnan(v) else float(v) for v in values]

    return gapped(xs), gapped(ys), gapped(zs)


def _rotation_ball_figure(result):
    r"""Rotations as rotation vectors relative to the PUBLIC centre: :math:`\omega = \operatorname{vee}\log(m_0^\top
    R)`, the frame coordinates of :math:`\mathrm{Log}_{m_0}R` (axis × angle). The group fills the ball of radius
    :math:`\pi` (antipodal boundary points are the same half-turn); the public ball is the concentric ball of radius
    :math:`r`. Distances to :math:`m_0` are exact in the picture, others are not."""
    manifold, center = result.manifold, result.center

    def vectors(points):
        return manifold.to_frame(center, manifold.log(center, points, check=False))

    fig = go.Figure()
    for radius, style, name in ((np.pi, dict(color="#b8c7dc", width=1), "every rotation (angle ≤ π)"),
                                (result.scenario.radius, dict(color="black", width=2, dash="dash"),
                                 "public ball B(m₀, r)")):
        x, y, z = _sphere_lines(radius)
        fig.add_trace(go.Scatter3d(x=x, y=y, z=z, mode="lines", line=style, hoverinfo="skip", name=name,
                                   connectgaps=False, showlegend=name.startswith("public")))
    d, n_data = _thin(vectors(result.data), MAX_DATA_DRAWN)
    d = _f32(d)
    fig.add_trace(go.Scatter3d(x=d[:, 0], y=d[:, 1], z=d[:, 2], mode="markers",
                               marker=dict(size=2.5, color=DATA_COLOR), name=_data_name(len(d), n_data)))
    m = _f32(vectors(np.asarray(result.true_mean)[None]))
    fig.add_trace(go.Scatter3d(x=m[:, 0], y=m[:, 1], z=m[:, 2], mode="markers", marker=_mean_marker(4.5, "diamond"),
                               name=MEAN_NAME))
    for o in _outcomes(result):
        r, total = _thin(vectors(o.releases), MAX_RELEASES_DRAWN)
        r = _f32(r)
        fig.add_trace(go.Scatter3d(x=r[:, 0], y=r[:, 1], z=r[:, 2], mode="markers", legendgroup=o.name,
                                   marker=dict(size=2.5, color=_color(o), opacity=0.75),
                                   name=_release_name(o, len(r), total)))
    axis = dict(range=[-1.02 * np.pi, 1.02 * np.pi], showbackground=False, zeroline=False)
    fig.update_layout(
        scene=dict(xaxis=dict(axis, title=dict(text="ω₁")), yaxis=dict(axis, title=dict(text="ω₂")),
                   zaxis=dict(axis, title=dict(text="ω₃")), aspectmode="cube",
                   camera=dict(eye=dict(x=1.35, y=1.35, z=0.9))),
        uirevision="rotation-ball",
    )
    return fig


# ---------------------------------------------------------------------------------------------- entry
def scene_figure(result, camera=None, height=560, frames=None, _light=False, _traces_only=False):
    """The main picture of a :class:`~geodp_core.explorer.ScenarioResult`.

    Parameters
    ----------
    result : ScenarioResult
    camera : str, optional
        A key of :data:`CAMERA_PRESETS` (3D sphere only). ``None`` (default) or ``"on the data"`` computes the
        camera from the result: it looks at the public centre m₀ from outside (:func:`data_camera`). An unknown
        key also gets the computed camera.
    height : int
    frames : BudgetFrames, optional
        Coupled releases over the budget grid (:func:`geodp_core.explorer.budget_frames`): the figure then gets
        one animation frame per budget and a slider that scrubs them in the browser (no server round trip); see
        :func:`add_budget_frames`.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    if frames is not None:
        return add_budget_frames(result, frames, camera=camera, height=height)
    manifold = result.manifold
    legend_on_container = True
    view = manifold.view  # any other view (a new space, SPD spectra) gets the tangent view at the centre
    if view == "sphere3d":
        fig = _sphere_figure(result, camera, wireframe=not _traces_only)
        title = "3D sphere S²: data and private releases"
        subtitle = _hint("drag to rotate; distances are geodesic (radians)", ISOLATE_HINT)
        legend_on_container = False
    elif view == "poincare_disk":
        fig, zoomed = _disk_figure(result)
        title = "Poincaré disk H²: data and private releases"
        where = "zoomed to data, ball, 99% of releases; inset: whole disk" if zoomed else "the whole disk"
        subtitle = _hint(where, "|b| = tanh(ρ/2), ρ = distance to the origin (radians)", ISOLATE_HINT)
    elif view == "shapes":
        return shape_figure(result, styled=not _traces_only)
    elif view == "rotation_ball":
        fig = _rotation_ball_figure(result)
        title = f"Rotations {manifold.symbol}: data and private releases as rotation vectors"
        subtitle = _hint("ω = axis × angle of the rotation from the public centre m₀; |ω| = geodesic distance to m₀",
                         "drag to rotate", ISOLATE_HINT)
        legend_on_container = False
    elif view == "spd_ellipses":
        drawn = _ELLIPSES_IN_FRAMES if _light else MAX_ELLIPSES_DRAWN
        fig = _spd_ellipse_figure(result, max_per_group=drawn, n_points=_ELLIPSE_POINTS_IN_FRAMES if _light else 48)
        title = "SPD(2) ellipses {x: xᵀP⁻¹x = 1} per group"
        subtitle = _hint("same scale in every panel; semi-axes √λ, eigenvectors of P",
                         f"dashed: the true mean; ≤ {drawn} ellipses drawn per panel", ISOLATE_HINT)
    else:
        fig = _tangent_view_figure(result)
        title = f"{unicode_powers(manifold.symbol)}: tangent view at the public centre m₀"
        if manifold.dim > 2:
            subtitle = _hint("each point's tangent vector at m₀ (its log map), projected on the data's top 2 "
                             "directions", "projection shrinks distances: see the histograms", ISOLATE_HINT)
        else:
            subtitle = _hint(f"coordinates of each point's tangent vector at m₀ (its log map), orthonormal frame, "
                             f"{manifold.distance_unit}", "its length = the distance to m₀", ISOLATE_HINT)
    if _traces_only:  # the traces of one budget's frame: their layout is never shown
        return fig
    return _style(fig, title, subtitle, height=height, legend_on_container=legend_on_container)


# =============================================================================== budget frames
#: Decimals of the coordinates sent in the budget frames (a display needs about 4 significant digits).
FRAME_DECIMALS = 4
#: Ellipses per panel and points per ellipse of the SPD(2) view when it carries budget frames (payload).
_ELLIPSES_IN_FRAMES = 12
_ELLIPSE_POINTS_IN_FRAMES = 25
_SLIDER_HEIGHT = 78  # pixels added above the plot for the budget slider


def _with_releases(result, releases):
    """A copy of ``result`` whose outcomes named in ``releases`` carry those releases instead."""
    outcomes = [dataclasses.replace(o, releases=releases[o.name]) if releases.get(o.name) is not None else o
                for o in result.outcomes]
    return dataclasses.replace(result, outcomes=outcomes)


def _group_indices(fig, names):
    """``{mechanism name: [indices of its traces, in order]}`` (traces are grouped by ``legendgroup``)."""
    groups = {name: [] for name in names}
    for index, trace in enumerate(fig.data):
        group = getattr(trace, "legendgroup", None)
        if group in groups:
            groups[group].append(index)
    return groups


def _trace_coordinates(trace, empty=False):
    """The coordinate arrays of a point or line trace, rounded for a small payload (empty ones if ``empty``)."""
    out = {"type": trace.type}
    for axis in ("x", "y", "z"):
        values = getattr(trace, axis, None)
        if values is None:
            continue
        if empty:
            out[axis] = []
            continue
        array = np.array([np.nan if v is None else v for v in values], dtype=float) if isinstance(values, (list, tuple)) \
            else np.asarray(values, dtype=float)
        rounded = np.round(array, FRAME_DECIMALS)
        if np.isnan(rounded).any():  # gaps between curves stay gaps
            out[axis] = [None if np.isnan(v) else float(v) for v in rounded]
        else:
            out[axis] = _f32(rounded)
    return out


def _budget_label(value):
    return f"{value:g}"


def add_budget_frames(result, frames, camera=None, height=560):
    r"""The scene with one Plotly animation frame per budget of ``frames`` and a slider that scrubs them.

    The release traces of every coupled mechanism show, in the frame of budget :math:`b`, its releases at
    :math:`b` (the same uniforms at every budget: each cloud slides towards the true mean as the budget grows);
    the initial picture is the frame of the scenario's own budget. A mechanism without coupled releases keeps its
    cloud in the frame of the scenario's own budget and shows none in the others. Everything else (data, ball,
    true mean, axes) is the same in every frame. The slider is Plotly's own: moving it redraws in the browser,
    with no request to the server.

    Built in two steps so that the expensive one can be cached across the budgets of one scenario:
    :func:`budget_frames_figure` (the same for every budget of the grid) and :func:`show_budget`.

    Parameters
    ----------
    result : ScenarioResult
    frames : BudgetFrames
    camera : str, optional
    height : int

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = budget_frames_figure(result, frames, camera=camera, height=height)
    return show_budget(fig, result, frames, frames.current, camera=camera)


def _reference_index(frames):
    """The budget whose clouds frame the picture: the middle of the grid (a function of the grid only)."""
    return len(frames.values) // 2


def budget_frames_figure(result, frames, camera=None, height=560):
    """The part of :func:`add_budget_frames` that does not depend on the scenario's own budget.

    The view (zoom, extents) is framed on the coupled clouds at the middle budget of the grid; mechanisms without
    coupled releases have a placeholder cloud at the true mean in the picture and none in the frames (their
    clouds depend on the budget: :func:`show_budget` puts them in). ``result`` may be the result at any budget of
    the grid with the same data, mechanisms and draw.
    """
    coupled = {m.name: m for m in frames.mechanisms if m.status == "ok"}
    shown = [o.name for o in _outcomes(result)]
    placeholder = np.repeat(np.asarray(result.true_mean)[None], 3, axis=0)

    def releases_at(k):
        out = {name: placeholder for name in shown}
        out.update({name: m.releases[k] for name, m in coupled.items() if m.releases[k] is not None})
        return out

    reference = _reference_index(frames)
    base = scene_figure(_with_releases(result, releases_at(reference)), camera=camera, height=height + _SLIDER_HEIGHT,
                        _light=True)
    groups = _group_indices(base, shown)
    plotly_frames, steps = [], []
    for k, value in enumerate(frames.values):
        figure = base if k == reference else scene_figure(_with_releases(result, releases_at(k)), camera=camera,
                                                          _light=True, _traces_only=True)
        own = _group_indices(figure, shown)
        data, indices = [], []
        for name in shown:
            missing = name not in coupled or coupled[name].releases[k] is None
            for mine, theirs in zip(groups[name], own[name]):
                data.append(_trace_coordinates(figure.data[theirs], empty=missing))
                indices.append(mine)
        label = _budget_label(value)
        plotly_frames.append(go.Frame(name=label, data=data, traces=indices))
        steps.append(dict(method="animate", label=label,
                          args=[[label], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                              transition=dict(duration=0))]))
    base.frames = plotly_frames
    base.update_layout(
        margin=dict(t=base.layout.margin.t + _SLIDER_HEIGHT),
        sliders=[dict(steps=steps, x=0.0, len=1.0, xanchor="left", y=1.0, yanchor="bottom", pad=dict(t=0, b=8),
                      font=dict(size=10), ticklen=3,
                      currentvalue=dict(prefix=f"{frames.words} = ", font=dict(size=13)))],
    )
    return base


def show_budget(fig, result, frames, current, camera=None):
    """Point a figure of :func:`budget_frames_figure` at budget ``frames.values[current]`` (in place; returned).

    The picture shows that budget's frame; the slider starts there and names it as the sidebar's; the clouds of
    the mechanisms without coupled releases (``result``'s, at that budget) fill the picture and that budget's frame.
    Cheap: one plain scene of ``result`` and a few array copies.
    """
    coupled = {m.name for m in frames.mechanisms if m.status == "ok"}
    shown = [o.name for o in _outcomes(result)]
    groups = _group_indices(fig, shown)
    frame = fig.frames[current]
    position = {index: j for j, index in enumerate(frame.traces)}
    plain = None
    for name in shown:
        if name not in coupled:
            if plain is None:
                plain = scene_figure(result, camera=camera, _light=True, _traces_only=True)
            for mine, theirs in zip(groups[name], _group_indices(plain, shown)[name]):
                coordinates = _trace_coordinates(plain.data[theirs])
                frame.data[position[mine]].update({k: v for k, v in coordinates.items() if k != "type"})
        for mine in groups[name]:
            values = {k: v for k, v in frame.data[position[mine]].to_plotly_json().items() if k in ("x", "y", "z")}
            fig.data[mine].update(values)
    fig.layout.sliders[0].update(active=current)
    fig.layout.sliders[0].currentvalue.update(suffix=f"  (sidebar: {_budget_label(frames.values[current])})")
    return fig


# =============================================================================== Kendall shapes
#: Outlines drawn per panel (data and each mechanism's releases): enough to see the spread, few enough to read.
SHAPES_PER_PANEL = 25
_MEAN_COLOR = "#d4a017"


def shape_space_title(k):
    """``Kendall shapes Σᵏ₂`` with the number of landmarks as a superscript (for figure titles)."""
    return f"Kendall shapes {unicode_powers(f'Σ^{k}')}₂"


def _closed(shape):
    """x and y of a closed outline through the landmarks (first landmark repeated), ``None``-separated."""
    return np.concatenate([shape[:, 0], shape[:1, 0], [np.nan]]), np.concatenate([shape[:, 1], shape[:1, 1], [np.nan]])


def _outlines(shapes):
    xs, ys = zip(*(_closed(s) for s in shapes)) if len(shapes) else ([], [])
    return (np.concatenate(xs), np.concatenate(ys)) if xs else (np.array([]), np.array([]))


def shape_figure(result, per_panel=SHAPES_PER_PANEL, height=None, styled=True):
    r"""Planar shapes of a Kendall-space scenario: one panel of data, one per mechanism's private mean shapes.

    Every shape is rotated optimally onto the true mean shape (ordinary Procrustes: the shape is unchanged), so
    the outlines are comparable; each panel repeats the true mean (gold, teaching view) and the public template
    (the ball centre, dashed). Landmarks are joined in their order as a closed outline.

    Parameters
    ----------
    result : ScenarioResult
        Of a scenario on ``get_manifold("kendall", k)``.
    per_panel : int
        Outlines drawn per panel (the first ones; all are used by the distances shown elsewhere).
    height : int, optional
    styled : bool, default True
        ``False`` skips the titles, legend and axes ranges (only the traces are wanted, e.g. for a budget frame).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    manifold = result.manifold
    mean = result.true_mean
    outcomes = [o for o in result.outcomes if o.status == "ok"]
    # panel titles wrapped to short lines and at most 2 columns: side by side on a phone they would overlap
    titles = [f"data (n = {len(result.data)})"] + [wrap_text(o.title, 18) for o in outcomes]
    columns = min(2, len(titles))
    rows = -(-len(titles) // columns)
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=titles, horizontal_spacing=0.04,
                        vertical_spacing=0.1 if rows > 1 else 0.0)
    template = manifold.align(result.center, mean)
    extent = 0.0

    def panel(index, shapes, color, width, name, group, show):
        nonlocal extent
        row, col = index // columns + 1, index % columns + 1
        aligned = manifold.align(shapes[:per_panel], mean) if len(shapes) else shapes
        x, y = _outlines(aligned)
        if x.size:
            extent = max(extent, float(np.nanmax(np.abs(np.concatenate([x, y])))))
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", line=dict(color=color, width=width), opacity=0.55,
                                 name=name, legendgroup=group, showlegend=show, hoverinfo="skip"), row=row, col=col)
        tx, ty = _closed(template)
        fig.add_trace(go.Scatter(x=tx, y=ty, mode="lines", line=dict(color="#555", width=1.2, dash="dash"),
                                 name="public template (ball centre m₀)", legendgroup="template",
                                 showlegend=index == 0, hoverinfo="skip"), row=row, col=col)
        mx, my = _closed(mean)
        fig.add_trace(go.Scatter(x=mx, y=my, mode="lines+markers", line=dict(color=_MEAN_COLOR, width=3),
                                 marker=dict(size=4, color=_MEAN_COLOR), name="true mean shape (teaching view: private!)",
                                 legendgroup="mean", showlegend=index == 0, hoverinfo="skip"), row=row, col=col)

    panel(0, result.data, "#888", 1.0, "data shapes", "data", True)
    for j, o in enumerate(outcomes, 1):
        panel(j, o.releases, MECHANISM_COLORS.get(o.name, "#333"), 1.2, f"{o.title} private mean shapes", o.name,
              True)
    if not styled:
        return fig
    limit = 1.08 * max(extent, float(np.max(np.abs(mean))))
    for k in range(1, len(titles) + 1):
        axis = "" if k == 1 else str(k)
        fig.layout[f"xaxis{axis}"].update(range=[-limit, limit], showticklabels=False, zeroline=False,
                                          showgrid=False, constrain="domain")
        fig.layout[f"yaxis{axis}"].update(range=[-limit, limit], showticklabels=False, zeroline=False,
                                          showgrid=False, scaleanchor=f"x{axis}", scaleratio=1)
    fig.update_annotations(font_size=12)
    subtitle = _hint(f"{manifold.k} landmarks per shape, rotated onto the true mean shape; "
                     f"≤ {per_panel} outlines per panel", ISOLATE_HINT)
    _style(fig, f"{shape_space_title(manifold.k)}: shapes", subtitle, height=height or 300 * rows + 140)
    fig.update_layout(margin=dict(t=fig.layout.margin.t + 36))  # room for the first row's (two-line) panel titles
    return fig
