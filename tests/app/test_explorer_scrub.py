"""AppTest of the Explorer's budget scrub switch: off by default; switched on, the scene carries one frame per budget
and the page says, in words, that the frames are a teaching view and which mechanisms are not in them."""

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from geodp_core.constraints import EPS_GRID

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "explorer.py")
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _scene_spec(at):
    chart = next(c for c in at.get("plotly_chart") if "explorer_scene" in str(c.proto.id))
    return json.loads(chart.proto.spec)


def _captions(at):
    """The captions this switch adds (the frames' explanation and what is left out of them)."""
    return "\n".join(str(c.value) for c in at.caption
                     if str(c.value).startswith(("**Scrubbing the budget", "Not in the budget frames")))


def test_scrub_switch_adds_budget_frames_and_says_what_they_are():
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.query_params["n_releases"] = "40"
    at.run()
    assert not at.exception
    assert "frames" not in _scene_spec(at) or not _scene_spec(at)["frames"]
    at.toggle(key="explorer_scrub").set_value(True).run()
    assert not at.exception
    spec = _scene_spec(at)
    assert len(spec["frames"]) == len(EPS_GRID)
    slider = spec["layout"]["sliders"][0]
    assert slider["active"] == EPS_GRID.index(1.0) and "ε" in slider["currentvalue"]["prefix"]
    text = _captions(at)
    assert "Scrubbing the budget" in text and "teaching view" in text and "ONE budget" in text
    assert "Brownian motion" in text and "only at the sidebar's ε = 1" in text  # the one mechanism left out
    for code_name in ("sigma", "riemannian_laplace", "brownian_motion", "budget_frames", "coupling_reason"):
        assert code_name not in text


def test_a_space_without_coupled_releases_says_so():
    at = AppTest.from_file(APP, default_timeout=180)  # through app.py, which gives the page its URL
    at.query_params.update({"manifold": "spd", "data": "uniform_ball", "n_releases": "20"})
    at.switch_page("app_pages/explorer.py")
    at.run()
    at.toggle(key="explorer_scrub").set_value(True).run()
    assert not at.exception
    assert not _scene_spec(at).get("frames")
    assert "has no budget slider here" in _captions(at)


def test_a_sidebar_step_moves_the_slider_and_keeps_the_frames():
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.query_params["n_releases"] = "40"
    at.run()
    at.toggle(key="explorer_scrub").set_value(True).run()
    before = _scene_spec(at)
    at.select_slider(key="eps").set_value(2.0).run()
    assert not at.exception
    after = _scene_spec(at)
    assert after["layout"]["sliders"][0]["active"] == EPS_GRID.index(2.0)
    assert "sidebar: 2" in after["layout"]["sliders"][0]["currentvalue"]["suffix"]
    index = next(i for i, t in enumerate(after["data"]) if t.get("legendgroup") == "riemannian_laplace")
    # the coupled frames are the same draw at every sidebar budget: the frame at ε = 5 did not change
    k = EPS_GRID.index(5.0)
    assert before["frames"][k]["data"] == after["frames"][k]["data"]
    assert after["data"][index]["x"] == after["frames"][EPS_GRID.index(2.0)]["data"][
        after["frames"][EPS_GRID.index(2.0)]["traces"].index(index)]["x"]
