"""Property-based robustness tests of the privacy accounting (docs/specification.md §4, §9).

Every conversion, calibration and budget helper returns a finite value for
every valid input in the "working" range (eps, mu, rho in [1e-12, 1e6], alpha in
(1, 1e6], delta in [1e-300, 1)), and for wider valid inputs either a finite value
or a ``ValueError`` naming the argument (documented double-precision limits);
invalid inputs (NaN, inf, bool, strings, out of range) raise a ``ValueError``
naming the argument. See :func:`tests.geometry.test_properties.outcome`.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    analytic_gaussian_sigma,
    eps_dp_to_gdp,
    eps_dp_to_rdp,
    gdp_budget,
    gdp_delta,
    gdp_mu_for_approx_dp,
    gdp_to_eps_dp,
    guarantee_from_dict,
    implies,
    log_gdp_delta,
    mironov_rdp_to_approx_dp,
    pure_dp_budget,
    rdp_to_approx_dp,
    zcdp_budget,
    zcdp_to_approx_dp,
)
from geodp_core.privacy.calibration import Budget
from tests.geometry.test_properties import SETTINGS, exponent_floats, outcome

working = exponent_floats(-12, 6)
extreme = exponent_floats(-300, 300)
alphas = st.one_of(st.floats(1.0 + 1e-9, 10.0), exponent_floats(1, 6))
alphas_extreme = st.one_of(alphas, exponent_floats(6, 300))
deltas = st.one_of(exponent_floats(-300, -0.001), st.sampled_from([1e-300, 1e-12, 1e-5, 0.5, 0.999999]))
BAD_POSITIVE = [0.0, -1.0, -1e-300, np.nan, np.inf, -np.inf, True, "1", None]
BAD_DELTA = [0.0, 1.0, 1.5, -0.1, np.nan, np.inf, False, "0.1"]


def _positive(x):
    return np.all(np.asarray(x) > 0)


def _nonnegative(x):
    return np.all(np.asarray(x) >= 0)


def _prob(x):
    return np.all((np.asarray(x) >= 0) & (np.asarray(x) <= 1))


# ------------------------------------------------------------------ conversions
@settings(max_examples=150, **SETTINGS)
@given(working, working, alphas, deltas)
def test_conversions_working_range_are_finite(eps, mu, alpha, delta):
    outcome("eps_dp_to_gdp", lambda: eps_dp_to_gdp(eps), True, check=_positive)
    outcome("gdp_to_eps_dp", lambda: gdp_to_eps_dp(mu), True, check=_positive)
    outcome("eps_dp_to_rdp", lambda: eps_dp_to_rdp(eps, alpha), True, check=lambda v: 0 <= v <= eps)
    outcome("gdp_delta", lambda: gdp_delta(mu, eps), True, check=_prob)
    outcome("log_gdp_delta", lambda: log_gdp_delta(mu, eps), True, names=("mu", "eps"), allow_refusal=True,
            check=lambda v: v <= 0)
    outcome("rdp_to_approx_dp", lambda: rdp_to_approx_dp(alpha, eps, delta), True, check=_nonnegative)
    outcome("mironov", lambda: mironov_rdp_to_approx_dp(alpha, eps, delta), True, check=_positive)
    outcome("zcdp_to_approx_dp", lambda: zcdp_to_approx_dp(mu, delta), True, check=_nonnegative)
    outcome("gdp_mu_for_approx_dp", lambda: gdp_mu_for_approx_dp(eps, delta), True, check=_positive)
    outcome("analytic_sigma", lambda: analytic_gaussian_sigma(eps, delta, mu), True, check=_positive)


@settings(max_examples=150, **SETTINGS)
@given(extreme, extreme, alphas_extreme, deltas)
def test_conversions_extreme_values_never_crash(eps, mu, alpha, delta):
    """Anywhere in double range: a finite value or a ValueError naming an argument."""
    kw = dict(allow_refusal=True)
    outcome("x_eps_dp_to_gdp", lambda: eps_dp_to_gdp(eps), True, names=("eps",), check=_positive, **kw)
    outcome("x_gdp_to_eps_dp", lambda: gdp_to_eps_dp(mu), True, names=("mu",), check=_positive, **kw)
    outcome("x_eps_dp_to_rdp", lambda: eps_dp_to_rdp(eps, alpha), True, names=("eps", "alpha"),
            check=lambda v: 0 <= v <= eps, **kw)
    outcome("x_gdp_delta", lambda: gdp_delta(mu, eps), True, names=("mu", "eps"), check=_prob, **kw)
    outcome("x_rdp_to_approx_dp", lambda: rdp_to_approx_dp(alpha, eps, delta), True,
            names=("alpha", "eps_rdp", "delta"), check=_nonnegative, **kw)
    outcome("x_zcdp_to_approx_dp", lambda: zcdp_to_approx_dp(mu, delta), True, names=("rho", "delta"),
            check=_nonnegative, **kw)
    outcome("x_gdp_mu_for_approx_dp", lambda: gdp_mu_for_approx_dp(eps, delta), True, names=("eps", "delta"),
            check=_positive, **kw)
    outcome("x_analytic_sigma", lambda: analytic_gaussian_sigma(eps, delta, mu), True,
            names=("eps", "delta", "sensitivity"), check=_positive, **kw)


@settings(max_examples=100, **SETTINGS)
@given(st.sampled_from(BAD_POSITIVE), st.sampled_from(BAD_DELTA), working)
def test_conversions_invalid_inputs_name_the_argument(bad, bad_delta, good):
    outcome("bad_eps_dp_to_gdp", lambda: eps_dp_to_gdp(bad), False, names=("eps",))
    outcome("bad_gdp_to_eps_dp", lambda: gdp_to_eps_dp(bad), False, names=("mu",))
    outcome("bad_gdp_delta", lambda: gdp_delta(bad, good), False, names=("mu",))
    outcome("bad_eps_dp_to_rdp", lambda: eps_dp_to_rdp(good, bad), False, names=("alpha",))
    outcome("bad_rdp_delta", lambda: rdp_to_approx_dp(2.0, good, bad_delta), False, names=("delta",))
    outcome("bad_zcdp_rho", lambda: zcdp_to_approx_dp(bad, 1e-5), False, names=("rho",))
    outcome("bad_sigma_sens", lambda: analytic_gaussian_sigma(good, 1e-5, bad), False, names=("sensitivity",))
    outcome("bad_sigma_delta", lambda: analytic_gaussian_sigma(good, bad_delta, 1.0), False, names=("delta",))
    outcome("bad_guarantee", lambda: GDP(bad), False, names=("mu",))
    outcome("bad_approx", lambda: ApproxDP(good, bad_delta), False, names=("delta",))


# --------------------------------------------------------------------- budgets
targets = st.one_of(
    exponent_floats(-12, 6).map(PureDP),
    st.tuples(exponent_floats(-12, 6), deltas).map(lambda t: ApproxDP(*t)),
    exponent_floats(-12, 6).map(GDP),
    st.tuples(alphas, exponent_floats(-12, 6)).map(lambda t: RDP(*t)),
    exponent_floats(-12, 6).map(ZCDP),
)


@settings(max_examples=150, **SETTINGS)
@given(targets)
def test_budgets_meet_the_target_or_are_unavailable(target):
    def check(budget):
        return isinstance(budget, Budget) and budget.value > 0 and math.isfinite(budget.value)

    for helper in (pure_dp_budget, gdp_budget, zcdp_budget):
        kind = outcome(f"budget_{helper.__name__}", lambda: helper(target), True, names=("target",),
                       check=check, allow_refusal=True)
        if kind == "ok":
            budget = helper(target)
            outcome(f"budget_implies_{helper.__name__}", lambda: implies(budget.achieved, target), True,
                    check=bool)


@settings(max_examples=80, **SETTINGS)
@given(st.sampled_from(["pure_dp", "approx_dp", "gdp", "rdp", "zcdp"]),
       st.sampled_from(["extra", "bool", "string", "missing", "list"]))
def test_guarantee_from_dict_rejects_unknown_keys_and_wrong_types(notion, defect):
    good = {"pure_dp": PureDP(1.0), "approx_dp": ApproxDP(1.0, 1e-5), "gdp": GDP(1.0),
            "rdp": RDP(2.0, 1.0), "zcdp": ZCDP(0.5)}[notion].to_dict()
    assert guarantee_from_dict(good).to_dict() == good
    data = dict(good)
    key = [k for k in data if k != "notion"][0]
    if defect == "extra":
        data["foo"] = 1.0
        names = ("foo",)
    elif defect == "bool":
        data[key] = True
        names = (key,)
    elif defect == "string":
        data[key] = "1.0"
        names = (key,)
    elif defect == "missing":
        del data[key]
        names = (key,)
    else:
        data[key] = [1.0]
        names = (key,)
    outcome("guarantee_from_dict_bad", lambda: guarantee_from_dict(data), False, names=names)


# ------------------------------------------------------------------ regressions
@pytest.mark.parametrize("value", [1e-12, 1e6])
def test_regression_extreme_privacy_parameters_are_finite(value):
    for result in (
        eps_dp_to_gdp(value), gdp_to_eps_dp(value), eps_dp_to_rdp(value, 2.0),
        zcdp_to_approx_dp(value, 1e-5), gdp_mu_for_approx_dp(value, 1e-5),
        analytic_gaussian_sigma(value, 1e-5, 1.0), analytic_gaussian_sigma(1.0, 1e-300, value),
        rdp_to_approx_dp(1e300, value, 1e-300),
    ):
        assert math.isfinite(result) and result >= 0


def test_regression_huge_values_give_finite_results_or_clear_errors():
    assert math.isfinite(zcdp_to_approx_dp(1e300, 1e-5))  # was NaN
    assert math.isfinite(analytic_gaussian_sigma(1e300, 1e-5, 1.0))  # was ConvergenceError
    with pytest.raises(InvalidParameterError, match="mu"):
        gdp_to_eps_dp(1e300)  # the eps would be ~1e599: not representable (was inf)
    with pytest.raises(InvalidParameterError, match="sensitivity"):
        analytic_gaussian_sigma(1e-12, 1e-5, 1e308)  # sigma overflows (was inf)


def test_regression_guarantee_from_dict_rejects_unknown_keys():
    with pytest.raises(InvalidParameterError, match="foo"):
        guarantee_from_dict({"notion": "gdp", "mu": 1.0, "foo": 2.0})
    with pytest.raises(InvalidParameterError, match="mu"):
        guarantee_from_dict({"notion": "gdp", "mu": True})
    with pytest.raises(InvalidParameterError, match="data"):
        guarantee_from_dict([("notion", "gdp")])
