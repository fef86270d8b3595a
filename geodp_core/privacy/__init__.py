"""Privacy accounting: guarantee values, conversions, Gaussian calibration, composition, budgets.

See docs/specification.md §4 and ``docs/derivations/privacy_accounting.md``.
"""

from geodp_core.privacy.calibration import Budget, gdp_budget, pure_dp_budget, zcdp_budget
from geodp_core.privacy.composition import compose
from geodp_core.privacy.conversions import (
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_delta,
    gdp_to_eps_dp,
    log_gdp_delta,
    mironov_rdp_to_approx_dp,
    rdp_curve_to_approx_dp,
    rdp_to_approx_dp,
    zcdp_to_approx_dp,
)
from geodp_core.privacy.gaussian import analytic_gaussian_sigma, classical_gaussian_sigma, gdp_mu_for_approx_dp
from geodp_core.privacy.guarantees import (
    GDP,
    NOTIONS,
    RDP,
    ZCDP,
    ApproxDP,
    Guarantee,
    PureDP,
    guarantee_from_dict,
)
from geodp_core.privacy.implication import implies

__all__ = [
    "Guarantee",
    "PureDP",
    "ApproxDP",
    "GDP",
    "RDP",
    "ZCDP",
    "NOTIONS",
    "guarantee_from_dict",
    "gdp_delta",
    "log_gdp_delta",
    "eps_dp_to_gdp",
    "gdp_to_eps_dp",
    "eps_dp_to_rdp",
    "rdp_to_approx_dp",
    "mironov_rdp_to_approx_dp",
    "rdp_curve_to_approx_dp",
    "zcdp_to_approx_dp",
    "gdp_mu_for_approx_dp",
    "analytic_gaussian_sigma",
    "classical_gaussian_sigma",
    "compose",
    "implies",
    "Budget",
    "pure_dp_budget",
    "gdp_budget",
    "zcdp_budget",
    "privacy_loss_distribution",
    "compose_releases",
    "rdp_curve",
    "release_account",
    "PrivacyLedger",
    "SQLiteLedgerStore",
]

#: Names served lazily (their modules import dp_accounting and the mechanisms on first use).
_LAZY = {
    "privacy_loss_distribution": "geodp_core.privacy.pld",
    "compose_releases": "geodp_core.privacy.pld",
    "rdp_curve": "geodp_core.privacy.pld",
    "release_account": "geodp_core.privacy.pld",
    "PrivacyLedger": "geodp_core.privacy.ledger",
    "SQLiteLedgerStore": "geodp_core.privacy.ledger",
}


def __getattr__(name):
    """Lazy re-exports of the ledger API (avoids importing the mechanisms from this low-level package)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'geodp_core.privacy' has no attribute {name!r}")
