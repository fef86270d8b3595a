"""geodp_core — differential privacy on Riemannian manifolds.

Pure computation (no Streamlit): geometry adapters, privacy accounting,
summaries and sensitivities, data generators, mechanisms, experiments.
"""

from geodp_core.exceptions import (
    ConvergenceError,
    GeoDPError,
    InvalidParameterError,
    OffManifoldError,
    OutsideBallError,
    UnavailableError,
)

#: The package version, written here only (pyproject.toml reads it).
__version__ = "0.3.0"

__all__ = [
    "ConvergenceError",
    "GeoDPError",
    "InvalidParameterError",
    "OffManifoldError",
    "OutsideBallError",
    "UnavailableError",
]
