"""A frozen, validated description of one explorer scenario.

A :class:`Scenario` holds only plain values (strings, numbers, tuples), so it
hashes for caching, round-trips through URL query parameters and JSON, and can
be turned into a Python snippet that reproduces the run with ``geodp_core``.
"""

import json
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.constraints import (
    MAX_REAL_DATA_COORDINATES,
    MAX_RECORD_COORDINATES,
    MAX_RELEASE_COORDINATES,
    SCENARIO_RANGES,
    check_cost,
    default_spread,
    dim_range,
    largest_count,
    result_bytes_bound,
)
from geodp_core.data.datasets import DESCRIPTOR_SIZES, dataset_classes
from geodp_core.data.kinds import data_kind, data_kinds, data_kinds_for
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, get_manifold, manifold_class
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.privacy import Guarantee

__all__ = [
    "LABELLED_DATA",
    "NOTION_NAMES",
    "PRESETS",
    "Scenario",
    "data_classes_for",
    "data_kinds_for",
    "preset_scenario",
]

NOTION_NAMES = ("pure_dp", "approx_dp", "gdp", "rdp", "zcdp")

#: Real datasets with classes: a scenario may keep one class (``data_class``); declared in
#: :mod:`geodp_core.data.kinds` (``labelled=True``).
LABELLED_DATA = tuple(code for code, kind in data_kinds().items() if kind.labelled)


def data_classes_for(data):
    """``{label: meaning}`` of the classes a scenario with data kind ``data`` may keep (empty: none)."""
    return dataset_classes(data) if data_kind(data).labelled else {}


def _tuple_of_floats(value, name):
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    try:
        return tuple(check_real(float(v), name) for v in value)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"{name} must be a comma-separated list of numbers; got {value!r}", param=name) from exc


MAX_SCENARIO_JSON_CHARS = 100_000
"""Largest scenario JSON accepted (a saved scenario is well under 2 kB)."""

MAX_JSON_DEPTH = 4
"""Deepest nesting of brackets accepted in a scenario JSON (the format is a flat object of lists)."""

MAX_QUERY_VALUE_CHARS = 2_000
"""Longest accepted URL parameter value."""

MAX_LIST_LENGTH = 64
"""Longest accepted list field (``center_offset``, ``mechanisms``)."""

_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_STR_FIELDS = ("manifold", "metric", "data", "notion")
_INT_FIELDS = ("dim", "n", "seed", "n_releases")
_REAL_FIELDS = ("spread", "radius", "eps", "delta", "mu", "alpha", "rho", "p")


def _check_range(name, value):
    """Check a numeric field against :data:`~geodp_core.constraints.SCENARIO_RANGES` (declared once)."""
    low, high, low_closed, high_closed = SCENARIO_RANGES[name]
    if isinstance(low, int) and isinstance(high, int):
        return check_int(value, name, low=low, high=high)
    return check_real(value, name, low=low, high=high, low_closed=low_closed, high_closed=high_closed)


def _clip(text, limit=60):
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def _json_type(value):
    """JSON name of a parsed value's type (for messages)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {_clip(repr(value))}"
    if isinstance(value, str):
        return f"the string {_clip(value)!r}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _too_large(size):
    return InvalidParameterError(
        f"scenario file has {size} characters; a scenario is at most {MAX_SCENARIO_JSON_CHARS} (saved ones are "
        "under 2 kB)", param="scenario",
    )


def _max_nesting(text):
    """Deepest bracket nesting of a JSON text (brackets inside strings ignored), without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _is_real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_field_type(key, value):
    """Type-check one parsed field (ranges are the constructor's job); lists become tuples."""
    if key in _STR_FIELDS:
        if not isinstance(value, str):
            raise InvalidParameterError(f"{key} must be a string; got {_json_type(value)}", param=key)
        return value
    if key in _INT_FIELDS:
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
            return int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidParameterError(f"{key} must be a whole number; got {_json_type(value)}", param=key)
        return value
    if key in _REAL_FIELDS:
        if not _is_real(value):
            raise InvalidParameterError(f"{key} must be a number; got {_json_type(value)}", param=key)
        return value
    if key == "data_class":
        if value is None:
            return None
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
            return int(value)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidParameterError(f"data_class must be a whole number (a class label) or null (every "
                                        f"class); got {_json_type(value)}", param=key)
        return value
    if key in ("center_offset", "mechanisms"):
        if isinstance(value, str):
            return value
        if not isinstance(value, (list, tuple)):
            expected = "numbers" if key == "center_offset" else "mechanism names"
            raise InvalidParameterError(f"{key} must be a list of {expected}; got {_json_type(value)}", param=key)
        if len(value) > MAX_LIST_LENGTH:
            raise InvalidParameterError(
                f"{key} has {len(value)} entries; at most {MAX_LIST_LENGTH} are allowed", param=key
            )
        for i, item in enumerate(value):
            ok = _is_real(item) if key == "center_offset" else isinstance(item, str)
            if not ok:
                expected = "a number" if key == "center_offset" else "a mechanism name (string)"
                raise InvalidParameterError(
                    f"{key}[{i}] must be {expected}; got {_json_type(item)}", param=key
                )
        return tuple(value)
    return value


def _parse_json(text):
    """Parsed JSON of a scenario file (size, encoding and nesting checked first)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_SCENARIO_JSON_CHARS:
            raise _too_large(len(text))
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidParameterError(
                f"scenario file is not UTF-8 text (undecodable byte at position {exc.start})", param="scenario"
            ) from None
    if not isinstance(text, str):
        raise InvalidParameterError(f"scenario JSON must be text; got {type(text).__name__}", param="scenario")
    if len(text) > MAX_SCENARIO_JSON_CHARS:
        raise _too_large(len(text))
    if not text.strip():
        raise InvalidParameterError("scenario file is empty", param="scenario")
    depth = _max_nesting(text)
    if depth > MAX_JSON_DEPTH:
        raise InvalidParameterError(
            f"scenario JSON nests {depth} levels deep; a scenario is a flat object (at most {MAX_JSON_DEPTH} "
            "levels)", param="scenario",
        )
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidParameterError(f"scenario file is not valid JSON: {_clip(str(exc), 200)}",
                                    param="scenario") from None


#: Key of a scenario file's page settings (the app's own page controls, as written in its links).
PAGE_SETTINGS_KEY = "page_settings"
_MAX_PAGE_SETTINGS = 400


def check_page_settings(settings):
    """Page settings of a scenario file: a flat object of text values (or lists of text), at most 400 keys.

    Their meaning and ranges belong to the app (it checks each value as it checks a link); here only the shape.
    """
    if not isinstance(settings, dict):
        raise InvalidParameterError(f"page_settings must be an object {{\"control\": value}}; got "
                                    f"{_json_type(settings)}", param=PAGE_SETTINGS_KEY)
    if len(settings) > _MAX_PAGE_SETTINGS:
        raise InvalidParameterError(f"page_settings has {len(settings)} entries (at most {_MAX_PAGE_SETTINGS})",
                                    param=PAGE_SETTINGS_KEY)
    out = {}
    for key, value in settings.items():
        values = value if isinstance(value, list) else [value]
        if not isinstance(key, str) or not all(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                               for v in values):
            raise InvalidParameterError(f"page_settings[{_clip(str(key))!r}] must be text or a number (or a list of "
                                        f"them); got {_json_type(value)}", param=PAGE_SETTINGS_KEY)
        out[key] = [str(v) for v in values] if isinstance(value, list) else str(value)
    return out


@dataclass(frozen=True)
class Scenario:
    """One scenario of the explorer (all fields plain values).

    Attributes
    ----------
    manifold, dim, metric
        Arguments of :func:`~geodp_core.geometry.get_manifold` (``metric`` only for SPD).
    data : str
        Data kind (a code of :func:`geodp_core.data.data_kinds`, offered on this manifold).
    spread : float
        Data spread in radians of geodesic distance: vMF std (``kappa = 1/std^2``),
        wrapped-normal std, or the radius of a uniform data ball. When not given (``None``), it follows the
        dimension: :func:`~geodp_core.constraints.default_spread` (0.25 on S², 0.11 on S¹⁰), so that records
        lie about as far from the centre in every dimension.
    n : int
        Number of records (ignored for real datasets and uploads, which have their own size).
    radius : float
        PUBLIC ball radius ``r`` (``0 < r < r*``); data outside are clipped onto it.
    center_offset : tuple of float
        PUBLIC ball centre as frame coordinates of a tangent vector at the manifold's
        canonical point (empty = the canonical point itself).
    mechanisms : tuple of str
        Registry names of the mechanisms to compare.
    notion, eps, delta, mu, alpha, rho
        The ONE target guarantee all mechanisms are calibrated to.
    seed : int
        Seed of the data and of the releases (visible, reproducible).
    n_releases : int
        Number of releases drawn per mechanism (the cloud).
    data_class : int or None
        Real datasets with classes only (:data:`LABELLED_DATA`): keep only the records of this class label
        (e.g. one digit); ``None`` keeps every class. The labels are public metadata of the dataset.
    p : float
        Exponent of the summary released: the generalized Fréchet :math:`p`-mean
        argmin_y Σᵢ d(y, xᵢ)ᵖ (``p = 2``: the Fréchet mean; ``p`` in (1, 8]), with the
        sensitivity of the heat-diffusion paper (Thm 13 for p ≤ 2, Thm 15 on Hadamard spaces, Thm 16 in
        positive curvature).
    """

    manifold: str = "sphere"
    dim: int = 2
    metric: str = ""
    data: str = "vmf"
    spread: float = None
    n: int = 100
    radius: float = 0.7
    center_offset: tuple = ()
    mechanisms: tuple = ("riemannian_laplace", "riemannian_gaussian", "brownian_motion")
    notion: str = "approx_dp"
    eps: float = 1.0
    delta: float = 1e-5
    mu: float = 1.0
    alpha: float = 2.0
    rho: float = 0.5
    seed: int = 0
    n_releases: int = 200
    data_class: int = None
    p: float = 2.0

    def __post_init__(self):
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("manifold", check_option(self.manifold, "manifold", MANIFOLD_NAMES))
        dim_low, dim_high = dim_range(self.manifold)
        set_("dim", check_int(self.dim, "dim", low=dim_low, high=dim_high))
        if self.metric is not None and not isinstance(self.metric, str):
            raise InvalidParameterError(f"metric must be a string; got {_json_type(self.metric)}", param="metric")
        choices = manifold_class(self.manifold).metric_choices  # the first is the default
        metric = self.metric or (choices[0] if choices else "")
        if choices:
            check_option(metric, "metric", choices)
        elif metric:
            families = " and ".join(manifold_class(code).title for code in MANIFOLD_NAMES
                                    if manifold_class(code).metric_choices)
            raise InvalidParameterError(f"metric applies only to {families}; got {metric!r}", param="metric")
        set_("metric", metric)
        check_option(self.data, "data", data_kinds_for(self.manifold))
        if self.data in ("cities", "karate") and self.dim != 2:
            raise InvalidParameterError(
                f"data {self.data!r} lives in dimension 2 ({'S²' if self.data == 'cities' else 'H²'}); got dim={self.dim}",
                param="dim",
            )
        if self.data in DESCRIPTOR_SIZES and self.dim != DESCRIPTOR_SIZES[self.data]:
            size = DESCRIPTOR_SIZES[self.data]
            raise InvalidParameterError(
                f"data {self.data!r} are {size}x{size} SPD matrices (one feature per row); set the matrix size "
                f"m = dim = {size}; got dim={self.dim}", param="dim",
            )
        set_("data_class", self._checked_data_class())
        if self.spread is None:
            set_("spread", default_spread(self.manifold, self.dim))
        set_("spread", _check_range("spread", self.spread))
        set_("n", _check_range("n", self.n))
        set_("radius", self.build_manifold().check_radius(self.radius, "radius"))
        offset = _tuple_of_floats(self.center_offset, "center_offset")
        if offset and len(offset) != self.build_manifold().dim:
            raise InvalidParameterError(
                f"center_offset must have {self.build_manifold().dim} coordinates; got {len(offset)}", param="center_offset"
            )
        if offset:
            limit = manifold_class(self.manifold).center_offset_limit
            length = math.sqrt(math.fsum(v * v for v in offset))
            if not length <= limit:
                raise InvalidParameterError(
                    f"center_offset has length {length:.4g}; on {self.manifold} the public centre must lie within "
                    f"distance {limit:g} of the canonical point (farther, double precision cannot represent the data "
                    "ball faithfully)", param="center_offset",
                )
        set_("center_offset", offset)
        mechs = self.mechanisms
        if isinstance(mechs, str):
            mechs = tuple(m for m in mechs.split(",") if m)
        if not isinstance(mechs, Sequence):  # a tuple, a list, or the registry's live MECHANISM_NAMES
            raise InvalidParameterError(
                f"mechanisms must be a list of mechanism names; got {_json_type(mechs)}", param="mechanisms"
            )
        mechs = tuple(check_option(m, "mechanisms", MECHANISM_NAMES) for m in mechs)
        if not mechs:
            raise InvalidParameterError("mechanisms must name at least one mechanism", param="mechanisms")
        set_("mechanisms", tuple(dict.fromkeys(mechs)))
        check_option(self.notion, "notion", NOTION_NAMES)
        for name in ("eps", "delta", "mu", "alpha", "rho", "seed", "n_releases", "p"):
            set_(name, _check_range(name, getattr(self, name)))
        self._check_costs()

    def result_bytes_bound(self):
        """Public upper bound of the bytes of this scenario's Explorer result, from the scenario only: generated
        data have ``n`` records, the bundled datasets at most ``MAX_REAL_DATA_COORDINATES`` coordinates, uploads at
        most ``MAX_RECORD_COORDINATES`` (checked when they are prepared)."""
        coordinates = math.prod(self.build_manifold().point_shape)
        if data_kind(self.data).generated:
            records = self.n
        elif self.data == "upload":
            records = largest_count(MAX_RECORD_COORDINATES, coordinates)
        else:
            records = largest_count(MAX_REAL_DATA_COORDINATES, coordinates)
        return result_bytes_bound(records, self.n_releases * len(self.mechanisms), coordinates,
                                  point_set="conformal" in self.mechanisms)

    def _check_costs(self):
        """Records × coordinates and releases × coordinates within the declared cost limits."""
        coordinates = math.prod(self.build_manifold().point_shape)
        at = f"at dim = {self.dim} ({coordinates} coordinates per point on {self.manifold})"
        if data_kind(self.data).generated:
            check_cost("n", self.n, coordinates, MAX_RECORD_COORDINATES, "the data", at)
        k = len(self.mechanisms)
        check_cost("n_releases", self.n_releases, k * coordinates, MAX_RELEASE_COORDINATES,
                   f"the releases of the {k} mechanism{'s' if k > 1 else ''}",
                   f"at dim = {self.dim} with {k} mechanism{'s' if k > 1 else ''} ({coordinates} coordinates per point)")

    def _checked_data_class(self):
        """``data_class`` checked against the classes of the scenario's dataset (public metadata)."""
        value = self.data_class
        if value is None:
            return None
        if isinstance(value, str) and value.strip().lower() in ("", "all", "none"):
            return None
        classes = data_classes_for(self.data)
        if not classes:
            raise InvalidParameterError(
                f"data_class applies only to real datasets with classes "
                f"({', '.join(code for code, kind in data_kinds().items() if kind.labelled)}); data "
                f"{self.data!r} has none; got data_class={_clip(repr(value))}", param="data_class",
            )
        valid = tuple(classes)
        if isinstance(value, str) and _INT_TEXT.fullmatch(value.strip()):
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or value not in valid:
            shown = ", ".join(f"{k} = {v}" for k, v in classes.items())
            raise InvalidParameterError(
                f"data_class must be one of the class labels of {self.data!r}, from {min(valid)} to {max(valid)} "
                f"({shown}), or empty for every class; got {_clip(repr(value))}", param="data_class",
            )
        return int(value)

    # ---------------------------------------------------------------- builders
    def build_manifold(self):
        """The :class:`~geodp_core.geometry.Manifold` of this scenario."""
        return get_manifold(self.manifold, self.dim, self.metric or None)

    @property
    def target(self):
        """The common target guarantee."""
        return Guarantee.from_notion(self.notion, eps=self.eps, delta=self.delta, mu=self.mu, alpha=self.alpha,
                                     rho=self.rho)

    def with_changes(self, **changes):
        """A validated copy with some fields changed."""
        return replace(self, **changes)

    def neighbouring_targets(self):
        """The targets one step either side of this budget on its control's grid (ε, μ or ρ; none for a Rényi
        target): what a user reaches next by moving the budget slider. Public: a function of the controls only."""
        from geodp_core.constraints import EPS_GRID, MU_GRID, RHO_GRID

        field, grid = {"pure_dp": ("eps", EPS_GRID), "approx_dp": ("eps", EPS_GRID), "gdp": ("mu", MU_GRID),
                       "zcdp": ("rho", RHO_GRID)}.get(self.notion, (None, ()))
        if field is None:
            return ()
        value = getattr(self, field)
        below = [v for v in grid if v < value]
        above = [v for v in grid if v > value]
        steps = ([below[-1]] if below else []) + ([above[0]] if above else [])
        return tuple(self.with_changes(**{field: v}).target for v in steps)

    # --------------------------------------------------------------- round trip
    def to_dict(self):
        """Plain dictionary (tuples become lists)."""
        out = asdict(self)
        out["center_offset"] = list(self.center_offset)
        out["mechanisms"] = list(self.mechanisms)
        return out

    @classmethod
    def from_dict(cls, data):
        """Build from a dictionary (e.g. parsed JSON), checking every field's type before anything else.

        Raises :class:`~geodp_core.exceptions.InvalidParameterError` naming the field for a non-object,
        unknown keys, and wrong types (``null``, booleans, strings for numbers, lists of the wrong
        elements, nested containers); the constructor then checks the ranges.
        """
        if not isinstance(data, dict):
            raise InvalidParameterError(
                f"scenario must be a JSON object {{\"field\": value, ...}}; got {_json_type(data)}", param="scenario"
            )
        data = {k: v for k, v in data.items() if k != PAGE_SETTINGS_KEY}  # the app's page controls: not a field
        names = [f.name for f in fields(cls)]
        bad_keys = [k for k in data if not isinstance(k, str)]
        if bad_keys:
            raise InvalidParameterError(f"scenario field names must be strings; got {bad_keys[0]!r}", param="scenario")
        unknown = sorted(set(data) - set(names))
        if unknown:
            shown = ", ".join(repr(_clip(k)) for k in unknown[:5]) + (" …" if len(unknown) > 5 else "")
            raise InvalidParameterError(
                f"scenario has unknown field(s) {shown}; valid fields are {', '.join(names)}", param=unknown[0]
            )
        kwargs = {}
        for key, value in data.items():
            kwargs[key] = _check_field_type(key, value)
        return cls(**kwargs)

    def to_json(self, page_settings=None):
        """JSON text (stable key order); ``page_settings`` (the app's page controls) are stored beside the fields."""
        out = self.to_dict()
        if page_settings:
            out[PAGE_SETTINGS_KEY] = check_page_settings(page_settings)
        return json.dumps(out, indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text):
        """Parse JSON text produced by :meth:`to_json` (or edited by a user).

        The text (``str`` or UTF-8 ``bytes``) may be at most :data:`MAX_SCENARIO_JSON_CHARS` characters and
        nest at most :data:`MAX_JSON_DEPTH` levels; anything else raises
        :class:`~geodp_core.exceptions.InvalidParameterError` (``param="scenario"``) before parsing.
        """
        return cls.from_dict(_parse_json(text))

    @classmethod
    def read_file(cls, text):
        """A scenario file: ``(Scenario, page_settings)`` (``{}`` when the file has none); same checks as
        :meth:`from_json`, plus :func:`check_page_settings`."""
        data = _parse_json(text)
        scenario = cls.from_dict(data)
        return scenario, check_page_settings(data.get(PAGE_SETTINGS_KEY, {}))

    def to_query_params(self):
        """Flat ``{key: str}`` for URL query parameters (defaults omitted; the spread's default is the one of this
        scenario's space and dimension)."""
        default = Scenario()
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            reference = default_spread(self.manifold, self.dim) if f.name == "spread" else getattr(default, f.name)
            if value == reference:
                continue
            out[f.name] = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
        return out

    @classmethod
    def from_query_params(cls, params):
        """Parse URL query parameters (strings); unknown keys are ignored, bad values raise.

        Every value must be a string (a list of strings counts as its last element, as in a URL with a
        repeated key) of at most :data:`MAX_QUERY_VALUE_CHARS` characters; integer fields take decimal
        integers, real fields finite decimal numbers. Errors name the parameter.
        """
        if not hasattr(params, "keys") or not hasattr(params, "__getitem__"):
            raise InvalidParameterError(
                f"query parameters must be a mapping of names to strings; got {type(params).__name__}",
                param="params",
            )
        kinds = {f.name: f.type for f in fields(cls)}
        kwargs = {}
        for key in list(params.keys()):
            if key not in kinds:
                continue
            raw = params[key]
            if isinstance(raw, (list, tuple)):
                if not raw:
                    continue
                raw = raw[-1]
            if not isinstance(raw, str):
                raise InvalidParameterError(
                    f"URL parameter {key} must be text; got {type(raw).__name__}", param=key
                )
            if len(raw) > MAX_QUERY_VALUE_CHARS:
                raise InvalidParameterError(
                    f"URL parameter {key} is {len(raw)} characters long; at most {MAX_QUERY_VALUE_CHARS} are allowed",
                    param=key,
                )
            kind = kinds[key]
            text = raw.strip()
            if key == "data_class":
                kwargs[key] = None if text.lower() in ("", "all", "none") else text  # checked by the constructor
            elif kind in (int, "int"):
                if not _INT_TEXT.fullmatch(text):
                    raise InvalidParameterError(
                        f"URL parameter {key} must be a whole number; got {_clip(raw)!r}", param=key
                    )
                kwargs[key] = int(text)
            elif kind in (float, "float"):
                try:
                    value = float(text)
                except ValueError:
                    raise InvalidParameterError(
                        f"URL parameter {key} must be a number; got {_clip(raw)!r}", param=key
                    ) from None
                kwargs[key] = check_real(value, key)
            else:
                kwargs[key] = raw
        return cls(**kwargs)

    def to_python_snippet(self, page_settings=None, study=None):
        """Python code that reproduces this view with ``geodp_core`` alone.

        ``study`` is the page's own computation as code using ``scenario`` (default: the Explorer's
        ``run_scenario``); ``page_settings`` are kept in the file for reloading in the app.
        """
        study = study or (
            "from geodp_core.explorer import run_scenario\n\n"
            "result = run_scenario(scenario)\n"
            "print('true mean (teaching view):', result.true_mean)\n"
            "for outcome in result.outcomes:\n"
            "    print(outcome.title, outcome.status, outcome.mean_distance)\n"
        )
        return (
            "# Reproduces a GeoDP Explorer view.\n"
            "# NEEDS the geodp_core package of GeoDP Explorer (Python 3.11): in the GeoDP Explorer folder run\n"
            "#     pip install .\n"
            "# (or ./run-app, which installs everything into the folder's .venv: then run this file with\n"
            "# .venv/bin/python), and then, from any folder: python geodp_reproduce.py\n"
            "# The seed makes the noise reproducible (teaching only): for a real release, draw the noise from fresh\n"
            "# secret randomness, e.g. mechanism.sample(mean, calibration, 1, numpy.random.default_rng()) -- anyone\n"
            "# who knows a seed can recompute and subtract the noise.\n"
            "try:\n"
            "    from geodp_core.scenario import Scenario\n"
            "except ModuleNotFoundError:\n"
            "    raise SystemExit(\"This file needs the geodp_core package: run 'pip install .' in the GeoDP Explorer \"\n"
            "                     \"folder (see the comment at the top of this file).\") from None\n\n"
            f"scenario, page_settings = Scenario.read_file('''{self.to_json(page_settings)}''')\n"
            + study
        )


# Named starting points: each paper's setup, heterogeneous data, real data. Plain field values only;
# every preset is a valid Scenario (tested). Applying one keeps the fields it does not name.
PRESETS = {
    "GDP paper (NeurIPS 2023): S², Riemannian Gaussian vs Laplace at μ-GDP": dict(
        manifold="sphere", dim=2, data="uniform_ball", spread=0.7, radius=0.7, n=100, notion="gdp", mu=1.0,
        mechanisms=("riemannian_gaussian", "riemannian_laplace", "tangent_gaussian"),
    ),
    "Heat-diffusion paper: S², Brownian motion vs Laplace at (α, ε)-RDP": dict(
        manifold="sphere", dim=2, data="vmf", spread=0.25, radius=0.7, n=100, notion="rdp", alpha=2.0, eps=1.0,
        mechanisms=("brownian_motion", "riemannian_laplace", "riemannian_gaussian"),
    ),
    "Heat-diffusion paper: H², Langevin vs Brownian motion vs EW Gaussian (RDP)": dict(
        manifold="hyperbolic", dim=2, data="uniform_ball", spread=1.0, radius=1.0, n=100, notion="rdp",
        alpha=2.0, eps=1.0, mechanisms=("langevin", "brownian_motion", "ew_gaussian", "riemannian_laplace"),
    ),
    "Exponential-wrapped paper: SPD(2) affine, EW vs Riemannian Laplace": dict(
        manifold="spd", dim=2, metric="affine", data="uniform_ball", spread=0.8, radius=1.0, n=100,
        notion="pure_dp", eps=1.0, mechanisms=("ew_laplace", "riemannian_laplace"),
    ),
    "Tangent Gaussian (Utpala): SPD(2) log-Euclidean, (ε, δ)": dict(
        manifold="spd", dim=2, metric="log_euclidean", data="wishart", spread=0.25, radius=1.0, n=100,
        notion="approx_dp", eps=0.5, delta=1e-5, mechanisms=("tangent_gaussian", "ew_gaussian", "riemannian_gaussian"),
    ),
    "Conformal paper: heterogeneous sphere data (vMF mixture)": dict(
        manifold="sphere", dim=2, data="vmf_mixture", spread=0.25, radius=0.7, n=500, notion="pure_dp", eps=1.0,
        mechanisms=("conformal", "riemannian_laplace"),
    ),
    "Real data: 50 world cities on S²": dict(
        manifold="sphere", dim=2, data="cities", radius=0.78, notion="approx_dp", eps=1.0, delta=1e-5,
        mechanisms=("riemannian_laplace", "riemannian_gaussian", "brownian_motion"),
    ),
    "Real data: brain connectomes, SPD(2) block": dict(
        manifold="spd", dim=2, metric="affine", data="connectomes", radius=1.0, notion="pure_dp", eps=1.0,
        mechanisms=("riemannian_laplace", "ew_laplace"),
    ),
    "Real data: handwritten-digit covariance descriptors, SPD(9), one digit": dict(
        manifold="spd", dim=9, metric="affine", data="digits_covariance", data_class=3, radius=8.0,
        notion="approx_dp", eps=1.0, delta=1e-5,
        mechanisms=("riemannian_gaussian", "tangent_gaussian", "riemannian_laplace"),
    ),
    "Real data: colour-patch covariance descriptors, SPD(11)": dict(
        manifold="spd", dim=11, metric="affine", data="image_patches_covariance", radius=8.0,
        notion="approx_dp", eps=1.0, delta=1e-5,
        mechanisms=("riemannian_gaussian", "tangent_gaussian", "riemannian_laplace"),
    ),
    "Real data: karate club in the Poincaré disk": dict(
        manifold="hyperbolic", dim=2, data="karate", radius=3.0, notion="approx_dp", eps=1.0, delta=1e-5,
        mechanisms=("riemannian_laplace", "ew_gaussian", "langevin"),
    ),
}


def preset_scenario(name, base=None):
    """The Scenario of a named preset (fields not named by the preset come from ``base`` or the defaults, except
    ``data_class``, which belongs to the preset's data)."""
    check_option(name, "preset", tuple(PRESETS))
    base = base or Scenario()
    return base.with_changes(**{"data_class": None, **PRESETS[name]})  # a class belongs to its dataset
