r"""The audit study: an empirical lower bound on the privacy loss of one mechanism, against its claim.

The computation is :func:`geodp_core.audit.audit` (neighbouring datasets in the public ball, releases under each,
an event chosen on one half and evaluated on the other, Clopper–Pearson bounds); this module gives it the
studies' shape. The scenario provides the space and the target guarantee.
"""

from dataclasses import dataclass

from geodp_core.audit import (
    DEFAULT_ALPHA,
    DEFAULT_N,
    DEFAULT_N_RELEASES,
    DEFAULT_RADIUS,
    LAYOUTS,
    MAX_N,
    MAX_RELEASES,
    MIN_RELEASES,
    VARIANTS,
    AuditResult,
    audit,
)
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["Settings", "AuditResult", "run", "figures"]


@dataclass(frozen=True)
class Settings(StudySettings):
    """The audit's own settings (the radius must also be below the space's r*, checked by the space)."""

    mechanism: str = setting("riemannian_laplace", choices=MECHANISM_NAMES, doc="mechanism audited")
    variant: str = setting(None, choices=VARIANTS, optional=True, doc="a labelled non-DP variant, or None")
    n_releases: int = setting(DEFAULT_N_RELEASES, low=MIN_RELEASES, high=MAX_RELEASES, integer=True,
                              doc="releases per dataset")
    n: int = setting(DEFAULT_N, low=2, high=MAX_N, integer=True, doc="records per dataset")
    radius: float = setting(DEFAULT_RADIUS, low=0.0, low_closed=False, doc="public ball radius")
    alpha: float = setting(DEFAULT_ALPHA, low=0.0, high=0.5, low_closed=False, doc="error level of the bound")
    layout: str = setting("boundary_point", choices=LAYOUTS, doc="neighbouring datasets")
    seed: int = setting(0, low=0, high=2**63 - 1, integer=True, doc="seed of the data and the releases")


def run(scenario, settings=Settings()):
    """:func:`~geodp_core.audit.audit` of ``settings.mechanism`` on the scenario's space at its target.

    Returns
    -------
    AuditResult
    """
    return audit(settings.mechanism, scenario.build_manifold(), scenario.target, n_releases=settings.n_releases,
                 n=settings.n, radius=settings.radius, alpha=settings.alpha, seed=settings.seed,
                 variant=settings.variant, layout=settings.layout)


def figures(result):
    """The claimed ε beside the empirical lower bound, and the statistic's histograms under D and D′."""
    from geodp_core.viz.audit import audit_claim_figure, audit_statistic_figure  # rendering only

    return [audit_claim_figure(result), audit_statistic_figure(result)]
