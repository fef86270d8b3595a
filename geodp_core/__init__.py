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

__version__ = "0.1.0"

__all__ = [
    "ConvergenceError",
    "GeoDPError",
    "InvalidParameterError",
    "OffManifoldError",
    "OutsideBallError",
    "UnavailableError",
]
