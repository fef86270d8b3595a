"""Scrubbing the budget in the browser (Playwright, headless Chromium, 1440×900 and 390×844).

The Explorer's scene carries one Plotly frame per budget of the grid and Plotly's own slider: moving it must change
the release clouds with NO Streamlit rerun (the script state never leaves notRunning) and NO message to the server
(no websocket frame sent). The time from the slider input to the next paint after the new frame is measured in the
browser and printed (reported, not asserted: timings belong to the benchmarks, not to tests).
"""

import json

import pytest

from tests.app.conftest import IDLE, VIEWPORTS, wait_for_app

pytestmark = pytest.mark.browser

_WATCH = """() => {
  const app = document.querySelector("[data-testid='stApp']");
  window.__states = [];
  new MutationObserver(() => window.__states.push(app.getAttribute('data-test-script-state')))
    .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  const gd = document.querySelector("[data-testid='stPlotlyChart'] .js-plotly-plot");
  window.__scrub = [];
  document.addEventListener('pointerdown', () => window.__scrub.push({input: performance.now()}), true);
  gd.on('plotly_animated', () => {
    const last = window.__scrub[window.__scrub.length - 1];
    if (last && last.painted === undefined) {
      last.animated = performance.now();
      requestAnimationFrame(() => requestAnimationFrame(() => { last.painted = performance.now(); }));
    }
  });
  return gd.data.length;
}"""

_CLOUD = """(group) => {
  const gd = document.querySelector("[data-testid='stPlotlyChart'] .js-plotly-plot");
  const t = gd._fullData.find(t => t.legendgroup === group && t.mode === 'markers');
  const arr = a => Array.from(a || []).map(Number);
  const slider = gd._fullLayout.sliders[0];
  return {x: arr(t.x), y: arr(t.y), z: arr(t.z), active: slider.active,
          label: slider.currentvalue.prefix + slider.steps[slider.active].label};
}"""


def _spread(cloud):
    import numpy as np

    points = np.stack([cloud[a] for a in ("x", "y", "z") if cloud[a]], axis=1)
    return float(np.mean(np.linalg.norm(points - points.mean(axis=0), axis=1)))


#: (viewport, space, link): the 3D sphere at both sizes, the flat plane (WebGL 2D) on the laptop.
CASES = [("laptop", "sphere", ""), ("phone", "sphere", ""),
         ("laptop", "plane", "&manifold=euclidean&data=wrapped_normal")]


@pytest.mark.parametrize("size, space, link", CASES, ids=[f"{s}-{v}" for s, v, _ in CASES])
def test_scrubbing_the_budget_redraws_on_the_client_without_a_server_run(browser, app_url, artifacts, size, space,
                                                                         link):
    context = browser.new_context(viewport=VIEWPORTS[size], device_scale_factor=1)
    page = context.new_page()
    page.set_default_navigation_timeout(120_000)
    page.set_default_timeout(120_000)
    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    try:
        page.goto(f"{app_url}/explorer?n_releases=100{link}", wait_until="domcontentloaded")
        wait_for_app(page, 120_000)
        assert page.locator("[data-testid='stPlotlyChart'] .slider-rail-touch-rect").count() == 0  # off by default
        page.get_by_text("Scrub the budget in the browser").click()
        wait_for_app(page, 120_000)
        chart = page.locator("[data-testid='stPlotlyChart']").first
        chart.scroll_into_view_if_needed()
        page.wait_for_selector("[data-testid='stPlotlyChart'] .slider-rail-touch-rect")
        assert page.locator("text=Scrubbing the budget").count() == 1
        assert page.locator("[data-testid='stException']").count() == 0
        page.evaluate(_WATCH)
        before = page.evaluate(_CLOUD, "riemannian_laplace")
        assert before["active"] == 6 and "ε" in before["label"]  # the sidebar's ε = 1 on the grid 0.01 … 100
        chart.screenshot(path=str(artifacts / f"explorer_scrub_{space}_{size}_before.png"))
        page.wait_for_timeout(1500)
        sent.clear()

        rail = page.locator("[data-testid='stPlotlyChart'] .slider-rail-touch-rect").first.bounding_box()
        timings = []
        # ε = 100 (tighter than at the sidebar's ε = 1), ε = 0.01 (wider), then a few more steps for the timing
        for fraction, expect_tighter in ((1.0, True), (0.0, False), (0.75, True), (0.25, False), (0.9, True),
                                         (0.1, False)):
            page.mouse.click(rail["x"] + 2 + fraction * (rail["width"] - 4), rail["y"] + rail["height"] / 2)
            page.wait_for_function("() => { const s = window.__scrub; return s.length && s[s.length-1].painted; }")
            after = page.evaluate(_CLOUD, "riemannian_laplace")
            assert after["x"] != before["x"], "the cloud did not change"
            assert (_spread(after) < _spread(before)) == expect_tighter, (after["label"], _spread(after), _spread(before))
            last = page.evaluate("() => window.__scrub[window.__scrub.length - 1]")
            timings.append(last["painted"] - last["input"])
            if fraction in (0.0, 1.0):
                value = after["label"].split("=")[1].split()[0]
                chart.screenshot(path=str(artifacts / f"explorer_scrub_{space}_{size}_eps_{value}.png"))
            page.wait_for_timeout(300)
        page.wait_for_timeout(1500)
        states = page.evaluate("() => window.__states")
        assert "running" not in states, states  # no Streamlit rerun
        assert page.locator(IDLE).count() == 1
        assert sent == [], f"{len(sent)} websocket messages sent to the server while scrubbing"
        print(json.dumps({"viewport": size, "space": space, "input_to_paint_ms": [round(t, 1) for t in timings],
                          "median_ms": round(sorted(timings)[len(timings) // 2], 1)}))
    finally:
        context.close()
