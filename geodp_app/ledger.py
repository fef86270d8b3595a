"""The Privacy ledger page's calls into geodp_core: the ledger store, one recorded release."""

import os
import re

from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy.ledger import SQLiteLedgerStore

_FILE_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,90}\.(sqlite3|db)")


def ledger_path_in(folder, file_name):
    """``folder/file_name`` for a plain file name ending in ``.sqlite3`` or ``.db``, else ``None``: a user of the app
    names a ledger file in the server's ledger folder, never a path elsewhere on the server."""
    if not isinstance(file_name, str) or not _FILE_NAME.fullmatch(file_name):
        return None
    return os.path.join(folder, file_name)


def ledger_store(path):
    """The SQLite ledger store at ``path`` (opened per run: the file is the shared state, not the session)."""
    return SQLiteLedgerStore(path)


def record_release(store, name, mechanism, result, target):
    """Calibrate ``mechanism`` to ``target`` at the scenario's public sensitivity and record it in ledger ``name``
    (checked and appended in one transaction); returns the release card."""
    calibration = get_mechanism(mechanism, result.manifold).calibrate(target, result.sensitivity)
    count = len(store.load(name))
    return store.record(name, calibration, result.manifold, label=f"release {count + 1}")
