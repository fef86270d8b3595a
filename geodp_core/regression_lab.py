"""The regression page's laboratory — a thin public face: the implementation is
:mod:`geodp_core.studies.regression_lab` (with its ``Settings``, ``run`` and ``figures``); this module re-exports
its public names so that ``geodp_core.regression_lab`` keeps working.
"""

from geodp_core.studies.regression_lab import (
    KENDALL_DEMO_LANDMARKS,
    NOISE_IS_A_SCALE,
    REGRESSION_PRESETS,
    REGRESSION_SPACES,
    RegressionDemo,
    regression_demo,
    template_shapes,
)

__all__ = ["RegressionDemo", "regression_demo", "REGRESSION_PRESETS", "REGRESSION_SPACES", "KENDALL_DEMO_LANDMARKS",
           "NOISE_IS_A_SCALE", "template_shapes"]
