r"""The utility-curves study: mean distance of the private release to the true mean against the budget, or
against ``n``, the dimension, the spread or the exponent p at the scenario's budget.

The computations are :func:`geodp_core.experiments.utility_curve` and :func:`~geodp_core.experiments.sweep`
(cells on any executor; same seeds, same table); this module gives them the studies' shape.
"""

from dataclasses import dataclass

import pandas as pd

from geodp_core.exceptions import InvalidParameterError
from geodp_core.experiments import SWEEP_PARAMETERS, sweep, utility_curve
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["Settings", "CurvesResult", "run", "figures"]

_AXIS_LABELS = {"budget": "privacy budget of the target", "n": "records n", "dim": "dimension d",
                "spread": "data spread", "p": "exponent p of the Fréchet p-mean"}


@dataclass(frozen=True)
class Settings(StudySettings):
    """What to put on the x-axis and how many releases per cell."""

    axis: str = setting("budget", choices=("budget",) + SWEEP_PARAMETERS, doc="the x-axis")
    values: tuple = setting((0.1, 0.3, 1.0, 3.0), low=0.0, high=1000.0, low_closed=False, sequence=True,
                            max_len=200, doc="budgets, or values of the swept parameter")
    n_reps: int = setting(200, low=2, high=200_000, integer=True, doc="releases per (mechanism, value)")
    mechanisms: tuple = setting(None, choices=MECHANISM_NAMES, sequence=True, optional=True,
                                doc="mechanisms (default: the scenario's)")


@dataclass(frozen=True)
class CurvesResult:
    """The tidy frame (:data:`geodp_core.experiments.CURVE_COLUMNS`, plus ``parameter``/``value`` for a sweep)."""

    frame: pd.DataFrame
    axis: str
    manifold: str


def run(scenario, settings=Settings(), points=None, executor=None):
    """A utility curve (``axis="budget"``) or a sweep of ``axis`` over ``values``.

    Returns
    -------
    CurvesResult
    """
    if settings.axis == "budget":
        frame = utility_curve(scenario, settings.values, settings.n_reps, mechanisms=settings.mechanisms,
                              points=points, executor=executor)
    else:
        if points is not None:
            raise InvalidParameterError("a sweep regenerates the data; uploaded points cannot be swept",
                                        param="points")
        frame = sweep(scenario, settings.axis, settings.values, settings.n_reps, mechanisms=settings.mechanisms,
                      executor=executor)
    return CurvesResult(frame=frame, axis=settings.axis, manifold=scenario.manifold)


def figures(result):
    """One line per mechanism with a mean ± s.e. band."""
    from geodp_core.viz.curves import utility_curve_figure  # rendering only

    x = None if result.axis == "budget" else "value"
    return [utility_curve_figure(result.frame, _AXIS_LABELS[result.axis], log_x=result.axis in ("budget", "n"), x=x,
                                 manifold=result.manifold)]
