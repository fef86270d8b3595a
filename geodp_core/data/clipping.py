r"""The public data ball :math:`B(c, r)`: explicit clipping and the in-ball check (SPEC §3, §9).

Sensitivity bounds assume every record lies in a *public* ball (chosen before
seeing the data, never computed from it). Data outside it are either rejected
(:func:`check_in_ball`, the default everywhere) or moved onto its boundary by the
explicit, labelled option :func:`clip_to_ball`.
"""

import numpy as np

from geodp_core.data._common import check_manifold
from geodp_core.exceptions import InvalidParameterError, OutsideBallError

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

    Raises
    ------
    InvalidParameterError
        If a point to be clipped is at the cut locus of the centre (antipodal on the
        sphere), where the geodesic direction is undefined.
    """
    manifold, pts, center, radius = _prepare(manifold, points, center, radius, "points")
    distances = manifold.dist(center, pts, check=False)
    outside = distances > radius
    clipped = pts.copy()
    n_clipped = int(outside.sum())
    if n_clipped == 0:
        return clipped, 0
    log = manifold.log(center, pts[outside], check=False)
    norms = manifold.norm(center, log)
    # dist > r > 0 implies |Log| = dist > r, except at the cut locus (antipode on S^d), where Log is 0.
    degenerate = ~(norms > 0.5 * radius)
    if degenerate.any():
        idx = int(np.flatnonzero(outside)[np.flatnonzero(degenerate)[0]])
        raise InvalidParameterError(
            f"points[{idx}] is at the cut locus of center (distance {distances[idx]:.6g}); "
            "the geodesic direction from the centre is undefined, so it cannot be clipped",
            param="points",
        )
    k = len(manifold.point_shape)
    scale = (radius / norms).reshape(norms.shape + (1,) * k)
    clipped[outside] = manifold.exp(center, scale * log, check=False)
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
