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
