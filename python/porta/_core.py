"""Devices, streams, kernels and arrays: porta's nouns in Python."""

from __future__ import annotations

import ctypes
import os
import struct
import threading
from typing import Any, Iterable, Mapping, Sequence, Union

import numpy as np

from . import _porta
from ._dtypes import DTYPES, dtype_name, numpy_dtype

_DLPACK_CPU = 1  # DLDeviceType kDLCPU

# ---------------------------------------------------------------- devices


class DeviceInfo:
    """One device that porta found (``porta.devices()``); ``selector`` opens it."""

    def __init__(self, fields: Mapping[str, Any]):
        self.__dict__.update(fields)

    @property
    def selector(self) -> str:
        return f"{self.backend}:{self.index}"

    def __repr__(self) -> str:
        return f"<porta.DeviceInfo {self.selector} {self.name!r} ({self.type})>"


def devices() -> list[DeviceInfo]:
    """Every device of every available backend, best first (the default order)."""
    return [DeviceInfo(d) for d in _porta.device_infos()]


def backends() -> list[tuple[str, bool, str]]:
    """(name, available, reason) of every backend plugin found."""
    return _porta.backends()


class Device:
    """An opened device. Arrays, kernels and streams belong to one device.

    ``device.stream`` is the stream that porta's array functions and ops use on
    this device; work on it runs in order, and reading an array back waits for it.
    """

    def __init__(self, handle: _porta.Device):
        self._handle = handle
        self.info = DeviceInfo(handle.info)
        self.stream = Stream(self, _porta.stream_create(handle))

    @property
    def backend(self) -> str:
        return self.info.backend

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def selector(self) -> str:
        return self.info.selector

    def new_stream(self) -> "Stream":
        """A second in-order queue on this device."""
        return Stream(self, _porta.stream_create(self._handle))

    def sync(self) -> None:
        """Waits for the work queued on ``device.stream``."""
        self.stream.sync()

    def wrap_stream(self, native: int) -> "Stream":
        """A porta stream over a framework's queue: a CUstream (CUDA backend, e.g.
        ``torch.cuda.current_stream().cuda_stream``) or a cl_command_queue
        (OpenCL) of this device, given as an integer. porta's work on it runs in
        order with the framework's; the queue stays the framework's. On CUDA, 0
        (what PyTorch gives for its default stream) is the legacy default stream,
        which porta's C API spells CU_STREAM_LEGACY (1)."""
        native = int(native)
        if native == 0 and self.backend == "cuda":
            native = 1
        return Stream(self, _porta.stream_wrap_native(self._handle, native))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and self._handle.same(other._handle)

    # A device is shared, not copied (scikit-learn's clone deep-copies parameters);
    # pickled, it is its selector, opened again where it is loaded.
    def __copy__(self) -> "Device":
        return self

    def __deepcopy__(self, memo: dict) -> "Device":
        return self

    def __reduce__(self):
        return (open, (self.backend, self.info.index))

    def __hash__(self) -> int:
        return hash(self.selector)

    def __repr__(self) -> str:
        return f"<porta.Device {self.selector} {self.name!r}>"


def _selector(backend: str | None, device: Union[int, str, None]) -> str:
    backend = backend if backend is not None else os.environ.get("PORTA_BACKEND", "").strip() or None
    if device is None:
        device = os.environ.get("PORTA_DEVICE", "").strip() or None
    if backend is not None:
        return backend if device is None else f"{backend}:{device}"
    if device is None:
        return ""  # the best device
    # A device without a backend: an index into, or a name in, the whole list (as PORTA_DEVICE).
    found = devices()
    if isinstance(device, int) or str(device).isdigit():
        i = int(device)
        if not 0 <= i < len(found):
            raise ValueError(f"porta.open: device index {i} is out of range: {len(found)} devices in all")
        return found[i].selector
    for d in found:
        if str(device).lower() in d.name.lower():
            return d.selector
    raise ValueError(f"porta.open: device {device!r} matches no device name; devices: {[d.name for d in found]}")


def open(backend: str | None = None, device: Union[int, str, None] = None) -> Device:  # noqa: A001
    """Opens a device: ``backend`` ("cpu", "vulkan", "opencl", "cuda" or a
    comma-separated list) and ``device`` (an index within it, or part of its name).
    Unset arguments come from PORTA_BACKEND / PORTA_DEVICE, else the best device."""
    return Device(_porta.open(_selector(backend, device)))


_default_lock = threading.Lock()
_default_device: Device | None = None


def default_device() -> Device:
    """The device that arrays go to without ``device=``: ``porta.open()``, once."""
    global _default_device
    with _default_lock:
        if _default_device is None:
            _default_device = open()
        return _default_device


def _device(device: Union[Device, str, None]) -> Device:
    if device is None:
        return default_device()
    if isinstance(device, Device):
        return device
    if isinstance(device, str):
        return open(device)
    raise TypeError(f"device: expected a porta.Device, a selector string or None, got {type(device).__name__}")


# ---------------------------------------------------------------- streams, events, kernels


class Event:
    """A point in a stream's work; ``end.elapsed_ms(start)``-style timing via ``elapsed_ms``."""

    def __init__(self, stream: "Stream", handle: _porta.Event):
        self.stream = stream
        self._handle = handle

    def elapsed_ms(self, end: "Event") -> float:
        """Milliseconds from this event to ``end`` (same stream; sync the stream first)."""
        return self._handle.elapsed_ms(end._handle)


class Stream:
    """An in-order queue of a device's work."""

    def __init__(self, device: Device, handle: _porta.Stream):
        self.device = device
        self._handle = handle

    def sync(self) -> None:
        """Waits for everything queued (the GIL is released meanwhile)."""
        self._handle.sync()

    def record(self) -> Event:
        return Event(self, self._handle.record_event())

    def dispatch(
        self,
        kernel: "Kernel",
        groups: Union[int, Sequence[int]],
        buffers: Iterable[Any] = (),
        push: Union[bytes, np.ndarray, np.generic, None] = None,
    ) -> None:
        """Queues ``kernel`` over ``groups`` work-groups (an int or up to 3 ints),
        with ``buffers`` in the kernel's parameter order and ``push`` its
        push-constant block (bytes, or a NumPy array or structured scalar laid
        out as std430).

        A buffer is a porta.Array, or a DLPack producer (a PyTorch tensor, a
        NumPy array) that the device uses in place for this dispatch alone:
        no porta.Array is made, and porta lets go of the producer's memory once
        the work is done (the cheapest way for a framework's operator). Memory
        the device cannot use in place is a ValueError there (porta.from_dlpack
        copies it)."""
        # The common case is checked first and cheaply: this runs once per operator call.
        if type(kernel) is not Kernel:
            raise TypeError(f"stream.dispatch: expected a porta.Kernel, got {type(kernel).__name__}")
        device = self.device
        if kernel.device is not device and kernel.device != device:
            raise ValueError(f"stream.dispatch: the kernel belongs to {kernel.device}, the stream to {device}")
        if type(groups) is int and groups >= 0:
            g = (groups, 1, 1)
        else:
            g = (groups,) if isinstance(groups, (int, np.integer)) else tuple(groups)
            if not 1 <= len(g) <= 3 or any(int(x) < 0 for x in g):
                raise ValueError(f"stream.dispatch: groups must be 1 to 3 non-negative ints, got {groups!r}")
            g = tuple(int(x) for x in g) + (1,) * (3 - len(g))
        handles = []
        foreign = False
        for i, b in enumerate(buffers):
            kind = type(b)
            if kind is Array:
                if b.device is not device and b.device != device:
                    raise ValueError(
                        f"stream.dispatch buffer {i}: the array is on {b.device}, expected one on {device}"
                    )
                if b._buffer.freed:
                    b._check_live()
                handles.append(b._buffer)
            elif kind is _porta.Buffer:
                handles.append(b)
            elif hasattr(b, "__dlpack__"):
                handles.append(b)
                foreign = True
            else:
                raise TypeError(
                    f"stream.dispatch: buffer {i} is a {kind.__name__}; expected a porta.Array or a DLPack "
                    "producer (a PyTorch tensor, a NumPy array)"
                )
        if push is None:
            data = b""
        elif type(push) is bytes:
            data = push
        elif isinstance(push, np.generic):  # a scalar is one contiguous value
            data = push.tobytes()
        elif isinstance(push, (bytes, bytearray, memoryview)):
            data = bytes(push)
        elif isinstance(push, np.ndarray):
            data = np.ascontiguousarray(push).tobytes()
        else:
            raise TypeError(f"stream.dispatch: push must be bytes or a NumPy array, got {type(push).__name__}")
        if foreign:
            _porta.dispatch_arrays(device._handle, self._handle, kernel._handle, g, handles, data)
        else:
            self._handle.dispatch(kernel._handle, g, handles, data)

    def __repr__(self) -> str:
        return f"<porta.Stream on {self.device.selector}>"


def _spec_entry(key: int, value: Any) -> tuple[int, int, bool]:
    if isinstance(value, (bool, np.bool_)):
        return key, int(bool(value)), False
    if isinstance(value, np.generic):
        size = value.dtype.itemsize
        bits = int.from_bytes(value.tobytes(), "little")
        if size > 8:
            raise TypeError(f"spec constant {key}: {value.dtype} is wider than 64 bits")
        if value.dtype.kind == "i" and value < 0 and size < 4:  # sign-extend to 32 bits
            bits = int(value) & 0xFFFFFFFF
        return key, bits, size == 8
    if isinstance(value, int):
        if -(2**31) <= value < 2**32:
            return key, value & 0xFFFFFFFF, False
        if -(2**63) <= value < 2**64:
            return key, value & 0xFFFFFFFFFFFFFFFF, True
        raise ValueError(f"spec constant {key}: {value} does not fit 64 bits")
    if isinstance(value, float):
        return key, struct.unpack("<I", struct.pack("<f", value))[0], False
    raise TypeError(f"spec constant {key}: expected bool, int, float or a NumPy scalar, got {type(value).__name__}")


def _spirv_entry_points(words: np.ndarray) -> list[str]:
    names, i = [], 5
    while i < len(words):
        count, opcode = int(words[i]) >> 16, int(words[i]) & 0xFFFF
        if count == 0:
            break
        if opcode == 15:  # OpEntryPoint: model, id, name (nul-terminated string)
            raw = words[i + 3 : i + count].tobytes()
            names.append(raw.split(b"\0", 1)[0].decode())
        i += count
    return names


class Kernel:
    """A compiled kernel (``porta.kernel``)."""

    def __init__(self, device: Device, handle: _porta.Kernel, name: str):
        self.device = device
        self.name = name
        self._handle = handle

    @property
    def buffer_count(self) -> int:
        return self._handle.buffer_count

    @property
    def push_constant_size(self) -> int:
        return self._handle.push_constant_size

    @property
    def workgroup_size(self) -> tuple[int, int, int]:
        return self._handle.workgroup_size

    def __repr__(self) -> str:
        return f"<porta.Kernel {self.name!r} on {self.device.selector}>"


def kernel(
    source: Union[str, bytes, np.ndarray],
    spec: Mapping[int, Any] | None = None,
    entry: str | None = None,
    device: Union[Device, str, None] = None,
    name: str | None = None,
) -> Kernel:
    """Builds a kernel from GLSL compute text (``str``) or a SPIR-V module
    (``bytes`` or a uint32 array). ``spec`` maps specialization-constant ids to
    values (bool, int, float, or a NumPy scalar for an exact type, 64-bit ones
    included). ``entry`` names the entry point to check: GLSL's is ``main``; a
    SPIR-V module must have exactly that GLCompute entry point."""
    dev = _device(device)
    if isinstance(source, str):
        if entry not in (None, "main"):
            raise ValueError(f"porta.kernel: a GLSL kernel's entry point is 'main', not {entry!r}")
        data, spirv = source.encode(), False
    elif isinstance(source, (bytes, bytearray, memoryview, np.ndarray)):
        raw = np.ascontiguousarray(source).tobytes() if isinstance(source, np.ndarray) else bytes(source)
        if len(raw) % 4:
            raise ValueError(f"porta.kernel: a SPIR-V module is whole 32-bit words; got {len(raw)} bytes")
        if entry is not None:
            points = _spirv_entry_points(np.frombuffer(raw, dtype=np.uint32))
            if points != [entry]:
                raise ValueError(f"porta.kernel: entry {entry!r} is not the module's one entry point {points}")
        data, spirv = raw, True
    else:
        raise TypeError(f"porta.kernel: expected GLSL text (str) or SPIR-V (bytes), got {type(source).__name__}")
    specs = [_spec_entry(int(k), v) for k, v in (spec or {}).items()]
    label = name or entry or "kernel"
    return Kernel(dev, _porta.kernel_create(dev._handle, data, spirv, label, specs), label)


# ---------------------------------------------------------------- arrays


class Array:
    """A contiguous row-major array in one device's buffer.

    ``dtype`` is porta's type name ("float32", "bfloat16", ...). Arrays made from
    host data are copies (``porta.asarray``); ``numpy()`` reads back a copy after
    the device's stream has finished writing it.
    """

    __slots__ = ("device", "shape", "dtype", "is_imported", "_buffer", "__weakref__")

    def __init__(
        self, device: Device, buffer: _porta.Buffer, shape: tuple[int, ...], dtype: str, is_imported: bool = False
    ):
        self.device = device
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype
        #: True where the array uses another library's memory in place (from_dlpack, asarray).
        self.is_imported = is_imported
        self._buffer = buffer

    # -- description
    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return numpy_dtype(self.dtype).itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d porta.Array")
        return self.shape[0]

    def __repr__(self) -> str:
        state = "freed" if self._buffer.freed else f"on {self.device.selector}"
        return f"<porta.Array shape={self.shape} dtype={self.dtype} {state}>"

    # -- host transfers
    def numpy(self) -> np.ndarray:
        """A NumPy copy, after the device's stream has finished its work."""
        self._check_live()
        out = np.empty(self.shape, dtype=numpy_dtype(self.dtype))
        self.device.stream.sync()
        if out.nbytes:
            self._buffer.read_into(0, out.reshape(-1).view(np.uint8))
        return out

    def __array__(self, dtype=None, copy=None):  # NumPy's protocol
        host = self.numpy()
        return host if dtype is None else host.astype(dtype)

    def to(self, device: Union[Device, str]) -> "Array":
        """This array on ``device`` (itself if already there; otherwise copied through host memory)."""
        dev = _device(device)
        if dev == self.device:
            return self
        return asarray(self.numpy(), device=dev, dtype=self.dtype)

    def free(self) -> None:
        """Releases the device memory now; any later use of the array is an error."""
        self._buffer.free()

    # -- DLPack (python/README.md, "Memory"): the buffer's own memory where it is
    # host memory or CUDA memory, else a host copy
    def _shared(self):
        self._check_live()
        ordinal = self.device.info.index if self.device.backend == "cuda" else 0
        return _porta.export_array(self._buffer, self.dtype, list(self.shape), ordinal)

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None, copy: Any = None):
        kwargs = {} if max_version is None else {"max_version": max_version}
        shared = None if copy else self._shared()
        if shared is not None:
            # The consumer may read at once, on any stream: porta's work on the array is finished first.
            self.device.sync()
            return shared[0]
        if copy is False:
            raise BufferError(
                f"porta.Array.__dlpack__: the memory of a {self.device.backend} buffer cannot be shared "
                "(copy=False); host memory and CUDA memory can"
            )
        return self.numpy().__dlpack__(**kwargs)

    def __dlpack_device__(self) -> tuple[int, int]:
        shared = self._shared()
        return (shared[1], shared[2]) if shared is not None else (_DLPACK_CPU, 0)

    # -- operators (porta.ops)
    def __add__(self, other):
        from . import ops

        return ops.add(self, other)

    def __mul__(self, other):
        from . import ops

        return ops.mul(self, other)

    def __matmul__(self, other):
        from . import ops

        return ops.matmul(self, other)

    # -- checks
    def _check_live(self) -> None:
        if self._buffer.freed:
            raise _errors().InvalidHandleError("this porta.Array was freed (Array.free); it can no longer be used")

    def _check_device(self, device: Device, what: str) -> None:
        self._check_live()
        if self.device != device:
            raise ValueError(f"{what}: the array is on {self.device}, expected one on {device}")

    def _view(self) -> tuple:
        self._check_live()
        return (self._buffer, _porta.DTYPES[self.dtype], list(self.shape) or [1], 0)


def _errors():
    from . import _errors as e

    return e


def empty(shape: Union[int, Sequence[int]], dtype: Any = "float32", device: Union[Device, str, None] = None) -> Array:
    """An uninitialised array."""
    dev = _device(device)
    name = dtype_name(dtype)
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"shape {shape}: dimensions must be non-negative")
    nbytes = int(np.prod(shape, dtype=np.int64)) * numpy_dtype(name).itemsize
    # porta buffers are at least 4 bytes and 16-bit kernels read whole words: round up to 4.
    buffer = _porta.buffer_create(dev._handle, max(4, (nbytes + 3) // 4 * 4))
    return Array(dev, buffer, shape, name)


def full(shape, fill_value, dtype: Any = "float32", device: Union[Device, str, None] = None) -> Array:
    """An array of ``fill_value``."""
    name = dtype_name(dtype)
    out = empty(shape, name, device)
    pattern = np.array(fill_value, dtype=numpy_dtype(name)).tobytes()
    if out.nbytes == 0:
        return out
    if len(pattern) in (1, 2, 4):
        word = (pattern * (4 // len(pattern)))[:4]
        out.device.stream._handle.fill(out._buffer, 0, out._buffer.nbytes, int.from_bytes(word, "little"))
    else:  # 8-byte values: no 32-bit pattern repeats them
        out._buffer.write(0, np.full(out.size, fill_value, dtype=numpy_dtype(name)).view(np.uint8))
    return out


def zeros(shape, dtype: Any = "float32", device: Union[Device, str, None] = None) -> Array:
    return full(shape, 0, dtype, device)


def _porta_name(dtype: np.dtype) -> str | None:
    try:
        return dtype_name(dtype)
    except TypeError:
        return None


def asarray(obj: Any, device: Union[Device, str, None] = None, dtype: Any = None) -> Array:
    """A porta array of ``obj`` (a porta.Array, anything NumPy takes, or a DLPack
    producer such as a PyTorch tensor) on ``device``. A writeable NumPy array
    or a DLPack producer is shared in place where the device can use its
    memory (``from_dlpack``), else copied; other input is copied. A NumPy
    array must be C-contiguous (pass ``np.ascontiguousarray(x)`` for a strided
    view); lists and scalars are converted."""
    dev = _device(device)
    if isinstance(obj, Array):
        out = obj.to(dev)
        if dtype is not None and dtype_name(dtype) != out.dtype:
            raise TypeError(f"asarray: the array is {out.dtype}; converting to {dtype_name(dtype)} is not supported")
        return out
    if not isinstance(obj, np.ndarray) and hasattr(obj, "__dlpack__"):
        out = from_dlpack(obj, dev)
        if dtype is not None and dtype_name(dtype) != out.dtype:
            raise TypeError(f"asarray: the array is {out.dtype}; converting to {dtype_name(dtype)} is not supported")
        return out
    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise ValueError(
                f"asarray: the array is not C-contiguous (strides {obj.strides}); "
                "expected a contiguous array: pass np.ascontiguousarray(x)"
            )
        host = obj
        # Shared in place where the device can use the memory, as NumPy's own asarray
        # does not copy either (bfloat16: NumPy exports no ml_dtypes type through DLPack).
        same_type = dtype is None or dtype_name(dtype) == _porta_name(host.dtype)
        if host.flags.writeable and host.nbytes and same_type and _porta_name(host.dtype) not in (None, "bfloat16"):
            return _import(host, dev)
    else:
        host = np.asarray(obj)
    name = dtype_name(dtype if dtype is not None else host.dtype)
    want = numpy_dtype(name)
    if host.dtype != want:
        if name == "bfloat16" and host.dtype == np.uint16:
            host = host.view(want)  # bfloat16 bit patterns given as uint16
        elif dtype is None:
            raise TypeError(f"asarray: {host.dtype} has no porta dtype")
        else:
            host = host.astype(want)
    host = np.ascontiguousarray(host)
    out = empty(host.shape, name, dev)
    if host.nbytes:
        out._buffer.write(0, host.reshape(-1).view(np.uint8))
    return out


def _capsule_name(obj: Any) -> bytes | None:
    if type(obj).__name__ != "PyCapsule":
        return None
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return get_name(obj)


_DLPACK_CUDA = 2


def _import(x: Any, dev: Device) -> Array:
    """x's memory as a porta array: in place where the device can use it, else copied."""
    buffer, why, dtype, shape, device_type, view = _porta.import_array(dev._handle, x)
    if buffer is not None:
        return Array(dev, buffer, tuple(shape), dtype, is_imported=True)
    if not dtype:
        raise TypeError(f"from_dlpack: the element type has no porta dtype; porta's: {', '.join(DTYPES)}")
    if device_type != _DLPACK_CPU:
        raise ValueError(
            f"from_dlpack: {dev} cannot use this memory (DLPack device type {device_type}) in place: {why}; "
            "CUDA memory needs porta's CUDA backend: open('cuda'), or copy the tensor to the host first"
        )
    return asarray(np.ascontiguousarray(view), device=dev, dtype=dtype)


def from_dlpack(x: Any, device: Union[Device, str, None] = None) -> Array:
    """A porta array over a DLPack producer's memory (an object with
    ``__dlpack__``, or a capsule): shared where the device can use it in place
    (host memory on the cpu backend, CUDA memory on the CUDA backend), else a
    copy in the device's buffer (python/README.md, "Memory")."""
    dev = _device(device)
    name = _capsule_name(x)
    if name is not None:
        if name != b"dltensor":
            raise ValueError(
                f"from_dlpack: this DLPack capsule was consumed already (its name is {name.decode()!r}, "
                "not 'dltensor'): a capsule can be imported once; ask the producer for a new one"
            )
    elif not hasattr(x, "__dlpack__"):
        raise TypeError(f"from_dlpack: expected a DLPack producer (__dlpack__) or capsule, got {type(x).__name__}")
    return _import(x, dev)
