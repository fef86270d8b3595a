"""Abstract manifold adapter shared by every space of SPEC §1.

A :class:`Manifold` knows its Riemannian operations (batched over leading axes),
an orthonormal tangent frame at any point, the volume distortion of ``Exp`` and
the curvature facts that the sensitivity bounds and mechanisms need.
"""

from abc import ABC, abstractmethod

import numpy as np

from geodp_core._validation import check_finite_array, check_int, check_real, check_rng
from geodp_core.exceptions import CutLocusError, InvalidParameterError, NumericalOverflowError, OffManifoldError

__all__ = ["Manifold"]

DEFAULT_ATOL = 1e-6

#: A point closer than this (in geodesic distance) to the cut locus of the base point has no
#: well-defined logarithm in double precision (the direction of the minimising geodesic is lost).
CUT_LOCUS_ATOL = 1e-9


class Manifold(ABC):
    """Riemannian manifold adapter.

    Points and tangent vectors are numpy arrays with trailing shape
    :attr:`point_shape` (ambient vectors for the sphere and the hyperboloid,
    ``m x m`` symmetric matrices for SPD(m)); every operation broadcasts over
    leading axes.

    Attributes
    ----------
    name : str
        ``"sphere"``, ``"hyperbolic"``, ``"spd"`` or ``"euclidean"``.
    metric : str or None
        SPD metric name (``"affine"``, ``"log_euclidean"``, ``"log_cholesky"``).
    dim : int
        Intrinsic dimension ``d``.
    point_shape : tuple of int
    curvature_bounds : tuple of float
        ``(k_low, k_high)`` bounds on the sectional curvature.
    ricci_constant : float
        ``K`` with ``Ric >= -K`` (SPEC §1: sphere ``-(d-1)``, hyperbolic ``d-1``).
    injectivity_radius : float
    is_homogeneous, is_hadamard : bool
    constant_curvature_space : str or None
        ``"sphere"``, ``"hyperbolic"`` or ``"euclidean"`` when the space has
        constant curvature (radial laws apply), else ``None``.
    """

    name = None
    metric = None
    dim = None
    point_shape = None
    curvature_bounds = (0.0, 0.0)
    ricci_constant = 0.0
    injectivity_radius = np.inf
    is_homogeneous = True
    is_hadamard = True
    constant_curvature_space = None

    # ------------------------------------------------------------------ maths
    @abstractmethod
    def _dist(self, point_a, point_b):
        """Geodesic distance without validation."""

    @abstractmethod
    def _exp(self, base_point, tangent_vec):
        """Riemannian exponential without validation."""

    @abstractmethod
    def _log(self, base_point, point):
        """Riemannian logarithm without validation."""

    @abstractmethod
    def inner(self, base_point, tangent_a, tangent_b):
        """Riemannian inner product :math:`g_p(u, v)`, batched."""

    @abstractmethod
    def tangent_frame(self, base_point):
        """Orthonormal basis of :math:`T_p M`, shape ``(..., dim, *point_shape)``."""

    @abstractmethod
    def _belongs(self, point, atol):
        """Boolean array: is each point on the manifold (within ``atol``)?"""

    @abstractmethod
    def _is_tangent(self, base_point, tangent_vec, atol):
        """Boolean array: is each vector tangent at ``base_point``?"""

    @abstractmethod
    def log_volume_jacobian(self, base_point, tangent_vec):
        r"""Log of :math:`|\det d(\mathrm{Exp}_p)_v|` in orthonormal frames.

        The Riemannian volume pulled back by :math:`\mathrm{Exp}_p` to the
        tangent space is :math:`\exp(\text{this}) \, dv`.
        """

    @abstractmethod
    def default_center(self):
        """A canonical public point (north pole, origin, identity)."""

    # ------------------------------------------------------- derived helpers
    def norm(self, base_point, tangent_vec):
        """Riemannian norm :math:`\\sqrt{g_p(v, v)}`."""
        return np.sqrt(np.maximum(self.inner(base_point, tangent_vec, tangent_vec), 0.0))

    def from_frame(self, base_point, coords):
        """Tangent vector :math:`\\sum_k c_k e_k(p)` from frame coordinates ``(..., dim)``."""
        frame = self.tangent_frame(base_point)
        coords = np.asarray(coords, dtype=float)
        axes = "abcdefgh"[: len(self.point_shape)]
        return np.einsum(f"...k,...k{axes}->...{axes}", coords, frame)

    def to_frame(self, base_point, tangent_vec):
        """Frame coordinates ``(..., dim)`` of a tangent vector (orthonormal frame)."""
        frame = self.tangent_frame(base_point)
        base = np.asarray(base_point, dtype=float)
        vec = np.asarray(tangent_vec, dtype=float)
        k = len(self.point_shape)
        expanded_base = np.expand_dims(base, axis=-k - 1)
        expanded_vec = np.expand_dims(vec, axis=-k - 1)
        return self.inner(expanded_base, frame, expanded_vec)

    def random_unit_tangent(self, base_point, size, rng):
        """``size`` unit tangent vectors at ``base_point``, uniform on the unit sphere of :math:`T_p M`."""
        size = check_int(size, "size", low=1)
        rng = check_rng(rng)
        base = self.validate_points(base_point, "base_point", single=True)
        coords = rng.standard_normal((size, self.dim))
        coords /= np.linalg.norm(coords, axis=-1, keepdims=True)
        return self.from_frame(base, coords)

    def exp_polar(self, base_point, radii, unit_coords, check=True):
        r""":math:`\mathrm{Exp}_p(r_i u_i)` with :math:`u_i = \sum_k c_{ik} e_k(p)` for ONE base point :math:`p`.

        Parameters
        ----------
        base_point : array_like, shape ``point_shape``
        radii : array_like, shape ``(n,)``
            Non-negative radii :math:`r_i`.
        unit_coords : array_like, shape ``(n, dim)``
            Unit rows :math:`c_i`: coordinates of the unit tangent vectors :math:`u_i` in the orthonormal frame
            :meth:`tangent_frame` at :math:`p`.
        check : bool, default True
            ``False`` skips the validation (the fast path of the exact samplers, for inputs this package produced).

        Returns
        -------
        ndarray, shape ``(n, *point_shape)``
            With ``check=True``, :class:`~geodp_core.exceptions.OffManifoldError` or
            :class:`~geodp_core.exceptions.InvalidParameterError` (naming the argument) on invalid input. Closed
            forms where the geodesics have one (:math:`\cos r\,p + \sin r\,u` on spheres,
            :math:`\cosh r\,p + \sinh r\,u` on :math:`H^d`), else :meth:`exp` of :math:`r_i u_i`.
        """
        if check:
            base_point = self.validate_points(base_point, "base_point", single=True)
            radii = check_finite_array(radii, "radii", ndim=1)
            if np.any(radii < 0):
                raise InvalidParameterError("radii must be >= 0", param="radii")
            unit_coords = check_finite_array(unit_coords, "unit_coords", ndim=2, shape_tail=(self.dim,))
            if unit_coords.shape[0] != radii.shape[0]:
                raise InvalidParameterError(
                    f"unit_coords must have one row per radius ({radii.shape[0]}); got {unit_coords.shape[0]}",
                    param="unit_coords",
                )
            if np.any(np.abs(np.linalg.norm(unit_coords, axis=1) - 1.0) > DEFAULT_ATOL):
                raise InvalidParameterError("unit_coords must have rows of unit norm (tolerance 1e-6)",
                                            param="unit_coords")
        return self._exp_polar(base_point, radii, unit_coords)

    def _exp_polar(self, base_point, radii, unit_coords):
        r""":math:`\mathrm{Exp}_p(r_i u_i)`, :math:`u_i = \sum_k c_{ik} e_k(p)`, for ONE base point, without validation.

        The fast path of the exact isotropic samplers (a point and draws the package produced): ``base_point`` of
        shape :attr:`point_shape`, ``radii`` of shape ``(n,)``, ``unit_coords`` of shape ``(n, dim)`` with unit rows
        (coordinates in the orthonormal frame :meth:`tangent_frame` at ``base_point``). The default forms the
        tangent vectors and calls ``_exp``; spaces whose geodesics have a closed form in :math:`(r, u)` override it.
        """
        tangent = self.from_frame(base_point, unit_coords)
        radii = np.asarray(radii, dtype=float).reshape((-1,) + (1,) * len(self.point_shape))
        return self._exp(base_point, radii * tangent)

    def radial_log_density(self, radius):
        """Log of the radial volume density :math:`J(r)` (constant curvature spaces only; SPEC §1 table)."""
        if self.constant_curvature_space is None:
            raise NotImplementedError(f"{self.label} has no radial volume density J(r)")
        from geodp_core.geometry.radial import log_radial_jacobian

        return log_radial_jacobian(self.constant_curvature_space, self.dim, radius)

    @property
    def ball_radius_limit(self):
        r"""Largest admissible public-ball radius :math:`r^* = \tfrac12\min\{\mathrm{inj}, \pi/(2\sqrt{\kappa})\}`."""
        k_high = self.curvature_bounds[1]
        limit = self.injectivity_radius
        if k_high > 0:
            limit = min(limit, np.pi / (2.0 * np.sqrt(k_high)))
        return 0.5 * limit

    @property
    def label(self):
        """Short human-readable name, e.g. ``S^2`` or ``SPD(2), affine-invariant``."""
        return f"{self.name}({self.dim})"

    def to_display(self, points):
        """Coordinates used for plotting (identity unless overridden)."""
        return np.asarray(points, dtype=float)

    # ------------------------------------------------------ validated public
    def belongs(self, point, atol=DEFAULT_ATOL):
        """Boolean array telling which points lie on the manifold (within ``atol``).

        Never raises for array-like input: non-numeric, boolean or complex arrays,
        NaN/inf entries and wrong trailing shapes give ``False``.
        """
        raw = np.asarray(point)
        if raw.dtype == bool or not np.issubdtype(raw.dtype, np.number) or np.iscomplexobj(raw):
            k = len(self.point_shape)
            return np.zeros(raw.shape[: max(raw.ndim - k, 0)], dtype=bool)
        arr = raw.astype(float, copy=False)
        if arr.shape[arr.ndim - len(self.point_shape):] != tuple(self.point_shape) or arr.ndim < len(self.point_shape):
            return np.zeros(arr.shape[: max(arr.ndim - len(self.point_shape), 0)], dtype=bool)
        finite_entries = np.isfinite(arr)
        finite = finite_entries.reshape(arr.shape[: arr.ndim - len(self.point_shape)] + (-1,)).all(axis=-1)
        safe = arr if finite_entries.all() else np.where(finite_entries, arr, 0.0)  # no copy when all are finite
        return finite & self._belongs(safe, atol)

    def validate_points(self, points, name="points", single=False, atol=DEFAULT_ATOL):
        """Return ``points`` as a float array after checking shape, finiteness and membership.

        Raises
        ------
        OffManifoldError
            If a point is off the manifold beyond ``atol`` (the message gives its index).
        """
        arr = check_finite_array(points, name, shape_tail=self.point_shape)
        if single and arr.ndim != len(self.point_shape):
            raise OffManifoldError(
                f"{name} must be a single point of shape {self.point_shape}; got shape {arr.shape}", param=name
            )
        ok = np.atleast_1d(self._belongs(arr, atol))
        if not ok.all():
            idx = int(np.flatnonzero(~ok.ravel())[0])
            flat = arr.reshape((-1,) + tuple(self.point_shape))
            hint = self._off_manifold_hint(flat[idx] if flat.shape[0] > idx else flat[0])
            raise OffManifoldError(
                f"{name} must lie on {self.label} (tolerance {atol:g}); entry {idx} does not{hint}", param=name
            )
        return arr

    def _off_manifold_hint(self, point):
        """Extra explanation appended to the off-manifold message (e.g. not representable)."""
        return ""

    def _at_cut_locus(self, base_point, point):
        """Boolean array: is ``point`` (numerically) at the cut locus of ``base_point``?

        Empty cut locus by default (Hadamard spaces); the sphere overrides it.
        """
        return np.zeros((), dtype=bool)

    def validate_dataset(self, points, name="points", min_points=1, atol=DEFAULT_ATOL):
        """Return ``points`` as an ``(n, *point_shape)`` float array of points on the manifold, ``n >= min_points``."""
        arr = self.validate_points(points, name, atol=atol)
        if arr.ndim != len(self.point_shape) + 1:
            raise OffManifoldError(
                f"{name} must be a stack of points of shape (n, {', '.join(map(str, self.point_shape))}); "
                f"got shape {arr.shape}",
                param=name,
            )
        if arr.shape[0] < min_points:
            raise InvalidParameterError(
                f"{name} must contain at least {min_points} point(s) (n >= {min_points}); got n = {arr.shape[0]}",
                param=name,
            )
        return arr

    def validate_tangent(self, base_point, tangent_vec, name="tangent_vec", atol=DEFAULT_ATOL):
        """Return ``tangent_vec`` after checking shape, finiteness and tangency at ``base_point``."""
        arr = check_finite_array(tangent_vec, name, shape_tail=self.point_shape)
        ok = np.atleast_1d(self._is_tangent(base_point, arr, atol))
        if not ok.all():
            idx = int(np.flatnonzero(~ok.ravel())[0])
            raise OffManifoldError(
                f"{name} must be tangent to {self.label} at the base point (tolerance {atol:g}); entry {idx} is not",
                param=name,
            )
        return arr

    def dist(self, point_a, point_b, check=True):
        """Geodesic distance, batched over leading axes.

        ``check=False`` skips the on-manifold validation: for points this package already produced or validated
        (the fast path of samplers and summaries); it never changes the value for valid points.
        """
        if not check:
            return self._dist(point_a, point_b)
        a = self.validate_points(point_a, "point_a")
        b = self.validate_points(point_b, "point_b")
        return self._dist(a, b)

    def exp(self, base_point, tangent_vec, check=True):
        """Riemannian exponential :math:`\\mathrm{Exp}_p(v)`, batched.

        ``check=False`` skips validating the inputs and the output (for inputs this package already produced
        or validated; the caller handles a non-finite result).

        Returns
        -------
        ndarray
            Finite points on the manifold (checked with :meth:`belongs`).

        Raises
        ------
        OffManifoldError
            ``base_point`` off the manifold, ``tangent_vec`` not tangent, NaN/inf.
        NumericalOverflowError
            If :math:`\\mathrm{Exp}_p(v)` is not representable in double precision
            (e.g. :math:`\\cosh|v|` overflows on :math:`H^d`, :math:`e^{\\lambda}` on SPD);
            the message gives the offending norm. Never returns NaN.
        """
        if not check:
            return self._exp(base_point, tangent_vec)
        base = self.validate_points(base_point, "base_point")
        vec = self.validate_tangent(base, tangent_vec)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            out = self._exp(base, vec)
        ok = np.atleast_1d(self.belongs(out))
        if not ok.all():
            idx = int(np.flatnonzero(~ok.ravel())[0])
            with np.errstate(over="ignore", invalid="ignore"):
                norms = np.atleast_1d(np.broadcast_to(self.norm(base, vec), ok.shape)).ravel()
            raise NumericalOverflowError(
                f"tangent_vec is too long for {self.label} in double precision: Exp(base_point, tangent_vec) "
                f"overflows or loses the manifold constraint for entry {idx} (norm {float(norms[idx]):.6g}); "
                f"use tangent vectors with norm below about {self._exp_norm_hint()}",
                param="tangent_vec",
            )
        return out

    def _exp_norm_hint(self):
        """Human-readable order of magnitude of the largest tangent norm :meth:`exp` can represent."""
        return "700"

    def log(self, base_point, point, check=True):
        """Riemannian logarithm :math:`\\mathrm{Log}_p(q)`, batched.

        ``check=False`` skips validating the points and the cut-locus test (for points this package already
        produced or validated, away from the cut locus).

        Raises
        ------
        CutLocusError
            If ``point`` is (within geodesic distance ``CUT_LOCUS_ATOL = 1e-9``) at the cut
            locus of ``base_point`` (antipodal points on the sphere): the logarithm is
            undefined there (every direction gives a minimising geodesic).
        """
        if not check:
            return self._log(base_point, point)
        base = self.validate_points(base_point, "base_point")
        pts = self.validate_points(point, "point")
        cut = np.atleast_1d(self._at_cut_locus(base, pts))
        if cut.any():
            idx = int(np.flatnonzero(cut.ravel())[0])
            raise CutLocusError(
                f"point (entry {idx}) is at the cut locus of base_point on {self.label} (geodesic distance within "
                f"{CUT_LOCUS_ATOL:g} of the injectivity radius {self.injectivity_radius:.6g}, e.g. antipodal "
                "points): log undefined, every direction is a minimising geodesic; move point or base_point",
                param="point",
            )
        return self._log(base, pts)

    def check_radius(self, radius, name="radius"):
        """Validate a public-ball radius ``0 < r < r*`` (SPEC §3)."""
        limit = self.ball_radius_limit
        return check_real(radius, name, low=0.0, high=None if np.isinf(limit) else limit)

    def __repr__(self):
        return f"<Manifold {self.label}>"

    def __eq__(self, other):
        return type(self) is type(other) and self.dim == other.dim and self.metric == other.metric

    def __hash__(self):
        return hash((type(self).__name__, self.dim, self.metric))
