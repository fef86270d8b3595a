"""Launch the Streamlit server for app.py with the v2 (st.navigation) page model from the first request.

Streamlit decides at start-up whether the app uses the legacy ``pages/`` directory
(multipage v1) by checking that the folder exists, and only switches to v2 once some
session has called ``st.navigation``. Until then a deep link such as ``/explorer``
would run ``pages/explorer.py`` alone, without ``app.py``'s navigation and page
config. Our pages live in ``pages/`` but are registered with ``st.navigation``, so
we set the v2 model before the server starts.

Usage: ``python -m geodp_app.serve [streamlit run options]``
"""

import os
import sys
from pathlib import Path

#: Where ``pip install`` puts the app's script, pages, assets and config (see pyproject.toml).
INSTALLED_APP_DIR = Path(sys.prefix) / "share" / "geodp-explorer"


def app_path():
    """``app.py`` of a source checkout (beside the package), else of an installed copy."""
    for folder in (Path(__file__).resolve().parents[1], INSTALLED_APP_DIR):
        candidate = folder / "app.py"
        if candidate.is_file() and (folder / "pages").is_dir():
            return candidate
    raise FileNotFoundError(f"GeoDP Explorer's app.py was found neither in a source checkout nor in {INSTALLED_APP_DIR}")


def main():
    """Entry point of ``geodp-explorer`` (and ``python -m geodp_app.serve``): extra arguments go to streamlit."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web.cli import main as streamlit_main

    app = app_path()
    os.chdir(app.parent)  # Streamlit reads .streamlit/config.toml from the working directory
    PagesManager.uses_pages_directory = False
    sys.argv = ["streamlit", "run", str(app), *sys.argv[1:]]
    streamlit_main()


if __name__ == "__main__":
    main()
