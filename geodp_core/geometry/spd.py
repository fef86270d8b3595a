"""SPD(m) matrices under the affine-invariant, log-Euclidean and log-Cholesky metrics.

All three are Hadamard (the last two flat). Points are ``(..., m, m)`` symmetric
positive-definite arrays and tangent vectors symmetric matrices, as in geomstats.
Closed forms via batched ``eigh``/``cholesky``; geomstats is the test reference.
"""

import functools

import numpy as np

from geodp_core._validation import check_option
from geodp_core.geometry.base import Manifold, register_manifold
from geodp_core.geometry.functions import symmetric_eigh
from geodp_core.geometry.functions import symmetrize as _sym
from geodp_core.geometry.radial_volume import FlatVolume

__all__ = ["SPDAffine", "SPDLogEuclidean", "SPDLogCholesky", "sym_function", "symmetric_basis"]


def sym_function(matrix, func):
    r"""Apply a scalar function to a symmetric matrix: :math:`U f(\Lambda) U^T` (batched)."""
    eigvals, eigvecs = symmetric_eigh(matrix)
    return (eigvecs * func(eigvals)[..., None, :]) @ np.swapaxes(eigvecs, -1, -2)


def _divided_difference(eigvals, func, dfunc):
    """First divided differences :math:`(f(s_i)-f(s_j))/(s_i-s_j)`, with :math:`f'` on ties."""
    si, sj = eigvals[..., :, None], eigvals[..., None, :]
    diff = si - sj
    close = np.abs(diff) <= 1e-10 * (1.0 + np.abs(si))
    safe = np.where(close, 1.0, diff)
    mid = 0.5 * (si + sj)
    return np.where(close, dfunc(mid), (func(si) - func(sj)) / safe)


def _frechet_derivative(matrix, direction, func, dfunc):
    r"""Daleckii–Krein: :math:`Df_S[H] = U\,(F \circ U^T H U)\,U^T` for symmetric ``S``."""
    eigvals, eigvecs = symmetric_eigh(matrix)
    weights = _divided_difference(eigvals, func, dfunc)
    ut = np.swapaxes(eigvecs, -1, -2)
    return eigvecs @ (weights * (ut @ direction @ eigvecs)) @ ut


@functools.lru_cache(maxsize=32)
def symmetric_basis(m):
    r"""Frobenius-orthonormal basis of symmetric ``m x m`` matrices, shape ``(m(m+1)/2, m, m)`` (cached, read-only).

    :math:`E_{ii}` then :math:`(E_{ij} + E_{ji})/\sqrt2` for :math:`i < j`.
    """
    basis = []
    for i in range(m):
        e = np.zeros((m, m))
        e[i, i] = 1.0
        basis.append(e)
    for i in range(m):
        for j in range(i + 1, m):
            e = np.zeros((m, m))
            e[i, j] = e[j, i] = 1.0 / np.sqrt(2.0)
            basis.append(e)
    basis = np.array(basis)
    basis.setflags(write=False)
    return basis


def _max_abs_entry(a):
    """``max |a_ij|`` over the last two axes, one entry at a time (fast for a stack of small matrices)."""
    m = a.shape[-1]
    out = np.array(np.abs(a[..., 0, 0]), dtype=float)
    for i in range(m):
        for j in range(m):
            if i or j:
                np.maximum(out, np.abs(a[..., i, j]), out=out)
    return out


#: Relative shift of the Cholesky certificate of positive definiteness (far above the rounding errors it covers).
_CERTIFICATE_SHIFT = 1e-8


def _smallest_eigenvalue_positive(sym):
    r"""``numpy.linalg.eigvalsh(sym)[..., 0] > 0`` for a stack of symmetric matrices, mostly without ``eigvalsh``.

    A matrix is *certified* when the Cholesky factorisation of :math:`B = A - \tau m \max_{ij}|a_{ij}|\, I`,
    :math:`\tau = 10^{-8}`, runs to completion with positive pivots (one batched pass). Then
    :math:`\lambda_{\min}(A) > 0.99\,\tau\|A\|_2`: a completed floating-point Cholesky factorisation is exact for
    :math:`B + E` with :math:`\|E\|_2 \lesssim m(m+1)\,\epsilon\|B\|_2` (Higham, *Accuracy and Stability of Numerical
    Algorithms*, Thm. 10.3 and 10.7), :math:`B + E = LL^\top` is positive definite, and
    :math:`m\max_{ij}|a_{ij}| \ge \|A\|_2`. The eigenvalues ``eigvalsh`` computes are within a small multiple of
    :math:`m^2\epsilon\|A\|_2 \ll 10^{-8}\|A\|_2` of the exact ones, so its smallest one is positive too: the answer is
    the same. The matrices not certified (condition number above about :math:`10^8`, or not positive definite) are
    decided by ``eigvalsh`` itself.
    """
    sym = np.asarray(sym, dtype=float)
    m = sym.shape[-1]
    flat = sym.reshape(-1, m, m)
    n = flat.shape[0]
    if n == 0:
        return np.zeros(sym.shape[:-2], dtype=bool)
    a = np.transpose(flat, (1, 2, 0))  # a[i, j] is entry (i, j) of every matrix: contiguous batch operations
    shift = _CERTIFICATE_SHIFT * m * _max_abs_entry(flat)
    lower = np.zeros((m, m, n))
    certified = np.ones(n, dtype=bool)
    with np.errstate(invalid="ignore", over="ignore"):  # inf/NaN pivots fail the test: eigvalsh decides
        for j in range(m):
            pivot = a[j, j] - shift - np.sum(lower[j, :j] * lower[j, :j], axis=0)
            certified &= pivot > 0.0
            root = np.sqrt(np.where(pivot > 0.0, pivot, 1.0))
            lower[j, j] = root
            for i in range(j + 1, m):
                lower[i, j] = (a[i, j] - np.sum(lower[i, :j] * lower[j, :j], axis=0)) / root
    out = certified
    if not certified.all():
        rest = ~certified
        out = certified.copy()
        out[rest] = np.linalg.eigvalsh(flat[rest])[:, 0] > 0
    return out.reshape(sym.shape[:-2])


@register_manifold
class _SPDBase(Manifold):
    name = "spd"
    title = "SPD matrices"
    description = "SPD matrices (a Hadamard space, curvature ≤ 0)"
    menu_order = 30
    is_homogeneous = True
    is_hadamard = True
    metric_label = ""
    metric_choices = ("affine", "log_euclidean", "log_cholesky")
    size_symbol = "m"
    app_size_range = (2, 11)
    center_offset_limit = 10.0
    #: Image covariance descriptors lie up to about 8 from their public centre.
    app_radius_max = 10.0
    #: Largest distance from the identity at which points are represented accurately (condition number
    #: :math:`\le e^{20\sqrt2}`, the smallest eigenvalue still resolved by ``eigvalsh``; measured distance error
    #: ``4e-7`` at 16, ``4e-4`` at 20, invalid points at 28).
    _representable = 20.0
    #: :math:`e^{\lambda}` of chart coordinates (squared by the log-Cholesky chart) overflows beyond about 300.
    overflow_radius = 300.0
    #: Beyond a condition number of 1e13 inverses, square roots and logarithms lose all accuracy (and may raise
    #: ``LinAlgError``); a public domain boundary stays below 1e10.
    conditioning_limits = (1e13, 1e10)
    conditioning_measure = "condition number"

    def well_conditioned(self, points, limit):
        r"""Positive definite with condition number :math:`\lambda_{\max}/\lambda_{\min} \le` ``limit``."""
        pts = np.asarray(points, dtype=float)
        eig = np.linalg.eigvalsh(0.5 * (pts + np.swapaxes(pts, -1, -2)))
        return (eig[..., 0] > 0) & (eig[..., -1] <= limit * np.maximum(eig[..., 0], 1e-300))

    @classmethod
    def from_size(cls, size, metric=None):
        """SPD(``size``) with ``metric`` in ``{"affine", "log_euclidean", "log_cholesky"}`` (default affine)."""
        metric = "affine" if metric is None else check_option(metric, "metric", cls.metric_choices)
        return {"affine": SPDAffine, "log_euclidean": SPDLogEuclidean, "log_cholesky": SPDLogCholesky}[metric](size)

    @property
    def size(self):
        return self.m

    @property
    def menu_label(self):
        return "SPD(m) matrices"

    @property
    def representable_radius(self):
        return self._representable

    def __init__(self, m):
        self.m = int(m)
        self.dim = self.m * (self.m + 1) // 2
        self.point_shape = (self.m, self.m)
        self.injectivity_radius = np.inf

    @property
    def label(self):
        return f"SPD({self.m}), {self.metric_label}"

    def default_center(self):
        """The identity matrix."""
        return np.eye(self.m)

    def _belongs(self, point, atol):
        point = np.asarray(point, dtype=float)
        m = point.shape[-1]
        # max |P - P^T| and max |P| over the entries, one entry at a time (fast for a stack of small matrices)
        sym_err = np.zeros(point.shape[:-2])
        for i in range(m):
            for j in range(i + 1, m):
                np.maximum(sym_err, np.abs(point[..., i, j] - point[..., j, i]), out=sym_err)
        scale = 1.0 + _max_abs_entry(point)
        symmetric = sym_err <= atol * scale
        return symmetric & _smallest_eigenvalue_positive(_sym(point))

    def _is_tangent(self, base_point, tangent_vec, atol):
        err = np.max(np.abs(tangent_vec - np.swapaxes(tangent_vec, -1, -2)), axis=(-1, -2))
        return err <= atol * (1.0 + np.max(np.abs(tangent_vec), axis=(-1, -2)))

    def _exp_norm_hint(self):
        return ("18 (beyond, the condition number exp(lambda_max - lambda_min) of the result can exceed "
                "1/eps ~ 4.5e15 and the matrix is no longer positive definite in floating point; "
                "exp(lambda) overflows beyond 709)")

    def to_display(self, points):
        """Upper-triangular coordinates ``(a, b, c)`` of ``[[a, b], [b, c]]`` for SPD(2)."""
        pts = np.asarray(points, dtype=float)
        iu = np.triu_indices(self.m)
        return pts[..., iu[0], iu[1]]

    # ------------------------------------------- facts for views, studies and solvers outside the package
    upload_format = "symmetric_matrix"
    distance_unit = "geodesic distance of the SPD metric"
    #: The affine metric slows down with m: a size sweep goes m = 2…4.
    size_sweep_steps = 2

    @property
    def view(self):
        """``"spd_ellipses"`` on SPD(2) (ellipses, the cone), ``"spd_spectrum"`` (log-eigenvalues) for m > 2."""
        return "spd_ellipses" if self.m == 2 else "spd_spectrum"

    @property
    def chooser_label(self):
        """``SPD(2), affine-invariant``."""
        return self.symbol

    def to_tangent(self, base_point, vector):
        """The symmetric part :math:`(V + V^T)/2`."""
        return _sym(vector)


class SPDAffine(_SPDBase):
    r"""SPD(m) with the affine-invariant metric :math:`g_P(U,V) = \mathrm{tr}(P^{-1}UP^{-1}V)`.

    .. math::
        \mathrm{Exp}_P(V) = P^{1/2}\exp(P^{-1/2}VP^{-1/2})P^{1/2},\qquad
        \mathrm{dist}(P,Q) = \|\log(P^{-1/2}QP^{-1/2})\|_F.

    Sectional curvature in :math:`[-1/2, 0]`; ``Ric >= -(d-1)/2`` is used as the safe constant.
    """

    metric = "affine"
    metric_label = "affine-invariant"
    eigen_polar_noise = True

    def __init__(self, m):
        super().__init__(m)
        self.curvature_bounds = (-0.5 if self.m > 1 else 0.0, 0.0)
        self.ricci_constant = (self.dim - 1) / 2.0

    @property
    def radial_volume(self):
        """Flat :math:`J(r) = 1` on SPD(1) (the log map is an isometry onto the line); ``None`` for ``m >= 2``
        (not isotropic: the exact law is sampled in polar coordinates of the eigenvalues)."""
        return FlatVolume(1) if self.m == 1 else None

    def _sqrt_and_invsqrt(self, point):
        eigvals, eigvecs = symmetric_eigh(point)
        ut = np.swapaxes(eigvecs, -1, -2)
        sqrt = (eigvecs * np.sqrt(eigvals)[..., None, :]) @ ut
        invsqrt = (eigvecs / np.sqrt(eigvals)[..., None, :]) @ ut
        return sqrt, invsqrt

    def inner(self, base_point, tangent_a, tangent_b):
        inv = np.linalg.inv(np.asarray(base_point, dtype=float))
        return np.einsum("...ij,...ji->...", inv @ tangent_a, inv @ tangent_b)

    def _dist(self, point_a, point_b):
        _, invsqrt = self._sqrt_and_invsqrt(point_a)
        eigvals = symmetric_eigh(invsqrt @ point_b @ invsqrt)[0]
        return np.sqrt(np.sum(np.log(eigvals) ** 2, axis=-1))

    def _exp(self, base_point, tangent_vec):
        sqrt, invsqrt = self._sqrt_and_invsqrt(base_point)
        return _sym(sqrt @ sym_function(invsqrt @ tangent_vec @ invsqrt, np.exp) @ sqrt)

    def _log(self, base_point, point):
        sqrt, invsqrt = self._sqrt_and_invsqrt(base_point)
        return _sym(sqrt @ sym_function(invsqrt @ point @ invsqrt, np.log) @ sqrt)

    def tangent_frame(self, base_point):
        r""":math:`P^{1/2} E_k P^{1/2}` with :math:`E_k` Frobenius-orthonormal symmetric matrices."""
        sqrt, _ = self._sqrt_and_invsqrt(base_point)
        basis = symmetric_basis(self.m)
        return sqrt[..., None, :, :] @ basis @ sqrt[..., None, :, :]

    def from_frame(self, base_point, coords):
        r""":math:`\sum_k c_k P^{1/2}E_kP^{1/2} = P^{1/2}\big(\sum_k c_k E_k\big)P^{1/2}` (two products, not one per k)."""
        sqrt, _ = self._sqrt_and_invsqrt(base_point)
        inner = np.einsum("...k,kij->...ij", np.asarray(coords, dtype=float), symmetric_basis(self.m))
        return sqrt @ inner @ sqrt

    def to_frame(self, base_point, tangent_vec):
        r""":math:`\langle P^{1/2}E_kP^{1/2}, V\rangle_P = \langle E_k, P^{-1/2}VP^{-1/2}\rangle_F` for every k at once."""
        _, invsqrt = self._sqrt_and_invsqrt(base_point)
        whitened = invsqrt @ np.asarray(tangent_vec, dtype=float) @ invsqrt
        return np.einsum("...ij,kij->...k", whitened, symmetric_basis(self.m))

    def log_volume_jacobian(self, base_point, tangent_vec):
        r""":math:`\sum_{i<j}\log\frac{\sinh(|\lambda_i-\lambda_j|/2)}{|\lambda_i-\lambda_j|/2}`,
        :math:`\lambda` the eigenvalues of :math:`P^{-1/2}VP^{-1/2}`."""
        _, invsqrt = self._sqrt_and_invsqrt(base_point)
        lam = np.linalg.eigvalsh(_sym(invsqrt @ np.asarray(tangent_vec, dtype=float) @ invsqrt))
        iu = np.triu_indices(self.m, k=1)
        half_gap = 0.5 * np.abs(lam[..., iu[0]] - lam[..., iu[1]])
        from geodp_core.geometry.radial_volume import log_sinh_over_x as _log_sinh_over_x

        return np.sum(_log_sinh_over_x(half_gap), axis=-1)  # stable: finite for every finite gap

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Transport along the geodesic: :math:`E V E^T`, :math:`E = P^{1/2}(P^{-1/2}QP^{-1/2})^{1/2}P^{-1/2}`."""
        sqrt, invsqrt = self._sqrt_and_invsqrt(base_point)
        mid = sym_function(invsqrt @ np.asarray(end_point, dtype=float) @ invsqrt, np.sqrt)
        e = sqrt @ mid @ invsqrt
        return _sym(e @ tangent_vec @ np.swapaxes(e, -1, -2))

    # ------------------------------------------- facts for views, studies and solvers outside the package
    jacobi_model = "affine_invariant"

    def rounding_scale(self, point):
        r""":math:`\mathrm{cond}(P)`: logarithms at :math:`P` carry errors :math:`\varepsilon\,\mathrm{cond}(P)`."""
        eig = np.linalg.eigvalsh(point)
        return float(eig[-1] / eig[0]) if eig[0] > 0 else np.inf

    def mean_initial_guess(self, points, weights):
        r"""The log-Euclidean mean :math:`\exp(\sum_i w_i \log X_i)`."""
        logs = sym_function(points, np.log)
        return sym_function(np.tensordot(weights, logs, axes=(0, 0)), np.exp)

    def sample_polar(self, center, profile, scale, size, rng):
        """Exact draws in polar coordinates of the eigenvalues (:func:`~geodp_core.geometry.spd_polar.sample_spd_polar`)."""
        from geodp_core.geometry.spd_polar import sample_spd_polar

        return sample_spd_polar(center, profile, scale, size, rng)


class _FlatChartSPD(_SPDBase):
    r"""SPD(m) with a flat metric pulled back from a global chart :math:`\psi` to a Euclidean space.

    :math:`\mathrm{Exp}_P(V) = \psi^{-1}(\psi(P) + d\psi_P V)`,
    :math:`\mathrm{Log}_P(Q) = (d\psi_P)^{-1}(\psi(Q) - \psi(P))`,
    :math:`\mathrm{dist}(P, Q) = \|\psi(P) - \psi(Q)\|_F`.
    """

    def __init__(self, m):
        super().__init__(m)
        self.curvature_bounds = (0.0, 0.0)
        self.ricci_constant = 0.0

    @property
    def radial_volume(self):
        r"""Flat: :math:`J(r) = r^{d-1}` (the chart is an isometry onto :math:`\mathbb{R}^{m(m+1)/2}`)."""
        return FlatVolume(self.dim)

    def isometric_chart(self):
        r"""The chart :math:`\psi`, its inverse and the orthonormal basis of the chart space."""
        return self.chart, self.chart_inverse, self.chart_basis()

    def chart(self, point):
        raise NotImplementedError

    def chart_inverse(self, coords):
        raise NotImplementedError

    def chart_differential(self, base_point, tangent_vec):
        raise NotImplementedError

    def chart_differential_inverse(self, base_point, chart_vec):
        raise NotImplementedError

    def chart_basis(self):
        raise NotImplementedError

    def inner(self, base_point, tangent_a, tangent_b):
        da = self.chart_differential(base_point, tangent_a)
        db = self.chart_differential(base_point, tangent_b)
        return np.sum(da * db, axis=(-1, -2))

    def _dist(self, point_a, point_b):
        diff = self.chart(point_a) - self.chart(point_b)
        return np.sqrt(np.sum(diff * diff, axis=(-1, -2)))

    def _exp(self, base_point, tangent_vec):
        return self.chart_inverse(self.chart(base_point) + self.chart_differential(base_point, tangent_vec))

    def _log(self, base_point, point):
        return self.chart_differential_inverse(base_point, self.chart(point) - self.chart(base_point))

    def tangent_frame(self, base_point):
        basis = self.chart_basis()
        base = np.asarray(base_point, dtype=float)[..., None, :, :]
        return self.chart_differential_inverse(base, basis)

    def parallel_transport(self, base_point, end_point, tangent_vec):
        r"""Flat transport: :math:`(d\psi_Q)^{-1} d\psi_P V`."""
        return self.chart_differential_inverse(end_point, self.chart_differential(base_point, tangent_vec))

    def log_volume_jacobian(self, base_point, tangent_vec):
        """Zero: the metric is flat and ``Exp`` is an isometry of normal coordinates."""
        shape = np.broadcast_shapes(np.shape(base_point)[:-2], np.shape(tangent_vec)[:-2])
        return np.zeros(shape)

    # ------------------------------------------- facts for views, studies and solvers outside the package
    jacobi_model = "flat_chart"


class SPDLogEuclidean(_FlatChartSPD):
    r"""SPD(m) with the log-Euclidean metric: :math:`\psi(P) = \log P`, :math:`\mathrm{dist} = \|\log P - \log Q\|_F`."""

    metric = "log_euclidean"
    metric_label = "log-Euclidean"

    def chart(self, point):
        return sym_function(point, np.log)

    def chart_inverse(self, coords):
        return _sym(sym_function(coords, np.exp))

    def chart_differential(self, base_point, tangent_vec):
        return _frechet_derivative(np.asarray(base_point, dtype=float), tangent_vec, np.log, lambda s: 1.0 / s)

    def chart_differential_inverse(self, base_point, chart_vec):
        log_base = sym_function(base_point, np.log)
        return _sym(_frechet_derivative(log_base, chart_vec, np.exp, np.exp))

    def chart_basis(self):
        return symmetric_basis(self.m)


class SPDLogCholesky(_FlatChartSPD):
    r"""SPD(m) with Lin's (2019) log-Cholesky metric.

    With :math:`P = LL^T` (Cholesky), :math:`\psi(P) = \lfloor L\rfloor + \log\mathbb{D}(L)`
    (strictly lower part plus log-diagonal), so
    :math:`\mathrm{dist}(P,Q)^2 = \|\lfloor L\rfloor - \lfloor K\rfloor\|_F^2 + \|\log\mathbb{D}(L) - \log\mathbb{D}(K)\|_F^2`.
    The differential of the Cholesky map is :math:`dL = L\,\Phi(L^{-1}VL^{-T})`,
    :math:`\Phi` = strictly-lower part plus half the diagonal.
    """

    metric = "log_cholesky"
    metric_label = "log-Cholesky"
    #: Measured distance error ``3e-7`` at 10, ``2e-5`` at 12, ``0.09`` at 16.
    _representable = 12.0

    def _diag(self, a):
        return np.diagonal(a, axis1=-2, axis2=-1)

    def chart(self, point):
        chol = np.linalg.cholesky(_sym(np.asarray(point, dtype=float)))
        return np.tril(chol, -1) + self._diag_matrix(np.log(self._diag(chol)))

    def _diag_matrix(self, diag):
        return diag[..., :, None] * np.eye(self.m)

    def chart_inverse(self, coords):
        chol = np.tril(coords, -1) + self._diag_matrix(np.exp(self._diag(coords)))
        return _sym(chol @ np.swapaxes(chol, -1, -2))

    def chart_differential(self, base_point, tangent_vec):
        chol = np.linalg.cholesky(_sym(np.asarray(base_point, dtype=float)))
        inv = np.linalg.inv(chol)
        x = inv @ np.asarray(tangent_vec, dtype=float) @ np.swapaxes(inv, -1, -2)
        phi = np.tril(x, -1) + 0.5 * self._diag_matrix(self._diag(x))
        d_chol = chol @ phi
        return np.tril(d_chol, -1) + self._diag_matrix(self._diag(d_chol) / self._diag(chol))

    def chart_differential_inverse(self, base_point, chart_vec):
        chol = np.linalg.cholesky(_sym(np.asarray(base_point, dtype=float)))
        chart_vec = np.asarray(chart_vec, dtype=float)
        d_chol = np.tril(chart_vec, -1) + self._diag_matrix(self._diag(chol) * self._diag(chart_vec))
        out = d_chol @ np.swapaxes(chol, -1, -2)
        return out + np.swapaxes(out, -1, -2)

    def chart_basis(self):
        basis = []
        for i in range(self.m):
            for j in range(i + 1):
                e = np.zeros((self.m, self.m))
                e[i, j] = 1.0
                basis.append(e)
        return np.array(basis)
