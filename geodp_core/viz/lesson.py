"""The curvature lesson's figure: release distances on S^d, R^d and H^d side by side (same data scale, budget)."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

__all__ = ["CURVATURE_COLORS", "curvature_figure"]

#: Panel colour by the sign of the curvature: positive, zero, negative.
CURVATURE_COLORS = {1: "#c0392b", 0: "#7f8c8d", -1: "#2471a3"}


def _curvature_sign(text):
    """Sign of a curvature written as text (``+1``, ``0``, ``−1``; unicode or ASCII minus)."""
    return int(np.sign(float(str(text).replace("−", "-"))))


def curvature_figure(lesson, height=330):
    """Histograms of the distance of each release to the true mean, one panel per space, on a common x-axis.

    Each panel's subtitle gives the curvature, the sensitivity Δ and the mean distance; bins are computed here
    (bars, not raw samples), so the figure stays small.
    """
    rows = lesson.rows
    ok = [r for r in rows if r.status == "ok" and r.distances.size]
    top = max([float(np.percentile(r.distances, 99)) for r in ok], default=1.0) * 1.05
    edges = np.linspace(0.0, top, 31)
    titles = []
    for r in rows:
        if r.status == "ok":
            titles.append(f"{r.label} (curvature {r.curvature})<br>Δ = {r.sensitivity:.3g}, mean {r.mean_distance:.3g} rad")
        else:
            titles.append(f"{r.label} (curvature {r.curvature})<br>Δ = {r.sensitivity:.3g}: unavailable")
    fig = make_subplots(rows=1, cols=len(rows), shared_yaxes=True, subplot_titles=titles, horizontal_spacing=0.04)
    for col, r in enumerate(rows, 1):
        if r.status == "ok" and r.distances.size:
            counts, _ = np.histogram(np.clip(r.distances, 0.0, top), bins=edges)
            fig.add_trace(go.Bar(x=0.5 * (edges[1:] + edges[:-1]), y=counts / r.distances.size, width=np.diff(edges),
                                 marker_color=CURVATURE_COLORS[_curvature_sign(r.curvature)], name=r.label, showlegend=False,
                                 hovertemplate="distance %{x:.3g} rad<br>share %{y:.1%}<extra></extra>"),
                          row=1, col=col)
            fig.add_vline(x=r.mean_distance, line=dict(color="black", dash="dot", width=1), row=1, col=col)
        fig.update_xaxes(range=[0.0, top], title_text="distance to the true mean (rad)", row=1, col=col)
    fig.update_yaxes(title_text="share of releases", tickformat=".0%", row=1, col=1)
    fig.update_annotations(font_size=12)
    fig.update_layout(height=height, margin=dict(l=10, r=10, t=70, b=10), template="plotly_white", bargap=0.02,
                      title=dict(text=f"Same data scale, same budget ({lesson.target}): {lesson.mechanism_title} "
                                      f"releases on S^{lesson.dim}, R^{lesson.dim}, H^{lesson.dim}",
                                 x=0.01, y=0.98, font=dict(size=13)))
    return fig
