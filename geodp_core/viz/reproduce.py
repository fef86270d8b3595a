"""Plotly figures of the Reproduce page (no Streamlit).

* :func:`gdp_mu_figure` — the GDP paper's μ at σ = Δ: exact value, the paper's Monte Carlo
  value and our reruns of its Algorithm 2 (frame ``tables["mu"]`` of
  :func:`geodp_core.reproduce.reproduce_gdp`);
* :func:`kng_mspe_figure` — mean squared prediction error of private geodesic-regression fits
  against ε, rigorous vs the paper's variant, the non-private fit dashed (frame ``table`` of
  :func:`geodp_core.reproduce.reproduce_kng_regression`).

Utility curves of the other cards use :func:`geodp_core.viz.curves.utility_curve_figure`.
"""

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from geodp_core.exceptions import InvalidParameterError
from geodp_core.viz.curves import chart_layout

__all__ = ["gdp_mu_figure", "kng_mspe_figure"]

_VERSION_STYLE = {
    "rigorous": ("#2ca02c", "rigorous KNG (ε-DP, approximate sampler)"),
    "paper": ("#d62728", "paper's variant (no formal guarantee)"),
}


def _check_frame(df, columns, what):
    if not isinstance(df, pd.DataFrame):
        raise InvalidParameterError(f"df must be a pandas DataFrame; got {type(df).__name__}", param="df")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise InvalidParameterError(f"df must be the frame of {what}; missing columns {missing}", param="df")


def gdp_mu_figure(mu_table, height=None):
    """μ of the Riemannian Gaussian at σ = Δ: exact (solid line), paper (diamond), reruns (dots).

    Parameters
    ----------
    mu_table : pandas.DataFrame
        Columns ``method``, ``seed``, ``mu`` (``reproduce_gdp(...).tables["mu"]``): one row whose method
        starts with "exact", one with "paper", the rest reruns.
    height : int, optional
        Default: enough for the three rows, the x axis and the legend on a phone.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(mu_table, ("method", "seed", "mu"), "geodp_core.reproduce.reproduce_gdp().tables['mu']")
    methods = mu_table["method"].astype(str)
    exact = mu_table[methods.str.startswith("exact")]["mu"].to_numpy(dtype=float)
    paper = mu_table[methods.str.startswith("paper")]["mu"].to_numpy(dtype=float)
    reruns = mu_table[~methods.str.startswith("exact") & ~methods.str.startswith("paper")]
    fig = go.Figure()
    if reruns.shape[0]:
        fig.add_trace(go.Scatter(
            x=reruns["mu"], y=["Algorithm 2 rerun here"] * len(reruns), mode="markers",
            marker=dict(size=11, color="#7f7f7f", opacity=0.8), name="Algorithm 2, our reruns (one per seed)",
            customdata=reruns["seed"], hovertemplate="seed %{customdata:.0f}: μ̂ = %{x:.4f}<extra></extra>",
        ))
    if paper.size:
        fig.add_trace(go.Scatter(
            x=paper, y=["paper (Algorithm 2)"] * paper.size, mode="markers",
            marker=dict(size=14, symbol="diamond", color="#d62728"), name="paper's Monte Carlo value",
            hovertemplate="paper: μ = %{x:.4f}<extra></extra>",
        ))
    if exact.size:
        fig.add_vline(x=float(exact[0]), line=dict(color="#1f77b4", width=3),
                      annotation_text=f"exact μ = {exact[0]:.5f}", annotation_position="top right",
                      annotation_font=dict(size=11, color="#1f77b4"))
        fig.add_trace(go.Scatter(
            x=exact, y=["exact (quadrature)"] * exact.size, mode="markers",
            marker=dict(size=12, symbol="line-ns-open", color="#1f77b4", line=dict(width=3)),
            name="exact μ (deterministic quadrature)", hovertemplate="exact: μ = %{x:.5f}<extra></extra>",
        ))
    values = mu_table["mu"].to_numpy(dtype=float)
    span = max(float(np.ptp(values)), 0.02)
    chart_layout(fig, "μ-GDP of the Riemannian Gaussian on S² at σ = Δ: exact value vs Monte Carlo estimates",
                 "μ (GDP parameter, dimensionless)", "source of the value", height=height, plot_px=170)
    fig.update_xaxes(range=[float(values.min()) - 0.15 * span, float(values.max()) + 0.15 * span])
    return fig


def kng_mspe_figure(table, height=None):
    """MSPE of private fits (mean ± s.e., log scale) against the total ε, per version; non-private dashed.

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_kng_regression(...).table`` (columns ``eps``, ``version``, ``mspe_mean``, ``mspe_se``,
        ``mspe_nonprivate``).
    height : int, optional
        Default: enough for the plot, the x axis and the legend on a phone.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(table, ("eps", "version", "mspe_mean", "mspe_se", "mspe_nonprivate"),
                 "geodp_core.reproduce.reproduce_kng_regression().table")
    fig = go.Figure()
    for version in dict.fromkeys(table["version"]):
        rows = table[table["version"] == version].sort_values("eps")
        color, name = _VERSION_STYLE.get(version, ("#7f7f7f", str(version)))
        fig.add_trace(go.Scatter(
            x=rows["eps"], y=rows["mspe_mean"], mode="lines+markers", name=name,
            line=dict(color=color, width=2), marker=dict(size=8),
            error_y=dict(type="data", array=np.nan_to_num(rows["mspe_se"].to_numpy(dtype=float)), visible=True),
            hovertemplate="ε = %{x:g}<br>MSPE = %{y:.4g}<extra></extra>",
        ))
    reference = float(table["mspe_nonprivate"].iloc[0]) if len(table) else np.nan
    if np.isfinite(reference) and reference > 0:
        fig.add_hline(y=reference, line=dict(color="#1f77b4", dash="dash"))
        # a log axis takes annotation positions as log10 (add_hline's own annotation would land at 10**y)
        fig.add_annotation(x=1.0, xref="paper", xanchor="right", y=math.log10(reference), yref="y",
                           yanchor="bottom", showarrow=False, text=f"non-private fit {reference:.3g}",
                           font=dict(size=11, color="#1f77b4"))
    chart_layout(fig, "Mean squared prediction error of private geodesic-regression fits (mean ± s.e.)",
                 "total ε (half for the footpoint p,<br>half for the shooting vector v)", "MSPE (squared geodesic distance)",
                 height=height, legend_title="version · dashed: the non-private fit")
    fig.update_xaxes(type="log", tickvals=sorted(float(e) for e in dict.fromkeys(table["eps"])))
    fig.update_yaxes(type="log")
    return fig
