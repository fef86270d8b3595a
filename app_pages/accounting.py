"""Privacy accounting: convert between notions (with the theorem), profiles, trade-offs, GDP μ(σ), heat diffusion."""

import pandas as pd
import streamlit as st

from geodp_app.cache import cached_conversion_tables, cached_gdp_curves, guarantee_from_values
from geodp_app.pages import (
    ACCOUNTING_LANGEVIN_EPS,
    ACCOUNTING_PMEAN_PS,
    ACCOUNTING_PMEAN_SPACES,
    ACCOUNTING_TABS,
    ACCOUNTING_TRADEOFF_MUS,
    this_page,
)
from geodp_app.sidebar import NOTION_LABELS
from geodp_app.ui import errors_shown_here, readable_table, teach
from geodp_app.url_params import bounds
from geodp_app.urlstate import url_note
from geodp_core.privacy import GDP, PureDP
from geodp_core.viz.curves import (
    gdp_mu_vs_sigma_figure,
    heat_eps_vs_t_figure,
    langevin_t_vs_lam_figure,
    p_mean_sensitivity_figure,
    privacy_profile_figure,
    tradeoff_figure,
)

PAGE = this_page(__file__)



st.title("Privacy accounting")
st.caption(
    "Convert a guarantee between ε-DP, (ε, δ)-DP, μ-GDP, Rényi DP and zCDP — with the theorem used and, where no "
    "valid conversion exists, why — and see what a comparison at ONE target gives each mechanism family."
)

tab_convert, tab_curves, tab_gdp, tab_heat = st.tabs(list(ACCOUNTING_TABS), key="accounting_tab")

# ------------------------------------------------------------------ converter
with tab_convert:
    notion = st.selectbox("Source guarantee", list(NOTION_LABELS), format_func=NOTION_LABELS.get,
                          key="accounting_notion", help="The guarantee you have.")
    url_note("accounting_notion", notion)
    cols = st.columns(3)
    values = {}
    if notion in ("pure_dp", "approx_dp", "rdp"):
        values["eps"] = cols[0].number_input("ε", **bounds("accounting_eps"), value=1.0, format="%.4g", key="accounting_eps",
                                             help="Privacy budget ε > 0.")
    if notion == "approx_dp":
        values["delta"] = cols[1].number_input("δ", **bounds("accounting_delta"), value=1e-5, format="%.2e",
                                               key="accounting_delta", help="δ in (0, 1).")
    if notion == "gdp":
        values["mu"] = cols[0].number_input("μ", **bounds("accounting_mu"), value=1.0, format="%.4g", key="accounting_mu",
                                            help="μ > 0: as hard to distinguish as N(0,1) from N(μ,1).")
    if notion == "rdp":
        values["alpha"] = cols[1].number_input("Rényi order α", **bounds("accounting_alpha"), value=2.0, format="%.4g",
                                               key="accounting_alpha", help="α > 1.")
    if notion == "zcdp":
        values["rho"] = cols[0].number_input("ρ", **bounds("accounting_rho"), value=0.5, format="%.4g", key="accounting_rho",
                                             help="ρ > 0: (α, ρα)-RDP for every α.")
    for name, value in values.items():
        url_note(f"accounting_{name}", value)
    source_slot = st.empty()
    teach("Pick the guarantee you have. The list below shows every weaker promise it **implies**, with the theorem "
          "that proves it — or why no valid conversion exists. A conversion never makes a guarantee stronger.")
    st.markdown("**Express the result at**")
    at = st.columns(3)
    at_delta = at[0].number_input("δ for (ε, δ)-DP", **bounds("accounting_at_delta"), value=1e-5, format="%.2e",
                                  key="accounting_at_delta", help="Converted (ε, δ) guarantees use this δ.")
    url_note("accounting_at_delta", at_delta)
    at_alpha = at[1].number_input("α for Rényi DP", **bounds("accounting_at_alpha"), value=2.0, format="%.4g",
                                  key="accounting_at_alpha", help="Converted RDP guarantees use this order.")
    url_note("accounting_at_alpha", at_alpha)
    at_eps = at[2].number_input("ε for the GDP profile", **bounds("accounting_at_eps"), value=1.0, format="%.4g",
                                key="accounting_at_eps", help="μ-GDP gives (ε, δ_μ(ε))-DP at this ε.")
    url_note("accounting_at_eps", at_eps)
    at_slot = st.empty()

    guarantee = conversions = budgets = None
    with errors_shown_here(source_slot):
        guarantee = guarantee_from_values(notion, values)
    if guarantee is not None:
        with errors_shown_here(at_slot):
            guarantee, conversions, budgets = cached_conversion_tables(notion, tuple(sorted(values.items())),
                                                                       at_delta, at_alpha, at_eps)
    if conversions is not None:
        st.subheader(f"{guarantee.describe()} implies")
        with st.container(border=True):
            for row in conversions:
                if row["status"] == "ok":
                    check = " · :green[verified]" if row["verified"] else ""
                    st.markdown(f":material/check_circle: **{row['to']}**: **{row['result']}** — {row['theorem']}{check}")
                else:
                    st.markdown(f":material/block: **{row['to']}**: unavailable — {row['theorem']}")
        st.caption("'verified': each result is re-checked by the package's own implication test between guarantees "
                   "(exact comparisons, no tolerance).")
        st.subheader(f"If {guarantee.describe()} is the ONE target of a comparison")
        with st.container(border=True):
            for row in budgets:
                if row["status"] == "ok":
                    st.markdown(f":material/check_circle: **{row['family']}**: calibrated to **{row['budget']}**, achieving "
                                f"{row['achieved']} — {row['note']}")
                else:
                    st.markdown(f":material/block: **{row['family']}**: unavailable — {row['note']}")
        st.caption("The native budget each mechanism family is calibrated to (the same helpers the mechanisms call).")
        with st.expander("As a table"):
            st.dataframe(readable_table(pd.DataFrame(conversions).drop(columns=["guarantee"])), hide_index=True,
                         key="accounting_conversions")

# ------------------------------------------------------------------ profiles and trade-offs
with tab_curves, errors_shown_here():
    if conversions is None:
        st.info("Fix the guarantee in the Converter tab to see its curves.")
    else:
        implied = [row["guarantee"] for row in conversions if row["guarantee"] is not None]
        shown = list(dict.fromkeys([guarantee] + [g for g in implied if g != guarantee]))
        eps_max = st.slider("largest ε shown", **bounds("accounting_profile_eps_max"), value=8.0, step=0.5,
                            key="accounting_profile_eps_max", help="Right end of the ε axis of the privacy profile.")
        url_note("accounting_profile_eps_max", eps_max)
        st.plotly_chart(privacy_profile_figure(shown, eps_max=float(eps_max)), key="accounting_profile",
                        width="stretch")
        st.caption("Each implied guarantee's curve lies above the source's (it is weaker). Dotted: RDP/zCDP drawn "
                   "through their (ε, δ) conversion, an upper bound on the true profile.")
        mus = st.multiselect("μ values", list(ACCOUNTING_TRADEOFF_MUS), default=[0.5, 1.0, 2.0],
                             key="accounting_tradeoff_mu", help="GDP trade-off curves to draw.")
        url_note("accounting_tradeoff_mu", mus)
        gdp_rows = [g.mu for g in shown if isinstance(g, GDP)]
        eps_curves = [guarantee.eps] if isinstance(guarantee, PureDP) else None
        all_mus = list(dict.fromkeys(list(mus) + gdp_rows))
        if all_mus:
            st.plotly_chart(tradeoff_figure(all_mus, eps=eps_curves), key="accounting_tradeoff", width="stretch")
            st.caption("$G_\\mu(\\alpha) = \\Phi(\\Phi^{-1}(1-\\alpha) - \\mu)$: the smallest type-II error at "
                       "type-I error $\\alpha$. Higher = more private.")
            teach("Think of an adversary testing *was this person in the data?* The trade-off curve is the best they "
                  "can do: at false-alarm rate $\\alpha$ they miss with probability at least $G_\\mu(\\alpha)$. The "
                  "diagonal $1 - \\alpha$ is perfect privacy (a coin flip).")
        else:
            st.info("Pick at least one μ.")

# ------------------------------------------------------------------ GDP mu vs sigma
with tab_gdp:
    st.markdown(
        "The GDP-on-manifolds paper's Figure 1: the privacy parameter μ of the Riemannian Gaussian mechanism "
        "against its rate σ on the circle S¹ and the line ℝ (σ = k/4, k = 1..16, Δ = 1), here with the sphere S² "
        "added and every point **exact** (closed form on S¹, deterministic quadrature on S², μ = Δ/σ on ℝ) "
        "instead of the paper's Monte Carlo Algorithm 2."
    )
    g1, g2, g3 = st.columns(3)
    gdp_sensitivity = g1.number_input("sensitivity Δ", **bounds("accounting_gdp_sensitivity"), value=1.0,
                                      format="%.4g", key="accounting_gdp_sensitivity", help="Distance between the neighbouring means "
                                      "(≤ π on the sphere).")
    url_note("accounting_gdp_sensitivity", gdp_sensitivity)
    k_max = g2.slider("σ = k/4 for k = 1 … ", **bounds("accounting_gdp_kmax"), value=16, key="accounting_gdp_kmax",
                      help="Number of σ values (each S² value takes about half a second, cached).")
    url_note("accounting_gdp_kmax", k_max)
    include_s2 = g3.toggle("include S²", value=True, key="accounting_gdp_s2",
                           help="Exact quadrature on the 2-sphere (slower than S¹ and ℝ).")
    gdp_slot = st.empty()
    curves = None
    with errors_shown_here(gdp_slot):
        sigmas = tuple(float(k) / 4.0 for k in range(1, int(k_max) + 1))
        curves = cached_gdp_curves(sigmas, gdp_sensitivity, bool(include_s2))
    if curves is not None:
        st.plotly_chart(gdp_mu_vs_sigma_figure(curves, sensitivity=gdp_sensitivity), key="accounting_gdp_figure",
                        width="stretch")
        st.caption("For small σ the curved spaces agree with ℝ (manifolds are locally Euclidean); for large σ the "
                   "compact circle and sphere are more private than μ = Δ/σ.")
        with st.expander("Values"):
            st.dataframe(readable_table(curves), hide_index=True, key="accounting_gdp_table")

# ------------------------------------------------------------------ heat diffusion
with tab_heat:
    st.markdown(
        "Brownian motion run for time $t$ is $(\\alpha, \\varepsilon)$-RDP with "
        "$\\varepsilon = \\dfrac{K\\alpha\\Delta^2}{2(1 - e^{-2Kt})}$ when $\\mathrm{Ric} \\ge -K$ (heat-diffusion "
        "paper, Theorem 5). Positive curvature ($K < 0$) makes ε decay exponentially; flat space decays like $1/t$; "
        "negative curvature ($K > 0$) stalls at the **privacy floor** $K\\alpha\\Delta^2/2$."
    )
    h1, h2, h3, h4 = st.columns(4)
    heat_alpha = h1.number_input("Rényi order α", **bounds("accounting_heat_alpha"), value=2.0, format="%.4g",
                                 key="accounting_heat_alpha",
                                 help="α > 1.")
    url_note("accounting_heat_alpha", heat_alpha)
    heat_sensitivity = h2.number_input("sensitivity Δ", **bounds("accounting_heat_sensitivity"), value=1.0,
                                       format="%.4g", key="accounting_heat_sensitivity", help="Δ > 0.")
    url_note("accounting_heat_sensitivity", heat_sensitivity)
    heat_k = h3.number_input("|K|", **bounds("accounting_heat_k"), value=1.0, format="%.4g", key="accounting_heat_k",
                             help="Curves are drawn for K = -|K|, 0 and +|K| (Ric ≥ -K).")
    url_note("accounting_heat_k", heat_k)
    heat_eps = h4.number_input("target ε", **bounds("accounting_heat_eps"), value=0.8, format="%.4g",
                               key="accounting_heat_eps",
                               help="Marks the diffusion time each curvature needs (or that it is unreachable).")
    url_note("accounting_heat_eps", heat_eps)
    heat_slot = st.empty()
    with errors_shown_here(heat_slot), st.spinner("Computing the budget against the diffusion time…"):
        curvatures = sorted({-float(heat_k), 0.0, float(heat_k)})
        st.plotly_chart(
            heat_eps_vs_t_figure(heat_alpha, heat_sensitivity, curvatures, eps_target=heat_eps),
            key="accounting_heat_figure", width="stretch",
        )
    teach("Longer diffusion means more noise and a smaller budget ε. Watch the negative-curvature curve flatten out: "
          "if your target lies below its floor, Brownian motion can never reach it on that space — the Langevin "
          "diffusion below can.")
    st.markdown(
        "**Langevin diffusion** (Hadamard manifolds, $K \\ge 0$) pulls towards a public anchor with strength "
        "$\\lambda > K$; its budget tends to 0, so every target is reachable: "
        "$t = \\dfrac{\\log\\big(1 + (\\lambda-K)\\alpha\\Delta^2/(2\\varepsilon)\\big)}{2(\\lambda-K)}$ (Theorem 8)."
    )
    l1, l2 = st.columns(2)
    lang_eps = l1.multiselect("target ε values", list(ACCOUNTING_LANGEVIN_EPS), default=[0.5, 1.0, 2.0],
                              key="accounting_lang_eps", help="One curve per target budget.")
    url_note("accounting_lang_eps", lang_eps)
    lam_max = l2.number_input("largest λ", **bounds("accounting_lang_lam_max"), value=12.0, format="%.4g",
                              key="accounting_lang_lam_max", help="Right end of the λ axis (must exceed K = |K|).")
    url_note("accounting_lang_lam_max", lam_max)
    lang_slot = st.empty()
    if lang_eps:
        with errors_shown_here(lang_slot):
            st.plotly_chart(
                langevin_t_vs_lam_figure(float(heat_k), heat_alpha, heat_sensitivity, list(lang_eps), lam_max=lam_max),
                key="accounting_langevin_figure", width="stretch",
            )
    else:
        lang_slot.info("Pick at least one target ε.")
    st.caption("Source: Chang, Jiang, Mostajeran & Hu (2026), arXiv:2604.20761. The Ricci constant K of the spaces "
               "in this app: Sᵈ: -(d-1); Hᵈ: d-1; affine-invariant SPD: (d-1)/2; flat spaces: 0.")
    st.markdown(
        "**Generalized p-means** (the paper's Algorithm 3): release the Fréchet p-mean, the minimiser of "
        "$\\sum_i d(y, x_i)^p$, with Brownian motion or Langevin diffusion calibrated to its sensitivity. For "
        "$p \\le 2$ the sensitivity falls like $1/n$ (Theorem 13); above $p = 2$ only like $n^{-1/(p-1)}$ (Theorems "
        "15 and 16): a phase transition. Choose p in the sidebar to run it on the Explorer."
    )
    q1, q2, q3 = st.columns(3)
    pmean_ps = q1.multiselect("exponents p", list(ACCOUNTING_PMEAN_PS), default=[1.5, 2.0, 3.0, 4.0],
                              key="accounting_pmean_ps", help="One line per exponent.")
    url_note("accounting_pmean_ps", pmean_ps)
    pmean_radius = q2.number_input("ball radius r", **bounds("accounting_pmean_radius"), value=0.5, format="%.4g",
                                   key="accounting_pmean_radius",
                                   help="Public ball radius (below π/4 on the sphere).")
    url_note("accounting_pmean_radius", pmean_radius)
    pmean_space = q3.radio("curvature", list(ACCOUNTING_PMEAN_SPACES), key="accounting_pmean_space",
                           help="The sensitivity bounds depend on the upper curvature bound κ.")
    url_note("accounting_pmean_space", pmean_space)
    pmean_slot = st.empty()
    if pmean_ps:
        with errors_shown_here(pmean_slot):
            st.plotly_chart(p_mean_sensitivity_figure(pmean_radius, [float(v) for v in pmean_ps],
                                                      curvature_upper=ACCOUNTING_PMEAN_SPACES[pmean_space]),
                            key="accounting_pmean_figure", width="stretch")
    else:
        pmean_slot.info("Pick at least one exponent p.")

