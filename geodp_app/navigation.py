"""The app's navigation: links to its pages that carry the exact URL of the view each page will show.

Streamlit's own navigation menu opens a page with the URL parameters it binds itself, so the app's URL (which the
app writes, see :mod:`geodp_app.urlstate`) would be rewritten on arrival: two or three browser-history entries per
click, and Back would land on a half-written URL. These links carry the target page's URL (the scenario and that
page's remembered settings): one history entry per navigation, and the page opens as the link says.
"""

import streamlit as st

from geodp_app.pages import PAGES, SECTIONS
from geodp_app.url_params import page_link_query

__all__ = ["page_link", "sidebar_navigation"]


def page_link(where, page, label=None, icon=None, **kwargs):
    """``where.page_link`` to :class:`~geodp_app.pages.PageSpec` ``page`` with the URL of its view."""
    return where.page_link(page.script, label=label or page.title, icon=icon or page.icon,
                           query_params=page_link_query(page.settings_key), **kwargs)


def sidebar_navigation(box):
    """The menu of every page by section (in ``box``, a container at the top of the sidebar)."""
    with box:
        for section in SECTIONS:
            st.caption(section)
            for page in PAGES:
                if page.section == section:
                    page_link(st, page)
