"""Run one :class:`~geodp_core.scenario.Scenario`: data, true mean, calibrations, releases.

This is the single computation behind the Explorer page (and the Python snippet it offers for download),
built on :mod:`geodp_core.pipeline`: :func:`~geodp_core.pipeline.prepare` makes the data and the summary,
:func:`~geodp_core.pipeline.evaluate` calibrates and samples each mechanism (one error policy: a failure of
one mechanism is reported in its outcome and never hides the others). Pure: the same scenario (and upload)
gives the same result; randomness comes from ``scenario.seed`` through independent streams. The study's shape
(``Settings``, ``run``, ``figures``) is :mod:`geodp_core.studies.explorer`.
"""

from dataclasses import dataclass, field, replace

import numpy as np

from geodp_core import pipeline
from geodp_core._validation import check_int
from geodp_core.constraints import EPS_GRID, MU_GRID, RHO_GRID
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.mechanisms import get_mechanism
from geodp_core.pipeline import mean_and_standard_error, public_center

__all__ = [
    "BudgetFrames",
    "FrameSet",
    "MAX_FRAME_RELEASES",
    "budget_frames",
    "budget_grid",
    "ScenarioResult",
    "public_center",
    "run_scenario",
    "resample_releases",
    "results_table",
    "mean_and_standard_error",
]


#: Releases per mechanism and budget in the budget frames (a teaching view sent to the browser: bounded payload).
MAX_FRAME_RELEASES = 200

#: ``{notion: (scenario field, grid, symbol, words)}``: the budget a notion's slider moves, and its public grid.
_BUDGET_GRIDS = {
    "pure_dp": ("eps", EPS_GRID, "ε", "privacy budget ε"),
    "approx_dp": ("eps", EPS_GRID, "ε", "privacy budget ε (δ fixed)"),
    "rdp": ("eps", EPS_GRID, "ε", "Rényi budget ε (order α fixed)"),
    "gdp": ("mu", MU_GRID, "μ", "Gaussian-DP budget μ"),
    "zcdp": ("rho", RHO_GRID, "ρ", "zero-concentrated budget ρ"),
}


@dataclass
class ScenarioResult:
    """Everything the Explorer shows for one scenario: the prepared data (public centre and sensitivity;
    private data and true mean, a teaching view) and one outcome per selected mechanism."""

    scenario: object
    manifold: object
    center: np.ndarray
    data: np.ndarray
    n_clipped: int
    true_mean: np.ndarray
    sensitivity: float
    outcomes: list = field(default_factory=list)
    data_note: str = ""

    @property
    def prepared(self):
        """The :class:`~geodp_core.pipeline.Prepared` data behind this result."""
        return pipeline.Prepared(self.scenario, self.manifold, self.center, self.data, self.n_clipped,
                                 self.true_mean, self.sensitivity, self.data_note)


def run_scenario(scenario, points=None):
    """Prepare the data and evaluate every selected mechanism at the scenario's ONE target.

    Parameters
    ----------
    scenario : Scenario
    points : array_like, optional
        Uploaded points when ``scenario.data == "upload"``.

    Returns
    -------
    ScenarioResult

    Raises
    ------
    InvalidParameterError
        From :func:`~geodp_core.pipeline.prepare` only (data that cannot be used), naming the control at
        fault; mechanism failures are reported in their outcomes.
    """
    prepared = pipeline.prepare(scenario, points)
    result = ScenarioResult(scenario, prepared.manifold, prepared.center, prepared.data, prepared.n_clipped,
                            prepared.true_mean, prepared.sensitivity, data_note=prepared.data_note)
    streams = np.random.SeedSequence(scenario.seed).spawn(1 + len(scenario.mechanisms))  # [0] = the data's
    for name, stream in zip(scenario.mechanisms, streams[1:]):
        result.outcomes.append(pipeline.evaluate(prepared, name, scenario.target, scenario.n_releases,
                                                 np.random.default_rng(stream)))
    return result


def resample_releases(result, draw):
    """New release clouds for the same data, mean and calibrations (the "resample" button).

    ``draw`` indexes an independent random stream derived from the scenario seed, so
    resampling is reproducible and never recomputes the data.
    """
    scenario = result.scenario
    prepared = result.prepared
    streams = np.random.SeedSequence([scenario.seed, 1 + int(draw)]).spawn(len(result.outcomes))
    outcomes = [
        outcome if outcome.status != "ok"
        else pipeline.resample(prepared, outcome, scenario.n_releases, np.random.default_rng(stream))
        for outcome, stream in zip(result.outcomes, streams)
    ]
    return replace(result, outcomes=outcomes)


#: Column names of a budget's parameters in :func:`results_table` (the target's own symbols).
_BUDGET_COLUMNS = {"eps": "ε", "delta": "δ", "mu": "μ", "rho": "ρ", "alpha": "α"}


def results_table(result):
    """One row per release, with readable column names, for people opening the results file.

    Every row records the setting it comes from: the space, the number of records n, the seed, the ONE privacy
    target (the notion and its budget, e.g. ``(ε=1, δ=1e-05)-DP`` with ε and δ in their own columns), then the
    mechanism (its title), its guarantee label and achieved guarantee, the release's index, its distance to the
    true mean (in the space's unit) and its coordinates. An unavailable mechanism gets one row with the reason.
    """
    scenario, manifold = result.scenario, result.manifold
    target = scenario.target
    unit = manifold.distance_unit
    setting = {"space": manifold.symbol, "records n": len(result.data), "seed": scenario.seed,
               "privacy target": target.describe()}
    setting.update({_BUDGET_COLUMNS.get(k, k): v for k, v in target.to_dict().items() if k != "notion"})
    rows = []
    for outcome in result.outcomes:
        base = dict(setting, mechanism=outcome.title)
        if outcome.status != "ok":
            rows.append(dict(base, **{"guarantee label": "unavailable", "reason": outcome.reason}))
            continue
        base.update({"guarantee label": outcome.label, "achieved guarantee": outcome.calibration.achieved.describe()})
        flat = outcome.releases.reshape(len(outcome.releases), -1)
        for i, (dist, coords) in enumerate(zip(outcome.distances, flat)):
            row = dict(base, release=i + 1, **{f"distance to the true mean ({unit})": float(dist)})
            row.update({f"coordinate {j + 1}": float(c) for j, c in enumerate(coords)})
            rows.append(row)
    return rows


def budget_grid(scenario):
    """The public grid of budgets of the scenario's notion, with the scenario's own value in it.

    Returns
    -------
    tuple
        ``(field, values, symbol, words)``: the scenario field the budget control moves (``"eps"``, ``"mu"`` or
        ``"rho"``), the sorted grid values (the app's slider grid, plus the scenario's value when it is off the
        grid), the budget's symbol and its name in words. A function of the scenario's controls only.
    """
    field_name, grid, symbol, words = _BUDGET_GRIDS[scenario.notion]
    values = tuple(sorted(set(grid) | {float(getattr(scenario, field_name))}))
    return field_name, values, symbol, words


@dataclass
class FrameSet:
    """One mechanism's releases across the budget grid (:func:`budget_frames`).

    ``releases[k]`` is an array ``(size, *point_shape)`` of releases at budget ``k``, or ``None`` where the
    mechanism is unavailable at that budget (``reasons[k]`` says why); ``status`` is ``"ok"`` when the releases
    are coupled, else ``"not coupled"`` with the ``reason`` in plain words (no releases).
    """

    name: str
    title: str
    status: str
    reason: str = ""
    releases: list = field(default_factory=list)
    reasons: list = field(default_factory=list)
    sigmas: list = field(default_factory=list)


@dataclass
class BudgetFrames:
    """Coupled releases of a scenario's mechanisms over its public grid of budgets (a teaching view).

    Attributes
    ----------
    parameter, symbol, words : str
        The budget the grid moves (scenario field, symbol, name in words).
    values : tuple of float
        The budgets, increasing.
    current : int
        Index of the scenario's own budget in ``values``.
    targets : list of Guarantee
        The target guarantee at each budget.
    mechanisms : list of FrameSet
        One per mechanism of the result whose outcome is ``"ok"``, in the result's order.
    """

    parameter: str
    symbol: str
    words: str
    values: tuple
    current: int
    targets: list
    mechanisms: list

    def frameset(self, name):
        """The :class:`FrameSet` of mechanism ``name`` (``None`` if it has none)."""
        return next((m for m in self.mechanisms if m.name == name), None)


def budget_frames(result, draw=0, size=None):
    r"""Releases of every radial mechanism at every budget of the public grid, from ONE set of shared uniforms.

    For a mechanism whose exact sampler is radial (Riemannian Laplace and Gaussian on the sphere, hyperbolic and
    flat spaces, SPD with a flat metric, the Kendall shape space, SO(3)), each release :math:`i` draws one uniform
    :math:`U_i` and one unit direction :math:`u_i`; at budget :math:`b` it is
    :math:`\mathrm{Exp}_\eta(F_{\sigma_b}^{-1}(U_i)\,u_i)`, :math:`\sigma_b` the mechanism's calibration at that
    budget (the existing, cached calibration code). Each budget's releases therefore have exactly the mechanism's
    law at that budget, and each release's distance to the summary :math:`\eta` is non-increasing as the budget
    grows (docs/derivations/exact_samplers.md, "Coupled releases across budgets"). Showing several budgets'
    releases shows several releases of the same data: the frames are a teaching view, only the releases at ONE
    budget are a release.

    Parameters
    ----------
    result : ScenarioResult
    draw : int
        Which independent set of uniforms (the Explorer's "resample" counter); the stream is derived from the
        scenario seed and is independent of the releases of :func:`run_scenario`.
    size : int, optional
        Releases per mechanism and budget; default ``min(n_releases, MAX_FRAME_RELEASES)``.

    Returns
    -------
    BudgetFrames
    """
    if not isinstance(result, ScenarioResult):
        raise InvalidParameterError(f"result must be a ScenarioResult returned by run_scenario(...); got "
                                    f"{type(result).__name__}", param="result")
    scenario = result.scenario
    draw = check_int(draw, "draw", low=0, high=1_000_000)
    size = (min(scenario.n_releases, MAX_FRAME_RELEASES) if size is None
            else check_int(size, "size", low=1, high=MAX_FRAME_RELEASES))
    field_name, values, symbol, words = budget_grid(scenario)
    current = values.index(float(getattr(scenario, field_name)))
    targets = [scenario.with_changes(**{field_name: v}).target for v in values]
    outcomes = [o for o in result.outcomes if o.status == "ok"]
    streams = np.random.SeedSequence([scenario.seed, 15485863, draw]).spawn(max(len(outcomes), 1))
    sets = []
    for outcome, stream in zip(outcomes, streams):
        mechanism = get_mechanism(outcome.name, result.manifold)
        reason = mechanism.coupling_reason(outcome.calibration)
        if reason is not None:
            sets.append(FrameSet(outcome.name, outcome.title, "not coupled", reason))
            continue
        options = dict(outcome.calibration.options or {})
        options.pop("public_ball", None)
        calibrations, reasons = [], []
        for target in targets:
            try:
                calibrations.append(mechanism.calibrate(target, result.sensitivity,
                                                        public_ball=(result.center, scenario.radius), **options))
                reasons.append("")
            except (UnavailableError, ValueError) as exc:
                calibrations.append(None)
                reasons.append(str(exc))
        usable = [c for c in calibrations if c is not None]
        try:
            drawn = iter(mechanism.sample_coupled(result.true_mean, usable, size, np.random.default_rng(stream))
                         if usable else [])
        except (UnavailableError, ValueError) as exc:
            sets.append(FrameSet(outcome.name, outcome.title, "not coupled", str(exc)))
            continue
        releases = [None if c is None else next(drawn) for c in calibrations]
        sigmas = [None if c is None else float(c.noise["sigma"]) for c in calibrations]
        sets.append(FrameSet(outcome.name, outcome.title, "ok", "", releases, reasons, sigmas))
    return BudgetFrames(field_name, symbol, words, values, current, targets, sets)
