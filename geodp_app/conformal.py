"""Conformal lab: the cached entry point into :mod:`geodp_core.conformal_lab` (plain control values)."""

import streamlit as st

from geodp_app.cache import CACHE_TTL
from geodp_core.conformal_lab import DATA_KINDS, LabRun, run_conformal_lab

__all__ = ["DATA_KINDS", "LabRun", "cached_conformal_lab"]


@st.cache_data(show_spinner="Building the conformal metric and releasing…", max_entries=24, ttl=CACHE_TTL)
def cached_conformal_lab(space, data_kind, n, spread, ball_radius, eps_total, eps_phi, mesh_size, bandwidth, upsilon,
                         smoothing_time, laplacian, sampler, domain_radius, n_releases, seed):
    """:func:`run_conformal_lab`, cached on the plain control values."""
    return run_conformal_lab(space, data_kind, n, spread, ball_radius, eps_total, eps_phi, mesh_size, bandwidth,
                             upsilon, smoothing_time, laplacian, sampler, domain_radius, n_releases, seed)
