"""Placeholder: being built."""

import streamlit as st

st.title("accounting")
st.info("This page is being built.")
