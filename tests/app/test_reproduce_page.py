"""AppTest of the Reproduce page: one generic body driven by the registry of reproductions.

Every registered id renders its controls and its claim at its quick size; the three fastest ids (by the measured
timings table) also run and show a verdict, each clause's outcome, a figure or table, the downloads and the
progress; an id registered in a test appears on the page with no page edit; the page's URL keys carry codes and a
link with them loads the same controls.
"""

from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from geodp_core.studies.reproductions import REPRODUCTIONS, Reproduction, paper_code
from geodp_core.studies.reproductions.spec import Clause, reproduction
from geodp_core.studies.reproductions.timings import SECONDS

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 180


def _open(query):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.query_params.update(query)
    return at.switch_page("app_pages/reproduce.py").run()


def _texts(at):
    return "\n".join(str(m.value) for m in at.markdown)


def _query(id_, size="quick", **extra):
    return dict(reproduce_paper=paper_code(REPRODUCTIONS[id_].paper), reproduce_id=id_, reproduce_size=size, **extra)


#: The three fastest ids at their quick size (one panel), from the measured timings table.
FASTEST = tuple(sorted((k for k in REPRODUCTIONS if SECONDS.get(k, {}).get("quick") is not None),
                       key=lambda k: SECONDS[k]["quick"])[:3])


@pytest.mark.parametrize("id_", list(REPRODUCTIONS))
def test_every_id_renders_its_controls_and_claim(id_):
    spec = REPRODUCTIONS[id_]
    at = _open(_query(id_))
    assert not at.exception, at.exception
    assert not at.error and not at.warning
    assert at.selectbox(key="reproduce_id").value == id_
    assert at.radio(key="reproduce_size").value == "quick"
    assert f"{spec.figure} — {spec.description}" in at.selectbox(key="reproduce_id").options  # in words
    text = _texts(at)
    for clause in spec.claim:
        assert clause.text in text
    if spec.panels:
        assert len(at.selectbox(key="reproduce_panel").options) == len(spec.panels) + 1  # each, and "all"
    assert any(c.value.startswith("Time:") for c in at.caption)


def test_the_three_fastest_are_measured():
    assert len(FASTEST) == 3


@pytest.mark.parametrize("id_", FASTEST)
def test_the_fastest_ids_run_and_show_the_generic_card(id_):
    spec = REPRODUCTIONS[id_]
    at = _open(_query(id_))
    at.button(key="reproduce_run").click().run()
    assert not at.exception, at.exception
    assert not at.error
    text = _texts(at)
    assert "**Verdict**" in text and "smoke run" in text
    outcomes = [m.value for m in at.markdown if m.value.startswith("- :") and "**" in m.value]
    assert len(outcomes) == len(spec.claim)  # one line per clause, its outcome in words
    assert at.get("plotly_chart") or at.dataframe
    assert len(at.get("download_button")) == 2  # CSV and offline HTML
    progress = [p.proto.text for p in at.get("progress")]
    assert progress and progress[0].endswith("panels done")


def test_a_registered_id_appears_on_the_page_with_no_page_edit():
    calls = []

    def tiny(budget=1.0, seed=0):
        calls.append((budget, seed))
        table = pd.DataFrame(dict(title=["toy mechanism"], budget=[budget], mean=[0.5], se=[0.01]))
        return Reproduction(key="toy_only_in_a_test", paper="A toy paper (tests)", source="", setup="A toy setup.",
                            claims=(), table=table, numbers=dict(mean=0.5))

    claim = (Clause("the toy mean is below one", lambda n: n["mean"] < 1.0),)
    reproduction("toy_test_id", paper="A toy paper (tests)", figure="Toy figure 9", space="nowhere", claim=claim,
                 description="a toy id registered by a test", quick=dict(budget=2.0),
                 panels=(dict(budget=1.0), dict(budget=3.0)))(tiny)
    try:
        at = _open(_query("toy_test_id", reproduce_panel="all"))
        assert not at.exception, at.exception
        assert at.selectbox(key="reproduce_paper").value == "a-toy-paper"
        assert at.selectbox(key="reproduce_id").value == "toy_test_id"
        assert at.selectbox(key="reproduce_panel").value == "all"
        assert "the toy mean is below one" in _texts(at)
        at.button(key="reproduce_run").click().run()
        assert not at.exception, at.exception
        assert not at.error, [e.value for e in at.error]
        assert sorted(calls) == [(1.0, 0), (3.0, 0)]  # each panel once, in turn
        assert [p.proto.text for p in at.get("progress")] == ["2 of 2 panels done"]
        text = _texts(at)
        assert "Verdict of the figure over 2 panels" in text and ":green[**holds**]" in text
    finally:
        REPRODUCTIONS.pop("toy_test_id", None)


def test_url_round_trip_of_the_page_keys():
    at = _open({})
    assert not at.exception, at.exception
    at.selectbox(key="reproduce_paper").set_value(paper_code(REPRODUCTIONS["heat_hyperbolic"].paper)).run()
    at.selectbox(key="reproduce_id").set_value("heat_hyperbolic").run()
    at.selectbox(key="reproduce_panel").set_value("scenario2-n100").run()
    at.radio(key="reproduce_size").set_value("full").run()
    assert not at.exception, at.exception
    # the coded choices write codes (the seed is a number control bound to the URL by Streamlit itself)
    written = {k: at.query_params[k] for k in ("reproduce_paper", "reproduce_id", "reproduce_panel", "reproduce_size")}
    assert written == dict(reproduce_paper="geometric-renyi-dp", reproduce_id="heat_hyperbolic",
                           reproduce_panel="scenario2-n100", reproduce_size="full")
    again = _open(dict(written, reproduce_seed="7"))  # the link, opened in a new session
    assert not again.exception, again.exception
    assert again.selectbox(key="reproduce_id").value == "heat_hyperbolic"
    assert again.selectbox(key="reproduce_panel").value == "scenario2-n100"
    assert again.radio(key="reproduce_size").value == "full"
    assert again.number_input(key="reproduce_seed").value == 7
    again.selectbox(key="reproduce_id").set_value("heat_sphere").run()  # another figure: its own first panel,
    assert not again.exception, again.exception
    assert again.selectbox(key="reproduce_panel").value == "n10" and not again.warning  # no complaint
    assert again.query_params["reproduce_panel"] == "n10"


def test_a_link_with_a_size_in_words_loads_and_a_bad_panel_is_reported():
    at = _open(_query("heat_sphere", size="the papers' counts", reproduce_panel="n999"))
    assert not at.exception, at.exception
    assert at.radio(key="reproduce_size").value == "full"
    assert at.selectbox(key="reproduce_panel").value == "n10"  # the first panel
    assert any("n999" in w.value for w in at.warning)
    bad = _open({"reproduce_id": "no_such_id"})
    assert not bad.exception, bad.exception
    assert bad.selectbox(key="reproduce_id").value in REPRODUCTIONS
    assert any("no_such_id" in w.value for w in bad.warning)
