"""AppTest of the Explorer page: defaults, every manifold x mechanism, error paths."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from geodp_core.mechanisms import MECHANISM_NAMES

TIMEOUT = 120
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _explorer(query=None):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page("app_pages/explorer.py")
    return at


def _configure(at, config):
    """Set sidebar widgets in dependency order (manifold first: it changes the other controls)."""
    at.selectbox(key="manifold").set_value(config["manifold"]).run()
    at.number_input(key="dim").set_value(config["dim"]).run()
    if "metric" in config:
        at.selectbox(key="metric").set_value(config["metric"]).run()
    at.selectbox(key="data").set_value(config["data"])
    if "radius" in config:
        at.slider(key="radius").set_value(config["radius"])
    at.number_input(key="n").set_value(40)
    at.number_input(key="n_releases").set_value(20)
    at.multiselect(key="mechanisms").set_value(list(MECHANISM_NAMES))
    return at.run()


def _texts(at):
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [e.value for e in at.error]
    return "\n".join(str(p) for p in parts)


def test_defaults_run_without_exception():
    at = _explorer().run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Explorer"
    assert any("Riemannian Laplace" in m.value for m in at.markdown)
    labels = [m.label for m in at.metric]
    assert "Sensitivity Δ" in labels


CONFIGS = [
    dict(manifold="sphere", dim=2, data="vmf"),
    dict(manifold="sphere", dim=3, data="uniform_ball"),
    dict(manifold="hyperbolic", dim=2, data="uniform_ball", radius=1.0),
    dict(manifold="hyperbolic", dim=3, data="wrapped_normal", radius=1.0),
    dict(manifold="spd", dim=2, metric="affine", data="wishart", radius=1.0),
    dict(manifold="spd", dim=2, metric="log_euclidean", data="uniform_ball", radius=1.0),
    dict(manifold="spd", dim=3, metric="log_cholesky", data="wrapped_normal", radius=1.0),
    dict(manifold="euclidean", dim=3, data="wrapped_normal", radius=1.0),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['manifold']}{c['dim']}{c.get('metric', '')}")
def test_every_mechanism_on_every_manifold(config):
    """All mechanisms selected at once: each is either released or shown unavailable with its reason."""
    at = _configure(_explorer().run(), config)
    assert not at.exception, at.exception
    assert at.selectbox(key="manifold").value == config["manifold"]
    assert not at.error, [e.value for e in at.error]
    text = _texts(at)
    # every selected mechanism has a card with an honesty label or its reason — never silently dropped
    n_cards = sum(1 for m in at.markdown if m.value.startswith("**"))
    assert n_cards >= len(MECHANISM_NAMES)
    assert "exact guarantee" in text or "approximate sampler" in text
    if config["manifold"] == "sphere":
        assert "Hadamard" in text  # EW / Langevin unavailable on the sphere, with the reason


def test_widget_change_updates_target():
    at = _explorer().run()
    at.selectbox(key="notion").set_value("gdp").run()
    assert not at.exception
    assert any("GDP" in str(m.value) for m in at.metric)


def test_bad_url_parameter_gives_message_not_traceback():
    at = _explorer({"center_offset": "1,2,3,4,5"}).run()
    assert not at.exception
    assert at.error, "an invalid centre must produce an in-page error"
    assert "center_offset" in at.error[0].value
    # settings survive: the manifold is still the default and other widgets still exist
    assert at.selectbox(key="manifold").value == "sphere"


def test_radius_beyond_rstar_in_url_is_not_a_crash():
    at = _explorer({"radius": "2.5"}).run()
    assert not at.exception


def test_upload_bad_file_shows_error_and_keeps_settings():
    at = _explorer().run()
    at.slider(key="spread").set_value(0.4)
    at.selectbox(key="data").set_value("upload").run()
    assert any("Upload a file" in i.value for i in at.info)
    bad = b"lat,lon\n10,20\nabc,30\n"
    at.file_uploader(key="upload_file").set_value(("mine.csv", bad, "text/csv")).run()
    assert not at.exception
    assert at.error and "mine.csv" in at.error[0].value
    assert at.slider(key="spread").value == 0.4  # the user's settings survive


def test_upload_good_file_is_used():
    at = _explorer().run()
    at.selectbox(key="data").set_value("upload").run()
    good = b"lat,lon\n80,0\n85,90\n82,180\n88,-90\n84,45\n"
    at.file_uploader(key="upload_file").set_value(("cities.csv", good, "text/csv")).run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    assert any("5 points" in s.value for s in at.success)
    assert any(m.label == "Records n" and m.value == "5" for m in at.metric)


def test_scenario_json_download_matches_state():
    at = _configure(_explorer().run(), dict(manifold="hyperbolic", dim=2, data="uniform_ball", radius=1.0))
    assert not at.exception
    buttons = {b.label: b for b in at.get("download_button")}
    assert "Scenario JSON" in buttons
    markdown_text = _texts(at)
    assert "Exponential-wrapped" in markdown_text or "ew_laplace" in markdown_text
    assert {"Results CSV", "Python snippet", "Figure HTML"} <= set(buttons)


def test_preset_applies_its_scenario():
    at = _explorer().run()
    name = "Heat-diffusion paper: H², Langevin vs Brownian motion vs EW Gaussian (RDP)"
    at.selectbox(key="preset").set_value(name).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="manifold").value == "hyperbolic"
    assert at.selectbox(key="notion").value == "rdp"
    assert set(at.multiselect(key="mechanisms").value) == {"langevin", "brownian_motion", "ew_gaussian", "riemannian_laplace"}
    assert not at.error, [e.value for e in at.error]
    assert any("Langevin" in m.value for m in at.markdown)


def test_scenario_json_upload_restores_and_bad_json_is_reported():
    from geodp_core.scenario import Scenario

    at = _explorer().run()
    saved = Scenario(manifold="hyperbolic", dim=3, data="wrapped_normal", radius=1.5, notion="gdp", mu=2.0,
                     mechanisms=("ew_gaussian",), seed=11)
    at.file_uploader(key="scenario_file").set_value(("s.json", saved.to_json().encode(), "application/json")).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="manifold").value == "hyperbolic"
    assert at.number_input(key="dim").value == 3
    assert at.number_input(key="seed").value == 11
    at.file_uploader(key="scenario_file").set_value(("bad.json", b'{"manifold": "torus"}', "application/json")).run()
    assert not at.exception
    assert any("bad.json" in e.value and "manifold" in e.value for e in at.error)
    assert at.selectbox(key="manifold").value == "hyperbolic"  # settings survive a bad file


def test_scenario_json_outside_control_ranges_is_adjusted_not_a_crash():
    """A valid Scenario whose values exceed the sliders (spread 2.5, radius 5) loads with a notice."""
    from geodp_core.scenario import Scenario

    at = _explorer().run()
    saved = Scenario(manifold="hyperbolic", data="uniform_ball", spread=2.5, radius=5.0, notion="approx_dp",
                     eps=0.3, delta=4e-5)
    at.file_uploader(key="scenario_file").set_value(("wide.json", saved.to_json().encode(), "application/json")).run()
    assert not at.exception, at.exception
    assert at.slider(key="spread").value == 2.0
    assert at.slider(key="radius").value == 3.0
    notice = " ".join(e.value for e in at.error)
    assert "spread 2.5 → 2" in notice and "eps 0.3 → 0.2" in notice and "delta 4e-05 → 1e-05" in notice


def test_invalid_url_values_are_reported_and_ignored():
    at = _explorer({"manifold": "torus", "eps": "abc", "n": "1"}).run()
    assert not at.exception, at.exception
    warnings = " ".join(w.value for w in at.sidebar.warning)
    assert "manifold='torus'" in warnings and "eps='abc'" in warnings and "n='1'" in warnings
    assert at.selectbox(key="manifold").value == "sphere"  # ignored: the default is kept
    assert any(m.label == "Sensitivity Δ" for m in at.metric)  # the page still works


def test_spd_cone_is_drawn_on_request():
    """The 3D cone (slow to redraw without a graphics card) is behind a switch; switched on, it is drawn."""
    at = _explorer({"manifold": "spd", "data": "uniform_ball"})  # through app.py, which gives the page its URL
    at.run()
    assert not at.exception
    charts = len(at.get("plotly_chart"))
    at.toggle(key="explorer_show_cone").set_value(True).run()
    assert not at.exception and len(at.get("plotly_chart")) == charts + 1


def test_paper_scale_dimension_from_a_link_runs_and_explains_clipping():
    """S^1000 (the conformal paper's scale) from a URL: no exception, the tangent view and the distance histograms;
    vMF data wider than the ball get a note saying why (spread·√d)."""
    at = _explorer({"manifold": "Sphere Sᵈ", "dim": "1000", "spread": "0.25"}).run()
    assert not at.exception
    assert at.number_input(key="dim").value == 1000
    assert any("s·√d" in w.value for w in at.warning)
    at = _explorer({"manifold": "Sphere Sᵈ", "dim": "1000", "spread": "0.01"}).run()
    assert not at.exception and not any("s·√d" in w.value for w in at.warning)


def test_p_mean_exponent_from_a_link_drives_the_summary_and_its_theorem():
    at = _explorer({"p": "3"}).run()
    assert not at.exception
    assert at.number_input(key="p").value == 3.0
    delta = next(m for m in at.metric if m.label == "Sensitivity Δ")
    assert "Theorem 16" in delta.help and "p = 3" in delta.help  # the sphere: positive curvature, p > 2
    assert float(delta.value) > 1.0  # Δ ∝ n^(-1/2) at p = 3: far above the Fréchet mean's 0.102
    at = _explorer({"p": "0.5"}).run()  # out of range: a note, the default p = 2 kept
    assert not at.exception and at.number_input(key="p").value == 2.0


def test_kendall_shapes_from_the_selector_and_from_a_link():
    at = _explorer().run()
    at.selectbox(key="manifold").set_value("kendall").run()
    assert not at.exception
    assert at.number_input(key="dim").value == 12 and at.slider(key="radius").value < 0.3927  # k and r < π/8
    assert at.selectbox(key="data").value == "shape_perturbation"
    at = _explorer({"manifold": "Kendall shapes Σᵏ₂", "dim": "10", "data": "real: 650 cell outlines (geomstats), "
                    "resampled to k landmarks", "radius": "0.35"}).run()
    assert not at.exception and not at.error
    assert any("cell" in c.value for c in at.caption)


def test_links_with_manifold_labels_get_that_manifolds_ranges():
    """Older links hold labels ("SPD(m) matrices"): the radius and dimension ranges of a link are those of the labelled
    manifold (an SPD radius of 8 is kept; a Kendall link with k = 2 landmarks is refused beside the control)."""
    at = _explorer({"manifold": "SPD(m) matrices", "dim": "9", "radius": "8",
                    "data": "real: handwritten digits as 9×9 covariance descriptors (scikit-learn)"}).run()
    assert not at.exception and at.slider(key="radius").value == 8.0
    assert not any("radius" in w.value for w in at.warning)
    at = _explorer({"manifold": "Kendall shapes Σᵏ₂", "dim": "2"}).run()
    assert not at.exception and at.number_input(key="dim").value >= 3
    assert any("dim" in w.value and "3" in w.value for w in at.warning)


def test_curvature_texts_follow_the_manifold_on_kendall_shapes():
    """Kendall shapes are positively curved (κ ≤ 4, r* = π/8): the radius help, a link's radius note and the
    manifold-switch lesson say so (they used to treat every non-sphere as a Hadamard space)."""
    at = _explorer().run()
    at.selectbox(key="manifold").set_value("kendall").run()
    assert "r* = 0.393" in at.slider(key="radius").help and "Hadamard" not in at.slider(key="radius").help
    assert "Both spaces are positively curved" in "\n".join(i.value for i in at.sidebar.info)  # from the sphere
    at.selectbox(key="manifold").set_value("hyperbolic").run()
    assert "Here it is **smaller**" in "\n".join(i.value for i in at.sidebar.info)
    assert "any r > 0" in at.slider(key="radius").help
    at.selectbox(key="manifold").set_value("kendall").run()
    assert "Here it is **larger**" in "\n".join(i.value for i in at.sidebar.info)
    at = _explorer({"manifold": "Kendall shapes Σᵏ₂", "dim": "8", "radius": "0.5"}).run()
    assert not at.exception
    assert any("r* = 0.393" in w.value for w in at.warning)


def test_a_costly_link_is_refused_before_any_work():
    """``/explorer?dim=1000&n=20000`` took 35 s and 2 GB; the cost limit names n and the largest value."""
    at = _explorer({"dim": "1000", "n": "20000"}).run()
    assert not at.exception, at.exception
    errors = "\n".join(e.value for e in at.error)
    assert "the largest n allowed at dim = 1000" in errors
    assert not any(m.label == "Sensitivity Δ" for m in at.metric)  # nothing was computed


def test_the_budget_planner_answers_by_link_and_follows_the_target():
    """The Explorer's "what budget gives this error?" reads its inputs from a link and answers exactly (the
    planner's own round trip is tested in tests/test_planner.py); a tighter target needs a larger budget."""
    at = _explorer({"explorer_plan_error": "0.2", "explorer_plan_share": "95%", "n_releases": "20"})
    at.run()
    assert not at.exception
    assert at.number_input(key="explorer_plan_error").value == pytest.approx(0.2)
    answers = [m.value for m in at.markdown if " needs **" in m.value]
    assert answers and "within 0.2 rad for 95% of the releases" in answers[0]
    loose = float(answers[0].split("ε=")[1].split(",")[0])
    at.number_input(key="explorer_plan_error").set_value(0.05).run()
    tight = float([m.value for m in at.markdown if " needs **" in m.value][0].split("ε=")[1].split(",")[0])
    assert tight > loose
    assert any("The same question in dimension 2" in c.value for c in at.caption)
