r"""Kendall shape space :math:`\Sigma^k_2` of ``k`` planar landmarks (closed forms).

A configuration of ``k >= 3`` landmarks in the plane, modulo translation, scale and rotation.
Points are stored as **preshapes**: centred (the rows sum to 0), unit-Frobenius-norm ``k x 2``
arrays, read as complex ``k``-vectors :math:`z = x + i y`. Two preshapes are the *same shape*
when they differ by a rotation :math:`z \mapsto e^{i\theta} z`; every function of this module is
invariant under such rotations of its point arguments (use :meth:`KendallShapeSpace.same_shape`
to compare points, not ``==``). :math:`\Sigma^k_2 \cong \mathbb{C}P^{k-2}` with the Fubini–Study
metric of holomorphic curvature 4:

.. math::
    \mathrm{dist}(z, w) = \arccos |\langle z, w\rangle|, \qquad
    \langle z, w\rangle = \textstyle\sum_j \bar z_j w_j \in \mathbb{C}, \qquad \mathrm{dist} \in [0, \pi/2].

Tangent vectors at :math:`z` are *horizontal* ``k x 2`` arrays: centred, with
:math:`\langle z, v\rangle = 0` (complex), i.e. orthogonal to :math:`z` (scale) and to
:math:`iz` (rotation). Real dimension :math:`2k - 4`; sectional curvature in :math:`[1, 4]`;
injectivity radius and diameter :math:`\pi/2`; homogeneous (two-point homogeneous, in fact).

``Exp`` returns the representative that is optimally rotated onto the base point
(:math:`\langle z, \mathrm{Exp}_z v\rangle = \cos|v| \ge 0`). Derivations (volume density, r*):
``docs/derivations/kendall_shape_space.md``.
"""

import numpy as np

from geodp_core._validation import check_finite_array, check_int, check_rng
from geodp_core.exceptions import CutLocusError, InvalidParameterError
from geodp_core.geometry.base import CUT_LOCUS_ATOL, Manifold, register_manifold, unicode_powers
from geodp_core.geometry.functions import sinc as _sinc
from geodp_core.geometry.radial_volume import ComplexProjectiveVolume

__all__ = ["MAX_LANDMARKS", "KendallShapeSpace", "helmert_submatrix", "quarter_turn"]

#: Largest number of landmarks accepted (same bound as the other spaces' dimension).
MAX_LANDMARKS = 1000


def helmert_submatrix(k):
    r"""Helmert sub-matrix ``H`` of shape ``(k-1, k)``: orthonormal rows orthogonal to :math:`(1, \dots, 1)`.

    Row :math:`j` (1-based) is :math:`(1, \dots, 1, -j, 0, \dots, 0)/\sqrt{j(j+1)}`; ``H`` maps the
    centred configurations isometrically onto :math:`\mathbb{R}^{k-1}` (per coordinate).
    """
    h = np.zeros((k - 1, k))
    for j in range(1, k):
        h[j - 1, :j] = 1.0
        h[j - 1, j] = -float(j)
        h[j - 1] /= np.sqrt(j * (j + 1.0))
    return h


def quarter_turn(vectors):
    r"""The complex structure :math:`v \mapsto iv` on ``k x 2`` arrays: each row :math:`(x, y) \mapsto (-y, x)`.

    Real-valued Hermitian products follow: :math:`\mathrm{Re}\langle a, b\rangle = \langle a, b\rangle_F`,
    :math:`\mathrm{Im}\langle a, b\rangle = \langle ia, b\rangle_F` (Frobenius products).
    """
    vectors = np.asarray(vectors, dtype=float)
    return np.stack([-vectors[..., 1], vectors[..., 0]], axis=-1)


def _complex(points):
    """``k x 2`` real arrays -> complex ``k``-vectors ``x + i y``."""
    points = np.asarray(points, dtype=float)
    return points[..., 0] + 1j * points[..., 1]


def _real(vectors):
    """Complex ``k``-vectors -> ``k x 2`` real arrays."""
    return np.stack([vectors.real, vectors.imag], axis=-1)


def _hermitian(a, b):
    r""":math:`\langle a, b\rangle = \sum_j \bar a_j b_j` of complex vectors (last axis)."""
    return np.sum(np.conj(a) * b, axis=-1)


def _phase(c):
    """``c / |c|`` (1 where ``c = 0``)."""
    mod = np.abs(c)
    return np.where(mod > 0, c / np.where(mod > 0, mod, 1.0), 1.0 + 0j)


@register_manifold
class KendallShapeSpace(Manifold):
    r"""Kendall shape space :math:`\Sigma^k_2 = \mathbb{C}P^{k-2}` of ``k`` planar landmarks.

    Parameters
    ----------
    k : int
        Number of landmarks, ``3 <= k <= 1000`` (``k = 3``: triangles, :math:`\mathbb{C}P^1 = S^2(1/2)`).

    Notes
    -----
    Maps, for preshapes :math:`z, w` and horizontal :math:`v` at :math:`z`:

    .. math::
        \mathrm{Exp}_z(v) = \cos|v|\, z + \sin|v|\, v/|v|, \qquad
        \mathrm{Log}_z(w) = \theta\,\frac{\tilde w - \cos\theta\, z}{|\tilde w - \cos\theta\, z|},

    with :math:`\tilde w = w\,\overline{\phi}`, :math:`\phi = \langle z, w\rangle/|\langle z, w\rangle|`
    (optimal rotation of :math:`w` onto :math:`z`) and :math:`\theta = \mathrm{dist}(z, w)`.
    The radial volume density in geodesic polar coordinates is
    :math:`J(r) = \sin^{2k-5}(r)\cos(r)` on :math:`[0, \pi/2]`.
    """

    name = "kendall"
    title = "Kendall shapes"
    description = "Kendall's space of planar shapes (curvature between 1 and 4)"
    menu_order = 50
    is_homogeneous = True
    is_hadamard = False
    diameter = np.pi / 2.0
    size_symbol = "k"
    size_range = (3, MAX_LANDMARKS)
    app_size_range = (3, 100)
    default_size = 12
    center_offset_limit = np.pi / 2.0
    default_data_kind = "shape_perturbation"
    #: Landmark noise s moves a shape about s·√(2k) away: the app keeps s <= 0.05 so data stay in the ball r < π/8.
    default_spread = 0.05

    def __init__(self, k):
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or not 3 <= int(k) <= MAX_LANDMARKS:
            raise InvalidParameterError(
                f"k (the number of planar landmarks of the Kendall shape space) must be an integer in "
                f"[3, {MAX_LANDMARKS}]; got {k!r}",
                param="k",
            )
        self.k = int(k)
        self.dim = 2 * self.k - 4
        self.point_shape = (self.k, 2)
        self.curvature_bounds = (1.0, 4.0)
        # Einstein: Ric = 2(n + 1) g on CP^n with holomorphic curvature 4, n = k - 2
        self.ricci_constant = -2.0 * (self.k - 1.0)
        self.injectivity_radius = np.pi / 2.0
        self._helmert = helmert_submatrix(self.k)

    @property
    def label(self):
        return f"Kendall Σ^{self.k}_2"

    @property
    def size(self):
        return self.k

    @property
    def menu_label(self):
        return "Kendall shapes Σᵏ₂"

    @property
    def symbol(self):
        return unicode_powers(f"Σ^{self.k}_2")

    @property
    def radial_volume(self):
        """:math:`J(r) = \\sin^{d-1}(r)\\cos(r)` on :math:`[0, \\pi/2]` (:math:`\\mathbb{C}P^{k-2}`)."""
        return ComplexProjectiveVolume(self.dim)

    def default_center(self):
        r"""The regular ``k``-gon :math:`z_j = e^{2\pi i j/k}/\sqrt k` (centred, unit norm)."""
        angles = 2.0 * np.pi * np.arange(self.k) / self.k
        return np.stack([np.cos(angles), np.sin(angles)], axis=-1) / np.sqrt(self.k)

    # ------------------------------------------------------------------ maths
    def inner(self, base_point, tangent_a, tangent_b):
        """Frobenius inner product (the quotient metric on horizontal vectors)."""
        return np.sum(np.asarray(tangent_a) * np.asarray(tangent_b), axis=(-2, -1))

    def _dist(self, point_a, point_b):
        za, zb = _complex(point_a), _complex(point_b)
        c = _hermitian(za, zb)
        mod = np.abs(c)
        aligned = zb * np.conj(_phase(c))[..., None]
        perp = aligned - mod[..., None] * za
        return np.arctan2(np.linalg.norm(perp, axis=-1), mod)

    def _exp(self, base_point, tangent_vec):
        r""":math:`\cos|v| z + \sin|v| v/|v|` (great circle of the preshape sphere, horizontal)."""
        base = np.asarray(base_point, dtype=float)
        vec = np.asarray(tangent_vec, dtype=float)
        scale = np.max(np.abs(vec), axis=(-2, -1), keepdims=True)
        safe = np.where(scale > 0, scale, 1.0)
        direction = vec / safe
        rel = np.sqrt(np.sum(direction**2, axis=(-2, -1), keepdims=True))
        norm = rel * safe
        unit = direction / np.where(rel > 0, rel, 1.0)
        small = norm < 1.0
        out = np.cos(norm) * base + np.where(small, _sinc(np.where(small, norm, 0.0)) * vec, np.sin(norm) * unit)
        return out / np.sqrt(np.sum(out**2, axis=(-2, -1), keepdims=True))

    def _exp_polar(self, base_point, radii, unit_coords):
        r""":math:`\cos r_i\, z + \sin r_i\, u_i`, :math:`u_i = \sum_k c_{ik} e_k(z)`, unvalidated.

        The frame at the one base point is formed once and applied as a matrix product; :math:`u_i` is horizontal
        with :math:`|u_i| = 1`, so this is :math:`\mathrm{Exp}_z(r_i u_i)` (a great circle of the preshape sphere).
        """
        z = np.asarray(base_point, dtype=float)
        frame = self.tangent_frame(z).reshape(self.dim, 2 * self.k)
        direction = (np.asarray(unit_coords, dtype=float) @ frame).reshape((-1,) + self.point_shape)
        r = np.asarray(radii, dtype=float)[:, None, None]
        return np.cos(r) * z + np.sin(r) * direction

    def _exp_norm_hint(self):
        return "1.7e308 (the exponential is periodic: every representable norm works)"

    def _log(self, base_point, point):
        z, w = _complex(base_point), _complex(point)
        c = _hermitian(z, w)
        mod = np.abs(c)
        aligned = w * np.conj(_phase(c))[..., None]
        perp = aligned - mod[..., None] * z
        sin = np.linalg.norm(perp, axis=-1)
        theta = np.arctan2(sin, mod)
        factor = np.where(sin > 0, 1.0 / _sinc(theta), 1.0)
        return _real(perp * factor[..., None])

    def _at_cut_locus(self, base_point, point):
        r""":math:`\mathrm{dist}(z, w) \ge \pi/2 - 10^{-9}` (:math:`\langle z, w\rangle = 0`: no optimal rotation)."""
        return self._dist(base_point, point) >= np.pi / 2.0 - CUT_LOCUS_ATOL

    def tangent_frame(self, base_point):
        r"""Orthonormal basis of the horizontal space, shape ``(..., 2k-4, k, 2)``.

        With :math:`\zeta = H z \in \mathbb{C}^{k-1}` (Helmert coordinates) and the complex
        Householder reflection :math:`Q = I - 2ww^*/|w|^2`, :math:`w = e_0 - \bar\alpha\zeta`,
        :math:`\alpha = \zeta_0/|\zeta_0|`, the columns :math:`q_1, \dots, q_{k-2}` of :math:`Q` are
        a unitary basis of :math:`\zeta^\perp`; the frame is :math:`H^T q_j` and :math:`H^T (i q_j)`.
        """
        zeta = _complex(base_point) @ self._helmert.T  # (..., k-1)
        n1 = self.k - 1
        alpha = _phase(zeta[..., 0])
        u = np.conj(alpha)[..., None] * zeta
        e0 = np.zeros(n1, dtype=complex)
        e0[0] = 1.0
        w = e0 - u
        wn2 = np.sum(np.abs(w) ** 2, axis=-1)[..., None, None]
        eye = np.eye(n1, dtype=complex)
        q = eye - 2.0 * w[..., :, None] * np.conj(w)[..., None, :] / np.where(wn2 > 1e-300, wn2, 1.0)
        q = np.where(wn2 > 1e-24, q, eye)
        cols = np.swapaxes(q, -1, -2)[..., 1:, :]  # (..., k-2, k-1): the columns q_1..q_{k-2}
        landmarks = cols @ self._helmert  # (..., k-2, k)
        both = np.stack([landmarks, 1j * landmarks], axis=-2)  # (..., k-2, 2, k)
        return _real(both.reshape(both.shape[:-3] + (self.dim, self.k)))

    def horizontal_projection(self, base_point, vectors):
        r"""Orthogonal projection of ``k x 2`` arrays onto the horizontal space at the preshape ``z``.

        Centre, then remove the complex component along :math:`z`: :math:`v - \langle z, v\rangle z`
        (the scale direction :math:`z` and the rotation direction :math:`iz`).
        """
        vec = np.asarray(vectors, dtype=float)
        vec = vec - vec.mean(axis=-2, keepdims=True)
        z = np.asarray(base_point, dtype=float)
        iz = quarter_turn(z)
        real = np.sum(z * vec, axis=(-2, -1))[..., None, None]  # Re <z, v>
        imag = np.sum(iz * vec, axis=(-2, -1))[..., None, None]  # Im <z, v>
        return vec - real * z - imag * iz

    def _belongs(self, point, atol):
        point = np.asarray(point, dtype=float)
        centred = np.linalg.norm(np.sum(point, axis=-2), axis=-1) <= atol
        unit = np.abs(np.sqrt(np.sum(point**2, axis=(-2, -1))) - 1.0) <= atol
        return centred & unit

    def _off_manifold_hint(self, point):
        centroid = np.sum(np.asarray(point, dtype=float), axis=-2) / self.k
        norm = float(np.sqrt(np.sum(np.asarray(point, dtype=float) ** 2)))
        return (f" (a preshape must be centred, rows summing to 0, and have unit Frobenius norm; this one has "
                f"centroid {np.round(centroid, 6).tolist()} and norm {norm:.6g}; use KendallShapeSpace.projection)")

    def _is_tangent(self, base_point, tangent_vec, atol):
        vec = np.asarray(tangent_vec, dtype=float)
        scale = atol * (1.0 + np.sqrt(np.sum(vec**2, axis=(-2, -1))))
        centred = np.linalg.norm(np.sum(vec, axis=-2), axis=-1) <= scale
        c = _hermitian(_complex(base_point), _complex(vec))
        return centred & (np.abs(c) <= scale)

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`(d-1)\log|\sin r/r| + \log|\cos r|`, :math:`r = |v|`, :math:`d = 2k - 4`.

        Jacobi fields along a unit geodesic of :math:`\mathbb{C}P^{k-2}`: :math:`\sin r` in the
        :math:`d - 2` directions of curvature 1, :math:`\sin r\cos r` in the direction :math:`i\dot\gamma`
        (curvature 4); divided by :math:`r` each. ``-inf`` at the cut locus :math:`r = \pi/2`.
        """
        vec = np.asarray(tangent_vec, dtype=float)
        scale = np.max(np.abs(vec), axis=(-2, -1))
        safe = np.where(scale > 0, scale, 1.0)
        r = np.sqrt(np.sum((vec / safe[..., None, None]) ** 2, axis=(-2, -1))) * safe
        small = r < 1.0
        ratio = np.where(small, _sinc(np.where(small, r, 0.0)), np.sin(r) / np.where(small, 1.0, r))
        with np.errstate(divide="ignore"):
            return (self.dim - 1) * np.log(np.abs(ratio)) + np.log(np.abs(np.cos(r)))

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport a horizontal vector from ``z`` to ``w`` along the minimising geodesic.

        With :math:`\mathrm{Log}_z w = r u` and :math:`\beta = \langle u, v\rangle \in \mathbb{C}`,
        :math:`v \mapsto \phi\,[v - \beta u + \beta(-\sin r\, z + \cos r\, u)]` (the complex structure is
        parallel, so :math:`u \mapsto \dot\gamma`, :math:`iu \mapsto i\dot\gamma`, and the complex orthogonal
        complement of :math:`\{z, u\}` is fixed); :math:`\phi` is the phase of :math:`\langle z, w\rangle`,
        which expresses the result at the given representative ``w``.
        """
        z, w = _complex(base_point), _complex(end_point)
        v = _complex(tangent_vec)
        c = _hermitian(z, w)
        if np.any(np.abs(c) <= CUT_LOCUS_ATOL):
            raise CutLocusError(
                "end_point is at the cut locus of base_point (<z, w> = 0, distance pi/2): the minimising geodesic, "
                "hence the parallel transport along it, is undefined",
                param="end_point",
            )
        phase = _phase(c)
        log = _complex(self._log(base_point, end_point))
        r = np.linalg.norm(log, axis=-1)
        u = log / np.where(r > 0, r, 1.0)[..., None]
        beta = _hermitian(u, v)[..., None]
        velocity = -np.sin(r)[..., None] * z + np.cos(r)[..., None] * u
        moved = v - beta * u + beta * velocity
        return _real(phase[..., None] * moved)

    # ----------------------------------------------------------- shape helpers
    def projection(self, configurations):
        """Preshape of any ``k x 2`` configuration: subtract the centroid, divide by the Frobenius norm.

        Raises
        ------
        InvalidParameterError
            Wrong shape, NaN/inf, or a degenerate configuration (all landmarks coincide).
        """
        arr = check_finite_array(configurations, "configurations", shape_tail=self.point_shape)
        centred = arr - arr.mean(axis=-2, keepdims=True)
        norm = np.sqrt(np.sum(centred**2, axis=(-2, -1), keepdims=True))
        if np.any(norm <= 1e-12 * (1.0 + np.abs(arr).max())):
            raise InvalidParameterError(
                "configurations must not be degenerate: all k landmarks of a configuration coincide, so it has no "
                "shape (zero size after centring)",
                param="configurations",
            )
        return centred / norm

    def align(self, points, reference):
        r"""Rotate ``points`` optimally onto ``reference`` (ordinary Procrustes): :math:`w\,\bar\phi`,
        :math:`\phi = \langle z, w\rangle/|\langle z, w\rangle|`. The shape is unchanged."""
        pts = self.validate_points(points, "points")
        ref = self.validate_points(reference, "reference")
        c = _hermitian(_complex(ref), _complex(pts))
        return _real(_complex(pts) * np.conj(_phase(c))[..., None])

    def same_shape(self, point_a, point_b, atol=1e-9):
        """Boolean array: are the two preshapes the same shape (equal up to rotation, within ``atol``)?"""
        return self.dist(point_a, point_b) <= atol

    def random_uniform(self, size, rng):
        r"""``size`` shapes uniform for the Riemannian volume (normalised complex Gaussian in Helmert coordinates).

        The standard complex Gaussian on :math:`\mathbb{C}^{k-1}` is :math:`U(k-1)`-invariant, so its
        normalisation is uniform on the preshape sphere and its image uniform on :math:`\mathbb{C}P^{k-2}`.
        """
        size = check_int(size, "size", low=1)
        rng = check_rng(rng)
        gauss = rng.standard_normal((size, self.k - 1)) + 1j * rng.standard_normal((size, self.k - 1))
        gauss /= np.linalg.norm(gauss, axis=-1, keepdims=True)
        return _real(gauss @ self._helmert)

    # ------------------------------------------- facts for views, studies and solvers outside the package
    jacobi_model = "complex_projective"
    distance_unit = "shape distance, radians"

    @property
    def view(self):
        """``"shapes"``: landmark configurations drawn in the plane."""
        return "shapes"

    @property
    def chooser_label(self):
        """``Kendall shapes Σ¹²₂ (12 landmarks)``."""
        return f"{super().chooser_label} ({self.k} landmarks)"

    def to_tangent(self, base_point, vector):
        """The horizontal projection (:meth:`horizontal_projection`)."""
        return self.horizontal_projection(base_point, vector)

    def complex_structure(self, base_point, tangent_vec):
        """:math:`J v` = each landmark rotated by 90° (:func:`quarter_turn`)."""
        return quarter_turn(tangent_vec)

    def mean_initial_guess(self, points, weights):
        r"""The full Procrustes mean: leading eigenvector of the complex scatter :math:`\sum_i w_i z_i z_i^*`
        (``None`` if it is not a valid preshape)."""
        z = points[..., 0] + 1j * points[..., 1]
        scatter = np.einsum("i,ij,ik->jk", weights, z, np.conj(z))
        top = np.linalg.eigh(scatter)[1][:, -1]
        candidate = np.stack([top.real, top.imag], axis=-1)
        return candidate if self.belongs(candidate) else None
