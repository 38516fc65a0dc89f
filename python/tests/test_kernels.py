import shutil
import subprocess
import threading
import time

import numpy as np
import porta
import pytest

SCALE = """
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const float factor = 1.0;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float y[]; };
layout(push_constant) uniform Push { uint n; float offset; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = x[i] * factor + p.offset;
}
"""


def test_glsl_kernel_with_spec_constant_and_push(dev):
    k = porta.kernel(SCALE, spec={0: 3.0}, device=dev)
    assert k.buffer_count == 2 and k.push_constant_size == 8 and k.workgroup_size == (64, 1, 1)
    n = 200
    x = porta.asarray(np.arange(n, dtype=np.float32), device=dev)
    y = porta.empty(n, device=dev)
    push = np.array([(n, 0.5)], dtype=[("n", "<u4"), ("offset", "<f4")])
    s = dev.stream
    start = s.record()
    s.dispatch(k, (n + 63) // 64, [x, y], push)
    end = s.record()
    s.sync()
    assert start.elapsed_ms(end) >= 0
    np.testing.assert_array_equal(y.numpy(), np.arange(n, dtype=np.float32) * 3 + 0.5)


@pytest.mark.skipif(shutil.which("glslc") is None, reason="glslc is not installed")
def test_spirv_kernel_and_entry_check(dev, tmp_path):
    src = tmp_path / "scale.comp"
    src.write_text(SCALE)
    subprocess.run(["glslc", "-fshader-stage=compute", str(src), "-o", str(tmp_path / "scale.spv")], check=True)
    words = (tmp_path / "scale.spv").read_bytes()
    k = porta.kernel(words, spec={0: 2.0}, entry="main", device=dev)
    x = porta.asarray(np.ones(64, np.float32), device=dev)
    y = porta.empty(64, device=dev)
    dev.stream.dispatch(k, 1, [x, y], np.array([64, 0], np.uint32))
    np.testing.assert_array_equal(y.numpy(), np.full(64, 2.0, np.float32))
    with pytest.raises(ValueError, match="entry 'other'"):
        porta.kernel(words, entry="other", device=dev)


def test_bad_kernels_raise_porta_errors(dev):
    with pytest.raises(porta.InvalidKernelError, match="undeclared|syntax|error"):
        porta.kernel("#version 450\nvoid main() { nonsense; }", device=dev)
    with pytest.raises(ValueError, match="whole 32-bit words"):
        porta.kernel(b"\x03\x02\x23", device=dev)
    with pytest.raises(TypeError, match="GLSL text"):
        porta.kernel(42, device=dev)


def test_dispatch_checks_its_arguments(dev):
    k = porta.kernel(SCALE, device=dev)
    x = porta.zeros(64, device=dev)
    with pytest.raises(porta.InvalidArgumentError):
        dev.stream.dispatch(k, 1, [x, x], b"\0" * 4)  # the push block is 8 bytes
    with pytest.raises(TypeError, match="porta.Array or a DLPack producer"):
        dev.stream.dispatch(k, 1, [x, [0.0] * 64], b"\0" * 8)
    with pytest.raises(ValueError, match="groups"):
        dev.stream.dispatch(k, (1, 1, 1, 1), [x, x], b"\0" * 8)


def _page_aligned(n):
    """A float32 NumPy array of n elements on a page boundary: host memory every backend that
    imports host memory can use in place (Vulkan imports whole pages)."""
    raw = np.zeros(n * 4 + 4096, np.uint8)
    start = (-raw.ctypes.data) % 4096
    return raw[start : start + n * 4].view(np.float32)


def test_dispatch_uses_dlpack_producers_in_place(dev):
    """NumPy arrays (any DLPack producer) go straight to dispatch, used in place for it:
    the kernel reads and writes the caller's memory, no porta.Array is made."""
    k = porta.kernel(SCALE, spec={0: 2.0}, device=dev)
    x, y = _page_aligned(300), _page_aligned(300)
    x[:] = np.arange(300, dtype=np.float32)
    push = np.array([(300, 1.0)], dtype=[("n", "<u4"), ("offset", "<f4")])
    try:
        dev.stream.dispatch(k, 5, [x, y], push)
    except ValueError as e:  # a device that cannot use host memory in place (OpenCL on a GPU)
        assert "cannot be used in place" in str(e) and "porta.from_dlpack" in str(e)
        pytest.skip(f"{dev} does not use host memory in place: {e}")
    dev.sync()
    np.testing.assert_array_equal(y, np.arange(300, dtype=np.float32) * 2 + 1)
    # A porta array and a NumPy array in one dispatch; the NumPy array is let go after it.
    z = porta.empty(300, device=dev)
    dev.stream.dispatch(k, 5, [y, z], push)
    np.testing.assert_array_equal(z.numpy(), (np.arange(300, dtype=np.float32) * 2 + 1) * 2 + 1)
    with pytest.raises(ValueError, match="not C-contiguous"):
        dev.stream.dispatch(k, 5, [x[::2], y], push)


def test_dispatch_uses_torch_tensors_in_place(dev):
    """PyTorch tensors go to dispatch without __dlpack__ (their memory read from
    the tensor), kept only until the work is done."""
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    import sys

    k = porta.kernel(SCALE, spec={0: 2.0}, device=dev)
    x, y = torch.arange(256, dtype=torch.float32), torch.zeros(256)
    push = np.array([(256, 1.0)], dtype=[("n", "<u4"), ("offset", "<f4")])
    held = sys.getrefcount(x), sys.getrefcount(y)
    try:
        dev.stream.dispatch(k, 4, [x, y], push)
    except ValueError as e:  # a device that cannot use host memory in place
        pytest.skip(f"{dev} does not use host memory in place: {e}")
    dev.sync()
    torch.testing.assert_close(y, torch.arange(256, dtype=torch.float32) * 2 + 1)
    assert (sys.getrefcount(x), sys.getrefcount(y)) == held, "porta still holds the tensors after the sync"
    with pytest.raises(ValueError, match="not C-contiguous"):
        dev.stream.dispatch(k, 2, [x[::2], y], push)
    assert (sys.getrefcount(x), sys.getrefcount(y)) == held


def test_waits_release_the_gil(dev):
    """While one thread is inside a porta call, another runs Python."""
    calls = []  # (start, end) of each porta call of the worker

    def timed(fn):
        start = time.perf_counter()
        fn()
        calls.append((start, time.perf_counter()))

    def work():
        n, rng = 128, np.random.default_rng(1)
        while True:  # grow the problem until one call lasts long enough to see into
            a = porta.asarray(rng.standard_normal((n, n)).astype(np.float32), device=dev)
            timed(lambda: porta.matmul(a, a))
            timed(dev.sync)
            if max(end - start for start, end in calls) >= 0.05 or n >= 2048:
                break
            n *= 2

    ticks = []
    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    start, end = max(calls, key=lambda c: c[1] - c[0])
    inside = [t for t in ticks if start < t < end]
    assert len(inside) >= 2, f"the main thread ran {len(inside)} times during a {end - start:.3f} s porta call"
