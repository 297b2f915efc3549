#!/usr/bin/env bash
# Builds IREE's runtime as one shared library (libiree_runtime.so) plus the tools iree-run-module,
# iree-dump-module and iree-benchmark-module, and installs them where runtime-iree looks for them:
#
#   ${XDG_DATA_HOME:-$HOME/.local/share}/iree-stubs/iree-runtime/<version>/<os>-<arch>/lib/
#   ${XDG_DATA_HOME:-$HOME/.local/share}/iree-stubs/iree-runtime/<version>/<os>-<arch>/bin/
#
# IREE publishes no runtime shared library, so this script makes one from IREE's sources: a
# runtime-only CMake configure (no compiler, tests, samples or bindings; the local-sync and
# local-task HAL drivers; the embedded-elf, vmvx-module and system-library executable loaders;
# position-independent code; C API symbols visible), then one link of IREE's unified runtime
# archive, the archives of IREE's parameter support (the io_parameters module, parameter indices
# and providers, the irpa/gguf/safetensors parsers) and flatcc and printf, with nothing left
# undefined. It checks that the library exports every symbol runtime-iree calls before installing.
#
# Run with --help for the options. Re-running is safe: configure and build are incremental and the
# install replaces the previous files of the same version and platform.
set -euo pipefail
if [[ "${BASH_VERSINFO[0]}" -lt 4 ]]; then
  echo "build-iree-runtime: error: needs bash 4 or newer (this is $BASH_VERSION; macOS: 'brew install bash')" >&2
  exit 1
fi

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SYMBOL_LIST="$SCRIPT_DIR/../src/main/resources/dev/ireestubs/iree/required-symbols.txt"

VERSION="3.11.0"
SOURCE=""
FLATCC=""
PRINTF=""
BENCHMARK=""
PREFIX=""
BUILD_ROOT=""
JOBS=""
MIN_CMAKE="3.26"

# Symbols of IREE's parameter support that the library must export (the io_parameters module and
# what builds its providers from .irpa/.gguf/.safetensors files), beside runtime-iree's own list.
PARAMETER_SYMBOLS=(
  iree_io_parameters_module_create
  iree_io_parameter_index_create
  iree_io_parameter_index_release
  iree_io_parameter_index_provider_create
  iree_io_parameter_provider_release
  iree_io_parse_file_index
  iree_io_file_handle_open
  iree_io_file_handle_release
  iree_io_scope_map_initialize
  iree_runtime_session_append_module
  iree_runtime_instance_vm_instance
  iree_vm_module_release
)

# Archives linked whole (every symbol exported): the unified runtime, then parameter support that
# the unified archive lacks. Paths are relative to the build directory.
API_ARCHIVES=(
  runtime/src/iree/runtime/libiree_runtime_unified.a
  runtime/src/iree/modules/io/parameters/libiree_modules_io_parameters_parameters.a
  runtime/src/iree/io/libiree_io_parameter_index.a
  runtime/src/iree/io/libiree_io_parameter_index_provider.a
  runtime/src/iree/io/libiree_io_parameter_provider.a
  runtime/src/iree/io/libiree_io_scope_map.a
  runtime/src/iree/io/libiree_io_stream.a
  runtime/src/iree/io/formats/libiree_io_formats_parser_registry.a
  runtime/src/iree/io/formats/irpa/libiree_io_formats_irpa_irpa.a
  runtime/src/iree/io/formats/gguf/libiree_io_formats_gguf_gguf.a
  runtime/src/iree/io/formats/safetensors/libiree_io_formats_safetensors_safetensors.a
  runtime/src/iree/hal/utils/libiree_hal_utils_file_cache.a
)
# Third-party archives the unified archive does not contain (a library linked without flatcc loads
# but kills the process at the first module load: "undefined symbol: flatcc_verify_table_as_root").
THIRD_PARTY_ARCHIVES=(
  build_tools/third_party/flatcc/libflatcc_parsing.a
  build_tools/third_party/flatcc/libflatcc_runtime.a
  build_tools/third_party/printf/libprintf_printf.a
)
CMAKE_TARGETS=(
  iree_runtime_unified
  iree_modules_io_parameters_parameters
  iree_io_formats_parser_registry
  iree_io_parameter_index_provider
  iree_io_scope_map
  iree-run-module
  iree-dump-module
  iree-benchmark-module
)
TOOLS=(iree-run-module iree-dump-module iree-benchmark-module)

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Builds IREE's runtime as one shared library with iree-run-module, iree-dump-module and
iree-benchmark-module, and installs them for runtime-iree to find.

Sources (one of):
  --source DIR      an IREE checkout of the release (its runtime/version.json is checked);
                    its submodules third_party/flatcc, third_party/printf and
                    third_party/benchmark initialised, or given separately:
  --flatcc DIR      a checkout of dvidelabs/flatcc at the commit IREE pins
  --printf DIR      a checkout of eyalroz/printf at the commit IREE pins
  --benchmark DIR   a checkout of google/benchmark at the commit IREE pins
  (none)            clone tag v<version> and those three submodules with git (needs network)

Options:
  --version X.Y.Z   the IREE release (default $VERSION)
  --prefix DIR      install into DIR/lib and DIR/bin (default:
                    \${XDG_DATA_HOME:-\$HOME/.local/share}/iree-stubs/iree-runtime/<version>/<os>-<arch>,
                    where runtime-iree looks; with another prefix, point runtime-iree at
                    DIR/lib/<library> with -Diree.runtime.library or IREE_RUNTIME_LIBRARY)
  --build-dir DIR   where sources are staged and built (default:
                    \${XDG_CACHE_HOME:-\$HOME/.cache}/iree-stubs/iree-runtime-build/<version>)
  --jobs N          parallel build jobs (default: ninja's choice)
  -h, --help        this text

Needs CMake >= $MIN_CMAKE, Ninja, a C/C++ compiler (gcc or clang), nm and git (for cloning).
EOF
}

say() { printf '==> %s\n' "$*"; }
run() { # prints the command, then runs it
  { printf '    $'; printf ' %q' "$@"; printf '\n'; } >&2
  "$@"
}
die() {
  printf 'build-iree-runtime: error: %s\n' "$*" >&2
  exit 1
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --version) VERSION="${2:?--version needs a value}"; shift 2 ;;
    --source) SOURCE="${2:?--source needs a directory}"; shift 2 ;;
    --flatcc) FLATCC="${2:?--flatcc needs a directory}"; shift 2 ;;
    --printf) PRINTF="${2:?--printf needs a directory}"; shift 2 ;;
    --benchmark) BENCHMARK="${2:?--benchmark needs a directory}"; shift 2 ;;
    --prefix) PREFIX="${2:?--prefix needs a directory}"; shift 2 ;;
    --build-dir) BUILD_ROOT="${2:?--build-dir needs a directory}"; shift 2 ;;
    --jobs) JOBS="${2:?--jobs needs a number}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done

[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] \
  || die "--version must be a release like 3.11.0, not '$VERSION'"
[[ -z "$JOBS" || "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive number, not '$JOBS'"

# ------------------------------------------------------------------------------------------------
# Platform: the same names runtime-iree computes from os.name and os.arch.

case "$(uname -s)" in
  Linux) OS=linux; LIB_NAME=libiree_runtime.so ;;
  Darwin) OS=macos; LIB_NAME=libiree_runtime.dylib ;;
  *) die "unsupported operating system '$(uname -s)': this script knows Linux (tested) and macOS" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) ARCH=x86_64 ;;
  aarch64|arm64) ARCH=aarch64 ;;
  *) die "unsupported CPU architecture '$(uname -m)': this script knows x86_64 and aarch64" ;;
esac
PLATFORM="$OS-$ARCH"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
CACHE_HOME="${XDG_CACHE_HOME:-$HOME/.cache}"
PREFIX="${PREFIX:-$DATA_HOME/iree-stubs/iree-runtime/$VERSION/$PLATFORM}"
BUILD_ROOT="${BUILD_ROOT:-$CACHE_HOME/iree-stubs/iree-runtime-build/$VERSION}"

say "IREE $VERSION runtime for $PLATFORM"
say "install prefix: $PREFIX"
say "build directory: $BUILD_ROOT"
[[ "$OS" == linux ]] || say "note: only Linux x86_64 has been tested; on $PLATFORM this is a best effort"

# ------------------------------------------------------------------------------------------------
# Tools

version_at_least() { # $1 >= $2, both dotted numbers
  [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" == "$2" ]]
}

need_tool() { # name, what to install
  command -v "$1" >/dev/null 2>&1 || die "'$1' is not installed. $2"
}

CMAKE_HINT="On Debian 12 (tested) take CMake 3.31 from bookworm-backports: add that suite to apt's
  sources (a copy of the first stanza of /etc/apt/sources.list.d/debian.sources with another Suites line)
  and install from it:
    awk 'BEGIN { RS = \"\"; ORS = \"\\n\" } NR == 1' /etc/apt/sources.list.d/debian.sources \\
      | sed 's/^Suites:.*/Suites: bookworm-backports/' > /etc/apt/sources.list.d/bookworm-backports.sources
    apt-get update && apt-get install -t bookworm-backports cmake
  Ubuntu 24.04 and Debian 13 ship CMake >= 3.26 ('apt-get install cmake'); elsewhere 'pip install cmake'
  (Kitware's PyPI package) or 'brew install cmake' (macOS)."
need_tool cmake "Install CMake >= $MIN_CMAKE. $CMAKE_HINT"
CMAKE_VERSION="$(cmake --version | head -1 | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -1)"
version_at_least "$CMAKE_VERSION" "$MIN_CMAKE" \
  || die "CMake $CMAKE_VERSION is too old: IREE $VERSION needs >= $MIN_CMAKE. $CMAKE_HINT"
need_tool ninja "Install Ninja: 'apt-get install ninja-build' (Debian/Ubuntu), 'brew install ninja' (macOS)."
CC_BIN="${CC:-cc}"
need_tool "$CC_BIN" "Install a C/C++ compiler: 'apt-get install build-essential' (or clang), Xcode command line tools on macOS."
need_tool "${CXX:-c++}" "Install a C++ compiler: 'apt-get install g++' (or clang), Xcode command line tools on macOS."
need_tool nm "Install binutils: 'apt-get install binutils'."
say "tools: cmake $CMAKE_VERSION, $(ninja --version | sed 's/^/ninja /'), $("$CC_BIN" --version | head -1)"

# ------------------------------------------------------------------------------------------------
# Sources

mkdir -p "$BUILD_ROOT"
BUILD_ROOT="$(cd "$BUILD_ROOT" && pwd)"

if [[ -z "$SOURCE" ]]; then
  [[ -z "$FLATCC$PRINTF$BENCHMARK" ]] || die "--flatcc, --printf and --benchmark need --source"
  need_tool git "Install git, or give an IREE checkout with --source."
  SOURCE="$BUILD_ROOT/iree-clone"
  if [[ ! -f "$SOURCE/runtime/version.json" ]]; then
    say "cloning IREE v$VERSION (no --source given)"
    rm -rf "$SOURCE"
    run git clone --depth 1 --branch "v$VERSION" https://github.com/iree-org/iree.git "$SOURCE" \
      || die "cannot clone IREE v$VERSION (no network?): give an IREE checkout with --source DIR"
  fi
  run git -C "$SOURCE" submodule update --init --depth 1 \
    third_party/flatcc third_party/printf third_party/benchmark \
    || die "cannot fetch IREE's submodules flatcc, printf and benchmark (no network?): give" \
      "checkouts with --source DIR --flatcc DIR --printf DIR --benchmark DIR"
fi

[[ -d "$SOURCE" ]] || die "--source $SOURCE is not a directory"
SOURCE="$(cd "$SOURCE" && pwd)"
[[ -f "$SOURCE/CMakeLists.txt" && -f "$SOURCE/runtime/version.json" ]] \
  || die "$SOURCE is not an IREE source checkout (no CMakeLists.txt and runtime/version.json)"
SOURCE_VERSION="$(grep -oE '"package-version"[^"]*"[^"]+"' "$SOURCE/runtime/version.json" \
  | sed -E 's/.*"([^"]+)"$/\1/')"
[[ "$SOURCE_VERSION" == "$VERSION" || "$SOURCE_VERSION" == "$VERSION".* ]] \
  || die "$SOURCE is IREE $SOURCE_VERSION (runtime/version.json), not $VERSION: check out tag" \
    "v$VERSION, or pass --version matching the checkout"
# git only inside the checkout's own repository (not one it may be nested in).
source_git() { [[ -e "$SOURCE/.git" ]] && git -C "$SOURCE" "$@" 2>/dev/null; }
SOURCE_COMMIT="$(source_git rev-parse HEAD || echo "unknown (not a git checkout)")"
say "IREE sources: $SOURCE (version.json: $SOURCE_VERSION, commit $SOURCE_COMMIT)"

# A file that proves each third-party checkout is there (not an empty submodule directory).
submodule_marker() {
  case "$1" in
    flatcc) echo "src/runtime/verifier.c" ;;
    printf) echo "src/printf/printf.c" ;;
    benchmark) echo "src/benchmark.cc" ;;
  esac
}

# Where each third-party checkout is: the given directory, else the initialised submodule.
declare -A THIRD_PARTY
STAGE=0
for name in flatcc printf benchmark; do
  given=""
  case "$name" in
    flatcc) given="$FLATCC" ;;
    printf) given="$PRINTF" ;;
    benchmark) given="$BENCHMARK" ;;
  esac
  marker="$(submodule_marker "$name")"
  if [[ -n "$given" ]]; then
    [[ -f "$given/$marker" ]] || die "--$name $given is not a $name checkout (no $marker)"
    THIRD_PARTY[$name]="$(cd "$given" && pwd)"
    STAGE=1
  elif [[ -f "$SOURCE/third_party/$name/$marker" ]]; then
    THIRD_PARTY[$name]="$SOURCE/third_party/$name"
  else
    pinned="$(source_git ls-tree HEAD "third_party/$name" | awk '{print $3}' || true)"
    die "IREE's submodule third_party/$name is missing (no $marker). Run" \
      "'git -C $SOURCE submodule update --init third_party/flatcc third_party/printf" \
      "third_party/benchmark', or give a checkout with --$name DIR${pinned:+ (IREE pins commit $pinned)}"
  fi
  say "$name: ${THIRD_PARTY[$name]}"
done

# With separate checkouts, configure a staging tree of symbolic links (IREE's CMake expects them
# under third_party/), so the source checkout itself is never written to.
CMAKE_SOURCE="$SOURCE"
if [[ "$STAGE" == 1 ]]; then
  CMAKE_SOURCE="$BUILD_ROOT/src"
  say "staging $SOURCE with the given checkouts as links in $CMAKE_SOURCE"
  rm -rf "$CMAKE_SOURCE"
  mkdir -p "$CMAKE_SOURCE/third_party"
  for entry in "$SOURCE"/* "$SOURCE"/.[!.]*; do
    [[ -e "$entry" && "$(basename "$entry")" != third_party ]] || continue
    ln -s "$entry" "$CMAKE_SOURCE/$(basename "$entry")"
  done
  for entry in "$SOURCE"/third_party/*; do
    [[ -e "$entry" ]] || continue
    ln -s "$entry" "$CMAKE_SOURCE/third_party/$(basename "$entry")"
  done
  for name in flatcc printf benchmark; do
    rm -f "$CMAKE_SOURCE/third_party/$name"
    ln -s "${THIRD_PARTY[$name]}" "$CMAKE_SOURCE/third_party/$name"
  done
fi

# ------------------------------------------------------------------------------------------------
# Configure and build

BUILD_DIR="$BUILD_ROOT/build"
say "configuring a runtime-only build in $BUILD_DIR"
run cmake -G Ninja -S "$CMAKE_SOURCE" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DIREE_BUILD_COMPILER=OFF \
  -DIREE_BUILD_TESTS=OFF \
  -DIREE_BUILD_SAMPLES=OFF \
  -DIREE_BUILD_PYTHON_BINDINGS=OFF \
  -DIREE_BUILD_BINDINGS_TFLITE=OFF \
  -DIREE_BUILD_BINDINGS_TFLITE_JAVA=OFF \
  -DIREE_HAL_DRIVER_DEFAULTS=OFF \
  -DIREE_HAL_DRIVER_LOCAL_SYNC=ON \
  -DIREE_HAL_DRIVER_LOCAL_TASK=ON \
  -DIREE_HAL_EXECUTABLE_LOADER_DEFAULTS=OFF \
  -DIREE_HAL_EXECUTABLE_LOADER_EMBEDDED_ELF=ON \
  -DIREE_HAL_EXECUTABLE_LOADER_VMVX_MODULE=ON \
  -DIREE_HAL_EXECUTABLE_LOADER_SYSTEM_LIBRARY=ON \
  -DIREE_VISIBILITY_HIDDEN=OFF \
  -DIREE_ERROR_ON_MISSING_SUBMODULES=OFF \
  -DIREE_ENABLE_LIBBACKTRACE=OFF \
  -DIREE_ENABLE_CPUINFO=OFF \
  || die "CMake configure failed (its messages are above)"

say "building ${CMAKE_TARGETS[*]}"
START=$SECONDS
run ninja -C "$BUILD_DIR" ${JOBS:+-j "$JOBS"} "${CMAKE_TARGETS[@]}" \
  || die "the build failed (see the compiler output above)"
say "build took $((SECONDS - START)) s"

# ------------------------------------------------------------------------------------------------
# Link one shared library

for a in "${API_ARCHIVES[@]}" "${THIRD_PARTY_ARCHIVES[@]}"; do
  [[ -f "$BUILD_DIR/$a" ]] || die "the build produced no $a: is $SOURCE really IREE $VERSION?"
done

defined_symbols() { # global symbols an archive or library defines
  nm -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | sort -u
}

# Parameter-support archives whose objects the unified archive already holds are left out (linking
# them whole again would define their symbols twice).
UNIFIED_SYMBOLS="$BUILD_ROOT/unified.symbols"
defined_symbols "$BUILD_DIR/${API_ARCHIVES[0]}" > "$UNIFIED_SYMBOLS"
WHOLE=("$BUILD_DIR/${API_ARCHIVES[0]}")
for a in "${API_ARCHIVES[@]:1}"; do
  if [[ -z "$(defined_symbols "$BUILD_DIR/$a" | comm -12 - "$UNIFIED_SYMBOLS")" ]]; then
    WHOLE+=("$BUILD_DIR/$a")
  fi
done
# Every other IREE archive resolves what those need (only the objects needed are taken).
mapfile -t REST < <(cd "$BUILD_DIR" && find runtime/src -name 'libiree_*.a' | sort \
  | grep -vxF -f <(printf '%s\n' "${API_ARCHIVES[@]}") | sed "s|^|$BUILD_DIR/|")
THIRD=()
for a in "${THIRD_PARTY_ARCHIVES[@]}"; do THIRD+=("$BUILD_DIR/$a"); done

LIB_OUT="$BUILD_DIR/$LIB_NAME"
say "linking $LIB_NAME: ${#WHOLE[@]} archives whole, ${#REST[@]} IREE archives and flatcc/printf as needed, nothing left undefined"
if [[ "$OS" == linux ]]; then
  run "$CC_BIN" -shared -o "$LIB_OUT" -Wl,-soname,"$LIB_NAME" \
    -Wl,--whole-archive "${WHOLE[@]}" -Wl,--no-whole-archive \
    -Wl,--start-group "${REST[@]}" "${THIRD[@]}" -Wl,--end-group \
    -Wl,--no-undefined -lpthread -ldl -lm \
    || die "linking $LIB_NAME failed (an undefined symbol above names what is missing)"
else
  FORCE=()
  for a in "${WHOLE[@]}"; do FORCE+=(-Wl,-force_load,"$a"); done
  run "$CC_BIN" -dynamiclib -o "$LIB_OUT" -Wl,-install_name,"@rpath/$LIB_NAME" \
    "${FORCE[@]}" "${REST[@]}" "${THIRD[@]}" -Wl,-undefined,error -lm \
    || die "linking $LIB_NAME failed (an undefined symbol above names what is missing)"
fi

# ------------------------------------------------------------------------------------------------
# Check the exported API

say "checking the exported symbols"
[[ -f "$SYMBOL_LIST" ]] \
  || die "cannot find runtime-iree's symbol list $SYMBOL_LIST: run this script from an iree-stubs checkout"
if [[ "$OS" == linux ]]; then
  EXPORTED="$(nm -D --defined-only "$LIB_OUT" | awk 'NF == 3 { print $3 }' | sort -u)"
else
  EXPORTED="$(nm -gU "$LIB_OUT" | awk 'NF == 3 { sub(/^_/, "", $3); print $3 }' | sort -u)"
fi
MISSING=()
CHECKED=0
while IFS= read -r line; do
  line="${line%%#*}"
  line="$(echo "$line" | xargs)"
  [[ -n "$line" ]] || continue
  CHECKED=$((CHECKED + 1))
  found=0
  # "a or b": either symbol will do (e.g. the allocator of the build).
  for alt in ${line// or / }; do
    grep -qxF "$alt" <<<"$EXPORTED" && found=1
  done
  [[ "$found" == 1 ]] || MISSING+=("$line")
done < <(cat "$SYMBOL_LIST"; printf '%s\n' "${PARAMETER_SYMBOLS[@]}")
[[ ${#MISSING[@]} -eq 0 ]] \
  || die "$LIB_NAME does not export ${#MISSING[@]} of the $CHECKED symbols runtime-iree needs:" \
    "${MISSING[*]}"
say "all $CHECKED symbols runtime-iree and its parameter support need are exported"
if [[ "$OS" == linux ]] && command -v ldd >/dev/null 2>&1; then
  if ldd -r "$LIB_OUT" 2>&1 | grep -q "undefined symbol"; then
    ldd -r "$LIB_OUT" >&2 || true
    die "$LIB_NAME has symbols the dynamic linker cannot resolve"
  fi
  say "ldd -r: every symbol resolves"
fi

# ------------------------------------------------------------------------------------------------
# Install

say "installing into $PREFIX"
mkdir -p "$PREFIX/lib" "$PREFIX/bin"
install_file() { # source, target directory, mode
  local tmp="$2/.$(basename "$1").tmp.$$"
  cp "$1" "$tmp"
  chmod "$3" "$tmp"
  mv -f "$tmp" "$2/$(basename "$1")" # replace atomically: a running JVM keeps its old mapping
}
install_file "$LIB_OUT" "$PREFIX/lib" 755
for tool in "${TOOLS[@]}"; do
  [[ -x "$BUILD_DIR/tools/$tool" ]] || die "the build produced no tools/$tool"
  install_file "$BUILD_DIR/tools/$tool" "$PREFIX/bin" 755
done
cat > "$PREFIX/BUILD-INFO.txt" <<EOF
IREE runtime $VERSION for $PLATFORM, built by iree-stubs' build-iree-runtime.sh
date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
IREE sources: $SOURCE (version.json $SOURCE_VERSION, commit $SOURCE_COMMIT)
flatcc: ${THIRD_PARTY[flatcc]}
printf: ${THIRD_PARTY[printf]}
benchmark: ${THIRD_PARTY[benchmark]}
compiler: $("$CC_BIN" --version | head -1)
cmake: $CMAKE_VERSION
HAL drivers: local-sync, local-task; executable loaders: embedded-elf, vmvx-module, system-library
EOF

SIZE="$(wc -c < "$PREFIX/lib/$LIB_NAME")"
say "done: $PREFIX/lib/$LIB_NAME ($SIZE bytes)"
say "tools: $PREFIX/bin/{$(IFS=,; echo "${TOOLS[*]}")}"
if [[ "$PREFIX" == "$DATA_HOME/iree-stubs/iree-runtime/$VERSION/$PLATFORM" ]]; then
  say "runtime-iree finds this library by itself (IREE $VERSION, $PLATFORM)"
else
  say "runtime-iree looks elsewhere by default: run Java with -Diree.runtime.library=$PREFIX/lib/$LIB_NAME"
fi
