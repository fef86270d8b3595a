"""A manifold answers questions about itself: no code outside ``geodp_core/geometry`` tests a manifold's name.

Per-space behaviour lives on the manifold classes (facts such as the diameter, the curvature the sensitivity bound
uses, the radial volume density, the representable radius, titles and ranges). A comparison of a manifold code
(``manifold.name == "sphere"``, ``space in ("sphere", "kendall")``) or a table keyed by codes elsewhere is a second
place where a space is described — the place a new space is forgotten. (A study may still list, by code, the
spaces it offers and its settings on each — the regression demo's presets, a paper figure's spaces —: that is
what the study chose, not a fact about the space.)
"""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODES = "sphere|hyperbolic|spd|euclidean|kendall|so3"
Q = "[\"']"  # either quote
PATTERNS = (
    re.compile(rf"(==|!=)\s*{Q}({CODES}){Q}"),
    re.compile(rf"{Q}({CODES}){Q}\s*(==|!=)"),
    re.compile(rf"\bin\s*[(\[{{]\s*{Q}({CODES}){Q}"),
    re.compile(rf"[{{,]\s*{Q}({CODES}){Q}\s*:"),  # a table keyed by manifold codes
)
ALLOWED_PREFIXES = ("geodp_core/geometry/", "tests/")


def _python_files():
    out = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "*.py"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout
    return sorted(set(out.split()) | set(untracked.split()))


def name_tests():
    """``[(path, line number, line)]`` of every manifold-name test outside the geometry package and the tests."""
    found = []
    for rel in _python_files():
        if rel.startswith(ALLOWED_PREFIXES):
            continue
        for number, line in enumerate((ROOT / rel).read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if any(p.search(code) for p in PATTERNS):
                found.append((rel, number, line.strip()))
    return found


def test_the_detector_catches_each_form():
    lines = ['if manifold.name == "sphere":', 'x = 1 if "kendall" != space else 2', 'if space in ("sphere", "kendall"):',
             'LIMITS = {"sphere": 3.14, "spd": 10}', "elif kind in ['hyperbolic']:"]
    assert all(any(p.search(line) for p in PATTERNS) for line in lines)
    assert not any(p.search('get_manifold("sphere", 2)') for p in PATTERNS)


def test_no_manifold_name_tests_outside_geometry():
    found = name_tests()
    assert not found, f"{len(found)} manifold-name tests outside geodp_core/geometry:\n" + "\n".join(
        f"{path}:{number}: {line}" for path, number, line in found[:60])
