"""Plotly figures of the Reproduce page (no Streamlit).

* :func:`gdp_mu_figure` — the GDP paper's μ at σ = Δ: exact value, the paper's Monte Carlo
  value and our reruns of its Algorithm 2 (frame ``tables["mu"]`` of
  :func:`geodp_core.reproduce.reproduce_gdp`);
* :func:`kng_mspe_figure` — mean squared prediction error of private geodesic-regression fits
  against ε, rigorous vs the paper's variant, the non-private fit dashed (frame ``table`` of
  :func:`geodp_core.reproduce.reproduce_kng_regression`).

* :func:`gdp_curve_figure`, :func:`heat_escape_disk_figure`, :func:`heat_escape_growth_figure`,
  :func:`ew_dimension_figure`, :func:`ew_runtime_figure`, :func:`kng_split_figure`, :func:`kng_noise_figure`,
  :func:`kng_sensitivity_figure`, :func:`kng_shapes_figure` — the further paper figures;
* :func:`reproduction_figures` — every figure of one reproduction (the command line's HTML files).

Utility curves of the other cards use :func:`geodp_core.viz.curves.utility_curve_figure`.
"""

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold
from geodp_core.viz.curves import chart_layout, label_log_axes

__all__ = ["gdp_mu_figure", "kng_mspe_figure", "gdp_curve_figure", "heat_escape_disk_figure", "heat_escape_growth_figure",
           "ew_dimension_figure", "ew_runtime_figure", "kng_split_figure", "kng_noise_figure",
           "kng_sensitivity_figure", "kng_shapes_figure", "conformal_panels_figure", "reproduction_figures",
           "reproduction_html"]

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


def kng_split_figure(table, height=None):
    """MSPE (mean ± s.e., log scale) against the footpoint budget ε_p at a fixed total ε, per version.

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_kng_budget_split(...).table``.
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(table, ("eps_p", "eps_v", "version", "mspe_mean", "mspe_se", "mspe_nonprivate"),
                 "geodp_core.reproduce.reproduce_kng_budget_split().table")
    fig = go.Figure()
    for version in dict.fromkeys(table["version"]):
        rows = table[table["version"] == version].sort_values("eps_p")
        color, name = _VERSION_STYLE.get(version, ("#7f7f7f", str(version)))
        fig.add_trace(go.Scatter(
            x=rows["eps_p"], y=rows["mspe_mean"], mode="lines+markers", name=name, line=dict(color=color, width=2),
            error_y=dict(type="data", array=np.nan_to_num(rows["mspe_se"].to_numpy(dtype=float)), visible=True),
            customdata=rows["eps_v"], hovertemplate="ε_p = %{x:g}, ε_v = %{customdata:g}<br>MSPE = %{y:.4g}<extra></extra>"))
    reference = float(table["mspe_nonprivate"].iloc[0]) if len(table) else np.nan
    if np.isfinite(reference) and reference > 0:
        fig.add_hline(y=reference, line=dict(color="#1f77b4", dash="dash"))
        fig.add_annotation(x=1.0, xref="paper", xanchor="right", y=math.log10(reference), yref="y", yanchor="bottom",
                           showarrow=False, text=f"non-private fit {reference:.3g}", font=dict(size=11, color="#1f77b4"))
    total = float((table["eps_p"] + table["eps_v"]).iloc[0]) if len(table) else np.nan
    chart_layout(fig, f"Mean squared prediction error at total ε = {total:g}, by budget split (mean ± s.e.)",
                 "ε_p, the footpoint's budget (ε_v = total − ε_p)", "MSPE (squared geodesic distance)",
                 height=height, legend_title="version · dashed: the non-private fit")
    fig.update_yaxes(type="log")
    return fig


def kng_noise_figure(table, height=None):
    """MSPE (log scale) against the total ε, one colour per noise level δ, dash per version; non-private dotted.

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_kng_noise(...).table``.
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(table, ("delta", "eps", "version", "mspe_mean", "mspe_se", "mspe_nonprivate"),
                 "geodp_core.reproduce.reproduce_kng_noise().table")
    palette = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
    fig = go.Figure()
    for i, delta in enumerate(sorted(dict.fromkeys(table["delta"]))):
        color = palette[i % len(palette)]
        for version in dict.fromkeys(table["version"]):
            rows = table[(table["delta"] == delta) & (table["version"] == version)].sort_values("eps")
            label = "rigorous" if version == "rigorous" else "paper's variant"
            fig.add_trace(go.Scatter(
                x=rows["eps"], y=rows["mspe_mean"], mode="lines+markers", name=f"δ = {delta:g}, {label}",
                line=dict(color=color, dash="solid" if version == "rigorous" else "dash"),
                error_y=dict(type="data", array=np.nan_to_num(rows["mspe_se"].to_numpy(dtype=float)), visible=True),
                hovertemplate="ε = %{x:g}<br>MSPE = %{y:.4g}<extra></extra>"))
        rows = table[table["delta"] == delta].sort_values("eps")
        fig.add_trace(go.Scatter(x=rows["eps"], y=rows["mspe_nonprivate"], mode="lines",
                                 line=dict(color=color, dash="dot", width=1), name=f"δ = {delta:g}, non-private",
                                 hovertemplate="non-private MSPE = %{y:.4g}<extra></extra>"))
    chart_layout(fig, "Mean squared prediction error on S² by noise level δ (mean ± s.e.)",
                 "total ε (half for p, half for v)", "MSPE (squared geodesic distance)", height=height,
                 legend_title="colour: δ · solid: rigorous · dashed: the paper's variant · dotted: non-private")
    fig.update_xaxes(type="log", tickvals=sorted(float(e) for e in dict.fromkeys(table["eps"])))
    fig.update_yaxes(type="log")
    return fig


def kng_sensitivity_figure(table, height=None, labels=None):
    """Box plots of r_p and r_v (theory / observed sensitivity) by n and space; the line r = 1 dashed.

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_kng_sensitivity(...).table`` (``space``, ``n``, ``r_p``, ``r_v``).
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(table, ("space", "n", "r_p", "r_v"), "geodp_core.reproduce.reproduce_kng_sensitivity().table")
    fig = go.Figure()
    for index, space in enumerate(dict.fromkeys(table["space"])):
        rows = table[table["space"] == space]
        dark, light = _PAIRED_COLORS[index % len(_PAIRED_COLORS)]
        colors = {"r_p": dark, "r_v": light}
        label = (labels or {}).get(space, space)
        for ratio in ("r_p", "r_v"):
            fig.add_trace(go.Box(x=rows["n"].astype(str), y=rows[ratio], boxpoints="all", jitter=0.3, pointpos=0,
                                 name=f"{ratio} ({'footpoint' if ratio == 'r_p' else 'shooting vector'}), "
                                      f"{label}",
                                 marker=dict(color=colors[ratio], size=4)))
    fig.add_hline(y=1.0, line=dict(color="black", dash="dash"))
    chart_layout(fig, "Sensitivity ratios theory / observed for neighbouring datasets (≥ 1: the bound holds)",
                 "records n", "ratio (log)", height=height, legend_title="dashed: ratio 1")
    fig.update_layout(boxmode="group")
    fig.update_yaxes(type="log")
    return fig


def kng_shapes_figure(parameters, data, height=None):
    """Predicted shapes along the geodesic at five covariates: the non-private fit and the first private fit of
    each KNG version, over the responses nearest each covariate (the DP-regression paper's Figure 3 view).

    Parameters
    ----------
    parameters : pandas.DataFrame
        ``reproduce_kng_shapes(...).tables["parameters"]`` (``fit``, ``version``, ``fit_index``, ``landmark``,
        ``footpoint_x``, ``footpoint_y``, ``shooting_x``, ``shooting_y``).
    data : pandas.DataFrame
        ``reproduce_kng_shapes(...).tables["data"]`` (``record``, ``covariate``, ``landmark``, ``x_coord``,
        ``y_coord``).
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    from geodp_core.geometry import get_manifold
    from geodp_core.viz.regression import regression_figure

    _check_frame(parameters, ("fit", "version", "fit_index", "landmark", "footpoint_x", "footpoint_y", "shooting_x",
                              "shooting_y"), "geodp_core.reproduce.reproduce_kng_shapes().tables['parameters']")
    _check_frame(data, ("record", "covariate", "landmark", "x_coord", "y_coord"),
                 "geodp_core.reproduce.reproduce_kng_shapes().tables['data']")
    k = int(parameters["landmark"].nunique())
    manifold = get_manifold("kendall", k)
    data = data.sort_values(["record", "landmark"])
    x = data.groupby("record")["covariate"].first().to_numpy(dtype=float)
    y = data[["x_coord", "y_coord"]].to_numpy(dtype=float).reshape(len(x), k, 2)
    styles = {"nonprivate": dict(color="#1f77b4", width=3),
              "rigorous": dict(color=_VERSION_STYLE["rigorous"][0], width=2),
              "paper": dict(color=_VERSION_STYLE["paper"][0], width=2, dash="dash")}
    names = {"nonprivate": "non-private fit (not DP)", "rigorous": "rigorous KNG, one private fit",
             "paper": "paper's variant, one private fit (no formal guarantee)"}
    fits = []
    for version, style in styles.items():
        rows = parameters[(parameters["version"] == version) & (parameters["fit_index"] == 0)].sort_values("landmark")
        if len(rows) != k:
            continue
        fits.append(dict(name=names[version], footpoint=rows[["footpoint_x", "footpoint_y"]].to_numpy(dtype=float),
                         shooting_vector=rows[["shooting_x", "shooting_y"]].to_numpy(dtype=float), **style))
    if not fits:
        raise InvalidParameterError("parameters holds no fit to draw", param="parameters")
    return regression_figure(manifold, x, y, fits, n_columns=5, height=height)


# ============================================================================ further paper figures
_SAMPLER_COLORS = {"ew_gaussian": "#1f77b4", "ew_laplace": "#17becf", "riemannian_laplace": "#d62728",
                   "riemannian_laplace_mcmc": "#7f7f7f"}
#: Line styles of the EW families, in the order of ``EW_DIM_FAMILIES``.
_FAMILY_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
#: Colours by the sign of the curvature (negative: H², zero: R², positive).
_CURVATURE_COLORS = {-1: "#d62728", 0: "#1f77b4", 1: "#2ca02c"}
#: (dark, light) colour pairs of the spaces of a figure, in the order they appear.
_PAIRED_COLORS = (("#1f77b4", "#aec7e8"), ("#d62728", "#ff9896"), ("#2ca02c", "#98df8a"), ("#9467bd", "#c5b0d5"))
_SPACE_LABEL = {"circle": "unit circle S¹", "real_line": "real line R"}


def gdp_curve_figure(table, height=None):
    """μ against σ (Δ = 1), one panel per space: exact (red), Δ/σ of R (blue), Algorithm 2 mean with min–max bars (grey).

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_gdp_curve(...).table``.
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    from plotly.subplots import make_subplots

    _check_frame(table, ("space", "sigma", "mu_exact", "mu_flat", "mu_mc_mean", "mu_mc_min", "mu_mc_max"),
                 "geodp_core.reproduce.reproduce_gdp_curve().table")
    spaces = list(dict.fromkeys(table["space"]))
    fig = make_subplots(rows=len(spaces), cols=1, shared_xaxes=True, vertical_spacing=0.3,  # room for each x title
                        subplot_titles=[_SPACE_LABEL.get(s, str(s)) for s in spaces])
    for i, space in enumerate(spaces, start=1):
        rows = table[table["space"] == space].sort_values("sigma")
        first = i == 1
        mc = rows["mu_mc_mean"].to_numpy(dtype=float)
        fig.add_trace(go.Scatter(
            x=rows["sigma"], y=mc, mode="lines+markers", name="Algorithm 2 (Monte Carlo): mean, min–max bars",
            line=dict(color="#7f7f7f"), marker=dict(symbol="square", size=8), legendgroup="mc", showlegend=first,
            error_y=dict(type="data", symmetric=False, array=rows["mu_mc_max"].to_numpy(dtype=float) - mc,
                         arrayminus=mc - rows["mu_mc_min"].to_numpy(dtype=float), visible=True),
            hovertemplate="σ = %{x:g}<br>Monte Carlo mean μ = %{y:.4f}<extra></extra>"), row=i, col=1)
        fig.add_trace(go.Scatter(
            x=rows["sigma"], y=rows["mu_flat"], mode="lines+markers", name="μ = Δ/σ on R (exact)",
            line=dict(color="#1f77b4"), marker=dict(symbol="triangle-up", size=8), legendgroup="flat",
            showlegend=first, hovertemplate="σ = %{x:g}<br>Δ/σ = %{y:.4f}<extra></extra>"), row=i, col=1)
        if space != "real_line":
            fig.add_trace(go.Scatter(
                x=rows["sigma"], y=rows["mu_exact"], mode="lines+markers", name="exact μ on S¹ (privacy profile)",
                line=dict(color="#d62728"), marker=dict(symbol="circle", size=8), legendgroup="exact",
                showlegend=first, hovertemplate="σ = %{x:g}<br>exact μ = %{y:.4f}<extra></extra>"), row=i, col=1)
        fig.update_yaxes(type="log", title_text="μ", row=i, col=1)
    chart_layout(fig, "GDP parameter μ against the rate σ (Δ = 1): exact vs the Monte Carlo Algorithm 2",
                 None, None, height=height, plot_px=210 * len(spaces))
    fig.update_xaxes(type="log", title_text="rate σ", showticklabels=True)
    return fig


def heat_escape_disk_figure(paths, height=None):
    """Brownian paths on H² in the Poincaré disk (unit circle: the boundary at infinity), end points marked.

    Parameters
    ----------
    paths : pandas.DataFrame
        ``reproduce_heat_escape(...).tables["paths"]`` (``path``, ``step``, ``x``, ``y``).
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(paths, ("path", "step", "x", "y"), "geodp_core.reproduce.reproduce_heat_escape().tables['paths']")
    fig = go.Figure()
    angle = np.linspace(0.0, 2 * np.pi, 361)
    fig.add_trace(go.Scatter(x=np.cos(angle), y=np.sin(angle), mode="lines", line=dict(color="black", width=2),
                             name="boundary at infinity (|z| = 1)", hoverinfo="skip"))
    palette = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
               "#17becf")
    ends_x, ends_y = [], []
    for i, path in enumerate(dict.fromkeys(paths["path"])):
        rows = paths[paths["path"] == path].sort_values("step")
        fig.add_trace(go.Scatter(x=rows["x"], y=rows["y"], mode="lines", line=dict(width=1.2,
                                 color=palette[i % len(palette)]), showlegend=False, hoverinfo="skip"))
        ends_x.append(float(rows["x"].iloc[-1]))
        ends_y.append(float(rows["y"].iloc[-1]))
    fig.add_trace(go.Scatter(x=ends_x, y=ends_y, mode="markers", marker=dict(size=8, color="black", symbol="x"),
                             name="end of each path", hovertemplate="|z| = %{customdata:.3f}<extra></extra>",
                             customdata=np.hypot(ends_x, ends_y)))
    fig.add_trace(go.Scatter(x=[0.0], y=[0.0], mode="markers", marker=dict(size=10, color="#d62728"),
                             name="start (origin)", hoverinfo="skip"))
    chart_layout(fig, "Brownian paths on the hyperbolic plane (Poincaré disk) drift to the boundary",
                 "x (Poincaré disk)", "y (Poincaré disk)", height=height, plot_px=300)
    fig.update_xaxes(range=[-1.05, 1.05], scaleanchor="y", scaleratio=1, zeroline=False)
    fig.update_yaxes(range=[-1.05, 1.05], zeroline=False)
    return fig


def heat_escape_growth_figure(table, height=None):
    """Mean distance from the start (± s.e.) against time on H² and on R², with √(πt) for R² dashed.

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_heat_escape(...).table`` (``space``, ``t``, ``mean_distance``, ``se``, ``theory``).
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    _check_frame(table, ("space", "t", "mean_distance", "se", "theory"),
                 "geodp_core.reproduce.reproduce_heat_escape().table")
    fig = go.Figure()
    for space in dict.fromkeys(table["space"]):
        rows = table[table["space"] == space].sort_values("t")
        manifold = get_manifold(space, 2) if space in MANIFOLD_NAMES else None
        name = str(space) if manifold is None else manifold.chooser_label
        sign = 0 if manifold is None else int(np.sign(manifold.curvature_bounds[1]))
        color = "#7f7f7f" if manifold is None else _CURVATURE_COLORS[sign]
        fig.add_trace(go.Scatter(
            x=rows["t"], y=rows["mean_distance"], mode="lines", name=f"{name}: mean ± s.e.", line=dict(color=color),
            error_y=dict(type="data", array=rows["se"].to_numpy(dtype=float), visible=True, thickness=0.8),
            hovertemplate="t = %{x:.3g}<br>mean distance = %{y:.3f}<extra></extra>"))
        theory = rows["theory"].to_numpy(dtype=float)
        if np.isfinite(theory).any():
            fig.add_trace(go.Scatter(x=rows["t"], y=theory, mode="lines", line=dict(color=color, dash="dash"),
                                     name=f"{name}: √(πt) (exact)", hoverinfo="skip"))
    t = table["t"].to_numpy(dtype=float)
    chart_layout(fig, "Distance of Brownian motion from its start: linear on H², like √t on R²", "time t",
                 "mean distance from the start", height=height)
    fig.update_xaxes(range=[0.0, float(t.max()) if t.size else 1.0])
    return fig


def ew_dimension_figure(table, mu=None, height=None, labels=None):
    """Mean distance (± s.e.) against the intrinsic dimension d, one panel per space family, at one μ.

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_ew_dimensions(...).table``.
    mu : float, optional
        The μ shown; default the middle value of the table's μ grid.
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    from plotly.subplots import make_subplots

    labels = labels or {}
    _check_frame(table, ("family", "dim", "mechanism", "title", "budget", "mean", "se", "status"),
                 "geodp_core.reproduce.reproduce_ew_dimensions().table")
    budgets = sorted(dict.fromkeys(table["budget"]))
    if mu is None:
        mu = budgets[len(budgets) // 2] if budgets else 1.0
    families = list(dict.fromkeys(table["family"]))
    fig = make_subplots(rows=max(1, len(families)), cols=1, shared_xaxes=True, vertical_spacing=0.12,
                        subplot_titles=[labels.get(f, str(f)) for f in families])
    shown = set()
    for i, family in enumerate(families, start=1):
        sub = table[(table["family"] == family) & np.isclose(table["budget"], mu) & (table["status"] == "ok")]
        for name in dict.fromkeys(table["mechanism"]):
            rows = sub[sub["mechanism"] == name].sort_values("dim")
            if not len(rows):
                continue
            fig.add_trace(go.Scatter(
                x=rows["dim"], y=rows["mean"], mode="lines+markers", name=str(rows["title"].iloc[0]),
                legendgroup=name, showlegend=name not in shown, line=dict(color=_SAMPLER_COLORS.get(name, "#444")),
                error_y=dict(type="data", array=rows["se"].to_numpy(dtype=float), visible=True),
                hovertemplate="d = %{x}<br>mean distance = %{y:.4g}<extra></extra>"), row=i, col=1)
            shown.add(name)
        fig.update_yaxes(type="log", row=i, col=1)
    chart_layout(fig, f"Mean distance to the true mean ± s.e. by dimension, μ = {mu:g} (μ-GDP target, n = 40)",
                 None, None, height=height, plot_px=175 * max(1, len(families)),
                 legend_title="missing points: no Riemannian Laplace law at that (d, μ)")
    fig.update_xaxes(tickvals=sorted(dict.fromkeys(int(d) for d in table["dim"])), title_text="intrinsic dimension d",
                     showticklabels=True)
    fig.update_yaxes(title_text="mean distance")
    return fig


def ew_runtime_figure(runtime, height=None, labels=None):
    """Milliseconds per release (log scale) against d, colour = sampler, dash = space family.

    Parameters
    ----------
    runtime : pandas.DataFrame
        ``reproduce_ew_dimensions(...).tables["runtime"]``.
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    labels = labels or {}
    _check_frame(runtime, ("family", "dim", "sampler", "label", "ms_per_release"),
                 "geodp_core.reproduce.reproduce_ew_dimensions().tables['runtime']")
    dashes = dict(zip(dict.fromkeys([*labels, *runtime["family"]]), _FAMILY_DASHES))
    fig = go.Figure()
    for sampler in dict.fromkeys(runtime["sampler"]):
        for family in dict.fromkeys(runtime["family"]):
            rows = runtime[(runtime["sampler"] == sampler) & (runtime["family"] == family)].sort_values("dim")
            rows = rows[np.isfinite(rows["ms_per_release"].to_numpy(dtype=float))]
            if not len(rows):
                continue
            fig.add_trace(go.Scatter(
                x=rows["dim"], y=rows["ms_per_release"], mode="lines+markers",
                name=f"{rows['label'].iloc[0]} · {labels.get(family, family)}", legendgroup=sampler,
                line=dict(color=_SAMPLER_COLORS.get(sampler, "#444"), dash=dashes.get(family, "solid")),
                hovertemplate="d = %{x}<br>%{y:.3g} ms per release<extra></extra>"))
    chart_layout(fig, "Sampling time per release by dimension (this machine; an observation)", "intrinsic dimension d",
                 "milliseconds per release (log)", height=height, legend_title="sampler · space (line style)")
    fig.update_yaxes(type="log")
    fig.update_xaxes(tickvals=sorted(dict.fromkeys(int(d) for d in runtime["dim"])))
    return label_log_axes(fig)


_CONFORMAL_COLORS = {"conformal": "#2ca02c", "riemannian_laplace": "#d62728", "tangent_gaussian": "#ff7f0e"}
#: Grey reference lines of the conformal figures: (floor-table column, legend, dash).
_FLOOR_LINES = (
    ("floor", "conformal at ε = 50 (continuous sampler: no floor)", "dot"),
    ("point_set_floor", "vertex-sampler floor at ε = 50 (public mesh or 1000 public points)", "dash"),
)


def conformal_panels_figure(table, floor, group, x, x_label, titles, log_x=False, height=None):
    """Mean distance (± s.e.) against ``x``, one panel per value of ``group``, with the conformal floor.

    Used by the conformal paper's Figs. 2–5 (``group="panel"``) and 7–8 (``group="dataset"``): one line per
    mechanism and, in grey, the conformal mechanism's mean distance at a very large ε (ε = 50): dotted for the
    continuous sampler used by the curves (it falls like 1/ε: no floor), dashed for the vertex sampler on the
    public points (the discretisation's resolution floor, which no ε can beat).

    Parameters
    ----------
    table : pandas.DataFrame
        ``reproduce_conformal_figure(...).table`` or ``reproduce_conformal_images(...).table``.
    floor : pandas.DataFrame
        The result's ``tables["floor"]`` (``group``, ``dim``, ``floor`` and optionally ``point_set_floor`` columns).
    group, x : str
        Columns of ``table``: the panel and the x axis.
    x_label : str
    titles : dict
        Panel title by group value.
    log_x : bool
    height : int, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    from plotly.subplots import make_subplots

    _check_frame(table, (group, x, "dim", "mechanism", "title", "mean", "se", "status"), "a conformal reproduction table")
    groups = list(dict.fromkeys(table[group]))
    fig = make_subplots(rows=max(1, len(groups)), cols=1, vertical_spacing=0.12,
                        subplot_titles=[titles.get(g, str(g)) for g in groups])
    shown = set()
    for i, value in enumerate(groups, start=1):
        sub = table[(table[group] == value) & (table["status"] == "ok")]
        for name in dict.fromkeys(table["mechanism"]):
            rows = sub[sub["mechanism"] == name].sort_values(x)
            if not len(rows):
                continue
            fig.add_trace(go.Scatter(
                x=rows[x], y=rows["mean"], mode="lines+markers", name=str(rows["title"].iloc[0]), legendgroup=name,
                showlegend=name not in shown, line=dict(color=_CONFORMAL_COLORS.get(name, "#444")),
                error_y=dict(type="data", array=rows["se"].to_numpy(dtype=float), visible=True),
                hovertemplate=f"{x_label} = %{{x}}<br>mean distance = %{{y:.4g}}<extra></extra>"), row=i, col=1)
            shown.add(name)
        fl = floor[floor[group] == value] if group in floor else floor.iloc[0:0]
        cells = sub.drop_duplicates(x).sort_values(x)
        for column, label, dash in _FLOOR_LINES:
            if column not in fl:
                continue
            levels = dict(zip(fl["dim"], fl[column]))
            ys = [levels.get(d, np.nan) for d in cells["dim"]]
            if np.any(np.isfinite(ys)):
                fig.add_trace(go.Scatter(
                    x=cells[x], y=ys, mode="lines", name=label, legendgroup=column, showlegend=column not in shown,
                    line=dict(color="#7f7f7f", dash=dash),
                    hovertemplate=label + " = %{y:.4g}<extra></extra>"), row=i, col=1)
                shown.add(column)
        fig.update_yaxes(type="log", title_text="mean distance", row=i, col=1)
        fig.update_xaxes(title_text=x_label, type="log" if log_x else None, row=i, col=1)
    chart_layout(fig, "Mean distance of the release to the true mean ± s.e.", None, None, height=height,
                 plot_px=240 * max(1, len(groups)), legend_title="mechanism")
    return fig


def _conformal_figure_panels(result):
    labels = result.labels
    return [conformal_panels_figure(result.table, result.tables["floor"], "panel", "x", labels["x_label"],
                                    labels["panel_titles"], log_x=labels.get("log_x", False))]


def _utility_space(result):
    setup = result.setup
    return "spd" if setup.startswith("SPD") else "sphere" if setup.startswith("S") else "hyperbolic"


def _reproduction_figures(result):
    """Every figure of one reproduction (a :class:`geodp_core.reproduce.Reproduction`), as a list.

    Parameters
    ----------
    result : geodp_core.reproduce.Reproduction

    Returns
    -------
    list of plotly.graph_objects.Figure
    """
    from geodp_core.viz.curves import utility_curve_figure

    key = getattr(result, "key", None)
    if key is None or not hasattr(result, "table"):
        raise InvalidParameterError(f"result must be a Reproduction; got {type(result).__name__}", param="result")
    title = "Mean distance to the true mean ± s.e."
    if key == "gdp":
        return [gdp_mu_figure(result.tables["mu"]),
                utility_curve_figure(result.table, "μ of the μ-GDP target", title=title, manifold="sphere")]
    if key == "heat_diffusion":
        return [utility_curve_figure(result.table, "ε of the (α = 2, ε)-RDP target", title=title,
                                     manifold=_utility_space(result))]
    if key == "exponential_wrapped":
        return [utility_curve_figure(result.table, "μ of the μ-GDP target", title=title,
                                     manifold=_utility_space(result))]
    if key == "conformal":
        return [utility_curve_figure(result.table, "total ε", title=title, manifold="sphere")]
    if key == "kng_regression":
        return [kng_mspe_figure(result.table)]
    if key == "gdp_curve":
        return [gdp_curve_figure(result.table)]
    if key == "heat_escape":
        return [heat_escape_disk_figure(result.tables["paths"]), heat_escape_growth_figure(result.table)]
    if key == "kng_budget_split":
        return [kng_split_figure(result.table)]
    if key == "kng_noise":
        return [kng_noise_figure(result.table)]
    if key == "kng_sensitivity":
        return [kng_sensitivity_figure(result.table, labels=result.labels.get("spaces"))]
    if key == "kng_shapes":
        return [kng_shapes_figure(result.tables["parameters"], result.tables["data"])]
    if key == "ew_dimensions":
        families = result.labels.get("families")
        return [ew_dimension_figure(result.table, labels=families),
                ew_runtime_figure(result.tables["runtime"], labels=families)]
    if key in ("conformal_dimension", "conformal_n", "conformal_spread", "conformal_eps"):
        return _conformal_figure_panels(result)
    if key == "conformal_images":
        return [conformal_panels_figure(result.table, result.tables["floor"], "dataset", "budget", "total ε",
                                        result.labels["titles"])]
    raise InvalidParameterError(f"no figure for the reproduction {key!r}", param="result")


def reproduction_figures(result):
    """The figures of a :class:`~geodp_core.studies.reproductions.common.Reproduction`, every log axis labelled in full
    (:func:`~geodp_core.viz.curves.label_log_axes`)."""
    return [label_log_axes(fig) for fig in _reproduction_figures(result)]


def reproduction_html(result, name, data_text=""):
    """A self-contained offline HTML page of one reproduction: the paper, the setup, the data used, the verdict,
    each clause with its outcome, and every figure (plotly.js inlined once, so it opens without a network).

    Parameters
    ----------
    result : Reproduction
    name : str
        The page's title (e.g. the id and the panel's code).
    data_text : str
        Which data were used, in words (omitted when empty).

    Returns
    -------
    str
        The page (a reproduction without a figure gets the text and clauses only).
    """
    from html import escape

    try:
        figures = reproduction_figures(result)
    except InvalidParameterError:  # a reproduction with no figure: its numbers are in the CSV
        figures = []
    body = "\n".join(fig.to_html(include_plotlyjs=(i == 0), full_html=False) for i, fig in enumerate(figures))
    clauses = "".join(f"<li>{escape(clause.describe())}</li>" for clause in result.clauses)
    data = f"<p>Data: {escape(data_text)}</p>" if data_text else ""
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(name)}</title></head><body>"
            f"<h2>{escape(result.paper)}</h2><p>{escape(result.setup)}</p>{data}"
            f"<p>[{escape(result.status)}] {escape(result.verdict)}</p>"
            f"<ul>{clauses}</ul>{body}</body></html>")
