"""porta's element types and their NumPy counterparts.

NumPy has no bfloat16. Where the ``ml_dtypes`` package is installed, bfloat16
arrays are ``ml_dtypes.bfloat16`` arrays both ways; without it they come back
as ``uint16`` arrays of the bit patterns (the upper half of each float32), and
``asarray(x, dtype="bfloat16")`` takes such a ``uint16`` array as bit patterns.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import ml_dtypes as _ml_dtypes

    _BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    _ml_dtypes = None
    _BFLOAT16 = None

DTYPES = (
    "float32",
    "float16",
    "bfloat16",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
)


def numpy_dtype(name: str) -> np.dtype:
    """The NumPy dtype that holds porta dtype ``name`` (bfloat16: see the module's note)."""
    if name == "bfloat16":
        return _BFLOAT16 if _BFLOAT16 is not None else np.dtype(np.uint16)
    return np.dtype(name)


def dtype_name(dtype: Any) -> str:
    """porta's name of ``dtype`` (a name, a NumPy dtype or type, ml_dtypes.bfloat16)."""
    if isinstance(dtype, str) and dtype in DTYPES:
        return dtype
    if _BFLOAT16 is not None:
        try:
            if np.dtype(dtype) == _BFLOAT16:
                return "bfloat16"
        except TypeError:
            pass
    try:
        name = np.dtype(dtype).name
    except TypeError:
        name = None
    if name in DTYPES:
        return name
    raise TypeError(f"dtype {dtype!r} is not one of porta's: {', '.join(DTYPES)}")
