"""Utility curves: distance to the true mean against the budget (or n, d, spread), ONE target for all."""

import numpy as np
import streamlit as st

from geodp_app.cache import cached_utility_curve
from geodp_app.pages import X_AXES, this_page
from geodp_app.sidebar import NOTION_LABELS, SIZE_TITLES, scenario_sidebar, upload_digest
from geodp_app.ui import (
    download_buttons,
    errors_shown_here,
    honesty_badge,
    readable,
    readable_table,
    scenario_files,
    stop_page,
    teach,
)
from geodp_app.url_params import bounds
from geodp_app.urlstate import url_note
from geodp_core.constraints import curve_dim_range
from geodp_core.experiments import (
    BUDGET_SYMBOLS,
    budget_parameter,
    grid_values,
)
from geodp_core.geometry import manifold_class
from geodp_core.viz.curves import utility_curve_figure

PAGE = this_page(__file__)

BUDGET_DEFAULTS = {"eps": (0.1, 10.0), "mu": (0.1, 5.0), "rho": (0.01, 5.0)}


st.title("Utility curves")
scenario, points, show_error = scenario_sidebar()
if scenario is None:
    st.info("Fix the highlighted control in the sidebar (your other settings are kept).")
    stop_page()

param = budget_parameter(scenario.notion)
symbol = BUDGET_SYMBOLS[param]
notion_label = NOTION_LABELS[scenario.notion]
fixed = {"approx_dp": f", δ = {scenario.delta:g}", "rdp": f", α = {scenario.alpha:g}"}.get(scenario.notion, "")

x_axis = st.radio(
    "x-axis", list(X_AXES), format_func=X_AXES.get, horizontal=True, key="curves_x",
    help="Vary the budget of the ONE target, or (at the sidebar's budget) the data size, dimension or spread.",
)
controls = st.columns([1, 1, 1, 1])
grid_slot = st.empty()
if x_axis == "budget":
    low_default, high_default = BUDGET_DEFAULTS[param]
    low = controls[0].number_input(f"smallest {symbol}", **bounds(f"curves_{param}_min"), value=low_default, format="%.4g",
                                   key=f"curves_{param}_min", help="Left end of the log-spaced budget grid.")
    high = controls[1].number_input(f"largest {symbol}", **bounds(f"curves_{param}_max"), value=high_default, format="%.4g",
                                    key=f"curves_{param}_max", help="Right end (← more privacy · more accuracy →).")
    count = controls[2].number_input("grid points", **bounds("curves_count"), value=5, step=1, key="curves_count",
                                     help="Number of log-spaced budgets.")
    grid_args = dict(low=low, high=high, count=int(count), log=True)
    if param == "eps" and high > 10:
        grid_slot.warning(f"ε up to {high:g} includes very weak guarantees (e^ε ≈ {np.exp(min(high, 700.0)):.3g}).")
elif x_axis == "n":
    low = controls[0].number_input("smallest n", **bounds("curves_n_min"), value=20, step=10,
                                   key="curves_n_min", help="Fewest records (log-spaced grid).")
    high = controls[1].number_input("largest n", **bounds("curves_n_max"), value=1000, step=10,
                                    key="curves_n_max", help="Most records.")
    count = controls[2].number_input("grid points", **bounds("curves_n_count"), value=5, step=1,
                                     key="curves_n_count", help="Number of n values.")
    grid_args = dict(low=low, high=high, count=int(count), log=True, integer=True)
elif x_axis == "dim":
    bottom, top = curve_dim_range(scenario.manifold)
    symbol = manifold_class(scenario.manifold).size_symbol
    size_title = SIZE_TITLES.get(symbol, f"size {symbol}")  # Dimension d, Matrix size m, Landmarks k
    low, high = controls[0].slider(f"{size_title.lower()} range",
                                   min_value=bottom, max_value=top, value=(bottom, min(bottom + 3, top)),
                                   key="curves_dim_range",
                                   help="Every integer in the range (SPD: matrix size m; Kendall shapes: landmarks k).")
    grid_args = dict(low=low, high=high, count=int(high - low + 1), log=False, integer=True)
elif x_axis == "p":
    low = controls[0].number_input("smallest p", **bounds("curves_p_min"), value=1.2, step=0.1, format="%.3g",
                                   key="curves_p_min", help="Exponent of the Fréchet p-mean (linear grid, p > 1).")
    high = controls[1].number_input("largest p", **bounds("curves_p_max"), value=4.0, step=0.1, format="%.3g",
                                    key="curves_p_max", help="Largest exponent (the sensitivity grows quickly above 2).")
    count = controls[2].number_input("grid points", **bounds("curves_p_count"), value=6, step=1,
                                     key="curves_p_count", help="Number of exponents.")
    grid_args = dict(low=low, high=high, count=int(count), log=False)
else:
    low = controls[0].number_input("smallest spread", **bounds("curves_spread_min"), value=0.05, format="%.3g",
                                   key="curves_spread_min", help="Data spread in radians (linear grid).")
    high = controls[1].number_input("largest spread", **bounds("curves_spread_max"), value=0.6, format="%.3g",
                                    key="curves_spread_max", help="Largest data spread.")
    count = controls[2].number_input("grid points", **bounds("curves_spread_count"), value=5, step=1,
                                     key="curves_spread_count", help="Number of spread values.")
    grid_args = dict(low=low, high=high, count=int(count), log=False)
n_reps = controls[3].number_input(
    "repetitions", **bounds("curves_reps"), value=200, step=50, key="curves_reps",
    help="Releases per (mechanism, grid point), drawn in one vectorised call; the band is ± 1 standard error.",
)
url_note("curves_x", x_axis)
url_note("curves_reps", n_reps)
teach("Choose what varies along the x-axis; everything else stays as in the sidebar. Each grid point reruns every "
      "mechanism many times, so a few grid points and a few hundred repetitions are enough to see the trend (the "
      "shaded band is ± 1 standard error).")
if x_axis != "dim":
    prefix = f"curves_{param}" if x_axis == "budget" else f"curves_{x_axis}"
    count_key = "curves_count" if x_axis == "budget" else f"curves_{x_axis}_count"
    for key, value in ((f"{prefix}_min", low), (f"{prefix}_max", high), (count_key, count)):
        url_note(key, value)

if x_axis == "budget":
    st.caption(
        f"**ONE target for every mechanism: {notion_label} with {symbol} on the x-axis{fixed}.** Each mechanism is "
        "calibrated to it natively or through a valid conversion; one dataset, one true mean, "
        f"{int(n_reps)} independent releases per point; seed {scenario.seed}."
    )
else:
    st.caption(
        f"**ONE target for every mechanism: {scenario.target.describe()}.** The {X_AXES[x_axis]} varies; the data "
        f"are regenerated from seed {scenario.seed} and the sensitivity recomputed at each value; "
        f"{int(n_reps)} releases per point."
    )

values = None
with errors_shown_here(grid_slot):
    values = tuple(grid_values(**grid_args))
if values is None:
    stop_page()

frame = None
with errors_shown_here(grid_slot):
    frame = cached_utility_curve(scenario.to_json(), upload_digest(points), x_axis, values, int(n_reps), _points=points)
if frame is None:
    stop_page()

if x_axis == "budget":
    x_label, log_x = f"{symbol} · target {notion_label}{fixed}", True
else:
    x_label, log_x = {"n": ("records n", True), "dim": ("dimension d", False), "spread": ("data spread", False),
                      "p": ("exponent p of the Fréchet p-mean", False)}[x_axis]
fig = utility_curve_figure(frame, x_label, log_x=log_x, manifold=scenario.manifold,
                           title=f"Distance of the private release to the true mean — ONE target: {notion_label}")
st.plotly_chart(fig, key="curves_figure", width="stretch")
st.caption("The true mean is a teaching view: a real release never shows it. Dashed lines: the source papers' "
           "bounds on E dist where known.")
if x_axis == "budget":
    teach("**Lower is better**: each point is the average distance between a private release and the true mean. "
          "Moving right spends more budget (less privacy), so the curves fall; at the same budget, the lowest curve "
          "is the mechanism that loses the least accuracy for the same promise.")
else:
    teach("**Lower is better**: each point is the average distance between a private release and the true mean, at "
          "the sidebar's budget. More records shrink the sensitivity $\\Delta \\propto 1/n$ and with it the noise; "
          "the dimension and the data spread change the geometry the noise has to cover.")

st.subheader("Mechanisms")
for name in dict.fromkeys(frame["mechanism"]):
    rows = frame[frame["mechanism"] == name]
    ok = rows[rows["status"] == "ok"]
    title = rows["title"].iloc[0]
    with st.container(border=True):
        if ok.empty:
            st.markdown(f"**{title}** {honesty_badge('unavailable')}")
            st.caption(readable(rows["reason"].iloc[0]))
            continue
        badges = " ".join(honesty_badge(label) for label in dict.fromkeys(ok["label"]))
        st.markdown(f"**{title}** {badges} · achieved e.g. {ok['achieved'].iloc[-1]}")
        bad = rows[rows["status"] != "ok"]
        if not bad.empty:
            xs = ", ".join(f"{v:g}" for v in bad["value" if "value" in bad.columns else "budget"])
            st.caption(f":material/block: unavailable at {xs}: {readable(bad['reason'].iloc[0])}")

download_buttons(
    [
        ("Results CSV", readable_table(frame).to_csv(index=False), "geodp_utility_curves.csv", "text/csv"),
        *scenario_files(scenario, PAGE.settings_key, study=(
            "from geodp_core.experiments import sweep, utility_curve\n\n"
            + (f"frame = utility_curve(scenario, {list(values)!r}, {int(n_reps)})\n" if x_axis == "budget" else
               f"frame = sweep(scenario, {x_axis!r}, {list(values)!r}, {int(n_reps)})\n")
            + "print(frame)\n"
        )),
        ("Figure HTML", lambda: fig.to_html(include_plotlyjs=True), "geodp_utility_curves.html", "text/html"),  # offline
    ],
    key_prefix="curves_dl",
)
with st.expander("Results table"):
    st.dataframe(readable_table(frame), hide_index=True, key="curves_table")

