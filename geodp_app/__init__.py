"""Streamlit-side helpers shared by the pages (widgets, caching, error display).

This package may import streamlit; ``geodp_core`` never does.
"""
