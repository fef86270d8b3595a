r"""Planar shape data on the Kendall shape space :math:`\Sigma^k_2` (docs/specification.md §1.7, §2.4, §2.5): synthetic and real.

* :func:`ellipse_template`, :func:`arch_template` — public template shapes (``k`` landmarks on an ellipse, on
  a C-shaped band);
* :func:`sample_landmark_perturbation` — the classic perturbation model: template landmarks plus i.i.d.
  isotropic Gaussian noise, then translation/scale removed (the shapes are *not* a wrapped normal;
  for a wrapped-normal cloud around a public mean shape use
  :func:`geodp_core.data.sample_wrapped_normal` with ``get_manifold("kendall", k)``);
* :func:`resample_closed_curve` — ``k`` pseudo-landmarks equally spaced in arc length on a closed outline;
* :func:`load_planar_cells` — the 650 mouse osteosarcoma cell outlines shipped offline with geomstats,
  resampled to ``k`` pseudo-landmarks.

The corpus-callosum shapes of the private geodesic-regression paper are **not** available offline
(they are not shipped with geomstats or with this package); a user who has them (or any planar landmark
file) reads them with :func:`geodp_core.data.load_landmark_shapes`. geomstats' ``load_hands`` and
``load_optical_nerves`` are 3-D landmark sets, not planar shapes; they stay in
:func:`geodp_core.data.load_dataset` as preshapes. These loaders are core-only: the app does not list them.
"""

import dataclasses
import functools

import numpy as np

from geodp_core._validation import (
    check_finite_array,
    check_int,
    check_option,
    check_real,
    check_rng,
)
from geodp_core.data._common import check_manifold, finalise_points
from geodp_core.data.datasets import Dataset
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import get_manifold

__all__ = [
    "CELL_LINES",
    "CELL_TREATMENTS",
    "arch_template",
    "ellipse_template",
    "load_planar_cells",
    "resample_closed_curve",
    "sample_landmark_perturbation",
]

CELL_LINES = ("dlm8", "dunn")
CELL_TREATMENTS = ("control", "cytd", "jasp")
_MAX_LANDMARKS = 1000


def _check_k(k):
    return check_int(k, "k", low=3, high=_MAX_LANDMARKS)


def ellipse_template(k, aspect=2.0):
    r"""Preshape of ``k`` landmarks equally spaced in angle on an ellipse with axes ``aspect : 1``.

    .. math:: x_j = (a\cos(2\pi j/k),\ \sin(2\pi j/k)), \quad j = 0, \dots, k-1,

    centred and scaled to unit Frobenius norm (``aspect = 1`` gives the regular ``k``-gon).

    Parameters
    ----------
    k : int
        Number of landmarks, ``3 <= k <= 1000``.
    aspect : float
        Axis ratio :math:`a \ge 1` (at most 1e6).

    Returns
    -------
    ndarray, shape (k, 2)
    """
    k = _check_k(k)
    aspect = check_real(aspect, "aspect", low=1.0, high=1e6, low_closed=True, high_closed=True)
    angles = 2.0 * np.pi * np.arange(k) / k
    return get_manifold("kendall", k).projection(np.stack([aspect * np.cos(angles), np.sin(angles)], axis=-1))


def arch_template(k):
    r"""Preshape of ``k`` landmarks on a C-shaped band: an outer and an inner arc of a flattened half-ellipse.

    The first :math:`\lfloor k/2\rfloor` landmarks run along :math:`(\cos a, 0.55\sin a)`, the rest back along
    :math:`(0.75\cos a, 0.3\sin a)`, :math:`a` evenly spaced in :math:`[0.05\pi, 0.95\pi]`; a public stand-in for
    outlines such as the corpus callosum (not available offline).

    Parameters
    ----------
    k : int
        Number of landmarks, ``3 <= k <= 1000``.

    Returns
    -------
    ndarray, shape (k, 2)
    """
    k = _check_k(k)
    half = k // 2
    arc = np.linspace(0.05 * np.pi, 0.95 * np.pi, half)
    back = np.linspace(0.95 * np.pi, 0.05 * np.pi, k - half)
    band = np.concatenate([np.stack([np.cos(arc), 0.55 * np.sin(arc)], axis=-1),
                           np.stack([0.75 * np.cos(back), 0.3 * np.sin(back)], axis=-1)])
    return get_manifold("kendall", k).projection(band)


def sample_landmark_perturbation(manifold, template, noise_std, n, rng):
    r"""Shapes of ``template + noise``: i.i.d. :math:`N(0, \sigma^2)` on every landmark coordinate.

    .. math:: Y_i = \pi\big(\mu + \sigma E_i\big), \qquad E_i \in \mathbb{R}^{k\times 2} \text{ i.i.d. } N(0, 1),

    with :math:`\pi` the preshape map (centre, scale to unit norm) and :math:`\mu` the template preshape
    (unit size, so ``noise_std`` is relative to the configuration size). Returned as preshapes optimally
    rotated onto the template (same shapes; easier to plot).

    Parameters
    ----------
    manifold : KendallShapeSpace
        ``get_manifold("kendall", k)``.
    template : array_like, shape (k, 2)
        Public template, a point of ``manifold``.
    noise_std : float
        :math:`\sigma`, in ``[0, 10]``.
    n : int
    rng : numpy.random.Generator or int

    Returns
    -------
    ndarray, shape (n, k, 2)
    """
    manifold = check_manifold(manifold, allowed=("kendall",))
    template = manifold.validate_points(template, "template", single=True)
    noise_std = check_real(noise_std, "noise_std", low=0.0, high=10.0, low_closed=True, high_closed=True)
    n = check_int(n, "n", low=1, high=10**7)
    rng = check_rng(rng)
    configurations = template + noise_std * rng.standard_normal((n,) + manifold.point_shape)
    points = manifold.align(manifold.projection(configurations), template)
    return finalise_points(manifold, points, n, ("noise_std", noise_std))


def resample_closed_curve(curve, k):
    r"""``k`` points equally spaced in arc length along a closed polygonal curve, from its first vertex.

    The curve is closed by the segment from its last vertex back to the first (a duplicated end point is
    harmless). Pseudo-landmarks: they carry no anatomical correspondence between curves.

    Parameters
    ----------
    curve : array_like, shape (m, 2)
        Vertices, ``m >= 3``, finite.
    k : int
        Number of output points, ``3 <= k <= 1000``.

    Returns
    -------
    ndarray, shape (k, 2)

    Raises
    ------
    InvalidParameterError
        Wrong shape, NaN/inf, fewer than 3 vertices, or zero perimeter.
    """
    curve = check_finite_array(curve, "curve", ndim=2, shape_tail=(2,), min_rows=3)
    k = _check_k(k)
    closed = np.concatenate([curve, curve[:1]], axis=0)
    lengths = np.linalg.norm(np.diff(closed, axis=0), axis=1)
    perimeter = float(lengths.sum())
    if not perimeter > 0:
        raise InvalidParameterError("curve must have a positive perimeter; all its vertices coincide", param="curve")
    arc = np.concatenate([[0.0], np.cumsum(lengths)])
    targets = perimeter * np.arange(k) / k
    return np.stack([np.interp(targets, arc, closed[:, 0]), np.interp(targets, arc, closed[:, 1])], axis=-1)


def load_planar_cells(k=20, cell_line=None, treatment=None):
    r"""Mouse osteosarcoma cell outlines (geomstats ``load_cells``, offline) as shapes in :math:`\Sigma^k_2`.

    Each of the 650 outlines (counter-clockwise, 80–200+ vertices) is resampled to ``k`` pseudo-landmarks
    equally spaced in arc length from the first stored vertex, centred and scaled to unit norm.

    Parameters
    ----------
    k : int
        Number of pseudo-landmarks, ``3 <= k <= 1000`` (default 20).
    cell_line : {"dlm8", "dunn"} or None
        Keep one cell line (``None``: both).
    treatment : {"control", "cytd", "jasp"} or None
        Keep one treatment (``None``: all three).

    Returns
    -------
    Dataset
        ``points`` of shape ``(n, k, 2)`` on ``get_manifold("kendall", k)``; ``labels`` are
        ``"line/treatment"`` strings; ``extras["outline_length"]`` the number of vertices of each outline.
    """
    k = _check_k(k)
    if cell_line is not None:
        cell_line = check_option(cell_line, "cell_line", CELL_LINES)
    if treatment is not None:
        treatment = check_option(treatment, "treatment", CELL_TREATMENTS)
    data = _load_cells_cached(k, cell_line, treatment)
    return dataclasses.replace(
        data,
        points=data.points.copy(),
        labels=data.labels.copy(),
        extras={key: value.copy() for key, value in data.extras.items()},
    )


@functools.lru_cache(maxsize=16)
def _load_cells_cached(k, cell_line, treatment):
    from geomstats.datasets import utils

    curves, lines, treatments = utils.load_cells()
    lines, treatments = np.asarray(lines), np.asarray(treatments)
    keep = np.ones(len(curves), dtype=bool)
    if cell_line is not None:
        keep &= lines == cell_line
    if treatment is not None:
        keep &= treatments == treatment
    index = np.flatnonzero(keep)
    shapes = get_manifold("kendall", k)
    configurations = np.stack([resample_closed_curve(np.asarray(curves[i], dtype=float), k) for i in index])
    points = shapes.validate_points(shapes.projection(configurations), "cell shapes")
    which = " ".join(part for part in (cell_line, treatment) if part) or "all"
    data = Dataset(
        name="cells",
        points=points,
        manifold_spec=("kendall", k, None),
        description=(
            f"{len(index)} mouse osteosarcoma cell outlines ({which}) as planar shapes with k = {k} "
            "pseudo-landmarks (equally spaced in arc length from the first stored outline vertex, centred, unit "
            "size; rotation is quotiented out by the Kendall metric). Pseudo-landmarks carry no anatomical "
            "correspondence, so shape distances include the effect of where each outline starts. The corpus "
            "callosum shapes of the private geodesic-regression paper are not available offline."
        ),
        source=(
            "cell outlines from geomstats' load_cells (mouse osteosarcoma dunn and dlm8 lines, control / "
            "jasplakinolide / cytochalasin D treatments), file shipped with geomstats"
        ),
        labels=np.array([f"{lines[i]}/{treatments[i]}" for i in index]),
        label_meaning="cell line / treatment",
        extras={"outline_length": np.array([len(curves[i]) for i in index])},
    )
    for array in (data.points, data.labels, *data.extras.values()):
        array.setflags(write=False)
    return data
