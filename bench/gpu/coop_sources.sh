#!/bin/bash
# Writes the CUDA sources of matmul_coop.comp that the CUDA backend compiles
# for a 4096 x 4096 GEMM at a tiling (the host's spec constants, subgroups of
# 32), for bench/gpu/coop_source_bench.cu on the GPU machine:
#   bench/gpu/coop_sources.sh OUT_DIR [WMxWN:TMxTN] [PORTA_TRANSLATE]
# writes OUT_DIR/coop_f16.cu, coop_tf32.cu, coop_bf16.cu and prints the
# arguments that time them (run from the repository's root there).
set -eu
out=$1 tile=${2:-2x2:4x4} translate=${3:-build/release/bin/porta-translate}
IFS='x:' read -r wm wn tm tn <<<"$tile"
mkdir -p "$out"
src=kernels/matmul/matmul_coop.comp
threads=$((wm * wn * 32)) bm=$((wm * tm * 16)) bn=$((wn * tn * 16))
common="--spec 0=$threads --spec 1=$wm --spec 2=$wn --spec 3=$tm --spec 4=$tn --spec 6=1 --spec 8=0 --spec 9=0
        --spec 10=1 --spec 11=0 --spec 12=0 --subgroup-size 32 --target cuda --tensor-cores"
for variant in F16 F32; do sed "1a #define COOP_$variant" $src >"$out/coop_$variant.comp"; done
# shellcheck disable=SC2086  # $common is a list of arguments
"$translate" $common --spec 5=32 --spec 7=1 "$out/coop_F16.comp" -o "$out/coop_f16.cu"
"$translate" $common --spec 5=16 --spec 7=0 --tf32 "$out/coop_F32.comp" -o "$out/coop_tf32.cu"
"$translate" $common --spec 5=16 --spec 7=2 --tf32 "$out/coop_F32.comp" -o "$out/coop_bf16.cu"
rm "$out"/coop_F16.comp "$out"/coop_F32.comp
echo "translator/runtime 4096 4096 4096 $out/coop_f16.cu:$bm:$bn:$threads:f16" \
  "$out/coop_tf32.cu:$bm:$bn:$threads:tf32 $out/coop_bf16.cu:$bm:$bn:$threads:bf16"
