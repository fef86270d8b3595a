"""Small UI helpers: honesty badges, error boxes, downloads."""

import contextlib

import streamlit as st

from geodp_core.exceptions import GeoDPError

LABEL_STYLE = {
    "exact": (":material/verified:", "green", "exact guarantee"),
    "approximate sampler": (":material/approval_delegation:", "orange", "guarantee under an approximate sampler"),
    "no formal guarantee": (":material/warning:", "red", "no formal guarantee"),
    "unavailable": (":material/block:", "gray", "unavailable"),
}


def honesty_badge(label):
    """Markdown badge for an honesty label (docs/specification.md §8)."""
    icon, color, text = LABEL_STYLE.get(label, ("?", "gray", label))
    return f":{color}-badge[{icon} {text}]"


@contextlib.contextmanager
def errors_shown_here(where=None):
    """Show any ValueError / geodp_core error raised inside as an in-page message (no traceback)."""
    target = where if where is not None else st
    try:
        yield
    except (ValueError, GeoDPError) as exc:
        target.error(f"{exc}", icon=":material/error:")
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback on the page
        target.error(
            f"Unexpected {type(exc).__name__} while computing this view; your settings are kept. "
            "Try other parameters, and please report the scenario (download its JSON).",
            icon=":material/error:",
        )


TEACH_KEY = "teach"


def teaching_toggle(where=None):
    """The Teaching-mode switch (on by default, remembered in the URL): explanation boxes beside figures and
    controls; experts turn it off."""
    target = where if where is not None else st.sidebar
    return target.toggle("Teaching mode", value=True, key=TEACH_KEY,
                         help="Explanation boxes beside each figure and control. Turn off for a compact view.")


def teaching_mode():
    """Whether explanation boxes are shown (the toggle's value; on when the toggle is not on this page)."""
    return bool(st.session_state.get(TEACH_KEY, True))


def teach(text, where=None):
    """An explanation box (markdown; ``$...$`` is rendered as maths), shown in teaching mode only."""
    if teaching_mode():
        (where if where is not None else st).info(text, icon=":material/school:")


def download_buttons(items, key_prefix):
    """Render download buttons side by side; ``items`` = [(label, data, file_name, mime)]."""
    cols = st.columns(len(items))
    for col, (label, data, file_name, mime) in zip(cols, items):
        col.download_button(label, data=data, file_name=file_name, mime=mime, key=f"{key_prefix}_{file_name}")


def scenario_files(scenario, page, study=None):
    """Download items of the scenario JSON and the Python snippet, with every page's remembered settings.

    ``study`` is the page's computation as code using ``scenario`` (default: the Explorer's run).
    """
    from geodp_app.url_params import page_settings, remember_page  # url_params imports the sidebar

    remember_page(page)  # this page's controls, as they are now
    settings = page_settings()
    return [
        ("Scenario JSON", scenario.to_json(settings), "geodp_scenario.json", "application/json"),
        ("Python snippet", scenario.to_python_snippet(settings, study), "geodp_reproduce.py", "text/x-python"),
    ]


class PageStopped(BaseException):  # not an error: no `except Exception` of a page catches it
    """Raised by :func:`stop_page`; ``app.py`` catches it after the page (see there)."""


def stop_page():
    """End the page here (instead of ``st.stop()``): ``app.py`` then still writes the view's URL and draws the menu.

    ``st.stop()`` makes every later Streamlit call of the run stop too, so the URL of a page that stopped early
    would never be written and its menu never drawn.
    """
    raise PageStopped
