"""Manifold adapters: sphere, hyperbolic, SPD (three metrics), Euclidean, Kendall shapes, rotations SO(3).

Each space is one module whose class registers itself (:func:`~geodp_core.geometry.base.register_manifold`) and
answers every question about itself; the import order below is the menu order.
"""

from geodp_core._validation import check_int, check_option
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.base import MANIFOLD_CLASSES, Manifold
from geodp_core.geometry.euclidean import Euclidean
from geodp_core.geometry.hyperbolic import Hyperbolic, minkowski_inner
from geodp_core.geometry.kendall import KendallShapeSpace
from geodp_core.geometry.radial import RadialLaw, get_radial_law, laplace_scale_limit
from geodp_core.geometry.so3 import SpecialOrthogonal3
from geodp_core.geometry.spd import SPDAffine, SPDLogCholesky, SPDLogEuclidean
from geodp_core.geometry.spd_polar import sample_spd_polar, spd_laplace_scale_limit
from geodp_core.geometry.sphere import Sphere

__all__ = [
    "MANIFOLD_NAMES",
    "manifold_class",
    "SPD_METRICS",
    "Euclidean",
    "Hyperbolic",
    "KendallShapeSpace",
    "Manifold",
    "RadialLaw",
    "SPDAffine",
    "SPDLogCholesky",
    "SPDLogEuclidean",
    "SpecialOrthogonal3",
    "Sphere",
    "get_manifold",
    "get_radial_law",
    "laplace_scale_limit",
    "minkowski_inner",
    "sample_spd_polar",
    "spd_laplace_scale_limit",
]

#: Codes of the manifolds offered (``get_manifold``, the Scenario, the app's chooser), in menu order.
MANIFOLD_NAMES = tuple(sorted(MANIFOLD_CLASSES, key=lambda code: MANIFOLD_CLASSES[code].menu_order))
#: Largest intrinsic dimension d of S^d, H^d, R^d (the papers go to S^999) and matrix size m of SPD(m).
MAX_DIMENSION = 1000
SPD_METRICS = {"affine": SPDAffine, "log_euclidean": SPDLogEuclidean, "log_cholesky": SPDLogCholesky}


def manifold_class(name):
    """The class of the space with code ``name`` (validated: a clear error lists the codes)."""
    return MANIFOLD_CLASSES[check_option(name, "name", MANIFOLD_NAMES)]


def get_manifold(name, dim=None, metric=None):
    """Return the manifold adapter for ``name``.

    Parameters
    ----------
    name : str
        A code of :data:`MANIFOLD_NAMES`: ``"sphere"``, ``"hyperbolic"``, ``"spd"``, ``"euclidean"``,
        ``"kendall"``, ``"so3"``.
    dim : int
        The size of the space, in the range ``manifold_class(name).size_range``: the intrinsic dimension ``d`` for
        the sphere, hyperbolic and Euclidean spaces; the matrix size ``m`` for ``"spd"`` (intrinsic dimension
        ``m(m+1)/2``); the number ``k >= 3`` of planar landmarks for ``"kendall"`` (intrinsic dimension ``2k - 4``);
        ``3`` for ``"so3"``. ``None``: the family's default size (``manifold_class(name).default_size``).
    metric : str or None
        Only for families with a metric choice (``"spd"``: ``"affine"``, the default, ``"log_euclidean"``,
        ``"log_cholesky"``); must be ``None`` otherwise.

    Returns
    -------
    Manifold
    """
    cls = manifold_class(name)
    low, high = cls.size_range
    dim = cls.default_size if dim is None else check_int(dim, "dim", low=low, high=high)
    if metric is not None and not cls.metric_choices:
        raise InvalidParameterError(
            f"metric must be None for the {cls.name} manifold (only 'spd' has a metric choice); got {metric!r}",
            param="metric",
        )
    return cls.from_size(dim, metric)
