r"""Loaders for the papers' own data files, when a user has them (nothing is downloaded).

The papers reproduced here use data that cannot be shipped or fetched offline; the package keeps offline
stand-ins (:func:`geodp_core.data.load_dataset`, :func:`geodp_core.data.load_planar_cells`) and reads the real
files, in their standard published formats, when a user points to them:

* :func:`load_octmnist` — MedMNIST ``octmnist.npz`` → SPD(9) descriptors (stand-in: ``digits_covariance``);
* :func:`load_medmnist` — any single-label 2-D MedMNIST ``.npz`` → SPD(9) (grey) or SPD(11) (colour);
* :func:`load_fashion_mnist` — the four IDX files (``.gz`` or not) or an ``.npz`` of ``x_train``, ``y_train``, ...
  → SPD(9) descriptors (stand-in: ``digits_covariance``);
* :func:`load_cifar10` — the python batches ``data_batch_1..5``, ``test_batch``, or an ``.npz`` → SPD(11)
  descriptors (stand-in: ``image_patches_covariance``);
* :func:`load_landmark_shapes` — CSV / NPY / NPZ of ``(n, k, 2)`` planar landmarks with an optional covariate
  (e.g. age) → Kendall's :math:`\Sigma^k_2` (stand-in: synthetic shapes around
  :func:`~geodp_core.data.arch_template`).

Images become covariance descriptors exactly as the stand-ins do
(:func:`~geodp_core.data.descriptors.covariance_descriptor`, intensities ``uint8 / 255``): grey images give the
9 x 9 descriptor of ``x, y, I, |I_x|, |I_y|, |I_xx|, |I_yy|, sqrt(I_x² + I_y²), arctan(|I_x|/|I_y|)``, colour images
the 11 x 11 descriptor with ``R, G, B`` and the derivatives of the luma; the points live on
``get_manifold("spd", m, "affine")``. Landmark configurations :math:`X \in \mathbb R^{k\times 2}` become preshapes
:math:`(X - \bar X)/\|X - \bar X\|_F` on ``get_manifold("kendall", k)`` (rotation is quotiented by the metric).

Safety and bounds. Every file is validated before use and every failure raises
:class:`~geodp_core.exceptions.DataFileError` (a ``ValueError``) naming the file and what was expected: a missing
array, a wrong shape or dtype, a truncated or corrupt file. No loader reads more than ``max_bytes`` bytes from one
file or one archive member (sizes declared by headers are checked against the limit before anything is read, and
decompression stops at the declared size); image files are read only as far as the selected images. CIFAR-10's
python batches are pickles: they are read by a restricted unpickler that rebuilds only dicts, lists, bytes,
numbers, strings and plain numeric numpy arrays, and refuses every other class (no code is ever run).

Selection. ``label`` keeps one class; ``max_images`` keeps the first images of the selection in file order
(splits in the order train, val, test), because descriptors cost about a millisecond per image. The returned
:class:`~geodp_core.data.Dataset` holds the descriptors, the labels, the selected raw ``uint8`` images
(``extras["images"]``), their split and index within it (``extras["split"]``, ``extras["source_index"]``), the
feature names and the public ball centre :math:`cI`, :math:`c = \sqrt{\iota/12}` (fixed by the descriptor's
definition). These are private data: a public ball radius for them must be fixed without looking at them.
"""

import io
import math
import os
import pickle
import zipfile

import numpy as np

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.data.datasets import Dataset
from geodp_core.data.descriptors import (
    COLOUR_FEATURES,
    DEFAULT_REGULARISER,
    GREY_FEATURES,
    covariance_descriptor,
    descriptor_public_center,
)
from geodp_core.data.shapes import resample_closed_curve
from geodp_core.data.uploads import InvalidUploadError, _read_csv
from geodp_core.exceptions import DataFileError, InvalidParameterError
from geodp_core.geometry import get_manifold
from geodp_core.geometry.kendall import MAX_LANDMARKS

__all__ = [
    "CIFAR10_CLASSES",
    "FASHION_MNIST_CLASSES",
    "MAX_FILE_BYTES",
    "OCTMNIST_CLASSES",
    "load_cifar10",
    "load_fashion_mnist",
    "load_landmark_shapes",
    "load_medmnist",
    "load_octmnist",
]

#: Default limit on the bytes read from one file or one archive member (1 GiB); ``max_bytes`` overrides it.
MAX_FILE_BYTES = 2**30
#: Largest ``max_bytes`` accepted (1 TiB).
_MAX_BYTES_CEILING = 2**40
#: Images per batch of descriptor computation (bounds the memory of the per-pixel features).
_CHUNK = 512
#: Largest image side accepted.
_MAX_SIDE = 4096

#: OCTMNIST classes, in label order (MedMNIST v2).
OCTMNIST_CLASSES = ("choroidal neovascularization", "diabetic macular edema", "drusen", "normal")
#: Fashion-MNIST classes, in label order.
FASHION_MNIST_CLASSES = ("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag",
                         "Ankle boot")
#: CIFAR-10 classes, in label order.
CIFAR10_CLASSES = ("airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")

_MEDMNIST_SOURCE = ("J. Yang, R. Shi, D. Wei, Z. Liu, L. Zhao, B. Ke, H. Pfister, B. Ni, MedMNIST v2 — a large-scale "
                    "lightweight benchmark for 2D and 3D biomedical image classification, Scientific Data 10:41, 2023 "
                    "(CC BY 4.0)")
_OCT_SOURCE = (f"{_MEDMNIST_SOURCE}; OCT images from D. S. Kermany et al., Identifying medical diagnoses and "
               "treatable diseases by image-based deep learning, Cell 172(5):1122–1131, 2018")
_FASHION_SOURCE = ("H. Xiao, K. Rasul, R. Vollgraf, Fashion-MNIST: a novel image dataset for benchmarking machine "
                   "learning algorithms, arXiv:1708.07747, 2017 (MIT licence)")
_CIFAR_SOURCE = ("A. Krizhevsky, Learning multiple layers of features from tiny images, technical report, University "
                 "of Toronto, 2009 (CIFAR-10)")


# ----------------------------------------------------------------------------- arguments
def _check_path(path, name="path", kind="file"):
    """``path`` as a string naming an existing file (``kind="file"``), directory, or either (``"any"``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError(f"{name} must be a file path (str or os.PathLike); got {type(path).__name__}",
                                    param=name)
    path = os.path.expanduser(os.fspath(path))
    if not os.path.exists(path):
        raise DataFileError(f"{name}={path!r} does not exist", param=name)
    if kind == "file" and not os.path.isfile(path):
        raise DataFileError(f"{name}={path!r} is not a regular file", param=name)
    if kind == "dir" and not os.path.isdir(path):
        raise DataFileError(f"{name}={path!r} is not a directory", param=name)
    return path


def _check_max_bytes(max_bytes):
    return check_int(max_bytes, "max_bytes", low=1, high=_MAX_BYTES_CEILING)


def _check_cap(value, name):
    return None if value is None else check_int(value, name, low=1, high=10**8)


def _check_class(label, class_names):
    """``label`` as an int: one of the classes (``0 .. len(class_names) - 1``), or any int >= 0 if unknown."""
    if label is None:
        return None
    if isinstance(label, (bool, np.bool_)) or not isinstance(label, (int, np.integer)):
        raise InvalidParameterError(f"label must be an integer class index or None; got {label!r}", param="label")
    label = int(label)
    if class_names is None:
        if label < 0:
            raise InvalidParameterError(f"label must be a class index >= 0; got label={label}", param="label")
        return label
    if not 0 <= label < len(class_names):
        shown = ", ".join(f"{i} ({c})" for i, c in enumerate(class_names))
        raise InvalidParameterError(f"label must be an integer in [0, {len(class_names) - 1}] ({shown}); "
                                    f"got label={label}", param="label")
    return label


def _file_size(path, label, max_bytes):
    size = os.path.getsize(path)
    if size > max_bytes:
        raise DataFileError(f"{label}: the file is {size:,} bytes, above the limit max_bytes={max_bytes:,}; pass a "
                            "larger max_bytes if the file is trusted")
    return size


# ----------------------------------------------------------------------------- bounded reading
class _guard:
    """Context manager turning any read error (corrupt deflate or gzip stream, bad CRC, OS error) into
    :class:`DataFileError` naming ``label``; a :class:`DataFileError` passes through."""

    def __init__(self, label):
        self.label = label

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, traceback):
        if exc is None or isinstance(exc, DataFileError) or not isinstance(exc, Exception):
            return False
        raise DataFileError(f"{self.label}: truncated or corrupt data ({kind.__name__}: {exc})") from None


def _read_exact(handle, count, label, what):
    """Exactly ``count`` bytes from ``handle`` (a truncated file is an error naming ``what``)."""
    chunks, remaining = [], count
    while remaining > 0:
        chunk = handle.read(min(remaining, 1 << 24))
        if not chunk:
            raise DataFileError(f"{label}: truncated: the {what} needs {count:,} bytes; the file ends after "
                                f"{count - remaining:,}")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def _read_rows(handle, row_shape, dtype, wanted, label, what):
    """The rows ``wanted`` (sorted indices) of an array stored row after row from the current position.

    Reads only up to the last wanted row, ``_CHUNK`` rows at a time.
    """
    wanted = np.asarray(wanted, dtype=np.int64)
    out = np.empty((wanted.size,) + tuple(row_shape), dtype=dtype)
    if wanted.size == 0:
        return out
    row_bytes = int(np.prod(row_shape, dtype=np.int64)) * dtype.itemsize
    last, filled, start = int(wanted[-1]), 0, 0
    while start <= last:
        count = min(_CHUNK, last + 1 - start)
        raw = _read_exact(handle, count * row_bytes, label, f"{what} (rows {start}–{start + count - 1})")
        block = np.frombuffer(raw, dtype=dtype).reshape((count,) + tuple(row_shape))
        here = wanted[(wanted >= start) & (wanted < start + count)]
        out[filled:filled + here.size] = block[here - start]
        filled += here.size
        start += count
    return out


class _Member:
    """One ``.npy`` member of an ``.npz`` archive, header parsed and sizes checked (data not read)."""

    def __init__(self, path, info, label, max_bytes):
        self.path, self.info, self.key = path, info, info.filename[:-4]
        self.label = f"{label}, array {self.key!r}"
        if info.file_size > max_bytes:
            raise DataFileError(f"{self.label}: the array is {info.file_size:,} bytes uncompressed, above the limit "
                                f"max_bytes={max_bytes:,}; pass a larger max_bytes if the file is trusted")
        with _guard(self.label), self._open() as handle:
            self.shape, self.dtype, self.offset = _npy_header(handle, self.label)
        data_bytes = math.prod(self.shape) * self.dtype.itemsize
        if self.offset + data_bytes != info.file_size:
            raise DataFileError(f"{self.label}: the header declares shape {self.shape} of {self.dtype} "
                                f"({data_bytes:,} bytes) but the member holds {info.file_size - self.offset:,} "
                                "bytes of data (truncated or corrupt)")

    def _open(self):
        with _guard(self.label):
            archive = zipfile.ZipFile(self.path)
            try:
                return _ArchiveMember(archive, archive.open(self.info))
            except BaseException:
                archive.close()
                raise

    def rows(self, wanted):
        """The rows ``wanted`` (sorted) as an array of shape ``(len(wanted), *shape[1:])``."""
        with _guard(self.label), self._open() as handle:
            _read_exact(handle, self.offset, self.label, "header")
            return _read_rows(handle, self.shape[1:], self.dtype, wanted, self.label, "array")

    def read(self):
        """The whole array."""
        if not self.shape:
            raise DataFileError(f"{self.label}: a single number; expected an array")
        return self.rows(np.arange(self.shape[0]))


class _ArchiveMember:
    """Context manager closing both a zip member and its archive."""

    def __init__(self, archive, member):
        self.archive, self.member = archive, member

    def read(self, count):
        return self.member.read(count)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.member.close()
        self.archive.close()


def _npy_header(handle, label):
    """``(shape, dtype, header length)`` of a ``.npy`` stream; object arrays and Fortran order are refused."""
    try:
        magic = _read_exact(handle, 8, label, ".npy magic")
        if magic[:6] != b"\x93NUMPY":
            raise DataFileError(f"{label}: not a .npy array (bad magic bytes)")
        version = (magic[6], magic[7])
        size_bytes = {(1, 0): 2, (2, 0): 4, (3, 0): 4}.get(version)
        if size_bytes is None:
            raise DataFileError(f"{label}: unsupported .npy format version {version}")
        header_len = int.from_bytes(_read_exact(handle, size_bytes, label, ".npy header"), "little")
        if header_len > 10000:
            raise DataFileError(f"{label}: .npy header of {header_len:,} bytes (corrupt)")
        text = _read_exact(handle, header_len, label, ".npy header").decode("utf-8" if version == (3, 0) else "latin1")
        fields = _literal(text, label)
        dtype = np.lib.format.descr_to_dtype(fields["descr"])
        shape, fortran = fields["shape"], fields["fortran_order"]
    except DataFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a corrupt header raises many kinds of errors; each is reported
        raise DataFileError(f"{label}: not a valid .npy array ({type(exc).__name__}: {exc})") from None
    if dtype.hasobject or dtype.kind not in "iuf":
        raise DataFileError(f"{label}: the array holds {dtype} values; expected plain numbers (integers or floats; "
                            "object arrays are refused: they would need unpickling)")
    if not (isinstance(shape, tuple) and all(isinstance(s, int) and s >= 0 for s in shape)):
        raise DataFileError(f"{label}: invalid .npy shape {shape!r}")
    if fortran and len(shape) > 1:
        raise DataFileError(f"{label}: the array is stored in Fortran order; save it with "
                            "np.save(np.ascontiguousarray(array))")
    return shape, dtype, 8 + size_bytes + header_len


def _literal(text, label):
    """The header dict of a ``.npy`` file (a Python literal; parsed without evaluation)."""
    import ast

    value = ast.literal_eval(text)
    if not isinstance(value, dict) or not {"descr", "shape", "fortran_order"} <= set(value):
        raise DataFileError(f"{label}: .npy header lacks descr/shape/fortran_order")
    return value


def _npz_members(path, label, max_bytes):
    """``{key: _Member}`` of an ``.npz`` archive (``.npy`` members only)."""
    _file_size(path, label, max_bytes)
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except zipfile.BadZipFile as exc:
        raise DataFileError(f"{label}: not a valid .npz (zip) archive — truncated or corrupt? ({exc})") from None
    except OSError as exc:
        raise DataFileError(f"{label}: cannot be read ({exc})") from None
    return {info.filename[:-4]: info for info in infos if info.filename.endswith(".npy")}


def _member(path, infos, key, label, max_bytes, expected):
    if key not in infos:
        present = ", ".join(sorted(infos)) or "none"
        raise DataFileError(f"{label}: no array {key!r} ({expected}); the archive holds: {present}")
    return _Member(path, infos[key], label, max_bytes)


# ----------------------------------------------------------------------------- image parts
class _Part:
    """One split of an image file: its labels (read) and a reader of selected images (lazy)."""

    def __init__(self, split, labels, image_shape, reader):
        self.split, self.labels, self.image_shape, self.reader = split, labels, tuple(image_shape), reader


def _check_labels(labels, n_images, label, n_classes):
    """Integer labels of shape (n,) or (n, 1), matching ``n_images`` and the classes."""
    labels = np.asarray(labels)
    if labels.ndim == 2 and labels.shape[1] == 1:
        labels = labels[:, 0]
    if labels.ndim != 1:
        raise DataFileError(f"{label}: labels have shape {labels.shape}; expected (n,) or (n, 1) — one class per "
                            "image (multi-label datasets are not supported)")
    if labels.dtype.kind not in "iu":
        raise DataFileError(f"{label}: labels have dtype {labels.dtype}; expected integers")
    if labels.shape[0] != n_images:
        raise DataFileError(f"{label}: {labels.shape[0]} labels for {n_images} images; expected one label per image")
    bad = labels < 0
    if n_classes is not None:
        bad |= labels >= n_classes
    bad = np.flatnonzero(bad)
    if bad.size:
        valid = ">= 0" if n_classes is None else f"in [0, {n_classes - 1}]"
        raise DataFileError(f"{label}: label {int(labels[bad[0]])} of image {int(bad[0])} is not a class index "
                            f"{valid}")
    return labels.astype(np.int64)


def _check_image_shape(shape, label, colour_ok=True):
    """``(H, W)`` or ``(H, W, 3)`` image shape of an ``(n, ...)`` array of uint8 images."""
    body = tuple(shape[1:])
    ok = len(body) == 2 or (colour_ok and len(body) == 3 and body[2] == 3)
    if not ok or not all(3 <= s <= _MAX_SIDE for s in body[:2]):
        expected = "(n, H, W) grey or (n, H, W, 3) colour" if colour_ok else "(n, H, W) grey"
        raise DataFileError(f"{label}: images have shape {tuple(shape)}; expected {expected} with 3 <= H, W <= "
                            f"{_MAX_SIDE}")
    return body


def _check_uint8(dtype, label):
    if dtype != np.uint8:
        raise DataFileError(f"{label}: images have dtype {dtype}; expected uint8 intensities 0–255 (as published)")


def _select(parts, label, max_images, where):
    """``[(part, sorted indices)]``: the images of class ``label``, then the first ``max_images`` in file order."""
    chosen, total = [], 0
    for part in parts:
        index = np.arange(part.labels.size) if label is None else np.flatnonzero(part.labels == label)
        if max_images is not None:
            index = index[:max(0, max_images - total)]
        total += index.size
        chosen.append((part, index))
    if total == 0:
        what = "no images" if label is None else f"no image of class label={label}"
        raise DataFileError(f"{where}: {what} in the selected split(s) {', '.join(p.split for p in parts)}",
                            param="path" if label is None else "label")
    return chosen


def _image_dataset(name, parts, label, max_images, regulariser, class_names, what, source, where):
    """Read the selected images of ``parts``, compute their descriptors and build the :class:`Dataset`."""
    shapes = {part.image_shape for part in parts}
    if len(shapes) != 1:
        raise DataFileError(f"{where}: the splits hold images of different shapes {sorted(shapes)}")
    image_shape = shapes.pop()
    colour = len(image_shape) == 3
    chosen = _select(parts, label, max_images, where)
    images = np.concatenate([part.reader(index) for part, index in chosen], axis=0)
    labels = np.concatenate([part.labels[index] for part, index in chosen])
    split = np.concatenate([np.full(index.size, part.split) for part, index in chosen])
    source_index = np.concatenate([index for _, index in chosen])
    features = COLOUR_FEATURES if colour else GREY_FEATURES
    m = len(features)
    descriptors = np.empty((images.shape[0], m, m))
    for start in range(0, images.shape[0], _CHUNK):
        block = images[start:start + _CHUNK].astype(float) / 255.0
        descriptors[start:start + _CHUNK] = covariance_descriptor(block, regulariser, colour=colour)
    manifold_spec = ("spd", m, "affine")
    get_manifold(*manifold_spec).validate_points(descriptors, f"descriptors of {where}")
    kept = (f"class {label} ({class_names[label]})" if label is not None and class_names is not None
            else f"class {label}" if label is not None else "every class")
    cap = f", capped at the first {max_images} in file order" if max_images is not None else ""
    height, width = image_shape[:2]
    description = (
        f"{images.shape[0]} {what} ({height}x{width} {'colour' if colour else 'grey'}; {kept}; split(s) "
        f"{', '.join(part.split for part, index in chosen if index.size)}{cap}) read from {where}, each mapped to "
        f"its {m}x{m} covariance descriptor (the conformal density-aware paper's region covariance): the covariance "
        f"over the interior pixels of the per-pixel features {', '.join(features)}, plus ιI with ι = "
        f"{regulariser:g}. Intensities are uint8/255; coordinates are scaled to [0, 1]; derivatives are central "
        "differences with the filters [-1, 0, 1] and [-1, 2, -1]. Public ball centre: c·I with c = sqrt(ι/12), "
        "fixed in advance by the descriptor's definition. These are private data: a public ball radius must be "
        "fixed without looking at them."
    )
    meaning = ("class index" if class_names is None
               else "; ".join(f"{i} = {c}" for i, c in enumerate(class_names)))
    extras = {"images": images, "split": split, "source_index": source_index,
              "feature_names": np.array(features), "public_center": descriptor_public_center(m, regulariser)}
    if class_names is not None:
        extras["class_names"] = np.array(class_names)
    return Dataset(name=name, points=descriptors, manifold_spec=manifold_spec, description=description,
                   source=source, labels=labels, label_meaning=meaning, extras=extras)


def _image_options(split, splits, label, class_names, max_images, regulariser, max_bytes):
    split = check_option(split, "split", splits + ("all",))
    label = _check_class(label, class_names)
    max_images = _check_cap(max_images, "max_images")
    regulariser = check_real(regulariser, "regulariser", low=0.0, low_closed=False)
    return (splits if split == "all" else (split,)), label, max_images, float(regulariser), _check_max_bytes(max_bytes)


# ----------------------------------------------------------------------------- npz image layouts
def _npz_part(path, infos, split, image_key, label_key, where, max_bytes, n_classes, expected, colour_ok=True,
              flat_side=None):
    """A :class:`_Part` from two members of an ``.npz`` (images uint8, labels integers)."""
    images = _member(path, infos, image_key, where, max_bytes, expected)
    labels = _member(path, infos, label_key, where, max_bytes, expected)
    _check_uint8(images.dtype, images.label)
    shape = images.shape
    reshape = None
    if flat_side is not None and len(shape) == 2 and shape[1:] == flat_side[0]:
        shape, reshape = (shape[0],) + flat_side[1], flat_side[2]
    elif flat_side is not None and len(shape) == 4 and shape[1] == 3 and shape[3] != 3:
        shape, reshape = (shape[0], shape[2], shape[3], 3), lambda rows: np.transpose(rows, (0, 2, 3, 1))
    image_shape = _check_image_shape(shape, images.label, colour_ok)
    label_values = _check_labels(labels.read(), shape[0], labels.label, n_classes)

    def reader(index):
        rows = images.rows(index)
        return np.ascontiguousarray(reshape(rows)) if reshape is not None else rows

    return _Part(split, label_values, image_shape, reader)


def _xy_layout(infos, splits, where, split_given):
    """Keys ``[(split, images key, labels key)]`` of a Keras-style (``x_train``...) or plain (``x``, ``y``) archive."""
    if {"x_train", "y_train", "x_test", "y_test"} <= set(infos):
        return [(s, f"x_{s}", f"y_{s}") for s in splits]
    if {"x", "y"} <= set(infos):
        if split_given != "all":
            raise DataFileError(f"{where}: the archive holds one set x, y without a train/test split; use "
                                f"split='all' (got split={split_given!r})", param="split")
        return [("all", "x", "y")]
    present = ", ".join(sorted(infos)) or "none"
    raise DataFileError(f"{where}: expected arrays x_train, y_train, x_test, y_test (Keras layout) or x, y; the "
                        f"archive holds: {present}")


# ----------------------------------------------------------------------------- MedMNIST
def load_medmnist(path, split="all", label=None, max_images=None, class_names=None,
                  regulariser=DEFAULT_REGULARISER, max_bytes=MAX_FILE_BYTES):
    r"""A single-label 2-D MedMNIST dataset (``<flag>.npz``) as covariance descriptors on SPD(9) or SPD(11).

    The published archive holds ``train_images``, ``train_labels``, ``val_images``, ``val_labels``,
    ``test_images``, ``test_labels``: images ``uint8`` of shape ``(n, H, W)`` (grey, e.g. OCTMNIST,
    28 x 28 in MedMNIST v2 and 64/128/224 in MedMNIST+) or ``(n, H, W, 3)`` (colour, e.g. PathMNIST), labels
    ``(n, 1)``. Each image :math:`\mathcal I` maps to :math:`R_\iota(\mathcal I/255)`
    (:func:`~geodp_core.data.descriptors.covariance_descriptor`): 9 x 9 for grey, 11 x 11 for colour.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.npz`` file.
    split : {"train", "val", "test", "all"}
        Which split; ``"all"`` (default) concatenates train, val and test in that order.
    label : int or None
        Keep one class (an index ``>= 0``; in ``[0, len(class_names) - 1]`` when ``class_names`` is given).
    max_images : int or None
        Keep at most this many images: the first of the selection in file order (descriptors cost about a
        millisecond per image).
    class_names : sequence of str or None
        Names of the classes in label order (public metadata), used in the description and to check labels.
    regulariser : float
        :math:`\iota > 0` of the descriptor (default :data:`~geodp_core.data.descriptors.DEFAULT_REGULARISER`,
        as the stand-ins).
    max_bytes : int
        Largest file and largest uncompressed array read (default :data:`MAX_FILE_BYTES`).

    Returns
    -------
    Dataset
        ``points`` of shape ``(n, m, m)`` on ``get_manifold("spd", m, "affine")``, ``labels`` of shape ``(n,)``;
        ``extras``: ``images`` (uint8), ``split``, ``source_index``, ``feature_names``, ``public_center``.

    Raises
    ------
    DataFileError
        Missing array, images not uint8 or of a wrong shape, multi-label or non-integer labels, label counts
        that do not match, truncated or corrupt archive, a file above ``max_bytes``.
    """
    if class_names is not None:
        if isinstance(class_names, (str, bytes, dict)) or not hasattr(class_names, "__len__") or \
                not class_names or not all(isinstance(c, str) for c in class_names):
            raise InvalidParameterError(f"class_names must be a non-empty sequence of strings (the class names in "
                                        f"label order) or None; got {class_names!r}", param="class_names")
        class_names = tuple(class_names)
    return _load_medmnist(path, split, label, max_images, class_names, regulariser, max_bytes, name=None,
                          source=_MEDMNIST_SOURCE, grey_only=False)


def load_octmnist(path, split="all", label=None, max_images=None, regulariser=DEFAULT_REGULARISER,
                  max_bytes=MAX_FILE_BYTES):
    r"""OCTMNIST (MedMNIST ``octmnist.npz``): retinal OCT scans as 9 x 9 covariance descriptors on SPD(9).

    109,309 grey images (97,477 train, 10,832 val, 1,000 test at 28 x 28) of four classes
    (:data:`OCTMNIST_CLASSES`: 0 choroidal neovascularization, 1 diabetic macular edema, 2 drusen, 3 normal).
    See :func:`load_medmnist` for the parameters, the returned :class:`~geodp_core.data.Dataset` and the errors;
    colour images are refused (OCTMNIST is grey).
    """
    return _load_medmnist(path, split, label, max_images, OCTMNIST_CLASSES, regulariser, max_bytes,
                          name="octmnist", source=_OCT_SOURCE, grey_only=True)


def _load_medmnist(path, split, label, max_images, class_names, regulariser, max_bytes, name, source, grey_only):
    path = _check_path(path)
    splits, label, max_images, regulariser, max_bytes = _image_options(
        split, ("train", "val", "test"), label, class_names, max_images, regulariser, max_bytes)
    where = f"file {os.path.basename(path)!r}"
    infos = _npz_members(path, where, max_bytes)
    expected = "a MedMNIST archive holds train_images, train_labels, val_images, val_labels, test_images, test_labels"
    n_classes = None if class_names is None else len(class_names)
    parts = [_npz_part(path, infos, s, f"{s}_images", f"{s}_labels", where, max_bytes, n_classes, expected,
                       colour_ok=not grey_only) for s in splits]
    stem = os.path.splitext(os.path.basename(path))[0]
    what = "OCTMNIST retinal OCT images" if name == "octmnist" else f"MedMNIST {stem} images"
    return _image_dataset(name or f"medmnist_{stem}", parts, label, max_images, regulariser, class_names, what,
                          source, where)


# ----------------------------------------------------------------------------- Fashion-MNIST (IDX)
_IDX_NAMES = {"train": "train", "test": "t10k"}


def _idx_path(directory, prefix, kind):
    """The IDX file ``<prefix>-<kind>`` in ``directory`` (also ``.gz`` and the ``prefix-images.idx3-ubyte`` form)."""
    stem_kinds = {"images": "images-idx3-ubyte", "labels": "labels-idx1-ubyte"}
    stem = stem_kinds[kind]
    candidates = [f"{prefix}-{stem}", f"{prefix}-{stem}.gz", f"{prefix}-{stem.replace('-', '.', 1)}",
                  f"{prefix}-{stem.replace('-', '.', 1)}.gz"]
    for candidate in candidates:
        full = os.path.join(directory, candidate)
        if os.path.isfile(full):
            return full
    raise DataFileError(f"directory {directory!r} has no {candidates[0]} (nor {candidates[1]}): expected the "
                        "Fashion-MNIST IDX files train-images-idx3-ubyte, train-labels-idx1-ubyte, "
                        "t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte, gzipped or not")


class _IdxFile:
    """An IDX file (``.gz`` or raw): header parsed, sizes checked; rows read on demand."""

    def __init__(self, path, ndim, max_bytes):
        self.path, self.label = path, f"file {os.path.basename(path)!r}"
        size = _file_size(path, self.label, max_bytes)
        with _guard(self.label), self._open() as handle:
            header = _read_exact(handle, 4, self.label, "IDX header")
            if header[:2] != b"\x00\x00" or header[2] != 0x08:
                raise DataFileError(f"{self.label}: not an IDX file of unsigned bytes (magic {header.hex()}; "
                                    f"expected 0000 08 0{ndim})")
            if header[3] != ndim:
                raise DataFileError(f"{self.label}: an IDX array of {header[3]} dimension(s); expected {ndim} "
                                    f"({'images (n, rows, cols)' if ndim == 3 else 'labels (n,)'})")
            dims = _read_exact(handle, 4 * ndim, self.label, "IDX header")
        self.shape = tuple(int.from_bytes(dims[4 * i:4 * i + 4], "big") for i in range(ndim))
        self.offset = 4 + 4 * ndim
        data = math.prod(self.shape)
        if data > max_bytes:
            raise DataFileError(f"{self.label}: the header declares {data:,} bytes of data, above the limit "
                                f"max_bytes={max_bytes:,}")
        if not self.gzipped and size != self.offset + data:
            raise DataFileError(f"{self.label}: the header declares shape {self.shape} ({data:,} bytes) but the file "
                                f"holds {size - self.offset:,} bytes of data (truncated or corrupt)")

    @property
    def gzipped(self):
        with open(self.path, "rb") as handle:
            return handle.read(2) == b"\x1f\x8b"

    def _open(self):
        import gzip

        return gzip.open(self.path, "rb") if self.gzipped else open(self.path, "rb")

    def rows(self, wanted):
        """The images (or labels) ``wanted`` (sorted indices)."""
        with _guard(self.label), self._open() as handle:
            _read_exact(handle, self.offset, self.label, "IDX header")
            return _read_rows(handle, self.shape[1:], np.dtype(np.uint8), wanted, self.label, "IDX data")


def load_fashion_mnist(path, split="all", label=None, max_images=None, regulariser=DEFAULT_REGULARISER,
                       max_bytes=MAX_FILE_BYTES):
    r"""Fashion-MNIST as 9 x 9 covariance descriptors on SPD(9) (the conformal paper's Fig. 8 data).

    70,000 grey 28 x 28 images of ten classes (:data:`FASHION_MNIST_CLASSES`; 6,000 train and 1,000 test per
    class). Two layouts are read:

    * a directory holding the published IDX files ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
      ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte`` (each possibly ``.gz``): big-endian headers
      ``0x00000803, n, 28, 28`` / ``0x00000801, n`` followed by unsigned bytes;
    * an ``.npz`` with ``x_train``, ``y_train``, ``x_test``, ``y_test`` (as ``keras.datasets.fashion_mnist``
      returns them) or with ``x``, ``y`` (one set); images ``uint8`` ``(n, 28, 28)`` or flattened ``(n, 784)``.

    Parameters
    ----------
    path : str or os.PathLike
        The directory or the ``.npz`` file.
    split : {"train", "test", "all"}
        ``"all"`` (default, the paper's 7,000 images per class) concatenates train then test.
    label : int or None
        Keep one class, in ``[0, 9]``.
    max_images, regulariser, max_bytes
        As in :func:`load_medmnist`.

    Returns
    -------
    Dataset
        As :func:`load_medmnist` (SPD(9)).

    Raises
    ------
    DataFileError
        A missing file or array, a wrong IDX magic number or dimension count, a truncated file, images not
        uint8 28 x 28-like, labels outside [0, 9] or not matching the images, a file above ``max_bytes``.
    """
    path = _check_path(path, kind="any")
    splits, label, max_images, regulariser, max_bytes = _image_options(
        split, ("train", "test"), label, FASHION_MNIST_CLASSES, max_images, regulariser, max_bytes)
    if os.path.isdir(path):
        where = f"directory {os.path.basename(os.path.normpath(path))!r}"
        parts = []
        for s in splits:
            images = _IdxFile(_idx_path(path, _IDX_NAMES[s], "images"), 3, max_bytes)
            labels = _IdxFile(_idx_path(path, _IDX_NAMES[s], "labels"), 1, max_bytes)
            image_shape = _check_image_shape(images.shape, images.label, colour_ok=False)
            values = _check_labels(labels.rows(np.arange(labels.shape[0])), images.shape[0], labels.label, 10)
            parts.append(_Part(s, values, image_shape, images.rows))
    else:
        where = f"file {os.path.basename(path)!r}"
        infos = _npz_members(path, where, max_bytes)
        flat = ((784,), (28, 28), lambda rows: rows.reshape(-1, 28, 28))
        parts = [_npz_part(path, infos, s, key_x, key_y, where, max_bytes, 10, "Fashion-MNIST arrays",
                           colour_ok=False, flat_side=flat)
                 for s, key_x, key_y in _xy_layout(infos, splits, where, split)]
    return _image_dataset("fashion_mnist", parts, label, max_images, regulariser, FASHION_MNIST_CLASSES,
                          "Fashion-MNIST clothing images", _FASHION_SOURCE, where)


# ----------------------------------------------------------------------------- CIFAR-10 (restricted unpickling)
def _safe_dtype(spec, align=False, copy=True):
    """``numpy.dtype`` for plain numeric type codes only (no object, void or structured dtypes)."""
    if isinstance(spec, bytes):
        spec = spec.decode("latin1")
    if not isinstance(spec, str):
        raise _Refused(f"numpy.dtype({spec!r}) (not a plain type code)")
    dtype = np.dtype(spec)
    if dtype.hasobject or dtype.kind not in "biuf" or dtype.fields is not None:
        raise _Refused(f"numpy.dtype({spec!r}) (not a plain numeric dtype)")
    return np.dtype(spec, bool(align), bool(copy))


def _safe_reconstruct(subtype, shape, dtype_code):
    """numpy's array-reconstruction hook, for plain ``numpy.ndarray`` only (the data come in the state)."""
    if subtype is not np.ndarray:
        raise _Refused(f"an array of type {getattr(subtype, '__name__', subtype)!r} (only numpy.ndarray)")
    if not (isinstance(shape, tuple) and all(isinstance(s, int) and 0 <= s <= 1 for s in shape)):
        raise pickle.UnpicklingError(f"unexpected placeholder shape {shape!r}")
    return np.ndarray(shape, dtype=np.uint8)


def _safe_frombuffer(buffer, dtype, shape, order):
    """numpy's protocol-5 array hook, for plain numeric dtypes only."""
    if not isinstance(dtype, np.dtype) or dtype.hasobject or dtype.kind not in "biuf":
        raise _Refused(f"numpy.dtype({dtype!r}) (not a plain numeric dtype)")
    array = np.frombuffer(bytes(buffer), dtype=dtype)
    if math.prod(shape) != array.size:
        raise pickle.UnpicklingError(f"buffer of {array.size} items for shape {shape}")
    return array.reshape(shape, order="F" if order == "F" else "C").copy()


def _safe_latin1_encode(text, encoding="utf-8"):
    """``_codecs.encode`` as Python 3 protocol-2 pickles use it for ``bytes``: Latin-1 strings only."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise _Refused(f"_codecs.encode with encoding {encoding!r} (only latin1 strings)")
    return text.encode("latin1")


#: The only globals a CIFAR-10 batch may refer to (numpy's array and dtype reconstruction, numpy 1 and 2
#: module names, and the bytes encoding of protocol 2); each maps to a checked wrapper.
_ALLOWED_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"): _safe_reconstruct,
    ("numpy._core.multiarray", "_reconstruct"): _safe_reconstruct,
    ("numpy.core.numeric", "_frombuffer"): _safe_frombuffer,
    ("numpy._core.numeric", "_frombuffer"): _safe_frombuffer,
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): _safe_dtype,
    ("_codecs", "encode"): _safe_latin1_encode,
}


class _RestrictedUnpickler(pickle.Unpickler):
    """Rebuilds dicts, lists, tuples, bytes, strings, numbers and plain numeric numpy arrays; nothing else."""

    def find_class(self, module, name):
        allowed = _ALLOWED_GLOBALS.get((module, name))
        if allowed is None:
            raise _Refused(f"{module}.{name}")
        return allowed

    def persistent_load(self, pid):
        raise _Refused("persistent id")


class _Refused(pickle.UnpicklingError):
    """A pickle refers to a global that is not allowed."""


def _cifar_batch(path, max_bytes):
    """``(data (n, 3072) uint8, labels (n,))`` of one CIFAR-10 python batch, unpickled safely."""
    label = f"file {os.path.basename(path)!r}"
    _file_size(path, label, max_bytes)
    with open(path, "rb") as handle:
        content = handle.read(max_bytes + 1)
    if len(content) > max_bytes:  # pragma: no cover - the file grew after the size check
        raise DataFileError(f"{label}: larger than max_bytes={max_bytes:,}")
    try:
        batch = _RestrictedUnpickler(io.BytesIO(content), encoding="bytes").load()
    except _Refused as exc:
        raise DataFileError(f"{label}: refused: the pickle refers to {exc}, which is not allowed (a CIFAR-10 batch "
                            "holds only a dict of bytes, lists of ints and a uint8 numpy array)") from None
    except Exception as exc:  # noqa: BLE001 - truncated/corrupt pickles raise many kinds of errors
        raise DataFileError(f"{label}: not a readable CIFAR-10 python batch — truncated or corrupt? "
                            f"({type(exc).__name__}: {exc})") from None
    if not isinstance(batch, dict):
        raise DataFileError(f"{label}: the pickle holds a {type(batch).__name__}; expected the CIFAR-10 batch dict")
    data = batch.get(b"data", batch.get("data"))
    labels = batch.get(b"labels", batch.get("labels"))
    if data is None or labels is None:
        keys = ", ".join(repr(k) for k in batch) or "none"
        raise DataFileError(f"{label}: the batch dict has no b'data' or b'labels' entry (keys: {keys})")
    if not isinstance(data, np.ndarray) or data.dtype != np.uint8 or data.ndim != 2 or data.shape[1] != 3072:
        got = f"{data.dtype} array of shape {data.shape}" if isinstance(data, np.ndarray) else type(data).__name__
        raise DataFileError(f"{label}: b'data' is a {got}; expected a uint8 array of shape (n, 3072) "
                            "(1024 red, 1024 green, 1024 blue values of a 32x32 image per row)")
    if isinstance(labels, (list, tuple)):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in labels):
            raise DataFileError(f"{label}: b'labels' must be a list of integers")
        labels = np.asarray(labels, dtype=np.int64)
    if not isinstance(labels, np.ndarray):
        raise DataFileError(f"{label}: b'labels' is a {type(labels).__name__}; expected a list of integers")
    return data, _check_labels(labels, data.shape[0], label, 10)


def _cifar_rows(data):
    """``(n, 3072)`` channel planes -> ``(n, 32, 32, 3)`` images."""
    return np.ascontiguousarray(data.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))


def load_cifar10(path, split="all", label=None, max_images=None, regulariser=DEFAULT_REGULARISER,
                 max_bytes=MAX_FILE_BYTES):
    r"""CIFAR-10 as 11 x 11 colour covariance descriptors on SPD(11) (the conformal paper's Fig. 7 data).

    60,000 colour 32 x 32 images of ten classes (:data:`CIFAR10_CLASSES`; 5,000 train and 1,000 test per
    class). Layouts read:

    * the directory ``cifar-10-batches-py`` of the python version (or its parent): ``data_batch_1`` ...
      ``data_batch_5`` (train) and ``test_batch``, each a pickled dict with ``b'data'`` (uint8
      ``(10000, 3072)``: the red, green and blue 32 x 32 planes of an image per row) and ``b'labels'``;
    * one such batch file;
    * an ``.npz`` with ``x_train``, ``y_train``, ``x_test``, ``y_test`` (as ``keras.datasets.cifar10``
      returns them) or ``x``, ``y``; images uint8 ``(n, 32, 32, 3)``, ``(n, 3, 32, 32)`` or ``(n, 3072)``.

    The batches are pickles. They are read with a restricted unpickler that only rebuilds dicts, lists, bytes,
    numbers, strings and plain numeric numpy arrays: a pickle referring to any other class or function is
    refused with :class:`~geodp_core.exceptions.DataFileError` and nothing in it is run.

    Parameters
    ----------
    path : str or os.PathLike
    split : {"train", "test", "all"}
        ``"all"`` (default, the paper's 6,000 images per class) concatenates train then test; ignored for a
        single batch file.
    label : int or None
        Keep one class, in ``[0, 9]``.
    max_images, regulariser, max_bytes
        As in :func:`load_medmnist` (``max_bytes`` applies to every batch file).

    Returns
    -------
    Dataset
        As :func:`load_medmnist` (SPD(11)); ``extras["images"]`` has shape ``(n, 32, 32, 3)``.

    Raises
    ------
    DataFileError
        Missing batch or array, a pickle with a disallowed class, a truncated or corrupt file, data not uint8
        ``(n, 3072)``, labels outside [0, 9] or not matching, a file above ``max_bytes``.
    """
    path = _check_path(path, kind="any")
    splits, label, max_images, regulariser, max_bytes = _image_options(
        split, ("train", "test"), label, CIFAR10_CLASSES, max_images, regulariser, max_bytes)
    batch_files = {"train": [f"data_batch_{i}" for i in range(1, 6)], "test": ["test_batch"]}
    if os.path.isdir(path):
        inner = os.path.join(path, "cifar-10-batches-py")
        directory = inner if os.path.isdir(inner) else path
        where = f"directory {os.path.basename(os.path.normpath(directory))!r}"
        parts = []
        for s in splits:
            arrays = []
            for batch_name in batch_files[s]:
                full = os.path.join(directory, batch_name)
                if not os.path.isfile(full):
                    raise DataFileError(f"{where} has no {batch_name}: expected the CIFAR-10 python batches "
                                        "data_batch_1 ... data_batch_5 and test_batch")
                arrays.append(_cifar_batch(full, max_bytes))
            data = np.concatenate([a[0] for a in arrays])
            values = np.concatenate([a[1] for a in arrays])
            parts.append(_Part(s, values, (32, 32, 3), lambda index, data=data: _cifar_rows(data[index])))
        return _image_dataset("cifar10", parts, label, max_images, regulariser, CIFAR10_CLASSES,
                              "CIFAR-10 images", _CIFAR_SOURCE, where)
    where = f"file {os.path.basename(path)!r}"
    with open(path, "rb") as handle:
        is_zip = handle.read(4) == b"PK\x03\x04"
    if is_zip:
        infos = _npz_members(path, where, max_bytes)
        flat = ((3072,), (32, 32, 3), _cifar_rows)
        parts = [_npz_part(path, infos, s, key_x, key_y, where, max_bytes, 10, "CIFAR-10 arrays", flat_side=flat)
                 for s, key_x, key_y in _xy_layout(infos, splits, where, split)]
        if any(part.image_shape != (32, 32, 3) for part in parts):
            raise DataFileError(f"{where}: images have shape {parts[0].image_shape}; expected 32x32 colour "
                                "(n, 32, 32, 3), (n, 3, 32, 32) or (n, 3072)")
    else:
        data, values = _cifar_batch(path, max_bytes)
        batch = os.path.basename(path)
        parts = [_Part(batch, values, (32, 32, 3), lambda index: _cifar_rows(data[index]))]
    return _image_dataset("cifar10", parts, label, max_images, regulariser, CIFAR10_CLASSES, "CIFAR-10 images",
                          _CIFAR_SOURCE, where)


# ----------------------------------------------------------------------------- planar landmarks
def _landmark_table(path, label, fmt, covariate, max_bytes):
    """``(values (n, c), column names, covariate column index or None, configurations or None)``."""
    if fmt == "npz":
        infos = _npz_members(path, label, max_bytes)
        member = _member(path, infos, "landmarks", label, max_bytes,
                         "expected 'landmarks' of shape (n, k, 2) and optionally a covariate array")
        configurations = _finite(member.read().astype(float), member.label)
        cov = None
        if covariate is not None:
            if not isinstance(covariate, str):
                raise InvalidParameterError(f"covariate must be the name of an array of {label} for an .npz; got "
                                            f"{covariate!r}", param="covariate")
            cov_member = _member(path, infos, covariate, label, max_bytes, "the covariate named by covariate=")
            cov = _finite(cov_member.read().astype(float), cov_member.label)
            if cov.ndim == 2 and cov.shape[1] == 1:
                cov = cov[:, 0]
            if cov.ndim != 1:
                raise DataFileError(f"{cov_member.label}: shape {cov.shape}; expected (n,) — one value per shape",
                                    param="covariate")
        return configurations, cov, covariate
    size = _file_size(path, label, max_bytes)
    with open(path, "rb") as handle:
        content = handle.read(size)
    if fmt == "npy":
        with io.BytesIO(content) as handle:
            shape, dtype, offset = _npy_header(handle, label)
        data_bytes = math.prod(shape) * dtype.itemsize
        if offset + data_bytes != len(content):
            raise DataFileError(f"{label}: the header declares shape {shape} of {dtype} ({data_bytes:,} bytes) but "
                                f"the file holds {len(content) - offset:,} bytes of data (truncated or corrupt)")
        array = _finite(np.frombuffer(content, dtype=dtype, offset=offset).reshape(shape).astype(float), label)
        if array.ndim == 3:
            if covariate is not None:
                raise InvalidParameterError(f"{label} is an (n, k, 2) array with no covariate column; pass "
                                            f"covariate=None or a 2-D (n, 2k + 1) array; got covariate={covariate!r}",
                                            param="covariate")
            return array, None, None
        if array.ndim != 2:
            raise DataFileError(f"{label}: array of shape {shape}; expected (n, k, 2) landmarks or a table (n, 2k) "
                                "/ (n, 2k + 1) with a covariate column")
        columns = [f"column {j}" for j in range(array.shape[1])]
        values = array
    else:
        try:
            table = _read_csv(content, label)
        except InvalidUploadError as exc:
            raise DataFileError(str(exc)) from None
        values, columns = table.values, list(table.columns)
    cov_index, cov_name = None, None
    if covariate is not None:
        if isinstance(covariate, str):
            if covariate.lower() not in columns:
                raise DataFileError(f"{label}: no column named {covariate!r}; columns: {', '.join(columns)}",
                                    param="covariate")
            cov_index, cov_name = columns.index(covariate.lower()), covariate
        elif isinstance(covariate, (int, np.integer)) and not isinstance(covariate, bool):
            if not 0 <= int(covariate) < len(columns):
                raise InvalidParameterError(f"covariate must be a column index in [0, {len(columns) - 1}] of {label}; "
                                            f"got {covariate}", param="covariate")
            cov_index = int(covariate)
            cov_name = columns[cov_index] if fmt == "csv" and not columns[cov_index].startswith("column ") else \
                f"column {cov_index}"
        else:
            raise InvalidParameterError(f"covariate must be a column name (str), a 0-based column index (int) or "
                                        f"None; got {covariate!r}", param="covariate")
    coords = values if cov_index is None else np.delete(values, cov_index, axis=1)
    cov = None if cov_index is None else values[:, cov_index]
    return coords, cov, cov_name


def _finite(array, label):
    bad = ~np.isfinite(array)
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        raise DataFileError(f"{label}: entry {index} is {array[index]!r}; only finite numbers are allowed")
    return array


def load_landmark_shapes(path, covariate=None, layout="interleaved", k=None, resample=None, max_shapes=None,
                         max_bytes=MAX_FILE_BYTES):
    r"""Planar landmark configurations (e.g. corpus-callosum outlines) as shapes on Kendall's :math:`\Sigma^k_2`.

    Each configuration :math:`X \in \mathbb R^{k \times 2}` maps to its preshape
    :math:`(X - \bar X)/\|X - \bar X\|_F` (``get_manifold("kendall", k).projection``); rotations are quotiented
    out by the shape metric. The DP geodesic-regression paper fits such shapes against a covariate (age): the
    covariate is returned raw in ``extras["covariate"]``; the regression takes a PUBLIC covariate range
    (``x_range``, e.g. the study's inclusion ages), never the data's own minimum and maximum.

    Accepted files (by extension; ``.csv``/``.txt``/``.tsv`` are CSV):

    * CSV, one shape per line: ``2k`` coordinate columns, ``x1, y1, x2, y2, ...`` (``layout="interleaved"``) or
      ``x1 ... xk, y1 ... yk`` (``layout="blocked"``), plus optionally one covariate column named by
      ``covariate`` (its header name, or its 0-based index); an optional header line; ``#`` comments;
    * NPY: ``(n, k, 2)`` landmarks (no covariate), or a table ``(n, 2k)`` / ``(n, 2k + 1)`` read like the CSV
      (covariate by index);
    * NPZ: an array ``landmarks`` of shape ``(n, k, 2)`` (or ``(n, 2k)``) and, if ``covariate`` names it, an
      array of shape ``(n,)``.

    Parameters
    ----------
    path : str or os.PathLike
    covariate : str, int or None
        The covariate column (CSV header name, case-insensitive, or 0-based index) or NPZ array; ``None``: no
        covariate.
    layout : {"interleaved", "blocked"}
        Order of the coordinate columns of a table.
    k : int or None
        Expected number of landmarks (checked); ``None`` takes it from the file.
    resample : int or None
        Treat each configuration as a closed outline and resample it to this many pseudo-landmarks equally spaced
        in arc length from its first landmark (:func:`~geodp_core.data.resample_closed_curve`; e.g. 50 → 12 to
        keep regression chains fast); ``None`` keeps the landmarks.
    max_shapes : int or None
        Keep the first ``max_shapes`` configurations.
    max_bytes : int
        Largest file read (default :data:`MAX_FILE_BYTES`).

    Returns
    -------
    Dataset
        ``points`` of shape ``(n, k, 2)`` on ``get_manifold("kendall", k)`` (``k = resample`` when given),
        ``labels`` None; ``extras``: ``landmarks`` (the raw configurations, ``(n, k_file, 2)``), and with a
        covariate ``covariate`` ``(n,)`` and ``covariate_name``.

    Raises
    ------
    DataFileError
        Unreadable or truncated file, non-numeric or non-finite cells, an odd number of coordinate columns, fewer
        than 3 or more than 1000 landmarks, a missing covariate column or array, fewer than 2 shapes, a
        degenerate configuration (all landmarks equal), a file above ``max_bytes``.
    """
    path = _check_path(path)
    layout = check_option(layout, "layout", ("interleaved", "blocked"))
    k = None if k is None else check_int(k, "k", low=3, high=MAX_LANDMARKS)
    resample = None if resample is None else check_int(resample, "resample", low=3, high=MAX_LANDMARKS)
    max_shapes = _check_cap(max_shapes, "max_shapes")
    max_bytes = _check_max_bytes(max_bytes)
    label = f"file {os.path.basename(path)!r}"
    ext = os.path.splitext(path)[1].lower()
    with open(path, "rb") as handle:
        head = handle.read(6)
    fmt = ("npz" if ext == ".npz" or head[:4] == b"PK\x03\x04" else "npy" if ext == ".npy" or head == b"\x93NUMPY"
           else "csv")
    coords, cov, cov_name = _landmark_table(path, label, fmt, covariate, max_bytes)
    if coords.ndim == 2:
        if coords.shape[1] % 2:
            raise DataFileError(f"{label}: {coords.shape[1]} coordinate columns (after removing the covariate); "
                                "expected an even number 2k (x and y of k landmarks)")
        half = coords.shape[1] // 2
        coords = (coords.reshape(-1, half, 2) if layout == "interleaved"
                  else np.stack([coords[:, :half], coords[:, half:]], axis=-1))
    if coords.ndim != 3 or coords.shape[2] != 2:
        raise DataFileError(f"{label}: landmarks of shape {coords.shape}; expected (n, k, 2) planar landmarks")
    n_file, k_file = coords.shape[:2]
    if not 3 <= k_file <= MAX_LANDMARKS:
        raise DataFileError(f"{label}: {k_file} landmarks per shape; expected k in [3, {MAX_LANDMARKS}]")
    if k is not None and k_file != k:
        raise DataFileError(f"{label}: {k_file} landmarks per shape; expected k={k}", param="k")
    if cov is not None and cov.shape[0] != n_file:
        raise DataFileError(f"{label}: {cov.shape[0]} covariate values for {n_file} shapes", param="covariate")
    if max_shapes is not None:
        coords = coords[:max_shapes]
        cov = None if cov is None else cov[:max_shapes]
    if coords.shape[0] < 2:
        raise DataFileError(f"{label}: {coords.shape[0]} shape(s); at least 2 are needed")
    centred = coords - coords.mean(axis=1, keepdims=True)
    size = np.sqrt(np.sum(centred**2, axis=(1, 2)))
    degenerate = np.flatnonzero(size <= 1e-12 * (1.0 + np.abs(coords).max(axis=(1, 2))))
    if degenerate.size:
        raise DataFileError(f"{label}: shape {int(degenerate[0])} (0-based) is degenerate: all its landmarks "
                            "coincide, so it has no shape")
    configurations = coords
    if resample is not None:
        configurations = np.stack([resample_closed_curve(c, resample) for c in coords])
    k_out = configurations.shape[1]
    manifold = get_manifold("kendall", k_out)
    points = manifold.validate_points(manifold.projection(configurations), f"shapes of {label}")
    how = (f"resampled to k = {k_out} pseudo-landmarks equally spaced in arc length along each closed outline"
           if resample is not None else f"k = {k_out} landmarks")
    description = (
        f"{points.shape[0]} planar landmark configurations read from {label} ({how}) as shapes on Kendall's "
        f"Σ^{k_out}_2: centred and scaled to unit size; rotation is quotiented out by the shape metric. "
        "The raw configurations are in extras['landmarks']."
    )
    extras = {"landmarks": coords}
    if cov is not None:
        extras["covariate"] = cov
        extras["covariate_name"] = str(cov_name)
        description += (f" The covariate {cov_name!r} is in extras['covariate'] (raw values): a DP regression must "
                        "rescale it by a PUBLIC range (x_range), never by the data's own minimum and maximum.")
    return Dataset(name="landmark_shapes", points=points, manifold_spec=("kendall", k_out, None),
                   description=description,
                   source=(f"user-supplied landmark file {os.path.basename(path)!r} (for the DP geodesic-regression "
                           "paper's experiments: its corpus-callosum outlines, which are not distributed with this "
                           "package)"),
                   extras=extras)
