"""The KNG regression samplers: parallel tempering with multi-scale proposals against exact laws (KS tests),
split-R̂ and effective sample size against known cases, and the rule that no tuning decision reads the private
data (the chains on the private data use the ladder and the proposal scales fixed on the public proxy).

Every statistical test uses alpha = 1e-6 and a fixed seed."""

import warnings

import numpy as np
import pytest
from scipy import stats

from geodp_core.data import sample_geodesic_regression
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import kng_regression as K
from geodp_core.mechanisms.kng_regression import (
    RegressionPrivacyWarning,
    effective_sample_size,
    kng_geodesic_regression,
    split_rhat,
    temperature_ladder,
)

SEED = 20261127
ALPHA = 1e-6


# ------------------------------------------------------------ the tempered kernel on exact laws
def _bimodal(weight=0.25, centre=3.0, width=0.1):
    """Log density and CDF of the mixture weight * Laplace(-c, w) + (1 - weight) * Laplace(c, w) on R."""

    def log_target(state):
        x = state[0][:, 0]
        return np.logaddexp(np.log(weight) - np.abs(x + centre) / width,
                            np.log1p(-weight) - np.abs(x - centre) / width)

    def cdf(x):
        return weight * stats.laplace(-centre, width).cdf(x) + (1 - weight) * stats.laplace(centre, width).cdf(x)

    return log_target, cdf


def _run_bimodal(betas, n_chains=1500, steps=400, seed=SEED):
    log_target, cdf = _bimodal()
    rng = np.random.default_rng(seed)

    def propose(state, scale):
        return (state[0] + rng.standard_normal(state[0].shape) * scale[:, None],)

    start = (np.full((n_chains, 1), -3.0),)  # every chain starts in the SMALL mode
    state, acc, scales, swap, _ = K._tempered_sampler(start, log_target, propose, n_chains, steps, steps, 0.1, 0.1,
                                                      10.0, rng, betas, None, None, None)
    return state[0][:, 0], cdf, acc, swap


def test_tempered_sampler_recovers_the_weights_of_two_separated_modes():
    """A mixture 0.25 Laplace(-3, 0.1) + 0.75 Laplace(3, 0.1), every chain started in the small mode: the tempered
    kernel (ladder for L = 60) gives the exact law (KS of 1500 chain ends, alpha = 1e-6), so the swap rule and the
    multi-scale proposals leave the target invariant and cross the 60-nat barrier. Power: a wrong swap ratio or a
    chain stuck at its start puts the wrong mass in the modes (KS distance >= 0.2)."""
    draws, cdf, acc, swap = _run_bimodal(temperature_ladder(60, 2.0, 1.0))
    assert 0.05 < swap < 1.0 and acc.mean() > 0.05
    result = stats.kstest(draws, cdf)
    assert result.pvalue > ALPHA, result
    assert abs(np.mean(draws < 0) - 0.25) < 0.05


def test_a_wrong_law_is_rejected_by_the_same_test():
    """Negative control of the test above: the untempered chains (one rung) leave too much mass in the mode they
    started in, and
    the KS test rejects them at alpha = 1e-6."""
    draws, cdf, _, _ = _run_bimodal(None, n_chains=600, steps=200)
    assert stats.kstest(draws, cdf).pvalue < ALPHA
    assert np.mean(draws < 0) > 0.4  # far too much mass left in the small mode


def test_tempered_shooting_stage_with_frozen_scales_is_laplace_in_the_euclidean_limit():
    """R^1, p fixed: f_2 is Laplace(v*, sigma/S) (S = mean x^2; clipping inactive). The tempered stage-2 chains with
    the public ladder and FROZEN scales (no adaptation, as on the private data) give it: KS of 600 chains,
    alpha = 1e-6."""
    manifold = get_manifold("euclidean", 1)
    rng = np.random.default_rng(SEED)
    x, y = sample_geodesic_regression(manifold, np.array([0.3]), np.array([0.8]), 20, 0.05, rng)
    p = np.full((600, 1), 0.25)
    s_xx = np.mean(x * x)
    v_star = np.sum(x * (y[:, 0] - 0.25)) / np.sum(x * x)
    sigma = 0.02
    betas = temperature_ladder(20, 1.0, 2.0)
    assert betas.size > 3
    scales = 0.05 / np.sqrt(betas)
    v, acc, used = K._shooting_chain(manifold, x, y, p, sigma, 5.0, 50.0, np.zeros_like(p), 200, 150, 1.0, rng,
                                     betas=betas, scales=scales)
    np.testing.assert_allclose(used, scales)  # frozen: returned unchanged
    assert 0.1 < acc.mean() < 0.9
    result = stats.kstest(v[:, 0], stats.laplace(loc=v_star, scale=sigma / s_xx).cdf)
    assert result.pvalue > ALPHA, result


def test_tempered_tangent_bundle_chain_is_uniform_for_a_flat_target():
    """sigma -> inf with a ladder of several rungs: still uniform on S^2 x {|v| <= 1} (p_z ~ U(-1, 1),
    |v|^2 ~ U(0, 1); KS, alpha = 1e-6): the swaps and the long jumps keep the Liouville measure invariant."""
    manifold = get_manifold("sphere", 2)
    rng = np.random.default_rng(SEED)
    p0 = manifold.default_center()
    x, y = sample_geodesic_regression(manifold, p0, np.array([0.6, -0.3, 0.0]), 5, 0.02, rng)
    p, v, _, _ = K._joint_footpoint_chain(manifold, x, y, 1e12, None, 1.0, p0, None, p0, np.zeros(3), 600, 120,
                                          40, 1.0, rng, betas=temperature_ladder(8, 2.0))
    assert stats.kstest(p[:, 2], stats.uniform(-1, 2).cdf).pvalue > ALPHA
    assert stats.kstest(np.sum(v * v, axis=1), stats.uniform(0, 1).cdf).pvalue > ALPHA


def test_temperature_ladder_is_public_and_spans_the_log_density_range():
    for n, eps, factor in ((50, 1.0, 2.0), (100, 1.0, 1.0), (20, 0.1, 2.0)):
        betas = temperature_ladder(n, eps, factor)
        spread = n * eps / (2 * factor)
        assert betas[0] == 1.0 and np.all(np.diff(betas) < 0)
        np.testing.assert_allclose(betas[1:] / betas[:-1], 2 ** -0.5)
        assert betas[-1] * spread <= 1.0 + 1e-12 or betas.size == K._MAX_RUNGS
        assert betas.size == 1 or betas[-2] * spread > 1.0
    assert temperature_ladder(50, 0.02).size == 1  # a flat law needs no tempering


# ------------------------------------------------------------ R-hat and ESS on known cases
def _ar1(phi, n=4000, m=8, seed=SEED):
    rng = np.random.default_rng(seed)
    noise = rng.standard_normal((n, m, 2)) * np.sqrt(1 - phi ** 2)
    out = np.empty_like(noise)
    out[0] = rng.standard_normal((m, 2))
    for t in range(1, n):
        out[t] = phi * out[t - 1] + noise[t]
    return out


def test_effective_sample_size_of_independent_and_ar1_draws():
    """iid draws: ESS ~ m n; AR(1) with coefficient phi: ESS ~ m n (1 - phi)/(1 + phi) (its integrated
    autocorrelation time is (1 + phi)/(1 - phi)). Within 15% with 8 chains of 4000 draws (fixed seed)."""
    iid = _ar1(0.0)
    np.testing.assert_allclose(effective_sample_size(iid), iid.shape[0] * iid.shape[1], rtol=0.15)
    for phi in (0.5, 0.9):
        trace = _ar1(phi)
        expected = trace.shape[0] * trace.shape[1] * (1 - phi) / (1 + phi)
        np.testing.assert_allclose(effective_sample_size(trace), expected, rtol=0.15)
        assert np.all(split_rhat(trace) < 1.01)


def test_disagreeing_chains_have_small_ess_and_large_rhat():
    trace = _ar1(0.5) + np.arange(8)[None, :, None]
    assert np.all(effective_sample_size(trace) < 0.01 * trace.shape[0] * trace.shape[1])
    assert np.all(split_rhat(trace) > 1.5)
    frozen = np.broadcast_to(np.arange(8.0)[None, :, None], (50, 8, 1))  # no chain moves, chains disagree
    assert effective_sample_size(frozen)[0] == 0.0 and split_rhat(frozen)[0] == np.inf
    with pytest.raises(InvalidParameterError, match="trace"):
        effective_sample_size(np.zeros((3, 2, 1)))


# ------------------------------------------------------------ public tuning only
def _data(seed):
    manifold = get_manifold("sphere", 2)
    rng = np.random.default_rng(seed)
    x, y = sample_geodesic_regression(manifold, manifold.default_center(), np.array([0.5, 0.2, 0.0]), 30, 0.03, rng)
    return manifold, x, y


def test_private_chains_use_the_ladder_and_scales_fixed_on_the_public_proxy(monkeypatch):
    """The chains on the private data never adapt: they get the public ladder and the scales adapted on the
    public proxy (identical for two datasets with the same public inputs), and the public diagnostics (R̂, ESS,
    traces) are identical too."""
    calls = []
    original = K._tempered_sampler

    def spy(state, log_target, propose, n_chains, n_steps, burn_in, start, sigma, cap, rng, betas, scales, *rest):
        calls.append((betas, None if scales is None else np.array(scales)))
        return original(state, log_target, propose, n_chains, n_steps, burn_in, start, sigma, cap, rng, betas,
                        scales, *rest)

    monkeypatch.setattr(K, "_tempered_sampler", spy)
    results = []
    for seed in (1, 2):
        manifold, x, y = _data(seed)
        K._PROXY_CACHE.clear()
        calls.clear()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RegressionPrivacyWarning)
            result = kng_geodesic_regression(manifold, x, y, 1.0, 1.0, 0.2, 5, data_radius=1.0, chain_length=200,
                                             burn_in=100, n_releases=3)
        proxy_calls, private_calls = calls[:2], calls[2:]
        assert all(scales is None for _, scales in proxy_calls)  # the proxy adapts
        assert len(private_calls) == 2 and all(scales is not None for _, scales in private_calls)
        np.testing.assert_array_equal(private_calls[0][1], result.diagnostics["proposal_scales_footpoint"])
        np.testing.assert_array_equal(private_calls[1][1], result.diagnostics["proposal_scales_shooting"])
        np.testing.assert_array_equal(private_calls[0][0], temperature_ladder(30, 1.0, 2.0))
        results.append(result)
    a, b = results
    for key in ("proposal_scales_footpoint", "proposal_scales_shooting", "proxy_ess_footpoint", "proxy_ess_shooting",
                "proxy_trace_footpoint", "proxy_trace_shooting", "temperatures_footpoint", "proxy_min_ess"):
        np.testing.assert_array_equal(a.diagnostics[key], b.diagnostics[key])
    assert a.notes == b.notes
    assert not np.array_equal(a.footpoints, b.footpoints)


def test_failed_check_is_reported_with_its_numbers():
    """A public budget too small to converge: the label, the notes and the public warning say the check FAILED,
    with the R̂ and the effective sample size measured on the proxy."""
    manifold, x, y = _data(3)
    with pytest.warns(RegressionPrivacyWarning, match="convergence check failed"):
        result = kng_geodesic_regression(manifold, x, y, 2.0, 2.0, 0.2, 4, data_radius=1.0, chain_length=8,
                                         burn_in=8, owner_diagnostics=False)
    assert result.label == K.LABEL_NO_GUARANTEE and not result.diagnostics["proxy_passed"]
    note = next(n for n in result.notes if n.startswith("Sampler:"))
    assert "FAILED" in note and f"{result.diagnostics['proxy_max_rhat']:.3g}" in note
    assert f"{result.diagnostics['proxy_min_ess']:.0f}" in note
