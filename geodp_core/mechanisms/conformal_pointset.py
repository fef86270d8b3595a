r"""The conformal mechanism on a public point set, in any dimension (docs/specification.md §5.7, §5.9) — :math:`(\varepsilon_\phi+\varepsilon_{conf})`-DP.

Same two stages as :mod:`geodp_core.mechanisms.conformal`, with the public mesh replaced by a
:class:`~geodp_core.geometry.point_sets.PublicPointSet` :math:`\{x_j\}_{j\le N}` (weights :math:`w_j`, kNN graph):

Stage 1 (:math:`\varepsilon_\phi`)
    :math:`f_j = \frac1n\sum_i \kappa_h(\mathrm{dist}(x_j, X_i))`, :math:`\kappa_h(t) = K(t^2/h^2)`,
    :math:`K(s) = e^{-1/(1-s)}` (the bump kernel normalised to peak :math:`e^{-1}`, i.e. the paper's density in
    units of :math:`h^{-d}`: the same field up to a public factor, with the same dynamic range in every
    dimension). Independent Laplace noise of scale :math:`\Delta_1/(\varepsilon_\phi w_j)`,
    :math:`\Delta_1 = 2B/n`, :math:`B \ge \sup_{y\in M}\sum_j w_j\kappa_h(\mathrm{dist}(x_j, y))` certified by
    :func:`point_set_kernel_mass_bound` for every :math:`y` of the manifold.
Post-processing
    clip :math:`\tilde f` to :math:`[\text{floor}, e^{-1}]` (every :math:`f_j` lies in :math:`[0, e^{-1}]`, a public
    range: this bounds :math:`\phi_{\max}/\phi_{\min} \le e^{2e^{-1}/\upsilon}` by the maximum principle whatever
    the noise), implicit heat step :math:`(W + tK)u = W\tilde f`, Helmholtz
    :math:`(K + \upsilon W)\sigma = W(\tilde c - u)` with the graph stiffness :math:`K` of the public kNN graph,
    :math:`\phi = e^{2\sigma}`.
Stage 2 (:math:`\varepsilon_{conf}`)
    :math:`\hat\eta = \Pi(\eta)` (identity on :math:`S^d`; metric projection onto the public ball, 1-Lipschitz on
    Hadamard spaces), :math:`\rho^*(\hat\eta, x_j) = \min_k[\sqrt{\phi_k}\mathrm{dist}(\hat\eta, x_k) + G_{kj}]` (multi-source
    Dijkstra on the kNN graph, edge weights :math:`\ell_{ij}(\sqrt{\phi_i}+\sqrt{\phi_j})/2`), release point
    :math:`j` with probability :math:`\propto w_j\phi_j^{d/2}e^{-\lambda^*\rho^*(\hat\eta, x_j)}`,
    :math:`\lambda^* = \varepsilon_{conf}/(2\sqrt{\phi_{\max}}\Delta)`, then the public jitter
    :meth:`~geodp_core.geometry.point_sets.PublicPointSet.jitter`.

Derivation: ``docs/derivations/conformal_pointset.md``.
"""

import functools
import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
from scipy.sparse.linalg import LinearOperator, cg, spsolve

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.point_sets import distance_row_blocks, pairwise_distances

__all__ = [
    "PointSetKernelBound",
    "ConformalFieldValues",
    "PointSetFields",
    "bump_profile_kernel",
    "point_set_kernel_sum",
    "point_set_kernel_mass_bound",
    "point_set_kde",
    "build_point_set_fields",
]

_ROUNDING = 1e-9  # relative safety factor on floating-point sums in B
_DISTANCE_SLACK = 1e-6  # absolute bound of the rounding error of a computed geodesic distance
_BOUND_BINS = 256  # distance bins on [0, 2h)
_BOUND_SHIFTS = 64  # intervals of the nearest-point distance t on [0, h)
_OFFSET = 1.0  # super-source offset in Dijkstra
_SIGMA_CAP = 300.0
KERNEL_PEAK = math.exp(-1.0)  # max of kappa_h, hence of every KDE value f_j
_MAX_NOISE_SCALE = 1e150


def bump_profile_kernel(dist, bandwidth):
    r""":math:`\kappa_h(t) = K(t^2/h^2) = \exp(-1/(1 - t^2/h^2))` for :math:`t < h`, 0 beyond (peak :math:`e^{-1}`)."""
    x = (np.asarray(dist, dtype=float) / float(bandwidth)) ** 2
    inside = x < 1.0
    with np.errstate(divide="ignore", over="ignore"):
        return np.where(inside, np.exp(-1.0 / np.where(inside, 1.0 - x, 1.0)), 0.0)


def point_set_kernel_sum(point_set, points, bandwidth):
    r""":math:`S(y) = \sum_j w_j\kappa_h(\mathrm{dist}(x_j, y))` at the given points (direct evaluation)."""
    dist = point_set.distances_to(points)
    return bump_profile_kernel(dist, bandwidth) @ point_set.weights


@dataclass(frozen=True)
class PointSetKernelBound:
    r"""A certified :math:`B \ge \sup_{y \in M}\sum_j w_j\kappa_h(\mathrm{dist}(x_j, y))` and diagnostics.

    Attributes
    ----------
    bound : float
    probe_max : float
        :math:`\max_j S(x_j)`, a lower bound of the supremum.
    method : str
        ``"anchor"`` (see :func:`point_set_kernel_mass_bound`).
    """

    bound: float
    probe_max: float
    method: str = "anchor"

    @property
    def relative_margin(self):
        return self.bound / self.probe_max - 1.0 if self.probe_max > 0 else float("inf")


def _profile_slope_sup(lo, hi):
    r""":math:`\sup_{u\in[lo, hi]}|\kappa'(u)|` for :math:`\kappa(u) = e^{-1/(1-u^2)}` (units of :math:`h`), exactly.

    :math:`|\kappa'(u)| = 2u(1-u^2)^{-2}\kappa(u)` on :math:`[0, 1)` is unimodal: the derivative of its log,
    :math:`1/u + 4u/(1-u^2) - 2u/(1-u^2)^2`, vanishes only at :math:`u^{*2} = 1/\sqrt3`. So the supremum is at the point
    of :math:`[\max(lo, 0), \min(hi, 1)]` nearest to :math:`u^* = 3^{-1/4}` (0 when the interval misses :math:`[0, 1)`).
    """
    lo = np.maximum(lo, 0.0)
    hi = np.minimum(hi, 1.0)
    u = np.clip(3.0 ** -0.25, lo, hi)
    inside = (u < 1.0) & (lo <= hi)
    v = np.where(inside, 1.0 - u * u, 1.0)
    return np.where(inside, 2.0 * u / v**2 * np.exp(-1.0 / v), 0.0)


@functools.lru_cache(maxsize=32)
def _bound_table(n_bins, n_shifts, slack):
    r"""``table[m, s]``: an upper bound of :math:`\kappa(\mathrm{dist}(x_j, y)/h)` for :math:`D_{aj}/h \in [e_m, e_{m+1})`
    (computed distances, true ones within ``slack``) and :math:`t/h \in [t_s, t_{s+1}]`; the smaller of the anchor
    bound :math:`\kappa(\max(t_s, e_m - t_{s+1}))` and the first-order bound
    :math:`\kappa(e_m) + t_{s+1}\sup_{[e_m - t_{s+1},\ e_{m+1} + 2\,\mathrm{slack} + t_{s+1}]}|\kappa'|`
    (:math:`|\mathrm{dist}(x_j, y) - D_{aj}| \le t`)."""
    lower_edges = 2.0 * np.arange(n_bins) / n_bins
    upper_edges = lower_edges + 2.0 / n_bins
    t_lo = np.arange(n_shifts) / n_shifts
    t_hi = t_lo + 1.0 / n_shifts
    # every argument lowered by `slack` more: the KDE evaluates kappa at COMPUTED record-to-point distances, which
    # may be up to `slack` below the true ones; B then bounds the computed sums as well
    arg = np.maximum(t_lo[None, :], lower_edges[:, None] - t_hi[None, :]) - slack
    anchor = bump_profile_kernel(np.maximum(arg, 0.0), 1.0)
    reach = t_hi[None, :] + slack
    slope = _profile_slope_sup(lower_edges[:, None] - reach, upper_edges[:, None] + 2.0 * slack + reach)
    first_order = bump_profile_kernel(np.maximum(lower_edges - slack, 0.0), 1.0)[:, None] + reach * slope
    return np.minimum(anchor, first_order)


@functools.lru_cache(maxsize=32)
def _bound_cached(point_set, bandwidth):
    h = float(bandwidth)
    w = point_set.weights
    table = _bound_table(_BOUND_BINS, _BOUND_SHIFTS, _DISTANCE_SLACK / h)
    width = 2.0 * h / _BOUND_BINS
    bound = probe_max = 0.0
    for _, block in distance_row_blocks(point_set.distance_kind, point_set.features):
        probe_max = max(probe_max, float(np.max(bump_profile_kernel(block, h) @ w)))
        lower = np.maximum(block - _DISTANCE_SLACK, 0.0)
        rows, cols = np.nonzero(lower < 2.0 * h)
        bins = np.minimum((lower[rows, cols] / width).astype(np.int64), _BOUND_BINS - 1)
        counts = np.bincount(rows * _BOUND_BINS + bins, weights=w[cols], minlength=len(block) * _BOUND_BINS)
        bound = max(bound, float(np.max(counts.reshape(len(block), _BOUND_BINS) @ table)))
    return PointSetKernelBound(bound * (1.0 + _ROUNDING), probe_max)


def point_set_kernel_mass_bound(point_set, bandwidth):
    r"""Certified bound :math:`B \ge \sup_{y\in M} S(y)`, :math:`S(y) = \sum_j w_j\kappa_h(\mathrm{dist}(x_j, y))`, for EVERY
    record position :math:`y` of the manifold (not only of the public domain).

    Anchor argument (valid in any dimension, no covering net needed). Fix :math:`y` with :math:`S(y) > 0`; let
    :math:`x_a` be a public point nearest to :math:`y` and :math:`t = \mathrm{dist}(x_a, y) < h`. For every :math:`j`,
    :math:`\mathrm{dist}(x_j, y) \ge t` (nearest point) and :math:`\mathrm{dist}(x_j, y) \ge D_{aj} - t`
    (triangle inequality, :math:`D_{aj} = \mathrm{dist}(x_a, x_j)`); :math:`\kappa_h` is non-increasing, so

    .. math:: S(y) \le \sum_j w_j\,\kappa_h\big(\max(t, D_{aj} - t)\big).

    For :math:`t` in a cell :math:`[t_s, t_{s+1}]` of a grid of :math:`[0, h]` and :math:`D_{aj}` in a bin
    :math:`[e_m, e_{m+1})` of a grid of :math:`[0, 2h)` (terms with :math:`D_{aj} \ge 2h` vanish since then
    :math:`D_{aj} - t > h`), the argument is :math:`\ge \max(t_s, e_m - t_{s+1})`. Hence

    .. math:: B = \max_a\max_s \sum_m \Big(\sum_{j: D_{aj}\in\text{bin }m} w_j\Big)\,\kappa_h\big(\max(t_s, e_m - t_{s+1})\big)
              \ \ge\ \sup_y S(y),

    Each term is also bounded to first order, :math:`\kappa_h(\mathrm{dist}(x_j, y)) \le \kappa_h(D_{aj}) +
    t\sup_{[D_{aj}-t,\,D_{aj}+t]}|\kappa_h'|` (since :math:`|\mathrm{dist}(x_j, y) - D_{aj}| \le t`), and the smaller of the
    two per-term bounds is used (:func:`_bound_table`; :math:`|\kappa'|` is unimodal, so its supremum over an
    interval is exact). The computed distances are lowered by :math:`10^{-6}` (their rounding error) before binning, and
    every kernel argument by another :math:`10^{-6}`, so that :math:`B` also bounds the sums the KDE actually computes
    (at computed record-to-point distances); times
    :math:`1 + 10^{-9}` for the rounding of the sums. Cost :math:`O(N^2 d)`; the bound is tight up to the
    triangle-inequality slack (compare :attr:`PointSetKernelBound.probe_max`).

    Returns
    -------
    PointSetKernelBound
    """
    return _bound_cached(point_set, float(bandwidth))


def point_set_kde(point_set, data, bandwidth):
    r""":math:`f_j = \frac1n\sum_i\kappa_h(\mathrm{dist}(x_j, X_i))` at the public points."""
    data = np.asarray(data, dtype=float)
    f = np.zeros(point_set.n_points)
    for start in range(0, len(data), 512):
        f += bump_profile_kernel(point_set.distances_to(data[start:start + 512]), bandwidth).sum(axis=0)
    return f / len(data)


def _solve(point_set, time, rhs, diagonal_weight=1.0):
    r"""Solve :math:`(aW + tK)x = W\,\mathrm{rhs}` (symmetric positive definite, diagonally dominant).

    Conjugate gradients with Jacobi preconditioning to a relative residual of :math:`10^{-12}` (kNN graphs in high
    dimension have no small separators: a sparse direct solve fills in). The result is a public function of the
    sanitised density; the privacy accounting uses the :math:`\phi` actually computed, whatever the solver error.
    """
    w = point_set.weights
    system = (sp.diags(diagonal_weight * w) + time * point_set.stiffness).tocsr()
    inverse_diagonal = 1.0 / system.diagonal()
    preconditioner = LinearOperator(system.shape, matvec=lambda x: inverse_diagonal * x)
    solution, info = cg(system, w * rhs, rtol=1e-12, atol=0.0, maxiter=10_000, M=preconditioner)
    if info != 0:  # never seen; a public fallback (a function of the sanitised density only)
        solution = spsolve(system.tocsc(), w * rhs)
    return solution


def _knn_data_sigma(point_set, data, u, c_tilde, upsilon, bandwidth, knn):
    r"""The paper's kNN graph Laplacian on the DATA points (NOT DP): :math:`L = C(I - P)`, :math:`P_{ij}\propto
    e^{-d_{ij}^2/h^2}` over ``knn`` neighbours, :math:`C_{ii} = 2d/\sum_jP_{ij}d_{ij}^2`; solve
    :math:`(L + \upsilon I)\sigma = \tilde c - u(\text{nearest public point})` and give each public point the value
    of its nearest datum."""
    n, d = len(data), point_set.dim
    features = point_set.to_features(data)
    dist = pairwise_distances(point_set.distance_kind, features, features)
    np.fill_diagonal(dist, np.inf)
    index = np.argsort(dist, axis=1)[:, :knn]
    near = np.take_along_axis(dist, index, axis=1)
    weight = np.exp(-((near / bandwidth) ** 2))
    prob = weight / np.maximum(weight.sum(axis=1, keepdims=True), 1e-300)
    second = np.sum(prob * near**2, axis=1)
    scale = np.where(second > 0, 2.0 * d / np.where(second > 0, second, 1.0), 0.0)
    transition = sp.csr_matrix((prob.ravel(), (np.repeat(np.arange(n), knn), index.ravel())), shape=(n, n))
    laplacian = sp.diags(scale) @ (sp.identity(n, format="csr") - transition)
    to_points = point_set.distances_to(data)
    rhs = c_tilde - u[np.argmin(to_points, axis=1)]
    sigma_data = spsolve((laplacian + upsilon * sp.identity(n)).tocsc(), rhs)
    return sigma_data[np.argmin(to_points, axis=0)]


def conformal_edge_graph(edges, edge_lengths, phi):
    r"""Directed edge list ``(rows, cols, weights)`` of a public graph weighted
    :math:`\ell_{ij}(\sqrt{\phi_i}+\sqrt{\phi_j})/2` (both directions), for :func:`graph_conformal_distance`."""
    root = np.sqrt(phi)
    i, j = edges[:, 0], edges[:, 1]
    weight = edge_lengths * 0.5 * (root[i] + root[j])
    return np.concatenate([i, j]), np.concatenate([j, i]), np.concatenate([weight, weight])


def graph_conformal_distance(edge_graph, phi, source_distances):
    r""":math:`\rho^*(\eta, x_j) = \min_k[\sqrt{\phi_k}\,\mathrm{dist}(\eta, x_k) + G_{kj}]` for every node :math:`j`.

    :math:`G` is the shortest-path distance of ``edge_graph`` (:func:`conformal_edge_graph`); Dijkstra runs from a
    super-source joined to node :math:`k` with cost :math:`\sqrt{\phi_k}\,\mathrm{dist}(\eta, x_k)` (``source_distances``),
    shifted by a constant so that zero costs stay edges. Each bracket is :math:`\sqrt{\phi_k}`-Lipschitz in
    :math:`\eta`, so :math:`\rho^*` is :math:`\sqrt{\phi_{\max}}`-Lipschitz (the mesh and the point set share it).
    """
    n = len(phi)
    rows, cols, weights = edge_graph
    source = np.sqrt(phi) * source_distances
    graph = sp.csr_matrix(
        (np.concatenate([weights, source + _OFFSET]),
         (np.concatenate([rows, np.full(n, n)]), np.concatenate([cols, np.arange(n)]))),
        shape=(n + 1, n + 1),
    )
    return dijkstra(graph, directed=True, indices=n)[:n] - _OFFSET


def normalised_probabilities(log_weights):
    """Probabilities proportional to ``exp(log_weights)`` (shifted by the maximum first)."""
    p = np.exp(log_weights - log_weights.max())
    return p / p.sum()


@dataclass(frozen=True, eq=False)
class ConformalFieldValues:
    r"""The fields the conformal mechanism computes on its public support (a mesh or a point set).

    ``f`` is the non-private KDE (a teaching view, not part of the release); ``f_tilde`` the
    :math:`\varepsilon_\phi`-DP release; the rest are public post-processing of ``f_tilde``
    (attributes documented on :class:`geodp_core.mechanisms.conformal.ConformalFields`). Subclasses add the
    support as a keyword field and return it from ``_support``.
    """

    laplacian: str
    bandwidth: float
    upsilon: float
    smoothing_time: float
    density_floor: float
    eps_phi: float
    n_records: int
    kernel_bound: object
    l1_sensitivity: float
    noise_scales: np.ndarray
    f: np.ndarray
    f_tilde: np.ndarray
    f_smooth: np.ndarray
    c_tilde: float
    sigma: np.ndarray
    phi: np.ndarray
    phi_min: float
    phi_max: float
    phi_bounds: tuple
    knn: object = None

    @property
    def manifold(self):
        return self._support.manifold

    @functools.cached_property
    def _edge_graph(self):
        return conformal_edge_graph(self._support.edges, self._support.edge_lengths, self.phi)


@dataclass(frozen=True, eq=False)
class PointSetFields(ConformalFieldValues):
    r"""Every intermediate field of the conformal mechanism at the public points (cf. ``ConformalFields``)."""

    point_set: object = field(kw_only=True)

    @property
    def _support(self):
        return self.point_set

    @property
    def vertices(self):
        return self.point_set.points

    def project_to_domain(self, center):
        r"""Metric projection :math:`\Pi` onto the closed public ball :math:`B(c, R)` (identity on :math:`S^d`); 1-Lipschitz
        on a Hadamard space (:math:`H^d`, :math:`\mathbb{R}^d`), public."""
        ps = self.point_set
        center = np.asarray(center, dtype=float)
        if self.manifold.is_compact:  # no projection on S^d (not needed: rho* is defined and Lipschitz for every eta)
            return center
        manifold = self.manifold
        radius = float(manifold.dist(ps.domain_center, center, check=False))
        if radius <= ps.domain_radius:
            return center
        tangent = manifold.log(ps.domain_center, center, check=False) * (ps.domain_radius / radius)
        out = manifold.exp(ps.domain_center, tangent, check=False)
        projection = getattr(manifold, "projection", None)
        return out if projection is None else projection(out)

    def rho_star(self, center):
        r"""Conformal distance :math:`\rho^*(\eta, x_j) = \min_k[\sqrt{\phi_k}\,\mathrm{dist}(\eta, x_k) + G_{kj}]` to every
        public point (:math:`G` the shortest-path distance of the weighted kNN graph); :math:`\sqrt{\phi_{\max}}`-Lipschitz
        in :math:`\eta`."""
        distances = self.point_set.distances_to(np.asarray(center, dtype=float)[None])[0]
        return graph_conformal_distance(self._edge_graph, self.phi, distances)

    def log_point_weights(self, center, lambda_star):
        r""":math:`\log w_j + \frac d2\log\phi_j - \lambda^*\rho^*(\eta, x_j)` (unnormalised)."""
        return (np.log(self.point_set.weights) + 0.5 * self.point_set.dim * np.log(self.phi)
                - lambda_star * self.rho_star(center))

    def vertex_probabilities(self, center, lambda_star):
        """Release probability of each public point for the (projected) summary ``center``."""
        return normalised_probabilities(self.log_point_weights(center, lambda_star))

    def sample(self, center, lambda_star, size, rng):
        """``size`` releases: a public point drawn from :meth:`vertex_probabilities`, then the public jitter."""
        p = self.vertex_probabilities(center, lambda_star)
        indices = rng.choice(self.point_set.n_points, size=size, p=p)
        return self.point_set.jitter(indices, rng)


def build_point_set_fields(point_set, data, rng, eps_phi, bandwidth, upsilon, smoothing_time, laplacian="graph",
                           knn=None, density_floor=0.0):
    r"""Stage 1 and its post-processing on the public point set.

    Returns
    -------
    PointSetFields
    """
    kernel_bound = point_set_kernel_mass_bound(point_set, bandwidth)
    n = len(data)
    l1_sensitivity = 2.0 * kernel_bound.bound / n
    with np.errstate(over="ignore", divide="ignore"):
        scales = l1_sensitivity / (eps_phi * point_set.weights)
    if not (np.all(np.isfinite(scales)) and float(np.max(scales)) <= _MAX_NOISE_SCALE):
        raise InvalidParameterError(
            f"eps_phi={eps_phi!r} is too small for n={n}: the per-point Laplace scale Δ₁/(ε_φ w_j) reaches "
            f"{float(np.max(scales)):.3g} > {_MAX_NOISE_SCALE:g}; choose a larger eps_phi", param="eps_phi",
        )
    f = point_set_kde(point_set, data, bandwidth)
    f_tilde = f + rng.laplace(0.0, scales)
    # public clip to the range every KDE lies in: 0 <= kappa_h <= e^-1, so f_j in [0, e^-1] (post-processing)
    clipped = np.clip(f_tilde, min(density_floor, KERNEL_PEAK), KERNEL_PEAK)
    u = clipped if smoothing_time == 0.0 else _solve(point_set, smoothing_time, clipped)
    w = point_set.weights
    c_tilde = float(np.dot(w, u) / w.sum())
    if laplacian == "knn_data":
        sigma = _knn_data_sigma(point_set, data, u, c_tilde, upsilon, bandwidth, knn)
    else:
        sigma = _solve(point_set, 1.0, c_tilde - u, diagonal_weight=upsilon)
    sigma = np.clip(np.nan_to_num(sigma, nan=0.0, posinf=_SIGMA_CAP, neginf=-_SIGMA_CAP), -_SIGMA_CAP, _SIGMA_CAP)
    phi = np.exp(2.0 * sigma)
    with np.errstate(over="ignore", invalid="ignore"):
        exponents = np.array([2.0 * (c_tilde - float(u.max())) / upsilon, 2.0 * (c_tilde - float(u.min())) / upsilon])
    exponents = np.clip(np.nan_to_num(exponents, nan=0.0), -2.0 * _SIGMA_CAP, 2.0 * _SIGMA_CAP)
    bounds = (float(np.exp(exponents[0])), float(np.exp(exponents[1])))
    for arr in (f, f_tilde, u, sigma, phi, scales):
        arr.setflags(write=False)
    return PointSetFields(
        point_set=point_set, laplacian=laplacian, bandwidth=float(bandwidth), upsilon=upsilon,
        smoothing_time=smoothing_time, density_floor=density_floor, eps_phi=eps_phi, n_records=n,
        kernel_bound=kernel_bound, l1_sensitivity=l1_sensitivity, noise_scales=scales, f=f, f_tilde=f_tilde,
        f_smooth=u, c_tilde=c_tilde, sigma=sigma, phi=phi, phi_min=float(phi.min()), phi_max=float(phi.max()),
        phi_bounds=bounds, knn=knn,
    )
