"""Hyperbolic space :math:`H^d` in the hyperboloid model (closed forms)."""

import numpy as np

from geodp_core._validation import check_finite_array
from geodp_core.exceptions import OffManifoldError
from geodp_core.geometry.base import Manifold, register_manifold
from geodp_core.geometry.functions import sinhc as _sinhc
from geodp_core.geometry.radial_volume import HyperbolicVolume

__all__ = ["Hyperbolic", "minkowski_inner", "MAX_TIME_COORDINATE", "ACCURACY_TOLERANCE", "ACCURATE_RADIUS",
           "EXP_LOG_ACCURATE_RADIUS"]

#: Largest time coordinate ``x0`` of a representable point: ``x0**2`` and every Minkowski
#: product of two such points stay below the largest double (geodesic distance ~346 from the origin).
MAX_TIME_COORDINATE = 1e150
#: Absolute error tolerance of the accuracy radii below (checked against mpmath at 60 digits).
ACCURACY_TOLERANCE = 1e-6
#: Radius of the ball around the origin in which ``dist``, ``log`` (error relative to ``max(1, |v|)``) and ``exp``
#: of tangent vectors of norm ``<= 1`` are accurate to :data:`ACCURACY_TOLERANCE`: their error is a few
#: :math:`\varepsilon\sinh\rho` (the resolution of the coordinates), measured ``<= 3e-7`` at 22 and up to ``1.9e-6``
#: at 24 on H² and H⁵.
ACCURATE_RADIUS = 22.0
#: Radius within which :math:`\mathrm{Exp}_a(\mathrm{Log}_a b)` lands within :data:`ACCURACY_TOLERANCE` of ``b``
#: for any two points: an ambient tangent vector at ``a`` carries rounding errors of size
#: :math:`\varepsilon\cosh\rho_a|v|`, which ``Exp`` amplifies by :math:`\sinh|v|/|v|`, so the error grows like
#: :math:`\varepsilon\cosh\rho_a\sinh d(a, b)` (measured ``<= 1e-8`` at 7, ``5e-7`` to ``1e-6`` at 8).
EXP_LOG_ACCURATE_RADIUS = 7.0
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


def _half_sinh(point_a, point_b):
    r""":math:`\sinh(d/2)` of two hyperboloid points from their spatial parts (see :meth:`Hyperbolic._dist`).

    The radial term is algebraic: with :math:`s = \sinh(a - b)`,
    :math:`\sinh^2((a - b)/2) = (\cosh(a - b) - 1)/2 = s^2 / (2(1 + \sqrt{1 + s^2}))`; the angular term is
    :math:`\sinh a\sinh b\,|\hat u - \hat v|^2/4` with :math:`\hat u = \bar x/|\bar x|` (exact for points on a
    common ray through the origin) and :math:`\sinh a\sinh b \le 10^{300}` for representable points.
    """
    xs = np.asarray(point_a, dtype=float)[..., 1:]
    ys = np.asarray(point_b, dtype=float)[..., 1:]
    nx2 = np.einsum("...i,...i->...", xs, xs)
    ny2 = np.einsum("...i,...i->...", ys, ys)
    nx, ny = np.sqrt(nx2), np.sqrt(ny2)
    x0, y0 = np.sqrt(1.0 + nx2), np.sqrt(1.0 + ny2)
    denom = nx * y0 + x0 * ny
    sinh_diff = (nx - ny) * ((nx + ny) / np.where(denom > 0, denom, 1.0))
    sq = sinh_diff * sinh_diff
    radial2 = sq / (2.0 + 2.0 * np.sqrt(1.0 + sq))
    w = xs / np.where(nx > 0, nx, 1.0)[..., None] - ys / np.where(ny > 0, ny, 1.0)[..., None]
    angular2 = 0.25 * (nx * ny) * np.einsum("...i,...i->...", w, w)
    return np.sqrt(radial2 + angular2)


@register_manifold
class Hyperbolic(Manifold):
    r"""Hyperbolic space :math:`H^d = \{x \in \mathbb{R}^{d+1}: \langle x,x\rangle_L = -1, x_0 > 0\}`.

    Curvature -1, Hadamard, homogeneous. Closed forms, evaluated without cancellation (see each method):

    .. math::
        \mathrm{dist}(x, y) = 2\operatorname{arcsinh}\big(\tfrac12\sqrt{\langle x-y, x-y\rangle_L}\big),\qquad
        \mathrm{Exp}_p(v) = \cosh|v|_L\, p + \sinh|v|_L\, v/|v|_L.

    Accuracy (absolute error :data:`ACCURACY_TOLERANCE` ``= 1e-6`` against mpmath): ``dist``, ``log`` and ``exp``
    of steps of norm ``<= 1`` for points within :data:`ACCURATE_RADIUS` ``= 22`` of the origin;
    :math:`\mathrm{Exp}_a(\mathrm{Log}_a b)` for points within :data:`EXP_LOG_ACCURATE_RADIUS` ``= 7``. Points stay
    representable (finite, on the sheet) up to about 346 (:data:`MAX_TIME_COORDINATE`), with an error growing
    like :math:`\varepsilon\sinh\rho` beyond 22.

    Display: the Poincaré ball :math:`b = x_{1:}/(1 + x_0)`.
    """

    name = "hyperbolic"
    title = "Hyperbolic space"
    description = "hyperbolic space (a Hadamard space, curvature −1)"
    menu_order = 20
    is_homogeneous = True
    is_hadamard = True
    center_offset_limit = 10.0
    #: See :data:`ACCURATE_RADIUS`.
    accurate_radius = ACCURATE_RADIUS

    def __init__(self, dim):
        self.dim = int(dim)
        self.point_shape = (self.dim + 1,)
        self.curvature_bounds = (-1.0, -1.0)
        self.ricci_constant = self.dim - 1.0
        self.injectivity_radius = np.inf

    @property
    def label(self):
        return f"H^{self.dim}"

    @property
    def menu_label(self):
        return "Hyperbolic Hᵈ"

    @property
    def radial_volume(self):
        """:math:`J(r) = \\sinh^{d-1} r`."""
        return HyperbolicVolume(self.dim)

    @property
    def representable_radius(self):
        """:data:`ACCURATE_RADIUS` = 22: distances, logarithms and short exponentials are accurate to ``1e-6`` (mpmath)
        within it; the coordinates resolve :math:`\\varepsilon\\sinh\\rho`, so the error grows tenfold every 2.3
        beyond (points stay representable up to about 346)."""
        return float(self.accurate_radius)

    #: :math:`\cosh r` overflows double precision beyond about 710.
    overflow_radius = 700.0
    #: Beyond a time coordinate of 1e7 Minkowski products lose all accuracy; a public domain boundary stays below 1e5.
    conditioning_limits = (1e7, 1e5)
    conditioning_measure = "hyperboloid time coordinate"

    def well_conditioned(self, points, limit):
        r"""Time coordinate :math:`|x_0| \le` ``limit``."""
        return np.abs(np.asarray(points, dtype=float)[..., 0]) <= limit
    #: Hyperboloid coordinates grow like :math:`e^r`: beyond 30 they carry few significant digits of the position.
    precision_radius = 30.0

    def default_center(self):
        """The origin :math:`(1, 0, \\dots, 0)` (centre of the Poincaré ball)."""
        center = np.zeros(self.dim + 1)
        center[0] = 1.0
        return center

    def inner(self, base_point, tangent_a, tangent_b):
        r""":math:`g_p(u, v) = \langle u, v\rangle_L`, evaluated as the dot product of the frame coordinates
        (:meth:`to_frame`): the ambient form :math:`-u_0v_0 + \bar u\cdot\bar v` cancels far from the origin."""
        return np.sum(self.to_frame(base_point, tangent_a) * self.to_frame(base_point, tangent_b), axis=-1)

    def ambient_inner(self, tangent_a, tangent_b):
        r"""The Minkowski form :math:`-u_0v_0 + \bar u\cdot\bar v` (needs no base point; cancels far out, where
        :meth:`inner` does not)."""
        return minkowski_inner(tangent_a, tangent_b)

    def norm(self, base_point, tangent_vec):
        r""":math:`|v|_L = |w + (a/p_0)\,\hat p|` (see :meth:`to_frame`), without cancellation at any radius."""
        p = np.asarray(base_point, dtype=float)
        v = np.asarray(tangent_vec, dtype=float)
        scale = np.max(np.abs(v), axis=-1, keepdims=True)  # linear in v: scaled so that no square overflows
        safe = np.where(scale > 0, scale, 1.0)
        ps, vs = p[..., 1:], v[..., 1:] / safe
        radius2 = np.einsum("...i,...i->...", ps, ps)[..., None]
        unit = ps / np.sqrt(np.where(radius2 > 0, radius2, 1.0))
        along = np.einsum("...i,...i->...", unit, vs)[..., None]
        across = vs - along * unit  # one Gram–Schmidt pass suffices here: its residual enters squared
        sq = np.einsum("...i,...i->...", across, across) + (along * along / (1.0 + radius2))[..., 0]
        return np.sqrt(sq) * safe[..., 0]

    def _dist(self, point_a, point_b):
        r"""Geodesic distance without cancellation, from the spatial parts only.

        With :math:`x = (\cosh a, \sinh a\,\hat u)`, :math:`y = (\cosh b, \sinh b\,\hat v)`,

        .. math::
            \sinh^2\frac{d}{2} = \tfrac14\langle x - y, x - y\rangle_L
            = \sinh^2\frac{a - b}{2} + \sinh a \sinh b\,\frac{|\hat u - \hat v|^2}{4},

        a sum of two non-negative terms (from :math:`\cosh d = \cosh(a - b) + \sinh a\sinh b\,(1 - \cos\theta)`),
        with :math:`\sinh(a - b) = (|\bar x| - |\bar y|)(|\bar x| + |\bar y|)/(|\bar x|y_0 + x_0|\bar y|)`;
        :math:`d = 2\operatorname{arcsinh}(\cdot)`. Both Lorentzian forms
        (:math:`\operatorname{arccosh}(-\langle x, y\rangle_L)` and the Minkowski norm of :math:`x - y` expanded
        in coordinates) subtract numbers of size :math:`\cosh^2\rho` and lose every digit beyond
        :math:`\rho \approx 18`; this form keeps an absolute error of a few :math:`\varepsilon\sinh\rho`, the
        resolution of the coordinates themselves (:data:`ACCURATE_RADIUS`).
        """
        return 2.0 * np.arcsinh(_half_sinh(point_a, point_b))

    def _exp(self, base_point, tangent_vec):
        r""":math:`\mathrm{Exp}_p(v) = \cosh|v|\,p + \sinh|v|\,v/|v|` with :math:`|v|` from :meth:`norm` (stable),
        spatial part only, then :meth:`projection` (:math:`x_0 = \sqrt{1 + |\bar x|^2}`)."""
        p = np.asarray(base_point, dtype=float)
        v = np.asarray(tangent_vec, dtype=float)
        norm = self.norm(p, v)[..., None]
        spatial = np.cosh(norm) * p[..., 1:] + _sinhc(norm) * v[..., 1:]
        return self.projection(np.concatenate([np.ones_like(spatial[..., :1]), spatial], axis=-1))

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
        r""":math:`\mathrm{Log}_p(q) = \frac{d}{\sinh d}(q - \cosh d\;p)`, spatial part written without cancellation:

        .. math::
            \bar v = \frac{d}{\sinh d}(\bar q - \bar p) - d\tanh\frac d2\,\bar p, \qquad
            v_0 = \bar p\cdot\bar v / p_0 \quad(\text{tangency } \langle p, v\rangle_L = 0),

        with :math:`d` from :meth:`_dist` (:math:`\cosh d - 1 = 2\sinh^2(d/2)`; no factor overflows).
        """
        p = np.asarray(base_point, dtype=float)
        q = np.asarray(point, dtype=float)
        d = self._dist(p, q)[..., None]
        ps, qs = p[..., 1:], q[..., 1:]
        spatial = (qs - ps) / _sinhc(d) - d * np.tanh(0.5 * d) * ps
        p0 = np.sqrt(1.0 + np.sum(ps * ps, axis=-1, keepdims=True))
        time = np.sum(ps * spatial, axis=-1, keepdims=True) / p0
        return np.concatenate([time, spatial], axis=-1)

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
        r"""Frame coordinates :math:`c = w + (a/p_0)\,\hat p` of the tangent vector with spatial part :math:`\bar v`.

        With :math:`\hat p = \bar p/|\bar p|`, :math:`a = \hat p\cdot\bar v` and :math:`w = \bar v - a\hat p`:
        the coordinates :math:`\langle e_k(p), v\rangle_L = -\bar p_k v_0 + \bar v_k + \bar p_k(\bar p\cdot\bar v)/(1 + p_0)`
        with :math:`v_0 = \bar p\cdot\bar v/p_0` (tangency) simplify to this form, which subtracts nothing of
        size :math:`\cosh^2\rho` (the time coordinate of ``tangent_vec`` is implied by tangency, not read).
        """
        p = np.asarray(base_point, dtype=float)
        v = np.asarray(tangent_vec, dtype=float)
        ps, vs = p[..., 1:], v[..., 1:]
        radius = np.linalg.norm(ps, axis=-1, keepdims=True)
        unit = ps / np.where(radius > 0, radius, 1.0)
        along = np.sum(unit * vs, axis=-1, keepdims=True)
        across = vs - along * unit
        residual = np.sum(unit * across, axis=-1, keepdims=True)  # second Gram–Schmidt pass: w exactly across
        across = across - residual * unit
        along = along + residual
        p0 = np.sqrt(1.0 + radius * radius)
        return across + (along / p0) * unit

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
        from geodp_core.geometry.radial_volume import log_sinh_over_x as _log_sinh_over_x

        r = self.norm(base_point, tangent_vec)
        return (self.dim - 1) * _log_sinh_over_x(r)  # stable: finite for every finite r

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport along the geodesic: :math:`v + \frac{\langle q, v\rangle_L}{1 - \langle p,q\rangle_L}(p + q)`,

        evaluated as :math:`v + \frac{\tanh(d/2)}{d}\,g_p(\mathrm{Log}_p q, v)\,(p + q)` (from
        :math:`q = \cosh d\,p + \sinh d\,u`, :math:`1 - \langle p, q\rangle_L = 2\cosh^2(d/2)`): no cancelling
        Lorentzian product.
        """
        p, q, v = (np.asarray(a, dtype=float) for a in (base_point, end_point, tangent_vec))
        w = self._log(p, q)
        d = self._dist(p, q)
        small = d < 1e-8
        ratio = np.where(small, 0.5, np.tanh(0.5 * d) / np.where(small, 1.0, d))
        coef = ratio * self.inner(p, w, v)
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

    # ------------------------------------------- facts for views, studies and solvers outside the package
    short_title = "Hyperbolic"
    jacobi_model = "quadric"
    upload_format = "hyperboloid"
    distance_unit = "geodesic distance, curvature −1"
    #: The volume of a ball grows like :math:`e^{(d-1)R}`: public domains stay within radius 4.
    domain_radius_max = 4.0

    @property
    def mesh_kind(self):
        """``"hyperbolic_ball"`` on H² (a public geodesic ball is meshed)."""
        return "hyperbolic_ball" if self.dim == 2 else None

    @property
    def view(self):
        """``"poincare_disk"`` on H², the tangent view otherwise."""
        return "poincare_disk" if self.dim == 2 else "tangent"

    def to_tangent(self, base_point, vector):
        r""":math:`v + \langle v, p\rangle_L\, p` (the Minkowski-orthogonal projection onto :math:`T_pH^d`)."""
        vec = np.asarray(vector, dtype=float)
        return vec + minkowski_inner(vec, base_point)[..., None] * base_point

    def rounding_scale(self, point):
        r""":math:`x_0^2`: logarithms from hyperboloid coordinates of size :math:`x_0` carry errors
        :math:`\varepsilon x_0^2`."""
        return float(point[0]) ** 2

    def mean_initial_guess(self, points, weights):
        r"""The Lorentzian centroid :math:`c / \sqrt{-\langle c, c\rangle_L}`, :math:`c = \sum_i w_i x_i` (a positive
        combination of future-timelike vectors is future-timelike); ``None`` if rounding cancels it far out."""
        centroid = weights @ points
        squared = -float(minkowski_inner(centroid, centroid))  # > 0 exactly; rounding can cancel it far out
        if np.isfinite(squared) and squared > 0.0:
            with np.errstate(all="ignore"):
                candidate = self.projection(centroid / np.sqrt(squared))
            if np.all(np.isfinite(candidate)):
                return candidate
        return None
