r"""One record per reproduction id and ONE rule that turns a claim's clauses into a verdict.

A paper's claim is a list of :class:`Clause`\ s. Each clause quotes one part of the claim and carries a machine
test on the run's headline numbers (``Reproduction.numbers``): ``test(numbers)`` returns ``True`` (the clause
holds), ``False`` (it fails) or ``None`` (the run's grid does not contain what the clause needs). A clause that
rests on sampler cells may also name them: ``rests_on(numbers)`` returns the cells whose sampler FAILED its
public convergence check (an empty sequence when every cell passed); such a clause is *inconclusive*, whatever
its test says. A clause about one setting of the paper's grid (one anchor scenario, small n) names it in ``when``
(``{"scenario": (2,)}``, ``{"n": slice(None, 50)}``: allowed values, or ``low <= value < high``); on a panel
outside that setting it is *not applicable* and does not enter the verdict.

**The rule** (:func:`judge`). With ``h`` clauses that hold, ``f`` that fail and ``u`` whose outcome is unknown
(inconclusive or not measured); clauses without a machine test (``test=None``, a stated reason) and clauses not
applicable to the panel are reported and do not enter the verdict:

* ``u = 0``: "reproduced" if ``f = 0 < h``, "differs" if ``h = 0 < f``, "partly reproduced" if both;
* ``u > 0``: "partly reproduced" if ``h > 0`` and ``f > 0`` (no completion of the unknown clauses changes it),
  otherwise "inconclusive" (the unknown clauses could still turn the verdict either way).

The verdict is therefore a function of the numbers alone: the same numbers always give the same verdict. A
*quantitative illustration* (a figure with no number in the paper) gets the verdict "illustration" and its
checks are reported the same way. A ``--quick`` run is labelled a smoke run (sizes for CI, not evidence).
"""

import hashlib
import inspect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Callable

from geodp_core.exceptions import InvalidParameterError

__all__ = ["OUTCOMES", "VERDICTS", "SIZES", "Clause", "ClauseOutcome", "ReproductionSpec", "REPRODUCTIONS",
           "reproduction", "judge", "verdict_text", "evaluate_claim", "RealData", "combine_panels", "ALL_PANELS",
           "RegisteredIds", "PaperCodes", "paper_code", "SIZE_WORDS"]

#: Outcomes of a clause.
OUTCOMES = ("holds", "fails", "inconclusive", "not measured", "not tested", "not applicable")
#: Outcomes reported but never counted by :func:`judge`.
_UNCOUNTED = ("not tested", "not applicable")
#: Verdicts of a reproduction.
VERDICTS = ("reproduced", "partly reproduced", "differs", "inconclusive", "illustration")
#: Sizes of a run: the everyday size, the CI size (a smoke run) and the papers' repetition counts.
SIZES = ("default", "quick", "full")
#: The sizes in words, for people (the app's size control).
SIZE_WORDS = {"default": "everyday", "full": "the papers' counts", "quick": "smoke run (tiny sizes, not evidence)"}

_LEADS = {"reproduced": "Reproduced", "partly reproduced": "Partly reproduced", "differs": "Differs",
          "inconclusive": "Inconclusive", "illustration": "Quantitative illustration"}


@dataclass(frozen=True)
class Clause:
    """One part of a paper's claim, quoted, with a machine test on the run's numbers.

    Attributes
    ----------
    text : str
        The clause (a quotation or the paper's figure read as a statement), and how it is tested.
    test : callable or None
        ``test(numbers) -> bool | None``; ``None`` = no machine test (``note`` says why).
    rests_on : callable, optional
        ``rests_on(numbers) -> sequence of str``: the cells this clause uses whose sampler failed its public
        convergence check (empty when all passed).
    note : str
        Why a clause has no machine test.
    when : dict, optional
        The setting the clause is about, as conditions on ``numbers``: ``key -> tuple`` of allowed values, or
        ``key -> slice(low, high)`` for ``low <= value < high`` (``None`` = unbounded). Outside it the clause is
        *not applicable*.
    """

    text: str
    test: Callable = None
    rests_on: Callable = None
    note: str = ""
    when: tuple = ()

    def __post_init__(self):
        when = self.when.items() if isinstance(self.when, dict) else self.when
        conditions = []
        for key, allowed in when:
            if not isinstance(allowed, (tuple, slice)):
                raise InvalidParameterError(f"when[{key!r}] must be a tuple of values or a slice; got {allowed!r}",
                                            param="when")
            conditions.append((key, allowed))
        object.__setattr__(self, "when", tuple(conditions))

    def example_setting(self):
        """Numbers (a dict) that put a run inside the clause's setting (``{}`` when the clause has none)."""
        return {key: (allowed[0] if isinstance(allowed, tuple) else
                      allowed.start if allowed.start is not None else allowed.stop - 1)
                for key, allowed in self.when}

    def _outside(self, numbers):
        """``None`` if ``numbers`` lie in the clause's setting, else the reason (KeyError if a key is missing)."""
        for key, allowed in self.when:
            value = numbers[key]
            if isinstance(allowed, tuple):
                inside = value in allowed
                about = f"{key} = {' or '.join(f'{v:g}' if isinstance(v, float) else str(v) for v in allowed)}"
            else:
                inside = ((allowed.start is None or value >= allowed.start)
                          and (allowed.stop is None or value < allowed.stop))
                about = " and ".join(([f"{key} ≥ {allowed.start}"] if allowed.start is not None else [])
                                     + ([f"{key} < {allowed.stop}"] if allowed.stop is not None else []))
            if not inside:
                return f"the clause is about {about}; this run has {key} = {value}"
        return None

    def evaluate(self, numbers):
        """The :class:`ClauseOutcome` of this clause on ``numbers``."""
        if self.test is None:
            return ClauseOutcome(self.text, "not tested", self.note)
        try:
            outside = self._outside(numbers)
        except KeyError as exc:
            return ClauseOutcome(self.text, "not measured", f"this run has no {exc.args[0]!r}")
        if outside:
            return ClauseOutcome(self.text, "not applicable", outside)
        failed = tuple(self.rests_on(numbers)) if self.rests_on is not None else ()
        if failed:
            return ClauseOutcome(self.text, "inconclusive",
                                 "rests on cells whose sampler failed its public convergence check: "
                                 + ", ".join(failed))
        try:
            value = self.test(numbers)
        except KeyError as exc:
            return ClauseOutcome(self.text, "not measured", f"this run has no {exc.args[0]!r}")
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return ClauseOutcome(self.text, "not measured", "this run's grid does not contain what the clause needs")
        return ClauseOutcome(self.text, "holds" if bool(value) else "fails", "")


@dataclass(frozen=True)
class ClauseOutcome:
    """A clause's text, its outcome (one of :data:`OUTCOMES`) and why (for the unknown outcomes)."""

    text: str
    outcome: str
    detail: str = ""

    def describe(self):
        return f"[{self.outcome}] {self.text}" + (f" ({self.detail})" if self.detail else "")


def judge(outcomes, kind="reproduction"):
    """The verdict of a list of :class:`ClauseOutcome` by the rule of the module docstring."""
    if kind == "illustration":
        return "illustration"
    counted = [o.outcome for o in outcomes if o.outcome not in _UNCOUNTED]
    holds, fails = counted.count("holds"), counted.count("fails")
    unknown = len(counted) - holds - fails
    if holds and fails:
        return "partly reproduced"
    if unknown or not counted:
        return "inconclusive"
    return "reproduced" if holds else "differs"


def evaluate_claim(claim, numbers, kind="reproduction"):
    """``(status, outcomes)``: every clause of ``claim`` evaluated on ``numbers`` and the verdict."""
    outcomes = tuple(clause.evaluate(numbers) for clause in claim)
    return judge(outcomes, kind), outcomes


def combine_panels(panels, kind="reproduction"):
    """``(status, outcomes)`` of a whole figure from its panels' clause outcomes, by the same rule.

    ``panels`` is a sequence of ``(panel name, outcomes)``, the outcomes of the same claim in the same order. Per
    clause: *fails* if it fails on a panel; else *inconclusive* / *not measured* if it is so on a panel; else
    *holds* if it holds on a panel; *not applicable* (or *not tested*) when it is so everywhere. The detail names
    the panels behind the outcome.
    """
    panels = list(panels)
    if not panels:
        return judge((), kind), ()
    combined = []
    for i, first in enumerate(panels[0][1]):
        by = {}
        for name, outcomes in panels:
            by.setdefault(outcomes[i].outcome, []).append(name)
        for outcome in ("fails", "inconclusive", "not measured", "holds", "not tested", "not applicable"):
            if outcome in by:
                names = by[outcome]
                applicable = sum(len(v) for k, v in by.items() if k not in _UNCOUNTED)
                detail = ("" if outcome in _UNCOUNTED else
                          f"{outcome} on {len(names)}/{applicable} panels where it applies: {', '.join(names)}")
                combined.append(ClauseOutcome(first.text, outcome, detail or first.detail))
                break
    outcomes = tuple(combined)
    return judge(outcomes, kind), outcomes


def verdict_text(status, outcomes, details, size="custom"):
    """One paragraph: the verdict, each clause's outcome, then the run's numbers in words (``details``)."""
    lead = _LEADS[status]
    if size == "quick":
        lead = f"Smoke run (--quick sizes for CI, not evidence) — {lead.lower()}"
    parts = "; ".join(o.describe() for o in outcomes)
    text = f"{lead}. Clauses: {parts}."
    unknown = [o for o in outcomes if o.outcome == "inconclusive"]
    if unknown:
        text += (f" {len(unknown)} clause(s) rest on cells whose sampler failed its public convergence check: "
                 "no verdict is drawn from them.")
    return text + (f" Numbers: {details}" if details else "")


@dataclass(frozen=True)
class ReproductionSpec:
    """Everything about one reproduction id, declared once beside its runner.

    Attributes
    ----------
    id : str
        The command-line id.
    paper, figure, space : str
        The source paper (short), the figure or table reproduced, the space(s).
    claim : tuple of Clause
        The paper's claim, clause by clause (each with its machine test).
    runner : callable
        ``runner(**sizes[size], seed=seed) -> Reproduction``.
    description : str
        One line for ``--list``.
    sizes : dict
        Keyword arguments of the runner per size (``default``, ``quick``, ``full``).
    kind : {"reproduction", "illustration"}
    panels : tuple of dict
        The paper's own grid of panels for this id (e.g. ``dict(n=50, anchor="boundary")``): each panel is a dict
        of runner keyword arguments merged over the size's. ``--all-panels`` runs every one of them; an empty
        tuple means the id is one panel.
    paper_setting : str
        The paper's setting of the figure (its grid of n, d, ε, scenarios and repetitions), in words.
    scenarios : dict
        The paper's named scenarios for this id (e.g. ``{"1": dict(anchor="center"), "2": dict(anchor="random")}``):
        the command line's ``--scenario S`` merges ``scenarios[S]`` over the arguments. Empty: no scenario.
    n_range : tuple or None
        ``(low, high)``: the records ``n`` the runner accepts (the command line's ``--n``); ``None`` when the runner
        has no ``n`` (or does not declare its range).
    real_data : callable or None
        ``real_data(folder) -> RealData or None``: the runner's keyword arguments that use the paper's real files
        found in ``folder`` (``None`` when they are not there). ``None``: the id has no real dataset.
    """

    id: str
    paper: str
    figure: str
    space: str
    claim: tuple
    runner: Callable
    description: str
    sizes: dict = field(default_factory=dict)
    kind: str = "reproduction"
    panels: tuple = ()
    paper_setting: str = ""
    scenarios: dict = field(default_factory=dict)
    n_range: tuple = None
    real_data: Callable = None

    def panel_arguments(self, size="default", panel=None):
        """The runner's keyword arguments at ``size`` with ``panel`` (a dict, or ``None``) merged over them."""
        if size not in self.sizes:
            raise InvalidParameterError(f"size must be one of {tuple(self.sizes)}; got {size!r}", param="size")
        return {**self.sizes[size], **(panel or {})}

    def overrides(self, n=None, scenario=None):
        """The runner arguments of ``--n n`` and ``--scenario scenario`` (a dict; empty when both are ``None``).

        Raises
        ------
        InvalidParameterError
            When this id has no ``n`` / no scenario, or the value is outside the valid ones (the message names the
            command-line flag, the value and the valid values).
        """
        extra = {}
        if n is not None:
            if self.n_range is None:
                raise InvalidParameterError(f"--n {n}: {self.id} does not take a number of records n (the ids that "
                                            f"take --n: {', '.join(_ids_with('n_range')) or 'none'})", param="n")
            low, high = self.n_range
            if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
                raise InvalidParameterError(f"--n must be an integer in [{low}, {high}] for {self.id}; got {n!r}",
                                            param="n")
            extra["n"] = n
        if scenario is not None:
            if not self.scenarios:
                raise InvalidParameterError(f"--scenario {scenario}: {self.id} has no scenarios (the ids that take "
                                            f"--scenario: {', '.join(_ids_with('scenarios')) or 'none'})",
                                            param="scenario")
            if str(scenario) not in self.scenarios:
                raise InvalidParameterError(f"--scenario must be one of {', '.join(self.scenarios)} for {self.id}; "
                                            f"got {scenario!r}", param="scenario")
            extra.update(self.scenarios[str(scenario)])
        return extra

    def _scenario_of(self, panel):
        """``(label, rest)``: the paper's scenario whose arguments ``panel`` holds (``None`` if none) and the
        panel's other arguments."""
        panel = dict(panel or {})
        for label, arguments in self.scenarios.items():
            if arguments and all(panel.get(k, _MISSING) == v for k, v in arguments.items()):
                return label, {k: v for k, v in panel.items() if k not in arguments}
        return None, panel

    def panel_slug(self, panel):
        """A file-name-safe name of ``panel`` (``n50-scenario2``): a scenario's arguments become ``scenario<S>``,
        every other argument ``<key><value>``; names longer than 60 characters end in a short hash."""
        scenario, panel = self._scenario_of(panel)
        parts = [] if scenario is None else [f"scenario{scenario}"]
        for key, value in panel.items():
            text = "_".join(map(_plain, value)) if isinstance(value, (tuple, list)) else _plain(value)
            parts.append(re.sub(r"[^A-Za-z0-9]", "", key) + text)
        slug = re.sub(r"[^A-Za-z0-9._-]", "", "-".join(parts)) or "panel"
        if len(slug) > 60:
            slug = slug[:51] + "-" + hashlib.sha1(slug.encode()).hexdigest()[:8]
        return slug

    def panel_label(self, panel):
        """``panel`` in words (``Scenario 2, n = 50``): a scenario's arguments become "Scenario S", every other
        argument "word = value" (``label`` is the class)."""
        scenario, panel = self._scenario_of(panel)
        parts = [] if scenario is None else [f"Scenario {scenario}"]
        for key, value in panel.items():
            text = ", ".join(map(_plain, value)) if isinstance(value, (tuple, list)) else _plain(value)
            parts.append(f"{argument_words(key)} = {text}")
        return ", ".join(parts) or "the figure"

    def panel_codes(self):
        """``{code: panel}``: the panels by their :meth:`panel_slug` (empty when the id is one panel)."""
        return {self.panel_slug(panel): panel for panel in self.panels}

    def panel_for(self, code):
        """The panels that the code ``code`` runs: every panel for :data:`ALL_PANELS` (``(None,)`` when the id is
        one panel), else the one panel named ``code``.

        Raises
        ------
        InvalidParameterError
            When ``code`` names no panel of this id (the message lists the valid codes).
        """
        codes = self.panel_codes()
        if code == ALL_PANELS:
            return tuple(codes.values()) or (None,)
        if code not in codes:
            raise InvalidParameterError(f"panel must be one of {(ALL_PANELS, *codes)} for {self.id}; got {code!r}",
                                        param="panel")
        return (codes[code],)

    def takes(self, keyword):
        """Whether the runner has a keyword argument ``keyword``."""
        return keyword in inspect.signature(self.runner).parameters


_MISSING = object()
#: The code of "every panel of the figure".
ALL_PANELS = "all"
#: Words for the runners' arguments (a panel's label, the summary's "our setting"); others: the name in words.
ARGUMENT_WORDS = {"eps_values": "ε", "n_reps": "releases per cell", "eps": "ε", "mu_values": "μ", "compare": "vs",
                  "n_fits": "fits", "n_footpoints": "footpoints", "chain_length": "chain length",
                  "n_calibrations": "sanitisations", "space": "space", "label": "class", "n": "n", "dim": "d",
                  "eps_p_values": "ε_p", "eps_total": "total ε", "eps_p": "ε_p", "eps_v": "ε_v", "n_seeds": "seeds",
                  "n_samples": "samples", "sigma_multiples": "σ/Δ", "sigmas": "σ", "n_paths": "paths",
                  "n_steps": "steps", "t_max": "T", "tau": "τ", "deltas": "δ", "n_pairs": "pairs", "n_values": "n",
                  "dims": "d", "n_timing": "timed releases", "mcmc_steps": "MCMC steps"}


def argument_words(key):
    """A runner argument in words (:data:`ARGUMENT_WORDS`, else its name with spaces)."""
    return ARGUMENT_WORDS.get(key, key.replace("_", " "))


def paper_code(paper):
    """A short URL-safe code of a paper's title: its first three words before any parenthesis, lower case,
    ASCII, joined by hyphens (``gaussian-differential-privacy``)."""
    import unicodedata

    head = unicodedata.normalize("NFKD", paper.split("(")[0]).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", head)[:3]) or "paper"


class _Live(Sequence):
    """A sequence computed from the registry each time it is read (an id registered later is in it at once)."""

    def _values(self):
        raise NotImplementedError

    def __getitem__(self, index):
        return self._values()[index]

    def __len__(self):
        return len(self._values())

    def __contains__(self, value):
        return isinstance(value, str) and value in self._values()

    def __repr__(self):
        return repr(self._values())

    def __eq__(self, other):
        return isinstance(other, Sequence) and not isinstance(other, str) and self._values() == tuple(other)

    def __hash__(self):
        return hash(self._values())


class RegisteredIds(_Live):
    """The registered reproduction ids, in registration order, as a live sequence."""

    def _values(self):
        return tuple(REPRODUCTIONS)


class PaperCodes(_Live):
    """The codes (:func:`paper_code`) of the papers of the registered ids, in registration order, live."""

    def _values(self):
        return tuple(dict.fromkeys(paper_code(spec.paper) for spec in REPRODUCTIONS.values()))


def _plain(value):
    return f"{value:g}" if isinstance(value, float) else str(value)


def _ids_with(attribute):
    return [key for key, spec in REPRODUCTIONS.items() if getattr(spec, attribute)]


@dataclass(frozen=True)
class RealData:
    """The runner arguments that use a paper's real files, and which files (said in every output)."""

    arguments: dict
    source: str


#: Every reproduction, by id, in the order the paper modules declare them.
REPRODUCTIONS = {}


def reproduction(id, paper, figure, space, claim, description, default=None, quick=None, full=None,
                 kind="reproduction", panels=(), paper_setting="", scenarios=None, n_range=None, real_data=None):
    """Decorator: declare the reproduction ``id`` run by the decorated function (stack one per id).

    ``panels`` lists the paper's own grid (dicts of runner keyword arguments); ``paper_setting``, ``scenarios``,
    ``n_range`` and ``real_data`` are described in :class:`ReproductionSpec`.
    """
    if kind not in ("reproduction", "illustration"):
        raise InvalidParameterError(f"kind must be 'reproduction' or 'illustration'; got {kind!r}", param="kind")

    def register(runner):
        if id in REPRODUCTIONS:
            raise InvalidParameterError(f"reproduction id {id!r} is declared twice", param="id")
        REPRODUCTIONS[id] = ReproductionSpec(id=id, paper=paper, figure=figure, space=space, claim=tuple(claim),
                                             runner=runner, description=description,
                                             sizes=dict(default=dict(default or {}), quick=dict(quick or {}),
                                                        full=dict(full or {})), kind=kind,
                                             panels=tuple(dict(panel) for panel in panels),
                                             paper_setting=paper_setting, scenarios=dict(scenarios or {}),
                                             n_range=None if n_range is None else tuple(n_range),
                                             real_data=real_data)
        return runner

    return register
