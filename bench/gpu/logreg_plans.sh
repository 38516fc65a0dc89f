#!/bin/bash
# The logistic-regression step's plans side by side on the GPU machine, from
# the .gpu/ folder bench/gpu/package.sh (or scripts/gpu/bundle) makes:
# porta-bench's logreg rows with the devices' own plans, then with each plan
# PORTA_LOGREG_PLAN=WG:R:C[:G] names (kernels/README.md), each dtype with
# plans that can take its rows (d = 256: float32 256 words, float16 128,
# int8 64). G: groups as a multiple of what an H100's 132 multiprocessors
# hold at once (the plan's groups per multiprocessor from its registers,
# bench/README.md), and many small groups.
# Usage: bash .gpu/bin/logreg_plans.sh [SIZES] [BACKENDS]
#        (defaults 2^24x256 and cuda,vulkan); the rows go to
#        $OUT/logreg_plans.txt (or ./gpu-out) and standard output.
set -u
sizes=${1:-2^24x256}
backends=${2:-cuda,vulkan}
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)  # .gpu
for f in "$here"/debs/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=$(ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json \
         /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -1)
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd
if ! grep -qs nvidia /etc/OpenCL/vendors/*.icd && ldconfig -p | grep -q libnvidia-opencl.so.1; then
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
export LD_LIBRARY_PATH=$here/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PORTA_CACHE_DIR=${PORTA_CACHE_DIR:-/tmp/porta-cache}

# The rows of one porta-bench run (its closing table), or its error.
rows() {
  "$here"/bin/porta-bench --gpu-only --no-peers --energy 0 --backends "$backends" --logreg "$sizes" "$@" \
    > /tmp/logreg_plans.txt 2>&1
  echo "  exit $?"
  sed -n '/^command:/,$p' /tmp/logreg_plans.txt | grep -E "logreg_step|error" || tail -3 /tmp/logreg_plans.txt
}
plans() {  # OP PLAN...
  local op=$1
  shift
  for plan in "$@"; do
    echo "== $op PORTA_LOGREG_PLAN=$plan"
    PORTA_LOGREG_PLAN=$plan rows --ops "$op"
  done
}
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  echo "== the devices' own plans"
  rows --ops logreg_step,logreg_step_f16,logreg_step_bf16,logreg_step_int8
  plans logreg_step 256:8:1 256:4:1 256:16:1 128:8:2 256:8:1:660 256:8:1:8192
  plans logreg_step_f16 128:16:1 128:8:1 128:32:1 64:8:2 64:16:2 256:8:1 128:16:1:924 128:16:1:8192
  plans logreg_step_bf16 128:16:1 128:8:1
  plans logreg_step_int8 64:16:1 64:16:1/twice 64:8:1 64:8:1/twice 64:32:1 32:8:2 32:16:2 \
    64:16:1:1056 64:16:1:16384 64:16:1:1848/twice
} 2>&1 | tee "$out/logreg_plans.txt"
