"""A frozen, validated description of one explorer scenario.

A :class:`Scenario` holds only plain values (strings, numbers, tuples), so it
hashes for caching, round-trips through URL query parameters and JSON, and can
be turned into a Python snippet that reproduces the run with ``geodp_core``.
"""

import json
from dataclasses import asdict, dataclass, fields, replace

from geodp_core._validation import check_int, check_option, check_real
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, SPD_METRICS, get_manifold
from geodp_core.mechanisms.registry import MECHANISM_NAMES
from geodp_core.privacy import GDP, RDP, ZCDP, ApproxDP, PureDP

__all__ = ["Scenario", "DATA_KINDS", "NOTION_NAMES", "PRESETS", "data_kinds_for", "preset_scenario"]

NOTION_NAMES = ("pure_dp", "approx_dp", "gdp", "rdp", "zcdp")

# data kind -> manifolds it exists on
DATA_KINDS = {
    "vmf": ("sphere",),
    "vmf_mixture": ("sphere",),
    "uniform_ball": ("sphere", "hyperbolic", "spd", "euclidean"),
    "wrapped_normal": ("sphere", "hyperbolic", "spd", "euclidean"),
    "wrapped_normal_mixture": ("hyperbolic",),
    "wishart": ("spd",),
    "cities": ("sphere",),
    "connectomes": ("spd",),
    "karate": ("hyperbolic",),
    "upload": ("sphere", "hyperbolic", "spd", "euclidean"),
}


def data_kinds_for(manifold_name):
    """Data kinds available on a manifold, in display order."""
    return tuple(k for k, spaces in DATA_KINDS.items() if manifold_name in spaces)


def _tuple_of_floats(value, name):
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    try:
        return tuple(check_real(float(v), name) for v in value)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(f"{name} must be a comma-separated list of numbers; got {value!r}", param=name) from exc


@dataclass(frozen=True)
class Scenario:
    """One scenario of the explorer (all fields plain values).

    Attributes
    ----------
    manifold, dim, metric
        Arguments of :func:`~geodp_core.geometry.get_manifold` (``metric`` only for SPD).
    data : str
        Data kind (see :data:`DATA_KINDS`).
    spread : float
        Data spread in radians of geodesic distance: vMF std (``kappa = 1/std^2``),
        wrapped-normal std, or the radius of a uniform data ball.
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
    """

    manifold: str = "sphere"
    dim: int = 2
    metric: str = ""
    data: str = "vmf"
    spread: float = 0.25
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

    def __post_init__(self):
        set_ = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731
        set_("manifold", check_option(self.manifold, "manifold", MANIFOLD_NAMES))
        set_("dim", check_int(self.dim, "dim", low=1, high=10 if self.manifold != "spd" else 4))
        metric = self.metric or ("affine" if self.manifold == "spd" else "")
        if self.manifold == "spd":
            check_option(metric, "metric", tuple(SPD_METRICS))
        elif metric:
            raise InvalidParameterError(f"metric applies only to SPD matrices; got {metric!r}", param="metric")
        set_("metric", metric)
        check_option(self.data, "data", data_kinds_for(self.manifold))
        if self.data in ("cities", "karate") and self.dim != 2:
            raise InvalidParameterError(
                f"data {self.data!r} lives in dimension 2 ({'S²' if self.data == 'cities' else 'H²'}); got dim={self.dim}",
                param="dim",
            )
        set_("spread", check_real(self.spread, "spread", low=0.0, high=3.0))
        set_("n", check_int(self.n, "n", low=2, high=100_000))
        set_("radius", self.build_manifold().check_radius(self.radius, "radius"))
        offset = _tuple_of_floats(self.center_offset, "center_offset")
        if offset and len(offset) != self.build_manifold().dim:
            raise InvalidParameterError(
                f"center_offset must have {self.build_manifold().dim} coordinates; got {len(offset)}", param="center_offset"
            )
        set_("center_offset", offset)
        mechs = self.mechanisms
        if isinstance(mechs, str):
            mechs = tuple(m for m in mechs.split(",") if m)
        mechs = tuple(check_option(m, "mechanisms", MECHANISM_NAMES) for m in mechs)
        if not mechs:
            raise InvalidParameterError("mechanisms must name at least one mechanism", param="mechanisms")
        set_("mechanisms", tuple(dict.fromkeys(mechs)))
        check_option(self.notion, "notion", NOTION_NAMES)
        set_("eps", check_real(self.eps, "eps", low=0.0, high=1000.0))
        set_("delta", check_real(self.delta, "delta", low=0.0, high=1.0))
        set_("mu", check_real(self.mu, "mu", low=0.0, high=1000.0))
        set_("alpha", check_real(self.alpha, "alpha", low=1.0, high=1e6))
        set_("rho", check_real(self.rho, "rho", low=0.0, high=1e6))
        set_("seed", check_int(self.seed, "seed", low=0, high=2**32 - 1))
        set_("n_releases", check_int(self.n_releases, "n_releases", low=1, high=20_000))

    # ---------------------------------------------------------------- builders
    def build_manifold(self):
        """The :class:`~geodp_core.geometry.Manifold` of this scenario."""
        return get_manifold(self.manifold, self.dim, self.metric or None)

    @property
    def target(self):
        """The common target guarantee."""
        return {
            "pure_dp": lambda: PureDP(self.eps),
            "approx_dp": lambda: ApproxDP(self.eps, self.delta),
            "gdp": lambda: GDP(self.mu),
            "rdp": lambda: RDP(self.alpha, self.eps),
            "zcdp": lambda: ZCDP(self.rho),
        }[self.notion]()

    def with_changes(self, **changes):
        """A validated copy with some fields changed."""
        return replace(self, **changes)

    # --------------------------------------------------------------- round trip
    def to_dict(self):
        """Plain dictionary (tuples become lists)."""
        out = asdict(self)
        out["center_offset"] = list(self.center_offset)
        out["mechanisms"] = list(self.mechanisms)
        return out

    @classmethod
    def from_dict(cls, data):
        """Build from a dictionary, rejecting unknown keys with a clear message."""
        if not isinstance(data, dict):
            raise InvalidParameterError(f"scenario must be a JSON object; got {type(data).__name__}", param="scenario")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise InvalidParameterError(
                f"scenario has unknown field(s) {unknown}; valid fields are {sorted(names)}", param=unknown[0]
            )
        kwargs = dict(data)
        for key in ("center_offset", "mechanisms"):
            if isinstance(kwargs.get(key), list):
                kwargs[key] = tuple(kwargs[key])
        return cls(**kwargs)

    def to_json(self):
        """JSON text (stable key order)."""
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text):
        """Parse JSON text produced by :meth:`to_json` (or edited by a user)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise InvalidParameterError(f"scenario file is not valid JSON: {exc}", param="scenario") from exc
        return cls.from_dict(data)

    def to_query_params(self):
        """Flat ``{key: str}`` for URL query parameters (defaults omitted)."""
        default = Scenario()
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value == getattr(default, f.name):
                continue
            out[f.name] = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
        return out

    @classmethod
    def from_query_params(cls, params):
        """Parse URL query parameters (strings); unknown keys are ignored, bad values raise."""
        types = {f.name: f.type for f in fields(cls)}
        kwargs = {}
        for key, raw in dict(params).items():
            if key not in types:
                continue
            raw = raw[0] if isinstance(raw, list) else raw
            kind = types[key]
            try:
                if kind in (int, "int"):
                    kwargs[key] = int(raw)
                elif kind in (float, "float"):
                    kwargs[key] = float(raw)
                else:
                    kwargs[key] = raw
            except ValueError as exc:
                raise InvalidParameterError(f"URL parameter {key} must be a number; got {raw!r}", param=key) from exc
        return cls(**kwargs)

    def to_python_snippet(self):
        """Python code that reproduces this scenario's releases with ``geodp_core`` alone."""
        return (
            "# Reproduces a GeoDP Explorer view. The seed makes the noise reproducible (teaching only): for a real\n"
            "# release, draw the noise from fresh secret randomness, e.g. mechanism.sample(mean, calibration, 1,\n"
            "# numpy.random.default_rng()) -- anyone who knows a seed can recompute and subtract the noise.\n"
            "import json\n"
            "from geodp_core.scenario import Scenario\n"
            "from geodp_core.explorer import run_scenario\n\n"
            f"scenario = Scenario.from_json('''{self.to_json()}''')\n"
            "result = run_scenario(scenario)\n"
            "print('true mean (teaching view):', result.true_mean)\n"
            "for outcome in result.outcomes:\n"
            "    print(outcome.name, outcome.status, outcome.mean_distance)\n"
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
    "Real data: karate club in the Poincaré disk": dict(
        manifold="hyperbolic", dim=2, data="karate", radius=3.0, notion="approx_dp", eps=1.0, delta=1e-5,
        mechanisms=("riemannian_laplace", "ew_gaussian", "langevin"),
    ),
}


def preset_scenario(name, base=None):
    """The Scenario of a named preset (fields not named by the preset come from ``base`` or the defaults)."""
    check_option(name, "preset", tuple(PRESETS))
    base = base or Scenario()
    return base.with_changes(**PRESETS[name])
