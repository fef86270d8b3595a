"""Hyperbolic space :math:`H^d` in the hyperboloid model (closed forms)."""

import numpy as np

from geodp_core._validation import check_finite_array
from geodp_core.exceptions import OffManifoldError
from geodp_core.geometry.base import Manifold
from geodp_core.geometry.functions import sinhc as _sinhc

__all__ = ["Hyperbolic", "minkowski_inner", "MAX_TIME_COORDINATE"]

#: Largest time coordinate ``x0`` of a representable point: ``x0**2`` and every Minkowski
#: product of two such points stay below the largest double (geodesic distance ~346 from the origin).
MAX_TIME_COORDINATE = 1e150
_EPS = np.finfo(float).eps
#: Rounding slack of the membership test: a correctly rounded point of the sheet has
#: |<x,x>_L + 1| <~ 4 eps x0^2; 32 eps x0^2 leaves a safety factor 8.
_ROUNDING_SLACK = 32.0 * _EPS
#: Poincaré radius used for points whose radius tanh(rho/2) rounds to 1 (rho >~ 36.7).
_MAX_BALL_RADIUS = 1.0 - 4.0 * _EPS


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

    def _exp_polar(self, base_point, radii, unit_coords):
        r""":math:`\cosh r_i\, p + \sinh r_i\, u_i` (then :meth:`projection`), :math:`u_i` = :meth:`from_frame` of the
        unit coordinates, unvalidated.

        :math:`|u_i|_L = 1` is known exactly, so no Minkowski norm of a long tangent vector is formed (that norm
        suffers catastrophic cancellation far from the origin).
        """
        p = np.asarray(base_point, dtype=float)
        coords = np.asarray(unit_coords, dtype=float)
        r = np.asarray(radii, dtype=float)[:, None]
        p0, ps = p[0], p[1:]
        out = np.empty((coords.shape[0], self.dim + 1))
        out[:, 0] = 1.0  # recomputed by the projection from the spatial part
        with np.errstate(over="ignore", invalid="ignore"):
            # spatial part of u = from_frame(p, c): c + p̄ (p̄·c)/(1 + p0)
            direction = coords + np.outer(coords @ ps, ps / (1.0 + p0)) if np.any(ps) else coords
            out[:, 1:] = np.cosh(r) * ps + np.sinh(r) * direction
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

    def from_frame(self, base_point, coords):
        r""":math:`\sum_k c_k e_k(p) = (\bar p\cdot c,\; c + \bar p\,(\bar p\cdot c)/(1 + p_0))` (O(d) per point)."""
        p = np.asarray(base_point, dtype=float)
        c = np.asarray(coords, dtype=float)
        p0, ps = p[..., :1], p[..., 1:]
        dot = np.sum(ps * c, axis=-1, keepdims=True)
        return np.concatenate([np.broadcast_to(dot, np.broadcast_shapes(dot.shape, c.shape[:-1] + (1,))),
                               c + ps * dot / (1.0 + p0)], axis=-1)

    def to_frame(self, base_point, tangent_vec):
        r"""Coordinates :math:`\langle e_k(p), v\rangle_L = -\bar p_k v_0 + \bar v_k + \bar p_k(\bar p\cdot\bar v)/(1 + p_0)`."""
        p = np.asarray(base_point, dtype=float)
        v = np.asarray(tangent_vec, dtype=float)
        p0, ps = p[..., :1], p[..., 1:]
        v0, vs = v[..., :1], v[..., 1:]
        return -ps * v0 + vs + ps * np.sum(ps * vs, axis=-1, keepdims=True) / (1.0 + p0)

    def _belongs(self, point, atol):
        r"""On the upper sheet within ``atol`` in the scale :math:`\lambda = \sqrt{-\langle x,x\rangle_L}`.

        A point :math:`x = \lambda y` with :math:`y \in H^d` is accepted when

        .. math:: |\lambda^2 - 1| = |(x_0 - |\bar x|)(x_0 + |\bar x|) - 1| \le 2\,\mathrm{atol} + 32\,\varepsilon\, x_0^2,

        (the product form has no cancellation; the second term is the rounding error of a
        correctly rounded point of the sheet, :math:`\varepsilon` the machine epsilon), and
        :math:`0 < x_0 \le 10^{150}` (:data:`MAX_TIME_COORDINATE`). So a point on the light cone
        (:math:`\lambda = 0`) is rejected whenever it differs from the sheet in double precision
        (:math:`x_0 \lesssim 10^7`); the old test :math:`|\langle x,x\rangle_L + 1| \le \mathrm{atol}(1 + x_0^2)`
        accepted :math:`(10^3, 10^3, 0)`.
        """
        x0 = point[..., 0]
        spatial = np.linalg.norm(point[..., 1:], axis=-1)
        representable = (x0 > 0) & (x0 <= MAX_TIME_COORDINATE)
        x0_safe = np.where(representable, x0, 1.0)
        lam2 = (x0_safe - spatial) * (x0_safe + spatial)
        tol = 2.0 * atol + _ROUNDING_SLACK * x0_safe**2
        with np.errstate(invalid="ignore"):
            return representable & (np.abs(lam2 - 1.0) <= tol)

    def _off_manifold_hint(self, point):
        x0 = float(point[0])
        if np.isfinite(x0) and x0 > MAX_TIME_COORDINATE:
            return (f" (its time coordinate x0 = {x0:.3g} exceeds {MAX_TIME_COORDINATE:g}: points farther than "
                    "about 346 from the origin are not representable in double precision)")
        if np.isfinite(x0) and x0 <= 0:
            return f" (x0 = {x0:.6g} <= 0: the hyperboloid model uses the upper sheet x0 > 0)"
        return " (the hyperboloid model needs <x, x>_L = -x0^2 + |x_1:|^2 = -1 with x0 > 0)"

    def _exp_norm_hint(self):
        return "346 minus the distance of base_point from the origin (cosh overflows beyond)"

    def _is_tangent(self, base_point, tangent_vec, atol):
        dot = minkowski_inner(base_point, tangent_vec)
        scale = 1.0 + np.linalg.norm(tangent_vec, axis=-1) * np.linalg.norm(np.asarray(base_point), axis=-1)
        return np.abs(dot) <= atol * scale

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`(d-1)\log(\sinh r / r)`, :math:`r = |v|_L`."""
        from geodp_core.geometry.radial import _log_sinh_over_x

        v = np.asarray(tangent_vec, dtype=float)
        scale = np.max(np.abs(v), axis=-1)
        safe = np.where(scale > 0, scale, 1.0)
        unit = v / safe[..., None]
        r = np.sqrt(np.maximum(minkowski_inner(unit, unit), 0.0)) * safe
        return (self.dim - 1) * _log_sinh_over_x(r)  # stable: finite for every finite r

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
        r"""Poincaré-ball coordinates :math:`b = \bar x / (1 + x_0)`, :math:`|b| = \tanh(\rho/2) < 1`.

        :math:`\rho` is the distance from the origin. For :math:`\rho \gtrsim 36.7`,
        :math:`\tanh(\rho/2)` rounds to 1 in double precision; such points are returned at
        radius :math:`1 - 4\varepsilon` (the largest radius that maps back to a finite point),
        in their exact direction, so the result always lies in the open unit ball.

        Raises
        ------
        OffManifoldError
            If a point is not on the hyperboloid (see :meth:`belongs`).
        """
        pts = self.validate_points(points, "points")
        ball = pts[..., 1:] / (1.0 + pts[..., :1])
        radius = np.linalg.norm(ball, axis=-1, keepdims=True)
        too_far = radius > _MAX_BALL_RADIUS
        return np.where(too_far, ball * (_MAX_BALL_RADIUS / np.where(too_far, radius, 1.0)), ball)

    def from_poincare(self, ball_points):
        r"""Hyperboloid point from Poincaré-ball coordinates :math:`|b| < 1`.

        .. math:: x = \frac{(1 + |b|^2,\ 2b)}{1 - |b|^2}, \qquad 1 - |b|^2 = (1 - |b|)(1 + |b|),

        then :math:`x_0 = \sqrt{1 + |\bar x|^2}` recomputed (rounding only).

        Raises
        ------
        OffManifoldError
            If ``ball_points`` has the wrong trailing shape, NaN/inf, or a point with
            :math:`|b| \ge 1` (not in the open ball).
        """
        b = check_finite_array(ball_points, "ball_points", shape_tail=(self.dim,))
        radius = np.linalg.norm(b, axis=-1, keepdims=True)
        outside = radius >= 1.0
        if outside.any():
            idx = int(np.flatnonzero(outside.ravel())[0])
            raise OffManifoldError(
                f"ball_points must lie in the open unit ball |b| < 1 (the Poincaré ball); entry {idx} has "
                f"|b| = {float(radius.ravel()[idx])!r}",
                param="ball_points",
            )
        denom = (1.0 - radius) * (1.0 + radius)
        return self.projection(np.concatenate([1.0 + radius**2, 2.0 * b], axis=-1) / denom)

    def to_display(self, points):
        return self.to_poincare(points)
