"""Riemannian Laplace and Riemannian Gaussian on the Kendall shape space Σ^k_2 (docs/specification.md §1.7, §5.1, §5.2).

Contract classes (calibration record, on-manifold samples, Euclidean small-noise limit, every target) plus
law tests against references independent of ``radial.py``: the release radius against a scipy.quad CDF of
g(r) sin^(2k-5) r cos r, an isotropic direction, the normaliser's large-scale limit (the volume π^n/n!), and
the privacy loss bound of the Gaussian's bounded-diameter calibration on random outputs.
"""

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import GDP, RDP, ApproxDP, PureDP, gdp_to_eps_dp
from tests.mechanisms.contract import MechanismContract

KS_ALPHA = 1e-4


class TestLaplaceContractKendall4(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("kendall", 4)


class TestLaplaceContractTriangles(MechanismContract):
    name = "riemannian_laplace"
    manifold_args = ("kendall", 3)


class TestGaussianContractKendall5(MechanismContract):
    name = "riemannian_gaussian"
    manifold_args = ("kendall", 5)
    target = GDP(1.0)


def _quad_radius_cdf(profile, sigma, d):
    g = (lambda r: math.exp(-r / sigma)) if profile == "laplace" else (lambda r: math.exp(-0.5 * (r / sigma) ** 2))
    density = lambda r: g(r) * math.sin(r) ** (d - 1) * math.cos(r)
    total = integrate.quad(density, 0, np.pi / 2, limit=200)[0]
    grid = np.linspace(0, np.pi / 2, 301)
    steps = [integrate.quad(density, a, b)[0] for a, b in itertools.pairwise(grid)]
    cdf = np.concatenate([[0.0], np.cumsum(steps)]) / total
    return lambda r: np.interp(r, grid, cdf)


@pytest.mark.parametrize("name, target, sensitivity", [
    ("riemannian_laplace", PureDP(1.0), 0.6),
    ("riemannian_laplace", PureDP(2.0), 0.05),
    ("riemannian_gaussian", PureDP(1.0), 0.3),
])
@pytest.mark.parametrize("k", [3, 6])
def test_release_radius_and_direction_follow_the_exact_law(name, target, sensitivity, k):
    shapes = get_manifold("kendall", k)
    mechanism = get_mechanism(name, shapes)
    calibration = mechanism.calibrate(target, sensitivity)
    rng = np.random.default_rng(7)
    center = shapes.random_uniform(1, rng)[0]
    releases = mechanism.sample(center, calibration, 4000, rng)
    assert shapes.belongs(releases).all()
    radii = shapes.dist(center, releases)
    reference = _quad_radius_cdf(mechanism.profile, calibration.noise["sigma"], shapes.dim)
    assert stats.kstest(radii, reference).pvalue > KS_ALPHA
    nodes = np.linspace(0, np.pi / 2, 301)[[20, 100, 250]]  # grid nodes of the reference: no interpolation
    np.testing.assert_allclose(mechanism.distance_cdf(calibration, nodes), reference(nodes), atol=1e-9)
    # isotropy: frame coordinates of the unit directions have mean ~ 0 (|mean| < 6/sqrt(n) per coordinate)
    logs = shapes.log(center, releases)
    units = shapes.to_frame(center, logs) / radii[:, None]
    assert np.all(np.abs(units.mean(axis=0)) < 6 / np.sqrt(len(units)))


def test_laplace_calibration_is_delta_over_eps_and_normaliser_tends_to_the_volume():
    shapes = get_manifold("kendall", 5)
    mechanism = get_mechanism("riemannian_laplace", shapes)
    calibration = mechanism.calibrate(PureDP(0.5), 0.2)
    assert calibration.noise["sigma"] == pytest.approx(0.4, rel=1e-12)
    assert calibration.label == "exact"
    huge = mechanism.calibrate(PureDP(1e-7), 0.2)  # σ = 2e6: exp(-r/σ) ≈ 1, Z -> vol = π^3/3!
    assert mechanism.log_normaliser(huge) == pytest.approx(math.log(math.pi**3 / 6), abs=1e-5)
    capped = mechanism.calibrate(PureDP(1.0), 3.0)
    assert capped.noise["sigma"] == pytest.approx(np.pi / 2)
    assert any("diameter" in note for note in capped.notes)


def test_gaussian_bounded_diameter_calibration_bounds_the_privacy_loss():
    """σ² = Δ(π − Δ)/(2ε); the log-density ratio of centres at distance Δ stays ≤ ε and reaches it (tight)."""
    shapes = get_manifold("kendall", 6)
    mechanism = get_mechanism("riemannian_gaussian", shapes)
    eps, delta = 0.8, 0.25
    calibration = mechanism.calibrate(PureDP(eps), delta)
    sigma = calibration.noise["sigma"]
    assert sigma**2 == pytest.approx(delta * (np.pi - delta) / (2 * eps), rel=1e-12)
    assert calibration.label == "exact" and calibration.native.eps <= eps
    assert any("bounded-diameter" in note for note in calibration.notes)
    rng = np.random.default_rng(3)
    center = shapes.default_center()
    other = shapes.exp(center, delta * shapes.random_unit_tangent(center, 1, rng)[0])
    points = np.concatenate([shapes.random_uniform(4000, rng), mechanism.sample(center, calibration, 2000, rng)])
    loss = mechanism.log_density(center, points, calibration) - mechanism.log_density(other, points, calibration)
    assert np.max(np.abs(loss)) <= eps + 1e-12
    # worst output: on the geodesic from η' through η, at distance π/2 from η' (d(η, y) = π/2 − Δ)
    direction = shapes.log(other, center) / delta
    worst = shapes.exp(other, (np.pi / 2 - 1e-12) * direction)
    worst_loss = mechanism.log_density(center, worst, calibration) - mechanism.log_density(other, worst, calibration)
    assert float(worst_loss) == pytest.approx(eps, rel=1e-6)
    gdp = mechanism.calibrate(GDP(1.0), delta)  # exact GDP accounting (kendall_gdp): far less noise
    assert isinstance(gdp.achieved, GDP) and 0.99 <= gdp.achieved.mu <= 1.0
    # the same μ = 1 through the ε-DP bound: ε = gdp_to_eps_dp(1) ≈ 0.807, σ = √(Δ(π − Δ)/(2ε))
    through_pure_dp = np.sqrt(delta * (np.pi - delta) / (2 * gdp_to_eps_dp(1.0)))
    assert gdp.noise["sigma"] < 0.5 * through_pure_dp


def test_other_mechanisms_are_honest_on_kendall():
    shapes = get_manifold("kendall", 5)
    for name in ("ew_laplace", "ew_gaussian", "langevin", "conformal"):
        ok, reason = get_mechanism(name, shapes).available()
        assert not ok and len(reason) > 20
    tangent = get_mechanism("tangent_gaussian", shapes).calibrate(GDP(1.0), 0.1)
    assert tangent.label == "no formal guarantee"


class TestBrownianMotionContractKendall4(MechanismContract):
    """Generic (Ricci bound Ric = 2(k-1) > 0) diffusion; geodesic random walk, labelled approximate sampler."""

    name = "brownian_motion"
    manifold_args = ("kendall", 4)
    target = RDP(2.0, 1.0)


class TestTangentGaussianContractKendall4(MechanismContract):
    """The conformal paper's tangent baseline: sampled exactly, labelled no formal guarantee."""

    name = "tangent_gaussian"
    manifold_args = ("kendall", 4)
    target = GDP(1.0)


@pytest.mark.parametrize("name", ["riemannian_laplace", "riemannian_gaussian"])
def test_empirical_audit_stays_below_the_claim_and_catches_understated_noise(name):
    """Clopper–Pearson audit (95%) of the Fréchet-mean release on Σ^3_2: honest below ε, σ/5 above it."""
    from geodp_core.audit import audit

    shapes = get_manifold("kendall", 3)
    honest = audit(name, shapes, PureDP(2.0), n_releases=100_000, n=2, radius=0.38, seed=0)
    assert honest.eps_lower_bound <= honest.claimed_eps
    broken = audit(name, shapes, PureDP(2.0), n_releases=100_000, n=2, radius=0.38, seed=0,
                   variant="understated_noise", noise_scale=0.2)
    assert broken.eps_lower_bound > broken.claimed_eps


class TestGaussianContractTriangles(MechanismContract):
    """Σ^3_2: exact GDP accounting through S²(1/2)."""

    name = "riemannian_gaussian"
    manifold_args = ("kendall", 3)
    target = GDP(1.0)


def test_triangle_gaussian_has_the_exact_gdp_accounting_of_the_doubled_sphere():
    """μ on Σ^3_2 with (σ, Δ) is μ on S² with (2σ, 2Δ): calibrations agree, and a Monte Carlo privacy profile on
    the triangles (the loss computed from Kendall distances) matches the sphere's quadrature profile."""
    from geodp_core.geometry.radial import RadialLaw
    from geodp_core.mechanisms.gaussian_gdp import privacy_profile

    triangles, sphere = get_manifold("kendall", 3), get_manifold("sphere", 2)
    mechanism = get_mechanism("riemannian_gaussian", triangles)
    for target, delta in ((GDP(1.0), 0.1), (GDP(0.5), 0.6), (ApproxDP(1.0, 1e-5), 0.2)):
        calibration = mechanism.calibrate(target, delta)
        on_sphere = get_mechanism("riemannian_gaussian", sphere).calibrate(target, 2 * delta)
        assert calibration.noise["sigma"] == pytest.approx(on_sphere.noise["sigma"] / 2, rel=1e-12)
        assert calibration.label == "exact" and calibration.achieved == on_sphere.achieved
        assert any("S²(1/2)" in note for note in calibration.notes)
    assert any("bounded-diameter" in note for note in mechanism.calibrate(PureDP(1.0), 0.2).notes)
    four = get_mechanism("riemannian_gaussian", get_manifold("kendall", 4)).calibrate(GDP(1.0), 0.2)
    assert any("exact GDP accounting on Kendall Σ^4_2" in note for note in four.notes)

    sigma, delta, size = 0.2, 0.25, 300_000
    rng = np.random.default_rng(5)
    center = triangles.random_uniform(1, rng)[0]
    other = triangles.exp(center, delta * triangles.random_unit_tangent(center, 1, rng)[0])
    radii = RadialLaw("kendall", 2, "gaussian", sigma).sample(size, rng)
    releases = triangles.exp(center, radii[:, None, None] * triangles.random_unit_tangent(center, size, rng),
                             check=False)
    loss = (triangles.dist(other, releases) ** 2 - triangles.dist(center, releases) ** 2) / (2 * sigma**2)
    eps = np.array([0.0, 0.5, 1.0, 2.0])
    monte_carlo = np.array([np.mean(loss > e) - np.exp(e) * np.mean(loss < -e) for e in eps])
    np.testing.assert_allclose(monte_carlo, privacy_profile("sphere", 2, 2 * sigma, 2 * delta, eps), atol=0.008)


def test_empirical_audit_of_the_exact_gdp_calibration():
    """Σ^4_2, (2, 1e-5)-DP through the exact GDP accounting: the audit stays below ε = 2 (0.23 observed), and
    the same calibration with 0.3 σ is caught (2.16 > 2)."""
    from geodp_core.audit import audit

    shapes = get_manifold("kendall", 4)
    target = ApproxDP(2.0, 1e-5)
    honest = audit("riemannian_gaussian", shapes, target, n_releases=200_000, n=2, radius=0.38, seed=0)
    assert honest.eps_lower_bound <= honest.claimed_eps == 2.0
    broken = audit("riemannian_gaussian", shapes, target, n_releases=200_000, n=2, radius=0.38, seed=0,
                   variant="understated_noise", noise_scale=0.3)
    assert broken.eps_lower_bound > broken.claimed_eps


@pytest.mark.slow
def test_many_landmarks_get_the_exact_accounting():
    """k = 25 (above the old limit of 20): exact GDP accounting, not the loose bounded-diameter bound."""
    calibration = get_mechanism("riemannian_gaussian", get_manifold("kendall", 25)).calibrate(GDP(1.0), 0.2)
    assert calibration.label == "exact" and not any("bounded-diameter" in note for note in calibration.notes)
    assert 0.99 <= calibration.achieved.mu <= 1.0
    loose = get_mechanism("riemannian_gaussian", get_manifold("kendall", 25)).calibrate(PureDP(1.0), 0.2)
    assert calibration.noise["sigma"] < loose.noise["sigma"]
