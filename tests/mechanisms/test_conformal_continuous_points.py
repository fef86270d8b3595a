"""The exact continuous sampler of the conformal mechanism on a public point set (any dimension).

Statistical tests use alpha = 1e-6 with fixed seeds: the Kolmogorov–Smirnov tests compare the released law with
the exact radial Laplace law (flat φ) and with a quadrature of the target density on S² (varying φ). The floor
test checks what the continuous sampler is for: its error keeps falling with ε where the vertex sampler stalls
at the resolution of the public points.
"""

import dataclasses
import math

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.radial import get_radial_law
from geodp_core.mechanisms import LABEL_EXACT, get_mechanism
from geodp_core.mechanisms.conformal_pointset import proposals_needed
from geodp_core.privacy import PureDP

ALPHA = 1e-6


def cluster(manifold, n, spread, seed):
    rng = np.random.default_rng(seed)
    c = manifold.default_center()
    coords = rng.standard_normal((n, manifold.dim)) * spread / math.sqrt(manifold.dim)
    return manifold.exp(np.broadcast_to(c, (n,) + c.shape), manifold.from_frame(c, coords), check=False)


def calibrate(manifold, eps=1.0, sensitivity=0.05, n=200, **extra):
    data = cluster(manifold, n, 0.4, 1)
    opts = {"data": data, "seed": 0, "n_points": 300, "sampler": "continuous"}
    if not manifold.is_compact:
        opts.update(radius=1.0, ball_center=manifold.default_center(), domain_radius=1.5)
    elif manifold.dim == 2:
        opts.update(discretisation="points")
    opts.update(extra)
    mech = get_mechanism("conformal", manifold)
    return mech, mech.calibrate(PureDP(eps), sensitivity, **opts)


def with_sigma(fields, sigma):
    """The same fields with a PUBLIC conformal exponent σ (tests only): φ = e^(2σ)."""
    sigma = np.asarray(sigma, dtype=float)
    phi = np.exp(2.0 * sigma)
    return dataclasses.replace(fields, sigma=sigma, phi=phi, phi_min=float(phi.min()), phi_max=float(phi.max()))


# ------------------------------------------------------------------------------------------------ exact laws
@pytest.mark.parametrize("manifold_args, lam", [
    (("sphere", 9), 12.0), (("sphere", 100), 150.0), (("hyperbolic", 3), 40.0), (("euclidean", 4), 30.0),
    (("spd", 3, "log_euclidean"), 40.0), (("spd", 3, "log_cholesky"), 40.0),
])
def test_flat_phi_gives_the_exact_riemannian_laplace_radial_law(manifold_args, lam):
    """φ ≡ 1: ρ̃(η, z) = dist(η, z) (every route is at least as long), so dist(η, Z) must follow the Laplace radial law
    ∝ J(r) e^(-λ r) exactly (KS, 20 000 releases, alpha = 1e-6). The λ are large enough that the public ball (and the
    projection onto it on non-compact spaces) is left with probability < 1e-9."""
    manifold = get_manifold(*manifold_args)
    mech, cal = calibrate(manifold)
    fields = with_sigma(mech.fields(cal), np.zeros(cal.options["fields"].point_set.n_points))
    center = manifold.default_center()
    releases = fields.sample_continuous(center, lam, 20_000, np.random.default_rng(7))
    if not manifold.is_compact:
        releases = fields.project_releases(releases) if not fields.point_set.in_chart else releases
    radii = manifold.dist(center, releases, check=False)
    law = get_radial_law(manifold.radial_volume, None, "laplace", 1.0 / lam)
    assert stats.kstest(radii, law.cdf).pvalue > ALPHA


def _sphere_quadrature(fields, center, lam, n_r=400, n_t=300):
    """Points, weights (∝ the target density × area) of a polar midpoint grid around ``center`` on S²."""
    manifold = fields.manifold
    r = (np.arange(n_r) + 0.5) * math.pi / n_r
    t = (np.arange(n_t) + 0.5) * 2.0 * math.pi / n_t
    rr, tt = np.meshgrid(r, t, indexing="ij")
    coords = np.stack([np.cos(tt.ravel()), np.sin(tt.ravel())], axis=1)
    points = manifold.exp_polar(center, rr.ravel(), coords, check=False)
    logp = np.concatenate([fields.log_density(center, points[i:i + 20_000], lam)
                           for i in range(0, len(points), 20_000)])
    weights = np.exp(logp - logp.max()) * np.sin(rr.ravel())
    return points, rr.ravel(), weights / weights.sum()


def _weighted_cdf(values, weights):
    order = np.argsort(values)
    v, c = values[order], np.cumsum(weights[order])
    return lambda x: np.interp(x, v, c, left=0.0, right=1.0)


def test_varying_phi_law_matches_quadrature_on_s2():
    """A public σ_j = 0.25 z_j (φ from e^-0.5 to e^0.5) and a broad λ: the routes through the public points and the
    volume factor φ̂(z)^(d/2) both shape the law. The law of dist(η, Z) and of the third coordinate of Z are compared
    with a 400 × 300 polar quadrature of the target (KS, 20 000 releases, alpha = 1e-6). Dropping the volume factor
    or the routes moves the third coordinate's law far beyond the KS threshold (checked below)."""
    manifold = get_manifold("sphere", 2)
    mech, cal = calibrate(manifold)
    fields = mech.fields(cal)
    fields = with_sigma(fields, 0.25 * fields.point_set.points[:, 2])
    center = manifold.exp(manifold.default_center(), manifold.from_frame(manifold.default_center(), [0.6, 0.0]))
    lam = 2.5
    releases = fields.sample_continuous(center, lam, 20_000, np.random.default_rng(11))
    points, radii, weights = _sphere_quadrature(fields, center, lam)
    assert stats.kstest(manifold.dist(center, releases), _weighted_cdf(radii, weights)).pvalue > ALPHA
    third = _weighted_cdf(points[:, 2], weights)
    assert stats.kstest(releases[:, 2], third).pvalue > ALPHA
    # power: the law without the volume factor (φ̂^(d/2) dropped) is rejected by the same test
    flat_volume = weights / np.exp(0.5 * 2 * np.log(fields.phi[np.argmin(fields.point_set.distances_to(points), axis=1)]))
    wrong = _weighted_cdf(points[:, 2], flat_volume / flat_volume.sum())
    assert stats.kstest(releases[:, 2], wrong).pvalue < ALPHA


def test_acceptance_rate_is_above_the_public_bound():
    """The public bound p_lb = (φ_min/φ_max)^(d/2) Z(λ√φ_max)/Z(λ√φ_min) must hold for every summary: measured on S⁵
    with a strongly varying public φ at three summaries (20 000 proposals each, 6 s.e. slack)."""
    manifold = get_manifold("sphere", 5)
    mech, cal = calibrate(manifold)
    fields = mech.fields(cal)
    fields = with_sigma(fields, 0.08 * fields.point_set.points[:, 0])
    lam = 6.0
    plan = fields.continuous_plan(lam)
    bound = plan["acceptance_lower_bound"]
    assert 1e-3 < bound < 1.0
    law = get_radial_law(manifold.radial_volume, None, "laplace", plan["scale"])
    d = manifold.dim
    for k, coords in enumerate(([0, 0, 0, 0, 0], [1.0, 0, 0, 0, 0], [0, 0, 2.5, 0, 0])):
        center = manifold.exp(manifold.default_center(), manifold.from_frame(manifold.default_center(), coords))
        rng = np.random.default_rng(20 + k)
        radii = law.sample(20_000, rng)
        directions = rng.standard_normal((20_000, d))
        directions /= np.linalg.norm(directions, axis=1, keepdims=True)
        proposals = manifold.exp_polar(center, radii, directions)
        # acceptance probability of each proposal: target / envelope, envelope = φ_max^(d/2) e^(-λ√φ_min r)
        alpha = np.exp(fields.log_density(center, proposals, lam) - 0.5 * d * math.log(fields.phi_max)
                       + lam * math.sqrt(fields.phi_min) * radii)
        assert np.all(alpha <= 1.0 + 1e-12)  # the envelope dominates the target
        assert np.mean(alpha) >= bound - 6.0 * np.std(alpha) / math.sqrt(len(alpha))
    assert proposals_needed(100, bound) * bound >= 100


# ------------------------------------------------------------------------------------------------ privacy
@pytest.mark.parametrize("manifold_args", [("sphere", 5), ("hyperbolic", 3), ("spd", 2, "log_euclidean")])
def test_log_density_ratio_bounded_by_half_eps_conf(manifold_args):
    """For summaries at distance Δ, the unnormalised log densities differ by at most ε_conf/2 at every point (the
    Lipschitz half of the proof), exactly, at 4000 points near and far."""
    manifold = get_manifold(*manifold_args)
    mech, cal = calibrate(manifold, eps=2.0, sensitivity=0.1)
    delta = cal.options["sensitivity_used"]
    eps_conf = cal.noise["eps_conf"]
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(10):
        a = cluster(manifold, 1, 0.5, int(rng.integers(1 << 30)))[0]
        direction = rng.standard_normal(manifold.dim)
        b = manifold.exp(a, manifold.from_frame(a, delta * direction / np.linalg.norm(direction)), check=False)
        z = np.concatenate([cluster(manifold, 200, s, int(rng.integers(1 << 30))) for s in (0.1, 1.0)])
        gap = np.abs(mech.log_density(a, z, cal) - mech.log_density(b, z, cal))
        worst = max(worst, float(np.max(gap)))
    assert worst <= eps_conf / 2.0 * (1.0 + 1e-9) + 1e-12
    assert worst > 0.2 * eps_conf / 2.0  # the bound is approached: the test can fail


def test_normaliser_ratio_bounded_on_s2():
    """The other half: Z(η')/Z(η) ≤ e^(ε_conf/2) for summaries at distance Δ (polar quadrature of each normaliser)."""
    manifold = get_manifold("sphere", 2)
    mech, cal = calibrate(manifold, eps=2.0, sensitivity=0.3)
    fields, lam = mech.fields(cal), cal.noise["lambda_star"]
    delta = cal.options["sensitivity_used"]
    base = manifold.default_center()
    a = manifold.exp(base, manifold.from_frame(base, [0.3, 0.1]))
    b = manifold.exp(a, manifold.from_frame(a, [delta, 0.0]))
    logs = []
    for center in (a, b):
        # the same fixed grid around the north pole for both normalisers
        n_r, n_t = 300, 240
        r = (np.arange(n_r) + 0.5) * math.pi / n_r
        t = (np.arange(n_t) + 0.5) * 2.0 * math.pi / n_t
        rr, tt = np.meshgrid(r, t, indexing="ij")
        pts = manifold.exp_polar(base, rr.ravel(), np.stack([np.cos(tt.ravel()), np.sin(tt.ravel())], axis=1))
        logp = fields.log_density(center, pts, lam)
        logs.append(math.log(float(np.sum(np.exp(logp) * np.sin(rr.ravel())))))
    assert abs(logs[0] - logs[1]) <= cal.noise["eps_conf"] / 2.0 + 1e-3


@pytest.mark.parametrize("manifold_args", [("sphere", 10), ("spd", 3, "log_euclidean")])
def test_randomness_and_count_do_not_depend_on_the_summary(manifold_args):
    manifold = get_manifold(*manifold_args)
    mech, cal = calibrate(manifold)
    states = []
    for coords in (np.zeros(manifold.dim), np.full(manifold.dim, 0.9 / math.sqrt(manifold.dim))):
        center = manifold.exp(manifold.default_center(), manifold.from_frame(manifold.default_center(), coords))
        rng = np.random.default_rng(5)
        out = mech.sample(center, cal, 40, rng)
        assert len(out) == 40
        states.append(rng.bit_generator.state["state"]["state"])
    assert states[0] == states[1]


# ------------------------------------------------------------------------------------------------ floor
def test_error_keeps_falling_with_eps_where_the_vertex_sampler_stalls():
    """S⁹ (the paper's d = 10): from ε = 50 to ε = 5000 the continuous sampler's mean distance falls by ≥ 30×
    (Laplace-like 1/ε: 100×), while the vertex sampler stays at the resolution of the public points: at least the
    distance from the summary to its nearest public point minus the jitter radius, whatever ε."""
    manifold = get_manifold("sphere", 9)
    data = cluster(manifold, 500, 0.4, 2)
    center = manifold.default_center()
    means = {}
    for sampler in ("continuous", "vertex"):
        for eps in (50.0, 5000.0):
            mech, cal = calibrate(manifold, eps=eps, sensitivity=0.02, data=data, sampler=sampler,
                                  domain_radius=1.05, domain_center=center, n_points=1000)
            out = mech.sample(center, cal, 400, np.random.default_rng(9))
            means[sampler, eps] = float(np.mean(manifold.dist(center, out)))
    ps = cal.options["fields"].point_set
    floor = float(np.min(ps.distances_to(center[None]))) - ps.jitter_radius
    assert floor > 0.1
    assert means["continuous", 5000.0] < means["continuous", 50.0] / 30.0
    assert means["continuous", 5000.0] < 0.05 * floor
    assert means["vertex", 5000.0] >= floor
    assert means["vertex", 5000.0] > 0.8 * means["vertex", 50.0]


# ------------------------------------------------------------------------------------------------ options, scale
def test_volume_factor_cap_bounds_the_volume_factor_and_is_stated():
    manifold = get_manifold("sphere", 50)
    for cap in (1.0, 0.25):
        mech, cal = calibrate(manifold, eps=1.0, volume_factor_cap=cap, eps_phi=0.05)
        d = manifold.dim
        assert (cal.noise["phi_max"] / cal.noise["phi_min"]) ** (d / 2) <= math.exp(cap) * (1 + 1e-9)
        assert cal.label == LABEL_EXACT
        assert any("volume-factor cap" in note for note in cal.notes)
        assert cal.noise["acceptance_lower_bound"] >= math.exp(-2.0 * cap) * 0.99


def test_hyperbolic_needs_an_integrable_proposal_decided_publicly():
    """On H^d the proposal e^(-λ√φ_min r) sinh^(d-1) r must be integrable (λ√φ_min > d − 1) and stay where the
    coordinates are accurate: otherwise the calibration refuses with the public reason, whatever the data."""
    from geodp_core.exceptions import UnavailableError

    manifold = get_manifold("hyperbolic", 10)
    for seed in (1, 2):
        with pytest.raises(UnavailableError) as info:
            calibrate(manifold, eps=0.5, sensitivity=0.1, data=cluster(manifold, 200, 0.4, seed))
        assert info.value.param == "sampler" and "scale" in str(info.value)
    mech, cal = calibrate(manifold, eps=20.0, sensitivity=0.1)
    assert cal.noise["lambda_star"] * math.sqrt(cal.noise["phi_min"]) > manifold.dim - 1


@pytest.mark.parametrize("extra, param", [
    (dict(volume_factor_cap=-1.0), "volume_factor_cap"),
    (dict(volume_factor_cap=float("nan")), "volume_factor_cap"),
    (dict(volume_factor_cap=1.0, sampler="vertex"), "volume_factor_cap"),
    (dict(sampler="exact"), "sampler"),
])
def test_bad_options_name_the_parameter(extra, param):
    manifold = get_manifold("sphere", 5)
    with pytest.raises(InvalidParameterError) as info:
        calibrate(manifold, **extra)
    assert info.value.param == param


def test_dimension_999_runs_and_releases_are_points_of_the_sphere():
    manifold = get_manifold("sphere", 999)
    mech, cal = calibrate(manifold, eps=50.0, sensitivity=0.02, n_points=200, n=100)
    out = mech.sample(manifold.default_center(), cal, 50, np.random.default_rng(1))
    assert out.shape == (50, 1000) and np.all(np.isfinite(out))
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-9)
    assert cal.noise["acceptance_lower_bound"] > 0.1


def test_flat_spd_releases_are_valid_and_projected_onto_the_public_ball():
    """At a small ε the continuous law reaches far beyond the public ball; the releases are projected back onto it
    (public post-processing) and are valid SPD matrices."""
    manifold = get_manifold("spd", 3, "log_euclidean")
    mech, cal = calibrate(manifold, eps=0.05, sensitivity=0.5)
    out = mech.sample(manifold.default_center(), cal, 200, np.random.default_rng(4))
    assert np.all(np.linalg.eigvalsh(out) > 0)
    r = manifold.dist(manifold.default_center(), out)
    assert np.max(r) <= 1.5 * (1 + 1e-9)
    assert np.mean(r > 1.5 * (1 - 1e-9)) > 0.5  # most releases were projected: the test exercises the projection
