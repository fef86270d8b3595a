"""Exception hierarchy of geodp_core.

Every error caused by a bad argument is a ``ValueError`` subclass whose message
names the parameter, the offending value and the valid range, so that callers
(and the app) can show it next to the control that produced it.
"""


class GeoDPError(Exception):
    """Base class of every exception raised by geodp_core."""


class InvalidParameterError(GeoDPError, ValueError):
    """An argument is of the wrong type, NaN/inf, or outside its valid range.

    Attributes
    ----------
    param : str or None
        Name of the offending parameter (used by the app to place the message).
    """

    def __init__(self, message, param=None):
        super().__init__(message)
        self.param = param


class OffManifoldError(InvalidParameterError):
    """Points are not on the manifold (beyond the stated tolerance)."""


class OutsideBallError(InvalidParameterError):
    """Data lie outside the stated public ball ``B(m0, r)``."""


class DataFileError(InvalidParameterError):
    """A data file given by the user cannot be read in the expected published format.

    The message names the file, what was found and what was expected (missing array, wrong shape or dtype,
    truncated or corrupt file, a file larger than the stated byte limit, a pickle referring to a disallowed
    class). ``param`` is the argument that named the file (``"path"`` by default).
    """

    def __init__(self, message, param="path"):
        super().__init__(message, param=param)


class UnavailableError(InvalidParameterError):
    """A mechanism is unavailable for this manifold, target or parameters.

    Examples: exponential-wrapped noise on the sphere (not Hadamard), Brownian
    motion below its privacy floor, Laplace on ``H^d`` that is not normalisable.
    """


class ConvergenceError(GeoDPError, RuntimeError):
    """An iterative solver (Fréchet mean, root finder) did not converge."""


class CutLocusError(InvalidParameterError):
    """A point lies on (or numerically at) the cut locus of the base point.

    There the Riemannian logarithm is undefined (e.g. antipodal points on the
    sphere: every great circle through the base point reaches them).
    """


class NonUniqueMeanError(InvalidParameterError):
    """The Fréchet (p-)mean of the data is not unique (or the solver stopped at a non-minimiser).

    Example: two antipodal points on the sphere, whose Fréchet function has a
    whole great circle of minimisers; the data are not inside a ball of radius
    below the uniqueness radius ``r*``.
    """


class NumericalOverflowError(InvalidParameterError):
    """The arguments are valid mathematically, but the result is not representable in double precision.

    The message names the argument responsible and the range where the result
    can be computed (e.g. a hyperbolic tangent vector so long that
    ``cosh`` overflows).
    """


class BudgetExceededError(InvalidParameterError):
    """A release would overrun a privacy ledger's total budget (the privacy filter refuses it).

    Nothing is recorded; the message states the release's cost, the budget spent and the total.
    """


class LedgerStorageError(InvalidParameterError):
    """A ledger file is corrupt, belongs to another application or has an unknown schema version.

    The file is never modified or overwritten; the message names the path and what was found.
    """
