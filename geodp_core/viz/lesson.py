"""The curvature lesson's figure: release distances on Sᵈ, ℝᵈ and Hᵈ, one panel each (same data scale, budget)."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from geodp_core.geometry import get_manifold
from geodp_core.viz.layout import TITLE_CHARS, title_below_modebar, wrap_text

__all__ = ["CURVATURE_COLORS", "curvature_figure"]

#: Panel colour by the sign of the curvature: positive, zero, negative.
CURVATURE_COLORS = {1: "#c0392b", 0: "#7f8c8d", -1: "#2471a3"}


def _curvature_sign(text):
    """Sign of a curvature written as text (``+1``, ``0``, ``−1``; unicode or ASCII minus)."""
    return int(np.sign(float(str(text).replace("−", "-"))))


def curvature_figure(lesson, height=None):
    """Histograms of the distance of each release to the true mean, one panel per space, stacked on a common x-axis.

    Each panel's title gives the space, its curvature, the sensitivity Δ and the mean distance; bins are computed
    here (bars, not raw samples), so the figure stays small. The panels are stacked (one full-width row each, the
    x-axis shared), so their titles and ticks stay readable on a phone; the title sits below the mode bar.
    """
    rows = lesson.rows
    ok = [r for r in rows if r.status == "ok" and r.distances.size]
    top = max([float(np.percentile(r.distances, 99)) for r in ok], default=1.0) * 1.05
    edges = np.linspace(0.0, top, 31)
    titles = []
    for r in rows:
        space = f"{get_manifold(r.space, lesson.dim).symbol} (curvature {r.curvature})"
        if r.status == "ok":
            titles.append(f"{space}: Δ = {r.sensitivity:.3g}, mean {r.mean_distance:.3g} rad")
        else:
            titles.append(f"{space}: Δ = {r.sensitivity:.3g}, unavailable")
    fig = make_subplots(rows=len(rows), cols=1, shared_xaxes=True, subplot_titles=titles, vertical_spacing=0.12)
    for index, r in enumerate(rows, 1):
        if r.status == "ok" and r.distances.size:
            counts, _ = np.histogram(np.clip(r.distances, 0.0, top), bins=edges)
            fig.add_trace(go.Bar(x=0.5 * (edges[1:] + edges[:-1]), y=counts / r.distances.size, width=np.diff(edges),
                                 marker_color=CURVATURE_COLORS[_curvature_sign(r.curvature)], name=r.label,
                                 showlegend=False,
                                 hovertemplate="distance %{x:.3g} rad<br>share %{y:.1%}<extra></extra>"),
                          row=index, col=1)
            fig.add_vline(x=r.mean_distance, line=dict(color="black", dash="dot", width=1), row=index, col=1)
        fig.update_xaxes(range=[0.0, top], row=index, col=1)
        fig.update_yaxes(tickformat=".0%", nticks=4, row=index, col=1)
    fig.update_xaxes(title_text="distance of a release to the true mean (rad)", row=len(rows), col=1)
    fig.update_yaxes(title_text="share", row=(len(rows) + 1) // 2, col=1)
    fig.update_annotations(font_size=12)
    fig.update_layout(height=height or 150 * len(rows) + 170, margin=dict(l=10, r=10, b=10),
                      template="plotly_white", bargap=0.02)
    spaces = ", ".join(get_manifold(r.space, lesson.dim).symbol for r in rows)
    title_below_modebar(fig, wrap_text(f"Same data scale, same budget ({lesson.target}): {lesson.mechanism_title} "
                                       f"releases on {spaces}", TITLE_CHARS), font_size=13)
    return fig
