"""AppTest of the Home page (the app's default page)."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_home_is_the_default_page_and_links_every_section():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    assert at.title[0].value == "GeoDP Explorer"
    text = " ".join(m.value for m in at.markdown)
    for label in ("exact guarantee", "approximate sampler", "no formal guarantee", "unavailable"):
        assert label in text  # the four honesty labels are explained up front
    links = {link.proto.page for link in at.main.get("page_link")}  # the pages' URL paths (the menu is aside)
    assert links == {"explorer", "utility", "accounting", "conformal", "regression", "learn", "audit", "reproduce"}
