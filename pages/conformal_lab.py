"""Placeholder: being built."""

import streamlit as st

st.title("conformal_lab")
st.info("This page is being built.")
