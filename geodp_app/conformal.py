"""Conformal lab: the cached entry point into :mod:`geodp_core.conformal_lab` (keyed by plain values)."""

import streamlit as st

from geodp_app.cache import CACHE_TTL
from geodp_core.conformal_lab import DATA_KINDS, LabRun, LabSettings, run_conformal_lab
from geodp_core.scenario import Scenario

__all__ = ["DATA_KINDS", "LabRun", "LabSettings", "cached_conformal_lab"]


@st.cache_data(show_spinner="Building the conformal metric and releasing…", max_entries=24, ttl=CACHE_TTL)
def cached_conformal_lab(scenario_json, settings_items):
    """:func:`run_conformal_lab` of a Scenario (as JSON) and the lab's settings (as sorted items)."""
    return run_conformal_lab(Scenario.from_json(scenario_json), LabSettings(**dict(settings_items)))
