"""Registry of mechanisms by name (docs/architecture.md §5, ``get_mechanism``)."""

import importlib

from geodp_core._validation import check_option
from geodp_core.geometry.base import Manifold
from geodp_core.exceptions import InvalidParameterError

__all__ = ["MECHANISM_NAMES", "get_mechanism", "mechanism_class", "availability_table"]

# name -> (module, class); imported lazily so that each family lives in its own module.
_REGISTRY = {
    "riemannian_laplace": ("geodp_core.mechanisms.riemannian_laplace", "RiemannianLaplace"),
    "riemannian_gaussian": ("geodp_core.mechanisms.riemannian_gaussian", "RiemannianGaussian"),
    "tangent_gaussian": ("geodp_core.mechanisms.tangent_gaussian", "TangentGaussian"),
    "ew_laplace": ("geodp_core.mechanisms.exponential_wrapped", "ExponentialWrappedLaplace"),
    "ew_gaussian": ("geodp_core.mechanisms.exponential_wrapped", "ExponentialWrappedGaussian"),
    "brownian_motion": ("geodp_core.mechanisms.heat_diffusion", "BrownianMotion"),
    "langevin": ("geodp_core.mechanisms.heat_diffusion", "Langevin"),
    "conformal": ("geodp_core.mechanisms.conformal", "Conformal"),
}

MECHANISM_NAMES = tuple(_REGISTRY)


def mechanism_class(name):
    """Return the class registered under ``name``."""
    name = check_option(name, "name", MECHANISM_NAMES)
    module_name, class_name = _REGISTRY[name]
    return getattr(importlib.import_module(module_name), class_name)


def get_mechanism(name, manifold):
    """Return the mechanism ``name`` bound to ``manifold``.

    The instance is returned even where the mechanism is unavailable (so that a
    user interface can show it greyed out with ``available()``'s reason);
    ``calibrate`` then raises :class:`~geodp_core.exceptions.UnavailableError`.
    """
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
            param="manifold",
        )
    return mechanism_class(name)(manifold)


def availability_table(manifold):
    """``{name: Availability}`` for every registered mechanism on ``manifold``."""
    return {name: mechanism_class(name).availability(manifold) for name in MECHANISM_NAMES}
