"""Privacy-loss distributions of calibrated releases and their composition.

Statistical tests: alpha = 1e-6 (Kolmogorov–Smirnov critical value, 5 standard errors for means), fixed seeds.
"""

import dataclasses
import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld_lib
from dp_accounting.rdp import rdp_privacy_accountant

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import gaussian_gdp, get_mechanism
from geodp_core.privacy import (
    GDP,
    ZCDP,
    ApproxDP,
    PureDP,
    compose_releases,
    privacy_loss_distribution,
    rdp_curve,
)
from geodp_core.privacy.conversions import rdp_curve_to_approx_dp
from geodp_core.privacy.pld import RDP_ORDERS, release_account

ALPHA = 1e-6
Z = 4.9  # two-sided normal quantile at alpha = 1e-6


def _ks_critical(n):
    return math.sqrt(math.log(2.0 / ALPHA) / (2.0 * n))


HALF_GDP = GDP(0.5)


def _calibrated(name, dim, mechanism="riemannian_gaussian", target=HALF_GDP, sensitivity=0.3):
    manifold = get_manifold(name, dim)
    return get_mechanism(mechanism, manifold).calibrate(target, sensitivity), manifold


def _pmf(pld):
    """(loss values, probabilities, mass at +inf) of a dp_accounting PLD (remove direction)."""
    dense = pld._pmf_remove.to_dense_pmf()
    values = (dense._lower_loss + np.arange(dense._probs.size)) * dense._discretization
    return values, np.asarray(dense._probs), dense._infinity_mass


def _monte_carlo_losses(space, dim, sigma, delta, n, rng):
    r"""Independent draws of L = (d(η', Y)² − d(η, Y)²)/(2σ²), Y ~ p_η, dist(η, η') = Δ: the mechanism's exact sampler
    and the manifold's distance (no code of the accounting)."""
    manifold = get_manifold(space, dim)
    eta = manifold.default_center()
    other = manifold.exp(eta, manifold.from_frame(eta, np.eye(dim)[0] * delta))
    mechanism = get_mechanism("riemannian_gaussian", manifold)
    calibration = mechanism.calibrate(GDP(1.0), delta)
    calibration = dataclasses.replace(calibration, noise={**calibration.noise, "sigma": float(sigma)})
    y = mechanism.sample(eta, calibration, n, rng)
    d1 = manifold.dist(eta, y)
    d2 = manifold.dist(other, y)
    return (d2**2 - d1**2) / (2.0 * sigma**2)


# ------------------------------------------------------------------------------------------------- one release
@pytest.mark.parametrize("name, dim", [("sphere", 2), ("hyperbolic", 2), ("sphere", 3), ("sphere", 1), ("hyperbolic", 1)])
def test_exact_profile_pld_is_pessimistic_and_tight(name, dim):
    cal, manifold = _calibrated(name, dim)
    pld = privacy_loss_distribution(cal, manifold)
    eps = np.sort(np.concatenate([np.linspace(0.0, 3.0, 173), [0.00123, 0.5001, 1.23456]]))  # between grid points
    exact = gaussian_gdp.privacy_profile(name, dim, cal.noise["sigma"], cal.sensitivity, eps)
    ours = np.asarray(pld.get_delta_for_epsilon(eps))
    assert np.all(ours >= exact)
    # tight: within 0.2% where δ ≥ 1e-6, 10% where δ ≥ 1e-10 (the chords of a steep far tail, or of the hard end
    # of the bounded loss on S¹), 1e-5 absolute
    for floor, rel in ((1e-6, 2e-3), (1e-10, 0.1)):
        body = exact >= floor
        assert np.all(ours[body] <= exact[body] * (1.0 + rel))
    assert np.all(ours <= exact + 1e-5)
    # and below the calibration's own μ-GDP profile (the exact profile is what μ was computed from)
    gaussian = pld_lib.from_gaussian_mechanism(1.0 / cal.native.mu)
    assert pld.get_epsilon_for_delta(1e-6) <= gaussian.get_epsilon_for_delta(1e-6) + 1e-3


@pytest.mark.slow
def test_kendall_triangles_and_larger_shape_spaces_use_the_exact_profile():
    from geodp_core.mechanisms.kendall_gdp import kendall_privacy_profile

    for k in (3, 4):
        manifold = get_manifold("kendall", k)
        cal = get_mechanism("riemannian_gaussian", manifold).calibrate(GDP(0.5), 0.1)
        account = release_account(cal, manifold)
        assert account.method == "exact_profile"
        pld = privacy_loss_distribution(cal, manifold)
        eps = np.array([0.0, 0.1, 0.37, 1.0, 2.0])
        exact = kendall_privacy_profile(k, cal.noise["sigma"], cal.sensitivity, eps)
        ours = np.asarray(pld.get_delta_for_epsilon(eps))
        assert np.all(ours >= exact) and np.all(ours <= exact * 1.01 + 1e-15)
    # pure-DP targets on Kendall spaces are calibrated by the bounded-diameter ε-DP bound: that is what is used
    manifold = get_manifold("kendall", 5)
    cal = get_mechanism("riemannian_gaussian", manifold).calibrate(PureDP(1.0), 0.1)
    assert release_account(cal, manifold).method == "pure_dp"


@pytest.mark.slow
@pytest.mark.parametrize("dim", [1, 3])
def test_euclidean_pld_equals_dp_accounting_gaussian_pld(dim):
    cal, manifold = _calibrated("euclidean", dim, target=GDP(0.7), sensitivity=0.4)
    ours = privacy_loss_distribution(cal, manifold)
    theirs = pld_lib.from_gaussian_mechanism(cal.noise["sigma"], sensitivity=0.4)
    eps = np.array([0.0, 0.05, 0.3, 1.0, 2.5, 5.0])
    for k in (1, 10):
        a = ours if k == 1 else ours.self_compose(k)
        b = theirs if k == 1 else theirs.self_compose(k)
        np.testing.assert_allclose(a.get_delta_for_epsilon(eps), b.get_delta_for_epsilon(eps), rtol=1e-6, atol=1e-12)
        assert a.get_epsilon_for_delta(1e-6) == pytest.approx(b.get_epsilon_for_delta(1e-6), abs=2e-4)


def test_pure_dp_release_is_randomized_response():
    cal, manifold = _calibrated("sphere", 2, "riemannian_laplace", PureDP(0.8), 0.2)
    pld = privacy_loss_distribution(cal, manifold)
    assert pld.get_delta_for_epsilon(0.0) == pytest.approx(math.tanh(0.4), rel=1e-3)
    assert pld.get_delta_for_epsilon(0.8 + 1e-3) == 0.0
    assert pld.get_epsilon_for_delta(1e-9) == pytest.approx(0.8, abs=2e-4)


def test_gdp_release_is_the_gaussian_pair():
    manifold = get_manifold("hyperbolic", 2)
    cal = get_mechanism("ew_gaussian", manifold).calibrate(GDP(0.6), 0.2)
    pld = privacy_loss_distribution(cal, manifold)
    ref = pld_lib.from_gaussian_mechanism(1.0 / cal.native.mu)
    assert pld.get_epsilon_for_delta(1e-5) == pytest.approx(ref.get_epsilon_for_delta(1e-5), rel=1e-9)
    assert release_account(cal, manifold).method == "gdp"


def test_zcdp_release_has_no_pld_but_composes_through_its_renyi_curve():
    manifold = get_manifold("sphere", 2)
    cal = get_mechanism("brownian_motion", manifold).calibrate(ZCDP(0.05), 0.1)
    with pytest.raises(UnavailableError, match="Rényi curve"):
        privacy_loss_distribution(cal, manifold)
    curve = rdp_curve(cal, manifold)
    np.testing.assert_allclose(curve, cal.native.rho * np.asarray(RDP_ORDERS), rtol=1e-12)
    composed = compose_releases([(cal, manifold)] * 10)
    # dp_accounting's RDP accountant (zCDP events) vs this project's RDP conversion of the summed curve
    ours, _ = rdp_curve_to_approx_dp(np.asarray(RDP_ORDERS), 10 * curve, 1e-6)
    assert composed.epsilon(1e-6) == pytest.approx(ours, rel=1e-6)
    assert composed.gdp_mu is None and composed.gdp_epsilon(1e-6) is None


def test_no_formal_guarantee_is_refused():
    manifold = get_manifold("spd", 2)
    cal = get_mechanism("riemannian_gaussian", manifold).calibrate(GDP(0.5), 0.1)
    assert cal.label == "no formal guarantee"
    with pytest.raises(UnavailableError, match="no proved"):
        privacy_loss_distribution(cal, manifold)


def test_bad_inputs_raise_value_errors_naming_the_parameter():
    cal, manifold = _calibrated("sphere", 2)
    with pytest.raises(InvalidParameterError, match="manifold") as info:
        privacy_loss_distribution(cal, get_manifold("sphere", 3))
    assert info.value.param == "manifold"
    with pytest.raises(InvalidParameterError, match="calibration"):
        privacy_loss_distribution("cal", manifold)
    with pytest.raises(InvalidParameterError, match="sampling_probability"):
        privacy_loss_distribution(cal, manifold, sampling_probability=1.5)
    with pytest.raises(InvalidParameterError, match="releases"):
        compose_releases([])
    with pytest.raises(InvalidParameterError, match="releases"):
        compose_releases([cal])
    with pytest.raises(InvalidParameterError, match="sampling_probability"):
        compose_releases([(cal, manifold)], sampling_probability=[0.5, 0.5])


# ------------------------------------------------------------------------------------------------ composition
@pytest.mark.slow
@pytest.mark.parametrize("name, dim, k", [("sphere", 2, 5), ("hyperbolic", 2, 3)])
def test_composed_pld_matches_monte_carlo_of_the_composed_loss(name, dim, k):
    cal, manifold = _calibrated(name, dim, target=GDP(0.6), sensitivity=0.3)
    composed = compose_releases([(cal, manifold)] * k)
    n = 20_000
    rng = np.random.default_rng(2024)
    losses = sum(_monte_carlo_losses(name, dim, cal.noise["sigma"], cal.sensitivity, n, rng) for _ in range(k))
    values, probs, inf_mass = _pmf(composed.pld)
    assert inf_mass < 1e-12 and abs(probs.sum() + inf_mass - 1.0) < 1e-6
    # KS: the composed PLD's CDF against the empirical CDF of the summed losses
    sample = np.sort(losses)
    cdf = np.cumsum(probs)
    at = np.searchsorted(values, sample, side="right") - 1
    model = np.where(at >= 0, cdf[np.clip(at, 0, None)], 0.0)
    ecdf_hi = np.arange(1, n + 1) / n
    ecdf_lo = np.arange(0, n) / n
    ks = max(np.max(np.abs(ecdf_hi - model)), np.max(np.abs(model - ecdf_lo)))
    assert ks < _ks_critical(n)
    # δ(ε) of the PLD is never below the Monte Carlo estimate (up to its error), and close to it
    for eps in (0.0, 0.25, 0.5, 1.0, 1.5):
        terms = np.maximum(1.0 - np.exp(eps - losses), 0.0)
        mc, se = terms.mean(), terms.std(ddof=1) / math.sqrt(n)
        ours = composed.delta(eps)
        assert ours >= mc - Z * se
        assert ours <= mc + Z * se + 1e-3


def test_heterogeneous_composition_and_the_classical_bounds():
    s2 = get_manifold("sphere", 2)
    h2 = get_manifold("hyperbolic", 2)
    gauss = get_mechanism("riemannian_gaussian", s2).calibrate(GDP(0.3), 0.1)
    lap = get_mechanism("riemannian_laplace", h2).calibrate(PureDP(0.3), 0.1)
    bm = get_mechanism("brownian_motion", s2).calibrate(ZCDP(0.02), 0.1)
    pure_gauss = compose_releases([(gauss, s2), (lap, h2)] * 5)
    delta = 1e-6
    tight = pure_gauss.epsilon(delta)
    assert tight <= pure_gauss.gdp_epsilon(delta) + 1e-3
    assert tight < pure_gauss.basic_epsilon(delta) and tight < pure_gauss.rdp_epsilon(delta)
    assert pure_gauss.delta(tight) <= delta * (1 + 1e-6)
    # with a zCDP release: PLD part + Rényi part joined by basic composition, never better than either alone
    mixed = compose_releases([(gauss, s2), (lap, h2), (bm, s2)])
    assert math.isfinite(mixed.epsilon(delta))
    assert mixed.epsilon(delta) >= compose_releases([(gauss, s2), (lap, h2)]).epsilon(delta)
    assert mixed.epsilon(delta) <= mixed.basic_epsilon(delta) + 1e-9
    assert 0.0 < mixed.delta(2.0) < 1.0
    summary = mixed.summary(delta)
    assert set(summary) == {"k", "delta", "tight", "basic", "gdp", "rdp"} and summary["gdp"] is None


def test_rdp_path_matches_dp_accounting_for_gaussian_releases():
    cal, manifold = _calibrated("sphere", 2, target=GDP(0.4))
    composed = compose_releases([(cal, manifold)] * 20)
    accountant = rdp_privacy_accountant.RdpAccountant(list(RDP_ORDERS))
    from dp_accounting import dp_event

    accountant.compose(dp_event.GaussianDpEvent(1.0 / cal.native.mu), 20)
    assert composed.rdp_epsilon(1e-6) == pytest.approx(accountant.get_epsilon(1e-6), rel=1e-9)


def test_poisson_subsampling_of_gdp_releases():
    manifold = get_manifold("hyperbolic", 2)
    cal = get_mechanism("ew_gaussian", manifold).calibrate(GDP(1.0), 0.2)
    full = compose_releases([(cal, manifold)] * 10)
    sub = compose_releases([(cal, manifold)] * 10, sampling_probability=0.1)
    assert sub.epsilon(1e-6) < 0.5 * full.epsilon(1e-6)
    ref = pld_lib.from_gaussian_mechanism(1.0 / cal.native.mu, sampling_prob=0.1).self_compose(10)
    assert sub.epsilon(1e-6) == pytest.approx(ref.get_epsilon_for_delta(1e-6), rel=1e-9)
    lap = get_mechanism("riemannian_laplace", manifold).calibrate(PureDP(1.0), 0.2)
    with pytest.raises(UnavailableError, match="subsampling"):
        compose_releases([(lap, manifold)], sampling_probability=0.5)


def test_savings_grow_with_the_number_of_releases():
    cal, manifold = _calibrated("sphere", 2, target=ApproxDP(1.0, 1e-6), sensitivity=0.1)
    eps = {}
    for k in (1, 10, 100):
        c = compose_releases([(cal, manifold)] * k)
        eps[k] = (c.epsilon(1e-6), c.basic_epsilon(1e-6), c.gdp_epsilon(1e-6))
        assert eps[k][0] <= eps[k][2] + 2e-3  # tight never (materially) above the GDP composition
    assert eps[1][0] <= 1.0 + 1e-3  # one release meets its (ε, δ) target
    assert eps[100][1] / eps[100][0] > 5.0  # basic composition is far looser at k = 100


def test_releases_with_equal_mu_but_different_noise_are_not_merged():
    import dataclasses

    from geodp_core.privacy.pld import _account_key

    a, manifold = _calibrated("sphere", 2, sensitivity=0.1)
    b, _ = _calibrated("sphere", 2, sensitivity=0.6)
    b = dataclasses.replace(b, native=a.native, achieved=a.achieved)  # same stated μ, another (σ, Δ)
    key_a, key_b = _account_key(release_account(a, manifold)), _account_key(release_account(b, manifold))
    assert key_a != key_b
    both = compose_releases([(a, manifold), (b, manifold)])
    separate = privacy_loss_distribution(a, manifold).compose(privacy_loss_distribution(b, manifold))
    assert both.delta(0.5) == pytest.approx(separate.get_delta_for_epsilon(0.5), rel=1e-12)
