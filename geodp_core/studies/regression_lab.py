r"""The geodesic-regression study: synthetic data, the true geodesic, private KNG releases and prediction errors.

The mechanism itself is :class:`geodp_core.mechanisms.kng_regression.KNGGeodesicRegression` (and its function
form :func:`~geodp_core.mechanisms.kng_regression.kng_geodesic_regression`); this module builds the demo around it
(:func:`regression_demo`) and gives it the studies' shape: :class:`Settings`, :func:`run`, :func:`figures`. The
mechanism never imports this module; :mod:`geodp_core.regression_lab` re-exports it.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold
from geodp_core.mechanisms.kng_regression import (
    KNGRegressionResult,
    RegressionPrivacyWarning,
    kng_geodesic_regression,
)
from geodp_core.regression import mean_squared_prediction_error
from geodp_core.studies.settings import StudySettings, setting

__all__ = ["RegressionDemo", "regression_demo", "REGRESSION_PRESETS", "REGRESSION_SPACES", "KENDALL_DEMO_LANDMARKS",
           "NOISE_IS_A_SCALE", "template_shapes", "Settings", "run", "figures"]



def _regression_spaces():
    """The demo's spaces: key -> get_manifold arguments.

    Every registered space, at its default size and metric, that declares a closed-form differential of Exp (its
    Jacobi model: what the gradients and the KNG mechanism need) and is curved (on a flat space the demo would be
    ordinary least squares), keyed by its code in menu order. A new space with a Jacobi model is offered without
    being named here.
    """
    spaces = {}
    for code in MANIFOLD_NAMES:
        manifold = get_manifold(code)
        if manifold.jacobi_model is not None and tuple(manifold.curvature_bounds) != (0.0, 0.0):
            spaces[code] = (code, manifold.size) + ((manifold.metric,) if manifold.metric else ())
    return spaces


REGRESSION_SPACES = _regression_spaces()

#: Largest intrinsic dimension at which the demo's noise std is a per-coordinate std.
_PER_COORDINATE_MAX_DIM = 3
#: The demo spaces whose noise std is a scale rather than a per-coordinate std (dimension above 3): the tangent
#: noise per coordinate is std·√(2/d), so residuals are as long as on a surface with that std (shape space:
#: d = 2k - 4 grows with k).
NOISE_IS_A_SCALE = tuple(space for space, args in REGRESSION_SPACES.items()
                         if get_manifold(*args).dim > _PER_COORDINATE_MAX_DIM)

#: Landmarks of the shape-space demo (Kendall's Σ¹²₂, real dimension 20).
KENDALL_DEMO_LANDMARKS = REGRESSION_SPACES["kendall"][1]


def template_shapes(k=KENDALL_DEMO_LANDMARKS):
    r"""Public planar templates with ``k`` landmarks (preshapes), the end points of the shape-space demo geodesics.

    ``"circle"``: the regular ``k``-gon (the default centre); ``"ellipse"``: the same angles on an ellipse of
    aspect 1.8 : 0.7; ``"arch"``: :func:`geodp_core.data.arch_template`, a stand-in for the corpus-callosum
    outlines of the DP-regression paper, which are not available offline.
    """
    from geodp_core.data import arch_template, ellipse_template

    return {"circle": ellipse_template(k, 1.0), "ellipse": ellipse_template(k, 1.8 / 0.7), "arch": arch_template(k)}


def _shape_preset(start, end):
    """Frame coordinates (offset at m0, velocity at p) of the geodesic from template ``start`` to ``end``."""
    manifold = get_manifold(*REGRESSION_SPACES["kendall"])
    shapes, center = template_shapes(), manifold.default_center()
    p = shapes[start]
    offset = manifold.to_frame(center, manifold.log(center, p))
    velocity = manifold.to_frame(p, manifold.log(p, shapes[end]))
    return offset.tolist(), velocity.tolist()


def _arcs(size):
    """The default true geodesics in ``size`` frame coordinates: a short and a long arc through the public centre's
    neighbourhood (the first coordinates of fixed public vectors, zero beyond the third)."""
    def cut(values):
        return (list(values) + [0.0] * size)[:size]

    return {"short arc": (cut([-0.3, -0.2, 0.1]), cut([0.6, 0.3, -0.2])),
            "long arc": (cut([-0.6, -0.3, 0.2]), cut([1.2, 0.5, -0.4]))}


# Ground-truth geodesics of the demo: footpoint = Exp(m0, offset) and shooting vector, both in frame
# coordinates (offset in T_{m0}M, velocity in T_pM); m0 = manifold.default_center(). The demo's own choices on some
# spaces; every other offered space gets the default arcs.
_OWN_PRESETS = {
    "spd": {"short arc": ([0.2, -0.1, 0.1], [0.5, -0.3, 0.3]), "long arc": ([0.4, -0.3, 0.2], [1.0, -0.8, 0.6])},
    # shape space: from one public template to another (x = 0 gives the first, x = 1 the second)
    "kendall": {"circle → ellipse": _shape_preset("circle", "ellipse"), "circle → arch": _shape_preset("circle", "arch"),
                "ellipse → arch": _shape_preset("ellipse", "arch")},
}
REGRESSION_PRESETS = {space: _OWN_PRESETS.get(space) or _arcs(get_manifold(*args).dim)
                      for space, args in REGRESSION_SPACES.items()}


@dataclass(frozen=True)
class RegressionDemo:
    """Synthetic data, the true geodesic, a KNG release and prediction errors (what the regression page shows).

    With data supplied to :func:`regression_demo` (``data=(x, y)``) the true geodesic is unknown:
    ``true_footpoint`` and ``true_shooting_vector`` are ``None`` and ``mspe_truth`` is NaN.
    """

    manifold: object
    x: np.ndarray
    y: np.ndarray
    true_footpoint: np.ndarray | None
    true_shooting_vector: np.ndarray | None
    result: KNGRegressionResult
    mspe_truth: float
    mspe_nonprivate: float
    mspe_private: np.ndarray


def regression_demo(space, n, noise_std, preset, eps_total, footpoint_share, tau, data_radius, chain_length,
                    n_fits, seed, footpoint_velocity="joint", scale_convention="rigorous", tau_from_data=False,
                    max_chain_length=1000, init="public", owner_diagnostics=True, shooting_per_footpoint=1,
                    data=None):
    r"""Generate geodesic-regression data (or take ``data``) and release ``n_fits`` KNG fits (plain-valued inputs).

    Parameters
    ----------
    space : str
        A key of :data:`REGRESSION_SPACES` (a space's code): :math:`S^2`, :math:`H^2`, SPD(2) affine-invariant,
        Kendall's shape space :math:`\Sigma^{12}_2` (shapes of 12 planar landmarks; the true geodesic runs between
        two public templates, :func:`template_shapes`), the rotations :math:`SO(3)`, ...
    n : int
        Records, in [5, 2000].
    noise_std : float
        Tangent noise, in [0, 1]: the standard deviation per frame coordinate on the spaces of dimension at most 3;
        on the 20-dimensional shape space :math:`\sqrt{2/20}\,` ``noise_std`` per coordinate, so that the residuals have the
        same typical length :math:`\sqrt2\,` ``noise_std`` as on a surface.
    preset : str
        A key of ``REGRESSION_PRESETS[space]`` (the true geodesic).
    eps_total : float
        :math:`\varepsilon = \varepsilon_p + \varepsilon_v > 0`.
    footpoint_share : float
        :math:`\varepsilon_p / \varepsilon \in (0, 1)`.
    tau, data_radius : float
        Public residual bound and data-ball radius around ``manifold.default_center()``.
    chain_length : int or "auto"
        ``"auto"``: chosen by the public proxy check (burn-in = chain length), doubling up to
        ``max_chain_length``. An int: that many post-burn-in Metropolis steps (burn-in = half of it), checked
        on the public proxy at that length.
    n_fits : int
        Independent private fits to draw, in [1, 100] (the paper's figures: 10 footpoints × 10 shooting vectors).
    seed : int
        Seeds the data and the releases.
    footpoint_velocity, scale_convention : str
        Passed to :func:`kng_geodesic_regression`.
    tau_from_data : bool
        Use the paper's data-derived tau (not DP).
    max_chain_length : int
        Public budget of the automatic chain length (default 1000 keeps a fit within a few seconds).
    init : {"public", "nonprivate"}
        Passed to :func:`kng_geodesic_regression` (``"nonprivate"``: no formal guarantee).
    owner_diagnostics : bool
        Passed to :func:`kng_geodesic_regression` (extra chains on the private data for the data owner's R̂).
    shooting_per_footpoint : int
        Passed to :func:`kng_geodesic_regression`: shooting vectors drawn at each released footpoint (a divisor of
        ``n_fits``; 1 = independent fits).
    data : tuple (x, y) or None
        Given data instead of the synthetic ones: covariates ``x`` of shape ``(n,)`` in :math:`[0, 1]` (already
        scaled by a PUBLIC range) and responses ``y`` of shape ``(n, *point_shape)`` on the space, with
        :math:`5 \le n \le 2000`. Then ``n``, ``noise_std`` and ``preset`` are not used (still checked), the true
        geodesic is unknown (``true_footpoint`` and ``true_shooting_vector`` are ``None``, ``mspe_truth`` NaN),
        and the releases use the same random stream as with synthetic data. ``None``: synthetic data from
        ``preset``.

    Returns
    -------
    RegressionDemo
    """
    from geodp_core.data import sample_geodesic_regression

    space = check_option(space, "space", tuple(REGRESSION_SPACES))
    preset = check_option(preset, "preset", tuple(REGRESSION_PRESETS[space]))
    n = check_int(n, "n", low=5, high=2000)
    noise_std = check_real(noise_std, "noise_std", low=0.0, high=1.0, low_closed=True, high_closed=True)
    eps_total = check_real(eps_total, "eps_total", low=0.0)
    footpoint_share = check_real(footpoint_share, "footpoint_share", low=0.0, high=1.0)
    n_fits = check_int(n_fits, "n_fits", low=1, high=100)
    if isinstance(chain_length, str):
        chain_length = check_option(chain_length, "chain_length", ("auto",))
        lengths = dict(chain_length="auto", burn_in="auto")
    else:
        chain_length = check_int(chain_length, "chain_length", low=1, high=1_000_000)
        lengths = dict(chain_length=chain_length, burn_in=max(chain_length // 2, 1))
    seed = check_int(seed, "seed", low=0, high=2**32 - 1)
    if not isinstance(tau_from_data, (bool, np.bool_)):
        raise InvalidParameterError(f"tau_from_data must be True or False; got {tau_from_data!r}",
                                    param="tau_from_data")
    manifold = get_manifold(*REGRESSION_SPACES[space])
    offset, velocity = REGRESSION_PRESETS[space][preset]
    center = manifold.default_center()
    p0 = manifold.exp(center, manifold.from_frame(center, np.asarray(offset, dtype=float)), check=False)
    v0 = manifold.from_frame(p0, np.asarray(velocity, dtype=float))
    if data is None:
        data_rng = np.random.default_rng([seed, 0])
        per_coordinate = noise_std * np.sqrt(2.0 / manifold.dim) if space in NOISE_IS_A_SCALE else noise_std
        x, y = sample_geodesic_regression(manifold, p0, v0, n, per_coordinate, data_rng)
    else:
        x, y = _given_data(manifold, data)
        p0 = v0 = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RegressionPrivacyWarning)  # kept in result.warnings
        result = kng_geodesic_regression(
            manifold, x, y, footpoint_share * eps_total, (1.0 - footpoint_share) * eps_total,
            "data" if tau_from_data else tau, np.random.default_rng([seed, 1]),
            n_releases=n_fits, max_chain_length=max_chain_length, data_radius=data_radius, center=center,
            footpoint_velocity=footpoint_velocity, scale_convention=scale_convention, init=init,
            owner_diagnostics=owner_diagnostics, shooting_per_footpoint=shooting_per_footpoint, **lengths,
        )
    return RegressionDemo(
        manifold=manifold, x=x, y=y, true_footpoint=p0, true_shooting_vector=v0, result=result,
        mspe_truth=float("nan") if p0 is None else mean_squared_prediction_error(manifold, p0, v0, x, y),
        mspe_nonprivate=mean_squared_prediction_error(manifold, *result.nonprivate, x, y),
        mspe_private=np.atleast_1d(mean_squared_prediction_error(manifold, result.footpoints,
                                                                 result.shooting_vectors, x, y)),
    )


def _given_data(manifold, data):
    r"""``data = (x, y)`` checked: ``x`` finite in [0, 1] of shape ``(n,)``, ``y`` ``n`` points on ``manifold``,
    :math:`5 \le n \le 2000`."""
    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise InvalidParameterError("data must be None or a pair (x, y)", param="data")
    try:
        x = np.asarray(data[0], dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameterError("data: the covariates x must be numbers", param="data") from None
    if x.ndim != 1 or not 5 <= x.size <= 2000:
        raise InvalidParameterError(f"data: x must have shape (n,) with 5 <= n <= 2000; got shape {x.shape}",
                                    param="data")
    if not np.all(np.isfinite(x)) or x.min() < 0.0 or x.max() > 1.0:
        raise InvalidParameterError("data: the covariates x must be finite and in [0, 1] (scaled by a public range)",
                                    param="data")
    try:
        y = np.asarray(data[1], dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameterError("data: the responses y must be numbers", param="data") from None
    if y.shape[:1] != x.shape:
        raise InvalidParameterError(f"data: {x.size} covariates but y has shape {y.shape}", param="data")
    try:
        y = manifold.validate_points(y, "data: the responses y")
    except InvalidParameterError as exc:
        raise InvalidParameterError(str(exc), param="data") from None
    return x, y


@dataclass(frozen=True)
class Settings(StudySettings):
    """The regression demo's settings (the demo makes its own data; see :func:`regression_demo`)."""

    space: str = setting("sphere", choices=tuple(REGRESSION_SPACES),
                         doc="a curved space with a closed-form differential of Exp (S², H², SPD(2), shapes, ...)")
    n: int = setting(50, low=5, high=2000, integer=True, doc="records")
    noise_std: float = setting(0.05, low=0.0, high=1.0, doc="tangent noise of the data")
    preset: str = setting("short arc", text=True, doc="the true geodesic: a key of REGRESSION_PRESETS[space]")
    eps_total: float = setting(2.0, low=0.0, high=1000.0, low_closed=False, doc="ε = ε_p + ε_v")
    footpoint_share: float = setting(0.5, low=0.0, high=1.0, low_closed=False, high_closed=False,
                                     doc="ε_p / ε")
    tau: float = setting(0.2, low=0.0, high=3.0, low_closed=False, doc="public residual bound")
    data_radius: float = setting(1.0, low=0.0, high=3.0, low_closed=False, doc="public data-ball radius")
    chain_length: int = setting(None, low=1, high=1_000_000, integer=True, optional=True,
                                doc="Metropolis steps per chain (None: chosen by the public convergence check)")
    n_fits: int = setting(3, low=1, high=20, integer=True, doc="independent private fits")
    seed: int = setting(0, low=0, high=2**32 - 1, integer=True, doc="seed of the data and the releases")

    def __post_init__(self):
        super().__post_init__()
        presets = tuple(REGRESSION_PRESETS[self.space])
        if self.preset not in presets:
            object.__setattr__(self, "preset", check_option(self.preset, "preset", presets))


def run(scenario=None, settings=Settings()):
    """:func:`regression_demo` with ``settings``. The demo makes its own data, so ``scenario`` must be ``None``.

    Returns
    -------
    RegressionDemo
    """
    if scenario is not None:
        raise InvalidParameterError("the regression demo makes its own data from its settings; pass scenario=None",
                                    param="scenario")
    return regression_demo(settings.space, settings.n, settings.noise_std, settings.preset, settings.eps_total,
                           settings.footpoint_share, settings.tau, settings.data_radius,
                           "auto" if settings.chain_length is None else settings.chain_length, settings.n_fits,
                           settings.seed)


def figures(result):
    """The data with the true, non-private and private geodesics, and the prediction error of each fit."""
    from geodp_core.viz.regression import FIT_COLORS, mspe_figure, private_fit_colors, regression_figure

    release = result.result
    colors = private_fit_colors(len(release.footpoints))
    known = result.true_footpoint is not None  # given data: the true geodesic is unknown
    fits = [dict(name="true geodesic (teaching view)", footpoint=result.true_footpoint,
                 shooting_vector=result.true_shooting_vector, color=FIT_COLORS["truth"], dash="dash", width=3)][:known]
    fits += [dict(name="non-private fit (teaching view)", footpoint=release.nonprivate_footpoint,
                  shooting_vector=release.nonprivate_shooting_vector, color=FIT_COLORS["nonprivate"], width=6)]
    fits += [dict(name=f"private fit {i + 1}", footpoint=p, shooting_vector=v, color=c, width=3)
             for i, (p, v, c) in enumerate(zip(release.footpoints, release.shooting_vectors, colors))]
    names = ["true geodesic"][:known] + ["non-private fit"] + [f"private fit {i + 1}"
                                                               for i in range(len(release.footpoints))]
    values = [result.mspe_truth][:known] + [result.mspe_nonprivate] + [float(v) for v in result.mspe_private]
    return [regression_figure(result.manifold, result.x, result.y, fits),
            mspe_figure(names, values, colors=["black"][:known] + ["goldenrod"] + colors,
                        reference=result.mspe_nonprivate)]
