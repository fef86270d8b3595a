"""Tests of the generic Riemannian random-walk Metropolis–Hastings sampler (mcmc.py).

Statistical tests: one KS test per case at alpha = 1e-6 with fixed seeds, so a correct
sampler fails a given case with probability <= 1e-6 (plus the residual bias of the finite
chains, kept small by the chain lengths chosen here).
"""

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError, OffManifoldError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.radial import get_radial_law
from geodp_core.mechanisms.mcmc import MCMCResult, riemannian_metropolis_hastings

ALPHA = 1e-6


def _gaussian_target(manifold, center, sigma):
    return lambda points: -0.5 * (manifold.dist(center, points, check=False) / sigma) ** 2


def test_euclidean_gaussian_target():
    # |x|^2 / sigma^2 ~ chi2(3) under the target. Power against a wrong acceptance rule
    # (e.g. the ratio inverted, or the current state not kept on rejection).
    manifold = get_manifold("euclidean", 3)
    center = np.array([1.0, -2.0, 0.5])
    sigma = 0.7
    result = riemannian_metropolis_hastings(
        manifold, _gaussian_target(manifold, center, sigma), center, 3000, 150, 1.0, np.random.default_rng(11)
    )
    assert isinstance(result, MCMCResult)
    assert result.samples.shape == (3000, 3)
    radius_sq = np.sum((result.samples - center) ** 2, axis=1) / sigma**2
    assert stats.kstest(radius_sq, stats.chi2(3).cdf).pvalue > ALPHA


def test_sphere_von_mises_fisher_target_with_wrapping_proposals():
    # vMF on S^2: w = cos dist(c, Y) has density ∝ exp(kappa w) on [-1, 1]. Large proposal
    # steps wrap around the sphere (several preimages of Exp): the proposal is still
    # symmetric (isometry argument). Power against a spurious Jacobian correction
    # (sin r / r factor) in the acceptance ratio, which would distort the law of w.
    manifold = get_manifold("sphere", 2)
    center = manifold.default_center()
    kappa = 1.0
    result = riemannian_metropolis_hastings(
        manifold, lambda p: kappa * (p @ center), center, 3000, 100, 2.0, np.random.default_rng(12), adapt=False,
        burn_in=0,
    )
    w = result.samples @ center
    cdf = lambda t: (np.exp(kappa * t) - np.exp(-kappa)) / (np.exp(kappa) - np.exp(-kappa))
    assert stats.kstest(w, cdf).pvalue > ALPHA
    assert 0.0 < result.acceptance_rate < 1.0


@pytest.mark.parametrize("dim", [2, 3])
def test_hyperbolic_gaussian_target(dim):
    # Radius law ∝ exp(-r^2/2 sigma^2) sinh(r)^(d-1) (RadialLaw quadrature CDF). With sigma = 1
    # the volume growth matters: power against a missing or spurious volume Jacobian.
    manifold = get_manifold("hyperbolic", dim)
    center = manifold.default_center()
    sigma = 1.0
    result = riemannian_metropolis_hastings(
        manifold, _gaussian_target(manifold, center, sigma), center, 3000, 250, 1.0, np.random.default_rng(13 + dim)
    )
    law = get_radial_law("hyperbolic", dim, "gaussian", sigma)
    radii = manifold.dist(center, result.samples)
    assert stats.kstest(radii, law.cdf).pvalue > ALPHA


def test_negative_control_detects_wrong_target():
    # Negative control: the same chains targeting the Gaussian law *with an extra volume factor*
    # (what a wrong Hastings correction would produce) are rejected by the KS test, so the
    # tests above have power against that bug.
    manifold = get_manifold("hyperbolic", 2)
    center = manifold.default_center()

    def wrong(points):
        r = manifold.dist(center, points, check=False)
        return -0.5 * r**2 - np.log(np.sinc(1j * r / np.pi).real)  # divides by sinh(r)/r

    result = riemannian_metropolis_hastings(manifold, wrong, center, 3000, 250, 1.0, np.random.default_rng(3))
    law = get_radial_law("hyperbolic", 2, "gaussian", 1.0)
    assert stats.kstest(manifold.dist(center, result.samples), law.cdf).pvalue < ALPHA


def test_spd_affine_gaussian_target():
    # SPD(2) affine-invariant: radius law ∝ exp(-rho^2/2 sigma^2) rho L0(rho/sqrt2) (Struve closed form,
    # checked against a 2-D quadrature in test_riemannian_laplace.py). Power against a non-symmetric
    # proposal on a space of non-constant curvature.
    from geodp_core.mechanisms.riemannian_laplace import _spd2_radius_law

    manifold = get_manifold("spd", 2, "affine")
    center = np.array([[2.0, 0.3], [0.3, 0.5]])
    sigma = 0.8
    result = riemannian_metropolis_hastings(
        manifold, _gaussian_target(manifold, center, sigma), center, 1500, 150, 1.0, np.random.default_rng(21)
    )
    radii = manifold.dist(center, result.samples)
    assert stats.kstest(radii, _spd2_radius_law("gaussian", sigma).cdf).pvalue > ALPHA
    assert manifold.belongs(result.samples).all()


def test_diagnostics_and_adaptation():
    manifold = get_manifold("sphere", 2)
    center = manifold.default_center()
    target = _gaussian_target(manifold, center, 0.1)
    # a proposal 30x too wide: acceptance tiny without adaptation, near the target with it
    fixed = riemannian_metropolis_hastings(manifold, target, center, 500, 50, 3.0, np.random.default_rng(0),
                                           burn_in=100, adapt=False)
    adapted = riemannian_metropolis_hastings(manifold, target, center, 500, 50, 3.0, np.random.default_rng(0),
                                             burn_in=300, adapt=True, target_acceptance=0.3)
    assert fixed.acceptance_rate < 0.05
    assert 0.15 < adapted.acceptance_rate < 0.5
    assert np.allclose(fixed.proposal_scale, 3.0) and np.median(adapted.proposal_scale) < 1.0
    assert adapted.chain_acceptance.shape == (500,) and adapted.n_steps == 50 and adapted.burn_in == 300
    assert "burn-in 300 + 50 steps" in adapted.describe()


def test_reproducible_and_accepts_per_chain_init():
    manifold = get_manifold("hyperbolic", 2)
    center = manifold.default_center()
    target = _gaussian_target(manifold, center, 0.5)
    a = riemannian_metropolis_hastings(manifold, target, center, 10, 5, 0.3, np.random.default_rng(5))
    b = riemannian_metropolis_hastings(manifold, target, center, 10, 5, 0.3, np.random.default_rng(5))
    np.testing.assert_array_equal(a.samples, b.samples)
    inits = manifold.exp(center, manifold.from_frame(center, np.random.default_rng(1).normal(size=(10, 2))))
    c = riemannian_metropolis_hastings(manifold, target, inits, 10, 5, 0.3, np.random.default_rng(5))
    assert c.samples.shape == (10, 3) and manifold.belongs(c.samples).all()


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"manifold": "sphere"}, "manifold"),
        ({"log_target": 3.0}, "log_target"),
        ({"log_target": lambda p: np.zeros(2)}, "log_target"),  # wrong output shape
        ({"log_target": lambda p: np.full(len(p), np.nan)}, "log_target"),
        ({"log_target": lambda p: np.full(len(p), -np.inf)}, "init"),  # zero density at init
        ({"init": np.array([0.0, 0.0, 2.0])}, "init"),  # off the sphere
        ({"init": np.tile(np.array([0.0, 0.0, 1.0]), (3, 1))}, "init"),  # wrong number of chains
        ({"n_chains": 0}, "n_chains"),
        ({"n_steps": 0}, "n_steps"),
        ({"n_steps": 2.5}, "n_steps"),
        ({"proposal_scale": 0.0}, "proposal_scale"),
        ({"proposal_scale": float("nan")}, "proposal_scale"),
        ({"rng": None}, "rng"),
        ({"burn_in": -1}, "burn_in"),
        ({"adapt": 1}, "adapt"),
        ({"target_acceptance": 1.0}, "target_acceptance"),
    ],
)
def test_validation_names_the_parameter(kwargs, param):
    manifold = get_manifold("sphere", 2)
    center = manifold.default_center()
    args = {
        "manifold": manifold,
        "log_target": lambda p: -manifold.dist(center, p, check=False),
        "init": center,
        "n_chains": 4,
        "n_steps": 3,
        "proposal_scale": 0.5,
        "rng": np.random.default_rng(0),
    }
    args.update(kwargs)
    with pytest.raises(InvalidParameterError, match=param) as info:
        riemannian_metropolis_hastings(**args)
    assert info.value.param == param


def test_init_off_manifold_is_offmanifold_error():
    manifold = get_manifold("hyperbolic", 2)
    with pytest.raises(OffManifoldError, match="init"):
        riemannian_metropolis_hastings(manifold, lambda p: np.zeros(len(p)), np.array([0.5, 0.0, 0.0]), 2, 2, 0.1,
                                       np.random.default_rng(0))
