"""The app's URL: ONE description of the view, written by the app once per run, through Streamlit's public
``st.query_params`` only.

No widget is bound to the URL by Streamlit; the app owns it:

* **Before any widget** (:func:`begin_run`, from ``app.py``), every URL value of the page's controls is checked
  against its declaration (type, range, options; :class:`UrlParam`): a bad value is dropped (or moved onto the
  control's grid) and a message is recorded, shown beside the control by :func:`url_note`. When the URL did not
  come from the app itself (a link, a typed URL, Back or Forward), every control of the page takes the URL's
  value, and a control the URL leaves out returns to its default: the view is the URL's.
* **After the page ran** (:func:`end_run`), the values the controls show are spelled as codes
  (``manifold=hyperbolic``, never a label) and the URL is rewritten in ONE update when it differs: it holds every
  value that differs from what a fresh browser shows (a default is left out), so a link reproduces the view.
* **Navigation** (:func:`link_query`): the app's own page links carry the exact URL the target page will hold
  (the scenario and that page's remembered settings), so the browser records ONE history entry per navigation
  and the page opens without rewriting its URL; one entry per change of a control; Back restores the view.

A label typed by a person (``manifold=Hyperbolic Hᵈ``) is an accepted alias of the code and is respelled.
"""

import math
import re

import streamlit as st

__all__ = ["check_url_value", "decode", "encode", "begin_run", "end_run", "remember", "link_query", "url_note",
           "remembered_url_state", "restore_url_state"]

MESSAGES_KEY = "geodp_url_messages"
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
#: Session keys: the remembered non-default values of every control (URL spelling), the URL each page is expected
#: to hold when the app itself led there, the defaults seen, and the controls that start from their default this run.
_MEMORY = "geodp_url_memory"
_EXPECTED = "geodp_url_expected"
_DEFAULTS = "geodp_url_defaults"
_FRESH = "geodp_url_fresh"
_PAGE = "geodp_url_page"
_UNSEEN = object()
_MAX_SHOWN = 40


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
    if spec.kind == "bool":
        if text.casefold() in ("true", "false"):
            return text.casefold(), None
        return None, f"{prefix} is not true or false; ignored."
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


def _url_values():
    """``{key: [values]}`` of the URL as this run sees it."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def _check_all(specs, raw):
    """``(clean, messages)``: ``{key: [values]}`` of the valid URL values of ``specs`` (respelled, moved onto the
    grid) and ``{key: message}`` for the values dropped or moved."""
    params = {k: v[-1] for k, v in raw.items() if v}
    messages, clean = {}, {}
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
                elif fixed not in kept:
                    kept.append(fixed)
            if bad:
                messages[key] = " ".join(dict.fromkeys(bad))
            if kept:
                clean[key] = kept
            continue
        value = values[-1] if values else ""
        low = high = None
        why = ""
        if spec.bounds is not None:
            try:
                low, high, why = spec.bounds(params)
            except Exception:  # noqa: BLE001 - a bad neighbour value: fall back to the static range
                low = high = None
        fixed, message = check_url_value(key, value, spec, low, high)
        if message is not None:
            messages[key] = message[:-1] + f" ({why})." if why and "outside" in message else message
        if fixed is not None:
            clean[key] = [fixed]
    return clean, messages


def _option(spec, code):
    """The widget's option behind URL code ``code`` (a checked value)."""
    if spec.values:
        return spec.values[spec.choices.index(code)]
    return code


def decode(spec, values):
    """The widget value of checked URL ``values`` (``[str]``) of a control declared by ``spec``."""
    text = values[-1]
    if spec.kind == "multi":
        return [_option(spec, v) for v in values if v != ""]
    if spec.kind == "choice":
        return _option(spec, text)
    if spec.kind == "bool":
        return text == "true"
    if spec.kind == "int":
        return int(text)
    if spec.kind == "float":
        return float(text)
    if spec.kind == "grid":
        value = float(text)
        return next(g for g in spec.grid if math.isclose(value, g, rel_tol=1e-9))
    return text


def _code(spec, value):
    if spec.values:
        for code, option in zip(spec.choices, spec.values):
            if option == value and type(option) is type(value):
                return code
        for code, option in zip(spec.choices, spec.values):
            if option == value:
                return code
        raise ValueError(f"{value!r} is not an option")
    return str(value)


def encode(spec, value):
    """The URL spelling (``[str]``) of widget value ``value`` of a control declared by ``spec`` (codes, never
    labels; the shortest spelling that reads back the same number). Raises ``ValueError`` for a value the
    declaration does not know."""
    if spec.kind == "multi":
        return [_code(spec, v) for v in value] or [""]
    if spec.kind == "choice":
        return [_code(spec, value)]
    if spec.kind == "bool":
        return ["true" if value else "false"]
    if spec.kind == "int":
        return [str(int(value))]
    if spec.kind == "float":
        number = float(value)
        return [str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)]
    if spec.kind == "grid":
        return [spec.grid_format(value)]
    return [str(value)]


def _context(spec, state):
    if spec.context is None:
        return None
    try:
        return spec.context(state)
    except Exception:  # noqa: BLE001 - no context: the default is unknown, the value is written
        return _UNSEEN


def _default_value(spec, key, state):
    """What control ``key`` shows in a fresh browser given the others' values (its declared default, or the one
    observed this session in the same context), as the widget holds it; ``_UNSEEN`` when not known."""
    if spec.default is not None:
        try:
            return decode(spec, encode(spec, spec.default(state)))
        except Exception:  # noqa: BLE001 - no default for these values
            return _UNSEEN
    where = (key, _context(spec, state))
    observed = state.get(_DEFAULTS, {}).get(where)
    return _UNSEEN if observed is None else decode(spec, observed)


def begin_run(specs, keys, page):
    """First thing of every run, before any widget: check the URL and give the page's controls its values.

    Every URL value of ``keys`` is checked against ``specs`` (a bad one is dropped or moved onto the grid, with
    a message for :func:`url_note`). On arrival at ``page`` (its widgets are new ones), and when the URL is not the
    one the app itself wrote for ``page`` (a link, a typed URL, Back, Forward), every control of ``keys`` takes
    the URL's value, and one the URL leaves out returns to its default. Otherwise (a rerun after a change of a
    control) the controls keep their values, and only one without a value is given the URL's.

    Returns
    -------
    dict
        ``{key: message}`` recorded by this call.
    """
    state = st.session_state
    page_specs = {key: specs[key] for key in keys if key in specs}
    raw = _url_values()
    clean, messages = _check_all(page_specs, raw)
    expected = state.get(_EXPECTED, {}).get(page)
    # a page's widgets are new ones after a page change (they would start from their defaults): they take the URL
    arrived = state.get(_PAGE) != page
    state[_PAGE] = page
    outside = arrived or clean != expected or bool(messages)
    memory = state.setdefault(_MEMORY, {})
    for key, spec in page_specs.items():
        if key in clean:
            if outside or key not in state:
                state[key] = decode(spec, clean[key])
            memory[key] = list(clean[key])
        elif outside:
            memory.pop(key, None)
            default = _UNSEEN if arrived else _default_value(spec, key, state)
            if default is _UNSEEN:
                state.pop(key, None)  # a new control (or one without a known default) starts from its default
            else:  # set, not removed: a control the browser still shows (Back on the same page) must change too
                state[key] = default
    state[_FRESH] = [key for key in page_specs if key not in state]
    if messages:
        store = state.setdefault(MESSAGES_KEY, {})
        for key, message in messages.items():
            store[key] = {"message": message, "value": _UNSEEN}
        while len(store) > _MAX_SHOWN:
            store.pop(next(iter(store)))
    return messages


def remember(specs, keys):
    """Remember the values the controls ``keys`` show now (a value equal to its default is forgotten: a fresh
    browser shows it anyway)."""
    state = st.session_state
    memory = state.setdefault(_MEMORY, {})
    defaults = state.setdefault(_DEFAULTS, {})
    fresh = set(state.get(_FRESH, ()))
    for key in keys:
        spec = specs.get(key)
        if spec is None or key not in state:
            continue
        try:
            encoded = encode(spec, state[key])
        except (ValueError, TypeError):
            continue
        where = (key, _context(spec, state))
        if key in fresh:
            defaults[where] = encoded
        if spec.default is not None:
            try:
                default = encode(spec, spec.default(state))
            except Exception:  # noqa: BLE001 - no default for these values: the value is written
                default = None
        else:
            default = defaults.get(where)
        if default == encoded:
            memory.pop(key, None)
        else:
            memory[key] = encoded


def end_run(specs, keys, page):
    """Last thing of every run (also when the page stopped early): remember the values the page's controls show
    and write the URL in ONE update when it differs (every value that differs from its default, as codes)."""
    remember(specs, keys)
    desired = _page_query(specs, keys)
    if _url_values() != desired:
        st.query_params.from_dict({key: values[0] if len(values) == 1 else values for key, values in desired.items()})
    st.session_state.setdefault(_EXPECTED, {})[page] = desired


def _page_query(specs, keys):
    memory = st.session_state.get(_MEMORY, {})
    return {key: list(memory[key]) for key in keys if key in memory and key in specs}


def link_query(specs, keys, page):
    """The URL (``{key: value or [values]}``) of a link to ``page`` whose controls are ``keys``: the remembered
    values that differ from their defaults. The page, opened by this link, finds its URL as expected and does not
    rewrite it (one history entry per navigation)."""
    desired = _page_query(specs, keys)
    st.session_state.setdefault(_EXPECTED, {})[page] = desired
    return {key: values[0] if len(values) == 1 else values for key, values in desired.items()}


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



def remembered_url_state():
    """``{key: [values]}`` of every value remembered this session (all pages; URL spelling)."""
    return {k: list(v) for k, v in st.session_state.get(_MEMORY, {}).items()}


def restore_url_state(values, specs):
    """Give the controls ``values`` (``{key: [str]}``, already checked against ``specs``) and remember them, so
    that each page opens with them (they become the pages' links' values)."""
    memory = st.session_state.setdefault(_MEMORY, {})
    for key, encoded in values.items():
        memory[key] = list(encoded)
        st.session_state[key] = decode(specs[key], list(encoded))
