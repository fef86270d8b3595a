"""Cached entry points into geodp_core, keyed by plain values (Scenario JSON, bytes)."""

import numpy as np
import streamlit as st

from geodp_core.explorer import run_scenario
from geodp_core.scenario import Scenario


@st.cache_data(show_spinner="Computing releases…", max_entries=64)
def cached_run(scenario_json, upload=None):
    """Run a scenario; ``upload`` is ``(shape, float64 bytes)`` of the uploaded points, or None."""
    return run_scenario(Scenario.from_json(scenario_json), points=points_from_key(upload))


def points_from_key(upload):
    """Inverse of :func:`upload_key` (``None`` stays ``None``)."""
    if upload is None:
        return None
    shape, raw = upload
    return np.frombuffer(raw, dtype=np.float64).reshape(shape)


def upload_key(points):
    """Hashable ``(shape, bytes)`` form of uploaded points for the cache."""
    if points is None:
        return None
    arr = np.ascontiguousarray(points, dtype=np.float64)
    return arr.shape, arr.tobytes()
