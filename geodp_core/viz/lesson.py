"""The curvature lesson's figures: release distances on S^d, R^d and H^d (same data scale, budget), one small panel
per space so that a page can lay them side by side on a wide screen and stacked on a phone, and the volume-growth
figure (the same noise law's radius under each space's volume)."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from geodp_core.viz.curves import chart_layout
from geodp_core.viz.layout import TITLE_CHARS, title_below_modebar, wrap_text

__all__ = ["CURVATURE_COLORS", "curvature_figure", "curvature_panels", "volume_figure"]

#: Panel colour by the sign of the curvature: positive, zero, negative.
CURVATURE_COLORS = {1: "#c0392b", 0: "#7f8c8d", -1: "#2471a3"}
_AXIS = "distance to the true mean (rad)"


def _curvature_sign(text):
    """Sign of a curvature written as text (``+1``, ``0``, ``−1``; unicode or ASCII minus)."""
    return int(np.sign(float(str(text).replace("−", "-"))))


def _edges(lesson):
    ok = [r for r in lesson.rows if r.status == "ok" and r.distances.size]
    top = max([float(np.percentile(r.distances, 99)) for r in ok], default=1.0) * 1.05
    return np.linspace(0.0, top, 31)


def _title(r):
    head = f"{r.symbol or r.label} · curvature {r.curvature}"
    if r.status == "ok":
        return f"{head}<br>Δ = {r.sensitivity:.3g} · mean {r.mean_distance:.3g} rad"
    return f"{head}<br>Δ = {r.sensitivity:.3g} · unavailable"


def _bar(r, edges):
    counts, _ = np.histogram(np.clip(r.distances, 0.0, edges[-1]), bins=edges)
    return go.Bar(x=0.5 * (edges[1:] + edges[:-1]), y=counts / r.distances.size, width=np.diff(edges),
                  marker_color=CURVATURE_COLORS[_curvature_sign(r.curvature)], name=r.symbol or r.label,
                  showlegend=False, hovertemplate="distance %{x:.3g} rad<br>share %{y:.1%}<extra></extra>")


def curvature_panels(lesson):
    """One histogram figure per space (distance of each release to the true mean), on a common x-axis.

    Each title gives the space, its curvature, Δ and the mean distance (or "unavailable", with a note in the
    panel); bins are computed here (bars, not raw samples), so each figure stays small.
    """
    edges = _edges(lesson)
    figures = []
    for r in lesson.rows:
        fig = go.Figure()
        if r.status == "ok" and r.distances.size:
            fig.add_trace(_bar(r, edges))
            fig.add_vline(x=r.mean_distance, line=dict(color="black", dash="dot", width=1))
        else:
            fig.add_annotation(text="unavailable here:<br>the reason is stated above", x=0.5, y=0.5, xref="paper",
                               yref="paper", showarrow=False, font=dict(size=12, color="#555"))
        chart_layout(fig, _title(r), _AXIS, "share of releases", plot_px=190)
        fig.update_xaxes(range=[0.0, edges[-1]], nticks=5)
        fig.update_yaxes(tickformat=".0%", nticks=5, rangemode="tozero")
        fig.update_layout(bargap=0.02, showlegend=False)
        if not fig.data:  # an empty panel: no meaningless shares on its axis
            fig.update_yaxes(range=[0, 1], showticklabels=False)
        figures.append(fig)
    return figures


def curvature_figure(lesson, height=None):
    """The histograms of :func:`curvature_panels` in one figure for notebooks and exports: stacked (one
    full-width row per space, the x-axis shared), so that titles and ticks stay readable at any width."""
    rows = lesson.rows
    edges = _edges(lesson)
    fig = make_subplots(rows=len(rows), cols=1, shared_xaxes=True, subplot_titles=[_title(r) for r in rows],
                        vertical_spacing=0.16)
    for index, r in enumerate(rows, 1):
        if r.status == "ok" and r.distances.size:
            fig.add_trace(_bar(r, edges), row=index, col=1)
            fig.add_vline(x=r.mean_distance, line=dict(color="black", dash="dot", width=1), row=index, col=1)
        fig.update_xaxes(range=[0.0, edges[-1]], nticks=5, row=index, col=1)
        fig.update_yaxes(tickformat=".0%", nticks=4, row=index, col=1)
    fig.update_xaxes(title_text=_AXIS, row=len(rows), col=1)
    fig.update_yaxes(title_text="share", row=(len(rows) + 1) // 2, col=1)
    fig.update_annotations(font_size=12)
    symbols = ", ".join(r.symbol or r.label for r in rows)
    fig.update_layout(height=height or 170 * len(rows) + 190, margin=dict(l=10, r=10, b=10),
                      template="plotly_white", bargap=0.02)
    title_below_modebar(fig, wrap_text(f"Same data scale, same budget ({lesson.target}): {lesson.mechanism_title} "
                                       f"releases on {symbols}", TITLE_CHARS), font_size=13,
                        gap=40)  # room for the first panel's two-line title
    return fig


def volume_figure(lesson):
    """Volume growth: the density of the radius of the same law exp(−ρ/σ) under each space's volume J(ρ)
    (exact, from the lesson's volume rows), with each median dotted."""
    fig = go.Figure()
    for v in lesson.volume:
        if not v.available or v.radii is None:
            continue
        color = CURVATURE_COLORS[v.curvature_sign]
        fig.add_trace(go.Scatter(x=v.radii, y=v.density, mode="lines", line=dict(color=color, width=2),
                                 name=f"{v.symbol}: volume ∝ {v.growth}",
                                 hovertemplate="radius %{x:.3g} rad<br>density %{y:.3g}<extra></extra>"))
        fig.add_vline(x=v.median, line=dict(color=color, dash="dot", width=1))
    missing = [v.symbol for v in lesson.volume if not v.available]
    note = f" (none on {', '.join(missing)}: infinite mass)" if missing else ""
    chart_layout(fig, f"Volume growth: the same law exp(−ρ/σ), σ = {lesson.volume_scale:.3g}, on each space{note}",
                 "radius ρ of the noise (rad)", "density", plot_px=220)
    fig.update_xaxes(nticks=6, rangemode="tozero")
    fig.update_yaxes(nticks=5, rangemode="tozero")
    return fig
