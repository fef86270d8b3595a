r"""Covariance descriptors of images: one SPD matrix per image (conformal paper, eqs. 45–46).

For an image :math:`\mathcal I` with pixel set :math:`S`, a feature vector :math:`\upsilon(\mathbf x) \in \mathbb R^m`
is computed at every pixel :math:`\mathbf x = (x, y) \in S` and the descriptor is their covariance plus a ridge:

.. math::
    R_\iota(\mathcal I) = \frac{1}{|S|} \sum_{\mathbf x \in S} (\upsilon(\mathbf x) - \bar\upsilon)
    (\upsilon(\mathbf x) - \bar\upsilon)^T + \iota I_m,
    \qquad
    \upsilon(\mathbf x) = \Big[x,\ y,\ \mathcal I,\ |\mathcal I_x|,\ |\mathcal I_y|,\ |\mathcal I_{xx}|,\
    |\mathcal I_{yy}|,\ \sqrt{\mathcal I_x^2 + \mathcal I_y^2},\ \arctan\frac{|\mathcal I_x|}{|\mathcal I_y|}\Big].

Conventions (the paper does not fix them; these follow the region-covariance descriptor of Tuzel, Porikli
and Meer, 2006, which the paper's source uses):

- intensities are scaled to :math:`[0, 1]` by the caller (``value / max_value``); ``x`` is the column index and
  ``y`` the row index of the pixel, both divided by the image width / height so that they lie in
  :math:`[0, 1]` like the intensities (a covariance is unchanged by shifting a feature; scaling a feature
  scales its row and column);
- derivatives are central differences on the intensity :math:`L`: the filters :math:`[-1, 0, 1]` and
  :math:`[-1, 2, -1]`, i.e. :math:`L_x(x, y) = L(x+1, y) - L(x-1, y)` and
  :math:`L_{xx}(x, y) = -L(x-1, y) + 2L(x, y) - L(x+1, y)` (likewise in ``y``);
- :math:`S` is the set of interior pixels (every pixel whose four neighbours exist), so no padding rule is
  involved: an :math:`H \times W` image has :math:`|S| = (H-2)(W-2)`;
- the angle is :math:`\operatorname{arctan2}(|L_x|, |L_y|) \in [0, \pi/2]` (``π/2`` when :math:`L_y = 0 \ne L_x`,
  ``0`` on flat pixels where both derivatives vanish).

Grey images (``H x W``): the 9 features above, :math:`m = 9`. Colour images (``H x W x 3``): the intensity
feature is the three channels R, G, B and the derivatives are those of the luma
:math:`L = 0.299 R + 0.587 G + 0.114 B`, so :math:`m' = 11`:
``x, y, R, G, B, |L_x|, |L_y|, |L_xx|, |L_yy|, sqrt(L_x² + L_y²), arctan(|L_x|/|L_y|)``.
"""

import numpy as np

from geodp_core._validation import check_int, check_real
from geodp_core.exceptions import InvalidParameterError

__all__ = [
    "COLOUR_FEATURES",
    "DEFAULT_REGULARISER",
    "GREY_FEATURES",
    "LUMA_WEIGHTS",
    "covariance_descriptor",
    "descriptor_features",
    "descriptor_public_center",
    "feature_names",
]

#: Names of the per-pixel features of a grey image (m = 9).
GREY_FEATURES = ("x", "y", "I", "|I_x|", "|I_y|", "|I_xx|", "|I_yy|", "sqrt(I_x² + I_y²)", "arctan(|I_x|/|I_y|)")
#: Names of the per-pixel features of a colour image (m' = 11; derivatives of the luma L).
COLOUR_FEATURES = ("x", "y", "R", "G", "B", "|L_x|", "|L_y|", "|L_xx|", "|L_yy|", "sqrt(L_x² + L_y²)",
                   "arctan(|L_x|/|L_y|)")
#: ι of :math:`R_\iota` (the paper only says "a small constant"): a ridge well below the features' variances
#: (of order 1e-2 for intensities in [0, 1]) that keeps every descriptor positive definite.
DEFAULT_REGULARISER = 1e-3
#: ITU-R BT.601 luma weights of R, G, B (the intensity whose derivatives a colour descriptor uses).
LUMA_WEIGHTS = (0.299, 0.587, 0.114)


def descriptor_public_center(m, regulariser=DEFAULT_REGULARISER):
    r"""A PUBLIC ball centre for descriptors: :math:`c I_m` with :math:`c = \sqrt{\iota / 12}`.

    :math:`c` is the geometric midpoint of the ridge :math:`\iota` (the smallest possible eigenvalue) and
    :math:`1/12`, the variance of a feature uniform on :math:`[0, 1]`: fixed in advance from the descriptor's
    definition, never from the data.
    """
    m = check_int(m, "m", low=1)
    regulariser = check_real(regulariser, "regulariser", low=0.0, low_closed=False)
    return np.sqrt(regulariser / 12.0) * np.eye(m)


def feature_names(colour):
    """Names of the per-pixel features (``GREY_FEATURES`` or ``COLOUR_FEATURES``)."""
    return COLOUR_FEATURES if colour else GREY_FEATURES


def _check_images(images, colour=None):
    """``(batch, single, colour)``: images as a float array of shape (n, H, W) or (n, H, W, 3)."""
    array = np.asarray(images, dtype=float)
    if colour is not None and not isinstance(colour, (bool, np.bool_)):
        raise InvalidParameterError(f"colour must be True, False or None (decide from the shape); got {colour!r}",
                                    param="colour")
    if colour is None:
        colour = array.ndim in (3, 4) and array.shape[-1] == 3
    colour = bool(colour)
    ndim = array.ndim - (1 if colour else 0)
    if ndim in (2, 3) and (not colour or array.shape[-1] == 3):
        return (array[None], True, colour) if ndim == 2 else (array, False, colour)
    shapes = "(H, W, 3) or (n, H, W, 3)" if colour else "(H, W) or (n, H, W)"
    raise InvalidParameterError(f"image must have shape {shapes} (colour={colour}); got shape {array.shape}",
                                param="image")


def descriptor_features(image, colour=None):
    r"""Per-pixel feature vectors :math:`\upsilon(\mathbf x)` over the interior pixels (see the module docstring).

    Parameters
    ----------
    image : array_like, shape (H, W), (H, W, 3), (n, H, W) or (n, H, W, 3)
        Intensities (already scaled, e.g. to [0, 1]); ``H, W >= 3``.
    colour : bool or None
        Whether the last axis holds R, G, B. ``None`` (default): a trailing axis of length 3 means colour (pass
        ``colour=False`` for a batch of grey images 3 pixels wide).

    Returns
    -------
    ndarray, shape ([n,] (H-2)(W-2), m)
        ``m = 9`` (grey) or ``11`` (colour), in the order of :func:`feature_names`; pixels in row-major order.
    """
    batch, single, colour = _check_images(image, colour)
    height, width = batch.shape[1:3]
    if height < 3 or width < 3:
        raise InvalidParameterError(f"image must be at least 3 x 3 pixels; got {height} x {width}", param="image")
    if not np.all(np.isfinite(batch)):
        raise InvalidParameterError("image must contain finite intensities (no NaN or inf)", param="image")
    luma = batch @ np.asarray(LUMA_WEIGHTS) if colour else batch
    centre = luma[:, 1:-1, 1:-1]
    d_x = luma[:, 1:-1, 2:] - luma[:, 1:-1, :-2]
    d_y = luma[:, 2:, 1:-1] - luma[:, :-2, 1:-1]
    d_xx = 2.0 * centre - luma[:, 1:-1, :-2] - luma[:, 1:-1, 2:]
    d_yy = 2.0 * centre - luma[:, :-2, 1:-1] - luma[:, 2:, 1:-1]
    rows, cols = np.meshgrid(np.arange(1, height - 1) / height, np.arange(1, width - 1) / width, indexing="ij")
    n = batch.shape[0]
    coords = [np.broadcast_to(cols, centre.shape), np.broadcast_to(rows, centre.shape)]
    intensities = [batch[:, 1:-1, 1:-1, c] for c in range(3)] if colour else [centre]
    abs_x, abs_y = np.abs(d_x), np.abs(d_y)
    derived = [abs_x, abs_y, np.abs(d_xx), np.abs(d_yy), np.hypot(d_x, d_y), np.arctan2(abs_x, abs_y)]
    features = np.stack([*coords, *intensities, *derived], axis=-1).reshape(n, -1, 11 if colour else 9)
    return features[0] if single else features


def covariance_descriptor(image, regulariser=DEFAULT_REGULARISER, colour=None):
    r"""Covariance descriptor :math:`R_\iota(\mathcal I)` of one image or a batch (conformal paper, eq. 45).

    .. math:: R_\iota = \frac{1}{|S|} \sum_{\mathbf x \in S} (\upsilon(\mathbf x) - \bar\upsilon)
              (\upsilon(\mathbf x) - \bar\upsilon)^T + \iota I

    with the features :math:`\upsilon` of :func:`descriptor_features` (grey: 9, colour: 11) and the biased
    (``1/|S|``) covariance, as in the paper.

    Parameters
    ----------
    image : array_like, shape (H, W), (H, W, 3), (n, H, W) or (n, H, W, 3)
        Intensities scaled to [0, 1]; a trailing axis of length 3 means colour.
    regulariser : float
        :math:`\iota > 0` (default :data:`DEFAULT_REGULARISER`).
    colour : bool or None
        See :func:`descriptor_features`.

    Returns
    -------
    ndarray, shape ([n,] m, m)
        Symmetric positive definite (checked: every eigenvalue is at least :math:`\iota/2`).
    """
    regulariser = check_real(regulariser, "regulariser", low=0.0, low_closed=False)
    features = descriptor_features(image, colour)
    single = features.ndim == 2
    features = features[None] if single else features
    centred = features - features.mean(axis=1, keepdims=True)
    m = features.shape[-1]
    cov = np.einsum("npi,npj->nij", centred, centred) / features.shape[1]
    cov = 0.5 * (cov + np.swapaxes(cov, -1, -2)) + regulariser * np.eye(m)
    min_eig = np.linalg.eigvalsh(cov)[:, 0]
    if not np.all(min_eig >= 0.5 * regulariser):  # pragma: no cover - a PSD covariance plus ιI cannot fail
        raise InvalidParameterError(
            f"descriptor is not positive definite in floating point (smallest eigenvalue {min_eig.min():.3g}); "
            "scale the intensities to [0, 1] or increase regulariser", param="regulariser",
        )
    return cov[0] if single else cov
