"""Conformal lab: the lab's settings and data kinds for the page (its cached run is
:func:`geodp_app.cache.cached_conformal_lab`)."""

from geodp_core.conformal_lab import DATA_KINDS, LabRun, LabSettings

__all__ = ["DATA_KINDS", "LabRun", "LabSettings"]
