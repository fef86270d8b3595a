"""Reproduce: each source paper's headline experiment rerun with geodp_core, beside the paper's claim."""

import pandas as pd
import streamlit as st

from geodp_app.cache import (
    cached_reproduce_conformal,
    cached_reproduce_ew,
    cached_reproduce_gdp,
    cached_reproduce_heat,
    cached_reproduce_kng,
    cached_reproduce_more,
)
from geodp_app.pages import REPRODUCE_CHOICES, REPRODUCE_TABS, this_page
from geodp_app.ui import download_buttons, errors_shown_here, readable, readable_table, teach
from geodp_app.url_params import URL_PARAMS, bounds, limits
from geodp_app.urlstate import url_note
from geodp_core import reproduce as rp
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold
from geodp_core.viz.curves import utility_curve_figure
from geodp_core.viz.reproduce import (
    gdp_mu_figure,
    kng_mspe_figure,
    reproduction_figures,
)

PAGE = this_page(__file__)

st.title("Reproduce the papers")
st.caption(
    "Each source paper's headline experiment rerun here with this package's exact samplers and accounting, at ONE "
    "target guarantee per comparison, beside what the paper claims. Fixed seeds; the defaults are small so each card "
    "answers in a few seconds — raise the repetitions for tighter standard errors. The verdicts are computed from "
    "our numbers, never tuned to match."
)
teach("Each tab reruns one paper's main experiment. Read the paper's claim first, then our numbers and chart, then "
      "the verdict. Raising the repetitions narrows the error bars but takes longer.")

VERDICT_BADGES = {
    "reproduced": ":green-badge[:material/check_circle: reproduced]",
    "partly reproduced": ":orange-badge[:material/rule: partly reproduced]",
    "differs": ":red-badge[:material/difference: differs]",
    "inconclusive": ":gray-badge[:material/help: inconclusive]",
    "illustration": ":blue-badge[:material/insights: quantitative illustration]",
}
TABS = REPRODUCE_TABS


def _options(key):
    """The options of a Reproduce control, declared once with its URL check."""
    return list(REPRODUCE_CHOICES[key][0])


def _labels(key):
    return REPRODUCE_CHOICES[key][1]


def _url_notes(prefix):
    """Report bad URL values of this tab's controls beside them (the controls keep their defaults)."""
    for key in URL_PARAMS:
        if key.startswith(prefix):
            url_note(key, st.session_state.get(key))
UTILITY_VIEW = {"title": "mechanism", "budget": "budget", "mean": "mean distance", "se": "s.e.", "n_reps": "releases",
                "label": "honesty label", "noise": "noise", "target": "target", "reason": "why unavailable",
                "dim": "dimension d", "n": "records n"}


#: The regression figures of the last tab (they share the n / fits / chain controls).
_KNG_MORE = ("kng_split", "kng_spd", "kng_kendall_split", "kng_spd_equal", "kng_kendall", "kng_shapes", "kng_noise")


# ------------------------------------------------------------------------------------------------ rendering
def _header(result):
    st.subheader(result.paper)
    st.markdown(f"**Setup.** {readable(result.setup)}")
    st.markdown("**The paper's claim**")
    for claim in result.claims:
        st.markdown(f"> {claim.text}  \n> — *{claim.where}*")


def _verdict(result):
    with st.container(border=True):
        st.markdown(f"**Verdict** {VERDICT_BADGES[result.status]}")
        st.markdown(readable(result.verdict))
    teach("*Partly reproduced* or *differs* is a finding, not a failure: the notes below say where our setting "
          "differs from the paper's and why (often to keep the privacy guarantee valid).")
    if result.notes:
        with st.expander("What we did differently, and why"):
            for note in result.notes:
                st.markdown(f"- {readable(note)}")


def _utility_table(table, budget, extra=()):
    columns = [c for c in ("title",) + tuple(extra) + ("budget", "mean", "se", "n_reps", "label", "noise", "target",
                                                       "reason") if c in table.columns]
    view = table[columns].rename(columns=dict(UTILITY_VIEW, budget=budget, sigma_over_delta="σ/Δ",
                                              floor="conformal at ε = 50", point_set_floor="vertex-sampler floor"))
    st.dataframe(readable_table(view), hide_index=True, width="stretch")


def _downloads(result, name):
    download_buttons([("Results CSV", readable_table(result.table).to_csv(index=False), f"reproduce_{name}.csv",
                       "text/csv")],
                     key_prefix=f"reproduce_{name}")


#: The space of each utility card's distances ("ew" and "heat": read from the result's setup).
_CARD_SPACE = {"conformal": "sphere"}


def _card_space(result, key):
    if key in _CARD_SPACE:
        return _CARD_SPACE[key]
    setup = result.setup
    return "spd" if setup.startswith("SPD") else "sphere" if setup.startswith("S") else "hyperbolic"


def _utility_card(result, key, x_label, column_label, title, metric=None):
    """The shared body of a utility-comparison card: header, our numbers, chart, table, verdict, downloads."""
    _header(result)
    st.markdown("**Our numbers**")
    if metric is not None:
        st.metric(*metric)
    st.plotly_chart(utility_curve_figure(result.table, x_label, title=title, manifold=_card_space(result, key)),
                    key=f"reproduce_{key}_chart",
                    width="stretch")
    _utility_table(result.table, column_label)
    _verdict(result)
    _downloads(result, key)


def _seed(key):
    return st.number_input("Seed", **bounds(key), value=0, step=1, key=key,
                           help="Seeds the data and the releases (fixed: reruns give the same numbers).")


def _kng_controls(prefix):
    """The regression figures' shared controls (keys ``{prefix}_n``, ``_fits``, ``_chain``): ``(n, n_fits, chain)``."""
    n = st.select_slider("Records n", _options(f"{prefix}_n"), value=50, key=f"{prefix}_n",
                         help="The paper's sample sizes; the sensitivities scale as 1/n.")
    n_fits = st.select_slider("Private fits per cell", _options(f"{prefix}_fits"), value=10, key=f"{prefix}_fits", help="The paper: 10 footpoints × 10 shooting vectors.")
    chain = st.select_slider("Chain length", _options(f"{prefix}_chain"), value=300, key=f"{prefix}_chain",
                             help="Metropolis steps per stage (more: closer to the exact KNG law, slower).")
    return int(n), int(n_fits), int(chain)


tabs = st.tabs(list(TABS.values()), key="reproduce_paper", on_change="rerun")
tab = dict(zip(TABS, tabs))

# ------------------------------------------------------------------------------------------------ 1. GDP
with tab["gdp"]:
    if tab["gdp"].open:
        progress = st.container()  # the run's progress ("3 of 10 cells") at the top of the tab, visible without scrolling
        controls, main = st.columns([1, 3], gap="large")
        with controls:
            n_seeds = st.select_slider("Algorithm-2 reruns (seeds)", _options("reproduce_gdp_seeds"), value=5,
                                       key="reproduce_gdp_seeds",
                                       help="Each rerun draws 100,000 samples per law (the paper's n·m = 1000·100).")
            grid = st.radio("σ/Δ grid", _options("reproduce_gdp_grid"), key="reproduce_gdp_grid",
                            help="The paper: σ = kΔ/4, k = 1…12.")
            n_reps = st.select_slider("Releases per σ (more repetitions ⟶ smaller s.e.)",
                                      _options("reproduce_gdp_reps"), value=1000, key="reproduce_gdp_reps")
            seed = _seed("reproduce_gdp_seed")
            _url_notes("reproduce_gdp_")
            slot = st.container()
        multiples = (0.5, 1.0, 2.0, 3.0) if grid == "4 values" else rp.GDP_PAPER_SIGMA_MULTIPLES
        result = None
        with errors_shown_here(slot), progress:
            result = cached_reproduce_gdp(int(n_seeds), 100_000, tuple(multiples), int(n_reps), int(seed))
        with main:
            if result is not None:
                _header(result)
                num = result.numbers
                st.markdown("**Our numbers**")
                c1, c2, c3 = st.columns(3)
                c1.metric("Exact μ (quadrature)", f"{num['mu_exact']:.5f}",
                          help="The package's exact μ: a deterministic 2-D quadrature of the privacy profile.")
                c2.metric("Paper's Monte Carlo μ", f"{num['mu_paper']:g}",
                          delta=f"{num['mu_paper'] - num['mu_exact']:+.3f} vs exact", delta_color="off")
                c3.metric(f"Algorithm 2 rerun ({num['n_seeds']} seeds)", f"{num['mu_mc_mean']:.3f} ± {num['mu_mc_se']:.3f}",
                          delta=f"range {num['mu_mc_min']:.3f}–{num['mu_mc_max']:.3f}", delta_color="off")
                st.plotly_chart(gdp_mu_figure(result.tables["mu"]), key="reproduce_gdp_mu_chart", width="stretch")
                st.plotly_chart(
                    utility_curve_figure(result.table, "μ (exact GDP of the Gaussian at σ = kΔ)",
                                         title="Riemannian Gaussian vs Laplace at the same μ-GDP target (S², n = 10)",
                                         manifold="sphere"),
                    key="reproduce_gdp_utility_chart", width="stretch")
                _utility_table(result.table, "μ", extra=("sigma_over_delta",))
                _verdict(result)
                _downloads(result, "gdp")

# ------------------------------------------------------------------------------------------------ 2. heat diffusion
with tab["heat"]:
    if tab["heat"].open:
        progress = st.container()  # the run's progress ("3 of 10 cells") at the top of the tab, visible without scrolling
        controls, main = st.columns([1, 3], gap="large")
        with controls:
            space = st.radio("Manifold", _options("reproduce_heat_space"), key="reproduce_heat_space",
                             format_func=_labels("reproduce_heat_space").get,
                             help="S²: Brownian motion vs Laplace; H²: Langevin vs Laplace vs EW Gaussian.")
            n = st.select_slider("Records n", _options("reproduce_heat_n"), value=10, key="reproduce_heat_n",
                                 help="The paper's three sample sizes; Δ scales as 1/n.")
            anchor = "center"
            if not get_manifold(space, 2).is_compact:  # H² (§6.2): Langevin's anchor and EW's footpoint
                anchor = st.radio("Anchor / footpoint", _options("reproduce_heat_anchor"), key="reproduce_heat_anchor",
                                  format_func=_labels("reproduce_heat_anchor").get,
                                  help="PUBLIC: chosen independently of the data (a separate random stream).")
            grid = st.radio("ε grid", _options("reproduce_heat_grid"), key="reproduce_heat_grid",
                            help="ONE target (α = 2, ε)-RDP for every mechanism.")
            n_reps = st.select_slider("Releases per cell (more repetitions ⟶ smaller s.e.)",
                                      _options("reproduce_heat_reps"), value=1000, key="reproduce_heat_reps")
            seed = _seed("reproduce_heat_seed")
            _url_notes("reproduce_heat_")
            slot = st.container()
        eps_values = (0.1, 0.5, 1.0, 3.0) if grid == "4 values" else rp.HEAT_PAPER_EPS
        result = None
        with errors_shown_here(slot), progress:
            result = cached_reproduce_heat(space, int(n), tuple(eps_values), int(n_reps), anchor, int(seed))
        with main:
            if result is not None:
                _utility_card(result, "heat", "ε of the (α = 2, ε)-RDP target", "ε (RDP)",
                              f"Mean distance to the true mean ± s.e. ({get_manifold(space, 2).symbol}, n = {n})")

# ------------------------------------------------------------------------------------------------ 3. exponential-wrapped
with tab["ew"]:
    if tab["ew"].open:
        progress = st.container()  # the run's progress ("3 of 10 cells") at the top of the tab, visible without scrolling
        controls, main = st.columns([1, 3], gap="large")
        with controls:
            space = st.selectbox("Space", _options("reproduce_ew_space"), key="reproduce_ew_space",
                                 format_func=_labels("reproduce_ew_space").get,
                                 help="The paper: SPD with three metrics and Hᵈ, d = 3 (and 10, 15).")
            grid = st.radio("μ grid", _options("reproduce_ew_grid"), key="reproduce_ew_grid",
                            help="ONE target μ-GDP; the paper varies μ from 0.1 to 2.")
            offset = st.slider("Footpoint distance from the ball centre", *limits("reproduce_ew_offset"), 0.0, step=0.25,
                               key="reproduce_ew_offset",
                               help="PUBLIC footpoint p₀ = Exp(m₀, s·e₁). The paper blames a footpoint mismatch for "
                                    "EWG's weakness on affine SPD(2): move it and see.")
            n_reps = st.select_slider("Releases per cell (more repetitions ⟶ smaller s.e.)",
                                      _options("reproduce_ew_reps"), value=200, key="reproduce_ew_reps")
            seed = _seed("reproduce_ew_seed")
            _url_notes("reproduce_ew_")
            slot = st.container()
        mu_values = rp.EW_PAPER_MU if grid == "4 values" else (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0)
        result = None
        with errors_shown_here(slot), progress:
            result = cached_reproduce_ew(space, tuple(mu_values), int(n_reps), float(offset), int(seed))
        with main:
            if result is not None:
                _utility_card(result, "ew", "μ of the μ-GDP target", "μ",
                              f"Mean distance to the true mean ± s.e. ({rp.EW_SPACES[space][1]}, n = 40)",
                              metric=("d(p₀, η̂): footpoint to the true mean",
                                      f"{result.numbers['footpoint_distance']:.3g}"))

# ------------------------------------------------------------------------------------------------ 4. conformal
with tab["conformal"]:
    if tab["conformal"].open:
        progress = st.container()  # the run's progress ("3 of 10 cells") at the top of the tab, visible without scrolling
        controls, main = st.columns([1, 3], gap="large")
        with controls:
            spread = st.select_slider("Main vMF std", _options("reproduce_conformal_spread"), value=0.1,
                                      key="reproduce_conformal_spread",
                                      help="The paper's 'std = 0.1' (heterogeneous); the mixture adds std/3 and 2·std "
                                           "components.")
            n_cal = st.select_slider("Independent sanitisations per ε", _options("reproduce_conformal_calibrations"),
                                     value=4, key="reproduce_conformal_calibrations",
                                     help="Each draws new density noise (so a new φ); the s.e. uses their spread.")
            n_reps = st.select_slider("Releases per sanitisation (more repetitions ⟶ smaller s.e.)",
                                      _options("reproduce_conformal_reps"), value=250, key="reproduce_conformal_reps")
            seed = _seed("reproduce_conformal_seed")
            _url_notes("reproduce_conformal_")
            slot = st.container()
        result = None
        with errors_shown_here(slot), progress:
            result = cached_reproduce_conformal(tuple(rp.CONFORMAL_PAPER_EPS), float(spread), int(n_cal), int(n_reps),
                                                int(seed))
        with main:
            if result is not None:
                _utility_card(result, "conformal", "total ε", "ε",
                              "Mean distance to the true mean ± s.e. (S², n = 500, heterogeneous data)")

# ------------------------------------------------------------------------------------------------ 5. KNG regression
with tab["kng"]:
    if tab["kng"].open:
        progress = st.container()  # the run's progress ("3 of 10 cells") at the top of the tab, visible without scrolling
        controls, main = st.columns([1, 3], gap="large")
        with controls:
            grid = st.radio("ε grid", _options("reproduce_kng_grid"), key="reproduce_kng_grid",
                            help="Total ε = ε_p + ε_v with an equal split (the paper's Figure 1, bottom).")
            n, n_fits, chain = _kng_controls("reproduce_kng")
            tau = st.number_input("Public residual bound τ (rigorous version)", **bounds("reproduce_kng_tau"),
                                  value=0.2, step=0.05, key="reproduce_kng_tau",
                                  help="PUBLIC, never read from the data; residuals are clipped at τ.")
            seed = _seed("reproduce_kng_seed")
            _url_notes("reproduce_kng_")
            slot = st.container()
        eps_values = rp.KNG_PAPER_EPS if grid.startswith("ε = 0.2, 2") else (0.2, 0.5, 1.0, 2.0)
        result = None
        with errors_shown_here(slot), progress:
            result = cached_reproduce_kng(tuple(eps_values), int(n), int(n_fits), int(chain), float(tau), int(seed))
        with main:
            if result is not None:
                _header(result)
                st.markdown("**Our numbers**")
                st.metric("Non-private MSPE", f"{result.numbers['mspe_nonprivate']:.4g}",
                          help="The least-squares geodesic fit (a teaching view, not private).")
                st.plotly_chart(kng_mspe_figure(result.table), key="reproduce_kng_chart", width="stretch")
                view = result.table.rename(columns={"mspe_nonprivate": "non-private MSPE", "mspe_mean": "mean MSPE",
                                                    "mspe_se": "s.e.", "log_mspe_mean": "ln mean MSPE",
                                                    "tau_used": "τ used"})
                st.dataframe(readable_table(pd.DataFrame(view)), hide_index=True, width="stretch")
                _verdict(result)
                _downloads(result, "kng")

# ------------------------------------------------------------------------------------------------ 6. more figures
#: Plain names of the frames shown on the last tab.
MORE_VIEW = {"space": "space", "sigma": "σ", "mu_exact": "exact μ", "mu_flat": "Δ/σ (the line)",
             "mu_mc_mean": "Algorithm 2: mean μ", "mu_mc_se": "s.e.", "mu_mc_min": "min", "mu_mc_max": "max",
             "overestimate": "mean − exact", "n_seeds": "replicates", "t": "time t", "mean_distance": "mean distance",
             "se": "s.e.", "theory": "exact √(πt) (flat plane)", "dim": "d", "label": "sampler", "releases": "releases",
             "seconds": "seconds", "ms_per_release": "ms per release", "note": "note", "eps_p": "ε_p", "eps_v": "ε_v",
             "share": "ε_p share", "version": "version", "mspe_nonprivate": "non-private MSPE",
             "mspe_mean": "mean MSPE", "mspe_se": "s.e.", "log_mspe_mean": "ln mean MSPE", "n_fits": "fits",
             "tau_used": "τ used", "delta": "δ", "eps": "ε", "n": "n", "r_p_min": "r_p min",
             "covariate": "covariate x", "distance_mean": "mean Procrustes distance to the non-private shape",
             "distance_se": "s.e.", "distance_max": "largest distance", "data_spread": "data spread",
             "r_p_median": "r_p median", "r_p_max": "r_p max", "r_v_min": "r_v min", "r_v_median": "r_v median",
             "r_v_max": "r_v max"}


def _space_name(value):
    """A table's ``space`` in words: a key of the GDP curve's spaces, of the KNG spaces, or a code (of a 2-D space)."""
    if value in rp.GDP_CURVE_SPACES:
        return rp.GDP_CURVE_SPACES[value][1]
    if value in rp.KNG_SPACES:
        return rp.KNG_SPACES[value][1]
    return get_manifold(value, 2).chooser_label if value in MANIFOLD_NAMES else value


_VERSION_NAMES = {"rigorous": "rigorous KNG", "paper": "paper's variant"}
def _more_table(frame):
    view = frame.drop(columns=[c for c in ("family", "sampler", "warnings") if c in frame.columns]).rename(
        columns=MORE_VIEW)
    if "space" in view.columns:
        view["space"] = view["space"].map(_space_name)
    if "version" in view.columns:
        view["version"] = view["version"].map(lambda v: _VERSION_NAMES.get(v, v))
    st.dataframe(readable_table(view), hide_index=True, width="stretch")


with tab["more"]:
    if tab["more"].open:
        controls, main = st.columns([1, 3], gap="large")
        with controls:
            figure = st.selectbox("Figure", _options("reproduce_more_figure"), key="reproduce_more_figure",
                                  format_func=_labels("reproduce_more_figure").get)
            if figure == "gdp_curve":
                grid = st.radio("σ grid (Δ = 1)", _options("reproduce_more_gdp_grid"), key="reproduce_more_gdp_grid", help="The paper: σ = k/4, k = 1…16.")
                n_seeds = st.select_slider("Algorithm-2 replicates per σ", _options("reproduce_more_gdp_seeds"),
                                           value=5, key="reproduce_more_gdp_seeds",
                                           help="The paper: 20. Error bars: min to max over replicates.")
                sigmas = (0.25, 0.5, 1.0, 2.0, 3.0, 4.0) if grid == "6 values" else rp.GDP_PAPER_CURVE_SIGMAS
                settings = dict(sigmas=tuple(sigmas), n_seeds=int(n_seeds))
            elif figure == "heat_escape":
                t_max = st.slider("Diffusion time T", *limits("reproduce_more_escape_time"), 5.0, step=0.5,
                                  key="reproduce_more_escape_time",
                                  help="The paths' distance from the start grows like T on the hyperbolic plane.")
                n_paths = st.select_slider("Paths", _options("reproduce_more_escape_paths"), value=500,
                                           key="reproduce_more_escape_paths",
                                           help="The first 12 are drawn; all enter the growth rates.")
                settings = dict(t_max=float(t_max), n_paths=int(n_paths))
            elif figure in _KNG_MORE:
                n, n_fits, chain = _kng_controls("reproduce_more_kng")
                settings = dict(n=n, n_fits=n_fits, chain_length=chain)
            elif figure == "kng_sensitivity":
                n_pairs = st.select_slider("Neighbouring pairs per n", _options("reproduce_more_kng_pairs"), value=20,
                                           key="reproduce_more_kng_pairs", help="The paper: 20.")
                settings = dict(n_pairs=int(n_pairs))
            elif figure.startswith("conformal_"):
                n_cal = st.select_slider("Independent sanitisations per point", _options("reproduce_more_conformal_cal"),
                                         value=3, key="reproduce_more_conformal_cal",
                                         help="Each draws a fresh private density; the error bars come from them.")
                n_reps = st.select_slider("Releases per sanitisation", _options("reproduce_more_conformal_reps"),
                                          value=100, key="reproduce_more_conformal_reps")
                settings = dict(n_calibrations=int(n_cal), n_reps=int(n_reps))
            else:
                family = st.selectbox("Spaces", _options("reproduce_more_ew_family"), key="reproduce_more_ew_family", format_func=_labels("reproduce_more_ew_family").get,
                                      help="SPD(m) with d = m(m+1)/2: SPD(2), SPD(4), SPD(5); and Hᵈ.")
                n_reps = st.select_slider("Releases per cell", _options("reproduce_more_ew_reps"), value=200,
                                          key="reproduce_more_ew_reps")
                mcmc = st.select_slider("Metropolis–Hastings burn-in (and kept) steps", _options("reproduce_more_ew_mcmc"),
                                        value=1000, key="reproduce_more_ew_mcmc",
                                        help="The paper: thousands of burn-in steps. Longer chains: slower MCMC.")
                families = tuple(rp.EW_DIM_FAMILIES) if family == "all" else (family,)
                settings = dict(families=families, n_reps=int(n_reps), mcmc_steps=int(mcmc))
            seed = _seed("reproduce_more_seed")
            settings = (figure, tuple(sorted(dict(settings, seed=int(seed)).items())))
            _url_notes("reproduce_more_")
            run = st.button("Run", key="reproduce_more_run", type="primary", icon=":material/play_arrow:",
                            help="Reruns the selected figure with these settings.")
            slot = st.container()
        if run:
            st.session_state["_reproduce_more_ran"] = settings
        result = None
        if st.session_state.get("_reproduce_more_ran") == settings:
            with errors_shown_here(slot), slot:
                result = cached_reproduce_more(*settings)  # its progress under the Run button
        with main:
            if result is None:
                st.info("Choose a figure and its settings, then press **Run**.", icon=":material/play_arrow:")
            else:
                _header(result)
                st.markdown("**Our numbers**")
                if figure == "heat_escape":
                    num = result.numbers
                    c1, c2 = st.columns(2)
                    c1.metric("Growth rate on H²", f"{num['rate_hyperbolic']:.3f} ± {num['rate_hyperbolic_se']:.3f}",
                              help="Mean of (r_T − r_T/2)/(T/2); theory ≈ 1.")
                    c2.metric("Growth rate on R²", f"{num['rate_flat']:.3f} ± {num['rate_flat_se']:.3f}",
                              help=f"Theory {num['rate_flat_theory']:.3f}, decaying like 1/√t.")
                elif figure == "kng_shapes":
                    st.metric("Non-private MSPE", f"{result.numbers['mspe_nonprivate']:.4g}",
                              help="The least-squares geodesic fit (a teaching view, not private).")
                elif figure in _KNG_MORE:
                    st.metric("Non-private MSPE", f"{result.table['mspe_nonprivate'].min():.4g}",
                              help="The least-squares geodesic fit (a teaching view, not private); the smallest noise "
                                   "level for the noise figure.")
                charts = reproduction_figures(result)
                if figure == "ew_dimensions":  # utility by dimension, then the running-time table apart
                    charts, runtime_chart = charts[:1], charts[1]
                for i, chart in enumerate(charts):
                    st.plotly_chart(chart, key=f"reproduce_more_chart_{i}", width="stretch")
                if figure == "kng_shapes":
                    _more_table(result.tables["distances"])
                elif figure == "kng_sensitivity":
                    _more_table(result.tables["summary"])
                elif figure.startswith("conformal_"):
                    extra = (("dataset",) if figure == "conformal_images" else ("panel", "dim", "n", "spread")) + (
                        "floor", "point_set_floor")  # beside the error: no floor (continuous) and the points' floor
                    _utility_table(result.table, "ε", extra=extra)
                elif figure == "ew_dimensions":
                    _utility_table(result.table, "μ", extra=("space",))
                    st.markdown("**Running time** (this machine, at the largest μ; an observation, not a guarantee)")
                    st.plotly_chart(runtime_chart, key="reproduce_more_runtime_chart", width="stretch")
                    _more_table(result.tables["runtime"])
                else:
                    _more_table(result.table)
                _verdict(result)
                _downloads(result, figure)

