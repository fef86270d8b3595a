"""The Privacy ledger page's calls into geodp_core: a cached plan, the ledger store, one recorded release."""

import streamlit as st

from geodp_app.cache import CACHE_TTL
from geodp_core.mechanisms import get_mechanism
from geodp_core.planner import plan_series
from geodp_core.privacy import ApproxDP
from geodp_core.privacy.ledger import SQLiteLedgerStore
from geodp_core.scenario import Scenario


@st.cache_data(show_spinner="Planning the series (composing privacy-loss distributions)…", max_entries=32,
               ttl=CACHE_TTL)
def cached_plan(mechanism, scenario_json, sensitivity, eps, delta, k):
    """:func:`~geodp_core.planner.plan_series` on the scenario's space (public inputs only: Δ is public)."""
    manifold = Scenario.from_json(scenario_json).build_manifold()
    return plan_series(mechanism, manifold, sensitivity, ApproxDP(eps, delta), k)


def ledger_store(path):
    """The SQLite ledger store at ``path`` (opened per run: the file is the shared state, not the session)."""
    return SQLiteLedgerStore(path)


def record_release(store, name, mechanism, result, target):
    """Calibrate ``mechanism`` to ``target`` at the scenario's public sensitivity and record it in ledger ``name``
    (checked and appended in one transaction); returns the release card."""
    calibration = get_mechanism(mechanism, result.manifold).calibrate(target, result.sensitivity)
    count = len(store.load(name))
    return store.record(name, calibration, result.manifold, label=f"release {count + 1}")
