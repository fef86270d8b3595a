"""Launch the Streamlit server for app.py with the v2 (st.navigation) page model from the first request.

Streamlit decides at start-up whether the app uses the legacy ``pages/`` directory
(multipage v1) by checking that the folder exists, and only switches to v2 once some
session has called ``st.navigation``. Until then a deep link such as ``/explorer``
would run ``pages/explorer.py`` alone, without ``app.py``'s navigation and page
config. Our pages live in ``pages/`` but are registered with ``st.navigation``, so
we set the v2 model before the server starts.

Usage: ``python -m geodp_app.serve [streamlit run options]``
"""

import sys
from pathlib import Path


def main():
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.web.cli import main as streamlit_main

    PagesManager.uses_pages_directory = False
    app = str(Path(__file__).resolve().parents[1] / "app.py")
    sys.argv = ["streamlit", "run", app, *sys.argv[1:]]
    streamlit_main()


if __name__ == "__main__":
    main()
