"""The Regression page shows the sampler's public convergence check in words: R̂, effective sample size, the
number of temperatures, the mode jumps accepted and trace plots of the check's chains, on a laptop and on a phone
(screenshots kept)."""

import re

import pytest

from tests.app.conftest import VIEWPORTS, wait_for_app

_SETTINGS = "regression?regression_n=30&regression_chain=200&regression_fits=1"
_CODE_NAMES = ("proxy_", "rhat", "min_ess", "split_rhat", "effective_sample_size", "betas", "sigma")


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_regression_page_shows_the_public_convergence_check(browser, app_url, artifacts, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.set_default_navigation_timeout(180_000)
    try:
        page.goto(f"{app_url}/{_SETTINGS}", wait_until="domcontentloaded")
        wait_for_app(page, 180_000)
        assert page.locator("[data-testid='stException']").count() == 0
        heading = page.get_by_text("Did the sampler converge? (public check)")
        heading.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        page.screenshot(path=str(artifacts / f"regression_diagnostics_{viewport}.png"), full_page=False)
        page.screenshot(path=str(artifacts / f"regression_diagnostics_{viewport}_full.png"), full_page=True)
        body = page.inner_text("[data-testid='stMain']")
        section = body[body.index("Did the sampler converge?"):]
        for text in ("Largest R̂", "Smallest effective sample size", "Temperatures per chain",
                     "Mode jumps accepted", "public stand-in dataset"):
            assert text in section, text
        jumps = re.search(r"Mode jumps accepted\s+(\d+% / \d+%)", section)  # both stages jumped on the proxy
        assert jumps is not None, section[section.index("Mode jumps accepted"):][:80]
        for name in _CODE_NAMES:  # words and symbols, never code names
            assert name not in section, name
        page.get_by_text("Shooting-vector stage").first.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        page.screenshot(path=str(artifacts / f"regression_traces_{viewport}.png"), full_page=False)
        charts = page.locator("[data-testid='stPlotlyChart']").all()
        titles = " ".join(chart.inner_text() for chart in charts)
        assert "Footpoint stage" in titles and "Shooting-vector stage" in titles
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 2
    finally:
        context.close()
