"""The budget planner: exact inverse questions, checked against closed forms and 10,000 releases.

Statistical tests: alpha = 1e-6 (4.9 standard errors), fixed seeds.
"""

import math

import numpy as np
import pytest

from geodp_core import planner
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry import get_manifold
from geodp_core.mechanisms import get_mechanism
from geodp_core.privacy import GDP, ZCDP, ApproxDP, PureDP, gdp_delta
from geodp_core.summaries import frechet_mean_sensitivity

Z = 4.9
N_RELEASES = 10_000


def _release_errors(mechanism, manifold, guarantee, sensitivity, seed):
    mech = get_mechanism(mechanism, manifold)
    cal = mech.calibrate(guarantee, sensitivity)
    center = manifold.default_center()
    releases = mech.sample(center, cal, N_RELEASES, np.random.default_rng(seed))
    return manifold.dist(center, releases), cal


@pytest.mark.parametrize("space, size, mechanism", [
    ("sphere", 2, "riemannian_laplace"), ("sphere", 2, "riemannian_gaussian"),
    ("hyperbolic", 2, "riemannian_laplace"), ("hyperbolic", 2, "riemannian_gaussian"),
    ("spd", 2, "riemannian_laplace"), ("spd", 2, "riemannian_gaussian"),
    ("kendall", 3, "riemannian_gaussian"), ("kendall", 5, "riemannian_laplace"),
])
def test_planned_budget_gives_the_asked_mean_error(space, size, mechanism):
    manifold = get_manifold(space, size)
    target, sensitivity = 0.15, 0.04
    notion = "pure_dp" if mechanism == "riemannian_laplace" else "gdp"
    guarantee = planner.budget_for_error(mechanism, manifold, sensitivity, target, notion=notion)
    errors, cal = _release_errors(mechanism, manifold, guarantee, sensitivity, seed=7)
    se = errors.std(ddof=1) / math.sqrt(errors.size)
    assert abs(errors.mean() - target) <= Z * se
    # the calibration reproduces the planned scale (the Gaussian's calibration leaves at most 1% of μ unused)
    sigma_star = planner.scale_for_error(mechanism, manifold, target)
    assert sigma_star <= cal.noise["sigma"] * (1 + 1e-9) <= sigma_star * 1.012


def test_planned_quantile_gives_the_asked_coverage():
    manifold = get_manifold("sphere", 2)
    guarantee = planner.budget_for_error("riemannian_gaussian", manifold, 0.05, 0.2, notion="approx_dp", quantile=0.95,
                                         delta=1e-6)
    assert isinstance(guarantee, ApproxDP) and guarantee.delta == 1e-6
    errors, _ = _release_errors("riemannian_gaussian", manifold, guarantee, 0.05, seed=11)
    coverage = np.mean(errors <= 0.2)
    assert abs(coverage - 0.95) <= Z * math.sqrt(0.95 * 0.05 / errors.size) + 0.01 * 0.05  # + calibration slack


def test_flat_space_matches_closed_forms():
    r3 = get_manifold("euclidean", 3)
    # Laplace: E|Y - η| = dσ; Gaussian: σ√2 Γ((d+1)/2)/Γ(d/2)
    assert planner.budget_for_error("riemannian_laplace", r3, 0.1, 0.3).eps == pytest.approx(3 * 0.1 / 0.3, rel=1e-9)
    chi_mean = math.sqrt(2.0) * math.exp(math.lgamma(2.0) - math.lgamma(1.5))
    mu = planner.budget_for_error("riemannian_gaussian", r3, 0.1, 0.3, notion="gdp").mu
    assert mu == pytest.approx(0.1 * chi_mean / 0.3, rel=1e-9)
    eps = planner.budget_for_error("riemannian_gaussian", r3, 0.1, 0.3, notion="approx_dp", delta=1e-5).eps
    assert gdp_delta(mu, eps) == pytest.approx(1e-5, rel=1e-6)
    assert planner.budget_for_error("riemannian_gaussian", r3, 0.1, 0.3, notion="zcdp").rho == pytest.approx(mu**2 / 2)


@pytest.mark.parametrize("space", ["sphere", "hyperbolic"])
def test_expected_error_agrees_with_the_mechanisms_own_quadrature(space):
    manifold = get_manifold(space, 3)
    for mechanism in ("riemannian_laplace", "riemannian_gaussian"):
        target = PureDP(2.0) if mechanism == "riemannian_laplace" else GDP(0.8)
        mech = get_mechanism(mechanism, manifold)
        cal = mech.calibrate(target, 0.1)
        ours = planner.expected_error(mechanism, manifold, cal.noise["sigma"])
        assert ours == pytest.approx(mech.expected_distance(cal), rel=1e-8)


def test_records_for_error_is_the_smallest_sufficient_n():
    manifold = get_manifold("sphere", 2)
    radius, target = 0.5, 0.1
    kappa = manifold.curvature_bounds[1]
    for mechanism, budget in (("riemannian_laplace", PureDP(0.5)), ("riemannian_gaussian", GDP(0.5))):
        n = planner.records_for_error(mechanism, manifold, target, budget, radius)
        notion = "pure_dp" if isinstance(budget, PureDP) else "gdp"
        value = (lambda g: g.eps) if notion == "pure_dp" else (lambda g: g.mu)
        need_n = value(planner.budget_for_error(mechanism, manifold, frechet_mean_sensitivity(n, radius, kappa),
                                                target, notion))
        need_before = value(planner.budget_for_error(mechanism, manifold,
                                                     frechet_mean_sensitivity(n - 1, radius, kappa), target, notion))
        assert need_n <= value(budget) * (1 + 1e-9) < need_before


def test_curvature_comparison_orders_the_spaces():
    out = planner.curvature_comparison("riemannian_laplace", 2, 0.1, 0.2, notion="pure_dp")
    assert list(out) == ["S^2", "R^2", "H^2"]
    # the same mean error needs the least noise... and so the most budget where volume grows fastest
    assert out["S^2"].eps < out["R^2"].eps < out["H^2"].eps


def test_bad_questions_raise_value_errors():
    s2 = get_manifold("sphere", 2)
    with pytest.raises(InvalidParameterError, match="mechanism"):
        planner.budget_for_error("nope", s2, 0.1, 0.2)
    with pytest.raises(InvalidParameterError, match="target_error"):
        planner.budget_for_error("riemannian_laplace", s2, 0.1, -1.0)
    with pytest.raises(UnavailableError, match="smaller error"):
        planner.budget_for_error("riemannian_laplace", s2, 0.1, 2.0)  # beyond the uniform law's π/2
    with pytest.raises(InvalidParameterError, match="delta"):
        planner.budget_for_error("riemannian_gaussian", s2, 0.1, 0.2, notion="approx_dp")
    with pytest.raises(UnavailableError, match="unbounded"):
        planner.budget_for_error("riemannian_gaussian", s2, 0.1, 0.2, notion="pure_dp")
    with pytest.raises(InvalidParameterError, match="quantile"):
        planner.scale_for_error("riemannian_gaussian", s2, 0.2, quantile=1.5)
    with pytest.raises(InvalidParameterError, match="budget"):
        planner.records_for_error("riemannian_gaussian", s2, 0.2, 0.5, 0.5)
    assert isinstance(planner.budget_for_error("riemannian_laplace", s2, 0.1, 0.2, notion="zcdp"), ZCDP)


@pytest.mark.parametrize("space, dim", [("sphere", 2), ("hyperbolic", 2), ("so3", 3)])
def test_plan_series_orders_the_accountants_and_meets_the_total(space, dim):
    """Tight composition gives each release at least what GDP composition gives, which beats basic composition;
    the tight share's k-fold composition meets the total and the errors follow the noise."""
    from geodp_core.geometry import get_manifold
    from geodp_core.mechanisms import get_mechanism
    from geodp_core.planner import plan_series
    from geodp_core.privacy import ApproxDP, compose_releases

    manifold = get_manifold(space, dim)
    rows = {row.accountant: row for row in plan_series("riemannian_gaussian", manifold, 0.05, ApproxDP(2.0, 1e-5), 12)}
    assert rows["basic"].scale > rows["gdp"].scale >= rows["tight"].scale
    assert rows["basic"].expected_error > rows["gdp"].expected_error >= rows["tight"].expected_error
    calibration = get_mechanism("riemannian_gaussian", manifold).calibrate(rows["tight"].per_release, 0.05)
    assert compose_releases([(calibration, manifold)] * 12).epsilon(1e-5) <= 2.0


def test_plan_series_refuses_a_total_that_is_not_an_epsilon_delta_budget():
    from geodp_core.geometry import get_manifold
    from geodp_core.planner import plan_series
    from geodp_core.privacy import GDP

    with pytest.raises(InvalidParameterError) as info:
        plan_series("riemannian_gaussian", get_manifold("sphere", 2), 0.05, GDP(1.0), 12)
    assert info.value.param == "total"
