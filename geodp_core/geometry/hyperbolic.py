"""Hyperbolic space :math:`H^d` in the hyperboloid model (closed forms)."""

import numpy as np

from geodp_core.geometry.base import Manifold
from geodp_core.geometry.functions import sinhc as _sinhc

__all__ = ["Hyperbolic", "minkowski_inner"]


def minkowski_inner(x, y):
    r""":math:`\langle x, y\rangle_L = -x_0 y_0 + \sum_{i\ge1} x_i y_i`, batched."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return -x[..., 0] * y[..., 0] + np.sum(x[..., 1:] * y[..., 1:], axis=-1)


class Hyperbolic(Manifold):
    r"""Hyperbolic space :math:`H^d = \{x \in \mathbb{R}^{d+1}: \langle x,x\rangle_L = -1, x_0 > 0\}`.

    Curvature -1, Hadamard, homogeneous. Stable closed forms:

    .. math::
        \mathrm{dist}(x, y) = 2\operatorname{arcsinh}\big(\tfrac12\sqrt{\langle x-y, x-y\rangle_L}\big),\qquad
        \mathrm{Exp}_p(v) = \cosh|v|_L\, p + \sinh|v|_L\, v/|v|_L.

    Display: the Poincaré ball :math:`b = x_{1:}/(1 + x_0)`.
    """

    name = "hyperbolic"
    is_homogeneous = True
    is_hadamard = True
    constant_curvature_space = "hyperbolic"

    def __init__(self, dim):
        self.dim = int(dim)
        self.point_shape = (self.dim + 1,)
        self.curvature_bounds = (-1.0, -1.0)
        self.ricci_constant = self.dim - 1.0
        self.injectivity_radius = np.inf

    @property
    def label(self):
        return f"H^{self.dim}"

    def default_center(self):
        """The origin :math:`(1, 0, \\dots, 0)` (centre of the Poincaré ball)."""
        center = np.zeros(self.dim + 1)
        center[0] = 1.0
        return center

    def inner(self, base_point, tangent_a, tangent_b):
        return minkowski_inner(tangent_a, tangent_b)

    def _dist(self, point_a, point_b):
        """``2 arcsinh(|x - y|_L / 2)`` for nearby points, ``arccosh(-<x, y>_L)`` for far ones.

        The first form is accurate for small distances, the second for large ones
        (where the Minkowski norm of the difference suffers cancellation).
        """
        diff = point_a - point_b
        sq = np.maximum(minkowski_inner(diff, diff), 0.0)
        near = 2.0 * np.arcsinh(0.5 * np.sqrt(sq))
        cosh = np.maximum(-minkowski_inner(point_a, point_b), 1.0)
        return np.where(cosh > 2.0, np.arccosh(cosh), near)

    def _exp(self, base_point, tangent_vec):
        norm = np.sqrt(np.maximum(minkowski_inner(tangent_vec, tangent_vec), 0.0))[..., None]
        out = np.cosh(norm) * base_point + _sinhc(norm) * tangent_vec
        return self.projection(out)

    def _log(self, base_point, point):
        coef = minkowski_inner(base_point, point)[..., None]
        perp = point + coef * base_point
        dist = self._dist(base_point, point)[..., None]
        return perp / _sinhc(dist)

    def tangent_frame(self, base_point):
        r"""Columns ``1..d`` of the Lorentz boost mapping the origin to ``p``.

        For :math:`p = (p_0, \bar p)` the boost is
        :math:`B = \begin{pmatrix} p_0 & \bar p^T \\ \bar p & I + \bar p \bar p^T/(1+p_0)\end{pmatrix}`;
        it is the parallel transport of the standard frame from the origin.
        """
        p = np.asarray(base_point, dtype=float)
        p0, ps = p[..., :1], p[..., 1:]
        eye = np.eye(self.dim)
        lower = eye + ps[..., :, None] * ps[..., None, :] / (1.0 + p0[..., None])
        # row k of the frame is column k+1 of B: (ps_k, lower[:, k])
        return np.concatenate([ps[..., :, None], np.swapaxes(lower, -1, -2)], axis=-1)

    def _belongs(self, point, atol):
        return (np.abs(minkowski_inner(point, point) + 1.0) <= atol * (1.0 + point[..., 0] ** 2)) & (point[..., 0] > 0)

    def _is_tangent(self, base_point, tangent_vec, atol):
        dot = minkowski_inner(base_point, tangent_vec)
        scale = 1.0 + np.linalg.norm(tangent_vec, axis=-1) * np.linalg.norm(np.asarray(base_point), axis=-1)
        return np.abs(dot) <= atol * scale

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`(d-1)\log(\sinh r / r)`, :math:`r = |v|_L`."""
        v = np.asarray(tangent_vec, dtype=float)
        r = np.sqrt(np.maximum(minkowski_inner(v, v), 0.0))
        return (self.dim - 1) * np.log(_sinhc(r))

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport along the geodesic: :math:`v + \frac{\langle q, v\rangle_L}{1 - \langle p,q\rangle_L}(p + q)`."""
        p, q, v = (np.asarray(a, dtype=float) for a in (base_point, end_point, tangent_vec))
        coef = minkowski_inner(q, v) / (1.0 - minkowski_inner(p, q))
        return v + coef[..., None] * (p + q)

    def projection(self, point):
        """Recompute :math:`x_0 = \\sqrt{1 + |\\bar x|^2}` (removes numerical drift)."""
        point = np.asarray(point, dtype=float)
        spatial = point[..., 1:]
        x0 = np.sqrt(1.0 + np.sum(spatial * spatial, axis=-1, keepdims=True))
        return np.concatenate([x0, spatial], axis=-1)

    def to_poincare(self, points):
        r"""Poincaré-ball coordinates :math:`b = \bar x / (1 + x_0)`."""
        pts = np.asarray(points, dtype=float)
        return pts[..., 1:] / (1.0 + pts[..., :1])

    def from_poincare(self, ball_points):
        r"""Hyperboloid point from Poincaré-ball coordinates :math:`|b| < 1`."""
        b = np.asarray(ball_points, dtype=float)
        sq = np.sum(b * b, axis=-1, keepdims=True)
        return np.concatenate([1.0 + sq, 2.0 * b], axis=-1) / (1.0 - sq)

    def to_display(self, points):
        return self.to_poincare(points)
