"""AppTest of the URL state: choices travel as codes, labels in links still load, bad values never reach a widget.

The app writes ``manifold=hyperbolic`` (not the label "Hyperbolic Hᵈ"), accepts the label a person typed (and
older links) as an alias, removes or moves onto the grid every bad value before any widget reads it — with a
message beside the control — and keeps a link's values when the user opens another page.
"""

from pathlib import Path

from streamlit.testing.v1 import AppTest

TIMEOUT = 120
APP = str(Path(__file__).resolve().parents[2] / "app.py")
CHEAP = {"n": "40", "n_releases": "5"}


def _open(page, query=None):
    # a first run registers the navigation, so switch_page finds a page whose URL path is not its
    # file name (utility_curves.py is /utility)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.query_params.update(dict(CHEAP, **(query or {})))
    return at.switch_page(f"app_pages/{page}.py").run()


def test_a_link_with_labels_loads_and_the_url_then_holds_codes():
    at = _open("explorer", {"manifold": "Hyperbolic Hᵈ", "dim": "3", "notion": "ε-DP", "data": "wrapped normal",
                            "mechanisms": ["Riemannian Laplace", "Exponential-wrapped Laplace"]})
    assert not at.exception, at.exception
    assert at.selectbox(key="manifold").value == "hyperbolic" and at.number_input(key="dim").value == 3
    assert at.selectbox(key="notion").value == "pure_dp" and at.selectbox(key="data").value == "wrapped_normal"
    assert at.multiselect(key="mechanisms").value == ["riemannian_laplace", "ew_laplace"]
    assert at.query_params["manifold"] == "hyperbolic" and at.query_params["notion"] == "pure_dp"
    assert at.query_params["data"] == "wrapped_normal"
    assert at.query_params["mechanisms"] == ["riemannian_laplace", "ew_laplace"]
    assert not at.sidebar.warning  # a label is a valid spelling: respelled silently
    shown = [o for o in at.selectbox(key="manifold").options]
    assert "Hyperbolic Hᵈ" in shown and "hyperbolic" not in shown  # the control still shows labels


def test_a_choice_writes_its_code_and_a_fresh_page_keeps_a_clean_url():
    at = _open("explorer")
    assert not at.exception, at.exception
    assert set(at.query_params) == set(CHEAP)  # defaults are not written
    at.selectbox(key="manifold").set_value("spd").run()
    at.selectbox(key="metric").set_value("log_cholesky").run()
    at.selectbox(key="notion").set_value("gdp").run()
    at.multiselect(key="mechanisms").set_value(["riemannian_gaussian"]).run()
    assert not at.exception, at.exception
    assert at.query_params["manifold"] == "spd" and at.query_params["metric"] == "log_cholesky"
    assert at.query_params["notion"] == "gdp" and at.query_params["mechanisms"] == "riemannian_gaussian"


def test_a_url_changed_outside_the_app_wins_back_restores_the_default():
    """Back or Forward hand the app another URL: the coded choices follow it, a missing one returns to its
    default (as Streamlit does for the controls it binds)."""
    at = _open("explorer")
    at.selectbox(key="manifold").set_value("hyperbolic").run()
    assert at.query_params["manifold"] == "hyperbolic"
    at.query_params.pop("manifold")  # the history entry before the change
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="manifold").value == "sphere" and "manifold" not in at.query_params
    at.query_params["manifold"] = "euclidean"  # a later entry
    at.run()
    assert at.selectbox(key="manifold").value == "euclidean"


def test_bad_values_are_removed_or_moved_onto_the_grid_before_any_widget_reads_them():
    at = _open("explorer", {"dim": "1e309", "n": "inf", "eps": "0.33", "manifold": "torus", "notion": "gdp",
                            "mechanisms": ["riemannian_laplace", "no_such_mechanism"]})
    assert not at.exception, at.exception
    notes = " ".join(w.value for w in at.sidebar.warning)
    for key in ("dim=", "n=", "manifold=", "mechanisms="):
        assert f"URL parameter {key}" in notes, (key, notes)
    assert "eps" not in at.query_params or at.query_params["eps"] == "0.2"  # gdp: the ε slider is not shown
    assert "dim" not in at.query_params and "n" not in at.query_params and "manifold" not in at.query_params
    assert at.query_params["mechanisms"] == "riemannian_laplace" and at.query_params["notion"] == "gdp"
    assert at.number_input(key="dim").value == 2 and at.selectbox(key="manifold").value == "sphere"
    at = _open("explorer", {"eps": "0.33", "notion": "pure_dp"})
    assert at.select_slider(key="eps").value == 0.2 and at.query_params["eps"] == "0.2"
    assert any("using 0.2" in w.value for w in at.sidebar.warning)


def test_a_range_that_depends_on_another_value_is_that_of_the_link():
    at = _open("explorer", {"manifold": "spd", "dim": "20"})
    assert not at.exception, at.exception
    assert at.number_input(key="dim").value == 2 and "dim" not in at.query_params
    assert any("SPD matrices: m from 2 to 11" in w.value for w in at.sidebar.warning)


def test_a_links_values_survive_a_visit_to_another_page():
    at = _open("explorer", {"manifold": "hyperbolic", "n": "77", "notion": "pure_dp"})
    for page in ("learn", "utility_curves"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, (page, at.exception)
    assert at.query_params["manifold"] == "hyperbolic" and at.query_params["n"] == "77"
    assert at.selectbox(key="manifold").value == "hyperbolic" and at.number_input(key="n").value == 77
    assert at.selectbox(key="notion").value == "pure_dp"
