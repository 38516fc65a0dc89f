#!/usr/bin/env python3
"""Writes a bfloat16 module from a float16 one: matmul_coop_bf16 from
matmul_coop_f16's SPIR-V, and the tests' bfloat16 kernels.

The float16 variant of matmul_coop.comp moves 16-bit elements only as bits
(bit casts from the words loaded, stores to shared memory, cooperative-matrix
loads) and multiplies them only in its cooperative-matrix products, into
float32. Declaring its 16-bit float type as SPV_KHR_bfloat16's bfloat16 makes
the same module a bfloat16 GEMM, which GLSL cannot write with glslang 13 (no
bfloat16 type). The module is refused here if it holds a 16-bit float
instruction other than those (arithmetic would change meaning), and checked
with spirv-val.

A module without matrices may convert its 16-bit floats to and from other
types and take dot products of them, which SPV_KHR_bfloat16 allows too.

usage: bfloat16_variant.py SPIRV_DIS SPIRV_AS SPIRV_VAL IN.spv OUT.spv [OUT.inc]
"""
import re
import subprocess
import sys

# What the float16 variant may do with a 16-bit float and keep its meaning as
# bfloat16: declare it, move it, cast bits to it, convert float32 to it
# (rounded to bfloat16), convert it to other types, take dot products of it,
# and multiply matrices of it.
ALLOWED = {
    "OpTypeFloat", "OpTypeVector", "OpTypeArray", "OpTypePointer", "OpTypeFunction",
    "OpTypeCooperativeMatrixKHR", "OpVariable", "OpFunction", "OpFunctionParameter",
    "OpFunctionCall", "OpLoad", "OpStore", "OpAccessChain", "OpInBoundsAccessChain",
    "OpBitcast", "OpFConvert", "OpConvertSToF", "OpConvertUToF", "OpConvertFToS", "OpConvertFToU",
    "OpDot", "OpCompositeExtract", "OpCompositeConstruct", "OpVectorShuffle", "OpCompositeInsert",
    "OpCooperativeMatrixLoadKHR", "OpCooperativeMatrixStoreKHR", "OpCooperativeMatrixMulAddKHR",
    "OpCooperativeMatrixLengthKHR", "OpReturnValue", "OpPhi", "OpSelect", "OpCopyObject",
    "OpName", "OpMemberName", "OpDecorate", "OpMemberDecorate", "OpLine", "OpUndef", "OpConstantNull",
}


def fail(message):
    sys.exit(f"bfloat16_variant.py: {message}")


def run(*command, stdin=None):
    result = subprocess.run(command, input=stdin, capture_output=True)
    if result.returncode != 0:
        fail(f"{' '.join(command)} failed: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


def main():
    if len(sys.argv) not in (6, 7):
        fail(__doc__.strip().splitlines()[-1])
    dis, asm, val, source, out_spv = sys.argv[1:6]
    out_inc = sys.argv[6] if len(sys.argv) == 7 else None
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
    matrices = any(re.match(r"\s*OpCapability CooperativeMatrixKHR\s*$", l) for l in lines)
    dots = any(re.match(r"\s*%\w+ = OpDot (%\w+) ", l) and
               re.match(r"\s*%\w+ = OpDot (%\w+) ", l).group(1) in typed for l in lines)
    capabilities = ["OpCapability BFloat16TypeKHR"]
    capabilities += ["OpCapability BFloat16CooperativeMatrixKHR"] if matrices else []
    capabilities += ["OpCapability BFloat16DotProductKHR"] if dots else []
    out = []
    for l in lines:
        if re.match(r"\s*OpCapability Float16\s*$", l):
            continue  # no float16 arithmetic is left
        if re.match(r"\s*OpCapability Shader\s*$", l):
            out += [l] + capabilities
            continue
        if re.match(r"\s*(%\w+ = OpExtInstImport|OpMemoryModel)", l) and capabilities:
            out.append('OpExtension "SPV_KHR_bfloat16"')
            capabilities = []  # the extension once, before the first of these
        out.append(re.sub(r"= OpTypeFloat 16\s*$", "= OpTypeFloat 16 BFloat16KHR", l))
    run(asm, "--target-env", "vulkan1.1", "--preserve-numeric-ids", "-o", out_spv, "-",
        stdin="\n".join(out).encode() + b"\n")
    run(val, "--target-env", "vulkan1.1", out_spv)
    words = open(out_spv, "rb").read()
    if len(words) % 4:
        fail(f"{out_spv} is not whole words")
    if out_inc is None:
        return
    values = [int.from_bytes(words[i:i + 4], "little") for i in range(0, len(words), 4)]
    with open(out_inc, "w") as f:
        for i in range(0, len(values), 8):
            f.write(", ".join(f"0x{v:08x}" for v in values[i:i + 8]) + ",\n")


if __name__ == "__main__":
    main()
