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


class InvalidArgumentError(Error, ValueError):
    status = "PORTA_ERROR_INVALID_ARGUMENT"


class InvalidHandleError(Error, ValueError):
    """A freed buffer, a closed device, or an object of another device."""

    status = "PORTA_ERROR_INVALID_HANDLE"


class NotFoundError(Error, LookupError):
    status = "PORTA_ERROR_NOT_FOUND"


class UnavailableError(Error):
    status = "PORTA_ERROR_UNAVAILABLE"


class UnsupportedError(Error):
    status = "PORTA_ERROR_UNSUPPORTED"


class InvalidKernelError(Error, ValueError):
    status = "PORTA_ERROR_INVALID_KERNEL"


class CompileError(Error):
    status = "PORTA_ERROR_COMPILE"


class OutOfMemoryError(Error, MemoryError):
    status = "PORTA_ERROR_OUT_OF_MEMORY"


class DeviceLostError(Error):
    status = "PORTA_ERROR_DEVICE_LOST"


class BackendError(Error):
    status = "PORTA_ERROR_BACKEND"


class InternalError(Error):
    status = "PORTA_ERROR_INTERNAL"


_BY_STATUS = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        InvalidHandleError,
        NotFoundError,
        UnavailableError,
        UnsupportedError,
        InvalidKernelError,
        CompileError,
        OutOfMemoryError,
        DeviceLostError,
        BackendError,
        InternalError,
    )
}


def error_class(status_name: str) -> type[Error]:
    """The exception class of a porta_status name (porta_status_name's text)."""
    return _BY_STATUS.get(status_name, Error)
