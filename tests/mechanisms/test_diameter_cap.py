"""Sensitivity bounds above the diameter say nothing: every calibration caps them at ``manifold.diameter``.

No two points of S^d are more than π apart (π/2 on Kendall shape space), so no summary can move by more,
whatever bound a theorem gives (the p-mean bound for p > 2 on S² exceeds π). Every mechanism calibrated with a
larger sensitivity must use Δ = the diameter (same noise as with Δ = the diameter) and say so in its notes;
the pipeline's prepared sensitivity is capped too.
"""

import math

import numpy as np
import pytest

from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.pipeline import evaluate, prepare
from geodp_core.privacy import GDP, ApproxDP
from geodp_core.scenario import Scenario
from geodp_core.summaries import p_mean_sensitivity

SUMMARY_MECHANISMS = [name for name in MECHANISM_NAMES if name != "conformal"]  # conformal needs data: below


def test_diameter_attribute():
    assert get_manifold("sphere", 2).diameter == math.pi and get_manifold("sphere", 7).diameter == math.pi
    assert get_manifold("kendall", 6).diameter == math.pi / 2
    for name, dim in (("hyperbolic", 2), ("euclidean", 3), ("spd", 2)):
        assert get_manifold(name, dim).diameter == math.inf
    assert all(isinstance(get_manifold(*a).diameter, float) for a in (("sphere", 2), ("kendall", 4), ("spd", 3)))


@pytest.mark.parametrize("space, target", [(("sphere", 2), ApproxDP(1.0, 1e-5)), (("sphere", 4), GDP(1.0)),
                                           (("kendall", 5), ApproxDP(1.0, 1e-5))], ids=["S2", "S4", "Kendall5"])
@pytest.mark.parametrize("name", SUMMARY_MECHANISMS)
def test_every_mechanism_caps_the_sensitivity_at_the_diameter(space, target, name):
    manifold = get_manifold(*space)
    mechanism = get_mechanism(name, manifold)
    if not mechanism.available().ok:
        pytest.skip(f"{name} is unavailable on {manifold.label}")
    diameter = manifold.diameter
    try:
        at_diameter = mechanism.calibrate(target, diameter)
    except ValueError as exc:  # e.g. a sampler-range refusal: then the larger bound must be refused alike
        with pytest.raises(type(exc)):
            mechanism.calibrate(target, 2.5 * diameter)
        return
    above = mechanism.calibrate(target, 2.5 * diameter)
    assert above.sensitivity == diameter
    assert above.noise == at_diameter.noise and above.label == at_diameter.label
    assert any("exceeds the diameter" in note for note in above.notes)
    assert any("diameter" in note for note in at_diameter.notes)


def test_p_mean_sensitivity_above_pi_is_capped_in_the_pipeline():
    scenario = Scenario(p=3.0, n=40, mechanisms=MECHANISM_NAMES)
    theorem = p_mean_sensitivity(40, scenario.radius, 3.0, 1.0)
    assert theorem > math.pi  # the bound that says nothing
    prepared = prepare(scenario)
    assert prepared.sensitivity == math.pi
    for name in MECHANISM_NAMES:
        outcome = evaluate(prepared, name, scenario.target, 5, np.random.default_rng(0))
        if outcome.calibration is not None:
            assert any("diameter" in note for note in outcome.calibration.notes), name
            assert outcome.calibration.sensitivity <= math.pi
