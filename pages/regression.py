"""Geodesic regression: non-private fit vs private K-norm-gradient (KNG) fits (SPEC §5.8)."""

import pandas as pd
import streamlit as st

from geodp_app.ui import errors_shown_here, honesty_badge
from geodp_core.mechanisms.kng_regression import REGRESSION_PRESETS, regression_demo
from geodp_core.viz import CAMERA_PRESETS
from geodp_core.viz.regression import FIT_COLORS, mspe_figure, private_fit_colors, regression_figure

st.title("Geodesic regression")
st.caption(
    "Fletcher's geodesic regression y ≈ Exp(p, x v) fitted privately with the K-norm gradient mechanism: first a "
    "footpoint p̃ (budget ε_p), then a shooting vector ṽ at p̃ (budget ε_v); together (ε_p + ε_v)-DP for the exact "
    "laws, sampled here by Metropolis–Hastings (hence the 'approximate sampler' label)."
)

SPACES = {"sphere": "Sphere S²", "spd": "SPD(2), affine-invariant", "hyperbolic": "Hyperbolic H²"}
EPS_GRID = [0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]


@st.cache_data(show_spinner="Sampling private fits…", max_entries=32)
def _cached_demo(space, n, noise_std, preset, eps_total, share, tau, data_radius, chain_length, n_fits, seed,
                 footpoint_velocity, scale_convention, tau_from_data):
    return regression_demo(space, n, noise_std, preset, eps_total, share, tau, data_radius, chain_length, n_fits,
                           seed, footpoint_velocity=footpoint_velocity, scale_convention=scale_convention,
                           tau_from_data=tau_from_data)


controls, main = st.columns([1, 3], gap="large")
with controls:
    st.subheader("Controls")
    space = st.radio("Manifold", list(SPACES), format_func=SPACES.get, key="regression_space",
                     help="S²: points on the unit sphere; SPD(2): 2×2 covariance matrices (shown as ellipses).")
    preset = st.selectbox("True geodesic", list(REGRESSION_PRESETS[space]), key=f"regression_preset_{space}",
                          help="The ground truth the data are generated from (a teaching view).")
    n = st.number_input("Records n", min_value=5, max_value=500, value=50, step=10, key="regression_n",
                        help="Pairs (x_i, y_i); the sensitivities scale as 1/n.")
    noise = st.number_input("Noise std", min_value=0.0, max_value=1.0, value=0.05, step=0.01, format="%.3f",
                            key="regression_noise", help="Tangent Gaussian noise around the true geodesic.")
    eps_total = st.select_slider("Total ε  (more privacy ⟵ ⟶ more accuracy)", EPS_GRID, value=20.0,
                                 key="regression_eps", help="ε = ε_p + ε_v (pure ε-DP by composition).")
    share = st.slider("Share of ε for the footpoint (ε_p / ε)", 0.1, 0.9, 0.5, step=0.05, key="regression_share",
                      help="ε_p buys the footpoint, the rest ε_v the shooting vector.")
    st.caption(f"ε_p = {share * eps_total:.3g}, ε_v = {(1 - share) * eps_total:.3g}")
    if eps_total >= 100:
        st.warning("A very large budget: little formal protection (shown to see the KNG law concentrate).")
    tau = st.number_input(
        "Public residual bound τ", min_value=0.0, max_value=3.0, value=0.2, step=0.05, key="regression_tau",
        help="PUBLIC: fixed from domain knowledge, never from the data. Residuals are clipped at τ, so the "
             "guarantee holds for every dataset; if the data's residuals exceed τ a warning appears.",
    )
    data_radius = st.number_input(
        "Public data radius τ_m", min_value=0.05, max_value=3.0, value=1.0, step=0.1, key="regression_radius",
        help="PUBLIC radius of a ball around the base point that should hold the responses. It fixes the "
             "sampling domain: footpoints within τ_m + τ, |v| ≤ 2(τ_m + τ) (the paper's appendix C).",
    )
    chain_length = st.select_slider("Chain length (Metropolis steps)", [200, 500, 1000, 2000, 4000], value=500,
                                    key="regression_chain", help="Per stage, plus a burn-in of half of it.")
    n_fits = st.slider("Private fits to draw", 1, 8, 4, key="regression_fits",
                       help="Independent releases; each is (ε_p + ε_v)-DP, publishing k of them costs k·ε.")
    with st.expander("Paper variants (no formal guarantee)"):
        paper_footpoint = st.checkbox(
            "Footpoint stage with v = transported non-private v̂", key="regression_paper_footpoint",
            help="The paper holds v at v̂(D) in stage 1; v̂ depends on every record, so its sensitivity "
                 "argument does not apply. Default: (p, v) drawn jointly, only p released.")
        paper_scale = st.checkbox("σ = Δ/ε (the paper's scale)", key="regression_paper_scale",
                                  help="KNG's normalising constant depends on the data: only 2Δ/ε is proven.")
        tau_from_data = st.checkbox("τ = max residual of the data", key="regression_tau_data",
                                    help="The paper's choice; reading τ off the data is not DP.")
    seed = st.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, step=1, key="regression_seed",
                           help="Seeds the data and the private releases (reproducible).")
    camera = "data"
    if space == "sphere":
        camera = st.radio("Camera", ["data"] + list(CAMERA_PRESETS), horizontal=True, key="regression_camera",
                          help="'data' looks at the data from outside the sphere.")
    error_slot = st.container()

demo = None
with errors_shown_here(error_slot):
    demo = _cached_demo(
        space, int(n), float(noise), preset, float(eps_total), float(share), float(tau), float(data_radius),
        int(chain_length), int(n_fits), int(seed), "nonprivate" if paper_footpoint else "joint",
        "paper" if paper_scale else "rigorous", bool(tau_from_data),
    )

with main:
    if demo is None:
        st.info("Fix the highlighted control (your other settings are kept).")
        st.stop()
    result = demo.result
    st.markdown(f"**KNG geodesic regression** {honesty_badge(result.label)} · guarantee "
                f"**{result.guarantee.describe()}** per private fit")
    for message in result.warnings:
        st.warning(message, icon=":material/warning:")
    c1, c2, c3 = st.columns(3)
    c1.metric("σ_p (footpoint)", f"{result.sigma_footpoint:.3g}",
              help=f"KNG scale of stage 1 = 2Δ/ε_p with Δ = {result.sensitivity_footpoint:.3g}.")
    c2.metric("σ_v (shooting vector)", f"{result.sigma_shooting:.3g}",
              help=f"KNG scale of stage 2 = 2Δ_v/ε_v with Δ_v = {result.sensitivity_shooting:.3g}.")
    c3.metric("Acceptance (stage 1 / 2)", f"{result.diagnostics['footpoint_acceptance']:.2f} / "
              f"{result.diagnostics['shooting_acceptance']:.2f}", help="Metropolis–Hastings acceptance rates.")
    st.caption(
        f"Sensitivities: Δ = {result.sensitivity_footpoint:.3g} (stage 1), Δ_v = {result.sensitivity_shooting:.3g} "
        f"(stage 2) for n = {len(demo.x)}, τ = {result.tau:.3g}, |v| ≤ {result.max_speed:.3g}. Chains: "
        f"{result.diagnostics['burn_in']} burn-in + {result.diagnostics['chain_length']} steps."
    )

    colors = private_fit_colors(len(result.footpoints))
    fits = [
        dict(name="true geodesic (teaching view)", footpoint=demo.true_footpoint,
             shooting_vector=demo.true_shooting_vector, color=FIT_COLORS["truth"], dash="dash", width=3),
        dict(name="non-private fit (teaching view)", footpoint=result.nonprivate_footpoint,
             shooting_vector=result.nonprivate_shooting_vector, color=FIT_COLORS["nonprivate"], width=6),
    ] + [
        dict(name=f"private fit {i + 1}", footpoint=p, shooting_vector=v, color=c, width=3)
        for i, (p, v, c) in enumerate(zip(result.footpoints, result.shooting_vectors, colors))
    ]
    fig = regression_figure(demo.manifold, demo.x, demo.y, fits, camera=camera)
    st.plotly_chart(fig, key="regression_figure", width="stretch")
    st.caption("The true and non-private geodesics are teaching views: a real release shows only the private fits.")

    st.subheader("Prediction error")
    names = ["true geodesic", "non-private fit"] + [f"private fit {i + 1}" for i in range(len(result.footpoints))]
    values = [demo.mspe_truth, demo.mspe_nonprivate] + [float(v) for v in demo.mspe_private]
    left, right = st.columns([3, 2])
    left.plotly_chart(mspe_figure(names, values, colors=["black", "goldenrod"] + colors,
                                  reference=demo.mspe_nonprivate), key="regression_mspe", width="stretch")
    right.dataframe(pd.DataFrame({"fit": names, "MSPE": values}), hide_index=True, width="stretch")

    with st.expander("How was this calibrated?"):
        for note in result.notes:
            st.markdown(f"- {note}")
