"""Every URL-bound control of the app, declared once: type, range, options (see :mod:`geodp_app.urlstate`).

Pages read their widgets' bounds from here (:func:`limits`), so the URL check and the control agree.
"""

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
)
from geodp_app.pages import PAGES
from geodp_app.urlstate import (
    UrlParam,
    carry_url_state,
    check_url_value,
    clean_query_params,
    remember_url_state,
    remembered_url_state,
    restore_url_state,
)
from geodp_core.audit import AUDIT_SPACES as AUDIT_SPACE_ARGS
from geodp_core.audit import VARIANT_INFO, VARIANTS
from geodp_core.conformal_lab import DATA_KINDS as CONFORMAL_DATA_KINDS
from geodp_core.constraints import (
    AUDIT_EPS_GRID,
    CONFORMAL_EPS_GRID,
    DELTA_GRID,
    EPS_GRID,
    MU_GRID,
    REGRESSION_EPS_GRID,
    RHO_GRID,
    WIDGET_RANGES,
    dim_range,
)
from geodp_core.geometry import get_manifold, manifold_class
from geodp_core.regression_lab import REGRESSION_PRESETS
from geodp_core.regression_lab import REGRESSION_SPACES as REGRESSION_SPACE_ARGS
from geodp_core.scenario import LABELLED_DATA, data_classes_for
from geodp_core.studies.reproductions import SIZE_WORDS, PaperCodes
from geodp_core.studies.reproductions import Settings as ReproductionSettings
from geodp_core.studies.settings import constraints
from geodp_core.viz import CAMERA_PRESETS

__all__ = ["URL_PARAMS", "PAGE_URL_KEYS", "X_AXES", "CONFORMAL_SPACES", "CONFORMAL_LAPLACIANS", "limits", "bounds",
           "clean_url", "remember_page", "page_settings", "load_page_settings"]

#: x-axes of the Utility curves page (value -> label written in the URL).
X_AXES = {"budget": "privacy budget", "n": "records n", "dim": "dimension d", "spread": "data spread",
          "p": "summary exponent p"}


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


def _choice(labels, display=None):
    """Options keyed by their internal name; ``display`` maps them to the label the bound widget writes."""
    if display is None:
        return UrlParam("choice", choices=tuple(labels))
    return UrlParam("choice", choices=tuple(display[k] for k in labels), aliases={k: display[k] for k in labels})


def _coded(labels, kind="choice"):
    """A choice the app writes into the URL as its code; its labels (``labels``: code -> label) are aliases."""
    return UrlParam(kind, choices=tuple(labels), aliases={label: code for code, label in labels.items()}, coded=True)


_TITLES = mechanism_titles()
#: Every class label of the labelled real datasets (which ones a scenario accepts depends on its data).
_CLASS_LABELS = sorted({str(label) for kind in LABELLED_DATA for label in data_classes_for(kind)}, key=int)
_SIDEBAR = {
    "manifold": _coded(SPACE_LABELS),
    "dim": UrlParam("int", min(dim_range(m)[0] for m in SPACE_LABELS), max(dim_range(m)[1] for m in SPACE_LABELS),
                    bounds=_dim_bounds),
    "metric": _coded(METRIC_LABELS),
    "data": _coded(DATA_LABELS),
    "data_class": _choice(dict.fromkeys([ALL_CLASSES, *_CLASS_LABELS])),
    "spread": UrlParam("float", *WIDGET_RANGES["spread"]),
    "n": UrlParam("int", *WIDGET_RANGES["n"]),
    "radius": UrlParam("float", 0.05, 10.0, bounds=_radius_bounds),
    "center_offset": UrlParam("text", max_chars=400),
    "p": UrlParam("float", *WIDGET_RANGES["p"]),
    "mechanisms": _coded(_TITLES, "multi"),
    "notion": _coded(NOTION_LABELS),
    "eps": UrlParam("grid", grid=tuple(EPS_GRID), low=0.0, low_open=True),
    "delta": UrlParam("grid", grid=tuple(DELTA_GRID), low=0.0, low_open=True),
    "mu": UrlParam("grid", grid=tuple(MU_GRID), low=0.0, low_open=True),
    "rho": UrlParam("grid", grid=tuple(RHO_GRID), low=0.0, low_open=True),
    "alpha": UrlParam("float", *WIDGET_RANGES["alpha"]),
    "seed": UrlParam("int", *WIDGET_RANGES["seed"]),
    "n_releases": UrlParam("int", *WIDGET_RANGES["n_releases"]),
}
_CURVES = {
    "curves_x": _choice(X_AXES, X_AXES),
    "curves_eps_min": UrlParam("float", 0.0, 1000.0, low_open=True),
    "curves_eps_max": UrlParam("float", 0.0, 1000.0, low_open=True),
    "curves_mu_min": UrlParam("float", 0.0, 1000.0, low_open=True),
    "curves_mu_max": UrlParam("float", 0.0, 1000.0, low_open=True),
    "curves_rho_min": UrlParam("float", 0.0, 1e6, low_open=True),
    "curves_rho_max": UrlParam("float", 0.0, 1e6, low_open=True),
    "curves_count": UrlParam("int", 2, 30),
    "curves_n_min": UrlParam("int", 2, 100_000),
    "curves_n_max": UrlParam("int", 2, 100_000),
    "curves_n_count": UrlParam("int", 2, 30),
    "curves_p_min": UrlParam("float", 1.0, 8.0, low_open=True),
    "curves_p_max": UrlParam("float", 1.0, 8.0, low_open=True),
    "curves_p_count": UrlParam("int", 2, 12),
    "curves_spread_min": UrlParam("float", 0.0, 3.0),
    "curves_spread_max": UrlParam("float", 0.0, 3.0),
    "curves_spread_count": UrlParam("int", 2, 30),
    "curves_reps": UrlParam("int", 2, 20_000),
}
ACCOUNTING_TABS = ("Converter", "Privacy profiles & trade-offs", "GDP: μ against σ", "Heat diffusion")
ACCOUNTING_TRADEOFF_MUS = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
ACCOUNTING_LANGEVIN_EPS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
ACCOUNTING_PMEAN_PS = (1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0)
#: Curvature choices of the p-mean sensitivity chart: label -> upper curvature bound κ.
ACCOUNTING_PMEAN_SPACES = {"flat or Hadamard (κ ≤ 0)": 0.0, "unit sphere (κ = 1)": 1.0}
_ACCOUNTING = {
    "accounting_notion": _choice(NOTION_LABELS, NOTION_LABELS),
    "accounting_eps": UrlParam("float", 0.0, 1000.0, low_open=True),
    "accounting_delta": UrlParam("float", 0.0, 1.0, low_open=True),
    "accounting_mu": UrlParam("float", 0.0, 1000.0, low_open=True),
    "accounting_alpha": UrlParam("float", 1.0, 1e6, low_open=True),
    "accounting_rho": UrlParam("float", 0.0, 1e6, low_open=True),
    "accounting_tab": _choice({label: "" for label in ACCOUNTING_TABS}),
    "accounting_at_delta": UrlParam("float", 0.0, 1.0),
    "accounting_at_alpha": UrlParam("float", 1.0, 1e6),
    "accounting_at_eps": UrlParam("float", 0.0, 1000.0),
    "accounting_profile_eps_max": UrlParam("float", 0.5, 30.0),
    "accounting_tradeoff_mu": UrlParam("multi", choices=tuple(str(v) for v in ACCOUNTING_TRADEOFF_MUS)),
    "accounting_gdp_sensitivity": UrlParam("float", 0.0, 3.14159),
    "accounting_gdp_kmax": UrlParam("int", 4, 24),
    "accounting_heat_alpha": UrlParam("float", 1.0, 1e6),
    "accounting_heat_sensitivity": UrlParam("float", 0.0, 1e6),
    "accounting_heat_k": UrlParam("float", 0.0, 1e6),
    "accounting_heat_eps": UrlParam("float", 0.0, 1e6),
    "accounting_lang_eps": UrlParam("multi", choices=tuple(str(v) for v in ACCOUNTING_LANGEVIN_EPS)),
    "accounting_lang_lam_max": UrlParam("float", 0.0, 1e6),
    "accounting_pmean_ps": UrlParam("multi", choices=tuple(str(v) for v in ACCOUNTING_PMEAN_PS)),
    "accounting_pmean_radius": UrlParam("float", 0.01, 0.78),
    "accounting_pmean_space": _choice({label: "" for label in ACCOUNTING_PMEAN_SPACES}),
}

def _chooser_labels(arguments):
    """Labels of a page's spaces, from each space itself: ``{key: label}`` for ``{key: get_manifold arguments}``."""
    return {key: get_manifold(*args).chooser_label for key, args in arguments.items()}


#: The Conformal lab's surfaces (a non-compact one is meshed on a public ball).
CONFORMAL_SPACES = {code: get_manifold(code, 2).chooser_label + ("" if get_manifold(code, 2).is_compact
                                                                 else " (public ball)")
                    for code in CONFORMAL_DATA_KINDS}
CONFORMAL_LAPLACIANS = {"fem": "FEM on the public mesh (DP)", "knn_data": "kNN graph on the data (paper; NOT DP)"}
_CONFORMAL = {
    "conformal_space": _choice(CONFORMAL_SPACES, CONFORMAL_SPACES),
    **{f"conformal_data_{space}": _choice(kinds, kinds) for space, kinds in CONFORMAL_DATA_KINDS.items()},
    "conformal_n": UrlParam("int", 20, 5000),
    "conformal_spread": UrlParam("float", 0.02, 2.0),
    "conformal_ball_sphere": UrlParam("float", 0.05, 3.0),
    "conformal_ball_hyperbolic": UrlParam("float", 0.05, 3.0),
    "conformal_eps": UrlParam("grid", grid=tuple(CONFORMAL_EPS_GRID), low=0.0, low_open=True),
    "conformal_share": UrlParam("float", 0.05, 0.95),
    "conformal_mesh": UrlParam("int", 100, 4000),
    "conformal_bandwidth": UrlParam("float", 0.05, 3.0),
    "conformal_upsilon": UrlParam("float", 0.01, 100.0),
    "conformal_smoothing": UrlParam("float", 0.0, 2.0),
    "conformal_laplacian": _choice(CONFORMAL_LAPLACIANS, CONFORMAL_LAPLACIANS),
    "conformal_sampler": _choice({"continuous": "", "vertex": ""}),
    "conformal_domain": UrlParam("float", 0.3, 4.0),
    "conformal_releases": UrlParam("int", 1, 500),
    "conformal_seed": UrlParam("int", 0, 2**31 - 1),
}

REGRESSION_SPACES = _chooser_labels(REGRESSION_SPACE_ARGS)
REGRESSION_CHAIN_LENGTHS = ("auto", 200, 500, 1000, 2000, 4000)
_REGRESSION = {
    "regression_space": _choice(REGRESSION_SPACES, REGRESSION_SPACES),
    **{f"regression_preset_{space}": _choice(presets) for space, presets in REGRESSION_PRESETS.items()},
    "regression_n": UrlParam("int", 5, 500),
    "regression_noise": UrlParam("float", 0.0, 1.0),
    "regression_eps": UrlParam("grid", grid=tuple(REGRESSION_EPS_GRID), low=0.0, low_open=True),
    "regression_share": UrlParam("float", 0.1, 0.9),
    "regression_tau": UrlParam("float", 0.0, 3.0),
    "regression_radius": UrlParam("float", 0.05, 3.0),
    "regression_chain": _choice({str(v): "" for v in REGRESSION_CHAIN_LENGTHS}),
    "regression_fits": UrlParam("int", 1, 8),
    "regression_seed": UrlParam("int", 0, 2**31 - 1),
}

AUDIT_SPACES = _chooser_labels(AUDIT_SPACE_ARGS)
AUDIT_NOTIONS = {"pure_dp": "ε-DP", "approx_dp": "(ε, δ)-DP"}
AUDIT_DELTA_GRID = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3)
AUDIT_RELEASE_GRID = (500, 1000, 1500, 2000, 4000, 8000, 16000, 50000, 100000)
AUDIT_CONFIDENCES = (0.9, 0.95, 0.99)
AUDIT_NO_VARIANT = "none"
_UNAVAILABLE_SUFFIX = " (unavailable here)"


def audit_mechanism_label(name, available=True):
    """The Audit page's label of a mechanism (the URL holds it)."""
    return _TITLES[name] + ("" if available else _UNAVAILABLE_SUFFIX)


def audit_variant_label(variant):
    """The Audit page's label of a variant (the URL holds it)."""
    return "none (the mechanism as offered)" if variant == AUDIT_NO_VARIANT else VARIANT_INFO[variant][0] + " — not DP"


_AUDIT = {
    "audit_space": _choice(AUDIT_SPACES, AUDIT_SPACES),
    "audit_mechanism": UrlParam(
        "choice", choices=tuple(audit_mechanism_label(m, ok) for m in _TITLES for ok in (True, False)),
        aliases={m: audit_mechanism_label(m) for m in _TITLES},
    ),
    **{f"audit_variant_{m}": UrlParam(
        "choice", choices=tuple(audit_variant_label(v) for v in (AUDIT_NO_VARIANT, *VARIANTS)),
        aliases={v: audit_variant_label(v) for v in (AUDIT_NO_VARIANT, *VARIANTS)},
    ) for m in _TITLES},
    "audit_notion": _choice(AUDIT_NOTIONS, AUDIT_NOTIONS),
    "audit_eps": UrlParam("grid", grid=tuple(AUDIT_EPS_GRID), low=0.0, low_open=True),
    "audit_delta": UrlParam("grid", grid=AUDIT_DELTA_GRID, low=0.0, low_open=True, grid_format=lambda g: f"{g:g}"),
    "audit_n": UrlParam("int", 2, 100_000),
    "audit_radius": UrlParam("float", 0.01, 5.0),
    "audit_releases": UrlParam("grid", grid=AUDIT_RELEASE_GRID, low=0.0, low_open=True,
                               grid_format=lambda g: str(int(g))),
    "audit_confidence": UrlParam("grid", grid=AUDIT_CONFIDENCES, low=0.0, low_open=True),
    "audit_seed": UrlParam("int", 0, 2**31 - 1),
}

#: The Reproduce page: paper, id and panel travel as codes; every value is declared by the study's Settings.
_REPRODUCTION = constraints(ReproductionSettings)
_REPRODUCE = {
    "reproduce_paper": UrlParam("choice", choices=PaperCodes(), coded=True),
    "reproduce_id": UrlParam("choice", choices=_REPRODUCTION["id"].choices, coded=True),
    "reproduce_panel": UrlParam("text", max_chars=60, coded=True),
    "reproduce_size": _coded({code: SIZE_WORDS[code] for code in _REPRODUCTION["size"].choices}),
    "reproduce_seed": UrlParam("int", _REPRODUCTION["seed"].low, _REPRODUCTION["seed"].high),
}

_CAMERAS = {
    "explorer_camera": _choice({name: "" for name in CAMERA_PRESETS}),
    "conformal_camera": _choice({name: "" for name in CAMERA_PRESETS}),
    "regression_camera": _choice({name: "" for name in ("data", *CAMERA_PRESETS)}),
}

LEDGER_MECHANISMS = {"riemannian_gaussian": "Riemannian Gaussian", "riemannian_laplace": "Riemannian Laplace"}
_LEDGER = {
    "ledger_mechanism": _choice(LEDGER_MECHANISMS, LEDGER_MECHANISMS),
    "ledger_eps": UrlParam("grid", grid=tuple(EPS_GRID), low=0.0, low_open=True),
    "ledger_k": UrlParam("int", 1, 1000),
}

#: The Explorer's budget planner: the share of releases asked to be within the target ("on average": the mean error).
PLAN_SHARES = ("on average", "50%", "90%", "95%", "99%")
_PLANNER = {
    "explorer_plan_mechanism": _choice(LEDGER_MECHANISMS, LEDGER_MECHANISMS),
    "explorer_plan_error": UrlParam("float", 0.001, 3.0),
    "explorer_plan_share": _choice({share: "" for share in PLAN_SHARES}),
}

_GLOBAL = {"teach": _choice({"true": "", "false": ""})}

#: Every control bound to the URL, by widget key.
URL_PARAMS = {**_GLOBAL, **_SIDEBAR, **_CURVES, **_ACCOUNTING, **_CONFORMAL, **_REGRESSION, **_AUDIT, **_REPRODUCE, **_CAMERAS,
              **_LEDGER, **_PLANNER}


def limits(key):
    """``(low, high)`` of a numeric URL-bound control (for the widget's min_value / max_value)."""
    spec = URL_PARAMS[key]
    return spec.low, spec.high


def bounds(key):
    """``dict(min_value=..., max_value=...)`` of a numeric URL-bound control: its range, declared once."""
    low, high = limits(key)
    return dict(min_value=low, max_value=high)


#: The app's pages by URL path -> the key their settings are remembered under (from :data:`~geodp_app.pages.PAGES`).
PAGE_OF_PATH = {page.url_path: page.settings_key for page in PAGES}
#: Each page's own URL-bound controls (besides the sidebar's scenario), by settings key: the URL parameters
#: named ``<settings_key>_…``.
PAGE_URL_KEYS = {
    page.settings_key: keys for page in PAGES
    if (keys := tuple(key for key in URL_PARAMS if key.startswith(f"{page.settings_key}_")))
}


#: Controls on every page (carried across page changes like the scenario).
GLOBAL_KEYS = ("teach",)


def _page_keys(page):
    return SCENARIO_KEYS + GLOBAL_KEYS + PAGE_URL_KEYS.get(page, ())


def clean_url(page=None):
    """First thing on every page: put back the page's remembered settings after a page change, then validate
    every URL-bound value before any widget reads it (idempotent).

    Streamlit drops a page's query parameters when another page opens; the scenario and each page's own
    settings are remembered for the session, so a link survives clicks through the navigation.
    """
    carried = carry_url_state(_page_keys(page), page=page or "home")
    messages = clean_query_params(URL_PARAMS, carried)
    remember_url_state(_page_keys(page))
    return messages


def remember_page(page):
    """Remember the page's settings after its widgets ran (last thing on a page)."""
    remember_url_state(_page_keys(page))


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
    restore_url_state(good)
    return problems
