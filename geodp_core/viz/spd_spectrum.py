r"""SPD(m) for any m: the spectrum of each matrix relative to the public centre.

A matrix :math:`X` seen from the public centre :math:`m_0` is described, up to a rotation, by the eigenvalues
:math:`\lambda_1 \ge \dots \ge \lambda_m` of :math:`m_0^{-1/2} X m_0^{-1/2}`; under the affine-invariant metric

.. math:: \mathrm{dist}(m_0, X) = \Big(\sum_k \log^2 \lambda_k\Big)^{1/2}.

The figure shows :math:`\log\lambda_k` against :math:`k` for the data, the true mean and each mechanism's
releases (box plots per :math:`k`): which directions the data vary in and how much noise each mechanism adds
there, whatever the matrix size (the 2D tangent view shows only two of the :math:`m(m+1)/2` coordinates).

No Streamlit here.
"""

import numpy as np
import plotly.graph_objects as go

from geodp_core.geometry.base import unicode_powers
from geodp_core.viz.scene import (
    DATA_COLOR,
    ISOLATE_HINT,
    MAX_DATA_DRAWN,
    MAX_RELEASES_DRAWN,
    MEAN_COLOR,
    MEAN_NAME,
    _color,
    _hint,
    _outcomes,
    _style,
    _thin,
)

__all__ = ["relative_log_spectrum", "spd_spectrum_figure"]


def relative_log_spectrum(center, matrices):
    r""":math:`\log` of the eigenvalues of :math:`m_0^{-1/2} X m_0^{-1/2}`, largest first.

    Parameters
    ----------
    center : ndarray, shape (m, m)
        SPD centre :math:`m_0`.
    matrices : ndarray, shape (..., m, m)
        SPD matrices :math:`X`.

    Returns
    -------
    ndarray, shape (..., m)
    """
    values, vectors = np.linalg.eigh(np.asarray(center, dtype=float))
    inv_sqrt = (vectors / np.sqrt(values)) @ vectors.T
    whitened = inv_sqrt @ np.asarray(matrices, dtype=float) @ inv_sqrt
    whitened = 0.5 * (whitened + np.swapaxes(whitened, -1, -2))
    return np.log(np.linalg.eigvalsh(whitened))[..., ::-1]


def _box(name, spectra, color, legend_name=None):
    m = spectra.shape[-1]
    index = np.tile(np.arange(1, m + 1), spectra.shape[0])
    return go.Box(x=index, y=np.asarray(spectra, dtype=np.float32).ravel(), name=legend_name or name,
                  legendgroup=name, marker=dict(color=color, size=3), line=dict(color=color, width=1.2),
                  boxpoints=False)


def spd_spectrum_figure(result, height=460):
    """Box plots of the relative log-spectra (see the module docstring) of data, true mean and releases.

    Parameters
    ----------
    result : ScenarioResult
        On SPD(m), any m.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    manifold, center = result.manifold, np.asarray(result.center, dtype=float)
    m = manifold.m
    data, total = _thin(np.asarray(result.data), MAX_DATA_DRAWN)
    fig = go.Figure()
    fig.add_trace(_box("data", relative_log_spectrum(center, data), DATA_COLOR,
                       f"data ({len(data)} of {total})" if len(data) < total else "data"))
    for outcome in _outcomes(result):
        releases, n_releases = _thin(np.asarray(outcome.releases), MAX_RELEASES_DRAWN)
        shown = f" ({len(releases)} of {n_releases})" if len(releases) < n_releases else ""
        fig.add_trace(_box(outcome.name, relative_log_spectrum(center, releases), _color(outcome),
                           f"{outcome.title} releases{shown}"))
    mean = relative_log_spectrum(center, np.asarray(result.true_mean)[None])[0]
    fig.add_trace(go.Scatter(x=np.arange(1, m + 1), y=mean, mode="lines+markers", name=MEAN_NAME,
                             line=dict(color="black", width=1, dash="dot"),
                             marker=dict(color=MEAN_COLOR, size=10, symbol="star", line=dict(color="black", width=1))))
    fig.add_hline(y=0.0, line=dict(color="#999", width=1, dash="dash"))
    fig.update_layout(boxmode="group")
    fig.update_xaxes(title=dict(text="k (eigenvalues sorted, largest first)", font=dict(size=12)), dtick=1)
    fig.update_yaxes(title=dict(text="log λₖ of m₀⁻½ X m₀⁻½", font=dict(size=12)))
    distance = ("their Euclidean norm is the distance to m₀" if manifold.metric == "affine"
                else "a view of the affine-invariant geometry (this metric's distances differ)")
    return _style(fig, f"{unicode_powers(manifold.label)}: spectra relative to the public centre m₀",
                  _hint(f"0 (dashed) = the centre's own spectrum; {distance}", ISOLATE_HINT), height=height)
