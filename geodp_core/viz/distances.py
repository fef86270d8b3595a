"""Histograms of the distance of each release to the true mean, one outline per mechanism (any dimension)."""

import numpy as np
import plotly.graph_objects as go

from geodp_core.viz.scene import ISOLATE_HINT, MECHANISM_COLORS, _hint, _style

__all__ = ["release_distance_figure"]

_BINS = 40


def release_distance_figure(result, height=360):
    r"""Share of releases per bin of :math:`\mathrm{dist}(\tilde\eta, \hat\eta)`, one step outline per mechanism.

    The picture that means the same in every dimension (where a 2-D view can only project). Bins are shared and
    computed here (40 bins up to the 99th percentile of all distances), so the figure stays small whatever the
    number of releases; a dotted line marks each mechanism's mean distance.

    Parameters
    ----------
    result : ScenarioResult
    height : int

    Returns
    -------
    plotly.graph_objects.Figure
    """
    outcomes = [o for o in result.outcomes if o.status == "ok" and len(o.distances)]
    fig = go.Figure()
    if outcomes:
        top = max(float(np.percentile(o.distances, 99)) for o in outcomes) * 1.05 or 1.0
        edges = np.linspace(0.0, top, _BINS + 1)
        for o in outcomes:
            counts, _ = np.histogram(np.clip(o.distances, 0.0, top), bins=edges)
            share = counts / len(o.distances)
            color = MECHANISM_COLORS.get(o.name, "#333")
            fig.add_trace(go.Scatter(
                x=np.repeat(edges, 2)[1:-1], y=np.repeat(share, 2), mode="lines", line=dict(color=color, width=2),
                name=f"{o.title} (mean {o.mean_distance:.3g} rad)", legendgroup=o.name,
                hovertemplate="distance %{x:.3g} rad<br>share %{y:.1%}<extra>" + o.title + "</extra>"))
            fig.add_vline(x=o.mean_distance, line=dict(color=color, dash="dot", width=1))
        fig.update_xaxes(range=[0.0, top])
    fig.update_xaxes(title=dict(text="distance of a release to the true mean (radians)", font=dict(size=12)))
    fig.update_yaxes(title=dict(text="share of releases", font=dict(size=12)), tickformat=".0%", rangemode="tozero")
    subtitle = _hint(f"{len(outcomes[0].distances) if outcomes else 0} releases per mechanism; dotted: the mean",
                     ISOLATE_HINT)
    return _style(fig, "How far each release lands from the true mean", subtitle, height=height)
