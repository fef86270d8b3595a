"""End-to-end tests in headless Debian Chromium against `streamlit run` (Playwright).

Each page loads without a Streamlit exception block and is screenshotted into
test-artifacts/screenshots/; a URL with parameters restores the scenario; a download works.
"""

import json
import re
from pathlib import Path

import pytest

from geodp_app.pages import PAGES as _DECLARED
from tests.app.conftest import wait_for_app

pytestmark = pytest.mark.browser

#: Every page of the navigation by URL path ("" is Home), from the app's one page registry.
PAGES = ["" if spec.default else spec.url_path for spec in _DECLARED]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p or "home")
def test_page_loads_without_exception(page, app_url, artifacts, path):
    page.goto(f"{app_url}/{path}", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / f"{path or 'home'}.png"), full_page=True)
    assert page.locator("[data-testid='stException']").count() == 0
    body = page.inner_text("body")
    assert "Traceback" not in body
    assert "This app has encountered an error" not in body
    assert "Page not found" not in body


def test_a_deep_link_is_served_by_the_navigation_from_the_first_request(page, fresh_app_url, artifacts):
    """The first request a new server gets is a deep link: it shows that page, with the link's values, inside the
    app's navigation (no page-script-alone run, no "Page not found"); the URL keeps the codes."""
    page.goto(f"{fresh_app_url}/explorer?manifold=hyperbolic&dim=3", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "explorer_deep_link_first_request.png"), full_page=True)
    body = page.inner_text("body")
    assert "Page not found" not in body and page.locator("[data-testid='stException']").count() == 0
    assert page.locator("h1").first.inner_text().strip() == "Explorer"
    sidebar = page.locator("[data-testid='stSidebar']")
    menu = sidebar.locator("[data-testid='stPageLink'] a")  # app.py's menu: one link per page, carrying the URL
    assert menu.count() >= len(_DECLARED) and "manifold=hyperbolic" in menu.nth(2).get_attribute("href")
    assert sidebar.locator("input[aria-label='Manifold']").input_value().startswith("Hyperbolic")
    assert sidebar.locator("[data-testid='stNumberInput'] input").first.input_value() == "3"
    assert "/explorer?" in page.url and "manifold=hyperbolic" in page.url and "dim=3" in page.url, page.url


def test_a_choice_puts_its_code_in_the_url_and_a_label_link_still_loads(page, app_url):
    page.goto(f"{app_url}/explorer?manifold=Euclidean+%E2%84%9D%E1%B5%88&n_releases=5", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    sidebar = page.locator("[data-testid='stSidebar']")
    assert sidebar.locator("input[aria-label='Manifold']").input_value().startswith("Euclidean")
    assert "manifold=euclidean" in page.url, page.url  # the label typed in the link is respelled as the code
    sidebar.locator("input[aria-label='Manifold']").click()
    page.get_by_role("option", name="Hyperbolic Hᵈ").click()
    wait_for_app(page, 120_000)
    assert "manifold=hyperbolic" in page.url, page.url


def test_back_and_forward_restore_a_coded_choice(page, app_url):
    """A choice adds one history entry holding its code; Back shows the view before it, Forward the choice."""
    page.goto(f"{app_url}/explorer?n_releases=5", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    manifold = page.locator("[data-testid='stSidebar']").locator("input[aria-label='Manifold']")
    entries = page.evaluate("history.length")
    manifold.click()
    page.get_by_role("option", name="Hyperbolic Hᵈ").click()
    wait_for_app(page, 120_000)
    assert "manifold=hyperbolic" in page.url and page.evaluate("history.length") == entries + 1, page.url
    page.go_back()
    wait_for_app(page, 120_000)
    assert "manifold=" not in page.url and manifold.input_value().startswith("Sphere"), page.url
    page.go_forward()
    wait_for_app(page, 120_000)
    assert "manifold=hyperbolic" in page.url and manifold.input_value().startswith("Hyperbolic"), page.url


def test_url_parameters_restore_scenario(page, app_url, artifacts):
    page.goto(f"{app_url}/explorer?manifold=hyperbolic&data=uniform_ball&radius=1.5"
              "&mechanisms=Exponential-wrapped+Laplace&mechanisms=Riemannian+Laplace&notion=pure_dp", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "explorer_hyperbolic_from_url.png"), full_page=True)
    body = page.inner_text("body")
    assert "Poincaré disk" in body
    assert "Exponential-wrapped Laplace" in body
    assert "1.50" in body  # radius slider restored


def test_scenario_download(page, app_url):
    page.goto(f"{app_url}/explorer?manifold=hyperbolic&data=uniform_ball&radius=1.2"
              "&mechanisms=Exponential-wrapped+Laplace", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    with page.expect_download(timeout=120_000) as info:
        page.get_by_role("button", name="Scenario JSON").click()
    scenario = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert scenario["manifold"] == "hyperbolic"
    assert scenario["radius"] == pytest.approx(1.2)
    assert scenario["mechanisms"] == ["ew_laplace"]


def test_results_csv_download_is_generated_on_click(page, app_url):
    page.goto(f"{app_url}/explorer?n_releases=7&mechanisms=Riemannian+Laplace&notion=pure_dp",
              wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    with page.expect_download(timeout=120_000) as info:
        page.get_by_role("button", name="Results CSV").click()
    import csv

    rows = list(csv.DictReader(open(info.value.path(), encoding="utf-8")))
    assert len(rows) == 7 and all(r["mechanism"] == "Riemannian Laplace" and r["guarantee label"] == "exact"
                                  for r in rows)
    assert rows[0]["privacy target"] == "ε=1-DP" and rows[0]["ε"] == "1.0" and rows[0]["seed"] == "0"
    assert rows[0]["space"] == "S²" and "distance to the true mean (radians)" in rows[0]


def test_scenario_link_survives_navigation(page, app_url, artifacts):
    """A scenario opened by link keeps its state when the user clicks through the navigation."""
    page.goto(f"{app_url}/explorer?manifold=hyperbolic&data=uniform_ball&radius=1.5&n=77"
              "&mechanisms=Riemannian+Laplace&notion=pure_dp", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    for name, path in (("Learn", "learn"), ("Utility curves", "utility"), ("Explorer", "explorer")):
        page.get_by_role("link", name=name).click()
        wait_for_app(page, 120_000)
        assert f"/{path}" in page.url
        if path == "learn":
            continue
        page.screenshot(path=str(artifacts / f"navigation_{path}.png"), full_page=True)
        assert "manifold=hyperbolic" in page.url and "n=77" in page.url, page.url  # the code is what the URL holds
        sidebar = page.locator("[data-testid='stSidebar']")
        assert sidebar.locator("input[aria-label='Manifold']").input_value().startswith("Hyperbolic")
        records = sidebar.locator("[data-testid='stNumberInput'] input").nth(1)
        assert records.input_value() == "77"


@pytest.mark.parametrize("path, expected", [
    ("audit?audit_space=hyperbolic&audit_n=20&audit_releases=1000", ("Hyperbolic H²", "20")),
    ("conformal?conformal_n=300&conformal_mesh=300&conformal_releases=20", ("300",)),
    ("regression?regression_n=30&regression_chain=200&regression_fits=1", ("30",)),
    ("accounting?accounting_tab=Heat+diffusion&accounting_heat_eps=1.5", ("1.5",)),
], ids=["audit", "conformal", "regression", "accounting"])
def test_page_settings_link_restores_the_view(page, app_url, path, expected):
    """Page settings are part of the link: opened in a fresh browser, the controls show them."""
    page.goto(f"{app_url}/{path}", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    assert page.locator("[data-testid='stException']").count() == 0
    name = path.split("?")[0]
    for key_value in path.split("?")[1].split("&"):  # the URL keeps every setting (choices respelled as labels)
        assert key_value.split("=")[0] + "=" in page.url, (key_value, page.url)
    values = [el.input_value() for el in page.locator("[data-testid='stNumberInput'] input").all()]
    body = page.inner_text("body")
    for text in expected:
        assert text in values or text in body, (name, text, values)


def test_page_settings_survive_navigation_and_reach_the_scenario_file(page, app_url, artifacts):
    """A link with scenario AND page settings keeps both through clicks in the navigation; the Explorer's
    scenario file then carries the other page's settings."""
    page.goto(f"{app_url}/conformal?conformal_n=300&conformal_mesh=300&conformal_releases=20&conformal_seed=11",
              wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    for name in ("Audit", "Conformal lab"):
        page.get_by_role("link", name=name).click()
        wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "navigation_conformal_back.png"), full_page=True)
    assert "/conformal" in page.url
    for key_value in ("conformal_n=300", "conformal_mesh=300", "conformal_releases=20", "conformal_seed=11"):
        assert key_value in page.url, (key_value, page.url)
    page.get_by_role("link", name="Explorer").click()
    wait_for_app(page, 120_000)
    with page.expect_download(timeout=120_000) as info:
        page.get_by_role("button", name="Scenario JSON").click()
    saved = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert saved["page_settings"]["conformal_n"] == "300"
    assert saved["page_settings"]["conformal_seed"] == "11"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p or "home")
def test_every_page_fits_a_phone(phone_page, app_url, artifacts, path):
    """390 px wide: no page scrolls sideways, no exception; a screenshot of each page is kept."""
    phone_page.goto(f"{app_url}/{path}", wait_until="domcontentloaded")
    wait_for_app(phone_page, 120_000)
    phone_page.screenshot(path=str(artifacts / f"phone_{path or 'home'}.png"), full_page=True)
    assert phone_page.locator("[data-testid='stException']").count() == 0
    overflow = phone_page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 2, f"{path or 'home'} is {overflow} px wider than the phone screen"
    charts = phone_page.locator("[data-testid='stPlotlyChart']").all()
    for chart in charts[:4]:  # a chart squeezed to a sliver is unreadable
        box = chart.bounding_box()
        if box is not None:
            assert box["width"] >= 300, (path, box)


def test_rotations_deep_link_and_an_eps_change_redraw_the_releases(page, app_url, artifacts):
    """SO(3) by link: the rotation-ball view with every exact mechanism's releases; one step of the ε slider (keyboard)
    recalibrates — the URL carries the new ε and the noise scale shown changes."""
    page.goto(f"{app_url}/explorer?manifold=so3&dim=3&n_releases=60", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "explorer_so3.png"), full_page=True)
    body = page.inner_text("body")
    assert page.locator("[data-testid='stException']").count() == 0
    assert "SO(3)" in body and "rotation vectors" in body
    sidebar = page.locator("[data-testid='stSidebar']")
    assert sidebar.locator("input[aria-label='Manifold']").input_value().startswith("Rotations")
    for title in ("Riemannian Laplace releases", "Riemannian Gaussian releases"):
        assert page.locator(f"text={title}").count() >= 1, title
    before = page.inner_text("body")
    slider = sidebar.locator("[data-testid='stSlider']").filter(has_text="more privacy").first
    slider.locator("input[type='range']").first.focus()
    page.keyboard.press("ArrowRight")
    wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "explorer_so3_eps.png"), full_page=True)
    assert "eps=" in page.url, page.url
    after = page.inner_text("body")
    assert page.locator("[data-testid='stException']").count() == 0
    assert after != before and "Riemannian Laplace releases" in after


def test_ledger_plans_records_refuses_the_overrun_and_survives_a_restart(page, restartable_app, artifacts):
    """Plan 12 monthly releases at one total, record all 12, see the 13th refused, restart the server and find the
    12 records, and download a release card."""
    url = restartable_app.start()
    page.goto(f"{url}/ledger?ledger_k=12&ledger_eps=2.0&n_releases=5", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    assert page.locator("[data-testid='stException']").count() == 0
    body = page.inner_text("body")
    assert "GDP composition" in body and "tight composition" in body and "basic composition" in body
    page.get_by_role("button", name="Create the ledger").click()
    wait_for_app(page, 120_000)
    record = page.get_by_role("button", name="Record the next release")
    for _ in range(12):
        record.click()
        wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "ledger_12_recorded.png"), full_page=True)
    assert re.search(r"Releases recorded\s+12\b", page.inner_text("body"))
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the last release card").click()
    card = Path(download.value.path()).read_text(encoding="utf-8")
    assert "release 12" in card and "docs/" not in card
    record.click()
    wait_for_app(page, 120_000)
    body = page.inner_text("body")
    assert "release refused" in body and re.search(r"Releases recorded\s+12\b", body)
    restartable_app.stop()
    url = restartable_app.start()
    page.goto(f"{url}/ledger?ledger_k=12&ledger_eps=2.0&n_releases=5", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    page.screenshot(path=str(artifacts / "ledger_after_restart.png"), full_page=True)
    body = page.inner_text("body")
    assert re.search(r"Releases recorded\s+12\b", body) and "Create the ledger" not in body


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_reproduce_page_runs_all_panels_with_progress(browser, app_url, artifacts, viewport):
    """A link to every panel of a figure at the smoke size: Run shows the progress ("6 of 6 panels done") at the
    top of the result area, the figure's verdict and one tab per panel; screenshots at 1440×900 and 390×844."""
    from tests.app.conftest import VIEWPORTS

    context = browser.new_context(viewport=VIEWPORTS[viewport], device_scale_factor=1 if viewport == "laptop" else 2,
                                  is_mobile=viewport == "phone", has_touch=viewport == "phone")
    page = context.new_page()
    page.set_default_timeout(180_000)
    try:
        page.goto(f"{app_url}/reproduce?reproduce_paper=geometric-renyi-dp&reproduce_id=heat_ewg&reproduce_panel=all"
                  "&reproduce_size=quick", wait_until="domcontentloaded")
        wait_for_app(page, 120_000)
        page.get_by_test_id("stButton").get_by_role("button", name="Run", exact=True).click()
        page.wait_for_selector("text=6 of 6 panels done", timeout=180_000)
        wait_for_app(page, 120_000)
        page.screenshot(path=str(artifacts / f"reproduce_all_panels_{viewport}.png"), full_page=False)
        page.screenshot(path=str(artifacts / f"reproduce_all_panels_{viewport}_full.png"), full_page=True)
        assert page.locator("[data-testid='stException']").count() == 0
        body = page.inner_text("body")
        assert "Verdict of the figure over 6 panels" in body and "Scenario 2, n = 100" in body
        if viewport == "laptop":  # the progress sits at the top of the result area, inside the first screen
            box = page.get_by_text("6 of 6 panels done").bounding_box()
            assert box is not None and box["y"] + box["height"] <= VIEWPORTS["laptop"]["height"]
        assert "reproduce_id=heat_ewg" in page.url and "reproduce_panel=all" in page.url
    finally:
        context.close()
