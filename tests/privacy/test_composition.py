"""Composition of same-notion guarantees."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP, compose, gdp_delta


def test_each_notion_composes_by_its_rule():
    assert compose([PureDP(0.5), PureDP(0.25)]) == PureDP(0.75)
    assert compose([ApproxDP(0.5, 1e-6), ApproxDP(1.0, 2e-6)]) == ApproxDP(1.5, 3e-6)
    assert compose([GDP(3.0), GDP(4.0)]) == GDP(5.0)
    assert compose([RDP(4, 0.1), RDP(4, 0.2), RDP(4, 0.3)]).eps == pytest.approx(0.6, rel=1e-15)
    assert compose([ZCDP(0.1), ZCDP(0.2)]).rho == pytest.approx(0.3, rel=1e-15)
    assert compose([GDP(0.5)]) == GDP(0.5)
    assert compose(g for g in [PureDP(1), PureDP(2)]) == PureDP(3)  # any iterable


def test_gdp_composition_matches_profile_of_combined_gaussian():
    # k Gaussian releases with mu_i compose exactly to a Gaussian with mu = sqrt(sum mu_i^2)
    mus = [0.3, 0.4, 1.2]
    composed = compose([GDP(m) for m in mus])
    assert composed.mu == pytest.approx(1.3, rel=1e-15)
    assert gdp_delta(composed.mu, 1.0) > gdp_delta(max(mus), 1.0)


@pytest.mark.parametrize(
    "items, fragment",
    [
        ([PureDP(1), GDP(1)], "same notion"),
        ([ApproxDP(1, 1e-5), PureDP(1)], "same notion"),
        ([RDP(2, 0.1), RDP(3, 0.1)], "same order alpha"),
        ([ApproxDP(1, 0.6), ApproxDP(1, 0.5)], "vacuous"),
        ([], "at least one"),
        ([PureDP(1), 1.0], "guarantees[1]"),
        (PureDP(1), "sequence"),
        (3.0, "sequence"),
    ],
)
def test_invalid_compositions(items, fragment):
    with pytest.raises(InvalidParameterError) as info:
        compose(items)
    assert fragment in str(info.value)
    assert info.value.param == "guarantees"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(1e-3, 10.0), min_size=1, max_size=8))
def test_property_composition_weakens_and_is_order_free(values):
    pure = compose([PureDP(v) for v in values])
    gdp = compose([GDP(v) for v in values])
    assert pure.eps >= max(values) and gdp.mu >= max(values) * (1 - 1e-15)
    assert compose([PureDP(v) for v in reversed(values)]).eps == pure.eps  # fsum: exactly rounded
    assert gdp.mu == pytest.approx(np.sqrt(np.sum(np.square(values))), rel=1e-12)
