"""Placeholder: being built."""

import streamlit as st

st.title("regression")
st.info("This page is being built.")
