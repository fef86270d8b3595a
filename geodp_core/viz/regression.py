"""Plotly figures for geodesic regression: data and fitted geodesics (no Streamlit here).

- ``S^2``: a 3D sphere, data coloured by the covariate, each fit a geodesic curve ``t -> Exp(p, t v)``;
- ``H^2``: the same in the Poincaré disk;
- ``SPD(2)``: ellipses ``{z : zᵀ P⁻¹ z = 1}`` of each fit's predictions at a few covariates, side by side
  (the DP-regression paper's Figure 8 view);
- Kendall shape space: each fit's predicted planar shape at five covariates, side by side, with the responses
  nearest each covariate (the paper's Figure 3 view);
- rotations: rotation vectors (axis × angle, frame coordinates of Log at the public centre) in the ball of
  radius π, data coloured by the covariate, each fit a curve (broken where it passes a half-turn).

A fit is a mapping with keys ``name``, ``footpoint``, ``shooting_vector`` and optional ``color``, ``dash``,
``width``. Conventions (camera presets, data colour) follow :mod:`geodp_core.viz.scene`.
"""

import math

import numpy as np
import plotly.graph_objects as go

from geodp_core.exceptions import InvalidParameterError
from geodp_core.regression import predict
from geodp_core.viz.curves import chart_layout, label_log_axes
from geodp_core.viz.scene import CAMERA_PRESETS, DATA_COLOR, _sphere_lines
from geodp_core.viz.scene import ellipse_outline as _ellipse
from geodp_core.viz.shapes import shape_space_title

__all__ = ["FIT_COLORS", "regression_figure", "mspe_figure", "private_fit_colors", "trace_figure"]

FIT_COLORS = {"truth": "black", "nonprivate": "goldenrod"}
_PRIVATE_PALETTE = ["#d62728", "#9467bd", "#1f77b4", "#2ca02c", "#ff7f0e", "#e377c2", "#17becf", "#8c564b"]


def private_fit_colors(count):
    """Distinct colours for ``count`` private fits."""
    return [_PRIVATE_PALETTE[i % len(_PRIVATE_PALETTE)] for i in range(count)]


def _curve(manifold, fit, n_points):
    t = np.linspace(0.0, 1.0, n_points)
    return predict(manifold, fit["footpoint"], fit["shooting_vector"], t)


def _line_style(fit):
    return dict(color=fit.get("color", "#333"), width=fit.get("width", 4), dash=fit.get("dash", "solid"))


def _sphere(manifold, x, y, fits, camera, n_points):
    u, v = np.mgrid[0 : 2 * np.pi : 60j, 0 : np.pi : 30j]
    fig = go.Figure()
    fig.add_trace(go.Surface(x=np.cos(u) * np.sin(v), y=np.sin(u) * np.sin(v), z=np.cos(v), opacity=0.18,
                             showscale=False, colorscale=[[0, "#c8d7ea"], [1, "#c8d7ea"]], hoverinfo="skip",
                             name="S²"))
    fig.add_trace(go.Scatter3d(
        x=y[:, 0], y=y[:, 1], z=y[:, 2], mode="markers", name=f"data (n={len(y)}), colour = covariate x",
        marker=dict(size=3, color=x, colorscale="Greys", cmin=-0.3, cmax=1.0, line=dict(width=0)),
    ))
    for fit in fits:
        curve = _curve(manifold, fit, n_points)
        fig.add_trace(go.Scatter3d(x=curve[:, 0], y=curve[:, 1], z=curve[:, 2], mode="lines", name=fit["name"],
                                   line=_line_style(fit)))
        p = np.asarray(fit["footpoint"])
        fig.add_trace(go.Scatter3d(x=[p[0]], y=[p[1]], z=[p[2]], mode="markers", showlegend=False,
                                   marker=dict(size=4, color=fit.get("color", "#333")), hoverinfo="skip"))
    axis = dict(visible=False, range=[-1.05, 1.05])
    if camera in ("data", "on the data") or CAMERA_PRESETS.get(camera, 0) is None:  # look at the data from outside
        direction = np.mean(y, axis=0)
        direction = direction / max(np.linalg.norm(direction), 1e-12) * 1.3
        view = dict(eye=dict(x=direction[0], y=direction[1], z=direction[2]))
    else:
        view = CAMERA_PRESETS.get(camera)
    fig.update_layout(scene=dict(xaxis=axis, yaxis=axis, zaxis=axis, aspectmode="cube", camera=view),
                      uirevision=camera)
    return fig


def _disk(manifold, x, y, fits, n_points):
    fig = go.Figure()
    t = np.linspace(0, 2 * np.pi, 361)
    fig.add_trace(go.Scatter(x=np.cos(t), y=np.sin(t), mode="lines", line=dict(color="black", width=1.5),
                             name="boundary at infinity", hoverinfo="skip"))
    d = manifold.to_poincare(y)
    fig.add_trace(go.Scatter(x=d[:, 0], y=d[:, 1], mode="markers", name=f"data (n={len(y)}), colour = covariate x",
                             marker=dict(size=5, color=x, colorscale="Greys", cmin=-0.3, cmax=1.0)))
    for fit in fits:
        curve = manifold.to_poincare(_curve(manifold, fit, n_points))
        fig.add_trace(go.Scatter(x=curve[:, 0], y=curve[:, 1], mode="lines", name=fit["name"],
                                 line=_line_style(fit)))
    fig.update_xaxes(range=[-1.05, 1.05], visible=False)
    fig.update_yaxes(range=[-1.05, 1.05], visible=False, scaleanchor="x", scaleratio=1)
    return fig


def _rotation_vectors(manifold, points):
    r"""Frame coordinates of :math:`\mathrm{Log}_{m_0}` (rotation vectors relative to the public centre)."""
    center = manifold.default_center()
    return manifold.to_frame(center, manifold.log(center, points, check=False))


def _rotation_ball(manifold, x, y, fits, n_points):
    fig = go.Figure()
    bx, by, bz = _sphere_lines(np.pi)
    fig.add_trace(go.Scatter3d(x=bx, y=by, z=bz, mode="lines", line=dict(color="#b8c7dc", width=1),
                               hoverinfo="skip", name="every rotation (angle ≤ π)", connectgaps=False))
    d = _rotation_vectors(manifold, y)
    fig.add_trace(go.Scatter3d(
        x=d[:, 0], y=d[:, 1], z=d[:, 2], mode="markers", name=f"data (n={len(y)}), colour = covariate x",
        marker=dict(size=3, color=x, colorscale="Greys", cmin=-0.3, cmax=1.0, line=dict(width=0)),
    ))
    for fit in fits:
        curve = _rotation_vectors(manifold, _curve(manifold, fit, n_points))
        jumps = np.linalg.norm(np.diff(curve, axis=0), axis=1) > np.pi  # through a half-turn: the antipode
        pieces = np.split(curve, np.flatnonzero(jumps) + 1)
        curve = np.concatenate([np.vstack([piece, np.full((1, 3), np.nan)]) for piece in pieces])[:-1]
        fig.add_trace(go.Scatter3d(x=curve[:, 0], y=curve[:, 1], z=curve[:, 2], mode="lines", name=fit["name"],
                                   line=_line_style(fit), connectgaps=False))
    axis = dict(range=[-1.02 * np.pi, 1.02 * np.pi], showbackground=False, zeroline=False)
    fig.update_layout(scene=dict(xaxis=dict(axis, title=dict(text="ω₁")), yaxis=dict(axis, title=dict(text="ω₂")),
                                 zaxis=dict(axis, title=dict(text="ω₃")), aspectmode="cube",
                                 camera=dict(eye=dict(x=1.35, y=1.35, z=0.9))),
                      uirevision="rotation-ball")
    return fig


def _spd_ellipses(manifold, x, y, fits, n_columns):
    grid = np.linspace(0.0, 1.0, n_columns)
    predictions = [predict(manifold, f["footpoint"], f["shooting_vector"], grid) for f in fits]
    sizes = [np.sqrt(np.linalg.eigvalsh(pred).max()) for pred in predictions]
    spacing = 2.4 * max(sizes + [np.sqrt(np.linalg.eigvalsh(y).max())])
    fig = go.Figure()
    # data: each response drawn at its covariate's column position (thin, grey)
    xs, ys = [], []
    for xi, yi in zip(x, y):
        e = _ellipse(yi)
        xs += list(e[0] + xi * (n_columns - 1) * spacing) + [None]
        ys += list(e[1]) + [None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=DATA_COLOR, width=0.6), opacity=0.35,
                             name=f"data (n={len(y)}) at their covariate"))
    for fit, pred in zip(fits, predictions):
        xs, ys = [], []
        for j, mat in enumerate(pred):
            e = _ellipse(mat)
            xs += list(e[0] + j * spacing) + [None]
            ys += list(e[1]) + [None]
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=fit["name"], line=_line_style(fit)))
    fig.update_xaxes(tickvals=[j * spacing for j in range(n_columns)], ticktext=[f"x = {g:.2g}" for g in grid])
    fig.update_yaxes(scaleanchor="x", scaleratio=1, visible=False)
    return fig


def _closed_outline(shape, dx):
    """x and y of a closed outline through the landmarks, shifted by ``dx``, ``None``-terminated."""
    return (list(shape[:, 0] + dx) + [shape[0, 0] + dx, None], list(shape[:, 1]) + [shape[0, 1], None])


def _kendall_shapes(manifold, x, y, fits, n_columns, data_per_column=6):
    """Shapes along the geodesics (the DP-regression paper's Figure 3 view): each fit's predicted shape at
    ``n_columns`` covariates, side by side, all rotated onto the first fit's prediction at that covariate. The
    first fits are drawn last (on top: far-off private shapes must not hide the reference ones)."""
    grid = np.linspace(0.0, 1.0, n_columns)
    predictions = [predict(manifold, f["footpoint"], f["shooting_vector"], grid) for f in fits]
    references = predictions[0]
    spacing = 2.4 * float(np.max(np.abs(np.concatenate([np.concatenate(predictions), y]))))
    fig = go.Figure()
    xs, ys = [], []
    nearest = np.abs(x[:, None] - grid[None, :]).argmin(axis=1)
    for j in range(n_columns):  # the responses whose covariate is nearest to this column's
        members = np.flatnonzero(nearest == j)[:data_per_column]
        for shape in manifold.align(y[members], references[j]) if members.size else ():
            ox, oy = _closed_outline(shape, j * spacing)
            xs += ox
            ys += oy
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=DATA_COLOR, width=0.8), opacity=0.35,
                             name=f"data: ≤ {data_per_column} responses nearest each covariate", hoverinfo="skip"))
    for rank, fit, pred in reversed(list(zip(range(len(fits)), fits, predictions))):  # the first fits on top
        xs, ys = [], []
        for j, shape in enumerate(manifold.align(pred, references)):
            ox, oy = _closed_outline(shape, j * spacing)
            xs += ox
            ys += oy
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=fit["name"], line=_line_style(fit),
                                 marker=dict(size=3, color=fit.get("color", "#333")), legendrank=1000 + rank))
    fig.update_xaxes(tickvals=[j * spacing for j in range(n_columns)], ticktext=[f"x = {g:.2g}" for g in grid],
                     showgrid=False, zeroline=False)
    fig.update_yaxes(scaleanchor="x", scaleratio=1, visible=False)
    return fig


def regression_figure(manifold, x, y, fits, camera="data", n_points=80, n_columns=6, height=None):
    """Data and fitted geodesics on ``S^2`` (3D), ``H^2`` (Poincaré disk), ``SPD(2)`` (ellipses), Kendall
    shape space (predicted shapes at up to five covariates) or the rotations (rotation vectors in the π-ball), as
    the space's :attr:`~geodp_core.geometry.base.Manifold.view` says.

    Parameters
    ----------
    manifold : Manifold
    x : array_like, shape ``(n,)``
        Covariates in [0, 1].
    y : array_like, shape ``(n, *point_shape)``
    fits : sequence of dict
        ``{"name", "footpoint", "shooting_vector"}`` plus optional ``"color"``, ``"dash"``, ``"width"``.
    camera : str
        ``"data"`` (look at the data along their mean direction) or a key of
        :data:`~geodp_core.viz.scene.CAMERA_PRESETS` (sphere only).
    n_points, n_columns : int
        Points per curve; number of covariates shown for SPD(2) (at most 5 for shapes).
    height : int, optional
        Default: a 420 px view plus the legend as laid out on a phone.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    view = manifold.view
    if view == "sphere3d":
        fig = _sphere(manifold, x, y, fits, camera, n_points)
        title, x_title = "Geodesic regression on the sphere S²: data and fitted geodesics", None
    elif view == "poincare_disk":
        fig = _disk(manifold, x, y, fits, n_points)
        title, x_title = "Geodesic regression on H² (Poincaré disk): data and fitted geodesics", None
    elif view == "spd_ellipses":
        fig = _spd_ellipses(manifold, x, y, fits, n_columns)
        title = f"Geodesic regression on SPD(2): each fit's predicted matrix at {n_columns} covariates (as ellipses)"
        x_title = "covariate x · ellipse zᵀ P⁻¹ z = 1 of the<br>predicted matrix P = Exp(p, x v)"
    elif view == "shapes":
        columns = min(n_columns, 5)
        fig = _kendall_shapes(manifold, x, y, fits, columns)
        title = f"{shape_space_title(manifold.k)}: each fit's shape at {columns} covariates"
        x_title = "covariate x (shapes rotated onto the first fit's)"
    elif view == "rotation_ball":
        fig = _rotation_ball(manifold, x, y, fits, n_points)
        title = f"Geodesic regression on the rotations {manifold.symbol}: data and fitted geodesics (axis × angle)"
        x_title = None
    else:
        raise InvalidParameterError(
            f"manifold must be S^2, H^2, SPD(2), a Kendall shape space or the rotations for the regression figure; got "
            f"{manifold.label}", param="manifold"
        )
    plot_px = 420 if x_title is None else 200 if view == "shapes" else 300
    chart_layout(fig, title, x_title, height=height, plot_px=plot_px)
    if x_title is None:  # 3-D scene or Poincaré disk: no axes, the view fills the width
        fig.update_layout(margin=dict(l=0, r=0))
    return fig


def mspe_figure(names, values, colors=None, reference=None, height=None):
    """Horizontal bars of the mean squared prediction error of each fit (log scale).

    ``reference`` (e.g. the non-private MSPE) is drawn as a dashed vertical line. ``height`` defaults
    to 34 px a bar plus the title and the x axis.
    """
    values = np.asarray(values, dtype=float)
    names = list(names)
    fig = go.Figure(go.Bar(x=values, y=names, orientation="h",
                           marker=dict(color=colors if colors is not None else "#1f77b4"),
                           text=[f"{v:.3g}" for v in values], textposition="auto"))
    if reference is not None and float(reference) > 0:
        fig.add_vline(x=float(reference), line=dict(color="goldenrod", dash="dash"))
        # a log axis takes annotation positions as log10 (add_vline's own annotation would land at 10**x)
        fig.add_annotation(x=math.log10(float(reference)), xref="x", xanchor="left", y=1.0, yref="paper",
                           yanchor="bottom", showarrow=False, text="non-private fit", font=dict(size=11, color="#8a6d00"))
    chart_layout(fig, "Mean squared prediction error of each fit (log scale)",
                 "MSPE = (1/n) Σ d(Exp(p, xᵢ v), yᵢ)²<br>(squared geodesic distance)", "fit",
                 height=height, plot_px=max(34 * len(names), 120) + 18)
    fig.update_xaxes(type="log")
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(showlegend=False, margin=dict(t=fig.layout.margin.t + 18))  # room for the label above
    return label_log_axes(fig)


def trace_figure(trace, steps, title, y_title, height=None):
    r"""Trace plot: one line per chain of a scalar summary against the step (after burn-in).

    Parameters
    ----------
    trace : array_like, shape ``(n_draws, n_chains)``
        Thinned draws of each chain.
    steps : array_like, shape ``(n_draws,)``
        The step of each draw (counted after burn-in).
    title, y_title : str
        Plain text.

    Chains that mix well overlap as one band; a chain stuck apart from the others shows as a separate line.
    """
    trace = np.asarray(trace, dtype=float)
    if trace.ndim != 2 or trace.shape[0] != len(steps):
        raise InvalidParameterError(f"trace must have shape (len(steps), n_chains); got {trace.shape}", param="trace")
    colors = private_fit_colors(trace.shape[1])
    fig = go.Figure([go.Scatter(x=np.asarray(steps), y=trace[:, j], mode="lines", name=f"chain {j + 1}",
                                line=dict(width=1, color=colors[j]), opacity=0.8, showlegend=False)
                     for j in range(trace.shape[1])])
    chart_layout(fig, title, "step after burn-in", y_title, height=height, plot_px=200)
    fig.update_layout(showlegend=False)
    return fig
