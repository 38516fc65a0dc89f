"""porta's built-in ops on porta arrays: each queues its kernels on the
device's stream and returns a new array (or writes ``out``).

Every op takes arrays of one device; host data (NumPy arrays, lists) is first
copied to the device of the first porta array among the operands, else to the
default device.
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from . import _porta
from ._core import Array, Device, _device, asarray, empty

_ACTIVATIONS = {None: 0, "none": 0, "relu": 1, "sigmoid": 2, "gelu_tanh": 3}


def _operands(*xs: Any, device: Union[Device, str, None] = None) -> list[Array]:
    dev = _device(device) if device is not None else next((x.device for x in xs if isinstance(x, Array)), None)
    if dev is None:
        dev = _device(None)
    out = []
    for i, x in enumerate(xs):
        if isinstance(x, Array):
            x._check_device(dev, f"operand {i}")
            out.append(x)
        else:
            out.append(asarray(x, device=dev))
    return out


def _expect(name: str, x: Array, dtypes: tuple[str, ...], ndim: tuple[int, ...] | None = None) -> None:
    if x.dtype not in dtypes:
        raise TypeError(f"{name}: expected dtype {' or '.join(dtypes)}, got {x.dtype}")
    if ndim is not None and x.ndim not in ndim:
        raise ValueError(f"{name}: expected a {' or '.join(f'{n}-d' for n in ndim)} array, got shape {x.shape}")


def _out(name: str, out: Array | None, shape: tuple[int, ...], dtype: str, device: Device) -> Array:
    if out is None:
        return empty(shape, dtype, device)
    if not isinstance(out, Array):
        raise TypeError(f"{name}: out must be a porta.Array, got {type(out).__name__}")
    out._check_device(device, f"{name} out")
    if out.shape != tuple(shape) or out.dtype != dtype:
        raise ValueError(f"{name}: out must have shape {tuple(shape)} and dtype {dtype}, got {out.shape} {out.dtype}")
    return out


def mul(a: Any, b: Any, out: Array | None = None) -> Array:
    """a * b elementwise (same shapes, float32, float16, bfloat16 or int32)."""
    a, b = _operands(a, b)
    if a.shape != b.shape or a.dtype != b.dtype:
        raise ValueError(f"mul: expected two arrays of one shape and dtype, got {a.shape} {a.dtype} and {b.shape} {b.dtype}")
    out = _out("mul", out, a.shape, a.dtype, a.device)
    if a.size:
        _porta.ops_mul(a.device.stream._handle, a._view(), b._view(), out._view())
    return out


def sigmoid(x: Any, out: Array | None = None) -> Array:
    """1 / (1 + exp(-x)) elementwise."""
    (x,) = _operands(x)
    out = _out("sigmoid", out, x.shape, x.dtype, x.device)
    if x.size:
        _porta.ops_sigmoid(x.device.stream._handle, x._view(), out._view())
    return out


def matmul(a: Any, b: Any, out: Array | None = None, trans_a: bool = False, trans_b: bool = False) -> Array:
    """op(a) @ op(b) for 2-d float32 (or float16/bfloat16 inputs, float32 result) arrays."""
    return _gemm("matmul", a, b, None, None, out, trans_a, trans_b)


def dense(x: Any, W: Any, b: Any = None, activation: str | None = "sigmoid", out: Array | None = None) -> Array:
    """A dense layer as one fused op: activation(x @ W.T + b) for x (batch, in),
    W (out, in) as PyTorch's Linear keeps it, b (out,) or None. activation:
    "sigmoid", "relu", "gelu_tanh" or None."""
    if activation not in _ACTIVATIONS:
        raise ValueError(f"dense: activation must be one of {[k for k in _ACTIVATIONS if k]} or None, got {activation!r}")
    return _gemm("dense", x, W, b, activation, out, False, True)


def _gemm(name, a, b, bias, activation, out, trans_a, trans_b) -> Array:
    """matmul (porta_ops_gemm) and dense (porta_ops_dense): one set of checks."""
    ops = _operands(a, b) if bias is None else _operands(a, b, bias)
    a, b = ops[0], ops[1]
    for label, t in (("a", a), ("b", b)):
        _expect(f"{name} {label}", t, ("float32", "float16", "bfloat16"), (2,))
    if a.dtype != b.dtype:
        raise TypeError(f"{name}: a and b must share a dtype, got {a.dtype} and {b.dtype}")
    m, k = a.shape[::-1] if trans_a else a.shape
    k2, n = b.shape[::-1] if trans_b else b.shape
    if k != k2:
        raise ValueError(f"{name}: inner dimensions differ: {a.shape} and {b.shape} (trans_a={trans_a}, trans_b={trans_b})")
    bias_view = None
    if bias is not None:
        bias = ops[2]
        _expect(f"{name} b", bias, ("float32",), (1,))
        if bias.shape != (n,):
            raise ValueError(f"{name}: the bias must have shape ({n},), got {bias.shape}")
        bias_view = bias._view()
    out = _out(name, out, (m, n), "float32", a.device)
    if not (m and n):
        return out
    stream = a.device.stream._handle
    if name == "dense":
        _porta.ops_dense(stream, a._view(), b._view(), bias_view, _ACTIVATIONS[activation], out._view())
    else:
        _porta.ops_gemm(stream, a._view(), b._view(), out._view(), 1.0, 0.0, trans_a, trans_b, None, 0)
    return out


def add(a: Any, b: Any, out: Array | None = None) -> Array:
    """a + b with NumPy's broadcasting (e.g. a bias row added to every row of a matrix), float32."""
    a, b = _operands(a, b)
    for label, t in (("a", a), ("b", b)):
        _expect(f"add {label}", t, ("float32",))
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"add: shapes {a.shape} and {b.shape} do not broadcast") from None
    out = _out("add", out, shape, "float32", a.device)
    if out.size:
        _porta.ops_add(a.device.stream._handle, a._view(), b._view(), out._view())
    return out
