"""Audits of the conformal mechanism in dimension d ≥ 3 and on flat SPD (public quasi-random point sets).

The exact mechanism must never be refuted (empirical lower bound ≤ claimed ε) and a broken variant (its rate
λ* inflated, i.e. noise understated) must be. Why the broken variant's factor is 0.05: on the audit's pair the
exact point channel spends only about λ* d(η, η′) = ε_conf d(η, η′)/(2√φ_max Δ) ≈ 0.35 ε d(η, η′)/Δ, i.e.
≈ 0.17 ε on S^d (d(η, η′)/Δ ≈ 0.47) and ≈ 0.35 ε on flat SPD (d(η, η′)/Δ = 1); a noise understatement is only
refutable beyond a factor ≈ 3–6. With noise × 0.05 the true loss is ≈ 3.3–7 ε, well above the claim.

Observed at these settings (seeds 0–2, claimed ε = 2, 4000 releases per dataset): exact lower bounds 0 on S³
and S⁵, 0.28–0.47 on SPD(2) log-Euclidean; noise × 0.05: 4.1–5.4 on S³, 5.6–6.0 on SPD(2). The margins are
several times the spread over seeds, so the assertions hold for fresh seeds with overwhelming probability.
"""

import pytest

from geodp_core.audit import audit, mean_shift_ratio
from geodp_core.geometry import get_manifold
from geodp_core.privacy import PureDP

CLAIM = PureDP(2.0)
SPACES = {"S3": ("sphere", 3), "S5": ("sphere", 5), "SPD2_log_euclidean": ("spd", 2, "log_euclidean")}


@pytest.mark.parametrize("space", list(SPACES))
def test_exact_conformal_is_not_refuted(space):
    manifold = get_manifold(*SPACES[space])
    for seed in (0, 1):
        result = audit("conformal", manifold, CLAIM, n_releases=4000, n=5, seed=seed)
        assert result.label == "exact" and result.variant is None
        assert result.claimed_eps == pytest.approx(2.0) and result.delta == 0.0
        assert not result.claim_refuted and 0.0 <= result.eps_lower_bound <= result.claimed_eps, result.summary()
        assert not any("WARNING" in note for note in result.notes)  # no floating-point trouble on the grid
        assert result.mean_shift > 0 and result.sensitivity > 0


@pytest.mark.parametrize("space", ["S3", "SPD2_log_euclidean"])
def test_understated_noise_conformal_is_caught(space):
    manifold = get_manifold(*SPACES[space])
    exact = audit("conformal", manifold, CLAIM, n_releases=4000, n=5, seed=3)
    broken = audit("conformal", manifold, CLAIM, n_releases=4000, n=5, seed=3, variant="understated_noise",
                   noise_scale=0.05)
    assert broken.label == "no formal guarantee"
    assert broken.claim_refuted and broken.eps_lower_bound > 1.5 * broken.claimed_eps, broken.summary()
    assert broken.eps_lower_bound > exact.eps_lower_bound + 2.0
    assert any("λ*" in note for note in broken.notes)  # the conformal rate is what was scaled


def test_audit_pair_geometry_on_the_new_spaces():
    """The pair's shift relative to Δ, which sets the audit's power (module docstring)."""
    assert mean_shift_ratio(get_manifold("sphere", 3), n=5) == pytest.approx(0.47, abs=0.03)
    assert mean_shift_ratio(get_manifold("spd", 2, "log_euclidean"), n=5) == pytest.approx(1.0, abs=1e-6)


def test_whole_conformal_mechanism_fresh_density_not_refuted_on_s3():
    """A fresh sanitised density per release (the whole mechanism's point output), small."""
    result = audit("conformal", get_manifold("sphere", 3), CLAIM, n_releases=200, n=5, seed=0,
                   fresh_calibration=True)
    assert not result.claim_refuted, result.summary()
    assert any("fresh calibration" in note for note in result.notes)
