"""A porta kernel as a PyTorch operator: ``torch.ops.porta_examples.gated(x, gate)``
computes ``sigmoid(x) * gate`` elementwise with one GLSL kernel that porta runs
on the tensors' own device.

- CUDA tensors run on porta's CUDA backend, on the tensors' memory (DLPack, no
  copy) and on PyTorch's current stream (porta wraps it), so the op is ordered
  with the rest of the model's work like any PyTorch op.
- CPU tensors run on porta's cpu backend, on the tensors' memory where this
  porta build can import host memory (``porta.HAS_INTEROP``), else through a
  copy that the op writes back.
- Per call: the tensors go straight to ``Stream.dispatch`` (imported in place
  for that dispatch, no porta arrays), the stream is looked up by PyTorch's raw
  stream handle, and nothing waits on the host for CUDA tensors.

    import torch, porta_op
    y = torch.ops.porta_examples.gated(x, gate)      # or porta_op.gated(x, gate)
"""

from __future__ import annotations

import struct

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

# Per call the op does only what must be done per call: everything that can be
# made once is made once and looked up by the tensor's device.
_on_device: dict[torch.device, tuple[porta.Device, porta.Kernel]] = {}
_streams: dict[int, porta.Stream] = {}  # porta's wrapper of each CUDA stream of PyTorch's, made once
_PUSH = struct.Struct("<I")
# The raw cudaStream_t of the current stream, as PyTorch's own generated code
# reads it (torch.cuda.current_stream() builds a Stream object per call).
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)


def _porta_device(t: torch.Tensor) -> porta.Device:
    return _on_device_of(t.device)[0]


def _on_device_of(key: torch.device) -> tuple[porta.Device, porta.Kernel]:
    """porta's device for a torch device, and the kernel on it: opened and built once."""
    found = _on_device.get(key)
    if found is None:
        dev = porta.open("cuda", key.index or 0) if key.type == "cuda" else porta.open("cpu")
        found = _on_device[key] = (dev, porta.kernel(GATED, device=dev, name="gated"))
    return found


def _stream(dev: porta.Device, t: torch.Tensor) -> porta.Stream:
    """porta's stream for `t`: PyTorch's current CUDA stream, wrapped once; the device's own on the CPU."""
    if not t.is_cuda:
        return dev.stream
    index = t.device.index if t.device.index is not None else torch.cuda.current_device()
    native = _raw_stream(index) if _raw_stream else torch.cuda.current_stream(t.device).cuda_stream
    stream = _streams.get(native)
    if stream is None:
        stream = _streams[native] = dev.wrap_stream(native)
    return stream


def gated_impl(x: torch.Tensor, gate: torch.Tensor, through_arrays: bool = False) -> torch.Tensor:
    """The operator's body; ``through_arrays`` takes the general path (porta
    arrays from DLPack, then a dispatch), which the timing test sets against
    the direct one."""
    if x.dtype is not torch.float32 or gate.dtype is not torch.float32 or x.shape != gate.shape:
        raise ValueError(f"gated: expected two float32 tensors of one shape, got {x.dtype} {tuple(x.shape)} "
                         f"and {gate.dtype} {tuple(gate.shape)}")
    device = x.device
    if device != gate.device:
        raise ValueError(f"gated: x is on {device}, gate on {gate.device}; expected one device")
    x, gate = x.contiguous(), gate.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return out
    dev, kernel = _on_device_of(device)
    stream = _stream(dev, x)
    groups, push = (n + 255) // 256, _PUSH.pack(n)
    try:
        if through_arrays:
            raise ValueError("the general path")
        # The tensors themselves, used in place for this dispatch: no porta arrays
        # are made, and porta lets go of the tensors once the device is done with them.
        stream.dispatch(kernel, groups, [x, gate, out], push)
    except ValueError:
        # Memory porta cannot use in place (a CPU view off porta's 16-byte import
        # alignment, a libporta without porta/interop.h): copies, and the result
        # brought back into `out`.
        px, pg, po = (porta.from_dlpack(t, device=dev) for t in (x, gate, out))
        stream.dispatch(kernel, groups, [px, pg, po], push)
        if not po.is_imported:
            out.copy_(torch.from_dlpack(po).reshape(out.shape))
    if device.type != "cuda":
        stream.sync()  # CPU tensors are read as soon as the op returns; CUDA work stays on torch's stream
    return out


# The operator, registered with torch.library's own building blocks (a schema,
# a kernel per device type, a fake kernel for tracing) rather than the
# torch.library.custom_op decorator, whose Python wrapping costs several times
# the dispatcher's own per call. It has no derivative: PyTorch's autograd
# fallback warns where a gradient would have to flow through it.
_library = torch.library.Library("porta_examples", "DEF")
_library.define("gated(Tensor x, Tensor gate) -> Tensor")
for _key in ("CPU", "CUDA"):
    _library.impl("gated", gated_impl, _key)


@torch.library.register_fake("porta_examples::gated")
def _(x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)


def gated(x: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
    """``torch.ops.porta_examples.gated(x, gate)``."""
    return torch.ops.porta_examples.gated(x, gate)
