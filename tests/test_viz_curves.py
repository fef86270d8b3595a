"""Tests of geodp_core.viz.curves: traces, dashed bounds, unavailable listings, accounting figures."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from geodp_core.experiments import utility_curve
from geodp_core.mechanisms.heat_diffusion import bm_rdp_eps, langevin_diffusion_time
from geodp_core.privacy import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    PureDP,
    gdp_delta,
    rdp_to_approx_dp,
)
from geodp_core.scenario import Scenario
from geodp_core.viz import MECHANISM_COLORS
from geodp_core.viz.curves import (
    approx_dp_profile,
    gdp_mu_vs_sigma_figure,
    heat_eps_vs_t_figure,
    langevin_t_vs_lam_figure,
    privacy_profile_figure,
    pure_dp_profile,
    tradeoff_figure,
    utility_curve_figure,
)


def _frame():
    """A synthetic curve frame: A with bounds, B without, C never available, D unavailable at one budget."""
    rows = []
    for b in (0.1, 1.0, 10.0):
        rows.append(dict(mechanism="ew_laplace", title="A", budget=b, mean=1 / b, se=0.01, label="exact", status="ok",
                         reason="", bound=2 / b))
        rows.append(dict(mechanism="riemannian_laplace", title="B", budget=b, mean=0.5 / b, se=0.02, label="exact",
                         status="ok", reason="", bound=np.nan))
        rows.append(dict(mechanism="langevin", title="C", budget=b, mean=np.nan, se=np.nan, label="unavailable",
                         status="unavailable", reason="not Hadamard here", bound=np.nan))
        ok = b > 0.5
        rows.append(dict(mechanism="brownian_motion", title="D", budget=b, mean=0.3 / b if ok else np.nan,
                         se=0.01 if ok else np.nan, label="approximate sampler" if ok else "unavailable",
                         status="ok" if ok else "unavailable", reason="" if ok else "below the privacy floor",
                         bound=np.nan))
    return pd.DataFrame(rows)


def test_utility_curve_figure_traces():
    fig = utility_curve_figure(_frame(), "ε")
    names = [t.name for t in fig.data]
    # A: band + line + bound; B: band + line; C: one legend-only entry; D: band + line
    assert len(fig.data) == 3 + 2 + 1 + 2
    bands = [t for t in fig.data if t.fill == "toself"]
    assert len(bands) == 3 and all(t.showlegend is False for t in bands)
    dashed = [t for t in fig.data if t.line.dash == "dash"]
    assert len(dashed) == 1 and dashed[0].name == "A: paper bound"
    assert dashed[0].line.color == MECHANISM_COLORS["ew_laplace"]
    line_a = next(t for t in fig.data if t.name == "A [exact]")
    assert line_a.line.color == MECHANISM_COLORS["ew_laplace"]
    assert np.allclose(line_a.y, [10.0, 1.0, 0.1]) and np.allclose(dashed[0].y, [20.0, 2.0, 0.2])
    band_a = bands[0]
    assert np.allclose(band_a.y, [10.01, 1.01, 0.11, 0.09, 0.99, 9.99])
    assert "× C — unavailable" in names
    assert "D [approximate sampler]" in names
    note = fig.layout.legend.title.text.replace("<br>", " ")  # the notes head the legend, under the plot
    assert "not Hadamard here" in note and "below the privacy floor" in note and "0.1" in note
    assert fig.layout.xaxis.type == "log"
    assert fig.layout.xaxis.title.text == "ε"


def test_utility_curve_figure_from_a_real_sweep_frame():
    scenario = Scenario(mechanisms=("riemannian_laplace", "ew_gaussian"))
    frame = utility_curve(scenario, [0.5, 2.0], 10)
    fig = utility_curve_figure(frame, "ε", log_x=False)
    assert len(fig.data) == 3  # RL band + line; EWG unavailable on the sphere
    assert fig.layout.xaxis.type == "linear"
    sweep_like = frame.rename(columns={"budget": "value"})
    assert len(utility_curve_figure(sweep_like, "n").data) == 3


def test_utility_curve_figure_validation():
    with pytest.raises(ValueError, match="df"):
        utility_curve_figure([1, 2], "ε")
    with pytest.raises(ValueError, match="missing"):
        utility_curve_figure(_frame().drop(columns=["se"]), "ε")
    with pytest.raises(ValueError, match="x_label"):
        utility_curve_figure(_frame(), 3)
    with pytest.raises(ValueError, match="log_x"):
        utility_curve_figure(_frame(), "ε", log_x="yes")


def _profile_bruteforce(p, q, eps_grid):
    """delta(eps) = sum_z max(0, P(z) - e^eps Q(z)) for finite distributions."""
    return np.array([np.sum(np.maximum(0.0, p - math.exp(e) * q)) for e in eps_grid])


def test_pure_and_approx_profiles_against_their_extremal_mechanisms():
    """Randomized response attains the eps-DP profile; the 4-point mechanism of Kairouz et al. the (eps, delta) one."""
    grid = np.linspace(0.0, 3.0, 31)
    eps = 1.3
    p = np.array([math.exp(eps), 1.0]) / (1 + math.exp(eps))
    assert np.allclose(pure_dp_profile(eps, grid), _profile_bruteforce(p, p[::-1], grid), atol=1e-15)
    delta = 0.01
    p4 = np.array([delta, (1 - delta) * math.exp(eps) / (1 + math.exp(eps)), (1 - delta) / (1 + math.exp(eps)), 0.0])
    assert np.allclose(approx_dp_profile(eps, delta, grid), _profile_bruteforce(p4, p4[::-1], grid), atol=1e-15)


def test_privacy_profile_figure():
    guarantees = [PureDP(1.0), ApproxDP(1.0, 1e-4), GDP(1.0), RDP(2.0, 0.5), ZCDP(0.5)]
    fig = privacy_profile_figure(guarantees, eps_max=4.0, n_points=50)
    assert len(fig.data) == 5
    gdp_trace = fig.data[2]
    assert np.allclose(gdp_trace.y, gdp_delta(1.0, np.asarray(gdp_trace.x)), rtol=1e-12)
    rdp_trace = fig.data[3]
    assert rdp_trace.line.dash == "dot"
    assert np.allclose(rdp_trace.x, rdp_to_approx_dp(2.0, 0.5, np.asarray(rdp_trace.y)), rtol=1e-12)
    assert fig.layout.yaxis.type == "log"
    assert len(privacy_profile_figure(GDP(2.0)).data) == 1
    with pytest.raises(ValueError, match="guarantees"):
        privacy_profile_figure([])
    with pytest.raises(ValueError, match="eps_max"):
        privacy_profile_figure(GDP(1.0), eps_max=-1.0)


def test_tradeoff_figure():
    fig = tradeoff_figure([0.5, 2.0], eps=1.0, n_points=101)
    assert len(fig.data) == 1 + 2 + 1
    alpha = np.asarray(fig.data[1].x)
    expected = stats.norm.cdf(stats.norm.ppf(1 - alpha) - 0.5)
    assert np.allclose(fig.data[1].y, expected, atol=1e-12)
    assert np.all(np.asarray(fig.data[2].y) <= np.asarray(fig.data[1].y) + 1e-15)  # larger mu: less private
    eps_curve = np.asarray(fig.data[3].y)
    assert fig.data[3].line.dash == "dash"
    assert eps_curve[50] == pytest.approx(max(0.0, 1 - math.e * 0.5, math.exp(-1) * 0.5))
    assert len(tradeoff_figure(1.0).data) == 2
    with pytest.raises(ValueError, match="mu"):
        tradeoff_figure([0.0])


def test_gdp_mu_vs_sigma_figure():
    curves = pd.DataFrame(dict(label=["a", "a", "b", "b"], sigma=[1.0, 2.0, 1.0, 2.0], mu=[1.0, 0.5, 0.9, 0.4]))
    fig = gdp_mu_vs_sigma_figure(curves)
    assert len(fig.data) == 2 and [t.name for t in fig.data] == ["a", "b"]
    from geodp_core.experiments import gdp_mu_curves

    fig = gdp_mu_vs_sigma_figure(gdp_mu_curves([1.0]))  # S^1, S^2, R
    assert len(fig.data) == 3
    assert fig.data[2].y[0] == pytest.approx(1.0)  # R: mu = Delta/sigma
    with pytest.raises(ValueError, match="curves"):
        gdp_mu_vs_sigma_figure(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="curves"):
        gdp_mu_vs_sigma_figure()


def test_heat_eps_vs_t_figure_draws_the_floor():
    fig = heat_eps_vs_t_figure(alpha=2.0, sensitivity=1.0, curvatures=(-1.0, 0.0, 1.0), n_points=60)
    assert len(fig.data) == 4  # three curves + one floor (K = 1 only)
    floors = [t for t in fig.data if t.line.dash == "dash"]
    assert len(floors) == 1 and np.allclose(floors[0].y, [1.0, 1.0])  # K alpha Delta^2 / 2
    negative = next(t for t in fig.data if t.name.startswith("K = 1 >"))
    assert np.all(np.asarray(negative.y) > 1.0)
    positive = next(t for t in fig.data if t.name.startswith("K = -1"))
    t = np.asarray(positive.x)
    assert np.allclose(positive.y, bm_rdp_eps(-1.0, 2.0, 1.0, t), rtol=1e-12)
    assert np.all(np.diff(positive.y) < 0)
    fig = heat_eps_vs_t_figure(curvatures=(-1.0, 0.0, 1.0), eps_target=0.5, n_points=20)
    assert "below the privacy floor" in fig.layout.title.text
    assert sum(1 for tr in fig.data if tr.mode == "markers") == 2  # K = -1 and K = 0 reach the target
    with pytest.raises(ValueError, match="alpha"):
        heat_eps_vs_t_figure(alpha=1.0)


def test_langevin_t_vs_lam_figure():
    fig = langevin_t_vs_lam_figure(K=1.0, alpha=2.0, sensitivity=1.0, eps=(0.5, 2.0), n_points=40)
    assert len(fig.data) == 4  # two Langevin curves, two BM entries
    first = fig.data[0]
    assert first.y[5] == pytest.approx(langevin_diffusion_time(1.0, first.x[5], 2.0, 1.0, 0.5), rel=1e-14)
    assert np.all(np.diff(first.y) < 0)  # stronger pull, shorter time
    assert "unreachable" in fig.data[1].name  # eps = 0.5 below the BM floor K alpha Delta^2/2 = 1
    assert fig.data[3].line.dash == "dash" and "t =" in fig.data[3].name
    with pytest.raises(ValueError, match="lam_max"):
        langevin_t_vs_lam_figure(K=2.0, lam_max=1.0)
    with pytest.raises(ValueError, match="K"):
        langevin_t_vs_lam_figure(K=-1.0)


def test_log_axes_label_their_ticks_in_full():
    """A log axis shows 0.2, not the '2' of a minor tick that reads as two (1-2-5 ticks inside the data's range)."""
    import pandas as pd

    from geodp_core.viz.curves import log_ticks, utility_curve_figure

    values, text = log_ticks(0.05, 3.0)
    assert values == [0.05, 0.1, 0.2, 0.5, 1.0, 2.0] and text == ["0.05", "0.1", "0.2", "0.5", "1", "2"]
    assert log_ticks(1e-4, 1e4)[1] == ["0.0001", "0.001", "0.01", "0.1", "1", "10", "100", "1000", "10000"]
    assert log_ticks(0.3, 0.4) == ([0.3, 0.4], ["0.3", "0.4"])  # no 1-2-5 value inside: the ends
    df = pd.DataFrame({"mechanism": ["riemannian_laplace"] * 3, "title": ["Riemannian Laplace"] * 3,
                       "budget": [0.1, 1.0, 10.0], "mean": [1.0, 0.3, 0.05], "se": [0.01] * 3,
                       "status": ["ok"] * 3, "label": ["exact"] * 3, "reason": [""] * 3, "bound": [float("nan")] * 3})
    fig = utility_curve_figure(df, "ε", x="budget")
    assert list(fig.layout.xaxis.ticktext) == ["0.1", "0.2", "0.5", "1", "2", "5", "10"]
