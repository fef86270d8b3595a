r"""Real datasets shipped (offline) with geomstats and scikit-learn, mapped onto our manifolds (docs/specification.md §2.5).

========================  ===============================  ===================================================
name                      manifold                          what
========================  ===============================  ===================================================
cities                    :math:`S^2`                       50 large world cities (lat/lon)
connectomes               SPD(28) (or a principal block)    86 brain functional-connectivity matrices
karate                    :math:`H^2` (Poincaré disk)       Zachary's karate club, BFS-tree embedding
optical_nerves            :math:`S^{11}` (preshapes)        22 sets of 5 landmarks in 3D (Kendall)
hands                     :math:`S^{62}` (preshapes)        52 hands, 22 joints in 3D (Kendall)
hand_orientations         :math:`SO(3)`                     52 hand orientations (wrist–knuckle frames)
digits_covariance         SPD(9)                            1797 covariance descriptors of 8x8 digits
image_patches_covariance  SPD(11)                           520 covariance descriptors of 32x32 colour patches
========================  ===============================  ===================================================

The two image datasets are computed here (:mod:`geodp_core.data.descriptors`) from images that ship with
scikit-learn: offline stand-ins for the conformal paper's Fashion-MNIST and CIFAR-10 descriptors (the real files,
when a user has them, are read by :mod:`geodp_core.data.real_files`).

Loads are cached; every call returns fresh copies of the arrays.
"""

import dataclasses
import functools
import json
from collections import deque

import numpy as np

from geodp_core._validation import check_int, check_option
from geodp_core.data.descriptors import (
    COLOUR_FEATURES,
    DEFAULT_REGULARISER,
    GREY_FEATURES,
    covariance_descriptor,
    descriptor_public_center,
)
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold

__all__ = ["Dataset", "load_dataset", "list_datasets", "dataset_classes", "preshape", "karate_tree_embedding",
           "KARATE_DEPTH_STEP", "PATCH_SIZE", "DESCRIPTOR_SIZES", "DESCRIPTOR_BALL_RADIUS"]

KARATE_DEPTH_STEP = 1.0
"""Hyperbolic distance between consecutive BFS levels in the karate-club embedding."""

_DESCRIPTIONS = {
    "cities": "50 large world cities as points on the sphere S² (from latitude/longitude).",
    "connectomes": "86 brain connectomes (28x28 SPD connectivity matrices; schizophrenia vs control).",
    "karate": "Zachary's karate-club graph (34 members) embedded in the Poincaré disk H² by a BFS tree.",
    "optical_nerves": "22 optic-nerve heads (5 landmarks in 3D) as Kendall preshapes on S¹¹ (no rotation quotient).",
    "hands": "52 hand poses (22 joints in 3D) as Kendall preshapes on S⁶² (no rotation quotient).",
    "hand_orientations": (
        "52 hand orientations as rotations SO(3): the frame of each hand (wrist → middle-finger knuckle, across the "
        "knuckles from little to index finger, palm normal) in camera coordinates."
    ),
    "digits_covariance": (
        "1797 handwritten digits (8x8 grey, scikit-learn) as 9x9 SPD covariance descriptors of the per-pixel "
        "features x, y, I, |I_x|, |I_y|, |I_xx|, |I_yy|, sqrt(I_x² + I_y²), arctan(|I_x|/|I_y|); labels = the "
        "digit 0–9. An offline stand-in for the Fashion-MNIST descriptors of the conformal paper."
    ),
    "image_patches_covariance": (
        "520 colour patches (32x32, cut on a fixed grid from scikit-learn's two sample photographs) as 11x11 SPD "
        "covariance descriptors of x, y, R, G, B, |L_x|, |L_y|, |L_xx|, |L_yy|, sqrt(L_x² + L_y²), "
        "arctan(|L_x|/|L_y|) (L = luma); labels = the source photograph. An offline stand-in for the CIFAR-10 "
        "descriptors of the conformal paper."
    ),
}

#: Side of the square colour patches of ``image_patches_covariance`` (pixels; the patch grid's step too).
PATCH_SIZE = 32
#: Suggested PUBLIC ball radius around :func:`~geodp_core.data.descriptor_public_center` for the descriptor
#: datasets (affine-invariant distance). It holds every descriptor of both bundled datasets (largest distance
#: about 7.8); for private images the radius must be fixed without looking at them.
DESCRIPTOR_BALL_RADIUS = 8.0
#: Matrix size m of the descriptor datasets (fixed by their feature lists).
DESCRIPTOR_SIZES = {"digits_covariance": len(GREY_FEATURES), "image_patches_covariance": len(COLOUR_FEATURES)}

#: Classes of the labelled datasets (public metadata: what each label means), in label order.
_CLASSES = {
    "connectomes": {0: "healthy control", 1: "schizophrenia"},
    "karate": {1: "instructor's club", 2: "administrator's club"},
    "optical_nerves": {0: "normal eye", 1: "glaucoma"},
    "hands": {0: "grab", 1: "expand"},
    "hand_orientations": {0: "grab", 1: "expand"},
    "digits_covariance": {digit: f"digit {digit}" for digit in range(10)},
    "image_patches_covariance": {0: "china.jpg (a temple)", 1: "flower.jpg (a flower)"},
}
#: Per-point arrays of ``extras`` that a class subset keeps row by row (the others describe the whole dataset).
_PER_POINT_EXTRAS = ("lat", "lon", "country", "patient_id", "monkey", "landmarks", "images", "patch_origin")


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """A loaded real dataset.

    Attributes
    ----------
    name : str
    points : ndarray, shape (n, *point_shape)
        Points on the manifold described by ``manifold_spec``.
    manifold_spec : tuple
        ``(name, dim, metric)`` for :func:`geodp_core.geometry.get_manifold`.
    description : str
        What the points are, how they were mapped, caveats.
    source : str
        Citation of the original data and of the geomstats file.
    labels : ndarray or None
        Per-point class labels (see ``label_meaning``).
    label_meaning : str or None
    names : tuple of str or None
        Per-point names (cities).
    extras : dict
        Raw or auxiliary arrays (e.g. ``lat``/``lon`` in degrees, graph ``edges``, raw ``landmarks``).
    """

    name: str
    points: np.ndarray
    manifold_spec: tuple
    description: str
    source: str
    labels: np.ndarray = None
    label_meaning: str = None
    names: tuple = None
    extras: dict = dataclasses.field(default_factory=dict)

    @property
    def n_points(self):
        """Number of points."""
        return int(self.points.shape[0])

    def manifold(self):
        """The :class:`~geodp_core.geometry.Manifold` the points live on."""
        return get_manifold(*self.manifold_spec)


def list_datasets():
    """Names of the real datasets with one-line descriptions.

    Returns
    -------
    dict
        ``{name: description}``, in display order.
    """
    return dict(_DESCRIPTIONS)


def dataset_classes(name):
    """The classes of a labelled dataset: ``{label: meaning}`` (public metadata; empty if it has no labels).

    Parameters
    ----------
    name : str
        See :func:`list_datasets`.
    """
    name = check_option(name, "name", tuple(_DESCRIPTIONS))
    return dict(_CLASSES.get(name, {}))


def _check_label(name, label):
    """``label`` as an int, if it is one of the classes of dataset ``name``."""
    classes = _CLASSES.get(name)
    if not classes:
        raise InvalidParameterError(f"label applies only to labelled datasets ({', '.join(_CLASSES)}); "
                                    f"{name!r} has no labels; got label={label!r}", param="label")
    valid = tuple(classes)
    shown = ", ".join(f"{k} ({v})" for k, v in classes.items())
    if isinstance(label, (bool, np.bool_)) or not isinstance(label, (int, np.integer)) or int(label) not in valid:
        raise InvalidParameterError(
            f"label must be one of the classes of {name!r}: an integer in {{{', '.join(map(str, valid))}}} "
            f"(from {min(valid)} to {max(valid)}: {shown}); got label={label!r}", param="label",
        )
    return int(label)


def _class_subset(data, label):
    """The rows of ``data`` whose label is ``label`` (per-point extras too; ``source_index`` says which rows)."""
    keep = np.flatnonzero(data.labels == label)
    extras = {key: (value[keep] if key in _PER_POINT_EXTRAS and isinstance(value, np.ndarray) else value)
              for key, value in data.extras.items()}
    extras["source_index"] = keep
    names = None if data.names is None else tuple(data.names[i] for i in keep)
    return dataclasses.replace(
        data, points=data.points[keep], labels=data.labels[keep], names=names, extras=extras,
        description=f"{data.description} Class subset: label {label} ({_CLASSES[data.name][label]}), "
                    f"{keep.size} of {data.labels.size} points.",
    )


def _copy(value):
    return value.copy() if isinstance(value, np.ndarray) else value


def load_dataset(name, sub_block=None, label=None):
    """Load a real dataset (offline, from the files shipped with geomstats and scikit-learn).

    Parameters
    ----------
    name : {"cities", "connectomes", "karate", "optical_nerves", "hands", "digits_covariance", \
            "image_patches_covariance"}
        See :func:`list_datasets`.
    sub_block : int or None
        Connectomes only: keep the leading ``sub_block x sub_block`` principal block
        (still SPD: a principal submatrix of an SPD matrix is SPD), e.g. 2 or 3 for
        display. ``None`` keeps the full 28 x 28 matrices.
    label : int or None
        Keep only the points of this class (see :func:`dataset_classes`), e.g.
        ``load_dataset("digits_covariance", label=3)``; ``None`` keeps every class. Per-point extras
        are subset too; ``extras["source_index"]`` holds the kept rows of the full dataset.

    Returns
    -------
    Dataset
        Fresh copies of the cached arrays.
    """
    name = check_option(name, "name", tuple(_DESCRIPTIONS))
    if sub_block is not None:
        if name != "connectomes":
            raise InvalidParameterError(
                f"sub_block is only used by the 'connectomes' dataset; got sub_block={sub_block!r} for {name!r}",
                param="sub_block",
            )
        sub_block = check_int(sub_block, "sub_block", low=1, high=28)
    if label is not None:
        label = _check_label(name, label)
    data = _load_cached(name, sub_block)
    if label is not None:
        data = _class_subset(data, label)
    return dataclasses.replace(
        data,
        points=data.points.copy(),
        labels=_copy(data.labels),
        extras={key: _copy(value) for key, value in data.extras.items()},
    )


@functools.lru_cache(maxsize=None)
def _load_cached(name, sub_block):
    loaders = {
        "cities": _load_cities,
        "connectomes": lambda: _load_connectomes(sub_block),
        "karate": _load_karate,
        "optical_nerves": _load_optical_nerves,
        "hands": _load_hands,
        "hand_orientations": _load_hand_orientations,
        "digits_covariance": _load_digits_covariance,
        "image_patches_covariance": _load_image_patches_covariance,
    }
    data = loaders[name]()
    manifold = data.manifold()
    manifold.validate_points(data.points, f"dataset {name!r}")
    for array in (data.points, data.labels, *data.extras.values()):
        if isinstance(array, np.ndarray):
            array.setflags(write=False)
    return data


def _geomstats_utils():
    from geomstats.datasets import utils

    return utils


# ------------------------------------------------------------------------ cities
def _load_cities():
    utils = _geomstats_utils()
    with open(utils.CITIES_PATH, encoding="utf-8") as handle:
        rows = json.load(handle)
    lat = np.array([float(row["lat"]) for row in rows])
    lon = np.array([float(row["lng"]) for row in rows])
    sphere = get_manifold("sphere", 2)
    return Dataset(
        name="cities",
        points=sphere.from_lat_lon(lat, lon),
        manifold_spec=("sphere", 2, None),
        description=(
            "50 large world cities on the unit sphere S², x = (cos lat cos lon, cos lat sin lon, sin lat) "
            "from the latitude/longitude in degrees (Sphere.from_lat_lon; note geomstats' load_cities uses "
            "a different convention, rotated by 180 degrees about the polar axis)."
        ),
        source=(
            "simplemaps World Cities Database (https://simplemaps.com/data/world-cities), "
            "file geomstats/datasets/data/cities/cities.json shipped with geomstats"
        ),
        names=tuple(row["city"] for row in rows),
        extras={"lat": lat, "lon": lon, "country": np.array([row["country"] for row in rows])},
    )


# ------------------------------------------------------------------- connectomes
def _load_connectomes(sub_block):
    utils = _geomstats_utils()
    matrices, patient_id, target = utils.load_connectomes()
    matrices = np.asarray(matrices, dtype=float)
    size = matrices.shape[-1] if sub_block is None else sub_block
    block = np.ascontiguousarray(matrices[:, :size, :size])
    block = 0.5 * (block + np.swapaxes(block, -1, -2))
    min_eig = float(np.linalg.eigvalsh(block)[:, 0].min())
    if not min_eig > 0:  # pragma: no cover - the shipped data are SPD (checked in the tests)
        raise RuntimeError(f"connectome matrices are not positive definite (min eigenvalue {min_eig:g})")
    return Dataset(
        name="connectomes",
        points=block,
        manifold_spec=("spd", size, "affine"),
        description=(
            f"86 functional-connectivity matrices ({size}x{size}"
            + (" leading principal block of the 28x28 matrices" if sub_block is not None else "")
            + "), as returned by geomstats' load_connectomes: S = (I + C)/2 with C the 28x28 correlation "
            "matrix of 28 brain networks (unit diagonal, off-diagonals halved). All are SPD "
            f"(smallest eigenvalue over the dataset {min_eig:.3g}; no ridge needed). Labels: 1 = schizophrenia, "
            "0 = control."
        ),
        source=(
            "MLSP 2014 Schizophrenia Classification Challenge (Kaggle), FNC features; "
            "geomstats.datasets.utils.load_connectomes"
        ),
        labels=np.asarray(target, dtype=int),
        label_meaning="1 = schizophrenia, 0 = healthy control",
        extras={"patient_id": np.asarray(patient_id, dtype=int), "min_eigenvalue": np.array(min_eig)},
    )


# ------------------------------------------------------------------------ karate
def karate_tree_embedding(adjacency, root=0, depth_step=KARATE_DEPTH_STEP):
    r"""Deterministic BFS-tree embedding of a connected graph in the Poincaré disk.

    1. Breadth-first search from ``root`` (neighbours visited in increasing index)
       gives a spanning tree and the depth :math:`\ell(v)` of every node.
    2. The root gets the full angular sector :math:`[0, 2\pi)`; each node splits its
       sector among its children in proportion to their numbers of leaves, and every
       node sits at the middle angle :math:`\theta(v)` of its sector.
    3. Node :math:`v` is the point at hyperbolic distance :math:`\ell(v)\,s` from the
       origin in direction :math:`\theta(v)`:

    .. math:: b(v) = \tanh\!\big(\ell(v) s / 2\big)\,(\cos\theta(v), \sin\theta(v)).

    Sectors of different subtrees are disjoint, so distinct nodes get distinct points.

    Parameters
    ----------
    adjacency : array_like, shape (N, N)
        Symmetric 0/1 adjacency matrix of a connected graph.
    root : int
    depth_step : float
        :math:`s > 0`.

    Returns
    -------
    ball_points : ndarray, shape (N, 2)
        Poincaré-disk coordinates.
    depth : ndarray of int, shape (N,)
    parent : ndarray of int, shape (N,)
        BFS-tree parent (-1 for the root).
    """
    adjacency = np.asarray(adjacency) != 0
    n_nodes = adjacency.shape[0]
    parent = np.full(n_nodes, -1)
    depth = np.full(n_nodes, -1)
    depth[root] = 0
    order, queue = [], deque([root])
    while queue:
        node = queue.popleft()
        order.append(node)
        for nbr in np.flatnonzero(adjacency[node]):
            if depth[nbr] < 0:
                depth[nbr], parent[nbr] = depth[node] + 1, node
                queue.append(nbr)
    if (depth < 0).any():
        raise InvalidParameterError("adjacency must describe a connected graph", param="adjacency")
    children = [[] for _ in range(n_nodes)]
    for node in order[1:]:
        children[parent[node]].append(node)
    leaves = np.zeros(n_nodes)
    for node in reversed(order):
        leaves[node] = 1.0 if not children[node] else sum(leaves[c] for c in children[node])
    start, width = np.zeros(n_nodes), np.zeros(n_nodes)
    width[root] = 2.0 * np.pi
    for node in order:
        offset = start[node]
        for child in children[node]:
            start[child] = offset
            width[child] = width[node] * leaves[child] / leaves[node]
            offset += width[child]
    angle = start + 0.5 * width
    radius = np.tanh(0.5 * depth * depth_step)
    ball_points = radius[:, None] * np.stack([np.cos(angle), np.sin(angle)], axis=1)
    return ball_points, depth, parent


def _load_karate():
    utils = _geomstats_utils()
    adjacency = np.loadtxt(utils.KARATE_PATH)
    labels = np.loadtxt(utils.KARATE_LABELS_PATH).astype(int)
    ball_points, depth, parent = karate_tree_embedding(adjacency)
    hyperbolic = get_manifold("hyperbolic", 2)
    edges = np.argwhere(np.triu(adjacency != 0, k=1))
    return Dataset(
        name="karate",
        points=hyperbolic.from_poincare(ball_points),
        manifold_spec=("hyperbolic", 2, None),
        description=(
            "Zachary's karate club (34 members, 78 friendships) embedded in H²: breadth-first tree from "
            f"member 0 (the instructor), depth l at hyperbolic distance {KARATE_DEPTH_STEP:g}*l from the origin, "
            "angular sectors split by numbers of leaves (karate_tree_embedding). A display embedding, "
            "not distance-preserving for non-tree edges."
        ),
        source=(
            "W. W. Zachary, An information flow model for conflict and fission in small groups, "
            "J. Anthropological Research 33(4), 1977; geomstats/datasets/data/graph_karate"
        ),
        labels=labels,
        label_meaning="faction after the split (1 = instructor's club, 2 = administrator's club)",
        extras={"edges": edges, "depth": depth, "parent": parent, "poincare": ball_points},
    )


# --------------------------------------------------------------- Kendall shapes
def preshape(landmarks):
    r"""Kendall preshapes of landmark configurations: points on :math:`S^{(k-1)m-1}`.

    With :math:`H` the :math:`(k-1) \times k` Helmert sub-matrix (rows orthonormal and
    orthogonal to :math:`\mathbf 1`), a configuration :math:`X \in \mathbb{R}^{k \times m}`
    maps to

    .. math:: z = \mathrm{vec}(HX) / \|HX\|_F ,

    which removes translation and scale (not rotation: the Kendall shape space is the
    quotient of this sphere by :math:`SO(m)`, which geodp_core does not implement).

    Parameters
    ----------
    landmarks : array_like, shape (n, k, m)

    Returns
    -------
    ndarray, shape (n, (k-1)*m)
    """
    x = np.asarray(landmarks, dtype=float)
    k = x.shape[1]
    helmert = np.zeros((k - 1, k))
    for j in range(1, k):
        helmert[j - 1, :j] = -1.0 / np.sqrt(j * (j + 1))
        helmert[j - 1, j] = j / np.sqrt(j * (j + 1))
    centred = np.einsum("jk,nkm->njm", helmert, x).reshape(x.shape[0], -1)
    return centred / np.linalg.norm(centred, axis=1, keepdims=True)


def _shape_dataset(name, landmarks, labels, label_meaning, what, source, extras):
    points = preshape(landmarks)
    dim = points.shape[1] - 1
    return Dataset(
        name=name,
        points=points,
        manifold_spec=("sphere", dim, None),
        description=(
            f"{what}, as Kendall preshapes on S^{dim} (Helmert-centred, unit Frobenius norm). Rotations are "
            "NOT quotiented out (geodp_core has no Kendall shape space), so means and distances are those of "
            "the preshape sphere. The raw landmarks are in extras['landmarks']."
        ),
        source=source,
        labels=np.asarray(labels, dtype=int),
        label_meaning=label_meaning,
        extras={"landmarks": np.asarray(landmarks, dtype=float), **extras},
    )


def _load_optical_nerves():
    data, labels, monkeys = _geomstats_utils().load_optical_nerves()
    return _shape_dataset(
        "optical_nerves",
        data,
        labels,
        "0 = normal eye, 1 = eye with experimental glaucoma",
        "22 optic-nerve heads of 11 monkeys, 5 landmarks (S, T, N, I, V) in 3D",
        "V. Patrangenaru and L. Ellingson, Nonparametric Statistics on Manifolds and Their Applications "
        "to Object Data, 2015; geomstats.datasets.utils.load_optical_nerves",
        {"monkey": np.asarray(monkeys, dtype=int)},
    )


def _load_hands():
    data, labels, bones = _geomstats_utils().load_hands()
    return _shape_dataset(
        "hands",
        data,
        labels,
        "0 = 'grab', 1 = 'expand'",
        "52 hand poses, 22 joints in 3D",
        "Q. De Smedt et al., SHREC'17 Track: 3D Hand Gesture Recognition Using a Depth and Skeletal Dataset, "
        "2017; geomstats.datasets.utils.load_hands",
        {"bones": np.asarray(bones, dtype=int)},
    )


#: The nominal hand pose in camera coordinates, fixed in advance (public): fingers along the camera's y-axis, across
#: the knuckles along -x, palm normal along z. Orientations are stored relative to it, so the identity rotation (the
#: default public centre) is the nominal pose.
NOMINAL_HAND_POSE = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
#: Joints of the SHREC'17 hand skeleton that fix a hand's frame: wrist, middle-, index- and little-finger knuckles.
HAND_FRAME_JOINTS = {"wrist": 0, "middle": 10, "index": 6, "little": 18}


def hand_frames(joints):
    r"""Rotation matrices of hand skeletons ``(n, 22, 3)``: columns :math:`e_1` (wrist → middle knuckle),
    :math:`e_2` (little → index knuckle, made orthogonal to :math:`e_1`), :math:`e_3 = e_1 \times e_2` (palm
    normal) — the hand's orientation in camera coordinates, computed from each hand alone (no reference pose)."""
    joints = np.asarray(joints, dtype=float)
    j = HAND_FRAME_JOINTS
    forward = joints[:, j["middle"]] - joints[:, j["wrist"]]
    e1 = forward / np.linalg.norm(forward, axis=1, keepdims=True)
    across = joints[:, j["index"]] - joints[:, j["little"]]
    across = across - np.sum(across * e1, axis=1, keepdims=True) * e1
    e2 = across / np.linalg.norm(across, axis=1, keepdims=True)
    return np.stack([e1, e2, np.cross(e1, e2)], axis=-1)


def _load_hand_orientations():
    data, labels, _ = _geomstats_utils().load_hands()
    frames = get_manifold("so3").projection(NOMINAL_HAND_POSE.T @ hand_frames(data))  # exact for rotations
    return Dataset(
        name="hand_orientations",
        points=frames,
        manifold_spec=("so3", 3, None),
        description=(
            "52 hand orientations (rotations SO(3)) computed from the 3-D skeletons of the SHREC'17 hands: for each "
            "hand, e₁ points from the wrist to the middle-finger knuckle, e₂ across the knuckles from the little to "
            "the index finger, e₃ = e₁ × e₂ along the palm normal; each point is the rotation from a fixed nominal pose "
            "(fingers along the camera's y-axis, palm facing along z) to the hand's frame, so the identity is the "
            "nominal pose. The raw joints are in extras['landmarks']."
        ),
        source=("Q. De Smedt et al., SHREC'17 Track: 3D Hand Gesture Recognition Using a Depth and Skeletal Dataset, "
                "2017; geomstats.datasets.utils.load_hands"),
        labels=np.asarray(labels, dtype=int),
        label_meaning="0 = 'grab', 1 = 'expand'",
        extras={"landmarks": np.asarray(data, dtype=float)},
    )


# -------------------------------------------------------- image covariance descriptors
def _descriptor_description(what, features, m, stands_in_for, labels, descriptors):
    eigenvalues = np.linalg.eigvalsh(descriptors)
    center_scale = descriptor_public_center(m)[0, 0]
    return (
        f"{what}, each mapped to its {m}x{m} covariance descriptor (the conformal density-aware paper's "
        f"region covariance): the covariance over the interior pixels of the per-pixel features "
        f"{', '.join(features)}, plus ιI with ι = {DEFAULT_REGULARISER:g}. Coordinates and intensities are scaled "
        "to [0, 1]; derivatives are central differences with the filters [-1, 0, 1] and [-1, 2, -1]. "
        f"Eigenvalues range from {eigenvalues[:, 0].min():.3g} to {eigenvalues[:, -1].max():.3g}. {labels} "
        f"These are offline stand-ins for the {stands_in_for} descriptors of that paper, computed here from "
        "images bundled with scikit-learn (no download). Public ball centre: c·I with c = sqrt(ι/12) = "
        f"{center_scale:.4g}, the geometric midpoint of the ridge ι and 1/12 (the variance of a feature uniform "
        "on [0, 1]); it is fixed in advance, never computed from the data. A public ball of radius "
        f"{DESCRIPTOR_BALL_RADIUS:g} around it holds every descriptor of this bundled set (a radius for private "
        "images must be fixed without looking at them). The dataset sets the matrix size m."
    )


def _load_digits_covariance():
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = np.asarray(digits.images, dtype=float) / 16.0  # intensities 0..16 -> [0, 1]
    descriptors = covariance_descriptor(images)
    m = descriptors.shape[-1]
    return Dataset(
        name="digits_covariance",
        points=descriptors,
        manifold_spec=("spd", m, "affine"),
        description=_descriptor_description(
            "1797 handwritten digits (8x8 grey images, intensities 0–16)", GREY_FEATURES, m, "Fashion-MNIST",
            "Labels: the digit 0–9 (about 180 images per digit).", descriptors,
        ),
        source=(
            "E. Alpaydin and C. Kaynak, Optical Recognition of Handwritten Digits, UCI Machine Learning "
            "Repository, 1998; sklearn.datasets.load_digits"
        ),
        labels=np.asarray(digits.target, dtype=int),
        label_meaning="the digit shown (0–9)",
        extras={"images": images, "feature_names": np.array(GREY_FEATURES),
                "public_center": descriptor_public_center(m)},
    )


def image_patches(images, size=PATCH_SIZE):
    """Square patches cut on a fixed grid (step ``size``, from the top-left corner; partial patches dropped).

    Returns
    -------
    patches : ndarray, shape (n, size, size, channels)
    origins : ndarray of int, shape (n, 3)
        ``(image index, top row, left column)`` of every patch.
    """
    patches, origins = [], []
    for index, image in enumerate(images):
        for top in range(0, image.shape[0] - size + 1, size):
            for left in range(0, image.shape[1] - size + 1, size):
                patches.append(image[top:top + size, left:left + size])
                origins.append((index, top, left))
    return np.asarray(patches), np.asarray(origins, dtype=int)


def _load_image_patches_covariance():
    from sklearn.datasets import load_sample_images

    sample = load_sample_images()
    order = np.argsort([path.rsplit("/", 1)[-1] for path in sample.filenames])  # china.jpg, flower.jpg
    images = [np.asarray(sample.images[i], dtype=float) / 255.0 for i in order]
    patches, origins = image_patches(images)
    descriptors = covariance_descriptor(patches)
    m = descriptors.shape[-1]
    return Dataset(
        name="image_patches_covariance",
        points=descriptors,
        manifold_spec=("spd", m, "affine"),
        description=_descriptor_description(
            f"{len(patches)} colour patches of {PATCH_SIZE}x{PATCH_SIZE} pixels cut on a fixed {PATCH_SIZE}-pixel "
            "grid from scikit-learn's two 427x640 sample photographs (a Chinese temple and a flower)",
            COLOUR_FEATURES, m, "CIFAR-10",
            "Labels: the source photograph (0 = china.jpg, 1 = flower.jpg; 260 patches each).", descriptors,
        ),
        source="scikit-learn sample images china.jpg and flower.jpg (sklearn.datasets.load_sample_images)",
        labels=origins[:, 0].copy(),
        label_meaning="source photograph (0 = china.jpg, 1 = flower.jpg)",
        extras={"patch_origin": origins, "feature_names": np.array(COLOUR_FEATURES),
                "public_center": descriptor_public_center(m)},
    )
