"""AppTest of the Explorer's data spread (its default follows d; a warning before the run when s·√d nears the
radius, fixed in one click) and of the curvature lesson's ready settings."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _explorer():
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("app_pages/explorer.py")
    return at.run()


def _warnings(at):
    return [w.value for w in at.warning if "Expected spread" in str(w.value)]


def test_default_spread_follows_the_dimension_and_the_warning_fixes_in_one_click():
    at = _explorer()
    assert not at.exception, at.exception
    assert at.slider(key="spread").value == 0.25 and not _warnings(at)
    at.number_input(key="dim").set_value(10).run()
    assert not at.exception, at.exception
    assert at.slider(key="spread").value == 0.11  # untouched: it followed d
    assert not _warnings(at)
    at.slider(key="spread").set_value(0.25).run()  # the old fixed spread at d = 10
    warnings = _warnings(at)
    assert len(warnings) == 1 and "0.25·√10 = 0.79" in warnings[0] and "beyond the public radius r = 0.7" in warnings[0]
    fix = at.button(key="spread_fit")
    assert "0.11" in fix.label
    fix.click().run()
    assert not at.exception, at.exception
    assert at.slider(key="spread").value == 0.11 and not _warnings(at)
    at.number_input(key="dim").set_value(100).run()  # still the default of its dimension: it follows again
    assert at.slider(key="spread").value == 0.04 and not _warnings(at)
    at.slider(key="spread").set_value(0.3).run()
    at.number_input(key="dim").set_value(3).run()  # a spread the user chose stays
    assert at.slider(key="spread").value == 0.3


def test_lesson_ready_settings_in_one_click():
    at = _explorer()
    control = at.segmented_control(key="explorer_lesson_setting")
    texts = "\n".join(str(m.value) for m in at.markdown)
    assert "At the public radius r = 0.7" in texts and "same distances" not in texts
    control.set_value("negative").run()
    assert not at.exception, at.exception
    texts = "\n".join(str(m.value) for m in at.markdown)
    assert "On H⁵ they land farther than on ℝ⁵" in texts and "sinh⁴ ρ" in texts
    assert at.slider(key="spread").value == 0.25  # the sidebar keeps the user's scenario
    control.set_value("zero").run()
    texts = "\n".join(str(m.value) for m in at.markdown)
    assert "On S³ they land about as far as on ℝ³" in texts and "On H³ they land about as far as on ℝ³" in texts
