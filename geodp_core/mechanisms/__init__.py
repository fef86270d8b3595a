"""Privacy mechanisms on manifolds (docs/specification.md §5), one module per family, plus a registry.

Each family module declares its mechanisms' specs beside their code and registers them
(:func:`~geodp_core.mechanisms.registry.register_mechanism`); the explicit imports below are the whole list, and
their order is the menu order (:data:`MECHANISM_NAMES`).
"""

# ruff: noqa: I001 - the import order below is the registration (menu) order

from geodp_core.mechanisms.base import (
    HONESTY_LABELS,
    LABEL_APPROXIMATE,
    LABEL_EXACT,
    LABEL_NO_GUARANTEE,
    LABEL_UNAVAILABLE,
    Availability,
    BoundMechanism,
    Calibration,
    DatasetMechanism,
    Mechanism,
)
from geodp_core.mechanisms.registry import (
    DATASET_MECHANISM_NAMES,
    MECHANISM_COLORS,
    MECHANISM_NAMES,
    Card,
    MechanismSpec,
    availability_table,
    get_mechanism,
    mechanism_class,
    mechanism_spec,
    mechanism_specs,
    register_mechanism,
)

# The mechanisms, in menu order: importing a family module registers its classes.
from geodp_core.mechanisms import riemannian_laplace  # noqa: F401 - registers
from geodp_core.mechanisms import riemannian_gaussian  # noqa: F401 - registers
from geodp_core.mechanisms import tangent_gaussian  # noqa: F401 - registers
from geodp_core.mechanisms import exponential_wrapped  # noqa: F401 - registers
from geodp_core.mechanisms import heat_diffusion  # noqa: F401 - registers
from geodp_core.mechanisms import conformal  # noqa: F401 - registers
from geodp_core.mechanisms import kng_regression  # noqa: F401 - registers
from geodp_core.mechanisms.gaussian_gdp import gdp_mu, gdp_mu_monte_carlo, privacy_profile, riemannian_gaussian_sigma_for_mu
from geodp_core.mechanisms.heat_diffusion import (
    bm_diffusion_time,
    bm_privacy_floor,
    bm_rdp_eps,
    langevin_diffusion_time,
    langevin_rdp_eps,
)
from geodp_core.mechanisms.kng_regression import KNGGeodesicRegression, kng_geodesic_regression

__all__ = [
    "HONESTY_LABELS",
    "LABEL_APPROXIMATE",
    "LABEL_EXACT",
    "LABEL_NO_GUARANTEE",
    "LABEL_UNAVAILABLE",
    "Availability",
    "BoundMechanism",
    "Calibration",
    "Card",
    "DatasetMechanism",
    "Mechanism",
    "MechanismSpec",
    "DATASET_MECHANISM_NAMES",
    "MECHANISM_COLORS",
    "MECHANISM_NAMES",
    "availability_table",
    "get_mechanism",
    "mechanism_class",
    "mechanism_spec",
    "mechanism_specs",
    "register_mechanism",
    "gdp_mu",
    "gdp_mu_monte_carlo",
    "privacy_profile",
    "riemannian_gaussian_sigma_for_mu",
    "bm_diffusion_time",
    "bm_privacy_floor",
    "bm_rdp_eps",
    "langevin_diffusion_time",
    "langevin_rdp_eps",
    "kng_geodesic_regression",
    "KNGGeodesicRegression",
]

