#!/bin/bash
# Writes the CUDA source of matmul.comp (float32) that the CUDA backend
# compiles for a large GEMM at a tiling (the host's spec constants: work-group
# LX x LY, depth BK, items of TM x TN; by default the CUDA backend's large
# tile, backends/cuda/device.cpp), for bench/gpu/coop_source_bench.cu on the
# GPU machine:
#   bench/gpu/matmul_sources.sh OUT_DIR [LXxLY:BK:TMxTN:PREFETCH] [PORTA_TRANSLATE]
# writes OUT_DIR/matmul_f32.cu and prints the argument that times it.
set -eu
out=$1 tile=${2:-16x16:16:8x8:1} translate=${3:-build/release/bin/porta-translate}
IFS='x:' read -r lx ly bk tm tn prefetch <<<"$tile"
mkdir -p "$out"
# FMA 1, float32 input, no epilogue, 16-byte loads (kernels/matmul/matmul.cpp).
"$translate" --target cuda --subgroup-size 32 --spec 0="$lx" --spec 1="$ly" --spec 2="$bk" --spec 3="$tm" \
  --spec 4="$tn" --spec 5="$prefetch" --spec 6=1 --spec 7=0 --spec 8=0 --spec 9=0 --spec 10=1 \
  kernels/matmul/matmul.comp -o "$out/matmul_f32.cu"
echo "$out/matmul_f32.cu:$((tm * ly)):$((tn * lx)):${lx}x${ly}:f32"
