"""A porta kernel as a PyTorch operator: ``torch.ops.porta_examples.gated(x, gate)``
computes ``sigmoid(x) * gate`` elementwise with one GLSL kernel that porta runs
on the tensors' own device.

- CUDA tensors run on porta's CUDA backend, on the tensors' memory (DLPack, no
  copy) and on PyTorch's current stream (porta wraps it), so the op is ordered
  with the rest of the model's work like any PyTorch op.
- CPU tensors run on porta's cpu backend, on the tensors' memory where this
  porta build can import host memory (``porta.HAS_INTEROP``), else through a
  copy that the op writes back.

    import torch, porta_op
    y = torch.ops.porta_examples.gated(x, gate)      # or porta_op.gated(x, gate)
"""

from __future__ import annotations

import numpy as np
import porta
import torch

GATED = """
#version 450
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Gate { float gate[]; };
layout(std430, binding = 2) writeonly buffer Out { float y[]; };
layout(push_constant) uniform Push { uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = gate[i] / (1.0 + exp(-x[i]));
}
"""

_devices: dict[str, porta.Device] = {}
_kernels: dict[str, porta.Kernel] = {}
_streams: dict[int, porta.Stream] = {}  # porta's wrapper of each CUDA stream of PyTorch's, made once


def _porta_device(t: torch.Tensor) -> porta.Device:
    key = str(t.device)
    if key not in _devices:
        _devices[key] = porta.open("cuda", t.device.index or 0) if t.is_cuda else porta.open("cpu")
        _kernels[key] = porta.kernel(GATED, device=_devices[key], name="gated")
    return _devices[key]


@torch.library.custom_op("porta_examples::gated", mutates_args=())
def gated(x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
    if x.shape != gate.shape or x.dtype != torch.float32 or gate.dtype != torch.float32:
        raise ValueError(f"gated: expected two float32 tensors of one shape, got {x.dtype} {tuple(x.shape)} "
                         f"and {gate.dtype} {tuple(gate.shape)}")
    if x.device != gate.device:
        raise ValueError(f"gated: x is on {x.device}, gate on {gate.device}; expected one device")
    x, gate = x.contiguous(), gate.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return out
    dev = _porta_device(x)
    if x.is_cuda:
        native = torch.cuda.current_stream(x.device).cuda_stream
        if native not in _streams:
            _streams[native] = dev.wrap_stream(native)
        stream = _streams[native]
    else:
        stream = dev.stream
    px, pg, po = (porta.from_dlpack(t, device=dev) for t in (x, gate, out))
    stream.dispatch(_kernels[str(x.device)], (n + 255) // 256, [px, pg, po], np.uint32(n))
    if not po.is_imported:  # a copy: bring the result back into `out`
        out.copy_(torch.from_dlpack(po).reshape(out.shape))
    elif not x.is_cuda:
        stream.sync()  # CPU tensors are read as soon as the op returns
    return out


@gated.register_fake
def _(x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)
