"""URL query parameters: every bound value is validated BEFORE any widget reads it.

Widgets bound to the URL (``bind="query-params"``) seed themselves from the query string on a page's first
run. Streamlit's own parsing drops most bad values silently, and some (``inf`` or ``1e309`` for an integer
control) raise inside the widget, replacing the page with an error box on every rerun. So ``app.py`` calls
:func:`clean_query_params` before the navigation runs any page: each declared parameter is checked against
its type and range, invalid ones are removed from the URL (or moved onto the control's grid), and a message
is recorded; the page shows it beside the control with :func:`url_note`.

Declarations are plain :class:`UrlParam` records (see ``geodp_app.url_params``); unknown keys are left alone.
"""

import math
import re
from dataclasses import dataclass, field

import streamlit as st

__all__ = ["UrlParam", "check_url_value", "clean_query_params", "url_note", "carry_url_state",
           "remember_url_state", "remembered_url_state", "restore_url_state"]

MESSAGES_KEY = "geodp_url_messages"
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_FIRST_RUN_KEY = "geodp_url_checked"
_UNSEEN = object()
_MAX_SHOWN = 40


@dataclass(frozen=True)
class UrlParam:
    """What a URL parameter may hold.

    kind
        ``"int"``, ``"float"``, ``"grid"`` (a select-slider of numbers), ``"choice"`` (one option),
        ``"multi"`` (several options) or ``"text"``.
    low, high, low_open
        Range of ``int``/``float``/``grid`` values (``low_open``: ``low`` itself is excluded).
    choices
        Accepted URL spellings of the options, as the widget writes them (its displayed labels).
    aliases
        Other accepted spellings -> the widget's spelling (e.g. internal names).
    grid
        The select-slider's numeric values (an off-grid value moves to the largest value not above it,
        i.e. towards more privacy, with a message).
    grid_format
        How the widget spells a grid value in the URL (default ``str``).
    bounds
        Optional ``bounds(params) -> (low, high, why)`` giving a range that depends on other parameters
        (checked on the first run of a session only, when the URL came from outside).
    max_chars
        Longest accepted value.
    """

    kind: str
    low: float = None
    high: float = None
    low_open: bool = False
    choices: tuple = ()
    aliases: dict = field(default_factory=dict)
    grid: tuple = ()
    grid_format: object = str
    bounds: object = None
    max_chars: int = 200


def _show(raw):
    text = str(raw)
    return repr(text if len(text) <= 40 else text[:40] + "…")


def _range_text(spec, low, high):
    left = "(" if spec.low_open else "["
    return f"{left}{low:g}, {high:g}]"


def check_url_value(key, raw, spec, low=None, high=None):
    """Validate one raw URL value.

    Returns
    -------
    (value, message)
        ``value`` is the string to keep in the URL (possibly respelled or moved onto the grid), or
        ``None`` to drop the parameter; ``message`` is ``None`` when the value is fine as given.
    """
    low = spec.low if low is None else low
    high = spec.high if high is None else high
    prefix = f"URL parameter {key}={_show(raw)}"
    if not isinstance(raw, str):
        return None, f"{prefix} is not text; ignored."
    if len(raw) > spec.max_chars:
        return None, f"URL parameter {key} is {len(raw)} characters long (at most {spec.max_chars}); ignored."
    if spec.kind == "text":
        return raw, None
    text = raw.strip()
    if spec.kind in ("choice", "multi"):
        if text in spec.choices:
            return text, None
        if text in spec.aliases:
            return spec.aliases[text], None
        folded = {c.casefold(): c for c in spec.choices} | {a.casefold(): v for a, v in spec.aliases.items()}
        if text.casefold() in folded:
            return folded[text.casefold()], None
        shown = ", ".join(spec.choices[:12]) + (", …" if len(spec.choices) > 12 else "")
        return None, f"{prefix} is not one of the options ({shown}); ignored."
    if not text:
        return None, f"{prefix} is empty; ignored (the control keeps its value)."
    try:
        value = float(text)
    except ValueError:
        return None, f"{prefix} is not a number; ignored."
    if not math.isfinite(value):
        return None, f"{prefix} is not a finite number; ignored."
    if spec.kind == "int":
        if not (value.is_integer() and _INT_TEXT.fullmatch(text)):
            return None, f"{prefix} is not a whole number; ignored."
        value = int(text)
    if spec.kind == "grid":
        if not (value > 0.0 if spec.low_open or low is None else value >= low):
            return None, f"{prefix} is not a positive number; ignored."
        for g in spec.grid:
            if math.isclose(value, g, rel_tol=1e-9):
                return spec.grid_format(g), None
        below = [g for g in spec.grid if g <= value]
        snapped = max(below) if below else min(spec.grid)
        return spec.grid_format(snapped), (
            f"{prefix} is not one of the slider's values; using {snapped:g} "
            + ("(the nearest value with more privacy)." if below else "(its smallest value).")
        )
    too_low = low is not None and (value <= low if spec.low_open else value < low)
    too_high = high is not None and value > high
    if too_low or too_high:
        return None, f"{prefix} is outside {_range_text(spec, low, high)}; ignored."
    return raw, None


def _query_params_object():
    """Streamlit's QueryParams of this session (internal API; ``None`` outside a script run)."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        if ctx is None:
            return None, None
        with ctx.session_state.query_params() as qp:
            if hasattr(qp, "_query_params") and hasattr(qp, "_initial_query_params"):
                return qp, ctx
    except Exception:  # noqa: BLE001 - a Streamlit internals change must not break the page
        pass
    return None, None


def _raw_values(qp):
    """{key: [values]} of the URL (the current and the seeding copy)."""
    out = {}
    for key, value in list(qp._initial_query_params.items()) + list(qp._query_params.items()):
        values = value if isinstance(value, list) else [value]
        out.setdefault(key, list(values))
    return out


def clean_query_params(specs):
    """Validate every declared URL parameter before any widget reads it (call once per run, first thing).

    Invalid values are removed from the URL (so no widget sees them) or moved onto the control's grid, and
    a message is recorded for :func:`url_note`. Values spelled differently from the widget's own spelling
    (an internal name instead of the label) are respelled silently. Ranges that depend on other parameters
    (``UrlParam.bounds``) are checked on the session's first run only, when the URL came from outside.

    Returns
    -------
    dict
        ``{key: message}`` recorded by this call.
    """
    qp, ctx = _query_params_object()
    if qp is None:
        return {}
    first_run = not st.session_state.get(_FIRST_RUN_KEY, False) or bool(getattr(ctx, "is_history_navigation", False))
    st.session_state[_FIRST_RUN_KEY] = True
    raw = _raw_values(qp)
    new_messages, changes = {}, {}
    for key, spec in specs.items():
        if key not in raw:
            continue
        values = raw[key]
        if spec.kind == "multi":
            kept, bad = [], []
            for value in values:
                if value == "" and len(values) == 1:
                    kept.append(value)  # an empty multiselect: the page says what is missing
                    continue
                fixed, message = check_url_value(key, value, spec)
                if fixed is None:
                    bad.append(message)
                else:
                    kept.append(fixed)
            if bad:
                new_messages[key] = " ".join(dict.fromkeys(bad))
            if kept != values:
                changes[key] = kept or None
            continue
        value = values[-1] if values else ""
        low = high = None
        why = ""
        if first_run and spec.bounds is not None:
            try:
                low, high, why = spec.bounds({k: v[-1] for k, v in raw.items() if v})
            except Exception:  # noqa: BLE001 - a bad neighbour value: fall back to the static range
                low = high = None
        fixed, message = check_url_value(key, value, spec, low, high)
        if message is not None:
            new_messages[key] = message[:-1] + f" ({why})." if why and "outside" in message else message
        if fixed is None:
            changes[key] = None
        elif fixed != value or len(values) > 1:
            changes[key] = fixed
    if changes:
        for key, value in changes.items():
            if value is None:
                qp._query_params.pop(key, None)
                qp._initial_query_params.pop(key, None)
            elif isinstance(value, list):
                qp._query_params[key] = value if len(value) > 1 else value[0]
                qp._initial_query_params[key] = list(value)
            else:
                qp._query_params[key] = value
                qp._initial_query_params[key] = [value]
        try:
            qp._send_query_param_msg()
        except Exception:  # noqa: BLE001 - the backend copy is fixed; the browser URL updates on the next change
            pass
    if new_messages:
        store = st.session_state.setdefault(MESSAGES_KEY, {})
        for key, message in new_messages.items():
            store[key] = {"message": message, "value": _UNSEEN}
        while len(store) > _MAX_SHOWN:
            store.pop(next(iter(store)))
    return new_messages


def url_note(key, value=None, where=None):
    """Show the recorded URL problem of control ``key`` beside it (call right after the widget).

    ``value`` is the widget's current value: the note disappears once the user changes the control.
    """
    store = st.session_state.get(MESSAGES_KEY)
    if not store or key not in store:
        return
    entry = store[key]
    try:
        if entry["value"] is _UNSEEN:
            entry["value"] = value
        elif entry["value"] != value:
            store.pop(key, None)
            return
    except Exception:  # noqa: BLE001 - uncomparable values: keep showing the note
        pass
    (where if where is not None else st).warning(entry["message"], icon=":material/link_off:")


_CARRIED = "geodp_carried_url_values"
_LAST_PAGE = "geodp_last_page"


def carry_url_state(keys, page=None):
    """Carry the URL-bound values of ``keys`` across page changes (call before the widgets are created).

    Streamlit drops a page's bound query parameters when another page is opened, so a scenario opened by link
    (or set by hand) would reset to the defaults on the next page with the same controls. On the first run of a
    page after a page change, every remembered value missing from the URL is put back into it, so the widgets
    seed from it as from a link. Values the URL already holds (a link) win. ``page`` names the page (default:
    the running script).
    """
    qp, ctx = _query_params_object()
    if qp is None:
        return
    page = page or getattr(ctx, "page_script_hash", None)
    last = st.session_state.get(_LAST_PAGE)
    st.session_state[_LAST_PAGE] = page
    if last is None or page == last:
        return
    present = set(qp._query_params) | set(qp._initial_query_params)
    missing = {k: v for k, v in st.session_state.get(_CARRIED, {}).items() if k in keys and k not in present}
    if not missing:
        return
    for key, values in missing.items():
        qp._query_params[key] = list(values) if len(values) > 1 else values[0]
        qp._initial_query_params[key] = list(values)
    try:
        qp._send_query_param_msg()
    except Exception:  # noqa: BLE001 - the widgets are seeded anyway; the browser URL updates on the next change
        pass


def remember_url_state(keys):
    """Remember the URL values of ``keys`` (after the widgets ran) for :func:`carry_url_state`."""
    qp, _ = _query_params_object()
    if qp is None:
        return
    carried = dict(st.session_state.get(_CARRIED, {}))  # other pages' values stay remembered
    for key in keys:
        value = qp._query_params.get(key)
        if value is not None:
            carried[key] = list(value) if isinstance(value, (list, tuple)) else [value]
        else:
            carried.pop(key, None)  # back at its default: nothing to carry
    st.session_state[_CARRIED] = carried


def remembered_url_state():
    """``{key: [values]}`` of every URL-bound value remembered this session (all pages)."""
    return {k: list(v) for k, v in st.session_state.get(_CARRIED, {}).items()}


def restore_url_state(values):
    """Remember ``values`` (``{key: [str]}``, already validated) so each page opens with them."""
    carried = dict(st.session_state.get(_CARRIED, {}))
    carried.update({k: list(v) for k, v in values.items()})
    st.session_state[_CARRIED] = carried
