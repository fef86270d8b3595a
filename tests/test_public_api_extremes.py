"""Every public function of the API gives a valid finite result or a ValueError subclass naming an argument.

Finite in-range inputs at the extremes of double precision (1e-320 ... 1.7e308) must never raise
OverflowError, ZeroDivisionError, AssertionError, RecursionError, emit a RuntimeWarning, or return NaN.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from geodp_core import privacy as P
from geodp_core.exceptions import GeoDPError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import bm_diffusion_time, gdp_mu, get_mechanism, langevin_diffusion_time

EXTREMES = [1e-320, 1e-300, 1e-12, 0.3, 1.0, 7.0, 1e3, 1e12, 1e300, 1.7e308]
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
positive = st.one_of(st.sampled_from(EXTREMES), st.floats(1e-320, 1.7e308, allow_nan=False, allow_infinity=False))


def _finite_leaves(value):
    """Every float inside a result (numbers, tuples, guarantee objects) is finite (or +inf where meaningful)."""
    if isinstance(value, (int, float, np.floating)):
        return not math.isnan(float(value))
    if isinstance(value, (tuple, list, np.ndarray)):
        return all(_finite_leaves(v) for v in np.ravel(np.asarray(value, dtype=object)))
    fields = getattr(value, "__dataclass_fields__", None)
    if fields:
        return all(_finite_leaves(getattr(value, name)) for name in fields if isinstance(getattr(value, name), float))
    return True


def check_outcome(func, *args, **kwargs):
    """Call ``func``: a valid result without NaN, or a ValueError subclass that names an argument."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            result = func(*args, **kwargs)
        except (ValueError, GeoDPError) as exc:
            assert str(exc), "an error must say what is wrong"
            return None
    assert _finite_leaves(result), (func.__name__, args, result)
    return result


# ------------------------------------------------------------------ accounting functions
@pytest.mark.parametrize("mu", [1e-320, 1e-300, 1e-12])
@pytest.mark.parametrize("eps", [0.3, 1.0, 1e12, 1.7e308])
def test_gdp_delta_extremes(mu, eps):
    check_outcome(P.gdp_delta, mu, eps)


@pytest.mark.parametrize("eps", [1e-320, 0.3, 1e3])
@pytest.mark.parametrize("delta", [0.5, 1e-300])
def test_analytic_gaussian_sigma_extremes(eps, delta):
    check_outcome(P.analytic_gaussian_sigma, eps, delta, 1e-320)
    check_outcome(P.analytic_gaussian_sigma, eps, delta, 1e300)


@pytest.mark.parametrize("space, dim", [("sphere", 1), ("sphere", 2), ("hyperbolic", 2), ("euclidean", 1)])
@pytest.mark.parametrize("sigma", [1e-320, 1e-300, 1e-12, 1e300, 1.7e308])
@pytest.mark.parametrize("sensitivity", [1e-300, 1.0, 1e300])
def test_gdp_mu_extremes(space, dim, sigma, sensitivity):
    mu = check_outcome(gdp_mu, space, dim, sigma, sensitivity)
    assert mu is None or mu >= 0.0


@pytest.mark.parametrize("K", [-1e300, -1.0, 0.0, 1.0, 1e300])
@pytest.mark.parametrize("sensitivity", [1e-300, 0.1, 1e300])
@pytest.mark.parametrize("eps", [1e-300, 1.0, 1e300])
def test_diffusion_times_extremes(K, sensitivity, eps):
    t = check_outcome(bm_diffusion_time, K, 2.0, sensitivity, eps)
    assert t is None or t > 0
    t = check_outcome(langevin_diffusion_time, K, 1.0, 2.0, sensitivity, eps)
    assert t is None or t > 0


# ------------------------------------------------------------------ calibration of every mechanism
MANIFOLDS = [("sphere", 1, None), ("sphere", 2, None), ("hyperbolic", 2, None), ("euclidean", 1, None),
             ("spd", 2, "affine"), ("spd", 2, "log_cholesky")]
NAMES = ["riemannian_laplace", "riemannian_gaussian", "tangent_gaussian", "ew_laplace", "ew_gaussian",
         "brownian_motion", "langevin"]


def _options(name, manifold):
    if name.startswith("ew_"):
        return {"footpoint": manifold.default_center()}
    if name == "langevin":
        return {"anchor": manifold.default_center()}
    return {}


def _check_calibration(spec, name, budget, sensitivity, notion):
    manifold = get_manifold(*spec)
    mechanism = get_mechanism(name, manifold)
    if not mechanism.available().ok:
        return
    target = {"pure": lambda: P.PureDP(budget), "approx": lambda: P.ApproxDP(budget, 1e-5),
              "gdp": lambda: P.GDP(budget), "zcdp": lambda: P.ZCDP(budget)}[notion]()
    calibration = check_outcome(mechanism.calibrate, target, sensitivity, **_options(name, manifold))
    if calibration is not None:
        assert all(_finite_leaves(v) for v in calibration.noise.values()), calibration.noise
        assert calibration.achieved is not None


extreme = st.sampled_from(EXTREMES)
NOTION = st.sampled_from(["pure", "approx", "gdp", "zcdp"])
FAST_NAMES = [n for n in NAMES if n != "riemannian_gaussian"]


# The closed-form mechanisms: hypothesis over the fixed EXTREMES list (every pair is an extreme
# value or a reference value), 25 examples per manifold and mechanism.
@pytest.mark.parametrize("spec", MANIFOLDS, ids=lambda s: f"{s[0]}{s[1]}{s[2] or ''}")
@pytest.mark.parametrize("name", FAST_NAMES)
@settings(max_examples=25, **SETTINGS)
@given(budget=extreme, sensitivity=extreme, notion=NOTION)
def test_calibrate_extremes_are_valid_or_clear(spec, name, budget, sensitivity, notion):
    _check_calibration(spec, name, budget, sensitivity, notion)


# The exact Riemannian Gaussian calibration costs 0.5-2 s per call: a deterministic grid of
# extreme (budget, sensitivity) pairs instead. Pairs with sensitivity/budget outside
# [1e-9, 1e9] are refused by Mechanism.calibrate; the others reach the exact quadrature at
# extreme magnitudes (tiny and huge budgets and sensitivities with a moderate ratio).
RG_PAIRS = [(1e-320, 1e-320), (1e-300, 1.0), (1e-12, 1e-12), (1e-12, 1e-300), (1.7e308, 1e300),
            (1e300, 1e-300), (1e3, 7.0), (1e12, 1e3), (7.0, 1e12), (0.3, 1e-12)]


@pytest.mark.parametrize("spec", MANIFOLDS, ids=lambda s: f"{s[0]}{s[1]}{s[2] or ''}")
@pytest.mark.parametrize("budget, sensitivity", RG_PAIRS)
@pytest.mark.parametrize("notion", ["gdp", "approx"])
def test_calibrate_riemannian_gaussian_extremes_are_valid_or_clear(spec, budget, sensitivity, notion):
    _check_calibration(spec, "riemannian_gaussian", budget, sensitivity, notion)
