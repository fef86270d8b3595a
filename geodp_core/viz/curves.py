r"""Plotly figures of utility curves and of privacy accounting (no Streamlit).

* :func:`utility_curve_figure` — mean distance to the true mean ± standard error per
  mechanism (frames of :func:`geodp_core.experiments.utility_curve` / ``sweep``), the
  papers' utility bounds dashed in the same colour, unavailable mechanisms listed with
  their reason;
* :func:`privacy_profile_figure` — :math:`\delta(\varepsilon)` of guarantees;
* :func:`tradeoff_figure` — GDP trade-off curves :math:`G_\mu(\alpha) = \Phi(\Phi^{-1}(1-\alpha) - \mu)`;
* :func:`gdp_mu_vs_sigma_figure` — exact :math:`\mu(\sigma)` of the Riemannian Gaussian on
  :math:`S^1`, :math:`S^2`, :math:`\mathbb{R}` (the GDP paper's Figure 1);
* :func:`heat_eps_vs_t_figure` — Brownian-motion RDP budget against the diffusion time for
  :math:`K < 0`, :math:`K = 0`, :math:`K > 0` with the privacy floor;
* :func:`langevin_t_vs_lam_figure` — Langevin diffusion time against :math:`\lambda`.
"""

import math
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from scipy import special

from geodp_core._validation import check_finite_array, check_int, check_real
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import MANIFOLD_NAMES, Manifold, manifold_class
from geodp_core.privacy import (
    GDP,
    RDP,
    ApproxDP,
    Guarantee,
    PureDP,
    gdp_delta,
    rdp_to_approx_dp,
    zcdp_to_approx_dp,
)
from geodp_core.viz.layout import MODEBAR_PX, NOTE_CHARS, TITLE_CHARS, TITLE_LINE_PX, title_below_modebar, wrap_text
from geodp_core.viz.scene import MECHANISM_COLORS

__all__ = [
    "utility_curve_figure",
    "manifold_diameter",
    "chart_layout",
    "label_log_axes",
    "log_ticks",
    "wrap_text",
    "RANDOM_GUESS_LABEL",
    "UNINFORMATIVE_LABEL",
    "privacy_profile_figure",
    "tradeoff_figure",
    "gdp_mu_vs_sigma_figure",
    "heat_eps_vs_t_figure",
    "langevin_t_vs_lam_figure",
    "p_mean_sensitivity_figure",
    "pure_dp_profile",
    "approx_dp_profile",
]

_PALETTE = qualitative.Plotly
_FALLBACK_COLOR = "#7f7f7f"
_REASON_CHARS = 150


# =============================================================================== shared chart layout
# Every figure of the app is read on a laptop (chart ~700-1100 px wide) and on a phone (~360 px):
# * the title sits at the top left BELOW the band of the Plotly mode bar (which floats over the top
#   right corner; geodp_core.viz.layout.title_below_modebar), wrapped to lines that fit a phone;
# * the legend is horizontal, anchored to the bottom of the figure (container coordinates): Plotly then
#   grows the bottom margin so that the plot, its tick labels and axis titles stay above the legend,
#   whatever the number of legend rows at the current width; legend symbols have a constant size;
# * the default height leaves a usable plot area even when the legend needs one row per entry (phone).
_LEGEND_NAME_CHARS = 48
_LEGEND_ROW_PX = 19
_PHONE_LEGEND_PX = 340
_AXIS_PX = 62  # tick labels + one line of x-axis title
_X_TITLE_CHARS = 44  # 14 px axis titles: one line fits the ~290 px plot of a phone
_Y_TITLE_CHARS = 40


def _n_lines(text):
    return 0 if not text else str(text).count("<br>") + 1


def _legend_rows(names, width_px=_PHONE_LEGEND_PX):
    """Rows a horizontal legend needs at ``width_px`` (an estimate: ~6.3 px a character at 11 px)."""
    rows, used = 0, width_px
    for name in names:
        lines = str(name).split("<br>")
        item = 40 + 6.3 * max(len(line) for line in lines)
        if used + item > width_px:
            rows, used = rows + max(1, len(lines)), 0
        used += item
    return rows


def log_ticks(low, high, max_ticks=10):
    r"""Tick values :math:`\{1, 2, 5\} \times 10^k` within ``[low, high]`` (only :math:`10^k` when there would be more
    than ``max_ticks``, and the ends themselves when none falls inside), with labels written in full (``0.2``, not the
    ``2`` of a minor log tick that reads as two)."""
    low, high = float(low), float(high)
    if not (math.isfinite(low) and math.isfinite(high) and 0 < low <= high):
        return [], []
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    values = [m * 10.0**k for k in range(first, last + 1) for m in (1, 2, 5)]
    values = [v for v in values if low * (1 - 1e-9) <= v <= high * (1 + 1e-9)]
    if len(values) > max_ticks:
        values = [v for v in values if round(v / 10.0 ** math.floor(math.log10(v) + 1e-12)) == 1]
    if not values:
        values = sorted({low, high})
    return values, [f"{v:g}" for v in values]


def label_log_axes(fig):
    """Give every log axis of ``fig`` without explicit ticks the :func:`log_ticks` of its traces' positive data."""
    for axis_name in [name for name in fig.layout.to_plotly_json() if name.startswith(("xaxis", "yaxis"))]:
        axis = fig.layout[axis_name]
        if axis.type != "log" or axis.tickvals is not None:
            continue
        letter, suffix = axis_name[0], axis_name[5:]
        ref = letter + suffix  # "x", "x2", ...
        values = []
        for trace in fig.data:
            if (getattr(trace, f"{letter}axis", None) or letter) != ref:
                continue
            data = getattr(trace, letter, None)
            if data is None:
                continue
            try:
                array = np.asarray(data, dtype=float).ravel()
            except (TypeError, ValueError):
                continue  # categories (box plots): nothing to place
            values.extend(array[np.isfinite(array) & (array > 0)])
        if values:
            ticks, text = log_ticks(min(values), max(values))
            if ticks:
                fig.layout[axis_name].update(tickvals=ticks, ticktext=text)
    return fig


def chart_layout(fig, title, x_title=None, y_title=None, *, height=None, notes=(), legend_title=None,
                 plot_px=280, note_color="#a00"):
    """Apply the app's laptop-and-phone layout to ``fig`` (see the comment above) and return it.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    title : str
        Plain text (wrapped here to :data:`TITLE_CHARS`).
    x_title, y_title : str, optional
        Axis titles of a 2-D chart, wrapped to fit a phone (``None``: leave the axes alone, e.g. 3-D
        scenes).
    height : int, optional
        Total height; by default the title, a ``plot_px`` plot area, the x axis and the legend as it
        is laid out on a phone.
    notes : sequence of str
        Warnings shown under the title (wrapped, smaller, ``note_color``).
    legend_title : str, optional
        Shown above the legend entries (wrapped to :data:`NOTE_CHARS`).
    """
    main = wrap_text(title, TITLE_CHARS)
    note_lines = [wrap_text(note, NOTE_CHARS) for note in notes]
    text = main
    if note_lines:
        text += "<br>" + "<br>".join(f"<span style='font-size:12px;color:{note_color}'>{line}</span>"
                                      for note in note_lines for line in note.split("<br>"))
    lines = _n_lines(text)
    top = max(60, MODEBAR_PX + TITLE_LINE_PX * lines + 14)
    legend_names = []
    for trace in fig.data:
        if trace.showlegend is False or not trace.name:
            continue
        if len(trace.name) > _LEGEND_NAME_CHARS and "<br>" not in trace.name:
            trace.name = wrap_text(trace.name, _LEGEND_NAME_CHARS)
        legend_names.append(trace.name)
    legend_header = wrap_text(legend_title, NOTE_CHARS) if legend_title else None
    if height is None:
        legend_px = _LEGEND_ROW_PX * _legend_rows(legend_names) + 14 * _n_lines(legend_header) + 8
        height = int(top + plot_px + (_AXIS_PX if x_title else 10) + legend_px)
    legend = dict(orientation="h", xref="container", x=0.0, xanchor="left", yref="container", y=0.0,
                  yanchor="bottom", itemsizing="constant", font=dict(size=11), bgcolor="rgba(255,255,255,0)",
                  tracegroupgap=4,
                  title=dict(text=legend_header or "", side="top", font=dict(size=11, color="#444")))
    fig.update_layout(template="plotly_white", height=height, margin=dict(l=10, r=10, b=10, autoexpand=True),
                      legend=legend)
    title_below_modebar(fig, text, pad=dict(l=12))
    if x_title is not None:
        fig.update_xaxes(title=dict(text=wrap_text(x_title, _X_TITLE_CHARS)), automargin=True)
    if y_title is not None:
        fig.update_yaxes(title=dict(text=wrap_text(y_title, _Y_TITLE_CHARS)), automargin=True)
    return fig


def _rgba(hex_color, alpha):
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r}, {g}, {b}, {alpha})"


_SUPERSCRIPTS = str.maketrans("0123456789dnm", "⁰¹²³⁴⁵⁶⁷⁸⁹ᵈⁿᵐ")


def unicode_powers(text):
    """``S^2`` → ``S²``, ``R^d`` → ``Rᵈ``: plain-text powers (digits, d, n, m) of messages as superscripts."""
    return re.sub(r"\^(\d+|[dnm])\b", lambda m: m.group(1).translate(_SUPERSCRIPTS), str(text))


def _short(text, limit=_REASON_CHARS):
    text = unicode_powers(" ".join(str(text).split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _check_bool(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be True or False; got {value!r}", param=name)
    return bool(value)


# =============================================================================== utility curves
_REQUIRED = ("mechanism", "mean", "se", "label", "status", "reason", "bound")
RANDOM_GUESS_LABEL = "random guess (π/2)"
UNINFORMATIVE_LABEL = "bound above the diameter: uninformative"


def _space(manifold):
    """``None``, the class of a space code or the Manifold itself (both answer the class-level facts used here:
    ``diameter``, ``distance_unit``, ``uniform_mean_distance``)."""
    if manifold is None or isinstance(manifold, Manifold) or (isinstance(manifold, type) and issubclass(manifold, Manifold)):
        return manifold
    if isinstance(manifold, str) and manifold in MANIFOLD_NAMES:
        return manifold_class(manifold)
    raise InvalidParameterError(
        f"manifold must be None, one of {list(MANIFOLD_NAMES)} or a geodp_core Manifold; got {manifold!r:.60}",
        param="manifold",
    )


def _radians_text(value):
    """``π``, ``π/2`` or the value to 3 significant digits."""
    for text, exact in (("π", math.pi), ("π/2", math.pi / 2)):
        if math.isclose(value, exact):
            return text
    return f"{value:.3g}"


def manifold_diameter(manifold):
    """Diameter of the manifold (a space code or a Manifold): π on every sphere :math:`S^d`, π/2 on Kendall shape
    spaces, ∞ on unbounded spaces (``None``: unknown, ∞)."""
    space = _space(manifold)
    return math.inf if space is None else float(space.diameter)


def utility_curve_figure(df, x_label, log_x=True, x=None, y_label=None, title=None, manifold=None):
    """One line per mechanism with a mean ± s.e. band, dashed paper bounds, unavailable ones listed.

    Parameters
    ----------
    df : pandas.DataFrame
        A frame of :func:`geodp_core.experiments.utility_curve` or
        :func:`~geodp_core.experiments.sweep` (columns ``mechanism``, the x column,
        ``mean``, ``se``, ``label``, ``status``, ``reason``, ``bound``; optional ``title``).
    x_label : str
        Axis title of x (e.g. ``"ε (target (ε, δ=1e-05)-DP)"``).
    log_x : bool
        Logarithmic x axis (budgets, n).
    x : str, optional
        The x column; default ``"value"`` if present (sweeps), else ``"budget"``.
    y_label : str, optional
        Default: "mean distance to the true mean (<unit>)", the unit from ``manifold``.
    title : str, optional
        Default: "Mean distance of the private release to the true mean".
    manifold : str or Manifold, optional
        The space the frame was computed on (``"sphere"``, ``"hyperbolic"``, ``"spd"``,
        ``"euclidean"`` or a :class:`~geodp_core.geometry.Manifold`). On a sphere :math:`S^d` (any
        d) the figure draws the random-guess level π/2 — the expected distance between a fixed
        point and a uniformly random one — and does not draw paper bounds above the diameter π,
        which say nothing (they are listed in the legend and the notes instead). ``None`` (the
        default): neither, every finite bound drawn.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces per mechanism with at least one available cell: the s.e. band
        (``fill="toself"``, no legend entry), the mean line (legend: title and honesty
        label) and, when the paper gives an informative one, the bound (dashed, same colour).
        Each mechanism with no available cell gets one legend-only entry "× … unavailable".
        On a sphere: the random-guess line (dotted, :data:`RANDOM_GUESS_LABEL`) and, if some
        bound exceeds π, one legend-only grey entry :data:`UNINFORMATIVE_LABEL`. The reasons
        (unavailable mechanisms, the budgets where a mechanism is only partly unavailable, the
        points of uninformative bounds) are listed above the legend.
    """
    if not isinstance(df, pd.DataFrame):
        raise InvalidParameterError(f"df must be a pandas DataFrame; got {type(df).__name__}", param="df")
    if x is None:
        x = "value" if "value" in df.columns else "budget"
    missing = [c for c in _REQUIRED + (x,) if c not in df.columns]
    if missing:
        raise InvalidParameterError(
            f"df must have the columns of geodp_core.experiments.utility_curve; missing {missing}", param="df"
        )
    if not isinstance(x_label, str):
        raise InvalidParameterError(f"x_label must be a string; got {type(x_label).__name__}", param="x_label")
    log_x = _check_bool(log_x, "log_x")
    space = _space(manifold)
    diameter = manifold_diameter(space)
    if y_label is None:
        unit = "geodesic distance" if space is None else space.distance_unit
        y_label = f"mean distance to the true mean ({unit})"
    x_symbol = x_label.split(" ")[0]

    fig = go.Figure()
    notes = []
    uninformative = False
    for name in dict.fromkeys(df["mechanism"]):
        rows = df[df["mechanism"] == name].sort_values(x)
        display = str(rows["title"].iloc[0]) if "title" in rows.columns else str(name)
        color = MECHANISM_COLORS.get(name, _FALLBACK_COLOR)
        ok = rows[rows["status"] == "ok"]
        bad = rows[rows["status"] != "ok"]
        if ok.empty:
            fig.add_trace(go.Scatter(
                x=[None], y=[None], mode="markers", marker=dict(symbol="x", color=_FALLBACK_COLOR),
                name=f"× {display} — unavailable", legendgroup=name, showlegend=True,
            ))
            notes.append(f"× <b>{display}</b>: {_short(bad['reason'].iloc[0])}")
            continue
        xs = ok[x].to_numpy(dtype=float)
        mean = ok["mean"].to_numpy(dtype=float)
        se = np.nan_to_num(ok["se"].to_numpy(dtype=float))
        labels = ", ".join(dict.fromkeys(ok["label"].astype(str)))
        fig.add_trace(go.Scatter(
            x=np.concatenate([xs, xs[::-1]]), y=np.concatenate([mean + se, (mean - se)[::-1]]),
            fill="toself", fillcolor=_rgba(color, 0.2), line=dict(width=0), mode="lines",
            hoverinfo="skip", showlegend=False, legendgroup=name, name=f"{display} ± s.e.",
        ))
        fig.add_trace(go.Scatter(
            x=xs, y=mean, mode="lines+markers", line=dict(color=color, width=2), marker=dict(size=6),
            name=f"{display} [{labels}]", legendgroup=name, customdata=se,
            hovertemplate=f"{display}<br>{x_label} = %{{x:.4g}}<br>mean distance = %{{y:.4g}} ± %{{customdata:.2g}}"
                          "<extra></extra>",
        ))
        bounds = ok["bound"].to_numpy(dtype=float)
        finite = np.isfinite(bounds)
        informative = finite & (bounds <= diameter)
        if informative.any():
            # gaps (None) where a bound is above the diameter: the dashed line never bridges them
            shown = [float(b) if keep else None for b, keep in zip(bounds[finite], informative[finite])]
            fig.add_trace(go.Scatter(
                x=xs[finite], y=shown, mode="lines+markers", connectgaps=False,
                line=dict(color=color, width=1.5, dash="dash"), marker=dict(size=4),
                name=f"{display}: paper bound", legendgroup=name,
                hovertemplate=f"{display}: the paper's upper bound on the mean distance<br>{x_label} = %{{x:.4g}}"
                              " → %{y:.4g}<extra></extra>",
            ))
        above = finite & ~informative
        if above.any():
            uninformative = True
            where = ", ".join(f"{v:g}" for v in xs[above])
            largest = float(np.max(bounds[above]))
            notes.append(f"<b>{display}</b>: paper bound above the diameter {_radians_text(diameter)} at "
                         f"{x_symbol} = {where} "
                         f"(up to {largest:.3g}) — uninformative, not drawn")
        if not bad.empty:
            where = ", ".join(f"{v:g}" for v in bad[x].astype(float))
            notes.append(f"× <b>{display}</b> unavailable at {x_symbol} = {where}: {_short(bad['reason'].iloc[0])}")

    if uninformative:
        fig.add_trace(go.Scatter(
            x=[None], y=[None], mode="lines", line=dict(color="#bbbbbb", width=1.5, dash="dash"),
            name=UNINFORMATIVE_LABEL, showlegend=True, hoverinfo="skip",
        ))
    guess = None if space is None else space.uniform_mean_distance
    if guess is not None:
        xs_all = df[x].to_numpy(dtype=float)
        xs_all = xs_all[np.isfinite(xs_all)]
        if xs_all.size:
            label = f"random guess ({_radians_text(guess)})"  # RANDOM_GUESS_LABEL on a sphere
            fig.add_trace(go.Scatter(
                x=[float(xs_all.min()), float(xs_all.max())], y=[guess, guess], mode="lines",
                line=dict(color="#555555", width=1.5, dash="dot"), name=label,
                hovertemplate=f"random guess: a uniformly random point of the space is at mean distance "
                              f"{_radians_text(guess)} ≈ {guess:.4g} from any fixed point<extra></extra>",
            ))
            fig.add_annotation(
                x=1.0, xref="paper", xanchor="right", y=guess, yref="y", yanchor="bottom", showarrow=False,
                text=label, font=dict(size=11, color="#555555"),
            )

    legend_title = "mechanism [honesty label] · band: ± 1 s.e. · dashed: paper bound"
    if notes:
        legend_title += "<br>" + "<br>".join(wrap_text(note, NOTE_CHARS) for note in notes)
    chart_layout(fig, title or "Mean distance of the private release to the true mean", x_label, y_label,
                 legend_title=legend_title, plot_px=300)
    fig.update_xaxes(type="log" if log_x else "linear")
    fig.update_yaxes(rangemode="tozero")
    return label_log_axes(fig)


# =============================================================================== privacy profiles
def pure_dp_profile(eps, eps_grid):
    r"""Privacy profile implied by :math:`\varepsilon`-DP (attained by randomized response).

    .. math::
        \delta(\varepsilon') = \max\Big(0,\ \frac{e^{\varepsilon} - e^{\varepsilon'}}{1 + e^{\varepsilon}}\Big)

    Every :math:`\varepsilon`-DP mechanism is a post-processing of randomized response
    (Kairouz, Oh & Viswanath 2015, Thm. 2.1), whose profile this is.

    Parameters
    ----------
    eps : float
        ε > 0.
    eps_grid : array_like
        ε' >= 0.

    Returns
    -------
    numpy.ndarray
    """
    eps = check_real(eps, "eps", low=0.0)
    grid = check_finite_array(eps_grid, "eps_grid")
    # (e^eps - e^x)/(1 + e^eps) = -expm1(x - eps) / (1 + e^-eps)
    return np.maximum(0.0, -np.expm1(grid - eps) / (1.0 + math.exp(-eps)))


def approx_dp_profile(eps, delta, eps_grid):
    r"""Privacy profile implied by :math:`(\varepsilon, \delta)`-DP (Kairouz, Oh & Viswanath 2015).

    .. math::
        \delta(\varepsilon') = \delta + (1 - \delta)\max\Big(0,\ \frac{e^{\varepsilon} - e^{\varepsilon'}}{1 + e^{\varepsilon}}\Big)

    Parameters
    ----------
    eps : float
        ε >= 0.
    delta : float
        δ in (0, 1).
    eps_grid : array_like
        ε' >= 0.

    Returns
    -------
    numpy.ndarray
    """
    eps = check_real(eps, "eps", low=0.0, low_closed=True)
    delta = check_real(delta, "delta", low=0.0, high=1.0)
    grid = check_finite_array(eps_grid, "eps_grid")
    rr = np.maximum(0.0, -np.expm1(grid - eps) / (1.0 + math.exp(-eps)))
    return delta + (1.0 - delta) * rr


def _profile_curve(guarantee, eps_grid, delta_grid):
    """``(eps, delta, how)`` points of the profile of one guarantee."""
    g = guarantee
    if isinstance(g, PureDP):
        return eps_grid, pure_dp_profile(g.eps, eps_grid), "exact (randomized response)"
    if isinstance(g, ApproxDP):
        return eps_grid, approx_dp_profile(g.eps, g.delta, eps_grid), "exact (Kairouz et al.)"
    if isinstance(g, GDP):
        return eps_grid, gdp_delta(g.mu, eps_grid), "exact"
    if isinstance(g, RDP):
        return rdp_to_approx_dp(g.alpha, g.eps, delta_grid), delta_grid, "conversion bound"
    eps = np.array([zcdp_to_approx_dp(g.rho, d) for d in delta_grid])
    return eps, delta_grid, "conversion bound"


def privacy_profile_figure(guarantees, eps_max=5.0, n_points=200, log_y=True):
    r"""Privacy profiles :math:`\delta(\varepsilon)`: the smallest δ with (ε, δ)-DP implied by each guarantee.

    ε-DP and (ε, δ)-DP: the exact implied profiles (:func:`pure_dp_profile`,
    :func:`approx_dp_profile`); μ-GDP: :math:`\delta_\mu(\varepsilon)`
    (:func:`~geodp_core.privacy.gdp_delta`); RDP and zCDP: the upper bound given by the
    standard RDP/zCDP conversions, drawn parametrically over δ. A curve that lies below another
    everywhere is a stronger guarantee.

    Parameters
    ----------
    guarantees : Guarantee or sequence of Guarantee
    eps_max : float
        Right end of the ε axis, in (0, 1000].
    n_points : int
        Points per curve, in [10, 5000].
    log_y : bool

    Returns
    -------
    plotly.graph_objects.Figure
        One trace per guarantee.
    """
    items = [guarantees] if isinstance(guarantees, Guarantee) else list(guarantees)
    if not items or not all(isinstance(g, Guarantee) for g in items):
        raise InvalidParameterError(
            "guarantees must be a guarantee or a non-empty sequence of PureDP, ApproxDP, GDP, RDP, ZCDP",
            param="guarantees",
        )
    eps_max = check_real(eps_max, "eps_max", low=0.0, high=1000.0, high_closed=True)
    n_points = check_int(n_points, "n_points", low=10, high=5000)
    log_y = _check_bool(log_y, "log_y")
    eps_grid = np.linspace(0.0, eps_max, n_points)
    delta_grid = np.logspace(-15, math.log10(0.5), n_points)
    fig = go.Figure()
    for i, g in enumerate(items):
        xs, ys, how = _profile_curve(g, eps_grid, delta_grid)
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        keep = (xs <= eps_max) & (ys > 0.0) if log_y else xs <= eps_max
        fig.add_trace(go.Scatter(
            x=xs[keep], y=ys[keep], mode="lines", line=dict(color=_PALETTE[i % len(_PALETTE)], width=2,
                                                            dash="dot" if how == "conversion bound" else "solid"),
            name=f"{g.describe()} ({how})",
        ))
    chart_layout(fig, "Privacy profile: the smallest δ at each ε (lower = more private)",
                 "ε (privacy loss, dimensionless)", "δ(ε) (probability)",
                 legend_title="guarantee (how the profile is obtained) · dotted: conversion bound")
    fig.update_yaxes(type="log" if log_y else "linear", exponentformat="power")
    return fig


def tradeoff_figure(mu, eps=None, n_points=201):
    r"""Trade-off curves: the smallest type-II error at type-I error :math:`\alpha`.

    .. math::
        G_\mu(\alpha) = \Phi\big(\Phi^{-1}(1 - \alpha) - \mu\big), \qquad
        f_\varepsilon(\alpha) = \max\big(0,\ 1 - e^{\varepsilon}\alpha,\ e^{-\varepsilon}(1 - \alpha)\big)

    for μ-GDP (Dong, Roth & Su 2022) and, optionally, ε-DP. The diagonal
    :math:`1 - \alpha` is perfect privacy; higher curves are more private.

    Parameters
    ----------
    mu : float or sequence of float
        μ > 0 values.
    eps : float or sequence of float, optional
        ε > 0 values for ε-DP curves (dashed).
    n_points : int
        In [10, 5000].

    Returns
    -------
    plotly.graph_objects.Figure
        One trace per μ, one per ε, and the diagonal.
    """
    mus = [mu] if np.ndim(mu) == 0 else list(mu)
    if not mus:
        raise InvalidParameterError("mu must be a positive number or a non-empty sequence of them; got []", param="mu")
    mus = [check_real(m, "mu", low=0.0) for m in mus]
    epss = [] if eps is None else ([eps] if np.ndim(eps) == 0 else list(eps))
    epss = [check_real(e, "eps", low=0.0) for e in epss]
    n_points = check_int(n_points, "n_points", low=10, high=5000)
    alpha = np.linspace(0.0, 1.0, n_points)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=alpha, y=1.0 - alpha, mode="lines", line=dict(color="#999", dash="dot"),
                             name="perfect privacy (β = 1 − α)"))
    for i, m in enumerate(mus):
        beta = special.ndtr(special.ndtri(1.0 - alpha) - m)
        fig.add_trace(go.Scatter(x=alpha, y=beta, mode="lines", line=dict(color=_PALETTE[i % len(_PALETTE)], width=2),
                                 name=f"μ = {m:g} (GDP)"))
    for j, e in enumerate(epss):
        # exp(e) overflows past e ~ 709; the curve is then 0 for alpha > 0 anyway
        beta = np.maximum.reduce([np.zeros_like(alpha), 1.0 - np.exp(min(e, 700.0)) * alpha,
                                  np.exp(-e) * (1.0 - alpha)])
        fig.add_trace(go.Scatter(x=alpha, y=beta, mode="lines",
                                 line=dict(color=_PALETTE[(len(mus) + j) % len(_PALETTE)], width=2, dash="dash"),
                                 name=f"ε = {e:g} (ε-DP)"))
    chart_layout(fig, "Trade-off curves: the smallest type II error β at each type I error α (higher = more private)",
                 "type I error α (probability)", "type II error β (probability)",
                 legend_title="guarantee · dashed: ε-DP", plot_px=330)
    fig.update_xaxes(range=[0, 1], constrain="domain")
    fig.update_yaxes(range=[0, 1], scaleanchor="x", scaleratio=1, constrain="domain")
    return fig


# =============================================================================== GDP mu vs sigma
def gdp_mu_vs_sigma_figure(curves=None, sensitivity=1.0):
    r"""Exact :math:`\mu(\sigma)` of the Riemannian Gaussian on :math:`S^1`, :math:`S^2` and :math:`\mathbb{R}`.

    The GDP paper's Figure 1 (Δ = 1, σ = k/4, k = 1..16), with every point exact
    (:func:`geodp_core.mechanisms.gaussian_gdp.gdp_mu`; no Monte Carlo). On the sphere μ
    falls below the Euclidean Δ/σ as σ grows (the law tends to the uniform one).

    Parameters
    ----------
    curves : pandas.DataFrame
        Output of :func:`geodp_core.experiments.gdp_mu_curves` (about 0.5 s per σ on S²; pass a cached frame in
        an app). The figures never compute a study's numbers themselves.
    sensitivity : float
        Δ, for the title.

    Returns
    -------
    plotly.graph_objects.Figure
        One trace per space.
    """
    if not isinstance(curves, pd.DataFrame) or not {"label", "sigma", "mu"} <= set(curves.columns):
        raise InvalidParameterError("curves must be a frame of geodp_core.experiments.gdp_mu_curves "
                                    "(columns label, sigma, mu)", param="curves")
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    symbols = ["circle", "square", "triangle-up", "diamond"]
    fig = go.Figure()
    for i, label in enumerate(dict.fromkeys(curves["label"])):
        part = curves[curves["label"] == label].sort_values("sigma")
        fig.add_trace(go.Scatter(
            x=part["sigma"], y=part["mu"], mode="lines+markers", name=label,
            line=dict(color=_PALETTE[i % len(_PALETTE)], width=2), marker=dict(symbol=symbols[i % len(symbols)]),
            hovertemplate=f"{label}<br>σ = %{{x:.4g}}<br>μ = %{{y:.5g}}<extra></extra>",
        ))
    chart_layout(fig, f"Riemannian Gaussian: exact μ-GDP against the noise scale σ (Δ = {sensitivity:g})",
                 "noise scale σ (same unit as Δ: radians on spheres)", "μ (GDP parameter, dimensionless)",
                 legend_title="space")
    fig.update_yaxes(type="log")
    return label_log_axes(fig)  # labelled 1-2-5 ticks within the data: Plotly's own minor labels collide


# =============================================================================== heat diffusion
def _curvature_label(K):
    if K < 0:
        return f"K = {K:g}: Ric ≥ {-K:g} > 0 (positive curvature, e.g. S²)"
    if K == 0:
        return "K = 0: Ric ≥ 0 (flat, e.g. ℝᵈ)"
    return f"K = {K:g} > 0: Ric ≥ {-K:g} (negative curvature, e.g. H²)"


def heat_eps_vs_t_figure(alpha=2.0, sensitivity=1.0, curvatures=(-1.0, 0.0, 1.0), t_min=None, t_max=10.0,
                         n_points=200, eps_target=None):
    r"""Brownian-motion RDP budget against the diffusion time, for several Ricci constants.

    .. math::
        \varepsilon(t) = \frac{K\alpha\Delta^2}{2(1 - e^{-2Kt})}\quad(K = 0:\ \alpha\Delta^2/(4t)),
        \qquad \mathrm{Ric} \ge -K

    (heat-diffusion paper, Theorem 5; :func:`geodp_core.mechanisms.heat_diffusion.bm_rdp_eps`).
    For :math:`K > 0` (negative curvature) the budget never goes below the privacy floor
    :math:`K\alpha\Delta^2/2`, drawn as a dashed line; for :math:`K < 0` it decays exponentially.

    Parameters
    ----------
    alpha : float
        Rényi order > 1.
    sensitivity : float
        Δ > 0.
    curvatures : sequence of float
        Ricci constants K (``Ric >= -K``).
    t_min, t_max : float, optional
        Time range (``t_min`` default ``1e-3 Δ²``).
    n_points : int
        In [10, 5000].
    eps_target : float, optional
        Draw this budget and mark the time each K needs (:func:`bm_diffusion_time`), or say
        it is below the floor.

    Returns
    -------
    plotly.graph_objects.Figure
        One trace per K, one dashed floor per K > 0 (and the target line and markers).
    """
    from geodp_core.mechanisms.heat_diffusion import (
        bm_diffusion_time,
        bm_privacy_floor,
        bm_rdp_eps,
    )

    alpha = check_real(alpha, "alpha", low=1.0)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    ks = [check_real(k, "curvatures", low=-1e3, high=1e3, low_closed=True, high_closed=True) for k in curvatures]
    if not ks:
        raise InvalidParameterError("curvatures must contain at least one Ricci constant K; got []",
                                    param="curvatures")
    t_min = 1e-3 * sensitivity**2 if t_min is None else check_real(t_min, "t_min", low=0.0)
    t_max = check_real(t_max, "t_max", low=t_min)
    n_points = check_int(n_points, "n_points", low=10, high=5000)
    if eps_target is not None:
        eps_target = check_real(eps_target, "eps_target", low=0.0)
    times = np.logspace(math.log10(t_min), math.log10(t_max), n_points)
    fig = go.Figure()
    notes = []
    visible_low = []
    for i, K in enumerate(ks):
        color = _PALETTE[i % len(_PALETTE)]
        eps = bm_rdp_eps(K, alpha, sensitivity, times)
        keep = eps > 0
        if K >= 0:
            visible_low.append(float(eps[keep].min()))
        fig.add_trace(go.Scatter(x=times[keep], y=eps[keep], mode="lines", line=dict(color=color, width=2),
                                 name=_curvature_label(K)))
        floor = bm_privacy_floor(K, alpha, sensitivity)
        if floor > 0:
            fig.add_trace(go.Scatter(x=[times[0], times[-1]], y=[floor, floor], mode="lines",
                                     line=dict(color=color, width=1.5, dash="dash"),
                                     name=f"privacy floor KαΔ²/2 = {floor:.4g} (K = {K:g})"))
        if eps_target is not None:
            try:
                t_needed = bm_diffusion_time(K, alpha, sensitivity, eps_target)
            except UnavailableError:
                notes.append(f"K = {K:g}: ε = {eps_target:g} is below the privacy floor {floor:.4g} — unreachable "
                             "by Brownian motion (use Langevin)")
                continue
            fig.add_trace(go.Scatter(x=[t_needed], y=[eps_target], mode="markers",
                                     marker=dict(color=color, size=10, symbol="diamond"),
                                     name=f"K = {K:g}: t = {t_needed:.4g} reaches ε = {eps_target:g}"))
    if eps_target is not None:
        fig.add_trace(go.Scatter(x=[times[0], times[-1]], y=[eps_target, eps_target], mode="lines",
                                 line=dict(color="#333", width=1, dash="dot"), name=f"target ε = {eps_target:g}"))
    # keep the flat / negatively curved curves and the floor readable: the K < 0 curves decay
    # exponentially and are cut two decades below the lowest of the others
    y_values = np.concatenate([np.asarray(t.y, dtype=float) for t in fig.data])
    low = 0.01 * min(visible_low) if visible_low else float(np.min(y_values))
    title = f"Brownian motion: (α = {alpha:g})-RDP budget ε against the diffusion time t (Δ = {sensitivity:g})"
    chart_layout(fig, title, "diffusion time t (units of Δ²)", "RDP budget ε at order α (dimensionless)",
                 notes=notes, legend_title="Ricci constant K (Ric ≥ −K) · dashed: privacy floor")
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log", exponentformat="power",
                     range=[math.log10(low), math.log10(float(np.max(y_values))) + 0.1])
    return fig


def langevin_t_vs_lam_figure(K=1.0, alpha=2.0, sensitivity=1.0, eps=(0.5, 1.0, 2.0), lam_max=None, n_points=200):
    r"""Langevin diffusion time against the potential strength :math:`\lambda > K` (Theorem 8).

    .. math::
        t(\lambda) = \frac{\log\big(1 + (\lambda - K)\alpha\Delta^2/(2\varepsilon)\big)}{2(\lambda - K)}

    (:func:`geodp_core.mechanisms.heat_diffusion.langevin_diffusion_time`), one line per
    target ε; the Brownian-motion time for the same target is drawn dashed in the same
    colour when it exists (above the privacy floor), otherwise the legend says it is unreachable.

    Parameters
    ----------
    K : float
        Ricci constant K >= 0 (Hadamard manifold).
    alpha : float
        Rényi order > 1.
    sensitivity : float
        Δ > 0.
    eps : float or sequence of float
        Target RDP budgets ε > 0.
    lam_max : float, optional
        Right end of the λ axis (default K + 10).
    n_points : int
        In [10, 2000].

    Returns
    -------
    plotly.graph_objects.Figure
        One trace per ε and one BM trace (line or legend-only note) per ε.
    """
    from geodp_core.mechanisms.heat_diffusion import (
        bm_diffusion_time,
        bm_privacy_floor,
        langevin_diffusion_time,
    )

    K = check_real(K, "K", low=0.0, low_closed=True)
    alpha = check_real(alpha, "alpha", low=1.0)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
    epss = [eps] if np.ndim(eps) == 0 else list(eps)
    if not epss:
        raise InvalidParameterError("eps must be a positive number or a non-empty sequence of them; got []",
                                    param="eps")
    epss = [check_real(e, "eps", low=0.0) for e in epss]
    lam_max = K + 10.0 if lam_max is None else check_real(lam_max, "lam_max", low=K)
    n_points = check_int(n_points, "n_points", low=10, high=2000)
    lams = K + (lam_max - K) * np.linspace(1.0 / n_points, 1.0, n_points)
    floor = bm_privacy_floor(K, alpha, sensitivity)
    fig = go.Figure()
    for i, e in enumerate(epss):
        color = _PALETTE[i % len(_PALETTE)]
        times = np.array([langevin_diffusion_time(K, lam, alpha, sensitivity, e) for lam in lams])
        fig.add_trace(go.Scatter(x=lams, y=times, mode="lines", line=dict(color=color, width=2),
                                 name=f"Langevin, ε = {e:g}"))
        try:
            t_bm = bm_diffusion_time(K, alpha, sensitivity, e)
        except UnavailableError:
            fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", line=dict(color=color, dash="dash"),
                                     name=f"Brownian motion, ε = {e:g}: unreachable (floor {floor:.4g})"))
            continue
        fig.add_trace(go.Scatter(x=[lams[0], lams[-1]], y=[t_bm, t_bm], mode="lines",
                                 line=dict(color=color, width=1.5, dash="dash"),
                                 name=f"Brownian motion, ε = {e:g}: t = {t_bm:.4g}"))
    chart_layout(fig, f"Langevin diffusion: time t needed against the potential strength λ "
                      f"(K = {K:g}, α = {alpha:g}, Δ = {sensitivity:g})",
                 "potential strength λ (> K; units of 1/Δ²)", "diffusion time t (units of Δ²)",
                 legend_title="target RDP budget ε · dashed: Brownian motion, same ε")
    fig.update_yaxes(type="log")
    return fig


def p_mean_sensitivity_figure(radius=0.5, p_values=(1.5, 2.0, 3.0, 4.0), n_max=100_000, curvature_upper=0.0):
    r"""Sensitivity :math:`\Delta(n)` of the Fréchet :math:`p`-mean on log-log axes, one line per :math:`p`.

    :func:`~geodp_core.summaries.p_mean_sensitivity` (heat-diffusion paper, Theorems 13/15/16): for
    :math:`p \le 2`, :math:`\Delta \propto 1/n`; for :math:`p > 2`, :math:`\Delta \propto n^{-1/(p-1)}`, a slower
    rate — the phase transition at :math:`p = 2`. The legend gives each line's fitted slope.

    Parameters
    ----------
    radius : float
        Public ball radius (below :math:`\pi/(4\sqrt\kappa)` when :math:`\kappa > 0`).
    p_values : sequence of float
        Exponents, each in (1, 8].
    n_max : int
        Right end of the n axis (from n = 2).
    curvature_upper : float
        Upper curvature bound :math:`\kappa` (0: flat or Hadamard; 1: the unit sphere).
    """
    from geodp_core.summaries import p_mean_sensitivity  # viz stays importable without summaries

    ps = [check_real(p, "p_values", low=1.0, high=8.0) for p in p_values]
    if not ps:
        raise InvalidParameterError("p_values must name at least one exponent in (1, 8]; got []", param="p_values")
    n_max = check_int(n_max, "n_max", low=10, high=10**9)
    ns = np.unique(np.round(np.geomspace(2, n_max, 60)).astype(int))
    fig = go.Figure()
    for i, p in enumerate(sorted(set(ps))):
        values = np.array([p_mean_sensitivity(int(n), radius, p, curvature_upper) for n in ns])
        slope = float(np.polyfit(np.log(ns[ns >= 10]), np.log(values[ns >= 10]), 1)[0])
        rate = "1/n" if p <= 2.0 else f"n^(−1/{p - 1:g})"
        fig.add_trace(go.Scatter(x=ns, y=values, mode="lines", line=dict(color=_PALETTE[i % len(_PALETTE)], width=2),
                                 name=f"p = {p:g}: slope {slope:.2f} (Δ ∝ {rate})"))
    space = "the unit sphere (κ = 1)" if curvature_upper > 0 else "flat or Hadamard spaces (κ ≤ 0)"
    chart_layout(fig, f"Sensitivity of the Fréchet p-mean against n on {space}, r = {radius:g}",
                 "records n", "sensitivity Δ (radians)",
                 legend_title="above p = 2 the sensitivity shrinks more slowly with n")
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log")
    return fig
