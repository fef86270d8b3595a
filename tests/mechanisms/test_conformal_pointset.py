"""The conformal mechanism on public point sets in any dimension (docs/specification.md §5.7, §5.9).

Exactness tests compute the release laws exactly (discrete probabilities, Laplace log densities) on small
instances; the kernel-mass test checks the certified bound at many record positions, including positions
found by a local search for the maximum.
"""

import math

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.point_sets import pairwise_distances, public_point_set
from geodp_core.mechanisms import LABEL_EXACT, LABEL_NO_GUARANTEE, get_mechanism
from geodp_core.mechanisms.conformal_pointset import (
    point_set_kde,
    point_set_kernel_mass_bound,
    point_set_kernel_sum,
)
from geodp_core.privacy import PureDP
from tests.mechanisms.contract import MechanismContract

SPACES = [("sphere", 3), ("sphere_cap", 4), ("spd_le", 2), ("spd_lc", 3), ("hyperbolic", 3), ("sphere", 5), ("hyperbolic", 5), ("euclidean", 4), ("sphere", 10),
          ("hyperbolic", 10)]


def space_manifold(space):
    """``("sphere_cap", d)`` is S^d with the point set on the public cap B(north, 1.2); ``("spd_le", m)`` /
    ``("spd_lc", m)`` are SPD(m) under the log-Euclidean / log-Cholesky metric."""
    if space[0] in ("spd_le", "spd_lc"):
        return get_manifold("spd", space[1], "log_euclidean" if space[0] == "spd_le" else "log_cholesky")
    return get_manifold("sphere" if space[0] == "sphere_cap" else space[0], space[1])


def space_radius(space):
    return {"sphere": None, "sphere_cap": 1.2}.get(space[0], 1.5)


def cluster(manifold, n, spread, seed, center=None):
    """``n`` points around ``center`` (wrapped Gaussian, per-coordinate scale ``spread / sqrt(d)``)."""
    rng = np.random.default_rng(seed)
    c = manifold.default_center() if center is None else center
    coords = rng.standard_normal((n, manifold.dim)) * spread / math.sqrt(manifold.dim)
    return manifold.exp(np.broadcast_to(c, (n,) + c.shape), manifold.from_frame(c, coords), check=False)


def options(manifold, data, **extra):
    opts = {"data": data, "seed": 0, "n_points": 300}
    if manifold.name != "sphere":
        opts.update(radius=1.0, ball_center=manifold.default_center(), domain_radius=1.5)
    opts.update(extra)
    return opts


def move(manifold, point, coords):
    return manifold.exp(point, manifold.from_frame(point, np.asarray(coords, dtype=float)), check=False)


# ----------------------------------------------------------------------------- contract
class TestContractS3(MechanismContract):
    name = "conformal"
    manifold_args = ("sphere", 3)
    calibrate_options = options(get_manifold("sphere", 3), cluster(get_manifold("sphere", 3), 200, 0.5, 1))
    unavailable_on = [("spd", 2, "affine"), ("sphere", 1)]


class TestContractH4(MechanismContract):
    name = "conformal"
    manifold_args = ("hyperbolic", 4)
    calibrate_options = options(get_manifold("hyperbolic", 4), cluster(get_manifold("hyperbolic", 4), 200, 0.5, 2))


# ----------------------------------------------------------------------------- point set
@pytest.mark.parametrize("space", SPACES + [("sphere", 100), ("hyperbolic", 100)])
def test_point_set_on_the_manifold_in_the_domain_and_deterministic(space):
    manifold = space_manifold(space)
    radius = space_radius(space)
    ps = public_point_set(manifold, 300, 8, radius)
    assert ps.points.shape == (300,) + tuple(manifold.point_shape)
    assert manifold.belongs(ps.points).all()
    assert ps.contains(ps.points).all()
    assert np.allclose(ps.weights, 1.0 / 300)
    from geodp_core.geometry import point_sets

    point_sets._cached_point_set.cache_clear()
    again = public_point_set(manifold, 300, 8, radius)
    assert np.array_equal(again.points, ps.points)  # fixed public seed: a function of public inputs only
    lengths = manifold.dist(ps.points[ps.edges[:, 0]], ps.points[ps.edges[:, 1]])
    assert np.allclose(lengths, ps.edge_lengths, atol=1e-6)
    # the graph: k neighbours at least per point, symmetric edges i < j with their geodesic lengths
    assert np.all(ps.edges[:, 0] < ps.edges[:, 1])
    lengths = manifold.dist(ps.points[ps.edges[:, 0]], ps.points[ps.edges[:, 1]])
    assert np.allclose(lengths, ps.edge_lengths, atol=1e-6)
    assert np.bincount(ps.edges.ravel(), minlength=300).min() >= 8
    stiffness = ps.stiffness
    assert abs(stiffness - stiffness.T).max() < 1e-15
    assert np.abs(np.asarray(stiffness.sum(axis=1))).max() < 1e-12


def test_point_set_follows_the_volume_measure_on_the_sphere():
    """Uniform on S^3: the first coordinate has mean 0 and E x_0^2 = 1/4 (power against a non-uniform map)."""
    ps = public_point_set(get_manifold("sphere", 3), 2000, 10)
    assert abs(ps.points[:, 0].mean()) < 0.02
    assert abs(np.mean(ps.points[:, 0] ** 2) - 0.25) < 0.01


def test_point_set_follows_the_volume_measure_in_a_hyperbolic_ball():
    """In B(o, R) of H^3 the radius has density ∝ sinh² r: compare the empirical median with the exact one."""
    manifold = get_manifold("hyperbolic", 3)
    ps = public_point_set(manifold, 2000, 10, 1.5)
    r = manifold.dist(manifold.default_center(), ps.points)
    grid = np.linspace(0, 1.5, 100001)
    cdf = np.cumsum(np.sinh(grid) ** 2)
    cdf /= cdf[-1]
    assert abs(np.median(r) - grid[np.searchsorted(cdf, 0.5)]) < 0.01


def test_point_set_identical_for_different_data():
    manifold = get_manifold("sphere", 4)
    mech = get_mechanism("conformal", manifold)
    a = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, cluster(manifold, 100, 0.3, 1)))
    b = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, cluster(manifold, 150, 1.0, 2)))
    assert mech.fields(a).point_set is mech.fields(b).point_set
    assert a.noise["kernel_mass_bound"] == b.noise["kernel_mass_bound"]  # B is public


# ----------------------------------------------------------------------------- certified bound
@pytest.mark.parametrize("space", SPACES)
def test_certified_kernel_bound_bounds_the_kernel_mass_everywhere(space):
    """B >= S(y) at uniform, near-point, far and locally maximised record positions (power: a bound from the
    public points only, or a covering slack in the wrong direction, fails at the local maxima)."""
    manifold = space_manifold(space)
    radius = space_radius(space)
    ps = public_point_set(manifold, 400, 8, radius)
    h = 1.2 * ps.kth_distance_median
    bound = point_set_kernel_mass_bound(ps, h)
    rng = np.random.default_rng(3)
    d = manifold.dim
    base = ps.points[rng.integers(0, ps.n_points, 3000)]
    ys = [move(manifold, base, rng.standard_normal((3000, d)) * s / math.sqrt(d)) for s in (0.05, 0.3, 1.0, 3.0)]
    ys.append(cluster(manifold, 2000, 2.5, 4))
    y = np.concatenate(ys)
    values = point_set_kernel_sum(ps, y, h)
    assert values.max() <= bound.bound
    assert bound.probe_max <= bound.bound
    # local search from the 50 best positions: random steps, keep improvements
    best = y[np.argsort(values)[-50:]]
    best_val = point_set_kernel_sum(ps, best, h)
    for step in (0.2, 0.1, 0.05, 0.02):
        for _ in range(30):
            trial = move(manifold, best, rng.standard_normal(best.shape[:1] + (d,)) * step * h / math.sqrt(d))
            val = point_set_kernel_sum(ps, trial, h)
            better = val > best_val
            best[better], best_val[better] = trial[better], val[better]
    assert best_val.max() <= bound.bound, (best_val.max(), bound.bound)


def test_kernel_bound_is_exact_for_one_public_point_cluster():
    """Brute-force reference: B is at least the kernel mass at each public point (the tightness lower end)."""
    manifold = get_manifold("sphere", 3)
    ps = public_point_set(manifold, 200, 6)
    h = 0.8
    at_points = point_set_kernel_sum(ps, ps.points, h)
    bound = point_set_kernel_mass_bound(ps, h)
    assert bound.probe_max == pytest.approx(at_points.max(), rel=1e-12)


# ----------------------------------------------------------------------------- exactness
def neighbours(manifold, data, seed):
    """D' = D with its first record moved to the far side of the data (a worst-case move)."""
    other = data.copy()
    other[0] = move(manifold, data[0], np.random.default_rng(seed).standard_normal(manifold.dim) * 1.5)
    return other


@pytest.mark.parametrize("space", [("sphere", 3), ("hyperbolic", 3), ("sphere", 5), ("euclidean", 5),
                                   ("hyperbolic", 10), ("spd_le", 3)])
def test_stage1_density_release_is_eps_phi_dp_exactly(space):
    """Weighted L1 distance of the neighbouring KDEs <= 2B/n, hence the log ratio of the two Laplace densities of
    f~ (any f~) is <= sum_j |f_j - f'_j| / scale_j <= eps_phi."""
    manifold = space_manifold(space)
    mech = get_mechanism("conformal", manifold)
    worst = 0.0
    for seed in range(5):
        data = cluster(manifold, 40, 0.4, seed)
        cal = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, data))
        fields = mech.fields(cal)
        ps, h = fields.point_set, fields.bandwidth
        f = point_set_kde(ps, data, h)
        for k in range(5):
            g = point_set_kde(ps, neighbours(manifold, data, 100 * seed + k), h)
            assert np.sum(ps.weights * np.abs(f - g)) <= fields.l1_sensitivity * (1 + 1e-12)
            worst = max(worst, float(np.sum(np.abs(f - g) / fields.noise_scales)))
    assert worst <= cal.noise["eps_phi"] * (1 + 1e-12)


@pytest.mark.parametrize("space", [("sphere", 3), ("hyperbolic", 3), ("sphere", 5), ("hyperbolic", 5),
                                   ("euclidean", 4), ("sphere", 10), ("sphere_cap", 4), ("spd_le", 2),
                                   ("spd_lc", 3)])
def test_stage2_discrete_release_likelihood_ratio_bounded_exactly(space):
    """max_j |log P_eta(j) - log P_eta'(j)| <= eps_conf for summaries at distance Delta (the released index is the
    whole stage-2 output; the jitter is public post-processing). Includes summaries outside the public ball (they
    are projected) and a tiny public point set where every probability is enumerated."""
    manifold = space_manifold(space)
    cap = {"domain_radius": 1.2} if space[0] == "sphere_cap" else {}
    mech = get_mechanism("conformal", manifold)
    delta = 0.3
    for n_points in (50, 300):
        data = cluster(manifold, 60, 0.5, 7)
        cal = mech.calibrate(PureDP(2.0), delta, **options(manifold, data, n_points=n_points, graph_k=5,
                                                                  **cap))
        eps_conf, lam = cal.noise["eps_conf"], cal.noise["lambda_star"]
        fields = mech.fields(cal)
        rng = np.random.default_rng(5)
        worst = 0.0
        for trial in range(40):
            spread = 1.0 if trial < 30 else 3.0  # the last ones often leave the public ball (projection)
            eta = cluster(manifold, 1, spread, 1000 + trial)[0]
            direction = rng.standard_normal(manifold.dim)
            eta2 = move(manifold, eta, direction / np.linalg.norm(direction) * delta)
            assert manifold.dist(eta, eta2) <= delta * (1 + 1e-9)
            p = fields.vertex_probabilities(fields.project_to_domain(eta), lam)
            q = fields.vertex_probabilities(fields.project_to_domain(eta2), lam)
            worst = max(worst, float(np.max(np.abs(np.log(p) - np.log(q)))))
        assert worst <= eps_conf * (1 + 1e-9), (worst, eps_conf)
        assert worst > 0.05 * eps_conf  # the test has power: the ratio is not trivially 1


def test_stage2_each_half_of_the_proof_is_bounded():
    """The two steps of the proof separately: the unnormalised weights move by <= eps_conf/2 (Lipschitz rho*) and so
    does the normaliser (it is a positive combination of them) — the reason for the factor 2 in lambda*."""
    manifold = get_manifold("sphere", 3)
    mech = get_mechanism("conformal", manifold)
    delta = 0.5
    cal = mech.calibrate(PureDP(2.0), delta, **options(manifold, cluster(manifold, 60, 0.5, 7), n_points=200))
    fields = mech.fields(cal)
    lam, eps_conf = cal.noise["lambda_star"], cal.noise["eps_conf"]
    rng = np.random.default_rng(0)
    for _ in range(20):
        eta = cluster(manifold, 1, 1.0, int(rng.integers(1 << 30)))[0]
        direction = rng.standard_normal(3)
        eta2 = move(manifold, eta, direction / np.linalg.norm(direction) * delta)
        a, b = fields.log_point_weights(eta, lam), fields.log_point_weights(eta2, lam)
        assert np.max(np.abs(a - b)) <= eps_conf / 2 * (1 + 1e-9)
        za, zb = np.logaddexp.reduce(a), np.logaddexp.reduce(b)
        assert abs(za - zb) <= eps_conf / 2 * (1 + 1e-9)


def test_rho_star_is_lipschitz_and_matches_graph_distances():
    manifold = get_manifold("hyperbolic", 4)
    mech = get_mechanism("conformal", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.2, **options(manifold, cluster(manifold, 80, 0.5, 3)))
    fields = mech.fields(cal)
    eta = cluster(manifold, 1, 0.5, 9)[0]
    eta2 = move(manifold, eta, np.full(4, 0.05))
    rho, rho2 = fields.rho_star(eta), fields.rho_star(eta2)
    assert np.max(np.abs(rho - rho2)) <= math.sqrt(fields.phi_max) * manifold.dist(eta, eta2) * (1 + 1e-9)
    direct = np.sqrt(fields.phi) * manifold.dist(eta, fields.point_set.points)
    assert np.all(rho <= direct + 1e-12) and np.all(rho >= math.sqrt(fields.phi_min) * 0.0)


# ----------------------------------------------------------------------------- dimensions
@pytest.mark.parametrize("space", [("sphere", 3), ("sphere", 5), ("sphere", 10), ("hyperbolic", 3),
                                   ("hyperbolic", 5), ("hyperbolic", 10), ("euclidean", 10), ("spd_le", 3),
                                   ("spd_lc", 2)])
def test_releases_on_the_manifold_and_near_the_summary(space):
    manifold = space_manifold(space)
    mech = get_mechanism("conformal", manifold)
    assert mech.available().ok
    data = cluster(manifold, 300, 0.4, 1)
    cal = mech.calibrate(PureDP(5.0), 0.01, **options(manifold, data, n_points=1000))
    assert cal.label == LABEL_EXACT and cal.achieved == PureDP(5.0)
    center = manifold.default_center()
    z = mech.sample(center, cal, 200, np.random.default_rng(1))
    assert manifold.belongs(z).all()
    far = cluster(manifold, 2000, 3.0, 5) if space[0] != "sphere" else cluster(manifold, 2000, 10.0, 5)
    if manifold.name == "spd":
        far = cluster(manifold, 2000, 1.4, 5)  # the public domain is B(c, 1.5)
    assert manifold.dist(center, z).mean() < manifold.dist(center, far).mean()


@pytest.mark.parametrize("space", [("sphere", 100), ("hyperbolic", 100)])
def test_dimension_100_runs(space):
    manifold = get_manifold(*space)
    mech = get_mechanism("conformal", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.05, **options(manifold, cluster(manifold, 100, 0.4, 1), n_points=200))
    z = mech.sample(manifold.default_center(), cal, 10, np.random.default_rng(1))
    assert manifold.belongs(z).all() and z.shape == (10, 101)


def test_randomness_consumed_does_not_depend_on_the_summary():
    manifold = get_manifold("hyperbolic", 3)
    mech = get_mechanism("conformal", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, cluster(manifold, 80, 0.4, 1)))
    states = []
    for center in (manifold.default_center(), cluster(manifold, 1, 5.0, 2)[0]):  # inside / far outside the ball
        rng = np.random.default_rng(4)
        mech.sample(center, cal, 7, rng)
        states.append(rng.bit_generator.state["state"]["state"])
    assert states[0] == states[1]


def test_knn_on_data_is_labelled_no_formal_guarantee():
    manifold = get_manifold("sphere", 3)
    mech = get_mechanism("conformal", manifold)
    cal = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, cluster(manifold, 80, 0.4, 1), laplacian="knn_data"))
    assert cal.label == LABEL_NO_GUARANTEE
    assert any("NO FORMAL GUARANTEE" in note for note in cal.notes)
    cal_graph = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, cluster(manifold, 80, 0.4, 1)))
    assert cal_graph.label == LABEL_EXACT


def test_surfaces_keep_the_mesh_and_can_use_points():
    s2 = get_manifold("sphere", 2)
    mech = get_mechanism("conformal", s2)
    data = cluster(s2, 100, 0.4, 1)
    mesh_cal = mech.calibrate(PureDP(1.0), 0.1, data=data, seed=0, mesh_size=200)
    assert mesh_cal.options["discretisation"] == "mesh"
    pts = mech.calibrate(PureDP(1.0), 0.1, data=data, seed=0, discretisation="points", n_points=300)
    assert pts.options["discretisation"] == "points" and pts.label == LABEL_EXACT
    assert s2.belongs(mech.sample(s2.default_center(), pts, 5, np.random.default_rng(0))).all()


# ----------------------------------------------------------------------------- bad inputs
S3 = get_manifold("sphere", 3)
H3 = get_manifold("hyperbolic", 3)


@pytest.mark.parametrize("manifold, extra, param", [
    (S3, {"n_points": 10}, "n_points"),
    (S3, {"n_points": 10**6}, "n_points"),
    (S3, {"n_points": 2.5}, "n_points"),
    (S3, {"graph_k": 1}, "graph_k"),
    (S3, {"graph_k": 500}, "graph_k"),
    (S3, {"discretisation": "mesh"}, "discretisation"),
    (S3, {"mesh_size": 300}, "mesh_size"),
    (S3, {"sampler": "exact"}, "sampler"),
    (S3, {"laplacian": "fem"}, "laplacian"),
    (S3, {"bandwidth": 4.0}, "bandwidth"),
    (S3, {"bandwidth": 0.0}, "bandwidth"),
    (S3, {"domain_radius": 4.0}, "domain_radius"),
    (S3, {"domain_center": S3.default_center()}, "domain_center"),
    (H3, {"domain_radius": -1.0}, "domain_radius"),
    (H3, {"bandwidth": float("nan")}, "bandwidth"),
    (H3, {"radius": None}, "radius"),
    (H3, {"domain_center": move(H3, H3.default_center(), [7.0, 0.0, 0.0]), "ball_center": move(
        H3, H3.default_center(), [7.0, 0.0, 0.0])}, "domain_center"),
])
def test_bad_inputs_name_the_parameter(manifold, extra, param):
    mech = get_mechanism("conformal", manifold)
    opts = options(manifold, cluster(manifold, 50, 0.3, 1), **extra)
    opts = {k: v for k, v in opts.items() if v is not None}
    with pytest.raises(InvalidParameterError) as info:
        mech.calibrate(PureDP(1.0), 0.1, **opts)
    assert isinstance(info.value, ValueError)
    assert info.value.param == param
    assert param in str(info.value)


def test_data_ball_outside_the_domain_is_refused_publicly():
    mech = get_mechanism("conformal", H3)
    with pytest.raises(UnavailableError) as info:
        mech.calibrate(PureDP(1.0), 0.1, **options(H3, cluster(H3, 50, 0.3, 1), domain_radius=0.8))
    assert info.value.param == "domain_radius"


@pytest.mark.parametrize("space", [("hyperbolic", 5), ("sphere", 10)])
def test_phi_range_bounded_by_the_public_clip(space):
    """f~ is clipped to [0, e^-1] (the public range of every KDE value): by the discrete maximum principle
    phi_max / phi_min <= exp(2 e^-1 / upsilon), however large the sanitisation noise (here: tiny eps_phi)."""
    manifold = get_manifold(*space)
    mech = get_mechanism("conformal", manifold)
    for upsilon in (0.5, 1.0, 4.0):
        cal = mech.calibrate(PureDP(1.0), 0.1, **options(manifold, cluster(manifold, 60, 0.4, 1), eps_phi=0.01,
                                                          upsilon=upsilon))
        fields = mech.fields(cal)
        assert fields.f_smooth.min() >= -1e-12 and fields.f_smooth.max() <= math.exp(-1) + 1e-12
        assert fields.phi_max / fields.phi_min <= math.exp(2 * math.exp(-1) / upsilon) * (1 + 1e-6)


def test_sphere_cap_point_set_lies_in_the_cap_and_releases_follow():
    manifold = get_manifold("sphere", 5)
    north = manifold.default_center()
    ps = public_point_set(manifold, 400, 8, 0.8, north)
    assert np.all(manifold.dist(north, ps.points) <= 0.8 + 1e-9) and ps.contains(ps.points).all()
    mech = get_mechanism("conformal", manifold)
    cal = mech.calibrate(PureDP(2.0), 0.05, **options(manifold, cluster(manifold, 100, 0.3, 1), domain_radius=0.8))
    z = mech.sample(north, cal, 100, np.random.default_rng(0))
    assert manifold.belongs(z).all()
    assert np.all(manifold.dist(north, z) <= 0.8 + ps.jitter_radius + 1e-9)


def test_spd_affine_unavailable_with_reason():
    ok, reason = get_mechanism("conformal", get_manifold("spd", 2, "affine")).available()
    assert not ok and "affine-invariant" in reason and "log-Euclidean" in reason


@pytest.mark.parametrize("space", [("sphere", 100), ("hyperbolic", 100), ("euclidean", 50)])
def test_pairwise_distances_accurate_to_the_bound_slack(space):
    """The certified bound assumes computed distances within 1e-6 of the true ones, also for near pairs (where the
    Gram forms arccos / arccosh lose ~sqrt(eps)) and far from the origin (H^d ball reaching 8)."""
    manifold = get_manifold(*space)
    d = manifold.dim
    kind = {"sphere": "sphere", "hyperbolic": "hyperbolic_ball", "euclidean": "euclidean_ball"}[space[0]]
    rng = np.random.default_rng(0)
    c = manifold.default_center()
    if space[0] == "hyperbolic":
        c = move(manifold, c, np.r_[4.0, np.zeros(d - 1)])
    base = manifold.exp(np.broadcast_to(c, (200,) + c.shape),
                        manifold.from_frame(c, rng.standard_normal((200, d)) * 4.0 / math.sqrt(d)), check=False)
    for s in (1e-8, 1e-5, 0.01, 0.049, 0.051, 0.3):
        v = rng.standard_normal((200, d))
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        y = manifold.exp(base, manifold.from_frame(base, v * s), check=False)
        assert np.abs(np.diag(pairwise_distances(kind, base, y)) - s).max() < 1e-7
