"""The app declares its caches and its pages once.

Every ``st.cache_data`` / ``st.cache_resource`` lives in ``geodp_app/cache.py``, bounded and expiring (results may
come from private uploads, which must not stay in server memory indefinitely). Every page is one
:class:`~geodp_app.pages.PageSpec`; the navigation, the URL path -> settings key map and each page's URL-bound
controls are derived from it, and no page names itself a second time.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE_MODULE = ROOT / "geodp_app" / "cache.py"
CACHE_DECORATOR = re.compile(r"\bcache_(data|resource)\b")


def _app_sources():
    return sorted([*(ROOT / "app_pages").glob("*.py"), *(ROOT / "geodp_app").glob("*.py"), ROOT / "app.py"])


def cache_decorators_outside_cache_module():
    """``[(path, line number, line)]`` of every Streamlit cache named outside ``geodp_app/cache.py``."""
    found = []
    for path in _app_sources():
        if path == CACHE_MODULE:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CACHE_DECORATOR.search(line):
                found.append((str(path.relative_to(ROOT)), number, line.strip()))
    return found


def test_every_cache_is_in_the_cache_module():
    found = cache_decorators_outside_cache_module()
    assert not found, "caches outside geodp_app/cache.py:\n" + "\n".join(f"{p}:{n}: {line}" for p, n, line in found)


def test_the_search_finds_a_cache_decorator():
    """The pattern the search uses matches each spelling a page could use (so the check above can fail)."""
    for line in ("@st.cache_data(max_entries=4, ttl=60)", "@st.cache_resource", "from streamlit import cache_data",
                 "cached = st.cache_data(f)"):
        assert CACHE_DECORATOR.search(line), line
    assert not CACHE_DECORATOR.search("cached_run(scenario_json)")


def _cache_functions():
    tree = ast.parse(CACHE_MODULE.read_text(encoding="utf-8"))
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                    and decorator.func.attr in ("cache_data", "cache_resource")):
                yield node, decorator
                break
            assert not (isinstance(decorator, ast.Attribute) and decorator.attr in ("cache_data", "cache_resource")), (
                f"{node.name}: a cache without bounds")


def test_every_cache_is_bounded_expires_and_says_what_it_holds():
    functions = list(_cache_functions())
    assert len(functions) >= 15  # the Explorer's 2 runs, the curvature lesson, and those of the pages and sidebar
    names = [node.name for node, _ in functions]
    assert "cached_reproduction" in names and not [n for n in names if n.startswith("cached_reproduce_")]
    for node, decorator in functions:
        keywords = {k.arg: k.value for k in decorator.keywords}
        assert "max_entries" in keywords, f"{node.name}: no max_entries"
        assert isinstance(keywords.get("ttl"), ast.Name) and keywords["ttl"].id == "CACHE_TTL", (
            f"{node.name}: ttl is not CACHE_TTL")
        assert ast.get_docstring(node), f"{node.name}: no docstring"


# ---------------------------------------------------------------------------------------------------- pages
def test_every_page_script_is_declared_once():
    from geodp_app.pages import PAGES

    scripts = [page.script for page in PAGES]
    assert sorted(scripts) == sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app_pages").glob("*.py"))
    for field in ("script", "title", "url_path", "settings_key"):
        values = [getattr(page, field) for page in PAGES]
        assert len(set(values)) == len(values), f"duplicate {field}: {values}"
    assert [page.url_path for page in PAGES if page.default] == ["home"]


def test_links_and_remembered_settings_keep_their_names():
    """URL paths are in links people keep; settings keys name the URL parameters and the remembered state."""
    from geodp_app.pages import PAGE_OF_PATH, PAGES

    assert PAGE_OF_PATH == {"home": "home", "explorer": "explorer", "utility": "curves", "conformal": "conformal",
                            "regression": "regression", "accounting": "accounting", "ledger": "ledger",
                            "audit": "audit", "reproduce": "reproduce", "learn": "learn"}
    assert {page.url_path: page.title for page in PAGES} == {
        "home": "Home", "explorer": "Explorer", "utility": "Utility curves", "conformal": "Conformal lab",
        "regression": "Geodesic regression", "accounting": "Privacy accounting", "ledger": "Privacy ledger",
        "audit": "Audit", "reproduce": "Reproduce the papers", "learn": "Learn"}


def test_every_url_parameter_belongs_to_the_scenario_or_exactly_one_page():
    from geodp_app.labels import SCENARIO_KEYS
    from geodp_app.url_params import GLOBAL_KEYS, PAGE_URL_KEYS, URL_PARAMS

    owners = {}
    for page, keys in PAGE_URL_KEYS.items():
        for key in keys:
            owners.setdefault(key, []).append(page)
    for key in URL_PARAMS:
        if key in SCENARIO_KEYS or key in GLOBAL_KEYS:
            assert key not in owners, key
        else:
            assert len(owners.get(key, [])) == 1, f"URL parameter {key!r} belongs to pages {owners.get(key)}"
    assert set(owners) <= set(URL_PARAMS)
    assert PAGE_URL_KEYS["curves"] and all(key.startswith("curves_") for key in PAGE_URL_KEYS["curves"])
    assert "conformal_camera" in PAGE_URL_KEYS["conformal"] and PAGE_URL_KEYS["explorer"][0] == "explorer_camera"


def test_pages_find_their_declaration_instead_of_naming_themselves():
    from geodp_app.pages import PAGES

    for page in PAGES:
        text = (ROOT / page.script).read_text(encoding="utf-8")
        assert "PAGE = this_page(__file__)" in text, page.script
        assert not re.search(r"(clean_url|remember_page)\(\s*[\"']", text), page.script
        assert not re.search(r"scenario_files\(\s*\w+\s*,\s*[\"']", text), page.script


def test_this_page_resolves_a_script_path():
    from geodp_app.pages import this_page

    assert this_page("app_pages/utility_curves.py").settings_key == "curves"
    assert this_page(str(ROOT / "app_pages" / ".." / "app_pages" / "ledger.py")).url_path == "ledger"
    with pytest.raises(KeyError, match="app.py"):
        this_page(str(ROOT / "app.py"))


def test_the_app_package_has_no_import_circle():
    """geodp_app's modules import each other one way only (module level and inside functions): the labels and
    limits the sidebar and the URL checker share live in geodp_app.labels."""


    root = Path(__file__).resolve().parents[2] / "geodp_app"
    graph = {}
    for path in root.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("geodp_app."):
                deps.add(node.module.split(".")[1])
        graph[path.stem] = deps

    def reaches(start, goal, seen=()):
        return any(dep == goal or (dep not in seen and reaches(dep, goal, (*seen, dep))) for dep in graph.get(start, ()))

    circles = sorted(name for name in graph if reaches(name, name))
    assert not circles, f"import circles through {circles}"
