"""Package-level properties: the core stays importable without Streamlit."""

import subprocess
import sys


def test_core_import_does_not_import_streamlit():
    code = (
        "import sys, geodp_core, geodp_core.geometry, geodp_core.privacy;"
        "import importlib.util as u;"
        "mods = [m for m in ('geodp_core.summaries', 'geodp_core.data', 'geodp_core.mechanisms', 'geodp_core.explorer',"
        " 'geodp_core.experiments', 'geodp_core.conformal_lab', 'geodp_core.regression', 'geodp_core.viz',"
        " 'geodp_core.mechanisms.conformal', 'geodp_core.mechanisms.kng_regression') if u.find_spec(m)];"
        "[__import__(m) for m in mods];"
        "assert 'streamlit' not in sys.modules, 'streamlit was imported';"
        "print(len(mods))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "10"  # every listed module exists and was imported


def test_private_geometry_methods_stay_inside_geometry():
    """Outside ``geodp_core/geometry`` only the public ``dist/exp/log`` are called (``check=False`` for speed)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    pattern = re.compile(r"\._(dist|exp|log)\(")
    offenders = []
    for folder in ("geodp_core", "geodp_app", "app_pages", "benchmarks", "tests"):
        for path in (root / folder).rglob("*.py"):
            if "geometry" in path.relative_to(root).parts[:2]:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if pattern.search(line) and not line.lstrip().startswith("def "):
                    offenders.append(f"{path.relative_to(root)}:{number}")
    assert not offenders, offenders
    assert list((root / "geodp_core").rglob("*.py")), "the scan found no files"


def test_unchecked_geometry_matches_checked_on_valid_points():
    import numpy as np

    from geodp_core.geometry import get_manifold

    rng = np.random.default_rng(0)
    for args in (("sphere", 3), ("hyperbolic", 2), ("spd", 2, "affine"), ("euclidean", 2)):
        manifold = get_manifold(*args)
        base = manifold.default_center()
        vecs = manifold.from_frame(base, 0.3 * rng.standard_normal((5, manifold.dim)))
        pts = manifold.exp(base, vecs)
        np.testing.assert_array_equal(manifold.exp(base, vecs, check=False), pts)
        np.testing.assert_array_equal(manifold.dist(base, pts, check=False), manifold.dist(base, pts))
        np.testing.assert_array_equal(manifold.log(base, pts, check=False), manifold.log(base, pts))


def test_one_version_number():
    """The version is written once (``geodp_core.__version__``); pyproject.toml reads it."""
    import tomllib
    import warnings
    from pathlib import Path

    import pytest

    import geodp_core

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "geodp_core.__version__"}
    setuptools_config = pytest.importorskip("setuptools.config.pyprojecttoml")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expanded = setuptools_config.read_configuration(root / "pyproject.toml", expand=True)
    assert expanded["project"]["version"] == geodp_core.__version__ == "0.3.0"


def test_removed_names_stay_removed():
    """Names nothing used any more are gone (a page or a notebook would otherwise keep a second vocabulary)."""
    import importlib

    removed = {
        "geodp_core.mechanisms": ("Release",),
        "geodp_core.mechanisms.base": ("Release",),
        "geodp_core.mechanisms.cards": ("get_card",),
        "geodp_core.constraints": ("in_widget_range",),
        "geodp_core.audit": ("STATISTICS",),
        "geodp_core.geometry.point_sets": ("KINDS",),
        "geodp_core.explorer": ("MechanismOutcome",),
    }
    for module, names in removed.items():
        mod = importlib.import_module(module)
        assert not any(hasattr(mod, n) for n in names), module
        assert set(getattr(mod, "__all__", ())) <= set(dir(mod)), module  # every exported name is defined
    from geodp_core.mechanisms import Mechanism

    assert not hasattr(Mechanism, "release")
