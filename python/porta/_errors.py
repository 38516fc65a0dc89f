"""porta's errors as Python exceptions: one class per porta_status.

Every failed porta call raises a subclass of :class:`Error` carrying porta's own
message (backend, device, call and cause). Classes that match a built-in
exception also derive from it, so ``except ValueError`` catches a wrong
argument and ``except MemoryError`` an exhausted device.
"""

from __future__ import annotations


class Error(RuntimeError):
    """A porta call failed; ``status`` names porta's status code."""

    status = "PORTA_ERROR_INTERNAL"


Error.__module__ = "porta"


# (name, status, built-in base or None, what it means): one class each, below.
_TABLE = (
    ("InvalidArgumentError", "PORTA_ERROR_INVALID_ARGUMENT", ValueError, "a wrong size, count, range or value"),
    ("InvalidHandleError", "PORTA_ERROR_INVALID_HANDLE", ValueError,
     "a freed buffer, a closed device, or an object of another device"),
    ("NotFoundError", "PORTA_ERROR_NOT_FOUND", LookupError, "an unknown backend or device"),
    ("UnavailableError", "PORTA_ERROR_UNAVAILABLE", None, "a backend without its runtime or device"),
    ("UnsupportedError", "PORTA_ERROR_UNSUPPORTED", None, "a feature or limit the device lacks"),
    ("InvalidKernelError", "PORTA_ERROR_INVALID_KERNEL", ValueError,
     "invalid SPIR-V, GLSL that does not compile, a bad interface"),
    ("CompileError", "PORTA_ERROR_COMPILE", None, "a backend compiler rejected translated code"),
    ("OutOfMemoryError", "PORTA_ERROR_OUT_OF_MEMORY", MemoryError, "the device's memory is exhausted"),
    ("DeviceLostError", "PORTA_ERROR_DEVICE_LOST", None, "the device was lost"),
    ("BackendError", "PORTA_ERROR_BACKEND", None, "any other driver or runtime failure"),
    ("InternalError", "PORTA_ERROR_INTERNAL", None, "a bug in porta"),
    ("DispatchTimeoutError", "PORTA_ERROR_TIMEOUT", TimeoutError, "a dispatch ran past its time limit and was stopped"),
    ("OutOfBoundsError", "PORTA_ERROR_OUT_OF_BOUNDS", IndexError,
     "a kernel accessed a buffer out of bounds, on a device that reports it (PORTA_ROBUST=report)"),
)  # fmt: skip

_BY_STATUS: dict[str, type[Error]] = {}
for _name, _status, _builtin, _doc in _TABLE:
    _cls = type(_name, (Error,) if _builtin is None else (Error, _builtin), {"status": _status, "__doc__": _doc})
    _cls.__module__ = "porta"
    globals()[_name] = _BY_STATUS[_status] = _cls

InvalidArgumentError: type[Error]
InvalidHandleError: type[Error]
NotFoundError: type[Error]
UnavailableError: type[Error]
UnsupportedError: type[Error]
InvalidKernelError: type[Error]
CompileError: type[Error]
OutOfMemoryError: type[Error]
DeviceLostError: type[Error]
BackendError: type[Error]
InternalError: type[Error]
DispatchTimeoutError: type[Error]
OutOfBoundsError: type[Error]


def error_class(status_name: str) -> type[Error]:
    """The exception class of a porta_status name (porta_status_name's text)."""
    return _BY_STATUS.get(status_name, Error)
