"""The mode-jump moves of the KNG samplers against exact laws (KS tests, alpha = 1e-6, fixed seeds).

The fear: a proposal density off by a volume factor, a missing reverse density or a jump kernel that cannot
cross the cone/plateau barrier. Each test has a negative control that the same test rejects."""

import math

import numpy as np
import pytest
from scipy import stats

from geodp_core.geometry import get_manifold
from geodp_core.geometry.functions import log_ball_volume, log_sphere_area
from geodp_core.mechanisms import kng_mode_jumps as J
from geodp_core.mechanisms import kng_regression as K

SEED = 20261127
ALPHA = 1e-6


def test_k_norm_mixture_samples_its_density():
    """The size |(G ⊗ I) delta| of a draw follows the scale mixture of Gamma(kd, s sigma) laws (KS), and the log
    density integrates to 1 (a wrong constant would tilt every jump between the cone and the domain)."""
    rng = np.random.default_rng(SEED)
    law = J.KNormMixture(J.JOINT_GRAM, 0.1, 2)
    draws = law.sample(rng, 20000)
    size = np.linalg.norm(np.einsum("ij,rjd->rid", J.JOINT_GRAM, draws).reshape(draws.shape[0], -1), axis=1)
    assert stats.kstest(size, lambda r: np.mean([stats.gamma(4, scale=s).cdf(r) for s in law.scales],
                                                         axis=0)).pvalue > ALPHA
    # normalised: the density depends on rho = |(G ⊗ I) delta| only, so its integral is
    # det(G)^-d |S^{D-1}| int q(rho) rho^{D-1} d rho (D = 4), by quadrature along one ray
    rho = np.linspace(0.0, 40.0, 400001)
    ray = np.zeros((rho.size, 2, 2))
    ray[:, :, 0] = np.outer(rho, np.linalg.inv(J.JOINT_GRAM)[:, 0])
    integrand = np.exp(law.log_density(ray)) * rho ** 3
    sphere = 2 * np.pi ** 2  # |S^3|
    total = sphere / np.linalg.det(J.JOINT_GRAM) ** 2 * np.sum(0.5 * (integrand[1:] + integrand[:-1]) * np.diff(rho))
    assert abs(total - 1.0) < 1e-6


# ------------------------------------------------------------ stage 2: cone + plateau with a first-order barrier
SIGMA, CLIP, RADIUS = 0.01, 0.1, 2.0  # cone of width 0.01; plateau 10 nats lower; equal masses (1e-4 vs 9e-5)


def _cone_plateau(state):
    r = np.linalg.norm(state[0], axis=1)
    return np.where(r <= RADIUS, -np.minimum(r, CLIP) / SIGMA, -np.inf)


def _cone_plateau_cdf(r):
    """CDF of |c| for the density ∝ exp(-min(|c|, T)/sigma) on the disc of radius R in R²."""
    r = np.asarray(r, dtype=float)
    u = np.minimum(r, CLIP) / SIGMA
    cone = SIGMA ** 2 * (1 - np.exp(-u) * (1 + u))
    plateau = np.exp(-CLIP / SIGMA) * (np.maximum(r, CLIP) ** 2 - CLIP ** 2) / 2
    total = SIGMA ** 2 * (1 - np.exp(-CLIP / SIGMA) * (1 + CLIP / SIGMA)) + np.exp(-CLIP / SIGMA) * (
        RADIUS ** 2 - CLIP ** 2) / 2
    return (cone + plateau) / total


def _run_cone_plateau(jumps, start, n_chains=1500, steps=800, seed=SEED):
    rng = np.random.default_rng(seed)

    def propose(state, scale):
        return (state[0] + rng.standard_normal(state[0].shape) * scale[:, None],)

    jump = J.ShootingJump(np.zeros((n_chains, 2)), SIGMA * J.SHOOTING_GRAM[0, 0], RADIUS) if jumps else None
    init = (np.tile(np.asarray(start, dtype=float), (n_chains, 1)),)
    state, _, _, _, jump_rate = K._tempered_sampler(init, _cone_plateau, propose, n_chains, steps, steps, 0.05,
                                                    SIGMA, RADIUS, rng, None, None, None, None, jump)
    return np.linalg.norm(state[0], axis=1), jump_rate


@pytest.mark.parametrize("start", [(1.0, 0.0), (0.0, 0.0)], ids=["plateau", "cone"])
def test_shooting_jumps_cross_the_cone_plateau_barrier(start):
    """Every chain started in the plateau (or at the peak): with the jump moves the chain ends follow the exact law
    (KS on |c|), about half of them in the cone; without them (negative control) the same test rejects."""
    radius, rate = _run_cone_plateau(True, start)
    assert 0.01 < rate < 1.0
    assert stats.kstest(radius, _cone_plateau_cdf).pvalue > ALPHA
    assert abs(np.mean(radius <= CLIP) - _cone_plateau_cdf(CLIP)) < 0.05
    stuck, _ = _run_cone_plateau(False, start, n_chains=600, steps=400)
    assert stats.kstest(stuck, _cone_plateau_cdf).pvalue < ALPHA


# ------------------------------------------------------------ stage 1: the volume factors on the tangent bundle
KAPPA = 1.5


def _sphere_law(manifold, peak):
    def log_target(state):
        p, v = state
        speed = np.linalg.norm(v, axis=1)
        dist = manifold.dist(np.broadcast_to(peak, p.shape), p, check=False)
        return np.where(speed <= 1.0, -KAPPA * dist, -np.inf)

    grid = np.linspace(0.0, np.pi, 20001)
    dens = np.exp(-KAPPA * grid) * np.sin(grid)
    cum = np.concatenate([[0.0], np.cumsum(0.5 * (dens[1:] + dens[:-1]) * np.diff(grid))])
    return log_target, lambda r: np.interp(r, grid, cum / cum[-1])


def _run_footpoint_jumps(n_chains=2000, steps=1200, seed=SEED):
    """Chains that move ONLY by jumps (the random-walk proposal is the identity) on S² x {|v| <= 1}, target
    exp(-kappa d(p, q)) (flat in v), cone at q, uniform component in normal coordinates at the north pole."""
    manifold = get_manifold("sphere", 2)
    centre = manifold.default_center()
    peak = manifold.exp(centre, manifold.from_frame(centre, np.array([1.0, 0.4])))
    log_target, cdf = _sphere_law(manifold, peak)
    jump = J.FootpointJump(manifold, peak, np.zeros(3), 0.3, centre, np.pi, 1.0, np.pi / 2)
    rng = np.random.default_rng(seed)
    init = (np.tile(centre, (n_chains, 1)), np.zeros((n_chains, 3)))
    state, _, _, _, rate = K._tempered_sampler(init, log_target, lambda s, scale: s, n_chains, steps, 0, 0.1, 0.1,
                                               1.0, rng, None, None, None, None, jump)
    p, v = state
    return manifold.dist(np.broadcast_to(peak, p.shape), p), np.sum(v * v, axis=1), cdf, rate


def test_footpoint_jumps_alone_give_the_exact_law_on_the_sphere():
    """Pure jump chains (an independence sampler on the tangent bundle): d(p, q) follows the density
    ∝ e^{-kappa r} sin r and |v|² is U(0, 1) (KS): the 1/J factors of both components and the transport of v are
    right."""
    dist, speed2, cdf, rate = _run_footpoint_jumps()
    assert 0.05 < rate < 1.0
    assert stats.kstest(dist, cdf).pvalue > ALPHA
    assert stats.kstest(speed2, stats.uniform(0, 1).cdf).pvalue > ALPHA


def test_a_missing_volume_factor_is_caught(monkeypatch):
    """Negative control: with the Jacobian of Exp dropped from the proposal density (flat-space volume) the
    same KS test rejects."""
    manifold = get_manifold("sphere", 2)
    monkeypatch.setattr(type(manifold), "log_volume_jacobian",
                        lambda self, base, vec: np.zeros(np.asarray(vec).shape[:-1]))
    dist, _, cdf, _ = _run_footpoint_jumps(n_chains=1500)
    assert stats.kstest(dist, cdf).pvalue < ALPHA


def test_shooting_peaks_solve_the_flat_normal_equation():
    """On R² the best shooting vector at a footpoint p is the least-squares slope sum x (y - p) / sum x²
    (clipping inactive), reached by the fixed Newton steps."""
    manifold = get_manifold("euclidean", 2)
    rng = np.random.default_rng(SEED)
    x = rng.uniform(0, 1, 40)
    y = np.array([0.2, -0.1]) + x[:, None] * np.array([0.7, 0.3]) + 0.01 * rng.standard_normal((40, 2))
    feet = np.array([[0.2, -0.1], [0.25, 0.0]])
    peaks = J.shooting_peaks(manifold, feet, x, y, 5.0, 10.0)
    expected = np.array([np.sum(x[:, None] * (y - f), axis=0) / np.sum(x * x) for f in feet])
    np.testing.assert_allclose(manifold.from_frame(feet, peaks), expected, atol=1e-10)
    assert math.isclose(log_ball_volume(3, 2.0), math.log(4 / 3 * math.pi * 8))
    assert math.isclose(log_sphere_area(3), math.log(4 * math.pi)) and math.isclose(log_sphere_area(1), math.log(2))


def test_a_failing_row_falls_back_to_rows_and_only_it_is_filled():
    """A linear-algebra error in a batch (one row leaves the representable range) must not cost the other rows:
    they are recomputed one by one and only the failing row gets the fill (-inf for a jump density, the floor for
    the chain's log target). A negative control: without a failing row, the batch is computed once."""
    calls = []

    def values(rows):
        calls.append(rows.copy())
        if 2 in rows:
            raise np.linalg.LinAlgError("singular")
        return rows * 10.0

    rows = np.array([0, 2, 5])
    assert J.values_or_fill(values, rows, -np.inf).tolist() == [0.0, -np.inf, 50.0]
    assert [c.tolist() for c in calls] == [[0, 2, 5], [0], [2], [5]]
    calls.clear()
    assert J.values_or_fill(values, np.array([1, 3]), -np.inf).tolist() == [10.0, 30.0]
    assert len(calls) == 1
    masked = K._masked(values, np.array([True, False, True, True]), 4)
    assert masked[0] == 0.0 and masked[1] == -np.inf and masked[3] == 30.0
    assert masked[2] == K._NUMERIC_FLOOR
