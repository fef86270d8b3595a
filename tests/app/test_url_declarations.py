"""The URL of every page comes from ONE declaration per control, and the controls agree with it.

Each URL key of each page is declared once (a study's ``Settings`` field or the page's own declaration beside its
``PageSpec``); the widgets' bounds are the declared ones (a drift like a widget starting at 1.05 while its URL
accepts 1.0 cannot recur); every choice writes a code into the URL, and its labels still load.
"""

import re
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from geodp_app.labels import SCENARIO_KEYS, SPACE_LABELS, scenario_default
from geodp_app.pages import PAGES
from geodp_app.url_params import GLOBAL_KEYS, PAGE_URL_KEYS, URL_PARAMS, declaration_of
from geodp_app.urlstate import check_url_value, decode, encode
from geodp_core.studies.settings import constraints

APP = str(Path(__file__).resolve().parents[2] / "app.py")
CODE = re.compile(r"[a-z0-9_.\-]+")
CHEAP = {"n": "40", "n_releases": "5", "curves_reps": "20", "curves_count": "2", "conformal_n": "100",
         "conformal_mesh": "200", "conformal_releases": "5", "regression_n": "20", "regression_fits": "1",
         "regression_chain": "200", "audit_n": "20", "audit_releases": "500"}


def test_every_url_key_has_one_declaration():
    """Every URL key is a scenario control, the teaching switch, or declared by exactly one page; a control that
    sets a study's field offers only values the field's declared constraint accepts (both ends, and its choices)."""
    from_studies = 0
    for key, spec in URL_PARAMS.items():
        source = declaration_of(key)
        assert source is not None, f"URL parameter {key!r} has no declaration"
        if isinstance(source, tuple):
            settings, name = source
            constraint = constraints(settings)[name]
            from_studies += 1
            if spec.kind in ("int", "float"):
                element = replace(constraint, sequence=False, optional=False)
                for bound, declared in ((spec.low, constraint.low), (spec.high, constraint.high)):
                    if bound != declared:
                        element.check(name, bound)  # raises when the control offers what the study refuses
                assert spec.low_open == (spec.low == constraint.low and not constraint.low_closed)
            else:
                assert tuple(spec.values or spec.choices) == tuple(constraint.choices), key
    assert from_studies >= 15
    owned = [key for keys in PAGE_URL_KEYS.values() for key in keys]
    assert len(owned) == len(set(owned))
    assert set(URL_PARAMS) == set(SCENARIO_KEYS) | set(GLOBAL_KEYS) | set(owned)


@pytest.mark.parametrize("key", sorted(k for k, s in URL_PARAMS.items() if s.kind in ("choice", "multi")))
def test_every_choice_writes_a_code_and_its_labels_load(key):
    spec = URL_PARAMS[key]
    options = spec.values or spec.choices
    for code, option in zip(spec.choices, options):
        assert CODE.fullmatch(code), (key, code)  # a code: no label, no space, no capital
        assert encode(spec, [option] if spec.kind == "multi" else option) == [code]
        assert decode(spec, [code]) == ([option] if spec.kind == "multi" else option)
    for alias, code in spec.aliases.items():  # a label (or an older spelling) typed by a person loads
        assert check_url_value(key, alias, spec) == (code, None), (key, alias)


def _pages_with_controls():
    return [page for page in PAGES if page.script != "app_pages/home.py"]


@pytest.mark.parametrize("page", _pages_with_controls(), ids=lambda p: p.url_path)
def test_widget_bounds_are_the_declared_ones(page):
    """Every numeric control on the page (with its default settings) shows the declared range."""
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.query_params.update(CHEAP)
    at.switch_page(page.script).run()
    assert not at.exception, at.exception
    checked = 0
    for widget in list(at.number_input) + list(at.slider):
        key = widget.key
        spec = URL_PARAMS.get(key)
        if spec is None or spec.kind not in ("int", "float") or spec.bounds is not None:
            continue
        low = widget.min if widget.type == "number_input" else widget.proto.min
        high = widget.max if widget.type == "number_input" else widget.proto.max
        assert low == pytest.approx(spec.low) and high == pytest.approx(spec.high), (key, low, high, spec)
        checked += 1
    if page.url_path not in ("learn", "home"):
        assert checked, page.url_path


@pytest.mark.parametrize("manifold", list(SPACE_LABELS))
def test_a_fresh_page_on_every_space_writes_only_what_differs_from_a_fresh_browser(manifold):
    """The scenario controls start from the declared defaults (a link leaves out exactly those)."""
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.query_params.update({"manifold": manifold, **CHEAP})
    at.switch_page("app_pages/explorer.py").run()
    assert not at.exception, at.exception
    state = {key: at.session_state[key] for key in SCENARIO_KEYS if key in at.session_state}
    for key in SCENARIO_KEYS:
        if key in state and key not in CHEAP and key != "manifold":
            assert encode(URL_PARAMS[key], state[key]) == encode(URL_PARAMS[key], scenario_default(key, state)), key
    assert set(at.query_params) == {"n", "n_releases"} | ({"manifold"} if manifold != "sphere" else set())


@pytest.mark.parametrize("page", [p for p in PAGES if p.controls], ids=lambda p: p.url_path)
def test_every_choice_control_on_the_page_writes_its_code(page):
    """Each choice control the page shows (radio, select box, select slider, multiselect), set to another option,
    puts that option's CODE into the URL (never its label). The longest step, 4000-step chains on SO(3) on the
    Regression page, takes about 70 s on an idle 2-core machine and 140 s under a load of 4: hence 300 s."""
    at = AppTest.from_file(APP, default_timeout=300).run()
    at.query_params.update(CHEAP)
    at.switch_page(page.script).run()
    assert not at.exception, at.exception
    walked = 0
    widgets = list(at.radio) + list(at.selectbox) + list(at.select_slider) + list(at.multiselect)
    for key in [w.key for w in widgets if w.key in page.controls]:
        spec = URL_PARAMS[key]
        if spec.kind not in ("choice", "multi") or not spec.choices:
            continue
        widget = next((w for w in list(at.radio) + list(at.selectbox) + list(at.select_slider) + list(at.multiselect)
                       if w.key == key), None)
        if widget is None:  # a change of an earlier control hid it
            continue
        options = list(spec.values or spec.choices)
        current = widget.value
        option = next(o for o in reversed(options) if o != current)
        widget.set_value([option] if spec.kind == "multi" else option).run()
        assert not at.exception, (key, at.exception)
        written = at.query_params.get(key)
        written = written if isinstance(written, list) else [written]
        assert written == encode(spec, [option] if spec.kind == "multi" else option), (key, written)
        assert all(CODE.fullmatch(code) for code in written), (key, written)
        walked += 1
    assert walked, page.url_path
