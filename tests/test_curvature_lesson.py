"""The curvature lesson: same data scale and budget on S^d, R^d, H^d; Δ differs by curvature, as the theory says."""

import numpy as np
import pytest

from geodp_core.curvature_lesson import curvature_lesson
from geodp_core.scenario import Scenario
from geodp_core.summaries import frechet_mean_sensitivity
from geodp_core.viz.lesson import curvature_figure


def test_sensitivities_follow_the_curvature():
    lesson = curvature_lesson(Scenario(n=100, radius=0.7, mechanisms=("riemannian_laplace",)))
    by = {r.space: r for r in lesson.rows}
    assert by["euclidean"].sensitivity == pytest.approx(2 * 0.7 / 100)
    assert by["hyperbolic"].sensitivity == pytest.approx(2 * 0.7 / 100)  # Hadamard: the flat value
    assert by["sphere"].sensitivity == pytest.approx(frechet_mean_sensitivity(100, 0.7, 1.0))
    assert by["sphere"].sensitivity > 5 * by["euclidean"].sensitivity
    assert "further on the sphere" in lesson.sentence and "7.28×" in lesson.sentence


def test_noise_spreads_farther_on_hyperbolic_space_at_large_noise():
    lesson = curvature_lesson(Scenario(dim=5, eps=0.1, mechanisms=("riemannian_laplace",)), n_releases=2000)
    by = {r.space: r for r in lesson.rows}
    assert all(r.status == "ok" for r in lesson.rows)
    assert by["hyperbolic"].mean_distance > 1.05 * by["euclidean"].mean_distance
    assert "hyperbolic releases land farther" in lesson.sentence


def test_small_noise_says_curvature_does_not_matter_yet():
    lesson = curvature_lesson(Scenario(eps=5.0, mechanisms=("riemannian_laplace",)), n_releases=2000)
    assert "give the same distances" in lesson.sentence


def test_unavailable_space_is_reported_not_hidden():
    lesson = curvature_lesson(Scenario(notion="gdp", mu=0.01, mechanisms=("riemannian_gaussian",)), n_releases=50)
    statuses = {r.space: r.status for r in lesson.rows}
    assert statuses["hyperbolic"] == "unavailable" and statuses["sphere"] == "ok"
    assert "cannot meet this target" in lesson.sentence


def test_spd_and_real_data_scenarios_use_a_synthetic_ball():
    lesson = curvature_lesson(Scenario(manifold="spd", dim=2, data="uniform_ball"))
    assert lesson.dim == 3 and len(lesson.rows) == 3
    lesson = curvature_lesson(Scenario(data="cities"))
    assert lesson.n == 100


def test_figure_has_three_panels_and_is_small():
    fig = curvature_figure(curvature_lesson(Scenario()))
    assert len(fig.data) == 3 and len(fig.to_json()) < 40_000
    assert "rad" in fig.layout.xaxis3.title.text  # one shared x-axis, titled under the bottom panel
    for i in ("", "2", "3"):  # stacked full-width panels: titles and ticks readable on a phone
        assert list(fig.layout[f"xaxis{i}"].domain) == [0.0, 1.0]
    assert np.isclose(sum(fig.data[0].y), 1.0)


def test_a_radius_beyond_the_sphere_limit_is_brought_inside():
    lesson = curvature_lesson(Scenario(manifold="hyperbolic", data="uniform_ball", radius=1.5))
    assert lesson.radius < 3.1416 / 4 and all(r.sensitivity > 0 for r in lesson.rows)
