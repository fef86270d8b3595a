r"""The source papers' experiments — a thin public face of :mod:`geodp_core.studies.reproductions`.

The reproductions live one module per paper in :mod:`geodp_core.studies.reproductions` (``gdp``, ``heat``,
``ew``, ``conformal``, ``kng``), each id declared once as a
:class:`~geodp_core.studies.reproductions.spec.ReproductionSpec` (claim clauses with machine tests, sizes,
runner); the command line is :mod:`geodp_core.studies.reproductions.cli`. This module re-exports their public
names so that ``geodp_core.reproduce.reproduce_gdp(...)``, ``python -m geodp_core.reproduce --list | ID
[--quick|--full] [--out DIR] [--seed S]`` and the ``geodp-reproduce`` console script keep working.
``COMMANDS`` is the registry :data:`~geodp_core.studies.reproductions.REPRODUCTIONS` under its former name.
"""

import sys

from geodp_core.studies.reproductions import (
    OUTCOMES,
    REPRODUCTIONS,
    UTILITY_COLUMNS,
    VERDICTS,
    Clause,
    ClauseOutcome,
    PaperClaim,
    Reproduction,
    ReproductionSpec,
    run_reproduction,
)
from geodp_core.studies.reproductions.cli import main
from geodp_core.studies.reproductions.conformal import (
    CONFORMAL_FIGURE_GRIDS,
    CONFORMAL_FIGURES,
    CONFORMAL_FLOOR_EPS,
    CONFORMAL_IMAGE_DATASETS,
    CONFORMAL_IMAGE_METRIC,
    CONFORMAL_PAPER_DELTA,
    CONFORMAL_PAPER_EPS,
    CONFORMAL_PAPER_FIXED_EPS,
    CONFORMAL_PAPER_IMAGE_EPS,
    CONFORMAL_PAPER_N,
    reproduce_conformal,
    reproduce_conformal_figure,
    reproduce_conformal_images,
)
from geodp_core.studies.reproductions.ew import (
    EW_DIM_FAMILIES,
    EW_PAPER_DIMS,
    EW_PAPER_MU,
    EW_PAPER_N,
    EW_PAPER_RADIUS,
    EW_RUNTIME_SAMPLERS,
    EW_SPACES,
    reproduce_ew_dimensions,
    reproduce_exponential_wrapped,
)
from geodp_core.studies.reproductions.gdp import (
    GDP_CURVE_SPACES,
    GDP_EXACT_MU_REFERENCE,
    GDP_PAPER_CURVE_REPLICATES,
    GDP_PAPER_CURVE_SIGMAS,
    GDP_PAPER_MC_MU,
    GDP_PAPER_N,
    GDP_PAPER_RADIUS,
    GDP_PAPER_SENSITIVITY,
    GDP_PAPER_SIGMA_MULTIPLES,
    reproduce_gdp,
    reproduce_gdp_curve,
)
from geodp_core.studies.reproductions.heat import (
    HEAT_PAPER_ALPHA,
    HEAT_PAPER_EPS,
    HEAT_PAPER_LAMBDA,
    HEAT_PAPER_SETUPS,
    HEAT_SPACES,
    reproduce_heat_diffusion,
    reproduce_heat_escape,
)
from geodp_core.studies.reproductions.kng import (
    KNG_PAPER_DELTAS,
    KNG_PAPER_EPS,
    KNG_PAPER_N,
    KNG_PAPER_NOISE_VARIANCE,
    KNG_PAPER_SHAPE_EPS,
    KNG_PAPER_SPLIT_EPS_P,
    KNG_PAPER_SPLIT_TOTAL,
    KNG_SHAPE_COVARIATES,
    KNG_SPACE_PRESETS,
    KNG_SPACES,
    reproduce_kng_budget_split,
    reproduce_kng_noise,
    reproduce_kng_regression,
    reproduce_kng_sensitivity,
    reproduce_kng_shapes,
)

#: The reproduction ids and their specs (the registry, under its former name).
COMMANDS = REPRODUCTIONS

__all__ = [
    "PaperClaim", "Reproduction", "ReproductionSpec", "Clause", "ClauseOutcome", "OUTCOMES", "UTILITY_COLUMNS",
    "VERDICTS", "REPRODUCTIONS", "COMMANDS", "run_reproduction", "main",
    "GDP_PAPER_N", "GDP_PAPER_RADIUS", "GDP_PAPER_SENSITIVITY", "GDP_PAPER_MC_MU", "GDP_EXACT_MU_REFERENCE",
    "GDP_PAPER_SIGMA_MULTIPLES", "GDP_PAPER_CURVE_SIGMAS", "GDP_PAPER_CURVE_REPLICATES", "GDP_CURVE_SPACES",
    "HEAT_PAPER_ALPHA", "HEAT_PAPER_EPS", "HEAT_PAPER_SETUPS", "HEAT_SPACES", "HEAT_PAPER_LAMBDA",
    "EW_PAPER_N", "EW_PAPER_RADIUS", "EW_PAPER_MU", "EW_SPACES", "EW_PAPER_DIMS", "EW_DIM_FAMILIES",
    "EW_RUNTIME_SAMPLERS",
    "CONFORMAL_PAPER_N", "CONFORMAL_PAPER_EPS", "CONFORMAL_PAPER_DELTA", "CONFORMAL_FIGURES", "CONFORMAL_FIGURE_GRIDS",
    "CONFORMAL_IMAGE_DATASETS", "CONFORMAL_PAPER_IMAGE_EPS", "CONFORMAL_PAPER_FIXED_EPS", "CONFORMAL_FLOOR_EPS",
    "CONFORMAL_IMAGE_METRIC",
    "KNG_PAPER_NOISE_VARIANCE", "KNG_PAPER_N", "KNG_PAPER_EPS", "KNG_PAPER_SPLIT_TOTAL", "KNG_PAPER_SPLIT_EPS_P",
    "KNG_PAPER_DELTAS", "KNG_SPACES", "KNG_SPACE_PRESETS", "KNG_PAPER_SHAPE_EPS", "KNG_SHAPE_COVARIATES",
    "reproduce_gdp", "reproduce_gdp_curve", "reproduce_heat_diffusion", "reproduce_heat_escape",
    "reproduce_exponential_wrapped", "reproduce_ew_dimensions", "reproduce_conformal", "reproduce_conformal_figure",
    "reproduce_conformal_images", "reproduce_kng_regression", "reproduce_kng_budget_split", "reproduce_kng_noise",
    "reproduce_kng_sensitivity", "reproduce_kng_shapes",
]

if __name__ == "__main__":
    sys.exit(main())
