r"""Geodesic regression (Fletcher 2011): energy, gradients, non-private fit, sensitivities.

Model: a covariate :math:`x \in \mathbb{R}` and a response :math:`y \in M` follow the
geodesic :math:`t \mapsto \mathrm{Exp}(p, t v)` with footpoint :math:`p \in M` and
shooting vector :math:`v \in T_pM`. The least-squares energy and its gradients are

.. math::
    E(p, v) = \frac{1}{2n}\sum_{i=1}^n d\big(\mathrm{Exp}(p, x_i v), y_i\big)^2,\qquad
    \nabla_p E = -\frac1n \sum_i d_p\mathrm{Exp}(p, x_i v)^\dagger \varepsilon_i,\qquad
    \nabla_v E = -\frac1n \sum_i x_i\, d_v\mathrm{Exp}(p, x_i v)^\dagger \varepsilon_i,

with residuals :math:`\varepsilon_i = \mathrm{Log}(\mathrm{Exp}(p, x_i v), y_i)` and the
gradient in :math:`p` taken with :math:`v` parallel-transported along the variation
(DP regression paper, eq. 5-8 and appendix B.3).

Adjoints of the differential of Exp (closed forms, no finite differences)
---------------------------------------------------------------------------
Let :math:`w = x_i v`, :math:`L = |w|`, :math:`u = w/L`, :math:`q = \mathrm{Exp}_p(w)` and
:math:`\Gamma` the parallel transport along :math:`t \mapsto \mathrm{Exp}_p(t w)`. Write
:math:`\bar e = \Gamma^{-1} e` and split it into :math:`\bar e_\parallel = \langle \bar e, u\rangle u`
and :math:`\bar e_\perp`.

* Constant curvature :math:`k \in \{1, 0, -1\}` (sphere, Euclidean, hyperboloid):

  .. math::
      d_p\mathrm{Exp}^\dagger e = \bar e_\parallel + C_k(L)\,\bar e_\perp,\qquad
      d_w\mathrm{Exp}^\dagger e = \bar e_\parallel + \frac{S_k(L)}{L}\,\bar e_\perp,

  :math:`C = \cos, S = \sin` (sphere), :math:`\cosh, \sinh` (hyperbolic), :math:`1, L` (flat).
  In ambient coordinates the transport back is explicit: with the unit velocity at
  :math:`q`, :math:`t_q = -k S_k(L) p + C_k(L) u`, :math:`\Gamma^{-1} e = e + \langle e, t_q\rangle (u - t_q)`.
* SPD(m), affine-invariant metric (a symmetric space): whiten by :math:`P^{-1/2}`, diagonalise
  :math:`P^{-1/2} w P^{-1/2} = Q\,\mathrm{diag}(\lambda)\,Q^T`. The Jacobi operator is parallel along the
  geodesic with eigenvalues :math:`-(\lambda_i-\lambda_j)^2/4` on the eigen-directions :math:`E_{ij}`, so
  in that basis the adjoints are Hadamard products with
  :math:`\cosh((\lambda_i-\lambda_j)/2)` and :math:`\sinh((\lambda_i-\lambda_j)/2)/((\lambda_i-\lambda_j)/2)`;
  transport along the geodesic is :math:`Z \mapsto P^{1/2} e^{\tilde w/2} (P^{-1/2} Z P^{-1/2}) e^{\tilde w/2} P^{1/2}`.
* Kendall shape space :math:`\Sigma^k_2 = \mathbb{C}P^{k-2}` (holomorphic curvature 4, a symmetric space),
  in horizontal preshape coordinates. The complex structure :math:`i` is parallel, so along the geodesic
  the Jacobi operator is parallel with eigenvalues :math:`0` on :math:`u`, :math:`4L^2` on :math:`iu` and
  :math:`L^2` on the complex orthogonal complement of :math:`\{p, u\}`. Splitting
  :math:`\bar e = a\,u + b\,iu + \bar e_\perp`:

  .. math::
      d_p\mathrm{Exp}^\dagger e = a u + \cos(2L)\, b\, iu + \cos(L)\,\bar e_\perp,\qquad
      d_w\mathrm{Exp}^\dagger e = a u + \frac{\sin 2L}{2L}\, b\, iu + \frac{\sin L}{L}\,\bar e_\perp,

  and the transport maps :math:`u \mapsto t_q`, :math:`iu \mapsto i t_q` and fixes :math:`\bar e_\perp`
  (:math:`t_q = -\sin L\, p + \cos L\, u`, the unit velocity at :math:`q = \cos L\, p + \sin L\, u`).
  Every factor has modulus at most 1, whatever :math:`L`: the bounds below hold with :math:`C_p = C_v = 1`
  (the lower curvature bound is 1 > 0).
* SPD(m), log-Euclidean / log-Cholesky (flat): both adjoints are :math:`\Gamma^{-1}`.
* Constant curvature :math:`k > 0` in coordinates that are not a quadric (the rotations :math:`SO(3)`,
  :math:`k = 1/4`): the same factors :math:`C_k(L)`, :math:`S_k(L)/L` as for the quadrics, with
  :math:`\Gamma^{-1}` the space's own transport back along the traversed geodesic
  (``manifold.geodesic_transport``); on :math:`SO(3)` the Jacobi operator is
  :math:`R(\cdot, u)u = -\tfrac14\operatorname{ad}_u^2`, eigenvalue :math:`1/4` on :math:`u^\perp` and 0 on
  :math:`u` (``docs/derivations/rotations.md``).

All are checked against finite differences of :math:`E` in ``tests/test_regression.py``.

Clipped residuals and sensitivity
---------------------------------
The private mechanism (:mod:`geodp_core.mechanisms.kng_regression`) uses residuals
clipped at a PUBLIC level :math:`\tau`, :math:`[\varepsilon]_\tau = \varepsilon\min\{1, \tau/|\varepsilon|\}`;
the clipped gradient is the exact gradient of the Huber energy
:math:`\frac1n\sum_i H_\tau(d_i)`, :math:`H_\tau(r) = r^2/2` (:math:`r \le \tau`), :math:`\tau r - \tau^2/2`
otherwise. With :math:`x_i \in [0, 1]`, :math:`|v| \le v_{\max}` and sectional curvature
:math:`\ge k_l`, for EVERY :math:`(p, v)` and neighbouring datasets

.. math::
    \Delta_p = \frac{2\tau}{n} C_p,\quad \Delta_v = \frac{2\tau}{n} C_v,\quad
    C_p = \begin{cases}1 & k_l \ge 0\\ \cosh(\sqrt{-k_l}\,v_{\max}) & k_l < 0\end{cases},\quad
    C_v = \begin{cases}1 & k_l \ge 0\\ \frac{\sinh(\sqrt{-k_l}\,v_{\max})}{\sqrt{-k_l}\,v_{\max}} & k_l < 0\end{cases}

and for the pair :math:`\Delta_{p,v} = \sqrt{\Delta_p^2 + \Delta_v^2}`. With the paper's
:math:`v_{\max} = 2(\tau_m + \tau)` these are its Theorem 3.3 and its appendix-D eq. (44).
Derivation and the empirical (appendix G) check: ``docs/derivations/kng_regression.md``.
"""

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from geodp_core._validation import check_finite_array, check_int, check_real
from geodp_core.exceptions import ConvergenceError, InvalidParameterError
from geodp_core.geometry.base import Manifold
from geodp_core.geometry.functions import sinc as _sinc
from geodp_core.geometry.functions import sinhc as _sinhc
from geodp_core.geometry.functions import symmetric_2x2_eigenvalues
from geodp_core.geometry.functions import symmetric_eigh as _eigh
from geodp_core.geometry.functions import symmetrize as _sym

__all__ = [
    "GeodesicFit",
    "RegressionSensitivity",
    "predict",
    "residuals",
    "residual_norms",
    "energy",
    "energy_gradients",
    "exp_adjoints",
    "transport_along_geodesic",
    "mean_squared_prediction_error",
    "fit_geodesic_regression",
    "jacobi_bounds",
    "regression_sensitivities",
    "paper_sensitivities",
    "validate_covariates",
]


# ----------------------------------------------------------------- helpers
#: The closed forms of this module, by the space's :attr:`~geodp_core.geometry.base.Manifold.jacobi_model`.
_JACOBI_MODELS = ("quadric", "complex_projective", "affine_invariant", "flat_chart", "constant_curvature")


def _family(manifold):
    """The space's Jacobi model (which closed form of the differential of Exp applies)."""
    if manifold.jacobi_model not in _JACOBI_MODELS:
        raise InvalidParameterError(
            f"manifold must be a space with a closed-form differential of Exp (constant curvature, SPD, Kendall "
            f"shapes); got {manifold.label}",
            param="manifold",
        )
    return manifold.jacobi_model


def _curvature_trig(manifold, length):
    r""":math:`C_k(L)`, :math:`S_k(L)/L`, :math:`k S_k(L)` and :math:`S_k(L)` for the constant curvature :math:`k`
    of a quadric (:math:`\cos, \sin` for :math:`k = 1`, :math:`\cosh, \sinh` for :math:`k = -1`, :math:`1, L` flat)."""
    k = float(manifold.curvature_bounds[1])
    if k > 0:
        root = np.sqrt(k)
        sin = np.sin(root * length)
        return np.cos(root * length), _sinc(root * length), root * sin, sin / root
    if k < 0:
        root = np.sqrt(-k)
        sinh = np.sinh(root * length)
        return np.cosh(root * length), _sinhc(root * length), -root * sinh, sinh / root
    return np.ones_like(length), np.ones_like(length), np.zeros_like(length), length


def _check_manifold(manifold):
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (use geodp_core.geometry.get_manifold); got {manifold!r}",
            param="manifold",
        )
    _family(manifold)
    return manifold


def _npt(manifold):
    return len(manifold.point_shape)


def _expand(arr, manifold):
    """Append singleton axes so that a per-sample scalar broadcasts against points."""
    return np.asarray(arr)[(...,) + (None,) * _npt(manifold)]


def _project_tangent(manifold, base_point, vec):
    """Remove numerical drift off the tangent space (sphere / hyperboloid / symmetric matrices / horizontal space)."""
    return manifold.to_tangent(base_point, vec)


def _bundle_step(manifold, p, v, xi, zeta):
    r"""One move on the tangent bundle: :math:`p' = \mathrm{Exp}_p(\xi)`, :math:`v' = \Gamma_{p\to p'}(v + \zeta)`
    (parallel transport along the geodesic, then projected onto :math:`T_{p'}`); ``xi, zeta`` tangent at ``p``.
    Returns ``(p', v')``. Unvalidated (internal)."""
    geo = _Geodesic(manifold, p, xi)
    p_new = geo.end_point
    return p_new, _project_tangent(manifold, p_new, geo.transport(v + zeta))


class _Geodesic:
    r"""The geodesic :math:`t \mapsto \mathrm{Exp}_p(t w)` at :math:`t = 1` with its transport and Exp adjoints.

    ``base_point`` and ``tangent_vec`` broadcast over leading axes. Unvalidated (internal).
    """

    def __init__(self, manifold, base_point, tangent_vec):
        self.manifold = manifold
        self.family = _family(manifold)
        p = np.asarray(base_point, dtype=float)
        w = np.asarray(tangent_vec, dtype=float)
        shape = np.broadcast_shapes(p.shape, w.shape)
        p, w = np.broadcast_to(p, shape), np.broadcast_to(w, shape)
        self.base_point, self.tangent_vec = p, w
        if self.family == "quadric":
            length = manifold.norm(p, w)
            safe = np.where(length > 0, length, 1.0)
            u = np.where(length[..., None] > 0, w / safe[..., None], 0.0)
            c, s_over_l, k_s, _ = _curvature_trig(manifold, length)
            self.length, self.u = length, u
            self.c, self.s_over_l = c, s_over_l
            self.t_q = -k_s[..., None] * p + c[..., None] * u  # unit velocity at the end point
            self.end_point = manifold.exp(p, w, check=False)
        elif self.family == "affine_invariant":
            sqrt, invsqrt = manifold._sqrt_and_invsqrt(p)
            lam, vecs = np.linalg.eigh(_sym(invsqrt @ w @ invsqrt))
            self.sqrt, self.invsqrt, self.lam, self.vecs = sqrt, invsqrt, lam, vecs
            self.vecs_t = np.swapaxes(vecs, -1, -2)
            self.length = np.sqrt(np.sum(lam * lam, axis=-1))
            half_gap = 0.5 * (lam[..., :, None] - lam[..., None, :])
            self.c = np.cosh(half_gap)
            self.s_over_l = _sinhc(half_gap)
            self.half_exp = np.exp(0.5 * lam)
            mid = (vecs * np.exp(lam)[..., None, :]) @ self.vecs_t
            self.end_point = _sym(sqrt @ mid @ sqrt)
        elif self.family == "constant_curvature":
            length = manifold.norm(p, w)
            safe = np.where(length > 0, length, 1.0)
            self.length = length
            self.u = np.where(_expand(length, manifold) > 0, w / _expand(safe, manifold), 0.0)
            self.c, self.s_over_l = _curvature_trig(manifold, length)[:2]
            self.end_point = manifold.exp(p, w, check=False)
        elif self.family == "complex_projective":
            length = manifold.norm(p, w)[..., None, None]
            safe = np.where(length > 0, length, 1.0)
            self.length = length
            self.u = np.where(length > 0, w / safe, 0.0)
            self.t_q = -np.sin(length) * p + np.cos(length) * self.u  # unit velocity at the end point
            self.end_point = manifold.exp(p, w, check=False)
        else:
            self.end_point = manifold.exp(p, w, check=False)
            self.length = manifold.norm(p, w)

    def _kendall_move(self, vec, start, end, at):
        r"""Kendall: replace the components of ``vec`` along ``start`` and ``i start`` by the same along ``end``
        and ``i end`` (:math:`i` parallel, complement fixed); projected onto the horizontal space at ``at``."""
        m = self.manifold
        i_start, i_end = m.complex_structure(at, start), m.complex_structure(at, end)
        a = m.inner(at, vec, start)[..., None, None]
        b = m.inner(at, vec, i_start)[..., None, None]
        return _project_tangent(m, at, vec + a * (end - start) + b * (i_end - i_start))

    # transport of a vector at the base point to the end point, along the geodesic
    def transport(self, vec):
        vec = np.asarray(vec, dtype=float)
        m = self.manifold
        if self.family == "quadric":
            coef = m.inner(self.base_point, vec, self.u)
            out = vec + coef[..., None] * (self.t_q - self.u)
            return _project_tangent(m, self.end_point, out)
        if self.family == "complex_projective":
            return self._kendall_move(vec, self.u, self.t_q, self.end_point)
        if self.family == "constant_curvature":
            return _project_tangent(m, self.end_point, m.geodesic_transport(self.base_point, self.tangent_vec, vec))
        if self.family == "affine_invariant":
            rot = self.vecs_t @ (self.invsqrt @ vec @ self.invsqrt) @ self.vecs
            rot = rot * self.half_exp[..., :, None] * self.half_exp[..., None, :]
            return _sym(self.sqrt @ self.vecs @ rot @ self.vecs_t @ self.sqrt)
        return m.parallel_transport(self.base_point, self.end_point, vec)

    def _back_rotated(self, vec):
        """SPD affine: :math:`Q^T \\Gamma^{-1}` of a vector at the end point, in whitened eigen-coordinates."""
        rot = self.vecs_t @ (self.invsqrt @ vec @ self.invsqrt) @ self.vecs
        return rot / (self.half_exp[..., :, None] * self.half_exp[..., None, :])

    def transport_back(self, vec):
        vec = np.asarray(vec, dtype=float)
        m = self.manifold
        if self.family == "quadric":
            coef = m.inner(self.end_point, vec, self.t_q)
            out = vec + coef[..., None] * (self.u - self.t_q)
            return _project_tangent(m, self.base_point, out)
        if self.family == "complex_projective":
            return self._kendall_move(vec, self.t_q, self.u, self.base_point)
        if self.family == "constant_curvature":
            back = m.geodesic_transport(self.base_point, self.tangent_vec, vec, back=True)
            return _project_tangent(m, self.base_point, back)
        if self.family == "affine_invariant":
            return _sym(self.sqrt @ self.vecs @ self._back_rotated(vec) @ self.vecs_t @ self.sqrt)
        return m.parallel_transport(self.end_point, self.base_point, vec)

    def adjoints(self, vec):
        r""":math:`(d_p\mathrm{Exp}_p(w)^\dagger e,\ d_w\mathrm{Exp}_p(w)^\dagger e)` for ``vec`` = e at the end point."""
        vec = np.asarray(vec, dtype=float)
        m = self.manifold
        if self.family == "quadric":
            back = self.transport_back(vec)
            par = m.inner(self.base_point, back, self.u)[..., None] * self.u
            perp = back - par
            return par + self.c[..., None] * perp, par + self.s_over_l[..., None] * perp
        if self.family == "constant_curvature":
            back = self.transport_back(vec)
            par = _expand(m.inner(self.base_point, back, self.u), m) * self.u
            perp = back - par
            return par + _expand(self.c, m) * perp, par + _expand(self.s_over_l, m) * perp
        if self.family == "complex_projective":
            back = self.transport_back(vec)
            iu, length = m.complex_structure(self.base_point, self.u), self.length
            par = m.inner(self.base_point, back, self.u)[..., None, None] * self.u
            ipar = m.inner(self.base_point, back, iu)[..., None, None] * iu
            perp = back - par - ipar
            return (par + np.cos(2.0 * length) * ipar + np.cos(length) * perp,
                    par + _sinc(2.0 * length) * ipar + _sinc(length) * perp)
        if self.family == "affine_invariant":
            rot = self._back_rotated(vec)

            def unrotate(a):
                return _sym(self.sqrt @ self.vecs @ a @ self.vecs_t @ self.sqrt)

            return unrotate(self.c * rot), unrotate(self.s_over_l * rot)
        back = self.transport_back(vec)
        return back, back


def transport_along_geodesic(manifold, base_point, tangent_vec, vector):
    r"""Parallel transport of ``vector`` from :math:`p` along :math:`t \mapsto \mathrm{Exp}_p(t w)` to :math:`t = 1`.

    Along the geodesic actually traversed (on the sphere this differs from transport along the
    minimising geodesic when :math:`|w| > \pi`).

    Parameters
    ----------
    manifold : Manifold
    base_point : array_like, shape ``(*point_shape)``
    tangent_vec : array_like
        :math:`w \in T_pM`.
    vector : array_like
        The vector in :math:`T_pM` to transport.

    Returns
    -------
    ndarray
        A tangent vector at :math:`\mathrm{Exp}_p(w)`.
    """
    manifold = _check_manifold(manifold)
    p = manifold.validate_points(base_point, "base_point")
    w = manifold.validate_tangent(p, tangent_vec, "tangent_vec")
    z = manifold.validate_tangent(p, vector, "vector")
    return _Geodesic(manifold, p, w).transport(z)


def exp_adjoints(manifold, base_point, tangent_vec, residual):
    r"""Adjoints :math:`d_p\mathrm{Exp}(p, w)^\dagger e` and :math:`d_w\mathrm{Exp}(p, w)^\dagger e` (closed forms).

    Parameters
    ----------
    manifold : Manifold
    base_point : array_like
        :math:`p`.
    tangent_vec : array_like
        :math:`w \in T_pM`.
    residual : array_like
        :math:`e \in T_qM`, :math:`q = \mathrm{Exp}_p(w)`.

    Returns
    -------
    (ndarray, ndarray)
        Both in :math:`T_pM`.
    """
    manifold = _check_manifold(manifold)
    p = manifold.validate_points(base_point, "base_point")
    w = manifold.validate_tangent(p, tangent_vec, "tangent_vec")
    geo = _Geodesic(manifold, p, w)
    e = manifold.validate_tangent(geo.end_point, residual, "residual")
    return geo.adjoints(e)


# --------------------------------------------------------- validated inputs
def validate_covariates(x, name="x", n=None, unit_interval=False):
    """Covariates as a finite 1-D float array (optionally of length ``n`` and inside [0, 1])."""
    x = check_finite_array(x, name, ndim=1)
    if n is not None and x.shape[0] != n:
        raise InvalidParameterError(f"{name} must have length {n} (one covariate per response); got {x.shape[0]}",
                                    param=name)
    if unit_interval and x.size and (x.min() < 0.0 or x.max() > 1.0):
        bad = float(x[np.argmax((x < 0.0) | (x > 1.0))])
        raise InvalidParameterError(
            f"{name} must lie in [0, 1] after rescaling by the public covariate range; got {bad!r}", param=name
        )
    return x


def _validate_data(manifold, x, y, min_n=1):
    manifold = _check_manifold(manifold)
    y = manifold.validate_points(y, "y")
    if y.ndim != _npt(manifold) + 1:
        raise InvalidParameterError(
            f"y must be a batch of points of shape (n, {', '.join(map(str, manifold.point_shape))}); "
            f"got shape {y.shape}",
            param="y",
        )
    if y.shape[0] < min_n:
        raise InvalidParameterError(f"y must contain at least {min_n} responses (n >= {min_n}); got {y.shape[0]}",
                                    param="y")
    x = validate_covariates(x, "x", n=y.shape[0])
    return manifold, x, y


def _validate_params(manifold, footpoint, shooting_vector):
    p = manifold.validate_points(footpoint, "footpoint")
    v = manifold.validate_tangent(p, shooting_vector, "shooting_vector")
    if p.shape[: p.ndim - _npt(manifold)] != v.shape[: v.ndim - _npt(manifold)]:
        raise InvalidParameterError(
            f"footpoint and shooting_vector must have the same batch shape; got {p.shape} and {v.shape}",
            param="shooting_vector",
        )
    return p, v


def _check_tau(tau, name="tau"):
    return None if tau is None else check_real(tau, name, low=0.0)


# ------------------------------------------------------------- core (batched)
def _predict(manifold, p, v, x):
    """Predictions ``(..., m, *ps)`` for parameters ``(..., *ps)`` and covariates ``(m,)``."""
    pe = np.expand_dims(p, -_npt(manifold) - 1)
    w = _expand(x, manifold) * np.expand_dims(v, -_npt(manifold) - 1)
    return manifold.exp(np.broadcast_to(pe, w.shape), w, check=False)


def _clip_factor(norms, tau):
    if tau is None:
        return np.ones_like(norms)
    return np.minimum(1.0, tau / np.maximum(norms, 1e-300))


class _Gradients(NamedTuple):
    footpoint: np.ndarray  # (k, *ps)
    shooting: np.ndarray  # (k, *ps)
    footpoint_norm: np.ndarray  # (k,)
    shooting_norm: np.ndarray  # (k,)
    residual_norms: np.ndarray  # (k, n)


def _dot(manifold, a, b):
    """The ambient (Euclidean or Minkowski) form of a quadric, i.e. its metric on tangent vectors."""
    return manifold.ambient_inner(a, b)


def _gradients_constant(manifold, p, v, x, y, tau):
    """Lean ambient-coordinate gradients on the sphere, the hyperboloid and Euclidean space."""
    speed = np.sqrt(np.maximum(_dot(manifold, v, v), 0.0))  # (k,)
    safe = np.where(speed > 0, speed, 1.0)
    u = (v / safe[:, None])[:, None, :] * (speed > 0)[:, None, None]  # (k, 1, D)
    pe = p[:, None, :]
    length = x[None, :] * speed[:, None]  # (k, n)
    # q = C_k(L) p + S_k(L) u and its unit velocity t_q = -k S_k(L) p + C_k(L) u (flat: q = p + L u, t_q = u)
    c_l, s_over_l, k_s, s_l = _curvature_trig(manifold, length)
    q = manifold.projection(c_l[..., None] * pe + s_l[..., None] * u)
    t_q = np.broadcast_to(-k_s[..., None] * pe + c_l[..., None] * u, q.shape)
    e = manifold.log(q, np.broadcast_to(y, q.shape), check=False)
    norms = np.sqrt(np.maximum(_dot(manifold, e, e), 0.0))
    if tau is not None:
        e = e * _clip_factor(norms, tau)[..., None]
    along = _dot(manifold, e, t_q)  # (k, n)
    perp = e - along[..., None] * t_q  # orthogonal to span(p, u): unchanged by the transport back
    g_p = -(np.mean(along, axis=1)[:, None] * u[:, 0] + np.mean(c_l[..., None] * perp, axis=1))
    g_v = -(np.mean(x * along, axis=1)[:, None] * u[:, 0]
            + np.mean((x * s_over_l)[..., None] * perp, axis=1))
    g_p = _project_tangent(manifold, p, g_p)
    g_v = _project_tangent(manifold, p, g_v)
    norm_p = np.sqrt(np.maximum(_dot(manifold, g_p, g_p), 0.0))
    norm_v = np.sqrt(np.maximum(_dot(manifold, g_v, g_v), 0.0))
    return _Gradients(g_p, g_v, norm_p, norm_v, norms)


def _whitened_velocity(p, v):
    r""":math:`P^{1/2}`, :math:`P^{-1/2}` and the eigendecomposition :math:`Q\Lambda Q^T` of :math:`P^{-1/2}vP^{-1/2}`."""
    lam_p, vec_p = _eigh(p)
    vec_p_t = np.swapaxes(vec_p, -1, -2)
    sqrt_p = (vec_p * np.sqrt(lam_p)[..., None, :]) @ vec_p_t
    isqrt_p = (vec_p / np.sqrt(lam_p)[..., None, :]) @ vec_p_t
    lam, vecs = _eigh(isqrt_p @ v @ isqrt_p)
    return sqrt_p, isqrt_p, lam, vecs


def _gradients_spd_affine(manifold, p, v, x, y, tau):
    r"""Whitened gradients on SPD(m) affine: everything at the identity after :math:`P^{-1/2}\cdot P^{-1/2}`.

    With :math:`P^{-1/2} v P^{-1/2} = Q\Lambda Q^T`, the prediction at :math:`x_i` whitens to
    :math:`Q e^{x_i\Lambda} Q^T`; the residual transported back to the identity, in the eigenbasis,
    is :math:`Q^T \log(q_i^{-1/2}\tilde y_i q_i^{-1/2}) Q`.
    """
    sqrt_p, isqrt_p, lam, vecs = _whitened_velocity(p, v)  # lam (k, m), vecs (k, m, m)
    vecs_t = np.swapaxes(vecs, -1, -2)
    y_rot = vecs_t[:, None] @ (isqrt_p[:, None] @ y[None] @ isqrt_p[:, None]) @ vecs[:, None]  # (k, n, m, m)
    half = np.exp(-0.5 * x[None, :, None] * lam[:, None, :])  # (k, n, m)
    inner = half[..., :, None] * y_rot * half[..., None, :]
    mu, rot = _eigh(inner)
    log_mu = np.log(mu)
    resid = (rot * log_mu[..., None, :]) @ np.swapaxes(rot, -1, -2)  # residual, rotated & transported back
    norms = np.sqrt(np.sum(log_mu * log_mu, axis=-1))
    if tau is not None:
        resid = resid * _clip_factor(norms, tau)[..., None, None]
    gap = 0.5 * x[None, :, None, None] * (lam[:, None, :, None] - lam[:, None, None, :])
    rot_p = -np.mean(np.cosh(gap) * resid, axis=1)  # (k, m, m)
    rot_v = -np.mean(x[None, :, None, None] * _sinhc(gap) * resid, axis=1)
    norm_p = np.sqrt(np.sum(rot_p * rot_p, axis=(-1, -2)))
    norm_v = np.sqrt(np.sum(rot_v * rot_v, axis=(-1, -2)))
    outer = sqrt_p @ vecs
    outer_t = np.swapaxes(outer, -1, -2)
    return _Gradients(_sym(outer @ rot_p @ outer_t), _sym(outer @ rot_v @ outer_t), norm_p, norm_v, norms)


def _gradients_spd2_affine(manifold, p, v, x, y, tau):
    r""":func:`_gradients_spd_affine` on SPD(2), with every per-residual step written out on the entries.

    With :math:`R = P^{-1/2}Q`, the whitened rotated response is :math:`Z_i = R^T y_i R` and
    :math:`A_i = e^{-x_i\Lambda/2} Z_i e^{-x_i\Lambda/2}`. A symmetric 2×2 matrix with eigenvalues
    :math:`\mu_\pm = m \pm r` has :math:`\log A = \tfrac12(\log\mu_- + \log\mu_+) I + s\,(A - mI)`,
    :math:`s = (\log\mu_+ - \log\mu_-)/(2r) = \operatorname{log1p}(2r/\mu_-)/(2r)` (:math:`1/\mu_-` at
    :math:`r = 0`), so the :math:`n` residuals cost elementwise operations only, no batched matrix products.
    """
    sqrt_p, isqrt_p, lam, vecs = _whitened_velocity(p, v)
    r = isqrt_p @ vecs
    r00, r01, r10, r11 = (r[:, i, j, None] for i, j in ((0, 0), (0, 1), (1, 0), (1, 1)))  # (k, 1)
    ya, yb, yd = y[None, :, 0, 0], 0.5 * (y[None, :, 0, 1] + y[None, :, 1, 0]), y[None, :, 1, 1]  # (1, n)
    h0 = np.exp(-0.5 * x[None, :] * lam[:, 0, None])  # (k, n)
    h1 = np.exp(-0.5 * x[None, :] * lam[:, 1, None])
    a = h0 * h0 * (r00 * r00 * ya + 2.0 * r00 * r10 * yb + r10 * r10 * yd)
    d = h1 * h1 * (r01 * r01 * ya + 2.0 * r01 * r11 * yb + r11 * r11 * yd)
    b = h0 * h1 * (r00 * r01 * ya + (r00 * r11 + r10 * r01) * yb + r10 * r11 * yd)
    low, high = symmetric_2x2_eigenvalues(a, b, d)
    half, radius = 0.5 * (a - d), 0.5 * (high - low)
    log_low = np.log(low)
    spread = np.log1p(2.0 * radius / low)  # log mu_+ - log mu_-
    slope = np.where(radius > 0, spread / np.where(radius > 0, 2.0 * radius, 1.0), 1.0 / low)
    centre = log_low + 0.5 * spread
    norms = np.sqrt(log_low * log_low + (log_low + spread) ** 2)
    factor = _clip_factor(norms, tau)
    e00, e11, e01 = factor * (centre + slope * half), factor * (centre - slope * half), factor * slope * b
    gap = 0.5 * x[None, :] * (lam[:, 0, None] - lam[:, 1, None])
    rot_p = -np.stack([np.mean(e00, axis=1), np.mean(np.cosh(gap) * e01, axis=1), np.mean(e11, axis=1)], axis=-1)
    rot_v = -np.stack([np.mean(x * e00, axis=1), np.mean(x * _sinhc(gap) * e01, axis=1),
                       np.mean(x * e11, axis=1)], axis=-1)
    outer = sqrt_p @ vecs
    outer_t = np.swapaxes(outer, -1, -2)

    def full(entries):
        return np.stack([entries[:, :2], entries[:, 1:]], axis=-2)  # (k, 3) -> (k, 2, 2)

    def norm(entries):
        return np.sqrt(entries[:, 0] ** 2 + 2.0 * entries[:, 1] ** 2 + entries[:, 2] ** 2)

    return _Gradients(_sym(outer @ full(rot_p) @ outer_t), _sym(outer @ full(rot_v) @ outer_t), norm(rot_p),
                      norm(rot_v), norms)


def _gradients_kendall(manifold, p, v, x, y, tau):
    r"""Lean gradients on Kendall shape space (the adjoints of the module docstring), by matrix products.

    With :math:`q_i = \cos(x_iL)p + \sin(x_iL)u`, :math:`t_i = -\sin(x_iL)p + \cos(x_iL)u` and the complex
    products :math:`a_i = \langle p, y_i\rangle`, :math:`b_i = \langle u, y_i\rangle`, everything is a function of
    :math:`c_i = \langle q_i, y_i\rangle = \cos(x_iL) a_i + \sin(x_iL) b_i`: the residual is
    :math:`e_i = s_i(\bar\phi_i y_i - |c_i| q_i)` (:math:`\phi_i = c_i/|c_i|`, :math:`s_i = \theta_i/\sin\theta_i` times
    the clipping factor, :math:`\theta_i = \arccos|c_i|`), its component along :math:`t_i` is
    :math:`\beta_i = \langle t_i, e_i\rangle = s_i\bar\phi_i(-\sin(x_iL) a_i + \cos(x_iL) b_i)` and the rest
    :math:`r_i = e_i - \beta_i t_i` is a combination of :math:`y_i`, :math:`p`, :math:`u`. Then
    :math:`d_p\mathrm{Exp}^\dagger e_i = (\mathrm{Re}\,\beta_i + i\cos(2x_iL)\,\mathrm{Im}\,\beta_i)u + \cos(x_iL) r_i`,
    and the same with :math:`\sin(2x_iL)/(2x_iL)`, :math:`\sin(x_iL)/(x_iL)` for :math:`d_w`. Cost
    :math:`O(Knk)` in three complex matrix products. Residual lengths come from :math:`\sqrt{1 - |c_i|^2}`
    (absolute accuracy about 1e-8 for residuals near 0; they only set the clipping factor).
    """
    pc = p[..., 0] + 1j * p[..., 1]  # (K, k)
    vc = v[..., 0] + 1j * v[..., 1]
    yc = y[..., 0] + 1j * y[..., 1]  # (n, k)
    speed = np.sqrt(np.sum(vc.real**2 + vc.imag**2, axis=-1))  # (K,)
    u = vc / np.where(speed > 0, speed, 1.0)[:, None]
    length = x[None, :] * speed[:, None]  # (K, n)
    cos_l, sin_l = np.cos(length), np.sin(length)
    a = np.conj(pc) @ yc.T  # (K, n)
    b = np.conj(u) @ yc.T
    c = cos_l * a + sin_l * b
    mod = np.abs(c)
    conj_phase = np.where(mod > 0, np.conj(c) / np.where(mod > 0, mod, 1.0), 1.0)
    sin_d = np.sqrt(np.maximum(1.0 - mod * mod, 0.0))
    norms = np.arctan2(sin_d, mod)
    scale = np.where(sin_d > 0, norms / np.where(sin_d > 0, sin_d, 1.0), 1.0) * _clip_factor(norms, tau)
    beta = scale * conj_phase * (-sin_l * a + cos_l * b)
    n = x.shape[0]

    def mean_rest(weights):
        r""":math:`\frac1n\sum_i w_i r_i` for real weights ``(K, n)``."""
        on_y = ((weights * scale) * conj_phase) @ yc / n
        on_p = np.mean(weights * (-scale * mod * cos_l + beta * sin_l), axis=1)
        on_u = np.mean(weights * (-scale * mod * sin_l - beta * cos_l), axis=1)
        return on_y + on_p[:, None] * pc + on_u[:, None] * u

    coef_p = np.mean(beta.real + 1j * np.cos(2.0 * length) * beta.imag, axis=1)
    coef_v = np.mean(x * (beta.real + 1j * _sinc(2.0 * length) * beta.imag), axis=1)
    g_p = -(coef_p[:, None] * u + mean_rest(cos_l))
    g_v = -(coef_v[:, None] * u + mean_rest(x * _sinc(length)))
    g_p = _project_tangent(manifold, p, np.stack([g_p.real, g_p.imag], axis=-1))
    g_v = _project_tangent(manifold, p, np.stack([g_v.real, g_v.imag], axis=-1))
    return _Gradients(g_p, g_v, manifold.norm(p, g_p), manifold.norm(p, g_v), norms)


def _gradients(manifold, p, v, x, y, tau=None):
    r"""Batched (clipped) gradients for parameters ``p, v`` of shape ``(k, *ps)``; ``x`` ``(n,)``, ``y`` ``(n, *ps)``.

    Returns a :class:`_Gradients` tuple (vectors ``(k, *ps)``, their norms ``(k,)``, residual norms ``(k, n)``).
    """
    family = _family(manifold)
    if family == "quadric":
        return _gradients_constant(manifold, p, v, x, y, tau)
    if family == "affine_invariant":
        lean = _gradients_spd2_affine if manifold.point_shape[-1] == 2 else _gradients_spd_affine
        return lean(manifold, p, v, x, y, tau)
    if family == "complex_projective":
        return _gradients_kendall(manifold, p, v, x, y, tau)
    k = _npt(manifold)
    pe = np.expand_dims(p, -k - 1)
    w = _expand(x, manifold) * np.expand_dims(v, -k - 1)
    geo = _Geodesic(manifold, pe, w)
    e = manifold.log(geo.end_point, np.broadcast_to(y, geo.end_point.shape), check=False)
    norms = manifold.norm(geo.end_point, e)
    e = e * _expand(_clip_factor(norms, tau), manifold)
    adj_p, adj_w = geo.adjoints(e)
    g_p = -np.mean(adj_p, axis=-k - 1)
    g_v = -np.mean(_expand(x, manifold) * adj_w, axis=-k - 1)
    return _Gradients(g_p, g_v, manifold.norm(p, g_p), manifold.norm(p, g_v), norms)


def _energy(manifold, p, v, x, y, tau=None):
    k = _npt(manifold)
    pred = _predict(manifold, p, v, x)
    d = manifold.dist(pred, np.broadcast_to(y, pred.shape), check=False)
    if tau is None:
        loss = 0.5 * d * d
    else:
        loss = np.where(d <= tau, 0.5 * d * d, tau * d - 0.5 * tau * tau)
    del k
    return np.mean(loss, axis=-1)


# ----------------------------------------------------------------- public API
def predict(manifold, footpoint, shooting_vector, x):
    r"""Predictions :math:`\mathrm{Exp}(p, x_j v)` of the geodesic model.

    Parameters
    ----------
    manifold : Manifold
    footpoint : array_like, shape ``(*point_shape)`` or ``(k, *point_shape)``
    shooting_vector : array_like, same shape, tangent at ``footpoint``
    x : array_like, shape ``(m,)``
        Covariates (any finite reals).

    Returns
    -------
    ndarray, shape ``(m, *point_shape)`` or ``(k, m, *point_shape)``
    """
    manifold = _check_manifold(manifold)
    p, v = _validate_params(manifold, footpoint, shooting_vector)
    x = validate_covariates(x)
    return _predict(manifold, p, v, x)


def residuals(manifold, footpoint, shooting_vector, x, y):
    r"""Residual vectors :math:`\varepsilon_i = \mathrm{Log}(\mathrm{Exp}(p, x_i v), y_i)`, shape ``(n, *point_shape)``."""
    manifold, x, y = _validate_data(manifold, x, y)
    p, v = _validate_params(manifold, footpoint, shooting_vector)
    pred = _predict(manifold, p, v, x)
    return manifold.log(pred, np.broadcast_to(y, pred.shape), check=False)


def residual_norms(manifold, footpoint, shooting_vector, x, y):
    r"""Residual lengths :math:`|\varepsilon_i| = d(\mathrm{Exp}(p, x_i v), y_i)`, shape ``(n,)`` (or ``(k, n)``)."""
    manifold, x, y = _validate_data(manifold, x, y)
    p, v = _validate_params(manifold, footpoint, shooting_vector)
    pred = _predict(manifold, p, v, x)
    return manifold.dist(pred, np.broadcast_to(y, pred.shape), check=False)


def energy(manifold, footpoint, shooting_vector, x, y, tau=None):
    r"""Least-squares energy :math:`E(p, v) = \frac1{2n}\sum_i d_i^2`, or the Huber energy when ``tau`` is given.

    .. math::
        E_\tau(p, v) = \frac1n \sum_i H_\tau(d_i),\qquad
        H_\tau(r) = \begin{cases} r^2/2 & r \le \tau \\ \tau r - \tau^2/2 & r > \tau \end{cases}

    whose gradient uses the residuals clipped at :math:`\tau`.

    Returns
    -------
    float or ndarray of shape ``(k,)`` for batched parameters.
    """
    manifold, x, y = _validate_data(manifold, x, y)
    p, v = _validate_params(manifold, footpoint, shooting_vector)
    tau = _check_tau(tau)
    out = _energy(manifold, p, v, x, y, tau)
    return float(out) if np.ndim(out) == 0 else out


def mean_squared_prediction_error(manifold, footpoint, shooting_vector, x, y):
    r"""Mean squared prediction error :math:`\frac1n\sum_i d(\mathrm{Exp}(p, x_i v), y_i)^2 = 2E(p, v)`.

    Batched over leading axes of ``footpoint`` / ``shooting_vector`` (one value per fit).
    """
    manifold, x, y = _validate_data(manifold, x, y)
    p, v = _validate_params(manifold, footpoint, shooting_vector)
    out = 2.0 * _energy(manifold, p, v, x, y)
    return float(out) if np.ndim(out) == 0 else out


def energy_gradients(manifold, footpoint, shooting_vector, x, y, tau=None):
    r"""Riemannian gradients :math:`(\nabla_p E, \nabla_v E)` (closed-form Exp adjoints).

    With ``tau`` the residuals are clipped at :math:`\tau` (gradients of the Huber energy),
    which is what the private mechanism uses.

    Parameters
    ----------
    manifold : Manifold
    footpoint, shooting_vector : array_like
        :math:`p` and :math:`v \in T_pM` (optionally batched, ``(k, *point_shape)``).
    x : array_like, shape ``(n,)``
    y : array_like, shape ``(n, *point_shape)``
    tau : float, optional
        Residual clipping level :math:`\tau > 0`.

    Returns
    -------
    (ndarray, ndarray)
        :math:`\nabla_p E \in T_pM` and :math:`\nabla_v E \in T_pM`.
    """
    manifold, x, y = _validate_data(manifold, x, y)
    p, v = _validate_params(manifold, footpoint, shooting_vector)
    tau = _check_tau(tau)
    batched = p.ndim > _npt(manifold)
    grads = _gradients(manifold, p if batched else p[None], v if batched else v[None], x, y, tau)
    if batched:
        return grads.footpoint, grads.shooting
    return grads.footpoint[0], grads.shooting[0]


# ------------------------------------------------------------ non-private fit
@dataclass(frozen=True)
class GeodesicFit:
    """Non-private least-squares geodesic fit.

    Attributes
    ----------
    footpoint, shooting_vector : ndarray
        :math:`(\\hat p, \\hat v)`.
    energy : float
        :math:`E(\\hat p, \\hat v)`.
    gradient_norm : float
        :math:`\\sqrt{|\\nabla_p E|^2 + |\\nabla_v E|^2}` at the fit.
    n_iter : int
    converged : bool
    """

    footpoint: np.ndarray
    shooting_vector: np.ndarray
    energy: float
    gradient_norm: float
    n_iter: int
    converged: bool


def _initial_guess(manifold, x, y):
    """Least squares in the tangent space at the response whose covariate is closest to the median."""
    base = y[int(np.argmin(np.abs(x - np.median(x))))]
    coords = manifold.to_frame(base, manifold.log(base, y, check=False))  # (n, d)
    design = np.stack([np.ones_like(x), x], axis=1)
    coef, *_ = np.linalg.lstsq(design, coords, rcond=None)
    intercept = manifold.from_frame(base, coef[0])
    slope = manifold.from_frame(base, coef[1])
    geo = _Geodesic(manifold, base, intercept)
    return geo.end_point, geo.transport(slope)


def _gauss_newton_direction(manifold, p, v, x, y):
    r"""Gauss–Newton step :math:`(\delta p, \delta v)` in :math:`T_pM \times T_pM` (unbatched ``p, v``).

    Linearises :math:`\varepsilon_i(p \oplus \delta p, v \oplus \delta v) \approx \varepsilon_i
    - d_p\mathrm{Exp}\,\delta p - x_i\, d_w\mathrm{Exp}\,\delta v` in the frame transported along each
    geodesic; the rows of the Jacobi maps come from the adjoints applied to the transported frame.
    """
    d = manifold.dim
    frame = manifold.tangent_frame(p)  # (d, *ps)
    k = _npt(manifold)
    w = _expand(x, manifold) * v
    geo = _Geodesic(manifold, np.broadcast_to(p, w.shape), w)
    e = manifold.log(geo.end_point, y, check=False)
    back = geo.transport_back(e)  # (n, *ps)
    r = manifold.to_frame(p, back)  # (n, d)
    moved = geo.transport(np.expand_dims(frame, -k - 1))  # (d, n, *ps)
    adj_p, adj_w = geo.adjoints(moved)
    rows_p = manifold.to_frame(p, adj_p)  # (d_l, n, d_j): row l of F_p for each i
    rows_w = manifold.to_frame(p, adj_w)
    jac = np.concatenate([np.moveaxis(rows_p, 0, 1), x[:, None, None] * np.moveaxis(rows_w, 0, 1)], axis=2)
    normal = np.einsum("nla,nlb->ab", jac, jac)
    rhs = np.einsum("nla,nl->a", jac, r)
    try:
        delta = np.linalg.solve(normal + 1e-12 * np.trace(normal) * np.eye(2 * d), rhs)
    except np.linalg.LinAlgError:  # pragma: no cover - singular design is rejected earlier
        return None
    return manifold.from_frame(p, delta[:d]), manifold.from_frame(p, delta[d:])


def fit_geodesic_regression(manifold, x, y, max_iter=200, tol=1e-10, init=None):
    r"""Least-squares geodesic regression (Fletcher 2011) by safeguarded Gauss–Newton on the tangent bundle.

    Minimises :math:`E(p, v)` starting from a tangent-space least-squares fit. Each iteration
    takes the Gauss–Newton direction :math:`(\delta p, \delta v)` (falling back to the negative
    gradient when it is not a descent direction) and updates

    .. math::
        p \leftarrow \mathrm{Exp}_p(t\,\delta p),\qquad v \leftarrow \Gamma\big(v + t\,\delta v\big)

    (:math:`\Gamma` the transport along the step) with Armijo backtracking on :math:`t`. Fletcher
    uses plain gradient descent; the minimiser is the same, Gauss–Newton needs far fewer steps.

    Parameters
    ----------
    manifold : Manifold
    x : array_like, shape ``(n,)``
        Covariates; at least two distinct values.
    y : array_like, shape ``(n, *point_shape)``
    max_iter : int, default 200
    tol : float, default 1e-10
        Stop when :math:`\sqrt{|\nabla_p E|^2 + |\nabla_v E|^2} \le` ``tol`` (or no further decrease
        is possible in floating point).
    init : (array_like, array_like), optional
        Starting :math:`(p, v)`; default the tangent-space least-squares fit.

    Returns
    -------
    GeodesicFit

    Raises
    ------
    ConvergenceError
        If no descent step can be found away from a stationary point.
    """
    manifold, x, y = _validate_data(manifold, x, y, min_n=2)
    max_iter = check_int(max_iter, "max_iter", low=1, high=10_000_000)
    tol = check_real(tol, "tol", low=0.0)
    if np.ptp(x) == 0.0:
        raise InvalidParameterError(f"x must take at least two distinct values; all equal {x[0]!r}", param="x")
    if init is None:
        p, v = _initial_guess(manifold, x, y)
    else:
        if not isinstance(init, (tuple, list)) or len(init) != 2:
            raise InvalidParameterError("init must be a pair (footpoint, shooting_vector)", param="init")
        p = manifold.validate_points(init[0], "init", single=True)
        v = manifold.validate_tangent(p, init[1], "init")
    value = float(_energy(manifold, p[None], v[None], x, y)[0])
    converged = False
    grad_norm = np.inf
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        grads = _gradients(manifold, p[None], v[None], x, y)
        g_p, g_v = grads.footpoint[0], grads.shooting[0]
        sq = float(manifold.inner(p, g_p, g_p) + manifold.inner(p, g_v, g_v))
        grad_norm = np.sqrt(max(sq, 0.0))
        if grad_norm <= tol:
            converged = True
            break
        direction = _gauss_newton_direction(manifold, p, v, x, y)
        slope = None
        if direction is not None:
            slope = float(manifold.inner(p, g_p, direction[0]) + manifold.inner(p, g_v, direction[1]))
        if direction is None or not slope < 0:
            direction, slope = (-g_p, -g_v), -sq
        step, accepted = 1.0, False
        for _ in range(60):
            geo = _Geodesic(manifold, p, step * direction[0])
            p_new = geo.end_point
            v_new = _project_tangent(manifold, p_new, geo.transport(v + step * direction[1]))
            new_value = float(_energy(manifold, p_new[None], v_new[None], x, y)[0])
            if new_value <= value + 1e-4 * step * slope:
                accepted = True
                break
            step *= 0.5
        if not accepted or new_value >= value:
            # no decrease representable in floating point: stationary to numerical accuracy
            converged = grad_norm <= max(tol, 1e-6 * (1.0 + np.sqrt(value)))
            if converged:
                break
            raise ConvergenceError(
                f"geodesic regression: no descent step found at iteration {n_iter} (gradient norm {grad_norm:.3g})"
            )
        p, v, value = p_new, v_new, new_value
    return GeodesicFit(
        footpoint=p, shooting_vector=v, energy=float(value), gradient_norm=float(grad_norm),
        n_iter=n_iter, converged=converged,
    )


# --------------------------------------------------------------- sensitivity
class RegressionSensitivity(NamedTuple):
    """Sensitivities of the (clipped) regression gradients; see :func:`regression_sensitivities`."""

    footpoint: float
    shooting: float
    joint: float
    jacobi_footpoint: float
    jacobi_shooting: float


def jacobi_bounds(curvature_lower, max_speed):
    r"""Operator-norm bounds :math:`(C_p, C_v)` of :math:`d_p\mathrm{Exp}(p, w)` and :math:`d_w\mathrm{Exp}(p, w)`.

    For sectional curvature :math:`\ge k_l` and :math:`|w| \le v_{\max}`:
    :math:`C_p = \max(1, \cosh(\sqrt{-k_l} v_{\max}))`,
    :math:`C_v = \max(1, \sinh(\sqrt{-k_l} v_{\max})/(\sqrt{-k_l} v_{\max}))` (both 1 when :math:`k_l \ge 0`).
    """
    k_l = check_real(curvature_lower, "curvature_lower")
    max_speed = check_real(max_speed, "max_speed", low=0.0)
    if k_l >= 0:
        return 1.0, 1.0
    a = np.sqrt(-k_l) * max_speed
    return float(np.cosh(a)), float(_sinhc(a))


def regression_sensitivities(n, tau, curvature_lower, max_speed):
    r"""Global sensitivities of the clipped regression gradients (valid for every :math:`(p, v)` in the domain).

    .. math::
        \Delta_p = \frac{2\tau C_p}{n},\qquad \Delta_v = \frac{2\tau C_v}{n},\qquad
        \Delta_{p,v} = \sqrt{\Delta_p^2 + \Delta_v^2},

    for neighbouring datasets (one record :math:`(x_i, y_i)` replaced), covariates in [0, 1],
    residuals clipped at :math:`\tau`, :math:`|v| \le v_{\max}` and curvature :math:`\ge k_l`
    (:func:`jacobi_bounds`).

    Parameters
    ----------
    n : int
        Number of records, :math:`n \ge 2`.
    tau : float
        Public residual bound / clipping level, :math:`\tau > 0`.
    curvature_lower : float
        :math:`k_l`.
    max_speed : float
        :math:`v_{\max} > 0`.

    Returns
    -------
    RegressionSensitivity
    """
    n = check_int(n, "n", low=2)
    tau = check_real(tau, "tau", low=0.0)
    c_p, c_v = jacobi_bounds(curvature_lower, max_speed)
    delta_p = 2.0 * tau * c_p / n
    delta_v = 2.0 * tau * c_v / n
    return RegressionSensitivity(delta_p, delta_v, float(np.hypot(delta_p, delta_v)), c_p, c_v)


def paper_sensitivities(n, tau, curvature_lower, data_radius):
    r"""The DP-regression paper's own sensitivity statements (for comparison; :math:`\tau_m` = data radius).

    Returns a dict with

    * ``"footpoint"`` — Theorem 3.3: :math:`\frac{2\tau}{n}\cosh(2\sqrt{-k_l}(\tau_m+\tau))` (:math:`k_l<0`);
    * ``"shooting_eq20"`` — eq. (20): :math:`\tau\sinh(2a)/(\sqrt{-k_l}(\tau_m+\tau))`, no :math:`1/n`;
    * ``"shooting_appendix"`` — eq. (44) / appendix F: :math:`\tau\sinh(2a)/(n\sqrt{-k_l}(\tau_m+\tau))`;
    * ``"shooting_theorem_d1"`` — Theorem D.1: :math:`\frac{2\tau}{n}\sinh(\sqrt{-k_l}\tau)/\sqrt{-k_l}`,

    with :math:`a = \sqrt{-k_l}(\tau_m + \tau)`; all equal :math:`2\tau/n` when :math:`k_l \ge 0`.
    Only ``"footpoint"`` and ``"shooting_appendix"`` are valid (they equal :func:`regression_sensitivities`
    with :math:`v_{\max} = 2(\tau_m + \tau)`).
    """
    n = check_int(n, "n", low=2)
    tau = check_real(tau, "tau", low=0.0)
    k_l = check_real(curvature_lower, "curvature_lower")
    data_radius = check_real(data_radius, "data_radius", low=0.0, low_closed=True)
    if k_l >= 0:
        value = 2.0 * tau / n
        return {"footpoint": value, "shooting_eq20": value, "shooting_appendix": value, "shooting_theorem_d1": value}
    root = np.sqrt(-k_l)
    a = root * (data_radius + tau)
    return {
        "footpoint": float(2.0 * tau / n * np.cosh(2.0 * a)),
        "shooting_eq20": float(tau * np.sinh(2.0 * a) / (root * (data_radius + tau))),
        "shooting_appendix": float(tau * np.sinh(2.0 * a) / (n * root * (data_radius + tau))),
        "shooting_theorem_d1": float(2.0 * tau / n * np.sinh(root * tau) / root),
    }
