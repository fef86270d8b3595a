"""Links and Back that are exact, in headless Chromium at a laptop's and a phone's size (Playwright).

A link made after visiting Kendall shapes opens, in a fresh browser, the same space and size; the app adds ONE
browser-history entry per navigation and per change of a control (it never rewrites the URL on arrival); Back
twice shows the two previous views with their controls' values; ``/home`` opens the home page.
"""

import pytest

from tests.app.conftest import ARTIFACTS, VIEWPORTS, wait_for_app

pytestmark = pytest.mark.browser

CHEAP = "n=40&n_releases=5"


def _wait(page):
    """Until the script has run to completion (twice idle: a run may start a moment after the click)."""
    wait_for_app(page, pause=1200, settle=600)


def _sidebar(page):
    """The sidebar, opened first on a phone (where it starts collapsed)."""
    expand = page.locator("[data-testid='stExpandSidebarButton']")
    if expand.count() and expand.first.is_visible():
        expand.first.click()
        page.wait_for_timeout(600)
    return page.locator("[data-testid='stSidebar']")


def _space_and_size(page):
    """(the manifold chooser's text, the size control's value) as the sidebar shows them."""
    sidebar = _sidebar(page)
    space = sidebar.locator("input[aria-label='Manifold']").input_value()
    size = sidebar.locator("[data-testid='stNumberInput'] input").first.input_value()
    return space, size


def _history(page):
    return page.evaluate("history.length")


def _context(browser, size):
    phone = size == "phone"
    return browser.new_context(viewport=VIEWPORTS[size], device_scale_factor=3 if phone else 1, is_mobile=phone,
                               has_touch=phone)


def _open(context, url):
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.set_default_navigation_timeout(120_000)
    page.goto(url, wait_until="domcontentloaded")
    _wait(page)
    return page


def _go(page, title):
    """Click the app's menu link to page ``title``."""
    _sidebar(page).get_by_role("link", name=title, exact=True).click()
    _wait(page)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_link_made_after_kendall_shapes_opens_the_same_view_fresh(browser, app_url, size):
    context = _context(browser, size)
    page = _open(context, f"{app_url}/explorer?manifold=kendall&dim=12&{CHEAP}")
    assert _space_and_size(page) == ("Kendall shapes Σᵏ₂", "12")
    entries = _history(page)
    _sidebar(page).get_by_role("combobox", name="Manifold").click()
    page.get_by_role("option", name="Sphere Sᵈ").click()
    _wait(page)
    assert _space_and_size(page) == ("Sphere Sᵈ", "2")  # the sphere's own size, not Kendall's 12
    assert _history(page) == entries + 1  # one entry for one change
    link = page.url
    page.screenshot(path=str(ARTIFACTS / f"link_after_kendall_{size}.png"), full_page=True)
    fresh_context = _context(browser, size)  # a fresh browser: no session, no history
    fresh = _open(fresh_context, link)
    assert _space_and_size(fresh) == ("Sphere Sᵈ", "2")
    assert fresh.url == link  # the app did not need to rewrite the link

    # a size set by the user travels in the link too
    box = _sidebar(page).locator("[data-testid='stNumberInput'] input").first
    box.fill("5")
    box.press("Enter")
    _wait(page)
    assert "dim=5" in page.url and _space_and_size(page) == ("Sphere Sᵈ", "5")
    again = _open(_context(browser, size), page.url)
    assert _space_and_size(again) == ("Sphere Sᵈ", "5")
    for ctx in (context, fresh_context, again.context):
        ctx.close()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_one_history_entry_per_navigation_and_back_restores_each_view(browser, app_url, size):
    context = _context(browser, size)
    page = _open(context, f"{app_url}/explorer?manifold=hyperbolic&dim=3&{CHEAP}")
    explorer_url = page.url
    entries = _history(page)
    _go(page, "Utility curves")
    assert "/utility" in page.url and _history(page) == entries + 1
    assert _space_and_size(page) == ("Hyperbolic Hᵈ", "3")
    curves_url = page.url
    _go(page, "Privacy accounting")
    assert "/accounting" in page.url and _history(page) == entries + 2
    page.screenshot(path=str(ARTIFACTS / f"back_start_{size}.png"), full_page=True)

    page.go_back()
    _wait(page)
    assert page.url == curves_url and _history(page) == entries + 2  # Back never adds an entry
    assert page.locator("h1").first.inner_text().strip() == "Utility curves"
    assert _space_and_size(page) == ("Hyperbolic Hᵈ", "3")
    page.go_back()
    _wait(page)
    assert page.url == explorer_url
    assert page.locator("h1").first.inner_text().strip() == "Explorer"
    assert _space_and_size(page) == ("Hyperbolic Hᵈ", "3")
    records = _sidebar(page).locator("[data-testid='stNumberInput'] input").nth(1)
    assert records.input_value() == "40"
    body = page.inner_text("body")
    assert "→ Hyperbolic Hᵈ" not in body  # no "… → Hyperbolic" lesson box: Back is not a switch of the user's
    page.screenshot(path=str(ARTIFACTS / f"back_twice_{size}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_home_has_its_own_url(browser, app_url, size):
    context = _context(browser, size)
    page = _open(context, f"{app_url}/home")
    body = page.inner_text("body")
    assert "Page not found" not in body and "You have requested page" not in body
    assert page.locator("h1").first.inner_text().strip() == "GeoDP Explorer"
    assert "/home" in page.url
    context.close()
