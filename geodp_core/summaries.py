r"""Summaries of manifold-valued data and their sensitivity (docs/specification.md §3).

* :func:`frechet_mean` and :func:`p_mean`: the (weighted) Fréchet mean and the
  generalized :math:`p`-mean

  .. math::
      \mu_p(D) = \operatorname*{argmin}_{y \in M} F_p(y), \qquad
      F_p(y) = \frac1p \sum_i w_i\, d(y, x_i)^p, \qquad \sum_i w_i = 1,

  computed by safeguarded Riemannian (Weiszfeld-type) gradient descent.
* :func:`frechet_mean_sensitivity` (Reimherr et al. 2021) and
  :func:`p_mean_sensitivity` (heat-diffusion paper, Theorems 13, 15, 16): global
  sensitivities in Riemannian distance for data in a PUBLIC ball :math:`B(m_0, r)`.
* :func:`validate_public_ball` and :func:`empirical_sensitivity` (appendix-G
  style check that a theoretical bound dominates the worst observed change).

Derivations, validity conditions and what was checked: ``docs/derivations/sensitivity.md``.
Geodesic-regression energies live in a separate module.
"""

import math
from typing import NamedTuple

import numpy as np

from geodp_core._validation import check_finite_array, check_int, check_real, check_rng
from geodp_core.exceptions import (
    ConvergenceError,
    InvalidParameterError,
    NonUniqueMeanError,
    NumericalOverflowError,
    OutsideBallError,
)
from geodp_core.geometry.base import Manifold
from geodp_core.geometry.euclidean import Euclidean
from geodp_core.geometry.spd import SPDLogCholesky, SPDLogEuclidean

__all__ = [
    "frechet_mean",
    "p_mean",
    "frechet_mean_sensitivity",
    "p_mean_sensitivity",
    "p_mean_sensitivity_theorem",
    "validate_public_ball",
    "empirical_sensitivity",
    "EmpiricalSensitivity",
]

#: Largest exponent of :func:`p_mean` (beyond, d^p leaves the double range unless every distance is below 2).
P_MEAN_MAX = 1000.0
DEFAULT_MAX_ITER = 1000
DEFAULT_TOL = 1e-10
_ARMIJO_C = 0.25  # sufficient-decrease constant: on a quadratic, accepts steps up to 1.5x the line minimiser
_MAX_HALVINGS = 50
_COINCIDENT_RTOL = 1e-14  # a data point closer than this (relative) to the iterate "is" the iterate
_WEISZFELD_FLOOR = 1e-8  # distances floored at this (relative) in the Weiszfeld step normaliser only
_PINNED_NORMALISER = 1e2  # p < 2: look for a minimiser pinned to a data point once A exceeds this (relative)
_NEWTON_MAX_DIM = 200  # 1 < p < 2: preconditioned (flat Hessian) directions up to this dimension
_RESOLUTION = 8.0 * np.finfo(float).eps  # steps below this (relative to unit-scale coordinates) cannot be taken
_BALL_RTOL = 1e-9  # tolerance of the "data inside the public ball" check


# ----------------------------------------------------------------- validation
def _check_manifold(manifold):
    if not isinstance(manifold, Manifold):
        raise InvalidParameterError(
            f"manifold must be a geodp_core Manifold (use geodp_core.geometry.get_manifold); got {manifold!r}",
            param="manifold",
        )
    return manifold


def _validate_dataset(manifold, points, min_points=1, name="points"):
    """Return ``points`` as an ``(n, *point_shape)`` float array of points on the manifold, ``n >= min_points``."""
    return manifold.validate_dataset(points, name, min_points=min_points)


def _validate_weights(weights, n):
    """Non-negative finite weights of length ``n`` with a positive sum, returned normalised to sum 1."""
    if weights is None:
        return np.full(n, 1.0 / n)
    w = check_finite_array(weights, "weights", ndim=1)
    if w.shape[0] != n:
        raise InvalidParameterError(
            f"weights must have one entry per point (length {n}); got length {w.shape[0]}", param="weights"
        )
    if (w < 0).any():
        idx = int(np.flatnonzero(w < 0)[0])
        raise InvalidParameterError(
            f"weights must be non-negative, in [0, inf); got {w[idx]!r} at index {idx}", param="weights"
        )
    total = w.sum()
    if not total > 0:
        raise InvalidParameterError(
            f"weights must have a positive sum, in (0, inf); got sum {total!r}", param="weights"
        )
    return w / total


def validate_public_ball(manifold, center, radius):
    r"""Validate a public ball :math:`B(m_0, r)` and return ``(center, radius)``.

    The centre must lie on the manifold and :math:`0 < r < r^*` with
    :math:`r^* = \tfrac12\min\{\mathrm{inj}, \pi/(2\sqrt{\kappa})\}` (docs/specification.md §3.2;
    :math:`\pi/4` on the unit sphere, :math:`\infty` on Hadamard spaces). Both are
    PUBLIC inputs: they must never be computed from the private data.

    Parameters
    ----------
    manifold : Manifold
    center : array_like, shape ``manifold.point_shape``
    radius : float

    Returns
    -------
    center : ndarray
    radius : float

    Raises
    ------
    OffManifoldError
        If ``center`` is not a single point on the manifold.
    InvalidParameterError
        If ``radius`` is not in :math:`(0, r^*)`.
    """
    _check_manifold(manifold)
    center = manifold.validate_points(center, "center", single=True)
    radius = manifold.check_radius(radius, "radius")
    return center, radius


# ------------------------------------------------------------------- p-means
class _State(NamedTuple):
    """Objective, minimal-norm (sub)gradient and Weiszfeld step at an iterate."""

    point: np.ndarray
    value: float  # F_p(y)
    grad: np.ndarray  # gradient of F_p restricted to non-coincident points (tangent at y)
    grad_norm: float  # |grad|
    stationarity: float  # norm of the minimal-norm (sub)gradient
    normaliser: float  # A = sum_i w_i max(d_i, floor)^(p-2) over non-coincident points
    max_dist: float
    at_data: bool = False  # some data point coincides with y
    dists: np.ndarray = None
    logs: np.ndarray = None


def _evaluate(manifold, point, points, weights, p):
    r"""Evaluate :math:`F_p`, its Riemannian gradient and the Weiszfeld normaliser at ``point``.

    .. math::
        \operatorname{grad} F_p(y) = -\sum_i w_i\, d_i^{p-2}\, \mathrm{Log}_y x_i .

    Data points coinciding with ``y`` contribute nothing to the gradient when
    :math:`p > 1`; for :math:`p = 1` they contribute the subgradient ball of
    radius :math:`w_C`, and the minimal-norm subgradient has norm
    :math:`\max(0, |g| - w_C)`.
    """
    dists = manifold.dist(point, points, check=False)
    logs = manifold.log(point, points, check=False)
    max_dist = float(dists.max())
    length_scale = max(1.0, max_dist)
    coincident = dists <= _COINCIDENT_RTOL * length_scale
    live = ~coincident
    safe = np.where(live, dists, 1.0)
    coef = np.where(live, weights * safe ** (p - 2.0), 0.0)
    grad = -np.tensordot(coef, logs, axes=(0, 0))
    grad_norm = float(manifold.norm(point, grad))
    if p == 1.0:
        stationarity = max(0.0, grad_norm - float(weights[coincident].sum()))
    else:
        stationarity = grad_norm
    floor = _WEISZFELD_FLOOR * length_scale
    normaliser = float(np.sum(np.where(live, weights * np.maximum(safe, floor) ** (p - 2.0), 0.0)))
    value = float(np.sum(weights * dists**p) / p)
    return _State(point, value, grad, grad_norm, stationarity, normaliser, max_dist, bool(coincident.any()), dists,
                  logs)


def _initial_point(manifold, points, weights, p):
    """A correct, cheap starting point: a closed-form surrogate mean (the manifold's) or the best data point."""
    guess = manifold.mean_initial_guess(points, weights)
    if guess is not None:
        return guess
    # Fallback: the data point with the smallest objective among (at most) the first 256.
    candidates = points[:256]
    dists = manifold.dist(candidates[:, None], points[None, :], check=False)
    scores = (dists**p) @ weights
    return candidates[int(np.argmin(scores))].copy()


def _closed_form_mean(manifold, points, weights):
    """Exact weighted Fréchet mean on flat spaces with a global isometric chart, else ``None``."""
    if isinstance(manifold, Euclidean):
        return weights @ points
    if isinstance(manifold, (SPDLogEuclidean, SPDLogCholesky)):
        return manifold.chart_inverse(np.tensordot(weights, manifold.chart(points), axes=(0, 0)))
    return None


def _solve_p_mean(manifold, points, weights, p, init, max_iter, tol, caller):
    r"""Safeguarded Weiszfeld / Riemannian gradient descent for :math:`\mu_p`.

    Step: :math:`y \leftarrow \mathrm{Exp}_y(-t\,\operatorname{grad}F_p(y) / A)` with
    :math:`A = \sum_i w_i \max(d_i, \delta)^{p-2}` (Weiszfeld normaliser; for
    :math:`p = 2`, :math:`A = 1` and :math:`t = 1` is the classical step
    :math:`\mathrm{Exp}_y(\sum_i w_i \mathrm{Log}_y x_i)`).

    * :math:`p \ge 2`: :math:`t` starts at :math:`\min(1, 2 t_{\text{prev}})` and is halved
      until the sufficient decrease :math:`F(y_t) \le F(y) - \tfrac14\,t\,|g|^2/A` holds (for a
      quadratic this forbids steps beyond 1.5 times the line minimiser, hence no zigzag)
      or, once objective differences are at rounding level, until the equivalent test on
      the line derivative, :math:`\varphi'(t) \le |\varphi'(0)|/2`, holds.
    * :math:`p < 2`: the Weiszfeld step :math:`t = 1` (a majorise-minimise step in
      flat space) is tried first, halved if needed, then doubled while the objective
      keeps decreasing, up to :math:`1/(p-1)` (the ratio of :math:`A` to the radial
      curvature :math:`(p-1)d^{p-2}`): fast both near a data point (where the
      Weiszfeld step is superlinear) and for :math:`p` close to 1.
    """
    state = _evaluate(manifold, init, points, weights, p)
    max_step = 1.0 if p >= 2.0 else (4.0 / (p - 1.0) if p > 1.0 else 1e3)  # line minimiser near 1/(p - 1)
    step = 1.0
    iteration = 0
    while True:
        # 1 < p < 2: the weakest curvature of F_p is (p - 1) A, so a gradient g leaves the point ~ g/((p - 1) A) off:
        # the tolerance shrinks with p - 1 (down to the rounding floor)
        relative = tol * (p - 1.0) if 1.0 < p < 2.0 else tol
        threshold = max(relative, _gradient_noise(manifold, state.point)) * state.max_dist ** (p - 1.0)
        if state.stationarity <= threshold or state.normaliser == 0.0:
            return state.point
        # Machine-precision stop: the full Weiszfeld step |g|/A is below the resolution of the
        # coordinates (happens for p close to 1 when the minimiser is within ~1e-7 of a data point).
        if state.grad_norm / state.normaliser <= _RESOLUTION * max(1.0, state.max_dist):
            return state.point
        if p < 2.0 and (state.at_data or state.normaliser > _PINNED_NORMALISER * max(1.0, state.max_dist) ** (p - 2.0)):
            pinned = _pinned_to_data_point(manifold, points, weights, p, state, threshold)
            if pinned is not None:
                return pinned
        if iteration >= max_iter:
            if state.stationarity <= _precision_floor(manifold, state.point) * state.max_dist ** (p - 1.0):
                # precision-limited (far from the model's origin the logarithms lose digits): the point is a
                # minimiser to ~1e-8 relative, far below any privacy noise; accept it rather than fail
                return state.point
            raise ConvergenceError(
                f"{caller} did not converge: Riemannian gradient norm {state.stationarity:.3e} is above the "
                f"tolerance {threshold:.3e} after max_iter = {max_iter} iterations; increase max_iter or tol"
            )
        weiszfeld = (-state.grad / state.normaliser, state.stationarity * state.grad_norm / state.normaliser)
        options = [weiszfeld]  # (direction, decrease rate -phi'(0) along it)
        if 1.0 < p < 2.0 and not state.at_data and manifold.dim <= _NEWTON_MAX_DIM:
            newton = _newton_direction(manifold, state, weights, p)
            if newton is not None:
                options.insert(0, newton)  # tried first; the Weiszfeld step if its line search fails
        rounding = 1e-13 * abs(state.value) + 1e-300
        previous_step = step
        for direction, slope in options:

            def trial(t, direction=direction):
                return _evaluate(manifold, manifold.exp(state.point, t * direction, check=False), points, weights, p)

            step = min(1.0, 2.0 * previous_step) if p >= 2.0 else 1.0
            accepted = False
            for _ in range(_MAX_HALVINGS):
                candidate = trial(step)
                if step * slope > 1e3 * rounding:  # objective decrease resolvable: sufficient-decrease test
                    accepted = candidate.value <= state.value - _ARMIJO_C * step * slope
                else:  # objective differences are rounding noise: accept unless the step overshoots the line minimum
                    accepted = candidate.value <= state.value + rounding and _line_derivative(
                        manifold, state, candidate, direction
                    ) <= (1.0 - 2.0 * _ARMIJO_C) * slope
                if accepted:
                    break
                step *= 0.5
            if accepted:
                break
        else:
            if state.stationarity <= _precision_floor(manifold, state.point) * state.max_dist ** (p - 1.0):
                return state.point  # no descent left at rounding level: a minimiser to the available precision
            raise ConvergenceError(
                f"{caller} did not converge: line search failed at iteration {iteration} with Riemannian "
                f"gradient norm {state.stationarity:.3e} (tolerance {threshold:.3e}, max_iter = {max_iter})"
            )
        if p < 2.0 and step == 1.0:
            reach = max_step
            length = float(manifold.norm(state.point, direction))
            if np.isfinite(manifold.injectivity_radius) and length > 0.0:
                # keep t|v| below half the injectivity radius (the line stays a minimising geodesic)
                reach = max(1.0, min(reach, 0.5 * manifold.injectivity_radius / length))
            candidate = _extend_along_line(manifold, state, candidate, direction, trial, reach, rounding, slope)
        state = candidate
        iteration += 1


def _newton_direction(manifold, state, weights, p):
    r"""Preconditioned direction :math:`-H^{-1}\operatorname{grad}F_p` for :math:`1 < p < 2` (frame coordinates).

    :math:`H = \sum_i w_i d_i^{p-2}\,(I - (2 - p)\,u_i u_i^T)`, :math:`u_i` the unit vector of
    :math:`\mathrm{Log}_y x_i`: the flat-space Hessian of :math:`F_p` (curvature terms left out). Its eigenvalues
    lie in :math:`[(p-1)A, A]`: the Weiszfeld step :math:`-\operatorname{grad}/A` is slow along the :math:`u_i`
    by the factor :math:`p - 1` (zigzag of steepest descent for :math:`p` near 1), which this direction removes;
    the line search keeps the iteration a descent method on any manifold. Returns ``(direction, slope)``
    (:math:`-\varphi'(0) = g^T H^{-1} g > 0`) or ``None`` (use the Weiszfeld direction).
    """
    dists, logs = state.dists, state.logs
    if dists is None or logs is None:
        return None
    floor = _WEISZFELD_FLOOR * max(1.0, state.max_dist)
    live = dists > _COINCIDENT_RTOL * max(1.0, state.max_dist)
    if not live.any():
        return None
    with np.errstate(all="ignore"):
        coords = manifold.to_frame(state.point, logs[live]).reshape(int(live.sum()), -1)
        safe = np.maximum(dists[live], floor)
        units = coords / safe[:, None]
        scale = weights[live] * safe ** (p - 2.0)
        hessian = np.sum(scale) * np.eye(coords.shape[1]) - (2.0 - p) * (units.T * scale) @ units
        grad = manifold.to_frame(state.point, state.grad).reshape(-1)
        try:
            step = -np.linalg.solve(hessian, grad)
        except np.linalg.LinAlgError:
            return None
    slope = -float(step @ grad)
    if not (np.all(np.isfinite(step)) and slope > 0.0):
        return None
    return manifold.from_frame(state.point, step), slope


def _extend_along_line(manifold, state, candidate, direction, trial, max_step, rounding, slope0=None):
    r"""Line minimisation beyond the Weiszfeld step (:math:`p < 2`), on the line derivative.

    Along :math:`y_t = \mathrm{Exp}_y(t v)`, :math:`v = -\operatorname{grad}F_p/A`, the Weiszfeld step
    :math:`t = 1` majorises-minimises, but the radial curvature of :math:`d^p` is :math:`(p-1)d^{p-2}`, only a
    fraction :math:`p - 1` of :math:`A`: for :math:`p` near 1 the line minimiser lies near :math:`t = 1/(p-1)`
    (e.g. :math:`10^4` at :math:`p = 1.0001`, two points: each Weiszfeld step gains a factor :math:`2 - p`
    only). Doubling while the line derivative :math:`\varphi'(t)` (free of the cancellation of objective
    differences) stays negative brackets the minimiser; then regula falsi (Illinois) on :math:`\varphi'` until
    :math:`|\varphi'(t)| \le |\varphi'(0)|/10`. Every accepted point decreases :math:`F_p` (to rounding), so
    the iteration stays a descent method. ``max_step`` bounds :math:`t |v|` below the injectivity radius on
    compact spaces.
    """
    if slope0 is None:
        slope0 = state.grad_norm**2 / state.normaliser  # -phi'(0) along the Weiszfeld direction
    if not slope0 > 0.0:
        return candidate

    def derivative(cand):
        return _line_derivative(manifold, state, cand, direction)

    low, low_state, d_low = 1.0, candidate, derivative(candidate)
    if not d_low < 0.0:
        return candidate
    high, d_high = None, None
    while 2.0 * low <= max_step:
        t = 2.0 * low
        cand = trial(t)
        if not np.all(np.isfinite(cand.point)) or not cand.value <= low_state.value + rounding:
            high = t  # the objective rose: the minimiser lies before t
            break
        d_t = derivative(cand)
        if d_t >= 0.0:
            high, d_high = t, d_t
            break
        low, low_state, d_low = t, cand, d_t
    if high is None:
        return low_state
    best = low_state
    side = 0
    for _ in range(60):
        if d_high is None or not np.isfinite(d_high):
            t = 0.5 * (low + high)
        else:
            t = low + (high - low) * (-d_low) / (d_high - d_low)
            t = min(max(t, low + 1e-3 * (high - low)), high - 1e-3 * (high - low))
        cand = trial(t)
        if not (np.all(np.isfinite(cand.point)) and cand.value <= state.value + rounding):
            high, d_high = t, None
            continue
        d_t = derivative(cand)
        if cand.value <= best.value + rounding:
            best = cand
        if abs(d_t) <= 0.1 * slope0:
            return cand
        if d_t < 0.0:
            low, d_low = t, d_t
            if side == -1 and d_high is not None:
                d_high *= 0.5  # Illinois: keep the stale end from stalling the secant
            side = -1
        else:
            high, d_high = t, d_t
            if side == 1:
                d_low *= 0.5
            side = 1
        if high - low <= _RESOLUTION * max(1.0, high):
            break
    return best


def _precision_floor(manifold, point):
    r"""Relative gradient accepted after ``max_iter`` iterations: the solver has stalled at rounding level.

    :math:`\sqrt{\varepsilon}` times the coordinate scale (:math:`x_0` on :math:`H^d`, :math:`\sqrt{\mathrm{cond}P}`
    on SPD-affine): far from the model's origin the logarithms lose digits (measured: gradient noise ~1e-7 at
    :math:`x_0 \approx 80` on :math:`H^2`); the point is then a minimiser to that precision, far below any
    privacy noise.
    """
    root_eps = float(np.sqrt(np.finfo(float).eps))
    return root_eps * max(1.0, math.sqrt(manifold.rounding_scale(point)))


def _gradient_noise(manifold, point):
    r"""Relative rounding floor of the Riemannian gradient at ``point`` (a convergence tolerance can't be below it).

    Logarithms computed from ambient coordinates of size :math:`X` carry absolute errors of order
    :math:`\varepsilon X^2` on :math:`H^d` (:math:`X = x_0`) and :math:`\varepsilon\,\mathrm{cond}(P)`
    on SPD(m) with the affine-invariant metric; elsewhere :math:`\varepsilon`. Returns
    :math:`16\,\varepsilon\,\times` that scale. Without this floor the solver reports a
    ``ConvergenceError`` for data far from the origin (e.g. around :math:`x_0 = 10^4` on :math:`H^1`)
    although the mean is found to the available precision.
    """
    eps = np.finfo(float).eps
    return 16.0 * eps * max(1.0, manifold.rounding_scale(point))


def _line_derivative(manifold, state, candidate, direction):
    r"""Line derivative :math:`\varphi'(t) = \langle \operatorname{grad}F_p(y_t), \Gamma_{y \to y_t} v\rangle`.

    Along the geodesic :math:`y_t = \mathrm{Exp}_y(t v)`; ``candidate`` is the state at :math:`y_t`.

    Free of the cancellation that makes objective differences useless near the optimum.
    """
    velocity = manifold.parallel_transport(state.point, candidate.point, direction)
    return float(manifold.inner(candidate.point, candidate.grad, velocity))


def _pinned_to_data_point(manifold, points, weights, p, state, threshold):
    r"""Solve the optimality condition directly when the minimiser sits at or next to a data point (p < 2).

    With :math:`x_j` the data point nearest to the iterate, :math:`w_J` the weight of the
    records equal to :math:`x_j` and :math:`G(y) = -\sum_{i \notin J} w_i d_i^{p-2}\mathrm{Log}_y x_i`
    the gradient of the other terms, stationarity reads
    :math:`G(y) + w_J \delta^{p-1} e = 0` for :math:`y = \mathrm{Exp}_{x_j}(\delta e)`, :math:`|e| = 1`.

    * :math:`p = 1`: :math:`x_j` is optimal iff :math:`|G(x_j)| \le w_J`.
    * :math:`1 < p < 2`: :math:`\delta = (|G|/w_J)^{1/(p-1)}` can be far below any step the
      Weiszfeld iteration resolves (e.g. :math:`10^{-11}` for :math:`p = 1.05`); the fixed
      point :math:`y \leftarrow \mathrm{Exp}_{x_j}(-\delta(y)\,\Gamma_{y\to x_j}G(y)/|G(y)|)` converges in a few steps.

    Returns the solution, or ``None`` when the minimiser is not pinned to a data point.
    """
    scale = max(1.0, state.max_dist)
    nearest = int(np.argmin(manifold.dist(state.point, points, check=False)))
    anchor = points[nearest]
    at_anchor = _evaluate(manifold, anchor, points, weights, p)
    if at_anchor.stationarity <= threshold:
        return anchor.copy()
    if p == 1.0:
        return None
    same = manifold.dist(anchor, points, check=False) <= _COINCIDENT_RTOL * max(1.0, at_anchor.max_dist)
    weight_anchor = float(weights[same].sum())
    other_grad, other_norm = at_anchor.grad, at_anchor.grad_norm
    direction_at_anchor = -other_grad / other_norm
    for _ in range(30):
        # delta = (|G|/w_J)^(1/(p-1)) in logarithms: the power overflows for p near 1 when |G| > w_J
        log_delta = (math.log(other_norm) - math.log(weight_anchor)) / (p - 1.0)
        if log_delta > math.log(1e-6 * scale):
            return None
        delta = math.exp(log_delta)
        candidate = _evaluate(manifold, manifold.exp(anchor, delta * direction_at_anchor, check=False), points, weights, p)
        if candidate.stationarity <= threshold or delta <= _RESOLUTION * scale:
            return candidate.point
        to_anchor = manifold.log(candidate.point, anchor, check=False)
        dist_anchor = float(manifold.dist(candidate.point, anchor, check=False))
        other_grad = candidate.grad + weight_anchor * dist_anchor ** (p - 2.0) * to_anchor
        other_norm = float(manifold.norm(candidate.point, other_grad))
        if other_norm == 0.0:
            return None
        direction_at_anchor = -manifold.parallel_transport(candidate.point, anchor, other_grad) / other_norm
    return None


def _p_mean(manifold, points, p, weights, init, max_iter, tol, caller):
    _check_manifold(manifold)
    points = _validate_dataset(manifold, points, min_points=1)
    weights = _validate_weights(weights, points.shape[0])
    max_iter = check_int(max_iter, "max_iter", low=1)
    tol = check_real(tol, "tol", low=0.0)
    if init is not None:
        init = manifold.validate_points(init, "init", single=True)
    if p == 2.0:
        exact = _closed_form_mean(manifold, points, weights)
        if exact is not None:
            return exact
    if points.shape[0] == 1:
        return points[0].copy()
    start = _initial_point(manifold, points, weights, p) if init is None else init
    result = _solve_p_mean(manifold, points, weights, p, start, max_iter, tol, caller)
    if not np.all(np.isfinite(result)):
        raise NumericalOverflowError(
            f"{caller}: the data lie too far from the origin of {manifold.label} for the mean to be computed in "
            "double precision", param="points",
        )
    if manifold.injectivity_radius < np.inf:
        _check_strict_minimiser(manifold, result, points, weights, p, caller)
    return result


#: A data point within this geodesic distance of the cut locus of the result makes it a non-minimiser.
_CUT_LOCUS_ATOL = 1e-7
#: Smallest eigenvalue (relative) of the Hessian of F_2 accepted as a strict local minimum.
_HESSIAN_RTOL = 1e-9


def _scaled_tcot(theta, nonzero, curvature):
    r""":math:`\sqrt\kappa\,\theta\cot(\sqrt\kappa\,\theta)`: the Hessian eigenvalue of :math:`\tfrac12 d(\cdot, x)^2` on a
    direction whose plane with :math:`\mathrm{Log}\,x` has curvature :math:`\kappa`, :math:`\theta = d(y, x)` (the flat
    value 1 for :math:`\kappa \le 0`; only spaces with a cut locus, positively curved, reach here)."""
    if curvature <= 0:
        return np.ones_like(theta)
    scaled = math.sqrt(curvature) * theta
    return np.where(nonzero, scaled / np.tan(np.where(nonzero, scaled, 1.0)), 1.0)


def _check_strict_minimiser(manifold, result, points, weights, p, caller):
    r"""Raise :class:`NonUniqueMeanError` unless ``result`` is a strict local minimiser of :math:`F_p` (sphere).

    On a space with a cut locus (the sphere) a zero Riemannian gradient does not imply a minimum:

    * a data point :math:`x_i` (with :math:`w_i > 0`) antipodal to :math:`y` contributes no gradient
      (:math:`\mathrm{Log}_y x_i` is undefined, the solver uses 0), but :math:`d(\cdot, x_i)^p`
      decreases at first order in *every* direction from :math:`y`: :math:`y` is not a minimiser
      (e.g. the two points :math:`\pm e_3`, whose Fréchet means form the whole equator);
    * for :math:`p = 2` the Hessian must be positive definite. With :math:`\theta_i = d(y, x_i)`
      and :math:`u_i` the unit vector of :math:`\mathrm{Log}_y x_i` in an orthonormal frame,

      .. math:: \mathrm{Hess}\,F_2(y) = \sum_i w_i \big[\theta_i\cot\theta_i\, I
                + (1 - \theta_i\cot\theta_i)\, u_i u_i^T\big]

      on the unit sphere (:math:`\sqrt\kappa\,\theta_i` for :math:`\theta_i` at constant curvature :math:`\kappa`,
      the manifold's lower bound); on the Kendall shape space :math:`\mathbb{C}P^{k-2}` the plane of :math:`u_i` and
      :math:`J u_i` (:math:`J` = rotation by 90°) has curvature 4, so the eigenvalue along :math:`J u_i`
      is :math:`2\theta_i\cot 2\theta_i` instead: add :math:`(2\theta_i\cot 2\theta_i - \theta_i\cot\theta_i)
      (Ju_i)(Ju_i)^T`.

    Uniqueness is guaranteed when the data lie in an open ball of radius :math:`< \pi/2`
    (Afsari 2011); spread-out data with a strict local minimum are returned as found.
    """
    dists = manifold.dist(result, points, check=False)
    live = weights > 0
    cut = live & (dists >= manifold.injectivity_radius - _CUT_LOCUS_ATOL)
    if cut.any():
        idx = int(np.flatnonzero(cut)[0])
        raise NonUniqueMeanError(
            f"{caller}: the Fréchet mean is not unique (or not attained where the solver stopped): points[{idx}] "
            f"is at the cut locus (antipode) of the stationary point found, so it is not a minimiser; the data are "
            f"not inside a ball of radius < r* = {manifold.ball_radius_limit:.6g} (e.g. antipodal points)",
            param="points",
        )
    if p != 2.0:
        return
    logs = manifold.log(result, points, check=False)
    coords = manifold.to_frame(result, logs)
    theta = np.linalg.norm(coords, axis=-1)
    nonzero = theta > 0
    units = np.where(nonzero[:, None], coords / np.where(nonzero, theta, 1.0)[:, None], 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        tcot = _scaled_tcot(theta, nonzero, manifold.curvature_bounds[0])
    j_logs = manifold.complex_structure(result, logs)
    if j_logs is not None:  # Kähler (Kendall): curvature-4 direction J u_i (landmarks rotated by 90°): the full Hessian
        hessian = np.sum(weights[:, None, None] * (tcot[:, None, None] * np.eye(manifold.dim)
                                                   + (1.0 - tcot)[:, None, None] * units[:, :, None] * units[:, None, :]),
                         axis=0)
        j_coords = manifold.to_frame(result, j_logs)
        j_units = np.where(nonzero[:, None], j_coords / np.where(nonzero, theta, 1.0)[:, None], 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            t2cot = _scaled_tcot(theta, nonzero, manifold.curvature_bounds[1])
        hessian = hessian + np.sum((weights * (t2cot - tcot))[:, None, None] * j_units[:, :, None] * j_units[:, None, :],
                                   axis=0)
        smallest = float(np.linalg.eigvalsh(hessian)[0])
    else:
        # Hess = A I + V^T V with A = sum_i w_i theta_i cot theta_i and rows of V sqrt(w_i (1 - theta_i cot theta_i)) u_i
        # (1 - theta cot theta >= 0 on [0, pi)): its smallest eigenvalue is A, plus that of V^T V when V has full rank d
        # (only possible with at least d points; V^T V is then formed, d x d).
        isotropic = float(np.sum(weights * tcot))
        rows = np.sqrt(np.maximum(weights * (1.0 - tcot), 0.0))[:, None] * units
        smallest = isotropic
        if np.count_nonzero(np.any(rows != 0.0, axis=-1)) >= manifold.dim:
            smallest += float(np.linalg.eigvalsh(rows.T @ rows)[0])
    if not smallest > _HESSIAN_RTOL:
        raise NonUniqueMeanError(
            f"{caller}: the Fréchet mean is not unique: the stationary point found is not a strict local minimum "
            f"(smallest Hessian eigenvalue {smallest:.3g} <= 0); the data are not inside a ball of radius "
            f"< r* = {manifold.ball_radius_limit:.6g}",
            param="points",
        )


def frechet_mean(manifold, points, weights=None, init=None, max_iter=DEFAULT_MAX_ITER, tol=DEFAULT_TOL):
    r"""Weighted Fréchet (Karcher) mean :math:`\operatorname{argmin}_y \tfrac12\sum_i w_i\, d(y, x_i)^2`.

    Riemannian gradient descent

    .. math:: y \leftarrow \mathrm{Exp}_y\Big(t \sum_i w_i\, \mathrm{Log}_y x_i\Big),
              \qquad \textstyle\sum_i w_i = 1,

    with :math:`t = 1` (the standard step on Hadamard spaces and on the sphere
    inside a ball of radius :math:`< \pi/4`) halved by an Armijo line search when
    it does not decrease the Fréchet function. Euclidean space and the flat SPD
    metrics (log-Euclidean, log-Cholesky) use the exact closed form
    :math:`\psi^{-1}(\sum_i w_i \psi(x_i))` (``init``, ``max_iter`` and ``tol`` unused).

    Initialisation (unless ``init`` is given): the normalised extrinsic mean
    (sphere; falls back to the best data point if it is nearly 0), the normalised
    Lorentzian centroid (hyperbolic), the log-Euclidean mean (SPD affine).

    Parameters
    ----------
    manifold : Manifold
    points : array_like, shape ``(n, *manifold.point_shape)``, ``n >= 1``
    weights : array_like, shape ``(n,)``, optional
        Non-negative, positive sum (normalised internally). Default: uniform.
    init : array_like, optional
        Starting point on the manifold.
    max_iter : int, default 1000
    tol : float, default 1e-10
        Convergence when :math:`|\sum_i w_i \mathrm{Log}_y x_i| \le \mathrm{tol}\cdot\max_i d(y, x_i)`
        (relative to the spread), or when the next step is below machine resolution.

    Returns
    -------
    ndarray, shape ``manifold.point_shape``

    Raises
    ------
    OffManifoldError
        If a point (or ``init``) is off the manifold.
    InvalidParameterError
        Bad shapes, weights, ``max_iter`` or ``tol``.
    ConvergenceError
        If the gradient norm is still above the tolerance after ``max_iter`` iterations.
    """
    return _p_mean(manifold, points, 2.0, weights, init, max_iter, tol, "frechet_mean")


def p_mean(manifold, points, p, weights=None, init=None, max_iter=DEFAULT_MAX_ITER, tol=DEFAULT_TOL):
    r"""Generalized :math:`p`-mean :math:`\operatorname{argmin}_y \frac{1}{p}\sum_i w_i\, d(y, x_i)^p`, :math:`p \ge 1`.

    Weiszfeld-type iteration (for :math:`p \in [1, 2)` the classical
    iteratively-reweighted step; the same direction with a line search for :math:`p > 2`)

    .. math::
        y \leftarrow \mathrm{Exp}_y\Big(t\,\frac{\sum_i a_i \mathrm{Log}_y x_i}{\sum_i a_i}\Big),
        \qquad a_i = w_i\, d(y, x_i)^{p-2},

    safeguarded at data points: a point coinciding with the iterate is left out
    (its gradient contribution :math:`d^{p-1}` vanishes for :math:`p > 1`; for
    :math:`p = 1` the subgradient condition :math:`|\sum_{i \notin C} w_i \mathrm{Log}_y x_i / d_i| \le w_C`
    is used and the iteration snaps to a data point that satisfies it), and
    distances are floored in the normaliser. The step :math:`t` starts at 1 and is
    halved by an Armijo line search. ``p = 2`` is exactly :func:`frechet_mean`.

    Parameters
    ----------
    manifold : Manifold
    points : array_like, shape ``(n, *manifold.point_shape)``, ``n >= 1``
    p : float
        Exponent, :math:`p \ge 1`.
    weights, init, max_iter, tol
        As in :func:`frechet_mean`; convergence when the minimal-norm Riemannian
        (sub)gradient of :math:`F_p` is at most :math:`\mathrm{tol}\cdot(\max_i d_i)^{p-1}`, or when
        the next step is below machine resolution.

    Returns
    -------
    ndarray, shape ``manifold.point_shape``

    Raises
    ------
    InvalidParameterError, OffManifoldError, ConvergenceError
        As in :func:`frechet_mean`; ``p < 1`` is invalid.
    """
    p = check_real(p, "p", low=1.0, high=P_MEAN_MAX, low_closed=True, high_closed=True)
    caller = "frechet_mean" if p == 2.0 else f"p_mean (p = {p:g})"
    try:
        return _p_mean(manifold, points, p, weights, init, max_iter, tol, caller)
    except OverflowError:  # a Python float power d^p beyond the double range
        raise NumericalOverflowError(
            f"{caller}: d^p leaves the double-precision range for these data (distances up to about "
            f"{np.exp(np.log(np.finfo(float).max) / max(p - 1.0, 1.0)):.3g} are representable at p = {p:g}); use a "
            f"smaller p (p must lie in [1, {P_MEAN_MAX:g}])", param="p") from None


# -------------------------------------------------------------- sensitivities
def _check_ball_radius(radius, curvature_upper):
    r"""Validate :math:`0 < r < r^* = \pi/(4\sqrt{\kappa})` (:math:`r^* = \infty` when :math:`\kappa \le 0`)."""
    kappa = check_real(curvature_upper, "curvature_upper")
    if kappa <= 0:
        return check_real(radius, "radius", low=0.0), kappa
    limit = float(np.pi / (4.0 * np.sqrt(kappa)))
    radius = check_real(radius, "radius")
    if not 0.0 < radius < limit:
        raise InvalidParameterError(
            f"radius must be a real number in (0, {limit!r}) (r* = pi/(4 sqrt(kappa)) for "
            f"curvature_upper = {kappa!r}); got {radius!r}",
            param="radius",
        )
    return radius, kappa


def _b_kappa(length, kappa):
    r""":math:`b_\kappa(l) = \sqrt{\kappa}\,l\cot(\sqrt{\kappa}\,l)` for :math:`\kappa > 0`, else 1."""
    if kappa <= 0:
        return 1.0
    x = np.sqrt(kappa) * length
    return float(x / np.tan(x))


def _b_kappa_checked(length, kappa, radius):
    """:func:`_b_kappa`, refusing a radius so close to ``r*`` that ``b`` rounds to a non-positive value."""
    b = _b_kappa(length, kappa)
    if not b > 0:
        raise NumericalOverflowError(
            f"radius = {radius!r} is too close to r* = pi/(4 sqrt(kappa)) = {np.pi / (4.0 * np.sqrt(kappa))!r} "
            f"for curvature_upper = {kappa!r}: 2r sqrt(kappa) cot(2r sqrt(kappa)) rounds to {b!r} <= 0",
            param="radius",
        )
    return b


def _exp_sensitivity(log_delta, n, radius):
    """``exp(log_delta)`` as a positive finite float, or a clear error naming ``n`` / ``radius``."""
    if log_delta > math.log(np.finfo(float).max):
        raise NumericalOverflowError(
            f"the sensitivity exp({log_delta:.6g}) overflows double precision: radius = {radius!r} is too large "
            f"for n = {n}; use a smaller radius (the bound grows like radius / n)",
            param="radius",
        )
    value = math.exp(log_delta)
    if not value > 0:
        raise NumericalOverflowError(
            f"the sensitivity exp({log_delta:.6g}) underflows to 0 in double precision: n = {n} is too large "
            f"(or radius = {radius!r} too small); a zero sensitivity would divide by zero downstream",
            param="n",
        )
    return value


def frechet_mean_sensitivity(n, radius, curvature_upper):
    r"""Global sensitivity of the Fréchet mean (Reimherr, Bharath, Soto 2021).

    For datasets of size ``n`` in a public ball :math:`B(m_0, r)` and neighbours
    differing in one record,

    .. math::
        d(\bar x(D), \bar x(D')) \le \Delta = \frac{2r\,(2 - h)}{n\,h}, \qquad
        h = \begin{cases} 2r\sqrt{\kappa}\,\cot(2r\sqrt{\kappa}) & \kappa > 0\\ 1 & \kappa \le 0\end{cases}

    so :math:`\Delta = 2r/n` on Hadamard spaces (tight in Euclidean space).

    Parameters
    ----------
    n : int
        Dataset size, :math:`n \ge 2`.
    radius : float
        Public ball radius :math:`r > 0`; for :math:`\kappa > 0` also
        :math:`r < r^* = \pi/(4\sqrt{\kappa})`.
    curvature_upper : float
        Upper bound :math:`\kappa` on the sectional curvature (``manifold.sensitivity_curvature``).

    Returns
    -------
    float
    """
    n = check_int(n, "n", low=2)
    radius, kappa = _check_ball_radius(radius, curvature_upper)
    h = _b_kappa_checked(2.0 * radius, kappa, radius)
    log_delta = math.log(2.0) + math.log(radius) + math.log(2.0 - h) - math.log(n) - math.log(h)
    return _exp_sensitivity(log_delta, n, radius)


def p_mean_sensitivity_theorem(p, curvature_upper):
    """Which theorem of the heat-diffusion paper :func:`p_mean_sensitivity` applies: ``"13"`` for p ≤ 2, ``"15"`` for
    p > 2 on Hadamard spaces (curvature ≤ 0), ``"16"`` for p > 2 in positive curvature."""
    if p <= 2.0:
        return "13"
    return "15" if curvature_upper <= 0 else "16"


def p_mean_sensitivity(n, radius, p, curvature_upper):
    r"""Global sensitivity of the generalized :math:`p`-mean (heat-diffusion paper, Thms 13, 15, 16).

    With :math:`b = b_\kappa(2r)` (:math:`= 2r\sqrt\kappa\cot(2r\sqrt\kappa)` for
    :math:`\kappa > 0`, 1 otherwise):

    * :math:`p \in (1, 2]`, any :math:`\kappa` (Theorem 13)

      .. math:: \Delta = \frac{(2r(2 - b))^{p-1}}{n\,(4r)^{p-2}\min\{p - 1, b\}};

      at :math:`p = 2` this is exactly :func:`frechet_mean_sensitivity`.
    * :math:`p > 2`, Hadamard (:math:`\kappa \le 0`, Theorem 15)

      .. math:: \Delta = \Big(\frac{(p-1)(4r)^{p-2}\, 2r}{n\,\lambda_p}\Big)^{1/(p-1)},
                \quad \lambda_p = k_p/p,\ k_p = 8/2^p.
    * :math:`p > 2`, :math:`\kappa > 0` (Theorem 16)

      .. math:: \Delta = \Big(\frac{2^{p-1} p (p-1)(4r)^{p-2}(2 - b)\,2r}{n\,b}\Big)^{1/(p-1)}.

    Evaluated in log space (no overflow for large ``p``).

    Parameters
    ----------
    n : int
        :math:`n \ge 2`.
    radius : float
        :math:`r > 0`, and :math:`r < \pi/(4\sqrt\kappa)` when :math:`\kappa > 0`.
    p : float
        :math:`p > 1`.
    curvature_upper : float
        Upper sectional-curvature bound :math:`\kappa`.

    Returns
    -------
    float
    """
    n = check_int(n, "n", low=2)
    p = check_real(p, "p", low=1.0)
    radius, kappa = _check_ball_radius(radius, curvature_upper)
    b = _b_kappa_checked(2.0 * radius, kappa, radius)
    log_n, log_2r, log_4r = math.log(n), math.log(2.0) + math.log(radius), math.log(4.0) + math.log(radius)
    if p <= 2.0:
        log_delta = (p - 1.0) * (log_2r + np.log(2.0 - b)) - log_n - (p - 2.0) * log_4r - np.log(min(p - 1.0, b))
        return _exp_sensitivity(float(log_delta), n, radius)
    if kappa <= 0:
        log_lambda = np.log(8.0) - p * np.log(2.0) - np.log(p)
        log_inner = np.log(p - 1.0) + (p - 2.0) * log_4r + log_2r - log_n - log_lambda
    else:
        log_inner = (
            (p - 1.0) * np.log(2.0) + np.log(p) + np.log(p - 1.0) + (p - 2.0) * log_4r
            + np.log(2.0 - b) + log_2r - log_n - np.log(b)
        )
    return _exp_sensitivity(float(log_inner / (p - 1.0)), n, radius)


# ------------------------------------------------------- empirical sensitivity
class EmpiricalSensitivity(NamedTuple):
    """Result of :func:`empirical_sensitivity`.

    Attributes
    ----------
    max_change : float
        :math:`\\max_j d(\\eta(D), \\eta(D'_j))` over the neighbouring datasets tried.
    changes : ndarray, shape ``(n_pairs,)``
        :math:`d(\\eta(D), \\eta(D'_j))` for each pair.
    indices : ndarray of int, shape ``(n_pairs,)``
        Index of the replaced record in each pair.
    replacements : ndarray, shape ``(n_pairs, *point_shape)``
        The replacing record of each pair (all inside the public ball).
    """

    max_change: float
    changes: np.ndarray
    indices: np.ndarray
    replacements: np.ndarray


def _unit_directions(manifold, center, points, rng):
    """Unit tangent vectors at ``center`` pointing to each point (random for points at the centre)."""
    logs = manifold.log(center, points, check=False)
    norms = manifold.norm(center, logs)
    small = norms <= 1e-12
    safe = np.where(small, 1.0, norms)
    units = logs / safe.reshape(safe.shape + (1,) * len(manifold.point_shape))
    if small.any():
        units[small] = manifold.random_unit_tangent(center, int(small.sum()), rng)
    return units


def empirical_sensitivity(manifold, summary, points, center, radius, n_pairs, rng):
    r"""Worst observed change of a summary over neighbouring datasets (appendix-G style check).

    For ``n_pairs`` neighbours :math:`D'_j` of :math:`D` (record :math:`i_j` replaced by a
    point of the public ball :math:`B(m_0, r)`) returns
    :math:`\max_j d(\eta(D), \eta(D'_j))`. Replacements are chosen adversarially
    then at random:

    * about half the pairs move one of the records farthest from the centre to the
      diametrically opposite boundary point :math:`\mathrm{Exp}_{m_0}(-r\,u_i)`,
      :math:`u_i = \mathrm{Log}_{m_0}x_i/|\mathrm{Log}_{m_0}x_i|` (the Euclidean worst case);
    * the rest replace a random record by a uniformly random point of the boundary
      sphere :math:`\partial B(m_0, r)`.

    The value is a LOWER bound on the true sensitivity; a valid theoretical bound
    :math:`\Delta` must satisfy :math:`\Delta / \text{max\_change} \ge 1`. It is close to the
    true sensitivity only if :math:`D` itself has records on the boundary of the ball.

    Parameters
    ----------
    manifold : Manifold
    summary : callable
        ``summary(points) -> point`` (e.g. ``lambda x: frechet_mean(manifold, x)``).
    points : array_like, shape ``(n, *point_shape)``, ``n >= 2``
        The dataset :math:`D`, inside :math:`B(m_0, r)`.
    center : array_like
        Public centre :math:`m_0`.
    radius : float
        Public radius, :math:`0 < r < r^*`.
    n_pairs : int
        Number of neighbouring datasets, :math:`\ge 1`.
    rng : numpy.random.Generator or int

    Returns
    -------
    EmpiricalSensitivity

    Raises
    ------
    OutsideBallError
        If a record of ``points`` lies outside :math:`B(m_0, r)`.
    """
    center, radius = validate_public_ball(manifold, center, radius)
    if not callable(summary):
        raise InvalidParameterError(
            f"summary must be a callable mapping a dataset to a point; got {summary!r}", param="summary"
        )
    points = _validate_dataset(manifold, points, min_points=2)
    n_pairs = check_int(n_pairs, "n_pairs", low=1)
    rng = check_rng(rng)
    dists = manifold.dist(center, points, check=False)
    outside = dists > radius * (1.0 + _BALL_RTOL)
    if outside.any():
        idx = int(np.flatnonzero(outside)[0])
        raise OutsideBallError(
            f"points must lie in the public ball B(center, radius = {radius!r}); entry {idx} is at distance "
            f"{float(dists[idx])!r} from the centre",
            param="points",
        )
    reference = manifold.validate_points(summary(points), "summary(points)", single=True)

    n = points.shape[0]
    n_adversarial = min(n, (n_pairs + 1) // 2)
    n_random = n_pairs - n_adversarial
    farthest = np.argsort(-dists, kind="stable")[:n_adversarial]
    units = _unit_directions(manifold, center, points[farthest], rng)
    adversarial = manifold.exp(center, -radius * units, check=False)
    random_dirs = manifold.random_unit_tangent(center, max(n_random, 1), rng)[:n_random]
    random_points = manifold.exp(center, radius * random_dirs, check=False)
    indices = np.concatenate([farthest, rng.integers(0, n, size=n_random)]).astype(int)
    replacements = np.concatenate([adversarial, random_points], axis=0)

    changes = np.empty(n_pairs)
    for j in range(n_pairs):  # one summary per neighbouring dataset
        neighbour = points.copy()
        neighbour[indices[j]] = replacements[j]
        released = manifold.validate_points(summary(neighbour), "summary(neighbour)", single=True)
        changes[j] = manifold.dist(reference, released, check=False)
    return EmpiricalSensitivity(float(changes.max()), changes, indices, replacements)
