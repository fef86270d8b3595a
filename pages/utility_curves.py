"""Placeholder: being built."""

import streamlit as st

st.title("utility_curves")
st.info("This page is being built.")
