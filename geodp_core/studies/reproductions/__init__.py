r"""The source papers' experiments, rerun with geodp_core: one module per paper, one spec per id.

==============================  ============================================================================
module                          ids
==============================  ============================================================================
:mod:`.gdp`                     ``gdp``, ``gdp_curve`` (GDP on Riemannian manifolds, Jiang et al. 2023)
:mod:`.heat`                    ``heat_sphere``, ``heat_hyperbolic``, ``heat_ewg``, ``heat_escape`` (heat diffusion,
                                Chang et al.)
:mod:`.ew`                      ``ew``, ``ew_dimensions`` (exponential-wrapped mechanisms, ICLR 2026)
:mod:`.ew_octmnist`             ``ew_octmnist`` (the same paper's OCTMNIST experiment; the real file with
                                ``--data-dir``)
:mod:`.conformal`               ``conformal``, ``conformal_dimension`` / ``_n`` / ``_spread`` / ``_eps``,
                                ``conformal_images`` (density-aware conformal DP, He et al.)
:mod:`.kng`                     ``kng``, ``kng_split``, ``kng_noise``, ``kng_spd``, ``kng_spd_equal``,
                                ``kng_kendall_split``, ``kng_kendall``, ``kng_shapes``, ``kng_sensitivity``
                                (DP geodesic regression)
==============================  ============================================================================

Each id is ONE :class:`~geodp_core.studies.reproductions.spec.ReproductionSpec` (paper, figure, space, the claim
as clauses with machine tests, the sizes of ``default`` / ``--quick`` / ``--full``, the runner), declared by the
``@reproduction`` decorator on its runner and collected in :data:`REPRODUCTIONS`. The verdict is computed from
the clauses' outcomes by one rule (:func:`~geodp_core.studies.reproductions.spec.judge`): a clause resting on a
sampler cell that failed its public convergence check is inconclusive, and a clause about one setting of the
paper's grid is not applicable on the other panels. A spec lists the paper's own grid as ``panels`` (runner
arguments merged over a size: :func:`run_reproduction` ``panel=``), and may name its scenarios and its range of
n (the command line's ``--scenario`` / ``--n``) and a real-file loader (``--data-dir``). The study's shape: :class:`Settings`
(id, size, seed), :func:`run` and :func:`figures`. The command line is :mod:`.cli`. None of these modules imports
:mod:`geodp_core.viz` except :func:`figures` (when called) and the command line. Settings, numbers and verdicts:
docs/derivations/reproductions.md.
"""

# ruff: noqa: I001 - the import order below is the registration (menu) order

from dataclasses import dataclass, replace

from geodp_core.exceptions import InvalidParameterError
# each paper module registers its ids on import, in the papers' order
from geodp_core.studies.reproductions import gdp  # noqa: F401
from geodp_core.studies.reproductions import heat  # noqa: F401
from geodp_core.studies.reproductions import ew  # noqa: F401
from geodp_core.studies.reproductions import ew_octmnist  # noqa: F401
from geodp_core.studies.reproductions import conformal  # noqa: F401
from geodp_core.studies.reproductions import kng  # noqa: F401
from geodp_core.studies.reproductions.common import UTILITY_COLUMNS, PaperClaim, Reproduction
from geodp_core.studies.reproductions.spec import (
    ALL_PANELS,
    OUTCOMES,
    REPRODUCTIONS,
    SIZES,
    VERDICTS,
    Clause,
    ClauseOutcome,
    SIZE_WORDS,
    PaperCodes,
    RegisteredIds,
    paper_code,
    ReproductionSpec,
    evaluate_claim,
    judge,
    verdict_text,
)
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["REPRODUCTIONS", "ReproductionSpec", "Clause", "ClauseOutcome", "OUTCOMES", "VERDICTS", "SIZES",
           "PaperClaim", "Reproduction", "UTILITY_COLUMNS", "judge", "run_reproduction", "Settings", "run", "figures", "ALL_PANELS",
           "PaperCodes", "paper_code", "SIZE_WORDS"]


def run_reproduction(id, size="default", seed=0, panel=None):
    """Run the reproduction ``id`` at ``size`` (``"default"``, ``"quick"`` or ``"full"``) with ``seed``.

    ``panel`` (a dict of runner keyword arguments, e.g. one of the spec's ``panels``) is merged over the size's.

    The verdict is recomputed from the spec's clauses on the run's numbers (the same numbers always give the same
    verdict); a ``"quick"`` run is labelled a smoke run.

    Returns
    -------
    Reproduction
    """
    if id not in REPRODUCTIONS:
        raise InvalidParameterError(f"id must be one of {tuple(REPRODUCTIONS)}; got {id!r}", param="id")
    if size not in SIZES:
        raise InvalidParameterError(f"size must be one of {SIZES}; got {size!r}", param="size")
    spec = REPRODUCTIONS[id]
    result = spec.runner(**spec.panel_arguments(size, panel), seed=seed)
    status, outcomes = evaluate_claim(spec.claim, result.numbers, spec.kind)
    return replace(result, status=status, clauses=outcomes, kind=spec.kind, size=size,
                   verdict=verdict_text(status, outcomes, result.details, size))


@dataclass(frozen=True)
class Settings(StudySettings):
    """Which reproduction to run, which of its panels, at which size, with which seed.

    ``id`` is any registered id (a live list: an id registered after this module was imported is valid too);
    ``panel`` is :data:`ALL_PANELS` (``"all"``: every panel of the figure, or the id itself when it has no
    panels) or the code of one of the id's panels (:meth:`ReproductionSpec.panel_slug`, e.g. ``scenario2-n50``).
    """

    id: str = setting("gdp", choices=RegisteredIds(), doc="reproduction id")
    size: str = setting("default", choices=SIZES, doc="default, quick (a smoke run) or full (the papers' counts)")
    seed: int = setting(0, low=0, high=2**32 - 1, integer=True, doc="seed of the data and the releases")
    panel: str = setting(ALL_PANELS, text=True, doc="every panel of the figure, or the code of one panel")

    def __post_init__(self):
        super().__post_init__()
        REPRODUCTIONS[self.id].panel_for(self.panel)  # a named error when the panel is not one of the id's

    def panels(self):
        """``((code, panel), ...)``: the panels these settings run, each with its code (``(ALL_PANELS, None)`` for
        an id without panels)."""
        spec = REPRODUCTIONS[self.id]
        return tuple((spec.panel_slug(p) if p is not None else ALL_PANELS, p) for p in spec.panel_for(self.panel))


def run(scenario=None, settings=Settings()):
    """Run one reproduction: a :class:`Reproduction` for one panel, a tuple of them (in the panels' order) when
    ``settings.panel`` is ``"all"`` on an id with several panels. The papers fix their own data, so ``scenario``
    must be ``None``."""
    if scenario is not None:
        raise InvalidParameterError("a reproduction takes no scenario (the paper fixes its data); pass None",
                                    param="scenario")
    results = tuple(run_reproduction(settings.id, settings.size, settings.seed, panel)
                    for _, panel in settings.panels())
    return results[0] if settings.panel != ALL_PANELS or len(results) == 1 else results


def figures(result):
    """Every figure of a :class:`Reproduction` (drawn by :func:`geodp_core.viz.reproduce.reproduction_figures`)."""
    from geodp_core.viz.reproduce import reproduction_figures  # rendering only, never at import

    return reproduction_figures(result)
