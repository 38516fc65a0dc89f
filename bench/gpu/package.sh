#!/bin/sh
# Copies a Release build into .gpu/ for the GPU machine: libporta and its
# plugins, porta-bench and its peers, porta-info, porta-logreg and the scripts,
# stripped to fit the transfer limit. Usage: bench/gpu/package.sh [BUILD_DIR]
set -eu
build=${1:-build/bench}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
rm -rf .gpu/bin .gpu/lib
mkdir -p .gpu/bin .gpu/lib/porta .gpu/lib/porta-bench .gpu/debs
cp -P "$build"/lib/libporta.so* .gpu/lib/
cp "$build"/lib/porta/*.so .gpu/lib/porta/
cp "$build"/lib/porta-bench/*.so .gpu/lib/porta-bench/ 2>/dev/null || true
for p in porta-bench porta-info porta-logreg; do cp "$build/bin/$p" .gpu/bin/; done
[ -x "$build/bin/porta-ops-tests" ] && cp "$build/bin/porta-ops-tests" .gpu/bin/
cp bench/gpu/*.py bench/gpu/*.sh kernels/matmul/matmul.comp .gpu/bin/
# The cooperative-matrix GEMM's SPIR-V (a build with glslangValidator 13) for the coopmat sweep.
cp "$build"/kernels/spirv/matmul_coop_*.spv .gpu/bin/ 2>/dev/null || true
find .gpu/bin .gpu/lib -type f \( -name '*.so*' -o -perm -u+x \) ! -name '*.py' ! -name '*.sh' \
  -exec strip --strip-unneeded {} + 2>/dev/null || true
du -sh .gpu
