"""Explorer: one scenario — data, true mean, private releases and their guarantees."""

import json

import pandas as pd
import streamlit as st

from geodp_app.cache import (
    cached_budget_plan,
    cached_budget_scene,
    cached_curvature_lesson,
    cached_run,
    warm_neighbouring_budgets,
)
from geodp_app.pages import LEDGER_MECHANISMS, PLAN_SHARES, this_page
from geodp_app.sidebar import scenario_sidebar, upload_digest
from geodp_app.ui import (
    download_buttons,
    errors_shown_here,
    honesty_badge,
    readable,
    scenario_files,
    stop_page,
    teach,
)
from geodp_app.url_params import bounds
from geodp_app.urlstate import url_note
from geodp_core.curvature_lesson import READY_SETTINGS, describe_noise
from geodp_core.explorer import resample_releases, results_table
from geodp_core.pipeline import typical_spread_distance
from geodp_core.summaries import p_mean_sensitivity_theorem
from geodp_core.viz import (
    CAMERA_PRESETS,
    scene_figure,
    spd_cone_figure,
    spd_glyph_figure,
    spd_spectrum_figure,
)
from geodp_core.viz.distances import release_distance_figure
from geodp_core.viz.lesson import curvature_panels, volume_figure

PAGE = this_page(__file__)

st.title("Explorer")
st.caption(
    "Pick a manifold, data, mechanisms and ONE privacy target in the sidebar. Each mechanism is calibrated to "
    "that target and releases a private Fréchet mean; the cloud shows many releases."
)

scenario, points, show_error = scenario_sidebar()
if scenario is None:
    st.info("Fix the highlighted control in the sidebar (your other settings are kept).")
    stop_page()

result = None
try:
    result = cached_run(scenario.to_json(), upload_digest(points), _points=points)
except Exception as exc:  # noqa: BLE001 - shown beside the control that caused it; settings are kept
    show_error(exc)
    st.info("This scenario's data could not be prepared: the message is beside the control in the sidebar.")
    stop_page()

warm_neighbouring_budgets(scenario, result.manifold, result.sensitivity)  # the next ε step's slow calibrations
draw = st.session_state.get("explorer_draw", 0)
if draw:
    with errors_shown_here():
        result = resample_releases(result, draw)

c1, c2, c3, c4 = st.columns([1, 1, 1, 1.8])
c1.metric("Records n", len(result.data), help=result.data_note)
c2.metric("Clipped to the public ball", result.n_clipped,
          help="Points outside B(m₀, r) are moved onto its boundary: public preprocessing, DP unaffected. The count "
               "is computed from the private data: for the data owner only, never part of a release.")
if result.n_clipped > len(result.data) / 2:
    spread_hint = ""
    typical = typical_spread_distance(scenario)
    if scenario.data in ("vmf", "vmf_mixture"):
        spread_hint = (f" A von Mises–Fisher spread s puts points about s·√d = {typical:.3g} rad from its centre in "
                       f"dimension d = {result.manifold.dim}: lower the spread (or widen the radius) to keep the data "
                       "inside.")
    elif scenario.data == "shape_perturbation":
        spread_hint = (f" Landmark noise s moves a shape about s·√(2k) = {typical:.3g} "
                       "(relative size) from its template: lower the spread to keep the shapes inside.")
    st.warning(f"{result.n_clipped} of {len(result.data)} records lie outside the public ball B(m₀, "
               f"{scenario.radius:g}) and were moved onto its boundary, so the mean mostly reflects the clipping."
               + spread_hint, icon=":material/open_in_full:")
if scenario.p == 2.0:
    sensitivity_help = "Global sensitivity of the Fréchet mean over datasets in the public ball (Reimherr et al.)."
else:
    theorem = p_mean_sensitivity_theorem(scenario.p, result.manifold.sensitivity_curvature)
    sensitivity_help = (f"Global sensitivity of the Fréchet p-mean (p = {scenario.p:g}) over datasets in the public ball "
                        f"(Chang, Jiang, Mostajeran & Hu 2026, Theorem {theorem}); for p > 2 it decays only like n^(−1/(p−1)).")
c3.metric("Sensitivity Δ", f"{result.sensitivity:.4g}", help=sensitivity_help)
c4.metric("Target", scenario.target.describe())
summary_text = ("the data's Fréchet mean (the point that minimises the sum of squared geodesic distances)"
                if scenario.p == 2.0 else
                f"the data's Fréchet p-mean with p = {scenario.p:g} (the point that minimises the sum of geodesic "
                f"distances to the power p; p = 2 is the usual mean, p near 1 a robust median)")
teach(f"**Read this first.** A mechanism releases a *private* version of {summary_text}. **Δ** is how far one "
      "person's record can move that mean, for any data in the public ball; the noise is scaled to Δ divided by the budget, so a smaller budget or a "
      "larger Δ means noisier releases.")
st.caption(f"Data: {readable(result.data_note)}. The data, the true mean, the clipped count and the distances below are "
           "computed from the private data: a teaching view for the data owner only, never part of a release. "
           "The public quantities are the centre and radius of the ball, the sensitivity, the target and each "
           "mechanism's calibration.")

left, right = st.columns([3, 2])
with left:
    camera = "oblique"
    if result.manifold.view == "sphere3d":
        camera = st.radio("Camera", list(CAMERA_PRESETS), horizontal=True, key="explorer_camera")
        url_note("explorer_camera", camera)
    scrub = st.toggle("Scrub the budget in the browser (teaching view)", value=False, key="explorer_scrub",
                      help="Adds a slider to the picture that moves through the budget grid without asking the "
                           "server: the releases at every budget are drawn once, from shared random numbers. The "
                           "first picture takes a few seconds longer (every budget is calibrated and drawn).")
    fig, frames = None, None
    if scrub:
        with errors_shown_here():
            fig, frames = cached_budget_scene(scenario.to_json(), upload_digest(points), draw, camera, _result=result)
    if fig is None:
        fig = scene_figure(result, camera=camera)
    st.plotly_chart(fig, key="explorer_scene", width="stretch")
    if frames is not None:
        coupled = [m for m in frames.mechanisms if m.status == "ok"]
        left_out = [m for m in frames.mechanisms if m.status != "ok"]
        sidebar_value = f"{frames.values[frames.current]:g}"
        if coupled:
            st.caption(
                f"**Scrubbing the budget.** The slider above the picture moves the {frames.words} over the grid "
                f"{frames.values[0]:g} … {frames.values[-1]:g} in your browser, with no work on the server. Each "
                "mechanism's releases were drawn once from shared random numbers (the same quantile of the distance "
                "law and the same direction at every budget), so as the budget grows every release slides towards "
                "the true mean. Each frame is an exact draw of the mechanism at its budget, but looking at several "
                "frames means seeing several releases of the same data, whose privacy losses add up: only the "
                f"releases at ONE budget are a release; the frames are a teaching view. The sidebar's {frames.symbol} "
                f"= {sidebar_value} gives the exact numbers on the right, from its own draw."
            )
        gaps = []
        for m in coupled:
            missing = [f"{v:g}" for v, r in zip(frames.values, m.releases) if r is None]
            if missing:
                gaps.append(f"{m.title} is unavailable at {frames.symbol} = {', '.join(missing)} (no cloud in those "
                            "frames)")
        for m in left_out:
            gaps.append(f"{m.reason}; its cloud is shown only at the sidebar's {frames.symbol} = {sidebar_value}"
                        if coupled else m.reason)
        if not coupled:
            gaps.insert(0, "No mechanism of this scenario has releases shared across budgets, so the picture has no "
                           "budget slider here")
        if gaps:
            st.caption("Not in the budget frames: " + "; ".join(gaps) + ".")
    teach("Each coloured cloud is many independent releases of one mechanism around the true mean (the small "
          "marker beneath them): the tighter the cloud, the more useful the release at the same privacy. Click a "
          "legend entry to isolate a mechanism.")
    st.plotly_chart(release_distance_figure(result), key="explorer_distances", width="stretch")
    if result.manifold.view == "spd_ellipses":
        st.plotly_chart(spd_glyph_figure(result), key="explorer_glyphs", width="stretch")
        if st.toggle("Show the matrices as points of the SPD cone (3D)", key="explorer_show_cone",
                     help="Each 2×2 matrix [[a, b], [b, c]] is a point (a, b, c) of the open cone ac > b². "
                          "Off by default: a 3D scene redraws slowly on machines without a graphics card."):
            st.plotly_chart(spd_cone_figure(result), key="explorer_cone", width="stretch")
    if result.manifold.view == "spd_spectrum":
        st.plotly_chart(spd_spectrum_figure(result), key="explorer_spectrum", width="stretch")
        teach("An SPD matrix seen from the public centre m₀ is, up to a rotation, its eigenvalues relative to m₀. "
              "Each box shows the k-th largest log-eigenvalue over the data or over a mechanism's releases: the "
              "wider a mechanism's boxes around the true mean, the noisier its releases in that direction.")
    if st.button("Resample releases", icon=":material/casino:", key="explorer_resample", help="New noise draws; the data and mean stay."):
        st.session_state["explorer_draw"] = draw + 1
        st.rerun()

with right:
    st.subheader("Mechanisms")
    for outcome in result.outcomes:
        with st.container(border=True):
            if outcome.status != "ok":
                st.markdown(f"**{outcome.title}** {honesty_badge('unavailable')}")
                st.caption(readable(outcome.reason))
                continue
            cal = outcome.calibration
            st.markdown(f"**{outcome.title}** {honesty_badge(cal.label)}")
            claim = ("Claimed, NOT proved" if cal.label == "no formal guarantee" else
                     "Achieved under an approximate sampler" if cal.label == "approximate sampler" else "Achieved")
            st.markdown(
                f"{claim}: **{cal.achieved.describe()}** · native: {cal.native.describe()}  \n"
                + cal.noise_text()
            )
            bound = "" if outcome.utility_bound is None else f" · paper bound E d ≤ {outcome.utility_bound:.3g} rad"
            st.markdown(
                f"Distance to the true mean: **{outcome.mean_distance:.3g} ± {outcome.standard_error:.2g} rad** "
                f"(geodesic distance, mean ± s.e. of {len(outcome.distances)} releases){bound}"
            )
            with st.expander("How was this calibrated?"):
                for note in cal.notes:
                    st.markdown(f"- {readable(note)}")

st.caption(
    "The gold marker is the true (non-private) mean: a teaching view only — a real release never shows it. "
    "The seed makes this view reproducible, which a real release must NOT be: draw the noise from fresh, secret "
    "randomness (e.g. `numpy.random.default_rng()` without a seed); anyone who knows a seed can recompute and "
    "subtract the noise, and every guarantee shown here assumes the noise is secret."
)

st.subheader("What budget gives this error?")
st.caption("The inverse question, answered exactly from the noise's law (no simulation): the budget a mechanism needs "
           "on this space, at this public sensitivity, for its releases to land within a target distance of the mean.")
q1, q2, q3 = st.columns(3)
plan_mechanism = q1.radio("Mechanism", list(LEDGER_MECHANISMS), format_func=LEDGER_MECHANISMS.get,
                          index=list(LEDGER_MECHANISMS).index("riemannian_laplace") if scenario.notion == "pure_dp" else 0,
                          key="explorer_plan_mechanism",
                          help="For an ε-DP target the Laplace is shown first: the Gaussian has no ε-DP budget.")
url_note("explorer_plan_mechanism", plan_mechanism, q1)
plan_error = q2.number_input("Target error (radians)", **bounds("explorer_plan_error"), value=0.1, step=0.01,
                             format="%.3f", key="explorer_plan_error",
                             help="The geodesic distance of a release from the true mean you can accept.")
url_note("explorer_plan_error", plan_error, q2)
plan_share = q3.select_slider("Releases within it", options=PLAN_SHARES, value=PLAN_SHARES[0], key="explorer_plan_share",
                              help="'on average': the mean error equals the target; 95%: 95% of releases are within it.")
quantile = None if plan_share == PLAN_SHARES[0] else float(plan_share.rstrip("%")) / 100.0
url_note("explorer_plan_share", plan_share, q3)
notion = scenario.notion if scenario.notion in ("pure_dp", "approx_dp", "gdp", "zcdp") else "gdp"
plan = None
with errors_shown_here():
    plan = cached_budget_plan(plan_mechanism, scenario.to_json(), float(result.sensitivity), float(plan_error), notion,
                              quantile, scenario.delta)
if plan is not None:
    needed, compared = plan
    within = "on average" if quantile is None else f"for {plan_share} of the releases"
    st.markdown(f"{LEDGER_MECHANISMS[plan_mechanism]} on {result.manifold.symbol} (Δ = {result.sensitivity:.4g}) needs "
                f"**{needed.describe()}** to release within {plan_error:g} rad {within}.")
    if compared:
        st.caption("The same question in dimension " + str(result.manifold.dim) + ": " + " · ".join(
            f"{readable(label)}: {guarantee.describe()}" for label, guarantee in compared.items()))

st.subheader("What curvature does")
st.caption("The same data scale, number of records and budget on the sphere, flat space and hyperbolic space, "
           "with the first mechanism of your list (synthetic data in a ball of your spread; nothing private). Every "
           "sentence below is generated from the numbers measured here.")
_LESSON_CHOICES = {"": "Your sidebar settings", **{s.key: s.title for s in READY_SETTINGS}}
lesson_choice = st.segmented_control(
    "Lesson setting", list(_LESSON_CHOICES), format_func=_LESSON_CHOICES.__getitem__, default="",
    key="explorer_lesson_setting",
    help="One click to a setting where positive, zero or negative curvature shows its effect plainly (only this "
         "section changes; the sidebar keeps your scenario).") or ""
lesson = None
with errors_shown_here():
    lesson = cached_curvature_lesson(scenario.to_json(), lesson_choice or None)
if lesson is not None:
    if lesson_choice:
        ready = next(s for s in READY_SETTINGS if s.key == lesson_choice)
        st.caption(f"{ready.shows} Setting: dimension d = {lesson.dim}, public radius r = {lesson.radius:g}, "
                   f"n = {lesson.n} records, {lesson.target}, {lesson.mechanism_title}.")
    st.markdown(readable("\n\n".join(lesson.sentences)))
    flat_row = next(r for r in lesson.rows if r.curvature_sign == 0)
    lesson_cols = st.columns(len(lesson.rows))  # side by side on a wide screen, stacked on a phone
    for col, row, panel in zip(lesson_cols, lesson.rows, curvature_panels(lesson)):
        col.metric(f"Δ on {row.symbol}", f"{row.sensitivity:.3g}",
                   delta=f"{row.sensitivity / flat_row.sensitivity:.3g}× the flat Δ", delta_color="off", delta_arrow="off",
                   help="Sensitivity of the Fréchet mean: how far one record can move it (radians), at the public "
                        f"radius r = {lesson.radius:g}.")
        col.plotly_chart(panel, key=f"explorer_lesson_{row.curvature_sign}", width="stretch")
        col.caption("noise: " + describe_noise(row.noise) if row.status == "ok" else
                    f"Unavailable on {row.symbol}: the reason is stated in the text above.")
    if lesson.volume:
        st.plotly_chart(volume_figure(lesson), key="explorer_lesson_volume", width="stretch")
    teach("Curvature enters twice. The **sensitivity** $\\Delta = \\tfrac{2r(2-h)}{nh}$ with "
          "$h = 2r\\sqrt{\\kappa}\\cot(2r\\sqrt{\\kappa})$ for curvature $\\kappa > 0$ (and $h = 1$ otherwise) is larger "
          "on the sphere, by a factor that depends on the radius r only; and the **volume** of a geodesic sphere of "
          "radius $\\rho$ grows like $\\sin^{d-1}\\rho$, $\\rho^{d-1}$ or $\\sinh^{d-1}\\rho$, which changes where "
          "the same noise law puts its mass (on $H^d$ a law $e^{-\\rho/\\sigma}$ has no finite mass once "
          "$\\sigma \\ge 1/(d-1)$).")

st.subheader("Downloads")
# the two large files are generated only when their button is clicked (callables), not on every rerun
download_buttons(
    [
        ("Results CSV", lambda: pd.DataFrame(results_table(result)).to_csv(index=False), "geodp_results.csv",
         "text/csv"),
        *scenario_files(scenario, PAGE.settings_key),
        ("Figure HTML", lambda: fig.to_html(include_plotlyjs=True), "geodp_figure.html", "text/html"),  # offline
    ],
    key_prefix="explorer_dl",
)
with st.expander("Calibrations as JSON"):
    st.code(json.dumps([o.calibration.to_dict() for o in result.outcomes if o.calibration], indent=2), language="json")

