r"""Density-aware conformal DP (He, Tang, Rahimian & Joshi; docs/specification.md §5.7) — :math:`(\varepsilon_\phi+\varepsilon_{conf})`-DP.

The paper rescales the metric by a conformal factor :math:`\phi = e^{2\sigma}` that is small where
the data are dense, and releases :math:`Z` with density :math:`\propto \exp(-\lambda^*\rho^*(\eta, z))`
w.r.t. :math:`d\mu^* = \phi^{d/2}d\mu`. As written it builds its graph Laplacian on the DATA points,
which makes :math:`\phi` data-dependent outside the sanitised channel. We make it really DP by
discretising everything on a PUBLIC mesh (:mod:`geodp_core.geometry.mesh`):

Stage 1 (:math:`\varepsilon_\phi`)
    Intrinsic KDE at the mesh vertices :math:`f_j = \frac1n\sum_i K_h(\mathrm{dist}(x_j, X_i))`,
    :math:`K_h(t) = h^{-2}K(t^2/h^2)`, :math:`K(s) = e^{-1/(1-s)}` for :math:`s<1`; independent Laplace
    noise per vertex with scale :math:`\Delta_1/(\varepsilon_\phi w_j)` — the Laplace mechanism in the
    :math:`w`-weighted :math:`L^1` norm, :math:`\Delta_1 = 2B/n`, :math:`B \ge \sup_y\sum_j w_j K_h(\mathrm{dist}(x_j, y))`
    a rigorous bound (:func:`kernel_mass_bound`).
Post-processing (public maps of :math:`\tilde f`)
    clip at a floor, implicit heat step :math:`(W + tK)u = W\tilde f`, Helmholtz
    :math:`(K + \upsilon W)\sigma = W(\tilde c - u)`, :math:`\tilde c` the mean of :math:`u`, :math:`\phi = e^{2\sigma}`.
Stage 2 (:math:`\varepsilon_{conf}`)
    :math:`\rho^*(\eta, x_j) = \min_k[\sqrt{\phi_k}\,\mathrm{dist}(\eta, x_k) + G_{kj}]` (multi-source Dijkstra,
    :math:`G` the graph distance with edge weights :math:`\ell_{ij}(\sqrt{\phi_i}+\sqrt{\phi_j})/2`), which is
    :math:`\sqrt{\phi_{\max}}`-Lipschitz in :math:`\eta`; vertex :math:`j` with probability
    :math:`\propto w_j\phi_j^{d/2}e^{-\lambda^*\rho^*_j}`, :math:`\lambda^* = \varepsilon_{conf}/(2\sqrt{\phi_{\max}}\Delta)`;
    then a uniform point of its (public) barycentric cell.

Derivation: ``docs/derivations/conformal.md``.
"""

import collections
import functools
import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import spsolve

from geodp_core._validation import check_finite_array, check_int, check_option, check_real, check_rng
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry.mesh import (
    MAX_BALL_RADIUS,
    MESH_SIZE_RANGE,
    hyperbolic_ball_covering_set,
    hyperbolic_ball_mesh,
    nearest_points,
    pairs_within,
    sphere_covering_set,
    sphere_mesh,
    triangle_covering_radius,
)
from geodp_core.geometry.point_sets import GRAPH_K_RANGE, POINT_COUNT_RANGE, point_set_kind, public_point_set
from geodp_core.mechanisms.base import LABEL_EXACT, LABEL_NO_GUARANTEE, Availability, Mechanism
from geodp_core.mechanisms.conformal_pointset import (
    MAX_PROPOSALS,
    MIN_ACCEPTANCE,
    PROPOSAL_CHUNK,
    VOLUME_FACTOR_CAP_DEFAULT,
    ConformalFieldValues,
    build_point_set_fields,
    cap_volume_factor,
    fixed_budget_rejection,
    graph_conformal_distance,
    normalised_probabilities,
    proposals_needed,
)
from geodp_core.mechanisms.mcmc import riemannian_metropolis_hastings
from geodp_core.mechanisms.registry import Card, MechanismSpec, register_mechanism
from geodp_core.mechanisms.riemannian_laplace import length_text
from geodp_core.privacy import PureDP, pure_dp_budget

__all__ = [
    "Conformal",
    "ConformalFields",
    "KernelMassBound",
    "bump_profile",
    "bump_kernel",
    "kernel_mass_bound",
    "kernel_sum",
    "intrinsic_kde",
    "conformal_mcmc",
    "LAPLACIANS",
    "SAMPLERS",
    "DEFAULT_OPTIONS",
    "DISCRETISATIONS",
    "POINT_SET_LAPLACIANS",
    "POINT_SET_DEFAULTS",
]

LAPLACIANS = ("fem", "knn_data")
SAMPLERS = ("continuous", "vertex")
DISCRETISATIONS = ("mesh", "points")
POINT_SET_LAPLACIANS = ("graph", "knn_data")
POINT_SET_DEFAULTS = {"n_points": 1000, "graph_k": 10, "bandwidth_factor": 1.5}
DEFAULT_OPTIONS = {
    "eps_phi_fraction": 0.3,
    "bandwidth": 0.5,
    "mesh_size": 600,
    "upsilon": 1.0,
    "smoothing_time": 0.05,
    "domain_radius": 2.0,
    "knn": 10,
    "density_floor": 0.0,
}
_DIM = 2
_ROUNDING = 1e-9  # relative safety factor on floating-point sums in the bound B
_PROBE_FRACTION = 1.0 / 16.0  # target covering radius of the probe set, in units of h
_PAIRS_PER_CHUNK = 2_000_000
_MAX_PROBES = 150_000
_ENVELOPE_GRID = 20_001
_ENVELOPE_SLOPE = 400.0  # > 2 x the largest slope (186.4) of the tabulated Hessian profile
_MESH_REGISTRY_SIZE = 16  # LRU bound of the module-level mesh registry
_SIGMA_CAP = 300.0  # |sigma| <= 300: phi = e^(2 sigma) stays finite (public post-processing clip)
_MAX_NOISE_SCALE = 1e150  # largest per-vertex Laplace scale of the density sanitisation
_MAX_HYPERBOLIC_REACH = 8.0  # point sets on H^d: dist(origin, domain_center) + domain_radius (x0 <= cosh 8 ~ 1490)
_MAX_LAMBDA = 1e12  # lambda* above this: noise below the resolution of double-precision positions
_MIN_ACCEPTANCE = MIN_ACCEPTANCE
_MAX_PROPOSALS = MAX_PROPOSALS
_PROPOSAL_CHUNK = PROPOSAL_CHUNK


# ------------------------------------------------------------------- kernel
def bump_profile(s):
    r"""The bump profile :math:`K(s) = \exp(-1/(1-s))` for :math:`0 \le s < 1`, 0 for :math:`s \ge 1`."""
    s = np.asarray(s, dtype=float)
    inside = s < 1.0
    with np.errstate(divide="ignore", over="ignore"):
        return np.where(inside, np.exp(-1.0 / np.where(inside, 1.0 - s, 1.0)), 0.0)


def bump_kernel(dist, bandwidth):
    r""":math:`K_h(t) = h^{-d}K(t^2/h^2)` with :math:`d = 2` (the paper's eq. (9))."""
    h = float(bandwidth)
    return bump_profile((np.asarray(dist, dtype=float) / h) ** 2) / h**_DIM


def _profile_derivatives(u):
    r"""``kappa(u) = K(u^2)``, ``kappa'(u)/u`` and ``kappa''(u)`` on ``u in [0, 1)`` (0 beyond)."""
    u = np.asarray(u, dtype=float)
    inside = u < 1.0
    v = np.where(inside, 1.0 - u * u, 1.0)
    kappa = np.where(inside, np.exp(-1.0 / v), 0.0)
    d1_over_u = np.where(inside, -2.0 * kappa / v**2, 0.0)
    d2 = np.where(inside, kappa * (-2.0 / v**2 + 4.0 * u * u / v**4 - 8.0 * u * u / v**3), 0.0)
    return kappa, d1_over_u, d2


@functools.lru_cache(maxsize=32)
def _hessian_envelope(window, curvature_factor):
    r"""Tabulated :math:`E(u) \ge \sup_{|u'-u|\le r}\max(|\kappa''(u')|, c\,|\kappa'(u')|/u')` on a grid.

    The grid maximum is raised by ``_ENVELOPE_SLOPE * du`` (a bound on the slope of the profile times
    the grid step), so that the envelope also covers the values between grid points.
    """
    upper = 1.0 + window
    grid = np.linspace(0.0, upper, _ENVELOPE_GRID)
    du = grid[1] - grid[0]
    _, d1_over_u, d2 = _profile_derivatives(grid)
    g = np.maximum(np.abs(d2), curvature_factor * np.abs(d1_over_u))
    half = int(math.ceil(window / du)) + 1
    from scipy.ndimage import maximum_filter1d

    env = maximum_filter1d(g, size=2 * half + 1, mode="nearest") + _ENVELOPE_SLOPE * du
    return grid, env


# ------------------------------------------------------------ kernel mass
@dataclass(frozen=True)
class KernelMassBound:
    r"""A rigorous upper bound :math:`B \ge \sup_y \sum_j w_j K_h(\mathrm{dist}(x_j, y))`.

    Attributes
    ----------
    bound : float
        :math:`B`.
    probe_max : float
        Largest value of the sum at the probe points (a lower bound of the supremum).
    covering_radius : float
        :math:`\delta`: every point of the domain is within :math:`\delta` of a probe point.
    n_probes : int
    method : str
        ``"taylor"`` (second-order margin) or ``"trivial"`` (:math:`e^{-1}h^{-2}\times` local mass).
    """

    bound: float
    probe_max: float
    covering_radius: float
    n_probes: int
    method: str

    @property
    def relative_margin(self):
        return self.bound / self.probe_max - 1.0 if self.probe_max > 0 else float("inf")


def kernel_sum(mesh, points, bandwidth):
    r""":math:`S(y) = \sum_j w_j K_h(\mathrm{dist}(x_j, y))` at the given points (brute-force reference)."""
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    q, t, dist = pairs_within(mesh.kind, mesh.to_reference(points), mesh.to_reference(mesh.vertices), bandwidth)
    values = mesh.lumped_mass[t] * bump_kernel(dist, bandwidth)
    return np.bincount(q, weights=values, minlength=len(points))


def _whole(mesh):
    """Whether ``mesh`` covers its whole (compact) surface — the unit sphere S² — rather than a public geodesic ball
    ``B(domain_center, domain_radius)`` (of H²): the mesh then has no domain radius."""
    return mesh.domain_radius is None


def _disk_area(curvature, radius):
    r"""Area of a geodesic disk of radius :math:`r` in constant curvature :math:`\kappa`:
    :math:`2\pi(1 - \cos\sqrt\kappa r)/\kappa`, :math:`\pi r^2`, :math:`2\pi(\cosh\sqrt{-\kappa} r - 1)/(-\kappa)`."""
    if curvature > 0:
        return 2.0 * math.pi * (1.0 - math.cos(min(math.sqrt(curvature) * radius, math.pi))) / curvature
    if curvature < 0:
        return 2.0 * math.pi * (math.cosh(math.sqrt(-curvature) * radius) - 1.0) / -curvature
    return math.pi * radius * radius


def _mesh_builder(manifold):
    """``build(mesh_size, domain_radius, domain_center)`` of the public triangle mesh of ``manifold``, or ``None``.

    The meshes exist for the surfaces whose radial volume is that of the unit sphere (the whole of S² is meshed)
    or of the hyperbolic plane (a public geodesic ball of H²): asked of the manifold's volume, not of its name.
    """
    volume = manifold.radial_volume
    if manifold.dim != 2 or volume is None:
        return None
    if volume.model_curvature == 1.0:
        return lambda mesh_size, domain_radius=None, domain_center=None: sphere_mesh(mesh_size)
    if volume.model_curvature == -1.0:
        return hyperbolic_ball_mesh
    return None


def _diameter_text(manifold):
    """Note text of a sensitivity capped at the diameter of a compact space."""
    text = length_text(float(manifold.diameter))
    return f"{text} = diameter of {manifold.symbol}; using Δ = {text} (dist ≤ {text} always)"


def _probe_set(mesh, bandwidth):
    """Public probe points (reference frame) and their certified covering radius, aiming at ``h/16``."""
    target = _PROBE_FRACTION * bandwidth
    if _whole(mesh):
        ratio = triangle_covering_radius(mesh.vertices, mesh.triangles)
        a, b, c = (mesh.vertices[mesh.triangles[:, k]] for k in range(3))
        normal = np.cross(b - a, c - a)
        plane = np.abs(np.sum(normal * a, axis=1)) / np.linalg.norm(normal, axis=1)
        m = int(math.ceil(float(np.max(ratio / plane)) / math.sin(min(target, 1.0))))
        while m > 1 and mesh.n_triangles * m * m // 2 > _MAX_PROBES:
            m -= 1
        return sphere_covering_set(mesh, max(m, 1))
    cover = mesh.domain_radius + bandwidth
    area = 2.0 * math.pi * (math.cosh(cover) - 1.0)
    floor = math.sqrt(2.0 * area / (math.sqrt(3.0) * _MAX_PROBES))
    spacing = max(math.sqrt(3.0) * target / 1.4, floor)  # ring meshes have delta ~ 1.4 spacing / sqrt(3)
    points, delta = hyperbolic_ball_covering_set(cover, spacing)
    if delta > 1.05 * target and spacing > floor:  # one correction step towards the target
        spacing = max(spacing * target / delta, floor)
        points, delta = hyperbolic_ball_covering_set(cover, spacing)
    return points, delta


def _probe_terms(mesh, probes, vertices, bandwidth, delta, envelope):
    """Value, gradient norm, Hessian bound and local mass of the kernel sum at the probes."""
    h = bandwidth
    manifold = mesh.manifold
    n_probes = len(probes)
    q, t, dist = pairs_within(mesh.kind, probes, vertices, h + delta)
    w = mesh.lumped_mass[t]
    u = dist / h
    kappa, d1_over_u, _ = _profile_derivatives(u)
    value = np.bincount(q, weights=w * kappa / h**2, minlength=n_probes)
    # gradient of k(dist(x_j, .)) at y: k'(t)/t * (-Log_y x_j), with k'(t)/t = h^-4 kappa'(u)/u
    logs = manifold.log(probes[q], vertices[t], check=False)
    coef = -w * d1_over_u / h**4
    grad = np.stack([np.bincount(q, weights=coef * logs[:, k], minlength=n_probes) for k in range(3)], axis=1)
    grid, env = envelope
    idx = np.minimum(np.ceil(u / grid[1]).astype(np.int64), grid.size - 1)  # uniform grid: point at or above u
    hess_env = np.maximum(env[idx], env[np.maximum(idx - 1, 0)])
    hessian = np.bincount(q, weights=w * hess_env / h**4, minlength=n_probes)
    local_mass = np.bincount(q, weights=w, minlength=n_probes)
    return value, manifold.norm(probes, grad), hessian, local_mass


@functools.lru_cache(maxsize=32)
def _kernel_mass_bound_cached(mesh_key, bandwidth):
    mesh = _MESH_REGISTRY[mesh_key]
    probes, delta = _probe_set(mesh, bandwidth)
    h = bandwidth
    vertices = mesh.to_reference(mesh.vertices)
    k_low, k_high = mesh.manifold.curvature_bounds
    # Hessian comparison: curvature >= 0 keeps the flat bound; curvature >= k_low < 0 adds (r coth r <= 1 + r²/3)
    curvature_factor = 1.0 if k_low >= 0 else 1.0 - k_low * h * h / 3.0
    envelope = _hessian_envelope(round(delta / h, 12), curvature_factor)
    reach = h + delta
    ball_area = _disk_area(k_high, reach)  # sizes the chunks only
    per_probe = 1.5 * mesh.n_vertices * ball_area / mesh.total_mass + 1.0
    chunk = max(256, int(_PAIRS_PER_CHUNK / per_probe))
    taylor = trivial = probe_max = 0.0
    for start in range(0, len(probes), chunk):
        value, grad_norm, hessian, local_mass = _probe_terms(
            mesh, probes[start:start + chunk], vertices, h, delta, envelope
        )
        taylor = max(taylor, float(np.max(value + delta * grad_norm + 0.5 * delta**2 * hessian)))
        trivial = max(trivial, float(math.exp(-1.0) / h**2 * np.max(local_mass)))
        probe_max = max(probe_max, float(np.max(value)))
    method = "taylor" if taylor <= trivial else "trivial"
    bound = min(taylor, trivial) * (1.0 + _ROUNDING)
    return KernelMassBound(bound, probe_max, float(delta), int(len(probes)), method)


_MESH_REGISTRY = collections.OrderedDict()  # key -> mesh, least recently used first, at most 16 entries


def _mesh_key(mesh):
    if _whole(mesh):
        key = (mesh.kind, mesh.n_vertices)
    else:
        key = (mesh.kind, mesh.n_vertices, float(mesh.domain_radius), mesh.reference_coords.tobytes())
    _MESH_REGISTRY.setdefault(key, mesh)
    _MESH_REGISTRY.move_to_end(key)
    while len(_MESH_REGISTRY) > _MESH_REGISTRY_SIZE:
        _MESH_REGISTRY.popitem(last=False)
    return key


def kernel_mass_bound(mesh, bandwidth):
    r"""Rigorous upper bound :math:`B` of :math:`\sup_{y\in M} S(y)`, :math:`S(y) = \sum_j w_j K_h(\mathrm{dist}(x_j, y))`.

    A public probe set :math:`P` with certified covering radius :math:`\delta` (every point of the
    region where :math:`S > 0` is within :math:`\delta` of a probe) and, for each probe :math:`p`, the
    second-order Taylor bound along the geodesic to any :math:`y` with :math:`\mathrm{dist}(p, y)\le\delta`:

    .. math::
        S(y) \le S(p) + \delta\,|\nabla S(p)| + \tfrac12\delta^2 \sum_{j:\,\mathrm{dist}(x_j,p) < h+\delta}
        w_j\, h^{-4} E\big(\mathrm{dist}(x_j, p)/h\big),

    with :math:`E(u) \ge \sup_{|u'-u|\le\delta/h}\max(|\kappa''(u')|, c|\kappa'(u')|/u')`,
    :math:`\kappa(u) = K(u^2)` — the Hessian of :math:`y \mapsto K_h(\mathrm{dist}(x, y))` has eigenvalues
    :math:`k''(t)` and :math:`k'(t)\cot t` (sphere) or :math:`k'(t)\coth t` (:math:`H^2`), and
    :math:`\coth t \le (1 + t^2/3)/t`, so :math:`c = 1` on :math:`S^2` and :math:`1 + h^2/3` on :math:`H^2`.
    The result is the smaller of this and the trivial bound :math:`e^{-1}h^{-2}\max_p\sum_{\mathrm{dist}(x_j,p)<h+\delta} w_j`,
    times :math:`1 + 10^{-9}` for rounding.

    Parameters
    ----------
    mesh : TriangleMesh
    bandwidth : float

    Returns
    -------
    KernelMassBound
    """
    bandwidth = check_real(bandwidth, "bandwidth", low=0.0)
    return _kernel_mass_bound_cached(_mesh_key(mesh), float(bandwidth))


def intrinsic_kde(mesh, data, bandwidth):
    r"""Intrinsic KDE at the mesh vertices, :math:`f_j = \frac1n\sum_i K_h(\mathrm{dist}(x_j, X_i))` (paper eq. (10))."""
    data = np.asarray(data, dtype=float)
    q, t, dist = pairs_within(mesh.kind, mesh.to_reference(mesh.vertices), mesh.to_reference(data), bandwidth)
    return np.bincount(q, weights=bump_kernel(dist, bandwidth), minlength=mesh.n_vertices) / len(data)


# ----------------------------------------------------------------- fields
@dataclass(frozen=True, eq=False)
class ConformalFields(ConformalFieldValues):
    r"""Every intermediate field of the conformal mechanism, at the vertices of the public mesh.

    Attributes
    ----------
    mesh : TriangleMesh
    f : ndarray
        Non-private KDE (a TEACHING VIEW only: it is not part of the private release).
    f_tilde : ndarray
        Sanitised KDE :math:`\tilde f = f + \Xi` (the :math:`\varepsilon_\phi`-DP release).
    f_smooth : ndarray
        :math:`u`: :math:`\tilde f` clipped at ``density_floor`` and smoothed by the implicit heat step.
    c_tilde : float
        Mean of :math:`u` (= mean of the clipped :math:`\tilde f`: the lumped heat step preserves it).
    sigma, phi : ndarray
        Conformal scaling :math:`\sigma` and factor :math:`\phi = e^{2\sigma}`.
    phi_min, phi_max : float
        Extremes of :math:`\phi` over the vertices.
    phi_bounds : tuple of float
        Theorem III.5: :math:`(e^{2(\tilde c - \max u)/\upsilon}, e^{2(\tilde c - \min u)/\upsilon})`.
    kernel_bound : KernelMassBound
    l1_sensitivity : float
        :math:`\Delta_1 = 2B/n`.
    noise_scales : ndarray
        Laplace scale :math:`\Delta_1/(\varepsilon_\phi w_j)` at each vertex.
    """

    mesh: object = field(kw_only=True)

    @property
    def _support(self):
        return self.mesh

    @property
    def vertices(self):
        return self.mesh.vertices

    @property
    def triangles(self):
        return self.mesh.triangles

    @property
    def display(self):
        return self.mesh.display

    def rho_star(self, center):
        r"""Conformal distance :math:`\rho^*(\eta, x_j)` from ``center`` to every vertex.

        .. math:: \rho^*(\eta, x_j) = \min_k\big[\sqrt{\phi_k}\,\mathrm{dist}(\eta, x_k) + G_{kj}\big],

        :math:`G` the shortest-path distance on the mesh edges weighted
        :math:`\ell_{ij}(\sqrt{\phi_i}+\sqrt{\phi_j})/2` (Dijkstra from a super-source joined to every
        vertex :math:`k` with cost :math:`\sqrt{\phi_k}\mathrm{dist}(\eta, x_k)`). Each bracket is
        :math:`\sqrt{\phi_k}`-Lipschitz in :math:`\eta`, so :math:`\rho^*` is :math:`\sqrt{\phi_{\max}}`-Lipschitz.

        Parameters
        ----------
        center : array_like
            A point of the manifold (need not lie in the meshed domain).

        Returns
        -------
        ndarray, shape (N,)
        """
        manifold = self.manifold
        center = manifold.validate_points(center, "center", single=True)
        distances = manifold.dist(center, self.mesh.vertices, check=False)
        return graph_conformal_distance(self._edge_graph, self.phi, distances)

    def log_vertex_weights(self, center, lambda_star):
        r"""Unnormalised log-probabilities :math:`\log w_j + \frac d2\log\phi_j - \lambda^*\rho^*(\eta, x_j)`."""
        return np.log(self.mesh.lumped_mass) + 0.5 * _DIM * np.log(self.phi) - lambda_star * self.rho_star(center)

    def vertex_probabilities(self, center, lambda_star):
        """Probability of each vertex in stage 2 (before the jitter in its cell)."""
        return normalised_probabilities(self.log_vertex_weights(center, lambda_star))

    def sample_vertices(self, center, lambda_star, size, rng):
        """``size`` vertex indices drawn from :meth:`vertex_probabilities`."""
        p = self.vertex_probabilities(center, lambda_star)
        return rng.choice(self.mesh.n_vertices, size=size, p=p)

    # ------------------------------------------------- continuous extension
    def conformal_distance(self, center, points, rho_vertices=None):
        r"""Continuous extension of :math:`\rho^*` to any points :math:`z` of the domain, and :math:`\hat\phi(z)`.

        .. math::
            \rho^*(\eta, z) = \min\Big\{\sqrt{\hat\phi(z)}\,\mathrm{dist}(\eta, z),\
            \min_{j \in J(z)}\big[\rho^*(\eta, x_j) + \sqrt{\phi_j}\,\mathrm{dist}(x_j, z)\big]\Big\},

        :math:`J(z)` the 3 nearest vertices of :math:`z` and :math:`\hat\phi(z) = \phi_{j_1(z)}` the value
        at the nearest one (public functions of :math:`z`). Every term is :math:`\sqrt{\phi_{\max}}`-Lipschitz
        in :math:`\eta`, and :math:`\rho^*(\eta, z) \ge \sqrt{\phi_{\min}}\,\mathrm{dist}(\eta, z)`. With a
        constant :math:`\phi \equiv c` it is exactly :math:`\sqrt c\,\mathrm{dist}(\eta, z)`.

        Returns
        -------
        rho : ndarray, shape (k,)
        phi_hat : ndarray, shape (k,)
        """
        mesh = self.mesh
        manifold = self.manifold
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        if rho_vertices is None:
            rho_vertices = self.rho_star(center)
        index, dist = nearest_points(
            mesh.kind, mesh.to_reference(points), mesh.to_reference(mesh.vertices), k=3, tree=mesh._vertex_tree
        )
        root = np.sqrt(self.phi)
        via = np.min(rho_vertices[index] + root[index] * dist, axis=1)
        phi_hat = self.phi[index[:, 0]]
        direct = np.sqrt(phi_hat) * manifold.dist(np.asarray(center, dtype=float), points, check=False)
        return np.minimum(direct, via), phi_hat

    def log_density(self, center, points, lambda_star):
        r"""Unnormalised log density of the continuous stage-2 law w.r.t. the Riemannian volume:
        :math:`\frac d2\log\hat\phi(z) - \lambda^*\rho^*(\eta, z)` (:math:`-\infty` outside the meshed domain)."""
        points = np.asarray(points, dtype=float).reshape(-1, 3)
        rho, phi_hat = self.conformal_distance(center, points)
        out = 0.5 * _DIM * np.log(phi_hat) - lambda_star * rho
        return np.where(self.mesh.contains(points), out, -np.inf)

    @functools.cached_property
    def inner_radius(self):
        """Public radius :math:`R_{in}` of the closed geodesic ball :math:`B(o, R_{in})` inside the meshed domain
        (see :func:`domain_inner_radius`)."""
        return domain_inner_radius(self.mesh)

    def project_to_domain(self, center):
        r"""Metric projection of ``center`` onto the closed public ball :math:`B(o, R_{in})` (identity on :math:`S^2`).

        :math:`\Pi(\eta) = \mathrm{Exp}_o\big(\min(1, R_{in}/\mathrm{dist}(o, \eta))\,\mathrm{Log}_o\eta\big)`. On a
        Hadamard space a closed geodesic ball is convex, so :math:`\Pi` is 1-Lipschitz:
        :math:`\mathrm{dist}(\Pi\eta, \Pi\eta') \le \mathrm{dist}(\eta, \eta')`, and the sensitivity (hence the
        guarantee) of the summary is unchanged. It depends on public inputs only.
        """
        center = np.asarray(center, dtype=float)
        if _whole(self.mesh):
            return center
        manifold = self.manifold
        origin = np.asarray(self.mesh.domain_center, dtype=float)
        radius = float(manifold.dist(origin, center, check=False))
        target = self.inner_radius
        if radius <= target:
            return center
        tangent = manifold.log(origin, center, check=False) * (target / radius)
        return manifold.projection(manifold.exp(origin, tangent, check=False))

    def continuous_plan(self, lambda_star):
        r"""Public plan of the continuous rejection sampler: proposal law and a lower bound of its acceptance rate.

        Target (unnormalised, on the domain :math:`D`): :math:`\pi_\eta(z) = \hat\phi(z)\,e^{-\lambda^*\rho^*(\eta, z)}`
        with :math:`\sqrt{\phi_{\min}}\,\mathrm{dist}(\eta,z) \le \rho^*(\eta,z) \le \sqrt{\hat\phi(z)}\,\mathrm{dist}(\eta,z)`.
        With :math:`a = \lambda^*\sqrt{\phi_{\max}}`, :math:`b = \lambda^*\sqrt{\phi_{\min}}`, for every :math:`\eta` in the
        public ball :math:`B(o, R_{in}) \subset D` (where the sampler is always called, after projection):

        * ``"laplace"`` proposal (Riemannian Laplace of scale :math:`1/b` around :math:`\eta`, envelope
          :math:`\phi_{\max}e^{-b\,\mathrm{dist}}`): acceptance :math:`\ge \frac{\phi_{\min}}{\phi_{\max}}\frac{I_a}{Z_b}`;
        * ``"uniform"`` proposal (uniform on :math:`S^2`, or on the public ball :math:`B(o, R) \supset D`; envelope
          :math:`\phi_{\max}`): acceptance :math:`\ge \frac{\phi_{\min}}{\phi_{\max}}\frac{I_a}{|U|}`,

        :math:`Z_b = \int_M e^{-b\,\mathrm{dist}(\eta, z)}dz` (:math:`2\pi(1+e^{-b\pi})/(1+b^2)` on :math:`S^2`,
        :math:`2\pi/(b^2-1)` on :math:`H^2`), :math:`I_a \le \inf_\eta \int_{D} e^{-a\,\mathrm{dist}(\eta, z)}dz`
        (:func:`_laplace_mass_lower_bound`). The plan with the larger bound is used. Everything here is a function
        of public inputs and of the sanitised :math:`\phi` (already released), never of :math:`\eta`.

        Returns
        -------
        dict
            ``proposal`` ("laplace" or "uniform"), ``scale`` (Laplace scale or uniform-ball radius),
            ``acceptance_lower_bound``, ``proposals_for_one`` and, when the sampler cannot run, ``unavailable``
            (the public reason).
        """
        sphere = _whole(self.mesh)  # the unit sphere S², else a public ball of H²
        lam = float(lambda_star)
        b = lam * math.sqrt(self.phi_min)
        mass = _target_mass_lower_bound(sphere, lam, self.phi_min, self.phi_max, self.inner_radius)
        if sphere:
            uniform = ("uniform", math.pi, mass / (self.phi_max * 4.0 * math.pi))
        else:
            R = float(self.mesh.domain_radius)
            uniform = ("uniform", R, mass / (self.phi_max * 2.0 * math.pi * (math.cosh(R) - 1.0)))
        plans = [uniform]
        if b > 0 and 1e-8 <= 1.0 / b <= 1e8 and (sphere or 1.0 / b <= 0.9):
            whole = (2.0 * math.pi * (1.0 + math.exp(-b * math.pi)) / (1.0 + b * b) if sphere
                     else 2.0 * math.pi / (b * b - 1.0))
            plans.append(("laplace", 1.0 / b, mass / (self.phi_max * whole)))
        proposal, scale, rate = max(plans, key=lambda plan: plan[2])
        rate = float(min(rate, 1.0))
        plan = dict(proposal=proposal, scale=float(scale), acceptance_lower_bound=rate)
        if not (rate >= _MIN_ACCEPTANCE):
            plan["unavailable"] = (
                f"the continuous sampler's public lower bound of the acceptance rate is {rate:.3g} < {_MIN_ACCEPTANCE:g} "
                f"(φ_max/φ_min = {self.phi_max / self.phi_min:.3g}, λ* = {lam:.3g}); use sampler='vertex', or a larger eps_phi / "
                "density_floor / upsilon (a flatter φ)"
            )
        else:
            plan["proposals_for_one"] = proposals_needed(1, rate)
        return plan

    def sample_continuous(self, center, lambda_star, size, rng, plan=None):
        r"""Exact rejection sampler of the continuous law :math:`\propto \hat\phi^{d/2} e^{-\lambda^*\rho^*(\eta, z)}\,d\mu`
        on the meshed domain, with a number of proposals fixed by PUBLIC quantities.

        ``center`` is first projected onto the public ball (:meth:`project_to_domain`, 1-Lipschitz). The proposal
        and envelope come from :meth:`continuous_plan` (public). Exactly
        :math:`N = ` :func:`proposals_needed` ``(size, p_lb)`` proposals are drawn and evaluated, in chunks of
        fixed public sizes, whatever :math:`\eta` is, so that the random numbers consumed and the work done do not
        depend on :math:`\eta`; the first ``size`` accepted proposals are returned (accepted proposals are i.i.d.
        from the target). :math:`N` is chosen so that fewer than ``size`` acceptances has probability
        :math:`\le 10^{-12}` for every :math:`\eta` (Chernoff bound with the public rate :math:`p_{lb}`); only then,
        further chunks are drawn until ``size`` points are accepted (the law stays exact; only the amount of
        work then depends on :math:`\eta`, with probability :math:`\le 10^{-12}`). It never fails for an
        :math:`\eta`-dependent reason.

        Raises
        ------
        UnavailableError
            Decided by public inputs only: the plan is unavailable (acceptance bound below ``1e-5``), or the fixed
            budget for ``size`` exceeds ``4e6`` proposals (draw fewer points per call).
        """
        from geodp_core.geometry.radial import get_radial_law

        manifold = self.manifold
        if plan is None:
            plan = self.continuous_plan(lambda_star)
        if "unavailable" in plan:
            raise UnavailableError(plan["unavailable"], param="sampler")
        n_total = proposals_needed(size, plan["acceptance_lower_bound"])
        if n_total > _MAX_PROPOSALS:
            raise UnavailableError(
                f"size={size} needs a fixed budget of {n_total} proposals (public acceptance bound "
                f"{plan['acceptance_lower_bound']:.3g}) > {_MAX_PROPOSALS}; draw fewer points per call or use "
                "sampler='vertex'",
                param="size",
            )
        center = self.project_to_domain(center)
        rho_vertices = self.rho_star(center)
        root_min = math.sqrt(self.phi_min)
        log_phi_max = 0.5 * _DIM * math.log(self.phi_max)
        if plan["proposal"] == "laplace":
            law = get_radial_law(manifold, None, "laplace", plan["scale"])
            base = center
        else:
            law = get_radial_law(manifold, None, "uniform", plan["scale"])
            base = manifold.default_center() if _whole(self.mesh) else np.asarray(self.mesh.domain_center, float)

        def chunk(n):
            radii = law.sample(n, rng)
            directions = manifold.random_unit_tangent(base, n, rng)
            proposals = manifold.exp(base, radii[:, None] * directions, check=False)
            rho, phi_hat = self.conformal_distance(center, proposals, rho_vertices)
            log_envelope = log_phi_max - (lambda_star * root_min * radii if plan["proposal"] == "laplace" else 0.0)
            log_ratio = (0.5 * _DIM * np.log(phi_hat) - lambda_star * rho) - log_envelope
            with np.errstate(divide="ignore"):
                keep = (np.log(rng.random(n)) < log_ratio) & self.mesh.contains(proposals)
            return proposals[keep]

        return fixed_budget_rejection(chunk, n_total, size, _PROPOSAL_CHUNK)


def domain_inner_radius(mesh):
    r"""Radius of the largest closed geodesic ball :math:`B(o, R_{in})` inside the meshed domain (public).

    On :math:`S^2` the whole sphere is meshed: :math:`\pi`. On :math:`H^2` the domain is the Euclidean-convex
    disk polygon of the boundary ring (Poincaré coordinates around :math:`o`); it contains the Euclidean disk of
    radius :math:`\rho = \min_k(-c_k)` (unit half-plane normals, offsets :math:`c_k`), i.e. the geodesic ball of
    radius :math:`2\,\mathrm{artanh}\,\rho`, less :math:`10^{-9}` for rounding.
    """
    if _whole(mesh):
        return float(mesh.manifold.diameter)
    _, offsets = mesh._hull_equations
    rho = float(np.min(-offsets))
    return float(max(2.0 * math.atanh(min(rho, 1.0 - 1e-16)) - 1e-9, 0.0))


def _sinh_laplace_integral(c, x):
    r""":math:`F_c(x) = \int_0^x e^{-cr}\sinh r\,dr = \frac12[E(c-1, x) - E(c+1, x)]`, :math:`E(k, x) = (1-e^{-kx})/k`."""
    x = np.asarray(x, dtype=float)

    def e(k):
        return x if abs(k) < 1e-12 else -np.expm1(-k * x) / k

    return 0.5 * (e(c - 1.0) - e(c + 1.0))


def _sin_laplace_integral(c, lo, hi):
    r""":math:`\int_{lo}^{hi} e^{-cr}\sin r\,dr`, antiderivative :math:`-e^{-cr}(c\sin r + \cos r)/(1 + c^2)`."""
    def prim(r):
        return -math.exp(-c * r) * (c * math.sin(r) + math.cos(r)) / (1.0 + c * c)

    return prim(hi) - prim(lo) if hi > lo else 0.0


def _target_mass_lower_bound(sphere, lambda_star, phi_min, phi_max, inner_radius, n_angles=2048):
    r"""Public lower bound of :math:`\inf_{\eta}\int_D \hat\phi(z)e^{-\lambda^*\rho^*(\eta, z)}dz` over :math:`\eta \in B(o, R_{in})`.

    From :math:`\rho^*(\eta, z) \le \sqrt{\hat\phi(z)}\,\mathrm{dist}(\eta, z)` and :math:`\hat\phi \in [\phi_{\min}, \phi_{\max}]`,
    the integrand is at least :math:`g(t) = \min(\phi_{\min}e^{-bt}, \phi_{\max}e^{-at})` with :math:`t = \mathrm{dist}(\eta, z)`,
    :math:`a = \lambda^*\sqrt{\phi_{\max}}`, :math:`b = \lambda^*\sqrt{\phi_{\min}}` (:math:`\phi\,e^{-\lambda\sqrt\phi\,t}` is
    unimodal in :math:`\phi`); the two branches cross at :math:`t^* = \log(\phi_{\max}/\phi_{\min})/(a - b)`.

    * :math:`S^2` (:math:`D = S^2`): :math:`2\pi\int_0^\pi g(t)\sin t\,dt`, exact, for every :math:`\eta`.
    * :math:`H^2`: :math:`D \supset B(o, R_{in})`; in polar coordinates around :math:`\eta` (angle :math:`\theta` from
      the direction of :math:`o`, :math:`s = \mathrm{dist}(o, \eta)`) the ball ends at
      :math:`\ell(\theta) = \psi + \mathrm{arccosh}(\cosh R_{in}/\sqrt{A^2 - B^2})`, :math:`A = \cosh s`,
      :math:`B = \sinh s\cos\theta`, :math:`\tanh\psi = B/A` (hyperbolic law of cosines), and
      :math:`\int_0^\ell g(t)\sinh t\,dt` is closed form. Periodic trapezoid rule in :math:`\theta`; evaluated at 9
      offsets :math:`s \in [0, R_{in}]` (the integral decreases with :math:`s`), minimum times 0.9 (quadrature safety).
    """
    lam = float(lambda_star)
    a, b = lam * math.sqrt(phi_max), lam * math.sqrt(phi_min)
    t_star = (math.log(phi_max) - math.log(phi_min)) / (a - b) if a - b > 1e-300 and phi_max > phi_min else math.inf
    if sphere:
        cut = min(t_star, math.pi)
        return 2.0 * math.pi * (phi_min * _sin_laplace_integral(b, 0.0, cut)
                                + phi_max * _sin_laplace_integral(a, cut, math.pi))
    theta = (np.arange(n_angles) + 0.5) * (2.0 * np.pi / n_angles)
    values = []
    for s in np.linspace(0.0, inner_radius, 9):
        A = math.cosh(s)
        B = math.sinh(s) * np.cos(theta)
        ell = np.arctanh(B / A) + np.arccosh(np.maximum(math.cosh(inner_radius) / np.sqrt(A * A - B * B), 1.0))
        near = _sinh_laplace_integral(b, np.minimum(ell, t_star))
        far = (_sinh_laplace_integral(a, np.maximum(ell, t_star)) - _sinh_laplace_integral(a, t_star)
               if math.isfinite(t_star) else 0.0)
        values.append(float(np.mean(phi_min * near + phi_max * far) * 2.0 * np.pi))
    return 0.9 * min(values)


def _helmholtz_fem(mesh, rhs_field, upsilon):
    lumped = sp.diags(mesh.lumped_mass)
    system = (mesh.stiffness + upsilon * lumped).tocsc()
    return spsolve(system, mesh.lumped_mass * rhs_field)


def _heat_step(mesh, field, time):
    if time == 0.0:
        return np.array(field, dtype=float)
    system = (sp.diags(mesh.lumped_mass) + time * mesh.stiffness).tocsc()
    return spsolve(system, mesh.lumped_mass * field)


def _knn_sigma(mesh, data, u, c_tilde, upsilon, bandwidth, knn):
    r"""The paper's kNN graph Laplacian on the DATA points (not DP), row-normalised to approximate :math:`-\Delta_g`.

    :math:`L = C(I - P)`, :math:`P_{ij} \propto e^{-d_{ij}^2/h^2}` over the ``knn`` nearest neighbours,
    :math:`C_{ii} = 2d/\sum_j P_{ij}d_{ij}^2` (so that :math:`(Lf)_i \approx -\Delta f(x_i)`); solve
    :math:`(L + \upsilon I)\sigma = \tilde c - u(x_i)` and give each vertex the value of its nearest data point.
    """
    ref_data = mesh.to_reference(data)
    ref_vertices = mesh.to_reference(mesh.vertices)
    n = len(ref_data)
    index, dist = nearest_points(mesh.kind, ref_data, ref_data, k=knn + 1)
    index, dist = index[:, 1:], dist[:, 1:]  # drop the point itself (or an exact duplicate)
    weight = np.exp(-((dist / bandwidth) ** 2))
    prob = weight / weight.sum(axis=1, keepdims=True)
    second_moment = np.sum(prob * dist**2, axis=1)
    scale = np.where(second_moment > 0, 2.0 * _DIM / np.where(second_moment > 0, second_moment, 1.0), 0.0)
    rows = np.repeat(np.arange(n), knn)
    transition = sp.csr_matrix((prob.ravel(), (rows, index.ravel())), shape=(n, n))
    laplacian = sp.diags(scale) @ (sp.identity(n, format="csr") - transition)
    nearest_vertex, _ = nearest_points(mesh.kind, ref_data, ref_vertices)
    rhs = c_tilde - u[nearest_vertex]
    sigma_data = spsolve((laplacian + upsilon * sp.identity(n)).tocsc(), rhs)
    nearest_datum, _ = nearest_points(mesh.kind, ref_vertices, ref_data)
    return sigma_data[nearest_datum]


# ------------------------------------------------------------- mechanism
def _conformal_rate(eps_conf, phi_max, sensitivity, cap, cap_text, target, notes):
    r"""Stage-2 rate :math:`\lambda^* = \varepsilon_{conf}/(2\sqrt{\phi_{\max}}\,\Delta)`, :math:`\Delta = \min(`
    ``sensitivity``, ``cap``:math:`)` (the diameter of the domain the summary lives in; ``cap_text`` explains it in
    ``notes`` when it applies), rounded down until :math:`2\lambda^*\sqrt{\phi_{\max}}\Delta \le \varepsilon_{conf}` in
    floating point. Returns ``(lambda_star, Delta, sqrt(phi_max) * Delta)``.

    Raises
    ------
    UnavailableError
        When :math:`\lambda^*` is not finite or above ``_MAX_LAMBDA`` (noise below double-precision resolution).
    """
    effective = sensitivity
    if sensitivity > cap:
        effective = cap
        notes.append(f"sensitivity {sensitivity:g} > {cap_text}")
    conformal_sensitivity = math.sqrt(phi_max) * effective
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        lambda_star = float(np.float64(eps_conf) / (2.0 * np.float64(conformal_sensitivity)))
    if not (math.isfinite(lambda_star) and lambda_star <= _MAX_LAMBDA):
        raise UnavailableError(
            f"the rate λ* = ε_conf/(2 √φ_max Δ) = {lambda_star:.3g} exceeds {_MAX_LAMBDA:g} (target {target.describe()}, "
            f"sensitivity {sensitivity!r}): the noise would be below the resolution of double-precision positions; "
            "choose a smaller budget or a larger sensitivity",
            param="target",
        )
    for _ in range(4):  # safe side in floating point
        if 2.0 * lambda_star * conformal_sensitivity <= eps_conf:
            break
        lambda_star = float(np.nextafter(lambda_star, 0.0))
    return lambda_star, effective, conformal_sensitivity


#: The options :func:`public_options` sets and what each must be.
PUBLIC_OPTIONS = {
    "data": "the PRIVATE records, read only through the Laplace-sanitised density (paid by ε_φ)",
    "seed": "the density-sanitisation noise's own seed (a stream of the scenario's seed, never published)",
    "radius": "the PUBLIC data-ball radius r",
    "domain_center": "the PUBLIC ball centre m₀",
    "domain_radius": "min(domain limit, diameter, max(2, 1.25 r)) on a meshed non-compact surface (H²); "
                     "min(domain limit, diameter, 1.5 r) for a public point set (d ≥ 3, ℝᵈ; a cap on Sᵈ)",
    "ball_center": "the PUBLIC ball centre m₀ (non-compact spaces)",
}


def public_options(manifold, center, radius, data, noise_seed):
    r"""Public calibration options of a scenario (:data:`PUBLIC_OPTIONS`).

    The density is sanitised from ``data`` inside the mechanism's own budget, with its own noise seed; on
    :math:`H^2` the meshed public domain is :math:`B(m_0, \max(2, 1.25r))`; for :math:`d \ge 3` and on
    :math:`\mathbb{R}^d` the public point set lives on :math:`B(m_0, 1.5r)` (a cap on :math:`S^d`), which contains
    the public data ball :math:`B(m_0, r)`.
    """
    options = {"data": data, "seed": int(noise_seed), "radius": radius}  # r: public (paper's bound, H² check)
    high = min(manifold.domain_radius_max, manifold.diameter)
    if manifold.mesh_kind is not None:
        if not manifold.is_compact:  # a meshed public ball (H²); a compact surface is meshed whole
            options.update(domain_center=center, domain_radius=min(high, max(2.0, 1.25 * radius)),
                           ball_center=center)
    else:
        # public point set on the public ball B(centre, 1.5 r) around the public data ball (a cap on S^d):
        # the resolution N^(-1/d) is spent where the summary can be
        options.update(domain_center=center, domain_radius=min(high, 1.5 * radius))
        if not manifold.is_compact:
            options.update(ball_center=center)
    return options


@register_mechanism
class Conformal(Mechanism):
    r"""Density-aware conformal mechanism on a public mesh: :math:`(\varepsilon_\phi + \varepsilon_{conf})`-DP.

    On :math:`S^d`, :math:`H^d`, :math:`\mathbb{R}^d` (:math:`d \ge 2`): a public mesh on :math:`S^2`, :math:`H^2`, a public
    point set otherwise. On :math:`S^2` and on :math:`H^2` (there the release lives in a PUBLIC geodesic ball
    :math:`B(o, R)`, the meshed domain). The target guarantee is met through
    :func:`~geodp_core.privacy.pure_dp_budget`: the total :math:`\varepsilon` is split into
    :math:`\varepsilon_\phi` (the density release) and :math:`\varepsilon_{conf} = \varepsilon - \varepsilon_\phi`.

    Calibration options
    -------------------
    data : array_like, shape (n, 3)
        The PRIVATE points; used only through the sanitised KDE (required).
    seed : int or numpy.random.Generator
        Randomness of the sanitisation noise (required; never reuse a published seed).
    eps_phi : float, default ``0.3 eps``
        Budget of the density release, :math:`0 < \varepsilon_\phi < \varepsilon`.
    bandwidth : float, default 0.5
        KDE bandwidth :math:`h` (PUBLIC): :math:`(0, \pi/2)` on :math:`S^2`, :math:`(0, 2]` on :math:`H^2`.
    mesh_size : int, default 600
        Number of mesh vertices (fewer, larger cells: less noise per cell).
    upsilon : float, default 1
        Helmholtz constant :math:`\upsilon > 0`.
    smoothing_time : float, default 0.05
        Time of the public implicit heat step (0: none).
    laplacian : {"fem", "knn_data"}, default "fem"
        ``"knn_data"`` is the paper's graph Laplacian on the data points: NO FORMAL GUARANTEE.
    knn : int, default 10
        Neighbours of the ``"knn_data"`` graph.
    density_floor : float, default 0
        :math:`\tilde f` is clipped below at this value before smoothing.
    domain_radius : float, default 2 (:math:`H^d`, :math:`\mathbb{R}^d`; on :math:`S^d` with point sets: optional cap)
        Radius :math:`R` of the public ball; ``domain_center`` (default the origin) its centre.
    discretisation : {"mesh", "points"}
        ``"mesh"`` (default on :math:`S^2`, :math:`H^2`) or a public point set (the only choice for :math:`d \ge 3`
        and on :math:`\mathbb{R}^d`; see :mod:`geodp_core.mechanisms.conformal_pointset`).
    n_points : int, default 1000
        Public points of the point set (``[50, 20000]``); resolution ~ :math:`N^{-1/d}`.
    graph_k : int, default 10
        :math:`k` of the public kNN graph (``[2, 64]``).
    sampler : {"continuous", "vertex"}, default "continuous" on a mesh, "vertex" on a point set
        ``"continuous"``: exact rejection sampler of the continuous law (resolution not limited by the
        mesh or the point set; on a point set the law lives on the whole manifold, releases on non-compact spaces
        are then projected onto the public ball); ``"vertex"``: a mesh vertex / public point, then a uniform point of
        its cell (output resolution = the spacing, ~ :math:`N^{-1/d}` on a point set). Both are exact for the law
        they sample, with a public amount of work per call.
    volume_factor_cap : float, default 1 (point set with ``sampler="continuous"`` only)
        :math:`\kappa` in ``(0, 50]``: :math:`\sigma` is shrunk towards its mean so that
        :math:`(\phi_{\max}/\phi_{\min})^{d/2} \le e^\kappa` (public post-processing), which keeps the continuous
        sampler's acceptance rate :math:`\ge e^{-2\kappa}` in every dimension (see
        :func:`~geodp_core.mechanisms.conformal_pointset.cap_volume_factor`).
    n, radius : optional
        Number of records (default ``len(data)``) and public data-ball radius, for :meth:`paper_theorem_v2`.
    """

    spec = MechanismSpec(
        name="conformal",
        title="Density-aware conformal",
        color="#17becf",
        notions=("pure_dp", "approx_dp", "gdp", "rdp", "zcdp"),
        card=Card(
            title="Density-aware conformal mechanism",
            notion="(ε_φ + ε_conf)-DP",
            idea=(
                "Spend part of the budget on a private density estimate, turn it into a conformal factor φ = exp(2s) "
                "(solve a Helmholtz equation), and release a Laplace-type point in the conformal metric: less noise "
                "where the data are dense."
            ),
            formula=(
                r"\begin{gathered}(-\Delta_g + \upsilon)\,s = \tilde c - \tilde f,\quad \phi = e^{2s} \\ "
                r"p(z) \propto \exp\!\big(-\lambda^* \rho^*(\eta, z)\big)\,d\mu^*,\quad "
                r"\lambda^* = \frac{\varepsilon_{\mathrm{conf}}}{2\sqrt{\phi_{\max}}\,\Delta}\end{gathered}"
            ),
            guarantee=(
                "(ε_φ + ε_conf)-DP by composition: ε_φ for the Laplace-sanitised kernel density on a PUBLIC mesh, "
                "ε_conf for the release with conformal sensitivity √φ_max Δ. On S^d, H^d, R^d (d ≥ 3, or on request "
                "on S²/H²): the same on a PUBLIC quasi-random point set with a kNN graph, with a certified bound of the "
                "kernel mass."
            ),
            assumptions=(
                "A compact public domain: the sphere S^d, or a public geodesic ball of H^d or R^d. Surfaces (S², H²) use "
                "a public triangle mesh; d ≥ 3 a public point set (scrambled Halton points, kNN graph). Unlike the paper, "
                "the Laplacian is built on PUBLIC points, not on the data points (which would make φ data-dependent "
                "outside the sanitised channel; that variant is kept, labelled 'no formal guarantee'). The output "
                "resolution is the point spacing, ~N^(-1/d): utility degrades with the dimension at a fixed point count."
            ),
            sampler=(
                "Exact, no MCMC. Default: the continuous law ∝ φ̂(z) exp(−λ* ρ*(η, z)) by rejection from a Riemannian "
                "Laplace proposal (ρ* extended off the mesh, still √φ_max-Lipschitz in η). Option 'vertex': a vertex "
                "with probability ∝ w_j φ_j^(d/2) exp(−λ* ρ*_j) (ρ* by multi-source Dijkstra), then a uniform point of "
                "its public cell (data-independent post-processing); on a point set, a public point with that "
                "probability, then a public jitter. The paper's MCMC is kept as a cross-check (meshes)."
            ),
            source=("He, Tang, Rahimian & Joshi, Density-aware noise mechanisms for differential privacy on Riemannian "
                    "manifolds via conformal transformation."),
        ),
        try_it=dict(data="vmf_mixture", n=500, notion="pure_dp", eps=1.0, mechanisms=("conformal", "riemannian_laplace")),
        public_options=public_options,
        options=PUBLIC_OPTIONS,
        audit_variants=("knn_data",),
        audit_controls=("knn_data",),
        audit_options={"sampler": "vertex"},
    )
    native_notion = "pure_dp"
    source = ("He, Tang, Rahimian & Joshi, Density-aware noise mechanisms for DP on Riemannian manifolds via "
              "conformal transformation; discretised on a public mesh")

    _OPTION_NAMES = (
        "data", "seed", "eps_phi", "bandwidth", "mesh_size", "upsilon", "smoothing_time", "laplacian", "knn",
        "density_floor", "domain_radius", "domain_center", "n", "radius", "ball_center", "sampler",
        "discretisation", "n_points", "graph_k", "volume_factor_cap",
    )

    @classmethod
    def availability(cls, manifold):
        if point_set_kind(manifold) is not None:
            return Availability(True, "")
        if manifold.metric_choices:  # SPD(m): point sets exist under its flat metrics only
            why = ("it needs a public discretisation of a public geodesic ball; implemented for SPD(m) under the flat "
                   "log-Euclidean and log-Cholesky metrics (a Euclidean ball in the chart), not under the "
                   "affine-invariant metric (the conformal paper's SPD image-descriptor experiments build the graph on "
                   "the data points, which is not DP)")
        else:
            why = (f"it needs a public discretisation (mesh or point set) of a public domain of dimension >= 2; "
                   f"not implemented on {manifold.label}")
        return Availability(False, why)

    # -------------------------------------------------------------- options
    def _parse_options(self, eps, options):
        unknown = sorted(set(options) - set(self._OPTION_NAMES))
        if unknown:
            raise InvalidParameterError(
                f"{unknown[0]} is not an option of {self.name}; valid options: {', '.join(self._OPTION_NAMES)}",
                param=unknown[0],
            )
        manifold = self.manifold
        compact = manifold.is_compact
        negatively_curved = manifold.curvature_bounds[0] < 0  # balls grow exponentially: radius up to MAX_BALL_RADIUS
        data = options.get("data")
        if data is None:
            raise InvalidParameterError(
                "data is required: the private points whose (sanitised) density shapes the conformal metric",
                param="data",
            )
        data = check_finite_array(data, "data", ndim=1 + len(manifold.point_shape), shape_tail=manifold.point_shape,
                                  min_rows=2)
        data = manifold.validate_points(data, "data")
        if options.get("seed") is None:
            raise InvalidParameterError(
                "seed is required: the randomness of the density sanitisation (an int >= 0 or a "
                "numpy.random.Generator; never a published value)",
                param="seed",
            )
        rng = check_rng(options["seed"], "seed")
        eps_phi = options.get("eps_phi")
        eps_phi = DEFAULT_OPTIONS["eps_phi_fraction"] * eps if eps_phi is None else check_real(
            eps_phi, "eps_phi", low=0.0, high=eps
        )
        surface = _mesh_builder(manifold) is not None
        discretisation = check_option(options.get("discretisation", "mesh" if surface else "points"), "discretisation",
                                      DISCRETISATIONS if surface else ("points",))
        points = discretisation == "points"
        ball = not compact  # the public domain is a geodesic ball B(domain_center, domain_radius)
        if points:
            for key in ("mesh_size",):
                if options.get(key) is not None:
                    raise InvalidParameterError(f"{key} only applies to discretisation='mesh' (S², H²); got "
                                                f"{key}={options[key]!r}", param=key)
            h_max = float(manifold.diameter) if compact else MAX_BALL_RADIUS
            bandwidth = options.get("bandwidth")
            if bandwidth is not None:
                bandwidth = check_real(bandwidth, "bandwidth", low=0.0, high=h_max, high_closed=True)
            mesh_size = None
            n_points = check_int(options.get("n_points", POINT_SET_DEFAULTS["n_points"]), "n_points",
                                 low=POINT_COUNT_RANGE[0], high=POINT_COUNT_RANGE[1])
            graph_k = check_int(options.get("graph_k", POINT_SET_DEFAULTS["graph_k"]), "graph_k",
                                low=GRAPH_K_RANGE[0], high=min(GRAPH_K_RANGE[1], n_points - 1))
        else:
            for key in ("n_points", "graph_k"):
                if options.get(key) is not None:
                    raise InvalidParameterError(f"{key} only applies to discretisation='points'; got "
                                                f"{key}={options[key]!r}", param=key)
            n_points = graph_k = None
            h_max = math.pi / 2.0 if compact else 2.0
            bandwidth = check_real(options.get("bandwidth", DEFAULT_OPTIONS["bandwidth"]), "bandwidth", low=0.0,
                                   high=h_max, high_closed=not compact)
            mesh_size = check_int(options.get("mesh_size", DEFAULT_OPTIONS["mesh_size"]), "mesh_size",
                                  low=MESH_SIZE_RANGE[0], high=MESH_SIZE_RANGE[1])
        upsilon = check_real(options.get("upsilon", DEFAULT_OPTIONS["upsilon"]), "upsilon", low=0.0, high=1e6,
                             high_closed=True)
        smoothing_time = check_real(options.get("smoothing_time", DEFAULT_OPTIONS["smoothing_time"]),
                                    "smoothing_time", low=0.0, high=100.0, low_closed=True, high_closed=True)
        laplacian = check_option(options.get("laplacian", "graph" if points else "fem"), "laplacian",
                                 POINT_SET_LAPLACIANS if points else LAPLACIANS)
        knn = options.get("knn")
        if laplacian == "knn_data":
            knn = check_int(DEFAULT_OPTIONS["knn"] if knn is None else knn, "knn", low=2, high=min(50, len(data) - 1))
        elif knn is not None:
            raise InvalidParameterError(f"knn only applies to laplacian='knn_data'; got knn={knn!r}", param="knn")
        floor = check_real(options.get("density_floor", DEFAULT_OPTIONS["density_floor"]), "density_floor",
                           low=0.0, low_closed=True)
        domain_radius, domain_center = options.get("domain_radius"), options.get("domain_center")
        if ball:
            high = MAX_BALL_RADIUS if negatively_curved else 100.0
            domain_radius = check_real(DEFAULT_OPTIONS["domain_radius"] if domain_radius is None else domain_radius,
                                       "domain_radius", low=0.0, high=high, high_closed=True)
            domain_center = (manifold.default_center() if domain_center is None
                             else manifold.validate_points(domain_center, "domain_center", single=True))
        elif points and domain_radius is not None:  # a public cap B(c, R) of S^d carries the point set
            domain_radius = check_real(domain_radius, "domain_radius", low=0.0, high=math.pi, high_closed=True)
            domain_center = (manifold.default_center() if domain_center is None
                             else manifold.validate_points(domain_center, "domain_center", single=True))
        else:
            for key, value in (("domain_radius", domain_radius), ("domain_center", domain_center)):
                if value is not None:
                    raise InvalidParameterError(
                        f"{key} does not apply on the sphere with discretisation='mesh' (the whole sphere is meshed), "
                        f"nor without domain_radius; got {key}={value!r}",
                        param=key,
                    )
        sampler = check_option(options.get("sampler", "vertex" if points else "continuous"), "sampler", SAMPLERS)
        volume_factor_cap = options.get("volume_factor_cap")
        if volume_factor_cap is not None and not (points and sampler == "continuous"):
            raise InvalidParameterError(
                "volume_factor_cap only applies to discretisation='points' with sampler='continuous'; got "
                f"volume_factor_cap={volume_factor_cap!r}", param="volume_factor_cap")
        if points and sampler == "continuous":
            volume_factor_cap = check_real(VOLUME_FACTOR_CAP_DEFAULT if volume_factor_cap is None
                                           else volume_factor_cap, "volume_factor_cap", low=0.0, high=50.0,
                                           high_closed=True)
        n = check_int(options.get("n", len(data)), "n", low=2)
        radius, ball_center = options.get("radius"), options.get("ball_center")
        if ball and (radius is None or ball_center is None):
            missing = "radius" if radius is None else "ball_center"
            raise InvalidParameterError(
                f"{missing} is required on {manifold.label}: the PUBLIC data ball B(ball_center, radius) (the ball the "
                "data were clipped to) must be checked to lie inside the public domain B(domain_center, domain_radius)",
                param=missing,
            )
        if radius is not None:
            radius = check_real(radius, "radius", low=0.0, high=manifold.ball_radius_limit)
        if ball_center is not None:
            ball_center = manifold.validate_points(ball_center, "ball_center", single=True)
        return dict(data=data, rng=rng, eps_phi=float(eps_phi), bandwidth=bandwidth, mesh_size=mesh_size,
                    upsilon=upsilon, smoothing_time=smoothing_time, laplacian=laplacian, knn=knn, density_floor=floor,
                    domain_radius=domain_radius, domain_center=domain_center, n=n, radius=radius,
                    ball_center=ball_center, sampler=sampler, discretisation=discretisation, n_points=n_points,
                    graph_k=graph_k, volume_factor_cap=volume_factor_cap)

    def _check_ball_in_domain(self, mesh, inner_radius, opts):
        r"""Refuse (public inputs only) when the public data ball :math:`B(m_0, r)` is not inside :math:`B(o, R_{in})`,
        the closed geodesic ball inside the meshed domain: :math:`\mathrm{dist}(o, m_0) + r \le R_{in}`."""
        if _whole(mesh):
            return
        center, radius = opts["ball_center"], opts["radius"]
        offset = float(self.manifold.dist(np.asarray(mesh.domain_center, dtype=float), center, check=False))
        if offset + radius > inner_radius:
            raise UnavailableError(
                f"the public data ball B(ball_center, radius={radius:g}) reaches {offset + radius:.6g} from "
                f"domain_center, beyond R_in = {inner_radius:.6g}, the largest geodesic ball inside the meshed domain "
                f"B(domain_center, domain_radius={mesh.domain_radius:g}); choose domain_radius ≥ "
                f"{offset + radius:.3g} × 1.05 (at most 4), or a domain_center closer to the ball centre",
                param="domain_radius",
            )

    def build_mesh(self, mesh_size, domain_radius=None, domain_center=None):
        """The public mesh used on this manifold (sphere, or the ball ``B(domain_center, domain_radius)``)."""
        build = _mesh_builder(self.manifold)
        if build is None:
            raise UnavailableError(f"no public triangle mesh is implemented on {self.manifold.label} (S², H² only)",
                                   param="discretisation")
        return build(mesh_size, domain_radius, domain_center)

    # -------------------------------------------------------------- stage 1
    def build_fields(self, data, rng, eps_phi, bandwidth, mesh_size, upsilon, smoothing_time, laplacian="fem",
                     knn=None, density_floor=0.0, domain_radius=None, domain_center=None):
        r"""Stage 1 and its post-processing: sanitised density and conformal factor on the public mesh.

        Returns
        -------
        ConformalFields
        """
        mesh = self.build_mesh(mesh_size, domain_radius, domain_center)
        kernel_bound = kernel_mass_bound(mesh, bandwidth)
        n = len(data)
        l1_sensitivity = 2.0 * kernel_bound.bound / n
        with np.errstate(over="ignore", divide="ignore"):
            scales = l1_sensitivity / (eps_phi * mesh.lumped_mass)
        if not (np.all(np.isfinite(scales)) and float(np.max(scales)) <= _MAX_NOISE_SCALE):
            raise InvalidParameterError(
                f"eps_phi={eps_phi!r} is too small for this mesh and n={n}: the per-vertex Laplace scale "
                f"Δ₁/(ε_φ w_j) reaches {float(np.max(scales)):.3g} > {_MAX_NOISE_SCALE:g} (not computable in double "
                "precision); choose a larger eps_phi (or fewer, larger cells)",
                param="eps_phi",
            )
        f = intrinsic_kde(mesh, data, bandwidth)
        f_tilde = f + rng.laplace(0.0, scales)
        clipped = np.maximum(f_tilde, density_floor)
        u = _heat_step(mesh, clipped, smoothing_time)
        c_tilde = float(np.dot(mesh.lumped_mass, u) / mesh.lumped_mass.sum())
        if laplacian == "fem":
            sigma = _helmholtz_fem(mesh, c_tilde - u, upsilon)
        else:
            sigma = _knn_sigma(mesh, data, u, c_tilde, upsilon, bandwidth, knn)
        # public post-processing clip |sigma| <= 300 keeps phi = e^(2 sigma) finite and positive
        sigma = np.clip(np.nan_to_num(sigma, nan=0.0, posinf=_SIGMA_CAP, neginf=-_SIGMA_CAP), -_SIGMA_CAP, _SIGMA_CAP)
        phi = np.exp(2.0 * sigma)
        with np.errstate(over="ignore", invalid="ignore"):
            exponents = np.array([2.0 * (c_tilde - float(u.max())) / upsilon, 2.0 * (c_tilde - float(u.min())) / upsilon])
        exponents = np.clip(np.nan_to_num(exponents, nan=0.0), -2.0 * _SIGMA_CAP, 2.0 * _SIGMA_CAP)
        bounds = (float(np.exp(exponents[0])), float(np.exp(exponents[1])))
        for arr in (f, f_tilde, u, sigma, phi, scales):
            arr.setflags(write=False)
        return ConformalFields(
            mesh=mesh, laplacian=laplacian, bandwidth=bandwidth, upsilon=upsilon, smoothing_time=smoothing_time,
            density_floor=density_floor, eps_phi=eps_phi, n_records=n, kernel_bound=kernel_bound,
            l1_sensitivity=l1_sensitivity, noise_scales=scales, f=f, f_tilde=f_tilde, f_smooth=u, c_tilde=c_tilde,
            sigma=sigma, phi=phi, phi_min=float(phi.min()), phi_max=float(phi.max()), phi_bounds=bounds, knn=knn,
        )

    # ---------------------------------------------------------- calibration
    def _calibrate(self, target, sensitivity, **options):
        budget = pure_dp_budget(target)
        eps = budget.value
        opts = self._parse_options(eps, options)
        eps_phi = opts["eps_phi"]
        eps_conf = eps - eps_phi
        for _ in range(4):  # safe side in floating point (one or two ulps at most)
            if eps_phi + eps_conf <= eps:
                break
            eps_conf = float(np.nextafter(eps_conf, 0.0))
        if not (eps_conf > 0.0 and eps_phi + eps_conf <= eps):
            raise InvalidParameterError(
                f"eps_phi={eps_phi!r} leaves no positive budget ε_conf = ε - ε_φ for stage 2 (ε = {eps!r}); choose "
                f"eps_phi in (0, {eps!r}) well below ε",
                param="eps_phi",
            )
        if opts["discretisation"] == "points":
            return self._calibrate_points(target, sensitivity, budget, opts, eps_phi, eps_conf)
        mesh = self.build_mesh(opts["mesh_size"], opts["domain_radius"], opts["domain_center"])
        inner_radius = domain_inner_radius(mesh)
        self._check_ball_in_domain(mesh, inner_radius, opts)
        fields = self.build_fields(
            opts["data"], opts["rng"], eps_phi, opts["bandwidth"], opts["mesh_size"], opts["upsilon"],
            opts["smoothing_time"], opts["laplacian"], opts["knn"], opts["density_floor"], opts["domain_radius"],
            opts["domain_center"],
        )
        notes = [f"target met through ε-DP: {budget.note}"]
        compact = self.manifold.is_compact
        lambda_star, effective, conformal_sensitivity = _conformal_rate(
            eps_conf, fields.phi_max, sensitivity, float(self.manifold.diameter) if compact else 2.0 * inner_radius,
            _diameter_text(self.manifold) if compact else
            f"2 R_in = {2.0 * inner_radius:.6g}, the diameter of the public ball the summary is projected onto; "
            "using Δ = 2 R_in", target, notes)
        plan = None
        if opts["sampler"] == "continuous":
            plan = fields.continuous_plan(lambda_star)
            if "unavailable" in plan:
                raise UnavailableError(plan["unavailable"], param="sampler")
        mesh, kb = fields.mesh, fields.kernel_bound
        where = mesh.manifold.symbol if _whole(mesh) else (
            f"the PUBLIC geodesic ball B(o, R = {mesh.domain_radius:g}) of {mesh.manifold.symbol} (the releases live "
            "in this ball)"
        )
        notes += [
            f"Stage 1 (ε_φ = {eps_phi:.4g}): intrinsic KDE (bump kernel, h = {fields.bandwidth:g}) at the "
            f"{mesh.n_vertices} vertices of a public mesh of {where}; independent Laplace noise per vertex with "
            f"scale Δ₁/(ε_φ w_j) — the Laplace mechanism in the w-weighted L¹ norm (w_j the lumped cell areas); "
            f"Δ₁ = 2B/n = {fields.l1_sensitivity:.4g} with B = {kb.bound:.5g} ≥ sup_y Σ_j w_j K_h(dist(x_j, y)) "
            f"(rigorous: probe set with covering radius δ = {kb.covering_radius:.3g}, {kb.method} margin, "
            f"{100 * kb.relative_margin:.1f}% above the probe maximum)",
            f"post-processing of the sanitised density (no privacy cost): clip at {fields.density_floor:g}, implicit "
            f"heat step t = {fields.smoothing_time:g}, Helmholtz (K + υM)σ = M(c̃ - u) with υ = {fields.upsilon:g}, "
            f"φ = exp(2σ) ∈ [{fields.phi_min:.4g}, {fields.phi_max:.4g}] (lumped FEM: discrete maximum principle, "
            "Theorem III.5 bounds hold)",
            f"Stage 2 (ε_conf = {eps_conf:.4g}): λ* = ε_conf/(2 √φ_max Δ) = {lambda_star:.5g}; "
            "ρ*(η, x_j) = min_k [√φ_k dist(η, x_k) + graph distance] (multi-source Dijkstra) is √φ_max-Lipschitz "
            "in η, so the likelihood ratio and the normaliser ratio are each ≤ e^(ε_conf/2); " + (
                "release Z with density ∝ φ̂(z) exp(-λ* ρ*(η, z)) (ρ* extended to every z by min{√φ̂(z) dist(η, z), "
                "ρ*(η, x_j) + √φ_j dist(x_j, z) over the 3 nearest vertices}, still √φ_max-Lipschitz), sampled "
                f"exactly by rejection ({plan['proposal']} proposal) with a PUBLIC number of proposals per call: the "
                f"acceptance rate is ≥ {plan['acceptance_lower_bound']:.3g} for every η (a public bound), and "
                "enough proposals are drawn that fewer than the requested points are accepted with probability "
                "≤ 1e-12; random numbers used and work done do not depend on η, and the sampler cannot fail "
                "(in that 1e-12 event it draws more, keeping the law exact)"
                if opts["sampler"] == "continuous" else
                "vertex j with probability ∝ w_j φ_j exp(-λ* ρ*(η, x_j)), then a uniform point of its public "
                "barycentric cell (data-independent post-processing; the output resolution is the mesh spacing "
                f"≈ {mesh.mean_edge_length:.3g})"),
            ("the summary η is first projected onto the closed PUBLIC geodesic ball B(o, R_in = "
             f"{inner_radius:.6g}) inside the meshed domain (identity when η is inside, always the case for data in "
             "the stated public ball): on a Hadamard space this metric projection is 1-Lipschitz, so the sensitivity "
             "and the guarantee are unchanged, and no release can fail or change behaviour because η is far away"
             if not _whole(mesh) else "the whole sphere is meshed: every summary lies in the domain"),
            f"total ε_φ + ε_conf = {eps_phi + eps_conf:.6g} by sequential composition (paper Theorem V.1); the "
            "sanitised density and φ are part of the release. Each further point released from the same "
            "calibration spends another ε_conf",
            "the metric is the paper's conformal metric discretised on the public mesh (no MCMC): the guarantee "
            "is exact for the law actually sampled",
        ]
        label = LABEL_EXACT
        if opts["laplacian"] == "knn_data":
            label = LABEL_NO_GUARANTEE
            notes.append(
                "NO FORMAL GUARANTEE: the Laplacian is the paper's kNN graph Laplacian built on the DATA "
                "points; φ then depends on where the records are through the graph (outside the sanitised "
                "ε_φ channel), so neither φ nor λ* is covered by the privacy accounting; the achieved value is "
                "nominal"
            )
        noise = {
            "lambda_star": float(lambda_star),
            "eps_phi": eps_phi,
            "eps_conf": float(eps_conf),
            "kernel_mass_bound": kb.bound,
            "l1_sensitivity": fields.l1_sensitivity,
            "phi_min": fields.phi_min,
            "phi_max": fields.phi_max,
            "conformal_sensitivity": conformal_sensitivity,
        }
        stored = {k: v for k, v in opts.items() if k not in ("data", "rng")}
        stored.update(fields=fields, sensitivity_used=effective, inner_radius=inner_radius, continuous_plan=plan)
        if plan is not None:
            noise["acceptance_lower_bound"] = plan["acceptance_lower_bound"]
        return self._make_calibration(
            target, budget.achieved, PureDP(eps_phi + float(eps_conf)), sensitivity, noise=noise, label=label,
            notes=notes, options=stored,
        )

    def build_point_set(self, n_points, graph_k, domain_radius=None, domain_center=None):
        """The public point set used on this manifold (whole sphere, or the ball ``B(domain_center, domain_radius)``)."""
        if domain_radius is None:  # only on a compact space: the whole space carries the point set
            return public_point_set(self.manifold, n_points, graph_k)
        return public_point_set(self.manifold, n_points, graph_k, domain_radius, domain_center)

    def _calibrate_points(self, target, sensitivity, budget, opts, eps_phi, eps_conf):
        r"""Calibration on a public point set (any dimension; see :mod:`geodp_core.mechanisms.conformal_pointset`)."""
        manifold = self.manifold
        if manifold.curvature_bounds[0] < 0:  # hyperboloid coordinates of moderate size: distances accurate to < 1e-6
            reach = float(manifold.dist(manifold.default_center(), opts["domain_center"], check=False)) + opts["domain_radius"]
            if reach > _MAX_HYPERBOLIC_REACH:
                raise InvalidParameterError(
                    f"domain_center is at {reach - opts['domain_radius']:.4g} from the origin: the public ball reaches "
                    f"{reach:.4g} > {_MAX_HYPERBOLIC_REACH:g}, where hyperboloid coordinates lose the 1e-6 distance "
                    "accuracy the certified kernel bound assumes; recentre the data (an isometry) so that "
                    f"dist(origin, domain_center) + domain_radius <= {_MAX_HYPERBOLIC_REACH:g}",
                    param="domain_center",
                )
        point_set = self.build_point_set(opts["n_points"], opts["graph_k"], opts["domain_radius"], opts["domain_center"])
        if not manifold.is_compact:
            offset = float(manifold.dist(point_set.domain_center, opts["ball_center"], check=False))
            if offset + opts["radius"] > point_set.domain_radius:
                raise UnavailableError(
                    f"the public data ball B(ball_center, radius={opts['radius']:g}) reaches {offset + opts['radius']:.6g} "
                    f"from domain_center, beyond domain_radius = {point_set.domain_radius:g} (the public ball carrying "
                    "the point set); choose a larger domain_radius or a domain_center closer to the ball centre",
                    param="domain_radius",
                )
        bandwidth = opts["bandwidth"]
        bandwidth_note = "public option"
        if bandwidth is None:
            h_max = float(manifold.diameter) if manifold.is_compact else MAX_BALL_RADIUS
            bandwidth = float(min(h_max, POINT_SET_DEFAULTS["bandwidth_factor"] * point_set.kth_distance_median))
            bandwidth_note = (f"default {POINT_SET_DEFAULTS['bandwidth_factor']:g} × the median distance to the "
                              f"{point_set.graph_k}-th public neighbour (a function of the public point set)")
        fields = build_point_set_fields(
            point_set, opts["data"], opts["rng"], eps_phi, bandwidth, opts["upsilon"], opts["smoothing_time"],
            opts["laplacian"], opts["knn"], opts["density_floor"],
        )
        continuous = opts["sampler"] == "continuous"
        spread_before = fields.phi_max / fields.phi_min
        if continuous:
            fields = cap_volume_factor(fields, opts["volume_factor_cap"])
        notes = [f"target met through ε-DP: {budget.note}"]
        compact = manifold.is_compact
        lambda_star, effective, conformal_sensitivity = _conformal_rate(
            eps_conf, fields.phi_max, sensitivity, float(manifold.diameter) if compact else 2.0 * point_set.domain_radius,
            _diameter_text(manifold) if compact else
            f"2R = {2.0 * point_set.domain_radius:.6g}, the diameter of the public ball the summary is projected onto; "
            "using Δ = 2R", target, notes)
        plan = None
        if continuous:
            plan = fields.continuous_plan(lambda_star)
            if "unavailable" in plan:
                raise UnavailableError(plan["unavailable"], param="sampler")
        kb = fields.kernel_bound
        d = manifold.dim
        where = (f"S^{d}" if point_set.domain_center is None else
                 f"the PUBLIC geodesic ball B(c, R = {point_set.domain_radius:g}) of {manifold.label}")
        notes += [
            f"public point set: {point_set.n_points} scrambled-Halton points (fixed public seed) on {where} with the "
            f"volume measure, equal weights w_j = 1/N, symmetric {point_set.graph_k}-NN graph (median nearest-"
            f"neighbour distance {point_set.nearest_distance_median:.3g}); everything is a function of public inputs",
            f"Stage 1 (ε_φ = {eps_phi:.4g}): KDE κ_h(t) = exp(-1/(1 - t²/h²)) (peak e⁻¹: the paper's density in units "
            f"of h^-d), h = {bandwidth:.4g} ({bandwidth_note}), at the public points; independent Laplace noise of "
            f"scale Δ₁/(ε_φ w_j), Δ₁ = 2B/n = {fields.l1_sensitivity:.4g}, B = {kb.bound:.5g} ≥ sup_y Σ_j w_j κ_h(dist(x_j, y)) "
            f"for every record position y (certified by the anchor argument: nearest public point + triangle "
            f"inequality; {100 * kb.relative_margin:.0f}% above the largest value at the public points)",
            f"post-processing (no privacy cost): clip to [{fields.density_floor:g}, e⁻¹] (the range of every KDE "
            "value, public), implicit heat step t = "
            f"{fields.smoothing_time:g} and Helmholtz (K + υW)σ = W(c̃ - u), υ = {fields.upsilon:g}, with the "
            f"{'graph stiffness K of the PUBLIC kNN graph' if opts['laplacian'] == 'graph' else 'kNN graph Laplacian on the DATA'}"
            f"; φ = exp(2σ) ∈ [{fields.phi_min:.4g}, {fields.phi_max:.4g}]" + (
                f" after the public volume-factor cap (σ shrunk towards its mean so that (φ_max/φ_min)^(d/2) ≤ "
                f"e^{opts['volume_factor_cap']:g}; before it φ_max/φ_min was {spread_before:.4g}; post-processing)"
                if continuous else ""),
            f"Stage 2 (ε_conf = {eps_conf:.4g}): λ* = ε_conf/(2 √φ_max Δ) = {lambda_star:.5g}; ρ*(η, x_j) = min_k "
            "[√φ_k dist(η, x_k) + graph distance] (multi-source Dijkstra on the public kNN graph) is √φ_max-Lipschitz "
            "in η, so the likelihood ratio and the normaliser ratio are each ≤ e^(ε_conf/2); " + (
                f"release Z with density ∝ φ̂(z)^(d/2) exp(-λ* ρ̃(η, z)), d = {d}, w.r.t. the volume of the whole "
                f"{manifold.label} (ρ̃ = min{{√φ̂(z) dist(η, z), ρ*(η, x_j) + √φ̂(z) dist(x_j, z) over the 3 public points "
                "nearest to z}, φ̂(z) the value at the nearest public point: still √φ_max-Lipschitz in η), sampled "
                "exactly by rejection from the Riemannian Laplace law of rate λ*√φ_min around η with a PUBLIC number "
                f"of proposals per call: the acceptance rate is ≥ {plan['acceptance_lower_bound']:.3g} for every η (a "
                "public bound), and enough proposals are drawn that fewer than the requested points are accepted with "
                "probability ≤ 1e-12; random numbers used and work done do not depend on η. No output "
                "discretisation: the release is not limited to the public points (resolution floor 0)"
                if continuous else
                f"release: public point j with probability ∝ w_j φ_j^(d/2) exp(-λ* ρ*(η, x_j)), d = {d}, then a public "
                f"jitter (uniform in the tangent ball of radius {point_set.jitter_radius:.3g}; post-processing). The "
                "output resolution is the point spacing, which grows like N^(-1/d): utility degrades with the "
                "dimension at fixed N"),
            ("the summary is first projected onto the closed public ball (1-Lipschitz on a Hadamard space: the "
             "sensitivity and the guarantee are unchanged)" if not manifold.is_compact
             else "no projection on the sphere: ρ* is defined and √φ_max-Lipschitz for every summary; releases lie in "
             "the public domain (the whole sphere, or the public cap) up to the jitter"),
            f"total ε_φ + ε_conf = {eps_phi + eps_conf:.6g} by sequential composition; the sanitised density and φ are "
            "part of the release. Each further point released from the same calibration spends another ε_conf",
        ]
        label = LABEL_EXACT
        if opts["laplacian"] == "knn_data":
            label = LABEL_NO_GUARANTEE
            notes.append(
                "NO FORMAL GUARANTEE: the Laplacian is the paper's kNN graph Laplacian built on the DATA points; φ "
                "then depends on where the records are outside the sanitised ε_φ channel, so neither φ nor λ* is "
                "covered by the privacy accounting; the achieved value is nominal"
            )
        noise = {
            "lambda_star": float(lambda_star), "eps_phi": eps_phi, "eps_conf": float(eps_conf),
            "kernel_mass_bound": kb.bound, "l1_sensitivity": fields.l1_sensitivity, "phi_min": fields.phi_min,
            "phi_max": fields.phi_max, "conformal_sensitivity": conformal_sensitivity,
        }
        stored = {k: v for k, v in opts.items() if k not in ("data", "rng")}
        stored.update(fields=fields, sensitivity_used=effective, bandwidth=bandwidth, continuous_plan=plan,
                      inner_radius=point_set.domain_radius)
        if plan is not None:
            noise["acceptance_lower_bound"] = plan["acceptance_lower_bound"]
        return self._make_calibration(
            target, budget.achieved, PureDP(eps_phi + float(eps_conf)), sensitivity, noise=noise, label=label,
            notes=notes, options=stored,
        )

    # -------------------------------------------------------------- sampling
    def _sample(self, center, calibration, size, rng):
        fields = calibration.options["fields"]
        lambda_star = calibration.noise["lambda_star"]
        if calibration.options.get("discretisation") == "points":
            if calibration.options.get("sampler") == "continuous":
                return fields.sample_continuous(fields.project_to_domain(center), lambda_star, size, rng,
                                                plan=calibration.options.get("continuous_plan"))
            return fields.sample(fields.project_to_domain(center), lambda_star, size, rng)
        center = fields.project_to_domain(center)  # public, 1-Lipschitz (identity on S^2)
        if calibration.options.get("sampler", "continuous") == "continuous":
            return fields.sample_continuous(center, lambda_star, size, rng, plan=calibration.options.get("continuous_plan"))
        vertices = fields.sample_vertices(center, lambda_star, size, rng)
        return fields.mesh.sample_in_cells(vertices, rng)

    def log_density(self, center, points, calibration):
        r"""Unnormalised log density w.r.t. the Riemannian volume (``sampler="continuous"`` only):
        :math:`\frac d2\log\hat\phi(z) - \lambda^*\rho^*(\eta, z)`; on a mesh :math:`-\infty` outside the meshed
        domain, on a point set defined on the whole manifold (at the projected summary, before the projection of
        the release onto the public ball on non-compact spaces).

        Raises
        ------
        NotImplementedError
            For ``sampler="vertex"`` (a mixture of cell-uniform laws; see :meth:`vertex_probabilities`).
        """
        center = self.manifold.validate_points(center, "center", single=True)
        points = self.manifold.validate_points(points, "points")
        self._check_calibration(calibration)
        if calibration.options.get("sampler", "continuous") != "continuous":
            raise NotImplementedError("the vertex sampler's law is a mixture of cell-uniform laws; use "
                                      "vertex_probabilities")
        fields = calibration.options["fields"]
        if calibration.options.get("discretisation") == "points":
            k = len(self.manifold.point_shape)
            shape = points.shape[:points.ndim - k]
            out = fields.log_density(fields.project_to_domain(center), points, calibration.noise["lambda_star"])
            return out.reshape(shape)
        shape = points.shape[:-1]
        out = fields.log_density(center, points.reshape(-1, 3), calibration.noise["lambda_star"])
        return out.reshape(shape)

    def fields(self, calibration):
        """The :class:`ConformalFields` of a calibration."""
        self._check_calibration(calibration)
        return calibration.options["fields"]

    def rho_star(self, center, calibration):
        """Conformal distance from ``center`` to every mesh vertex (see :meth:`ConformalFields.rho_star`)."""
        return self.fields(calibration).rho_star(center)

    def vertex_probabilities(self, center, calibration):
        """Stage-2 probability of each mesh vertex for the summary ``center``."""
        return self.fields(calibration).vertex_probabilities(center, calibration.noise["lambda_star"])

    def utility_bound(self, calibration, center=None):
        r"""Paper's Theorem V.2 with the calibrated sensitivity, as a bound on :math:`\mathbb{E}\,\mathrm{dist}`.

        The theorem's proof gives :math:`\mathbb{E}\,\mathrm{dist}^2 < d(d+1)/(\lambda^{*2}\phi_{\min})`; with
        :math:`\lambda^* = \varepsilon_{conf}/(2\sqrt{\phi_{\max}}\Delta)` this is

        .. math:: \mathbb{E}\,\mathrm{dist}^2 < \frac{4 d(d+1)\Delta^2}{\varepsilon_{conf}^2}\frac{\phi_{\max}}{\phi_{\min}},

        the paper's statement :math:`16d(d+1)r^2\phi_{\max}/(\varepsilon_{conf}^2 n^2\phi_{\min})` with its
        :math:`\Delta = 2r/n` replaced by the sensitivity actually used (on the sphere the Fréchet-mean
        sensitivity exceeds :math:`2r/n`, so the literal statement would understate the error; see
        :meth:`paper_theorem_v2`). Returned via :math:`\mathbb{E}d \le \sqrt{\mathbb{E}d^2}`. It is the paper's
        bound for its continuous mechanism with a Euclidean-like radial law, not a proven bound for the
        discretised samplers (the vertex sampler adds the mesh spacing).

        Returns
        -------
        float
        """
        self._check_calibration(calibration)
        fields = calibration.options["fields"]
        d = self.manifold.dim
        second = d * (d + 1) / (calibration.noise["lambda_star"] ** 2 * fields.phi_min)
        return float(math.sqrt(second))

    def paper_theorem_v2(self, calibration):
        r"""The paper's Theorem V.2 verbatim, :math:`\sqrt{16d(d+1)r^2\phi_{\max}/(\varepsilon_{conf}^2n^2\phi_{\min})}`,
        from the options ``radius`` and ``n`` (``None`` without ``radius``). It assumes :math:`\Delta \le 2r/n`."""
        self._check_calibration(calibration)
        radius = calibration.options.get("radius")
        if radius is None:
            return None
        fields = calibration.options["fields"]
        n = calibration.options["n"]
        eps_conf = calibration.noise["eps_conf"]
        d = self.manifold.dim
        return float(math.sqrt(16.0 * d * (d + 1) * radius**2 * fields.phi_max / (eps_conf**2 * n**2 * fields.phi_min)))


# ------------------------------------------------------------ cross-check
def conformal_mcmc(mechanism, center, calibration, size, rng, n_steps=300, burn_in=200, proposal_scale=None):
    r"""The paper's MCMC sampler (log-Gaussian = wrapped-Gaussian proposal) as a cross-check / baseline.

    Random-walk Metropolis–Hastings (:func:`~geodp_core.mechanisms.mcmc.riemannian_metropolis_hastings`)
    on the continuous target

    .. math:: \pi(z) \propto \phi(z)^{d/2}\exp(-\lambda^*\rho^*(\eta, z))\ \text{w.r.t. } d\mu,

    with :math:`\phi, \rho^*` read at the nearest mesh vertex (and :math:`\pi = 0` outside the meshed
    domain on :math:`H^2`). Approximate: the law is only close to the exact vertex-and-cell sampler of
    :class:`Conformal` (label "approximate sampler" if used for releases).

    Returns
    -------
    MCMCResult
    """
    if not isinstance(mechanism, Conformal):
        raise InvalidParameterError(
            f"mechanism must be a Conformal mechanism; got {type(mechanism).__name__}", param="mechanism"
        )
    fields = mechanism.fields(calibration)
    if calibration.options.get("discretisation") == "points":
        raise InvalidParameterError(
            "conformal_mcmc cross-checks the mesh discretisation (S², H²); this calibration uses a public point set",
            param="calibration",
        )
    mesh = fields.mesh
    center = mechanism.manifold.validate_points(center, "center", single=True)
    lambda_star = calibration.noise["lambda_star"]
    rho = fields.rho_star(center)
    log_phi = 0.5 * _DIM * np.log(fields.phi)

    def log_target(points):
        j = mesh.nearest_vertex(points)
        out = log_phi[j] - lambda_star * rho[j]
        if not _whole(mesh):
            out = np.where(mesh.contains(points), out, -np.inf)
        return out

    start = center if mesh.contains(center[None])[0] else mesh.vertices[int(np.argmin(rho))]
    if proposal_scale is None:
        proposal_scale = min(math.pi, 2.38 * math.sqrt(1.5) / (lambda_star * math.sqrt(fields.phi_min)))
    return riemannian_metropolis_hastings(
        mechanism.manifold, log_target, start, size, n_steps, proposal_scale, rng, burn_in=burn_in
    )
