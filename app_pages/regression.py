"""Geodesic regression: non-private fit vs private K-norm-gradient (KNG) fits (docs/specification.md §5.8)."""

import numpy as np
import pandas as pd
import streamlit as st

from geodp_app.cache import cached_regression_demo
from geodp_app.pages import REGRESSION_CHAIN_LENGTHS, REGRESSION_SPACES, this_page
from geodp_app.ui import errors_shown_here, honesty_badge, readable, stop_page, teach
from geodp_app.url_params import bounds, limits
from geodp_app.urlstate import url_note
from geodp_core.constraints import REGRESSION_EPS_GRID as EPS_GRID
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms.kng_regression import OWNER_ONLY
from geodp_core.regression_lab import KENDALL_DEMO_LANDMARKS as K_LANDMARKS
from geodp_core.regression_lab import REGRESSION_PRESETS
from geodp_core.regression_lab import REGRESSION_SPACES as SPACE_ARGS
from geodp_core.viz import CAMERA_PRESETS
from geodp_core.viz.regression import (
    FIT_COLORS,
    mspe_figure,
    private_fit_colors,
    regression_figure,
    trace_figure,
)

PAGE = this_page(__file__)

st.title("Geodesic regression")
st.caption(
    "Fletcher's geodesic regression y ≈ Exp(p, x v) fitted privately with the K-norm gradient mechanism: first a "
    "footpoint p̃ (budget ε_p), then a shooting vector ṽ at p̃ (budget ε_v); together (ε_p + ε_v)-DP for the exact "
    "laws, sampled here by Metropolis–Hastings (hence the 'approximate sampler' label)."
)



#: How the figure draws a space, by the space's view.
_VIEW_TEXT = {
    "sphere3d": "points on the unit sphere, in 3-D",
    "poincare_disk": "points in the Poincaré disk",
    "spd_ellipses": "2×2 covariance matrices, shown as ellipses",
    "shapes": (f"outlines of {K_LANDMARKS} planar landmarks up to position, size and rotation (a "
               f"{2 * K_LANDMARKS - 4}-dimensional space), shown as the predicted shape at five covariates"),
    "rotation_ball": "rotations, shown as rotation vectors (axis × angle) in the ball of radius π",
}


def _share(value):
    """A rate as a percentage, or a dash when the step did not run."""
    return "–" if not np.isfinite(value) else f"{value:.0%}"


def _drawn_as(manifold):
    return _VIEW_TEXT.get(manifold.view, manifold.description)


controls, main = st.columns([1, 3], gap="large")
with controls:
    st.subheader("Controls")
    space = st.radio("Manifold", list(REGRESSION_SPACES), format_func=REGRESSION_SPACES.get, key="regression_space",
                     help="Every curved space with a closed-form differential of Exp. "
                          + "; ".join(f"{label}: {_drawn_as(get_manifold(*SPACE_ARGS[key]))}"
                                      for key, label in REGRESSION_SPACES.items()) + ".")
    preset = st.selectbox("True geodesic", list(REGRESSION_PRESETS[space]), key=f"regression_preset_{space}",
                          help="The ground truth the data are generated from (a teaching view).")
    n = st.number_input("Records n", **bounds("regression_n"), value=50, step=10, key="regression_n",
                        help="Pairs (x_i, y_i); the sensitivities scale as 1/n.")
    noise = st.number_input("Noise std", **bounds("regression_noise"), value=0.05, step=0.01, format="%.3f",
                            key="regression_noise", help="Tangent Gaussian noise around the true geodesic.")
    eps_total = st.select_slider("Total ε  (more privacy ⟵ ⟶ more accuracy)", EPS_GRID, value=0.5,
                                 key="regression_eps", help="ε = ε_p + ε_v (pure ε-DP by composition).")
    share = st.slider("Share of ε for the footpoint (ε_p / ε)", *limits("regression_share"), 0.5, step=0.05,
                      key="regression_share",
                      help="ε_p buys the footpoint, the rest ε_v the shooting vector.")
    st.caption(f"ε_p = {share * eps_total:.3g}, ε_v = {(1 - share) * eps_total:.3g}")
    teach("A geodesic is a start point $p$ and a direction $v$. The budget is split between them: "
          "$\\varepsilon = \\varepsilon_p + \\varepsilon_v$, and each part is released with noise scaled to "
          "its own sensitivity.")
    if eps_total >= 100:
        st.warning("A very large budget: little formal protection (shown to see the KNG law concentrate).")
    tau = st.number_input(
        "Public residual bound τ", **bounds("regression_tau"), value=0.2, step=0.05, key="regression_tau",
        help="PUBLIC: fixed from domain knowledge, never from the data. Residuals are clipped at τ, so the "
             "guarantee holds for every dataset; if the data's residuals exceed τ a warning appears.",
    )
    data_radius = st.number_input(
        "Public data radius τ_m", **bounds("regression_radius"), value=1.0, step=0.1, key="regression_radius",
        help="PUBLIC radius of a ball around the base point that should hold the responses. It fixes the "
             "sampling domain: footpoints within τ_m + τ, |v| ≤ 2(τ_m + τ) (the paper's appendix C).",
    )
    chain_length = st.select_slider(
        "Chain length (Metropolis steps)", list(REGRESSION_CHAIN_LENGTHS), value="auto", key="regression_chain",
        help="'auto': chosen from public inputs only — chains from several public starting points are run on a "
             "public stand-in dataset (same n, τ, ε and domain) and the length is doubled (up to 1000) until they "
             "agree (split-R̂ < 1.05). A number: that length per stage plus a burn-in of half of it, checked the "
             "same way. If the check fails the fit carries no formal guarantee.")
    n_fits = st.slider("Private fits to draw", *limits("regression_fits"), 4, key="regression_fits",
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
        nonprivate_start = st.checkbox(
            "Start the chains at the non-private fit", key="regression_nonprivate_start",
            help="The paper's choice: a finite chain then stays closer to the non-private fit than the KNG law "
                 "allows, so its output depends on the data beyond the mechanism.")
    seed = st.number_input("Seed", **bounds("regression_seed"), value=0, step=1, key="regression_seed",
                           help="Seeds the data and the private releases (reproducible).")
    for key, value in (("regression_space", space), (f"regression_preset_{space}", preset), ("regression_n", n),
                       ("regression_noise", noise), ("regression_eps", eps_total), ("regression_share", share),
                       ("regression_tau", tau), ("regression_radius", data_radius),
                       ("regression_chain", chain_length), ("regression_fits", n_fits), ("regression_seed", seed)):
        url_note(key, value)  # a bad URL value is reported here; the control keeps its default
    camera = "data"
    if get_manifold(*SPACE_ARGS[space]).view == "sphere3d":
        camera = st.radio("Camera", ["data"] + [k for k, v in CAMERA_PRESETS.items() if v is not None], horizontal=True, key="regression_camera",
                          help="'data' looks at the data from outside the sphere.")
        url_note("regression_camera", camera)
    error_slot = st.container()

demo = None
with errors_shown_here(error_slot):
    demo = cached_regression_demo(
        space, int(n), float(noise), preset, float(eps_total), float(share), float(tau), float(data_radius),
        chain_length if chain_length == "auto" else int(chain_length), int(n_fits), int(seed),
        "nonprivate" if paper_footpoint else "joint", "paper" if paper_scale else "rigorous", bool(tau_from_data),
        bool(nonprivate_start),
    )

with main:
    if demo is None:
        st.info("Fix the highlighted control (your other settings are kept).")
        stop_page()
    result = demo.result
    if result.label == "approximate sampler":
        claim = f"guarantee **{result.guarantee.describe()}** per private fit, for the exact law the chains approximate"
    else:
        claim = f"target {result.guarantee.describe()} per private fit — **not supported** (see below)"
    st.markdown(f"**KNG geodesic regression** {honesty_badge(result.label)} · {claim}")
    for message in result.public_warnings:
        st.warning(message, icon=":material/warning:")
    diag = result.diagnostics
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("σ_p (footpoint)", f"{result.sigma_footpoint:.3g}",
              help=f"KNG scale of stage 1 = 2Δ/ε_p with Δ = {result.sensitivity_footpoint:.3g}.")
    c2.metric("σ_v (shooting vector)", f"{result.sigma_shooting:.3g}",
              help=f"KNG scale of stage 2 = 2Δ_v/ε_v with Δ_v = {result.sensitivity_shooting:.3g}.")
    c3.metric("Chain length (public)", f"{diag['chain_length']}",
              help=f"{'Chosen automatically' if diag['chain_length_mode'] == 'auto' else 'Set by you'}; burn-in "
                   f"{diag['burn_in']}. Depends on public inputs only.")
    c4.metric("Public check: max split-R̂", f"{diag['proxy_max_rhat']:.3f}",
              delta="passed" if diag["proxy_passed"] else "failed",
              delta_color="normal" if diag["proxy_passed"] else "inverse",
              help=f"Chains from {diag['proxy_n_chains'] // 2} public starting points on a public stand-in dataset "
                   f"must agree (R̂ < {diag['rhat_threshold']:g}). Evidence that the sampler is close to the "
                   "KNG law, not a proof.")
    tried = ", ".join(f"{h['chain_length']} → {h['max_rhat']:.3f}" for h in diag["proxy_history"])
    st.caption(
        f"Sensitivities: Δ = {result.sensitivity_footpoint:.3g} (stage 1), Δ_v = {result.sensitivity_shooting:.3g} "
        f"(stage 2) for n = {len(demo.x)}, τ = {result.tau:.3g}, |v| ≤ {result.max_speed:.3g}. Chains start at "
        f"public points: {diag['burn_in']} burn-in + {diag['chain_length']} steps; public check (length → max R̂): "
        f"{tried} — {'passed' if diag['proxy_passed'] else 'failed: no formal guarantee'}."
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
    if demo.manifold.view == "shapes":
        st.caption("Data: synthetic shapes along a geodesic between two public template outlines, the covariate x "
                   "playing the role of age. The paper's corpus-callosum outlines (an Alzheimer's study) are not "
                   "available offline.")
        teach(f"Shape space has {2 * K_LANDMARKS - 4} dimensions, so the footpoint and shooting vector together "
              f"have {4 * K_LANDMARKS - 8}. The K-norm "
              "law puts mass exp(−|gradient|/σ) on every state, and far from the fit there is vastly more room: "
              "unless ε·n is large, most private fits land far from the data. The paper's chains start at the "
              "non-private fit, and short ones stay near it: that looks better but is not what the mechanism "
              "guarantees, and longer chains drift away too (try the variant under 'Paper variants').")
    teach("Each coloured line is one private fit. They scatter around the non-private fit (gold); with a larger ε "
          "or more records they bunch up along it. A real release would publish only one of them.")

    st.subheader("Prediction error")
    names = ["true geodesic", "non-private fit"] + [f"private fit {i + 1}" for i in range(len(result.footpoints))]
    values = [demo.mspe_truth, demo.mspe_nonprivate] + [float(v) for v in demo.mspe_private]
    left, right = st.columns([3, 2])
    left.plotly_chart(mspe_figure(names, values, colors=["black", "goldenrod"] + colors,
                                  reference=demo.mspe_nonprivate), key="regression_mspe", width="stretch")
    right.dataframe(pd.DataFrame({"fit": names, "MSPE": values}), hide_index=True, width="stretch")
    teach("MSPE is the mean squared geodesic distance between a fit's predictions and the observed points. The "
          "price of privacy is how far the private fits' errors exceed the non-private fit's (dashed line).")

    st.subheader("Did the sampler converge? (public check)")
    ess_all = list(diag["proxy_ess_footpoint"]) + list(diag["proxy_ess_shooting"])
    rhat_all = list(diag["proxy_rhat_footpoint"]) + list(diag["proxy_rhat_shooting"])
    (d1, d2), (d3, d4) = st.columns(2), st.columns(2)
    d1.metric("Largest R̂ (agreement of chains)", f"{max(rhat_all):.3f}",
              delta="passed" if diag["proxy_passed"] else "failed",
              delta_color="normal" if diag["proxy_passed"] else "inverse",
              help=f"Below {diag['rhat_threshold']:g} means chains started far apart end up describing the same "
                   "distribution.")
    d2.metric("Smallest effective sample size", f"{min(ess_all):.0f}",
              help=f"How many independent draws the {diag['proxy_n_chains']} check chains are worth together, for "
                   "the summary that mixes worst. A few hundred or more make the agreement above meaningful.")
    d3.metric("Temperatures per chain", f"{len(diag['temperatures_footpoint'])} / {len(diag['temperatures_shooting'])}",
              help="Each chain runs copies at flatter versions of the target (footpoint stage / shooting-vector "
                   "stage) that swap states with it, so it can cross between distant regions. Only the copy at "
                   "the true target is released.")
    d4.metric("Mode jumps accepted", " / ".join(_share(diag[key]) for key in ("proxy_jump_footpoint",
                                                                             "proxy_jump_shooting")),
              help="Every fourth step each chain proposes a point near the peak of the target or anywhere in the "
                   "public domain, accepted by the usual Metropolis–Hastings rule (footpoint stage / "
                   "shooting-vector stage). This lets chains move between the narrow peak and the flat region far "
                   "from it, which small steps and temperature swaps cannot.")
    traces = diag["proxy_trace_footpoint"]
    steps = (np.arange(traces.shape[0]) * max(1, -(-diag["chain_length"] // traces.shape[0]))).tolist()
    t1, t2 = st.columns(2)
    t1.plotly_chart(trace_figure(traces[:, :, 0], steps, "Footpoint stage: distance of the footpoint from the "
                                 "public centre, each chain", "distance d(m₀, p)"),
                    key="regression_trace_footpoint", width="stretch")
    t2.plotly_chart(trace_figure(diag["proxy_trace_shooting"][:, :, 1], steps, "Shooting-vector stage: length of the "
                                 "shooting vector, each chain", "|v|"),
                    key="regression_trace_shooting", width="stretch")
    names_1 = ["footpoint: distance from the centre", "footpoint stage: |v|"] + [
        f"footpoint: coordinate {j + 1}" for j in range(len(diag["proxy_rhat_footpoint"]) - 2)]
    names_2 = [f"shooting vector: coordinate {j + 1}" for j in range(len(diag["proxy_rhat_shooting"]) - 1)] + [
        "shooting vector: |v|"]
    st.dataframe(pd.DataFrame({"summary": names_1 + names_2, "R̂": rhat_all,
                               "eff. sample size": [round(e) for e in ess_all]}),
                 hide_index=True, width="stretch", height=min(38 * (len(rhat_all) + 1), 300))
    teach("These chains ran on a public stand-in dataset (same n, τ, ε and domain; never your data), from "
          "starting points spread over the domain. If they overlap as one band and R̂ is close to 1, the sampler "
          "very likely reaches the mechanism's law in that many steps; the same settings are then used for the "
          "private fits. This is evidence, not a proof: a region no chain found would not show up here.")

    with st.expander("How was this calibrated?"):
        for note in result.notes:
            st.markdown(f"- {readable(note)}")

    owner_box = st.container(border=True)
    owner_box.markdown("**For the data owner only — computed from the private data, not part of any release**")
    for message in result.owner_warnings:
        owner_box.warning(readable(message.removeprefix(OWNER_ONLY)), icon=":material/lock:")
    owner = result.owner_diagnostics
    if "max_rhat" in owner:
        owner_box.markdown(
            f"Chains on the private data (the fits above plus {owner['n_diagnostic_chains']} extra chains from the "
            f"public starts): max split-R̂ **{owner['max_rhat']:.3f}**, smallest effective sample size "
            f"**{owner['min_ess']:.0f}**; acceptance {owner['footpoint_acceptance']:.2f}"
            f" (stage 1) / {owner['shooting_acceptance']:.2f} (stage 2). This does not change the label above."
        )
    for note in result.owner_notes:
        owner_box.markdown(f"- {readable(note.removeprefix(OWNER_ONLY))}")

