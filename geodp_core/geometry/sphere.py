"""The unit sphere :math:`S^d \\subset \\mathbb{R}^{d+1}` (closed forms)."""

import numpy as np

from geodp_core._validation import check_int, check_real_array, check_rng
from geodp_core.exceptions import CutLocusError, InvalidParameterError
from geodp_core.geometry.base import CUT_LOCUS_ATOL, Manifold, register_manifold
from geodp_core.geometry.functions import sinc as _sinc
from geodp_core.geometry.radial_volume import SphericalVolume

__all__ = ["Sphere"]


@register_manifold
class Sphere(Manifold):
    r"""Unit sphere :math:`S^d` with the round metric (sectional curvature +1).

    .. math::
        \mathrm{Exp}_p(v) = \cos|v|\, p + \sin|v|\, v/|v|, \qquad
        \mathrm{dist}(p, q) = \operatorname{atan2}(|q - \langle p,q\rangle p|, \langle p,q\rangle).
    """

    name = "sphere"
    title = "Sphere"
    description = "the sphere (positive curvature)"
    menu_order = 10
    is_homogeneous = True
    is_hadamard = False
    diameter = np.pi
    center_offset_limit = np.pi  # every point is within π of the canonical point

    def __init__(self, dim):
        self.dim = int(dim)
        self.point_shape = (self.dim + 1,)
        self.curvature_bounds = (1.0, 1.0)
        self.ricci_constant = -(self.dim - 1.0)
        self.injectivity_radius = np.pi

    @property
    def label(self):
        return f"S^{self.dim}"

    @property
    def menu_label(self):
        return "Sphere Sᵈ"

    @property
    def radial_volume(self):
        """:math:`J(r) = \\sin^{d-1} r` on :math:`[0, \\pi]`."""
        return SphericalVolume(self.dim)

    def random_uniform(self, size, rng):
        """``size`` points uniform for the Riemannian volume (normalised standard Gaussian vectors)."""
        size = check_int(size, "size", low=1)
        rng = check_rng(rng)
        points = rng.standard_normal((size, self.dim + 1))
        return points / np.linalg.norm(points, axis=1, keepdims=True)

    def default_center(self):
        """The north pole :math:`e_{d} = (0, \\dots, 0, 1)`."""
        center = np.zeros(self.dim + 1)
        center[-1] = 1.0
        return center

    def inner(self, base_point, tangent_a, tangent_b):
        return np.sum(np.asarray(tangent_a) * np.asarray(tangent_b), axis=-1)

    def _dist(self, point_a, point_b):
        cos = np.sum(point_a * point_b, axis=-1)
        perp = point_b - cos[..., None] * point_a
        return np.arctan2(np.linalg.norm(perp, axis=-1), cos)

    def _exp(self, base_point, tangent_vec):
        r"""``cos|v| p + sin|v| v/|v|`` for any finite ``v``.

        :math:`|v|` is computed as :math:`s\,|v/s|` with :math:`s = \max_k |v_k|`, so huge vectors
        (``1e300``) do not overflow when squared; ``cos``/``sin`` reduce the double :math:`|v|`
        modulo :math:`2\pi` exactly, so the result is a point of the sphere for every norm
        below the largest double (for :math:`|v| \gtrsim 10^{16}` the rounding of :math:`|v|`
        itself exceeds :math:`2\pi`: the point is valid but the angle is meaningless).
        """
        vec = np.asarray(tangent_vec, dtype=float)
        scale = np.max(np.abs(vec), axis=-1, keepdims=True)
        safe = np.where(scale > 0, scale, 1.0)
        direction = vec / safe
        rel = np.linalg.norm(direction, axis=-1, keepdims=True)
        norm = rel * safe
        unit = direction / np.where(rel > 0, rel, 1.0)
        small = norm < 1.0  # sinc form: exact in the limit |v| -> 0
        out = np.cos(norm) * base_point + np.where(small, _sinc(np.where(small, norm, 0.0)) * vec,
                                                   np.sin(norm) * unit)
        return out / np.linalg.norm(out, axis=-1, keepdims=True)

    def _exp_norm_hint(self):
        return "1.7e308 (the sphere's exponential is periodic: every representable norm works)"

    def _at_cut_locus(self, base_point, point):
        r"""Antipodal within :data:`CUT_LOCUS_ATOL`: :math:`\pi - d(p, q) \le 10^{-9}`."""
        return self._dist(base_point, point) >= np.pi - CUT_LOCUS_ATOL

    def _log(self, base_point, point):
        cos = np.sum(base_point * point, axis=-1)[..., None]
        perp = point - cos * base_point
        sin = np.linalg.norm(perp, axis=-1, keepdims=True)
        theta = np.arctan2(sin, cos)
        return perp / np.where(sin > 0, _sinc(theta), 1.0)

    def tangent_frame(self, base_point):
        r"""Columns ``1..d`` of the Householder reflection mapping :math:`e_0` to ``p``.

        Orthonormal and tangent at ``p``; smooth away from :math:`p = e_0`
        (where the identity columns are used).
        """
        p = np.asarray(base_point, dtype=float)
        n = self.dim + 1
        e0 = np.zeros(n)
        e0[0] = 1.0
        w = e0 - p
        wn2 = np.sum(w * w, axis=-1)[..., None, None]
        eye = np.eye(n)
        householder = eye - 2.0 * w[..., :, None] * w[..., None, :] / np.where(wn2 > 1e-300, wn2, 1.0)
        householder = np.where(wn2 > 1e-24, householder, eye)
        return np.swapaxes(householder, -1, -2)[..., 1:, :]

    def _householder_apply(self, base_point, vec):
        r"""``H v`` with :math:`H = I - 2ww^T/|w|^2`, :math:`w = e_0 - p`, without forming H (O(d) per point)."""
        p = np.asarray(base_point, dtype=float)
        w = -p
        w[..., 0] += 1.0
        wn2 = np.sum(w * w, axis=-1, keepdims=True)
        reflected = vec - 2.0 * w * np.sum(w * vec, axis=-1, keepdims=True) / np.where(wn2 > 1e-300, wn2, 1.0)
        return np.where(wn2 > 1e-24, reflected, vec)

    def from_frame(self, base_point, coords):
        r""":math:`\sum_k c_k e_k(p) = H(0, c)` for the frame of :meth:`tangent_frame` (O(d) per point)."""
        coords = np.asarray(coords, dtype=float)
        padded = np.concatenate([np.zeros(coords.shape[:-1] + (1,)), coords], axis=-1)
        return self._householder_apply(base_point, padded)

    def to_frame(self, base_point, tangent_vec):
        r"""Coordinates :math:`\langle e_k(p), v\rangle = (Hv)_k`, k = 1..d (H is symmetric; O(d) per point)."""
        return self._householder_apply(base_point, np.asarray(tangent_vec, dtype=float))[..., 1:]

    def _exp_polar(self, base_point, radii, unit_coords):
        r""":math:`\cos r_i\, p + \sin r_i\, u_i`, :math:`u_i = H(0, c_i)` (:meth:`from_frame` at p), unvalidated.

        :math:`|u_i| = 1` and :math:`u_i \perp p`, so this is :math:`\mathrm{Exp}_p(r_i u_i)` without forming the norm
        of :math:`r_i u_i`; the reflection is applied as one matrix-vector product,
        :math:`H(0, c) = (0, c) - 2w\,\langle w, (0, c)\rangle/|w|^2`, :math:`w = e_0 - p`.
        """
        p = np.asarray(base_point, dtype=float)
        coords = np.asarray(unit_coords, dtype=float)
        r = np.asarray(radii, dtype=float)[:, None]
        direction = np.empty((coords.shape[0], self.dim + 1))
        direction[:, 0] = 0.0
        direction[:, 1:] = coords
        w = -p
        w[0] += 1.0
        wn2 = float(w @ w)
        if wn2 > 1e-24:  # p != e_0 (at e_0 the frame is the identity's columns 1..d)
            direction -= np.outer(coords @ w[1:], (2.0 / wn2) * w)
        return np.cos(r) * p + np.sin(r) * direction

    def _belongs(self, point, atol):
        return np.abs(np.linalg.norm(point, axis=-1) - 1.0) <= atol

    def _is_tangent(self, base_point, tangent_vec, atol):
        dot = np.sum(np.asarray(base_point) * tangent_vec, axis=-1)
        return np.abs(dot) <= atol * (1.0 + np.linalg.norm(tangent_vec, axis=-1))

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`(d-1)\log|\sin r / r|`, :math:`r = |v|` (``-inf`` where :math:`\sin r = 0`, e.g. the cut locus).

        :math:`|v|` is computed without overflow and :math:`\sin r / r` directly for
        :math:`r \ge 1`, so huge tangent vectors give a finite value (never NaN).
        """
        vec = np.asarray(tangent_vec, dtype=float)
        scale = np.max(np.abs(vec), axis=-1)
        safe = np.where(scale > 0, scale, 1.0)
        r = np.linalg.norm(vec / safe[..., None], axis=-1) * safe
        small = r < 1.0
        ratio = np.where(small, _sinc(np.where(small, r, 0.0)), np.sin(r) / np.where(small, 1.0, r))
        with np.errstate(divide="ignore"):
            return (self.dim - 1) * np.log(np.abs(ratio))

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport ``tangent_vec`` from ``p`` to ``q`` along the minimising geodesic.

        .. math:: \Gamma(v) = v - \frac{\langle q, v\rangle}{1 + \langle p, q\rangle}(p + q).
        """
        p, q, v = (np.asarray(a, dtype=float) for a in (base_point, end_point, tangent_vec))
        denom = 1.0 + np.sum(p * q, axis=-1)
        if np.any(denom <= 0.5 * CUT_LOCUS_ATOL**2):  # 1 + cos(d) ~ (pi - d)^2 / 2
            raise CutLocusError(
                "end_point is at the cut locus (antipode) of base_point: the minimising geodesic, hence the "
                "parallel transport along it, is undefined",
                param="end_point",
            )
        coef = np.sum(q * v, axis=-1) / denom
        return v - coef[..., None] * (p + q)

    def projection(self, point):
        """Radial projection onto the sphere (for numerical drift only)."""
        point = np.asarray(point, dtype=float)
        return point / np.linalg.norm(point, axis=-1, keepdims=True)

    def _require_s2(self, method):
        if self.dim != 2:
            raise InvalidParameterError(
                f"{method} needs the sphere S^2 (latitude/longitude); got {self.label}", param="manifold"
            )

    def to_lat_lon(self, points):
        r"""Latitude in :math:`[-90, 90]` and longitude in :math:`[-180, 180]` (degrees) of points on :math:`S^2`.

        .. math:: \mathrm{lat} = \arcsin x_2, \qquad \mathrm{lon} = \operatorname{atan2}(x_1, x_0).

        Raises
        ------
        OffManifoldError
            If a point is not on :math:`S^2` (NaN/inf, wrong shape, norm not 1).
        """
        self._require_s2("to_lat_lon")
        pts = self.validate_points(points, "points")
        pts = pts / np.linalg.norm(pts, axis=-1, keepdims=True)  # within tolerance: numerical drift only
        lat = np.degrees(np.arcsin(np.clip(pts[..., 2], -1.0, 1.0)))
        lon = np.degrees(np.arctan2(pts[..., 1], pts[..., 0]))
        return lat, lon

    def from_lat_lon(self, lat, lon):
        r"""Points on :math:`S^2` from latitude/longitude in degrees.

        .. math:: x = (\cos\phi\cos\lambda,\ \cos\phi\sin\lambda,\ \sin\phi).

        Parameters
        ----------
        lat : float or array_like
            Latitude :math:`\phi \in [-90, 90]`.
        lon : float or array_like
            Longitude :math:`\lambda \in [-180, 360]` (both the ``[-180, 180]`` and the
            ``[0, 360]`` conventions are accepted); broadcast against ``lat``.

        Raises
        ------
        InvalidParameterError
            NaN/inf, booleans, or values outside these ranges (the message names ``lat``
            or ``lon``, the value and the range).
        """
        self._require_s2("from_lat_lon")
        lat = check_real_array(lat, "lat", low=-90.0, high=90.0, low_closed=True, high_closed=True)
        lon = check_real_array(lon, "lon", low=-180.0, high=360.0, low_closed=True, high_closed=True)
        try:
            np.broadcast_shapes(lat.shape, lon.shape)
        except ValueError:
            raise InvalidParameterError(
                f"lon must broadcast against lat; got shapes {lat.shape} and {lon.shape}", param="lon"
            ) from None
        la, lo = np.radians(lat), np.radians(lon)
        return np.stack(np.broadcast_arrays(np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)), axis=-1)

    # ------------------------------------------- facts for views, studies and solvers outside the package
    jacobi_model = "quadric"
    upload_format = "unit_vector"
    distance_unit = "radians"
    #: :math:`\int_0^\pi r \sin^{d-1} r\,dr / \int_0^\pi \sin^{d-1} r\,dr = \pi/2` for every d (symmetry r ↦ π - r).
    uniform_mean_distance = np.pi / 2.0

    @property
    def mesh_kind(self):
        """``"sphere"`` on S² (the whole sphere is meshed)."""
        return "sphere" if self.dim == 2 else None

    @property
    def view(self):
        """``"sphere3d"`` on S² (drawn in 3-D), the tangent view otherwise."""
        return "sphere3d" if self.dim == 2 else "tangent"

    @property
    def chooser_label(self):
        """``Sphere S²``; ``Circle S¹`` for the circle."""
        return f"Circle {self.symbol}" if self.dim == 1 else super().chooser_label

    def to_tangent(self, base_point, vector):
        """:math:`v - \\langle v, p\\rangle p`."""
        vec = np.asarray(vector, dtype=float)
        return vec - np.sum(vec * base_point, axis=-1, keepdims=True) * base_point

    def mean_initial_guess(self, points, weights):
        r"""The extrinsic mean :math:`\sum_i w_i x_i / |\sum_i w_i x_i|` (``None`` when that sum is near 0)."""
        extrinsic = weights @ points
        norm = np.linalg.norm(extrinsic)
        return extrinsic / norm if norm > 1e-6 else None
