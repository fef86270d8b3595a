"""Packaging: ``pip install .`` gives geodp_core and the app (console entry point ``geodp-explorer``), and the
downloaded Python snippet runs against the installed package without PYTHONPATH tricks."""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from geodp_core.scenario import Scenario

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The project built as a wheel and installed (without dependencies) under a fresh prefix."""
    work = tmp_path_factory.mktemp("pkg")
    wheels = work / "wheels"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = wheels.glob("geodp_explorer-*.whl")
    prefix = work / "prefix"
    install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--prefix", str(prefix),
                              str(wheel)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    purelib = Path(sysconfig.get_path("purelib", vars={"base": str(prefix), "platbase": str(prefix)}))
    return prefix, purelib


def _run(code, purelib, cwd):
    env = dict(os.environ, PYTHONPATH=str(purelib))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def test_wheel_installs_the_packages_the_app_and_the_entry_point(installed, tmp_path):
    prefix, purelib = installed
    app_dir = prefix / "share" / "geodp-explorer"
    assert (app_dir / "app.py").is_file() and (app_dir / ".streamlit" / "config.toml").is_file()
    assert {p.name for p in (app_dir / "app_pages").glob("*.py")} >= {"explorer.py", "audit.py", "reproduce.py"}
    assert (prefix / "bin" / "geodp-explorer").is_file()
    out = _run("import geodp_core, geodp_app.serve as s; print(geodp_core.__file__)", purelib, tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert str(purelib) in out.stdout  # imported from the installed copy, not the checkout


def test_the_python_snippet_runs_against_the_installed_package(installed, tmp_path):
    _, purelib = installed
    snippet = Scenario(n=30, n_releases=5, mechanisms=("riemannian_laplace",)).to_python_snippet()
    out = _run(snippet, purelib, tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Riemannian Laplace ok" in out.stdout
