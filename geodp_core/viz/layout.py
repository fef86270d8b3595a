"""The one rule that keeps every figure's title clear of the Plotly mode bar (no Streamlit, no other viz import).

The mode bar (zoom, pan, download buttons) floats over the top right corner of a chart: 24 px of buttons 2 px below
the top edge, shown on hover on a laptop and all the time on a touch screen. On a phone (a chart about 360 px wide)
a 3-D scene's mode bar is about 230 px wide, so a title at the top left runs under it. Every figure builder of
:mod:`geodp_core.viz` therefore places its title with :func:`title_below_modebar`: anchored to the top of the
figure (container coordinates), pushed down past the mode bar's band, with a top margin that holds the title, its
subtitle lines and a gap above the plot.
"""

import textwrap

__all__ = ["MODEBAR_PX", "TITLE_LINE_PX", "SUBTITLE_LINE_PX", "TITLE_CHARS", "NOTE_CHARS", "title_below_modebar",
           "wrap_text"]

TITLE_CHARS = 46
"""Characters per title line (14 px font): one line fits a 360 px wide phone chart."""
NOTE_CHARS = 56
"""Characters per line of notes and subtitles (11-12 px font)."""

MODEBAR_PX = 34
"""Height reserved at the top of every figure for the mode bar: 24 px of buttons 2 px below the edge, plus a gap."""
TITLE_LINE_PX = 19
"""Height of one title line (14-15 px font)."""
SUBTITLE_LINE_PX = 16
"""Height of one subtitle line (12 px font)."""
_MULTILINE_SHIFT_PX = 10  # Plotly starts a multi-line top-anchored title this much higher than one line


def wrap_text(text, width=TITLE_CHARS):
    """Wrap plain text at spaces into lines of at most ``width`` characters joined by ``<br>``.

    Existing ``<br>`` breaks are kept. Words longer than ``width`` are not split. Markup other than
    ``<br>`` must not contain spaces (``<b>`` is fine).
    """
    lines = []
    for paragraph in str(text).split("<br>"):
        lines.extend(textwrap.wrap(paragraph, width, break_long_words=False, break_on_hyphens=False) or [""])
    return "<br>".join(lines)


def _lines(text):
    return 0 if not text else str(text).count("<br>") + 1


def title_below_modebar(fig, text, *, subtitle="", font_size=14, gap=14, min_top=60, **title):
    """Give ``fig`` the title ``text`` at its top left, below the mode bar's band, and a top margin that fits it.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    text : str
        The title (lines joined by ``<br>``).
    subtitle : str
        Smaller grey lines under the title (``<br>``-joined), or empty.
    font_size : int
    gap : int
        Pixels between the last title line and the plot area.
    min_top : int
        Smallest top margin.
    **title
        Further title attributes (e.g. ``pad=dict(l=12)``).

    Returns
    -------
    int
        The top margin set: ``MODEBAR_PX + TITLE_LINE_PX·(title lines) + SUBTITLE_LINE_PX·(subtitle lines) + gap``
        (at least ``min_top``); the title's top edge is :data:`MODEBAR_PX` below the figure's.
    """
    lines = _lines(text)
    sub_lines = _lines(subtitle)
    top = max(min_top, MODEBAR_PX + TITLE_LINE_PX * lines + SUBTITLE_LINE_PX * sub_lines + gap)
    pad = dict(title.pop("pad", {}) or {})
    pad["t"] = MODEBAR_PX + (_MULTILINE_SHIFT_PX if lines > 1 else 0)
    spec = dict(text=text, x=title.pop("x", 0.0), xref="container", xanchor="left", y=1.0, yref="container",
                yanchor="top", pad=pad, font=dict(size=font_size), automargin=False, **title)
    if subtitle:
        spec["subtitle"] = dict(text=subtitle, font=dict(size=12, color="#555"))
    margin = fig.layout.margin.to_plotly_json() if fig.layout.margin is not None else {}
    margin["t"] = top
    fig.update_layout(title=spec, margin=margin)
    return top
