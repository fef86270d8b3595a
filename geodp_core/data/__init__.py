"""Data for GeoDP (SPEC §2, §9): synthetic generators, real datasets, image descriptors, the public ball, uploads.

Every generator takes an explicit ``numpy.random.Generator`` (or integer seed) and
returns exactly ``n`` points checked to lie on the manifold.
"""

from geodp_core.data.clipping import BALL_RTOL, check_in_ball, clip_to_ball
from geodp_core.data.datasets import (
    DESCRIPTOR_BALL_RADIUS,
    DESCRIPTOR_SIZES,
    KARATE_DEPTH_STEP,
    Dataset,
    dataset_classes,
    karate_tree_embedding,
    list_datasets,
    load_dataset,
    preshape,
)
from geodp_core.data.descriptors import (
    COLOUR_FEATURES,
    GREY_FEATURES,
    covariance_descriptor,
    descriptor_features,
    descriptor_public_center,
)
from geodp_core.data.generators import (
    MAX_SAMPLES,
    sample_geodesic_regression,
    sample_uniform_ball,
    sample_vmf_mixture,
    sample_von_mises_fisher,
    sample_wishart,
    sample_wrapped_normal,
    sample_wrapped_normal_mixture,
    vmf_kappa_from_std,
    vmf_mean_resultant_length,
)
from geodp_core.data.uploads import MAX_UPLOAD_BYTES, InvalidUploadError, parse_points

__all__ = [
    "sample_von_mises_fisher",
    "vmf_kappa_from_std",
    "vmf_mean_resultant_length",
    "sample_vmf_mixture",
    "sample_uniform_ball",
    "sample_wrapped_normal",
    "sample_wrapped_normal_mixture",
    "sample_wishart",
    "sample_geodesic_regression",
    "MAX_SAMPLES",
    "clip_to_ball",
    "check_in_ball",
    "BALL_RTOL",
    "Dataset",
    "load_dataset",
    "list_datasets",
    "dataset_classes",
    "DESCRIPTOR_SIZES",
    "DESCRIPTOR_BALL_RADIUS",
    "covariance_descriptor",
    "descriptor_features",
    "descriptor_public_center",
    "GREY_FEATURES",
    "COLOUR_FEATURES",
    "preshape",
    "karate_tree_embedding",
    "KARATE_DEPTH_STEP",
    "parse_points",
    "InvalidUploadError",
    "MAX_UPLOAD_BYTES",
]
