r"""Exact GDP accounting of the Riemannian Gaussian on the Kendall shape space :math:`\Sigma^k_2 = \mathbb{C}P^n`.

:math:`n = k - 2`, real dimension :math:`d = 2n`. The release law is
:math:`p_\eta(y) \propto \exp(-d(\eta, y)^2/(2\sigma^2))` w.r.t. the Riemannian volume. As in
:mod:`geodp_core.mechanisms.gaussian_gdp` (the GDP paper's Thm. 4.1): the space is two-point homogeneous
(the isometry group acts transitively on pairs at equal distance) and symmetric (an isometry swaps any two
points), so one pair :math:`\eta_1, \eta_2` at distance :math:`\Delta` determines the privacy profile and

.. math:: \delta(\varepsilon) = \Pr[L > \varepsilon] - e^{\varepsilon}\Pr[L < -\varepsilon],
          \qquad L = \frac{d(\eta_2, Y)^2 - d(\eta_1, Y)^2}{2\sigma^2},\ Y \sim p_{\eta_1}.

Geodesic polar coordinates around :math:`\eta_1 = e_0`: :math:`Y = \cos r\, e_0 + \sin r\, u` with :math:`r` of
density :math:`\propto e^{-r^2/(2\sigma^2)}\sin^{d-1} r\cos r` and :math:`u` uniform on the unit sphere of
:math:`\mathbb{C}^n`; :math:`\eta_2 = \cos\Delta\, e_0 + \sin\Delta\, w`. Then

.. math:: \cos d(\eta_2, Y) = |A + B X|, \qquad A = \cos r\cos\Delta,\ B = \sin r\sin\Delta,\ X = \langle w, u\rangle,

with :math:`X = \rho e^{i\varphi}`, :math:`\varphi` uniform and independent of :math:`\rho`,
:math:`\rho^2 \sim \mathrm{Beta}(1, n-1)` (:math:`\rho = 1` when :math:`n = 1`). For fixed :math:`(r, \rho)` the
events :math:`\{L > \varepsilon\}`, :math:`\{L \le \varepsilon\}`, :math:`\{L < -\varepsilon\}` are arcs of
:math:`\varphi` with closed-form probabilities :math:`\tfrac2\pi\arcsin\sqrt{x/2}`; :math:`\rho` and :math:`r` are
integrated by Gauss–Legendre quadrature on pieces split at every kink (the outer sum in log space). The
:math:`\varepsilon`-search and the :math:`\mu` bisection are those of ``gaussian_gdp``.
Derivation and accuracy evidence: ``docs/derivations/kendall_shape_space.md`` §5.
"""

import functools
import math

import numpy as np
from scipy import optimize, special

from geodp_core._validation import check_int, check_real
from geodp_core.exceptions import ConvergenceError
from geodp_core.geometry.radial_volume import ComplexProjectiveVolume
from geodp_core.mechanisms.gaussian_gdp import (
    _combine_profile,
    _quadrature,
    _reference_nodes,
    _search_mu,
)

__all__ = ["KENDALL_EXACT_MAX_K", "QUADRATURE_MARGIN", "complex_projective_landmarks", "kendall_gaussian_calibration",
           "kendall_gdp_mu", "kendall_privacy_profile"]


def complex_projective_landmarks(volume):
    r"""The number ``k`` of planar landmarks when ``volume`` is the radial volume of
    :math:`\Sigma^k_2 = \mathbb{C}P^{k-2}` (:math:`J(r) = \sin^{2k-5}r\cos r`), the space this module's quadrature
    is written for; ``None`` otherwise."""
    if isinstance(volume, ComplexProjectiveVolume):
        return volume.dim // 2 + 2
    return None

_HALF_PI = 0.5 * math.pi
_WINDOW = 40.0  # core half-width in units of sigma (mass beyond < e^-800 of the peak)
_RADIAL_STEPS = np.array([-32.0, -16.0, -8.0, -4.0, -2.0, -1.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0])
_DECAY_STEPS = np.array([0.25, 1.0, 4.0, 16.0, 64.0])
_R_NODES = 16
_RHO_NODES = 16
_SMALL_SIGMA = 1e-7
_CALIBRATION_WASTE = 0.01
#: Largest number of landmarks with the exact accounting: every k the app offers (``constraints.dim_range``).
#: Checked against a rule with 3-4x the nodes and Monte Carlo for k <= 20, and against independent references
#: (adaptive QUADPACK in double precision on the bulk of the profile, mpmath at 30 digits in its tails) at
#: k = 25, 50, 100 (``docs/derivations/kendall_shape_space.md``).
KENDALL_EXACT_MAX_K = 100
#: Relative safety margin added to the quadrature value of mu.
QUADRATURE_MARGIN = 1e-5


def _log_radial(d, sigma, r):
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (d - 1) * np.log(np.sin(r)) + np.log(np.cos(r)) - r**2 / (2.0 * sigma**2)


def _radial_slope(d, sigma, r):
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return (d - 1) / np.tan(r) - np.tan(r) - r / sigma**2


@functools.lru_cache(maxsize=64)
def _radial_law(d, sigma, delta):
    r"""``(mode, low, core_high, high, log_normaliser, fixed_breakpoints)`` of the radial law on [0, pi/2].

    Breakpoints at ``mode + k w`` (:math:`|k| \le 32`), :math:`w = (-f''(\text{mode}))^{-1/2} \le \sigma` the actual
    width of the law (:math:`f'' = -(d-1)/\sin^2 r - 1/\cos^2 r - 1/\sigma^2`; much narrower than
    :math:`\sigma` for large ``d``).
    """
    lo, hi = 1e-300, _HALF_PI * (1.0 - 1e-15)
    mode = optimize.brentq(lambda r: float(_radial_slope(d, sigma, r)), max(lo, 1e-12 * min(sigma, 1.0)), hi,
                           xtol=1e-15)
    low = max(0.0, mode - _WINDOW * sigma)
    core_high = min(_HALF_PI, mode + _WINDOW * sigma)
    high = min(_HALF_PI, core_high + delta + _WINDOW * sigma)
    width = ((d - 1) / math.sin(mode) ** 2 + 1.0 / math.cos(mode) ** 2 + 1.0 / sigma**2) ** -0.5
    # width <= sigma; by concavity the density is below e^-512 of its peak beyond mode +- 32 width
    points = np.sort(np.clip(np.concatenate([[low, core_high, high, mode], mode + width * _RADIAL_STEPS]), low, high))
    nodes, weights = _quadrature(points[None, :], 4 * _R_NODES)
    with np.errstate(divide="ignore"):
        log_norm = float(special.logsumexp(np.log(weights) + _log_radial(d, sigma, nodes)))
    return mode, low, core_high, high, log_norm, points


def _arc(x):
    r""":math:`\tfrac2\pi\arcsin\sqrt{x/2}` clipped to [0, 1] (``x = 1 \mp t``, the probability of an arc of φ).

    NaN counts as 0. ``arcsin`` is evaluated only where :math:`0 < x < 2` (elsewhere the value is the end value 0 or
    :data:`_FULL_ARC`, exactly what the clipped formula gives).
    """
    x = np.asarray(x, dtype=float)
    out = np.where(x >= 2.0, _FULL_ARC, 0.0)
    inside = (x > 0.0) & (x < 2.0)
    out[inside] = (2.0 / np.pi) * np.arcsin(np.sqrt(x[inside] / 2.0))
    return out


#: The arc probability at x = 2 as the formula rounds it.
_FULL_ARC = float((2.0 / np.pi) * np.arcsin(np.sqrt(2.0 / 2.0)))


def _two_sin_product(a, b):
    """``2 sin(a/2) sin(b/2)`` (= cos x - cos y for a = x + y, b = y - x, without cancellation)."""
    return 2.0 * np.sin(a / 2.0) * np.sin(b / 2.0)


def _conditional(n, sigma, delta, eps, r, rho, per_pair):
    r"""Arc probabilities of :math:`\{L > \varepsilon\}`, :math:`\{L \le \varepsilon\}`, :math:`\{L < -\varepsilon\}`
    given :math:`(r, \rho)`: ``eps`` and ``r`` 1-D of equal length, ``rho`` 1-D: the ρ nodes of each
    :math:`(\varepsilon, r)` pair in turn, ``per_pair`` of them for each pair.

    With :math:`c_\pm = \cos s_\pm`, :math:`s_\pm^2 = r^2 \pm 2\sigma^2\varepsilon`:
    :math:`\{L > \varepsilon\} = \{|A + BX| < c_+\}` (empty if :math:`s_+ \ge \pi/2`),
    :math:`\{L < -\varepsilon\} = \{|A + BX| > c_-\}` (empty if :math:`s_-^2 \le 0`). In :math:`\varphi`:
    :math:`\Pr[\cos\varphi < t] = \tfrac2\pi\arcsin\sqrt{(1+t)/2}`, with
    :math:`1 + t_+ = (c_+ - A + B\rho)(c_+ + A - B\rho)/(2AB\rho)`, and :math:`\Pr[\cos\varphi > t] =
    \tfrac2\pi\arcsin\sqrt{(1-t)/2}`, :math:`1 - t = (A + B\rho - c)(A + B\rho + c)/(2AB\rho)`. The small
    factors are formed without cancellation: :math:`c_+ - A + B\rho = [\cos s_+ - \cos(r+\Delta)] - B(1-\rho)`,
    :math:`A + B\rho - c = [\cos(r-\Delta) - \cos s] - B(1-\rho)`, the brackets by product-to-sum identities.
    Everything that depends on :math:`(\varepsilon, r)` only is computed once per pair; an event impossible at
    :math:`(\varepsilon, r)` gets its constant probability without evaluating the arcs.
    """
    two_s2e = 2.0 * sigma**2 * eps
    a_coef = np.cos(r) * math.cos(delta)
    b_coef = np.sin(r) * math.sin(delta)
    abs_diff = np.abs(r - delta)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        two_ab = 2.0 * a_coef * b_coef
        # upper event {d2 > s_plus}
        s_plus = np.sqrt(r**2 + two_s2e)
        c_plus = np.cos(s_plus)
        gap_plus = (2.0 * r * delta + delta**2 - two_s2e) / (r + delta + s_plus)  # r + Δ - s_plus
        d_plus = _two_sin_product(s_plus + r + delta, gap_plus)  # cos s_plus - cos(r + Δ)
        possible = s_plus < _HALF_PI
        # complement {d2 <= s_plus}
        gap_c = (2.0 * r * delta - delta**2 + two_s2e) / (s_plus + abs_diff)  # s_plus - |r - Δ|
        e_plus = _two_sin_product(s_plus + abs_diff, gap_c)  # cos(r - Δ) - cos s_plus
        # lower event {d2 < s_minus}
        s_minus_sq = r**2 - two_s2e
        s_minus = np.sqrt(np.maximum(s_minus_sq, 0.0))
        gap_minus = (2.0 * r * delta - delta**2 - two_s2e) / (s_minus + abs_diff)  # s_minus - |r - Δ|
        e_minus = _two_sin_product(s_minus + abs_diff, gap_minus)  # cos(r - Δ) - cos s_minus
        c_minus = np.cos(s_minus)
        lower_possible = (s_minus_sq > 0.0) & (gap_minus > 0.0)
    rho = np.asarray(rho, dtype=float)
    p_upper, p_not_upper, p_lower = np.zeros(rho.shape), np.ones(rho.shape), np.zeros(rho.shape)
    upper_pair = np.stack(np.broadcast_arrays(b_coef, two_ab, d_plus, e_plus, a_coef + c_plus))
    lower_pair = np.stack(np.broadcast_arrays(b_coef, two_ab, e_minus, a_coef + c_minus))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for mask, pair, upper in ((possible, upper_pair, True), (lower_possible, lower_pair, False)):
            mask = np.broadcast_to(mask, r.shape)
            if not mask.any():
                continue
            entries = np.repeat(mask, per_pair)
            rr = rho[entries]
            b, ab2, *rest = np.repeat(pair, np.where(mask, per_pair, 0), axis=1)  # each pair's constants, per node
            denom = ab2 * rr
            shortfall = b * (1.0 - rr)
            b_rho = b * rr
            if upper:
                d_p, e_p, a_plus_c = rest
                p_upper[entries] = _arc((d_p - shortfall) * (a_plus_c - b_rho) / denom)
                p_not_upper[entries] = _arc((e_p - shortfall) * (a_plus_c + b_rho) / denom)
            else:
                e_m, a_plus_c = rest
                p_lower[entries] = _arc((e_m - shortfall) * (a_plus_c + b_rho) / denom)
    return p_upper, p_not_upper, p_lower


def _rho_breakpoints(sigma, delta, eps, r):
    """Values of ρ in (0, 1) where an arc probability reaches 0 or 1 (kinks in ρ), shape (..., 8)."""
    two_s2e = 2.0 * sigma**2 * eps
    a_coef = np.cos(r) * math.cos(delta)
    b_coef = np.sin(r) * math.sin(delta)
    abs_diff = np.abs(r - delta)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        s_plus = np.sqrt(r**2 + two_s2e)
        c_plus = np.cos(s_plus)
        d_plus = _two_sin_product(s_plus + r + delta, (2.0 * r * delta + delta**2 - two_s2e) / (r + delta + s_plus))
        e_plus = _two_sin_product(s_plus + abs_diff, (2.0 * r * delta - delta**2 + two_s2e) / (s_plus + abs_diff))
        s_minus = np.sqrt(np.maximum(r**2 - two_s2e, 0.0))
        e_minus = _two_sin_product(s_minus + abs_diff, (2.0 * r * delta - delta**2 - two_s2e) / (s_minus + abs_diff))
        c_minus = np.cos(s_minus)
        points = np.stack([
            np.zeros_like(r), np.ones_like(r),
            1.0 - d_plus / b_coef, (c_plus + a_coef) / b_coef, 1.0 - e_plus / b_coef,
            1.0 - e_minus / b_coef, (a_coef - c_minus) / b_coef, (a_coef + c_minus) / b_coef,
        ], axis=-1)
    return np.sort(np.clip(np.nan_to_num(points, nan=0.0, posinf=1.0, neginf=0.0), 0.0, 1.0), axis=-1)


#: Breakpoints of the law of ρ in units of its mode 1/sqrt(2n - 3) (the density concentrates there for large n).
_RHO_SCALE_STEPS = np.array([0.5, 1.0, 2.0, 4.0, 8.0])


#: (ε, r) rows per block of the ρ quadrature: a block's arrays (rows × ρ nodes) stay in the processor's cache.
_ROW_BLOCK = 256


def _inner(n, sigma, delta, eps, r):
    """E over ρ of the three arc probabilities, for flat arrays ``eps``, ``r`` of equal length."""
    if n == 1:
        return _conditional(n, sigma, delta, eps, r, np.ones_like(r), np.ones(r.size, dtype=int))
    out = tuple(np.empty(r.shape) for _ in range(3))
    for start in range(0, r.size, _ROW_BLOCK):
        block = slice(start, start + _ROW_BLOCK)
        for total, part in zip(out, _inner_block(n, sigma, delta, eps[block], r[block])):
            total[block] = part
    return out


def _inner_block(n, sigma, delta, eps, r):
    """:func:`_inner` on one block of rows."""
    kinks = _rho_breakpoints(sigma, delta, eps, r)
    if n >= 6:
        scale = np.clip(_RHO_SCALE_STEPS / math.sqrt(2.0 * n - 3.0), 0.0, 1.0)
        kinks = np.sort(np.concatenate([kinks, np.broadcast_to(scale, kinks.shape[:-1] + scale.shape)], axis=-1),
                        axis=-1)
    # the nodes of the pieces of positive length only (coincident kinks leave empty pieces: zero weight, no term);
    # positions and weights as in _quadrature
    position, weight = _reference_nodes(_RHO_NODES)
    length = np.diff(kinks, axis=-1)
    live = length > 0.0
    count = _RHO_NODES * np.count_nonzero(live, axis=1)
    length = length[live][:, None]
    rho = (kinks[:, :-1][live][:, None] + length * position).ravel()
    weights = (length * weight).ravel()
    # law of ρ: ρ² ~ Beta(1, n - 1), density 2(n - 1) ρ (1 - ρ²)^(n - 2)
    if n == 2:
        density = 2.0 * (n - 1) * rho
    else:
        with np.errstate(divide="ignore"):
            density = 2.0 * (n - 1) * rho * np.exp((n - 2) * np.log1p(-(rho * rho)))
    weighted = weights * density
    filled = count > 0
    starts = (np.cumsum(count) - count)[filled]  # each pair's entries are contiguous in row-major order
    sums = []
    for p in _conditional(n, sigma, delta, eps, r, rho, count):
        total = np.zeros(r.size)
        total[filled] = np.add.reduceat(weighted * p, starts) if starts.size else 0.0
        sums.append(total)
    return tuple(sums)


def _r_breakpoints(sigma, delta, eps):
    r"""Radii where the inner integrals change form, shape (n_eps, 8).

    At :math:`\rho = 1`, :math:`|A + BX|` ranges over :math:`[|\cos(r+\Delta)|, \cos(r-\Delta)]`: the events start
    or fill where :math:`s_\pm = r + \Delta` or :math:`|r - \Delta|` (:math:`r = \pm(\sigma^2\varepsilon/\Delta - \Delta/2)`,
    :math:`\Delta/2 + \sigma^2\varepsilon/\Delta`) and where :math:`s_\pm = \pi - r - \Delta`
    (:math:`r = (w^2 \mp 2\sigma^2\varepsilon)/(2w)`, :math:`w = \pi - \Delta`); also :math:`s_+ = \pi/2`,
    :math:`r = \pi/2 - \Delta` (the sign change of :math:`\cos(r + \Delta)`) and :math:`s_- = 0`.
    """
    q = sigma**2 * eps / delta
    two_s2e = 2.0 * sigma**2 * eps
    w = math.pi - delta
    return np.stack([q - delta / 2.0, delta / 2.0 - q, delta / 2.0 + q,
                     (w**2 - two_s2e) / (2.0 * w), (w**2 + two_s2e) / (2.0 * w),
                     np.sqrt(np.maximum(_HALF_PI**2 - two_s2e, 0.0)), np.full_like(q, _HALF_PI - delta),
                     np.sqrt(two_s2e)], axis=-1)


def _log_tails(n, sigma, delta, eps):
    """Log of P[L > ε], P[L ≤ ε], P[L < -ε] for a 1-D array ``eps``."""
    d = 2 * n
    _, low, _, high, log_norm, fixed = _radial_law(d, sigma, delta)
    kinks = np.clip(_r_breakpoints(sigma, delta, eps), low, high)
    slope = _radial_slope(d, sigma, kinks)
    # e-folding length of the radial density at each kink, on the side where it decays away from the kink
    # (beyond it if the density decreases there, before it if it increases): an integrand cut off at a kink
    # deep in a tail is resolved on its own scale
    scale = np.nan_to_num(-1.0 / slope, nan=0.0, posinf=0.0, neginf=0.0)
    decay = (kinks[..., None] + scale[..., None] * _DECAY_STEPS).reshape(eps.shape + (-1,))
    points = np.concatenate([np.broadcast_to(fixed, eps.shape + fixed.shape), kinks, decay], axis=-1)
    nodes, weights = _quadrature(np.sort(np.clip(points, low, high), axis=-1), _R_NODES)
    live = weights > 0.0
    eps_live = np.broadcast_to(eps[:, None], nodes.shape)[live]
    inner = _inner(n, sigma, delta, eps_live, nodes[live])
    with np.errstate(divide="ignore"):
        log_w = np.log(weights[live]) + _log_radial(d, sigma, nodes[live]) - log_norm
        results = []
        for p_live in inner:
            terms = np.full(nodes.shape, -np.inf)
            terms[live] = log_w + np.log(np.maximum(p_live, 0.0))
            results.append(np.minimum(special.logsumexp(terms, axis=-1), 0.0))
    return tuple(results)


@functools.lru_cache(maxsize=1)
def _warm_allocator():
    """Allocate and free one 8 MB array, once per process.

    The quadrature's temporaries are 0.1–1 MB arrays. glibc's ``malloc`` serves blocks above a threshold (128 KB in a
    fresh process) with ``mmap`` and gives them back to the kernel when they are freed, so each temporary is
    page-faulted anew (measured: 2.5x the time of the arithmetic). Freeing one ``mmap``-ed block raises that threshold,
    and the heap's trim threshold, to the block's size for the rest of the process (glibc's dynamic threshold, the
    state of any process that has already freed a large array): the temporaries then stay in the heap. Harmless for
    other allocators.
    """
    np.ones(1 << 20)


def _log_profile(n, sigma, delta, eps, chunk=32):
    _warm_allocator()
    eps = np.asarray(eps, dtype=float)
    parts = [_log_tails(n, sigma, delta, eps[i:i + chunk]) for i in range(0, eps.size, chunk)]
    upper, not_upper, lower = (np.concatenate([part[j] for part in parts]) for j in range(3))
    return _combine_profile(eps, upper, not_upper, lower)


def _validate(k, sigma, sensitivity):
    k = check_int(k, "k", low=3, high=1000)
    sigma = check_real(sigma, "sigma", low=0.0)
    sensitivity = check_real(sensitivity, "sensitivity", low=0.0, high=_HALF_PI, high_closed=True)
    return k - 2, sigma, sensitivity


def kendall_privacy_profile(k, sigma, sensitivity, eps):
    r"""Privacy profile :math:`\delta(\varepsilon)` of the Riemannian Gaussian on :math:`\Sigma^k_2` (quadrature).

    Parameters
    ----------
    k : int
        Number of landmarks, ``3 <= k <= 1000``.
    sigma : float
        Scale :math:`\sigma > 0`.
    sensitivity : float
        :math:`\Delta \in (0, \pi/2]`.
    eps : array_like
        :math:`\varepsilon \ge 0`.

    Returns
    -------
    ndarray
    """
    n, sigma, sensitivity = _validate(k, sigma, sensitivity)
    eps = np.atleast_1d(np.asarray(eps, dtype=float))
    return np.exp(_log_profile(n, sigma, sensitivity, eps)[0])


@functools.lru_cache(maxsize=256)
def _mu(n, sigma, delta):
    if sigma < _SMALL_SIGMA:
        return delta / sigma  # flat at the noise scale: Euclidean Gaussian mechanism to O(sigma^2)
    core_high = _radial_law(2 * n, sigma, delta)[2]
    eps_high = min(delta * (math.pi - delta) / (2.0 * sigma**2), (core_high + delta / 2.0) * delta / sigma**2)
    mu, _ = _search_mu(lambda eps: _log_profile(n, sigma, delta, eps), max(eps_high, 0.0), start=delta / sigma)
    return float(mu)


def kendall_gdp_mu(k, sigma, sensitivity):
    r"""Smallest :math:`\mu` such that the Riemannian Gaussian on :math:`\Sigma^k_2` is :math:`\mu`-GDP.

    The quadrature value times :math:`1 + 10^{-5}` (:data:`QUADRATURE_MARGIN`; measured quadrature error
    :math:`\le 5\cdot10^{-7}` relative against a rule with 1.5x the nodes, and :math:`\le 10^{-7}` against the sphere's
    independent quadrature for :math:`k = 3`), so the value is on the safe side. Accuracy was checked for every
    :math:`k \le 100` the app offers (:data:`KENDALL_EXACT_MAX_K`; independent references at k = 25, 50, 100).

    Returns
    -------
    float
    """
    n, sigma, sensitivity = _validate(k, sigma, sensitivity)
    return _safe_mu(n, sigma, sensitivity)


def _safe_mu(n, sigma, delta):
    return _mu(n, sigma, delta) * (1.0 + QUADRATURE_MARGIN)


def _total_variation_mu(n, sigma, delta):
    r"""GDP parameter of the profile at :math:`\varepsilon = 0` alone: :math:`-2\Phi^{-1}((1 - \delta(0))/2)`.

    A lower bound of :func:`_mu` (the supremum over :math:`\varepsilon` includes 0) at the cost of one
    :math:`\varepsilon`; equal to it when the worst :math:`\varepsilon` is 0, the usual case. Used only to guess
    :math:`\sigma`: every returned :math:`\sigma` is checked with the full :func:`_safe_mu`.
    """
    _, log_comp = _log_profile(n, sigma, delta, np.array([0.0]))
    return float(-2.0 * special.ndtri_exp(log_comp[0] - math.log(2.0))) * (1.0 + QUADRATURE_MARGIN)


def _total_variation_guess(n, mu, delta, waste):
    """A sigma whose total-variation mu is just inside the calibration window (``delta / mu`` if none is found)."""
    aim = math.log(mu * (1.0 - 0.4 * waste))
    flat = math.log(delta / mu)  # positive curvature only lowers mu: the root lies at or below the flat sigma

    def gap(log_sigma):
        return math.log(max(_total_variation_mu(n, math.exp(log_sigma), delta), 1e-300)) - aim

    try:
        low, high = flat - 1.0, flat + 0.05
        for _ in range(30):
            if gap(low) > 0.0:
                break
            low -= 1.0
        if not gap(low) > 0.0 >= gap(high):
            return delta / mu
        return math.exp(optimize.brentq(gap, low, high, xtol=1e-7))
    except (ValueError, ArithmeticError, ConvergenceError):
        return delta / mu


@functools.lru_cache(maxsize=256)
def _calibrate(n, mu, delta, waste):
    target_low = (1.0 - waste) * mu
    sigma = _total_variation_guess(n, mu, delta, waste)  # usually inside the window at the first full check
    value = _safe_mu(n, sigma, delta)
    meets, fails = (None, None), (None, None)
    history = []
    for _ in range(40):
        history.append((math.log(sigma), math.log(max(value, 1e-300))))
        if value <= mu:
            meets = (sigma, value) if meets[0] is None or sigma < meets[0] else meets
            if value >= target_low:
                return meets
        else:
            fails = (sigma, value) if fails[0] is None or sigma > fails[0] else fails
        # secant step on log mu against log sigma towards the middle of the admissible window
        goal = math.log(0.5 * (target_low + mu))
        if len(history) >= 2 and history[-1][0] != history[-2][0]:
            slope = (history[-1][1] - history[-2][1]) / (history[-1][0] - history[-2][0])
        else:
            slope = -1.0
        slope = min(slope, -1e-3)
        guess = history[-1][0] + (goal - history[-1][1]) / slope
        if meets[0] is not None and fails[0] is not None:
            lo, hi = math.log(fails[0]), math.log(meets[0])
            if not lo < guess < hi or len(history) % 4 == 0:  # keep inside the bracket; bisect now and then
                guess = 0.5 * (lo + hi)
        sigma = math.exp(guess)
        value = _safe_mu(n, sigma, delta)
    if meets[0] is None:
        raise ConvergenceError(f"no sigma found meeting mu = {mu!r} for sensitivity = {delta!r}")
    return meets


def kendall_gaussian_calibration(k, mu, sensitivity, waste=_CALIBRATION_WASTE):
    r"""Scale :math:`\sigma` with :math:`(1 - \text{waste})\mu \le \mu(\sigma, \Delta) \le \mu`; returns ``(sigma, mu_achieved)``.

    Secant steps on :math:`\log\mu` against :math:`\log\sigma` (kept inside the bracket once both sides are
    known); every returned :math:`\sigma` was checked with :func:`kendall_gdp_mu` (margin included).
    """
    n, _, sensitivity = _validate(k, 1.0, sensitivity)
    mu = check_real(mu, "mu", low=0.0)
    return _calibrate(n, mu, sensitivity, float(waste))
