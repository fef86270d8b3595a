"""The curvature lesson and the data spread in headless Chromium, at a laptop's and a phone's size: the three panels side
by side on a laptop and stacked (never overlapping) on a phone, a ready setting in one click, and the spread warning
fixed in one click. Screenshots go to test-artifacts/screenshots/."""

import pytest

from tests.app.conftest import VIEWPORTS, wait_for_app

pytestmark = pytest.mark.browser

PANELS = [f".st-key-explorer_lesson_{sign}" for sign in (1, 0, -1)]


def _context(browser, device):
    if device == "phone":
        return browser.new_context(viewport=VIEWPORTS["phone"], device_scale_factor=2, is_mobile=True, has_touch=True)
    return browser.new_context(viewport=VIEWPORTS["laptop"])


def _boxes(page):
    """Page coordinates of the three panels (independent of the scroll position)."""
    page.locator(PANELS[0]).scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    return page.evaluate("""(selectors) => selectors.map((s) => {
        const el = document.querySelector(s);
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return {x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height};
    })""", PANELS)


def _overlap(a, b):
    return (min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
            and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1)


@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_lesson_panels_are_laid_out_for_the_screen(browser, app_url, artifacts, device):
    context = _context(browser, device)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{app_url}/explorer?dim=10&eps=0.1", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    heading = page.get_by_role("heading", name="What curvature does")
    heading.scroll_into_view_if_needed()
    boxes = _boxes(page)
    page.screenshot(path=str(artifacts / f"lesson_panels_{device}.png"))
    assert all(b is not None for b in boxes)
    assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]), boxes
    width = VIEWPORTS[device]["width"]
    if device == "phone":  # stacked, each nearly as wide as the screen
        assert all(b["width"] >= 300 for b in boxes), boxes
        assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]
    else:  # side by side
        assert max(b["y"] for b in boxes) - min(b["y"] for b in boxes) < 5 and all(b["width"] < width / 3 for b in boxes)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 2
    text = page.inner_text("[data-testid='stMain']")
    assert "unavailable on H¹⁰" in text and "same distances" not in text
    heading.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"lesson_{device}.png"))
    # a ready setting in one click
    page.locator(".st-key-explorer_lesson_setting").get_by_text("Hyperbolic: volume growth", exact=True).click()
    wait_for_app(page, 120_000)
    text = page.inner_text("[data-testid='stMain']")
    assert "On H⁵ they land farther than on ℝ⁵" in text
    page.locator(".st-key-explorer_lesson_volume").scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts / f"lesson_ready_negative_{device}.png"))
    context.close()


def test_spread_warning_and_its_one_click_fix(browser, app_url, artifacts):
    context = _context(browser, "laptop")
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{app_url}/explorer?dim=10&spread=0.25", wait_until="domcontentloaded")
    wait_for_app(page, 120_000)
    sidebar = page.locator("[data-testid='stSidebar']")
    warning = sidebar.get_by_text("Expected spread s·√d = 0.25·√10 = 0.79 rad")
    warning.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "spread_warning_laptop.png"))
    sidebar.get_by_role("button", name="Use spread 0.11").click()
    wait_for_app(page, 120_000)
    assert sidebar.get_by_text("Expected spread").count() == 0
    assert "spread=" not in page.url  # 0.11 is the default at d = 10: the link stays short and exact
    context.close()
