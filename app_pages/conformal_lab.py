"""Conformal lab: the density-aware conformal mechanism step by step (docs/specification.md §5.7)."""

import streamlit as st

from geodp_app.cache import cached_conformal_lab
from geodp_app.conformal import DATA_KINDS, LabSettings
from geodp_app.pages import CONFORMAL_LAPLACIANS, CONFORMAL_SPACES, this_page
from geodp_app.ui import (
    download_buttons,
    errors_shown_here,
    honesty_badge,
    readable,
    scenario_files,
    stop_page,
    teach,
)
from geodp_app.url_params import bounds, limits
from geodp_app.urlstate import url_note
from geodp_core.conformal_lab import LAB_NEEDS, spaces_not_offered
from geodp_core.constraints import CONFORMAL_EPS_GRID as EPS_GRID
from geodp_core.explorer import mean_and_standard_error
from geodp_core.geometry import get_manifold
from geodp_core.scenario import Scenario
from geodp_core.viz import CAMERA_PRESETS, MECHANISM_COLORS
from geodp_core.viz.heatmaps import Overlay, conformal_field_figure

PAGE = this_page(__file__)

st.title("Conformal lab")
st.caption(
    "The density-aware conformal mechanism, step by step: a private kernel density on a PUBLIC mesh (budget ε_φ), "
    "a conformal factor φ from a Helmholtz equation (post-processing), then a Laplace-type release in the "
    "conformal metric (budget ε_conf). Compare with the Riemannian Laplace mechanism at the same total ε."
)



controls, main = st.columns([1, 3], gap="large")
with controls:
    st.subheader("Controls")
    space = st.radio("Manifold", list(CONFORMAL_SPACES), format_func=CONFORMAL_SPACES.get, key="conformal_space",
                     help="S² is meshed whole; on H² the release lives in a public geodesic ball B(o, R).")
    with st.expander("Why only these spaces?"):
        st.caption(f"{LAB_NEEDS} The other spaces have none:")
        for label, reason in spaces_not_offered().items():
            st.caption(f"**{label}**: {reason}.")
    surface = get_manifold(space, 2)  # compact: meshed whole; otherwise a public geodesic ball is meshed
    kinds = DATA_KINDS[space]
    data_kind = st.selectbox("Data", list(kinds), format_func=kinds.get, key=f"conformal_data_{space}",
                             index=len(kinds) - 1, help="Synthetic private data (a mixture makes the density uneven).")
    n = st.number_input("Records n", **bounds("conformal_n"), value=500, step=50, key="conformal_n",
                        help="Number of private points.")
    spread = st.number_input("Spread (std, radians)", **bounds("conformal_spread"), value=0.25, step=0.05,
                             key="conformal_spread", help="vMF: κ = 1/std²; wrapped normal: tangent std.")
    ball_radius = st.number_input(
        "Public data-ball radius r", **bounds(f"conformal_ball_{space}"), value=0.7 if surface.is_compact else 1.2,
        step=0.05, key=f"conformal_ball_{space}",
        help="Data are clipped to B(m₀, r) (public preprocessing); Δ of the Fréchet mean uses r (S²: r < π/4).",
    )
    eps_total = st.select_slider("Total ε  (more privacy ⟵ ⟶ more accuracy)", EPS_GRID, value=1.0,
                                 key="conformal_eps", help="Total budget ε = ε_φ + ε_conf (an ε-DP target).")
    share = st.slider("Share of ε for the density (ε_φ / ε)", *limits("conformal_share"), 0.3, step=0.05,
                      key="conformal_share",
                      help="ε_φ = share × ε buys the density release; the rest, ε_conf, buys the point release.")
    eps_phi = share * eps_total
    st.caption(f"ε_φ = {eps_phi:.3g}, ε_conf = {eps_total - eps_phi:.3g}")
    teach("One budget pays for two releases: $\\varepsilon_\\varphi$ buys a noisy map of where the data are dense, "
          "$\\varepsilon_{\\mathrm{conf}}$ the point itself. More for the map gives a better density but a noisier "
          "point.")
    mesh_size = st.slider("Mesh vertices", *limits("conformal_mesh"), 600, step=100, key="conformal_mesh",
                          help="Fewer, larger cells: less noise per cell, coarser density.")
    bandwidth = st.number_input("Bandwidth h", **bounds("conformal_bandwidth"), value=0.5, step=0.05,
                                key="conformal_bandwidth", help="Public KDE bandwidth (S²: < π/2; H²: ≤ 2).")
    upsilon = st.number_input("υ (Helmholtz)", **bounds("conformal_upsilon"), value=1.0, step=0.1,
                              key="conformal_upsilon", help="(−Δ + υ)σ = c̃ − f̃: larger υ, flatter φ.")
    smoothing_time = st.number_input("Smoothing time t", **bounds("conformal_smoothing"), value=0.05, step=0.01,
                                     key="conformal_smoothing", help="Public implicit heat step before the solve.")
    laplacian = st.radio(
        "Laplacian", list(CONFORMAL_LAPLACIANS), key="conformal_laplacian", format_func=CONFORMAL_LAPLACIANS.get,
        help="The paper's graph on the data points makes φ depend on the data outside the sanitised channel.",
    )
    sampler = st.radio(
        "Release sampler", ["continuous", "vertex"], key="conformal_sampler", horizontal=True,
        captions=["exact, anywhere on the surface", "a mesh vertex, then a point of its cell"],
        help="continuous: exact rejection sampler; vertex: a mesh vertex then a uniform point of its cell.",
    )
    domain_radius = 1.5
    if not surface.is_compact:
        domain_radius = st.number_input("Domain radius R (H²)", **bounds("conformal_domain"), value=2.0, step=0.1,
                                        key="conformal_domain",
                                        help="Public geodesic ball B(o, R) that is meshed; it must contain the public "
                                             "data ball with a small margin (R ≥ 1.05 r).")
    n_releases = st.slider("Releases to draw", *limits("conformal_releases"), 100, key="conformal_releases",
                           help="Many draws show the law; each released point costs another ε_conf.")
    seed = st.number_input("Seed", **bounds("conformal_seed"), value=0, step=1, key="conformal_seed",
                           help="Seeds the data, the sanitisation noise and the releases (reproducible).")
    for key, value in (("conformal_space", space), (f"conformal_data_{space}", data_kind), ("conformal_n", n),
                       ("conformal_spread", spread), (f"conformal_ball_{space}", ball_radius),
                       ("conformal_eps", eps_total), ("conformal_share", share), ("conformal_mesh", mesh_size),
                       ("conformal_bandwidth", bandwidth), ("conformal_upsilon", upsilon),
                       ("conformal_smoothing", smoothing_time), ("conformal_laplacian", laplacian),
                       ("conformal_sampler", sampler), ("conformal_domain", domain_radius),
                       ("conformal_releases", n_releases), ("conformal_seed", seed)):
        url_note(key, value)  # a bad URL value is reported here; the control keeps its default
    error_slot = st.container()

run = None
with errors_shown_here(error_slot):
    scenario = Scenario(
        manifold=space, dim=2, data=data_kind, n=int(n), spread=float(spread), radius=float(ball_radius),
        notion="pure_dp", eps=float(eps_total), seed=int(seed), mechanisms=("conformal", "riemannian_laplace"),
    )
    settings = LabSettings(
        eps_phi_share=float(share), mesh_size=int(mesh_size), bandwidth=float(bandwidth), upsilon=float(upsilon),
        smoothing_time=float(smoothing_time), laplacian=laplacian, sampler=sampler,
        domain_radius=float(domain_radius), n_releases=int(n_releases),
    )
    run = cached_conformal_lab(scenario.to_json(), tuple(sorted(settings.to_dict().items())))

with main:
    if run is None:
        st.info("Fix the control reported on the left (your other settings are kept).")
        stop_page()
    cal, fields = run.calibration, run.fields
    noise = cal.noise
    st.markdown(f"**{cal.achieved.describe()}** {honesty_badge(cal.label)} · ε_φ = {noise['eps_phi']:.3g}, "
                f"ε_conf = {noise['eps_conf']:.3g} · mesh of {fields.mesh.n_vertices} vertices")
    c = st.columns(5)
    c[0].metric("φ_min", f"{fields.phi_min:.3g}", help="Smallest conformal factor (densest region).")
    c[1].metric("φ_max", f"{fields.phi_max:.3g}", help="Largest conformal factor: sets Δ* = √φ_max Δ.")
    c[2].metric("Sensitivity Δ", f"{run.sensitivity:.3g}", help="Fréchet mean over datasets in B(m₀, r).")
    c[3].metric("λ*", f"{noise['lambda_star']:.4g}", help="Rate ε_conf / (2 √φ_max Δ).")
    c[4].metric("Kernel bound B", f"{noise['kernel_mass_bound']:.4g}",
                help="Rigorous sup of Σ w_j K_h(dist(x_j, y)); the L¹ sensitivity is 2B/n.")
    lower, upper = fields.phi_bounds
    st.caption(f"Theorem III.5 bounds: {lower:.3g} ≤ φ ≤ {upper:.3g}. Records: {len(run.data)} "
               f"({run.n_clipped} clipped to the public ball).")

    camera = "oblique"
    if run.manifold.view == "sphere3d":
        camera = st.radio("Camera", list(CAMERA_PRESETS), horizontal=True, key="conformal_camera")
        url_note("conformal_camera", camera)
    view = dict(camera=camera, height=460)
    data_overlay = Overlay(run.data, f"data (n={len(run.data)})", "rgba(60,60,60,0.6)", 2.5)
    mean_overlay = Overlay(run.true_mean[None], "true mean (teaching view: private!)", "gold", 9, "diamond")

    tab_density, tab_phi, tab_rho, tab_release = st.tabs(
        ["Density f, f̃", "Conformal factor φ", "Conformal distance ρ*", "Releases vs Riemannian Laplace"]
    )
    with tab_density:
        left, right = st.columns(2)
        left.plotly_chart(conformal_field_figure(fields, "f", overlays=[data_overlay], **view),
                          key="conformal_fig_f", width="stretch")
        right.plotly_chart(conformal_field_figure(fields, "f_tilde", **view), key="conformal_fig_ft",
                           width="stretch")
        st.plotly_chart(conformal_field_figure(fields, "f_smooth", **view), key="conformal_fig_u", width="stretch")
        st.caption("f (the non-private KDE) is a teaching view only; the release uses f̃ = f + Laplace noise with "
                   f"per-vertex scale Δ₁/(ε_φ w_j), Δ₁ = 2B/n = {noise['l1_sensitivity']:.3g}.")
    with tab_phi:
        st.plotly_chart(conformal_field_figure(fields, "phi", overlays=[data_overlay], **view),
                        key="conformal_fig_phi", width="stretch")
        st.caption("φ < 1 (blue) where the sanitised density is high: conformal distances shrink there.")
        teach("This is the idea of the mechanism: where many records sit (blue), distances are shrunk, so the same "
              "privacy needs less noise there; sparse regions (red) keep or stretch distances. With the public-mesh "
              "Laplacian, φ comes from the *noisy* density only, so looking at it costs no extra privacy.")
    with tab_rho:
        st.plotly_chart(conformal_field_figure(fields, "rho_star", center=run.true_mean, overlays=[mean_overlay],
                                               **view), key="conformal_fig_rho", width="stretch")
        st.caption("ρ*(η, ·) by multi-source Dijkstra on the public mesh; it is √φ_max-Lipschitz in η.")
    with tab_release:
        overlays = [Overlay(run.releases, "conformal releases", MECHANISM_COLORS["conformal"], 4)]
        if run.rl_releases is not None:
            overlays.append(Overlay(run.rl_releases, "Riemannian Laplace releases",
                                    MECHANISM_COLORS["riemannian_laplace"], 4))
        overlays.append(mean_overlay)
        st.plotly_chart(conformal_field_figure(fields, "phi", overlays=overlays, **view),
                        key="conformal_fig_release", width="stretch")
        a, b = st.columns(2)
        mean, se = mean_and_standard_error(run.distances)
        a.metric("Conformal: mean dist to η", f"{mean:.3g} ± {se:.2g}",
                 help=f"Paper bound (Thm V.2 with the Δ used, via √E d²): {run.utility_bound:.3g}")
        if run.rl_calibration is not None:
            rl_mean, rl_se = mean_and_standard_error(run.rl_distances)
            b.metric("Riemannian Laplace: mean dist to η", f"{rl_mean:.3g} ± {rl_se:.2g}",
                     help=f"Same total target {run.rl_calibration.achieved.describe()}.")
            b.markdown(honesty_badge(run.rl_calibration.label))
        else:
            b.warning(f"Riemannian Laplace unavailable: {readable(run.rl_reason)}")
        teach("Both clouds are releases at the same total ε. The conformal releases should hug the true mean more "
              "tightly where the data are dense; the mean distances above say which mechanism wins here.")
        st.caption(f"Paper's utility bound (Theorem V.2 with the sensitivity Δ used, E dist ≤ √E dist²): "
                   f"{run.utility_bound:.3g} (the literal statement, with Δ = 2r/n, gives {run.paper_bound:.3g}"
                   + (f"; it understates Δ on {run.manifold.symbol} (positive curvature)"
                      if run.manifold.sensitivity_curvature > 0 else "")
                   + "). It ignores the mesh discretisation. Drawing "
                   f"{len(run.releases)} points shows the law; releasing them all would cost ε_φ + k·ε_conf.")
    with st.expander("How was this calibrated?"):
        for note in cal.notes:
            st.markdown(f"- {readable(note)}")
    download_buttons(scenario_files(scenario, PAGE.settings_key, study=(
        "from geodp_core.conformal_lab import LabSettings, run_conformal_lab\n\n"
        f"settings = LabSettings(**{settings.to_dict()!r})\n"
        "run = run_conformal_lab(scenario, settings)\n"
        "print(run.calibration.label, run.calibration.noise)\n"
    )), key_prefix="conformal_dl")

