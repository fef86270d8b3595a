"""Guarantee value objects: validation, description, immutability, serialisation."""

import dataclasses

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import GDP, NOTIONS, RDP, ZCDP, ApproxDP, Guarantee, PureDP, guarantee_from_dict

BAD_NUMBERS = [np.nan, np.inf, -np.inf, True, False, "1", None, [1.0]]


@pytest.mark.parametrize(
    "guarantee, text, notion",
    [
        (PureDP(1), "ε=1-DP", "pure_dp"),
        (ApproxDP(1, 1e-5), "(ε=1, δ=1e-05)-DP", "approx_dp"),
        (GDP(0.5), "μ=0.5-GDP", "gdp"),
        (RDP(2, 0.3), "(α=2, ε=0.3)-RDP", "rdp"),
        (ZCDP(0.25), "ρ=0.25-zCDP", "zcdp"),
    ],
)
def test_describe_notion_and_roundtrip(guarantee, text, notion):
    assert guarantee.describe() == text
    assert str(guarantee) == text
    assert guarantee.notion == notion
    assert NOTIONS[notion] is type(guarantee)
    assert guarantee_from_dict(guarantee.to_dict()) == guarantee
    with pytest.raises(dataclasses.FrozenInstanceError):
        guarantee.__setattr__(dataclasses.fields(guarantee)[0].name, 2.0)


def test_values_are_floats_hashable_and_compare_by_value():
    assert PureDP(1) == PureDP(1.0)
    assert isinstance(PureDP(np.int64(2)).eps, float)
    assert isinstance(ApproxDP(np.float32(0.5), 1e-5).eps, float)
    assert len({GDP(1), GDP(1.0), GDP(2)}) == 2
    assert ApproxDP(0, 1e-5).eps == 0.0  # eps = 0 allowed for (eps, delta)-DP


@pytest.mark.parametrize(
    "factory, param",
    [
        (lambda v: PureDP(v), "eps"),
        (lambda v: ApproxDP(v, 1e-5), "eps"),
        (lambda v: ApproxDP(1.0, v), "delta"),
        (lambda v: GDP(v), "mu"),
        (lambda v: RDP(v, 1.0), "alpha"),
        (lambda v: RDP(2.0, v), "eps"),
        (lambda v: ZCDP(v), "rho"),
    ],
)
@pytest.mark.parametrize("bad", BAD_NUMBERS + [-1.0])
def test_bad_values_raise_naming_the_parameter(factory, param, bad):
    with pytest.raises(InvalidParameterError) as info:
        factory(bad)
    assert info.value.param == param
    assert str(info.value).startswith(param)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    "factory, param, bad, interval",
    [
        (lambda: PureDP(0.0), "eps", "0.0", "(0, inf)"),
        (lambda: ApproxDP(1.0, 0.0), "delta", "0.0", "(0, 1)"),
        (lambda: ApproxDP(1.0, 1.0), "delta", "1.0", "(0, 1)"),
        (lambda: ApproxDP(1.0, 1.5), "delta", "1.5", "(0, 1)"),
        (lambda: GDP(0.0), "mu", "0.0", "(0, inf)"),
        (lambda: RDP(1.0, 1.0), "alpha", "1.0", "(1, inf)"),
        (lambda: RDP(0.5, 1.0), "alpha", "0.5", "(1, inf)"),
        (lambda: RDP(2.0, 0.0), "eps", "0.0", "(0, inf)"),
        (lambda: ZCDP(0.0), "rho", "0.0", "(0, inf)"),
    ],
)
def test_boundaries_message_names_value_and_range(factory, param, bad, interval):
    with pytest.raises(InvalidParameterError) as info:
        factory()
    message = str(info.value)
    assert param in message and bad in message and interval in message


def test_from_dict_rejects_unknown_or_incomplete():
    with pytest.raises(InvalidParameterError, match="notion"):
        guarantee_from_dict({"notion": "renyi", "alpha": 2, "eps": 1})
    with pytest.raises(InvalidParameterError, match="missing delta"):
        guarantee_from_dict({"notion": "approx_dp", "eps": 1})
    with pytest.raises(InvalidParameterError, match="data"):
        guarantee_from_dict(["notion", "gdp"])
    with pytest.raises(InvalidParameterError, match="mu"):
        guarantee_from_dict({"notion": "gdp", "mu": float("nan")})


# ------------------------------------------------------------------ the one notion -> guarantee factory
def test_from_notion_builds_every_notion_and_ignores_the_other_notions_parameters():
    every = dict(eps=1.5, delta=1e-6, mu=0.7, alpha=3.0, rho=0.2)
    assert Guarantee.from_notion("pure_dp", **every) == PureDP(1.5)
    assert Guarantee.from_notion("approx_dp", **every) == ApproxDP(1.5, 1e-6)
    assert Guarantee.from_notion("gdp", **every) == GDP(0.7)
    assert Guarantee.from_notion("rdp", **every) == RDP(3.0, 1.5)
    assert Guarantee.from_notion("zcdp", **every) == ZCDP(0.2)
    for notion, cls in NOTIONS.items():
        g = Guarantee.from_notion(notion, **every)
        assert type(g) is cls and guarantee_from_dict(g.to_dict()) == g


@pytest.mark.parametrize(("notion", "params", "param"), [
    ("dp", dict(eps=1.0), "notion"),
    ("approx_dp", dict(eps=1.0), "delta"),
    ("gdp", dict(mu=1.0, epsilon=2.0), "epsilon"),
    ("rdp", dict(alpha=0.5, eps=1.0), "alpha"),
    ("pure_dp", dict(eps=float("nan")), "eps"),
])
def test_from_notion_refuses_bad_input_naming_the_parameter(notion, params, param):
    with pytest.raises(InvalidParameterError) as info:
        Guarantee.from_notion(notion, **params)
    assert info.value.param == param


def test_the_scenario_and_the_budget_sweeps_build_their_targets_with_from_notion(monkeypatch):
    """Scenario.target and experiments.target_for_budget go through Guarantee.from_notion (one factory)."""
    from geodp_core.experiments import target_for_budget
    from geodp_core.scenario import Scenario

    calls = []
    original = Guarantee.from_notion

    def spy(notion, **params):
        calls.append(notion)
        return original(notion, **params)

    monkeypatch.setattr(Guarantee, "from_notion", staticmethod(spy))
    scenario = Scenario(notion="rdp", alpha=4.0, eps=0.5)
    assert scenario.target == RDP(4.0, 0.5)
    assert target_for_budget(scenario, 2.0) == RDP(4.0, 2.0)
    assert target_for_budget(scenario.with_changes(notion="zcdp"), 0.3) == ZCDP(0.3)
    assert calls == ["rdp", "rdp", "zcdp"]
