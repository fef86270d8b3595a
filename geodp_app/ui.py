"""Small UI helpers: honesty badges, error boxes, downloads."""

import contextlib
import re

import pandas as pd
import streamlit as st

from geodp_core.exceptions import GeoDPError
from geodp_core.geometry.base import unicode_powers

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


# ------------------------------------------------------------------------------------------ text for people
_GREEK = {"sigma": "σ", "rho": "ρ", "kappa": "κ", "tau": "τ", "eps": "ε", "lambda": "λ", "lam": "λ", "Delta": "Δ",
          "mu": "μ"}
_GREEK_WORD = re.compile(r"\b(" + "|".join(_GREEK) + r")(?=_|\b)")
_SUBSCRIPT_WORDS = {"max": "ₘₐₓ", "min": "ₘᵢₙ"}


def readable(text):
    """Text written for a notebook (calibration notes, reasons, cards) as a person reads it in the app.

    ``S^2`` → ``S²``, ``R^d`` → ``ℝᵈ``, ``H^12`` → ``H¹²``; parameter names spelled as in the code become their
    symbols (``sigma`` → σ, ``tau`` → τ, ``eps_p`` → ε_p, ``Delta`` → Δ, ``p_hat`` → p̂, ``v_max`` → vₘₐₓ); other
    snake_case words are written with spaces (``x_range`` → "x range"). Text inside `backticks` and $maths$ is
    kept as it is.
    """
    parts = re.split(r"(`[^`]*`|\$[^$]*\$)", str(text))
    for i in range(0, len(parts), 2):
        part = re.sub(r"\bR\^", "ℝ^", parts[i])
        part = unicode_powers(part)
        part = re.sub(r"\b([pv])_hat\b", lambda m: m.group(1) + "\u0302", part)
        part = _GREEK_WORD.sub(lambda m: _GREEK[m.group(1)], part)
        part = re.sub(r"(?<=\w)_(max|min)\b", lambda m: _SUBSCRIPT_WORDS[m.group(1)], part)
        part = re.sub(r"(?<![^\W_])([a-z][a-z0-9]*)_(?=[a-z]{2,})", r"\1 ", part)
        part = re.sub(r"(?<=[a-z0-9] )([a-z]+)_(?=[a-z]{2,})", r"\1 ", part)  # the next part of a longer name
        parts[i] = part
    return "".join(parts)


#: Column names of the studies' tables as people read them.
COLUMN_WORDS = {"title": "mechanism", "mean": "mean distance", "se": "s.e.", "n_reps": "releases",
                "label": "honesty label", "reason": "why unavailable", "dim": "dimension d", "n": "records n",
                "sigma": "σ", "mu": "μ", "rho": "ρ", "eps": "ε", "delta": "δ", "alpha": "α",
                "sigma_over_delta": "σ/Δ", "bound": "paper bound", "sensitivity": "sensitivity Δ",
                "achieved": "achieved guarantee", "target": "privacy target",
                "budget": "budget",
                "noise": "noise",
                "scale": "noise scale",
                "floor": "conformal at ε = 50",
                "point_set_floor": "vertex-sampler floor",
                "phi_max": "φ max",
                "domain_radius": "domain radius",
                "space": "space",
                "mu_exact": "exact μ",
                "mu_flat": "Δ/σ (the line)",
                "mu_mc_mean": "Algorithm 2: mean μ",
                "mu_mc_se": "s.e. of μ",
                "mu_mc_min": "min μ",
                "mu_mc_max": "max μ",
                "overestimate": "mean − exact",
                "n_seeds": "replicates",
                "t": "time t",
                "mean_distance": "mean distance",
                "theory": "exact √(πt) (flat plane)",
                "releases": "releases",
                "seconds": "seconds",
                "ms_per_release": "ms per release",
                "eps_p": "ε_p",
                "eps_v": "ε_v",
                "share": "ε_p share",
                "version": "version",
                "mspe_nonprivate": "non-private MSPE",
                "mspe_mean": "mean MSPE",
                "mspe_se": "s.e. of MSPE",
                "log_mspe_mean": "ln mean MSPE",
                "n_fits": "fits",
                "tau_used": "τ used",
                "covariate": "covariate x",
                "distance_mean": "mean Procrustes distance to the non-private shape",
                "distance_se": "s.e. of the distance",
                "distance_max": "largest distance",
                "data_spread": "data spread",
                "r_p_min": "r_p min",
                "r_p_median": "r_p median",
                "r_p_max": "r_p max",
                "r_v_min": "r_v min",
                "r_v_median": "r_v median",
                "r_v_max": "r_v max",
                "max_rhat": "largest R̂",
                "converged": "passed the check",
                "method": "method",
                "seed": "seed",
                "dataset": "dataset",
                "panel": "panel",
                "spread": "spread",
                "cell": "cell"}


def readable_table(frame, drop=("mechanism", "status")):
    """A study's table for a person (shown or downloaded): readable column names (:data:`COLUMN_WORDS`, other
    snake_case names with spaces), text cells through :func:`readable`, the code-name columns ``drop`` left out
    when a human ``title`` column is there."""
    frame = pd.DataFrame(frame).copy()
    if "title" in frame.columns:
        frame = frame.drop(columns=[c for c in drop if c in frame.columns])
    for i in range(frame.shape[1]):
        column = frame.iloc[:, i]
        if column.dtype == object or pd.api.types.is_string_dtype(column.dtype):
            frame[frame.columns[i]] = column.map(lambda v: readable(v) if isinstance(v, str) else v).astype(object)
    names, taken = [], set(map(str, frame.columns))
    for column in map(str, frame.columns):
        name = COLUMN_WORDS.get(column, readable(column).replace("_", " "))
        name = column if name != column and name in taken else name  # never two columns of one name
        taken.add(name)
        names.append(name)
    frame.columns = names
    return frame
class PageStopped(BaseException):  # not an error: no `except Exception` of a page catches it
    """Raised by :func:`stop_page`; ``app.py`` catches it after the page (see there)."""


def stop_page():
    """End the page here (instead of ``st.stop()``): ``app.py`` then still writes the view's URL and draws the menu.

    ``st.stop()`` makes every later Streamlit call of the run stop too, so the URL of a page that stopped early
    would never be written and its menu never drawn.
    """
    raise PageStopped
