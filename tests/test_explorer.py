"""run_scenario: the computation behind the Explorer page."""

import numpy as np
import pytest

from geodp_core.explorer import (
    public_center,
    resample_releases,
    results_table,
    run_scenario,
)
from geodp_core.scenario import Scenario
from geodp_core.summaries import frechet_mean_sensitivity


def test_run_scenario_default():
    scenario = Scenario(n=50, n_releases=30)
    result = run_scenario(scenario)
    manifold = result.manifold
    assert manifold.belongs(result.data).all()
    # clipped data lie in the public ball, and the sensitivity is Reimherr's bound for it
    assert np.all(manifold.dist(result.center, result.data) <= scenario.radius * (1 + 1e-9))
    assert result.sensitivity == pytest.approx(frechet_mean_sensitivity(50, scenario.radius, 1.0))
    for outcome in result.outcomes:
        assert outcome.status == "ok", outcome.reason
        assert outcome.releases.shape == (30, 3)
        assert outcome.calibration.achieved is not None


def test_same_seed_same_result_and_resample_is_reproducible():
    scenario = Scenario(n=40, n_releases=10, seed=5)
    a, b = run_scenario(scenario), run_scenario(scenario)
    np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(a.outcomes[0].releases, b.outcomes[0].releases)
    r1, r2 = resample_releases(a, 1), resample_releases(a, 1)
    np.testing.assert_array_equal(r1.outcomes[0].releases, r2.outcomes[0].releases)
    assert not np.array_equal(r1.outcomes[0].releases, a.outcomes[0].releases)
    np.testing.assert_array_equal(r1.data, a.data)  # resampling never recomputes the data


def test_public_center_does_not_depend_on_data():
    s1 = Scenario(seed=1, center_offset=(0.2, 0.1))
    s2 = Scenario(seed=2, center_offset=(0.2, 0.1), spread=0.5)
    np.testing.assert_array_equal(public_center(s1), public_center(s2))
    assert run_scenario(s1).center.tolist() == run_scenario(s2).center.tolist()


def test_unavailable_mechanisms_reported_with_reason():
    scenario = Scenario(mechanisms=("ew_laplace", "riemannian_laplace"), n_releases=5)
    result = run_scenario(scenario)
    ew = result.outcomes[0]
    assert ew.status == "unavailable" and "Hadamard" in ew.reason
    rows = results_table(result)
    assert rows[0]["guarantee label"] == "unavailable" and "Hadamard" in rows[0]["reason"]
    assert any(r["mechanism"] == "Riemannian Laplace" and "distance to the true mean (radians)" in r for r in rows)


def test_results_table_records_the_setting_in_readable_columns():
    from geodp_core.privacy import ApproxDP

    scenario = Scenario(mechanisms=("riemannian_gaussian",), n_releases=4, n=37, seed=5, notion="approx_dp",
                        eps=2.0, delta=1e-6)
    result = run_scenario(scenario)
    rows = results_table(result)
    assert len(rows) == 4 and [r["release"] for r in rows] == [1, 2, 3, 4]
    row = rows[0]
    assert row["space"] == "S²" and row["records n"] == 37 and row["seed"] == 5
    assert row["ε"] == 2.0 and row["δ"] == 1e-6 and row["privacy target"] == ApproxDP(2.0, 1e-6).describe()
    assert row["mechanism"] == "Riemannian Gaussian" and row["guarantee label"] == "exact"
    assert row["distance to the true mean (radians)"] == pytest.approx(result.outcomes[0].distances[0])
    assert [k for k in row if k.startswith("coordinate")] == ["coordinate 1", "coordinate 2", "coordinate 3"]
    for key in row:  # no code names as columns
        assert "_" not in key and key not in ("mechanism_name", "label", "x0"), key
    flat = results_table(run_scenario(Scenario(manifold="euclidean", data="uniform_ball", n_releases=2, n=20)))
    assert "distance to the true mean (data units)" in flat[0]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(manifold="hyperbolic", data="karate", radius=2.0, mechanisms=("ew_gaussian", "riemannian_laplace"), notion="gdp"),
        dict(manifold="spd", dim=2, data="connectomes", radius=1.0, mechanisms=("ew_laplace",)),
        dict(manifold="sphere", data="cities", radius=0.7, mechanisms=("riemannian_laplace",)),
        dict(manifold="sphere", data="vmf_mixture", mechanisms=("riemannian_gaussian",), notion="gdp"),
    ],
)
def test_real_and_mixture_data(kwargs):
    result = run_scenario(Scenario(n_releases=5, **kwargs))
    assert result.manifold.belongs(result.data).all()
    assert result.n_clipped >= 0
    assert all(o.status in ("ok", "unavailable") for o in result.outcomes)


def test_conformal_lab_offers_the_meshed_surfaces_and_says_why_not_the_others(monkeypatch):
    # The lab needs a public triangle mesh (the space's mesh_kind); every other registered space, SO(3) included, is
    # listed with a plain reason built from what the space and the conformal mechanism declare.
    from geodp_core import conformal_lab
    from geodp_core.geometry import MANIFOLD_NAMES, Sphere, get_manifold
    from geodp_core.mechanisms import mechanism_class

    assert conformal_lab.lab_spaces() == tuple(conformal_lab.DATA_KINDS) == ("sphere", "hyperbolic")
    others = conformal_lab.spaces_not_offered()
    assert len(others) == len(MANIFOLD_NAMES) - 2
    rotations = others["Rotations SO(3)"]
    assert "dimension 3" in rotations and "triangle mesh" in rotations and "not available there" in rotations
    assert "finite-element Laplacian" in conformal_lab.LAB_NEEDS
    assert "point set" in others["Euclidean ℝ²"] and "Explorer" in others["Euclidean ℝ²"]
    assert mechanism_class("conformal").availability(get_manifold("euclidean", 2)).ok
    assert not mechanism_class("conformal").availability(get_manifold("so3")).ok
    assert not any("_" in reason or "^" in reason for reason in others.values())  # plain words, typeset symbols
    monkeypatch.setattr(Sphere, "mesh_kind", property(lambda self: None))
    assert conformal_lab.lab_spaces() == ("hyperbolic",) and "Sphere S²" in conformal_lab.spaces_not_offered()


def test_conformal_lab_run_from_core_without_streamlit():
    """The Conformal lab's computation is a plain geodp_core function (the page only caches and draws)."""
    from geodp_core.conformal_lab import LabSettings, run_conformal_lab
    from geodp_core.pipeline import prepare

    scenario = Scenario(manifold="sphere", dim=2, data="vmf_mixture", n=200, spread=0.25, radius=0.7,
                        notion="pure_dp", eps=2.0, seed=3, mechanisms=("conformal", "riemannian_laplace"))
    lab = run_conformal_lab(scenario, LabSettings(eps_phi_share=0.3, mesh_size=300, n_releases=20))
    # the same scenario gives the same data as on the Explorer (one pipeline)
    np.testing.assert_array_equal(lab.data, prepare(scenario).data)
    assert lab.releases.shape == (20, 3) and lab.rl_releases.shape == (20, 3)
    assert lab.calibration.label == "exact"
    assert 0 < lab.fields.phi_min <= lab.fields.phi_max
    assert lab.manifold.belongs(lab.releases).all()
    assert lab.calibration.achieved.eps <= 2.0
