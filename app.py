"""GeoDP Explorer — Streamlit entry point: navigation only (pages live in app_pages/)."""

from pathlib import Path

import streamlit as st

from geodp_app.ui import teaching_toggle
from geodp_app.url_params import PAGE_OF_PATH, clean_url
from geodp_app.urlstate import write_url_values
from geodp_core.executors import warm_up_processes

st.set_page_config(page_title="GeoDP Explorer", page_icon=":material/public:", layout="wide")
st.logo(str(Path(__file__).parent / "assets" / "logo.svg"), size="large")

PAGES = {
    "Explore": [
        st.Page("app_pages/home.py", title="Home", icon=":material/home:", url_path="home", default=True),
        st.Page("app_pages/explorer.py", title="Explorer", icon=":material/public:", url_path="explorer"),
        st.Page("app_pages/utility_curves.py", title="Utility curves", icon=":material/show_chart:", url_path="utility"),
        st.Page("app_pages/conformal_lab.py", title="Conformal lab", icon=":material/map:", url_path="conformal"),
        st.Page("app_pages/regression.py", title="Geodesic regression", icon=":material/timeline:", url_path="regression"),
    ],
    "Understand": [
        st.Page("app_pages/accounting.py", title="Privacy accounting", icon=":material/calculate:", url_path="accounting"),
        st.Page("app_pages/ledger.py", title="Privacy ledger", icon=":material/receipt_long:", url_path="ledger"),
        st.Page("app_pages/audit.py", title="Audit", icon=":material/search:", url_path="audit"),
        st.Page("app_pages/reproduce.py", title="Reproduce the papers", icon=":material/description:", url_path="reproduce"),
        st.Page("app_pages/learn.py", title="Learn", icon=":material/school:", url_path="learn"),
    ],
}

warm_up_processes()  # curves, sweeps and audits run on every CPU; the workers start while the user reads
page = st.navigation(PAGES)
clean_url(PAGE_OF_PATH.get(page.url_path))  # before any widget reads the URL: bad values reported, never a crash
teaching_toggle()  # every page: explanation boxes on (default) or off, remembered in the URL
try:
    page.run()
finally:
    write_url_values()  # the codes of the choices shown (manifold=hyperbolic), in one URL update
