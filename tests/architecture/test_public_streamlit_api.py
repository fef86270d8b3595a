"""The app uses Streamlit's public API only, on the Streamlit versions it is tested with.

Private names (``st.query_params._query_params``, ``qp._send_query_param_msg()``) and Streamlit's internal
modules (``streamlit.runtime``, ``streamlit.web``, …) change without notice between releases. The app code
(``app.py``, ``app_pages/``, ``geodp_app/``) may import ``streamlit`` itself and the few public modules below,
and may not reach a name starting with ``_`` on anything that comes from Streamlit. Streamlit is pinned to the
range the tests ran on (requirements.txt and pyproject.toml say the same).
"""

import ast
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
#: Streamlit modules the app may import (documented, public).
PUBLIC_MODULES = {"streamlit", "streamlit.errors", "streamlit.components.v1"}
INTERNAL_TEXT = re.compile(r"\bstreamlit\.(runtime|web|proto|elements|delta_generator|commands|navigation)\b")


def _app_files():
    return [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")), *sorted((ROOT / "geodp_app").rglob("*.py"))]


def _root_name(node):
    """The name an expression ``a.b().c[0]`` starts from (``None`` if it does not start from a name)."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_streamlit_uses(source, filename="<source>"):
    """``[(line, what)]``: imports of Streamlit's internal modules and private names reached on Streamlit objects.

    A Streamlit object is a name imported from ``streamlit`` or bound (``=``, ``with … as``, ``for``) from an
    expression that starts from one, found by propagating through the module until nothing changes.
    """
    tree = ast.parse(source, filename=filename)
    docstrings = _docstrings(tree)
    found = []
    streamlit_names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "streamlit" or alias.name.startswith("streamlit."):
                    streamlit_names.add((alias.asname or alias.name).split(".")[0])
                    if alias.name not in PUBLIC_MODULES:
                        found.append((node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module == "streamlit" or node.module.startswith("streamlit.")):
            streamlit_names.update(alias.asname or alias.name for alias in node.names)
            if node.module not in PUBLIC_MODULES:
                found.append((node.lineno, f"from {node.module} import …"))
            found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names if _is_private(a.name)]
    bindings = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bindings += [(t, node.value) for t in targets]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            bindings.append((node.optional_vars, node.context_expr))
        elif isinstance(node, ast.For):
            bindings.append((node.target, node.iter))
    changed = True
    while changed:
        changed = False
        for target, value in bindings:
            values = value.elts if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else [value]
            if any(_root_name(v) in streamlit_names for v in values):
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and name.id not in streamlit_names:
                        streamlit_names.add(name.id)
                        changed = True
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr) and _root_name(node.value) in streamlit_names:
            found.append((node.lineno, f".{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and _is_private(node.args[1].value) and _root_name(node.args[0]) in streamlit_names):
            found.append((node.lineno, f"{node.func.id}(…, {node.args[1].value!r})"))
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
              and INTERNAL_TEXT.search(node.value)):
            found.append((node.lineno, f"names an internal module: {node.value[:60]!r}"))
    return sorted(set(found))


def _docstrings(tree):
    """``id`` of every docstring node (they may say what the code avoids)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def test_the_detector_catches_each_form():
    private = {
        "import streamlit as st\nqp = st.query_params\nqp._query_params.pop('x')": 1,
        "import streamlit as st\nst.query_params._send_query_param_msg()": 1,
        "from streamlit.runtime.scriptrunner import get_script_run_ctx\nctx = get_script_run_ctx()\n"
        "with ctx.session_state.query_params() as qp:\n    qp._initial_query_params.clear()": 2,
        "from streamlit.runtime.pages_manager import PagesManager\nPagesManager.uses_pages_directory = False": 1,
        "from streamlit.web.cli import main": 1,
        "import streamlit.web.bootstrap": 1,
        "import streamlit as st\nok = hasattr(st.query_params, '_query_params')": 1,
        "import importlib\nm = importlib.import_module('streamlit.runtime.scriptrunner')": 1,
        "import streamlit as st\nfor qp in [st.query_params]:\n    qp._query_params": 1,
        '"""Docstrings may name streamlit.runtime."""\nfrom streamlit import _private_thing': 1,
    }
    for source, count in private.items():
        assert len(private_streamlit_uses(source)) == count, (source, private_streamlit_uses(source))
    public = ("import streamlit as st\nfrom streamlit.errors import StreamlitAPIException\n"
              "st.query_params.get_all('x')\ndel st.query_params['x']\nst.query_params.update({'a': '1'})\n"
              "class A:\n    def f(self):\n        return self._cache\n_helper = 1\nx = _helper\nst.rerun()")
    assert private_streamlit_uses(public) == []


def test_app_code_uses_public_streamlit_only():
    found = []
    for path in _app_files():
        source = path.read_text(encoding="utf-8")
        found += [(path.relative_to(ROOT), line, what) for line, what in private_streamlit_uses(source, str(path))]
    assert not found, f"{len(found)} private Streamlit uses:\n" + "\n".join(f"{p}:{n}: {w}" for p, n, w in found)


def _streamlit_requirement(lines):
    (spec,) = [Requirement(line.split("#")[0].strip()) for line in lines
               if line.split("#")[0].strip() and Requirement(line.split("#")[0].strip()).name == "streamlit"]
    return spec


def test_streamlit_is_pinned_to_the_tested_range():
    requirements = (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pinned = _streamlit_requirement(line for line in requirements if not line.startswith(("#", "-")))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert _streamlit_requirement(project).specifier == pinned.specifier  # one range, stated twice
    operators = {spec.operator for spec in pinned.specifier}
    assert operators & {"<", "<=", "==", "~="}, f"streamlit has no upper bound: {pinned}"
    assert operators & {">", ">=", "==", "~="}, f"streamlit has no lower bound: {pinned}"
    assert pinned.specifier.contains(version("streamlit")), (pinned, version("streamlit"))  # the one tested here
