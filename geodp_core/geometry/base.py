"""Abstract manifold adapter shared by every space of docs/specification.md §1.

A :class:`Manifold` knows its Riemannian operations (batched over leading axes),
an orthonormal tangent frame at any point, the volume distortion of ``Exp`` and
the curvature facts that the sensitivity bounds and mechanisms need.
"""

import math
from abc import ABC, abstractmethod

import numpy as np

from geodp_core._validation import check_finite_array, check_int, check_real, check_rng
from geodp_core.exceptions import CutLocusError, InvalidParameterError, NumericalOverflowError, OffManifoldError

__all__ = ["MANIFOLD_CLASSES", "Manifold", "register_manifold", "unicode_powers"]

#: Every space the package offers, by code, in the order choosers list them (filled by :func:`register_manifold`).
MANIFOLD_CLASSES = {}


def register_manifold(cls):
    """Class decorator: offer the space ``cls`` under its code ``cls.name`` (``get_manifold``, the app, links)."""
    if cls.name in MANIFOLD_CLASSES and MANIFOLD_CLASSES[cls.name] is not cls:
        raise ValueError(f"two manifold classes claim the code {cls.name!r}")
    MANIFOLD_CLASSES[cls.name] = cls
    return cls

_SUPERSCRIPTS = str.maketrans("0123456789dnmk", "⁰¹²³⁴⁵⁶⁷⁸⁹ᵈⁿᵐᵏ")
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def unicode_powers(text):
    """``S^2`` → ``S²``, ``Σ^12_2`` → ``Σ¹²₂``, ``R^d`` → ``Rᵈ`` (plain-text powers and indices typeset)."""
    import re

    text = re.sub(r"\^(\d+|[dnmk](?![A-Za-z]))", lambda m: m.group(1).translate(_SUPERSCRIPTS), str(text))
    return re.sub(r"_(\d+)(?![0-9A-Za-z])", lambda m: m.group(1).translate(_SUBSCRIPTS), text)

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
        ``K`` with ``Ric >= -K`` (docs/specification.md §1.2: sphere ``-(d-1)``, hyperbolic ``d-1``).
    injectivity_radius : float
    diameter : float
        Largest geodesic distance between two points (``math.inf`` on unbounded spaces, π on S^d, π/2 on
        Kendall shape space): every distance, hence every sensitivity, is at most it.
    is_homogeneous, is_hadamard : bool
    diameter : float
        Largest geodesic distance between two points (``inf`` when unbounded).
    radial_volume : RadialVolume or None
        The radial volume density :math:`J(r)` of an isotropic space (what its radial laws need), else ``None``.

    Every fact a caller needs about a space is asked of the space itself (the class attributes below and the
    properties :attr:`sensitivity_curvature`, :attr:`ball_radius_limit`, :attr:`representable_radius`,
    :attr:`symbol`); nothing outside this package compares a manifold's :attr:`name`.
    """

    #: Code of the space in :func:`~geodp_core.geometry.get_manifold` and in links (``"sphere"``, ...).
    name = None
    #: Human name of the family of spaces, e.g. ``"Sphere"``; :attr:`menu_label` adds the symbol.
    title = None
    #: One-line description for choosers (what the space is, its curvature).
    description = ""
    #: Position in choosers (ascending).
    menu_order = 100
    metric = None
    #: The metrics this family offers (``get_manifold``'s ``metric``); empty when there is no choice.
    metric_choices = ()
    dim = None
    point_shape = None
    curvature_bounds = (0.0, 0.0)
    ricci_constant = 0.0
    injectivity_radius = np.inf
    is_homogeneous = True
    is_hadamard = True
    diameter = math.inf
    #: What the ``dim`` argument of ``get_manifold`` counts: ``"d"`` (the intrinsic dimension), ``"m"`` (the matrix
    #: size of SPD(m)) or ``"k"`` (the landmarks of a shape space).
    size_symbol = "d"
    #: ``(low, high)`` of the ``dim`` argument of ``get_manifold``.
    size_range = (1, 1000)
    #: ``(low, high)`` of the ``dim`` the app offers, and its default.
    app_size_range = (1, 1000)
    default_size = 2
    #: Largest length of a public-centre offset (frame coordinates at :meth:`default_center`) for which the public
    #: ball is still represented faithfully in double precision.
    center_offset_limit = 10.0
    #: Typical spread of synthetic data around the public centre offered by the app, and the largest value it keeps
    #: when the user switches to this space.
    default_spread = 0.25
    #: The data kind the app shows first on this space (``None``: the first kind offered, in declaration order).
    default_data_kind = None
    #: Largest public-ball radius the app's slider offers where r* does not bound it.
    app_radius_max = 3.0

    #: What a closed form of :meth:`_exp_polar` is written for: a subclass that redefines one of these without
    #: giving its own :meth:`_exp_polar` gets the generic form (see :meth:`__init_subclass__`).
    _POLAR_DEPENDS_ON = ("_exp", "inner", "from_frame", "tangent_frame")

    def __init_subclass__(cls, **kwargs):
        r"""A closed form of :meth:`_exp_polar` holds only for the geodesics, metric and frame it was written for: a
        subclass that redefines any of them (e.g. a rescaled sphere) without its own ``_exp_polar`` falls back to
        the generic :math:`\mathrm{Exp}_p(r\,u)` of :meth:`Manifold._exp_polar`, decided once, when the class is made."""
        super().__init_subclass__(**kwargs)
        if "_exp_polar" not in vars(cls) and any(name in vars(cls) for name in cls._POLAR_DEPENDS_ON):
            cls._exp_polar = Manifold._exp_polar

    @classmethod
    def from_size(cls, size, metric=None):
        """The space of size ``size`` (the ``dim`` argument of ``get_manifold``), ``metric`` where it has a choice."""
        return cls(size)

    @property
    def size(self):
        """The value of ``dim`` that :func:`~geodp_core.geometry.get_manifold` takes for this space."""
        return self.dim

    @property
    def radial_volume(self):
        """The space's :class:`~geodp_core.geometry.radial_volume.RadialVolume` (``None``: not isotropic)."""
        return None

    @property
    def sensitivity_curvature(self):
        r"""The curvature bound :math:`\kappa` the Fréchet-mean sensitivity theorem uses (``<= 0``: the flat
        bound :math:`2r/n`).

        The largest sectional curvature, except on one-dimensional spaces, which are flat (no 2-planes).
        """
        return 0.0 if self.dim == 1 else float(self.curvature_bounds[1])

    @property
    def representable_radius(self):
        r"""Public radius :math:`L` of the ball :math:`B(o, L)`, :math:`o` = :meth:`default_center`, inside which
        points are represented accurately in double precision; ``None`` on compact spaces (everything is)."""
        return None

    @property
    def is_compact(self):
        """Whether the space is bounded (finite diameter)."""
        return math.isfinite(self.diameter)

    @property
    def symbol(self):
        """Typeset symbol for titles, e.g. ``S²``, ``SPD(3)``, ``Σ¹²₂`` (:attr:`label` is its plain-text form)."""
        return unicode_powers(self.label)

    @property
    def menu_label(self):
        """``title`` and the symbol of the family, e.g. ``Sphere Sᵈ``, for a chooser of spaces."""
        return self.title

    def radial_law(self, profile, scale):
        r"""The exact :class:`~geodp_core.geometry.radial.RadialLaw` of ``dist(centre, Y)`` for a noise density
        :math:`\propto g(\mathrm{dist})` with the given profile (``"laplace"``, ``"gaussian"``, ``"uniform"``)."""
        from geodp_core.geometry.radial import get_radial_law

        return get_radial_law(self, None, profile, scale)

    # ------------------------------------------------------- isotropic noise
    #: Radius beyond which :math:`\mathrm{Exp}` of a tangent vector of that length overflows double precision
    #: (``None``: never, or not known); noise whose radius may exceed it is refused at calibration.
    overflow_radius = None
    #: Distance beyond which the coordinates of a point carry few significant digits of its position (a caveat
    #: for noise that reaches that far; ``None``: no such distance).
    precision_radius = None
    #: Whether distance-isotropic noise on this (non-isotropic) space has an exact sampler in polar coordinates of
    #: the eigenvalues (:mod:`geodp_core.geometry.spd_polar`); spaces with a :attr:`radial_volume` use that instead.
    eigen_polar_noise = False

    #: ``(states, public domain)``: limits of :meth:`well_conditioned` for points a computation may visit and for
    #: the boundary of a public domain (stricter); ``None`` when every point is well conditioned.
    conditioning_limits = None
    #: What :meth:`well_conditioned` bounds, for messages (e.g. ``"condition number"``).
    conditioning_measure = ""

    def well_conditioned(self, points, limit):
        """Boolean mask (leading axes) of points whose :attr:`conditioning_measure` is at most ``limit`` (points
        already finite and on the manifold); all ``True`` by default."""
        return np.ones(np.shape(points)[: np.ndim(points) - len(self.point_shape)], dtype=bool)

    def isometric_chart(self):
        r"""``(to_chart, from_chart, basis)`` when the space is flat with a global isometric chart onto a Euclidean
        space (``basis`` an orthonormal basis of that space, shape ``(dim, *point_shape)``), else ``None``."""
        return None

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
    def ambient_inner(self, tangent_a, tangent_b):
        """The ambient bilinear form of the embedding (Euclidean here), batched: what ambient-coordinate formulas
        use; it equals :meth:`inner` on tangent vectors of embedded spaces whose metric is induced."""
        axes = tuple(range(-len(self.point_shape), 0))
        return np.sum(np.asarray(tangent_a) * np.asarray(tangent_b), axis=axes)

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
        """Log of the radial volume density :math:`J(r)` (isotropic spaces only)."""
        if self.radial_volume is None:
            raise NotImplementedError(f"{self.label} has no radial volume density J(r)")
        return self.radial_volume.log_jacobian(check_finite_array(radius, "radius"))

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
        self._check_batches(a, b, "point_a", "point_b")
        return self._dist(a, b)

    def _check_batches(self, a, b, name_a, name_b):
        """Raise :class:`InvalidParameterError` naming ``name_b`` unless the batch shapes broadcast."""
        k = len(self.point_shape)
        shape_a, shape_b = a.shape[: a.ndim - k], b.shape[: b.ndim - k]
        try:
            np.broadcast_shapes(shape_a, shape_b)
        except ValueError:
            raise InvalidParameterError(
                f"{name_a} and {name_b} must have broadcastable batch shapes (the axes before the point shape "
                f"{tuple(self.point_shape)}: equal, 1 or missing); got batch shapes {shape_a} and {shape_b}",
                param=name_b,
            ) from None

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
        try:
            shape = np.shape(tangent_vec)
        except ValueError:  # ragged: validate_tangent names it
            shape = None
        if shape is not None and len(shape) >= len(self.point_shape):
            self._check_batches(base, np.broadcast_to(0.0, shape), "base_point", "tangent_vec")
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
        self._check_batches(base, pts, "base_point", "point")
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
        """Validate a public-ball radius ``0 < r < r*`` (docs/specification.md §3.2)."""
        limit = self.ball_radius_limit
        return check_real(radius, name, low=0.0, high=None if np.isinf(limit) else limit)

    # ------------------------------------------- facts for views, studies and solvers outside the package
    #: Word(s) naming the family in a chooser of concrete spaces (:attr:`chooser_label`); ``None``: :attr:`title`.
    short_title = None
    #: Steps above the smallest size that a sweep over sizes may take (each size is a cell of the curves page).
    size_sweep_steps = 9
    #: How the closed-form differential of ``Exp`` is written in this space's coordinates (geodesic regression):
    #: ``"quadric"`` — constant curvature :math:`k` on the quadric :math:`\langle x, x\rangle = 1/k` of an ambient
    #: (Minkowski for :math:`k < 0`) space, or flat coordinates for :math:`k = 0`; ``"complex_projective"`` —
    #: :math:`\mathbb{C}P^n` with holomorphic curvature 4 in horizontal coordinates; ``"affine_invariant"`` — SPD(m)
    #: with :math:`g_P(U, V) = \mathrm{tr}(P^{-1}UP^{-1}V)`; ``"flat_chart"`` — flat, the adjoint of
    #: :math:`d\mathrm{Exp}` is parallel transport back; ``"constant_curvature"`` — constant curvature
    #: :math:`k` = ``curvature_bounds`` in coordinates that are not a quadric, the space giving its own transport along
    #: the traversed geodesic, ``geodesic_transport(base_point, tangent_vec, vector, back=False)`` (the rotations
    #: :math:`SO(3)`, :math:`k = 1/4`); ``None`` — no closed form.
    jacobi_model = None
    #: How an uploaded table of coordinates becomes points: ``"unit_vector"`` (unit vectors, or latitude/longitude
    #: on S²), ``"hyperboloid"`` (hyperboloid or Poincaré-ball coordinates), ``"symmetric_matrix"`` (the m² entries
    #: of a matrix), ``"cartesian"`` (d coordinates); ``None`` — uploads are not offered.
    upload_format = None
    #: Largest radius of a public domain ball :math:`B(c, R)` that a public discretisation (mesh, point set) covers
    #: well (a compact space also caps it at its :attr:`diameter`): large on flat spaces, lower where the volume of
    #: a ball grows exponentially.
    domain_radius_max = 100.0
    #: What a geodesic distance on this space measures, for axis titles.
    distance_unit = "geodesic distance"
    #: Mean distance :math:`E\,d(o, Y)` from a fixed point to a uniformly random point where it does not depend on
    #: the size (the level of a random guess; ``None`` where there is no uniform law or it depends on the size).
    uniform_mean_distance = None

    @property
    def mesh_kind(self):
        """Kind of public triangle mesh of :mod:`geodp_core.geometry.mesh` for this surface (``"sphere"``: the whole
        S², ``"hyperbolic_ball"``: a ball of H²), ``None`` where there is none."""
        return None

    @property
    def view(self):
        r"""The picture the app draws of this space: ``"sphere3d"`` (S² in 3-D), ``"poincare_disk"`` (H² in the
        disk), ``"spd_ellipses"`` (SPD(2) as ellipses and a cone), ``"spd_spectrum"`` (log-eigenvalues of larger
        SPD matrices), ``"shapes"`` (planar landmark configurations), ``"rotation_ball"`` (rotations as rotation
        vectors relative to the public centre, in the ball of radius π) or ``"tangent"`` (coordinates of
        :math:`\mathrm{Log}` at the public centre, projected on two directions: every other space)."""
        return "tangent"

    @property
    def chooser_label(self):
        """Label of this very space in a chooser, e.g. ``Sphere S²``, ``Hyperbolic H²``, ``SPD(2), affine-invariant``."""
        return f"{self.short_title or self.title} {self.symbol}"

    def to_tangent(self, base_point, vector):
        """Orthogonal projection of ambient ``vector`` onto :math:`T_pM` (removes numerical drift); identity where
        the tangent space is the whole ambient space."""
        return np.asarray(vector, dtype=float)

    def complex_structure(self, base_point, tangent_vec):
        r"""The parallel complex structure :math:`J v` of a Kähler space (the direction whose plane with
        :math:`v` has the largest curvature), or ``None`` where there is none.

        On :math:`\mathbb{C}P^n` with holomorphic curvature 4 the Jacobi operator :math:`R(\cdot, u)u` of a unit
        :math:`u` has eigenvalue 4 on :math:`Ju` and 1 on the complex-orthogonal complement of :math:`\{u, Ju\}`.
        """
        return None

    def rounding_scale(self, point):
        r"""Factor :math:`X^2 \ge 1` by which rounding errors of :math:`\mathrm{Log}` computed at ``point`` exceed
        the machine epsilon (absolute errors :math:`\varepsilon X^2`): 1 unless the coordinates grow with the
        distance from the origin."""
        return 1.0

    def mean_initial_guess(self, points, weights):
        r"""A cheap closed-form surrogate of the weighted Fréchet mean of ``points`` (``(n, *point_shape)``,
        weights summing to 1), or ``None`` where none is known or it fails (e.g. an extrinsic mean at 0)."""
        return None

    def sample_polar(self, center, profile, scale, size, rng):
        r"""Exact draws with density :math:`\propto g(\mathrm{dist}(c, Y))` in the space's own polar coordinates,
        for spaces without a :attr:`radial_volume` (``profile`` as in :meth:`radial_law`)."""
        raise NotImplementedError(f"{self.label} has no polar sampler")

    def __repr__(self):
        return f"<Manifold {self.label}>"

    def __eq__(self, other):
        return type(self) is type(other) and self.dim == other.dim and self.metric == other.metric

    def __hash__(self):
        return hash((type(self).__name__, self.dim, self.metric))
