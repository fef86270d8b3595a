"""GeoDP Explorer — Streamlit entry point: navigation only (pages live in app_pages/, declared in geodp_app.pages)."""

from pathlib import Path

import streamlit as st

from geodp_app.pages import PAGES, SECTIONS
from geodp_app.ui import teaching_toggle
from geodp_app.url_params import PAGE_OF_PATH, clean_url
from geodp_app.urlstate import write_url_values
from geodp_core.executors import warm_up_processes

st.set_page_config(page_title="GeoDP Explorer", page_icon=":material/public:", layout="wide")
st.logo(str(Path(__file__).parent / "assets" / "logo.svg"), size="large")

NAVIGATION = {
    section: [st.Page(p.script, title=p.title, icon=p.icon, url_path=p.url_path, default=p.default)
              for p in PAGES if p.section == section]
    for section in SECTIONS
}

warm_up_processes()  # curves, sweeps and audits run on every CPU; the workers start while the user reads
page = st.navigation(NAVIGATION)
clean_url(PAGE_OF_PATH.get(page.url_path))  # before any widget reads the URL: bad values reported, never a crash
teaching_toggle()  # every page: explanation boxes on (default) or off, remembered in the URL
try:
    page.run()
finally:
    write_url_values()  # the codes of the choices shown (manifold=hyperbolic), in one URL update
