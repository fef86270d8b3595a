r"""Plotly figures of the empirical privacy audit (:mod:`geodp_core.audit`; no Streamlit).

* :func:`audit_claim_figure` — the claimed :math:`\varepsilon` beside the empirical lower bound
  (red when the bound exceeds the claim) and the uncorrected point estimate;
* :func:`audit_statistic_figure` — the distinguishing statistic under :math:`D` and :math:`D'`
  (evaluation releases), the threshold and the event;
* :func:`audit_comparison_figure` — claimed vs lower bound for several audits (one row each), the
  negative controls marked apart.
"""

import numpy as np
import plotly.graph_objects as go

from geodp_core.exceptions import InvalidParameterError
from geodp_core.viz.curves import chart_layout, wrap_text

__all__ = ["audit_claim_figure", "audit_statistic_figure", "audit_comparison_figure", "AUDIT_COLORS"]

AUDIT_COLORS = {
    "claim": "#7f7f7f",
    "ok": "#2ca02c",
    "refuted": "#d62728",
    "estimate": "#1f1f1f",
    "D": "#1f77b4",
    "D'": "#ff7f0e",
    "event": "rgba(214, 39, 40, 0.10)",
}
_EPS_AXIS = "ε (privacy loss, dimensionless)"
_NAME_CHARS = 20  # category labels wrapped so that a phone keeps most of the width for the plot


def _pretty_event(text):
    """Comparison operators as Unicode (``<=`` would read as the start of markup in Plotly text)."""
    return str(text).replace("<=", "≤").replace(">=", "≥")


def _check_result(result):
    needed = ("claimed_eps", "eps_lower_bound", "eps_point_estimate", "values_D", "values_D_prime", "threshold")
    if not all(hasattr(result, name) for name in needed):
        raise InvalidParameterError(
            f"result must be an AuditResult from geodp_core.audit.audit; got {type(result).__name__}", param="result"
        )
    return result


def audit_claim_figure(result, height=None):
    """Horizontal bars: claimed ε, the empirical lower bound (confidence ``result.confidence``), point estimate.

    Parameters
    ----------
    result : AuditResult
    height : int, optional
        Default: enough for the bars, the x axis and the legend on a phone.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    result = _check_result(result)
    refuted = result.eps_lower_bound > result.claimed_eps
    names = ["claimed ε", f"lower bound<br>({100 * result.confidence:g}% confidence)"]
    values = [result.claimed_eps, result.eps_lower_bound]
    colors = [AUDIT_COLORS["claim"], AUDIT_COLORS["refuted" if refuted else "ok"]]
    fig = go.Figure(go.Bar(
        x=values, y=names, orientation="h", marker=dict(color=colors), text=[f"{v:.3g}" for v in values],
        textposition="auto", showlegend=False, hovertemplate="%{y}: %{x:.4g}<extra></extra>",
    ))
    point = result.eps_point_estimate
    finite = np.isfinite(point)
    shown = point if finite else 1.15 * max(values + [1e-9])
    fig.add_trace(go.Scatter(
        x=[shown], y=[names[1]], mode="markers", name="point estimate (no confidence correction)",
        marker=dict(symbol="diamond-open" if finite else "triangle-right-open", size=14,
                    color=AUDIT_COLORS["estimate"], line=dict(width=2)),
        hovertemplate=(f"point estimate log((TPR−δ)/FPR) = {point:.4g}" if finite else
                       "point estimate = ∞ (no release of the other dataset fell in the event)") + "<extra></extra>",
    ))
    fig.add_vline(x=result.claimed_eps, line=dict(color=AUDIT_COLORS["claim"], dash="dash"))
    right = 1.12 * max(values + [shown, 1e-9])  # room for the point estimate's marker
    title = ("Claim REFUTED: the empirical lower bound on ε exceeds the claimed ε" if refuted else
             "Claimed ε vs the empirical lower bound (claim not refuted)")
    chart_layout(fig, title, _EPS_AXIS, "audited quantity", height=height, plot_px=140)
    fig.update_xaxes(range=[0.0, right])
    fig.update_yaxes(autorange="reversed")
    return fig


def audit_statistic_figure(result, n_bins=60, height=None):
    """Histograms of the chosen statistic under D and D′ (evaluation releases) with the event shaded.

    Non-finite values (overflowing distances) are drawn at the largest finite value. ``height``
    defaults to enough for the histogram, the x axis and the legend on a phone.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    result = _check_result(result)
    a = np.asarray(result.values_D, dtype=float)
    b = np.asarray(result.values_D_prime, dtype=float)
    pooled = np.concatenate([a, b])
    finite = pooled[np.isfinite(pooled)]
    if finite.size == 0:  # pragma: no cover - distances are finite except in extreme overflow
        finite = np.array([0.0, 1.0])
    lo, hi = float(finite.min()), float(finite.max())
    if hi <= lo:
        hi = lo + 1.0
    clip = lambda v: np.clip(np.where(np.isfinite(v), v, hi), lo, hi)  # noqa: E731
    edges = dict(start=lo, end=hi + 1e-12 * max(1.0, abs(hi)), size=(hi - lo) / n_bins)
    fig = go.Figure()
    for values, name in ((a, "D"), (b, "D'")):
        label = "releases under D (mean η)" if name == "D" else "releases under D′ (mean η′)"
        fig.add_trace(go.Histogram(x=clip(values), xbins=edges, histnorm="probability", name=label, opacity=0.6,
                                   marker=dict(color=AUDIT_COLORS[name])))
    t = float(np.clip(result.threshold, lo, hi))
    x0, x1 = (lo, t) if result.direction == "<=" else (t, hi)
    fig.add_vrect(x0=x0, x1=x1, fillcolor=AUDIT_COLORS["event"], line_width=0, layer="below",
                  annotation_text="event S", annotation_position="top left")
    fig.add_vline(x=t, line=dict(color=AUDIT_COLORS["refuted"], dash="dash"))
    positive = "D" if result.positive == "D" else "D′"
    event = _pretty_event(result.event)
    statistic = event.rsplit(" ", 2)[0]
    fig.update_layout(barmode="overlay")
    chart_layout(fig, f"Distinguishing event S = {{{event}}}", f"statistic {statistic} (geodesic distance)",
                 "fraction of releases (probability)", height=height, plot_px=240, note_color="#444",
                 notes=[f"TPR = {result.tpr:.3g} (releases under {positive} in S), FPR = {result.fpr:.3g} "
                        "(releases of the other dataset in S)"])
    return fig


def audit_comparison_figure(rows, height=None):
    """Claimed ε (open circle) and empirical lower bound, one row per audit.

    The bound is red when it exceeds the claim (claim refuted), green otherwise; circles for the
    mechanisms, diamonds for the negative controls (claims known to be false, which a sound and
    useful audit refutes).

    Parameters
    ----------
    rows : sequence of dict
        Each with ``name`` (str), ``claimed_eps`` and ``eps_lower_bound`` (floats), optionally ``role``
        (``"mechanism"`` or ``"negative control"``); rows whose ``status`` is not ``"ok"`` are skipped.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    ok = [r for r in rows if r.get("status", "ok") == "ok"]
    for r in ok:
        if not all(k in r for k in ("name", "claimed_eps", "eps_lower_bound")):
            raise InvalidParameterError("each row needs name, claimed_eps and eps_lower_bound", param="rows")
    names = [wrap_text(str(r["name"]), _NAME_CHARS) for r in ok]
    claimed = np.array([float(r["claimed_eps"]) for r in ok])
    bounds = np.array([float(r["eps_lower_bound"]) for r in ok])
    control = np.array([r.get("role", "mechanism") == "negative control" for r in ok], dtype=bool)
    refuted = bounds > claimed
    fig = go.Figure()
    for name, c, b in zip(names, claimed, bounds):
        fig.add_trace(go.Scatter(x=[b, c], y=[name, name], mode="lines", line=dict(color="#c7c7c7", width=3),
                                 showlegend=False, hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=claimed, y=names, mode="markers", name="claimed ε",
                             marker=dict(symbol="circle-open", size=13, color=AUDIT_COLORS["claim"], line=dict(width=2))))
    for mask, label, symbol in ((~control, "lower bound: mechanism", "circle"),
                                (control, "lower bound: negative control (should be refuted)", "diamond")):
        if not mask.any():
            continue
        idx = np.flatnonzero(mask)
        fig.add_trace(go.Scatter(
            x=bounds[idx], y=[names[i] for i in idx], mode="markers", name=label,
            marker=dict(symbol=symbol, size=12, color=[AUDIT_COLORS["refuted" if refuted[i] else "ok"] for i in idx]),
            text=["REFUTED" if refuted[i] else "not refuted" for i in idx],
            hovertemplate="%{y}: lower bound %{x:.4g} (%{text})<extra></extra>",
        ))
    # categories are evenly spaced: every row gets the height of the tallest (wrapped) label
    lines = max([name.count("<br>") + 1 for name in names] + [1])
    plot_px = max(len(names), 1) * max(34, 15 * lines + 20)
    chart_layout(fig, "Claimed ε vs the empirical lower bound, per audit (red: claim refuted)", _EPS_AXIS,
                 "audit", height=height, plot_px=max(plot_px, 80))
    fig.update_xaxes(rangemode="tozero")
    # first row at the top; a little room under the last (wrapped) label, above the tick labels
    fig.update_yaxes(range=[len(names) - 0.5 + 0.15 * (lines - 1), -0.5], autorange=False, type="category")
    return fig
