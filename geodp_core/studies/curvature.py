r"""The curvature lesson study: the same data scale and budget on :math:`S^d`, :math:`\mathbb{R}^d` and
:math:`H^d`.

The computation is :func:`geodp_core.curvature_lesson.curvature_lesson`; this module gives it the studies' shape.
"""

from dataclasses import dataclass

from geodp_core.curvature_lesson import CurvatureLesson, curvature_lesson
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["Settings", "CurvatureLesson", "run", "figures"]


@dataclass(frozen=True)
class Settings(StudySettings):
    """Which mechanism, and how many releases per space."""

    mechanism: str = setting(None, choices=MECHANISM_NAMES, optional=True,
                             doc="registry name (default: the scenario's first mechanism)")
    n_releases: int = setting(400, low=10, high=5000, integer=True, doc="releases per space")


def run(scenario, settings=Settings()):
    """:func:`~geodp_core.curvature_lesson.curvature_lesson` with ``settings``.

    Returns
    -------
    CurvatureLesson
    """
    return curvature_lesson(scenario, mechanism=settings.mechanism, n_releases=settings.n_releases)


def figures(result):
    """Histograms of the releases' distances to the true mean, one panel per space."""
    from geodp_core.viz.lesson import curvature_figure  # rendering only

    return [curvature_figure(result)]
