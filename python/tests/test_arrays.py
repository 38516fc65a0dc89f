import ctypes
import os

import numpy as np
import porta
import pytest

from conftest import backend_name

NUMPY_DTYPES = ["float32", "float16", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"]


def test_devices_lists_the_opened_backend(dev):
    found = porta.devices()
    assert found, "porta.devices() found nothing"
    assert any(d.backend == dev.backend for d in found)
    assert dev.selector in {d.selector for d in found}


def test_open_honours_porta_backend(dev, monkeypatch):
    monkeypatch.setenv("PORTA_BACKEND", dev.backend)
    assert porta.open().backend == dev.backend
    assert porta.open(dev.backend, 0).selector == f"{dev.backend}:0"


def test_open_unknown_backend_is_a_porta_error():
    with pytest.raises(porta.Error, match="nonesuch"):
        porta.open("nonesuch")


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_round_trip_keeps_values_and_dtype(dev, rng, dtype):
    host = (rng.standard_normal((3, 5)) * 50).astype(dtype)
    a = porta.asarray(host, device=dev)
    assert a.shape == (3, 5) and a.dtype == dtype and a.device == dev
    back = a.numpy()
    assert back.dtype == host.dtype
    np.testing.assert_array_equal(back, host)


def test_bfloat16_round_trip(dev):
    values = np.array([1.0, -2.5, 3.140625, 0.0], dtype=np.float32)
    bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    a = porta.asarray(bits, device=dev, dtype="bfloat16")
    assert a.dtype == "bfloat16"
    back = a.numpy()
    try:
        import ml_dtypes

        assert back.dtype == ml_dtypes.bfloat16
        np.testing.assert_array_equal(back.astype(np.float32), values)
        np.testing.assert_array_equal(porta.asarray(values.astype(ml_dtypes.bfloat16), device=dev).numpy(), back)
    except ImportError:
        assert back.dtype == np.uint16
        np.testing.assert_array_equal(back, bits)


def test_empty_zeros_full(dev):
    assert porta.zeros((2, 3), device=dev).numpy().tolist() == [[0.0] * 3] * 2
    np.testing.assert_array_equal(porta.full(5, 7, "int16", device=dev).numpy(), np.full(5, 7, np.int16))
    np.testing.assert_array_equal(porta.full(3, -1.5, "float64", device=dev).numpy(), np.full(3, -1.5))
    e = porta.empty((4, 0), device=dev)
    assert e.shape == (4, 0) and e.numpy().shape == (4, 0)


def test_to_another_device_copies(dev):
    other = porta.open("cpu")
    a = porta.asarray(np.arange(10, dtype=np.int32), device=dev)
    b = a.to(other)
    assert b.device == other
    np.testing.assert_array_equal(b.numpy(), np.arange(10))
    assert a.to(dev) is a


def test_dlpack_out_to_numpy(dev):
    a = porta.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device=dev)
    assert a.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(a), np.arange(12).reshape(3, 4))


def test_dlpack_in_from_numpy(dev):
    host = np.linspace(0, 1, 7, dtype=np.float32)
    np.testing.assert_array_equal(porta.from_dlpack(host, device=dev).numpy(), host)


def test_dlpack_with_torch_cpu(dev):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    a = porta.from_dlpack(t, device=dev)
    assert a.shape == (2, 3)
    # The result lives on the device: host memory on the cpu backend, device
    # memory (a CUDA tensor) on the CUDA backend.
    back = torch.from_dlpack(porta.sigmoid(a)).cpu()
    torch.testing.assert_close(back, torch.sigmoid(t))


def _address(x: np.ndarray) -> int:
    return x.__array_interface__["data"][0]


@pytest.mark.skipif(backend_name() not in ("", "cpu"), reason="host memory is shared on the cpu backend")
def test_numpy_memory_is_shared_on_cpu():
    """NumPy -> porta -> NumPy on the cpu backend is one piece of memory."""
    if not porta.HAS_INTEROP:
        pytest.xfail("expected to change: without porta/interop.h (issue 20.3) arrays are copied")
    cpu = porta.open("cpu")
    host = np.arange(16, dtype=np.float32)
    a = porta.from_dlpack(host, device=cpu)
    back = np.from_dlpack(a)
    assert _address(back) == _address(host)
    host[0] = 42.0
    assert back[0] == 42.0
    assert a.is_imported and porta.asarray(host, device=cpu).is_imported
    np.testing.assert_array_equal(porta.sigmoid(porta.asarray(host, device=cpu)).numpy()[:2], 1 / (1 + np.exp(-host[:2])))


def test_capsule_consumed_twice_is_an_error(dev):
    capsule = np.arange(3, dtype=np.float32).__dlpack__()
    porta.from_dlpack(capsule, device=dev)
    with pytest.raises(ValueError, match="consumed already"):
        porta.from_dlpack(capsule, device=dev)


def test_freed_array_is_an_error(dev):
    a = porta.zeros(4, device=dev)
    a.free()
    with pytest.raises(porta.InvalidHandleError, match="freed"):
        a.numpy()
    with pytest.raises(porta.InvalidHandleError, match="freed"):
        porta.sigmoid(a)
    assert "freed" in repr(a)


def test_bad_host_input_names_what_was_expected(dev):
    with pytest.raises(ValueError, match="C-contiguous"):
        porta.asarray(np.zeros((4, 4), np.float32)[:, ::2], device=dev)
    with pytest.raises(ValueError, match="C-contiguous"):
        porta.from_dlpack(np.zeros((4, 4), np.float32).T, device=dev)
    with pytest.raises(TypeError, match="DLPack producer"):
        porta.from_dlpack([1, 2, 3], device=dev)
    with pytest.raises(TypeError, match="dtype"):
        porta.asarray(np.zeros(3, np.complex64), device=dev)
    with pytest.raises(TypeError, match="not one of porta's"):
        porta.zeros(3, dtype="float128", device=dev)
    with pytest.raises(TypeError, match="device"):
        porta.zeros(3, device=42)
