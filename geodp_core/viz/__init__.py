"""Plotly figure builders (no Streamlit): scenes on manifolds, curves, heatmaps, regression fits.

- :mod:`~geodp_core.viz.scene`: data, true mean and release clouds on S², the Poincaré disk, SPD(2);
- :mod:`~geodp_core.viz.spd_spectrum`: SPD(m), any m: spectra relative to the public centre;
- :mod:`~geodp_core.viz.curves`: utility curves, privacy profiles, trade-offs, μ vs σ, heat-diffusion curves;
- :mod:`~geodp_core.viz.heatmaps`: vertex fields (density, conformal factor, ρ*) on the sphere and the disk;
- :mod:`~geodp_core.viz.regression`: geodesic-regression fits and prediction errors.
"""

from geodp_core.viz.audit import (
    audit_claim_figure,
    audit_comparison_figure,
    audit_statistic_figure,
)
from geodp_core.viz.curves import (
    gdp_mu_vs_sigma_figure,
    heat_eps_vs_t_figure,
    langevin_t_vs_lam_figure,
    p_mean_sensitivity_figure,
    privacy_profile_figure,
    tradeoff_figure,
    utility_curve_figure,
)
from geodp_core.viz.heatmaps import conformal_field_figure, disk_heatmap, sphere_heatmap
from geodp_core.viz.regression import mspe_figure, regression_figure
from geodp_core.viz.scene import (
    CAMERA_PRESETS,
    MECHANISM_COLORS,
    ball_boundary,
    scene_figure,
    spd_cone_figure,
    spd_glyph_figure,
)
from geodp_core.viz.spd_spectrum import spd_spectrum_figure

__all__ = [
    "CAMERA_PRESETS",
    "MECHANISM_COLORS",
    "ball_boundary",
    "scene_figure",
    "spd_cone_figure",
    "spd_glyph_figure",
    "spd_spectrum_figure",
    "utility_curve_figure",
    "privacy_profile_figure",
    "tradeoff_figure",
    "gdp_mu_vs_sigma_figure",
    "heat_eps_vs_t_figure",
    "langevin_t_vs_lam_figure",
    "p_mean_sensitivity_figure",
    "conformal_field_figure",
    "sphere_heatmap",
    "disk_heatmap",
    "regression_figure",
    "mspe_figure",
    "audit_claim_figure",
    "audit_statistic_figure",
    "audit_comparison_figure",
]
