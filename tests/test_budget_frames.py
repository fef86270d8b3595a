"""The Explorer's budget frames: coupled releases over the public budget grid and the scene's animation frames.

Statistical test: alpha = 1e-6, fixed seed (the frame at the scenario's own budget has the mechanism's law there).
"""

import json

import numpy as np
import plotly.io as pio
import pytest
from scipy import stats

from geodp_core.constraints import EPS_GRID, MU_GRID
from geodp_core.explorer import MAX_FRAME_RELEASES, budget_frames, budget_grid, run_scenario
from geodp_core.mechanisms import get_mechanism
from geodp_core.scenario import Scenario
from geodp_core.viz import scene_figure

ALPHA = 1e-6

#: The Explorer's default view of each space that has coupled releases (payload measured on these).
VIEWS = {
    "sphere": Scenario(),
    "hyperbolic": Scenario(manifold="hyperbolic", data="wrapped_normal"),
    "euclidean": Scenario(manifold="euclidean", data="wrapped_normal"),
    "kendall": Scenario(manifold="kendall", dim=5, data="shape_perturbation", radius=0.3),
    "so3": Scenario(manifold="so3", dim=3, data="wrapped_normal", radius=0.3),
    "spd_log_euclidean": Scenario(manifold="spd", dim=2, metric="log_euclidean", data="wrapped_normal", radius=0.3),
}


@pytest.fixture(scope="module")
def sphere_frames():
    result = run_scenario(Scenario())
    return result, budget_frames(result)


def test_the_grid_is_the_controls_grid_with_the_scenarios_value():
    assert budget_grid(Scenario(notion="approx_dp", eps=1.0))[:2] == ("eps", EPS_GRID)
    assert budget_grid(Scenario(notion="gdp", mu=1.0))[:2] == ("mu", MU_GRID)
    field, values, symbol, words = budget_grid(Scenario(notion="pure_dp", eps=0.3))  # off the grid
    assert field == "eps" and 0.3 in values and list(values) == sorted(values) and symbol == "ε"
    assert "ε" in words and "eps" not in words


def test_frames_are_coupled_releases_at_each_budget(sphere_frames):
    result, frames = sphere_frames
    scenario = result.scenario
    assert frames.values == EPS_GRID and frames.values[frames.current] == scenario.eps
    assert frames.targets[frames.current] == scenario.target
    by_name = {m.name: m for m in frames.mechanisms}
    assert by_name["brownian_motion"].status == "not coupled" and by_name["brownian_motion"].reason
    for name in ("riemannian_laplace", "riemannian_gaussian"):
        frameset = by_name[name]
        assert frameset.status == "ok" and len(frameset.releases) == len(frames.values)
        # the calibration at the scenario's own budget is the outcome's
        outcome = next(o for o in result.outcomes if o.name == name)
        assert frameset.sigmas[frames.current] == pytest.approx(outcome.calibration.noise["sigma"], rel=1e-12)
        assert all(np.diff(frameset.sigmas) < 0)
        dist = np.stack([result.manifold.dist(result.true_mean, r) for r in frameset.releases])
        assert dist.shape == (len(frames.values), min(scenario.n_releases, MAX_FRAME_RELEASES))
        assert np.all(np.diff(dist, axis=0) <= 1e-12)  # each release slides towards the mean as ε grows


def test_the_frame_at_the_scenarios_budget_has_the_mechanisms_law():
    scenario = Scenario(n_releases=2000, mechanisms=("riemannian_laplace",), notion="pure_dp", eps=2.0)
    result = run_scenario(scenario)
    frames = budget_frames(result, size=MAX_FRAME_RELEASES)
    mech = get_mechanism("riemannian_laplace", result.manifold)
    calibration = result.outcomes[0].calibration
    # pool several independent draws of the frames (each with its own stream) for power
    radii = np.concatenate([
        result.manifold.dist(result.true_mean, budget_frames(result, draw=k).mechanisms[0].releases[frames.current])
        for k in range(10)])
    assert stats.kstest(radii, lambda r: mech.distance_cdf(calibration, r)).pvalue > ALPHA


def test_draws_are_reproducible_and_independent():
    result = run_scenario(Scenario(mechanisms=("riemannian_laplace",)))
    a, b, c = budget_frames(result), budget_frames(result), budget_frames(result, draw=1)
    assert np.array_equal(a.mechanisms[0].releases[3], b.mechanisms[0].releases[3])
    assert not np.allclose(a.mechanisms[0].releases[3], c.mechanisms[0].releases[3])
    # not the releases of the outcome (their own stream)
    assert not np.allclose(a.mechanisms[0].releases[a.current][:10], result.outcomes[0].releases[:10])


def test_bad_arguments_are_named():
    from geodp_core.exceptions import InvalidParameterError

    result = run_scenario(Scenario(mechanisms=("riemannian_laplace",), n_releases=10))
    for kwargs, param in ((dict(result=None), "result"), (dict(result=result, draw=-1), "draw"),
                          (dict(result=result, size=0), "size"), (dict(result=result, size=10**6), "size"),
                          (dict(result=result, draw=1.5), "draw")):
        with pytest.raises(InvalidParameterError) as info:
            budget_frames(**kwargs)
        assert info.value.param == param


def test_budgets_where_a_mechanism_is_unavailable_have_no_cloud_and_a_reason():
    result = run_scenario(Scenario(manifold="hyperbolic", dim=3, data="wrapped_normal", notion="pure_dp", eps=5.0,
                                   mechanisms=("riemannian_laplace",)))
    frameset = budget_frames(result).mechanisms[0]
    missing = [k for k, r in enumerate(frameset.releases) if r is None]
    assert missing and missing == list(range(len(missing)))  # the smallest budgets only
    assert all(frameset.reasons[k] for k in missing) and "normalisable" in frameset.reasons[0]
    assert not any(frameset.reasons[k] for k in range(len(missing), len(frameset.releases)))


def test_affine_spd_has_no_coupled_frames():
    result = run_scenario(Scenario(manifold="spd", dim=2, data="wrapped_normal", radius=0.3))
    frames = budget_frames(result)
    assert all(m.status == "not coupled" and m.reason for m in frames.mechanisms)


def _frame_xyz(frame, trace_index):
    trace = frame.data[frame.traces.index(trace_index)]
    return [np.asarray(getattr(trace, axis), dtype=float) for axis in ("x", "y", "z")]


def test_scene_frames_show_the_coupled_clouds_and_hide_the_others(sphere_frames):
    result, frames = sphere_frames
    fig = scene_figure(result, frames=frames)
    assert len(fig.frames) == len(frames.values)
    slider = fig.layout.sliders[0]
    assert slider.active == frames.current and [s.label for s in slider.steps] == [f"{v:g}" for v in frames.values]
    assert all(s.method == "animate" for s in slider.steps)
    assert "ε" in slider.currentvalue.prefix
    index = {t.legendgroup: i for i, t in enumerate(fig.data) if t.legendgroup}
    laplace = frames.frameset("riemannian_laplace")
    for k in (0, frames.current, len(frames.values) - 1):
        x, y, z = _frame_xyz(fig.frames[k], index["riemannian_laplace"])
        np.testing.assert_allclose(np.stack([x, y, z], axis=1), laplace.releases[k], atol=1e-4)
        bm_x = _frame_xyz(fig.frames[k], index["brownian_motion"])[0]
        assert (len(bm_x) > 0) == (k == frames.current)  # no coupled releases: only at the sidebar's budget
    # the initial picture is the frame of the scenario's own budget
    np.testing.assert_allclose(np.asarray(fig.data[index["riemannian_laplace"]].x, dtype=float),
                               _frame_xyz(fig.frames[frames.current], index["riemannian_laplace"])[0], atol=1e-4)
    # the clouds differ between budgets (a frame that repeats the sidebar's cloud would pass everything else)
    first, last = (_frame_xyz(fig.frames[k], index["riemannian_gaussian"])[0] for k in (0, -1))
    assert not np.allclose(first, last, atol=1e-3)


@pytest.mark.parametrize("view", list(VIEWS))
def test_payload_per_view_is_at_most_250_kB(view):
    result = run_scenario(VIEWS[view])
    frames = budget_frames(result)
    assert any(m.status == "ok" for m in frames.mechanisms)
    fig = scene_figure(result, frames=frames)
    size = len(pio.to_json(fig, validate=False))
    assert len(fig.frames) == len(frames.values)
    assert size <= 250_000, f"{view}: {size} bytes"
    json.loads(pio.to_json(fig, validate=False))  # well-formed


def test_one_figure_serves_every_budget_of_the_grid():
    """The expensive part is built once at one budget and pointed at another: the same picture, frames and slider as
    building it at that budget (the app caches it across sidebar steps)."""
    from geodp_core.viz.scene import add_budget_frames, budget_frames_figure, show_budget

    scenario = Scenario(n_releases=60)
    at_one, at_two = run_scenario(scenario), run_scenario(scenario.with_changes(eps=2.0))
    frames_one, frames_two = budget_frames(at_one), budget_frames(at_two)
    assert frames_two.current == frames_one.current + 1
    moved = show_budget(budget_frames_figure(at_one, frames_one), at_two, frames_two, frames_two.current)
    direct = add_budget_frames(at_two, frames_two)
    assert moved.layout.sliders[0].active == direct.layout.sliders[0].active == frames_two.current
    assert "sidebar: 2" in moved.layout.sliders[0].currentvalue.suffix
    for a, b in zip(moved.data, direct.data):
        for axis in ("x", "y", "z"):
            if getattr(a, axis, None) is not None:
                np.testing.assert_array_equal(np.asarray(getattr(a, axis), dtype=float),
                                              np.asarray(getattr(b, axis), dtype=float))
    for fa, fb in zip(moved.frames, direct.frames):
        assert fa.traces == fb.traces
        for ta, tb in zip(fa.data, fb.data):
            np.testing.assert_array_equal(np.asarray(ta.x, dtype=float), np.asarray(tb.x, dtype=float))
    # Brownian motion's cloud (not coupled) is the sidebar budget's own draw, in the picture and in its frame only
    index = next(i for i, t in enumerate(moved.data) if t.legendgroup == "brownian_motion")
    bm = next(o for o in at_two.outcomes if o.name == "brownian_motion")
    np.testing.assert_allclose(np.asarray(moved.data[index].x, dtype=float), bm.releases[:, 0], atol=1e-4)
