r"""Parsing and validation of user-uploaded point files (docs/specification.md §2.6, §9).

A browser upload arrives as bytes. :func:`parse_points` reads a CSV or NPY file,
interprets its columns for the chosen manifold and returns validated points, or
raises :class:`InvalidUploadError` (an ``InvalidParameterError``/``ValueError``)
whose message names the file, and the line/row and column at fault.

Accepted layouts
----------------
========================  ==========================================================
manifold                  columns (CSV) / array shape (NPY)
========================  ==========================================================
:math:`S^2`               CSV header ``lat,lon`` (degrees; also ``latitude``,
                          ``longitude``, ``lng``), or 3 columns ``x,y,z`` (unit norm
                          within 1e-6); NPY ``(n, 3)``
:math:`S^d`               ``d+1`` ambient columns, unit norm within 1e-6
:math:`H^d`               ``d`` Poincaré-ball columns (:math:`|b| < 1`) or ``d+1``
                          hyperboloid columns (:math:`x_0 > 0`, :math:`\langle x,x\rangle_L = -1`)
SPD(m)                    ``m*m`` columns, row-major; NPY ``(n, m, m)`` or ``(n, m*m)``;
                          symmetric within 1e-8 (relative) and positive definite
:math:`\mathbb{R}^d`      ``d`` columns
========================  ==========================================================

Nothing is projected silently: off-manifold points are errors unless
``normalise=True`` (sphere, hyperboloid), which projects them and reports how far
they were. Points inside the tolerance are cleaned up (renormalised, symmetrised).
"""

import csv
import io
import os
from typing import NamedTuple

import numpy as np

from geodp_core._validation import check_option
from geodp_core.data._common import check_manifold
from geodp_core.exceptions import InvalidParameterError
from geodp_core.geometry import MANIFOLD_NAMES, manifold_class

__all__ = ["parse_points", "InvalidUploadError", "MAX_UPLOAD_BYTES", "UNIT_NORM_TOL", "SYMMETRY_RTOL"]

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
"""Largest accepted upload (20 MB)."""

UNIT_NORM_TOL = 1e-6
"""Tolerance on :math:`|\\,\\|x\\| - 1|` (sphere) and :math:`|\\langle x,x\\rangle_L + 1|/(1+x_0^2)` (hyperboloid)."""

SYMMETRY_RTOL = 1e-8
"""Relative tolerance on :math:`\\max|A - A^T| / \\max|A|` for SPD uploads."""

_LAT_NAMES = ("lat", "latitude")
_LON_NAMES = ("lon", "lng", "long", "longitude")
_NPY_MAGIC = b"\x93NUMPY"


class InvalidUploadError(InvalidParameterError):
    """An uploaded file cannot be turned into valid points (the message says where and why)."""

    def __init__(self, message):
        super().__init__(message, param="file")


class _Table:
    """Numeric table from a file: ``values`` (n, c), column names, and a label per row."""

    def __init__(self, values, columns, row_labels, header):
        self.values = values
        self.columns = columns
        self.row_labels = row_labels
        self.header = header


# ----------------------------------------------------------------------- reading
def _as_bytes(content, label):
    if hasattr(content, "getvalue") and not isinstance(content, (bytes, bytearray, memoryview, str)):
        content = content.getvalue()  # e.g. streamlit's UploadedFile, io.BytesIO
    if isinstance(content, str):
        content = content.encode("utf-8")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise InvalidUploadError(f"{label}: content must be the file's bytes; got {type(content).__name__}")
    content = bytes(content)
    if len(content) > MAX_UPLOAD_BYTES:
        raise InvalidUploadError(
            f"{label}: file is {len(content) / 2**20:.1f} MB; the limit is {MAX_UPLOAD_BYTES // 2**20} MB"
        )
    if not content.strip():
        raise InvalidUploadError(f"{label}: file is empty")
    return content


def _detect_format(content, fmt, filename):
    if fmt is not None:
        return check_option(fmt, "fmt", ("csv", "npy"))
    ext = os.path.splitext(filename)[1].lower() if filename else ""
    if ext == ".npy":
        return "npy"
    if ext in (".csv", ".txt", ".tsv"):
        return "csv"
    return "npy" if content.startswith(_NPY_MAGIC) else "csv"


def _parse_float(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def _read_csv(content, label):
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidUploadError(
            f"{label}: not a UTF-8 text (CSV) file (undecodable byte at position {exc.start})"
        ) from None
    lines = [(i, line) for i, line in enumerate(text.splitlines(), start=1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise InvalidUploadError(f"{label}: file is empty (no data lines)")
    first = lines[0][1]
    delimiter = next((d for d in (",", ";", "\t") if d in first), None)

    def split(line):
        cells = line.split() if delimiter is None else next(csv.reader([line], delimiter=delimiter))
        return [cell.strip() for cell in cells]

    rows = [(lineno, split(line)) for lineno, line in lines]
    header = None
    if any(_parse_float(cell) is None for cell in rows[0][1]):
        header = [cell.strip().strip('"').strip("'").lower() for cell in rows[0][1]]
        rows = rows[1:]
    n_cols = len(header) if header is not None else len(rows[0][1]) if rows else 0
    columns = header if header is not None else [f"column {j + 1}" for j in range(n_cols)]
    values = np.empty((len(rows), n_cols))
    row_labels = []
    for r, (lineno, cells) in enumerate(rows):
        if len(cells) != n_cols:
            raise InvalidUploadError(
                f"{label}: line {lineno} has {len(cells)} columns; expected {n_cols} "
                f"({'as in the header' if header is not None else 'as in the first line'})"
            )
        for j, cell in enumerate(cells):
            value = _parse_float(cell)
            if value is None:
                raise InvalidUploadError(f"{label}: line {lineno}, column '{columns[j]}': {cell!r} is not a number")
            if not np.isfinite(value):
                raise InvalidUploadError(
                    f"{label}: line {lineno}, column '{columns[j]}': {cell!r} is not a finite number"
                )
            values[r, j] = value
        row_labels.append(f"line {lineno}")
    return _Table(values, columns, row_labels, header)


def _read_npy(content, label):
    try:
        array = np.load(io.BytesIO(content), allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise InvalidUploadError(
                f"{label}: the NPY file holds Python objects (pickled data), which are refused for safety; "
                "save a plain numeric array"
            ) from None
        raise InvalidUploadError(f"{label}: not a valid .npy file ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - truncated/corrupt files raise various errors, each reported by name
        raise InvalidUploadError(f"{label}: not a valid .npy file ({type(exc).__name__}: {exc})") from None
    if not isinstance(array, np.ndarray):
        raise InvalidUploadError(f"{label}: expected a single .npy array, not an archive of several arrays")
    if array.dtype.kind not in "iuf":
        raise InvalidUploadError(
            f"{label}: the array must hold real numbers (integer or float); got dtype {array.dtype}"
        )
    array = array.astype(float)
    if array.size == 0:
        raise InvalidUploadError(f"{label}: the array is empty (shape {array.shape})")
    if array.ndim == 0:
        raise InvalidUploadError(f"{label}: the array is a single number; expected one point per row")
    bad = ~np.isfinite(array)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InvalidUploadError(
            f"{label}: row {idx[0]} (0-based) contains {float(array[idx])!r} at index {idx}; only finite numbers are allowed"
        )
    return array


def _npy_table(array, label, n_cols, point_shape=None):
    """Reshape an NPY array to ``(n, n_cols)`` (accepting ``(n, *point_shape)`` too)."""
    if point_shape is not None and array.shape[1:] == tuple(point_shape):
        values = array.reshape(array.shape[0], -1)
    elif array.ndim == 2 and array.shape[1] == n_cols:
        values = array
    elif array.ndim == 1 and n_cols == 1:
        values = array[:, None]
    else:
        expected = f"(n, {n_cols})" + (f" or (n, {', '.join(map(str, point_shape))})" if point_shape else "")
        raise InvalidUploadError(f"{label}: array has shape {array.shape}; expected {expected}")
    labels = [f"row {i} (0-based)" for i in range(values.shape[0])]
    return _Table(values, [f"column {j + 1}" for j in range(values.shape[1])], labels, None)


# ------------------------------------------------------------------- interpreting
def _column_count_error(label, table, expected):
    return InvalidUploadError(
        f"{label}: {len(table.columns)} columns ({', '.join(table.columns)}); expected {expected}"
    )


def _sphere_points(table, manifold, label, normalise, info):
    d = manifold.dim
    n_cols = len(table.columns)
    values = table.values
    if d == 2 and n_cols == 2:
        if table.header is None:
            raise InvalidUploadError(
                f"{label}: 2 columns without a header; name them 'lat,lon' (degrees) so the order is unambiguous"
            )
        lat_idx = [j for j, c in enumerate(table.columns) if c in _LAT_NAMES]
        lon_idx = [j for j, c in enumerate(table.columns) if c in _LON_NAMES]
        if len(lat_idx) != 1 or len(lon_idx) != 1:
            raise InvalidUploadError(
                f"{label}: columns {table.columns} are not latitude/longitude; use the header 'lat,lon' "
                "(or 'latitude,longitude', in degrees) or give x,y,z"
            )
        lat, lon = values[:, lat_idx[0]], values[:, lon_idx[0]]
        bad = np.flatnonzero(np.abs(lat) > 90.0)
        if bad.size:
            raise InvalidUploadError(
                f"{label}: {table.row_labels[bad[0]]}, column '{table.columns[lat_idx[0]]}': latitude "
                f"{lat[bad[0]]:g} is outside [-90, 90] degrees"
            )
        info["coordinates"] = "latitude/longitude (degrees)"
        return manifold.from_lat_lon(lat, lon)
    if n_cols != d + 1:
        expected = f"{d + 1} ambient coordinates" + (" (x,y,z) or 2 (lat,lon)" if d == 2 else "")
        raise _column_count_error(label, table, expected)
    if table.header is not None and d == 2 and sorted(table.columns) == ["x", "y", "z"]:
        values = values[:, [table.columns.index(c) for c in ("x", "y", "z")]]
    norms = np.linalg.norm(values, axis=1)
    deviation = np.abs(norms - 1.0)
    info["coordinates"] = f"ambient coordinates in R^{d + 1}"
    if normalise:
        zero = np.flatnonzero(norms == 0.0)
        if zero.size:
            raise InvalidUploadError(f"{label}: {table.row_labels[zero[0]]} is the zero vector; cannot project it")
        info["max_projection_distance"] = float(deviation.max())
        info["n_projected"] = int((deviation > UNIT_NORM_TOL).sum())
        info["notes"].append(
            f"{info['n_projected']} points were projected onto the sphere; the largest distance moved was "
            f"{deviation.max():.3g}"
        )
    else:
        bad = np.flatnonzero(deviation > UNIT_NORM_TOL)
        if bad.size:
            raise InvalidUploadError(
                f"{label}: {table.row_labels[bad[0]]} has norm {norms[bad[0]]:.9g}; points on S^{d} must have unit "
                f"norm within {UNIT_NORM_TOL:g} ({bad.size} rows fail). Pass normalise=True to project them."
            )
    return values / norms[:, None]


def _hyperbolic_points(table, manifold, label, normalise, info):
    d = manifold.dim
    n_cols = len(table.columns)
    values = table.values
    if n_cols == d:
        norms = np.linalg.norm(values, axis=1)
        bad = np.flatnonzero(~(norms < 1.0))
        if bad.size:
            raise InvalidUploadError(
                f"{label}: {table.row_labels[bad[0]]} has Poincaré-ball norm {norms[bad[0]]:.9g}; "
                "Poincaré coordinates must satisfy |b| < 1"
            )
        info["coordinates"] = f"Poincaré ball coordinates (B^{d})"
        points = manifold.from_poincare(values)
        bad = np.flatnonzero(~np.isfinite(points).all(axis=1))
        if bad.size:
            raise InvalidUploadError(
                f"{label}: {table.row_labels[bad[0]]} is too close to the boundary |b| = 1 to be represented"
            )
        return points
    if n_cols != d + 1:
        raise _column_count_error(label, table, f"{d} (Poincaré ball) or {d + 1} (hyperboloid x0..x{d})")
    info["coordinates"] = f"hyperboloid coordinates in R^{d + 1}"
    x0 = values[:, 0]
    lorentz = -x0**2 + np.sum(values[:, 1:] ** 2, axis=1)
    deviation = np.abs(lorentz + 1.0) / (1.0 + x0**2)
    wrong_sheet = np.flatnonzero(x0 <= 0)
    if wrong_sheet.size:
        raise InvalidUploadError(
            f"{label}: {table.row_labels[wrong_sheet[0]]} has x0 = {x0[wrong_sheet[0]]:g}; hyperboloid points "
            "need x0 > 0 (first column)"
        )
    if normalise:
        info["max_projection_distance"] = float(deviation.max())
        info["n_projected"] = int((deviation > UNIT_NORM_TOL).sum())
        info["notes"].append(
            f"{info['n_projected']} points were projected onto the hyperboloid (x0 recomputed); the largest "
            f"relative deviation |<x,x>_L + 1|/(1 + x0^2) was {deviation.max():.3g}"
        )
    else:
        bad = np.flatnonzero(deviation > UNIT_NORM_TOL)
        if bad.size:
            raise InvalidUploadError(
                f"{label}: {table.row_labels[bad[0]]} has <x,x>_L = {lorentz[bad[0]]:.9g}; hyperboloid points need "
                f"<x,x>_L = -1 within {UNIT_NORM_TOL:g} (relative; {bad.size} rows fail). "
                "Pass normalise=True to project them."
            )
    return manifold.projection(values)


def _spd_points(table, manifold, label, normalise, info):
    m = manifold.m
    if len(table.columns) != m * m:
        raise _column_count_error(label, table, f"{m * m} (the {m}x{m} matrix, row-major)")
    mats = table.values.reshape(-1, m, m)
    scale = np.maximum(np.max(np.abs(mats), axis=(1, 2)), np.finfo(float).tiny)
    asym = np.max(np.abs(mats - np.swapaxes(mats, 1, 2)), axis=(1, 2)) / scale
    bad = np.flatnonzero(asym > SYMMETRY_RTOL)
    if bad.size:
        raise InvalidUploadError(
            f"{label}: {table.row_labels[bad[0]]} is not symmetric (max|A - A^T| / max|A| = {asym[bad[0]]:.3g} > "
            f"{SYMMETRY_RTOL:g})"
        )
    mats = 0.5 * (mats + np.swapaxes(mats, 1, 2))
    min_eig = np.linalg.eigvalsh(mats)[:, 0]
    bad = np.flatnonzero(~(min_eig > 0))
    if bad.size:
        raise InvalidUploadError(
            f"{label}: {table.row_labels[bad[0]]} is not positive definite (smallest eigenvalue "
            f"{min_eig[bad[0]]:.6g}; {bad.size} matrices fail)"
        )
    info["coordinates"] = f"{m}x{m} matrices"
    return mats


def _cartesian_points(table, manifold, label, normalise, info):
    if len(table.columns) != manifold.dim:
        raise _column_count_error(label, table, f"{manifold.dim} coordinates")
    info["coordinates"] = f"coordinates in R^{manifold.dim}"
    return table.values.copy()


class _Format(NamedTuple):
    """How a table becomes points of a space with this ``upload_format``."""

    read: object  #: ``(table, manifold, label, normalise, info) -> points``
    normalisable: bool  #: ``normalise=True`` projects slightly-off rows onto the space
    intrinsic_npy: bool  #: an NPY array may hold the ``d`` intrinsic (Poincaré-ball) coordinates


#: The readers, by :attr:`~geodp_core.geometry.base.Manifold.upload_format`.
_FORMATS = {
    "unit_vector": _Format(_sphere_points, True, False),
    "hyperboloid": _Format(_hyperbolic_points, True, True),
    "symmetric_matrix": _Format(_spd_points, False, False),
    "cartesian": _Format(_cartesian_points, False, False),
}


def parse_points(content, manifold, fmt=None, filename=None, normalise=False, return_info=False):
    r"""Parse an uploaded CSV or NPY file into validated points of ``manifold``.

    Parameters
    ----------
    content : bytes
        The file's bytes (what a browser upload gives; a ``str`` of CSV text, or an
        object with ``getvalue()`` such as ``io.BytesIO``, are accepted too).
    manifold : Manifold
        :math:`S^d`, :math:`H^d`, SPD(m) (any metric) or :math:`\mathbb{R}^d`; see the
        module docstring for the accepted columns.
    fmt : {"csv", "npy"} or None
        ``None``: from the file extension, else from the NPY magic bytes.
    filename : str or None
        Used to detect the format and in error messages.
    normalise : bool
        Sphere/hyperboloid only: project off-manifold points instead of refusing
        them; the distance moved is reported in the info dict.
    return_info : bool
        Also return a dict with ``format``, ``columns``, ``coordinates``, ``n_points``,
        ``max_projection_distance`` (or ``None``), ``n_projected`` and ``notes``.

    Returns
    -------
    points : ndarray, shape (n, *manifold.point_shape), float
    info : dict
        Only if ``return_info``.

    Raises
    ------
    InvalidUploadError
        Empty or oversize (> 20 MB) file, fewer than 2 points, NaN/inf, text in a
        numeric column, wrong column count or shape, pickled NPY objects, points off
        the manifold (with the first bad line/row), non-symmetric or non-PD matrices.
    """
    manifold = check_manifold(manifold)
    if manifold.upload_format not in _FORMATS:
        offered = ", ".join(sorted(code for code in MANIFOLD_NAMES if manifold_class(code).upload_format in _FORMATS))
        raise InvalidParameterError(
            f"manifold must be one of the spaces {offered} (uploads are not offered on {manifold.label})",
            param="manifold",
        )
    reader = _FORMATS[manifold.upload_format]
    label = f"file {filename!r}" if filename else "uploaded file"
    if not isinstance(normalise, (bool, np.bool_)):
        raise InvalidParameterError(f"normalise must be True or False; got {normalise!r}", param="normalise")
    if normalise and not reader.normalisable:
        raise InvalidParameterError(
            f"normalise=True is only available for the sphere and the hyperboloid; got {manifold.label}",
            param="normalise",
        )
    content = _as_bytes(content, label)
    fmt = _detect_format(content, fmt, filename)
    info = {"format": fmt, "max_projection_distance": None, "n_projected": 0, "notes": []}

    if fmt == "csv":
        table = _read_csv(content, label)
    else:
        array = _read_npy(content, label)
        shape = tuple(manifold.point_shape)
        if len(shape) > 1:
            table = _npy_table(array, label, int(np.prod(shape)), shape)
        elif reader.intrinsic_npy and array.ndim == 2 and array.shape[1] == manifold.dim:
            table = _npy_table(array, label, manifold.dim)
        else:
            table = _npy_table(array, label, shape[0])
    n_points = table.values.shape[0]
    if n_points < 2:
        raise InvalidUploadError(f"{label}: contains {n_points} point(s); at least 2 are needed")
    info["columns"] = list(table.columns)

    points = reader.read(table, manifold, label, normalise, info)

    ok = manifold.belongs(points)
    if not ok.all():  # pragma: no cover - every case above is checked with its own message
        raise InvalidUploadError(f"{label}: {table.row_labels[int(np.flatnonzero(~ok)[0])]} is not on {manifold.label}")
    info["n_points"] = int(n_points)
    points = np.ascontiguousarray(points, dtype=float)
    return (points, info) if return_info else points
