"""Scenario: validation, URL and JSON round trips, Python snippet."""

import numpy as np
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.privacy import GDP, RDP, ApproxDP, PureDP
from geodp_core.scenario import Scenario


def test_defaults_valid_and_target():
    s = Scenario()
    assert s.target == ApproxDP(1.0, 1e-5)
    assert Scenario(notion="pure_dp").target == PureDP(1.0)
    assert Scenario(notion="approx_dp", eps=0.5, delta=1e-6).target == ApproxDP(0.5, 1e-6)
    assert Scenario(notion="gdp", mu=2.0).target == GDP(2.0)
    assert Scenario(notion="rdp", alpha=4.0, eps=0.3).target == RDP(4.0, 0.3)


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario(),
        Scenario(manifold="hyperbolic", dim=3, data="wrapped_normal", radius=2.0, mechanisms=("ew_laplace",)),
        Scenario(manifold="spd", dim=2, metric="log_cholesky", data="uniform_ball", center_offset=(0.1, 0.2, 0.3)),
        Scenario(notion="approx_dp", eps=0.2, delta=1e-7, seed=42, n_releases=17),
        Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=3, radius=8.0),
        Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=0, radius=8.0),
        Scenario(manifold="spd", dim=11, metric="log_euclidean", data="image_patches_covariance", radius=7.5),
        Scenario(manifold="spd", dim=3, data="connectomes", data_class=1, radius=1.0),
    ],
)
def test_round_trips(scenario):
    assert Scenario.from_json(scenario.to_json()) == scenario
    assert Scenario.from_query_params(scenario.to_query_params()) == scenario
    assert Scenario.from_dict(scenario.to_dict()) == scenario
    assert hash(scenario) == hash(Scenario.from_json(scenario.to_json()))


def test_query_params_omit_defaults():
    assert Scenario().to_query_params() == {}
    assert Scenario(eps=2.0).to_query_params() == {"eps": "2.0"}


@pytest.mark.parametrize(
    "kwargs, param",
    [
        (dict(manifold="torus"), "manifold"),
        (dict(radius=0.9), "radius"),  # r >= r* = pi/4 on the sphere
        (dict(radius=-1.0), "radius"),
        (dict(n=1), "n"),
        (dict(eps=0.0), "eps"),
        (dict(eps=float("nan")), "eps"),
        (dict(notion="approx_dp", delta=1.5), "delta"),
        (dict(alpha=1.0), "alpha"),
        (dict(mechanisms=("magic",)), "mechanisms"),
        (dict(mechanisms=()), "mechanisms"),
        (dict(data="karate"), "data"),  # karate lives on H^2, not the sphere
        (dict(data="cities", dim=3), "dim"),
        (dict(center_offset=(1.0,)), "center_offset"),
        (dict(metric="affine"), "metric"),
        (dict(seed=-3), "seed"),
        (dict(manifold="spd", dim=4, data="digits_covariance"), "dim"),  # the descriptors are 9 x 9
        (dict(manifold="spd", dim=9, data="image_patches_covariance"), "dim"),  # 11 x 11
        (dict(manifold="spd", dim=12, data="uniform_ball"), "dim"),  # SPD(m) up to m = 11
        (dict(manifold="spd", dim=9, data="digits_covariance", data_class=10), "data_class"),
        (dict(manifold="spd", dim=9, data="digits_covariance", data_class=-1), "data_class"),
        (dict(manifold="spd", dim=9, data="digits_covariance", data_class=True), "data_class"),
        (dict(manifold="spd", dim=9, data="digits_covariance", data_class="x"), "data_class"),
        (dict(manifold="spd", dim=11, data="image_patches_covariance", data_class=2), "data_class"),
        (dict(data="vmf", data_class=0), "data_class"),  # synthetic data have no classes
        (dict(data="cities", data_class=0), "data_class"),  # real but unlabelled
    ],
)
def test_validation_names_parameter(kwargs, param):
    with pytest.raises(InvalidParameterError) as info:
        Scenario(**kwargs)
    assert info.value.param == param
    assert param in str(info.value)


def test_data_class_messages_give_the_valid_labels():
    with pytest.raises(InvalidParameterError) as info:
        Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=12)
    assert "from 0 to 9" in str(info.value) and "12" in str(info.value)


def test_data_class_in_urls_and_json():
    base = dict(manifold="spd", dim=9, data="digits_covariance", radius=8.0)
    assert Scenario(**base, data_class=4).to_query_params()["data_class"] == "4"
    assert "data_class" not in Scenario(**base).to_query_params()  # every class: the default, omitted
    params = {"manifold": "spd", "dim": "9", "data": "digits_covariance", "radius": "8"}
    assert Scenario.from_query_params({**params, "data_class": "all"}).data_class is None
    assert Scenario.from_query_params({**params, "data_class": "5"}).data_class == 5
    with pytest.raises(InvalidParameterError) as info:
        Scenario.from_query_params({**params, "data_class": "five"})
    assert info.value.param == "data_class"
    assert Scenario.from_json(Scenario(**base).to_json()).data_class is None
    assert Scenario.from_dict({**base, "data_class": 7.0}).data_class == 7
    for bad in ("7", True, [7]):
        with pytest.raises(InvalidParameterError) as info:
            Scenario.from_dict({**base, "data_class": bad})
        assert info.value.param == "data_class"


def test_preset_without_a_class_drops_the_class_of_the_base():
    from geodp_core.scenario import PRESETS, preset_scenario

    digits = next(name for name in PRESETS if "digit" in name)
    base = preset_scenario(digits)
    assert base.data_class == 3 and base.dim == 9
    connectomes = preset_scenario(next(name for name in PRESETS if "connectomes" in name), base=base)
    assert connectomes.data_class is None and connectomes.data == "connectomes" and connectomes.dim == 2


def test_descriptor_data_use_the_public_reference_centre_and_the_class():
    from geodp_core.data import descriptor_public_center, load_dataset
    from geodp_core.pipeline import prepare, public_center

    scenario = Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=3, radius=8.0)
    np.testing.assert_allclose(public_center(scenario), descriptor_public_center(9))
    prepared = prepare(scenario)
    expected = load_dataset("digits_covariance", label=3).points
    assert prepared.n_clipped == 0
    np.testing.assert_allclose(prepared.data, expected)
    assert prepared.sensitivity == pytest.approx(2 * 8.0 / len(expected))


def test_bad_json_and_unknown_fields():
    with pytest.raises(InvalidParameterError, match="JSON"):
        Scenario.from_json("{not json")
    with pytest.raises(InvalidParameterError, match="unknown field"):
        Scenario.from_dict({"manifold": "sphere", "colour": "red"})
    with pytest.raises(InvalidParameterError, match="number"):
        Scenario.from_query_params({"n": "many"})


def test_python_snippet_reproduces(tmp_path):
    scenario = Scenario(n=30, n_releases=5, mechanisms=("riemannian_laplace",))
    code = scenario.to_python_snippet()
    namespace = {}
    exec(compile(code, "snippet", "exec"), namespace)  # noqa: S102 - our own generated code
    result = namespace["result"]
    assert result.scenario == scenario
    assert np.isfinite(result.outcomes[0].mean_distance)


def test_scenario_file_keeps_page_settings():
    scenario = Scenario(manifold="hyperbolic", data="uniform_ball", n=40)
    settings = {"conformal_n": "300", "audit_mechanism": ["Riemannian Laplace"], "regression_eps": 2.0}
    text = scenario.to_json(settings)
    loaded, pages = Scenario.read_file(text)
    assert loaded == scenario and Scenario.from_json(text) == scenario
    assert pages == {"conformal_n": "300", "audit_mechanism": ["Riemannian Laplace"], "regression_eps": "2.0"}
    assert Scenario.read_file(scenario.to_json())[1] == {}


@pytest.mark.parametrize("bad, where", [
    ([1, 2], "object"), ({"conformal_n": None}, "text or a number"), ({"conformal_n": {"a": 1}}, "text or a number"),
    ({"conformal_n": True}, "text or a number"), ({f"k{i}": "1" for i in range(401)}, "at most 400"),
])
def test_bad_page_settings_name_the_field(bad, where):
    import json

    text = json.dumps({**Scenario().to_dict(), "page_settings": bad})
    with pytest.raises(InvalidParameterError, match=where) as info:
        Scenario.read_file(text)
    assert info.value.param == "page_settings"


def test_python_snippet_runs_the_pages_study():
    scenario = Scenario(n=30, n_releases=5, mechanisms=("riemannian_laplace",))
    study = "from geodp_core.experiments import utility_curve\n\nframe = utility_curve(scenario, [0.5, 2.0], 5)\n"
    code = scenario.to_python_snippet({"curves_x": "privacy budget"}, study)
    namespace = {}
    exec(compile(code, "snippet", "exec"), namespace)  # noqa: S102 - our own generated code
    assert namespace["page_settings"] == {"curves_x": "privacy budget"}
    assert namespace["scenario"] == scenario and len(namespace["frame"]) == 2


@pytest.mark.parametrize("name", list(__import__("geodp_core.scenario", fromlist=["PRESETS"]).PRESETS))
def test_every_preset_is_valid_and_runs(name):
    from geodp_core.explorer import run_scenario
    from geodp_core.scenario import preset_scenario

    scenario = preset_scenario(name).with_changes(n_releases=5)
    result = run_scenario(scenario)
    statuses = {o.name: o.status for o in result.outcomes}
    # a preset is a showcase: every mechanism it names must actually release
    assert all(s == "ok" for s in statuses.values()), [(o.name, o.reason) for o in result.outcomes]


def test_python_snippet_reproduces_a_descriptor_class_scenario():
    scenario = Scenario(manifold="spd", dim=9, data="digits_covariance", data_class=6, radius=8.0, n_releases=5,
                        mechanisms=("riemannian_gaussian",))
    namespace = {}
    exec(compile(scenario.to_python_snippet(), "snippet", "exec"), namespace)  # noqa: S102 - our own generated code
    assert namespace["scenario"] == scenario
    assert len(namespace["result"].data) == 181  # the images of the digit 6


def test_class_subset_of_the_karate_club():
    from geodp_core.explorer import run_scenario

    result = run_scenario(Scenario(manifold="hyperbolic", data="karate", data_class=2, radius=3.0, n_releases=5,
                                   mechanisms=("riemannian_laplace",)))
    assert 0 < len(result.data) < 34


@pytest.mark.parametrize("manifold, dim, data", [("sphere", 2, "vmf"), ("hyperbolic", 2, "uniform_ball"),
                                                 ("kendall", 12, "shape_perturbation")])
def test_center_offset_limit_is_the_manifolds(manifold, dim, data):
    from geodp_core.geometry import get_manifold, manifold_class

    limit = manifold_class(manifold).center_offset_limit
    size = get_manifold(manifold, dim).dim
    inside = (0.99 * limit / np.sqrt(size),) * size
    outside = (1.01 * limit / np.sqrt(size),) * size
    kwargs = dict(manifold=manifold, dim=dim, data=data, spread=0.05, radius=0.3)
    assert Scenario(**kwargs, center_offset=inside).center_offset == inside
    with pytest.raises(InvalidParameterError, match=f"within distance {limit:g}") as info:  # Kendall: was a KeyError
        Scenario(**kwargs, center_offset=outside)
    assert info.value.param == "center_offset"


def test_metric_default_and_choices_are_the_manifold_classes():
    from geodp_core.geometry import manifold_class

    assert Scenario(manifold="spd", dim=2, data="wishart").metric == manifold_class("spd").metric_choices[0]
    with pytest.raises(InvalidParameterError, match="metric applies only to SPD matrices; got 'affine'"):
        Scenario(manifold="sphere", metric="affine")


def test_neighbouring_targets_are_one_grid_step_either_side():
    from geodp_core.privacy import GDP, ApproxDP, PureDP

    assert Scenario(notion="approx_dp", eps=1.0).neighbouring_targets() == (ApproxDP(0.5, 1e-5), ApproxDP(2.0, 1e-5))
    assert Scenario(notion="pure_dp", eps=0.01).neighbouring_targets() == (PureDP(0.02),)  # the grid's first value
    assert Scenario(notion="gdp", mu=10.0).neighbouring_targets() == (GDP(5.0),)
    assert Scenario(notion="rdp").neighbouring_targets() == ()


def _run_file(code, tmp_path, pythonpath, *flags):
    import os
    import subprocess
    import sys

    path = tmp_path / "geodp_reproduce.py"
    path.write_text(code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, *flags, str(path)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)


def test_downloaded_snippet_says_what_it_needs_and_runs_as_a_file(tmp_path):
    """The file the pages offer: its first lines say it needs the package (``pip install .`` in the project's
    folder); run as a script from another folder with the repository on PYTHONPATH (as after ``pip install .``)
    it prints every mechanism's result; without the package it stops with that advice, not a traceback."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    scenario = Scenario(n=30, n_releases=5, mechanisms=("riemannian_laplace", "riemannian_gaussian"))
    code = scenario.to_python_snippet({"explorer_camera": "oblique"})
    head = "\n".join(code.splitlines()[:6])
    assert "pip install ." in head and "geodp_core" in head and "GeoDP Explorer folder" in head
    out = _run_file(code, tmp_path, str(root))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Riemannian Laplace ok" in out.stdout and "Riemannian Gaussian ok" in out.stdout, out.stdout
    missing = _run_file(code, tmp_path, "", "-S")  # no site-packages: as on a machine without the package
    assert missing.returncode != 0 and "pip install ." in missing.stderr and "Traceback" not in missing.stderr
