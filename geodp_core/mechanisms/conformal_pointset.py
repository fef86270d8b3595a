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
Stage 2, continuous sampler (``sampler="continuous"``)
    :math:`Z` with density :math:`\propto \hat\phi(z)^{d/2}e^{-\lambda^*\tilde\rho(\hat\eta, z)}` on the whole manifold
    (:meth:`PointSetFields.conformal_distance`), sampled exactly by rejection from a Riemannian Laplace proposal with a
    public number of proposals (:meth:`PointSetFields.sample_continuous`): no output discretisation, so no
    resolution floor; :math:`\sigma` first capped by :func:`cap_volume_factor` (public post-processing).

Derivation: ``docs/derivations/conformal_pointset.md``.
"""

import dataclasses
import functools
import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
from scipy.sparse.linalg import LinearOperator, cg, spsolve

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry.point_sets import distance_row_blocks, pairwise_distances
from geodp_core.geometry.radial import get_radial_law

__all__ = [
    "PointSetKernelBound",
    "ConformalFieldValues",
    "PointSetFields",
    "bump_profile_kernel",
    "point_set_kernel_sum",
    "point_set_kernel_mass_bound",
    "point_set_kde",
    "build_point_set_fields",
    "cap_volume_factor",
    "proposals_needed",
    "VOLUME_FACTOR_CAP_DEFAULT",
]

_ROUNDING = 1e-9  # relative safety factor on floating-point sums in B
_DISTANCE_SLACK = 1e-6  # absolute bound of the rounding error of a computed geodesic distance
_BOUND_BINS = 256  # distance bins on [0, 2h)
_BOUND_SHIFTS = 64  # intervals of the nearest-point distance t on [0, h)
_OFFSET = 1.0  # super-source offset in Dijkstra
_SIGMA_CAP = 300.0
KERNEL_PEAK = math.exp(-1.0)  # max of kappa_h, hence of every KDE value f_j
_MAX_NOISE_SCALE = 1e150
FAILURE_PROBABILITY = 1e-12  # public bound on P(fixed proposal budget yields < size acceptances)
MIN_ACCEPTANCE = 1e-5  # smallest public lower bound of the acceptance rate a continuous sampler accepts
MAX_PROPOSALS = 4_000_000  # largest fixed proposal budget of one sample() call
PROPOSAL_CHUNK = 65_536  # proposals evaluated per vectorised chunk (memory bound), mesh sampler
_POINT_PROPOSAL_CHUNK = 2_048  # proposals per chunk of the point-set sampler (a (chunk, N) distance block)
_TAIL = 1e-15  # proposal radii beyond the public reach below have at most this probability
_MAX_CURVED_REACH = 300.0  # largest proposal radius on negatively curved spaces (cosh 300 ~ 1e130: finite)
_ROUTES = 3  # nearest public points through which the continuous conformal distance may route
VOLUME_FACTOR_CAP_DEFAULT = 1.0  # kappa: (phi_max/phi_min)^(d/2) <= e^kappa for the continuous point-set sampler


def proposals_needed(size, acceptance_lower_bound, failure_probability=FAILURE_PROBABILITY):
    r"""Smallest public proposal budget :math:`N` with :math:`P[\mathrm{Bin}(N, p) < k] \le` ``failure_probability``
    for every acceptance rate :math:`p \ge p_{lb}`.

    Chernoff: :math:`P[\mathrm{Bin}(N,p) < k] \le \exp(-(Np - k)^2/(2Np))` for :math:`Np \ge k`; it is
    :math:`\le e^{-x}` once :math:`Np \ge k + x + \sqrt{x^2 + 2kx}`, :math:`x = \log(1/\text{failure})`.
    """
    x = math.log(1.0 / failure_probability)
    k = float(size)
    mean = k + x + math.sqrt(x * x + 2.0 * k * x)
    return int(math.ceil(mean / acceptance_lower_bound))


def fixed_budget_rejection(chunk, n_total, size, chunk_size, max_drawn=None, exhausted=None):
    r"""Rejection sampling with a fixed PUBLIC number of proposals: the accepted points of ``chunk(n)`` (``n``
    proposals, each accepted independently) over exactly ``n_total`` proposals, all evaluated, the first ``size``
    returned.

    With ``n_total`` = :func:`proposals_needed` ``(size, p_lb)``, fewer than ``size`` acceptances has probability
    :math:`\le 10^{-12}` for every summary; only then further chunks are drawn until ``size`` are accepted (the law
    stays exact rather than fail). ``exhausted(accepted, drawn)`` (an exception) is raised if more than
    ``max_drawn`` proposals were needed, which only a numerically violated acceptance bound can cause.
    """
    accepted, total, drawn = [], 0, 0
    while drawn < n_total:  # fixed public number of chunks, all evaluated
        n = min(chunk_size, n_total - drawn)
        got = chunk(n)
        accepted.append(got)
        total += len(got)
        drawn += n
    while total < size:
        if max_drawn is not None and drawn >= max_drawn:
            raise exhausted(total, drawn)
        got = chunk(chunk_size)
        accepted.append(got)
        total += len(got)
        drawn += chunk_size
    return np.concatenate(accepted)[:size]


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

    # ------------------------------------------------- continuous extension
    def conformal_distance(self, center, points, rho_points=None):
        r"""Continuous extension of :math:`\rho^*` to every point :math:`z` of the manifold, and :math:`\hat\phi(z)`.

        .. math::
            \tilde\rho(\eta, z) = \min\Big\{\sqrt{\hat\phi(z)}\,\mathrm{dist}(\eta, z),\
            \min_{j \in J(z)}\big[\rho^*(\eta, x_j) + \sqrt{\hat\phi(z)}\,\mathrm{dist}(x_j, z)\big]\Big\},

        :math:`J(z)` the 3 public points nearest to :math:`z` and :math:`\hat\phi(z) = \phi_{j_1(z)}` the value at the
        nearest one (public functions of :math:`z` and of the released :math:`\phi`). Every term is
        :math:`\sqrt{\phi_{\max}}`-Lipschitz in :math:`\eta`, and
        :math:`\sqrt{\phi_{\min}}\,\mathrm{dist}(\eta, z) \le \tilde\rho(\eta, z) \le \sqrt{\hat\phi(z)}\,\mathrm{dist}(\eta, z)`
        (triangle inequality along each route). With a constant :math:`\phi \equiv c` it is exactly
        :math:`\sqrt c\,\mathrm{dist}(\eta, z)`.

        Returns
        -------
        rho : ndarray, shape (k,)
        phi_hat : ndarray, shape (k,)
        """
        manifold = self.manifold
        points = np.asarray(points, dtype=float).reshape((-1,) + tuple(manifold.point_shape))
        if rho_points is None:
            rho_points = self.rho_star(center)
        direct = manifold.dist(np.asarray(center, dtype=float), points, check=False)
        return self._routed_distance(self.point_set.distances_to(points), direct, rho_points)

    def _routed_distance(self, dist, direct, rho_points):
        r""":math:`\tilde\rho` and :math:`\hat\phi` from the distances to the public points (rows) and to the summary."""
        k = min(_ROUTES, self.point_set.n_points)
        index = np.argpartition(dist, k - 1, axis=1)[:, :k]
        near = np.take_along_axis(dist, index, axis=1)
        order = np.argsort(near, axis=1, kind="stable")
        index, near = np.take_along_axis(index, order, axis=1), np.take_along_axis(near, order, axis=1)
        phi_hat = self.phi[index[:, 0]]
        root = np.sqrt(phi_hat)
        via = np.min(rho_points[index] + root[:, None] * near, axis=1)
        return np.minimum(root * direct, via), phi_hat

    def log_density(self, center, points, lambda_star):
        r"""Unnormalised log density of the continuous stage-2 law w.r.t. the Riemannian volume of the whole
        manifold: :math:`\frac d2\log\hat\phi(z) - \lambda^*\tilde\rho(\eta, z)` (``center`` already projected)."""
        rho, phi_hat = self.conformal_distance(center, points)
        return 0.5 * self.point_set.dim * np.log(phi_hat) - lambda_star * rho

    def continuous_plan(self, lambda_star):
        r"""Public plan of the continuous rejection sampler on the point set: proposal scale and acceptance bound.

        Target on the whole manifold :math:`M` (dimension :math:`d`):
        :math:`\pi_\eta(z) \propto \hat\phi(z)^{d/2}e^{-\lambda^*\tilde\rho(\eta, z)}`. Proposal: the Riemannian Laplace law
        of rate :math:`b = \lambda^*\sqrt{\phi_{\min}}` around :math:`\eta` (exact radial sampler, uniform direction),
        envelope :math:`\phi_{\max}^{d/2}e^{-b\,\mathrm{dist}(\eta, z)} \ge \pi_\eta(z)`. With :math:`a = \lambda^*\sqrt{\phi_{\max}}`
        and :math:`Z(c) = \int_0^{r_{\max}} J(r)e^{-cr}dr` (:math:`J` the radial volume density), the acceptance rate is,
        for EVERY :math:`\eta` (the space is homogeneous: the law of :math:`\mathrm{dist}(\eta, Z)` under the proposal
        does not depend on :math:`\eta`),

        .. math:: p \ge p_{lb} = (\phi_{\min}/\phi_{\max})^{d/2}\, Z(a)/Z(b),

        since :math:`\hat\phi \ge \phi_{\min}` and :math:`\tilde\rho \le \sqrt{\phi_{\max}}\,\mathrm{dist}`. Everything is a function
        of public inputs and of the released :math:`\phi`, never of :math:`\eta`.

        Returns
        -------
        dict
            ``proposal`` ("laplace"), ``scale`` (:math:`1/b`), ``acceptance_lower_bound`` and, when the sampler cannot
            run, ``unavailable`` (the public reason).
        """
        volume = self.manifold.radial_volume
        d = self.point_set.dim
        lam = float(lambda_star)
        b = lam * math.sqrt(self.phi_min)
        a = lam * math.sqrt(self.phi_max)
        plan = dict(proposal="laplace", scale=float(1.0 / b) if b > 0 else math.inf, acceptance_lower_bound=0.0)
        limit = volume.laplace_scale_limit() if volume is not None else 0.0
        if volume is None or not (1e-8 <= plan["scale"] <= 1e8) or plan["scale"] >= limit:
            plan["unavailable"] = (
                f"the continuous sampler needs a Laplace proposal of scale 1/(λ*√φ_min) = {plan['scale']:.3g} in "
                f"[1e-8, 1e8] and below {limit:.3g} (where e^(-r/scale) times the volume growth is integrable) on "
                f"{self.manifold.label}; use sampler='vertex' or a larger ε")
            return plan
        if self.manifold.curvature_bounds[0] < 0:  # cosh/sinh coordinates overflow far out: decided publicly
            reach = volume.radius_tail_bound("laplace", plan["scale"], _TAIL)
            if reach is None or reach > _MAX_CURVED_REACH:
                plan["unavailable"] = (
                    f"the continuous sampler's proposals (Laplace of scale {plan['scale']:.3g}) exceed the radius "
                    f"{_MAX_CURVED_REACH:g} with probability above {_TAIL:g} on {self.manifold.label}, where its "
                    "coordinates are no longer accurate in double precision; use sampler='vertex' or a larger ε")
                return plan
        log_ratio = (get_radial_law(volume, None, "laplace", 1.0 / a).log_normaliser()
                     - get_radial_law(volume, None, "laplace", 1.0 / b).log_normaliser())
        rate = float(min(1.0, math.exp(0.5 * d * (math.log(self.phi_min) - math.log(self.phi_max)) + log_ratio)))
        plan["acceptance_lower_bound"] = rate
        if not (rate >= MIN_ACCEPTANCE):
            plan["unavailable"] = (
                f"the continuous sampler's public lower bound of the acceptance rate is {rate:.3g} < {MIN_ACCEPTANCE:g} "
                f"((φ_max/φ_min)^(d/2) = {(self.phi_max / self.phi_min) ** (0.5 * d):.3g}, λ* = {lam:.3g}); use a "
                "smaller volume_factor_cap (a flatter φ), or sampler='vertex'")
        else:
            plan["proposals_for_one"] = proposals_needed(1, rate)
        return plan

    def sample_continuous(self, center, lambda_star, size, rng, plan=None):
        r"""Exact rejection sampler of :math:`\pi_\eta \propto \hat\phi^{d/2}e^{-\lambda^*\tilde\rho(\eta, z)}\,d\mu` on the
        whole manifold, with a number of proposals fixed by PUBLIC quantities (``center`` already projected).

        Exactly :math:`N = ` :func:`proposals_needed` ``(size, p_lb)`` proposals (:meth:`continuous_plan`) are drawn and
        evaluated, in chunks of fixed public sizes, whatever :math:`\eta` is: the random numbers consumed and the work
        done do not depend on :math:`\eta`. The first ``size`` accepted proposals are returned (i.i.d. from the target).
        Fewer than ``size`` acceptances has probability :math:`\le 10^{-12}` for every :math:`\eta`; only then further
        chunks are drawn until ``size`` are accepted (the law stays exact). It never fails for an
        :math:`\eta`-dependent reason.

        Raises
        ------
        UnavailableError
            Decided by public inputs only: the plan is unavailable, or the budget exceeds ``4e6`` proposals.
        """
        if plan is None:
            plan = self.continuous_plan(lambda_star)
        if "unavailable" in plan:
            raise UnavailableError(plan["unavailable"], param="sampler")
        n_total = proposals_needed(size, plan["acceptance_lower_bound"])
        if n_total > MAX_PROPOSALS:
            raise UnavailableError(
                f"size={size} needs a fixed budget of {n_total} proposals (public acceptance bound "
                f"{plan['acceptance_lower_bound']:.3g}) > {MAX_PROPOSALS}; draw fewer points per call", param="size")
        manifold = self.manifold
        d = self.point_set.dim
        center = np.asarray(center, dtype=float)
        rho_points = self.rho_star(center)
        law = get_radial_law(manifold.radial_volume, None, "laplace", plan["scale"])
        root_min = math.sqrt(self.phi_min)
        log_phi_max = 0.5 * d * math.log(self.phi_max)

        ps = self.point_set
        if ps.in_chart:  # flat chart psi: Exp_eta(r u) is psi^-1(psi(eta) + r u), computed in the chart
            basis = manifold.chart_basis().reshape(d, -1)
            origin = ps.to_features(center[None])[0]

        def chunk(n):
            radii = law.sample(n, rng)
            coords = rng.standard_normal((n, d))
            coords /= np.sqrt(np.einsum("ij,ij->i", coords, coords))[:, None]
            if ps.in_chart:
                features = origin + (radii[:, None] * coords) @ basis
                proposals = features
            else:
                with np.errstate(over="ignore", invalid="ignore"):
                    proposals = manifold.exp_polar(center, radii, coords, check=False)
                projection = getattr(manifold, "projection", None)
                if projection is not None:
                    proposals = projection(proposals)
                features = ps.to_features(proposals)
            dist = pairwise_distances(ps.distance_kind, features, ps.features)
            rho, phi_hat = self._routed_distance(dist, radii, rho_points)
            log_ratio = (0.5 * d * np.log(phi_hat) - lambda_star * rho) - (log_phi_max - lambda_star * root_min * radii)
            with np.errstate(divide="ignore", invalid="ignore"):
                keep = np.log(rng.random(n)) < log_ratio  # False where a value is not finite
            return proposals[keep]

        def exhausted(total, drawn):
            return UnavailableError(
                f"the continuous sampler accepted {total} of {drawn} proposals, below its public acceptance bound "
                f"{plan['acceptance_lower_bound']:.3g}: numerical failure (overflow far from the summary)",
                param="sampler")

        out = fixed_budget_rejection(chunk, n_total, size, _POINT_PROPOSAL_CHUNK, 4 * MAX_PROPOSALS, exhausted)
        if ps.in_chart:  # public post-processing: metric projection onto the public ball (a Euclidean ball in psi)
            norms = np.sqrt(np.einsum("ij,ij->i", out, out))
            out = out * np.minimum(1.0, ps.domain_radius / np.maximum(norms, 1e-300))[:, None]
            return ps.from_features(out)
        if manifold.is_compact:
            return out
        return self.project_releases(out)

    def project_releases(self, points):
        r"""Metric projection of released points onto the closed public ball :math:`B(c, R)` (non-compact spaces):
        :math:`\mathrm{Exp}_c(R\,\mathrm{Log}_c z/\mathrm{dist}(c, z))` outside the ball, the identity inside. Public post-processing:
        no privacy cost, and on a Hadamard space it never increases the distance to a point of the ball."""
        ps = self.point_set
        manifold = self.manifold
        center = np.asarray(ps.domain_center, dtype=float)
        radius = manifold.dist(center, points, check=False)
        outside = radius > ps.domain_radius
        if not np.any(outside):
            return points
        points = np.array(points, dtype=float)
        far = points[outside]
        tangent = manifold.log(center, far, check=False)
        tangent = tangent * (ps.domain_radius / radius[outside]).reshape((-1,) + (1,) * (tangent.ndim - 1))
        moved = manifold.exp(center, tangent, check=False)
        projection = getattr(manifold, "projection", None)
        points[outside] = moved if projection is None else projection(moved)
        return points


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


def cap_volume_factor(fields, cap):
    r"""Shrink :math:`\sigma` towards its weighted mean so that :math:`(\phi_{\max}/\phi_{\min})^{d/2} \le e^{\kappa}` (public
    post-processing of the released field; no privacy cost).

    :math:`\sigma' = \bar\sigma + s(\sigma - \bar\sigma)`, :math:`s = \min\{1, \kappa/(d(\sigma_{\max} - \sigma_{\min}))\}`,
    :math:`\bar\sigma = \sum_j w_j\sigma_j/\sum_j w_j`, :math:`\phi' = e^{2\sigma'}`. The conformal volume factor
    :math:`\phi^{d/2} = e^{d\sigma}` amplifies any variation of :math:`\sigma` exponentially in :math:`d`; the cap keeps the
    continuous sampler's acceptance bound :math:`\ge e^{-2\kappa}` on flat spaces (see
    :meth:`PointSetFields.continuous_plan`) in every dimension. ``cap=None`` returns ``fields`` unchanged.

    Returns
    -------
    PointSetFields
    """
    if cap is None:
        return fields
    d = fields.point_set.dim
    sigma = np.asarray(fields.sigma, dtype=float)
    spread = float(sigma.max() - sigma.min())
    if d * spread <= cap:
        return fields
    w = fields.point_set.weights
    mean = float(np.dot(w, sigma) / w.sum())
    sigma = mean + (cap / (d * spread)) * (sigma - mean)
    phi = np.exp(2.0 * sigma)
    for arr in (sigma, phi):
        arr.setflags(write=False)
    return dataclasses.replace(fields, sigma=sigma, phi=phi, phi_min=float(phi.min()), phi_max=float(phi.max()))
