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
from ._core import Array, Device, _device, asarray, empty, kernel

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
    if m and n:
        _porta.ops_gemm(
            a.device.stream._handle, a._view(), b._view(), out._view(), 1.0, 0.0, trans_a, trans_b,
            bias_view, _ACTIVATIONS[activation],
        )
    return out


# ---- add with broadcasting: a porta kernel of this package (GLSL, built once per device)

_ADD_SOURCE = """
#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
// Output shape (4 dims, leading ones for lower ranks) and each input's element
// strides in it, 0 where the input is broadcast.
layout(push_constant) uniform Push { uvec4 shape; uvec4 stride_a; uvec4 stride_b; uint count; uint row; } p;
void main() {
  uint i = gl_GlobalInvocationID.y * p.row + gl_GlobalInvocationID.x;
  if (gl_GlobalInvocationID.x >= p.row || i >= p.count) return;
  uint rest = i, ia = 0u, ib = 0u;
  for (int d = 3; d >= 0; --d) {
    uint k = rest % p.shape[d];
    rest /= p.shape[d];
    ia += k * p.stride_a[d];
    ib += k * p.stride_b[d];
  }
  c[i] = a[ia] + b[ib];
}
"""
_add_kernels: dict = {}


def _broadcast_strides(shape: tuple[int, ...], full: tuple[int, ...]) -> list[int]:
    padded = (1,) * (len(full) - len(shape)) + tuple(shape)
    strides, step = [0] * len(full), 1
    for d in range(len(full) - 1, -1, -1):
        strides[d] = 0 if padded[d] == 1 and full[d] != 1 else step
        step *= padded[d]
    return strides


def add(a: Any, b: Any, out: Array | None = None) -> Array:
    """a + b with NumPy's broadcasting (e.g. a bias row added to every row), float32, up to 4-d."""
    a, b = _operands(a, b)
    for label, t in (("a", a), ("b", b)):
        _expect(f"add {label}", t, ("float32",))
    try:
        shape = np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"add: shapes {a.shape} and {b.shape} do not broadcast") from None
    if len(shape) > 4:
        raise ValueError(f"add: at most 4 dimensions, got {shape}")
    out = _out("add", out, shape, "float32", a.device)
    count = out.size
    if not count:
        return out
    dev = a.device
    k = _add_kernels.get(dev)
    if k is None or k.device != dev:
        k = _add_kernels[dev] = kernel(_ADD_SOURCE, device=dev, name="porta.python.add")
    full4 = (1,) * (4 - len(shape)) + tuple(shape)
    row = min(count, 256 * 4096)
    push = np.array(
        list(full4) + _broadcast_strides(a.shape, full4) + _broadcast_strides(b.shape, full4) + [count, row],
        dtype=np.uint32,
    ).tobytes()
    push += b"\0" * (k.push_constant_size - len(push))
    groups = ((row + 255) // 256, (count + row - 1) // row, 1)
    dev.stream.dispatch(k, groups, [a, b, out], push)
    return out
