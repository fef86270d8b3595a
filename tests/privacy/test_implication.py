"""implies(achieved, target): the partial order of guarantees through valid conversions."""

import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_delta,
    implies,
    rdp_to_approx_dp,
    zcdp_to_approx_dp,
)

ALL = [PureDP(1.0), ApproxDP(1.0, 1e-5), GDP(1.0), RDP(2.0, 1.0), ZCDP(1.0)]


@pytest.mark.parametrize("g", ALL)
def test_reflexive(g):
    assert implies(g, g)


@pytest.mark.parametrize(
    "achieved, target, expected",
    [
        # same notion: compare parameters
        (PureDP(0.5), PureDP(1.0), True),
        (PureDP(1.0), PureDP(0.5), False),
        (ApproxDP(0.5, 1e-6), ApproxDP(1.0, 1e-5), True),
        (ApproxDP(0.5, 1e-4), ApproxDP(1.0, 1e-5), False),
        (ApproxDP(2.0, 1e-6), ApproxDP(1.0, 1e-5), False),
        (GDP(0.5), GDP(1.0), True),
        (GDP(1.5), GDP(1.0), False),
        (RDP(4.0, 0.5), RDP(2.0, 1.0), True),   # higher order, smaller eps: monotone in alpha
        (RDP(2.0, 0.5), RDP(4.0, 1.0), False),  # a lower order says nothing about a higher one
        (ZCDP(0.5), ZCDP(1.0), True),
        # cross-notion conversions
        (PureDP(1.0), ApproxDP(1.0, 1e-9), True),
        (PureDP(1.0), GDP(eps_dp_to_gdp(1.0)), True),
        (PureDP(1.0), GDP(0.99 * eps_dp_to_gdp(1.0)), False),
        (PureDP(1.0), RDP(2.0, eps_dp_to_rdp(1.0, 2.0)), True),
        (PureDP(1.0), RDP(2.0, 0.99 * eps_dp_to_rdp(1.0, 2.0)), False),
        (PureDP(1.0), ZCDP(0.5), True),
        (PureDP(1.0), ZCDP(0.49), False),
        (GDP(1.0), ApproxDP(1.0, gdp_delta(1.0, 1.0)), True),
        (GDP(1.0), ApproxDP(1.0, 0.99 * gdp_delta(1.0, 1.0)), False),
        (GDP(1.0), RDP(3.0, 1.5), True),
        (GDP(1.0), RDP(3.0, 1.49), False),
        (GDP(1.0), ZCDP(0.5), True),
        (RDP(2.0, 0.3), ApproxDP(rdp_to_approx_dp(2.0, 0.3, 1e-5), 1e-5), True),
        (RDP(2.0, 0.3), ApproxDP(0.99 * rdp_to_approx_dp(2.0, 0.3, 1e-5), 1e-5), False),
        (ZCDP(0.1), RDP(5.0, 0.5), True),
        (ZCDP(0.1), RDP(5.0, 0.49), False),
        (ZCDP(0.1), ApproxDP(zcdp_to_approx_dp(0.1, 1e-5), 1e-5), True),
        (ZCDP(0.1), ApproxDP(0.99 * zcdp_to_approx_dp(0.1, 1e-5), 1e-5), False),
        # eps-DP -> (eps', delta) with eps' < eps through GDP
        (PureDP(2.0), ApproxDP(1.0, gdp_delta(eps_dp_to_gdp(2.0), 1.0)), True),
    ],
)
def test_rules(achieved, target, expected):
    assert implies(achieved, target) is expected


@pytest.mark.parametrize(
    "achieved, target",
    [
        # no valid conversion exists: must be False even for tiny achieved parameters
        (GDP(1e-6), PureDP(100.0)),
        (ZCDP(1e-9), PureDP(100.0)),
        (RDP(1e6, 1e-9), PureDP(100.0)),
        (ApproxDP(1e-6, 1e-12), PureDP(100.0)),
        (RDP(1e6, 1e-9), GDP(100.0)),       # a single RDP order implies no GDP
        (RDP(1e6, 1e-9), ZCDP(100.0)),
        (ZCDP(1e-9), GDP(100.0)),
        (ApproxDP(1e-6, 1e-12), GDP(100.0)),
        (ApproxDP(1e-6, 1e-12), RDP(2.0, 100.0)),
        (ApproxDP(1e-6, 1e-12), ZCDP(100.0)),
    ],
)
def test_no_conversion_is_false(achieved, target):
    assert implies(achieved, target) is False


@pytest.mark.parametrize("bad", [1.0, "eps=1", None, {"notion": "gdp", "mu": 1}])
def test_validation(bad):
    with pytest.raises(InvalidParameterError) as info:
        implies(bad, PureDP(1))
    assert info.value.param == "achieved"
    with pytest.raises(InvalidParameterError) as info:
        implies(PureDP(1), bad)
    assert info.value.param == "target"
