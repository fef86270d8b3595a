"""The unit sphere :math:`S^d \\subset \\mathbb{R}^{d+1}` (closed forms)."""

import numpy as np

from geodp_core.geometry.base import Manifold
from geodp_core.geometry.functions import sinc as _sinc

__all__ = ["Sphere"]


class Sphere(Manifold):
    r"""Unit sphere :math:`S^d` with the round metric (sectional curvature +1).

    .. math::
        \mathrm{Exp}_p(v) = \cos|v|\, p + \sin|v|\, v/|v|, \qquad
        \mathrm{dist}(p, q) = \operatorname{atan2}(|q - \langle p,q\rangle p|, \langle p,q\rangle).
    """

    name = "sphere"
    is_homogeneous = True
    is_hadamard = False
    constant_curvature_space = "sphere"

    def __init__(self, dim):
        self.dim = int(dim)
        self.point_shape = (self.dim + 1,)
        self.curvature_bounds = (1.0, 1.0)
        self.ricci_constant = -(self.dim - 1.0)
        self.injectivity_radius = np.pi

    @property
    def label(self):
        return f"S^{self.dim}"

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
        norm = np.linalg.norm(tangent_vec, axis=-1)[..., None]
        out = np.cos(norm) * base_point + _sinc(norm) * tangent_vec
        return out / np.linalg.norm(out, axis=-1, keepdims=True)

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

    def _belongs(self, point, atol):
        return np.abs(np.linalg.norm(point, axis=-1) - 1.0) <= atol

    def _is_tangent(self, base_point, tangent_vec, atol):
        dot = np.sum(np.asarray(base_point) * tangent_vec, axis=-1)
        return np.abs(dot) <= atol * (1.0 + np.linalg.norm(tangent_vec, axis=-1))

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`(d-1)\log(\sin r / r)`, :math:`r = |v|` (``-inf`` at the cut locus)."""
        r = np.linalg.norm(np.asarray(tangent_vec, dtype=float), axis=-1)
        with np.errstate(divide="ignore"):
            return (self.dim - 1) * np.log(np.abs(_sinc(r)))

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport ``tangent_vec`` from ``p`` to ``q`` along the minimising geodesic.

        .. math:: \Gamma(v) = v - \frac{\langle q, v\rangle}{1 + \langle p, q\rangle}(p + q).
        """
        p, q, v = (np.asarray(a, dtype=float) for a in (base_point, end_point, tangent_vec))
        coef = np.sum(q * v, axis=-1) / (1.0 + np.sum(p * q, axis=-1))
        return v - coef[..., None] * (p + q)

    def projection(self, point):
        """Radial projection onto the sphere (for numerical drift only)."""
        point = np.asarray(point, dtype=float)
        return point / np.linalg.norm(point, axis=-1, keepdims=True)

    def to_lat_lon(self, points):
        """Latitude and longitude in degrees of points on :math:`S^2`."""
        pts = np.asarray(points, dtype=float)
        lat = np.degrees(np.arcsin(np.clip(pts[..., 2], -1.0, 1.0)))
        lon = np.degrees(np.arctan2(pts[..., 1], pts[..., 0]))
        return lat, lon

    def from_lat_lon(self, lat, lon):
        """Points on :math:`S^2` from latitude/longitude in degrees."""
        la, lo = np.radians(np.asarray(lat, dtype=float)), np.radians(np.asarray(lon, dtype=float))
        return np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=-1)
