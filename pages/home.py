"""Home page: what GeoDP Explorer is (placeholder until the explorer pages land)."""

import streamlit as st

st.title("GeoDP Explorer")
st.markdown(
    "Differential privacy for data on Riemannian manifolds — spheres, hyperbolic space and "
    "SPD matrices. The interactive pages arrive with the explorer issue; the computation "
    "package `geodp_core` is usable from Python today."
)
