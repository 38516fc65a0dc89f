#!/usr/bin/env bash
# Checks the kernel corpus (tests/kernels/<class>/*.comp): every kernel's header
# follows the corpus format (README.md) and the kernel compiles with glslc for
# Vulkan 1.1 with debug info and passes spirv-val. Runs as the ctest entry
# corpus.valid; by hand: tests/kernels/validate.sh [FILE.comp...]
# Exit status: 0 all valid, 1 a kernel is not, 77 glslc or spirv-val is missing.
# Class coopmat (GL_KHR_cooperative_matrix, beyond glslc's glslang 12) compiles
# with COOPMAT_GLSLANG (glslangValidator 13+) and COOPMAT_SPIRV_VAL, which ctest
# passes from the build's tools venv; without them those kernels are listed as
# not checked.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
features_h="$here/../../api/include/porta/features.h"
classes="abi layout matrix integer float bool struct_results atomics subgroup spec int64 fp64 fp16 bf16 int8 int16 shared control classic coopmat"
minimum_total=200

glslc="${GLSLC:-$(command -v glslc)}"
spirv_val="${SPIRV_VAL:-$(command -v spirv-val)}"
if [[ -z "$glslc" || -z "$spirv_val" ]]; then
  echo "SKIP: corpus.valid needs glslc and spirv-val on PATH (or GLSLC / SPIRV_VAL)"
  exit 77
fi

# Feature names a kernel may require: the names of PORTA_FEATURE_LIST.
known_features="$(grep -o 'X([A-Z0-9_]*, [0-9]*, "[a-z0-9-]*"' "$features_h" | sed 's/.*"\(.*\)"/\1/' | tr '\n' ' ')"
if [[ -z "$known_features" ]]; then
  echo "FAIL: no feature names found in $features_h"
  exit 1
fi
known_options="--groups --inputs --elements --buffer --push --spec --entry --tolerance-ulp --expect"
inexact_functions="exp|exp2|log|log2|pow|sin|cos|tan|asin|acos|atan|sinh|cosh|tanh|asinh|acosh|atanh|sqrt|inversesqrt|length|distance|normalize|refract|inverse"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $1: $2"
  failures=$((failures + 1))
}

# One kernel: its header, then glslc and spirv-val.
check_kernel() {
  local file="$1" rel="${1#"$here"/}"
  local class name first options word requires feature
  class="$(basename "$(dirname "$file")")"
  name="$(basename "$file" .comp)"
  if [[ " $classes " != *" $class "* ]]; then
    fail "$rel" "folder '$class' is not a corpus class (expected one of: $classes)"
    return
  fi
  if [[ ! "$name" =~ ^[a-z0-9_]+$ ]]; then
    fail "$rel" "name '$name' must be lower case letters, digits and '_'"
    return
  fi
  first="$(head -n 1 "$file")"
  if [[ "$first" != "// porta-conformance: "* ]]; then
    fail "$rel" "line 1 must be '// porta-conformance: <options>', found: $first"
    return
  fi
  options="${first#// porta-conformance: }"
  for word in $options; do
    if [[ "$word" == --* && " $known_options " != *" $word "* ]]; then
      fail "$rel" "unknown porta-conformance option '$word' (expected one of: $known_options)"
    fi
  done
  [[ " $options " == *" --groups "* ]] || fail "$rel" "the options give no --groups"
  # Every --spec ID names a specialization constant the kernel declares.
  for word in $(grep -o -- '--spec [0-9]*' <<<"$options" | cut -d' ' -f2); do
    grep -Eq "(constant_id|local_size_[xyz]_id) *= *$word\b" "$file" ||
      fail "$rel" "--spec $word: the kernel declares no constant_id = $word"
  done
  # Functions whose Vulkan precision is not exact need a tolerance (README.md lists them).
  if sed "s|//.*||" "$file" | grep -Eq "(^|[^.a-zA-Z0-9_])($inexact_functions) *\(" && [[ " $options " != *" --tolerance-ulp "* ]]; then
    fail "$rel" "calls a function Vulkan does not require to be exact ($inexact_functions) but gives no --tolerance-ulp"
  fi
  if ! sed -n '2,4p' "$file" | grep -q '^// what: .'; then
    fail "$rel" "no '// what: ...' line among lines 2-4"
  fi
  requires="$(sed -n '2,4p' "$file" | sed -n 's|^// porta-requires: ||p')"
  for feature in $requires; do
    if [[ " $known_features " != *" $feature "* ]]; then
      fail "$rel" "porta-requires names '$feature', not a feature of features.h ($known_features)"
    fi
  done
  local spv="$tmp/$class.$name.spv" val_options=(--target-env vulkan1.1)
  if [[ "$class" == coopmat ]]; then
    if [[ -z "${COOPMAT_GLSLANG:-}" || -z "${COOPMAT_SPIRV_VAL:-}" ]]; then
      echo "NOT CHECKED: $rel: no COOPMAT_GLSLANG / COOPMAT_SPIRV_VAL (glslangValidator 13+, for GL_KHR_cooperative_matrix)"
      return
    fi
    if ! "$COOPMAT_GLSLANG" --quiet -V --target-env vulkan1.1 -g -o "$spv" "$file" >"$tmp/log" 2>&1; then
      fail "$rel" "$COOPMAT_GLSLANG -V --target-env vulkan1.1 -g failed:"
      sed 's/^/    /' "$tmp/log"
    elif ! "$COOPMAT_SPIRV_VAL" "${val_options[@]}" "$spv" >"$tmp/log" 2>&1; then
      fail "$rel" "$COOPMAT_SPIRV_VAL ${val_options[*]} failed:"
      sed 's/^/    /' "$tmp/log"
    fi
    return
  fi
  if ! "$glslc" --target-env=vulkan1.1 -g -o "$spv" "$file" >"$tmp/log" 2>&1; then
    fail "$rel" "glslc --target-env=vulkan1.1 -g failed:"
    sed 's/^/    /' "$tmp/log"
    return
  fi
  # Scalar block layout is a device feature (VK_EXT_scalar_block_layout):
  # spirv-val checks it only when told the device has it.
  grep -q 'GL_EXT_scalar_block_layout' "$file" && val_options+=(--scalar-block-layout)
  if ! "$spirv_val" "${val_options[@]}" "$spv" >"$tmp/log" 2>&1; then
    fail "$rel" "spirv-val ${val_options[*]} failed:"
    sed 's/^/    /' "$tmp/log"
  fi
}

if [[ $# -gt 0 ]]; then
  files=("$@")
else
  mapfile -t files < <(find "$here" -mindepth 2 -maxdepth 2 -name '*.comp' | sort)
  for class in $classes; do
    compgen -G "$here/$class/*.comp" >/dev/null || fail "$class/" "the class has no kernel"
  done
  if [[ ${#files[@]} -lt $minimum_total ]]; then
    fail "tests/kernels" "${#files[@]} kernels, the corpus holds at least $minimum_total"
  fi
  stray="$(find "$here" -maxdepth 1 -name '*.comp'; find "$here" -mindepth 3 -name '*.comp')"
  [[ -z "$stray" ]] || fail "tests/kernels" "kernels outside tests/kernels/<class>/: $stray"
  dups="$(printf '%s\n' "${files[@]}" | xargs -n1 basename | sort | uniq -d | tr '\n' ' ')"
  [[ -z "$dups" ]] || fail "tests/kernels" "kernel names used in more than one class: $dups"
fi

for file in "${files[@]}"; do
  check_kernel "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
done
echo "${#files[@]} kernels checked, $failures failures"
[[ $failures -eq 0 ]]
