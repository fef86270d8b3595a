r"""The Explorer study: one :class:`~geodp_core.scenario.Scenario` — data, true mean, calibrations, releases.

The computation is :func:`geodp_core.explorer.run_scenario` (built on :func:`geodp_core.pipeline.prepare` and
:func:`~geodp_core.pipeline.evaluate`); this module gives it the studies' shape: :class:`Settings`, :func:`run`,
:func:`figures`.
"""

from dataclasses import dataclass

from geodp_core.explorer import ScenarioResult, resample_releases, run_scenario
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["Settings", "run", "figures", "ScenarioResult"]


@dataclass(frozen=True)
class Settings(StudySettings):
    """The Explorer's own settings (the scenario carries everything else)."""

    resample: int = setting(0, low=0, high=1_000_000, integer=True,
                            doc="which independent draw of the releases (0 = the scenario's own draw)")


def run(scenario, settings=Settings(), points=None):
    """:func:`~geodp_core.explorer.run_scenario`, then draw ``settings.resample`` of the releases (same data).

    Returns
    -------
    ScenarioResult
    """
    result = run_scenario(scenario, points)
    return result if settings.resample == 0 else resample_releases(result, settings.resample)


def figures(result):
    """The scene (data, public ball, releases) and the histogram of the releases' distances to the true mean."""
    from geodp_core.viz.distances import release_distance_figure  # rendering only
    from geodp_core.viz.scene import scene_figure

    return [scene_figure(result), release_distance_figure(result)]
