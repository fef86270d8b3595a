"""AppTest of the Explorer page: defaults, every manifold x mechanism, error paths."""

import pytest
from streamlit.testing.v1 import AppTest

from geodp_core.mechanisms import MECHANISM_NAMES

TIMEOUT = 90


def _explorer(query=None):
    at = AppTest.from_file("app.py", default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page("pages/explorer.py")
    return at


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
    query = {k: str(v) for k, v in config.items()}
    query["mechanisms"] = ",".join(MECHANISM_NAMES)
    query["n_releases"] = "20"
    query["n"] = "40"
    at = _explorer(query).run()
    assert not at.exception, at.exception
    text = _texts(at)
    assert "unavailable" in text or "exact guarantee" in text
    for name in MECHANISM_NAMES:
        # every selected mechanism has a card (title shown in bold) — never silently dropped
        assert at.session_state["mechanisms"] and name in at.session_state["mechanisms"]
    n_cards = sum(1 for m in at.markdown if m.value.startswith("**"))
    assert n_cards >= len(MECHANISM_NAMES)


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
    at = _explorer({"data": "upload", "manifold": "sphere"}).run()
    assert not at.exception
    assert any("Upload a file" in i.value for i in at.info)


def test_scenario_json_download_matches_state():
    at = _explorer({"manifold": "hyperbolic", "data": "uniform_ball", "radius": "1.0",
                    "mechanisms": "ew_laplace,riemannian_laplace"}).run()
    assert not at.exception
    buttons = {b.label: b for b in at.get("download_button")}
    assert "Scenario JSON" in buttons
    markdown_text = _texts(at)
    assert "Exponential-wrapped" in markdown_text or "ew_laplace" in markdown_text
    assert {"Results CSV", "Python snippet", "Figure HTML"} <= set(buttons)
