r"""One record per reproduction id and ONE rule that turns a claim's clauses into a verdict.

A paper's claim is a list of :class:`Clause`\ s. Each clause quotes one part of the claim and carries a machine
test on the run's headline numbers (``Reproduction.numbers``): ``test(numbers)`` returns ``True`` (the clause
holds), ``False`` (it fails) or ``None`` (the run's grid does not contain what the clause needs). A clause that
rests on sampler cells may also name them: ``rests_on(numbers)`` returns the cells whose sampler FAILED its
public convergence check (an empty sequence when every cell passed); such a clause is *inconclusive*, whatever
its test says.

**The rule** (:func:`judge`). With ``h`` clauses that hold, ``f`` that fail and ``u`` whose outcome is unknown
(inconclusive or not measured); clauses without a machine test (``test=None``, a stated reason) are reported and
do not enter the verdict:

* ``u = 0``: "reproduced" if ``f = 0 < h``, "differs" if ``h = 0 < f``, "partly reproduced" if both;
* ``u > 0``: "partly reproduced" if ``h > 0`` and ``f > 0`` (no completion of the unknown clauses changes it),
  otherwise "inconclusive" (the unknown clauses could still turn the verdict either way).

The verdict is therefore a function of the numbers alone: the same numbers always give the same verdict. A
*quantitative illustration* (a figure with no number in the paper) gets the verdict "illustration" and its
checks are reported the same way. A ``--quick`` run is labelled a smoke run (sizes for CI, not evidence).
"""

import math
from dataclasses import dataclass, field
from typing import Callable

from geodp_core.exceptions import InvalidParameterError

__all__ = ["OUTCOMES", "VERDICTS", "SIZES", "Clause", "ClauseOutcome", "ReproductionSpec", "REPRODUCTIONS",
           "reproduction", "judge", "verdict_text", "evaluate_claim"]

#: Outcomes of a clause.
OUTCOMES = ("holds", "fails", "inconclusive", "not measured", "not tested")
#: Verdicts of a reproduction.
VERDICTS = ("reproduced", "partly reproduced", "differs", "inconclusive", "illustration")
#: Sizes of a run: the everyday size, the CI size (a smoke run) and the papers' repetition counts.
SIZES = ("default", "quick", "full")

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
    """

    text: str
    test: Callable = None
    rests_on: Callable = None
    note: str = ""

    def evaluate(self, numbers):
        """The :class:`ClauseOutcome` of this clause on ``numbers``."""
        if self.test is None:
            return ClauseOutcome(self.text, "not tested", self.note)
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
    counted = [o.outcome for o in outcomes if o.outcome != "not tested"]
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

    def panel_arguments(self, size="default", panel=None):
        """The runner's keyword arguments at ``size`` with ``panel`` (a dict, or ``None``) merged over them."""
        if size not in self.sizes:
            raise InvalidParameterError(f"size must be one of {tuple(self.sizes)}; got {size!r}", param="size")
        return {**self.sizes[size], **(panel or {})}


#: Every reproduction, by id, in the order the paper modules declare them.
REPRODUCTIONS = {}


def reproduction(id, paper, figure, space, claim, description, default=None, quick=None, full=None,
                 kind="reproduction", panels=()):
    """Decorator: declare the reproduction ``id`` run by the decorated function (stack one per id).

    ``panels`` lists the paper's own grid (dicts of runner keyword arguments, see :class:`ReproductionSpec`).
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
                                             panels=tuple(dict(panel) for panel in panels))
        return runner

    return register
