"""Launch the Streamlit server for ``app.py`` (the ``geodp-explorer`` command).

The page scripts live in ``app_pages/`` and are registered with ``st.navigation`` in ``app.py``. A folder
named ``pages/`` beside the entry script would make Streamlit treat the app as its legacy multipage layout
until some session had called ``st.navigation``, so a deep link such as ``/explorer`` opened first would run
the page script alone; under another name every URL is served by ``app.py``'s navigation from the first
request. This module only finds ``app.py`` and runs ``streamlit run`` on it, through Streamlit's command
line (``python -m streamlit``).

Usage: ``python -m geodp_app.serve [streamlit run options]``
"""

import os
import runpy
import sys
from pathlib import Path

#: Where ``pip install`` puts the app's script, pages, assets and config (see pyproject.toml).
INSTALLED_APP_DIR = Path(sys.prefix) / "share" / "geodp-explorer"
#: The folder of page scripts beside ``app.py`` (any name but ``pages``, see above).
PAGES_DIR = "app_pages"


def app_path():
    """``app.py`` of a source checkout (beside the package), else of an installed copy."""
    for folder in (Path(__file__).resolve().parents[1], INSTALLED_APP_DIR):
        candidate = folder / "app.py"
        if candidate.is_file() and (folder / PAGES_DIR).is_dir():
            return candidate
    raise FileNotFoundError(f"GeoDP Explorer's app.py was found neither in a source checkout nor in {INSTALLED_APP_DIR}")


def main():
    """Entry point of ``geodp-explorer`` (and ``python -m geodp_app.serve``): extra arguments go to streamlit."""
    app = app_path()
    os.chdir(app.parent)  # Streamlit reads .streamlit/config.toml from the working directory
    sys.argv = ["streamlit", "run", str(app), *sys.argv[1:]]
    runpy.run_module("streamlit", run_name="__main__", alter_sys=True)  # exactly `python -m streamlit run app.py …`


if __name__ == "__main__":
    main()
