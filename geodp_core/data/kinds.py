r"""The data kinds a scenario can name, each declared once: code, label, where it exists, how it is made.

A data kind is one decorated function ``make(scenario, manifold, center, rng, points) -> (points, note)`` that
generates (or loads, or takes) a scenario's private dataset around the PUBLIC centre, with its declaration:

* ``code`` — the value of ``Scenario.data`` (and of the URL); ``label`` — what a chooser shows; ``where`` — why it
  is not offered on another space (said when a change of space replaces it);
* ``spaces`` — where it exists: a predicate on the manifold class (``lambda cls: cls.upload_format is not None``),
  or the codes of the spaces a dataset lives on (``("sphere",)``);
* ``source`` — ``"generated"`` (``n`` and ``spread`` apply), ``"dataset"`` (a real dataset, its own size) or
  ``"upload"``; ``labelled`` — a real dataset with classes (a scenario may keep one class);
* ``spread_distance`` — optionally, how far the generator typically puts a record from its centre (the app warns
  before a run when it nears the public radius), and ``spread_formula`` how, in symbols (``"s·√d"``).

:func:`register_data_kind` collects them in declaration order, which is the display order; the Scenario
(validation), the pipeline (:func:`~geodp_core.pipeline.prepare`) and the app's sidebar (labels and notes) read
this registry.
"""

import math
from dataclasses import dataclass
from typing import Callable, Optional, Union

import numpy as np

from geodp_core._validation import check_option
from geodp_core.data import generators as gen
from geodp_core.data import shapes
from geodp_core.data.datasets import load_dataset
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, manifold_class

__all__ = [
    "DataKind",
    "DATA_SOURCES",
    "register_data_kind",
    "data_kind",
    "data_kinds",
    "data_kinds_for",
]

#: Where a kind's records come from.
DATA_SOURCES = ("generated", "dataset", "upload")


@dataclass(frozen=True)
class DataKind:
    """One data kind a scenario can name (see the module docstring)."""

    code: str
    label: str
    make: Callable
    spaces: Union[tuple, Callable]
    source: str = "generated"
    where: str = ""
    labelled: bool = False
    spread_distance: Optional[Callable] = None
    spread_formula: str = "s·√d"

    def __post_init__(self):
        check_option(self.source, "source", DATA_SOURCES)
        if not callable(self.spaces):
            spaces = tuple(self.spaces)
            for code in spaces:
                check_option(code, "spaces", MANIFOLD_NAMES)
            object.__setattr__(self, "spaces", spaces)

    def exists_on(self, manifold_code):
        """Whether this kind is offered on the space with code ``manifold_code``."""
        if callable(self.spaces):
            return bool(self.spaces(manifold_class(manifold_code)))
        return manifold_code in self.spaces

    @property
    def generated(self):
        """Whether the records are generated from ``n`` (and ``spread``)."""
        return self.source == "generated"


_KINDS = {}


def register_data_kind(code, label, spaces, source="generated", where="", labelled=False, spread_distance=None,
                       spread_formula="s·√d"):
    """Decorator: declare the function it decorates as the maker of data kind ``code`` (see :class:`DataKind`).

    Raises
    ------
    InvalidParameterError
        When ``code`` is already declared.
    """

    def register(make):
        if code in _KINDS:
            raise InvalidParameterError(f"data kind {code!r} is already declared", param="code")
        _KINDS[code] = DataKind(code, label, make, spaces, source, where, labelled, spread_distance, spread_formula)
        return make

    return register


def data_kinds():
    """``{code: DataKind}`` of every declared kind, in display order."""
    return dict(_KINDS)


def data_kind(code):
    """The :class:`DataKind` with code ``code`` (validated)."""
    return _KINDS[check_option(code, "data", tuple(_KINDS))]


def data_kinds_for(manifold_code):
    """Codes of the data kinds offered on the space ``manifold_code``, in display order; the space's
    ``default_data_kind`` (what a switch to the space shows) leads."""
    kinds = [code for code, kind in _KINDS.items() if kind.exists_on(manifold_code)]
    first = manifold_class(manifold_code).default_data_kind if manifold_code in MANIFOLD_NAMES else None
    if first in kinds:
        kinds.remove(first)
        kinds.insert(0, first)
    return tuple(kinds)


def _every_space(cls):
    return True


def _mixture_layout(manifold, center, radius, n_components, fraction=0.5):
    """Public component centres spread on a circle of radius ``fraction · radius`` around the centre."""
    angles = 2 * np.pi * np.arange(n_components) / n_components
    coords = np.zeros((n_components, manifold.dim))
    coords[:, 0] = fraction * radius * np.cos(angles)
    if manifold.dim > 1:
        coords[:, 1] = fraction * radius * np.sin(angles)
    return manifold.exp(center, manifold.from_frame(center, coords))


def _spread(scenario):
    return max(scenario.spread, 1e-3)


def _vmf_spread_distance(scenario):
    r"""Von Mises–Fisher data on :math:`S^d` (spread :math:`s`, the angular std per direction): about :math:`s\sqrt d`."""
    return scenario.spread * math.sqrt(scenario.dim)


_SPHERES_ONLY = "the von Mises–Fisher law is defined on spheres only"


@register_data_kind("vmf", "von Mises–Fisher", ("sphere",), where=_SPHERES_ONLY,
                    spread_distance=_vmf_spread_distance)
def make_vmf(scenario, manifold, center, rng, points=None):
    kappa = gen.vmf_kappa_from_std(_spread(scenario))
    return (gen.sample_von_mises_fisher(center, kappa, scenario.n, rng),
            f"von Mises–Fisher, concentration κ = 1/std² = {kappa:.3g}")


@register_data_kind("vmf_mixture", "vMF mixture (heterogeneous density)", ("sphere",), where=_SPHERES_ONLY,
                    spread_distance=_vmf_spread_distance)
def make_vmf_mixture(scenario, manifold, center, rng, points=None):
    """The conformal paper's heterogeneous data (its §VII-A)."""
    spread = _spread(scenario)
    means = _mixture_layout(manifold, center, scenario.radius, 3, fraction=0.6)
    kappas = [gen.vmf_kappa_from_std(s) for s in (spread, spread / 3.0, 2.0 * spread)]
    pts = gen.sample_vmf_mixture(means, kappas, [0.6, 0.3, 0.1], scenario.n, rng)
    return pts, ("mixture of 3 vMF components (weights 0.6/0.3/0.1, spreads s, s/3 and 2s, centres at 0.6·r "
                 "from the public centre)")


@register_data_kind("uniform_ball", "uniform geodesic ball", _every_space)
def make_uniform_ball(scenario, manifold, center, rng, points=None):
    spread = _spread(scenario)
    return (gen.sample_uniform_ball(manifold, center, spread, scenario.n, rng),
            f"uniform in a geodesic ball of radius {spread:g}")


def _wrapped_normal_spread_distance(scenario):
    r"""Wrapped-normal data (std :math:`s` per tangent direction) in intrinsic dimension :math:`d`: the tangent vector
    has length :math:`s\chi_d`, about :math:`s\sqrt d`."""
    return scenario.spread * math.sqrt(scenario.build_manifold().dim)


@register_data_kind("wrapped_normal", "wrapped normal", _every_space, spread_distance=_wrapped_normal_spread_distance)
def make_wrapped_normal(scenario, manifold, center, rng, points=None):
    spread = _spread(scenario)
    return gen.sample_wrapped_normal(manifold, center, spread, scenario.n, rng), f"wrapped normal, std {spread:g}"


@register_data_kind("wrapped_normal_mixture", "wrapped-normal mixture", ("hyperbolic",),
                    where="the heterogeneous wrapped-normal mixture is offered on hyperbolic spaces only",
                    spread_distance=_wrapped_normal_spread_distance)
def make_wrapped_normal_mixture(scenario, manifold, center, rng, points=None):
    spread = _spread(scenario)
    centers = _mixture_layout(manifold, center, scenario.radius, 2)
    pts = gen.sample_wrapped_normal_mixture(manifold, centers, [spread, spread / 3.0], [0.7, 0.3], scenario.n, rng)
    return pts, "mixture of 2 wrapped normals (weights 0.7/0.3)"


@register_data_kind("wishart", "Wishart", ("spd",), where="the Wishart law is a law of SPD matrices")
def make_wishart(scenario, manifold, center, rng, points=None):
    m = manifold.m
    dof = m - 1.0 + 1.0 / _spread(scenario) ** 2
    pts = gen.sample_wishart(m, dof, center / dof, scenario.n, rng)
    return pts, f"Wishart, {dof:.3g} degrees of freedom, mean = the public centre"


def _load(scenario, **options):
    """A bundled real dataset (its own size; ``n`` and ``spread`` do not apply), one class if the scenario keeps one."""
    if scenario.data_class is not None:
        options["label"] = scenario.data_class
    dataset = load_dataset(scenario.data, **options)
    return np.asarray(dataset.points, dtype=float), dataset.description


@register_data_kind("cities", "real: 50 world cities (geomstats)", ("sphere",), source="dataset",
                    where="the world cities are points on the sphere S²")
def make_cities(scenario, manifold, center, rng, points=None):
    return _load(scenario)


@register_data_kind("connectomes", "real: brain connectomes (geomstats, principal block)", ("spd",),
                    source="dataset", labelled=True, where="the connectomes are SPD matrices")
def make_connectomes(scenario, manifold, center, rng, points=None):
    return _load(scenario, sub_block=scenario.dim)


@register_data_kind("karate", "real: karate-club graph in the Poincaré disk", ("hyperbolic",), source="dataset",
                    labelled=True, where="the karate-club embedding lives in the hyperbolic plane H²")
def make_karate(scenario, manifold, center, rng, points=None):
    return _load(scenario)


_DESCRIPTORS_ARE_SPD = "image covariance descriptors are SPD matrices"


@register_data_kind("digits_covariance", "real: handwritten digits as 9×9 covariance descriptors (scikit-learn)",
                    ("spd",), source="dataset", labelled=True, where=_DESCRIPTORS_ARE_SPD)
def make_digits_covariance(scenario, manifold, center, rng, points=None):
    return _load(scenario)


@register_data_kind("image_patches_covariance",
                    "real: colour photo patches as 11×11 covariance descriptors (scikit-learn)", ("spd",),
                    source="dataset", labelled=True, where=_DESCRIPTORS_ARE_SPD)
def make_image_patches_covariance(scenario, manifold, center, rng, points=None):
    return _load(scenario)


def _landmark_spread_distance(scenario):
    r"""Landmark noise on Kendall shapes (std :math:`s` per coordinate of :math:`k` planar landmarks): about
    :math:`s\sqrt{2k}`."""
    return scenario.spread * math.sqrt(2.0 * scenario.dim)


@register_data_kind("shape_perturbation", "noisy copies of a template shape", ("kendall",),
                    where="shapes of a template are points of Kendall's shape space",
                    spread_distance=_landmark_spread_distance, spread_formula="s·√(2k)")
def make_shape_perturbation(scenario, manifold, center, rng, points=None):
    """Kendall shapes: the public template (the ball centre) plus landmark noise."""
    spread = _spread(scenario)
    pts = shapes.sample_landmark_perturbation(manifold, center, spread, scenario.n, rng)
    return pts, (f"shapes of the public template (the ball centre) with i.i.d. N(0, {spread:g}²) noise on every "
                 "landmark coordinate")


@register_data_kind("planar_cells", "real: 650 cell outlines (geomstats), resampled to k landmarks", ("kendall",),
                    source="dataset", where="the cell outlines are shapes in Kendall's shape space")
def make_planar_cells(scenario, manifold, center, rng, points=None):
    """Real outlines, resampled to the scenario's k landmarks."""
    dataset = shapes.load_planar_cells(k=scenario.dim)
    return np.asarray(dataset.points, dtype=float), dataset.description


@register_data_kind("hand_orientations", "real: 52 hand orientations (wrist–knuckle frames)", ("so3",),
                    source="dataset", labelled=True, where="the hand orientations are rotations in SO(3)")
def make_hand_orientations(scenario, manifold, center, rng, points=None):
    return _load(scenario)


@register_data_kind("upload", "upload a CSV / NPY file", lambda cls: cls.upload_format is not None, source="upload")
def make_upload(scenario, manifold, center, rng, points=None):
    if points is None:
        raise InvalidParameterError("data is 'upload' but no file was uploaded", param="upload")
    return manifold.validate_points(points, "upload"), "uploaded file"
