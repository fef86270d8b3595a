r"""The curvature lesson study: the same data scale and budget on :math:`S^d`, :math:`\mathbb{R}^d` and
:math:`H^d`.

The computation is :func:`geodp_core.curvature_lesson.curvature_lesson`; this module gives it the studies' shape.
"""

from dataclasses import dataclass

from geodp_core.curvature_lesson import (
    DEFAULT_RELEASES,
    READY_SETTINGS,
    CurvatureLesson,
    curvature_lesson,
    ready_scenario,
)
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["Settings", "CurvatureLesson", "run", "figures"]


@dataclass(frozen=True)
class Settings(StudySettings):
    """Which mechanism, how many releases per space, and optionally a ready setting (then the scenario's own
    dimension, radius, budget and mechanism are replaced by the setting's)."""

    mechanism: str = setting(None, choices=MECHANISM_NAMES, optional=True,
                             doc="registry name (default: the scenario's first mechanism)")
    n_releases: int = setting(DEFAULT_RELEASES, low=10, high=5000, integer=True, doc="releases per space")
    ready: str = setting(None, choices=tuple(s.key for s in READY_SETTINGS), optional=True,
                         doc="a ready setting where one sign of curvature shows its effect plainly")


def run(scenario, settings=Settings()):
    """:func:`~geodp_core.curvature_lesson.curvature_lesson` with ``settings``.

    Returns
    -------
    CurvatureLesson
    """
    if settings.ready is not None:
        scenario = ready_scenario(scenario, settings.ready)
    return curvature_lesson(scenario, mechanism=settings.mechanism, n_releases=settings.n_releases)


def figures(result):
    """Histograms of the releases' distances to the true mean (one panel per space) and the volume-growth figure."""
    from geodp_core.viz.lesson import curvature_figure, volume_figure  # rendering only

    return [curvature_figure(result), volume_figure(result)]
