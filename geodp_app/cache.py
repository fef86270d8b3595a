"""Cached entry points into geodp_core, keyed by plain values (Scenario JSON, an upload's hash).

Every cache is bounded (``max_entries``) and expires (``ttl``): results may be computed from private
uploads, which must not stay in server memory indefinitely. The Explorer's results are also bounded in bytes:
a scenario's public bound (:meth:`~geodp_core.scenario.Scenario.result_bytes_bound`, from the cost limits declared
in :mod:`geodp_core.constraints`) sends it to a cache of 32 small results or to one of a few large ones, so the
two together never hold more than :data:`~geodp_core.constraints.MAX_CACHED_BYTES`.
"""

import streamlit as st

from geodp_core.constraints import MAX_CACHED_BYTES, MAX_RESULT_BYTES, SMALL_RESULT_BYTES
from geodp_core.curvature_lesson import curvature_lesson
from geodp_core.explorer import run_scenario
from geodp_core.scenario import Scenario

#: Lifetime of every cached result in the app (seconds).
CACHE_TTL = 3600
#: Entries of the cache of small results (each at most SMALL_RESULT_BYTES).
SMALL_ENTRIES = 32
#: Entries of the cache of large results (each at most MAX_RESULT_BYTES), what the byte budget leaves.
LARGE_ENTRIES = max(1, (MAX_CACHED_BYTES - SMALL_ENTRIES * SMALL_RESULT_BYTES) // MAX_RESULT_BYTES)


def _run(scenario_json, points):
    return run_scenario(Scenario.from_json(scenario_json), points=points)


@st.cache_data(show_spinner="Computing releases…", max_entries=SMALL_ENTRIES, ttl=CACHE_TTL)
def _cached_small_run(scenario_json, upload_digest=None, _points=None):
    return _run(scenario_json, _points)


@st.cache_data(show_spinner="Computing releases…", max_entries=LARGE_ENTRIES, ttl=CACHE_TTL)
def _cached_large_run(scenario_json, upload_digest=None, _points=None):
    return _run(scenario_json, _points)


def cache_for(scenario):
    """The cache a scenario's result goes to, from its public byte bound: ``"small"`` or ``"large"``."""
    return "small" if scenario.result_bytes_bound() <= SMALL_RESULT_BYTES else "large"


def cached_run(scenario_json, upload_digest=None, _points=None):
    """Run a scenario; ``_points`` are the uploaded points (not hashed), identified by ``upload_digest``."""
    small = cache_for(Scenario.from_json(scenario_json)) == "small"
    run = _cached_small_run if small else _cached_large_run
    return run(scenario_json, upload_digest, _points=_points)


@st.cache_data(show_spinner="Comparing sphere, flat and hyperbolic space…", max_entries=32, ttl=CACHE_TTL)
def cached_curvature_lesson(scenario_json):
    """The curvature lesson of a scenario (synthetic data only: nothing private is used)."""
    return curvature_lesson(Scenario.from_json(scenario_json))
