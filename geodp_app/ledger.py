"""The Privacy ledger page's calls into geodp_core: the ledger store, one recorded release."""

from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy.ledger import SQLiteLedgerStore


def ledger_store(path):
    """The SQLite ledger store at ``path`` (opened per run: the file is the shared state, not the session)."""
    return SQLiteLedgerStore(path)


def record_release(store, name, mechanism, result, target):
    """Calibrate ``mechanism`` to ``target`` at the scenario's public sensitivity and record it in ledger ``name``
    (checked and appended in one transaction); returns the release card."""
    calibration = get_mechanism(mechanism, result.manifold).calibrate(target, result.sensitivity)
    count = len(store.load(name))
    return store.record(name, calibration, result.manifold, label=f"release {count + 1}")
