"""Loaders of the papers' real data files, on small synthetic files written in exactly the published formats."""

import gzip
import os
import pickle
import struct
import zipfile

import numpy as np
import pytest

from geodp_core.data import (
    CIFAR10_CLASSES,
    FASHION_MNIST_CLASSES,
    OCTMNIST_CLASSES,
    DataFileError,
    Dataset,
    covariance_descriptor,
    load_cifar10,
    load_fashion_mnist,
    load_landmark_shapes,
    load_medmnist,
    load_octmnist,
)
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold

SPLIT_SIZES = {"train": 7, "val": 3, "test": 4}


def _images(rng, n, shape):
    return rng.integers(0, 256, size=(n,) + shape, dtype=np.uint8)


def _labels(n, n_classes, offset=0):
    return ((np.arange(n) + offset) % n_classes).astype(np.uint8)


# ----------------------------------------------------------------------------- MedMNIST
def _medmnist(tmp_path, colour=False, name="octmnist.npz", compressed=True, **overrides):
    rng = np.random.default_rng(1)
    shape = (28, 28, 3) if colour else (28, 28)
    arrays = {}
    for i, (split, n) in enumerate(SPLIT_SIZES.items()):
        arrays[f"{split}_images"] = _images(rng, n, shape)
        arrays[f"{split}_labels"] = _labels(n, 4, i)[:, None]
    arrays.update(overrides)
    arrays = {k: v for k, v in arrays.items() if v is not None}
    path = tmp_path / name
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return path, arrays


def _check_descriptors(data, images, colour):
    expected = covariance_descriptor(images.astype(float) / 255.0, colour=colour)
    np.testing.assert_allclose(data.points, expected, rtol=1e-12, atol=1e-15)
    m = 11 if colour else 9
    assert data.points.shape == (images.shape[0], m, m)
    assert data.manifold_spec == ("spd", m, "affine")
    assert get_manifold(*data.manifold_spec).belongs(data.points).all()


def test_octmnist_all_splits_shapes_labels_and_descriptors(tmp_path):
    path, arrays = _medmnist(tmp_path)
    data = load_octmnist(path)
    assert isinstance(data, Dataset) and data.name == "octmnist"
    images = np.concatenate([arrays[f"{s}_images"] for s in SPLIT_SIZES])
    labels = np.concatenate([arrays[f"{s}_labels"][:, 0] for s in SPLIT_SIZES])
    assert data.n_points == sum(SPLIT_SIZES.values())
    np.testing.assert_array_equal(data.labels, labels)
    np.testing.assert_array_equal(data.extras["images"], images)
    assert list(data.extras["split"]) == [s for s, n in SPLIT_SIZES.items() for _ in range(n)]
    np.testing.assert_array_equal(data.extras["source_index"],
                                  np.concatenate([np.arange(n) for n in SPLIT_SIZES.values()]))
    _check_descriptors(data, images, colour=False)
    assert "Kermany" in data.source and "MedMNIST" in data.source
    assert "drusen" in data.label_meaning and list(data.extras["class_names"]) == list(OCTMNIST_CLASSES)


def test_medmnist_split_class_filter_and_cap(tmp_path):
    path, arrays = _medmnist(tmp_path, compressed=False)
    data = load_octmnist(path, split="train", label=2)
    keep = np.flatnonzero(arrays["train_labels"][:, 0] == 2)
    assert keep.size >= 2
    np.testing.assert_array_equal(data.extras["source_index"], keep)
    assert (data.labels == 2).all() and data.n_points == keep.size
    _check_descriptors(data, arrays["train_images"][keep], colour=False)
    capped = load_octmnist(path, label=1, max_images=3)  # across splits, in file order
    every = load_octmnist(path, label=1)
    assert capped.n_points == 3 < every.n_points
    np.testing.assert_array_equal(capped.points, every.points[:3])
    assert "first 3" in capped.description


def test_medmnist_colour_gives_spd11(tmp_path):
    path, arrays = _medmnist(tmp_path, colour=True, name="pathmnist.npz")
    data = load_medmnist(path, split="test")
    assert data.name == "medmnist_pathmnist"
    _check_descriptors(data, arrays["test_images"], colour=True)
    with pytest.raises(DataFileError, match=r"\(n, H, W\) grey"):
        load_octmnist(path)  # OCTMNIST is grey


@pytest.mark.parametrize("overrides, match", [
    ({"val_labels": None}, r"no array 'val_labels'.*archive holds"),
    ({"train_images": np.zeros((7, 28, 28), dtype=np.float32)}, r"dtype float32; expected uint8"),
    ({"train_images": np.zeros((7, 28), dtype=np.uint8)}, r"shape \(7, 28\); expected"),
    ({"train_labels": np.zeros((7, 14), dtype=np.uint8)}, r"multi-label"),
    ({"train_labels": np.zeros((6, 1), dtype=np.uint8)}, r"6 labels for 7 images"),
    ({"test_labels": np.array([[0], [1], [9], [2]], dtype=np.uint8)}, r"label 9 of image 2.*\[0, 3\]"),
    ({"test_images": np.empty((4,), dtype=object)}, r"object arrays are refused"),
    ({"train_images": np.asfortranarray(np.zeros((7, 28, 28), dtype=np.uint8))}, r"Fortran order"),
])
def test_medmnist_wrong_key_dtype_shape_labels(tmp_path, overrides, match):
    if any(v is not None and v.dtype == object for v in overrides.values()):
        path, _ = _medmnist(tmp_path)
        arrays = dict(np.load(path))
        arrays.update(overrides)
        np.savez(path, **arrays)  # allow_pickle is the default for saving
    else:
        path, _ = _medmnist(tmp_path, **overrides)
    with pytest.raises(DataFileError, match=match) as info:
        load_octmnist(path)
    assert "octmnist.npz" in str(info.value)


def test_medmnist_truncated_corrupt_and_oversize(tmp_path):
    path, _ = _medmnist(tmp_path, compressed=False)
    content = path.read_bytes()
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(content[: len(content) // 2])
    with pytest.raises(DataFileError, match=r"truncated\.npz.*not a valid \.npz"):
        load_octmnist(truncated)
    with pytest.raises(DataFileError, match=r"above the limit max_bytes=1,000"):
        load_octmnist(path, max_bytes=1000)
    # a member whose header declares more data than it holds
    inconsistent = tmp_path / "inconsistent.npz"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(inconsistent, "w") as dst:
        for info in src.infolist():
            raw = src.read(info)
            dst.writestr(info.filename, raw[:-10] if info.filename == "train_images.npy" else raw)
    with pytest.raises(DataFileError, match=r"'train_images'.*truncated or corrupt"):
        load_octmnist(inconsistent)
    # a member whose header declares an array far above the byte limit (read nothing)
    huge = tmp_path / "huge.npz"
    header = np.lib.format.header_data_from_array_1_0(np.zeros((1, 28, 28), dtype=np.uint8))
    header["shape"] = (10**9, 28, 28)
    import io

    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, header)
    with zipfile.ZipFile(huge, "w") as dst:
        dst.writestr("train_images.npy", buffer.getvalue())
    with pytest.raises(DataFileError, match=r"'train_images'.*truncated or corrupt"):
        load_octmnist(huge, split="train")
    # a zip bomb: a small compressed file whose array is far above the byte limit is refused unread
    bomb = tmp_path / "bomb.npz"
    np.savez_compressed(bomb, train_images=np.zeros((2000, 28, 28), np.uint8),
                        train_labels=np.zeros((2000, 1), np.uint8))
    assert bomb.stat().st_size < 100_000
    with pytest.raises(DataFileError, match=r"'train_images': the array is 1,568,128 bytes uncompressed, above"):
        load_octmnist(bomb, split="train", max_bytes=100_000)
    with pytest.raises(DataFileError, match=r"does not exist"):
        load_octmnist(tmp_path / "missing.npz")


def test_medmnist_bad_arguments(tmp_path):
    path, _ = _medmnist(tmp_path)
    with pytest.raises(InvalidParameterError, match=r"label must be an integer in \[0, 3\]") as info:
        load_octmnist(path, label=4)
    assert info.value.param == "label"
    with pytest.raises(InvalidParameterError, match=r"split must be one of"):
        load_octmnist(path, split="validation")
    with pytest.raises(InvalidParameterError, match=r"max_images"):
        load_octmnist(path, max_images=0)
    with pytest.raises(DataFileError, match=r"no image of class label=7") as info:
        load_medmnist(path, label=7)
    assert info.value.param == "label"


# ----------------------------------------------------------------------------- Fashion-MNIST
def _idx(array, type_code=0x08):
    header = bytes([0, 0, type_code, array.ndim]) + b"".join(int(s).to_bytes(4, "big") for s in array.shape)
    return header + array.astype(np.uint8).tobytes()


def _fashion_dir(tmp_path, gz=True):
    rng = np.random.default_rng(2)
    directory = tmp_path / "fashion"
    directory.mkdir()
    arrays = {}
    for prefix, n in (("train", 12), ("t10k", 5)):
        images, labels = _images(rng, n, (28, 28)), _labels(n, 10, 3)
        arrays[prefix] = (images, labels)
        for kind, array in (("images-idx3-ubyte", images), ("labels-idx1-ubyte", labels)):
            name = f"{prefix}-{kind}"
            if gz:
                with gzip.open(directory / f"{name}.gz", "wb") as handle:
                    handle.write(_idx(array))
            else:
                (directory / name).write_bytes(_idx(array))
    return directory, arrays


@pytest.mark.parametrize("gz", [True, False])
def test_fashion_mnist_idx(tmp_path, gz):
    directory, arrays = _fashion_dir(tmp_path, gz=gz)
    data = load_fashion_mnist(directory)
    images = np.concatenate([arrays["train"][0], arrays["t10k"][0]])
    np.testing.assert_array_equal(data.labels, np.concatenate([arrays["train"][1], arrays["t10k"][1]]))
    _check_descriptors(data, images, colour=False)
    assert data.name == "fashion_mnist" and "Xiao" in data.source
    test_only = load_fashion_mnist(directory, split="test", label=int(arrays["t10k"][1][0]))
    keep = np.flatnonzero(arrays["t10k"][1] == arrays["t10k"][1][0])
    _check_descriptors(test_only, arrays["t10k"][0][keep], colour=False)
    capped = load_fashion_mnist(directory, max_images=5)
    _check_descriptors(capped, arrays["train"][0][:5], colour=False)
    assert FASHION_MNIST_CLASSES[3] in data.label_meaning


def test_fashion_mnist_idx_errors(tmp_path):
    directory, arrays = _fashion_dir(tmp_path, gz=False)
    images_file = directory / "train-images-idx3-ubyte"
    content = images_file.read_bytes()
    images_file.write_bytes(content[:-100])
    with pytest.raises(DataFileError, match=r"train-images-idx3-ubyte.*truncated or corrupt"):
        load_fashion_mnist(directory)
    images_file.write_bytes(_idx(arrays["train"][0], type_code=0x0D))  # floats, not unsigned bytes
    with pytest.raises(DataFileError, match=r"not an IDX file of unsigned bytes"):
        load_fashion_mnist(directory)
    images_file.write_bytes(_idx(arrays["train"][1]))  # a labels file where images are expected
    with pytest.raises(DataFileError, match=r"1 dimension\(s\); expected 3"):
        load_fashion_mnist(directory)
    images_file.write_bytes(_idx(arrays["train"][0][:11]))
    with pytest.raises(DataFileError, match=r"12 labels for 11 images"):
        load_fashion_mnist(directory)
    os.remove(images_file)
    with pytest.raises(DataFileError, match=r"no train-images-idx3-ubyte"):
        load_fashion_mnist(directory)
    # a gzipped file cut short: read only as far as needed, and the cut is an error
    (tmp_path / "gz").mkdir()
    gz_dir, _ = _fashion_dir(tmp_path / "gz", gz=True)
    gz_file = gz_dir / "t10k-images-idx3-ubyte.gz"
    gz_file.write_bytes(gz_file.read_bytes()[:200])
    with pytest.raises(DataFileError, match=r"t10k-images-idx3-ubyte\.gz"):
        load_fashion_mnist(gz_dir, split="test")
    # a header declaring a huge array is refused before any data is read
    huge = np.zeros((1, 28, 28), dtype=np.uint8)
    header = bytes([0, 0, 8, 3]) + (10**8).to_bytes(4, "big") + (28).to_bytes(4, "big") * 2
    (gz_dir / "t10k-images-idx3-ubyte.gz").unlink()
    (gz_dir / "t10k-images-idx3-ubyte").write_bytes(header + huge.tobytes())
    with pytest.raises(DataFileError, match=r"declares 78,400,000,000 bytes"):
        load_fashion_mnist(gz_dir, split="test")


def test_fashion_mnist_npz_layouts(tmp_path):
    rng = np.random.default_rng(3)
    x_train, x_test = _images(rng, 6, (28, 28)), _images(rng, 4, (28, 28))
    y_train, y_test = _labels(6, 10), _labels(4, 10, 5)
    keras = tmp_path / "fashion.npz"
    np.savez(keras, x_train=x_train, y_train=y_train, x_test=x_test, y_test=y_test)
    data = load_fashion_mnist(keras, split="test")
    np.testing.assert_array_equal(data.labels, y_test)
    _check_descriptors(data, x_test, colour=False)
    flat = tmp_path / "flat.npz"
    np.savez(flat, x=x_train.reshape(6, 784), y=y_train)
    _check_descriptors(load_fashion_mnist(flat), x_train, colour=False)
    with pytest.raises(DataFileError, match=r"without a train/test split") as info:
        load_fashion_mnist(flat, split="train")
    assert info.value.param == "split"
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, images=x_train, labels=y_train)
    with pytest.raises(DataFileError, match=r"expected arrays x_train.*holds: images, labels"):
        load_fashion_mnist(wrong)


# ----------------------------------------------------------------------------- CIFAR-10
def _cifar_rows(images):
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2).reshape(images.shape[0], 3072))


def _cifar_dir(tmp_path, protocol=2, per_batch=3):
    rng = np.random.default_rng(4)
    directory = tmp_path / "cifar-10-batches-py"
    directory.mkdir()
    batches = {}
    for i, name in enumerate([f"data_batch_{j}" for j in range(1, 6)] + ["test_batch"]):
        images = _images(rng, per_batch, (32, 32, 3))
        labels = [int(v) for v in _labels(per_batch, 10, i)]
        batch = {b"batch_label": f"batch {name}".encode(), b"labels": labels, b"data": _cifar_rows(images),
                 b"filenames": [f"img_{name}_{j}.png".encode() for j in range(per_batch)]}
        (directory / name).write_bytes(pickle.dumps(batch, protocol=protocol))
        batches[name] = (images, np.array(labels))
    return directory, batches


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_cifar10_batches(tmp_path, protocol):
    directory, batches = _cifar_dir(tmp_path, protocol)
    data = load_cifar10(tmp_path)  # the parent of cifar-10-batches-py works too
    order = [f"data_batch_{j}" for j in range(1, 6)] + ["test_batch"]
    images = np.concatenate([batches[name][0] for name in order])
    np.testing.assert_array_equal(data.labels, np.concatenate([batches[name][1] for name in order]))
    np.testing.assert_array_equal(data.extras["images"], images)
    _check_descriptors(data, images, colour=True)
    assert data.name == "cifar10" and "Krizhevsky" in data.source
    test = load_cifar10(directory, split="test", label=int(batches["test_batch"][1][1]))
    _check_descriptors(test, batches["test_batch"][0][[1]], colour=True)
    one = load_cifar10(directory / "data_batch_2", max_images=2)
    _check_descriptors(one, batches["data_batch_2"][0][:2], colour=True)
    capped = load_cifar10(directory, label=CIFAR10_CLASSES.index("bird"), max_images=2)
    assert capped.n_points == 2 and (capped.labels == 2).all()


def _py2_batch(data, labels):
    """A CIFAR-10 batch as Python 2's cPickle (protocol 2) and numpy 1 wrote the published files: ``str`` keys
    as SHORT_BINSTRING, the array through ``numpy.core.multiarray._reconstruct``, the pixels as one BINSTRING."""
    def short(b):
        return b"U" + bytes([len(b)]) + b

    def binint(i):
        return b"J" + struct.pack("<i", i)

    out = b"\x80\x02}q\x00(" + short(b"data")
    out += b"cnumpy.core.multiarray\n_reconstruct\n" + b"cnumpy\nndarray\n" + binint(0) + b"\x85" + short(b"b")
    out += b"\x87R(" + binint(1) + binint(data.shape[0]) + binint(data.shape[1]) + b"\x86"
    out += b"cnumpy\ndtype\n" + short(b"u1") + binint(0) + binint(1) + b"\x87R"
    out += b"(" + binint(3) + short(b"|") + b"NNN" + binint(-1) + binint(-1) + binint(0) + b"tb"
    out += b"\x89T" + struct.pack("<I", data.size) + data.tobytes() + b"tb" + short(b"labels") + b"]("
    out += b"".join(binint(int(v)) for v in labels)
    return out + b"e" + short(b"batch_label") + short(b"testing batch 1 of 1") + b"u."


def test_cifar10_python2_batch(tmp_path):
    rng = np.random.default_rng(9)
    images = _images(rng, 4, (32, 32, 3))
    raw = _py2_batch(_cifar_rows(images), [3, 1, 4, 1])
    reference = pickle.loads(raw, encoding="bytes")  # what an unrestricted load gives (trusted here: we wrote it)
    np.testing.assert_array_equal(reference[b"data"], _cifar_rows(images))
    path = tmp_path / "test_batch"
    path.write_bytes(raw)
    data = load_cifar10(path)
    np.testing.assert_array_equal(data.labels, [3, 1, 4, 1])
    _check_descriptors(data, images, colour=True)


class _Sneaky:
    def __reduce__(self):
        return (os.getcwd, ())


class _Custom:
    pass


@pytest.mark.parametrize("payload, refused", [
    (_Sneaky(), "posix.getcwd"),
    (_Custom(), "test_real_files._Custom"),
    (np.array([object()], dtype=object)[:0], "dtype"),
])
def test_cifar10_refuses_pickles_with_disallowed_classes(tmp_path, payload, refused):
    directory, _ = _cifar_dir(tmp_path)
    batch = {b"labels": [0, 1, 2], b"data": np.zeros((3, 3072), np.uint8), b"extra": payload}
    (directory / "test_batch").write_bytes(pickle.dumps(batch, protocol=2))
    with pytest.raises(DataFileError, match=r"test_batch") as info:
        load_cifar10(directory, split="test")
    assert refused in str(info.value)


def test_cifar10_errors(tmp_path):
    directory, _ = _cifar_dir(tmp_path)
    test_batch = directory / "test_batch"
    content = test_batch.read_bytes()
    test_batch.write_bytes(content[: len(content) // 3])
    with pytest.raises(DataFileError, match=r"test_batch.*truncated or corrupt"):
        load_cifar10(directory, split="test")
    test_batch.write_bytes(pickle.dumps({b"labels": [0], b"pixels": np.zeros((1, 3072), np.uint8)}))
    with pytest.raises(DataFileError, match=r"no b'data' or b'labels' entry \(keys: b'labels', b'pixels'\)"):
        load_cifar10(directory, split="test")
    test_batch.write_bytes(pickle.dumps({b"labels": [0], b"data": np.zeros((1, 1024), np.uint8)}))
    with pytest.raises(DataFileError, match=r"shape \(1, 1024\); expected a uint8 array of shape \(n, 3072\)"):
        load_cifar10(directory, split="test")
    test_batch.write_bytes(pickle.dumps({b"labels": [10], b"data": np.zeros((1, 3072), np.uint8)}))
    with pytest.raises(DataFileError, match=r"label 10 of image 0 is not a class index in \[0, 9\]"):
        load_cifar10(directory, split="test")
    test_batch.write_bytes(pickle.dumps([1, 2, 3]))
    with pytest.raises(DataFileError, match=r"holds a list; expected the CIFAR-10 batch dict"):
        load_cifar10(directory, split="test")
    os.remove(directory / "data_batch_3")
    with pytest.raises(DataFileError, match=r"has no data_batch_3"):
        load_cifar10(directory, split="train")
    with pytest.raises(DataFileError, match=r"above the limit"):
        load_cifar10(directory / "data_batch_1", max_bytes=100)


def test_cifar10_npz_layouts(tmp_path):
    rng = np.random.default_rng(5)
    images = _images(rng, 5, (32, 32, 3))
    labels = _labels(5, 10)
    for name, stored in (("hwc", images), ("chw", images.transpose(0, 3, 1, 2)), ("flat", _cifar_rows(images))):
        path = tmp_path / f"{name}.npz"
        np.savez(path, x=stored, y=labels[:, None])
        data = load_cifar10(path)
        np.testing.assert_array_equal(data.extras["images"], images)
        np.testing.assert_array_equal(data.labels, labels)
        _check_descriptors(data, images, colour=True)
    grey = tmp_path / "grey.npz"
    np.savez(grey, x=images[..., 0], y=labels)
    with pytest.raises(DataFileError, match=r"expected 32x32 colour"):
        load_cifar10(grey)


# ----------------------------------------------------------------------------- planar landmarks
def _configurations(rng, n, k):
    angles = 2 * np.pi * np.arange(k) / k
    base = np.stack([2.0 * np.cos(angles), np.sin(angles)], axis=-1)
    return 30.0 + 5.0 * base + 0.2 * rng.standard_normal((n, k, 2))


def _check_shapes(data, configurations):
    k = configurations.shape[1]
    shapes = get_manifold("kendall", k)
    assert data.manifold_spec == ("kendall", k, None) and data.points.shape == configurations.shape
    assert shapes.belongs(data.points).all()
    np.testing.assert_allclose(data.points, shapes.projection(configurations), atol=1e-12)
    np.testing.assert_allclose(data.extras["landmarks"], configurations, atol=1e-12)


def test_landmarks_csv_with_age(tmp_path):
    rng = np.random.default_rng(6)
    configurations = _configurations(rng, 6, 5)
    ages = np.array([52.0, 61.0, 67.0, 74.0, 80.0, 88.0])
    header = "subject_age," + ",".join(f"x{j},y{j}" for j in range(1, 6))
    rows = [",".join(repr(float(v)) for v in [age, *c.ravel()]) for age, c in zip(ages, configurations)]
    path = tmp_path / "callosum.csv"
    path.write_text("# corpus callosum\n" + header + "\n" + "\n".join(rows) + "\n")
    data = load_landmark_shapes(path, covariate="Subject_Age")
    _check_shapes(data, configurations)
    np.testing.assert_array_equal(data.extras["covariate"], ages)
    assert data.extras["covariate_name"] == "Subject_Age" and "PUBLIC range" in data.description
    by_index = load_landmark_shapes(path, covariate=0, max_shapes=3)
    _check_shapes(by_index, configurations[:3])
    # blocked layout, no header, covariate last
    blocked = tmp_path / "blocked.csv"
    blocked.write_text("\n".join(",".join(repr(float(v)) for v in [*c[:, 0], *c[:, 1], age])
                                 for age, c in zip(ages, configurations)))
    data = load_landmark_shapes(blocked, covariate=10, layout="blocked", k=5)
    _check_shapes(data, configurations)
    np.testing.assert_array_equal(data.extras["covariate"], ages)


def test_landmarks_npy_npz_and_resample(tmp_path):
    rng = np.random.default_rng(7)
    configurations = _configurations(rng, 4, 8)
    npy = tmp_path / "shapes.npy"
    np.save(npy, configurations)
    _check_shapes(load_landmark_shapes(npy), configurations)
    npz = tmp_path / "shapes.npz"
    ages = np.linspace(50, 90, 4)
    np.savez_compressed(npz, landmarks=configurations, age=ages)
    data = load_landmark_shapes(npz, covariate="age")
    _check_shapes(data, configurations)
    np.testing.assert_array_equal(data.extras["covariate"], ages)
    from geodp_core.data import resample_closed_curve

    fewer = load_landmark_shapes(npy, resample=4)
    expected = np.stack([resample_closed_curve(c, 4) for c in configurations])
    np.testing.assert_allclose(fewer.points, get_manifold("kendall", 4).projection(expected), atol=1e-12)
    assert fewer.manifold_spec == ("kendall", 4, None)


def test_landmarks_errors(tmp_path):
    rng = np.random.default_rng(8)
    configurations = _configurations(rng, 3, 4)
    path = tmp_path / "shapes.csv"
    path.write_text("age,x1,y1,x2,y2,x3,y3,x4,y4\n" + "\n".join(
        ",".join(str(v) for v in [60, *c.ravel()]) for c in configurations))
    with pytest.raises(DataFileError, match=r"no column named 'sex'") as info:
        load_landmark_shapes(path, covariate="sex")
    assert info.value.param == "covariate"
    with pytest.raises(DataFileError, match=r"9 coordinate columns.*expected an even number"):
        load_landmark_shapes(path)
    with pytest.raises(DataFileError, match=r"4 landmarks per shape; expected k=5"):
        load_landmark_shapes(path, covariate="age", k=5)
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2,3,4,5,6\n1,2,3,four,5,6\n")
    with pytest.raises(DataFileError, match=r"bad\.csv'?: line 2.*'four' is not a number"):
        load_landmark_shapes(bad)
    flat = tmp_path / "flat.csv"
    flat.write_text("1,2,1,2,1,2\n0,0,1,0,0,1\n")
    with pytest.raises(DataFileError, match=r"shape 0 \(0-based\) is degenerate"):
        load_landmark_shapes(flat)
    npy = tmp_path / "shapes.npy"
    np.save(npy, configurations)
    npy.write_bytes(npy.read_bytes()[:-8])
    with pytest.raises(DataFileError, match=r"shapes\.npy.*truncated or corrupt"):
        load_landmark_shapes(npy)
    np.save(npy, configurations[..., :1])
    with pytest.raises(DataFileError, match=r"expected \(n, k, 2\) planar landmarks"):
        load_landmark_shapes(npy)
    np.save(npy, configurations[:1])
    with pytest.raises(DataFileError, match=r"1 shape\(s\); at least 2"):
        load_landmark_shapes(npy)
    npz = tmp_path / "shapes.npz"
    np.savez(npz, shapes=configurations)
    with pytest.raises(DataFileError, match=r"no array 'landmarks'.*holds: shapes"):
        load_landmark_shapes(npz)
    with pytest.raises(DataFileError, match=r"above the limit max_bytes=10"):
        load_landmark_shapes(path, max_bytes=10)
