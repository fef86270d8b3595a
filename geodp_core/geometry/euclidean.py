"""Euclidean space :math:`\\mathbb{R}^d` (the flat reference for every limit test)."""

import numpy as np

from geodp_core.geometry.base import Manifold, register_manifold, unicode_powers
from geodp_core.geometry.radial_volume import FlatVolume

__all__ = ["Euclidean"]


@register_manifold
class Euclidean(Manifold):
    """:math:`\\mathbb{R}^d` with the standard metric: ``Exp_p(v) = p + v``."""

    name = "euclidean"
    title = "Euclidean space"
    description = "flat Euclidean space"
    menu_order = 40
    is_homogeneous = True
    is_hadamard = True
    center_offset_limit = 1e6

    def __init__(self, dim):
        self.dim = int(dim)
        self.point_shape = (self.dim,)
        self.curvature_bounds = (0.0, 0.0)
        self.ricci_constant = 0.0
        self.injectivity_radius = np.inf

    @property
    def label(self):
        return f"R^{self.dim}"

    @property
    def symbol(self):
        return "ℝ" + unicode_powers(f"^{self.dim}")

    @property
    def menu_label(self):
        return "Euclidean ℝᵈ"

    @property
    def radial_volume(self):
        """:math:`J(r) = r^{d-1}`."""
        return FlatVolume(self.dim)

    @property
    def representable_radius(self):
        """:math:`10^{100}` (squared distances stay finite)."""
        return 1e100

    def isometric_chart(self):
        """The identity chart and the standard basis."""
        return (lambda x: np.asarray(x, dtype=float)), (lambda y: y), np.eye(self.dim)

    def default_center(self):
        """The origin."""
        return np.zeros(self.dim)

    def inner(self, base_point, tangent_a, tangent_b):
        return np.sum(np.asarray(tangent_a) * np.asarray(tangent_b), axis=-1)

    def _dist(self, point_a, point_b):
        return np.linalg.norm(point_a - point_b, axis=-1)

    def _exp(self, base_point, tangent_vec):
        return base_point + tangent_vec

    def _log(self, base_point, point):
        return point - base_point

    def tangent_frame(self, base_point):
        shape = np.shape(base_point)[:-1]
        return np.broadcast_to(np.eye(self.dim), shape + (self.dim, self.dim)).copy()

    def from_frame(self, base_point, coords):
        """The standard frame: coordinates are the vector itself."""
        coords = np.asarray(coords, dtype=float)
        shape = np.broadcast_shapes(np.shape(base_point)[:-1], coords.shape[:-1]) + coords.shape[-1:]
        return np.broadcast_to(coords, shape).copy()

    def to_frame(self, base_point, tangent_vec):
        """The standard frame: the vector is its own coordinates."""
        vec = np.asarray(tangent_vec, dtype=float)
        shape = np.broadcast_shapes(np.shape(base_point)[:-1], vec.shape[:-1]) + vec.shape[-1:]
        return np.broadcast_to(vec, shape).copy()

    def _belongs(self, point, atol):
        return np.ones(point.shape[:-1], dtype=bool)

    def _is_tangent(self, base_point, tangent_vec, atol):
        return np.ones(tangent_vec.shape[:-1], dtype=bool)

    def log_volume_jacobian(self, base_point, tangent_vec):
        return np.zeros(np.shape(tangent_vec)[:-1])

    def parallel_transport(self, base_point, end_point, tangent_vec):
        return np.asarray(tangent_vec, dtype=float)

    # ------------------------------------------- facts for views, studies and solvers outside the package
    short_title = "Euclidean"
    jacobi_model = "quadric"
    upload_format = "cartesian"
    distance_unit = "data units"

    @property
    def chooser_label(self):
        """``Euclidean ℝ²``; ``Real line ℝ¹`` for the line."""
        return f"Real line {self.symbol}" if self.dim == 1 else super().chooser_label

    def projection(self, point):
        """Identity (every vector of :math:`\\mathbb{R}^d` is a point)."""
        return np.asarray(point, dtype=float)
