"""GeoDP Explorer — Streamlit entry point: navigation only (pages live in pages/)."""

import streamlit as st

st.set_page_config(page_title="GeoDP Explorer", page_icon="🌐", layout="wide")

PAGES = {
    "Explore": [
        st.Page("pages/explorer.py", title="Explorer", icon="🌐", url_path="explorer", default=True),
        st.Page("pages/utility_curves.py", title="Utility curves", icon="📈", url_path="utility"),
        st.Page("pages/conformal_lab.py", title="Conformal lab", icon="🗺️", url_path="conformal"),
        st.Page("pages/regression.py", title="Geodesic regression", icon="〰️", url_path="regression"),
    ],
    "Understand": [
        st.Page("pages/accounting.py", title="Privacy accounting", icon="🧮", url_path="accounting"),
        st.Page("pages/audit.py", title="Audit", icon="🔍", url_path="audit"),
        st.Page("pages/reproduce.py", title="Reproduce the papers", icon="📄", url_path="reproduce"),
        st.Page("pages/learn.py", title="Learn", icon="🎓", url_path="learn"),
    ],
}

st.navigation(PAGES).run()
