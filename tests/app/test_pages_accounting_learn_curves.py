"""AppTest of the Utility curves, Privacy accounting and Learn pages: defaults, widget changes, bad input."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from geodp_core.mechanisms import MECHANISM_NAMES

TIMEOUT = 90
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _page(path, query=None):
    # a first run registers the navigation, so switch_page finds a page whose URL path is not its
    # file name (utility_curves.py is /utility)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    if query:
        at.query_params.update(query)
    at.switch_page(path)
    return at


def _texts(at):
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [e.value for e in at.error]
    return "\n".join(str(p) for p in parts)


# ----------------------------------------------------------------------------- utility curves
def test_curves_default_run():
    at = _page("app_pages/utility_curves.py", {"curves_reps": "30", "curves_count": "2"}).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Utility curves"
    assert "ONE target for every mechanism" in _texts(at)
    assert len(at.get("plotly_chart")) == 1
    text = _texts(at)
    for title in ("Riemannian Laplace", "Riemannian Gaussian", "Brownian motion"):  # the default mechanisms
        assert title in text
    assert "exact guarantee" in text  # honesty badges per mechanism
    assert not at.error


def test_curves_widget_changes_and_sweeps():
    at = _page("app_pages/utility_curves.py", {"curves_reps": "20", "curves_count": "3"}).run()
    # selectboxes are set through the widgets (AppTest does not restore them from query parameters)
    at.multiselect(key="mechanisms").set_value(["riemannian_laplace", "brownian_motion"]).run()
    at.selectbox(key="notion").set_value("zcdp").run()
    assert not at.exception, at.exception
    assert "ρ-zCDP" in _texts(at)
    at.number_input(key="curves_reps").set_value(10).run()
    assert not at.exception
    for axis in ("n", "spread", "dim"):
        at.radio(key="curves_x").set_value(axis).run()
        assert not at.exception, (axis, at.exception)
        assert not at.error, (axis, [e.value for e in at.error])
        assert len(at.get("plotly_chart")) == 1


def test_curves_dimension_sweep_on_kendall_shapes_starts_at_three_landmarks():
    """The dimension axis offers the manifold's own range (Kendall shapes: k ≥ 3 landmarks)."""
    at = _page("app_pages/utility_curves.py", {"curves_reps": "10", "curves_count": "2"}).run()
    at.selectbox(key="manifold").set_value("kendall").run()
    at.multiselect(key="mechanisms").set_value(["riemannian_laplace"]).run()
    at.radio(key="curves_x").set_value("dim").run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    sweep = at.slider(key="curves_dim_range")
    assert sweep.label == "landmarks k range" and sweep.min == 3 and sweep.value == (3, 6)
    assert len(at.get("plotly_chart")) == 1


def test_curves_bad_grid_gives_message_not_traceback():
    at = _page("app_pages/utility_curves.py", {"curves_reps": "10", "curves_count": "2"}).run()
    at.number_input(key="curves_eps_min").set_value(50.0).run()
    assert not at.exception
    assert at.error and "high" in at.error[0].value
    assert at.radio(key="curves_x").value == "budget"  # settings survive
    assert at.number_input(key="curves_eps_min").value == 50.0


def test_curves_sweep_on_real_data_is_an_in_page_error():
    at = _page("app_pages/utility_curves.py", {"curves_reps": "10", "curves_count": "2"}).run()
    at.selectbox(key="data").set_value("cities").run()
    at.radio(key="curves_x").set_value("n").run()
    assert not at.exception
    assert at.error and "synthetic" in at.error[0].value


# ----------------------------------------------------------------------------- accounting
def test_accounting_default_and_every_notion():
    at = _page("app_pages/accounting.py").run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Privacy accounting"
    assert len(at.get("plotly_chart")) == 6  # profile, trade-off, mu vs sigma, heat, Langevin, p-mean sensitivity
    assert len(at.dataframe) >= 1
    assert ":green[verified]" in _texts(at) and "implies()" not in _texts(at)
    for notion in ("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"):
        at.selectbox(key="accounting_notion").set_value(notion).run()
        assert not at.exception, (notion, at.exception)
        assert not at.error, (notion, [e.value for e in at.error])
    conversions = at.dataframe[0].value
    assert {"to", "result", "status", "theorem", "verified"} <= set(conversions.columns)
    assert (conversions["status"] == "unavailable").any()  # zCDP implies no GDP / pure DP
    text = _texts(at)
    assert ":material/block: **μ-GDP**: unavailable — no valid conversion" in text
    assert "Canonne, Kamath & Steinke" in text


def test_accounting_bad_inputs_give_messages():
    at = _page("app_pages/accounting.py").run()
    at.number_input(key="accounting_eps").set_value(0.0).run()
    assert not at.exception
    assert any("eps" in e.value for e in at.error)
    at.number_input(key="accounting_eps").set_value(1.0).run()
    assert not at.error
    at.number_input(key="accounting_heat_eps").set_value(0.0).run()
    assert not at.exception and any("eps_target" in e.value for e in at.error)
    at.number_input(key="accounting_lang_lam_max").set_value(0.5).run()
    assert not at.exception and any("lam_max" in e.value for e in at.error)


def test_accounting_floor_message_and_gdp_controls():
    at = _page("app_pages/accounting.py").run()
    at.number_input(key="accounting_heat_eps").set_value(0.5).run()
    assert not at.exception
    heat = at.get("plotly_chart")[3]
    assert "privacy floor" in heat.proto.spec
    at.toggle(key="accounting_gdp_s2").set_value(False).run()
    assert not at.exception and len(at.get("plotly_chart")) == 6


# ----------------------------------------------------------------------------- learn
def test_learn_cards_and_glossary():
    at = _page("app_pages/learn.py").run()
    assert not at.exception, at.exception
    headers = [m.value for m in at.markdown if m.value.startswith("#### ")]
    assert len(headers) == len(MECHANISM_NAMES) + 1  # + KNG regression
    assert len(at.get("latex")) == len(headers)
    labels = [e.label for e in at.expander]
    for term in ("Fréchet mean", "Hadamard manifold", "Injectivity radius", "GDP", "RDP", "zCDP", "Honesty labels"):
        assert term in labels
    at.text_input(key="learn_filter").set_value("Hadamard").run()
    assert not at.exception
    assert 0 < len([m for m in at.markdown if m.value.startswith("#### ")]) < len(headers)
    at.text_input(key="learn_filter").set_value("no-such-word").run()
    assert not at.exception and len(at.info) == 2
