"""Reproduce (placeholder until the reproductions issue lands)."""

import streamlit as st

st.title("Reproduce the papers")
st.info(
    "Coming with the reproductions issue: each source paper's headline experiment rerun with geodp_core's exact "
    "samplers and accounting, beside the paper's reported numbers. Already visible elsewhere: the GDP paper's μ-vs-σ "
    "figure (Privacy accounting page), computed by exact quadrature instead of Monte Carlo."
)
