"""Home: what GeoDP Explorer is, who it is for, and where to start."""

import streamlit as st

from geodp_app.navigation import page_link
from geodp_app.pages import PAGES, this_page
from geodp_app.ui import LABEL_STYLE, honesty_badge, teach

PAGE = this_page(__file__)
_PAGE = {page.script: page for page in PAGES}

st.title("GeoDP Explorer")
st.markdown(
    "**Differential privacy for data that live on curved spaces** — directions and locations on the sphere, "
    "hierarchies in hyperbolic space, covariance matrices among SPD matrices. Pick a manifold, a dataset, a "
    "mechanism and a privacy budget, and see what the private release of a Fréchet mean looks like, how far it "
    "lands from the truth, and exactly which guarantee you get."
)

teach("**New here?** Start with the **Explorer**: its defaults release the mean of points on a sphere with three "
      "mechanisms at the same privacy target, so you can see which one lands closest to the truth. These blue boxes "
      "explain what to look at; switch *Teaching mode* off in the sidebar for a compact view.")

cols = st.columns(3)
page_link(cols[0], _PAGE["app_pages/explorer.py"], label="Explorer: one scenario, many releases")
page_link(cols[1], _PAGE["app_pages/utility_curves.py"], label="Utility curves: accuracy vs budget")
page_link(cols[2], _PAGE["app_pages/accounting.py"], label="Privacy accounting: convert guarantees")
cols = st.columns(3)
page_link(cols[0], _PAGE["app_pages/conformal_lab.py"], label="Conformal lab: density-aware noise")
page_link(cols[1], _PAGE["app_pages/regression.py"], label="Geodesic regression (KNG)")
page_link(cols[2], _PAGE["app_pages/learn.py"], label="Learn: one card per mechanism")
cols = st.columns(3)
page_link(cols[0], _PAGE["app_pages/audit.py"], label="Audit: test a privacy claim empirically")
page_link(cols[1], _PAGE["app_pages/reproduce.py"], label="Reproduce the papers' experiments")

st.subheader("Honest labels")
st.markdown(
    "Every release states its guarantee exactly. Public inputs — the ball that bounds the data, footpoints, "
    "anchors, bandwidths, meshes — never come from the private data; where a paper does that, we label it."
)
for label in LABEL_STYLE:
    st.markdown(f"- {honesty_badge(label)}")
teach("A privacy claim is only as good as its assumptions. A green badge means the guarantee is proved for exactly "
      "what the app runs; orange and red badges tell you where that is not the case, and why.")

st.subheader("Sources")
st.markdown(
    "- Reimherr, Bharath, Soto (2021): Riemannian Laplace mechanism.\n"
    "- Jiang et al. (NeurIPS 2023): Gaussian differential privacy on Riemannian manifolds.\n"
    "- Exponential-wrapped mechanisms on Hadamard manifolds (tangent Laplace/Gaussian at a public footpoint).\n"
    "- Chang, Jiang, Mostajeran, Hu: heat-diffusion (Brownian motion, Langevin) mechanisms for Rényi DP.\n"
    "- He, Tang, Rahimian, Joshi: density-aware conformal mechanisms.\n"
    "- Differentially private geodesic regression (K-norm gradient mechanism)."
)
st.caption("Everything shown is computed by the `geodp_core` Python package, usable without the app.")
