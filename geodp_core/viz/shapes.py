"""Kendall shape space: data, true mean shape and private mean shapes drawn as outlines.

The builders live in :mod:`geodp_core.viz.scene` (beside :func:`~geodp_core.viz.scene.scene_figure`, which draws a
shape-space scenario with them); this module re-exports them under their former names.
"""

from geodp_core.viz.scene import SHAPES_PER_PANEL, shape_figure, shape_space_title

__all__ = ["SHAPES_PER_PANEL", "shape_figure", "shape_space_title"]
