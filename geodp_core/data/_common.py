"""Helpers shared by the modules of :mod:`geodp_core.data` (not public)."""

import numpy as np

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import Manifold

__all__ = ["check_manifold", "finalise_points", "standard_frame_coords"]


def check_manifold(manifold, name="manifold", allowed=None):
    """Return ``manifold`` if it is a :class:`~geodp_core.geometry.Manifold` (optionally of an allowed kind).

    Parameters
    ----------
    manifold : Manifold
        Build it with :func:`geodp_core.geometry.get_manifold`.
    allowed : tuple of str, optional
        Allowed values of ``manifold.name``.
    """
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"{name} must be a geodp_core Manifold (use geodp_core.geometry.get_manifold); "
            f"got {type(manifold).__name__}",
            param=name,
        )
    if allowed is not None and manifold.name not in allowed:
        raise InvalidParameterError(
            f"{name} must be one of the spaces {', '.join(allowed)}; got {manifold.label}", param=name
        )
    return manifold


def finalise_points(manifold, points, n, culprit=None):
    """Check that exactly ``n`` generated points lie on ``manifold`` and return them.

    A generator never returns fewer points than asked nor points off the manifold
    (e.g. after an overflow, or matrices no longer positive definite in floating
    point, for extreme parameters): it raises instead.

    Parameters
    ----------
    culprit : tuple (str, object), optional
        ``(name, value)`` of the parameter to blame in the error message.
    """
    points = np.asarray(points, dtype=float)
    if points.shape != (n,) + tuple(manifold.point_shape):  # pragma: no cover - internal guard
        raise RuntimeError(f"expected shape {(n,) + tuple(manifold.point_shape)}, got {points.shape}")
    ok = manifold.belongs(points)
    if not ok.all():
        idx = int(np.flatnonzero(~ok)[0])
        hint = f"; reduce {culprit[0]} (got {culprit[1]!r})" if culprit is not None else ""
        raise InvalidParameterError(
            f"generated point {idx} is not on {manifold.label} in floating point "
            f"(overflow or loss of definiteness){hint}",
            param=None if culprit is None else culprit[0],
        )
    return points


def standard_frame_coords(rng, n, dim, std=1.0):
    """``n`` draws of :math:`N(0, \\mathrm{std}^2 I_{dim})` (frame coordinates of tangent noise)."""
    return std * rng.standard_normal((n, dim))
