"""Hostile inputs at every public entry point of the kinds that escaped as raw or vague errors.

Each parametrised case substitutes one hostile value into one argument of a valid call (see
``tests/hostile_inputs.py``): the outcome must be a valid finite result or a ``ValueError`` subclass of
:mod:`geodp_core.exceptions` naming the argument, within 20 s (never a raw exception, a NaN or a hang).
"""

import pytest

from tests.hostile_inputs import all_calls, classify

CALLS = all_calls()


@pytest.mark.parametrize("label, call", CALLS, ids=[label for label, _ in CALLS])
def test_valid_result_or_named_value_error(label, call):
    kind, detail = classify(call)
    assert kind in ("valid", "clear"), f"{label}: {kind} {detail}"


def test_the_reported_cases_give_named_errors():
    """Known cases, each by name (not only 'valid or clear'): a named ValueError, or a valid result."""
    named = {label: classify(call) for label, call in CALLS if "[" in label and "arg" not in label}
    for label in ("Scenario.from_json[eps = 1e400 digits]", "prepare[None]", "evaluate[prepared None]",
                  "compose[PureDP(1e308) x2]", "S2.dist[three vs two]", "frechet_mean[ragged]"):
        assert named[label][0] == "clear", (label, named[label])
    assert named["bm_diffusion_time[extreme]"][0] == "valid"
