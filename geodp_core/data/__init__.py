"""Data for GeoDP (docs/specification.md §2, §9): synthetic generators, real datasets, image descriptors, the public ball, uploads.

The data kinds a scenario can name are declared once each in :mod:`geodp_core.data.kinds`.

The papers' own data files (OCTMNIST/MedMNIST, Fashion-MNIST, CIFAR-10, planar landmarks) are read by
:mod:`geodp_core.data.real_files` when a user has them.

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
from geodp_core.data.real_files import (
    CIFAR10_CLASSES,
    FASHION_MNIST_CLASSES,
    MAX_FILE_BYTES,
    OCTMNIST_CLASSES,
    load_cifar10,
    load_fashion_mnist,
    load_landmark_shapes,
    load_medmnist,
    load_octmnist,
)
from geodp_core.data.shapes import (
    CELL_LINES,
    CELL_TREATMENTS,
    arch_template,
    ellipse_template,
    load_planar_cells,
    resample_closed_curve,
    sample_landmark_perturbation,
)
from geodp_core.data.uploads import MAX_UPLOAD_BYTES, InvalidUploadError, parse_points

from geodp_core.data.kinds import DataKind, data_kind, data_kinds, data_kinds_for, register_data_kind  # isort: skip
from geodp_core.exceptions import DataFileError

__all__ = [
    "BALL_RTOL",
    "CELL_LINES",
    "CELL_TREATMENTS",
    "CIFAR10_CLASSES",
    "COLOUR_FEATURES",
    "DESCRIPTOR_BALL_RADIUS",
    "DESCRIPTOR_SIZES",
    "FASHION_MNIST_CLASSES",
    "GREY_FEATURES",
    "KARATE_DEPTH_STEP",
    "MAX_FILE_BYTES",
    "MAX_SAMPLES",
    "MAX_UPLOAD_BYTES",
    "OCTMNIST_CLASSES",
    "DataFileError",
    "DataKind",
    "Dataset",
    "InvalidUploadError",
    "check_in_ball",
    "arch_template",
    "clip_to_ball",
    "covariance_descriptor",
    "data_kind",
    "data_kinds",
    "data_kinds_for",
    "dataset_classes",
    "descriptor_features",
    "descriptor_public_center",
    "ellipse_template",
    "karate_tree_embedding",
    "list_datasets",
    "load_cifar10",
    "load_dataset",
    "load_fashion_mnist",
    "load_landmark_shapes",
    "load_medmnist",
    "load_octmnist",
    "load_planar_cells",
    "parse_points",
    "preshape",
    "register_data_kind",
    "resample_closed_curve",
    "sample_geodesic_regression",
    "sample_landmark_perturbation",
    "sample_uniform_ball",
    "sample_vmf_mixture",
    "sample_von_mises_fisher",
    "sample_wishart",
    "sample_wrapped_normal",
    "sample_wrapped_normal_mixture",
    "vmf_kappa_from_std",
    "vmf_mean_resultant_length",
]
