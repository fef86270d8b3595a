"""Plotly figure builders (no Streamlit): scenes on manifolds, curves, heatmaps."""

from geodp_core.viz.scene import CAMERA_PRESETS, MECHANISM_COLORS, ball_boundary, scene_figure, spd_cone_figure

__all__ = ["CAMERA_PRESETS", "MECHANISM_COLORS", "ball_boundary", "scene_figure", "spd_cone_figure"]
