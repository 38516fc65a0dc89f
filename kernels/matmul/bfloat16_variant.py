#!/usr/bin/env python3
"""Writes matmul_coop_bf16 from matmul_coop_f16's SPIR-V.

The float16 variant of matmul_coop.comp moves 16-bit elements only as bits
(bit casts from the words loaded, stores to shared memory, cooperative-matrix
loads) and multiplies them only in its cooperative-matrix products, into
float32. Declaring its 16-bit float type as SPV_KHR_bfloat16's bfloat16 makes
the same module a bfloat16 GEMM, which GLSL cannot write with glslang 13 (no
bfloat16 type). The module is refused here if it holds a 16-bit float
instruction other than those (arithmetic would change meaning), and checked
with spirv-val.

usage: bfloat16_variant.py SPIRV_DIS SPIRV_AS SPIRV_VAL IN.spv OUT.spv OUT.inc
"""
import re
import subprocess
import sys

# What the float16 variant may do with a 16-bit float and keep its meaning as
# bfloat16: declare it, move it, cast bits to it, convert float32 to it
# (rounded to bfloat16), and multiply matrices of it.
ALLOWED = {
    "OpTypeFloat", "OpTypeVector", "OpTypeArray", "OpTypePointer", "OpTypeFunction",
    "OpTypeCooperativeMatrixKHR", "OpVariable", "OpFunction", "OpFunctionParameter",
    "OpFunctionCall", "OpLoad", "OpStore", "OpAccessChain", "OpInBoundsAccessChain",
    "OpBitcast", "OpFConvert", "OpCompositeExtract", "OpCompositeConstruct",
    "OpCooperativeMatrixLoadKHR", "OpCooperativeMatrixStoreKHR", "OpCooperativeMatrixMulAddKHR",
    "OpCooperativeMatrixLengthKHR", "OpReturnValue", "OpPhi", "OpSelect", "OpCopyObject",
    "OpName", "OpDecorate", "OpMemberDecorate", "OpLine", "OpUndef", "OpConstantNull",
}


def fail(message):
    sys.exit(f"bfloat16_variant.py: {message}")


def run(*command, stdin=None):
    result = subprocess.run(command, input=stdin, capture_output=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def main():
    if len(sys.argv) != 7:
        fail(__doc__.strip().splitlines()[-1])
    dis, asm, val, source, out_spv, out_inc = sys.argv[1:]
    text = run(dis, "--raw-id", source).decode()
    lines = text.splitlines()
    halves = [m.group(1) for m in (re.match(r"\s*(%\w+) = OpTypeFloat 16\s*$", l) for l in lines) if m]
    if len(halves) != 1:
        fail(f"{source}: expected one 16-bit float type, found {len(halves)}")
    # Every id whose type involves the 16-bit float (vectors, arrays, pointers,
    # matrices, functions returning it), found to a fixed point.
    typed = set(halves)
    changed = True
    while changed:
        changed = False
        for l in lines:
            m = re.match(r"\s*(%\w+) = (OpType\w+)(.*)$", l)
            if m and m.group(1) not in typed and any(t in m.group(3).split() for t in typed):
                typed.add(m.group(1))
                changed = True
    for number, l in enumerate(lines, 1):
        m = re.match(r"\s*(?:(%\w+) = )?(Op\w+)\s*(.*)$", l)
        if not m or m.group(2).startswith("OpType"):
            continue
        operands = m.group(3).split()
        if any(o in typed for o in operands) and m.group(2) not in ALLOWED:
            fail(f"{source}: line {number} uses a 16-bit float in {m.group(2)}, which bfloat16 does not "
                 f"allow or which would change meaning: {l.strip()}")
    out = []
    for l in lines:
        if re.match(r"\s*OpCapability Float16\s*$", l):
            continue  # no float16 arithmetic is left
        if re.match(r"\s*OpCapability CooperativeMatrixKHR\s*$", l):
            out += [l, "OpCapability BFloat16TypeKHR", "OpCapability BFloat16CooperativeMatrixKHR"]
            continue
        if re.match(r'\s*OpExtension "SPV_KHR_cooperative_matrix"\s*$', l):
            out += [l, 'OpExtension "SPV_KHR_bfloat16"']
            continue
        out.append(re.sub(r"= OpTypeFloat 16\s*$", "= OpTypeFloat 16 BFloat16KHR", l))
    run(asm, "--target-env", "vulkan1.1", "--preserve-numeric-ids", "-o", out_spv, "-",
        stdin="\n".join(out).encode() + b"\n")
    run(val, "--target-env", "vulkan1.1", out_spv)
    words = open(out_spv, "rb").read()
    if len(words) % 4:
        fail(f"{out_spv} is not whole words")
    values = [int.from_bytes(words[i:i + 4], "little") for i in range(0, len(words), 4)]
    with open(out_inc, "w") as f:
        for i in range(0, len(values), 8):
            f.write(", ".join(f"0x{v:08x}" for v in values[i:i + 8]) + ",\n")


if __name__ == "__main__":
    main()
