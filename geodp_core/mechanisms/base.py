"""The mechanism interface shared by every family (DESIGN.md "Core abstractions").

A mechanism is a noise law plus a privacy map. ``calibrate`` turns ONE target
guarantee and a sensitivity into noise parameters, the guarantee actually
achieved (in the target's notion, never weaker) and an honesty label
(SPEC §8); ``sample`` draws exactly ``size`` releases, vectorised.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from geodp_core._validation import check_int, check_real, check_rng
from geodp_core.exceptions import InvalidParameterError, UnavailableError
from geodp_core.geometry.base import Manifold
from geodp_core.privacy import Guarantee

__all__ = [
    "LABEL_EXACT",
    "LABEL_APPROXIMATE",
    "LABEL_NO_GUARANTEE",
    "LABEL_UNAVAILABLE",
    "HONESTY_LABELS",
    "Availability",
    "Calibration",
    "Mechanism",
    "Release",
]

LABEL_EXACT = "exact"
LABEL_APPROXIMATE = "approximate sampler"
LABEL_NO_GUARANTEE = "no formal guarantee"
LABEL_UNAVAILABLE = "unavailable"
HONESTY_LABELS = (LABEL_EXACT, LABEL_APPROXIMATE, LABEL_NO_GUARANTEE, LABEL_UNAVAILABLE)


@dataclass(frozen=True)
class Availability:
    """Whether a mechanism runs on a manifold, and why not. Unpacks as ``ok, reason``."""

    ok: bool
    reason: str = ""

    def __iter__(self):
        return iter((self.ok, self.reason))

    def __bool__(self):
        return self.ok


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    if isinstance(value, Guarantee):
        return value.to_dict()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Calibration:
    """The result of calibrating a mechanism to a target guarantee.

    Attributes
    ----------
    mechanism : str
        Registry name of the mechanism.
    manifold : str
        Label of the manifold it was calibrated on.
    target : Guarantee
        The requested guarantee.
    achieved : Guarantee
        The guarantee actually achieved, in the target's notion (never weaker).
    native : Guarantee
        The mechanism's guarantee in its own notion (e.g. ``PureDP`` for Laplace).
    sensitivity : float
        Global sensitivity in Riemannian distance used for calibration.
    noise : dict
        Named noise parameters (e.g. ``{"sigma": 0.12}``).
    label : str
        Honesty label, one of :data:`HONESTY_LABELS`.
    notes : tuple of str
        Which theorem or conversion was used, sampler approximations, caveats.
    options : dict
        Public inputs and mechanism state needed by ``sample`` (footpoint, anchor, mesh, ...).
    """

    mechanism: str
    manifold: str
    target: Guarantee
    achieved: Guarantee
    native: Guarantee
    sensitivity: float
    noise: dict
    label: str
    notes: tuple = ()
    options: dict = field(default_factory=dict)

    def describe(self):
        """One-line summary, e.g. ``riemannian_laplace on S^2: ε=1-DP (exact), sigma=0.1``."""
        params = ", ".join(f"{k}={v:.4g}" for k, v in self.noise.items() if np.isscalar(v))
        return f"{self.mechanism} on {self.manifold}: {self.achieved.describe()} ({self.label}); {params}"

    def to_dict(self):
        """JSON-ready dictionary (arrays become lists)."""
        return {
            "mechanism": self.mechanism,
            "manifold": self.manifold,
            "target": self.target.to_dict(),
            "achieved": self.achieved.to_dict(),
            "native": self.native.to_dict(),
            "sensitivity": self.sensitivity,
            "noise": _plain(self.noise),
            "label": self.label,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class Release:
    """A private release as a page shows it: the value, its guarantee and how it was made."""

    value: Any
    calibration: Calibration
    seed: Any = None

    @property
    def guarantee(self):
        return self.calibration.achieved

    @property
    def label(self):
        return self.calibration.label


class Mechanism(ABC):
    """Base class of the mechanisms.

    Subclasses set the class attributes, implement :meth:`_calibrate` and
    :meth:`_sample`, and override :meth:`availability` when they do not run on
    every manifold.

    Parameters
    ----------
    manifold : Manifold
        The space the releases live in.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    native_notion: ClassVar[str] = ""
    source: ClassVar[str] = ""

    def __init__(self, manifold):
        if not isinstance(manifold, Manifold):
            raise InvalidParameterError(
                f"manifold must be a geodp_core Manifold (see get_manifold); got {type(manifold).__name__}",
                param="manifold",
            )
        self.manifold = manifold

    # ------------------------------------------------------------ availability
    @classmethod
    def availability(cls, manifold):
        """Return :class:`Availability` of this mechanism on ``manifold`` (default: available)."""
        return Availability(True, "")

    def available(self, manifold=None):
        """``(ok, reason)`` for ``manifold`` (default: the bound manifold)."""
        return type(self).availability(self.manifold if manifold is None else manifold)

    def require_available(self):
        """Raise :class:`UnavailableError` with the reason when unavailable here."""
        ok, reason = self.available()
        if not ok:
            raise UnavailableError(f"{self.name} is unavailable on {self.manifold.label}: {reason}", param="mechanism")

    # ------------------------------------------------------------- calibration
    def calibrate(self, target, sensitivity, **options):
        """Calibrate to ``target`` for a summary of global sensitivity ``sensitivity``.

        Returns
        -------
        Calibration

        Raises
        ------
        UnavailableError
            When the mechanism cannot meet the target here (with the reason).
        """
        self.require_available()
        if not isinstance(target, Guarantee):
            raise InvalidParameterError(
                f"target must be a guarantee (PureDP, ApproxDP, GDP, RDP or ZCDP); got {type(target).__name__}",
                param="target",
            )
        sensitivity = check_real(sensitivity, "sensitivity", low=0.0)
        return self._calibrate(target, sensitivity, **options)

    @abstractmethod
    def _calibrate(self, target, sensitivity, **options):
        """Mechanism-specific calibration (arguments already validated)."""

    def _make_calibration(self, target, achieved, native, sensitivity, noise, label, notes=(), options=None):
        return Calibration(
            mechanism=self.name,
            manifold=self.manifold.label,
            target=target,
            achieved=achieved,
            native=native,
            sensitivity=float(sensitivity),
            noise=dict(noise),
            label=label,
            notes=tuple(notes),
            options=dict(options or {}),
        )

    # ---------------------------------------------------------------- sampling
    def sample(self, center, calibration, size, rng):
        """Draw exactly ``size`` releases around ``center`` (the private summary).

        Returns
        -------
        ndarray of shape ``(size, *manifold.point_shape)``
        """
        center = self.manifold.validate_points(center, "center", single=True)
        self._check_calibration(calibration)
        size = check_int(size, "size", low=1, high=10_000_000)
        rng = check_rng(rng)
        out = np.asarray(self._sample(center, calibration, size, rng), dtype=float)
        expected = (size,) + tuple(self.manifold.point_shape)
        if out.shape != expected:  # a sampler never returns fewer samples silently
            raise RuntimeError(f"{self.name} sampler returned shape {out.shape}, expected {expected}")
        on_manifold = self.manifold.belongs(out, atol=1e-5)
        if not on_manifold.all():  # never hand out a release that is not a point (overflow, lost precision)
            raise UnavailableError(
                f"{self.name} drew {int((~on_manifold).sum())} of {size} releases that are not valid points of "
                f"{self.manifold.label} in double precision (noise {calibration.noise} too large here); "
                "choose a larger privacy budget or another mechanism",
                param="target",
            )
        return out

    @abstractmethod
    def _sample(self, center, calibration, size, rng):
        """Mechanism-specific sampler (arguments already validated)."""

    def _check_calibration(self, calibration):
        if not isinstance(calibration, Calibration):
            raise InvalidParameterError(
                f"calibration must come from {self.name}.calibrate(...); got {type(calibration).__name__}",
                param="calibration",
            )
        if calibration.mechanism != self.name or calibration.manifold != self.manifold.label:
            raise InvalidParameterError(
                f"calibration is for {calibration.mechanism} on {calibration.manifold}, "
                f"not {self.name} on {self.manifold.label}",
                param="calibration",
            )

    def release(self, center, calibration, rng, seed=None):
        """One private release wrapped in a :class:`Release` record."""
        value = self.sample(center, calibration, 1, rng)[0]
        return Release(value=value, calibration=calibration, seed=seed)

    # ------------------------------------------------------------ optional API
    def log_density(self, center, points, calibration):
        """Unnormalised log density of the release law w.r.t. Riemannian volume (where known)."""
        raise NotImplementedError(f"{self.name} has no closed-form density")

    def utility_bound(self, calibration, center=None):
        """Bound on :math:`E\\,\\mathrm{dist}(\\tilde\\eta, \\eta)` from the source paper, or ``None``."""
        return None

    def __repr__(self):
        return f"<{type(self).__name__} on {self.manifold.label}>"
