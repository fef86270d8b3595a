r"""Exact laws of the geodesic radius on constant-curvature, flat and Kendall shape spaces (docs/specification.md §1.9, §5.1, §5.2).

A noise law with density :math:`\propto g(\operatorname{dist}(\eta, y))` with respect to
the Riemannian volume of a homogeneous space of constant curvature has, in geodesic
polar coordinates :math:`y = \operatorname{Exp}_\eta(r u)`, a direction :math:`u`
uniform on the unit sphere of :math:`T_\eta M` and, independently, a radius with density

.. math::

    p(r) = \frac{g(r) J(r)}{Z}, \qquad
    Z = \int_0^{r_{\max}} g(r) J(r) \, dr,

where :math:`J(r) = \sin(r)^{d-1}` on :math:`[0, \pi]` (sphere :math:`S^d`),
:math:`\sinh(r)^{d-1}` (hyperbolic space :math:`H^d`), :math:`r^{d-1}`
(Euclidean :math:`\mathbb{R}^d`) and :math:`\sin(r)^{d-1}\cos(r)` on :math:`[0, \pi/2]`
(Kendall shape space :math:`\Sigma^k_2 = \mathbb{C}P^{k-2}`, :math:`d = 2k - 4`, which is
isotropic — two-point homogeneous — though not of constant curvature; see
``docs/derivations/kendall_shape_space.md``). The profiles are

.. math::

    g_{\mathrm{laplace}}(r) = e^{-r/s}, \qquad
    g_{\mathrm{gaussian}}(r) = e^{-r^2/(2 s^2)}, \qquad
    g_{\mathrm{uniform}}(r) = \mathbf 1[r \le s],

with ``scale`` :math:`s` (the uniform profile is the uniform law in the geodesic ball
:math:`B(\eta, s)`; on the sphere a radius :math:`s \ge \pi` means the whole sphere).

Every radial density here is log-concave in :math:`r` (``log J`` and ``log g`` are
concave), which the quadrature and the generic "tangent hull" sampler rely on.
Derivations, envelopes and acceptance rates: ``docs/derivations/exact_samplers.md``.

All samplers are exact rejection samplers (or exact inverse-CDF / closed-form draws),
vectorised in batches; they always return exactly ``size`` radii.
"""

import functools
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, special

from geodp_core._validation import (
    check_finite_array,
    check_int,
    check_option,
    check_real,
    check_rng,
)
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry.radial_volume import (
    MAX_DIM,
    ComplexProjectiveVolume,
    FlatVolume,
    HyperbolicVolume,
    RadialVolume,
    SphericalVolume,
    log_expm1_ratio,
    log_sinh,
)

__all__ = [
    "MIN_ACCEPTANCE",
    "PROFILES",
    "SPACES",
    "RadialLaw",
    "get_radial_law",
    "laplace_scale_limit",
    "log_radial_jacobian",
    "log_sinh",
    "sample_radius",
]

PROFILES = ("laplace", "gaussian", "uniform")

#: A rejection sampler whose acceptance rate is below this raises instead of spinning.
MIN_ACCEPTANCE = 1e-3

SCALE_MIN = 1e-8
SCALE_MAX = 1e8

# Quadrature: the effective support is where log p is within _DROP nats of its maximum
# (the neglected mass is < 1e-24 relative for a log-concave density); it is cut at the
# mode into _PANELS_PER_SIDE equal panels per side, each integrated by Gauss-Legendre.
_DROP = 60.0
_PANELS_PER_SIDE = 48
_GL_X, _GL_W = np.polynomial.legendre.leggauss(24)
# Drops (in nats below the maximum) at which the tangent-hull envelope touches log p.
_HULL_DROPS = (0.02, 0.25, 1.0, 2.5, 6.0, 14.0, 30.0)
#: Bisection steps of the hull's level points (enough for the last bit of any bracket in double precision).
_BISECTION_STEPS = 1100
_MAX_BATCH = 1 << 20
_CHUNK = 1 << 16
_TINY = np.finfo(float).tiny


# --------------------------------------------------------------------------- volumes
#: Radial volume families reachable by name (the string form of :func:`get_radial_law`, used by notebooks and
#: tests): ``space`` and the intrinsic dimension ``d`` (``d = 2k - 4`` on the Kendall space of ``k`` landmarks).
_VOLUME_BY_NAME = {
    "sphere": SphericalVolume,
    "hyperbolic": HyperbolicVolume,
    "euclidean": FlatVolume,
    "kendall": ComplexProjectiveVolume,
}
SPACES = tuple(_VOLUME_BY_NAME)


def radial_volume(space, dim=None):
    """The :class:`~geodp_core.geometry.radial_volume.RadialVolume` of ``space``.

    ``space`` is a volume (returned as is), a manifold (its ``radial_volume``; ``dim`` ignored) or one of
    ``"sphere"``, ``"hyperbolic"``, ``"euclidean"``, ``"kendall"`` with the intrinsic dimension ``dim``.
    """
    if isinstance(space, RadialVolume):
        return space
    volume = getattr(space, "radial_volume", None)
    if volume is not None or hasattr(space, "radial_volume"):
        if volume is None:
            raise UnavailableError(f"{space.label} is not isotropic: it has no radial volume density J(r)",
                                   param="space")
        return volume
    space = check_option(space, "space", SPACES)
    return _VOLUME_BY_NAME[space](check_int(dim, "dim", low=1, high=MAX_DIM))


def volume_family(volume):
    """The family name (a key of the string form of :func:`get_radial_law`) of a volume of unit curvature scale."""
    for name, cls in _VOLUME_BY_NAME.items():
        if type(volume) is cls and getattr(volume, "curvature", 1.0) == 1.0:
            return name
    return None


def log_radial_jacobian(space, dim, radius):
    r"""Log of the radial volume density :math:`J(r)` of ``space`` in dimension ``dim``.

    .. math::

        J(r) = \sin(r)^{d-1} \ (S^d,\ 0 \le r \le \pi), \quad
        \sinh(r)^{d-1} \ (H^d), \quad r^{d-1} \ (\mathbb{R}^d), \quad
        \sin(r)^{d-1}\cos(r) \ (\Sigma^k_2,\ 0 \le r \le \pi/2),

    with :math:`J \equiv 1` when :math:`d = 1`. Returns ``-inf`` outside the range of
    the radius (``r < 0``, ``r > pi`` on the sphere, ``r > pi/2`` on Kendall space).

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean", "kendall"}, a Manifold or a RadialVolume
    dim : int
        Intrinsic dimension ``d >= 1`` (even ``d >= 2`` for ``"kendall"``; ignored for a manifold or volume).
    radius : array_like
        Geodesic radii.

    Returns
    -------
    ndarray
    """
    volume = radial_volume(space, dim)
    radius = check_finite_array(radius, "radius")
    return volume.log_jacobian(radius)


def _log_profile(profile, scale, r):
    r = np.asarray(r, dtype=float)
    if profile == "laplace":
        return -r / scale
    if profile == "gaussian":
        return -0.5 * (r / scale) ** 2
    return np.where(r <= scale, 0.0, -np.inf)


def _dlog_profile(profile, scale, r):
    r = np.asarray(r, dtype=float)
    if profile == "laplace":
        return np.full_like(r, -1.0 / scale)
    if profile == "gaussian":
        return -r / scale**2
    return np.zeros_like(r)


def laplace_scale_limit(space, dim=None):
    r"""Largest Laplace scale for which :math:`e^{-r/s} J(r)` is integrable (exclusive).

    :math:`1/(d-1)` on :math:`H^d` (``inf`` when ``d = 1``), ``inf`` on the sphere and
    Euclidean space: on :math:`H^d`, :math:`e^{-r/s}\sinh(r)^{d-1} \sim 2^{1-d}
    e^{-(1/s - (d-1)) r}` as :math:`r \to \infty`.

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean", "kendall"}, a Manifold or a RadialVolume
    dim : int

    Returns
    -------
    float
    """
    return radial_volume(space, dim).laplace_scale_limit()


def _brentq(func, a, b):
    return optimize.brentq(func, a, b, xtol=1e-300, rtol=1e-12, maxiter=2000)


# --------------------------------------------------------------- log-concave engine
class _GuideTable:
    """``searchsorted(cum, u, side="right")`` for many ``u`` in ``[0, cum[-1]]``, by a guide table (Chen & Asau).

    ``guide[g]`` counts the entries of ``cum`` at or below the start of cell ``g`` of ``[0, cum[-1]]``; a query starts
    there and moves past at most one entry inside its cell. Queries it does not settle (cells holding two or more
    entries, or ``g`` rounded into the next cell) are searched with ``searchsorted``: the result is always exact.
    """

    def __init__(self, cum, cells=None):
        self.cum = np.asarray(cum, dtype=float)
        size = cells or max(1024, 64 * self.cum.size)
        self.guide = np.searchsorted(self.cum, self.cum[-1] * (np.arange(size) / size), side="right")
        self.scale = size / self.cum[-1]
        self.below = np.concatenate([[-np.inf], self.cum])  # below[j] = cum[j - 1]
        self.above = np.append(self.cum, np.inf)  # above[j] = cum[j]

    def __call__(self, u):
        g = np.minimum((u * self.scale).astype(np.intp), self.guide.size - 1)
        j = self.guide[g]
        j += self.above[j] <= u  # one entry inside the cell of u
        miss = (self.above[j] <= u) | (self.below[j] > u)
        if miss.any():
            j[miss] = np.searchsorted(self.cum, u[miss], side="right")
        return j


class _LogConcaveLaw:
    r"""A log-concave density :math:`\propto e^{\ell(r)}` on :math:`[0, b]` (``b`` may be inf).

    Provides an accurate log normaliser and CDF (panel Gauss-Legendre quadrature over
    the effective support) and an exact rejection sampler whose envelope is the
    piecewise-exponential "tangent hull" :math:`\min_i \{\ell(x_i) + \ell'(x_i)(r - x_i)\}`
    (an upper bound of :math:`\ell` because :math:`\ell` is concave).

    Parameters
    ----------
    logf : callable
        Vectorised :math:`\ell` (``-inf`` outside the support).
    dlogf : callable
        Vectorised :math:`\ell'` on the interior of the support.
    upper : float
        Right end ``b`` of the support (``inf`` allowed); the left end is 0.
    """

    def __init__(self, logf, dlogf, upper):
        self._logf = logf
        self._dlogf = dlogf
        self.upper = float(upper)
        self.mode = self._find_mode()
        self.log_fmax = self._lf(self.mode)
        if not np.isfinite(self.log_fmax):  # pragma: no cover - defensive
            raise InvalidParameterError("radial density has no finite maximum", param="scale")
        self.left, self.right = self._effective_support()
        if not self.right > self.left or not np.isfinite(self.log_fmax - _DROP - self.log_fmax):
            raise InvalidParameterError(
                "scale is outside the range where this radial law can be computed in double "
                f"precision (its mode {self.mode:.3g} and log-density {self.log_fmax:.3g} are too large)",
                param="scale",
            )
        self._build_quadrature()
        self._build_hull()

    # scalar helpers
    def _lf(self, x):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return float(self._logf(np.array([x], dtype=float))[0])

    def _dlf(self, x):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return float(self._dlogf(np.array([x], dtype=float))[0])

    def _find_mode(self):
        finite = np.isfinite(self.upper)
        if finite:
            b = self.upper
            if self._dlf(b) >= 0:
                return b
        else:
            b = 1.0
            while self._dlf(b) > 0:
                b *= 2.0
        if self._dlf(_TINY) <= 0:
            return 0.0
        a = b
        while self._dlf(a) <= 0:
            a *= 0.5
        b = min(2.0 * a, b)
        if self._dlf(b) >= 0:
            return b
        return _brentq(self._dlf, a, b)

    def _finite_left(self):
        """``left`` itself if the log-density is finite there, else a point in (0, mode) below the cut."""
        if np.isfinite(self._lf(self.left)):
            return self.left
        thr = self.log_fmax - _DROP
        a = self.mode
        while not (np.isfinite(self._lf(a)) and self._lf(a) < thr):
            a *= 0.5
        return a

    def _solve_levels(self, levels, low_end, mode):
        r"""Points x between ``low_end`` and the mode with :math:`\ell(x) = ` each level (vectorised bisection).

        :math:`\ell` is monotone between ``low_end`` (below every level) and the mode (above them).
        Any point gives a valid tangent (the hull bounds a concave :math:`\ell` whatever its tangent
        points); bisection to the last bit makes the hull that of the exact level points.
        """
        if levels.size == 0:
            return levels
        lo = np.full(levels.shape, float(low_end))  # ell(lo) < level
        hi = np.full(levels.shape, float(mode))  # ell(hi) >= level
        for _ in range(_BISECTION_STEPS):
            mid = 0.5 * (lo + hi)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                above = self._logf(mid) >= levels
            lo, hi = np.where(above, lo, mid), np.where(above, mid, hi)
            if np.all(np.abs(hi - lo) <= 4e-16 * np.maximum(np.abs(lo), np.abs(hi))):
                break
        return 0.5 * (lo + hi)

    def _effective_support(self):
        thr = self.log_fmax - _DROP
        mode = self.mode
        if mode == 0.0 or self._lf(0.0) >= thr:
            left = 0.0
        else:
            a = mode
            while self._lf(a) >= thr:
                a *= 0.5
            left = _brentq(lambda x: self._lf(x) - thr, a, mode)
        finite = np.isfinite(self.upper)
        if finite and self._lf(self.upper) >= thr:
            right = self.upper
        else:
            h = max(mode, 1e-300)
            while True:
                b = mode + h
                if finite and b >= self.upper:
                    b = self.upper
                    break
                if self._lf(b) < thr:
                    break
                h *= 2.0
            right = _brentq(lambda x: self._lf(x) - thr, mode, b)
        return left, right

    # ------------------------------------------------------------ quadrature
    def _build_quadrature(self):
        pieces = []
        if self.mode > self.left:
            pieces.append(np.linspace(self.left, self.mode, _PANELS_PER_SIDE + 1))
        if self.right > self.mode:
            right_edges = np.linspace(self.mode, self.right, _PANELS_PER_SIDE + 1)
            pieces.append(right_edges[1:] if pieces else right_edges)
        edges = np.concatenate(pieces)
        lo, hi = edges[:-1], edges[1:]
        half = 0.5 * (hi - lo)
        nodes = lo[:, None] + half[:, None] * (_GL_X[None, :] + 1.0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            vals = np.exp(self._logf(nodes) - self.log_fmax)
        panel = half * (vals @ _GL_W)
        self._edges = edges
        self._cum = np.concatenate([[0.0], np.cumsum(panel)])
        self._total = float(self._cum[-1])
        self.log_normaliser = self.log_fmax + math.log(self._total)

    def cdf(self, r):
        r = np.asarray(r, dtype=float)
        flat = r.ravel()
        out = np.empty_like(flat)
        for start in range(0, flat.size, _CHUNK):
            out[start:start + _CHUNK] = self._cdf_flat(flat[start:start + _CHUNK])
        return out.reshape(r.shape)

    def _cdf_flat(self, r):
        rc = np.clip(r, self.left, self.right)
        npan = self._edges.size - 1
        idx = np.clip(np.searchsorted(self._edges, rc, side="right") - 1, 0, npan - 1)
        a = self._edges[idx]
        half = 0.5 * (rc - a)
        nodes = a[:, None] + half[:, None] * (_GL_X[None, :] + 1.0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            vals = np.exp(self._logf(nodes) - self.log_fmax)
        partial = half * (vals @ _GL_W)
        cdf = np.clip((self._cum[idx] + partial) / self._total, 0.0, 1.0)
        cdf = np.where(r <= 0.0, 0.0, cdf)
        return np.where(r >= self.upper, 1.0, cdf)

    # ------------------------------------------------------------ tangent hull
    def _build_hull(self):
        levels = self.log_fmax - np.asarray(_HULL_DROPS)
        thr_points = []
        if self.mode > self.left:
            below = levels[self._lf(self.left) < levels]
            thr_points += list(self._solve_levels(below, self._finite_left(), self.mode))
        if self.right > self.mode:
            below = levels[self._lf(self.right) < levels]
            thr_points += list(self._solve_levels(below, self.right, self.mode))
        candidates = sorted(set(thr_points + [self.mode]))
        xs, cs, bs = [], [], []
        for x in candidates:
            c, beta = self._lf(x), self._dlf(x)
            if not (np.isfinite(c) and np.isfinite(beta)):
                continue
            if bs and beta >= bs[-1] - 1e-12 * (abs(beta) + abs(bs[-1])):
                continue  # same slope as the previous tangent (linear stretch)
            xs.append(x)
            cs.append(c)
            bs.append(beta)
        xs, cs, bs = np.array(xs), np.array(cs), np.array(bs)
        if not np.isfinite(self.upper) and bs[-1] >= 0:  # pragma: no cover - defensive
            raise InvalidParameterError("radial density is not normalisable", param="scale")
        # Breakpoints between consecutive tangents (any breakpoints give a valid
        # envelope: each tangent bounds the concave log-density everywhere).
        z = (cs[1:] - cs[:-1] + bs[:-1] * xs[:-1] - bs[1:] * xs[1:]) / (bs[:-1] - bs[1:])
        z = np.clip(z, xs[:-1], xs[1:])
        self._hull_x, self._hull_c, self._hull_b = xs, cs, bs
        self._hull_lo = np.concatenate([[0.0], z])
        self._hull_hi = np.concatenate([z, [self.upper]])
        width = self._hull_hi - self._hull_lo
        t_lo = cs + bs * (self._hull_lo - xs)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_mass = np.where(
                np.isinf(width),
                t_lo - np.log(np.abs(bs)),
                t_lo + np.log(np.where(width > 0, width, 1.0)) + log_expm1_ratio(bs * np.where(np.isinf(width), 0.0, width)),
            )
        log_mass = np.where(width > 0, log_mass, -np.inf)
        self._hull_log_z = float(special.logsumexp(log_mass))
        prob = np.exp(log_mass - self._hull_log_z)
        self._hull_cumprob = np.cumsum(prob)
        self.hull_log_acceptance = self.log_normaliser - self._hull_log_z
        self._build_hull_sampler()

    def _build_hull_sampler(self):
        r"""Per-piece constants of the inversion in :meth:`propose_hull` and a guide table for its piece search.

        A piece :math:`[a, b]` with slope :math:`\beta` and :math:`v` uniform is sampled at
        :math:`b + \log(1 + v\,\mathrm{expm1}(-\beta w))/\beta` (:math:`\beta > 0`, the distance below :math:`b`) or
        :math:`a + \log(1 + v\,\mathrm{expm1}(\beta w))/\beta` (:math:`\beta < 0`, the distance above :math:`a`),
        :math:`w = b - a`; a flat piece at :math:`a + v w`. The anchor, the ``expm1`` factor and the divisor depend on
        the piece only, so they are computed here once (the same floating-point operations as per draw).
        """
        lo, hi, beta = self._hull_lo, self._hull_hi, self._hull_b
        width = hi - lo
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            flat = np.abs(beta * np.where(np.isinf(width), 1.0, width)) < 1e-12
            safe_beta = np.where(flat, 1.0, beta)
            up = ~flat & (beta > 0)
            coef = np.where(up, np.expm1(-safe_beta * width), np.expm1(safe_beta * width))
        self._hull_anchor = np.where(up, hi, lo)
        self._hull_coef = np.where(flat, 0.0, coef)
        self._hull_divisor = safe_beta
        self._hull_flat = flat
        self._hull_flat_width = np.where(np.isinf(width), 0.0, width)
        self._hull_search = _GuideTable(self._hull_cumprob)

    def _hull_piece(self, u):
        """``searchsorted(cumprob, u, side="right")`` (by the guide table)."""
        return self._hull_search(u)

    def propose_hull(self, n, rng):
        """Draw ``n`` proposals from the tangent hull; return ``(r, log_accept_prob)``."""
        u = rng.random(n) * self._hull_cumprob[-1]
        j = np.minimum(self._hull_piece(u), self._hull_x.size - 1)
        v = rng.random(n)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            r = self._hull_anchor[j] + np.log1p(v * self._hull_coef[j]) / self._hull_divisor[j]
            if self._hull_flat.any():
                flat = self._hull_flat[j]
                r[flat] = self._hull_lo[j[flat]] + v[flat] * self._hull_flat_width[j[flat]]
            r = np.clip(r, self._hull_lo[j], self._hull_hi[j])
            tangent = self._hull_c[j] + self._hull_b[j] * (r - self._hull_x[j])
            log_acc = self._logf(r) - tangent
        return r, np.where(np.isnan(log_acc), -np.inf, log_acc)


def _rejection_loop(propose, log_acceptance, size, rng, max_batch=_MAX_BATCH):
    """Run ``propose`` in batches until exactly ``size`` proposals are accepted.

    ``propose(n, rng)`` returns ``(proposals, log_accept_prob)``; ``log_acceptance``
    (the log acceptance rate) only sizes the batches.
    """
    accepted = []
    n_acc = 0
    rate = max(math.exp(min(log_acceptance, 0.0)), MIN_ACCEPTANCE)
    while n_acc < size:
        need = size - n_acc
        n = int(min(max_batch, math.ceil(1.2 * need / rate) + 32))
        r, log_acc = propose(n, rng)
        with np.errstate(divide="ignore"):
            keep = np.log(rng.random(n)) < log_acc
        accepted.append(r[keep])
        n_acc += int(keep.sum())
    return np.concatenate(accepted)[:size]


# --------------------------------------------------------------------- RadialLaw
@dataclass(frozen=True)
class RadialLaw:
    r"""Law of the geodesic radius :math:`r = \operatorname{dist}(\eta, Y)`.

    Density :math:`p(r) = g(r) J(r) / Z` on :math:`[0, r_{\max}]` (see the module
    docstring for :math:`g` and :math:`J`).

    Parameters
    ----------
    space : {"sphere", "hyperbolic", "euclidean", "kendall"}
    dim : int
        Intrinsic dimension ``d >= 1`` (``d = 1`` on the sphere is the circle: ``J = 1``,
        ``r`` in ``[0, pi]``; ``d = 2k - 4`` even on the Kendall space of ``k`` landmarks).
    profile : {"laplace", "gaussian", "uniform"}
    scale : float
        Laplace scale :math:`s` (:math:`e^{-r/s}`), Gaussian standard deviation
        (:math:`e^{-r^2/2s^2}`) or ball radius, in ``[1e-8, 1e8]``.

    Raises
    ------
    UnavailableError
        Hyperbolic Laplace with ``scale >= 1/(dim-1)``: not normalisable.

    Notes
    -----
    Samplers (``method`` of :meth:`sample`; the default is ``"exact"`` when available,
    otherwise the valid envelope with the best exact acceptance rate
    :math:`Z / Z_{\mathrm{env}}`, see :meth:`acceptance_rates`):

    ``"exact"``
        Euclidean Laplace :math:`\Gamma(d, s)`, Euclidean Gaussian :math:`s\chi_d`,
        uniform ball by inverse CDF (Euclidean: :math:`s U^{1/d}`; ``d = 1``: :math:`sU`;
        :math:`S^2`: :math:`2\arcsin(\sqrt U \sin(s/2))`; :math:`H^2`:
        :math:`2\operatorname{asinh}(\sqrt U \sinh(s/2))`; Kendall space, any ``d``:
        :math:`\arcsin(U^{1/d}\sin s)`, the CDF being :math:`\sin^d r/\sin^d s`). Acceptance 1.
    ``"euclidean_envelope"`` (sphere, Kendall space)
        Propose the Euclidean law of the same profile (:math:`\Gamma(d, s)`,
        :math:`s\chi_d`, :math:`sU^{1/d}`), reject :math:`r > \pi` (Kendall: :math:`r > \pi/2`), accept with
        probability :math:`(\sin r / r)^{d-1}` (Kendall: times :math:`\cos r`). Acceptance
        :math:`Z/(\Gamma(d) s^d)`, :math:`Z/(2^{d/2-1}\Gamma(d/2) s^d)`,
        :math:`Z d / s^d`; close to 1 for small ``scale``.
    ``"uniform_envelope"`` (bounded support :math:`[0, b]`)
        Propose :math:`bU`, accept with probability :math:`p(r)/\max p`.
        Acceptance :math:`Z / (b \max(gJ))`; good for a large sphere ``scale``.
    ``"gamma_tilted"`` (hyperbolic Laplace)
        Propose :math:`\Gamma(d, \text{rate } 1/s - (d-1))`, accept with probability
        :math:`((1 - e^{-2r})/(2r))^{d-1}`. Acceptance
        :math:`Z (1/s - d + 1)^d / \Gamma(d)`; poor near the limit ``1/(d-1)``.
    ``"shifted_normal"`` (hyperbolic Gaussian)
        Propose :math:`N((d-1)s^2, s^2)`, reject :math:`r < 0`, accept with probability
        :math:`(1 - e^{-2r})^{d-1}`. Acceptance
        :math:`Z 2^{d-1} e^{-(d-1)^2 s^2/2} / (s\sqrt{2\pi})`; good for large ``scale``.
    ``"chi_tilted"`` (hyperbolic Gaussian, ``(d-1) s^2 < 3``)
        Propose :math:`s'\chi_d`, :math:`s'^{-2} = s^{-2} - (d-1)/3`, accept with probability
        :math:`(\sinh(r)/r \, e^{-r^2/6})^{d-1}`. Good for small ``scale``.
    ``"hull"`` (every non-exact case)
        Piecewise-exponential envelope made of tangents of the concave
        :math:`\log(gJ)`; acceptance typically above 0.9 (computed exactly).

    Typical exact rates: ``S^2`` Laplace ``s = 0.3``: euclidean_envelope 0.92, hull 0.99;
    ``S^2`` Laplace ``s = 50``: uniform_envelope 0.64, euclidean_envelope 8e-4, hull 0.98;
    ``H^3`` Laplace ``s = 0.45``: gamma_tilted 0.005, hull 0.996; ``H^2`` Gaussian ``s = 0.3``:
    chi_tilted 1.0, shifted_normal 0.24; ``s = 2``: shifted_normal 0.95. The default method's
    rate was >= 0.977 over ``d`` in {1, 2, 3, 7, 30, 200} and ``scale`` in [1e-8, 1e4].

    A method whose acceptance rate is below ``MIN_ACCEPTANCE = 1e-3`` raises
    :class:`~geodp_core.exceptions.UnavailableError` instead of running.
    """

    space: object
    dim: int
    profile: str
    scale: float
    volume: RadialVolume = field(init=False, repr=False, compare=False)
    _law: object = field(init=False, repr=False, compare=False)
    _methods: dict = field(init=False, repr=False, compare=False)
    _proposers: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        volume = radial_volume(self.space, self.dim)
        profile = check_option(self.profile, "profile", PROFILES)
        scale = check_real(self.scale, "scale", SCALE_MIN, SCALE_MAX, True, True)
        object.__setattr__(self, "volume", volume)
        object.__setattr__(self, "dim", volume.dim)
        object.__setattr__(self, "profile", profile)
        object.__setattr__(self, "scale", scale)
        if profile == "laplace":
            limit = volume.laplace_scale_limit()
            if scale >= limit:
                raise UnavailableError(
                    f"scale must be < 1/(dim-1) = {limit:.6g} for the Laplace law on {volume.label}: "
                    f"exp(-r/scale) sinh(r)^(dim-1) is not normalisable (not a probability "
                    f"density) when 1/scale <= dim-1; got scale={scale!r}",
                    param="scale",
                )
        law = _LogConcaveLaw(self.log_unnormalised_density, self._dlogf, self.upper)
        # log g and log J nearly cancel at a far-away mode (H^d, huge Gaussian scale): refuse
        # parameters for which the log-density near the mode has rounding error > 1e-6 nats
        at_mode = np.array([law.mode])
        magnitude = abs(float(_log_profile(profile, scale, at_mode)[0])) + abs(float(volume.log_jacobian(at_mode)[0]))
        if magnitude * np.finfo(float).eps > 1e-6:
            raise InvalidParameterError(
                f"scale={scale!r} is too large for an accurate {profile} radial law on {volume.label} with "
                f"dim={volume.dim}: the typical radius {law.mode:.3g} is beyond double precision",
                param="scale",
            )
        object.__setattr__(self, "_law", law)
        object.__setattr__(self, "_proposers", {})
        object.__setattr__(self, "_methods", self._build_methods())

    # ------------------------------------------------------------ density
    @property
    def upper(self):
        """Right end of the support of the radius (``pi`` on the sphere, ``pi/2`` on Kendall space, ``inf`` if unbounded)."""
        upper = self.volume.upper
        if self.profile == "uniform":
            upper = min(upper, self.scale)
        return float(upper)

    @property
    def support(self):
        """``(0, upper)``."""
        return (0.0, self.upper)

    @property
    def mode(self):
        """Location of the maximum of the radial density."""
        return self._law.mode

    def log_unnormalised_density(self, radius):
        r""":math:`\log g(r) + \log J(r)`; ``-inf`` outside the support."""
        r = np.asarray(radius, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _log_profile(self.profile, self.scale, r) + self.volume.log_jacobian(r)
        return np.where((r >= 0) & (r <= self.upper), out, -np.inf)

    def _dlogf(self, r):
        return _dlog_profile(self.profile, self.scale, r) + self.volume.dlog_jacobian(r)

    def log_normaliser(self):
        r""":math:`\log Z = \log\int_0^{r_{\max}} g(r) J(r)\,dr` (panel Gauss-Legendre, ~1e-14 relative)."""
        return self._law.log_normaliser

    def logpdf(self, radius):
        """Log density of the radius (``-inf`` outside the support)."""
        radius = check_finite_array(radius, "radius")
        return self.log_unnormalised_density(radius) - self._law.log_normaliser

    def pdf(self, radius):
        """Density of the radius."""
        return np.exp(self.logpdf(radius))

    def cdf(self, radius):
        r"""CDF :math:`P(r \le t)` by deterministic panel Gauss-Legendre quadrature (vectorised)."""
        radius = check_finite_array(radius, "radius")
        return self._law.cdf(radius)

    def ppf(self, quantile):
        r"""Quantile function :math:`F^{-1}(u)`: the radius below which a share ``u`` of the law lies.

        Inverts :meth:`cdf` by safeguarded Newton steps (derivative :meth:`pdf`) inside a bisection bracket, to
        :math:`10^{-12}` in probability. With one uniform :math:`U` per release, :math:`F_s^{-1}(U)` is an exact
        draw of the law of scale ``s`` for every ``s`` at once (quantile coupling): as the noise shrinks each
        radius shrinks with it instead of being redrawn.

        Parameters
        ----------
        quantile : array_like
            Values in ``[0, 1]``.

        Returns
        -------
        ndarray
            Radii in ``[0, upper]``, same shape.
        """
        u = check_finite_array(quantile, "quantile")
        if np.any((u < 0) | (u > 1)):
            raise InvalidParameterError("quantile must lie in [0, 1]", param="quantile")
        flat = u.ravel()
        law = self._law
        # the panel holding each quantile brackets it (the cumulative masses of the panels are known)
        target = flat * law._total
        j = np.clip(np.searchsorted(law._cum, target, side="right") - 1, 0, law._edges.size - 2)
        lo, hi = law._edges[j].copy(), law._edges[j + 1].copy()
        share = np.clip((target - law._cum[j]) / np.maximum(law._cum[j + 1] - law._cum[j], 1e-300), 0.0, 1.0)
        r = lo + share * (hi - lo)
        active = np.arange(flat.size)
        for _ in range(100):
            ra, la, ha, ua = r[active], lo[active], hi[active], flat[active]
            gap = law.cdf(ra) - ua
            la, ha = np.where(gap <= 0, ra, la), np.where(gap >= 0, ra, ha)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                density = np.exp(self.log_unnormalised_density(ra) - law.log_normaliser)
                newton = ra - gap / density
            inside = np.isfinite(newton) & (newton > la) & (newton < ha)
            done = (np.abs(gap) <= 1e-13) | (ha - la <= 4e-16 * np.maximum(ha, 1e-300))
            ra = np.where(done, ra, np.where(inside, newton, 0.5 * (la + ha)))
            r[active], lo[active], hi[active] = ra, la, ha
            active = active[~done]
            if active.size == 0:
                break
        r = np.where(flat <= 0.0, 0.0, np.where(flat >= 1.0, self.upper if np.isfinite(self.upper) else hi, r))
        return r.reshape(u.shape)

    # ------------------------------------------------------------ samplers
    def _build_methods(self):
        d, s, volume, profile = self.dim, self.scale, self.volume, self.profile
        log_z = self._law.log_normaliser
        methods = {}
        if volume.is_flat or (profile == "uniform" and volume.has_uniform_inverse_cdf):
            methods["exact"] = 0.0
        if volume.is_flat:
            return methods
        if volume.below_euclidean:
            if profile == "laplace":
                log_env = math.lgamma(d) + d * math.log(s)
            elif profile == "gaussian":
                log_env = (d / 2 - 1) * math.log(2.0) + math.lgamma(d / 2) + d * math.log(s)
            else:
                log_env = d * math.log(self.upper) - math.log(d)
            methods["euclidean_envelope"] = log_z - log_env
        if np.isfinite(self.upper):
            methods["uniform_envelope"] = log_z - (math.log(self.upper) + self._law.log_fmax)
        for name, (log_acc, propose) in volume.envelopes(profile, s, log_z).items():
            methods[name] = log_acc
            self._proposers[name] = propose
        methods["hull"] = self._law.hull_log_acceptance
        # rounding can push an exact ratio of normalisers marginally above 1
        return {k: min(v, 0.0) for k, v in methods.items()}

    def acceptance_rates(self):
        """Exact acceptance rate :math:`Z/Z_{env}` of every available sampling method.

        Returns
        -------
        dict
            ``{method name: acceptance rate in (0, 1]}``.
        """
        return {k: math.exp(v) for k, v in self._methods.items()}

    @property
    def default_method(self):
        """``"exact"`` when available, else the method with the best acceptance rate."""
        if "exact" in self._methods:
            return "exact"
        return max(self._methods, key=self._methods.get)

    def sample(self, size, rng, method=None):
        """Draw exactly ``size`` i.i.d. radii.

        Parameters
        ----------
        size : int
            Number of radii (``>= 0``).
        rng : numpy.random.Generator or int
            Explicit source of randomness.
        method : str or None
            A key of :meth:`acceptance_rates`; default :attr:`default_method`.

        Returns
        -------
        ndarray, shape (size,)

        Raises
        ------
        UnavailableError
            If the method's acceptance rate is below ``MIN_ACCEPTANCE``.
        """
        size = check_int(size, "size", low=0)
        rng = check_rng(rng)
        method = self.default_method if method is None else check_option(method, "method", tuple(self._methods))
        log_acc = self._methods[method]
        if log_acc < math.log(MIN_ACCEPTANCE):
            raise UnavailableError(
                f"method={method!r} for the {self.profile} radial law on {self.volume.label} "
                f"(dim={self.dim}, scale={self.scale!r}) has acceptance rate {math.exp(log_acc):.3g} "
                f"< {MIN_ACCEPTANCE:g}; {self._hopeless_hint(method)}",
                param="scale",
            )
        if size == 0:
            return np.empty(0)
        if method == "exact":
            return self._sample_exact(size, rng)
        return _rejection_loop(self._proposer(method), log_acc, size, rng)

    def _hopeless_hint(self, method):
        if method == "gamma_tilted":
            return (f"scale is too close to the normalisability limit 1/(dim-1) = "
                    f"{1.0 / (self.dim - 1):.6g}; use method='hull'")
        if method in ("euclidean_envelope", "chi_tilted"):
            return "scale (or dim) is too large for this envelope; use 'uniform_envelope' or 'hull'"
        if method == "uniform_envelope":
            return "scale is too small (or dim too large) for a uniform envelope; use 'hull'"
        if method == "shifted_normal":
            return "scale is too small for this envelope; use 'chi_tilted' or 'hull'"
        return "dim or scale is too extreme for exact rejection sampling"

    def _sample_exact(self, size, rng):
        d, s = self.dim, self.scale
        if self.profile == "laplace":
            return rng.gamma(d, s, size)
        if self.profile == "gaussian":
            return s * np.sqrt(rng.chisquare(d, size))
        return self.volume.uniform_inverse_cdf(rng.random(size), self.upper)

    def _proposer(self, method):
        d, s = self.dim, self.scale
        logf = self.log_unnormalised_density
        if method == "hull":
            return self._law.propose_hull
        if method == "uniform_envelope":
            b, fmax = self.upper, self._law.log_fmax

            def propose(n, rng):
                r = b * rng.random(n)
                with np.errstate(divide="ignore"):
                    return r, logf(r) - fmax

            return propose
        if method == "euclidean_envelope":
            ratio = self.volume.log_euclidean_ratio

            def propose(n, rng):
                if self.profile == "laplace":
                    r = rng.gamma(d, s, n)
                elif self.profile == "gaussian":
                    r = s * np.sqrt(rng.chisquare(d, n))
                else:
                    r = self.upper * rng.random(n) ** (1.0 / d)
                return r, ratio(r)

            return propose
        return self._proposers[method]


@functools.lru_cache(maxsize=256)
def _cached_law(space, dim, profile, scale):
    return RadialLaw(space, dim, profile, scale)


def get_radial_law(space, dim, profile, scale):
    """Validated, cached :class:`RadialLaw` (the quadrature is built once per parameter set).

    ``space`` is a manifold (its ``radial_volume``), a radial volume, or a family name with the dimension ``dim``.
    """
    volume = radial_volume(space, dim)
    space, dim = (space, volume.dim) if isinstance(space, str) else (volume, None)
    profile = check_option(profile, "profile", PROFILES)
    scale = check_real(scale, "scale", SCALE_MIN, SCALE_MAX, True, True)
    return _cached_law(space, dim, profile, scale)


def sample_radius(space, dim, profile, scale, size, rng, method=None):
    """Draw ``size`` exact radii of :class:`RadialLaw` ``(space, dim, profile, scale)``.

    See :class:`RadialLaw` for the laws, the samplers and their acceptance rates.

    Returns
    -------
    ndarray, shape (size,)
    """
    return get_radial_law(space, dim, profile, scale).sample(size, rng, method=method)
