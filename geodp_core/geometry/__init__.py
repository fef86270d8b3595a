"""Manifold adapters (SPEC §1, §5.9): sphere, hyperbolic, SPD (three metrics), Euclidean, Kendall shapes."""

from geodp_core._validation import check_int, check_option
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.base import Manifold
from geodp_core.geometry.euclidean import Euclidean
from geodp_core.geometry.hyperbolic import Hyperbolic, minkowski_inner
from geodp_core.geometry.kendall import KendallShapeSpace
from geodp_core.geometry.radial import RadialLaw, get_radial_law, laplace_scale_limit
from geodp_core.geometry.spd import SPDAffine, SPDLogCholesky, SPDLogEuclidean
from geodp_core.geometry.spd_polar import sample_spd_polar, spd_laplace_scale_limit
from geodp_core.geometry.sphere import Sphere

__all__ = [
    "MANIFOLD_NAMES",
    "SPD_METRICS",
    "Euclidean",
    "Hyperbolic",
    "KendallShapeSpace",
    "Manifold",
    "RadialLaw",
    "SPDAffine",
    "SPDLogCholesky",
    "SPDLogEuclidean",
    "Sphere",
    "get_manifold",
    "get_radial_law",
    "laplace_scale_limit",
    "minkowski_inner",
    "sample_spd_polar",
    "spd_laplace_scale_limit",
]

#: Manifolds offered by the app (scenario validation, sidebar): fully supported end to end.
MANIFOLD_NAMES = ("sphere", "hyperbolic", "spd", "euclidean", "kendall")
#: Largest intrinsic dimension d of S^d, H^d, R^d (the papers go to S^999) and matrix size m of SPD(m).
MAX_DIMENSION = 1000
SPD_METRICS = {"affine": SPDAffine, "log_euclidean": SPDLogEuclidean, "log_cholesky": SPDLogCholesky}


def get_manifold(name, dim, metric=None):
    """Return the manifold adapter for ``name``.

    Parameters
    ----------
    name : {"sphere", "hyperbolic", "spd", "euclidean", "kendall"}
    dim : int
        Intrinsic dimension ``d`` for the sphere, hyperbolic and Euclidean spaces;
        the matrix size ``m`` for ``"spd"`` (intrinsic dimension ``m(m+1)/2``);
        the number ``k >= 3`` of planar landmarks for ``"kendall"`` (intrinsic dimension ``2k - 4``;
        DESIGN.md public API).
    metric : {"affine", "log_euclidean", "log_cholesky"} or None
        Only for ``"spd"`` (default ``"affine"``); must be ``None`` otherwise.

    Returns
    -------
    Manifold
    """
    name = check_option(name, "name", MANIFOLD_NAMES)
    if name == "kendall":
        dim = check_int(dim, "dim", low=3, high=MAX_DIMENSION)  # number of landmarks k
    else:
        dim = check_int(dim, "dim", low=1, high=MAX_DIMENSION)
    if name == "spd":
        metric = "affine" if metric is None else metric
        metric = check_option(metric, "metric", tuple(SPD_METRICS))
        return SPD_METRICS[metric](dim)
    if metric is not None:
        raise InvalidParameterError(
            f"metric must be None for the {name} manifold (only 'spd' has a metric choice); got {metric!r}",
            param="metric",
        )
    return {"sphere": Sphere, "hyperbolic": Hyperbolic, "euclidean": Euclidean, "kendall": KendallShapeSpace}[name](dim)
