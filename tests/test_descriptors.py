"""Image covariance descriptors (conformal paper eqs. 45-46) and the two descriptor datasets."""

import math

import numpy as np
import pytest

from geodp_core.data import (
    COLOUR_FEATURES,
    DESCRIPTOR_SIZES,
    GREY_FEATURES,
    covariance_descriptor,
    dataset_classes,
    descriptor_features,
    descriptor_public_center,
    list_datasets,
    load_dataset,
)
from geodp_core.data.datasets import image_patches
from geodp_core.data.descriptors import DEFAULT_REGULARISER, LUMA_WEIGHTS
from geodp_core.exceptions import InvalidParameterError

DESCRIPTOR_DATASETS = ("digits_covariance", "image_patches_covariance")


# ----------------------------------------------------------------------------- loop-based reference
def _reference_features(image):
    """Per-pixel features written out pixel by pixel, straight from eq. 46 and the stated conventions."""
    image = np.asarray(image, dtype=float)
    colour = image.ndim == 3
    height, width = image.shape[:2]

    def luma(row, col):
        if not colour:
            return image[row, col]
        r, g, b = image[row, col]
        return 0.299 * r + 0.587 * g + 0.114 * b

    rows = []
    for row in range(1, height - 1):
        for col in range(1, width - 1):
            i_x = luma(row, col + 1) - luma(row, col - 1)  # filter [-1, 0, 1] along x (columns)
            i_y = luma(row + 1, col) - luma(row - 1, col)  # filter [-1, 0, 1] along y (rows)
            i_xx = -luma(row, col - 1) + 2 * luma(row, col) - luma(row, col + 1)  # [-1, 2, -1]
            i_yy = -luma(row - 1, col) + 2 * luma(row, col) - luma(row + 1, col)
            if abs(i_y) > 0:
                angle = math.atan(abs(i_x) / abs(i_y))
            else:
                angle = math.pi / 2 if abs(i_x) > 0 else 0.0
            intensities = list(image[row, col]) if colour else [image[row, col]]
            rows.append([col / width, row / height, *intensities, abs(i_x), abs(i_y), abs(i_xx), abs(i_yy),
                         math.sqrt(i_x**2 + i_y**2), angle])
    return np.array(rows)


def _reference_descriptor(image, iota):
    """Eq. 45 by explicit sums: (1/|S|) sum (v - mean)(v - mean)^T + iota I."""
    features = _reference_features(image)
    n_pixels, m = features.shape
    mean = [sum(features[p, i] for p in range(n_pixels)) / n_pixels for i in range(m)]
    cov = np.zeros((m, m))
    for p in range(n_pixels):
        for i in range(m):
            for j in range(m):
                cov[i, j] += (features[p, i] - mean[i]) * (features[p, j] - mean[j])
    return cov / n_pixels + iota * np.eye(m)


@pytest.fixture(scope="module")
def digit_image():
    from sklearn.datasets import load_digits

    return load_digits().images[5] / 16.0


@pytest.fixture(scope="module")
def colour_patch():
    from sklearn.datasets import load_sample_images

    flower = load_sample_images().images[1] / 255.0
    return flower[200:232, 300:332]


def test_grey_features_match_the_loop_reference_feature_by_feature(digit_image):
    ours = descriptor_features(digit_image)
    reference = _reference_features(digit_image)
    assert ours.shape == (36, 9) == reference.shape
    for k, name in enumerate(GREY_FEATURES):
        np.testing.assert_allclose(ours[:, k], reference[:, k], atol=1e-12, err_msg=name)


def test_colour_features_match_the_loop_reference_feature_by_feature(colour_patch):
    ours = descriptor_features(colour_patch)
    reference = _reference_features(colour_patch)
    assert ours.shape == (900, 11) == reference.shape
    for k, name in enumerate(COLOUR_FEATURES):
        np.testing.assert_allclose(ours[:, k], reference[:, k], atol=1e-12, err_msg=name)


@pytest.mark.parametrize("iota", [DEFAULT_REGULARISER, 0.05])
def test_grey_descriptor_matches_the_loop_reference(digit_image, iota):
    ours = covariance_descriptor(digit_image, regulariser=iota)
    np.testing.assert_allclose(ours, _reference_descriptor(digit_image, iota), atol=1e-12)
    # the ridge: exactly iota I is added
    np.testing.assert_allclose(ours - covariance_descriptor(digit_image, regulariser=1e-9),
                               (iota - 1e-9) * np.eye(9), atol=1e-12)


def test_colour_descriptor_matches_the_loop_reference(colour_patch):
    ours = covariance_descriptor(colour_patch)
    assert ours.shape == (11, 11)
    np.testing.assert_allclose(ours, _reference_descriptor(colour_patch, DEFAULT_REGULARISER), atol=1e-12)


def test_batch_equals_one_by_one(colour_patch, digit_image):
    rng = np.random.default_rng(0)
    patches = np.stack([colour_patch, colour_patch[::-1], rng.uniform(size=colour_patch.shape)])
    batch = covariance_descriptor(patches)
    assert batch.shape == (3, 11, 11)
    for k in range(3):
        np.testing.assert_allclose(batch[k], covariance_descriptor(patches[k]), atol=1e-14)
    greys = np.stack([digit_image, digit_image.T])
    np.testing.assert_allclose(covariance_descriptor(greys)[1], covariance_descriptor(digit_image.T), atol=1e-14)


def test_colour_flag_reads_grey_images_three_pixels_wide():
    rng = np.random.default_rng(1)
    greys = rng.uniform(size=(4, 6, 3))  # four grey 6 x 3 images, not one colour image
    batch = covariance_descriptor(greys, colour=False)
    assert batch.shape == (4, 9, 9)
    np.testing.assert_allclose(batch[2], covariance_descriptor(greys[2]), atol=1e-14)
    assert covariance_descriptor(greys).shape == (11, 11)  # by default: one 4 x 6 colour image


def test_luma_weights_sum_to_one_and_a_grey_colour_image_has_the_grey_derivatives(digit_image):
    assert sum(LUMA_WEIGHTS) == pytest.approx(1.0)
    colour = np.repeat(digit_image[..., None], 3, axis=-1)
    grey_features = descriptor_features(digit_image)
    colour_features = descriptor_features(colour)
    np.testing.assert_allclose(colour_features[:, 5:], grey_features[:, 3:], atol=1e-12)


def test_a_constant_image_gives_the_coordinate_block_plus_iota():
    descriptor = covariance_descriptor(np.full((8, 8), 0.5), regulariser=0.01)
    cols = np.arange(1, 7) / 8
    expected = np.full(9, 0.01)
    expected[:2] += np.var(cols)
    np.testing.assert_allclose(descriptor, np.diag(expected), atol=1e-15)


@pytest.mark.parametrize(
    ("kwargs", "param"),
    [
        (dict(image=np.zeros((2, 8))), "image"),
        (dict(image=np.zeros((4, 4, 4, 4, 4))), "image"),
        (dict(image=np.full((5, 5), np.nan)), "image"),
        (dict(image=np.zeros((5, 5)), regulariser=0.0), "regulariser"),
        (dict(image=np.zeros((5, 5)), regulariser=-1.0), "regulariser"),
        (dict(image=np.zeros((5, 5)), regulariser=float("nan")), "regulariser"),
        (dict(image=np.zeros((5, 5, 4)), colour=True), "image"),
        (dict(image=np.zeros((5, 5)), colour="yes"), "colour"),
    ],
)
def test_bad_arguments_name_the_parameter(kwargs, param):
    with pytest.raises(InvalidParameterError) as info:
        covariance_descriptor(**kwargs)
    assert info.value.param == param
    assert param in str(info.value)


# ----------------------------------------------------------------------------------- the datasets
@pytest.mark.parametrize("name", DESCRIPTOR_DATASETS)
def test_every_descriptor_is_spd(name):
    data = load_dataset(name)
    m = DESCRIPTOR_SIZES[name]
    assert data.points.shape[1:] == (m, m)
    assert data.manifold_spec == ("spd", m, "affine")
    np.testing.assert_array_equal(data.points, np.swapaxes(data.points, -1, -2))
    eigenvalues = np.linalg.eigvalsh(data.points)
    assert eigenvalues[:, 0].min() >= DEFAULT_REGULARISER * (1 - 1e-9)
    assert data.manifold().belongs(data.points).all()


def test_dataset_sizes_and_classes():
    digits = load_dataset("digits_covariance")
    assert digits.n_points == 1797
    assert sorted(set(digits.labels)) == list(range(10))
    assert dataset_classes("digits_covariance") == {d: f"digit {d}" for d in range(10)}
    patches = load_dataset("image_patches_covariance")
    assert patches.n_points == 2 * (427 // 32) * (640 // 32) == 520
    assert np.bincount(patches.labels).tolist() == [260, 260]
    assert set(dataset_classes("image_patches_covariance")) == {0, 1}


def test_patches_are_cut_on_the_fixed_grid():
    images = [np.arange(70 * 100 * 3, dtype=float).reshape(70, 100, 3)]
    patches, origins = image_patches(images, size=32)
    assert patches.shape == (2 * 3, 32, 32, 3)
    assert origins.tolist() == [[0, r, c] for r in (0, 32) for c in (0, 32, 64)]
    np.testing.assert_array_equal(patches[4], images[0][32:64, 32:64])


@pytest.mark.parametrize(("name", "label"), [("digits_covariance", 3), ("image_patches_covariance", 1)])
def test_class_subset_keeps_exactly_that_class(name, label):
    full = load_dataset(name)
    subset = load_dataset(name, label=label)
    keep = full.labels == label
    assert subset.n_points == int(keep.sum()) > 0
    assert (subset.labels == label).all()
    np.testing.assert_array_equal(subset.points, full.points[keep])
    np.testing.assert_array_equal(subset.extras["source_index"], np.flatnonzero(keep))
    if name == "digits_covariance":
        np.testing.assert_array_equal(subset.extras["images"], full.extras["images"][keep])
    assert f"label {label}" in subset.description


@pytest.mark.parametrize("label", [10, -1, 2.0, "3", True, None])
def test_bad_labels_name_the_parameter_value_and_range(label):
    if label is None:
        assert load_dataset("digits_covariance", label=None).n_points == 1797
        return
    with pytest.raises(InvalidParameterError) as info:
        load_dataset("digits_covariance", label=label)
    message = str(info.value)
    assert info.value.param == "label"
    assert "label" in message and repr(label) in message and "from 0 to 9" in message


def test_label_on_a_dataset_without_labels_is_refused():
    with pytest.raises(InvalidParameterError, match="label") as info:
        load_dataset("cities", label=0)
    assert info.value.param == "label"


@pytest.mark.parametrize("name", DESCRIPTOR_DATASETS)
def test_descriptions_state_the_features_and_the_paper_dataset(name):
    description = load_dataset(name).description
    short = list_datasets()[name]
    features = GREY_FEATURES if name == "digits_covariance" else COLOUR_FEATURES
    for text in (description, short):
        assert ", ".join(features) in text
    stands_in = "Fashion-MNIST" if name == "digits_covariance" else "CIFAR-10"
    assert stands_in in description and stands_in in short
    assert "offline stand-in" in description and "offline stand-in" in short
    for internal in ("SPEC", "§", "issue", ".py"):
        assert internal not in description and internal not in short


def test_public_centre_is_a_fixed_scaled_identity():
    center = descriptor_public_center(9)
    np.testing.assert_allclose(center, math.sqrt(DEFAULT_REGULARISER / 12) * np.eye(9))
    np.testing.assert_array_equal(load_dataset("digits_covariance").extras["public_center"], center)
