"""Tests of the density-aware conformal mechanism on public meshes (docs/specification.md §5.7).

Statistical tests run at alpha = 1e-6 with fixed seeds (type-I error <= 1e-6 per test);
each names the bug it has power against.
"""

import dataclasses
import math

import numpy as np
import pytest
from scipy import optimize, stats

from geodp_core.data import sample_uniform_ball, sample_von_mises_fisher, sample_wrapped_normal_mixture
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.mesh import fibonacci_sphere, hyperbolic_ball_mesh, sphere_mesh
from geodp_core.geometry.radial import get_radial_law
from geodp_core.mechanisms import LABEL_EXACT, LABEL_NO_GUARANTEE, get_mechanism
from geodp_core.mechanisms.conformal import (
    bump_kernel,
    conformal_mcmc,
    intrinsic_kde,
    kernel_mass_bound,
    kernel_sum,
)
from geodp_core.privacy import PureDP
from tests.mechanisms.contract import MechanismContract

ALPHA = 1e-6
S2 = get_manifold("sphere", 2)
H2 = get_manifold("hyperbolic", 2)
NORTH = S2.default_center()
ORIGIN = H2.default_center()

SPHERE_DATA = sample_von_mises_fisher(NORTH, 12.0, 300, np.random.default_rng(11))
HYPER_DATA = sample_wrapped_normal_mixture(
    H2, [ORIGIN, H2.exp(ORIGIN, np.array([0.0, 0.7, 0.0]))], [0.3, 0.2], [0.7, 0.3], 300, np.random.default_rng(12)
)
SPHERE_OPTS = {"data": SPHERE_DATA, "seed": 0, "mesh_size": 300, "bandwidth": 0.6}
HYPER_OPTS = {"data": HYPER_DATA, "seed": 0, "mesh_size": 300, "bandwidth": 0.6, "domain_radius": 1.5, "radius": 1.2,
              "ball_center": ORIGIN}
UNAVAILABLE = [("spd", 2, "affine"), ("sphere", 1)]


def point_near(manifold, base, coords):
    return manifold.exp(base, manifold.from_frame(base, np.asarray(coords, dtype=float)))


# ----------------------------------------------------------------------------- contract
class TestContractSphere(MechanismContract):
    name = "conformal"
    manifold_args = ("sphere", 2)
    calibrate_options = SPHERE_OPTS
    unavailable_on = UNAVAILABLE


class TestContractHyperbolicBall(MechanismContract):
    name = "conformal"
    manifold_args = ("hyperbolic", 2)
    calibrate_options = HYPER_OPTS
    unavailable_on = UNAVAILABLE


class TestContractSphereVertexSampler(MechanismContract):
    name = "conformal"
    manifold_args = ("sphere", 2)
    calibrate_options = {**SPHERE_OPTS, "sampler": "vertex"}


# ------------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def sphere_cal():
    return get_mechanism("conformal", S2).calibrate(PureDP(1.0), 0.05, **SPHERE_OPTS)


@pytest.fixture(scope="module")
def hyper_cal():
    return get_mechanism("conformal", H2).calibrate(PureDP(1.0), 0.05, **HYPER_OPTS)


@pytest.fixture(scope="module")
def flat_phi_cal():
    """Uniform density and no noise (huge eps_phi) with a huge upsilon: phi == 1 to ~1e-7."""
    data = sample_von_mises_fisher(NORTH, 0.0, 2000, np.random.default_rng(5))
    return get_mechanism("conformal", S2).calibrate(
        PureDP(2e6), 0.1, data=data, seed=1, eps_phi=1e6, mesh_size=300, bandwidth=0.6, upsilon=1e6
    )


# ----------------------------------------------------------------------- stage 1
@pytest.mark.parametrize("which", ["sphere_cal", "hyper_cal"])
def test_fields_finite_and_consistent(which, request):
    cal = request.getfixturevalue(which)
    fields = cal.options["fields"]
    for name in ("f", "f_tilde", "f_smooth", "sigma", "phi", "noise_scales"):
        arr = getattr(fields, name)
        assert arr.shape == (fields.mesh.n_vertices,) and np.all(np.isfinite(arr)), name
    assert np.all(fields.phi > 0) and fields.phi_min == fields.phi.min() and fields.phi_max == fields.phi.max()
    assert np.all(fields.f >= 0)
    rho = fields.rho_star(cal_center(fields))
    assert np.all(np.isfinite(rho)) and np.all(rho >= 0)


def cal_center(fields):
    return point_near(fields.manifold, fields.manifold.default_center(), [0.1, -0.2])


def test_sanitisation_scale_uses_the_rigorous_bound(sphere_cal):
    fields = sphere_cal.options["fields"]
    bound = fields.kernel_bound.bound
    assert sphere_cal.noise["kernel_mass_bound"] == bound
    assert fields.l1_sensitivity == pytest.approx(2.0 * bound / len(SPHERE_DATA), rel=1e-15)
    expected = 2.0 * bound / (len(SPHERE_DATA) * sphere_cal.noise["eps_phi"] * fields.mesh.lumped_mass)
    np.testing.assert_allclose(fields.noise_scales, expected, rtol=1e-14)


@pytest.mark.parametrize("kind,bandwidth", [("sphere", 0.6), ("sphere", 0.25), ("hyperbolic", 0.6)])
def test_kernel_mass_bound_dominates_brute_force_sup(kind, bandwidth):
    """B >= sup_y S(y): dense random search + local maximisation from the best points.

    Power against: a bound computed only at the probes (no margin) or a wrong covering radius.
    """
    rng = np.random.default_rng(3)
    if kind == "sphere":
        mesh = sphere_mesh(300)
        y = sample_von_mises_fisher(NORTH, 0.0, 30_000, rng)
    else:
        mesh = hyperbolic_ball_mesh(300, 1.5)
        y = sample_uniform_ball(H2, ORIGIN, 1.5 + bandwidth, 30_000, rng)
    bound = kernel_mass_bound(mesh, bandwidth)
    values = kernel_sum(mesh, y, bandwidth)
    best = y[np.argsort(values)[-8:]]
    manifold = mesh.manifold

    def negative(coords, base):
        return -kernel_sum(mesh, point_near(manifold, base, coords)[None], bandwidth)[0]

    local = [-optimize.minimize(negative, np.zeros(2), args=(b,), method="Nelder-Mead",
                                options={"xatol": 1e-7, "fatol": 1e-12}).fun for b in best]
    brute = max(values.max(), max(local))
    assert brute <= bound.bound
    assert bound.probe_max <= brute * (1 + 1e-12)  # the probes are points of the domain
    assert bound.bound <= 1.15 * brute  # rigorous but not wastefully loose


def test_kernel_mass_close_to_the_continuous_integral():
    """On a fine mesh S(y) ~ int K_h(dist(x, y)) dx = 2 pi int_0^h k(t) sin t dt (quadrature reference)."""
    from scipy import integrate

    h = 0.6
    mass, _ = integrate.quad(lambda t: 2 * math.pi * bump_kernel(t, h) * math.sin(t), 0.0, h)
    mesh = sphere_mesh(3000)
    values = kernel_sum(mesh, fibonacci_sphere(500), h)
    np.testing.assert_allclose(values, mass, rtol=5e-3)


def test_kde_matches_direct_sum():
    mesh = sphere_mesh(300)
    f = intrinsic_kde(mesh, SPHERE_DATA, 0.6)
    direct = bump_kernel(S2.dist(mesh.vertices[:, None, :], SPHERE_DATA[None]), 0.6).mean(axis=1)
    np.testing.assert_allclose(f, direct, rtol=1e-12, atol=1e-15)


def test_sanitisation_noise_is_laplace_with_the_stated_scale():
    """KS of (f~ - f)/scale against Laplace(0, 1), pooled over vertices and seeds (alpha 1e-6).

    Power against: Gaussian noise, a scale missing the 1/w_j weights or the factor 2 in Delta_1.
    """
    mech = get_mechanism("conformal", S2)
    z = []
    for seed in range(8):
        fields = mech.calibrate(PureDP(1.0), 0.05, **{**SPHERE_OPTS, "seed": seed}).options["fields"]
        z.append((fields.f_tilde - fields.f) / fields.noise_scales)
    assert stats.kstest(np.concatenate(z), stats.laplace.cdf).pvalue > ALPHA


# ------------------------------------------------------------- conformal factor
def test_constant_density_gives_phi_one():
    """Uniform data on the whole sphere, large bandwidth, noise off (eps_phi huge): phi == 1."""
    data = sample_von_mises_fisher(NORTH, 0.0, 20_000, np.random.default_rng(7))
    cal = get_mechanism("conformal", S2).calibrate(
        PureDP(2e6), 0.1, data=data, seed=2, eps_phi=1e6, mesh_size=300, bandwidth=1.2, upsilon=1.0
    )
    fields = cal.options["fields"]
    assert np.max(np.abs(fields.phi - 1.0)) < 0.01


@pytest.mark.parametrize("which,laplacian", [("sphere", "fem"), ("hyper", "fem"), ("sphere", "knn_data"),
                                             ("hyper", "knn_data")])
@pytest.mark.parametrize("upsilon", [0.05, 1.0])
def test_phi_within_theorem_III5_bounds(which, laplacian, upsilon):
    manifold, opts = (S2, SPHERE_OPTS) if which == "sphere" else (H2, HYPER_OPTS)
    cal = get_mechanism("conformal", manifold).calibrate(
        PureDP(1.0), 0.05, **{**opts, "laplacian": laplacian, "upsilon": upsilon}
    )
    fields = cal.options["fields"]
    lower, upper = fields.phi_bounds
    assert lower * (1 - 1e-9) <= fields.phi_min and fields.phi_max <= upper * (1 + 1e-9)
    clipped = np.maximum(fields.f_tilde, fields.density_floor)  # the paper's statement uses f~ itself
    assert math.exp(2 * (fields.c_tilde - clipped.max()) / upsilon) <= lower * (1 + 1e-12)
    assert upper <= math.exp(2 * (fields.c_tilde - clipped.min()) / upsilon) * (1 + 1e-12)


def test_heat_step_preserves_the_mean(sphere_cal):
    fields = sphere_cal.options["fields"]
    w = fields.mesh.lumped_mass
    clipped = np.maximum(fields.f_tilde, fields.density_floor)
    assert np.dot(w, fields.f_smooth) == pytest.approx(np.dot(w, clipped), rel=1e-10)


def test_dense_regions_get_small_phi():
    """Comparison principle: higher (sanitised) density, smaller phi (noise nearly off)."""
    cal = get_mechanism("conformal", S2).calibrate(PureDP(2e4), 0.05, **{**SPHERE_OPTS, "eps_phi": 1e4})
    fields = cal.options["fields"]
    near_data = S2.dist(NORTH, fields.vertices) < 0.3
    far = S2.dist(NORTH, fields.vertices) > 2.0
    assert fields.phi[near_data].max() < fields.phi[far].min()


# ------------------------------------------------------------------ stage 2 / privacy
@pytest.mark.parametrize("which", ["sphere_cal", "hyper_cal"])
def test_rho_star_is_sqrt_phi_max_lipschitz(which, request):
    """|rho*(eta, z) - rho*(eta', z)| <= sqrt(phi_max) dist(eta, eta') at every vertex and at continuous z."""
    cal = request.getfixturevalue(which)
    fields = cal.options["fields"]
    manifold = fields.manifold
    rng = np.random.default_rng(21)
    lip = math.sqrt(fields.phi_max)
    base = manifold.default_center()
    z = fields.mesh.sample_in_cells(rng.integers(0, fields.mesh.n_vertices, 400), rng)
    for _ in range(25):
        eta = point_near(manifold, base, rng.normal(0, 0.6, 2))
        eta2 = point_near(manifold, eta, rng.normal(0, 10 ** rng.uniform(-3, -0.5), 2))
        d = float(manifold.dist(eta, eta2))
        gap = np.abs(fields.rho_star(eta) - fields.rho_star(eta2))
        assert np.all(gap <= lip * d + 1e-12)
        cont = np.abs(fields.conformal_distance(eta, z)[0] - fields.conformal_distance(eta2, z)[0])
        assert np.all(cont <= lip * d + 1e-12)


def test_rho_star_is_the_geodesic_distance_when_phi_is_constant(flat_phi_cal):
    """Power against a wrong source initialisation or edge weights in the multi-source Dijkstra."""
    fields = flat_phi_cal.options["fields"]
    assert np.max(np.abs(fields.phi - 1.0)) < 1e-5
    eta = point_near(S2, NORTH, [0.3, -0.4])
    rho = fields.rho_star(eta)
    exact = S2.dist(eta, fields.vertices)
    np.testing.assert_allclose(rho, np.sqrt(fields.phi) * exact, rtol=0, atol=2e-5 * math.pi)


def test_privacy_loss_of_the_released_law_is_bounded(sphere_cal):
    """log p_eta(z) - log p_eta'(z) <= eps_conf for neighbouring summaries (vertex law, exact normalisers)."""
    mech = get_mechanism("conformal", S2)
    fields = sphere_cal.options["fields"]
    lam = sphere_cal.noise["lambda_star"]
    eps_conf = sphere_cal.noise["eps_conf"]
    delta = sphere_cal.sensitivity
    rng = np.random.default_rng(4)
    worst = 0.0
    for _ in range(20):
        eta = point_near(S2, NORTH, rng.normal(0, 0.3, 2))
        direction = rng.normal(size=2)
        eta2 = point_near(S2, eta, delta * direction / np.linalg.norm(direction))
        p1 = fields.vertex_probabilities(eta, lam)
        p2 = fields.vertex_probabilities(eta2, lam)
        worst = max(worst, np.max(np.abs(np.log(p1) - np.log(p2))))
    assert worst <= eps_conf * (1 + 1e-9)
    assert mech.vertex_probabilities(eta, sphere_cal) == pytest.approx(p1)


def test_budget_split_and_lambda(sphere_cal):
    noise = sphere_cal.noise
    assert noise["eps_phi"] == pytest.approx(0.3) and noise["eps_phi"] + noise["eps_conf"] <= 1.0
    assert noise["lambda_star"] == pytest.approx(noise["eps_conf"] / (2 * math.sqrt(noise["phi_max"]) * 0.05))
    assert 2 * noise["lambda_star"] * noise["conformal_sensitivity"] <= noise["eps_conf"]
    assert sphere_cal.label == LABEL_EXACT and sphere_cal.native == PureDP(noise["eps_phi"] + noise["eps_conf"])


# -------------------------------------------------------------------------- samplers
def test_continuous_sampler_is_riemannian_laplace_when_phi_is_constant(flat_phi_cal):
    """KS of dist(eta, Z) against the exact Riemannian Laplace radial law of scale 1/lambda* (alpha 1e-6).

    Power against: a missing factor 2 in lambda*, a wrong envelope / acceptance ratio, or output
    quantised to the mesh.
    """
    mech = get_mechanism("conformal", S2)
    eta = point_near(S2, NORTH, [0.2, 0.5])
    z = mech.sample(eta, flat_phi_cal, 20_000, np.random.default_rng(8))
    law = get_radial_law("sphere", 2, "laplace", 1.0 / flat_phi_cal.noise["lambda_star"])
    assert stats.kstest(S2.dist(eta, z), law.cdf).pvalue > ALPHA


def test_continuous_sampler_matches_its_density_with_varying_phi(sphere_cal):
    """Monte Carlo means of dist(eta, Z) and phi_hat(Z) vs quadrature of the stated density.

    A synthetic, strongly varying public phi (ratio e^3) is put into the fields, so that a missing
    phi factor or a wrong envelope in the acceptance ratio moves the means by many standard errors.
    """
    fields = sphere_cal.options["fields"]
    phi = np.exp(1.5 * fields.vertices[:, 0])
    fields = dataclasses.replace(fields, phi=phi, phi_min=float(phi.min()), phi_max=float(phi.max()))
    lam = 4.0
    eta = point_near(S2, NORTH, [0.3, 0.1])
    rng = np.random.default_rng(10)  # 4 calls: each call's fixed public proposal budget stays below the cap
    z = np.concatenate([fields.sample_continuous(eta, lam, 5_000, rng) for _ in range(4)])
    grid = fibonacci_sphere(200_000)  # equal-area quadrature nodes
    logp = fields.log_density(eta, grid, lam)
    weights = np.exp(logp - logp.max())
    weights /= weights.sum()
    for statistic in (lambda x: S2.dist(eta, x), lambda x: fields.conformal_distance(eta, x)[1]):
        sample = statistic(z)
        reference = np.sum(weights * statistic(grid))
        se = sample.std() / math.sqrt(sample.size)
        assert abs(sample.mean() - reference) < 5 * se + 1e-3  # 5 s.e. (two-sided p ~ 6e-7) + quadrature error


def test_vertex_sampler_frequencies(sphere_cal):
    """Chi-square of sampled vertices against vertex_probabilities (alpha 1e-6)."""
    fields = sphere_cal.options["fields"]
    eta = point_near(S2, NORTH, [0.1, 0.1])
    lam = 5.0  # spread the law over many vertices
    p = fields.vertex_probabilities(eta, lam)
    idx = fields.sample_vertices(eta, lam, 50_000, np.random.default_rng(2))
    order = np.argsort(p)[::-1]
    groups = np.array_split(order, 40)  # bins of vertices, each with enough mass
    expected = np.array([p[g].sum() for g in groups]) * idx.size
    observed = np.array([np.isin(idx, g).sum() for g in groups])
    keep = expected > 20
    chi2 = np.sum((observed[keep] - expected[keep]) ** 2 / expected[keep])
    assert stats.chi2.sf(chi2, keep.sum() - 1) > ALPHA


def test_cell_sampler_is_uniform_on_barycentric_cells():
    """Triangles chosen in proportion to their cell masses; the vertex's barycentric coordinate is the largest.

    Power against: a triangle choice ignoring cell_mass (chi-square, alpha 1e-6).
    """
    mesh = hyperbolic_ball_mesh(300, 1.5)
    rng = np.random.default_rng(6)
    j = 40
    tri, bary = mesh.sample_cell_coordinates(np.full(40_000, j), rng)
    local = np.argmax(mesh.triangles[tri] == j, axis=1)
    assert np.all(mesh.triangles[tri, local] == j)
    assert np.all(bary[np.arange(len(tri)), local] >= bary.max(axis=1))
    incident = np.flatnonzero((mesh.triangles == j).any(axis=1))
    corner = np.argmax(mesh.triangles[incident] == j, axis=1)
    p = mesh.cell_mass[incident, corner] / mesh.lumped_mass[j]
    observed = np.array([(tri == t).sum() for t in incident])
    chi2 = np.sum((observed - p * len(tri)) ** 2 / (p * len(tri)))
    assert stats.chi2.sf(chi2, len(incident) - 1) > ALPHA
    points = mesh.points_from_barycentric(tri, bary)
    assert H2.belongs(points).all() and mesh.contains(points).all()


def test_mcmc_cross_check_agrees_with_the_exact_sampler(sphere_cal):
    """The paper's MCMC (wrapped-Gaussian proposal) on the same target: mean distances within 10%."""
    mech = get_mechanism("conformal", S2)
    eta = point_near(S2, NORTH, [0.1, 0.0])
    exact = S2.dist(eta, mech.sample(eta, sphere_cal, 4000, np.random.default_rng(1))).mean()
    result = conformal_mcmc(mech, eta, sphere_cal, 2000, np.random.default_rng(2), n_steps=150, burn_in=150)
    approx = S2.dist(eta, result.samples).mean()
    assert abs(approx - exact) < 0.1 * exact


def test_vertex_sampler_has_no_closed_density(sphere_cal):
    cal = get_mechanism("conformal", S2).calibrate(PureDP(1.0), 0.05, **{**SPHERE_OPTS, "sampler": "vertex"})
    with pytest.raises(NotImplementedError):
        get_mechanism("conformal", S2).log_density(NORTH, NORTH[None], cal)


# ------------------------------------------------------------------------ variants
def test_knn_data_variant_is_labelled_no_formal_guarantee():
    cal = get_mechanism("conformal", S2).calibrate(PureDP(1.0), 0.05, **{**SPHERE_OPTS, "laplacian": "knn_data"})
    assert cal.label == LABEL_NO_GUARANTEE
    assert any("NO FORMAL GUARANTEE" in note and "DATA" in note for note in cal.notes)


def test_hyperbolic_ball_domain_with_public_center():
    center = point_near(H2, ORIGIN, [0.4, -0.3])
    data = sample_wrapped_normal_mixture(H2, [center], [0.3], [1.0], 200, np.random.default_rng(1))
    mech = get_mechanism("conformal", H2)
    cal = mech.calibrate(PureDP(2.0), 0.05, data=data, seed=4, mesh_size=200, bandwidth=0.6, domain_radius=1.2,
                         domain_center=center, radius=1.0, ball_center=center)
    mesh = cal.options["fields"].mesh
    assert np.allclose(mesh.domain_center, center)
    for sampler in ("continuous", "vertex"):
        c = cal if sampler == "continuous" else mech.calibrate(
            PureDP(2.0), 0.05, data=data, seed=4, mesh_size=200, bandwidth=0.6, domain_radius=1.2,
            domain_center=center, radius=1.0, ball_center=center, sampler="vertex")
        z = mech.sample(point_near(H2, center, [0.2, 0.1]), c, 500, np.random.default_rng(2))
        assert H2.belongs(z).all()
        assert np.all(H2.dist(center, z) <= 1.2 + 1e-9)
    assert any("PUBLIC geodesic ball" in note for note in cal.notes)


def test_spd_and_circle_unavailable_with_reason():
    for args in UNAVAILABLE:
        ok, reason = get_mechanism("conformal", get_manifold(*args)).available()
        assert not ok and len(reason) > 20
    _, reason = get_mechanism("conformal", get_manifold("spd", 2, "affine")).available()
    assert "not DP" in reason and "discretisation" in reason
    for args in (("sphere", 3), ("hyperbolic", 3), ("euclidean", 2)):  # public point sets (test_conformal_pointset)
        assert get_mechanism("conformal", get_manifold(*args)).available().ok
    with pytest.raises(UnavailableError):
        get_mechanism("conformal", get_manifold("spd", 2)).calibrate(PureDP(1.0), 0.1, **SPHERE_OPTS)


def test_utility_bound_formulas(sphere_cal):
    mech = get_mechanism("conformal", S2)
    fields = sphere_cal.options["fields"]
    noise = sphere_cal.noise
    bound = mech.utility_bound(sphere_cal)
    assert bound == pytest.approx(math.sqrt(6.0 / (noise["lambda_star"] ** 2 * fields.phi_min)))
    # Theorem V.2 with Delta in place of 2r/n
    delta = sphere_cal.sensitivity
    assert bound == pytest.approx(math.sqrt(24 * delta**2 * fields.phi_max / (noise["eps_conf"] ** 2 * fields.phi_min)))
    assert mech.paper_theorem_v2(sphere_cal) is None
    cal = mech.calibrate(PureDP(1.0), 0.05, **{**SPHERE_OPTS, "radius": 0.5, "n": 300})
    f = cal.options["fields"]
    expected = math.sqrt(16 * 6 * 0.25 * f.phi_max / (cal.noise["eps_conf"] ** 2 * 300**2 * f.phi_min))
    assert mech.paper_theorem_v2(cal) == pytest.approx(expected)


def test_utility_bound_holds_empirically():
    """RMS distance of exact releases below the paper's E dist^2 bound (phi ~ 1, lambda* = 1.75: on the
    sphere E dist^2 is well below the flat value 6/lambda*^2, so 5000 draws are far from the bound)."""
    mech = get_mechanism("conformal", S2)
    cal = mech.calibrate(PureDP(1.0), 0.2, **{**SPHERE_OPTS, "upsilon": 1e6})
    eta = point_near(S2, NORTH, [0.1, 0.2])
    d = S2.dist(eta, mech.sample(eta, cal, 5000, np.random.default_rng(3)))
    assert math.sqrt(np.mean(d**2)) < 0.9 * mech.utility_bound(cal)


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "change,param",
    [
        ({"eps_phi": 1.0}, "eps_phi"),
        ({"eps_phi": 1.5}, "eps_phi"),
        ({"eps_phi": 0.0}, "eps_phi"),
        ({"eps_phi": float("nan")}, "eps_phi"),
        ({"bandwidth": 2.0}, "bandwidth"),
        ({"bandwidth": -0.1}, "bandwidth"),
        ({"mesh_size": 5}, "mesh_size"),
        ({"upsilon": 0.0}, "upsilon"),
        ({"smoothing_time": -1.0}, "smoothing_time"),
        ({"laplacian": "graph"}, "laplacian"),
        ({"knn": 5}, "knn"),
        ({"domain_radius": 1.0}, "domain_radius"),
        ({"sampler": "mcmc"}, "sampler"),
        ({"seed": None}, "seed"),
        ({"seed": -1}, "seed"),
        ({"data": None}, "data"),
        ({"data": np.ones((5, 3))}, "data"),
        ({"data": SPHERE_DATA[:1]}, "data"),
        ({"colour": "red"}, "colour"),
        ({"radius": 1.0}, "radius"),
    ],
)
def test_bad_options_name_the_parameter(change, param):
    opts = {**SPHERE_OPTS, **change}
    with pytest.raises(InvalidParameterError, match=param) as info:
        get_mechanism("conformal", S2).calibrate(PureDP(1.0), 0.05, **opts)
    assert info.value.param == param


def test_bad_hyperbolic_options():
    mech = get_mechanism("conformal", H2)
    with pytest.raises(InvalidParameterError, match="domain_radius"):
        mech.calibrate(PureDP(1.0), 0.05, **{**HYPER_OPTS, "domain_radius": 9.0})
    with pytest.raises(InvalidParameterError, match="domain_center"):
        mech.calibrate(PureDP(1.0), 0.05, **{**HYPER_OPTS, "domain_center": np.array([1.0, 1.0, 0.0])})
