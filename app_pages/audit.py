"""Audit: an empirical lower bound on ε beside each mechanism's claim, and negative controls that must fail."""

import math

import pandas as pd
import streamlit as st

from geodp_app.cache import cached_audit, cached_audit_all
from geodp_app.pages import (
    AUDIT_CONFIDENCES,
    AUDIT_DELTA_GRID,
    AUDIT_NO_VARIANT,
    AUDIT_NOTIONS,
    AUDIT_RELEASE_GRID,
    AUDIT_SPACES,
    audit_mechanism_label,
    audit_variant_label,
    this_page,
)
from geodp_app.ui import errors_shown_here, honesty_badge, readable, teach
from geodp_app.url_params import bounds
from geodp_app.urlstate import url_note
from geodp_core.audit import (
    AUDIT_PRESETS,
    REGRESSION_RELEASES,
    SLOW_RELEASES,
    VARIANT_INFO,
    VARIANTS,
    audit_space_manifold,
    variant_applies,
)
from geodp_core.constraints import AUDIT_EPS_GRID as EPS_GRID
from geodp_core.mechanisms import MECHANISM_NAMES, availability_table, mechanism_class
from geodp_core.viz.audit import (
    audit_claim_figure,
    audit_comparison_figure,
    audit_statistic_figure,
)

PAGE = this_page(__file__)

st.title("Empirical privacy audit")
st.caption(
    "An audit cannot prove a guarantee, but it can refute one. Two neighbouring datasets D, D′ whose means are far "
    "apart, many releases under each, and one event S that is much likelier under one of them: "
    "ε ≥ log((P(S | D) − δ)/P(S | D′)) for any (ε, δ)-DP mechanism. With confidence bounds on both "
    "probabilities this is a lower bound on the true ε. It must stay below the claim for a correct mechanism — and "
    "it must exceed the claim for the negative controls, claims known to be false, or the audit has no power."
)

SPACES, NOTIONS, NO_VARIANT = AUDIT_SPACES, AUDIT_NOTIONS, AUDIT_NO_VARIANT
FRESH_CAP = 1500
DEFAULTS = {"audit_space": "sphere", "audit_mechanism": "riemannian_laplace", "audit_notion": "pure_dp",
            "audit_eps": 1.0, "audit_delta": 1e-5, "audit_n": 10, "audit_radius": 0.5, "audit_releases": 4000,
            "audit_confidence": 0.95, "audit_seed": 0}
for _key, _value in DEFAULTS.items():  # defaults through the Session State (presets overwrite them); a link wins
    if _key not in st.query_params:
        st.session_state.setdefault(_key, _value)


def _apply_preset():
    preset = AUDIT_PRESETS[st.session_state["audit_preset"]]
    st.session_state["audit_space"] = preset["space"]
    st.session_state["audit_mechanism"] = preset["mechanism"]
    st.session_state[f"audit_variant_{preset['mechanism']}"] = preset["variant"] or NO_VARIANT
    st.session_state["audit_notion"] = preset["notion"]
    st.session_state["audit_eps"] = preset["eps"]
    if "delta" in preset:
        st.session_state["audit_delta"] = preset["delta"]
    st.session_state["audit_n"] = preset["n"]
    st.session_state["audit_radius"] = preset["radius"]
    st.session_state["audit_releases"] = preset["n_releases"]




def _number(value):
    """A table cell for a person: the number to 3 significant digits, or "—" where there is none (a table would
    show a missing number as "None")."""
    try:
        value = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{value:.3g}" if math.isfinite(value) else "—"


def _verdict(row):
    """Verdict cell of the comparison table, with what a sound audit should say."""
    if row["status"] != "ok":
        return {"unavailable": "unavailable here", "not run": "not run"}.get(row["status"], row["status"])
    verdict = "REFUTED" if row["refuted"] else "not refuted"
    if row["role"] == "negative control":
        return verdict + (" (as it should be)" if row["refuted"] else " (this control is not caught at these settings)")
    return verdict + ("" if not row["refuted"] else " (a correct mechanism must never be refuted)")


controls, main = st.columns([1, 3], gap="large")
with controls:
    st.subheader("Controls")
    st.selectbox("Showcase", list(AUDIT_PRESETS), key="audit_preset",
                 help="Settings where the audit says something clear: exact mechanisms stay below their claim, "
                      "the labelled non-DP variants exceed it.")
    st.button("Apply showcase", key="audit_apply", on_click=_apply_preset, icon=":material/tune:")
    space = st.radio("Manifold", list(SPACES), format_func=SPACES.get, key="audit_space",
                     help="Every small space on which distance-isotropic noise has an exact sampler. m₀ (the "
                          "PUBLIC ball centre) is the space's own default centre: the north pole, the origin of H², "
                          "the identity matrix or rotation, 0 on ℝᵈ. On the circle and the line the audit's bound "
                          "can come close to the claim.")
    manifold = audit_space_manifold(space)
    r_star = manifold.ball_radius_limit
    availability = availability_table(manifold)
    mechanism = st.selectbox(
        "Mechanism", list(MECHANISM_NAMES), key="audit_mechanism",
        format_func=lambda m: audit_mechanism_label(m, availability[m].ok),
        help="Every mechanism of the registry; unavailable ones say why.",
    )
    unavailable = {m: a.reason for m, a in availability.items() if not a.ok}
    if unavailable:
        with st.expander(f"Unavailable on {SPACES[space]} ({len(unavailable)})"):
            for m, reason in unavailable.items():
                st.caption(f"**{mechanism_class(m).title}**: {readable(reason)}")
    variants = [NO_VARIANT] + [v for v in VARIANTS if variant_applies(v, mechanism)]
    variant = st.selectbox("Variant", variants, format_func=audit_variant_label, key=f"audit_variant_{mechanism}",
                           help="Variants labelled \"no formal guarantee\" and negative controls: the audit "
                                "should refute their claim for suitable settings.")
    if variant != NO_VARIANT:
        st.caption(readable(VARIANT_INFO[variant][2]))
    if variant == "understated_noise":
        st.caption("Here the noise is halved where the two neighbouring means are (nearly) as far apart as the public "
                   "sensitivity allows, and quartered where they are not (the sphere at moderate radius), so that "
                   "the true ε is at least 1.5 × the claim.")
    notion = st.radio("Target guarantee", list(NOTIONS), format_func=NOTIONS.get, key="audit_notion",
                      horizontal=True, help="Gaussian-type mechanisms need (ε, δ).")
    eps = st.select_slider("ε  (more privacy ⟵ ⟶ less privacy)", EPS_GRID, key="audit_eps",
                           help="The target budget each mechanism is calibrated to (log-spaced values).")
    delta = 1e-5
    if notion == "approx_dp":
        delta = st.select_slider("δ", AUDIT_DELTA_GRID, key="audit_delta", format_func=lambda d: f"{d:g}")
    n = st.number_input("Records n", **bounds("audit_n"), step=1, key="audit_n",
                        help="Records per dataset; the sensitivity Δ scales as 1/n (n = 2 makes Δ large).")
    radius = st.number_input(
        "Public ball radius r", **bounds("audit_radius"), step=0.05, key="audit_radius",
        help="PUBLIC bound: the data lie in B(m₀, r). "
             + (f"On {manifold.symbol} it must be below r* = {r_star:.4g}." if math.isfinite(r_star)
                else f"Any r > 0 on {manifold.symbol}."),
    )
    n_releases = st.select_slider("Releases per dataset", AUDIT_RELEASE_GRID, key="audit_releases",
                                  help="Half choose the event, half evaluate it. More releases: a tighter bound.")
    if variant == "knn_data" and n_releases > FRESH_CAP:
        st.caption(f"kNN variant: a fresh calibration per release (slow); capped at {FRESH_CAP} releases.")
        n_releases = FRESH_CAP
    confidence = st.select_slider("Confidence", AUDIT_CONFIDENCES, key="audit_confidence",
                                  help="The lower bound holds with this probability (Clopper–Pearson).")
    seed = st.number_input("Seed", **bounds("audit_seed"), step=1, key="audit_seed",
                           help="Seeds the releases (and the density sanitisation of the conformal mechanism).")
    for key, value in (("audit_space", space), ("audit_mechanism", mechanism), (f"audit_variant_{mechanism}", variant),
                       ("audit_notion", notion), ("audit_eps", eps), ("audit_delta", delta), ("audit_n", n),
                       ("audit_radius", radius), ("audit_releases", n_releases), ("audit_confidence", confidence),
                       ("audit_seed", seed)):
        url_note(key, value)  # a bad URL value is reported here; the control keeps its value
    error_slot = st.container()

result = None
if availability[mechanism].ok:
    with errors_shown_here(error_slot):
        result = cached_audit(space, mechanism, None if variant == NO_VARIANT else variant, notion, float(eps),
                              float(delta), int(n), float(radius), int(n_releases), round(1.0 - confidence, 6),
                              int(seed))

with main:
    title = mechanism_class(mechanism).title
    if not availability[mechanism].ok:
        st.markdown(f"**{title}** on {SPACES[space]} {honesty_badge('unavailable')}")
        st.warning(f"Unavailable here: {readable(availability[mechanism].reason)}", icon=":material/block:")
    elif result is None:
        st.info("Fix the highlighted control (your other settings are kept).")
    else:
        refuted = result.claim_refuted
        badge = ":red-badge[:material/gpp_bad: claim refuted]" if refuted else ":green-badge[:material/gpp_good: not refuted]"
        variant_text = "" if result.variant is None else f" · variant: **{VARIANT_INFO[result.variant][0]}**"
        st.markdown(f"**{title}** on {SPACES[space]}{variant_text} {honesty_badge(result.label)} {badge}")
        if refuted:
            st.warning(
                f"Visibly broken claim: with confidence {result.confidence:g} the true ε is at least "
                f"{result.eps_lower_bound:.3g}, above the claimed {result.claimed_eps:.3g}.",
                icon=":material/gpp_bad:",
            )
        c1, c2, c3, c4 = st.columns(4)
        c1.metric("Claimed ε", f"{result.claimed_eps:.3g}", help=f"δ = {result.delta:g}; {result.achieved.describe()}")
        c2.metric(f"Lower bound ({100 * result.confidence:g}%)", f"{result.eps_lower_bound:.3g}",
                  delta=f"{result.eps_lower_bound - result.claimed_eps:+.3g} vs claim", delta_color="inverse",
                  help="max(0, log((TPR_lo − δ)/FPR_hi)) on the evaluation half.")
        c3.metric("TPR", f"{result.tpr:.3g}", help=f"Clopper–Pearson lower bound {result.tpr_lower:.3g}")
        c4.metric("FPR", f"{result.fpr:.3g}", help=f"Clopper–Pearson upper bound {result.fpr_upper:.3g}")
        teach("Compare the first two numbers: **Claimed ε** is the promise, the **lower bound** is what this test "
              "proves the true ε is at least. For a correct mechanism the bound stays below the claim; a bound "
              "above it shows, at the stated confidence, that the promise is false.")
        st.markdown(
            f"**How to read this.** D has n = {result.n} records in the public ball of radius {result.radius:g}; D′ "
            f"moves one of them to the far side, shifting the Fréchet mean by {result.mean_shift:.3g} (the public "
            f"sensitivity is Δ = {result.sensitivity:.3g}). The mechanism, calibrated to {result.target.describe()}, "
            f"released {result.n_releases} points under each dataset. On the first half we picked the event "
            f"S = {{{result.event}}}; on the other half {100 * result.tpr:.3g}% of the releases of "
            f"{'D' if result.positive == 'D' else 'D′'} and {100 * result.fpr:.3g}% of the other's fell in S. Any "
            f"(ε, δ)-DP mechanism has P(S | one) ≤ e^ε P(S | other) + δ, so ε ≥ log((TPR − δ)/FPR); with the "
            f"confidence bounds this gives **ε ≥ {result.eps_lower_bound:.3g}** (confidence {result.confidence:g}). "
            + ("That exceeds the claim: the guarantee is false for these settings."
               if refuted else
               "That is below the claim, as it must be for a valid guarantee — which the audit can never prove; "
               "a gap only means this test could not see more.")
        )
        left, right = st.columns(2)
        left.plotly_chart(audit_claim_figure(result), key="audit_claim_chart", width="stretch")
        right.plotly_chart(audit_statistic_figure(result), key="audit_statistic_chart", width="stretch")
        teach("Left: the claim against the audit's lower bound. Right: the test statistic of the releases under D and "
              "D′, with the event S shaded — the further apart the two histograms, the easier it is to tell the datasets "
              "apart.")
        with st.expander("Details: datasets, calibration, test"):
            for note in result.notes:
                st.markdown(f"- {readable(note)}")

    st.divider()
    st.subheader("Exact mechanisms and negative controls at these settings")
    st.caption(
        "The same datasets, target and number of releases (at most 4000) for every mechanism, beside negative "
        "controls — claims known to be false, which a useful audit must catch: the Riemannian Laplace run with "
        "less noise than it claims (half, or a quarter where the mean shift is well below the sensitivity), the "
        "exponential-wrapped mechanisms with their "
        "footpoint at the private mean (Hadamard spaces), KNG geodesic regression with its residual bound τ read "
        "from the data (beside the same regression with a public τ = r), and, on request, the conformal mechanism "
        "with its graph built on the data points. The two regression rows audit the released footpoint of a "
        "regression fit on their own neighbouring datasets (records near a geodesic, one moved far off it) with "
        f"{REGRESSION_RELEASES} releases per dataset, each a Metropolis chain (a few seconds)."
    )
    teach("Negative controls are mechanisms broken on purpose. An audit that does not refute them has no power at "
          "these settings: use more releases, or datasets whose means are far apart (small n).")
    include_slow = st.checkbox(
        "Include the data-point graph control (slow)", key="audit_include_slow",
        help=f"A fresh density sanitisation for every release: about 20 s for {SLOW_RELEASES} releases per dataset on "
             "S². With so few releases it is not refuted — not being refuted is not a guarantee.",
    )
    if st.button("Audit every mechanism", key="audit_all_button", icon=":material/checklist:"):
        st.session_state["audit_show_all"] = True
    if st.session_state.get("audit_show_all"):
        rows = None
        with errors_shown_here():  # the progress bar ("3 of 10 audits") right under the button, above the results
            rows = cached_audit_all(space, notion, float(eps), float(delta), int(n), float(radius),
                                    int(min(n_releases, 4000)), round(1.0 - confidence, 6), int(seed),
                                    bool(include_slow))
        if rows is not None:
            if any(r["status"] == "ok" for r in rows):
                st.plotly_chart(audit_comparison_figure(rows), key="audit_all_chart", width="stretch")
            table = pd.DataFrame([{
                "audited": r["name"],
                "kind": "exact mechanism" if r["role"] == "mechanism" and r["label"] == "exact" else (
                    "mechanism" if r["role"] == "mechanism" else "negative control"),
                "guarantee label": r["label"],
                "claimed ε": _number(r["claimed_eps"]), "lower bound": _number(r["eps_lower_bound"]),
                "verdict": _verdict(r),
                "note": readable(r["reason"] or ""),
            } for r in rows])
            st.dataframe(table, hide_index=True, width="stretch")
            missed = [r["name"] for r in rows if r["role"] == "negative control" and r["status"] == "ok"
                      and not r["refuted"]]
            if missed:
                st.caption("Not caught at these settings: " + "; ".join(missed) + ". A negative control is only "
                           "refuted where its flaw is large next to ε and to the confidence margin — e.g. the "
                           "data-dependent footpoint needs a large mean shift (try H² with n = 2, r = 2), the "
                           f"data-derived τ cannot show a bound much above 3 with {REGRESSION_RELEASES} releases "
                           "(a claim of ε ≥ 3 is out of its reach), and the data-point graph hides behind the "
                           "density sanitisation noise.")

