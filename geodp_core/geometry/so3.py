r"""The rotation group :math:`SO(3)` with its bi-invariant metric (closed forms).

Rotations — robot and camera poses, molecular orientations — are among the most common manifold-valued data.
With the inner product :math:`\langle RA, RB\rangle_R = \tfrac12\operatorname{tr}(A^\top B)` on
:math:`T_R SO(3) = R\,\mathfrak{so}(3)`, the skew matrix :math:`\hat\omega` of a vector :math:`\omega` has norm
:math:`|\omega|`, geodesics are one-parameter subgroups and the distance is the rotation angle

.. math::

    d(R_1, R_2) = \theta(R_1^\top R_2) \in [0, \pi], \qquad
    \cos\theta(M) = \tfrac12(\operatorname{tr} M - 1), \quad \sin\theta(M) = \tfrac12|\operatorname{vee}(M - M^\top)|.

:math:`SO(3)` is the real projective space :math:`\mathbb{R}P^3 = S^3(2)/\pm 1` (unit quaternions of a sphere of
radius 2): constant sectional curvature :math:`1/4`, injectivity radius and diameter :math:`\pi`, and in geodesic
polar coordinates the volume density

.. math:: J(r) = \big(2\sin(r/2)\big)^2, \qquad 0 \le r \le \pi,

so distance-isotropic noise has an exact radial law (:class:`~geodp_core.geometry.radial_volume.SphericalVolume`
with curvature 1/4 and range :math:`\pi`). Derivations: ``docs/derivations/rotations.md``.
"""

import numpy as np

from geodp_core._validation import check_int, check_rng
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.base import CUT_LOCUS_ATOL, Manifold, register_manifold
from geodp_core.geometry.functions import sinc as _sinc
from geodp_core.geometry.radial_volume import SphericalVolume

__all__ = ["SpecialOrthogonal3", "hat", "vee"]

#: The orthonormal basis :math:`\hat e_1, \hat e_2, \hat e_3` of :math:`\mathfrak{so}(3)` (norm ½ tr(AᵀA) = 1).
_BASIS = np.array([
    [[0.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
    [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 0.0]],
    [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
])


def hat(omega):
    r"""Skew matrix :math:`\hat\omega` with :math:`\hat\omega x = \omega \times x`, batched over leading axes."""
    omega = np.asarray(omega, dtype=float)
    return np.einsum("...k,kij->...ij", omega, _BASIS)


def vee(skew):
    r"""Inverse of :func:`hat` on the skew part: :math:`(A_{32} - A_{23}, A_{13} - A_{31}, A_{21} - A_{12})/2`."""
    a = np.asarray(skew, dtype=float)
    return 0.5 * np.stack([a[..., 2, 1] - a[..., 1, 2], a[..., 0, 2] - a[..., 2, 0], a[..., 1, 0] - a[..., 0, 1]],
                          axis=-1)


def _rodrigues(omega):
    r""":math:`\exp(\hat\omega) = I + \sin\theta\,K + (1-\cos\theta)K^2`, :math:`K = \hat n`,
    :math:`\omega = \theta n` (for :math:`\theta < 1` the sinc form
    :math:`I + \tfrac{\sin\theta}{\theta}\hat\omega + \tfrac12\operatorname{sinc}^2(\theta/2)\hat\omega^2`, exact as
    :math:`\theta \to 0`); the norm is taken as :math:`s|\omega/s|`, so no finite vector overflows."""
    omega = np.asarray(omega, dtype=float)
    scale = np.max(np.abs(omega), axis=-1, keepdims=True)
    safe = np.where(scale > 0, scale, 1.0)
    rel = np.linalg.norm(omega / safe, axis=-1, keepdims=True)
    theta = (rel * safe)[..., None]
    small = theta < 1.0
    unit = hat(omega / safe / np.where(rel > 0, rel, 1.0))
    w = hat(np.where(small[..., 0], omega, 0.0))
    half = _sinc(0.5 * np.where(small, theta, 0.0))
    near = np.eye(3) + _sinc(np.where(small, theta, 0.0)) * w + 0.5 * half * half * (w @ w)
    far = np.eye(3) + np.sin(theta) * unit + (1.0 - np.cos(theta)) * (unit @ unit)
    return np.where(small, near, far)


def _angle_and_axis_sine(m):
    r"""``(theta, s)`` of rotation matrices ``m``: :math:`\theta = \operatorname{atan2}(|s|, c)` with
    :math:`s = \operatorname{vee}(M - M^\top)/2 \cdot 2 = \sin\theta\,n` and :math:`c = (\operatorname{tr}M - 1)/2`."""
    s = vee(m)  # = sin(theta) * axis
    c = 0.5 * (np.trace(m, axis1=-2, axis2=-1) - 1.0)
    return np.arctan2(np.linalg.norm(s, axis=-1), c), s, c


def _rotation_vector(m):
    r"""Rotation vector :math:`\omega = \theta n` of :math:`M = \exp(\hat\omega)`, :math:`\theta \in [0, \pi]`.

    Away from :math:`\pi`: :math:`\omega = \theta\,s/\sin\theta`. Near :math:`\pi` (where :math:`s` loses the axis):
    :math:`nn^\top = \big((M + M^\top)/2 - c I\big)/(1 - c)`, the column of largest norm gives :math:`\pm n`, and the
    sign of :math:`s` (or any sign at exactly :math:`\pi`) fixes it.
    """
    theta, s, c = _angle_and_axis_sine(m)
    sin = np.linalg.norm(s, axis=-1)
    generic = theta < 3.0
    scale = np.where(generic, theta / np.where(sin > 0, sin, 1.0), 0.0)
    scale = np.where(theta < 1e-8, 1.0 + theta * theta / 6.0, scale)
    omega = scale[..., None] * s
    if not np.all(generic):
        sym = 0.5 * (m + np.swapaxes(m, -1, -2)) - c[..., None, None] * np.eye(3)
        outer = sym / np.maximum(1.0 - c, 1e-300)[..., None, None]
        cols = np.linalg.norm(outer, axis=-2)
        j = np.argmax(cols, axis=-1)
        col = np.take_along_axis(outer, j[..., None, None], axis=-1)[..., 0]
        axis = col / np.linalg.norm(col, axis=-1, keepdims=True)
        sign = np.where(np.sum(axis * s, axis=-1) < 0, -1.0, 1.0)
        near = theta[..., None] * sign[..., None] * axis
        omega = np.where(generic[..., None], omega, near)
    return omega


@register_manifold
class SpecialOrthogonal3(Manifold):
    r"""Rotations :math:`SO(3) = \{R \in \mathbb{R}^{3\times3}: R^\top R = I, \det R = 1\}`, bi-invariant metric.

    .. math::
        \mathrm{Exp}_R(R\hat\omega) = R\exp(\hat\omega), \qquad \mathrm{Log}_R(Q) = R\,\widehat{\omega(R^\top Q)},
        \qquad d(R, Q) = |\omega(R^\top Q)| = \text{rotation angle of } R^\top Q.

    Points are ``3 x 3`` rotation matrices; tangent vectors at :math:`R` are ``R @ A`` with ``A`` skew. The only
    size is 3 (``get_manifold("so3")``). Display: the rotation vector :math:`\omega(R) \in` the ball of radius
    :math:`\pi` (axis-angle coordinates of :math:`R` relative to the identity).
    """

    name = "so3"
    title = "Rotations"
    description = "the rotations of space SO(3) (curvature 1/4, diameter π)"
    menu_order = 60
    is_homogeneous = True
    is_hadamard = False
    diameter = np.pi
    size_range = (3, 3)
    app_size_range = (3, 3)
    default_size = 3
    center_offset_limit = np.pi
    #: Constant curvature 1/4 with the transport along the traversed geodesic of :meth:`geodesic_transport`: the
    #: Jacobi fields of geodesic regression (``docs/derivations/rotations.md``).
    jacobi_model = "constant_curvature"

    def __init__(self, dim=3):
        check_int(dim, "dim", low=3, high=3)
        self.dim = 3
        self.point_shape = (3, 3)
        self.curvature_bounds = (0.25, 0.25)
        self.ricci_constant = -0.5  # Ric = (d - 1) κ g = g/2
        self.injectivity_radius = np.pi

    @property
    def label(self):
        return "SO(3)"

    @property
    def menu_label(self):
        return "Rotations SO(3)"

    @property
    def radial_volume(self):
        r""":math:`J(r) = (2\sin(r/2))^2` on :math:`[0, \pi]`: curvature 1/4, range :math:`\pi` (a quotient of
        :math:`S^3(2)`)."""
        return SphericalVolume(3, curvature=0.25, radius_range=np.pi, name="SO(3)")

    def default_center(self):
        """The identity rotation."""
        return np.eye(3)

    # ------------------------------------------------------------------ maths
    def inner(self, base_point, tangent_a, tangent_b):
        r""":math:`\tfrac12\operatorname{tr}(U^\top V)` (left-invariant: :math:`(RA)^\top RB = A^\top B`)."""
        return 0.5 * np.sum(np.asarray(tangent_a) * np.asarray(tangent_b), axis=(-2, -1))

    def _dist(self, point_a, point_b):
        rel = np.swapaxes(point_a, -1, -2) @ point_b
        return _angle_and_axis_sine(rel)[0]

    def _exp(self, base_point, tangent_vec):
        omega = vee(np.swapaxes(base_point, -1, -2) @ tangent_vec)
        return base_point @ _rodrigues(omega)

    def _exp_norm_hint(self):
        return "1.7e308 (the exponential is periodic: every representable norm works)"

    def _log(self, base_point, point):
        rel = np.swapaxes(base_point, -1, -2) @ point
        return base_point @ hat(_rotation_vector(rel))

    def _at_cut_locus(self, base_point, point):
        r"""Rotation angle of :math:`R^\top Q` within :data:`CUT_LOCUS_ATOL` of :math:`\pi` (two minimising geodesics)."""
        return self._dist(base_point, point) >= np.pi - CUT_LOCUS_ATOL

    def tangent_frame(self, base_point):
        r""":math:`R\hat e_k`, ``k = 1, 2, 3`` (orthonormal for :math:`\tfrac12\operatorname{tr}(U^\top V)`)."""
        base = np.asarray(base_point, dtype=float)
        return np.einsum("...ij,kjl->...kil", base, _BASIS)

    def from_frame(self, base_point, coords):
        return np.asarray(base_point, dtype=float) @ hat(coords)

    def to_frame(self, base_point, tangent_vec):
        return vee(np.swapaxes(np.asarray(base_point, dtype=float), -1, -2) @ np.asarray(tangent_vec, dtype=float))

    def _belongs(self, point, atol):
        gram = np.swapaxes(point, -1, -2) @ point
        orthogonal = np.max(np.abs(gram - np.eye(3)), axis=(-2, -1)) <= atol
        return orthogonal & (np.linalg.det(point) > 0)

    def _is_tangent(self, base_point, tangent_vec, atol):
        a = np.swapaxes(np.asarray(base_point, dtype=float), -1, -2) @ tangent_vec
        err = np.max(np.abs(a + np.swapaxes(a, -1, -2)), axis=(-2, -1))
        return err <= atol * (1.0 + np.max(np.abs(tangent_vec), axis=(-2, -1)))

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`\log|\det d\,\mathrm{Exp}_R(v)| = 2\log|\operatorname{sinc}(|v|/2)|` (curvature 1/4)."""
        r = self.norm(base_point, tangent_vec)
        with np.errstate(divide="ignore"):
            return 2.0 * np.log(np.abs(_sinc(0.5 * r)))

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport along the minimising geodesic from :math:`R` to :math:`Q` (:meth:`geodesic_transport` of
        :math:`\mathrm{Log}_R Q`)."""
        base = np.asarray(base_point, dtype=float)
        return self.geodesic_transport(base, self._log(base, np.asarray(end_point, dtype=float)), tangent_vec)

    def geodesic_transport(self, base_point, tangent_vec, vector, back=False):
        r"""Parallel transport along the geodesic :math:`t \mapsto R\exp(t\hat\omega)`, :math:`t \in [0, 1]`,
        actually traversed (any :math:`|\omega|`, also beyond :math:`\pi`), :math:`R\hat\omega` = ``tangent_vec``.

        For left-invariant fields of a bi-invariant metric :math:`\nabla_XY = \tfrac12[X, Y]`, so a field
        :math:`\gamma(t)X(t)` is parallel when :math:`X' = -\tfrac12[\hat\omega, X]`, i.e.
        :math:`X(t) = e^{-t\hat\omega/2}X_0e^{t\hat\omega/2}`: at :math:`Q = Re^{\hat\omega}`,

        .. math::
            RX \mapsto R\,e^{\hat\omega/2}\,X\,e^{\hat\omega/2}, \qquad
            \text{and back:}\ Y \mapsto R\,e^{-\hat\omega/2}\,(R^\top Y)\,e^{-\hat\omega/2}
            \ \text{for } Y \in T_QSO(3).

        ``back=True`` applies the inverse map. An isometry (a conjugation in left-trivialised form) sending the velocity :math:`R\hat\omega` to
        :math:`Q\hat\omega`. Unvalidated; broadcasts over leading axes.
        """
        base = np.asarray(base_point, dtype=float)
        omega = vee(np.swapaxes(base, -1, -2) @ np.asarray(tangent_vec, dtype=float))
        half = _rodrigues((-0.5 if back else 0.5) * omega)
        x = np.swapaxes(base, -1, -2) @ np.asarray(vector, dtype=float)
        return base @ half @ x @ half

    def to_tangent(self, base_point, vector):
        r"""Orthogonal projection onto :math:`T_RSO(3)`: :math:`V \mapsto R\,\mathrm{skew}(R^\top V)`,
        :math:`\mathrm{skew}(A) = (A - A^\top)/2` (removes numerical drift)."""
        base = np.asarray(base_point, dtype=float)
        a = np.swapaxes(base, -1, -2) @ np.asarray(vector, dtype=float)
        return base @ (0.5 * (a - np.swapaxes(a, -1, -2)))

    def projection(self, matrices):
        r"""Nearest rotations (Frobenius) of ``3 x 3`` matrices: :math:`U\,\mathrm{diag}(1, 1, \det UV^\top)V^\top`."""
        u, _, vt = np.linalg.svd(np.asarray(matrices, dtype=float))
        det = np.linalg.det(u @ vt)
        u = u.copy()
        u[..., :, 2] *= det[..., None]
        return u @ vt

    def to_display(self, points):
        r"""Rotation vectors :math:`\omega(R)` (axis times angle, in the ball of radius :math:`\pi`)."""
        return _rotation_vector(np.asarray(points, dtype=float))

    @property
    def view(self):
        """Rotation vectors relative to the public centre, in the ball of radius π (3-D)."""
        return "rotation_ball"

    def from_rotation_vectors(self, omega):
        """Rotations :math:`\\exp(\\hat\\omega)` from rotation vectors ``(..., 3)`` (any length)."""
        omega = np.asarray(omega, dtype=float)
        if omega.shape[-1:] != (3,) or not np.all(np.isfinite(omega)):
            raise InvalidParameterError(
                f"omega must be finite rotation vectors of shape (..., 3); got shape {omega.shape}", param="omega")
        return _rodrigues(omega)

    def random_uniform(self, size, rng):
        r"""``size`` Haar-uniform rotations (normalised Gaussian quaternions: uniform on :math:`S^3`)."""
        size = check_int(size, "size", low=1)
        rng = check_rng(rng)
        q = rng.standard_normal((size, 4))
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        w, x, y, z = q.T
        return np.stack([
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], axis=-1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], axis=-1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], axis=-1),
        ], axis=-2)

