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
_LAYOUT = dict(template="plotly_white", margin=dict(l=10, r=10, t=50, b=10))


def _check_result(result):
    needed = ("claimed_eps", "eps_lower_bound", "eps_point_estimate", "values_D", "values_D_prime", "threshold")
    if not all(hasattr(result, name) for name in needed):
        raise InvalidParameterError(
            f"result must be an AuditResult from geodp_core.audit.audit; got {type(result).__name__}", param="result"
        )
    return result


def audit_claim_figure(result, height=260):
    """Horizontal bars: claimed ε, the empirical lower bound (confidence ``result.confidence``), point estimate.

    Parameters
    ----------
    result : AuditResult
    height : int

    Returns
    -------
    plotly.graph_objects.Figure
    """
    result = _check_result(result)
    refuted = result.eps_lower_bound > result.claimed_eps
    names = ["claimed ε", f"lower bound ({100 * result.confidence:g}% confidence)"]
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
    fig.update_xaxes(title="ε", rangemode="tozero")
    fig.update_yaxes(autorange="reversed")
    title = "Claim REFUTED (bound > claim)" if refuted else "Claimed ε vs lower bound"
    fig.update_layout(height=height, title=title, legend=dict(orientation="h", y=-0.35), **_LAYOUT)
    return fig


def audit_statistic_figure(result, n_bins=60, height=360):
    """Histograms of the chosen statistic under D and D′ (evaluation releases) with the event shaded.

    Non-finite values (overflowing distances) are drawn at the largest finite value.

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
    fig.update_layout(
        barmode="overlay", height=height,
        title=dict(text=f"Event S = {{{result.event}}}<br><sup>TPR = {result.tpr:.3g} (releases under {positive}), "
                        f"FPR = {result.fpr:.3g} (the other dataset)</sup>", font=dict(size=14)),
        legend=dict(orientation="h", y=-0.25), **_LAYOUT,
    )
    fig.update_xaxes(title=result.event.rsplit(" ", 2)[0])
    fig.update_yaxes(title="fraction of releases")
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
    names = [str(r["name"]) for r in ok]
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
    fig.update_xaxes(title="ε", rangemode="tozero")
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=height or 140 + 34 * max(len(names), 1), legend=dict(orientation="h", y=-0.2),
                      title="Claimed ε vs empirical lower bound (red: claim refuted)", **_LAYOUT)
    return fig
