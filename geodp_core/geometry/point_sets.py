r"""Public point sets on a public domain, in any dimension: the discretisation of the conformal mechanism beyond surfaces.

A :class:`PublicPointSet` is built from PUBLIC inputs only (the manifold, a point count, a fixed public
seed, a public domain: the whole sphere :math:`S^d`, or a public geodesic ball :math:`B(c, R)` of
:math:`H^d` or :math:`\mathbb{R}^d`) and never from data:

* domains: :math:`S^d` or a cap, a geodesic ball of :math:`H^d`, :math:`\mathbb{R}^d`, or of SPD(m) under a flat
  metric (log-Euclidean, log-Cholesky: a Euclidean ball in the chart :math:`\psi`, where distances are computed);
* points: a scrambled Halton sequence (:class:`scipy.stats.qmc.Halton`, seed :data:`PUBLIC_SEED`) in
  :math:`[0,1]^{d+1}` mapped to the domain with its volume measure. On :math:`S^d`: :math:`u \mapsto
  g = \Phi^{-1}(u)`, :math:`x = g/|g|` (uniform on :math:`S^d`). On a ball: the first :math:`d` coordinates give a
  direction :math:`\Phi^{-1}(u_{1:d})` normalised, the last a radius by the inverse CDF of the radial volume
  density :math:`J(r) \propto \sinh^{d-1} r` (:math:`H^d`) or :math:`r^{d-1}` (:math:`\mathbb{R}^d`) on
  :math:`[0, R]`, and :math:`x = \mathrm{Exp}_c(r\,v)` (also a public cap :math:`B(c, R)` of :math:`S^d`, with
  :math:`J(r) \propto \sin^{d-1} r`);
* cell weights: equal, :math:`w_j = 1/N` (the volume measure normalised to total mass 1; any public weights
  would do for privacy, equal weights are the Monte Carlo quadrature of the volume measure);
* a symmetric :math:`k`-nearest-neighbour graph on the points (geodesic edge lengths :math:`\ell_{ij}`);
* a graph stiffness matrix :math:`K_{ij} = -w_iw_j a_{ij}/\bar c`, :math:`K_{ii} = -\sum_{j\ne i}K_{ij}`,
  :math:`a_{ij} = e^{-\ell_{ij}^2/\varepsilon^2}` on the graph edges, :math:`\varepsilon` the median
  :math:`k`-th-neighbour distance and :math:`\bar c = \mathrm{mean}_i\sum_j w_ja_{ij}\ell_{ij}^2/(2d)`, so that
  :math:`(W^{-1}Kf)_i \approx -\Delta_g f(x_i)` (second-order Taylor expansion, isotropic neighbourhoods). It is a
  symmetric M-matrix with zero row sums: the discrete maximum principle holds for :math:`K + \upsilon W`;
* a public jitter radius (half the median nearest-neighbour distance) for the post-processing of a release.

The pairwise distances are computed row block by row block (memory :math:`O(\text{block}\times N)`).
"""

import functools
import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy import special
from scipy.stats import qmc

from geodp_core._validation import check_int, check_real
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.functions import log_sphere_area

__all__ = [
    "PUBLIC_SEED",
    "POINT_COUNT_RANGE",
    "GRAPH_K_RANGE",
    "PublicPointSet",
    "public_point_set",
    "point_set_kind",
    "pairwise_distances",
    "distance_row_blocks",
]

PUBLIC_SEED = 20240611  # fixed, published seed of the quasi-random sequence
POINT_COUNT_RANGE = (50, 20_000)
GRAPH_K_RANGE = (2, 64)
_ROW_BLOCK = 512
_RADIAL_GRID = 20_001
_U_CLIP = 1e-12
_REFINE_BELOW = 0.05  # pairs closer than this are recomputed from coordinate differences


def pairwise_distances(kind, points_a, points_b):
    r"""Geodesic distances between two point arrays (``(a, D)`` and ``(b, D)`` ambient coordinates), shape ``(a, b)``.

    :math:`\arccos\langle x, y\rangle` on :math:`S^d`, :math:`\mathrm{arccosh}(-\langle x, y\rangle_L)` on :math:`H^d`
    (hyperboloid), :math:`\sqrt{|x|^2 + |y|^2 - 2\langle x, y\rangle}` on :math:`\mathbb{R}^d` (Gram matrix products); the
    pairs closer than :data:`_REFINE_BELOW` (where those forms lose accuracy by cancellation) are recomputed from
    the differences: :math:`2\arcsin(|x-y|/2)`, :math:`2\,\mathrm{arcsinh}(|x-y|_L/2)`, :math:`|x-y|`. Absolute error
    below :math:`10^{-6}` for coordinates of norm up to :math:`\sim 10^3` (see ``docs/derivations/conformal_pointset.md``).
    """
    a = np.asarray(points_a, dtype=float)
    b = np.asarray(points_b, dtype=float)
    if kind == "sphere":
        dist = np.arccos(np.clip(a @ b.T, -1.0, 1.0))
    elif kind == "hyperbolic_ball":
        gram = a[:, 1:] @ b[:, 1:].T - np.outer(a[:, 0], b[:, 0])
        dist = np.arccosh(np.maximum(-gram, 1.0))
    else:
        sq = np.sum(a * a, axis=1)[:, None] + np.sum(b * b, axis=1)[None, :] - 2.0 * (a @ b.T)
        dist = np.sqrt(np.maximum(sq, 0.0))
    rows, cols = np.nonzero(dist < _REFINE_BELOW)
    if rows.size:
        diff = a[rows] - b[cols]
        if kind == "sphere":
            dist[rows, cols] = 2.0 * np.arcsin(np.minimum(0.5 * np.linalg.norm(diff, axis=1), 1.0))
        elif kind == "hyperbolic_ball":
            sq = np.maximum(np.sum(diff[:, 1:] ** 2, axis=1) - diff[:, 0] ** 2, 0.0)
            dist[rows, cols] = 2.0 * np.arcsinh(0.5 * np.sqrt(sq))
        else:
            dist[rows, cols] = np.linalg.norm(diff, axis=1)
    return dist


def distance_row_blocks(kind, points, block=_ROW_BLOCK):
    """Yield ``(start, distances[start:start+block, :])`` of the pairwise distance matrix of ``points``."""
    for start in range(0, len(points), block):
        yield start, pairwise_distances(kind, points[start:start + block], points)


def _radial_inverse_cdf(kind, dim, radius, u):
    r"""Radii with density :math:`\propto J(r)` on :math:`[0, R]` at quantiles ``u``, and :math:`\log\int_0^R J`.

    :math:`J(r) = \sinh^{d-1}r` (:math:`H^d`) or :math:`r^{d-1}` (:math:`\mathbb{R}^d`); tabulated in log space on
    a fine grid (trapezoid rule) and inverted by linear interpolation (a public map: its accuracy affects
    only how well the points follow the volume measure, never the privacy guarantee).
    """
    grid = np.linspace(0.0, radius, _RADIAL_GRID)
    with np.errstate(divide="ignore"):
        if kind == "hyperbolic_ball":
            log_j = (dim - 1) * np.log(np.sinh(grid))
        elif kind == "sphere":  # a public cap B(c, R) of S^d, R <= pi
            log_j = (dim - 1) * np.log(np.maximum(np.sin(grid), 0.0))
        else:  # R^d, and SPD(m) under a flat metric (dim = m(m+1)/2)
            log_j = (dim - 1) * np.log(grid)
    top = float(np.max(log_j))
    dens = np.exp(log_j - top)
    cdf = np.concatenate([[0.0], np.cumsum(0.5 * (dens[1:] + dens[:-1]) * np.diff(grid))])
    total = cdf[-1]
    log_mass = top + math.log(total)
    return np.interp(u * total, cdf, grid), log_mass


@dataclass(frozen=True, eq=False)
class PublicPointSet:
    r"""A public point set with cell weights and a kNN graph on a public domain (see the module docstring).

    Attributes
    ----------
    manifold : Manifold
    kind : str
        ``"sphere"`` (the whole :math:`S^d`), ``"hyperbolic_ball"`` or ``"euclidean_ball"`` (:math:`B(c, R)`).
    points : ndarray, shape (N, D)
        The public points (ambient coordinates).
    weights : ndarray, shape (N,)
        Public cell weights :math:`w_j = 1/N`.
    log_domain_volume : float
        :math:`\log` of the Riemannian volume of the domain (the weights are the volume measure / this).
    domain_center, domain_radius : ndarray or None, float
        The public ball (``None`` / :math:`\pi` for the whole sphere).
    graph_k : int
        :math:`k` of the kNN graph.
    edges : ndarray, shape (E, 2)
        Undirected edges :math:`i < j` of the symmetrised kNN graph.
    edge_lengths : ndarray, shape (E,)
        Geodesic lengths :math:`\ell_{ij}`.
    jitter_radius : float
        Public radius of the post-processing jitter (half the median nearest-neighbour distance).
    """

    manifold: object
    kind: str
    points: np.ndarray
    weights: np.ndarray
    log_domain_volume: float
    domain_center: object
    domain_radius: float
    graph_k: int
    edges: np.ndarray
    edge_lengths: np.ndarray
    nearest_distance_median: float
    kth_distance_median: float
    jitter_radius: float

    @property
    def n_points(self):
        return len(self.points)

    @property
    def dim(self):
        return self.manifold.dim

    @functools.cached_property
    def stiffness(self):
        r"""Graph stiffness matrix :math:`K` (sparse, symmetric, zero row sums; see the module docstring)."""
        n, w = self.n_points, self.weights
        i, j = self.edges[:, 0], self.edges[:, 1]
        scale = self.kth_distance_median if self.kth_distance_median > 0 else 1.0
        a = np.exp(-((self.edge_lengths / scale) ** 2))
        second = np.bincount(i, weights=w[j] * a * self.edge_lengths**2, minlength=n)
        second += np.bincount(j, weights=w[i] * a * self.edge_lengths**2, minlength=n)
        c_bar = float(np.mean(second)) / (2.0 * self.dim)
        off = -w[i] * w[j] * a / c_bar
        rows, cols = np.concatenate([i, j]), np.concatenate([j, i])
        matrix = sp.csr_matrix((np.concatenate([off, off]), (rows, cols)), shape=(n, n))
        return (matrix - sp.diags(np.asarray(matrix.sum(axis=1)).ravel())).tocsr()

    @property
    def in_chart(self):
        r"""Whether distances are computed in a flat chart :math:`\psi` (flat SPD metrics) rather than on the points."""
        return self.kind == "flat_chart_ball"

    @property
    def distance_kind(self):
        """Kind of :func:`pairwise_distances` applied to :attr:`features`."""
        return "euclidean_ball" if self.kind == "flat_chart_ball" else self.kind

    @functools.cached_property
    def features(self):
        """Coordinates in which :func:`pairwise_distances` gives the geodesic distance (see :meth:`to_features`)."""
        return self.to_features(self.points)

    def to_features(self, points):
        r"""Ambient coordinates, or for a flat SPD metric the flattened chart :math:`\psi(P)` (:math:`\mathrm{dist}(P, Q) =
        \|\psi(P) - \psi(Q)\|_F`), shape ``(m, F)``."""
        points = np.asarray(points, dtype=float).reshape((-1,) + tuple(self.manifold.point_shape))
        if self.kind == "flat_chart_ball":
            points = self.manifold.chart(points)
        points = points.reshape(len(points), -1)
        if self.kind in ("flat_chart_ball", "euclidean_ball"):  # translate to the public centre (an isometry):
            points = points - self._feature_origin  # keeps the Gram-form rounding small near the domain
        return points

    def from_features(self, features):
        """Inverse of :meth:`to_features`: points (``(m, *point_shape)``) from distance coordinates ``(m, F)``."""
        features = np.asarray(features, dtype=float)
        if self.kind in ("flat_chart_ball", "euclidean_ball"):
            features = features + self._feature_origin
        points = features.reshape((-1,) + tuple(self.manifold.point_shape))
        return self.manifold.chart_inverse(points) if self.kind == "flat_chart_ball" else points

    @functools.cached_property
    def _feature_origin(self):
        center = np.asarray(self.domain_center, dtype=float)[None]
        if self.kind == "flat_chart_ball":
            center = self.manifold.chart(center)
        return center.reshape(1, -1)

    def distances_to(self, points):
        """Geodesic distances from ``points`` (``(m, *point_shape)``) to every public point, shape ``(m, N)``."""
        return pairwise_distances(self.distance_kind, self.to_features(points), self.features)

    def contains(self, points):
        """Boolean: is each point in the public domain (always ``True`` on the sphere)."""
        points = np.asarray(points, dtype=float).reshape((-1,) + tuple(self.manifold.point_shape))
        if self.domain_center is None:  # the whole sphere
            return np.ones(len(points), dtype=bool)
        r = self.manifold.dist(self.domain_center, points, check=False)
        return r <= self.domain_radius * (1.0 + 1e-12)

    def jitter(self, indices, rng):
        r"""Public post-processing of released indices: :math:`\mathrm{Exp}_{x_j}(r\,v)` with :math:`v` uniform on the
        unit sphere of :math:`T_{x_j}M` and :math:`r = r_{jit}U^{1/d}` (uniform in the tangent ball of radius
        :math:`r_{jit}`), independent of the data."""
        indices = np.asarray(indices, dtype=np.int64)
        base = self.points[indices]
        d = self.dim
        coords = rng.standard_normal((len(indices), d))
        coords /= np.linalg.norm(coords, axis=1, keepdims=True)
        radii = self.jitter_radius * rng.random(len(indices)) ** (1.0 / d)
        tangent = self.manifold.from_frame(base, coords * radii[:, None])
        return _on_manifold(self.manifold, self.manifold.exp(base, tangent, check=False))


def _on_manifold(manifold, points):
    """Re-project onto the manifold after rounding (sphere, hyperboloid); identity on R^d."""
    projection = getattr(manifold, "projection", None)
    return points if projection is None else projection(points)


def _quasi_random(n_points, n_coords):
    sampler = qmc.Halton(d=n_coords, scramble=True, seed=PUBLIC_SEED)
    return np.clip(sampler.random(n_points), _U_CLIP, 1.0 - _U_CLIP)


def _domain_points(manifold, kind, n_points, domain_radius, domain_center):
    d = manifold.dim
    if kind == "sphere" and domain_center is None:
        g = special.ndtri(_quasi_random(n_points, d + 1))
        points = g / np.linalg.norm(g, axis=1, keepdims=True)
        return points, log_sphere_area(d + 1)
    u = _quasi_random(n_points, d + 1)
    g = special.ndtri(u[:, :d])
    directions = g / np.linalg.norm(g, axis=1, keepdims=True)
    radii, log_radial_mass = _radial_inverse_cdf(kind, d, domain_radius, u[:, d])
    domain_center = np.asarray(domain_center, dtype=float)
    base = np.broadcast_to(domain_center, (n_points,) + domain_center.shape)
    tangent = manifold.from_frame(base, directions * radii[:, None])
    points = _on_manifold(manifold, manifold.exp(base, tangent, check=False))
    return points, log_sphere_area(d) + log_radial_mass


def _knn_graph(kind, points, k):
    """Symmetrised kNN graph: unique edges ``i < j``, their lengths, median nearest and k-th neighbour distances."""
    n = len(points)
    pairs, first, kth = [], [], []
    for start, block in distance_row_blocks(kind, points):
        rows = np.arange(start, start + len(block))
        block[np.arange(len(block)), rows] = np.inf  # exclude the point itself
        idx = np.argpartition(block, k - 1, axis=1)[:, :k]
        dist = np.take_along_axis(block, idx, axis=1)
        order = np.argsort(dist, axis=1)
        idx, dist = np.take_along_axis(idx, order, axis=1), np.take_along_axis(dist, order, axis=1)
        first.append(dist[:, 0])
        kth.append(dist[:, -1])
        pairs.append(np.stack([np.repeat(rows, k), idx.ravel(), dist.ravel()], axis=1))
    allp = np.concatenate(pairs)
    i = np.minimum(allp[:, 0], allp[:, 1]).astype(np.int64)
    j = np.maximum(allp[:, 0], allp[:, 1]).astype(np.int64)
    key = i * n + j
    _, unique = np.unique(key, return_index=True)
    edges = np.stack([i[unique], j[unique]], axis=1)
    return edges, allp[unique, 2], float(np.median(np.concatenate(first))), float(np.median(np.concatenate(kth)))


@functools.lru_cache(maxsize=16)
def _cached_point_set(manifold, kind, n_points, graph_k, domain_radius, center_bytes):
    domain_center = None if center_bytes is None else np.frombuffer(center_bytes, dtype=float).copy().reshape(
        manifold.point_shape)
    points, log_volume = _domain_points(manifold, kind, n_points, domain_radius, domain_center)
    if kind == "flat_chart_ball":
        edges, lengths, nearest, kth = _knn_graph("euclidean_ball", manifold.chart(points).reshape(n_points, -1),
                                                  graph_k)
    else:
        edges, lengths, nearest, kth = _knn_graph(kind, points, graph_k)
    weights = np.full(n_points, 1.0 / n_points)
    for arr in (points, weights, edges, lengths):
        arr.setflags(write=False)
    return PublicPointSet(
        manifold=manifold, kind=kind, points=points, weights=weights, log_domain_volume=float(log_volume),
        domain_center=domain_center, domain_radius=float(domain_radius), graph_k=int(graph_k), edges=edges,
        edge_lengths=lengths, nearest_distance_median=nearest, kth_distance_median=kth, jitter_radius=0.5 * nearest,
    )


def point_set_kind(manifold):
    """The point-set kind of ``manifold``, or ``None`` where no public point set is implemented."""
    if manifold.name == "spd":
        return "flat_chart_ball" if hasattr(manifold, "chart") else None
    kinds = {"sphere": "sphere", "hyperbolic": "hyperbolic_ball", "euclidean": "euclidean_ball"}
    return kinds.get(manifold.name) if manifold.dim >= 2 else None


def public_point_set(manifold, n_points, graph_k=10, domain_radius=None, domain_center=None):
    r"""The public point set of ``manifold`` (cached: identical inputs give the identical object).

    Parameters
    ----------
    manifold : Manifold
        :math:`S^d`, :math:`H^d` or :math:`\mathbb{R}^d` (:math:`d \ge 2`).
    n_points : int
        :math:`N` in ``[50, 20000]``.
    graph_k : int
        :math:`k` of the kNN graph, in ``[2, 64]`` and below :math:`N`.
    domain_radius : float
        :math:`R > 0` of the public ball (required on :math:`H^d`, :math:`\mathbb{R}^d`; on :math:`S^d` optional: a
        public cap :math:`B(c, R)`, :math:`R \le \pi`, default the whole sphere).
    domain_center : array_like, optional
        Centre :math:`c` of the public ball (default: the manifold's origin).

    Returns
    -------
    PublicPointSet
    """
    kind = point_set_kind(manifold)
    if kind is None:
        raise InvalidParameterError(
            f"manifold must be S^d, H^d or R^d with d >= 2, or SPD(m) under a flat metric (log-Euclidean, "
            f"log-Cholesky) for a public point set; got {manifold.label}",
            param="manifold",
        )
    n_points = check_int(n_points, "n_points", low=POINT_COUNT_RANGE[0], high=POINT_COUNT_RANGE[1])
    graph_k = check_int(graph_k, "graph_k", low=GRAPH_K_RANGE[0], high=min(GRAPH_K_RANGE[1], n_points - 1))
    if kind == "sphere":
        if domain_radius is not None:
            domain_radius = check_real(domain_radius, "domain_radius", low=0.0, high=math.pi, high_closed=True)
        if domain_radius is None or domain_radius == math.pi:
            if domain_center is not None:
                raise InvalidParameterError(
                    "domain_center needs a cap radius domain_radius < π on the sphere (without it the whole sphere is "
                    "the domain)", param="domain_center",
                )
            return _cached_point_set(manifold, kind, n_points, graph_k, math.pi, None)
    elif domain_radius is None:
        raise InvalidParameterError(f"domain_radius is required on {manifold.label} (the public ball B(c, R))",
                                    param="domain_radius")
    else:
        domain_radius = check_real(domain_radius, "domain_radius", low=0.0, high=100.0, high_closed=True)
    center = manifold.default_center() if domain_center is None else manifold.validate_points(
        domain_center, "domain_center", single=True)
    return _cached_point_set(manifold, kind, n_points, graph_k, float(domain_radius),
                             np.ascontiguousarray(center, dtype=float).tobytes())
