"""The studies' shape (Settings with declared constraints, run, figures) and the one rule of the reproductions'
verdicts: each clause function on numbers, a failed convergence check gives "inconclusive", the same numbers
always give the same verdict, --quick runs are smoke runs."""

import math
from dataclasses import FrozenInstanceError, dataclass

import pytest

from geodp_core.exceptions import InvalidParameterError
from geodp_core.scenario import Scenario
from geodp_core.studies import audit, conformal, curvature, curves, explorer, regression_lab
from geodp_core.studies.reproductions import REPRODUCTIONS, run_reproduction
from geodp_core.studies.reproductions import Settings as ReproductionSettings
from geodp_core.studies.reproductions.spec import Clause, ClauseOutcome, evaluate_claim, judge, verdict_text
from geodp_core.studies.settings import StudySettings, constraints, setting


# ============================================================================ declared constraints
@dataclass(frozen=True)
class _Demo(StudySettings):
    count: int = setting(3, low=1, high=10, integer=True)
    share: float = setting(0.5, low=0.0, high=1.0, low_closed=False, high_closed=False)
    kind: str = setting("a", choices=("a", "b"))
    grid: tuple = setting((0.1, 1.0), low=0.0, high=5.0, low_closed=False, sequence=True, max_len=3)
    maybe: int = setting(None, low=0, high=4, integer=True, optional=True)
    name: str = setting("x", text=True)


@pytest.mark.parametrize("field_name, value, fragment", [
    ("count", 0, "count must be an integer in [1, 10]; got 0"),
    ("count", 2.0, "count must be an integer in [1, 10]; got 2.0"),
    ("count", True, "got True"),
    ("share", 1.0, "share must be a number in (0, 1); got 1.0"),
    ("share", math.nan, "got nan"),
    ("share", math.inf, "got inf"),
    ("share", "0.5", "got '0.5'"),
    ("kind", "c", "kind must be one of ('a', 'b'); got 'c'"),
    ("grid", (), "grid must be a non-empty sequence of at most 3 of a number in (0, 5]"),
    ("grid", (1.0, 2.0, 3.0, 4.0), "at most 3"),
    ("grid", (1.0, 0.0), "got (1.0, 0.0)"),
    ("grid", "1.0", "got '1.0'"),
    ("maybe", 5, "maybe must be an integer in [0, 4] or None; got 5"),
    ("name", "", "name must be a non-empty string"),
])
def test_declared_constraints_name_field_value_and_range(field_name, value, fragment):
    with pytest.raises(InvalidParameterError) as info:
        _Demo(**{field_name: value})
    assert fragment in str(info.value) and info.value.param == field_name


def test_declared_constraints_normalise_and_are_readable():
    demo = _Demo(count=4, grid=[1, 5], maybe=None)
    assert demo.grid == (1.0, 5.0) and all(isinstance(v, float) for v in demo.grid) and demo.maybe is None
    with pytest.raises(FrozenInstanceError):
        demo.count = 5
    declared = constraints(_Demo)
    assert declared["count"].low == 1 and declared["count"].high == 10 and declared["kind"].choices == ("a", "b")
    assert declared["grid"].describe() == "a non-empty sequence of at most 3 of a number in (0, 5]"
    with pytest.raises(InvalidParameterError, match="immutable"):
        setting([1, 2])


def test_every_study_has_the_one_shape():
    for module in (explorer, curves, conformal, regression_lab, audit, curvature):
        assert callable(module.run) and callable(module.figures)
        settings = module.Settings()  # the defaults satisfy their own constraints
        assert constraints(settings), module.__name__
    assert constraints(ReproductionSettings)["id"].choices == tuple(REPRODUCTIONS)
    # the panel: "all", or one panel's code of the id; anything else is a named error
    assert ReproductionSettings(id="heat_hyperbolic", panel="scenario2-n50").panels() == (
        ("scenario2-n50", dict(n=50, anchor="random")),)
    assert len(ReproductionSettings(id="heat_hyperbolic").panels()) == 6
    assert ReproductionSettings(id="gdp").panels() == (("all", None),)
    with pytest.raises(InvalidParameterError, match="panel must be one of .*scenario1-n10"):
        ReproductionSettings(id="heat_hyperbolic", panel="n10")
    with pytest.raises(InvalidParameterError, match="panel"):
        ReproductionSettings(id="gdp", panel="")
    with pytest.raises(InvalidParameterError, match="id must be one of"):
        ReproductionSettings(id="nope")
    with pytest.raises(InvalidParameterError, match="n_reps"):
        curves.Settings(n_reps=1)
    with pytest.raises(InvalidParameterError, match="preset must be one of"):
        regression_lab.Settings(space="sphere", preset="circle → arch")
    with pytest.raises(InvalidParameterError, match="scenario"):
        regression_lab.run(Scenario(), regression_lab.Settings())


def test_studies_run_and_draw_small():
    scenario = Scenario()
    result = explorer.run(scenario, explorer.Settings(resample=1))
    again = explorer.run(scenario, explorer.Settings(resample=1))
    assert [len(f.data) > 0 for f in explorer.figures(result)] == [True, True]
    assert (result.outcomes[0].releases == again.outcomes[0].releases).all()  # same settings, same releases
    curve = curves.run(scenario, curves.Settings(values=(0.5, 2.0), n_reps=20))
    assert set(curve.frame["budget"]) == {0.5, 2.0} and len(curves.figures(curve)) == 1
    lesson = curvature.run(scenario, curvature.Settings(n_releases=20))
    assert len(curvature.figures(lesson)) == 2
    lab = conformal.run(Scenario(data="vmf_mixture"), conformal.Settings(mesh_size=200, n_releases=10))
    assert len(conformal.figures(lab)) == 3
    demo = regression_lab.run(None, regression_lab.Settings(n=10, n_fits=2, chain_length=20))
    assert demo.result.footpoints.shape == (2, 3) and len(regression_lab.figures(demo)) == 2


# ============================================================================ the one verdict rule
def _outcomes(*kinds):
    return tuple(ClauseOutcome(f"clause {i}", kind) for i, kind in enumerate(kinds))


@pytest.mark.parametrize("kinds, verdict", [
    (("holds", "holds"), "reproduced"),
    (("fails", "fails"), "differs"),
    (("holds", "fails"), "partly reproduced"),
    (("holds", "inconclusive"), "inconclusive"),      # could still be reproduced or partly: no verdict
    (("fails", "inconclusive"), "inconclusive"),      # could still be differs or partly
    (("holds", "fails", "inconclusive"), "partly reproduced"),  # partly whatever the unknown clause turns out
    (("holds", "not measured"), "inconclusive"),
    (("holds", "not tested"), "reproduced"),          # an untestable clause is reported, not counted
    (("not tested",), "inconclusive"),
    (("fails", "not applicable"), "differs"),        # a clause about another panel's setting is not counted
    (("holds", "not applicable", "not tested"), "reproduced"),
    (("not applicable",), "inconclusive"),
    ((), "inconclusive"),
])
def test_judge_is_one_rule(kinds, verdict):
    assert judge(_outcomes(*kinds)) == verdict
    assert judge(_outcomes(*kinds), kind="illustration") == "illustration"


def test_a_failed_convergence_check_makes_a_clause_inconclusive():
    clause = Clause("approaches", lambda n: n["ratio"] < 2.0, rests_on=lambda n: n["unconverged"])
    numbers = dict(ratio=1.3, unconverged=("rigorous at eps = 2 (R̂ 2.39)",))
    outcome = clause.evaluate(numbers)
    assert outcome.outcome == "inconclusive" and "R̂ 2.39" in outcome.detail
    assert clause.evaluate(dict(ratio=1.3, unconverged=())).outcome == "holds"
    assert clause.evaluate(dict(ratio=3.0, unconverged=())).outcome == "fails"
    assert clause.evaluate(dict(unconverged=())).outcome == "not measured"  # the number is missing
    status, outcomes = evaluate_claim((clause,), numbers)
    assert status == "inconclusive"
    text = verdict_text(status, outcomes, "details", size="quick")
    assert text.startswith("Smoke run (--quick") and "convergence check" in text


def test_kng_quick_run_rests_on_failed_checks_and_says_so():
    """At --quick chain lengths (100 steps) the rigorous chains pass the public check (with the mode jumps) and the
    paper's variant fails it (split-R̂ 1.21): every clause of the paper's variant is inconclusive, the verdict
    says so and is labelled a smoke run."""
    result = run_reproduction("kng", "quick", 0)
    assert list(result.table["converged"]) == [True, False]
    assert result.status == "inconclusive" and result.size == "quick"
    assert result.verdict.startswith("Smoke run") and "failed its public convergence check" in result.verdict
    variant = [c for c in result.clauses if "paper's variant" in c.text]
    assert variant and all(c.outcome == "inconclusive" and "R̂ 1.21" in c.detail for c in variant)


def test_same_numbers_same_verdict_at_every_size():
    for spec in REPRODUCTIONS.values():
        numbers = dict(GOOD)
        first = evaluate_claim(spec.claim, numbers, spec.kind)
        assert evaluate_claim(spec.claim, dict(numbers), spec.kind) == first
        # the size changes the label of the text only, never the verdict
        assert verdict_text(first[0], first[1], "", "quick").endswith(verdict_text(first[0], first[1], "", "full")
                                                                       .split(". ", 1)[1])


# ============================================================================ each clause function on numbers
#: Numbers under which every machine-tested clause of every reproduction holds (the clauses read disjoint or
#: compatible keys), and numbers under which every one fails.
GOOD = dict(
    mu_exact=1.11, mu_paper=1.116, gauss_better=4, n_budgets=4, gain_small_mu=0.3, gain_large_mu=0.03,
    circle_gap_small=1e-6, circle_gap_large=0.6, circle_below_flat_large=True, bias_larger_small_sigma=True,
    n_mc_above=6, n_points=8,
    better_than_riemannian_laplace=2, worse_than_riemannian_laplace=2, n_common_riemannian_laplace=4,
    langevin_beats_ewg_at_smallest_eps=True, n=10, unavailable_riemannian_laplace=0, better_than_ew_gaussian=4,
    n_common_ew_gaussian=4, errors_fall_with_eps=True, langevin_beats_riemannian_laplace_at_smallest_eps=True,
    riemannian_laplace_beats_langevin_at_largest_eps=True, ewg_better_than_rl=4, n_common=4,
    rate_hyperbolic_linear=True, rate_hyperbolic_faster=True, escaped_fraction=0.9,
    n_high=2, ewg_worse_high=1, ewg_better_high=0, ewg_better=4,
    flat_or_hyperbolic_better=9, flat_or_hyperbolic_cells=9, ratio_grows_with_d=True, speedup_median=150.0,
    speedup_grows_with_d=True,
    conformal_better=4, better_than_tangent_gaussian=4, n_tangent_gaussian=4, conformal_better_at_smallest_eps=True,
    ratio_smallest_eps_is_min=True, better_than_laplace=4, cells=4, cells_tangent_gaussian=4,
    advantage_largest_at_smallest_x=True, beats_both_everywhere=True, decreases_everywhere=True,
    n_below_one=0, r_p_median=1.5, r_v_median=2.0, r_p_median_max=1.5, r_v_median_max=2.0, nonprivate_increasing=True,
    **{f"{v}_{key}": value for v in ("rigorous", "paper") for key, value in (
        ("ratio_at_max", 1.9), ("higher_at_smallest_eps", True), ("parabolic", True),
        ("higher_at_small_eps_every_delta", True), ("close", True))},
    **{f"unconverged_{v}{suffix}": () for v in ("rigorous", "paper") for suffix in ("", "_at_max", "_ends")},
)
BAD = dict(
    GOOD, mu_exact=0.9975, gauss_better=3, gain_small_mu=0.02, gain_large_mu=0.03,
    circle_gap_small=0.02, circle_below_flat_large=False, bias_larger_small_sigma=False, n_mc_above=3,
    better_than_riemannian_laplace=1, worse_than_riemannian_laplace=0, langevin_beats_ewg_at_smallest_eps=False,
    unavailable_riemannian_laplace=2, better_than_ew_gaussian=3, errors_fall_with_eps=False,
    langevin_beats_riemannian_laplace_at_smallest_eps=False, riemannian_laplace_beats_langevin_at_largest_eps=False,
    ewg_better_than_rl=3,
    rate_hyperbolic_linear=False, rate_hyperbolic_faster=False, escaped_fraction=0.49,
    ewg_worse_high=0, ewg_better=3,
    flat_or_hyperbolic_better=8, ratio_grows_with_d=False, speedup_median=99.0, speedup_grows_with_d=False,
    conformal_better=0, conformal_better_at_smallest_eps=False, better_than_laplace=3,
    advantage_largest_at_smallest_x=False, beats_both_everywhere=False, decreases_everywhere=False,
    n_below_one=1, r_p_median=2.8, r_p_median_max=2.8, r_v_median_max=4.6, nonprivate_increasing=False,
    **{f"{v}_{key}": value for v in ("rigorous", "paper") for key, value in (
        ("ratio_at_max", 2.0), ("higher_at_smallest_eps", False), ("parabolic", False),
        ("higher_at_small_eps_every_delta", False), ("close", False))},
)


@pytest.mark.parametrize("id", list(REPRODUCTIONS))
def test_each_clause_function_on_numbers(id):
    spec = REPRODUCTIONS[id]
    tested = [clause for clause in spec.claim if clause.test is not None]
    assert tested, f"{id} has no machine-tested clause"
    for clause in spec.claim:
        if clause.test is None:
            assert clause.note and clause.evaluate(GOOD).outcome == "not tested"
            continue
        inside = clause.example_setting()  # a clause about one setting (scenario, small n) is tested inside it
        assert clause.evaluate({**GOOD, **inside}).outcome == "holds", (id, clause.text)
        assert clause.evaluate({**BAD, **inside}).outcome == "fails", (id, clause.text)
    # every setting the clauses name (or none): good numbers reproduce, bad numbers differ
    settings = {repr(c.example_setting()): c.example_setting() for c in spec.claim if c.when} or {"": {}}
    for inside in settings.values():
        good, _ = evaluate_claim(spec.claim, {**GOOD, **inside}, spec.kind)
        bad, _ = evaluate_claim(spec.claim, {**BAD, **inside}, spec.kind)
        if spec.kind == "illustration":
            assert good == bad == "illustration"
        else:
            assert (good, bad) == ("reproduced", "differs"), (id, inside)


def test_clause_thresholds_sit_where_the_claims_put_them():
    by = {spec.id: spec.claim for spec in REPRODUCTIONS.values()}
    faster, grows = by["ew_dimensions"][2], by["ew_dimensions"][1]
    assert faster.evaluate(dict(speedup_median=100.0)).outcome == "holds"   # two orders of magnitude
    assert faster.evaluate(dict(speedup_median=10.0)).outcome == "fails"    # one order is not "several"
    assert grows.evaluate(dict(ratio_grows_with_d=None)).outcome == "not measured"  # one d only
    near_one_p, near_one_v = by["kng_sensitivity"][1:3]
    assert near_one_p.evaluate(dict(r_p_median_max=2.0)).outcome == "holds"
    assert near_one_p.evaluate(dict(r_p_median_max=4.7)).outcome == "fails"  # the largest measured median per box
    assert near_one_v.evaluate(dict(r_v_median_max=2.0)).outcome == "holds"
    assert near_one_v.evaluate(dict(r_v_median_max=10.8)).outcome == "fails"
    mu = by["gdp"][0]
    assert mu.evaluate(dict(mu_exact=0.99754, mu_paper=1.116)).outcome == "fails"
    assert mu.evaluate(dict(mu_exact=1.11, mu_paper=1.116)).outcome == "holds"
    ewg_small = by["heat_ewg"][1]  # "when both n and ε are small", Scenario 1: not a claim about n = 100
    assert ewg_small.evaluate(dict(langevin_beats_ewg_at_smallest_eps=True, n=100, scenario=1)).outcome == \
        "not applicable"
    assert ewg_small.evaluate(dict(langevin_beats_ewg_at_smallest_eps=True, n=10, scenario=2)).outcome == \
        "not applicable"
    assert ewg_small.evaluate(dict(langevin_beats_ewg_at_smallest_eps=False, n=10, scenario=1)).outcome == "fails"
    assert ewg_small.evaluate(dict(langevin_beats_ewg_at_smallest_eps=True, n=10)).outcome == "not measured"


def test_every_spec_declares_its_paper_figure_and_sizes():
    for spec in REPRODUCTIONS.values():
        assert spec.paper and spec.figure and spec.space and spec.description
        assert set(spec.sizes) == {"default", "quick", "full"}
    assert REPRODUCTIONS["heat_escape"].kind == "illustration"
    assert all(spec.kind == "reproduction" for key, spec in REPRODUCTIONS.items() if key != "heat_escape")
    with pytest.raises(InvalidParameterError, match="size"):
        run_reproduction("gdp", "huge")


@pytest.mark.parametrize("id", ["heat_hyperbolic", "heat_ewg", "ew", "kng_sensitivity"])
def test_the_runner_and_its_spec_judge_with_the_same_clauses(id):
    """A runner picks its claim from its arguments; at the spec's sizes it is the spec's claim, so the verdict of a
    direct call and of the registry agree (the registry only adds the size label)."""
    spec = REPRODUCTIONS[id]
    direct = spec.runner(**spec.sizes["quick"], seed=0)
    registered = run_reproduction(id, "quick", 0)
    assert [c.text for c in direct.clauses] == [c.text for c in spec.claim]
    assert (direct.status, direct.clauses) == (registered.status, registered.clauses)
    assert direct.size == "custom" and registered.size == "quick" and registered.verdict.startswith("Smoke run")
