"""Kendall shape space: data, true mean shape and private mean shapes drawn as outlines."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from geodp_core.viz.curves import unicode_powers
from geodp_core.viz.scene import ISOLATE_HINT, MECHANISM_COLORS, _hint, _style

__all__ = ["SHAPES_PER_PANEL", "shape_figure", "shape_space_title"]

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


def shape_figure(result, per_panel=SHAPES_PER_PANEL, height=None):
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

    Returns
    -------
    plotly.graph_objects.Figure
    """
    manifold = result.manifold
    mean = result.true_mean
    outcomes = [o for o in result.outcomes if o.status == "ok"]
    titles = [f"data (n = {len(result.data)})"] + [o.title for o in outcomes]
    columns = min(3, len(titles))
    rows = -(-len(titles) // columns)
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=titles, horizontal_spacing=0.03,
                        vertical_spacing=0.08 if rows > 1 else 0.0)
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
    fig.update_layout(margin=dict(t=fig.layout.margin.t + 24))  # room for the first row's panel titles
    return fig
