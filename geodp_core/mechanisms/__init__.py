"""Privacy mechanisms on manifolds (docs/specification.md §5), one module per family, plus a registry."""

from geodp_core.mechanisms.base import (
    HONESTY_LABELS,
    LABEL_APPROXIMATE,
    LABEL_EXACT,
    LABEL_NO_GUARANTEE,
    LABEL_UNAVAILABLE,
    Availability,
    Calibration,
    Mechanism,
    Release,
)
from geodp_core.mechanisms.registry import MECHANISM_NAMES, availability_table, get_mechanism, mechanism_class

__all__ = [
    "HONESTY_LABELS",
    "LABEL_APPROXIMATE",
    "LABEL_EXACT",
    "LABEL_NO_GUARANTEE",
    "LABEL_UNAVAILABLE",
    "Availability",
    "Calibration",
    "Mechanism",
    "Release",
    "MECHANISM_NAMES",
    "availability_table",
    "get_mechanism",
    "mechanism_class",
    "gdp_mu",
    "bm_diffusion_time",
    "langevin_diffusion_time",
    "kng_geodesic_regression",
    "KNGGeodesicRegression",
]


def __getattr__(name):
    """Lazy re-exports of the function-style public API (each lives in its family's module)."""
    lazy = {
        "gdp_mu": "geodp_core.mechanisms.gaussian_gdp",
        "riemannian_gaussian_sigma_for_mu": "geodp_core.mechanisms.gaussian_gdp",
        "privacy_profile": "geodp_core.mechanisms.gaussian_gdp",
        "gdp_mu_monte_carlo": "geodp_core.mechanisms.gaussian_gdp",
        "bm_diffusion_time": "geodp_core.mechanisms.heat_diffusion",
        "bm_rdp_eps": "geodp_core.mechanisms.heat_diffusion",
        "bm_privacy_floor": "geodp_core.mechanisms.heat_diffusion",
        "langevin_diffusion_time": "geodp_core.mechanisms.heat_diffusion",
        "langevin_rdp_eps": "geodp_core.mechanisms.heat_diffusion",
        "kng_geodesic_regression": "geodp_core.mechanisms.kng_regression",
        "KNGGeodesicRegression": "geodp_core.mechanisms.kng_regression",
    }
    if name in lazy:
        import importlib

        return getattr(importlib.import_module(lazy[name]), name)
    raise AttributeError(f"module 'geodp_core.mechanisms' has no attribute {name!r}")
