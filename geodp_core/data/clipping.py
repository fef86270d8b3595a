r"""The public data ball :math:`B(c, r)`: explicit clipping and the in-ball check (docs/specification.md §2.3, §3.2, §9).

Sensitivity bounds assume every record lies in a *public* ball (chosen before
seeing the data, never computed from it). Data outside it are either rejected
(:func:`check_in_ball`, the default everywhere) or moved onto its boundary by the
explicit, labelled option :func:`clip_to_ball`.
"""

import numpy as np

from geodp_core.data._common import check_manifold
from geodp_core.exceptions import OutsideBallError

__all__ = ["clip_to_ball", "check_in_ball", "BALL_RTOL"]

BALL_RTOL = 1e-9
"""Relative tolerance of :func:`check_in_ball` (points clipped onto the boundary pass)."""


def _prepare(manifold, points, center, radius, name):
    manifold = check_manifold(manifold)
    pts = manifold.validate_dataset(points, name)
    center = manifold.validate_points(center, "center", single=True)
    radius = manifold.check_radius(radius, "radius")
    return manifold, pts, center, radius


def clip_to_ball(manifold, points, center, radius):
    r"""Move the points outside :math:`B(c, r)` along the geodesic from :math:`c` onto the boundary.

    .. math::
        \mathrm{clip}(x) = \begin{cases} x & \mathrm{dist}(c, x) \le r \\
        \mathrm{Exp}_c\!\Big(r\,\dfrac{\mathrm{Log}_c x}{\|\mathrm{Log}_c x\|}\Big) & \text{otherwise.}\end{cases}

    Clipping changes the data; callers must label results "clipped to B(c, r)".
    Points inside the ball are returned unchanged (bit for bit).

    Parameters
    ----------
    manifold : Manifold
    points : array_like, shape (n, *manifold.point_shape)
    center : array_like
        Public centre :math:`c`.
    radius : float
        Public radius, :math:`0 < r < r^*` (:attr:`Manifold.ball_radius_limit`).

    Returns
    -------
    clipped_points : ndarray, shape (n, *manifold.point_shape)
    n_clipped : int
        Number of points that were moved.

    Notes
    -----
    A point at the cut locus of the centre (antipodal on the sphere), where the geodesic direction is
    undefined, goes to :math:`\mathrm{Exp}_c(r e_1)`, :math:`e_1` the first vector of the public tangent
    frame at :math:`c`: clipping is a map of each record by public values only, so neighbouring datasets stay
    neighbouring and no dataset is refused. Points whose distance or logarithm overflows double precision (e.g.
    at :math:`\pm 10^{308}` in :math:`\mathbb{R}^d`) are clipped along their direction, computed scale-free.
    """
    manifold, pts, center, radius = _prepare(manifold, points, center, radius, "points")
    with np.errstate(over="ignore", invalid="ignore"):
        distances = manifold.dist(center, pts, check=False)
    outside = ~(distances <= radius)
    clipped = pts.copy()
    n_clipped = int(outside.sum())
    if n_clipped == 0:
        return clipped, 0
    k = len(manifold.point_shape)
    with np.errstate(all="ignore"):
        log = np.asarray(manifold.log(center, pts[outside], check=False), dtype=float)
        axes = tuple(range(1, log.ndim))
        # direction of Log_c x, computed scale-free: divide by the largest entry first (|Log| may overflow,
        # e.g. points at +-1e308 in R^d), then by the (metric) norm
        inf_rows = np.any(np.isinf(log), axis=axes, keepdims=True) if axes else np.isinf(log)
        log = np.where(inf_rows, np.where(np.isinf(log), np.sign(log), 0.0), np.nan_to_num(log, nan=0.0))
        peak = np.max(np.abs(log), axis=axes, keepdims=True) if axes else np.abs(log)
        unit = np.where(peak > 0.0, log / np.where(peak > 0.0, peak, 1.0), 0.0)
        norms = np.asarray(manifold.norm(center, unit), dtype=float)
    # dist > r > 0 implies Log_c x != 0, except at the cut locus (the antipode on S^d), where Log is 0 and the
    # direction is undefined: such a record goes to the boundary point along the first vector of the public
    # tangent frame at the centre (a map of that one record by public values, so clipping stays a record-wise
    # map and never refuses a dataset)
    degenerate = ~(np.isfinite(norms) & (norms > 1e-12))
    if degenerate.any():
        first = manifold.tangent_frame(center)[0]
        unit[degenerate] = first
        norms[degenerate] = float(manifold.norm(center, first))
    scale = (radius / norms).reshape(norms.shape + (1,) * k)
    with np.errstate(all="ignore"):
        clipped[outside] = manifold.exp(center, scale * unit, check=False)
    return clipped, n_clipped


def check_in_ball(manifold, points, center, radius, name="data"):
    r"""Raise :class:`~geodp_core.exceptions.OutsideBallError` unless every point is in :math:`B(c, r)`.

    A point passes when :math:`\mathrm{dist}(c, x) \le r\,(1 + 10^{-9})` (the
    tolerance lets points clipped onto the boundary pass).

    Parameters
    ----------
    manifold : Manifold
    points : array_like, shape (n, *manifold.point_shape)
    center : array_like
        Public centre :math:`c`.
    radius : float
        Public radius, :math:`0 < r < r^*`.
    name : str
        Name of the data in the error message.

    Returns
    -------
    ndarray
        The validated points.

    Raises
    ------
    OutsideBallError
        Naming how many points lie outside, the largest distance (and its index) and the radius.
    """
    manifold, pts, center, radius = _prepare(manifold, points, center, radius, name)
    distances = manifold.dist(center, pts, check=False)
    outside = distances > radius * (1.0 + BALL_RTOL)
    if outside.any():
        worst = int(np.argmax(distances))
        raise OutsideBallError(
            f"{name}: {int(outside.sum())} of {pts.shape[0]} points lie outside the public ball "
            f"B(center, radius={radius:g}); the largest distance to the centre is {distances[worst]:.6g} "
            f"({name}[{worst}]). Enlarge the radius (it must stay below r* = {manifold.ball_radius_limit:.6g}) "
            "or clip explicitly with clip_to_ball.",
            param=name,
        )
    return pts
