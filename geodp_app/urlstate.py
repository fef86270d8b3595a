"""URL query parameters, through Streamlit's public ``st.query_params`` only: every value is validated BEFORE
any widget reads it, and choices travel as codes.

Two kinds of controls live in the URL:

* **Bound** controls (``bind="query-params"``). Streamlit writes their value into the URL and, when a page
  first shows them, seeds them from the URL as it was when the script run started. Its own parsing drops most
  bad values silently, and some (``inf`` or ``1e309`` for an integer control) raise inside the widget. So
  :func:`clean_query_params` runs before the navigation runs any page: each declared parameter is checked
  against its type and range, invalid ones are removed from the URL (or moved onto the control's grid), and a
  message is recorded that the page shows beside the control with :func:`url_note`. When the URL of such a
  control was changed, the script is rerun at once (``st.rerun``, before anything of the page is drawn), so
  the widgets seed from the cleaned URL.
* **Coded** choices (``UrlParam(coded=True)``). A bound widget writes its *displayed* option into the URL,
  so a choice shown with a human label would put the label there. These controls are not bound: the app
  writes the option's code (``manifold=hyperbolic``) after the widget ran (:func:`url_note`, then
  :func:`write_url_values` once per run), and puts a URL value into ``st.session_state`` before the widget is
  created when the value came from outside the app (a link, Back or Forward). A label typed by a person is an
  accepted alias and is respelled as the code.

Streamlit refuses to change a bound parameter through ``st.query_params`` once its widget is on the page (a
rerun of the same page): such a value was written by the widget itself, so it is left to the widget.

Declarations are plain :class:`UrlParam` records (see ``geodp_app.url_params``); unknown keys are left alone.
"""

import math
import re
from dataclasses import dataclass, field

import streamlit as st
from streamlit.errors import StreamlitAPIException

__all__ = ["UrlParam", "check_url_value", "clean_query_params", "url_note", "carry_url_state",
           "remember_url_state", "remembered_url_state", "restore_url_state", "write_url_values"]

MESSAGES_KEY = "geodp_url_messages"
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_RERAN_KEY = "geodp_url_reran"
#: Coded choices: their URL values at the end of the last run, their values this run (to write), the values
#: they show when neither the URL nor the session set them (their defaults), and which ones do so this run.
_CODED_LAST = "geodp_url_coded_last"
_CODED_SHOWN = "geodp_url_coded_shown"
_CODED_DEFAULT = "geodp_url_coded_default"
_CODED_FRESH = "geodp_url_coded_fresh"
#: The coded choices declared so far (filled by :func:`clean_query_params`).
_CODED = {}
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
        Accepted URL spellings of the options, as written into the URL: the codes of a ``coded`` choice, the
        displayed labels of a bound widget.
    aliases
        Other accepted spellings -> the spelling in ``choices`` (labels of a coded choice, internal names of a
        bound one).
    grid
        The select-slider's numeric values (an off-grid value moves to the largest value not above it,
        i.e. towards more privacy, with a message).
    grid_format
        How the widget spells a grid value in the URL (default ``str``).
    bounds
        Optional ``bounds(params) -> (low, high, why)`` giving a range that depends on other parameters
        (applied when the URL came from outside: a bound control's own value is left to the control).
    max_chars
        Longest accepted value.
    coded
        A ``choice`` or ``multi`` control that is not bound to the URL: the app writes its code (see above).
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
    coded: bool = False


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


def _url_values():
    """``{key: [values]}`` of the URL as this run sees it."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def _url_form(values):
    return values[0] if len(values) == 1 else list(values)


def _apply(sets, removals):
    """Write ``sets`` (``{key: [values]}``) into the URL in one update and remove ``removals``; parameters that
    Streamlit keeps for a widget on the page are skipped. Returns the keys changed."""
    done = set()
    if sets:
        try:
            st.query_params.update({key: _url_form(values) for key, values in sets.items()})
            done |= set(sets)
        except StreamlitAPIException:  # one of them is bound to a widget on this page: one by one
            for key, values in sets.items():
                try:
                    st.query_params[key] = _url_form(values)
                    done.add(key)
                except StreamlitAPIException:
                    pass
    for key in removals:
        try:
            del st.query_params[key]
            done.add(key)
        except (StreamlitAPIException, KeyError):
            pass
    return done


def _check_all(specs, raw):
    """``(changes, messages)``: ``{key: [values] or None}`` to write (``None``: remove) and ``{key: message}``."""
    params = {k: v[-1] for k, v in raw.items() if v}
    messages, changes = {}, {}
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
            if kept != values:
                changes[key] = kept or None
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
        if fixed is None:
            changes[key] = None
        elif fixed != value or len(values) > 1:
            changes[key] = [fixed]
    return changes, messages


def clean_query_params(specs, extra=None):
    """Validate every declared URL parameter before any widget reads it (call once per run, first thing).

    Invalid values are removed from the URL (so no widget sees them) or moved onto the control's grid, and
    a message is recorded for :func:`url_note`. Values spelled differently from the URL's own spelling (a
    label of a coded choice, an internal name of a bound one) are respelled silently. A parameter that
    Streamlit keeps for a widget already on the page is left to that widget (its value is the widget's own).
    When the URL of a bound control changed, the script reruns at once so the widgets seed from the cleaned
    URL. Coded choices whose URL value came from outside the app are put into ``st.session_state``.

    Parameters
    ----------
    specs
        ``{key: UrlParam}`` of every URL-bound control.
    extra
        ``{key: [values]}`` to add to the URL where it has no value for ``key`` (remembered settings carried
        to a page, see :func:`carry_url_state`); they are checked like the rest.

    Returns
    -------
    dict
        ``{key: message}`` recorded by this call.
    """
    _CODED.update({key: spec for key, spec in specs.items() if spec.coded})
    raw = _url_values()
    added = {k: list(v) for k, v in (extra or {}).items() if k not in raw}
    raw.update(added)
    changes, messages = _check_all(specs, raw)
    for key, values in added.items():
        changes.setdefault(key, values)
    sets = {k: v for k, v in changes.items() if v is not None}
    applied = _apply(sets, [k for k, v in changes.items() if v is None])
    for key in applied:
        if changes[key] is None:
            raw.pop(key, None)
        else:
            raw[key] = changes[key]
    new_messages = {key: message for key, message in messages.items() if key in applied}
    if new_messages:
        store = st.session_state.setdefault(MESSAGES_KEY, {})
        for key, message in new_messages.items():
            store[key] = {"message": message, "value": _UNSEEN}
        while len(store) > _MAX_SHOWN:
            store.pop(next(iter(store)))
    if applied - set(_CODED) and not st.session_state.get(_RERAN_KEY, False):
        st.session_state[_RERAN_KEY] = True  # once: the rerun finds the URL clean
        st.rerun()
    st.session_state[_RERAN_KEY] = False
    _seed_coded(raw)
    return new_messages


def _decode(values, spec):
    if spec.kind == "multi":
        return [v for v in values if v != ""]
    return values[-1]


def _encode(value, spec):
    if spec.kind == "multi":
        return [str(v) for v in value] or [""]
    return [str(value)]


def _seed_coded(raw):
    """Put the URL values of coded choices that came from outside the app into ``st.session_state``.

    A value came from outside when the URL no longer holds what it held at the end of the last run (a link,
    Back, Forward). Otherwise the URL's value is re-stated when the session holds no value or the same one (the
    same key on another page is a new control, which would start from its default); a different value in the
    session is the user's change, which the URL follows at the end of the run. When Back leads to a URL without
    the parameter, the control returns to the value it shows by default.
    """
    state = st.session_state
    last = state.get(_CODED_LAST, {})
    defaults = state.get(_CODED_DEFAULT, {})
    fresh = []
    for key, spec in _CODED.items():
        url = raw.get(key)
        if url != last.get(key):
            if url is not None:
                state[key] = _decode(url, spec)
            elif key in defaults:
                state[key] = _decode(defaults[key], spec)
        elif url is not None and (key not in state or _encode(state[key], spec) == url):
            state[key] = _decode(url, spec)  # also re-stated: the control may be a new one (another page)
        if url is None and key not in state:
            fresh.append(key)  # the control will show its default
    state[_CODED_FRESH] = fresh


def _coded_shown(key, value):
    """Record the value coded choice ``key`` shows this run (written into the URL by :func:`write_url_values`)."""
    spec = _CODED.get(key)
    if spec is None or value is None:
        return
    state = st.session_state
    encoded = _encode(value, spec)
    if key in state.get(_CODED_FRESH, ()):
        state.setdefault(_CODED_DEFAULT, {})[key] = encoded
    state.setdefault(_CODED_SHOWN, {})[key] = encoded


def _coded_writes():
    """``{key: [codes]}`` the URL must change to: shown values that differ from the URL's, except a default
    the URL does not hold (a page opened without parameters keeps a clean URL)."""
    state = st.session_state
    defaults = state.get(_CODED_DEFAULT, {})
    writes = {}
    for key, encoded in state.get(_CODED_SHOWN, {}).items():
        url = st.query_params.get_all(key) or None
        if url != encoded and not (url is None and defaults.get(key) == encoded):
            writes[key] = encoded
    return writes


def write_url_values():
    """Write the codes of the coded choices shown this run into the URL, in one update (call once, last thing
    in a run, also when the page stopped early)."""
    state = st.session_state
    writes = _coded_writes()
    if writes:
        _apply(writes, [])
    state.pop(_CODED_SHOWN, None)
    state[_CODED_LAST] = {key: st.query_params.get_all(key) or None for key in _CODED}


def url_note(key, value=None, where=None):
    """Show the recorded URL problem of control ``key`` beside it (call right after the widget).

    ``value`` is the widget's current value: the note disappears once the user changes the control. For a
    coded choice, the value is also what :func:`write_url_values` writes into the URL.
    """
    _coded_shown(key, value)
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


def carry_url_state(keys, page):
    """The remembered values of ``keys`` to put back into the URL on a page change (call before the widgets
    are created, and pass the result to :func:`clean_query_params`).

    Streamlit drops a page's bound query parameters when another page is opened, so a scenario opened by link
    (or set by hand) would reset to the defaults on the next page with the same controls. On the first run of a
    page after a page change, every remembered value missing from the URL is returned, to be put back into it
    so the widgets seed from it as from a link. Values the URL already holds (a link) win. ``page`` names the
    page.

    Returns
    -------
    dict
        ``{key: [values]}`` (empty when the page did not change).
    """
    last = st.session_state.get(_LAST_PAGE)
    st.session_state[_LAST_PAGE] = page
    if last is None or page == last:
        return {}
    present = set(st.query_params)
    return {k: list(v) for k, v in st.session_state.get(_CARRIED, {}).items() if k in keys and k not in present}


def remember_url_state(keys):
    """Remember the URL values of ``keys`` (after the widgets ran) for :func:`carry_url_state`."""
    carried = dict(st.session_state.get(_CARRIED, {}))  # other pages' values stay remembered
    writes = _coded_writes()
    for key in keys:
        values = writes.get(key) or st.query_params.get_all(key)
        if values:
            carried[key] = list(values)
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
