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
from geodp_core.pipeline import mean_and_standard_error, public_center

__all__ = [
    "ScenarioResult",
    "public_center",
    "run_scenario",
    "resample_releases",
    "results_table",
    "mean_and_standard_error",
]



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
