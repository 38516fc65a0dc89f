"""porta: one compute API on Vulkan, OpenCL, CUDA and the CPU, from Python.

    import numpy as np, porta
    dev = porta.open()                     # PORTA_BACKEND / PORTA_DEVICE, else the best device
    x = porta.asarray(np.random.rand(4, 3).astype(np.float32), device=dev)
    W = porta.asarray(np.ones((2, 3), np.float32), device=dev)
    y = porta.dense(x, W, np.zeros(2, np.float32), activation="sigmoid")
    print(y.numpy())

See python/README.md in porta's source tree.
"""

from . import ops
from ._core import (
    Array,
    Device,
    DeviceInfo,
    Event,
    Kernel,
    Stream,
    asarray,
    backends,
    default_device,
    devices,
    empty,
    from_dlpack,
    full,
    kernel,
    open,
    zeros,
)
from ._dtypes import DTYPES
from ._errors import (
    BackendError,
    CompileError,
    DeviceLostError,
    DispatchTimeoutError,
    Error,
    InternalError,
    InvalidArgumentError,
    InvalidHandleError,
    InvalidKernelError,
    NotFoundError,
    OutOfBoundsError,
    OutOfMemoryError,
    UnavailableError,
    UnsupportedError,
)
from ._porta import HAS_INTEROP
from ._porta import version as _version
from .ops import add, dense, matmul, mul, sigmoid

__version__ = _version()


# The estimator is loaded when first named: it imports scikit-learn (where
# installed), seconds that `import porta` for kernels and ops need not pay.
def __getattr__(name: str):
    if name in ("LogisticRegression", "NotFittedError"):
        from . import _logistic

        return getattr(_logistic, name)
    raise AttributeError(f"module 'porta' has no attribute {name!r}")


__all__ = [
    "Array", "Device", "DeviceInfo", "Event", "Kernel", "Stream", "DTYPES",
    "asarray", "backends", "default_device", "devices", "empty", "from_dlpack", "full", "kernel", "open", "zeros",
    "ops", "add", "dense", "matmul", "mul", "sigmoid",
    "LogisticRegression", "NotFittedError",
    "Error", "BackendError", "CompileError", "DeviceLostError", "InternalError", "InvalidArgumentError",
    "InvalidHandleError", "InvalidKernelError", "NotFoundError", "OutOfMemoryError", "UnavailableError",
    "UnsupportedError", "DispatchTimeoutError", "OutOfBoundsError",
]  # fmt: skip
