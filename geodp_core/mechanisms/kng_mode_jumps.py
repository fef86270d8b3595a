r"""Mode-jump moves of the KNG samplers: independence proposals between the target's peak and the whole domain.

The KNG laws :math:`\pi \propto \exp(-|\nabla E_\tau|/\sigma)` have two regions: a narrow cone around the peak,
where :math:`\nabla E_\tau = 0` (the fit), and a plateau far from it, where every residual is clipped and
:math:`|\nabla E_\tau|` no longer grows. When :math:`n\varepsilon` is large the two carry comparable mass but are
separated by an entropic barrier (the cone is a needle in the plateau) and an energy barrier (leaving the cone
costs :math:`\approx n\varepsilon/(2f)` in log density). Random-walk moves cannot cross them, and tempering
cannot either: the transition between the two regions is of first order, so adjacent temperatures never swap.

A jump move proposes, independently of the current state, from the mixture

.. math::
    g = w\,g_{\mathrm{cone}} + (1 - w)\,g_{\mathrm{domain}},

where :math:`g_{\mathrm{cone}}` is a scale mixture of K-norm laws around the peak and :math:`g_{\mathrm{domain}}`
is uniform on the public domain (in normal coordinates at the public centre for the footpoint), and accepts
:math:`y \to y'` with probability :math:`\min\{1, (\pi(y')/\pi(y))^{\beta}\, g(y)/g(y')\}` (replica at inverse
temperature :math:`\beta`): a Metropolis–Hastings kernel that leaves :math:`\pi^\beta` invariant whatever
:math:`g` is. Both densities are with respect to the measure the random walk is symmetric for (the Riemannian
volume of :math:`M` times Lebesgue measure on the fibres): moving the footpoint by :math:`\mathrm{Exp}_q(a)`
contributes :math:`1/|\det d\mathrm{Exp}_q|_a`, parallel transport of the shooting vector contributes 1.

The cone's shape is public (covariates spread evenly over [0, 1]: :math:`\nabla E \approx (G \otimes I)\delta`
with :math:`G = [[1, 1/2], [1/2, 1/3]]` for :math:`(p, v)`, :math:`G = 1/3` for :math:`v` alone, scales
:math:`\sigma s`, :math:`s \in \{1/2, 1, 2, 4\}`); its centre is the peak of the target (the least-squares fit,
or the best shooting vector at a footpoint), a function of the data like the target itself. The jump changes the
kernel, never the law the chain targets.
"""

import copy
import math

import numpy as np

from geodp_core.geometry.functions import log_ball_volume, log_sphere_area
from geodp_core.regression import _bundle_step, _Geodesic, _gradients

#: Every this-many-th step of every replica is a jump move (the others are random-walk moves).
JUMP_EVERY = 4
#: Weight of the cone component of the jump proposal (the rest is uniform on the domain).
CONE_WEIGHT = 0.5
#: Scales of the cone component, in units of the law's sigma (a public scale mixture).
CONE_SCALES = np.array([0.5, 1.0, 2.0, 4.0])
#: Public shape of the cone: the Hessian of the mean squared residual in (p, v) for covariates spread evenly
#: over [0, 1] (mean x = 1/2, mean x² = 1/3), and its (v, v) block.
JOINT_GRAM = np.array([[1.0, 0.5], [0.5, 1.0 / 3.0]])
SHOOTING_GRAM = np.array([[1.0 / 3.0]])
#: Fixed number of Newton steps for the best shooting vector at a footpoint (no data-dependent stopping).
_PEAK_STEPS = 40


def uniform_ball(rng, rows, dim, radius):
    """``rows`` points uniform in the Euclidean ball of radius ``radius`` in :math:`\\mathbb R^{dim}`."""
    direction = rng.standard_normal((rows, dim))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    return direction * (radius * rng.uniform(size=rows) ** (1.0 / dim))[:, None]


class KNormMixture:
    r"""Equal-weight mixture over :data:`CONE_SCALES` of the K-norm laws
    :math:`\propto \exp(-|(G \otimes I_d)\delta| / (s\sigma))` on :math:`\delta \in (\mathbb R^d)^k`.

    Sampled exactly: :math:`\delta = s\sigma (G^{-1} \otimes I_d) r\omega` with :math:`r \sim \Gamma(kd)` and
    :math:`\omega` uniform on the unit sphere of :math:`\mathbb R^{kd}`; density
    :math:`\det(G)^d \exp(-|(G \otimes I)\delta|/(s\sigma)) / ((s\sigma)^{kd}\,\Gamma(kd)\,|S^{kd-1}|)`.
    """

    def __init__(self, gram, sigma, dim):
        self.gram = np.asarray(gram, dtype=float)
        self.inverse = np.linalg.inv(self.gram)
        self.blocks, self.dim = self.gram.shape[0], int(dim)
        total = self.blocks * self.dim
        self.total = total
        self.scales = float(sigma) * CONE_SCALES
        self._log_const = (self.dim * math.log(np.linalg.det(self.gram)) - math.lgamma(total) - log_sphere_area(total)
                           - total * np.log(self.scales))

    def sample(self, rng, rows):
        """``rows`` draws, shape ``(rows, blocks, dim)``."""
        u = rng.standard_normal((rows, self.total))
        u *= (rng.gamma(self.total, size=rows) / np.linalg.norm(u, axis=1))[:, None]
        scale = self.scales[rng.integers(self.scales.size, size=rows)]
        return np.einsum("ij,rjd->rid", self.inverse, u.reshape(rows, self.blocks, self.dim)) * scale[:, None, None]

    def log_density(self, delta):
        """Log density at ``delta`` of shape ``(rows, blocks, dim)`` (``-inf`` where not finite)."""
        image = np.einsum("ij,rjd->rid", self.gram, delta)
        size = np.linalg.norm(image.reshape(image.shape[0], -1), axis=1)
        comps = self._log_const[None, :] - size[:, None] / self.scales[None, :]
        top = np.max(comps, axis=1)
        with np.errstate(invalid="ignore"):
            out = top + np.log(np.mean(np.exp(comps - top[:, None]), axis=1))
        return np.where(np.isfinite(out), out, -np.inf)


def _mixture(log_cone, log_domain):
    """Log of the jump proposal's density from its two components' log densities."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.logaddexp(math.log(CONE_WEIGHT) + log_cone, math.log(1.0 - CONE_WEIGHT) + log_domain)
    return np.where(np.isnan(out), -np.inf, out)


def _choose(rng, rows):
    return rng.uniform(size=rows) < CONE_WEIGHT


class ShootingJump:
    r"""Jump proposal for the stage-2 chains: states are frame coordinates :math:`c` of :math:`v` at each chain's
    footpoint (Lebesgue measure on the ball :math:`|c| \le v_{\max}`); cone around the per-chain peak ``peaks``."""

    def __init__(self, peaks, sigma, max_speed):
        self.peaks = np.asarray(peaks, dtype=float)
        self.max_speed = float(max_speed)
        self.cone = KNormMixture(SHOOTING_GRAM, sigma, self.peaks.shape[-1])
        self._log_uniform = -log_ball_volume(self.peaks.shape[-1], self.max_speed)

    def for_rungs(self, n_rungs):
        """The same proposal for states stacked ``n_rungs`` replicas per chain (rows ``c * n_rungs + t``)."""
        out = copy.copy(self)
        out.peaks = np.repeat(self.peaks, n_rungs, axis=0)
        return out

    def log_density(self, state):
        coords = state[0]
        inside = np.linalg.norm(coords, axis=-1) <= self.max_speed
        log_domain = np.where(inside, self._log_uniform, -np.inf)
        return _mixture(self.cone.log_density((coords - self.peaks)[:, None, :]), log_domain)

    def propose(self, state, rng):
        coords = state[0]
        rows, dim = coords.shape
        cone = self.peaks + self.cone.sample(rng, rows)[:, 0, :]
        new = np.where(_choose(rng, rows)[:, None], cone, uniform_ball(rng, rows, dim, self.max_speed))
        new_state = (new,) + tuple(state[1:])
        return new_state, self.log_density(new_state)


class FootpointJump:
    r"""Jump proposal for the joint stage-1 chains on the tangent bundle, states :math:`(p, v)`.

    Cone: :math:`p = \mathrm{Exp}_{q}(a)`, :math:`v = \Gamma_{q \to p}(w + b)` around the peak :math:`(q, w)`,
    :math:`(a, b)` in frame coordinates at :math:`q` from :class:`KNormMixture` with :data:`JOINT_GRAM` (restricted
    to :math:`|a| \le` ``reach``, inside the injectivity radius); density :math:`g_{\mathrm{cone}}(a, b) / J_q(a)`.
    Domain: :math:`p = \mathrm{Exp}_{m_0}(a_0)`, :math:`a_0` uniform in the ball of radius ``radius`` (normal
    coordinates at the public centre :math:`m_0`), :math:`v` uniform in :math:`\{|v| \le v_{\max}\}`; density
    :math:`1/(V_d(R)\, J_{m_0}(a_0)\, V_d(v_{\max}))`. :math:`J` is ``manifold.log_volume_jacobian``.
    """

    def __init__(self, manifold, peak_p, peak_v, sigma, center, radius, max_speed, reach):
        self.manifold = manifold
        self.peak_p, self.peak_v = np.asarray(peak_p, dtype=float), np.asarray(peak_v, dtype=float)
        self.center, self.radius, self.max_speed, self.reach = center, float(radius), float(max_speed), float(reach)
        dim = manifold.dim
        self.cone = KNormMixture(JOINT_GRAM, sigma, dim)
        self._log_uniform = -log_ball_volume(dim, self.radius) - log_ball_volume(dim, self.max_speed)

    def for_rungs(self, n_rungs):
        return self

    def _rows(self, point, rows):
        return np.broadcast_to(point, (rows,) + point.shape)

    def log_density(self, state):
        p, v = state
        rows = p.shape[0]
        out = np.full(rows, -np.inf)
        finite = np.flatnonzero(np.all(np.isfinite(p.reshape(rows, -1)), axis=1)
                                & np.all(np.isfinite(v.reshape(rows, -1)), axis=1))
        if not finite.size:
            return out
        # a row whose density fails even alone is -inf: never proposed or left
        out[finite] = values_or_fill(lambda i: self._log_density(p[i], v[i]), finite, -np.inf)
        return out

    def _log_density(self, p, v):
        m, rows = self.manifold, p.shape[0]
        peak = self._rows(self.peak_p, rows)
        a = m.log(peak, p, check=False)
        geo = _Geodesic(m, peak, a)
        delta = np.stack([m.to_frame(peak, a), m.to_frame(peak, geo.transport_back(v) - self.peak_v)], axis=1)
        log_cone = self.cone.log_density(delta) - m.log_volume_jacobian(peak, a)
        log_cone = np.where(m.norm(peak, a) <= self.reach, log_cone, -np.inf)
        base = self._rows(self.center, rows)
        a0 = m.log(base, p, check=False)
        inside = (m.norm(base, a0) <= self.radius) & (m.norm(p, v) <= self.max_speed)
        log_domain = np.where(inside, self._log_uniform - m.log_volume_jacobian(base, a0), -np.inf)
        return _mixture(np.where(np.isfinite(log_cone), log_cone, -np.inf),
                        np.where(np.isfinite(log_domain), log_domain, -np.inf))

    def propose(self, state, rng):
        p = state[0]
        rows, dim = p.shape[0], self.manifold.dim
        delta = self.cone.sample(rng, rows)
        near = np.linalg.norm(delta[:, 0], axis=1) <= self.reach  # beyond the reach: rejected (NaN state)
        delta[~near] = 0.0
        cone_p, cone_v = rows_or_nan(lambda i: self._cone_point(delta[i]), rows, p.shape[1:])
        cone_p[~near] = np.nan
        wide_a, wide_c = uniform_ball(rng, rows, dim, self.radius), uniform_ball(rng, rows, dim, self.max_speed)
        wide_p, wide_v = rows_or_nan(lambda i: self._domain_point(wide_a[i], wide_c[i]), rows, p.shape[1:])
        pick = _choose(rng, rows).reshape((rows,) + (1,) * (p.ndim - 1))
        new = (np.where(pick, cone_p, wide_p), np.where(pick, cone_v, wide_v))
        return new, self.log_density(new)

    def _cone_point(self, delta):
        m, peak = self.manifold, self._rows(self.peak_p, delta.shape[0])
        return _bundle_step(m, peak, self.peak_v, m.from_frame(peak, delta[:, 0]), m.from_frame(peak, delta[:, 1]))

    def _domain_point(self, coords_p, coords_v):
        m, base = self.manifold, self._rows(self.center, coords_p.shape[0])
        point = m.exp(base, m.from_frame(base, coords_p), check=False)
        return point, m.from_frame(point, coords_v)


def values_or_fill(values_fn, rows, fill):
    """``values_fn(rows)`` (``rows`` an index array, one value per row) for all rows at once, or row by row where a
    linear-algebra error occurs, ``fill`` for a row that fails alone."""
    with np.errstate(all="ignore"):
        try:
            return np.asarray(values_fn(rows), dtype=float)
        except np.linalg.LinAlgError:
            out = np.full(rows.size, fill, dtype=float)
            for j in range(rows.size):
                try:
                    out[j] = np.asarray(values_fn(rows[j:j + 1]), dtype=float)[0]
                except np.linalg.LinAlgError:
                    pass
            return out


def rows_or_nan(make, rows, shape):
    """``make(index)`` for all rows at once, or row by row where a linear-algebra error occurs (NaN rows: the
    proposal is then rejected, never an error)."""
    with np.errstate(all="ignore"):
        try:
            return make(slice(None))
        except np.linalg.LinAlgError:
            out_p, out_v = np.full((rows,) + shape, np.nan), np.full((rows,) + shape, np.nan)
            for row in range(rows):
                try:
                    out_p[row], out_v[row] = (arr[0] for arr in make(slice(row, row + 1)))
                except np.linalg.LinAlgError:
                    pass
            return out_p, out_v


def joint_peak(manifold, footpoint, shooting_vector, x, y, tau):
    r"""The peak :math:`\nabla E_\tau(p, v) = 0` of the stage-1 law, from the least-squares fit ``(footpoint,
    shooting_vector)``: :data:`_PEAK_STEPS` Newton steps with the flat Hessian :math:`G = [[1, \bar x], [\bar x,
    \overline{x^2}]] \otimes I` (the clipped energy's Hessian is no larger, so the steps never overshoot),
    :math:`p \leftarrow \mathrm{Exp}_p(\delta p)`, :math:`v \leftarrow \Gamma(v + \delta v)`. The fit is already the
    peak when no residual exceeds :math:`\tau`. A fixed amount of work whatever the data; returns the fit
    unchanged if a step leaves the representable range."""
    x = np.asarray(x, dtype=float)
    gram = np.array([[1.0, np.mean(x)], [np.mean(x), np.mean(x * x)]])
    if tau is None or np.linalg.det(gram) <= 1e-12:
        return footpoint, shooting_vector
    inverse = np.linalg.inv(gram)
    p, v = np.asarray(footpoint, dtype=float)[None], np.asarray(shooting_vector, dtype=float)[None]
    for _ in range(_PEAK_STEPS):
        with np.errstate(all="ignore"):
            try:
                grads = _gradients(manifold, p, v, x, y, tau)
                g = np.stack([manifold.to_frame(p, grads.footpoint), manifold.to_frame(p, grads.shooting)], axis=1)
                step = -np.einsum("ij,rjd->rid", inverse, g)
                p_new, v_new = _bundle_step(manifold, p, v, manifold.from_frame(p, step[:, 0]),
                                            manifold.from_frame(p, step[:, 1]))
            except np.linalg.LinAlgError:
                break
        if not (np.all(np.isfinite(p_new)) and np.all(np.isfinite(v_new))):
            break
        p, v = p_new, v_new
    return p[0], v[0]


def shooting_peaks(manifold, footpoints, x, y, tau, max_speed):
    r"""Frame coordinates at each footpoint of the best shooting vector :math:`\arg\min_v E_\tau(\tilde p, v)`
    (the peak of the stage-2 law): :data:`_PEAK_STEPS` Newton steps :math:`v \leftarrow v - \nabla_v E /
    \overline{x^2}` from :math:`v = 0` (exact in one step on flat space), the first half unclipped, each kept in
    :math:`|v| \le v_{\max}`. A fixed amount of work whatever the data."""
    k = footpoints.shape[0]
    curvature = max(float(np.mean(np.asarray(x, dtype=float) ** 2)), 1e-12)
    coords = np.zeros((k, manifold.dim))
    for step in range(_PEAK_STEPS):
        with np.errstate(all="ignore"):
            try:
                grad = _gradients(manifold, footpoints, manifold.from_frame(footpoints, coords), x, y,
                                  None if step < _PEAK_STEPS // 2 else tau).shooting
            except np.linalg.LinAlgError:
                break
            new = coords - manifold.to_frame(footpoints, grad) / curvature
        new = np.where(np.isfinite(new), new, coords)
        size = np.linalg.norm(new, axis=1, keepdims=True)
        coords = new * np.minimum(1.0, 0.999 * max_speed / np.maximum(size, 1e-300))
    return coords
