"""Small numerically safe scalar/matrix helpers shared by the geometry and the regression code."""

import numpy as np

__all__ = ["sinc", "sinhc", "symmetrize"]


def sinc(x):
    """:math:`\\sin(x)/x` with the removable singularity at 0 (vectorised)."""
    return np.sinc(np.asarray(x) / np.pi)


def sinhc(x):
    """:math:`\\sinh(x)/x` with the removable singularity at 0 (series :math:`1 + x^2/6` near 0)."""
    x = np.asarray(x, dtype=float)
    small = np.abs(x) < 1e-8
    safe = np.where(small, 1.0, x)
    return np.where(small, 1.0 + x * x / 6.0, np.sinh(safe) / safe)


def symmetrize(a):
    """Symmetric part :math:`(A + A^T)/2` of (a batch of) square matrices."""
    return 0.5 * (a + np.swapaxes(a, -1, -2))
