"""Every chart the pages draw, in headless Chromium at phone and laptop widths, with the mode bar shown (as on a
touch screen): no title under the mode bar, no overlapping titles, annotations or tick labels, no squeezed plot."""

import json

import plotly
import pytest

from tests.test_viz_charts_layout import _MEASURE, PLOTLY_JS, WIDTHS, _figures, _overlap, _page_scene_figures


@pytest.mark.browser
def test_figures_drawn_at_phone_and_laptop_widths_do_not_overlap(tmp_path, browser):
    figures = {**_figures(), **_page_scene_figures()}
    problems = []
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    if True:  # the session's browser (tests/app/conftest.py): one Playwright instance per test process
        page = context.new_page()
        for name, fig in figures.items():
            spec = json.dumps(fig.to_plotly_json(), cls=plotly.utils.PlotlyJSONEncoder)
            for device, width in WIDTHS.items():
                html = tmp_path / "figure.html"
                html.write_text(
                    f"<html><head><meta charset='utf-8'><script src='{PLOTLY_JS.as_uri()}'></script></head>"
                    f"<body style='margin:0'><div id='g' style='width:{width}px'></div><script>"
                    f"const s = {spec}; Plotly.newPlot('g', s.data, s.layout, {{displayModeBar: true}})"
                    ".then(() => { document.title = 'drawn'; });</script></body></html>", encoding="utf-8")
                page.goto(html.as_uri())
                page.wait_for_function("document.title === 'drawn'", timeout=30_000)
                b = page.evaluate(_MEASURE)
                where = f"{name} on a {device} ({width} px)"
                (figure,) = b["figure"][:1]
                for legend in b["legend"]:
                    if any(_overlap(legend, t) for t in b["xtitle"] + b["xticks"] + b["plot"]):
                        problems.append(f"{where}: the legend overlaps the plot, its ticks or the x-axis title")
                    if legend[3] > figure[3] + 1 or legend[2] > figure[2] + 1:
                        problems.append(f"{where}: the legend runs out of the figure {legend} {figure}")
                for title in b["title"]:
                    if any(_overlap(title, m) for m in b["modebar"]):
                        problems.append(f"{where}: the mode bar covers the title")
                    if title[2] > figure[2] + 1:
                        problems.append(f"{where}: the title is wider than the figure")
                for note in b["annotations"]:
                    if note[2] > figure[2] + 1 or note[3] > figure[3] + 1:
                        problems.append(f"{where}: an annotation runs out of the figure")
                    if any(_overlap(note, m) for m in b["modebar"]):
                        problems.append(f"{where}: the mode bar covers an annotation (a panel title)")
                    if any(_overlap(note, t) for t in b["title"]):
                        problems.append(f"{where}: an annotation overlaps the title")
                    ticks = [t for box in b["ticks_by_axis"].values() for t in box] + b["xticks"]
                    if any(_overlap(note, t) for t in ticks):
                        problems.append(f"{where}: an annotation (a panel title) overlaps tick labels")
                for i, one in enumerate(b["annotations"]):
                    if any(_overlap(one, other) for other in b["annotations"][i + 1:]):
                        problems.append(f"{where}: two annotations (panel titles) overlap")
                for axis, ticks in b["ticks_by_axis"].items():
                    if any(_overlap(a, c) for k, a in enumerate(ticks) for c in ticks[k + 1:]):
                        problems.append(f"{where}: tick labels of {axis} collide")
                def area(box):
                    return (box[2] - box[0]) * (box[3] - box[1])

                largest = max((area(p) for p in b["panels"]), default=0.0)
                panels = [p for p in b["panels"]  # an inset (a thumbnail beside or over the plot) is not a panel
                          if area(p) >= 0.15 * largest]
                if len(panels) == 1 and device == "phone":
                    plot = panels[0]
                    if plot[2] - plot[0] < 0.5 * width or plot[3] - plot[1] < 100:
                        problems.append(f"{where}: the plot area is squeezed to {plot[2] - plot[0]:.0f} x "
                                        f"{plot[3] - plot[1]:.0f} px")
                for plot in panels if len(panels) > 1 else ():  # small multiples: each panel still readable
                    if plot[2] - plot[0] < 110 or plot[3] - plot[1] < 90:
                        problems.append(f"{where}: a panel is squeezed to {plot[2] - plot[0]:.0f} x "
                                        f"{plot[3] - plot[1]:.0f} px")
        context.close()
    assert not problems, "\n".join(problems)
