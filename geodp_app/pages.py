"""Every page of the app, declared once: its script, title, icon, URL path, navigation section and settings key.

``app.py`` builds the navigation from :data:`PAGES`; each page's URL-bound controls are declared here
(:data:`CONTROLS`, derived from the page's study's ``Settings`` where the control sets one of its fields), and
:mod:`geodp_app.url_params` derives the app's URL parameters from them; a page finds its own declaration with
:func:`this_page` (from its ``__file__``), so no page names itself a second time.
"""

from dataclasses import dataclass, replace
from pathlib import Path

from geodp_app.labels import NOTION_LABELS
from geodp_app.url_declare import UrlParam, choice, from_settings, grid, number
from geodp_core.audit import AUDIT_SPACES as AUDIT_SPACE_ARGS
from geodp_core.audit import VARIANT_INFO, VARIANTS
from geodp_core.conformal_lab import DATA_KINDS as CONFORMAL_DATA_KINDS
from geodp_core.constraints import AUDIT_EPS_GRID, CONFORMAL_EPS_GRID, EPS_GRID, REGRESSION_EPS_GRID, WIDGET_RANGES
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import MECHANISM_NAMES, mechanism_class
from geodp_core.regression_lab import REGRESSION_PRESETS
from geodp_core.regression_lab import REGRESSION_SPACES as REGRESSION_SPACE_ARGS
from geodp_core.studies.audit import Settings as Audit
from geodp_core.studies.conformal import Settings as Conformal
from geodp_core.studies.curves import Settings as Curves
from geodp_core.studies.regression_lab import Settings as Regression
from geodp_core.studies.reproductions import SIZE_WORDS, PaperCodes
from geodp_core.studies.reproductions import Settings as ReproductionSettings
from geodp_core.viz import CAMERA_PRESETS

__all__ = ["PageSpec", "PAGES", "SECTIONS", "this_page", "home_alias", "PAGE_OF_PATH"]

_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class PageSpec:
    """One page of the app.

    Parameters
    ----------
    script : str
        The page's script, relative to the repository root (what ``st.Page`` and ``st.page_link`` take).
    title, icon : str
        Shown in the navigation.
    url_path : str
        The page's URL (``/<url_path>``); links to the app use it, so it never changes.
    section : str
        The navigation section the page is listed under.
    settings_key : str
        The name the page's settings are remembered under across page changes. The page's own URL-bound
        controls (:attr:`controls`, declared in :data:`CONTROLS`) are named ``<settings_key>_…``.
    default : bool
        The page served at the app's root.
    """

    script: str
    title: str
    icon: str
    url_path: str
    section: str
    settings_key: str
    default: bool = False

    @property
    def controls(self):
        """``{URL key: UrlParam}`` of the page's own controls (besides the scenario's and the global ones)."""
        return CONTROLS.get(self.settings_key, {})


# ---------------------------------------------------------------------------------------------------------------
# Each page's URL-bound controls, declared once: a control that sets a field of the page's study is derived from
# that field's declared constraint (``from_settings``: its choices, or its range narrowed for the widget and checked
# to lie within the field's); a control of the app alone (a camera, a tab, a grid of the Reproduce page) is
# declared here. The pages read their widgets' bounds and options from these declarations.
# ---------------------------------------------------------------------------------------------------------------
_TITLES = {name: mechanism_class(name).title or name for name in MECHANISM_NAMES}

#: x-axes of the Utility curves page (value -> label written in the URL).
X_AXES = {"budget": "privacy budget", "n": "records n", "dim": "dimension d", "spread": "data spread",
          "p": "summary exponent p"}


_CURVES = {
    "curves_x": choice(X_AXES, X_AXES),
    # the budgets of the x-axis are the study's values (0 < value ≤ 1000); ρ is a budget of the same sweep
    **{f"curves_{budget}_{end}": from_settings(Curves, "values") for budget in ("eps", "mu", "rho")
       for end in ("min", "max")},
    "curves_count": number(2, 30, integer=True),
    # a swept scenario value stays within the scenario's own range (records, spread, exponent p)
    **{f"curves_{name}_{end}": number(*WIDGET_RANGES[name], integer=name == "n") for name in ("n", "p", "spread")
       for end in ("min", "max")},
    "curves_n_count": number(2, 30, integer=True),
    "curves_p_count": number(2, 12, integer=True),
    "curves_spread_count": number(2, 30, integer=True),
    "curves_reps": from_settings(Curves, "n_reps", high=20_000),
}
ACCOUNTING_TABS = ("Converter", "Privacy profiles & trade-offs", "GDP: μ against σ", "Heat diffusion")
ACCOUNTING_TRADEOFF_MUS = (0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
ACCOUNTING_LANGEVIN_EPS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
ACCOUNTING_PMEAN_PS = (1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0)
#: Curvature choices of the p-mean sensitivity chart: label -> upper curvature bound κ.
ACCOUNTING_PMEAN_SPACES = {"flat or Hadamard (κ ≤ 0)": 0.0, "unit sphere (κ = 1)": 1.0}
_ACCOUNTING = {
    "accounting_notion": choice(NOTION_LABELS, NOTION_LABELS),
    "accounting_eps": number(0.0, 1000.0, low_open=True),
    "accounting_delta": number(0.0, 1.0, low_open=True),
    "accounting_mu": number(0.0, 1000.0, low_open=True),
    "accounting_alpha": number(1.0, 1e6, low_open=True),
    "accounting_rho": number(0.0, 1e6, low_open=True),
    "accounting_tab": choice({label: "" for label in ACCOUNTING_TABS}),
    "accounting_at_delta": number(0.0, 1.0),
    "accounting_at_alpha": number(1.0, 1e6),
    "accounting_at_eps": number(0.0, 1000.0),
    "accounting_profile_eps_max": number(0.5, 30.0),
    "accounting_tradeoff_mu": choice(ACCOUNTING_TRADEOFF_MUS, kind="multi"),
    "accounting_gdp_sensitivity": number(0.0, 3.14159),
    "accounting_gdp_kmax": number(4, 24, integer=True),
    "accounting_heat_alpha": number(1.0, 1e6),
    "accounting_heat_sensitivity": number(0.0, 1e6),
    "accounting_heat_k": number(0.0, 1e6),
    "accounting_heat_eps": number(0.0, 1e6),
    "accounting_lang_eps": choice(ACCOUNTING_LANGEVIN_EPS, kind="multi"),
    "accounting_lang_lam_max": number(0.0, 1e6),
    "accounting_pmean_ps": choice(ACCOUNTING_PMEAN_PS, kind="multi"),
    "accounting_pmean_radius": number(0.01, 0.78),
    "accounting_pmean_space": choice({label: "" for label in ACCOUNTING_PMEAN_SPACES}),
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
    "conformal_space": choice(CONFORMAL_SPACES, CONFORMAL_SPACES),
    **{f"conformal_data_{space}": choice(kinds, kinds) for space, kinds in CONFORMAL_DATA_KINDS.items()},
    "conformal_n": number(20, 5000, integer=True),
    "conformal_spread": number(0.02, 2.0),
    "conformal_ball_sphere": number(0.05, 3.0),
    "conformal_ball_hyperbolic": number(0.05, 3.0),
    "conformal_eps": grid(CONFORMAL_EPS_GRID),
    "conformal_share": from_settings(Conformal, "eps_phi_share", 0.05, 0.95),
    "conformal_mesh": from_settings(Conformal, "mesh_size", 100, 4000),
    "conformal_bandwidth": from_settings(Conformal, "bandwidth", 0.05, 3.0),
    "conformal_upsilon": from_settings(Conformal, "upsilon", 0.01, 100.0),
    "conformal_smoothing": from_settings(Conformal, "smoothing_time", 0.0, 2.0),
    "conformal_laplacian": from_settings(Conformal, "laplacian", labels=CONFORMAL_LAPLACIANS),
    "conformal_sampler": from_settings(Conformal, "sampler"),
    "conformal_domain": from_settings(Conformal, "domain_radius", 0.3, 4.0),
    "conformal_releases": from_settings(Conformal, "n_releases", 1, 500),
    "conformal_seed": number(0, 2**31 - 1, integer=True),
}

REGRESSION_SPACES = _chooser_labels(REGRESSION_SPACE_ARGS)
REGRESSION_CHAIN_LENGTHS = ("auto", 200, 500, 1000, 2000, 4000)
_REGRESSION = {
    "regression_space": choice(REGRESSION_SPACES, REGRESSION_SPACES),
    **{f"regression_preset_{space}": choice(presets) for space, presets in REGRESSION_PRESETS.items()},
    "regression_n": from_settings(Regression, "n", 5, 500),
    "regression_noise": from_settings(Regression, "noise_std", 0.0, 1.0),
    "regression_eps": grid(REGRESSION_EPS_GRID),
    "regression_share": from_settings(Regression, "footpoint_share", 0.1, 0.9),
    "regression_tau": from_settings(Regression, "tau", 0.01, 3.0),
    "regression_radius": from_settings(Regression, "data_radius", 0.05, 3.0),
    "regression_chain": choice(REGRESSION_CHAIN_LENGTHS),
    "regression_fits": from_settings(Regression, "n_fits", 1, 8),
    "regression_seed": from_settings(Regression, "seed", 0, 2**31 - 1),
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
    "audit_space": choice(AUDIT_SPACES, AUDIT_SPACES),
    "audit_mechanism": choice(_TITLES, {m: audit_mechanism_label(m) for m in _TITLES}),
    **{f"audit_variant_{m}": choice((AUDIT_NO_VARIANT, *VARIANTS),
                                     {v: audit_variant_label(v) for v in (AUDIT_NO_VARIANT, *VARIANTS)})
       for m in _TITLES},
    "audit_notion": choice(AUDIT_NOTIONS, AUDIT_NOTIONS),
    "audit_eps": grid(AUDIT_EPS_GRID),
    "audit_delta": grid(AUDIT_DELTA_GRID, lambda g: f"{g:g}"),
    "audit_n": from_settings(Audit, "n", 2, 100_000),
    "audit_radius": from_settings(Audit, "radius", 0.01, 5.0),
    "audit_releases": grid(AUDIT_RELEASE_GRID),
    "audit_confidence": grid(AUDIT_CONFIDENCES),
    "audit_seed": from_settings(Audit, "seed", 0, 2**31 - 1),
}

# The Reproduce page: one body for every registered id (the registry's live lists of papers and ids)
_REPRODUCE = {
    "reproduce_paper": UrlParam("choice", choices=PaperCodes()),
    "reproduce_id": from_settings(ReproductionSettings, "id"),
    "reproduce_panel": UrlParam("text", max_chars=60),  # a panel code of the chosen id (checked by the page)
    "reproduce_size": from_settings(ReproductionSettings, "size", labels=SIZE_WORDS),
    "reproduce_seed": from_settings(ReproductionSettings, "seed", 0, 2**31 - 1),
}

_CAMERAS = {
    "explorer_camera": choice({name: "" for name in CAMERA_PRESETS}),
    "conformal_camera": choice({name: "" for name in CAMERA_PRESETS}),
    "regression_camera": choice({name: "" for name in ("data", *CAMERA_PRESETS)}),
}

LEDGER_MECHANISMS = {"riemannian_gaussian": "Riemannian Gaussian", "riemannian_laplace": "Riemannian Laplace"}
_LEDGER = {
    "ledger_mechanism": choice(LEDGER_MECHANISMS, LEDGER_MECHANISMS),
    "ledger_eps": grid(EPS_GRID),
    "ledger_k": number(1, 1000, integer=True),
}

#: The Explorer's budget planner: the share of releases asked to be within the target ("on average": the mean error).
PLAN_SHARES = ("on average", "50%", "90%", "95%", "99%")
_PLANNER = {
    "explorer_plan_mechanism": choice(LEDGER_MECHANISMS, LEDGER_MECHANISMS),
    "explorer_plan_error": number(0.001, 3.0),
    "explorer_plan_share": choice({share: "" for share in PLAN_SHARES}),
}


#: Each page's own URL-bound controls, by settings key (the URL parameters named ``<settings_key>_…``).
CONTROLS = {
    "explorer": {**{"explorer_camera": _CAMERAS["explorer_camera"]}, **_PLANNER},
    "curves": _CURVES,
    "conformal": {**_CONFORMAL, "conformal_camera": _CAMERAS["conformal_camera"]},
    "regression": {**_REGRESSION, "regression_camera": _CAMERAS["regression_camera"]},
    "accounting": _ACCOUNTING,
    "ledger": _LEDGER,
    "audit": _AUDIT,
    "reproduce": _REPRODUCE,
}


#: The app's pages in menu order.
PAGES = (
    PageSpec("app_pages/home.py", "Home", ":material/home:", "home", "Explore", "home", default=True),
    PageSpec("app_pages/explorer.py", "Explorer", ":material/public:", "explorer", "Explore", "explorer"),
    PageSpec("app_pages/utility_curves.py", "Utility curves", ":material/show_chart:", "utility", "Explore", "curves"),
    PageSpec("app_pages/conformal_lab.py", "Conformal lab", ":material/map:", "conformal", "Explore", "conformal"),
    PageSpec("app_pages/regression.py", "Geodesic regression", ":material/timeline:", "regression", "Explore",
             "regression"),
    PageSpec("app_pages/accounting.py", "Privacy accounting", ":material/calculate:", "accounting", "Understand",
             "accounting"),
    PageSpec("app_pages/ledger.py", "Privacy ledger", ":material/receipt_long:", "ledger", "Understand", "ledger"),
    PageSpec("app_pages/audit.py", "Audit", ":material/search:", "audit", "Understand", "audit"),
    PageSpec("app_pages/reproduce.py", "Reproduce the papers", ":material/description:", "reproduce", "Understand",
             "reproduce"),
    PageSpec("app_pages/learn.py", "Learn", ":material/school:", "learn", "Understand", "learn"),
)

#: Which page's settings each URL path shows (the default page is also served at its own path, see
#: :func:`home_alias`).
PAGE_OF_PATH = {page.url_path: page.settings_key for page in PAGES}


def home_alias():
    """The default page once more, at its own URL path (``/home``): Streamlit serves the default page at ``/``
    only, and a link to ``/home`` must open it, not "Page not found"."""
    return tuple(replace(page, default=False) for page in PAGES if page.default)


#: Navigation sections in menu order.
SECTIONS = tuple(dict.fromkeys(page.section for page in PAGES))


def this_page(script):
    """The :class:`PageSpec` of a page script: a page passes its ``__file__`` (what Streamlit sets when it runs
    the page), or a path relative to the repository root."""
    path = Path(script)
    resolved = (path if path.is_absolute() else _ROOT / path).resolve()
    for page in PAGES:
        if (_ROOT / page.script).resolve() == resolved:
            return page
    raise KeyError(f"script={str(script)!r} is not a page of the app; pages: {[page.script for page in PAGES]}")

