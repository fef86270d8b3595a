"""Charts that teach and stay readable on a laptop and on a phone (geodp_core.viz figures).

Every figure function of curves, audit, heatmaps, reproduce and regression is called the way the pages
call it and checked for: a title under the mode bar, titled axes with units, a horizontal legend under
the plot with constant-size symbols, and figure text free of raw LaTeX. The utility curves also get the
sphere's random-guess level π/2 and hide paper bounds above the diameter π. The last test draws every
figure in headless Chromium at phone and laptop widths and measures the boxes of the drawn elements.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import plotly
import plotly.graph_objects as go
import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.experiments import utility_curve
from geodp_core.geometry import get_manifold
from geodp_core.geometry.mesh import hyperbolic_ball_mesh, sphere_mesh
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP
from geodp_core.regression import predict
from geodp_core.scenario import Scenario
from geodp_core.viz.audit import (
    audit_claim_figure,
    audit_comparison_figure,
    audit_statistic_figure,
)
from geodp_core.viz.curves import (
    RANDOM_GUESS_LABEL,
    UNINFORMATIVE_LABEL,
    gdp_mu_vs_sigma_figure,
    heat_eps_vs_t_figure,
    langevin_t_vs_lam_figure,
    manifold_diameter,
    privacy_profile_figure,
    tradeoff_figure,
    utility_curve_figure,
    wrap_text,
)
from geodp_core.viz.heatmaps import (
    CONFORMAL_FIELDS,
    Overlay,
    disk_heatmap,
    sphere_heatmap,
)
from geodp_core.viz.regression import mspe_figure, regression_figure
from geodp_core.viz.reproduce import gdp_mu_figure, kng_mspe_figure

S2 = get_manifold("sphere", 2)
H2 = get_manifold("hyperbolic", 2)
SPD2 = get_manifold("spd", 2)
HALF_PI = math.pi / 2
RAW_FORMULA = ("^{", "_{", "\\", "$", "^(", "<=", ">=")


# ------------------------------------------------------------------------------------------- inputs
def _frame(bound_a=(20.0, 2.0, 0.2)):
    """Frame of utility_curve: A with paper bounds (the first above π), B without, C never available."""
    rows = []
    for b, bound in zip((0.1, 1.0, 10.0), bound_a):
        rows.append(dict(mechanism="brownian_motion", title="A", budget=b, mean=min(1.0 / b, 1.5), se=0.01,
                         label="exact", status="ok", reason="", bound=bound))
        rows.append(dict(mechanism="riemannian_laplace", title="B", budget=b, mean=min(0.5 / b, 1.4), se=0.02,
                         label="exact",
                         status="ok", reason="", bound=np.nan))
        rows.append(dict(mechanism="ew_gaussian", title="C", budget=b, mean=np.nan, se=np.nan, label="unavailable",
                         status="unavailable", reason="S^2 is not a Hadamard space", bound=np.nan))
    return pd.DataFrame(rows)


class _AuditResult:
    """The attributes of geodp_core.audit.AuditResult the figures read (a real audit takes seconds)."""

    def __init__(self, refuted):
        rng = np.random.default_rng(0)
        self.claimed_eps = 1.0
        self.eps_lower_bound = 1.9 if refuted else 0.4
        self.eps_point_estimate = 2.3 if refuted else np.inf
        self.confidence = 0.95
        self.values_D = rng.normal(-1.0, 0.5, 400)
        self.values_D_prime = rng.normal(1.0, 0.5, 400)
        self.threshold = -1.2
        self.direction = "<="
        self.positive = "D"
        self.event = "dist(release, η) − dist(release, η′) <= -1.2"
        self.tpr, self.fpr = 0.33, 0.03


def _audit_rows():
    """Rows like geodp_core.audit.audit_all's (the page's "Audit every mechanism")."""
    return [
        dict(name="Riemannian Laplace", role="mechanism", status="ok", claimed_eps=1.0, eps_lower_bound=0.73),
        dict(name="Exponential-wrapped Laplace", role="mechanism", status="ok", claimed_eps=1.0, eps_lower_bound=0.7),
        dict(name="Riemannian Laplace [understated noise: × 0.5]", role="negative control", status="ok",
             claimed_eps=1.0, eps_lower_bound=1.55),
        dict(name="Exponential-wrapped Laplace [data-dependent footpoint]", role="negative control",
             status="not run", claimed_eps=None, eps_lower_bound=None),
    ]


def _fits(manifold, footpoint, vector):
    truth = dict(name="true geodesic (teaching view)", footpoint=footpoint, shooting_vector=vector, color="black",
                 dash="dash", width=3)
    private = dict(name="private fit 1", footpoint=footpoint, shooting_vector=0.8 * vector, color="#d62728", width=3)
    return [truth, private]


def _regression(manifold):
    x = np.linspace(0.0, 1.0, 12)
    if manifold is S2:
        p, v = S2.default_center(), np.array([0.8, 0.3, 0.0])
    elif manifold is H2:
        p, v = H2.default_center(), np.array([0.0, 0.9, 0.4])
    else:
        p, v = np.eye(2), np.array([[0.5, 0.1], [0.1, -0.3]])
    y = predict(manifold, p, v, x)
    return regression_figure(manifold, x, y, _fits(manifold, p, v))


def _heatmaps():
    mesh = sphere_mesh(200)
    disk = hyperbolic_ball_mesh(200, 1.5)
    title, colorbar = CONFORMAL_FIELDS["phi"]
    overlays = [Overlay(mesh.vertices[:5], "data (n=5)", "rgba(60,60,60,0.6)", 2.5),
                Overlay(mesh.vertices[5:6], "true mean (teaching view: private!)", "gold", 9, "diamond")]
    return {
        "sphere heatmap": sphere_heatmap(mesh.vertices, mesh.triangles, mesh.vertices[:, 2], title=title,
                                         colorbar_title=colorbar, overlays=overlays, height=460),
        "disk heatmap": disk_heatmap(disk.display, disk.triangles, np.linalg.norm(disk.display, axis=1),
                                     title=CONFORMAL_FIELDS["rho_star"][0], colorbar_title="ρ* (distance)",
                                     grid_size=41, height=460),
        "heatmap, default title": sphere_heatmap(mesh.vertices, mesh.triangles, mesh.vertices[:, 0]),
    }


def _figures():
    """Every figure function, called as the pages call it (page arguments in the comments)."""
    curves = pd.DataFrame(dict(label=["S¹"] * 3 + ["S²"] * 3 + ["ℝ"] * 3, sigma=[0.5, 1.0, 2.0] * 3,
                               mu=[2.0, 1.0, 0.4, 1.9, 0.9, 0.3, 2.0, 1.0, 0.5]))
    mu_table = pd.DataFrame(dict(method=["exact (quadrature)", "paper (Algorithm 2)", "rerun", "rerun"],
                                 seed=[-1, -1, 0, 1], mu=[0.99754, 1.116, 1.15, 1.2]))
    kng = pd.DataFrame(dict(eps=[1.0, 5.0, 1.0, 5.0], version=["rigorous", "rigorous", "paper", "paper"],
                            mspe_mean=[1.4, 1.1, 0.7, 0.2], mspe_se=[0.5, 0.3, 0.1, 0.18],
                            mspe_nonprivate=[7e-4] * 4))
    figures = {
        # app_pages/utility_curves.py: utility_curve_figure(frame, x_label, log_x=log_x, title=...)
        "utility (page call)": utility_curve_figure(_frame(), "ε · target (ε, δ)-DP, δ = 1e-05", log_x=True,
                                                    title="Distance of the private release to the true mean — "
                                                          "ONE target: (ε, δ)-DP"),
        "utility, sphere": utility_curve_figure(_frame(), "ε", manifold="sphere"),
        "utility, H²": utility_curve_figure(_frame(), "n", log_x=False, manifold=H2),
        # app_pages/accounting.py
        "privacy profile": privacy_profile_figure([PureDP(1.0), ApproxDP(1.0, 1e-5), GDP(1.0), RDP(2.0, 0.5),
                                                   ZCDP(0.5)], eps_max=5.0),
        "trade-off": tradeoff_figure([0.5, 1.0, 2.0], eps=[1.0]),
        "GDP μ(σ)": gdp_mu_vs_sigma_figure(curves, sensitivity=1.0),
        "heat, target below the floor": heat_eps_vs_t_figure(2.0, 1.0, [-1.0, 0.0, 1.0], eps_target=0.5),
        "heat": heat_eps_vs_t_figure(2.0, 1.0, [-1.0, 0.0, 1.0], eps_target=2.0),
        "Langevin": langevin_t_vs_lam_figure(1.0, 2.0, 1.0, [0.5, 1.0, 2.0], lam_max=11.0),
        # app_pages/audit.py
        "audit claim, refuted": audit_claim_figure(_AuditResult(True)),
        "audit claim, not refuted": audit_claim_figure(_AuditResult(False)),
        "audit statistic": audit_statistic_figure(_AuditResult(True)),
        "audit comparison": audit_comparison_figure(_audit_rows()),
        # app_pages/reproduce.py
        "reproduce GDP μ": gdp_mu_figure(mu_table),
        "reproduce KNG MSPE": kng_mspe_figure(kng),
        **_further_reproduce_figures(),
        # app_pages/regression.py
        "regression S²": _regression(S2),
        "regression H²": _regression(H2),
        "regression SPD(2)": _regression(SPD2),
        "regression MSPE": mspe_figure(["true geodesic", "non-private fit", "private fit 1"], [0.01, 0.012, 0.05],
                                       colors=["black", "goldenrod", "#d62728"], reference=0.012),
    }
    figures.update(_heatmaps())  # app_pages/conformal_lab.py (through conformal_field_figure)
    figures.update(_lesson_figures())  # app_pages/explorer.py, "What curvature does"
    return figures


def _lesson_figures():
    """The curvature lesson's panels (one per space, laid out side by side or stacked) and its volume figure, at a
    setting with an unavailable hyperbolic panel and one where all three are drawn."""
    from geodp_core.curvature_lesson import curvature_lesson
    from geodp_core.viz.lesson import curvature_panels, volume_figure

    out = {}
    for tag, scenario in (("d=10", Scenario(dim=10, eps=0.1, mechanisms=("riemannian_laplace",))),
                          ("d=5", Scenario(dim=5, eps=0.1, mechanisms=("riemannian_laplace",)))):
        lesson = curvature_lesson(scenario, n_releases=200)
        for row, fig in zip(lesson.rows, curvature_panels(lesson)):
            out[f"lesson {tag} {row.symbol}"] = fig
        out[f"lesson volume {tag}"] = volume_figure(lesson)
    return out


def _further_reproduce_figures():
    """app_pages/reproduce.py, the 'More paper figures' tab (small, fast reproductions)."""
    from geodp_core import reproduce as rp
    from geodp_core.viz.reproduce import reproduction_figures

    results = {
        "GDP μ(σ) curve": rp.reproduce_gdp_curve(sigmas=(0.5, 2.0), n_seeds=2, n_samples=2000, seed=0),
        "heat escape": rp.reproduce_heat_escape(n_paths=20, n_steps=40, seed=0),
        "EW by dimension": rp.reproduce_ew_dimensions(dims=(3, 10), families=("hyperbolic", "spd_log_cholesky"),
                                                      mu_values=(1.0, 2.0), n_reps=20, n_timing=10, mcmc_steps=10),
        "KNG sensitivity": rp.reproduce_kng_sensitivity(spaces=("sphere",), n_values=(20,), n_pairs=3, seed=0),
        "KNG split": rp.reproduce_kng_budget_split(eps_p_values=(0.02, 1.01, 2.0), n=10, n_fits=2, chain_length=50),
        "KNG noise": rp.reproduce_kng_noise(deltas=(0.001, 0.01), eps_values=(0.5, 2.0), n=10, n_fits=2,
                                            chain_length=50),
    }
    return {f"reproduce {name} {i}": fig for name, result in results.items()
            for i, fig in enumerate(reproduction_figures(result))}


def _page_scene_figures():
    """The Explorer's figures (app_pages/explorer.py) on every view, and the Privacy accounting p-mean chart:
    drawn only in the browser test (3-D scenes and panels have no single pair of axes to check here)."""
    from geodp_core.curvature_lesson import curvature_lesson
    from geodp_core.explorer import run_scenario
    from geodp_core.viz import p_mean_sensitivity_figure, scene_figure, spd_cone_figure, spd_glyph_figure
    from geodp_core.viz.distances import release_distance_figure
    from geodp_core.viz.lesson import curvature_figure
    from geodp_core.viz.spd_spectrum import spd_spectrum_figure

    cheap = dict(n=40, n_releases=20)
    results = {
        "S²": run_scenario(Scenario(**cheap)),
        "H²": run_scenario(Scenario(manifold="hyperbolic", data="uniform_ball", **cheap)),
        "SPD(2)": run_scenario(Scenario(manifold="spd", data="uniform_ball", **cheap)),
        "SPD(3)": run_scenario(Scenario(manifold="spd", dim=3, data="uniform_ball", **cheap)),
        "ℝ²": run_scenario(Scenario(manifold="euclidean", data="uniform_ball", **cheap)),
        "S⁵": run_scenario(Scenario(dim=5, data="uniform_ball", **cheap)),
        "SO(3)": run_scenario(Scenario(manifold="so3", dim=3, data="uniform_ball", **cheap)),
        "Kendall": run_scenario(Scenario(manifold="kendall", dim=6, data="uniform_ball", radius=0.3, **cheap)),
    }
    figures = {f"scene {name}": scene_figure(result) for name, result in results.items()}
    figures["release distances"] = release_distance_figure(results["S²"])
    figures["SPD(2) glyphs"] = spd_glyph_figure(results["SPD(2)"])
    figures["SPD(2) cone"] = spd_cone_figure(results["SPD(2)"])
    figures["SPD(3) spectra"] = spd_spectrum_figure(results["SPD(3)"])
    figures["curvature lesson"] = curvature_figure(curvature_lesson(Scenario(**cheap)))
    figures["p-mean sensitivity"] = p_mean_sensitivity_figure(0.5, [1.5, 2.0, 3.0])
    return figures


def test_scene_titles_sit_below_the_mode_bar():
    """The Explorer's scenes, panels and histograms take their title from the same rule as every chart."""
    from geodp_core.viz.layout import MODEBAR_PX

    for name, fig in _page_scene_figures().items():
        title = fig.layout.title
        assert title.text and title.yref == "container" and title.y == 1.0 and title.yanchor == "top", name
        assert title.pad.t >= MODEBAR_PX and title.xanchor == "left", name
        lines = title.text.count("<br>") + 1
        sub = title.subtitle.text.count("<br>") + 1 if title.subtitle.text else 0
        assert fig.layout.margin.t >= MODEBAR_PX + 19 * lines + 16 * sub, name
        for text in [title.text, title.subtitle.text or ""] + [a.text for a in fig.layout.annotations]:
            assert not any(raw in text for raw in RAW_FORMULA), (name, text)
            assert not any(f"{s}^" in text for s in "SRH"), (name, text)  # S², ℝ², H²: never S^2


def test_tangent_view_axes_are_in_the_spaces_own_unit():
    from geodp_core.explorer import run_scenario
    from geodp_core.viz import scene_figure

    flat = scene_figure(run_scenario(Scenario(manifold="euclidean", data="uniform_ball", n=30, n_releases=10)))
    texts = (flat.layout.xaxis.title.text, flat.layout.yaxis.title.text, flat.layout.title.subtitle.text)
    assert all("data units" in t and "radians" not in t and "Log_" not in t for t in texts), texts
    sphere = scene_figure(run_scenario(Scenario(dim=4, data="uniform_ball", n=30, n_releases=10)))
    assert "radians" in sphere.layout.xaxis.title.text


@pytest.fixture(scope="module")
def figures():
    return _figures()


# ------------------------------------------------------------------------------------------- helpers
def _is_cartesian(fig):
    return not any(isinstance(t, (go.Mesh3d, go.Scatter3d, go.Surface)) for t in fig.data)


def _visible_axes(fig):
    axes = []
    for name in ("xaxis", "yaxis"):
        axis = fig.layout[name]
        if axis.visible is not False:
            axes.append((name, axis))
    return axes


def _texts(fig):
    """Every piece of text a reader sees (titles, axis titles, legend, trace names, annotations, colour bars)."""
    texts = [fig.layout.title.text, fig.layout.legend.title.text]
    texts += [axis.title.text for _, axis in _visible_axes(fig)] if _is_cartesian(fig) else []
    texts += [a.text for a in fig.layout.annotations]
    for trace in fig.data:
        texts.append(trace.name)
        colorbar = getattr(trace, "colorbar", None)
        if colorbar is not None:
            texts.append(colorbar.title.text)
        texts.append(getattr(trace, "hovertemplate", None))
    return [t for t in texts if t]


# ------------------------------------------------------------------------------------------- every figure
def test_every_figure_has_a_title_under_the_mode_bar(figures):
    for name, fig in figures.items():
        title = fig.layout.title
        assert title.text and title.text.strip(), name
        assert title.yref == "container" and title.yanchor == "top" and title.y == 1.0, name
        assert title.pad.t >= 30, name  # below the 24 px band of the Plotly mode bar
        assert title.xanchor == "left" and title.x <= 0.02, name  # top left: the mode bar is top right
        assert fig.layout.margin.t >= 60, name
        lines = title.text.split("<br>")
        assert fig.layout.margin.t >= 34 + 18 * len(lines), name  # the whole title fits above the plot


def test_every_figure_has_a_horizontal_legend_below_the_plot(figures):
    for name, fig in figures.items():
        legend = fig.layout.legend
        assert legend.orientation == "h", name
        assert legend.itemsizing == "constant", name
        below = (legend.yref == "container" and legend.yanchor == "bottom" and legend.y <= 0.02) or (
            legend.y is not None and legend.y < 0 and legend.yanchor == "top")
        assert below, (name, legend)
        assert legend.title.side in (None, "top"), name  # never beside the entries (it would widen the legend)
        for trace in fig.data:  # legend entries fit a phone (wrapped with <br>)
            if trace.showlegend is not False and trace.name:
                assert max(len(line) for line in trace.name.split("<br>")) <= 50, (name, trace.name)


def test_every_chart_has_axis_titles(figures):
    for name, fig in figures.items():
        if not _is_cartesian(fig):
            continue
        axes = _visible_axes(fig)
        if name.startswith(("disk heatmap", "regression H²")):
            assert not axes, name  # the Poincaré disk is drawn without axes
            continue
        assert axes, name
        for axis_name, axis in axes:
            text = axis.title.text
            assert text and text.strip(), (name, axis_name)
            for line in text.split("<br>"):
                assert len(line) <= 46, (name, axis_name, text)  # fits a phone's plot


def test_colour_bars_say_what_is_coloured(figures):
    for name, fig in figures.items():
        for trace in fig.data:
            colorbar = getattr(trace, "colorbar", None)
            if colorbar is not None and getattr(trace, "showscale", True) is not False and "heatmap" in name:
                assert colorbar.title.text, name


def test_no_raw_formula_in_figure_text(figures):
    for name, fig in figures.items():
        for text in _texts(fig):
            for raw in RAW_FORMULA:
                assert raw not in text, (name, raw, text)


def test_titles_and_axes_carry_units(figures):
    assert "(radians)" in figures["utility, sphere"].layout.yaxis.title.text
    assert "curvature −1" in figures["utility, H²"].layout.yaxis.title.text.replace("<br>", " ")
    assert "probability" in figures["trade-off"].layout.xaxis.title.text
    assert "units of Δ²" in figures["heat"].layout.xaxis.title.text
    assert "dimensionless" in figures["privacy profile"].layout.xaxis.title.text
    assert "exp(2σ)" in CONFORMAL_FIELDS["phi"][0]


# ------------------------------------------------------------------------------------------- utility curves
def _random_guess(fig):
    lines = [t for t in fig.data if t.name == RANDOM_GUESS_LABEL]
    notes = [a for a in fig.layout.annotations if a.text == RANDOM_GUESS_LABEL]
    return lines, notes


def test_sphere_utility_curves_draw_the_random_guess_level(figures):
    lines, notes = _random_guess(figures["utility, sphere"])
    assert len(lines) == 1 and np.allclose(lines[0].y, HALF_PI)
    assert lines[0].x[0] == pytest.approx(0.1) and lines[0].x[-1] == pytest.approx(10.0)  # the whole x range
    assert len(notes) == 1 and notes[0].y == pytest.approx(HALF_PI)
    for name in ("utility, H²", "utility (page call)"):  # not on H², not without a manifold
        assert _random_guess(figures[name]) == ([], [])
        assert not any(math.isclose(y, HALF_PI) for t in figures[name].data if t.y is not None
                       for y in t.y if y is not None)


def test_random_guess_level_on_every_sphere_and_from_a_real_frame():
    scenario = Scenario(manifold="sphere", dim=3, mechanisms=("riemannian_laplace",))
    frame = utility_curve(scenario, [0.5, 2.0], 10)
    fig = utility_curve_figure(frame, "ε", manifold=scenario.manifold)
    lines, _ = _random_guess(fig)
    assert len(lines) == 1 and np.allclose(lines[0].y, HALF_PI)  # E dist = π/2 on S^d for every d
    assert len(_random_guess(utility_curve_figure(frame, "ε", manifold=get_manifold("sphere", 5)))[0]) == 1
    assert _random_guess(utility_curve_figure(frame, "ε", manifold="euclidean"))[0] == []
    assert manifold_diameter("sphere") == math.pi and manifold_diameter(H2) == math.inf
    assert manifold_diameter(None) == math.inf


def _bound_traces(fig):
    return [t for t in fig.data if t.line.dash == "dash" and t.name and t.name.endswith("paper bound")]


def test_bounds_above_the_diameter_are_not_drawn_as_informative(figures):
    fig = figures["utility, sphere"]
    (bound,) = _bound_traces(fig)
    drawn = [y for y in bound.y if y is not None and np.isfinite(y)]
    assert drawn == pytest.approx([2.0, 0.2]) and max(drawn) <= math.pi
    assert bound.y[0] is None and bound.connectgaps is False  # a gap at ε = 0.1, not bridged
    for trace in fig.data:  # no trace draws any point above the diameter
        if trace.y is not None and trace.name != UNINFORMATIVE_LABEL:
            assert all(y is None or not np.isfinite(y) or y <= math.pi for y in trace.y), trace.name
    flag = [t for t in fig.data if t.name == UNINFORMATIVE_LABEL]
    assert len(flag) == 1 and flag[0].showlegend and list(flag[0].y) == [None]  # legend entry only
    assert "uninformative" in UNINFORMATIVE_LABEL and "diameter" in UNINFORMATIVE_LABEL
    notes = fig.layout.legend.title.text.replace("<br>", " ")
    assert "above the diameter π at ε = 0.1" in notes and "uninformative" in notes
    # H² has infinite diameter: every bound says something
    (bound,) = _bound_traces(figures["utility, H²"])
    assert list(bound.y) == pytest.approx([20.0, 2.0, 0.2])
    assert not any(t.name == UNINFORMATIVE_LABEL for t in figures["utility, H²"].data)


def test_all_bounds_above_the_diameter_leave_only_the_legend_note():
    fig = utility_curve_figure(_frame(bound_a=(20.0, 5.0, 4.0)), "ε", manifold=S2)
    assert _bound_traces(fig) == []
    assert any(t.name == UNINFORMATIVE_LABEL for t in fig.data)


def test_utility_curve_figure_backwards_compatible_and_validated():
    fig = utility_curve_figure(_frame(), "ε", True, None, "my y label", "my title")  # the old positional call
    assert fig.layout.yaxis.title.text == "my y label" and fig.layout.title.text == "my title"
    (bound,) = _bound_traces(fig)
    assert list(bound.y) == pytest.approx([20.0, 2.0, 0.2])  # no manifold: nothing hidden
    with pytest.raises(InvalidParameterError, match="manifold"):
        utility_curve_figure(_frame(), "ε", manifold="torus")
    with pytest.raises(InvalidParameterError, match="manifold"):
        utility_curve_figure(_frame(), "ε", manifold=3)


def test_reasons_are_shown_with_unicode_powers(figures):
    notes = figures["utility, sphere"].layout.legend.title.text
    assert "S² is not a Hadamard space" in notes and "S^2" not in notes


def test_wrap_text_keeps_breaks_and_words():
    assert wrap_text("a b c", 3) == "a b<br>c"
    assert wrap_text("one<br>two three", 5) == "one<br>two<br>three"
    assert wrap_text("averyveryverylongword", 5) == "averyveryverylongword"


# ------------------------------------------------------------------------------------------- drawn in a browser
CHROMIUM = "/usr/bin/chromium"
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
WIDTHS = {"phone": 358, "laptop": 1100}  # chart widths: a 390 px phone, the 1440 px laptop's main column

_MEASURE = """() => {
  const boxes = (sel) => Array.from(document.querySelectorAll(sel)).map(e => e.getBoundingClientRect())
      .filter(r => r.width > 0 && r.height > 0).map(r => [r.left, r.top, r.right, r.bottom]);
  return {legend: boxes('g.legend'), xtitle: boxes('.g-xtitle text'), xticks: boxes('.xtick text'),
          title: boxes('.gtitle, .gtitle-subtitle'), modebar: boxes('.modebar'),
          plot: boxes('.draglayer .xy .nsewdrag'), panels: boxes('.draglayer .nsewdrag'), annotations: boxes('.annotation'), figure: boxes('.main-svg'),
          ticks_by_axis: Object.fromEntries(Array.from(document.querySelectorAll('.cartesianlayer .subplot'))
              .flatMap(sub => ['x', 'y'].map(a => [sub.getAttribute('class') + ' ' + a, Array.from(
                  sub.querySelectorAll('.' + a + 'axislayer-above .' + a + 'tick text'))
                  .map(e => e.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0)
                  .map(r => [r.left + 1, r.top + 1, r.right - 1, r.bottom - 1])])))};
}"""


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_diameter_is_the_manifolds_own_kendall_included():
    # Kendall shape spaces have diameter π/2 (this helper returned ∞ for them): bounds above π/2 are uninformative
    kendall = get_manifold("kendall", 5)
    assert manifold_diameter("kendall") == manifold_diameter(kendall) == kendall.diameter == HALF_PI
    for code in ("sphere", "hyperbolic", "spd", "euclidean"):
        assert manifold_diameter(code) == get_manifold(code, 2).diameter
    fig = utility_curve_figure(_frame(bound_a=(20.0, 1.0, 0.2)), "ε", manifold=kendall)
    dashed = [t for t in fig.data if t.line is not None and t.line.dash == "dash" and t.name != UNINFORMATIVE_LABEL]
    drawn = [y for t in dashed for y in t.y if y is not None]
    assert drawn == [1.0, 0.2]  # the bound 20 (above π/2) is not drawn
    assert "above the diameter π/2" in fig.layout.legend.title.text
    assert "shape distance, radians" in fig.layout.yaxis.title.text.replace("<br>", " ")
    assert _random_guess(fig) == ([], [])  # no size-free random-guess level on shape spaces
    with pytest.raises(InvalidParameterError, match="manifold"):
        manifold_diameter("torus")
