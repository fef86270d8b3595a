"""Constraints declared once: what a control offers, the Scenario accepts and the URL checker agrees."""

import pytest

from geodp_core import constraints as C
from geodp_core.exceptions import InvalidParameterError
from geodp_core.scenario import Scenario


@pytest.mark.parametrize("key", sorted(C.WIDGET_RANGES))
def test_widget_ranges_are_inside_the_scenario_ranges(key):
    low, high = C.WIDGET_RANGES[key]
    for value in (low, high):
        Scenario(**{key: value})  # accepted


@pytest.mark.parametrize("name, grid", [("eps", C.EPS_GRID), ("mu", C.MU_GRID), ("delta", C.DELTA_GRID),
                                        ("rho", C.RHO_GRID), ("eps", C.CONFORMAL_EPS_GRID),
                                        ("eps", C.REGRESSION_EPS_GRID), ("eps", C.AUDIT_EPS_GRID)])
def test_every_grid_value_is_a_valid_scenario_value(name, grid):
    assert list(grid) == sorted(grid)
    for value in grid:
        Scenario(**{name: value})


@pytest.mark.parametrize("key", sorted(C.SCENARIO_RANGES))
def test_scenario_rejects_values_beyond_its_declared_range(key):
    low, high, low_closed, high_closed = C.SCENARIO_RANGES[key]
    beyond = high + 1 if isinstance(high, int) else high * 1.5
    with pytest.raises(InvalidParameterError) as info:
        Scenario(**{key: beyond})
    assert info.value.param == key


@pytest.mark.parametrize("manifold", ["sphere", "hyperbolic", "euclidean", "spd"])
def test_dimension_range_is_the_scenarios(manifold):
    low, high = C.dim_range(manifold)
    Scenario(manifold=manifold, dim=high, data="uniform_ball", mechanisms=("riemannian_laplace",))
    with pytest.raises(InvalidParameterError, match="dim"):
        Scenario(manifold=manifold, dim=high + 1, data="uniform_ball", mechanisms=("riemannian_laplace",))


def test_url_checker_reads_the_same_ranges():
    from geodp_app.url_params import URL_PARAMS

    for key, (low, high) in C.WIDGET_RANGES.items():
        assert (URL_PARAMS[key].low, URL_PARAMS[key].high) == (low, high), key
    assert URL_PARAMS["eps"].grid == C.EPS_GRID and URL_PARAMS["mu"].grid == C.MU_GRID


def test_dimension_ranges_are_the_manifold_classes():
    from geodp_core.geometry import MANIFOLD_NAMES, manifold_class

    for code in MANIFOLD_NAMES:
        cls = manifold_class(code)
        low, high = C.dim_range(code)
        assert (low, high) == tuple(cls.app_size_range)
        assert C.curve_dim_range(code) == (low, min(high, low + cls.size_sweep_steps))
    assert C.dim_range("spd") == (2, 11) and C.curve_dim_range("spd") == (2, 4)
    assert C.dim_range("kendall") == (3, 100) and C.curve_dim_range("sphere") == (1, 10)
    with pytest.raises(InvalidParameterError, match="name"):
        C.dim_range("torus")
