#!/usr/bin/env bash
# The module a Vulkan device runs with PORTA_ROBUST=report (porta-translate
# --vulkan-report: the kernel's prepared SPIR-V with every buffer access checked
# and recorded, translator/src/bounds_instrument.cpp) passes spirv-val, for every
# kernel of the corpus and of kernels/. Runs as the ctest entry
# corpus.valid_vulkan_report; by hand:
#   tests/robust/validate_vulkan_report.sh PORTA_TRANSLATE SPIRV_VAL [FILE.comp...]
# A kernel whose own module (glslc's) the same spirv-val rejects (a rule newer
# than the kernel, a layout the options below do not name) is listed as not
# checked, with spirv-val's reason. Exit status: 0 all valid, 1 one is not, 77
# a tool is missing.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
translate="${1:-}" spirv_val="${2:-}"
shift 2 2>/dev/null || true
if [[ ! -x "$translate" || ! -x "$spirv_val" ]]; then
  echo "SKIP: needs porta-translate and spirv-val (got '$translate', '$spirv_val')"
  exit 77
fi
glslc="$(command -v glslc || true)"
if [[ $# -gt 0 ]]; then
  files=("$@")
else
  mapfile -t files < <(find "$here/../kernels" "$here/../../kernels" -mindepth 2 -maxdepth 2 -name '*.comp' | sort)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0 checked=0 unchecked=0
for file in "${files[@]}"; do
  options=(--target-env vulkan1.1)
  # Scalar block layout is a device feature spirv-val checks only when told.
  grep -q 'GL_EXT_scalar_block_layout' "$file" && options+=(--scalar-block-layout)
  if ! "$translate" --vulkan-report -o "$tmp/report.spv" "$file" >"$tmp/log" 2>&1; then
    echo "FAIL: $file: porta-translate --vulkan-report failed:"
    sed 's/^/    /' "$tmp/log"
    failures=$((failures + 1))
    continue
  fi
  if "$spirv_val" "${options[@]}" "$tmp/report.spv" >"$tmp/log" 2>&1; then
    checked=$((checked + 1))
    continue
  fi
  # The kernel's own module, where glslc can make it (not cooperative-matrix GLSL).
  if [[ -n "$glslc" ]] && "$glslc" --target-env=vulkan1.1 -o "$tmp/own.spv" "$file" >/dev/null 2>&1 &&
    ! "$spirv_val" "${options[@]}" "$tmp/own.spv" >"$tmp/own.log" 2>&1; then
    echo "NOT CHECKED: $file: its own module fails $spirv_val ${options[*]}: $(head -n 1 "$tmp/own.log")"
    unchecked=$((unchecked + 1))
    continue
  fi
  echo "FAIL: $file: the instrumented module fails $spirv_val ${options[*]}:"
  sed 's/^/    /' "$tmp/log"
  failures=$((failures + 1))
done
echo "${#files[@]} kernels: $checked instrumented modules valid, $unchecked not checked, $failures failures"
[[ $failures -eq 0 && $checked -gt 0 ]]
