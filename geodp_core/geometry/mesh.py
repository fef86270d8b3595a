r"""Public triangle meshes of :math:`S^2` and of a geodesic ball of :math:`H^2` (docs/specification.md §5.7).

The density-aware conformal mechanism discretises every field on a PUBLIC mesh
(chosen before seeing the data). This module builds the meshes and their finite
element matrices:

* :func:`sphere_mesh` — Fibonacci points on :math:`S^2`, triangulated by their convex hull
  (``scipy.spatial.ConvexHull``; for points on a sphere this is the spherical Delaunay
  triangulation). Triangles are the flat chordal triangles; the mass of a triangle is the
  area of its radial projection (the spherical triangle), so the lumped masses add up to
  :math:`4\pi` exactly.
* :func:`hyperbolic_ball_mesh` — concentric geodesic rings of a public geodesic ball
  :math:`B(o, R) \subset H^2`, Delaunay-triangulated in Poincaré-disk coordinates. In two
  dimensions the Dirichlet energy is conformally invariant,

  .. math:: \int |\nabla_g u|_g^2\, d\mu_g = \int |\nabla u|^2\, dx \qquad (g = \lambda^2\, dx^2,\ \lambda = 2/(1-|x|^2)),

  so the Euclidean cotangent stiffness of the disk triangles is the exact stiffness of the
  P1 elements for the hyperbolic metric; only the mass matrix carries :math:`\lambda^2`
  (7-point Gauss rule of degree 5 per triangle).

Finite elements (P1 hat functions :math:`\varphi_i`):

.. math::
    K_{ij} = \int \nabla\varphi_i\cdot\nabla\varphi_j = -\tfrac12(\cot\alpha_{ij} + \cot\beta_{ij}),\qquad
    M_{ij} = \int \varphi_i\varphi_j\, d\mu, \qquad w_i = \sum_j M_{ij} = \int \varphi_i\, d\mu .

A negative cotangent weight (a non-Delaunay edge) is clipped to zero so that :math:`K` is a
graph Laplacian (an M-matrix); then the lumped implicit heat step and the Helmholtz solve
obey the discrete maximum principle (the bounds of the conformal paper's Theorem III.5 hold
exactly). The count of clipped edges is recorded (``n_clipped_edges``; 0 for the meshes built here
in our checks).

Meshes of :math:`H^2` are built around the origin and moved to a public centre :math:`o` by the
Lorentz boost :math:`B` with :math:`B e_0 = o` (an isometry, so every matrix is unchanged).
"""

import functools
import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.spatial import ConvexHull, Delaunay, cKDTree

from geodp_core._validation import check_int, check_real, check_rng
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry.hyperbolic import Hyperbolic
from geodp_core.geometry.sphere import Sphere

__all__ = [
    "TriangleMesh",
    "fibonacci_sphere",
    "sphere_mesh",
    "hyperbolic_ball_mesh",
    "cotangent_stiffness",
    "triangle_covering_radius",
    "pairs_within",
    "nearest_points",
    "lorentz_boost",
    "sphere_covering_set",
    "hyperbolic_ball_covering_set",
    "MESH_SIZE_RANGE",
    "MAX_BALL_RADIUS",
]

MESH_SIZE_RANGE = (20, 20_000)
"""Admissible numbers of mesh vertices."""

MAX_BALL_RADIUS = 4.0
"""Largest radius of a meshed geodesic ball of :math:`H^2` (the disk coordinates stay well inside the unit disk)."""

_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))

# Symmetric 7-point Gauss rule on a triangle, exact for polynomials of degree 5 (Strang & Fix).
_A1, _B1, _W1 = 0.059715871789770, 0.470142064105115, 0.132394152788506
_A2, _B2, _W2 = 0.797426985353087, 0.101286507323456, 0.125939180544827
_QUAD_BARY = np.array(
    [[1 / 3, 1 / 3, 1 / 3], [_A1, _B1, _B1], [_B1, _A1, _B1], [_B1, _B1, _A1], [_A2, _B2, _B2], [_B2, _A2, _B2],
     [_B2, _B2, _A2]]
)
_QUAD_W = np.array([0.225, _W1, _W1, _W1, _W2, _W2, _W2])


# ----------------------------------------------------------------- point sets
def fibonacci_sphere(n_points):
    r"""``n_points`` quasi-uniform points on :math:`S^2` (Fibonacci / golden-spiral lattice).

    .. math:: z_k = 1 - \frac{2k+1}{n},\quad \theta_k = k\,\pi(3-\sqrt5),\quad
              x_k = (\sqrt{1-z_k^2}\cos\theta_k, \sqrt{1-z_k^2}\sin\theta_k, z_k).

    Returns
    -------
    ndarray, shape (n_points, 3)
    """
    n = check_int(n_points, "n_points", low=4, high=10_000_000)
    k = np.arange(n, dtype=float)
    z = 1.0 - (2.0 * k + 1.0) / n
    r = np.sqrt(np.maximum(1.0 - z * z, 0.0))
    theta = k * _GOLDEN_ANGLE
    return np.stack([r * np.cos(theta), r * np.sin(theta), z], axis=1)


def _ring_disk_points(radius, spacing, cover_radius=None):
    r"""Concentric geodesic rings of a ball :math:`B(0, R) \subset H^2`, in Poincaré-disk coordinates.

    Ring :math:`i` has geodesic radius :math:`r_i = iR/m` (ring gap about :math:`s\sqrt3/2`, hexagonal packing) and :math:`\max(6, \mathrm{round}(2\pi\sinh r_i/s))`
    points (circumference over spacing ``s``), every other ring rotated by half a step. With
    ``cover_radius`` the last ring is pushed out (Euclidean radius :math:`\tanh(\rho/2)/\cos(\pi/n)`) so
    that the polygon of its points contains the whole geodesic ball of radius ``cover_radius``.
    """
    m = max(1, int(math.ceil(radius / (spacing * math.sqrt(3.0) / 2.0))))  # hexagonal packing
    radii = np.linspace(0.0, radius, m + 1)[1:]
    parts = [np.zeros((1, 2))]
    for i, r in enumerate(radii, start=1):
        count = max(6, int(round(2.0 * math.pi * math.sinh(r) / spacing)))
        angles = 2.0 * math.pi * (np.arange(count) + 0.5 * (i % 2)) / count
        rho = math.tanh(r / 2.0)
        if cover_radius is not None and i == m:
            rho = math.tanh(cover_radius / 2.0) / math.cos(math.pi / count)
            if rho >= 1.0:  # pragma: no cover - guarded by the radius limits
                raise InvalidParameterError("the covering ring leaves the Poincaré disk", param="radius")
        parts.append(rho * np.stack([np.cos(angles), np.sin(angles)], axis=1))
    return np.concatenate(parts)


# ------------------------------------------------------------- FEM matrices
def _edges(triangles):
    pairs = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]])
    pairs.sort(axis=1)
    return np.unique(pairs, axis=0)


def _corner_cotangents(coords, triangles):
    """``(T, 3)`` cotangent of the angle at each corner of the flat triangles."""
    p = coords[triangles]  # (T, 3, D)
    cots = np.empty(triangles.shape)
    for a in range(3):
        e1 = p[:, (a + 1) % 3] - p[:, a]
        e2 = p[:, (a + 2) % 3] - p[:, a]
        dot = np.sum(e1 * e2, axis=1)
        if coords.shape[1] == 2:
            cross = np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])
        else:
            cross = np.linalg.norm(np.cross(e1, e2), axis=1)
        cots[:, a] = dot / cross
    return cots


def cotangent_stiffness(coords, triangles):
    r"""Cotangent stiffness matrix of P1 elements on flat triangles, clipped to a graph Laplacian.

    .. math:: K_{ij} = -\tfrac12(\cot\alpha_{ij} + \cot\beta_{ij})\ (i \ne j),\qquad K_{ii} = -\sum_{j\ne i} K_{ij},

    :math:`\alpha_{ij}, \beta_{ij}` the angles opposite the edge :math:`ij`. Positive off-diagonal entries
    (negative edge weights, non-Delaunay edges) are set to 0.

    Parameters
    ----------
    coords : ndarray, shape (N, 2) or (N, 3)
    triangles : ndarray of int, shape (T, 3)

    Returns
    -------
    stiffness : scipy.sparse.csr_matrix, shape (N, N)
    n_clipped : int
        Number of edges whose weight was negative and clipped to zero.
    """
    coords = np.asarray(coords, dtype=float)
    triangles = np.asarray(triangles, dtype=np.int64)
    n = coords.shape[0]
    cots = _corner_cotangents(coords, triangles)
    rows, cols, vals = [], [], []
    for a in range(3):
        i, j = triangles[:, (a + 1) % 3], triangles[:, (a + 2) % 3]  # edge opposite corner a
        rows += [i, j]
        cols += [j, i]
        vals += [0.5 * cots[:, a]] * 2
    weights = sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)).tocsr()
    weights.sum_duplicates()
    tiny = 1e-10 * float(np.max(np.abs(weights.data))) if weights.nnz else 0.0
    n_clipped = int(np.count_nonzero(weights.data < -tiny)) // 2  # cocircular round-off is not counted
    weights.data = np.maximum(weights.data, 0.0)
    degree = np.asarray(weights.sum(axis=1)).ravel()
    return (sp.diags(degree) - weights).tocsr(), n_clipped


def triangle_covering_radius(coords, triangles):
    r"""Per-triangle bound of :math:`\max_{p \in T}\min_i |p - v_i|` (flat triangles).

    Non-obtuse triangles: the circumradius (the farthest point from the vertices is the
    circumcentre or an edge midpoint). Obtuse triangles: :math:`\tfrac23 L_{\max}` — the vertex with
    the largest barycentric coordinate :math:`b \ge 1/3` is within :math:`(1-b)L_{\max}`.

    Returns
    -------
    ndarray, shape (T,)
    """
    p = np.asarray(coords, dtype=float)[np.asarray(triangles)]
    lengths = np.stack([np.linalg.norm(p[:, (a + 1) % 3] - p[:, (a + 2) % 3], axis=1) for a in range(3)], axis=1)
    sq = lengths**2
    longest = lengths.max(axis=1)
    obtuse = 2.0 * sq.max(axis=1) > sq.sum(axis=1)
    a, b, c = lengths.T
    area_x4 = np.sqrt(np.maximum((a + b + c) * (-a + b + c) * (a - b + c) * (a + b - c), 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        circum = a * b * c / area_x4
    return np.where(obtuse | ~np.isfinite(circum), 2.0 * longest / 3.0, circum)


def _spherical_triangle_areas(vertices, triangles):
    r"""Areas of geodesic triangles on :math:`S^2` (Van Oosterom & Strackee):
    :math:`\tan(E/2) = |a\cdot(b\times c)| / (1 + a\cdot b + b\cdot c + c\cdot a)`."""
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    triple = np.abs(np.sum(a * np.cross(b, c), axis=1))
    denom = 1.0 + np.sum(a * b, axis=1) + np.sum(b * c, axis=1) + np.sum(c * a, axis=1)
    return 2.0 * np.arctan2(triple, denom)


def _assemble(triangles, local, n):
    rows = np.repeat(triangles, 3, axis=1).ravel()
    cols = np.tile(triangles, (1, 3)).ravel()
    return sp.coo_matrix((local.reshape(len(triangles), 9).ravel(), (rows, cols)), shape=(n, n)).tocsr()


# ------------------------------------------------------------------- the mesh
@dataclass(frozen=True, eq=False)
class TriangleMesh:
    r"""A public triangle mesh of :math:`S^2` or of a geodesic ball of :math:`H^2`, with its FEM matrices.

    Attributes
    ----------
    kind : {"sphere", "hyperbolic_ball"}
    manifold : Manifold
        :math:`S^2` or :math:`H^2`.
    vertices : ndarray, shape (N, 3)
        Vertices as points of the manifold (ambient coordinates).
    triangles : ndarray of int, shape (T, 3)
    display : ndarray, shape (N, 3) or (N, 2)
        Plot coordinates (the sphere itself, or the Poincaré disk).
    edges : ndarray of int, shape (E, 2)
    edge_lengths : ndarray, shape (E,)
        Geodesic lengths of the edges.
    stiffness : scipy.sparse.csr_matrix
        Cotangent stiffness :math:`K` (a graph Laplacian).
    mass : scipy.sparse.csr_matrix
        Consistent mass matrix :math:`M`.
    lumped_mass : ndarray, shape (N,)
        :math:`w_i = \sum_j M_{ij}` (the cell areas; the weights of the L1 norm).
    cell_mass : ndarray, shape (T, 3)
        Contribution of each triangle to the lumped mass of each of its corners.
    reference_coords : ndarray
        Coordinates of the mesh before the isometry to the public centre (sphere: ``vertices``;
        ball: Poincaré-disk coordinates around the origin); used by the cell sampler.
    boost : ndarray, shape (3, 3) or None
        Lorentz boost moving the origin to ``domain_center`` (ball meshes).
    domain_center, domain_radius
        The public ball :math:`B(o, R)` (``None`` on the sphere).
    n_clipped_edges : int
        Non-Delaunay edges whose negative cotangent weight was clipped.
    """

    kind: str
    manifold: object
    vertices: np.ndarray
    triangles: np.ndarray
    display: np.ndarray
    edges: np.ndarray
    edge_lengths: np.ndarray
    stiffness: object
    mass: object
    lumped_mass: np.ndarray
    cell_mass: np.ndarray
    reference_coords: np.ndarray
    boost: object = None
    domain_center: object = None
    domain_radius: object = None
    n_clipped_edges: int = 0

    @property
    def n_vertices(self):
        return int(self.vertices.shape[0])

    @property
    def n_triangles(self):
        return int(self.triangles.shape[0])

    @property
    def total_mass(self):
        """Total area :math:`\\sum_i w_i` of the meshed domain."""
        return float(self.lumped_mass.sum())

    @property
    def mean_edge_length(self):
        return float(self.edge_lengths.mean())

    # ------------------------------------------------------- frames of reference
    def to_reference(self, points):
        """Points moved by the inverse isometry to the reference mesh (identity on the sphere)."""
        points = np.asarray(points, dtype=float)
        if self.boost is None:
            return points
        inverse = _lorentz_inverse(self.boost)
        return points @ inverse.T

    def from_reference(self, points):
        points = np.asarray(points, dtype=float)
        if self.boost is None:
            return points
        return points @ self.boost.T

    # ---------------------------------------------------------- cell sampling
    @functools.cached_property
    def _incidence(self):
        """Sorted (vertex, triangle, corner) incidences with per-vertex cumulative cell masses."""
        vertex = self.triangles.ravel()
        tri = np.repeat(np.arange(self.n_triangles), 3)
        corner = np.tile(np.arange(3), self.n_triangles)
        weight = self.cell_mass.ravel()
        order = np.lexsort((tri, vertex))
        vertex, tri, corner, weight = vertex[order], tri[order], corner[order], weight[order]
        cum = np.cumsum(weight)
        starts = np.searchsorted(vertex, np.arange(self.n_vertices), side="left")
        ends = np.searchsorted(vertex, np.arange(self.n_vertices), side="right")
        before = np.where(starts > 0, cum[np.maximum(starts - 1, 0)], 0.0)
        total = cum[ends - 1] - before
        local = (cum - before[vertex]) / total[vertex]
        local[ends - 1] = 1.0
        keys = vertex + local
        return keys, tri, corner

    def sample_cell_coordinates(self, vertex_index, rng):
        r"""Uniform points of the barycentric cells of the given vertices (data-independent jitter).

        The cell of vertex :math:`j` is :math:`\bigcup_{T \ni j}\{p \in T: b_j(p) = \max_k b_k(p)\}`.
        A triangle :math:`T \ni j` is chosen with probability ``cell_mass[T, j] / w_j``; then a uniform
        point of :math:`T` (barycentric :math:`b \sim \mathrm{Dirichlet}(1,1,1)`) has its largest
        coordinate swapped onto corner :math:`j`, which maps the three congruent regions
        :math:`\{b_k = \max\}` onto :math:`\{b_j = \max\}` preserving the uniform law.

        Returns
        -------
        triangle_index : ndarray of int, shape (size,)
        barycentric : ndarray, shape (size, 3)
        """
        vertex_index = np.asarray(vertex_index, dtype=np.int64)
        rng = check_rng(rng)
        keys, tri, corner = self._incidence
        u = rng.random(vertex_index.shape[0])
        pos = np.searchsorted(keys, vertex_index + u, side="right")
        pos = np.clip(pos, 0, keys.size - 1)
        triangle, local = tri[pos], corner[pos]
        bary = rng.exponential(size=(vertex_index.shape[0], 3))
        bary /= bary.sum(axis=1, keepdims=True)
        rows = np.arange(bary.shape[0])
        top = np.argmax(bary, axis=1)
        largest = bary[rows, top].copy()
        bary[rows, top] = bary[rows, local]
        bary[rows, local] = largest
        return triangle, bary

    def points_from_barycentric(self, triangle_index, barycentric):
        """Points of the manifold at barycentric coordinates of the flat triangles.

        Sphere: radial projection of the chordal point; ball: the disk-coordinate point mapped
        to the hyperboloid and moved by the boost.
        """
        corners = self.reference_coords[self.triangles[np.asarray(triangle_index)]]  # (k, 3, D)
        flat = np.einsum("kc,kcd->kd", np.asarray(barycentric, dtype=float), corners)
        if self.kind == "sphere":
            return flat / np.linalg.norm(flat, axis=1, keepdims=True)
        return self.from_reference(self.manifold.from_poincare(flat))

    def sample_in_cells(self, vertex_index, rng):
        """One uniform point (flat barycentric measure) in the cell of each given vertex."""
        triangle, bary = self.sample_cell_coordinates(vertex_index, rng)
        return self.points_from_barycentric(triangle, bary)

    # ---------------------------------------------------------- neighbourhoods
    @functools.cached_property
    def _vertex_tree(self):
        return cKDTree(self.reference_coords)

    def nearest_vertex(self, points):
        """Index of the geodesically nearest vertex of each point (see :func:`nearest_points`)."""
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        reference_vertices = self.to_reference(self.vertices)
        return nearest_points(self.kind, self.to_reference(points), reference_vertices, tree=self._vertex_tree)[0]

    def contains(self, points):
        """Whether points lie in the meshed domain (always on the sphere; in the disk polygon on the ball)."""
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        if self.kind == "sphere":
            return np.ones(len(points), dtype=bool)
        disk = self.manifold.to_poincare(self.to_reference(points))
        normals, offsets = self._hull_equations
        return np.all(disk @ normals.T + offsets <= 1e-12, axis=1)

    @functools.cached_property
    def _hull_equations(self):
        """Half-planes of the convex domain polygon (the union of the Delaunay triangles)."""
        equations = ConvexHull(self.reference_coords).equations
        return equations[:, :2], equations[:, 2]


def _lorentz_inverse(boost):
    signature = np.diag([-1.0, 1.0, 1.0])
    return signature @ boost.T @ signature


def _freeze(*arrays):
    for a in arrays:
        if isinstance(a, np.ndarray):
            a.setflags(write=False)


# -------------------------------------------------------------- the sphere
@functools.lru_cache(maxsize=16)
def _sphere_mesh_cached(n_vertices):
    manifold = Sphere(2)
    vertices = fibonacci_sphere(n_vertices)
    triangles = ConvexHull(vertices).simplices.astype(np.int64)
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    flip = np.sum(a * np.cross(b, c), axis=1) < 0.0
    triangles[flip] = triangles[flip][:, [0, 2, 1]]
    edges = _edges(triangles)
    edge_lengths = manifold._dist(vertices[edges[:, 0]], vertices[edges[:, 1]])
    stiffness, n_clipped = cotangent_stiffness(vertices, triangles)
    areas = _spherical_triangle_areas(vertices, triangles)
    local = (areas / 12.0)[:, None, None] * (np.ones((3, 3)) + np.eye(3))
    mass = _assemble(triangles, local, n_vertices)
    cell_mass = np.repeat((areas / 3.0)[:, None], 3, axis=1)
    lumped = np.bincount(triangles.ravel(), weights=cell_mass.ravel(), minlength=n_vertices)
    _freeze(vertices, triangles, edges, edge_lengths, cell_mass, lumped)
    return TriangleMesh(
        kind="sphere", manifold=manifold, vertices=vertices, triangles=triangles, display=vertices, edges=edges,
        edge_lengths=edge_lengths, stiffness=stiffness, mass=mass, lumped_mass=lumped, cell_mass=cell_mass,
        reference_coords=vertices, n_clipped_edges=n_clipped,
    )


def sphere_mesh(n_vertices):
    r"""Public mesh of :math:`S^2`: ``n_vertices`` Fibonacci points and their convex-hull triangulation.

    Parameters
    ----------
    n_vertices : int
        In ``MESH_SIZE_RANGE``.

    Returns
    -------
    TriangleMesh
        Lumped masses are the areas of the spherical triangles split in three (sum :math:`4\pi`);
        the consistent mass is the flat P1 mass rescaled per triangle to the spherical area.
    """
    n_vertices = check_int(n_vertices, "mesh_size", low=MESH_SIZE_RANGE[0], high=MESH_SIZE_RANGE[1])
    return _sphere_mesh_cached(n_vertices)


# ----------------------------------------------------------- hyperbolic ball
def _ball_spacing(radius, n_vertices):
    area = 4.0 * math.pi * math.sinh(0.5 * radius) ** 2  # = 2 pi (cosh R - 1), without cancellation at small R
    return math.sqrt(2.0 * area / (math.sqrt(3.0) * n_vertices))


@functools.lru_cache(maxsize=16)
def _ball_mesh_reference(n_vertices, radius):
    manifold = Hyperbolic(2)
    disk = _ring_disk_points(radius, _ball_spacing(radius, n_vertices))
    triangles = Delaunay(disk).simplices.astype(np.int64)
    p = disk[triangles]
    signed = (p[:, 1, 0] - p[:, 0, 0]) * (p[:, 2, 1] - p[:, 0, 1]) - (p[:, 1, 1] - p[:, 0, 1]) * (p[:, 2, 0] - p[:, 0, 0])
    triangles[signed < 0] = triangles[signed < 0][:, [0, 2, 1]]
    vertices = manifold.from_poincare(disk)
    n = disk.shape[0]
    edges = _edges(triangles)
    edge_lengths = manifold._dist(vertices[edges[:, 0]], vertices[edges[:, 1]])
    stiffness, n_clipped = cotangent_stiffness(disk, triangles)
    # mass: int phi_i phi_j lambda^2 dx by the 7-point rule (phi_i = barycentric coordinates)
    p = disk[triangles]
    flat_area = 0.5 * np.abs(
        (p[:, 1, 0] - p[:, 0, 0]) * (p[:, 2, 1] - p[:, 0, 1]) - (p[:, 1, 1] - p[:, 0, 1]) * (p[:, 2, 0] - p[:, 0, 0])
    )
    qpoints = np.einsum("qc,tcd->tqd", _QUAD_BARY, p)  # (T, 7, 2)
    lam2 = 4.0 / (1.0 - np.sum(qpoints**2, axis=2)) ** 2  # (T, 7)
    weights = flat_area[:, None] * _QUAD_W[None, :] * lam2  # (T, 7)
    local = np.einsum("tq,qa,qb->tab", weights, _QUAD_BARY, _QUAD_BARY)
    mass = _assemble(triangles, local, n)
    cell_mass = local.sum(axis=2)
    lumped = np.bincount(triangles.ravel(), weights=cell_mass.ravel(), minlength=n)
    _freeze(vertices, triangles, edges, edge_lengths, cell_mass, lumped, disk)
    return TriangleMesh(
        kind="hyperbolic_ball", manifold=manifold, vertices=vertices, triangles=triangles, display=disk, edges=edges,
        edge_lengths=edge_lengths, stiffness=stiffness, mass=mass, lumped_mass=lumped, cell_mass=cell_mass,
        reference_coords=disk, boost=None, domain_center=manifold.default_center(), domain_radius=float(radius),
        n_clipped_edges=n_clipped,
    )


def lorentz_boost(center):
    r"""The Lorentz boost :math:`B` of :math:`H^2` with :math:`B e_0 = o` (columns: :math:`o` and the
    frame of :math:`T_o H^2` from :meth:`Hyperbolic.tangent_frame`)."""
    manifold = Hyperbolic(2)
    center = manifold.validate_points(center, "domain_center", single=True)
    frame = manifold.tangent_frame(center)
    return np.stack([center, frame[0], frame[1]], axis=1)


def hyperbolic_ball_mesh(n_vertices, radius, center=None):
    r"""Public mesh of the geodesic ball :math:`B(o, R) \subset H^2`.

    Concentric geodesic rings (spacing :math:`s` chosen so that about ``n_vertices`` points fill the
    area :math:`2\pi(\cosh R - 1)`), the last ring on the boundary :math:`r = R`; Delaunay triangulation
    in Poincaré-disk coordinates. Built around the origin and moved to ``center`` by a Lorentz boost.

    Parameters
    ----------
    n_vertices : int
        Approximate number of vertices, in ``MESH_SIZE_RANGE``.
    radius : float
        :math:`0 < R \le` ``MAX_BALL_RADIUS``.
    center : array_like, optional
        Public centre :math:`o` (default: the origin :math:`(1, 0, 0)`).

    Returns
    -------
    TriangleMesh
        The domain (the disk polygon of the boundary ring) lies inside :math:`B(o, R)`.
    """
    n_vertices = check_int(n_vertices, "mesh_size", low=MESH_SIZE_RANGE[0], high=MESH_SIZE_RANGE[1])
    radius = check_real(radius, "domain_radius", low=0.0, high=MAX_BALL_RADIUS, high_closed=True)
    reference = _ball_mesh_reference(n_vertices, radius)
    if center is None:
        return reference
    boost = lorentz_boost(center)
    if np.allclose(boost, np.eye(3), atol=1e-15):
        return reference
    manifold = reference.manifold
    vertices = manifold.projection(reference.vertices @ boost.T)
    display = manifold.to_poincare(vertices)
    _freeze(vertices, display, boost)
    return TriangleMesh(
        kind="hyperbolic_ball", manifold=manifold, vertices=vertices, triangles=reference.triangles, display=display,
        edges=reference.edges, edge_lengths=reference.edge_lengths, stiffness=reference.stiffness, mass=reference.mass,
        lumped_mass=reference.lumped_mass, cell_mass=reference.cell_mass, reference_coords=reference.reference_coords,
        boost=boost, domain_center=np.array(boost[:, 0]), domain_radius=reference.domain_radius,
        n_clipped_edges=reference.n_clipped_edges,
    )


# ------------------------------------------------------------ covering sets
def sphere_covering_set(mesh, subdivisions):
    r"""Probe points covering :math:`S^2` with a certified covering radius.

    Every flat mesh triangle is split into ``subdivisions``:math:`^2` congruent sub-triangles; the
    probe points are the radially projected sub-vertices. A point :math:`y \in S^2` is the projection
    :math:`q/|q|` of a point :math:`q` of a flat sub-triangle; its nearest sub-vertex :math:`a` satisfies
    :math:`|q - a| \le R_t/m` (:func:`triangle_covering_radius` of the big triangle, scaled) and
    the angle :math:`\theta` between :math:`q` and :math:`a` obeys :math:`|a|\sin\theta \le |q - a|`
    (distance from :math:`a` to the line through :math:`q`). With :math:`|a| \ge` the distance
    :math:`\pi_t` of the triangle's plane from the origin,

    .. math:: \mathrm{dist}(y, a/|a|) \le \delta = \max_t \arcsin\big(R_t / (m\,\pi_t)\big).

    Returns
    -------
    points : ndarray, shape (P, 3)
    delta : float
        Covering radius: every point of :math:`S^2` is within ``delta`` of a probe point.
    """
    m = check_int(subdivisions, "subdivisions", low=1, high=4096)
    verts, tris = mesh.vertices, mesh.triangles
    i, j = np.meshgrid(np.arange(m + 1), np.arange(m + 1), indexing="ij")
    keep = i + j <= m
    bary = np.stack([i[keep], j[keep], m - i[keep] - j[keep]], axis=1) / m  # (Q, 3)
    flat = np.einsum("qc,tcd->tqd", bary, verts[tris]).reshape(-1, 3)
    points = flat / np.linalg.norm(flat, axis=1, keepdims=True)
    points = np.unique(np.round(points, 12), axis=0)  # shared edges and corners appear once
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    radius = triangle_covering_radius(verts, tris) / m
    a, b, c = (verts[tris[:, k]] for k in range(3))
    normal = np.cross(b - a, c - a)
    plane = np.abs(np.sum(normal * a, axis=1)) / np.linalg.norm(normal, axis=1)
    ratio = np.minimum(radius / plane, 1.0)
    return points, float(np.max(np.arcsin(ratio))) + 1e-11  # + the rounding of the merged probes


def hyperbolic_ball_covering_set(radius, spacing):
    r"""Probe points covering the geodesic ball :math:`B(0, R) \subset H^2` (around the origin).

    Ring points (:func:`_ring_disk_points` with the last ring pushed out so that its polygon contains
    :math:`B(0, R)`), Delaunay-triangulated in the disk. For :math:`y` in a disk triangle :math:`t`, the
    straight segment to its nearest corner has Euclidean length :math:`\le R_t` and stays where
    :math:`|x| \le \rho_t` (the largest corner norm), where the hyperbolic length element is at most
    :math:`2/(1-\rho_t^2)`:

    .. math:: \delta = \max_t \frac{2R_t}{1-\rho_t^2}.

    Returns
    -------
    points : ndarray, shape (P, 3)
        Probe points on the hyperboloid (reference position: ball around the origin).
    delta : float
        Covering radius of :math:`B(0, R)`.
    """
    disk = _ring_disk_points(radius, spacing, cover_radius=radius)
    tris = Delaunay(disk).simplices
    r_t = triangle_covering_radius(disk, tris)
    rho_t = np.max(np.linalg.norm(disk[tris], axis=2), axis=1)
    delta = float(np.max(2.0 * r_t / (1.0 - rho_t**2))) + 1e-11  # + floating-point slack of the conversions
    return Hyperbolic(2).from_poincare(disk), delta


# ------------------------------------------------------------------- pairs
def pairs_within(kind, queries, targets, radius, n_bands=32):
    r"""All pairs (query, target) of points at geodesic distance ``< radius``.

    Sphere: KD-tree search on the chord :math:`2\sin(r/2)` (increasing in the distance). Hyperbolic
    plane, in Poincaré-disk coordinates: the geodesic ball of radius :math:`r` around a point at disk
    radius :math:`s` is a Euclidean disk whose diameter lies on the ray through the point, from
    :math:`(s-T)/(1-sT)` to :math:`(s+T)/(1+sT)` (:math:`T = \tanh(r/2)`), so every point of it is within
    Euclidean distance

    .. math:: r_E(s) = \frac{T(1-s^2)}{1-sT}

    of the centre. The queries are split into bands of :math:`s`; each band is searched with the
    largest :math:`r_E` over the band (at an end or at :math:`s^* = (1-\sqrt{1-T^2})/T`). Candidates
    are then filtered by the exact distance, so no pair is missed.

    Parameters
    ----------
    kind : {"sphere", "hyperbolic_ball"}
    queries, targets : ndarray, shape (Q, 3), (N, 3)
        Points in the same frame (ambient coordinates).
    radius : float

    Returns
    -------
    query_index, target_index : ndarray of int
    distances : ndarray
    """
    queries = np.asarray(queries, dtype=float).reshape(-1, 3)
    targets = np.asarray(targets, dtype=float).reshape(-1, 3)
    pad = 1.0 + 1e-9
    q_parts, t_parts = [], []
    if kind == "sphere":
        manifold = Sphere(2)
        chord = 2.0 * math.sin(min(radius, math.pi) / 2.0) * pad + 1e-12
        found = cKDTree(queries).sparse_distance_matrix(cKDTree(targets), chord, output_type="ndarray")
        q_parts.append(found["i"])
        t_parts.append(found["j"])
    else:
        manifold = Hyperbolic(2)
        q_disk = manifold.to_poincare(queries)
        t_tree = cKDTree(manifold.to_poincare(targets))
        big_t = math.tanh(radius / 2.0)
        s = np.linalg.norm(q_disk, axis=1)
        order = np.argsort(s)
        s_star = (1.0 - math.sqrt(1.0 - big_t * big_t)) / big_t if big_t > 0 else 0.0
        for band in np.array_split(order, min(n_bands, max(1, len(order)))):
            if band.size == 0:
                continue
            lo, hi = float(s[band[0]]), float(s[band[-1]])
            candidates = [lo, hi] + ([s_star] if lo < s_star < hi else [])
            r_e = max(big_t * (1.0 - c * c) / (1.0 - c * big_t) for c in candidates) * pad + 1e-12
            found = cKDTree(q_disk[band]).sparse_distance_matrix(t_tree, r_e, output_type="ndarray")
            q_parts.append(band[found["i"]])
            t_parts.append(found["j"])
    q_idx = np.concatenate(q_parts).astype(np.int64)
    t_idx = np.concatenate(t_parts).astype(np.int64)
    dist = manifold._dist(queries[q_idx], targets[t_idx])
    keep = dist < radius
    return q_idx[keep], t_idx[keep], dist[keep]


def nearest_points(kind, queries, targets, k=1, tree=None, n_candidates=8):
    r"""The ``k`` geodesically nearest targets of each query point.

    Sphere: exact (the chord is increasing in the geodesic distance). Hyperbolic plane: the
    ``max(n_candidates, 3k)`` Euclidean-nearest targets in Poincaré-disk coordinates are re-ranked by
    the exact distance (exact in practice for well-spread point sets; used only by cross-checks and
    the non-private kNN variant).

    Parameters
    ----------
    kind : {"sphere", "hyperbolic_ball"}
    queries, targets : ndarray, shape (Q, 3), (N, 3)
    k : int
    tree : scipy.spatial.cKDTree, optional
        Prebuilt tree of the targets (ambient coordinates on the sphere, disk coordinates otherwise).

    Returns
    -------
    index : ndarray of int, shape (Q,) if k == 1 else (Q, k)
    distance : ndarray, same shape
    """
    queries = np.asarray(queries, dtype=float).reshape(-1, 3)
    targets = np.asarray(targets, dtype=float)
    k = min(int(k), len(targets))
    if kind == "sphere":
        manifold = Sphere(2)
        tree = tree if tree is not None else cKDTree(targets)
        _, cand = tree.query(queries, k=k)
        cand = cand.reshape(len(queries), k)
        dist = manifold._dist(queries[:, None, :], targets[cand])
    else:
        manifold = Hyperbolic(2)
        tree = tree if tree is not None else cKDTree(manifold.to_poincare(targets))
        n_cand = min(max(n_candidates, 3 * k), len(targets))
        _, cand = tree.query(manifold.to_poincare(queries), k=n_cand)
        cand = cand.reshape(len(queries), n_cand)
        dist = manifold._dist(queries[:, None, :], targets[cand])
        order = np.argsort(dist, axis=1)[:, :k]
        cand = np.take_along_axis(cand, order, axis=1)
        dist = np.take_along_axis(dist, order, axis=1)
    if k == 1:
        return cand[:, 0], dist[:, 0]
    return cand, dist
