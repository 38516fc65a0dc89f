#!/bin/bash
# porta-bench and the PyTorch comparison on the GPU machine, from the .gpu/
# folder bench/gpu/package.sh makes. Results go to $OUT (or ./gpu-out).
# Usage: bash .gpu/bin/run.sh [porta-bench arguments]
set -u
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)  # .gpu
for f in "$here"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
{
  echo "== machine"; date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  echo "== Vulkan ICDs"; ls -l /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/local/nvidia/share/vulkan/icd.d 2>&1
  for j in /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json /usr/local/nvidia/share/vulkan/icd.d/nvidia*.json; do
    [ -f "$j" ] && { echo "-- $j"; cat "$j"; }
  done
  echo "== NVIDIA libraries known to ldconfig"; ldconfig -p | grep -i -E "nvidia|libcuda|libvulkan|libOpenCL|nvrtc|cublas"
  echo "== OpenCL vendors"; ls -l /etc/OpenCL/vendors 2>&1; cat /etc/OpenCL/vendors/*.icd 2>/dev/null
} > "$out/env.txt" 2>&1
# The Vulkan ICD: the driver's own json, wherever the image put it.
icd=$(ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json \
         /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -1)
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd
egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$egl
# The OpenCL ICD: register NVIDIA's library if the image did not.
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
cublas=$(python3 -c 'import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], "lib"))' 2>/dev/null)
export LD_LIBRARY_PATH=$here/lib:/usr/local/cuda/lib64${cublas:+:$cublas}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}" >> "$out/env.txt"
export PORTA_CACHE_DIR=/tmp/porta-cache
"$here"/bin/porta-info > /tmp/porta-info.txt 2>&1
PORTA_LOG=info VK_LOADER_DEBUG=error,warn,driver "$here"/bin/porta-info >> "$out/env.txt" 2>&1
"$here"/bin/porta-bench --gpu-only --json "$out/bench.json" "$@" > "$out/bench.txt" 2> "$out/bench.err"
echo "porta-bench exit $?" >> "$out/bench.err"
if [ -n "${SWEEP:-}" ]; then
  "$here"/bin/porta-bench --gpu-only --sweep-matmul "$here"/bin/matmul.comp > "$out/sweep.txt" 2>> "$out/bench.err"
  for spv in "$here"/bin/matmul_coop_f16.spv "$here"/bin/matmul_coop_f32.spv; do
    [ -f "$spv" ] && "$here"/bin/porta-bench --gpu-only --sweep-matmul "$spv" >> "$out/sweep.txt" 2>> "$out/bench.err"
  done
fi
if [ -n "${OPS_TESTS:-}" ] && [ -x "$here"/bin/porta-ops-tests ]; then
  for b in cuda vulkan opencl:1; do
    echo "== ops tests on $b"; PORTA_TEST_BACKEND=$b timeout 300 "$here"/bin/porta-ops-tests 2>&1 | tail -15
  done > "$out/tests.txt" 2>&1
fi
python3 "$here"/bin/torch_compare.py --porta-json "$out/bench.json" --json "$out/torch.json" > "$out/torch.txt" 2>&1
cat /tmp/porta-info.txt "$out/bench.txt" "$out/torch.txt" "$out/sweep.txt" "$out/tests.txt" 2>/dev/null; tail -5 "$out/bench.err"
