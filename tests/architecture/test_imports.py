"""The import graph of geodp_core, built from the source with ``ast`` (imports at module level AND inside
functions, relative imports resolved): no circles, no arrow from the foundations up into the studies or the
figures, the figures never import a study, a study reaches the figures only inside ``figures``, and geodp_core
never imports Streamlit or the app (docs/architecture.md §2)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "geodp_core"

#: The foundations: they never import a study or a figure.
FOUNDATIONS = ("geometry", "privacy", "data", "summaries", "mechanisms", "pipeline", "scenario", "regression",
               "constraints", "exceptions", "_validation")
#: The studies: the package and the flat public modules of each study (implementations or thin faces).
FLAT_STUDIES = ("explorer", "experiments", "conformal_lab", "regression_lab", "curvature_lesson", "audit",
                "reproduce", "planner")


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name):
    """The module (or package) of the package that ``name`` refers to."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports(module, path):
    """``[(imported module, enclosing function or None, line)]`` of every geodp_core import in ``path``; and every
    other top-level package imported (e.g. ``streamlit``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package_parts = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    inside, external = [], set()

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            scope = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == "geodp_core":
                        inside.append((_resolve(alias.name), function, child.lineno))
                    else:
                        external.add(alias.name.split(".")[0])
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package_parts[:len(package_parts) - (child.level - 1)]
                    source = ".".join(base + ([child.module] if child.module else []))
                else:
                    source = child.module or ""
                if source.split(".")[0] != "geodp_core":
                    external.add(source.split(".")[0])
                    continue
                for alias in child.names:
                    full = f"{source}.{alias.name}"
                    inside.append((_resolve(full) if full in MODULES else _resolve(source), function, child.lineno))
            visit(child, scope)

    visit(tree, None)
    return [(target, function, line) for target, function, line in inside if target and target != module], external


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}
EDGES = {module: {target for target, _, _ in imports} for module, (imports, _) in GRAPH.items()}


def _layer(module):
    rest = module.split(".")[1:]
    if not rest:
        return "package"
    if rest[0] == "studies" or rest[0] in FLAT_STUDIES:
        return "study"
    if rest[0] == "viz":
        return "viz"
    if rest[0] in FOUNDATIONS:
        return "foundation"
    return "other"


def _cycles(edges):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def test_the_graph_is_built_from_the_source():
    """The scan sees the package (and the arrows the other tests rely on), so an empty graph cannot pass."""
    assert len(MODULES) > 60 and "geodp_core.studies.reproductions.gdp" in MODULES
    assert "geodp_core.pipeline" in EDGES["geodp_core.explorer"]
    assert "geodp_core.viz.reproduce" in EDGES["geodp_core.studies.reproductions.cli"]
    # an import inside a function counts, and a relative import is resolved
    assert any(function == "figures" for _, function, _ in GRAPH["geodp_core.studies.explorer"][0])
    assert "geodp_core.geometry.base" in EDGES["geodp_core.geometry.sphere"]


def test_cycle_finder_finds_a_planted_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles():
    assert _cycles(EDGES) == []


@pytest.mark.parametrize("module", [m for m in MODULES if _layer(m) == "foundation"])
def test_foundations_never_import_a_study_or_a_figure(module):
    upward = sorted(f"{target} (line {line})" for target, _, line in GRAPH[module][0]
                    if _layer(target) in ("study", "viz"))
    assert upward == [], f"{module} imports upward: {upward}"


@pytest.mark.parametrize("module", [m for m in MODULES if _layer(m) == "viz"])
def test_figures_never_import_a_study(module):
    upward = sorted(f"{target} (line {line})" for target, _, line in GRAPH[module][0] if _layer(target) == "study")
    assert upward == [], f"{module} imports a study: {upward}"


@pytest.mark.parametrize("module", [m for m in MODULES if _layer(m) == "study"])
def test_a_study_draws_only_inside_figures(module):
    """A study's computation never loads the figures: only ``figures`` (rendering) and the command line may."""
    if module == "geodp_core.studies.reproductions.cli" or module == "geodp_core.reproduce":
        return  # the command line sits above the figures (and its face re-exports it)
    bad = sorted(f"{target} in {function or 'module level'} (line {line})" for target, function, line
                 in GRAPH[module][0] if _layer(target) == "viz" and function != "figures")
    assert bad == [], f"{module} imports the figures outside figures(): {bad}"


def test_paper_modules_never_import_the_figures():
    for name in ("gdp", "heat", "ew", "ew_octmnist", "conformal", "kng", "common", "spec"):
        module = f"geodp_core.studies.reproductions.{name}"
        assert not {t for t in EDGES[module] if _layer(t) == "viz"}, module


@pytest.mark.parametrize("module", sorted(MODULES))
def test_geodp_core_never_imports_streamlit_or_the_app(module):
    external = GRAPH[module][1]
    assert not external & {"streamlit", "geodp_app", "pages", "app_pages"}, f"{module} imports {external}"
