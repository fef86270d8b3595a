r"""The conformal laboratory study: the conformal mechanism step by step beside the Riemannian Laplace.

The computation is :func:`geodp_core.conformal_lab.run_conformal_lab`; its settings
(:class:`~geodp_core.conformal_lab.LabSettings`) are this study's :class:`Settings`, each field with its declared
range.
"""

from geodp_core.conformal_lab import LabRun, run_conformal_lab
from geodp_core.conformal_lab import LabSettings as Settings

__all__ = ["Settings", "LabRun", "run", "figures"]


def run(scenario, settings=Settings()):
    """:func:`~geodp_core.conformal_lab.run_conformal_lab` (S² or H², the scenario's data and total ε).

    Returns
    -------
    LabRun
    """
    return run_conformal_lab(scenario, settings)


def figures(result):
    r"""The density estimate :math:`f`, the conformal factor :math:`\phi` and the distance :math:`\rho^*` from the
    true mean (the Conformal lab's panels)."""
    from geodp_core.viz.heatmaps import conformal_field_figure  # rendering only

    return [conformal_field_figure(result.fields, "f"), conformal_field_figure(result.fields, "phi"),
            conformal_field_figure(result.fields, "rho_star", center=result.true_mean)]
