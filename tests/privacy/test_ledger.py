"""The privacy ledger: filters, refusal, JSON round trip, release cards, SQLite storage and concurrent writers."""

import hashlib
import json
import math
import multiprocessing
import os
import sqlite3
import threading

import pytest

from geodp_core.exceptions import (
    BudgetExceededError,
    InvalidParameterError,
    LedgerStorageError,
    UnavailableError,
)
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PrivacyLedger,
    PureDP,
    SQLiteLedgerStore,
)
from geodp_core.privacy.conversions import eps_dp_to_gdp

S2 = get_manifold("sphere", 2)


@pytest.fixture(scope="module")
def gaussian_cal():
    return get_mechanism("riemannian_gaussian", S2).calibrate(GDP(0.2), 0.05)


@pytest.fixture(scope="module")
def laplace_cal():
    return get_mechanism("riemannian_laplace", S2).calibrate(PureDP(0.1), 0.05)


@pytest.fixture(scope="module")
def bm_cal():
    return get_mechanism("brownian_motion", S2).calibrate(ZCDP(0.01), 0.05)


def _digest(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


# ----------------------------------------------------------------------------------------------- the filter
def test_twelve_monthly_releases_fit_and_the_thirteenth_is_refused():
    ledger = PrivacyLedger(ApproxDP(1.0, 1e-6), name="clinic")
    assert ledger.filter == "gdp"
    per = ledger.per_release_budget(12)
    cal = get_mechanism("riemannian_gaussian", S2).calibrate(per, 0.05)
    for month in range(12):
        card = ledger.record(cal, S2, label=f"month {month + 1}")
    assert len(ledger) == 12 and card.fields["index"] == 11
    assert ledger.spent().values["mu"] ** 2 <= ledger.capacity.values["mu"] ** 2
    assert ledger.would_exceed(cal, S2)
    before = ledger.to_json()
    with pytest.raises(BudgetExceededError, match="refused") as info:
        ledger.record(cal, S2, label="month 13")
    assert info.value.param == "calibration"
    assert ledger.to_json() == before  # nothing recorded
    # the tight composition of the twelve releases meets the (ε, δ) total, with room to spare
    assert ledger.composition().epsilon(1e-6) <= 1.0


def test_filters_charge_in_their_notion(gaussian_cal, laplace_cal, bm_cal):
    pure = PrivacyLedger(PureDP(1.0))
    pure.record(laplace_cal, S2)
    assert pure.spent().values == {"eps": laplace_cal.native.eps}
    with pytest.raises(UnavailableError, match="not ε-DP"):
        pure.record(gaussian_cal, S2)
    gdp = PrivacyLedger(GDP(1.0))
    gdp.record(gaussian_cal, S2)
    gdp.record(laplace_cal, S2)
    expected = math.sqrt(gaussian_cal.native.mu**2 + float(eps_dp_to_gdp(laplace_cal.native.eps)) ** 2)
    assert gdp.spent().values["mu"] == pytest.approx(expected, rel=1e-12)
    assert gdp.remaining().values["mu"] == pytest.approx(math.sqrt(1.0 - expected**2), rel=1e-12)
    with pytest.raises(UnavailableError, match="zCDP"):
        gdp.record(bm_cal, S2)
    zcdp = PrivacyLedger(ZCDP(0.1))
    for cal in (gaussian_cal, laplace_cal, bm_cal):
        zcdp.record(cal, S2)
    assert zcdp.spent().values["rho"] == pytest.approx(
        gaussian_cal.native.mu**2 / 2 + laplace_cal.native.eps**2 / 2 + bm_cal.native.rho, rel=1e-12)
    rdp = PrivacyLedger(RDP(8.0, 1.0))
    rdp.record(bm_cal, S2)
    assert rdp.spent().values["eps"] == pytest.approx(8.0 * bm_cal.native.rho, rel=1e-12)
    basic = PrivacyLedger(ApproxDP(1.0, 1e-5), filter="basic")
    approx_cal = get_mechanism("riemannian_gaussian", S2).calibrate(ApproxDP(0.4, 2e-6), 0.05)
    basic.record(approx_cal, S2)
    basic.record(laplace_cal, S2)
    assert basic.spent().values["delta"] == pytest.approx(approx_cal.achieved.delta)
    with pytest.raises(InvalidParameterError, match="filter"):
        PrivacyLedger(GDP(1.0), filter="basic")
    with pytest.raises(InvalidParameterError, match="total"):
        PrivacyLedger(1.0)


def test_a_release_without_proved_guarantee_is_refused():
    spd = get_manifold("spd", 2)
    cal = get_mechanism("riemannian_gaussian", spd).calibrate(GDP(0.5), 0.1)
    ledger = PrivacyLedger(GDP(2.0))
    with pytest.raises(UnavailableError, match="no proved"):
        ledger.record(cal, spd)
    assert len(ledger) == 0


# --------------------------------------------------------------------------------------- JSON and the cards
def test_json_round_trip_and_tampering(gaussian_cal, laplace_cal):
    ledger = PrivacyLedger(ApproxDP(2.0, 1e-6), name="fleet headings")
    ledger.record(gaussian_cal, S2, label="hour 1")
    ledger.record(laplace_cal, S2, label="hour 2", audit="audited: ε lower bound 0.02 ≤ 0.1")
    again = PrivacyLedger.from_json(ledger.to_json())
    assert again.to_json() == ledger.to_json()
    assert again.spent() == ledger.spent() and again.remaining() == ledger.remaining()
    assert again.release_card(1).to_dict() == ledger.release_card(1).to_dict()
    data = json.loads(ledger.to_json())
    data["records"] = data["records"] * 40  # a tampered file whose records overrun the total
    with pytest.raises(LedgerStorageError, match="overrun"):
        PrivacyLedger.from_json(json.dumps(data))
    with pytest.raises(LedgerStorageError, match="JSON"):
        PrivacyLedger.from_json("{not json")
    with pytest.raises(LedgerStorageError, match="format"):
        PrivacyLedger.from_json(json.dumps({"format": "something else"}))


def test_release_card_states_inputs_theorem_calibration_and_composition(gaussian_cal):
    ledger = PrivacyLedger(ApproxDP(1.0, 1e-6), name="clinic")
    card = ledger.record(gaussian_cal, S2, label="Q1 mean")
    fields = card.to_dict()
    assert fields["label"] == "Q1 mean" and fields["audit"] == "not audited"
    assert fields["calibration"]["noise"]["sigma"] == gaussian_cal.noise["sigma"]
    assert "Smith & Thakurta" in fields["filter_theorem"]
    assert "exact privacy profile" in fields["accounting"]
    text = card.to_markdown()
    for fragment in ("# Release card — Q1 mean", "sensitivity Δ = 0.05", "## Composition state", "remaining",
                     "tight PLD composition"):
        assert fragment in text
    assert "**" not in card.to_text()
    # a card is shown to people: no internal references, no code names of mechanisms in its prose
    import re

    assert not re.search(r"SPEC|DESIGN|docs/derivations|\bissues?\b|#\d+\b", text)
    assert "riemannian_gaussian" not in text and "Riemannian Gaussian on S^2" in text


# ---------------------------------------------------------------------------------------------------- SQLite
def test_sqlite_store_persists_and_is_append_only(tmp_path, laplace_cal):
    path = tmp_path / "ledgers.sqlite3"
    store = SQLiteLedgerStore(path)
    store.create("owner", PureDP(0.35))
    for _ in range(3):
        store.record("owner", laplace_cal, S2)
    with pytest.raises(BudgetExceededError):
        store.record("owner", laplace_cal, S2)
    with pytest.raises(InvalidParameterError, match="already exists"):
        store.create("owner", PureDP(1.0))
    reopened = SQLiteLedgerStore(path)  # a restart
    ledger = reopened.load("owner")
    assert len(ledger) == 3 and ledger.spent().values["eps"] == pytest.approx(3 * laplace_cal.native.eps)
    assert reopened.names() == ["owner"]
    conn = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("DELETE FROM releases")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute("UPDATE releases SET record = '{}'")
    finally:
        conn.close()
    with pytest.raises(InvalidParameterError, match="no ledger named"):
        reopened.load("nobody")
    # a ledger loaded from the store writes through it, and sees what other writers committed
    bound = reopened.create("bound", PureDP(0.25))
    other = SQLiteLedgerStore(path).load("bound")
    other.record(laplace_cal, S2, label="first")
    card = bound.record(laplace_cal, S2, label="second")
    assert card.fields["index"] == 1 and len(bound) == 2
    with pytest.raises(BudgetExceededError):
        other.record(laplace_cal, S2)
    assert len(SQLiteLedgerStore(path).load("bound")) == 2


def test_corrupt_and_foreign_files_are_refused_and_left_untouched(tmp_path):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(os.urandom(4096))
    truncated = tmp_path / "truncated.sqlite3"
    truncated.write_bytes(b"SQLite format 3\x00" + os.urandom(200))
    foreign = tmp_path / "foreign.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE users (name TEXT)")
    conn.execute("INSERT INTO users VALUES ('alice')")
    conn.commit()
    conn.close()
    future = tmp_path / "future.sqlite3"
    SQLiteLedgerStore(future)
    conn = sqlite3.connect(future)
    conn.execute("UPDATE geodp_ledger_schema SET version = 99")
    conn.commit()
    conn.close()
    for path, fragment in ((garbage, "not an SQLite database"), (truncated, "could not be read"),
                           (foreign, "another application"), (future, "schema")):
        before = _digest(path)
        with pytest.raises(LedgerStorageError, match=fragment) as info:
            SQLiteLedgerStore(path)
        assert info.value.param == "path"
        assert _digest(path) == before


def _writer(path, name, calibration, attempts, queue):
    store = SQLiteLedgerStore(path)
    manifold = get_manifold("sphere", 2)
    ok = refused = 0
    for _ in range(attempts):
        try:
            store.record(name, calibration, manifold)
            ok += 1
        except BudgetExceededError:
            refused += 1
    queue.put((ok, refused))


@pytest.mark.slow
def test_concurrent_processes_never_overrun_or_lose_a_record(tmp_path, laplace_cal):
    path = str(tmp_path / "shared.sqlite3")
    store = SQLiteLedgerStore(path)
    store.create("shared", PureDP(1.0))
    capacity = math.floor(1.0 / laplace_cal.native.eps + 1e-9)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_writer, args=(path, "shared", laplace_cal, 5, queue)) for _ in range(4)]
    for w in workers:
        w.start()
    results = [queue.get(timeout=300) for _ in workers]
    for w in workers:
        w.join(timeout=60)
        assert w.exitcode == 0
    ledger = store.load("shared")
    assert sum(r[0] for r in results) == len(ledger) == capacity
    assert sum(r[1] for r in results) == 20 - capacity
    assert ledger.spent().values["eps"] <= 1.0


def test_concurrent_threads_never_overrun_or_lose_a_record(tmp_path, gaussian_cal):
    path = str(tmp_path / "threads.sqlite3")
    SQLiteLedgerStore(path).create("t", GDP(0.65))
    results = []

    def work():
        store = SQLiteLedgerStore(path)
        for _ in range(4):
            try:
                store.record("t", gaussian_cal, S2)
                results.append(True)
            except BudgetExceededError:
                results.append(False)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ledger = SQLiteLedgerStore(path).load("t")
    fit = math.floor((0.65 / gaussian_cal.native.mu) ** 2)
    assert sum(results) == len(ledger) == fit and len(results) == 24
    assert ledger.spent().values["mu"] <= 0.65
