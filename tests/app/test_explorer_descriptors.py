"""AppTest of the Explorer on image covariance descriptors (SPD(9), SPD(11)) with a class subset."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

TIMEOUT = 120
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _explorer(query=None):
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page("app_pages/explorer.py")
    return at


def _texts(at):
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [e.value for e in at.error]
    return "\n".join(str(p) for p in parts)


def test_digits_descriptors_one_class_from_the_url():
    at = _explorer({"manifold": "spd", "dim": "9", "data": "digits_covariance", "data_class": "3", "radius": "8",
                    "n_releases": "20"}).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert at.selectbox(key="data_class").value == "3"
    records = next(m for m in at.metric if m.label == "Records n")
    assert records.value == "183"  # the digit 3 only
    text = _texts(at)
    assert "Class 3: digit 3" in text
    assert "Distance to the true mean" in text


def test_picking_the_digits_sets_the_matrix_size_and_a_class():
    at = _explorer().run()
    at.selectbox(key="manifold").set_value("spd").run()
    at.selectbox(key="data").set_value("digits_covariance").run()
    assert not at.exception, at.exception
    assert at.number_input(key="dim").value == 9
    assert at.slider(key="radius").value == 8.0  # the dataset's suggested public radius (was 0.7)
    at.number_input(key="n_releases").set_value(20)
    at.selectbox(key="data_class").set_value("7").run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert next(m for m in at.metric if m.label == "Records n").value == "179"


def test_colour_patches_on_spd_11():
    at = _explorer({"manifold": "spd", "dim": "11", "data": "image_patches_covariance", "radius": "8",
                    "n_releases": "20"}).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert next(m for m in at.metric if m.label == "Records n").value == "520"
    assert "Distance to the true mean" in _texts(at)


def test_wrong_matrix_size_is_reported_beside_the_control():
    at = _explorer({"manifold": "spd", "dim": "4", "data": "digits_covariance"}).run()
    assert not at.exception, at.exception
    assert any("m = dim = 9" in e.value for e in at.sidebar.error)


def test_descriptor_pages_text_is_human():
    """Data descriptions, class captions and every mechanism's notes on descriptor data read as prose."""
    from geodp_core.mechanisms import MECHANISM_NAMES
    from tests.app.test_user_text import problems

    for query in ({"data": "digits_covariance", "dim": "9", "data_class": "3"},
                  {"data": "image_patches_covariance", "dim": "11"}):
        at = _explorer({"manifold": "spd", "radius": "8", "n_releases": "20", **query}).run()
        at.multiselect(key="mechanisms").set_value(list(MECHANISM_NAMES)).run()
        assert not at.exception, at.exception
        found = problems(at)
        assert not found, "\n".join(found)


def test_bad_class_in_the_url_is_reported_not_a_crash():
    for data, dim, bad in (("digits_covariance", "9", "12"), ("digits_covariance", "9", "abc"),
                           ("image_patches_covariance", "11", "2"), ("connectomes", "2", "7")):
        at = _explorer({"manifold": "spd", "dim": dim, "data": data, "data_class": bad, "radius": "8",
                        "n_releases": "20"}).run()
        assert not at.exception, (data, bad, at.exception)
        assert at.selectbox(key="data_class").value == "all", (data, bad)
        assert next(m for m in at.metric if m.label == "Records n").value != "0"


def test_class_switch_between_datasets_and_to_unlabelled_data():
    at = _explorer({"manifold": "spd", "dim": "9", "data": "digits_covariance", "data_class": "8", "radius": "8",
                    "n_releases": "20"}).run()
    assert at.selectbox(key="data_class").value == "8"
    at.selectbox(key="data").set_value("image_patches_covariance").run()
    assert not at.exception, at.exception
    assert at.number_input(key="dim").value == 11
    assert at.selectbox(key="data_class").value == "all"
    at.selectbox(key="data").set_value("wishart").run()
    assert not at.exception, at.exception
    assert not at.get("selectbox") or "data_class" not in [w.key for w in at.selectbox]
    assert not at.error, [e.value for e in at.error]


def test_scenario_file_with_a_class_loads_into_the_sidebar():
    from geodp_core.scenario import Scenario

    saved = Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=3, radius=8.0, n_releases=20)
    at = _explorer().run()
    at.file_uploader(key="scenario_file").set_value(("digits.json", saved.to_json().encode(), "application/json")).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="data_class").value == "3"
    assert at.number_input(key="dim").value == 9
    assert next(m for m in at.metric if m.label == "Records n").value == "183"


def test_digits_preset_sets_dataset_size_and_class():
    from geodp_core.scenario import PRESETS

    name = next(name for name in PRESETS if "digit" in name)
    at = _explorer().run()
    at.selectbox(key="preset").set_value(name).run()
    assert not at.exception, at.exception
    assert at.selectbox(key="data").value == "digits_covariance"
    assert at.number_input(key="dim").value == 9
    assert at.selectbox(key="data_class").value == "3"


def test_utility_curves_page_on_descriptor_data():
    # a first run registers the navigation, so switch_page finds a page whose URL path is not its
    # file name (utility_curves.py is /utility)
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.query_params.update({"manifold": "spd", "dim": "9", "data": "digits_covariance", "data_class": "0",
                            "radius": "8", "curves_reps": "3", "curves_count": "2"})
    at.switch_page("app_pages/utility_curves.py")
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="data_class").value == "0"
