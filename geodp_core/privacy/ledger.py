r"""A privacy ledger: a total budget, recorded releases, a privacy filter and release cards.

A :class:`PrivacyLedger` holds a total guarantee (``PureDP``, ``ApproxDP``, ``GDP``, ``ZCDP`` or ``RDP``) and a
*privacy filter* chosen once, when the ledger is created: every release is charged its cost in the filter's
notion, and a release whose cost would take the running sum beyond the total is refused
(:class:`~geodp_core.exceptions.BudgetExceededError`), so nothing is recorded. Filters and the theorems that make
them valid for **fully adaptive** composition (the mechanisms and their budgets chosen from earlier outputs):

========  ====================================  ========================================================
filter    charge / condition                    theorem
========  ====================================  ========================================================
``pure``  :math:`\sum\varepsilon_i \le \varepsilon`      basic-composition filter, Rogers, Roth, Ullman & Vadhan 2016
``basic`` :math:`\sum\varepsilon_i \le \varepsilon,\ \sum\delta_i \le \delta`   same paper (approximate DP)
``gdp``   :math:`\sum\mu_i^2 \le \mu^2`              Smith & Thakurta 2022 (GDP filter)
``zcdp``  :math:`\sum\rho_i \le \rho`                Feldman & Zrnic 2021 (Rényi filter at every order)
``rdp``   :math:`\sum\varepsilon_i(\alpha) \le \varepsilon` at the total's α   Feldman & Zrnic 2021
========  ====================================  ========================================================

A filter on the tight privacy-loss distributions is not used: the natural filter for trade-off-function notions
(compose the releases' exact curves, stop when the total curve would be crossed) is not valid in general under
fully adaptive composition, so the ledger enforces the strongest notion for which a filter is proved (GDP for an
``ApproxDP`` total: :math:`\mu` = the largest μ whose profile meets the total), and shows the tight
composition of the releases recorded so far beside it as information. Details: ``docs/derivations/privacy_ledger.md``.

Storage: :meth:`PrivacyLedger.to_json` / :meth:`PrivacyLedger.from_json`, and :class:`SQLiteLedgerStore`
(append-only records, the check of the remaining budget and the record in one transaction).
"""

import datetime
import json
import math
import os
import sqlite3
from dataclasses import dataclass

import numpy as np

from geodp_core._validation import check_option
from geodp_core.exceptions import (
    BudgetExceededError,
    InvalidParameterError,
    LedgerStorageError,
    UnavailableError,
)
from geodp_core.privacy.calibration import gdp_budget, zcdp_budget
from geodp_core.privacy.guarantees import (
    GDP,
    RDP,
    ZCDP,
    ApproxDP,
    Guarantee,
    PureDP,
    guarantee_from_dict,
)
from geodp_core.privacy.pld import compose_releases, mechanism_title, release_account

__all__ = [
    "FILTERS",
    "LEDGER_FORMAT",
    "LedgerAmount",
    "PrivacyLedger",
    "ReleaseCard",
    "SQLiteLedgerStore",
    "default_ledger_path",
]

LEDGER_FORMAT = "geodp-privacy-ledger"
LEDGER_VERSION = 1
FILTERS = ("pure", "basic", "gdp", "zcdp", "rdp")
#: How each filter is named to a person.
FILTER_TITLES = {"pure": "ε-DP", "basic": "(ε, δ)-DP basic-composition", "gdp": "Gaussian-DP", "zcdp": "zCDP",
                 "rdp": "Rényi-DP"}

_FILTERS_FOR = {PureDP: ("pure",), ApproxDP: ("gdp", "basic", "zcdp", "pure"), GDP: ("gdp",), ZCDP: ("zcdp",),
                RDP: ("rdp",)}

_THEOREMS = {
    "pure": ("basic-composition privacy filter for ε-DP (Rogers, Roth, Ullman & Vadhan 2016, Privacy odometers and "
             "filters: pay-as-you-go composition, NeurIPS): halting before Σ εᵢ exceeds ε keeps the fully adaptive "
             "composition ε-DP"),
    "basic": ("basic-composition privacy filter for (ε, δ)-DP (Rogers, Roth, Ullman & Vadhan 2016): halting before "
              "Σ εᵢ > ε or Σ δᵢ > δ keeps the fully adaptive composition (ε, δ)-DP"),
    "gdp": ("Gaussian-DP filter (Smith & Thakurta 2022, Fully adaptive composition for Gaussian differential "
            "privacy, arXiv:2210.17520): while Σ μᵢ² ≤ μ² the fully adaptive composition is μ-GDP"),
    "zcdp": ("Rényi filter (Feldman & Zrnic 2021, Individual privacy accounting via a Rényi filter, NeurIPS) at "
             "every order α with budget ρα: while Σ ρᵢ ≤ ρ the fully adaptive composition is ρ-zCDP"),
    "rdp": ("Rényi filter at a fixed order (Feldman & Zrnic 2021): while Σ εᵢ(α) ≤ ε the fully adaptive "
            "composition is (α, ε)-RDP"),
}

def _now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _manifold_spec(manifold):
    """``{"name", "dim", "metric"}`` for ``get_manifold`` (``dim`` = k on Kendall, m on SPD)."""
    size = getattr(manifold, "k", None)
    if size is None:
        size = getattr(manifold, "m", None)
    if size is None:
        size = manifold.dim
    return {"name": manifold.name, "dim": int(size), "metric": manifold.metric}


def _rebuild(record):
    """``(Calibration, Manifold)`` of a stored record (for the tight composition and the card)."""
    from geodp_core.geometry import get_manifold
    from geodp_core.mechanisms.base import Calibration

    spec = record["manifold_spec"]
    manifold = get_manifold(spec["name"], spec["dim"], spec.get("metric"))
    cal = record["calibration"]
    calibration = Calibration(
        mechanism=cal["mechanism"], manifold=cal["manifold"], target=guarantee_from_dict(cal["target"]),
        achieved=guarantee_from_dict(cal["achieved"]), native=guarantee_from_dict(cal["native"]),
        sensitivity=float(cal["sensitivity"]), noise=dict(cal["noise"]), label=cal["label"],
        notes=tuple(cal.get("notes", ())))
    return calibration, manifold


@dataclass(frozen=True)
class LedgerAmount:
    """An amount of budget in a filter's notion (spent or remaining).

    Attributes
    ----------
    filter : str
        One of :data:`FILTERS`.
    values : dict
        ``{"eps": ...}`` (pure), ``{"eps", "delta"}`` (basic), ``{"mu": ...}`` (gdp), ``{"rho": ...}`` (zcdp),
        ``{"alpha", "eps"}`` (rdp).
    """

    filter: str
    values: dict

    @property
    def guarantee(self):
        """The amount as a guarantee value, ``None`` when it is zero (no guarantee object has a zero parameter)."""
        v = self.values
        try:
            if self.filter == "pure":
                return PureDP(v["eps"])
            if self.filter == "basic":
                return ApproxDP(v["eps"], v["delta"]) if v["delta"] > 0 else (PureDP(v["eps"]) if v["eps"] > 0
                                                                             else None)
            if self.filter == "gdp":
                return GDP(v["mu"])
            if self.filter == "zcdp":
                return ZCDP(v["rho"])
            return RDP(v["alpha"], v["eps"])
        except InvalidParameterError:
            return None

    def describe(self):
        """E.g. ``"μ = 0.5"``."""
        symbols = {"eps": "ε", "delta": "δ", "mu": "μ", "rho": "ρ", "alpha": "α"}
        return ", ".join(f"{symbols[k]} = {v:.6g}" for k, v in self.values.items())

    def to_dict(self):
        return {"filter": self.filter, **{k: float(v) for k, v in self.values.items()}}


@dataclass(frozen=True)
class ReleaseCard:
    """A one-page record of one release: public inputs, theorem, calibration, audit status, composition state."""

    fields: dict

    def to_dict(self):
        """JSON-ready dictionary."""
        return json.loads(json.dumps(self.fields, default=float))

    def to_markdown(self):
        """The card as Markdown text."""
        from geodp_core.mechanisms.base import noise_text  # mechanisms build on privacy: imported when used

        f = self.fields
        cal = f["calibration"]
        lines = [
            f"# Release card — {f['label']}",
            "",
            f"* **Release** {f['index'] + 1} of ledger *{f['ledger']}*, recorded {f['time']}",
            f"* **Mechanism** {mechanism_title(cal['mechanism'])} on {cal['manifold']} ({cal['label']})",
            "",
            "## Public inputs",
            f"* sensitivity Δ = {cal['sensitivity']:.6g}",
            f"* target {f['target']}",
            *[f"* {k} = {v}" for k, v in f["public_inputs"].items()],
            "",
            "## Guarantee",
            f"* achieved {f['achieved']} (native {f['native']})",
            f"* accounting: {f['accounting']}",
            f"* audit status: {f['audit']}",
            "",
            "## Calibration",
            f"* noise: {noise_text(cal['noise'], digits=6)}",
            *[f"* {note}" for note in cal["notes"]],
            "",
            "## Composition state after this release",
            f"* total budget {f['total']} — {FILTER_TITLES[f['filter']]} filter: {f['filter_theorem']}",
            f"* this release costs {f['cost']}",
            f"* spent {f['spent']}; remaining {f['remaining']}",
        ]
        if f.get("tight") is not None:
            lines.append(f"* tight PLD composition of the releases so far (information; valid for this sequence had "
                         f"it been fixed in advance): {f['tight']}")
        return "\n".join(lines) + "\n"

    def to_text(self):
        """Plain text (the Markdown without emphasis marks)."""
        return self.to_markdown().replace("**", "").replace("*", "").replace("# ", "")


class PrivacyLedger:
    r"""A total privacy budget, the releases charged to it, and a privacy filter refusing any overrun.

    Parameters
    ----------
    total : Guarantee
        The total budget: ``PureDP``, ``ApproxDP``, ``GDP``, ``ZCDP`` or ``RDP``.
    filter : str, optional
        The filter's notion (see the module docstring): ``PureDP`` → ``"pure"``; ``ApproxDP`` → ``"gdp"``
        (default), ``"basic"``, ``"zcdp"`` or ``"pure"``; ``GDP`` → ``"gdp"``; ``ZCDP`` → ``"zcdp"``;
        ``RDP`` → ``"rdp"``. Fixed for the ledger's life (a filter is valid only if chosen in advance).
    name : str, optional
        A name for the ledger (shown on the cards).

    Notes
    -----
    What the ledger certifies: the whole sequence of recorded releases, however adaptively chosen, meets
    ``total`` (through the filter's notion, e.g. Σμᵢ² ≤ μ² implies μ-GDP, implies the (ε, δ) total). ``spent()``
    is the filter's running charge, not a guarantee of the releases so far on its own: a ledger is a filter,
    not an odometer. A ledger returned by :meth:`SQLiteLedgerStore.create` or :meth:`SQLiteLedgerStore.load` is
    bound to the store: :meth:`record` checks and appends in one database transaction.
    """

    def __init__(self, total, filter=None, name="ledger", _records=None, _created=None):
        if not isinstance(total, Guarantee):
            raise InvalidParameterError(
                f"total must be a guarantee (PureDP, ApproxDP, GDP, ZCDP or RDP); got {type(total).__name__}",
                param="total")
        allowed = _FILTERS_FOR[type(total)]
        self.filter = allowed[0] if filter is None else check_option(filter, "filter", allowed)
        self.total = total
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise InvalidParameterError(f"name must be a non-empty string of at most 200 characters; got {name!r}",
                                        param="name")
        self.name = name
        self.created = _created or _now()
        self._store = None
        self._records = []
        self._capacity = self._compute_capacity()
        for record in _records or ():
            self._append_checked(record)

    # ------------------------------------------------------------------ filter arithmetic
    def _compute_capacity(self):
        t, f = self.total, self.filter
        if f == "pure":
            return {"eps": float(t.eps)}
        if f == "basic":
            return {"eps": float(t.eps), "delta": float(t.delta)}
        if f == "gdp":
            return {"mu": float(t.mu if isinstance(t, GDP) else gdp_budget(t).value)}
        if f == "zcdp":
            return {"rho": float(t.rho if isinstance(t, ZCDP) else zcdp_budget(t).value)}
        return {"alpha": float(t.alpha), "eps": float(t.eps)}

    @property
    def capacity(self):
        """The total in the filter's notion (e.g. ``{"mu": 0.87}`` for an (ε, δ) total under the GDP filter)."""
        return LedgerAmount(self.filter, dict(self._capacity))

    def cost(self, calibration, manifold):
        """The charge of a release in the filter's notion (a :class:`LedgerAmount`), without recording it.

        Raises
        ------
        UnavailableError
            When the release cannot be charged under this filter (no proved guarantee, or a notion that does not
            imply the filter's, e.g. a zCDP release under the GDP filter).
        """
        account = release_account(calibration, manifold)
        return LedgerAmount(self.filter, self._cost_values(account, calibration))

    def _cost_values(self, account, calibration):
        f = self.filter
        if f == "pure":
            if account.method != "pure_dp":
                raise UnavailableError(
                    f"the ledger's filter is ε-DP, but {mechanism_title(account.mechanism)} is not ε-DP here "
                    f"({account.theorem}); "
                    "use an (ε, δ), GDP or zCDP total", param="calibration")
            return {"eps": account.pure_eps}
        if f == "basic":
            if account.method == "pure_dp":
                return {"eps": account.pure_eps, "delta": 0.0}
            if isinstance(calibration.achieved, ApproxDP):
                return {"eps": float(calibration.achieved.eps), "delta": float(calibration.achieved.delta)}
            raise UnavailableError(
                f"the ledger's basic filter charges (εᵢ, δᵢ), but this calibration states "
                f"{calibration.achieved.describe()}; calibrate to an (ε, δ) target", param="calibration")
        if f == "gdp":
            if account.gdp_mu is None:
                raise UnavailableError(
                    f"the ledger's filter is μ-GDP, but {mechanism_title(account.mechanism)} is only ρ-zCDP "
                    f"({account.theorem}), "
                    "which implies no GDP; use a zCDP or RDP total", param="calibration")
            return {"mu": account.gdp_mu}
        if f == "zcdp":
            if account.method == "zcdp":
                return {"rho": account.zcdp_rho}
            if account.method == "pure_dp":
                return {"rho": 0.5 * account.pure_eps**2}
            return {"rho": 0.5 * account.gdp_mu**2}
        alpha = self._capacity["alpha"]
        return {"alpha": alpha, "eps": float(account.rdp(np.array([alpha]))[0])}

    def _sums(self, extra=None):
        costs = [r["cost"] for r in self._records] + ([extra] if extra is not None else [])
        f = self.filter
        if f in ("pure", "rdp"):
            out = {"eps": math.fsum(c["eps"] for c in costs)}
            return {"alpha": self._capacity["alpha"], **out} if f == "rdp" else out
        if f == "basic":
            return {"eps": math.fsum(c["eps"] for c in costs), "delta": math.fsum(c["delta"] for c in costs)}
        if f == "gdp":
            return {"mu": math.sqrt(math.fsum(c["mu"] ** 2 for c in costs))}
        return {"rho": math.fsum(c["rho"] for c in costs)}

    def _fits(self, sums):
        cap = self._capacity
        f = self.filter
        if f == "gdp":  # compare squares: Σμᵢ² ≤ μ²
            return sums["mu"] ** 2 <= cap["mu"] ** 2
        keys = ("eps", "delta") if f == "basic" else (("rho",) if f == "zcdp" else ("eps",))
        return all(sums[k] <= cap[k] for k in keys)

    def _gdp_sum_sq(self, extra=None):
        costs = [r["cost"] for r in self._records] + ([extra] if extra is not None else [])
        return math.fsum(c["mu"] ** 2 for c in costs)

    # ------------------------------------------------------------------ public API
    def would_exceed(self, calibration, manifold):
        """Whether recording this release would overrun the total (``True``: :meth:`record` would refuse it).

        Raises
        ------
        UnavailableError
            When the release cannot be charged under this filter at all (see :meth:`cost`).
        """
        cost = self._cost_values(release_account(calibration, manifold), calibration)
        return not self._fits_with(cost)

    def _fits_with(self, cost):
        if self.filter == "gdp":
            return self._gdp_sum_sq(cost) <= self._capacity["mu"] ** 2
        return self._fits(self._sums(cost))

    def record(self, calibration, manifold, label=None, audit=None):
        """Charge and record one release; refuse it (nothing recorded) when it would overrun the total.

        Parameters
        ----------
        calibration : Calibration
            The release's calibration (public: it depends on public inputs only).
        manifold : Manifold
            The manifold it was calibrated on.
        label : str, optional
            A short description (e.g. ``"2025-Q1 mean connectome"``).
        audit : str, optional
            Audit status to print on the card (default: "not audited").

        Returns
        -------
        ReleaseCard

        Raises
        ------
        BudgetExceededError
            When the release's cost would take the filter's sum beyond the total.
        UnavailableError
            When the release cannot be charged under this filter.
        """
        if self._store is not None:  # a stored ledger: check and append in one database transaction
            card = self._store.record(self.name, calibration, manifold, label=label, audit=audit)
            self._records = self._store.load(self.name)._records
            return card
        record = self._make_record(calibration, manifold, label, audit)
        self._append_checked(record)
        return self.release_card(len(self._records) - 1)

    def _make_record(self, calibration, manifold, label, audit):
        account = release_account(calibration, manifold)
        cost = self._cost_values(account, calibration)
        if label is not None and (not isinstance(label, str) or len(label) > 500):
            raise InvalidParameterError(f"label must be a string of at most 500 characters; got {label!r}",
                                        param="label")
        if audit is not None and (not isinstance(audit, str) or len(audit) > 2000):
            raise InvalidParameterError("audit must be a string of at most 2000 characters", param="audit")
        cal = calibration.to_dict()
        public = {k: v for k, v in calibration.options.items() if isinstance(v, (str, int, float, bool))}
        return {"time": _now(), "label": label or f"{mechanism_title(calibration.mechanism)} on {calibration.manifold}",
                "manifold_spec": _manifold_spec(manifold), "calibration": cal, "public_inputs": public,
                "account": account.to_dict(), "cost": cost, "audit": audit or "not audited"}

    def _append_checked(self, record):
        cost = {k: float(v) for k, v in record["cost"].items()}
        if not self._fits_with(cost):
            spent = self.spent().describe() if self._records else "nothing"
            raise BudgetExceededError(
                f"release refused: it costs {LedgerAmount(self.filter, cost).describe()} under the "
                f"{FILTER_TITLES[self.filter]} filter, {spent} is spent and the total is {self.capacity.describe()} "
                f"({self.total.describe()}); remaining {self.remaining().describe()}. Nothing was recorded",
                param="calibration")
        self._records.append(dict(record, cost=cost))

    def spent(self):
        """The filter's running charge (a :class:`LedgerAmount`; zero values when nothing is recorded)."""
        return LedgerAmount(self.filter, self._sums())

    def remaining(self):
        """The largest charge one more release may have (a :class:`LedgerAmount`)."""
        cap, f = self._capacity, self.filter
        if f == "gdp":
            return LedgerAmount(f, {"mu": math.sqrt(max(cap["mu"] ** 2 - self._gdp_sum_sq(), 0.0))})
        s = self._sums()
        out = {k: max(cap[k] - s[k], 0.0) for k in cap if k != "alpha"}
        return LedgerAmount(f, {"alpha": cap["alpha"], **out} if f == "rdp" else out)

    def per_release_budget(self, k):
        """The guarantee to calibrate each of ``k`` more equal releases to, so that all ``k`` fit (in the total's
        notion when it is the filter's, else the filter's: e.g. ``GDP(μ/√k)`` for an (ε, δ) total under GDP)."""
        from geodp_core._validation import check_int

        k = check_int(k, "k", low=1, high=1_000_000)
        rem = self.remaining().values
        shrink = 1.0 - 1e-12
        if self.filter == "gdp":
            return GDP(rem["mu"] / math.sqrt(k) * shrink)
        if self.filter == "zcdp":
            return ZCDP(rem["rho"] / k * shrink)
        if self.filter == "rdp":
            return RDP(rem["alpha"], rem["eps"] / k * shrink)
        if self.filter == "basic":
            return ApproxDP(rem["eps"] / k * shrink, rem["delta"] / k * shrink)
        return PureDP(rem["eps"] / k * shrink)

    @property
    def records(self):
        """The recorded releases (dictionaries, oldest first; copies)."""
        return [json.loads(json.dumps(r)) for r in self._records]

    def __len__(self):
        return len(self._records)

    def certified(self):
        """What the ledger certifies for everything recorded: the total, via the filter's theorem."""
        return f"{self.total.describe()} for the fully adaptive sequence of recorded releases: {_THEOREMS[self.filter]}"

    def composition(self, upto=None):
        """Tight composition (:func:`~geodp_core.privacy.pld.compose_releases`) of the first ``upto`` releases
        (default all), or ``None`` when nothing is recorded. Information only: see the class notes."""
        records = self._records[: len(self._records) if upto is None else upto]
        if not records:
            return None
        return compose_releases([_rebuild(r) for r in records])

    def _tight_text(self, index):
        delta = getattr(self.total, "delta", None)
        try:
            comp = self.composition(index + 1)
        except (InvalidParameterError, ValueError):
            return None
        if delta is None:
            return f"δ(ε = 1) = {comp.delta(1.0):.4g}"
        return f"ε = {comp.epsilon(delta):.6g} at δ = {delta:g} (basic composition: ε = {comp.basic_epsilon(delta):.6g})"

    def release_card(self, index, tight=True):
        """The :class:`ReleaseCard` of release ``index`` (0-based), with the composition state after it."""
        from geodp_core._validation import check_int

        if not self._records:
            raise InvalidParameterError("the ledger has no releases yet", param="index")
        index = check_int(index, "index", low=-len(self._records), high=len(self._records) - 1) % len(self._records)
        r = self._records[index]
        partial = PrivacyLedger(self.total, self.filter, self.name, _records=self._records[: index + 1],
                                _created=self.created)
        cal = r["calibration"]
        fields = {
            "ledger": self.name, "index": index, "time": r["time"], "label": r["label"], "calibration": cal,
            "target": guarantee_from_dict(cal["target"]).describe(),
            "achieved": guarantee_from_dict(cal["achieved"]).describe(),
            "native": guarantee_from_dict(cal["native"]).describe(),
            "public_inputs": r["public_inputs"], "accounting": r["account"]["theorem"], "audit": r["audit"],
            "total": self.total.describe(), "filter": self.filter, "filter_theorem": _THEOREMS[self.filter],
            "cost": LedgerAmount(self.filter, r["cost"]).describe(), "spent": partial.spent().describe(),
            "remaining": partial.remaining().describe(),
            "tight": self._tight_text(index) if tight else None,
        }
        return ReleaseCard(fields)

    # ------------------------------------------------------------------ JSON
    def to_dict(self):
        return {"format": LEDGER_FORMAT, "version": LEDGER_VERSION, "name": self.name, "created": self.created,
                "total": self.total.to_dict(), "filter": self.filter, "records": self.records}

    def to_json(self):
        """The ledger as JSON text (round trip: :meth:`from_json`)."""
        return json.dumps(self.to_dict(), indent=1, default=float)

    @classmethod
    def from_json(cls, text):
        """Rebuild a ledger from :meth:`to_json` text; every record is re-checked against the filter.

        Raises
        ------
        LedgerStorageError
            Text that is not a ledger of this format and version, or records that overrun the total.
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise LedgerStorageError(f"text is not a JSON privacy ledger: {exc}", param="text") from exc
        return cls._from_data(data, "text")

    @classmethod
    def _from_data(cls, data, where):
        if not isinstance(data, dict) or data.get("format") != LEDGER_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise LedgerStorageError(f"{where} is not a {LEDGER_FORMAT} document (its format is {found!r})",
                                     param="text")
        if data.get("version") != LEDGER_VERSION:
            raise LedgerStorageError(f"{where} has ledger format version {data.get('version')!r}; this version "
                                     f"reads version {LEDGER_VERSION}", param="text")
        try:
            total = guarantee_from_dict(data["total"])
            records = list(data["records"])
            ledger = cls(total, data["filter"], data["name"], _created=data.get("created"))
            for r in records:
                ledger._append_checked(r)
        except BudgetExceededError as exc:
            raise LedgerStorageError(f"{where}: its records overrun its total ({exc})", param="text") from exc
        except (KeyError, TypeError, InvalidParameterError) as exc:
            raise LedgerStorageError(f"{where} is not a valid privacy ledger: {exc}", param="text") from exc
        return ledger

    def __repr__(self):
        return (f"<PrivacyLedger {self.name!r}: {len(self)} releases, total {self.total.describe()}, "
                f"{self.filter} filter, spent {self.spent().describe()}>")


# ============================================================================================ SQLite storage
_SQLITE_HEADER = b"SQLite format 3\x00"
_SCHEMA = """
CREATE TABLE geodp_ledger_schema (app TEXT NOT NULL, version INTEGER NOT NULL);
CREATE TABLE ledgers (
    name TEXT PRIMARY KEY, created TEXT NOT NULL, total TEXT NOT NULL, filter TEXT NOT NULL);
CREATE TABLE releases (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ledger TEXT NOT NULL REFERENCES ledgers(name), record TEXT NOT NULL);
CREATE TRIGGER releases_no_update BEFORE UPDATE ON releases BEGIN SELECT RAISE(ABORT, 'releases are append-only'); END;
CREATE TRIGGER releases_no_delete BEFORE DELETE ON releases BEGIN SELECT RAISE(ABORT, 'releases are append-only'); END;
CREATE TRIGGER ledgers_no_update BEFORE UPDATE ON ledgers BEGIN SELECT RAISE(ABORT, 'ledgers are append-only'); END;
CREATE TRIGGER ledgers_no_delete BEFORE DELETE ON ledgers BEGIN SELECT RAISE(ABORT, 'ledgers are append-only'); END;
"""
_APP = LEDGER_FORMAT


def default_ledger_path():
    """A per-user default database path: ``$GEODP_LEDGER_PATH``, else ``~/.local/share/geodp/ledgers.sqlite3``."""
    env = os.environ.get("GEODP_LEDGER_PATH")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "geodp", "ledgers.sqlite3")


class SQLiteLedgerStore:
    """Ledgers in an embedded SQLite database (Python's ``sqlite3``), shared by every process that opens the file.

    Records are append-only (triggers refuse UPDATE and DELETE); :meth:`record` reads the ledger's records,
    checks the filter and appends the new record inside ONE ``BEGIN IMMEDIATE`` transaction, so concurrent writers
    (threads or processes) are serialised by SQLite's write lock: none can overrun the total or lose a record.
    A file that is not SQLite, or an SQLite database of another application or schema version, raises
    :class:`~geodp_core.exceptions.LedgerStorageError` and is never written to.

    Parameters
    ----------
    path : str or os.PathLike
        Database file (created, with its folder, if absent).
    timeout : float
        Seconds a writer waits for the lock (default 60).
    """

    def __init__(self, path, timeout=60.0):
        self.path = os.fspath(path)
        self.timeout = float(timeout)
        self._validate_or_create()

    # ------------------------------------------------------------------ connection and schema
    def _connect(self):
        conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _validate_or_create(self):
        exists = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if exists:
            with open(self.path, "rb") as handle:
                header = handle.read(len(_SQLITE_HEADER))
            if header != _SQLITE_HEADER:
                raise LedgerStorageError(
                    f"{self.path} is not an SQLite database (corrupt or another kind of file); it was left "
                    "untouched — choose another ledger path", param="path")
        else:
            folder = os.path.dirname(os.path.abspath(self.path))
            os.makedirs(folder, exist_ok=True)
        try:
            conn = self._connect()
            try:
                conn.execute("BEGIN IMMEDIATE")
                tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if not tables:
                    for statement in _SCHEMA.strip().split(";\n"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute("INSERT INTO geodp_ledger_schema VALUES (?, ?)", (_APP, LEDGER_VERSION))
                    conn.execute("COMMIT")
                    return
                conn.execute("ROLLBACK")
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            raise LedgerStorageError(
                f"{self.path} could not be read as an SQLite database ({exc}); it was left untouched — choose "
                "another ledger path", param="path") from exc
        self._check_schema(tables)

    def _check_schema(self, tables):
        if "geodp_ledger_schema" not in tables:
            raise LedgerStorageError(
                f"{self.path} is an SQLite database of another application (tables: "
                f"{', '.join(sorted(tables))}); it was left untouched — choose another ledger path", param="path")
        try:
            conn = self._connect()
            try:
                rows = conn.execute("SELECT app, version FROM geodp_ledger_schema").fetchall()
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            raise LedgerStorageError(f"{self.path}: the ledger schema cannot be read ({exc})", param="path") from exc
        if rows != [(_APP, LEDGER_VERSION)]:
            raise LedgerStorageError(
                f"{self.path} has ledger schema {rows!r}; this version reads [({_APP!r}, {LEDGER_VERSION})]; it was "
                "left untouched", param="path")

    def _read(self, conn, name):
        row = conn.execute("SELECT created, total, filter FROM ledgers WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise InvalidParameterError(f"no ledger named {name!r} in {self.path}; existing: "
                                        f"{', '.join(self._names(conn)) or 'none'}", param="name")
        rows = conn.execute("SELECT record FROM releases WHERE ledger = ? ORDER BY id", (name,)).fetchall()
        try:
            records = [json.loads(r[0]) for r in rows]
            return PrivacyLedger._from_data(
                {"format": LEDGER_FORMAT, "version": LEDGER_VERSION, "name": name, "created": row[0],
                 "total": json.loads(row[1]), "filter": row[2], "records": records}, f"ledger {name!r} in {self.path}")
        except (ValueError, TypeError) as exc:
            if isinstance(exc, LedgerStorageError):
                raise
            raise LedgerStorageError(f"ledger {name!r} in {self.path} is corrupt: {exc}", param="path") from exc

    @staticmethod
    def _names(conn):
        return [r[0] for r in conn.execute("SELECT name FROM ledgers ORDER BY created, name")]

    def _run(self, fn, write=False):
        try:
            conn = self._connect()
        except sqlite3.DatabaseError as exc:
            raise LedgerStorageError(f"{self.path} cannot be opened: {exc}", param="path") from exc
        try:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                out = fn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return out
        except sqlite3.DatabaseError as exc:
            raise LedgerStorageError(f"{self.path}: database error ({exc})", param="path") from exc
        finally:
            conn.close()

    # ------------------------------------------------------------------ public API
    def names(self):
        """Names of the stored ledgers."""
        return self._run(self._names)

    def create(self, name, total, filter=None):
        """Create an empty ledger ``name`` with ``total`` (and ``filter``); returns it (refuses an existing name)."""
        ledger = PrivacyLedger(total, filter, name)

        def insert(conn):
            if conn.execute("SELECT 1 FROM ledgers WHERE name = ?", (name,)).fetchone():
                raise InvalidParameterError(f"a ledger named {name!r} already exists in {self.path}", param="name")
            conn.execute("INSERT INTO ledgers VALUES (?, ?, ?, ?)",
                         (name, ledger.created, json.dumps(total.to_dict()), ledger.filter))
        self._run(insert, write=True)
        ledger._store = self
        return ledger

    def load(self, name):
        """The ledger ``name`` with every record, bound to this store: its :meth:`PrivacyLedger.record` writes here
        (check and append in one transaction) and refreshes it with every record committed so far."""
        ledger = self._run(lambda conn: self._read(conn, name))
        ledger._store = self
        return ledger

    def record(self, name, calibration, manifold, label=None, audit=None):
        """Check the remaining budget of ledger ``name`` and append the release, in one transaction.

        Returns
        -------
        ReleaseCard

        Raises
        ------
        BudgetExceededError
            When the release would overrun the total (nothing is written).
        """
        def transaction(conn):
            ledger = self._read(conn, name)  # under the write lock: every committed record is seen
            record = ledger._make_record(calibration, manifold, label, audit)
            ledger._append_checked(record)
            conn.execute("INSERT INTO releases (ledger, record) VALUES (?, ?)",
                         (name, json.dumps(ledger._records[-1], default=float)))
            return ledger
        ledger = self._run(transaction, write=True)
        return ledger.release_card(len(ledger) - 1)

    def __repr__(self):
        return f"<SQLiteLedgerStore {self.path}>"

