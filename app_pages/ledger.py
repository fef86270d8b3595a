"""Privacy ledger: plan a series of releases at one total budget, record them in a ledger that refuses an overrun."""

import os

import pandas as pd
import streamlit as st

from geodp_app.cache import cached_plan, cached_run
from geodp_app.ledger import ledger_path_in, ledger_store, record_release
from geodp_app.pages import LEDGER_MECHANISMS, this_page
from geodp_app.sidebar import scenario_sidebar, upload_digest
from geodp_app.ui import errors_shown_here, stop_page, teach
from geodp_app.url_params import bounds
from geodp_app.urlstate import url_note
from geodp_core.constraints import EPS_GRID
from geodp_core.privacy import ApproxDP
from geodp_core.privacy.ledger import PrivacyLedger, default_ledger_path

PAGE = this_page(__file__)

st.title("Privacy ledger")
st.caption(
    "Publish the same private mean again and again — every month, every hour — at ONE total budget. Plan how much "
    "each release may spend under each way of counting, then record the releases in a ledger that refuses the "
    "release that would overrun the total. The ledger is stored on this server and survives restarts."
)

scenario, points, show_error = scenario_sidebar()
if scenario is None:
    st.info("Fix the highlighted control in the sidebar (your other settings are kept).")
    stop_page()
try:
    result = cached_run(scenario.to_json(), upload_digest(points), _points=points)
except Exception as exc:  # noqa: BLE001 - shown beside the control that caused it; settings are kept
    show_error(exc)
    stop_page()

st.subheader("1. Plan the series")
c1, c2, c3 = st.columns(3)
mechanism = c1.radio("Mechanism", list(LEDGER_MECHANISMS), format_func=LEDGER_MECHANISMS.get, key="ledger_mechanism", help="The mechanism every release of the series uses.")
url_note("ledger_mechanism", mechanism, c1)
total_eps = c2.select_slider("Total ε for the whole series", options=EPS_GRID, value=2.0, key="ledger_eps",
                             help="The privacy budget all the releases together may spend (δ = 1e-5).")
url_note("ledger_eps", total_eps, c2)
k = c3.number_input("Releases planned", **bounds("ledger_k"), value=12, step=1, key="ledger_k",
                    help="How many times the mean will be published (e.g. 12 monthly means).")
url_note("ledger_k", k, c3)
total = ApproxDP(float(total_eps), 1e-5)

plan = None
with errors_shown_here():
    plan = cached_plan(mechanism, scenario.to_json(), float(result.sensitivity), float(total_eps), 1e-5, int(k))
if plan is not None:
    short = {"basic": "basic composition", "gdp": "GDP (the ledger's filter)", "tight": "tight, fixed plan"}
    table = pd.DataFrame([{
        "counting": short.get(row.accountant, row.accountant),
        "per release": row.per_release.describe(),
        "noise scale σ": f"{row.scale:.4g}",
        "expected error (rad)": f"{row.expected_error:.4g}",
    } for row in plan])
    st.dataframe(table, hide_index=True, width="stretch")
    st.caption(" · ".join(row.explanation for row in plan))
    teach(f"On {result.manifold.symbol} with sensitivity Δ = {result.sensitivity:.4g}: basic composition splits "
          "ε and δ evenly and wastes most of the budget; GDP composition (what the ledger below enforces, valid even "
          "when later releases are chosen after seeing earlier ones) and tight composition of a fixed plan give "
          "each release far more. The expected error is the mean geodesic distance of a release from the true "
          "mean, from the exact law of the noise.")

st.subheader("2. Record releases")
folder, default_file = os.path.split(default_ledger_path())
file_name = st.text_input("Ledger file", value=default_file, key="ledger_file", max_chars=100,
                          help=f"An SQLite database in the server's ledger folder ({folder}); every browser session of "
                               "this server sees the same ledgers.")
path = ledger_path_in(folder, file_name)
name = st.text_input("Ledger name", value="monthly means", key="ledger_name", max_chars=200)
store = None
with errors_shown_here():
    store = ledger_store(path) if path is not None else None
if path is None:
    st.error("The ledger file must be a plain file name ending in .sqlite3 or .db (letters, digits, '-', '_', '.'), "
             f"kept in the server's ledger folder; got {file_name!r}.")
if store is None:
    stop_page()

if name not in store.names():
    st.info(f"No ledger named {name!r} in this file yet: create it with the total above "
            f"({total.describe()}), enforced by a GDP filter.")
    if st.button("Create the ledger", key="ledger_create"):
        with errors_shown_here():
            store.create(name, total)
            st.rerun()
    stop_page()

ledger = store.load(name)
left, right = st.columns(2)
left.metric("Releases recorded", len(ledger))
left.metric("Total", ledger.total.describe())
left.metric("Remaining", ledger.remaining().describe())
share = PrivacyLedger(ledger.total, ledger.filter).per_release_budget(int(k))
right.markdown(f"**Next release:** {LEDGER_MECHANISMS[mechanism]} at {share.describe()} — the total split equally over "
               f"the {int(k)} planned releases; the ledger refuses a release once the total would be overrun.")
if right.button("Record the next release", type="primary", key="ledger_record"):
    with errors_shown_here(right):
        card = record_release(store, name, mechanism, result, share)
        st.session_state["ledger_last_card"] = card.to_markdown()
        st.rerun()
last = st.session_state.get("ledger_last_card")
if last:
    right.download_button("Download the last release card", last, file_name="release_card.md", mime="text/markdown",
                          key="ledger_card_download")

if len(ledger):
    st.dataframe(pd.DataFrame([{
        "#": i + 1, "label": record["label"], "noise": ", ".join(f"{k} = {v:.4g}" for k, v in
                                                                record["calibration"]["noise"].items()
                                                                if isinstance(v, (int, float))),
        "charged": ", ".join(f"{k} = {v:.4g}" for k, v in record["cost"].items()), "time (UTC)": record["time"],
    } for i, record in enumerate(ledger.records)]), hide_index=True, width="stretch")
