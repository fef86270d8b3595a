"""Tests of the Riemannian Gaussian mechanism (docs/specification.md §5.2).

Statistical tests: each KS test is run at alpha = 1e-6 with a fixed seed (type-I error
<= 1e-6 per test); importance-weight checks use 6 standard errors (type-I error ~2e-9
under normality). Each names the bug it has power against.
"""

import numpy as np
import pytest
from scipy import stats

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.radial import get_radial_law
from geodp_core.mechanisms import LABEL_APPROXIMATE, LABEL_EXACT, LABEL_NO_GUARANTEE, get_mechanism
from geodp_core.mechanisms.gaussian_gdp import CALIBRATION_WASTE, gdp_mu, riemannian_gaussian_calibration
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP, implies
from tests.mechanisms.contract import MechanismContract

ALPHA = 1e-6
N_KS = 20_000


def generic_center(manifold):
    base = manifold.default_center()
    coords = np.linspace(0.2, 0.5, manifold.dim)
    return manifold.exp(base, manifold.from_frame(base, coords))


# ----------------------------------------------------------------------------- contract
# The exact accounting costs about a second per new (space, dim, mu, Delta): the tests share
# mu = 1 and Delta = 0.3 (cached) wherever the check does not need other values.
MU, DELTA = 1.0, 0.3


class _GaussianContract(MechanismContract):
    name = "riemannian_gaussian"
    target = GDP(MU)
    sensitivity = DELTA


class TestContractSphere(_GaussianContract):
    manifold_args = ("sphere", 2)


class TestContractCircle(_GaussianContract):
    manifold_args = ("sphere", 1)


class TestContractHyperbolic(_GaussianContract):
    manifold_args = ("hyperbolic", 2)


class TestContractEuclidean(_GaussianContract):
    manifold_args = ("euclidean", 3)


class TestContractSPDAffine(_GaussianContract):
    manifold_args = ("spd", 2, "affine")


class TestContractSPDLogEuclidean(_GaussianContract):
    manifold_args = ("spd", 2, "log_euclidean")


class TestContractMH(_GaussianContract):
    manifold_args = ("hyperbolic", 2)
    calibrate_options = {"sampler": "mh", "burn_in": 20, "n_steps": 20}


# ------------------------------------------------------------------ exact sampler laws
@pytest.mark.parametrize("args", [("sphere", 2), ("sphere", 3), ("hyperbolic", 2), ("hyperbolic", 3), ("euclidean", 3),
                                  ("sphere", 1)])
def test_distance_law_matches_radial_law(args):
    # dist(eta, Y) must follow ∝ exp(-r^2/2 sigma^2) J(r). Power against a wrong Exp scaling,
    # a missing J(r) factor, or radius and direction composed wrongly at a generic base point.
    manifold = get_manifold(*args)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal = mech.calibrate(GDP(MU), DELTA)
    center = generic_center(manifold)
    radii = manifold.dist(center, mech.sample(center, cal, N_KS, np.random.default_rng(200 + manifold.dim)))
    law = get_radial_law(manifold, None, "gaussian", cal.noise["sigma"])
    assert stats.kstest(radii, law.cdf).pvalue > ALPHA


@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 3), ("spd", 2, "affine")])
def test_directions_uniform(args):
    # Mean unit direction (frame coordinates of Log_eta Y / |Log_eta Y|) is 0 within 6 standard errors.
    manifold = get_manifold(*args)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal = mech.calibrate(GDP(MU), DELTA)
    center = generic_center(manifold)
    out = mech.sample(center, cal, N_KS, np.random.default_rng(5))
    coords = manifold.to_frame(center, manifold.log(center, out))
    units = coords / np.linalg.norm(coords, axis=1, keepdims=True)
    assert np.all(np.abs(units.mean(axis=0)) < 6 * np.sqrt(1.0 / manifold.dim / N_KS))


@pytest.mark.parametrize("dim", [1, 3])
def test_euclidean_limit_mu_is_delta_over_sigma(dim):
    manifold = get_manifold("euclidean", dim)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal = mech.calibrate(GDP(0.8), 0.2)
    assert cal.noise["sigma"] == pytest.approx(0.25, rel=1e-15) and cal.label == LABEL_EXACT
    assert 0.2 / cal.noise["sigma"] <= 0.8 and cal.native.mu == 0.2 / cal.noise["sigma"]
    center = np.zeros(dim)
    radii = np.linalg.norm(mech.sample(center, cal, N_KS, np.random.default_rng(dim)), axis=1)
    assert stats.kstest(radii / cal.noise["sigma"], stats.chi(dim).cdf).pvalue > ALPHA


@pytest.mark.parametrize("metric", ["log_euclidean", "log_cholesky"])
def test_flat_spd_is_chart_gaussian(metric):
    # sigma = Delta/mu exactly; dist/sigma ~ chi_d with d = 3 on SPD(2).
    manifold = get_manifold("spd", 2, metric)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal = mech.calibrate(GDP(2.0), 0.5)
    assert cal.noise["sigma"] == pytest.approx(0.25, rel=1e-15) and cal.label == LABEL_EXACT
    center = generic_center(manifold)
    radii = manifold.dist(center, mech.sample(center, cal, N_KS, np.random.default_rng(8)))
    assert stats.kstest(radii / 0.25, stats.chi(3).cdf).pvalue > ALPHA


def test_spd_affine_law_and_honest_label():
    # Exact polar sampler: dist law vs the Struve radial marginal (cross-checked against a 2-D
    # quadrature in test_riemannian_laplace.py); power against a polar sampler without the sinh factor.
    manifold = get_manifold("spd", 2, "affine")
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal = mech.calibrate(GDP(0.5), 0.4)
    assert cal.label == LABEL_NO_GUARANTEE and cal.noise["sigma"] == pytest.approx(0.8)
    assert any("NO formal guarantee" in note for note in cal.notes)
    center = generic_center(manifold)
    radii = manifold.dist(center, mech.sample(center, cal, N_KS, np.random.default_rng(10)))
    assert stats.kstest(radii, lambda x: mech.distance_cdf(cal, x)).pvalue > ALPHA
    assert stats.kstest(radii / 0.8, stats.chi(3).cdf).pvalue < ALPHA  # the flat law is distinguishable


# ------------------------------------------------------------------ exact accounting
@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("sphere", 1)])
def test_exact_accounting_on_the_safe_side(args):
    manifold = get_manifold(*args)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal = mech.calibrate(GDP(MU), DELTA)
    mu = gdp_mu(manifold.name, manifold.dim, cal.noise["sigma"], DELTA)
    assert (1.0 - CALIBRATION_WASTE) * MU <= mu <= MU  # at most 1% of the budget unused, never exceeded
    assert cal.achieved == GDP(mu) and cal.native == GDP(mu)


def test_fast_calibration_window_and_cost():
    """σ from the small-Δ Fisher guess, verified by ONE exact quadrature in most cases; μ always in the window."""
    rng = np.random.default_rng(0)
    counts = []
    for space in ("sphere", "hyperbolic"):
        for dim in (2, 3, 7):
            for _ in range(6):
                mu = float(np.exp(rng.uniform(np.log(0.05), np.log(20.0))))
                delta = float(np.exp(rng.uniform(np.log(1e-3), np.log(1.5 if space == "sphere" else 0.5))))
                try:
                    sigma, achieved, n_quad = riemannian_gaussian_calibration(space, dim, mu, delta)
                except UnavailableError:  # H^d: below the infimum of mu(sigma)
                    continue
                assert achieved == gdp_mu(space, dim, sigma, delta)  # the claim is the exact quadrature's
                assert (1.0 - CALIBRATION_WASTE) * mu <= achieved <= mu, (space, dim, mu, delta)
                counts.append(n_quad)
    assert len(counts) >= 25 and np.mean(counts) <= 1.5, counts


@pytest.mark.parametrize("target", [ApproxDP(1.0, 1e-5), RDP(4.0, 2.0), ZCDP(0.5)], ids=lambda t: t.notion)
def test_conversions_to_target_notion(target):
    mech = get_mechanism("riemannian_gaussian", get_manifold("sphere", 2))
    cal = mech.calibrate(target, DELTA)
    assert implies(cal.achieved, target) and type(cal.achieved) is type(target)
    assert implies(cal.native, target)  # the achieved mu itself implies the target
    assert any("μ-GDP" in note for note in cal.notes)


def test_pure_dp_target_unavailable_with_reason():
    mech = get_mechanism("riemannian_gaussian", get_manifold("sphere", 2))
    with pytest.raises(UnavailableError, match="unbounded privacy loss"):
        mech.calibrate(PureDP(1.0), 0.1)


def test_sphere_sensitivity_capped_at_diameter():
    mech = get_mechanism("riemannian_gaussian", get_manifold("sphere", 2))
    cal = mech.calibrate(GDP(3.0), 4.0)
    assert any("diameter" in note for note in cal.notes)
    assert gdp_mu("sphere", 2, cal.noise["sigma"], np.pi) <= 3.0  # pairs are at most pi apart


@pytest.mark.parametrize(
    "options, param",
    [({"sampler": "exact", "burn_in": 5}, "burn_in"), ({"sampler": "mh", "n_steps": -1}, "n_steps"),
     ({"sigma": 0.3}, "sigma")],
)
def test_bad_options_name_the_option(options, param):
    mech = get_mechanism("riemannian_gaussian", get_manifold("euclidean", 2))
    with pytest.raises(InvalidParameterError, match=param):
        mech.calibrate(GDP(1.0), 0.1, **options)


# ---------------------------------------------------- density / sampler consistency
@pytest.mark.parametrize("args", [("sphere", 2), ("hyperbolic", 2), ("hyperbolic", 3), ("euclidean", 3),
                                  ("spd", 2, "affine"), ("spd", 2, "log_euclidean")])
def test_importance_weights_average_to_one(args):
    # Sample Y from the Riemannian Laplace law (exact sampler, heavier tails), weight by
    # p_RG(Y)/p_RL(Y) with both normalisers from the radial laws: E[w] = 1. Power against a wrong
    # normaliser (e.g. a missing |S^{d-1}| or J factor) or a sampler whose law is not p_RL.
    manifold = get_manifold(*args)
    laplace = get_mechanism("riemannian_laplace", manifold)
    gauss = get_mechanism("riemannian_gaussian", manifold)
    cal_l = laplace.calibrate(PureDP(1.0), DELTA)
    cal_g = gauss.calibrate(GDP(MU), DELTA)
    center = generic_center(manifold)
    y = laplace.sample(center, cal_l, 40_000, np.random.default_rng(30))
    w = np.exp(gauss.log_density(center, y, cal_g, normalised=True)
               - laplace.log_density(center, y, cal_l, normalised=True))
    assert abs(w.mean() - 1.0) < 6 * w.std() / np.sqrt(w.size)
    assert w.std() / np.sqrt(w.size) < 0.02  # the check is informative


def test_expected_distance_matches_samples_and_closed_form():
    mech = get_mechanism("riemannian_gaussian", get_manifold("euclidean", 4))
    cal = mech.calibrate(GDP(1.0), 1.0)
    # E|N(0, I_4)| = sqrt2 Gamma(5/2)/Gamma(2) = 3 sqrt(pi)/(4/sqrt2)
    assert mech.expected_distance(cal) == pytest.approx(np.sqrt(2) * 0.75 * np.sqrt(np.pi), rel=1e-12)
    for args in [("hyperbolic", 2), ("sphere", 2), ("spd", 2, "affine")]:
        manifold = get_manifold(*args)
        mech = get_mechanism("riemannian_gaussian", manifold)
        cal = mech.calibrate(GDP(MU), DELTA)
        center = manifold.default_center()
        radii = manifold.dist(center, mech.sample(center, cal, N_KS, np.random.default_rng(1)))
        assert abs(mech.expected_distance(cal) - radii.mean()) < 6 * radii.std() / np.sqrt(N_KS)


def test_mh_agrees_with_exact_sampler():
    # Two-sample KS (alpha = 1e-6) on dist(eta, Y) on H^2; acceptance rate reported in last_mcmc.
    manifold = get_manifold("hyperbolic", 2)
    mech = get_mechanism("riemannian_gaussian", manifold)
    cal_mh = mech.calibrate(GDP(MU), DELTA, sampler="mh", burn_in=150, n_steps=250)
    cal = mech.calibrate(GDP(MU), DELTA)
    assert cal_mh.label == LABEL_APPROXIMATE and cal_mh.noise == cal.noise
    center = generic_center(manifold)
    mh = manifold.dist(center, mech.sample(center, cal_mh, 3000, np.random.default_rng(1)))
    exact = manifold.dist(center, mech.sample(center, cal, 3000, np.random.default_rng(2)))
    assert stats.ks_2samp(mh, exact).pvalue > ALPHA
    assert 0.15 < mech.last_mcmc.acceptance_rate < 0.6
