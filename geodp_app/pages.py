"""Every page of the app, declared once: its script, title, icon, URL path, navigation section and settings key.

``app.py`` builds the navigation from :data:`PAGES`; :mod:`geodp_app.url_params` derives from it which URL path
belongs to which settings key and which URL-bound controls each page owns; a page finds its own declaration with
:func:`this_page` (from its ``__file__``), so no page names itself a second time.
"""

from dataclasses import dataclass, replace
from pathlib import Path

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
        controls are the URL parameters whose key starts with ``<settings_key>_`` (see
        :data:`geodp_app.url_params.PAGE_URL_KEYS`).
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

