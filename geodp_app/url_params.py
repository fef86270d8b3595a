"""Every URL-bound control of the app, declared once: type, range, options (see :mod:`geodp_app.urlstate`).

Pages read their widgets' bounds from here (:func:`limits`), so the URL check and the control agree.
"""

from dataclasses import replace
from functools import partial

from geodp_app.labels import (
    ALL_CLASSES,
    DATA_LABELS,
    METRIC_LABELS,
    NOTION_LABELS,
    SCENARIO_KEYS,
    SPACE_LABELS,
    as_code,
    mechanism_titles,
    radius_max,
    radius_note,
    scenario_default,
)
from geodp_app.pages import PAGES
from geodp_app.url_declare import UrlParam, choice, coded, grid
from geodp_app.urlstate import (
    begin_run,
    check_url_value,
    end_run,
    link_query,
    remember,
    remembered_url_state,
    restore_url_state,
)
from geodp_core.constraints import (
    DELTA_GRID,
    EPS_GRID,
    MU_GRID,
    RHO_GRID,
    WIDGET_RANGES,
    dim_range,
)
from geodp_core.geometry import manifold_class
from geodp_core.scenario import LABELLED_DATA, data_classes_for

__all__ = ["URL_PARAMS", "PAGE_URL_KEYS", "GLOBAL_KEYS", "declaration_of", "limits", "bounds",
           "clean_url", "write_url", "remember_page", "page_link_query", "page_keys", "page_settings", "load_page_settings"]

def _dim_bounds(params):
    manifold = as_code(params.get("manifold", "sphere"), SPACE_LABELS, "sphere")
    low, high = dim_range(manifold)
    space = manifold_class(manifold)
    if space.size_symbol == "d":  # the intrinsic dimension: no note
        return low, high, ""
    unit = " landmarks" if space.size_symbol == "k" else ""
    return low, high, f"{space.title}: {space.size_symbol} from {low} to {high}{unit}"


def _radius_bounds(params):
    try:
        dim = int(float(params.get("dim", 2)))
    except ValueError:
        dim = 2
    manifold = as_code(params.get("manifold", "sphere"), SPACE_LABELS, "sphere")
    metric = as_code(params.get("metric", ""), METRIC_LABELS, "") if manifold_class(manifold).metric_choices else ""
    return 0.05, radius_max(manifold, dim, metric), radius_note(manifold, dim, metric)


_TITLES = mechanism_titles()
#: Every class label of the labelled real datasets (which ones a scenario accepts depends on its data).
_CLASS_LABELS = sorted({str(label) for kind in LABELLED_DATA for label in data_classes_for(kind)}, key=int)
_SIDEBAR = {
    "manifold": coded(SPACE_LABELS),
    "dim": UrlParam("int", min(dim_range(m)[0] for m in SPACE_LABELS), max(dim_range(m)[1] for m in SPACE_LABELS),
                    bounds=_dim_bounds),
    "metric": coded(METRIC_LABELS),
    "data": coded(DATA_LABELS),
    "data_class": choice(dict.fromkeys([ALL_CLASSES, *_CLASS_LABELS])),
    "spread": UrlParam("float", *WIDGET_RANGES["spread"]),
    "n": UrlParam("int", *WIDGET_RANGES["n"]),
    "radius": UrlParam("float", 0.05, 10.0, bounds=_radius_bounds),
    "center_offset": UrlParam("text", max_chars=400),
    "p": UrlParam("float", *WIDGET_RANGES["p"]),
    "mechanisms": coded(_TITLES, "multi"),
    "notion": coded(NOTION_LABELS),
    "eps": grid(EPS_GRID),
    "delta": grid(DELTA_GRID),
    "mu": grid(MU_GRID),
    "rho": grid(RHO_GRID),
    "alpha": UrlParam("float", *WIDGET_RANGES["alpha"]),
    "seed": UrlParam("int", *WIDGET_RANGES["seed"]),
    "n_releases": UrlParam("int", *WIDGET_RANGES["n_releases"]),
}
_SIDEBAR = {key: replace(spec, default=partial(scenario_default, key)) for key, spec in _SIDEBAR.items()}
_GLOBAL = {"teach": UrlParam("bool")}

#: Every control bound to the URL, by widget key.
URL_PARAMS = {**_GLOBAL, **_SIDEBAR, **{key: spec for page in PAGES for key, spec in page.controls.items()}}


def limits(key):
    """``(low, high)`` of a numeric URL-bound control (for the widget's min_value / max_value)."""
    spec = URL_PARAMS[key]
    return spec.low, spec.high


def bounds(key):
    """``dict(min_value=..., max_value=...)`` of a numeric URL-bound control: its range, declared once."""
    low, high = limits(key)
    return dict(min_value=low, max_value=high)


#: Each page's own URL-bound controls (besides the sidebar's scenario), by settings key, as the page declares them.
PAGE_URL_KEYS = {page.settings_key: tuple(page.controls) for page in PAGES if page.controls}


def declaration_of(key):
    """Where URL parameter ``key`` is declared: ``(Settings, field)`` of a study, ``"scenario"`` (the scenario's
    declared constraints), ``"global"``, or the declaring page's settings key; ``None`` for an unknown key."""
    if key in _SIDEBAR:
        return "scenario"
    if key in _GLOBAL:
        return "global"
    for page in PAGES:
        if key in page.controls:
            return page.controls[key].source or page.settings_key
    return None


#: Controls on every page (carried across page changes like the scenario).
GLOBAL_KEYS = ("teach",)


def page_keys(page):
    """Every URL key of page ``page`` (a settings key): the scenario, the global controls and its own."""
    return SCENARIO_KEYS + GLOBAL_KEYS + PAGE_URL_KEYS.get(page, ())


def clean_url(page=None):
    """First thing of every run (``app.py``), before any widget: check the URL and give the page's controls its
    values (:func:`geodp_app.urlstate.begin_run`). Returns the messages recorded."""
    return begin_run(URL_PARAMS, page_keys(page or "home"), page or "home")


def write_url(page=None):
    """Last thing of every run (``app.py``): the URL of the view, written once when it changed."""
    end_run(URL_PARAMS, page_keys(page or "home"), page or "home")


def remember_page(page):
    """Remember the values page ``page``'s controls show now (for a download made before the run ends)."""
    remember(URL_PARAMS, page_keys(page))


def page_link_query(page):
    """The URL parameters of a link to ``page`` (a settings key): the view that page will show."""
    return link_query(URL_PARAMS, page_keys(page), page)


def page_settings():
    """The remembered settings of every page (URL spelling, ``{key: value or [values]}``), for a scenario file."""
    out = {}
    for key, values in remembered_url_state().items():
        if key in URL_PARAMS and key not in SCENARIO_KEYS + GLOBAL_KEYS:
            out[key] = values if URL_PARAMS[key].kind == "multi" else values[-1]
    return dict(sorted(out.items()))


def load_page_settings(settings):
    """Validate page settings from a scenario file and remember the good ones; returns the problems found.

    Each value is checked as a URL value of its control (same ranges and options); unknown keys and bad values
    are skipped with a message, never applied.
    """
    good, problems = {}, []
    for key, value in settings.items():
        spec = URL_PARAMS.get(key)
        if spec is None or key in SCENARIO_KEYS:
            problems.append(f"unknown page setting {key!r} ignored")
            continue
        raw_values = value if isinstance(value, list) else [value]
        fixed_values = []
        for raw in raw_values:
            fixed, message = check_url_value(key, raw if isinstance(raw, str) else str(raw), spec)
            if message:
                problems.append(message.replace("URL parameter", "page setting"))
            if fixed is not None:
                fixed_values.append(fixed)
        if fixed_values:
            good[key] = fixed_values
    restore_url_state(good, URL_PARAMS)
    return problems
