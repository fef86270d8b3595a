"""The Explorer warms the next slider step's slow calibrations in the background, from public inputs only."""

import threading

from geodp_app.cache import warm_neighbouring_budgets
from geodp_core.mechanisms.kendall_gdp import _calibrate
from geodp_core.pipeline import prepare
from geodp_core.scenario import Scenario


def test_the_neighbouring_budgets_are_calibrated_in_the_background():
    scenario = Scenario(manifold="kendall", dim=6, data="shape_perturbation", spread=0.05, radius=0.3, n=30,
                        mechanisms=("riemannian_gaussian",), eps=2.0)
    prepared = prepare(scenario)
    before = _calibrate.cache_info().currsize
    warm_neighbouring_budgets(scenario, prepared.manifold, prepared.sensitivity)
    for thread in threading.enumerate():
        if thread.name == "geodp-warm-budgets":
            thread.join(timeout=120)
    assert _calibrate.cache_info().currsize >= before + 2  # ε = 1 and ε = 5, one quadrature each
    warm_neighbouring_budgets(scenario, prepared.manifold, prepared.sensitivity)  # the same key: no second thread
    assert not any(t.name == "geodp-warm-budgets" and t.is_alive() for t in threading.enumerate())


def test_a_ledger_file_is_a_plain_name_in_the_server_folder():
    """The page never opens a path a user typed elsewhere on the server (no separators, no leading dot)."""
    from geodp_app.ledger import ledger_path_in

    assert ledger_path_in("/srv/ledgers", "monthly.sqlite3") == "/srv/ledgers/monthly.sqlite3"
    for name in ("../x.sqlite3", "/etc/passwd", "a/b.db", "x.txt", ".hidden.db", "", None):
        assert ledger_path_in("/srv/ledgers", name) is None, name
