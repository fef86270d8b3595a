"""GeoDP Explorer — Streamlit entry point (navigation only; pages live in pages/)."""

import streamlit as st

st.set_page_config(page_title="GeoDP Explorer", page_icon="🌐", layout="wide")

PAGES = [
    st.Page("pages/home.py", title="Home", icon="🏠", default=True, url_path="home"),
]

st.navigation(PAGES).run()
