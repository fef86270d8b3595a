"""Budget helpers: every (native notion, target) pair is met, is tight, or is unavailable with a reason."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.privacy import (
    GDP,
    NOTIONS,
    RDP,
    ZCDP,
    ApproxDP,
    Budget,
    PureDP,
    analytic_gaussian_sigma,
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_budget,
    implies,
    pure_dp_budget,
    zcdp_budget,
)

TARGETS = [
    PureDP(0.1), PureDP(1.0), PureDP(10.0),
    ApproxDP(0.0, 1e-5), ApproxDP(0.1, 1e-8), ApproxDP(1.0, 1e-5), ApproxDP(10.0, 0.5),
    GDP(0.05), GDP(0.5), GDP(3.0), GDP(30.0),
    RDP(1.001, 0.01), RDP(2.0, 0.3), RDP(32.0, 1.0), RDP(1e4, 50.0),
    ZCDP(1e-4), ZCDP(0.1), ZCDP(5.0),
]
HELPERS = {"pure_dp": pure_dp_budget, "gdp": gdp_budget, "zcdp": zcdp_budget}
UNAVAILABLE = {
    ("gdp", "pure_dp"): "unbounded privacy loss",
    ("zcdp", "pure_dp"): "unbounded privacy loss",
    ("zcdp", "gdp"): "no valid conversion from zCDP",
    ("pure_dp", "approx_dp_eps0"): "needs ε > 0",
}


def _key(native, target):
    if native == "pure_dp" and isinstance(target, ApproxDP) and target.eps == 0.0:
        return (native, "approx_dp_eps0")
    return (native, target.notion)


@pytest.mark.parametrize("native", sorted(HELPERS))
@pytest.mark.parametrize("target", TARGETS, ids=str)
def test_budget_meets_target_or_is_unavailable(native, target):
    helper = HELPERS[native]
    key = _key(native, target)
    if key in UNAVAILABLE:
        with pytest.raises(UnavailableError) as info:
            helper(target)
        assert UNAVAILABLE[key] in str(info.value)
        assert target.describe() in str(info.value) or "ε=0" in str(info.value)
        assert info.value.param == "target"
        return
    budget = helper(target)
    assert isinstance(budget, Budget)
    assert budget.notion == native and budget.value > 0 and budget.note
    assert type(budget.achieved) is type(target)  # achieved is stated in the target's notion
    assert implies(budget.achieved, target)  # never weaker than the target
    native_guarantee = NOTIONS[native](budget.value)
    assert implies(native_guarantee, target)  # the native parameter itself provably meets the target
    assert implies(native_guarantee, budget.achieved)
    if native == "pure_dp" and isinstance(target, (ZCDP, ApproxDP)):
        return  # sufficient, not tight, conversions (Bun–Steinke; delta unused)
    # tight: 1e-9 more budget breaks the implication (bug: a loose or wrong-direction conversion)
    assert not implies(NOTIONS[native](budget.value * (1 + 1e-9)), target)


def test_documented_values():
    assert pure_dp_budget(GDP(eps_dp_to_gdp(1.0))).value == pytest.approx(1.0, rel=1e-12)
    assert pure_dp_budget(ZCDP(0.5)).value == pytest.approx(1.0, rel=1e-15)
    assert pure_dp_budget(ApproxDP(0.7, 1e-5)).value == 0.7
    b = pure_dp_budget(RDP(2.0, 0.3))
    assert eps_dp_to_rdp(b.value, 2.0) == pytest.approx(0.3, rel=1e-12) and b.value > 0.3
    assert gdp_budget(RDP(4.0, 0.5)).value == pytest.approx(0.5, rel=1e-15)
    assert gdp_budget(ZCDP(0.125)).value == pytest.approx(0.5, rel=1e-15)
    # mu-GDP for (eps, delta) is the analytic Gaussian: mu = Delta / sigma
    assert gdp_budget(ApproxDP(1.0, 1e-5)).value == pytest.approx(1.0 / analytic_gaussian_sigma(1.0, 1e-5, 1.0),
                                                                  rel=1e-11)
    assert zcdp_budget(RDP(4.0, 0.5)).value == pytest.approx(0.125, rel=1e-15)


def test_zcdp_budget_for_approx_dp_beats_bun_steinke():
    # Bun–Steinke: rho + 2 sqrt(rho log(1/delta)) <= eps gives a smaller rho than the CKS conversion
    eps, delta = 1.0, 1e-5
    L = np.log(1 / delta)
    rho_bs = (np.sqrt(L + eps) - np.sqrt(L)) ** 2
    assert zcdp_budget(ApproxDP(eps, delta)).value > rho_bs


@pytest.mark.parametrize("helper", [pure_dp_budget, gdp_budget, zcdp_budget])
@pytest.mark.parametrize("bad", [1.0, None, "eps=1", (1.0, 1e-5)])
def test_target_validation(helper, bad):
    with pytest.raises(InvalidParameterError) as info:
        helper(bad)
    assert info.value.param == "target"
    assert not isinstance(info.value, UnavailableError)


def test_budget_describe():
    text = gdp_budget(ZCDP(0.125)).describe()
    assert text.startswith("μ=0.5 (gdp) achieves ρ=0.125-zCDP")


@settings(max_examples=40, deadline=None)
@given(eps=st.floats(1e-3, 20.0), delta=st.floats(1e-12, 0.5))
def test_property_approx_targets_are_met(eps, delta):
    target = ApproxDP(eps, delta)
    for helper in HELPERS.values():
        budget = helper(target)
        assert implies(NOTIONS[budget.notion](budget.value), target)


@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(1.0001, 1e3), eps=st.floats(1e-4, 50.0))
def test_property_rdp_targets_are_met(alpha, eps):
    target = RDP(alpha, eps)
    for helper in HELPERS.values():
        budget = helper(target)
        assert implies(NOTIONS[budget.notion](budget.value), target)
