"""Cached entry points into geodp_core, keyed by plain values (Scenario JSON, an upload's hash).

Every cache is bounded (``max_entries``) and expires (``ttl``): results may be computed from private
uploads, which must not stay in server memory indefinitely.
"""

import streamlit as st

from geodp_core.curvature_lesson import curvature_lesson
from geodp_core.explorer import run_scenario
from geodp_core.scenario import Scenario

#: Lifetime of every cached result in the app (seconds).
CACHE_TTL = 3600


@st.cache_data(show_spinner="Computing releases…", max_entries=32, ttl=CACHE_TTL)
def cached_run(scenario_json, upload_digest=None, _points=None):
    """Run a scenario; ``_points`` are the uploaded points (not hashed), identified by ``upload_digest``."""
    return run_scenario(Scenario.from_json(scenario_json), points=_points)


@st.cache_data(show_spinner="Comparing sphere, flat and hyperbolic space…", max_entries=32, ttl=CACHE_TTL)
def cached_curvature_lesson(scenario_json):
    """The curvature lesson of a scenario (synthetic data only: nothing private is used)."""
    return curvature_lesson(Scenario.from_json(scenario_json))


