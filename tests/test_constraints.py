"""Constraints declared once: what a control offers, the Scenario accepts and the URL checker agrees."""

import numpy as np
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


# --------------------------------------------------------------------------- cost limits (declared once)
def test_records_times_dimension_is_bounded_with_the_largest_value_named():
    """``Scenario(dim=1000, n=100000)`` was valid and took 64–108 s and 8.7 GB to prepare."""
    with pytest.raises(InvalidParameterError, match="the largest n allowed at dim = 1000") as info:
        Scenario(dim=1000, n=100_000)
    assert info.value.param == "n"
    largest = C.largest_count(C.MAX_RECORD_COORDINATES, 1001)
    assert f"is {largest}" in str(info.value)
    Scenario(dim=1000, n=largest)  # the value the message names is accepted
    with pytest.raises(InvalidParameterError, match="n = 1999"):
        Scenario(dim=1000, n=largest + 1)
    Scenario(dim=2, n=C.WIDGET_RANGES["n"][1])  # the control's range at the default dimension is unchanged


def test_releases_times_dimension_is_bounded_across_mechanisms():
    with pytest.raises(InvalidParameterError, match="largest n_releases allowed at dim = 1000 with 3 mechanisms") as info:
        Scenario(dim=1000, n_releases=C.WIDGET_RANGES["n_releases"][1])
    assert info.value.param == "n_releases"
    largest = C.largest_count(C.MAX_RELEASE_COORDINATES, 3 * 1001)
    Scenario(dim=1000, n_releases=largest)
    with pytest.raises(InvalidParameterError):
        Scenario(dim=1000, n_releases=largest + 1)


def test_real_datasets_ignore_n_in_the_cost():
    Scenario(manifold="spd", dim=9, data="digits_covariance", radius=8.0, n=100_000)  # n does not apply


def test_every_bundled_dataset_is_within_the_declared_real_data_bound():
    from geodp_core.data import load_dataset

    for name in ("cities", "connectomes", "karate", "optical_nerves", "hands", "digits_covariance",
                 "image_patches_covariance"):
        assert np.asarray(load_dataset(name).points).size <= C.MAX_REAL_DATA_COORDINATES, name
    from geodp_core.data import shapes

    largest_k = C.dim_range("kendall")[1]
    assert np.asarray(shapes.load_planar_cells(k=largest_k).points).size <= C.MAX_REAL_DATA_COORDINATES


def test_defaults_and_presets_are_valid_small_and_unchanged():
    from geodp_core.scenario import PRESETS, preset_scenario

    default = Scenario()
    assert (default.n, default.n_releases, default.dim) == (100, 200, 2)
    for name in PRESETS:
        scenario = preset_scenario(name)
        assert scenario.result_bytes_bound() <= C.SMALL_RESULT_BYTES, name
    assert default.result_bytes_bound() <= C.SMALL_RESULT_BYTES


def test_sample_checks_size_times_dimension_before_allocating():
    """``sample(size=10**7)`` on S^1000 raised a raw MemoryError."""
    from geodp_core.geometry import get_manifold
    from geodp_core.mechanisms import get_mechanism
    from geodp_core.mechanisms.base import check_sample_size
    from geodp_core.privacy import PureDP

    sphere = get_manifold("sphere", 1000)
    mechanism = get_mechanism("riemannian_laplace", sphere)
    calibration = mechanism.calibrate(PureDP(1.0), 0.1)
    with pytest.raises(InvalidParameterError, match="the largest size allowed on S\\^1000") as info:
        mechanism.sample(sphere.default_center(), calibration, 10**7, np.random.default_rng(0))
    assert info.value.param == "size"
    largest = C.largest_count(C.MAX_SAMPLE_COORDINATES, 1001)
    assert check_sample_size(largest, sphere) == largest
    with pytest.raises(InvalidParameterError):
        check_sample_size(largest + 1, sphere)
    assert check_sample_size(10**7, get_manifold("sphere", 2)) == 10**7  # small spaces keep the old limit


def test_uploads_are_bounded_like_generated_data():
    from geodp_core import pipeline

    rng = np.random.default_rng(0)
    points = rng.standard_normal((2000, 1001))
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    scenario = Scenario(dim=1000, data="upload", mechanisms=("riemannian_laplace",))
    with pytest.raises(InvalidParameterError, match="upload at most 1998 records") as info:
        pipeline.prepare(scenario, points)
    assert info.value.param == "upload"


def test_the_app_result_caches_are_bounded_in_bytes():
    """The Explorer's cache kept up to 32 results of up to 2 GB each."""
    from geodp_app import cache

    total = cache.SMALL_ENTRIES * C.SMALL_RESULT_BYTES + cache.LARGE_ENTRIES * C.MAX_RESULT_BYTES
    assert total <= C.MAX_CACHED_BYTES and cache.LARGE_ENTRIES >= 1
    assert cache.cache_for(Scenario()) == "small"
    big = Scenario(dim=1000, n=1998, n_releases=666)
    assert cache.cache_for(big) == "large" and big.result_bytes_bound() <= C.MAX_RESULT_BYTES


def test_point_set_size_is_the_conformal_default():
    from geodp_core.mechanisms.conformal import POINT_SET_DEFAULTS

    assert POINT_SET_DEFAULTS["n_points"] == C.POINT_SET_POINTS


def test_a_result_at_the_cost_limits_is_within_its_byte_bound():
    import pickle

    from geodp_core.explorer import run_scenario

    scenario = Scenario(manifold="euclidean", dim=1000, data="uniform_ball", spread=1.0, radius=1.0, n=2000,
                        n_releases=1000, mechanisms=("conformal", "riemannian_laplace"))
    size = len(pickle.dumps(run_scenario(scenario)))
    assert size <= scenario.result_bytes_bound() <= C.MAX_RESULT_BYTES


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
