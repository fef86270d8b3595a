"""GeoDP Explorer — Streamlit entry point: navigation and the URL of the view (pages live in app_pages/, declared
in geodp_app.pages)."""

from pathlib import Path

import streamlit as st

from geodp_app.navigation import sidebar_navigation
from geodp_app.pages import PAGE_OF_PATH, PAGES, home_alias
from geodp_app.ui import PageStopped, teaching_toggle
from geodp_app.url_params import clean_url, write_url
from geodp_core.executors import warm_up_processes

st.set_page_config(page_title="GeoDP Explorer", page_icon=":material/public:", layout="wide")
st.logo(str(Path(__file__).parent / "assets" / "logo.svg"), size="large")

#: Every page; the menu is drawn by the app (its links carry each page's URL), so Streamlit's own is hidden. The
#: default page is served at the root (which reserves no other path) and again at its own path (``/home``).
ALL_PAGES = [st.Page(p.script, title=p.title, icon=p.icon, url_path="" if p.default else p.url_path, default=p.default)
             for p in PAGES]
ALL_PAGES += [st.Page(alias.script, title=alias.title, icon=alias.icon, url_path=alias.url_path)
              for alias in home_alias()]

warm_up_processes()  # curves, sweeps and audits run on every CPU; the workers start while the user reads
page = st.navigation(ALL_PAGES, position="hidden")
menu = st.sidebar.container()  # filled after the page ran, when the links know the view each page will show
settings_key = PAGE_OF_PATH.get(page.url_path) or next(p.settings_key for p in PAGES if p.default)
clean_url(settings_key)  # before any widget reads the URL: bad values reported, never a crash
teaching_toggle()  # every page: explanation boxes on (default) or off, remembered in the URL
try:
    page.run()
except PageStopped:  # the page ended early (it said why); the URL and the menu are still written below
    pass
finally:
    write_url(settings_key)  # the view's URL (codes, non-default values), in one update when it changed
    sidebar_navigation(menu)
