"""Audit (placeholder until the empirical-audit issue lands)."""

import streamlit as st

st.title("Empirical privacy audit")
st.info(
    "Coming with the audit issue: neighbouring datasets with a maximal mean shift, many releases under D and D′, "
    "a distinguishing test and a Clopper–Pearson lower bound on ε, shown beside each mechanism's claimed ε — "
    "including the labelled non-DP variants (data-dependent footpoint, data-derived τ, data-point graph), where "
    "the bound visibly exceeds the claim."
)
