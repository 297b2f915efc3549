#!/usr/bin/env bash
# Builds IREE's runtime as one shared library (libiree_runtime.so) plus the tools iree-run-module,
# iree-dump-module and iree-benchmark-module (and iree-as-module where the release has it), and
# installs them where runtime-iree looks for them, each release side by side:
#
#   ${XDG_DATA_HOME:-$HOME/.local/share}/iree-stubs/iree-runtime/<version>/<os>-<arch>/lib/
#   ${XDG_DATA_HOME:-$HOME/.local/share}/iree-stubs/iree-runtime/<version>/<os>-<arch>/bin/
#
# IREE publishes no runtime shared library, so this script makes one from IREE's sources: a
# runtime-only CMake configure (no compiler, tests, samples or bindings; the local-sync and
# local-task HAL drivers; the embedded-elf, vmvx-module and system-library executable loaders;
# position-independent code; C API symbols visible), then one link of IREE's unified runtime
# archive, the archives of IREE's parameter support (the io_parameters module, parameter indices
# and providers, the irpa/gguf/safetensors parsers) and flatcc and (up to 3.11) printf, with
# nothing left undefined. It checks that the library exports every symbol runtime-iree calls (for a
# release whose C API runtime-iree does not call yet, the core runtime API) before installing.
#
# Releases are data: RELEASE_TABLE below has one row per release this script knows; any other is
# refused, with the row to add. Provenance: the sources must be IREE's release exactly. In a git
# checkout the commit must be the one the release's row pins (and the tree unmodified); a source
# tree without git is taken on its runtime/version.json, with a warning. The third-party checkouts
# must be at the commits the row pins. The install records the IREE and submodule commits, the
# HAL module version, the compilers and the library's SHA-256
# in BUILD-INFO beside the library (Java properties), which runtime-iree-native packages into its
# jar (and manifest) and the loader checks the extracted library against.
#
# Cross-building: --platform linux-aarch64 on a linux-x86_64 machine builds with a cross toolchain
# (Debian's crossbuild-essential-arm64: aarch64-linux-gnu-gcc/g++/nm), taking the build-time host
# tools (iree-flatcc-cli) from a host build of the same release (-DIREE_HOST_BIN_DIR), and installs
# under <version>/linux-aarch64/ with the same symbol checks (the target's nm). The result runs under
# qemu-aarch64 (runtime-iree/scripts/check-aarch64-natives.sh).
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
TARGET_PLATFORM=""
HOST_TOOLS=""
JOBS=""
MIN_CMAKE="3.26"

# The IREE releases this script knows, one row each. The sources it builds must be exactly these
# commits (a release's tag can be moved; its commit cannot). Columns:
#   release       the name given to --version and the install directory (X.Y.Z or X.Y.ZrcYYYYMMDD)
#   tag           IREE's git tag of the release (what a clone without --source checks out)
#   commit        the IREE commit the tag names
#   version.json  the package-version in the sources' runtime/version.json
#   hal           the version of the HAL module the runtime registers (modules compiled for hal 0.6
#                 do not load on a 0.7 runtime, and the reverse)
#   tools         tools built beyond iree-run-module, iree-dump-module and iree-benchmark-module
#                 (comma-separated, '-' for none)
#   symbols       'runtime-iree': the library must export every symbol runtime-iree calls
#                 (required-symbols.txt); 'core': runtime-iree does not call this release's C API
#                 yet, so only the core runtime API is required and the missing ones are listed
#   submodules    name=commit for each third-party checkout IREE pins (comma-separated; of flatcc,
#                 printf and benchmark)
# Adding a release is one row: run this script with --version <release> --source <checkout> and it
# prints the row computed from the checkout.
RELEASE_TABLE='
3.11.0           v3.11.0               e4a3b0405d7d23554da26403658d0e8c3c5ecf25 3.11.0.dev 0.6 -              runtime-iree flatcc=9362cd00f0007d8cbee7bff86e90fb4b6b227ff3,printf=f1b728cbd5c6e10dc1f140f1574edfd1ccdcbedb,benchmark=192ef10025eb2c4cdd392bc502f0c852196baa48
3.12.0rc20260822 iree-3.12.0rc20260822 b48a5955575cf8924ffc191f3b0804976e5738b9 3.12.0.dev 0.7 iree-as-module core         flatcc=9362cd00f0007d8cbee7bff86e90fb4b6b227ff3,benchmark=192ef10025eb2c4cdd392bc502f0c852196baa48
'
RELEASE_NAME_PATTERN='^[0-9]+\.[0-9]+\.[0-9]+(rc[0-9]{8})?$'
KNOWN_SUBMODULES=(flatcc printf benchmark)

# Symbols every release's library must export however runtime-iree calls it: the runtime API's
# instance, session, module and call entry points, which did not change between 3.11 and 3.12.
CORE_SYMBOLS=(
  iree_runtime_instance_options_initialize
  iree_runtime_instance_create
  iree_runtime_instance_release
  iree_runtime_session_options_initialize
  iree_runtime_session_create_with_device
  iree_runtime_session_release
  iree_runtime_session_append_bytecode_module_from_memory
  iree_runtime_session_lookup_function
  iree_runtime_session_call
  iree_vm_function_signature
  iree_vm_list_create
  iree_hal_buffer_view_create
  iree_hal_device_release
)

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
# printf's is added for the releases that pin printf (3.11 and earlier).
THIRD_PARTY_ARCHIVES=(
  build_tools/third_party/flatcc/libflatcc_parsing.a
  build_tools/third_party/flatcc/libflatcc_runtime.a
)
PRINTF_ARCHIVE=build_tools/third_party/printf/libprintf_printf.a
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

release_rows() { # the table's rows, without blank lines
  grep -v '^[[:space:]]*$' <<<"$RELEASE_TABLE"
}
known_releases() {
  release_rows | awk '{ print $1 }'
}
# Reads the row of $VERSION into REL_* (REL_TAG, REL_COMMIT, REL_VERSION_JSON, REL_HAL, REL_TOOLS,
# REL_SYMBOLS) and REL_SUBMODULE[name]=commit; returns 1 when the table has no such release.
declare -A REL_SUBMODULE
read_release() {
  local row pair
  row="$(release_rows | awk -v r="$1" '$1 == r')"
  [[ -n "$row" ]] || return 1
  read -r _ REL_TAG REL_COMMIT REL_VERSION_JSON REL_HAL REL_TOOLS REL_SYMBOLS REL_SUBMODULES <<<"$row"
  [[ -n "$REL_SUBMODULES" ]] || die "the release table's row for $1 has too few columns"
  for pair in ${REL_SUBMODULES//,/ }; do
    REL_SUBMODULE[${pair%%=*}]="${pair#*=}"
  done
}
has_submodule() { [[ -n "${REL_SUBMODULE[$1]:-}" ]]; }

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Builds IREE's runtime as one shared library with iree-run-module, iree-dump-module and
iree-benchmark-module (and iree-as-module from 3.12 on), and installs them for runtime-iree to
find, each release side by side under <version>/<os>-<arch>/.

Sources (one of):
  --source DIR      an IREE checkout of the release: a git checkout must be at the release's
                    commit (pinned in this script's release table) with no local changes; a
                    tree without git is checked on runtime/version.json only (a warning). Its
                    submodules the release pins (third_party/flatcc, third_party/benchmark and,
                    up to 3.11, third_party/printf) initialised, or given separately:
  --flatcc DIR      a checkout of dvidelabs/flatcc at the commit IREE pins
  --printf DIR      a checkout of eyalroz/printf at the commit IREE pins (3.11 and earlier)
  --benchmark DIR   a checkout of google/benchmark at the commit IREE pins
                    (git checkouts are checked against the pins; others get a warning)
  (none)            clone the release's tag and its submodules with git (needs network)

Options:
  --platform NAME   the platform to build for (default: this machine's). Cross-builds: linux-aarch64
                    on linux-x86_64 (cross toolchain aarch64-linux-gnu-gcc/g++/nm: Debian's
                    crossbuild-essential-arm64; the host tools come from a host build)
  --host-tools DIR  when cross-building: a directory with the host build's iree-flatcc-cli (default:
                    the host build of the same release in the build directory, built if missing)
  --version NAME    the IREE release, one of: $(known_releases | paste -sd ' ') (default $VERSION)
  --list-releases   print the release table (release, tag, commit, hal, tools, submodules)
  --prefix DIR      install into DIR/lib and DIR/bin (default:
                    \${XDG_DATA_HOME:-\$HOME/.local/share}/iree-stubs/iree-runtime/<version>/<os>-<arch>,
                    where runtime-iree looks; with another prefix, point runtime-iree at
                    DIR/lib/<library> with -Diree.runtime.library or IREE_RUNTIME_LIBRARY)
  --build-dir DIR   where sources are staged and built (default:
                    \${XDG_CACHE_HOME:-\$HOME/.cache}/iree-stubs/iree-runtime-build/<version>)
  --jobs N          parallel build jobs (default: ninja's choice)
  -h, --help        this text

Needs CMake >= $MIN_CMAKE, Ninja, a C/C++ compiler (gcc or clang), nm, sha256sum (or shasum)
and git (to check a checkout's commits, and for cloning).

Installs lib/<library>, lib/BUILD-INFO (what was built from what: IREE and submodule commits,
compilers, the library's SHA-256) and bin/<tools>; 'mvn install -pl runtime-iree-native -am'
then packages the library and BUILD-INFO into a jar for the class path.
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
warn() { printf 'build-iree-runtime: warning: %s\n' "$*" >&2; }

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
    --platform) TARGET_PLATFORM="${2:?--platform needs a name such as linux-aarch64}"; shift 2 ;;
    --host-tools) HOST_TOOLS="${2:?--host-tools needs a directory}"; shift 2 ;;
    --list-releases) release_rows; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done

[[ "$VERSION" =~ $RELEASE_NAME_PATTERN ]] \
  || die "--version must be a release name like 3.11.0 or 3.12.0rc20260822, not '$VERSION'"
[[ -z "$JOBS" || "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive number, not '$JOBS'"

# A release missing from the table is refused. With a git checkout given, the row is computed from
# it (after the checks below) so that adding the release is pasting one line.
KNOWN=1
if ! read_release "$VERSION"; then
  KNOWN=0
  [[ -n "$SOURCE" ]] || die "this script does not know IREE $VERSION (it knows:" \
    "$(known_releases | paste -sd ' ')). Add one row for it to RELEASE_TABLE in $0: its tag, commit," \
    "runtime/version.json" \
    "package-version, HAL module version, extra tools, 'core' and its flatcc/printf/benchmark submodule" \
    "commits; run this script with --version $VERSION --source <IREE checkout at the release> and it" \
    "prints that row"
fi

# ------------------------------------------------------------------------------------------------
# Platform: the same names runtime-iree computes from os.name and os.arch (NativePlatform), as
# directory names: <os>-<arch> with os linux/macos and arch x86_64/aarch64.

case "$(uname -s)" in
  Linux) HOST_OS=linux ;;
  Darwin) HOST_OS=macos ;;
  MINGW*|MSYS*) HOST_OS=windows ;; # MSYS2's MINGW64 shell with its gcc: written for the natives
                                   # workflow, never run (docs/platforms.md)
  *) die "unsupported operating system '$(uname -s)': this script knows Linux (tested), macOS and" \
    "Windows in MSYS2's MINGW64 shell (untested)" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) HOST_ARCH=x86_64 ;;
  aarch64|arm64) HOST_ARCH=aarch64 ;;
  *) die "unsupported CPU architecture '$(uname -m)': this script knows x86_64 and aarch64" ;;
esac
HOST_PLATFORM="$HOST_OS-$HOST_ARCH"
PLATFORM="${TARGET_PLATFORM:-$HOST_PLATFORM}"
case "$PLATFORM" in
  linux-x86_64|linux-aarch64|macos-x86_64|macos-aarch64|windows-x86_64) ;;
  *) die "--platform must be one of linux-x86_64, linux-aarch64, macos-x86_64, macos-aarch64," \
    "windows-x86_64, not '$PLATFORM'" ;;
esac
OS="${PLATFORM%%-*}"
ARCH="${PLATFORM#*-}"
case "$OS" in
  linux) LIB_NAME=libiree_runtime.so ;;
  macos) LIB_NAME=libiree_runtime.dylib ;;
  windows) LIB_NAME=iree_runtime.dll ;;
esac
EXE=""
[[ "$OS" == windows ]] && EXE=".exe"
# A cross build: the target's toolchain (its triple's gcc, g++ and nm); the table of what this
# script cross-builds is this case statement. Debian's cross toolchains reach more (armhf, ppc64el,
# s390x, riscv64, mingw-w64 for Windows), which runtime-iree has no platform name for yet.
CROSS=0
CROSS_TRIPLE=""
if [[ "$PLATFORM" != "$HOST_PLATFORM" ]]; then
  case "$HOST_PLATFORM>$PLATFORM" in
    "linux-x86_64>linux-aarch64") CROSS_TRIPLE=aarch64-linux-gnu ;;
    *) die "cannot build for $PLATFORM on $HOST_PLATFORM: this script cross-builds linux-aarch64 on" \
         "linux-x86_64 only; build on a $PLATFORM machine (.github/workflows/natives.yml)" ;;
  esac
  CROSS=1
fi
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
CACHE_HOME="${XDG_CACHE_HOME:-$HOME/.cache}"
PREFIX="${PREFIX:-$DATA_HOME/iree-stubs/iree-runtime/$VERSION/$PLATFORM}"
BUILD_ROOT="${BUILD_ROOT:-$CACHE_HOME/iree-stubs/iree-runtime-build/$VERSION}"
[[ -z "$HOST_TOOLS" || "$CROSS" == 1 ]] || die "--host-tools is for cross builds (--platform other than $HOST_PLATFORM)"

say "IREE $VERSION runtime for $PLATFORM${CROSS_TRIPLE:+ (cross-built on $HOST_PLATFORM with $CROSS_TRIPLE)}"
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
HOST_CC="${CC:-cc}"
HOST_CXX="${CXX:-c++}"
need_tool "$HOST_CC" "Install a C/C++ compiler: 'apt-get install build-essential' (or clang), Xcode command line tools on macOS."
need_tool "$HOST_CXX" "Install a C++ compiler: 'apt-get install g++' (or clang), Xcode command line tools on macOS."
if [[ "$CROSS" == 1 ]]; then
  CC_BIN="$CROSS_TRIPLE-gcc"
  CXX_BIN="$CROSS_TRIPLE-g++"
  NM_BIN="$CROSS_TRIPLE-nm"
  CROSS_HINT="Install the cross toolchain: 'apt-get install crossbuild-essential-arm64' (Debian/Ubuntu)."
  need_tool "$CC_BIN" "$CROSS_HINT"
  need_tool "$CXX_BIN" "$CROSS_HINT"
  need_tool "$NM_BIN" "$CROSS_HINT"
else
  CC_BIN="$HOST_CC"
  CXX_BIN="$HOST_CXX"
  NM_BIN=nm
fi
need_tool "$NM_BIN" "Install binutils: 'apt-get install binutils'."
say "tools: cmake $CMAKE_VERSION, $(ninja --version | sed 's/^/ninja /'), $("$CC_BIN" --version | head -1)"

# ------------------------------------------------------------------------------------------------
# Sources

if [[ -z "$SOURCE" ]]; then
  [[ -z "$FLATCC$PRINTF$BENCHMARK" ]] || die "--flatcc, --printf and --benchmark need --source"
  need_tool git "Install git, or give an IREE checkout with --source."
  mkdir -p "$BUILD_ROOT"
  SOURCE="$BUILD_ROOT/iree-clone"
  if [[ ! -f "$SOURCE/runtime/version.json" ]]; then
    say "cloning IREE $VERSION, tag $REL_TAG (no --source given)"
    rm -rf "$SOURCE"
    run git clone --depth 1 --branch "$REL_TAG" https://github.com/iree-org/iree.git "$SOURCE" \
      || die "cannot clone IREE $REL_TAG (no network?): give an IREE checkout with --source DIR"
  fi
  SUBMODULE_PATHS=()
  for name in "${KNOWN_SUBMODULES[@]}"; do
    has_submodule "$name" && SUBMODULE_PATHS+=("third_party/$name")
  done
  run git -C "$SOURCE" submodule update --init --depth 1 "${SUBMODULE_PATHS[@]}" \
    || die "cannot fetch IREE's submodules ${SUBMODULE_PATHS[*]} (no network?): give" \
      "checkouts with --source DIR and --flatcc/--printf/--benchmark DIR"
fi

[[ -d "$SOURCE" ]] || die "--source $SOURCE is not a directory"
SOURCE="$(cd "$SOURCE" && pwd)"
[[ -f "$SOURCE/CMakeLists.txt" && -f "$SOURCE/runtime/version.json" ]] \
  || die "$SOURCE is not an IREE source checkout (no CMakeLists.txt and runtime/version.json)"
SOURCE_VERSION="$(grep -oE '"package-version"[^"]*"[^"]+"' "$SOURCE/runtime/version.json" \
  | sed -E 's/.*"([^"]+)"$/\1/')"
# git only inside the checkout's own repository (not one it may be nested in).
source_git() { [[ -e "$SOURCE/.git" ]] && git -C "$SOURCE" "$@" 2>/dev/null; }

if [[ "$KNOWN" == 0 ]]; then
  [[ -e "$SOURCE/.git" ]] || die "this script does not know IREE $VERSION, and $SOURCE is not a git" \
    "checkout to compute its release-table row from: add the row by hand (see RELEASE_TABLE in $0)"
  row_commit="$(source_git rev-parse HEAD || echo '<commit>')"
  row_tag="$(source_git describe --tags --exact-match HEAD || echo "v$VERSION")"
  row_hal="$(sed -nE 's/.*IREE_HAL_MODULE_VERSION_LATEST IREE_HAL_MODULE_VERSION_([0-9]+)_([0-9]+).*/\1.\2/p' \
    "$SOURCE/runtime/src/iree/modules/hal/module.c" 2>/dev/null | head -1)"
  row_tools="-"
  [[ -f "$SOURCE/tools/iree-as-module-main.c" ]] && row_tools="iree-as-module"
  row_submodules=""
  for name in "${KNOWN_SUBMODULES[@]}"; do
    pin="$(source_git ls-tree HEAD "third_party/$name" | awk '{print $3}' || true)"
    [[ -n "$pin" ]] && row_submodules+="${row_submodules:+,}$name=$pin"
  done
  die "this script does not know IREE $VERSION (it knows: $(known_releases | paste -sd ' '))." \
    "From $SOURCE, its row for RELEASE_TABLE in $0 would be (check the tag and that the commit is" \
    "the release's before adding it; 'core' until runtime-iree calls this release's C API):"$'\n'"$VERSION" \
    "$row_tag $row_commit ${SOURCE_VERSION:-<version.json>} ${row_hal:-<hal>} $row_tools core" \
    "${row_submodules:-<submodules>}"
fi

mkdir -p "$BUILD_ROOT"
BUILD_ROOT="$(cd "$BUILD_ROOT" && pwd)"

[[ "$SOURCE_VERSION" == "$REL_VERSION_JSON" ]] \
  || die "$SOURCE is IREE $SOURCE_VERSION (runtime/version.json), but IREE $VERSION's sources say" \
    "$REL_VERSION_JSON: check out tag $REL_TAG, or pass the --version matching the checkout"

# Provenance: a git checkout must be at the release's pinned commit and unmodified; a tree without
# git has only its version.json to show, which was checked above.
# The commit is compared to the release's row (below); this checks the files against that commit.
# git status skips files flagged assume-unchanged or skip-worktree, and replacement objects
# (refs/replace) change what a commit's tree reads as: a flagged file is refused, and git reads the
# checkout with --no-replace-objects.
unmodified() { # directory, what to call it: dies when the files are not the commit's
  local changes hidden
  changes="$(git --no-replace-objects -C "$1" status --porcelain --untracked-files=no \
    --ignore-submodules=all)" || die "git cannot read $1 (git status failed; its message is above)"
  [[ -z "$changes" ]] || die "$2 $1 has local changes to tracked files, so it is not the pinned" \
    "release ($(head -3 <<<"$changes" | sed 's/^ *//' | tr -s ' \n' ' ')...): build from a clean" \
    "checkout (see 'git -C $1 status')"
  hidden="$(git --no-replace-objects -C "$1" ls-files -v | grep -E '^([a-z]|S) ' | head -3)" || true
  [[ -z "$hidden" ]] || die "$2 $1 has files that git status does not check (flagged" \
    "assume-unchanged or skip-worktree: $(cut -c3- <<<"$hidden" | tr '\n' ' ')...), so it cannot be" \
    "shown to be the pinned release: 'git -C $1 update-index --no-assume-unchanged" \
    "--no-skip-worktree FILE' for each, or build from a fresh clone"
}
if [[ -e "$SOURCE/.git" ]]; then
  need_tool git "Install git: $SOURCE is a git checkout, whose commit must be checked."
  SOURCE_COMMIT="$(git --no-replace-objects -C "$SOURCE" rev-parse HEAD)" \
    || die "git cannot read the commit of $SOURCE (its message is above; a checkout owned by another" \
      "user needs 'git config --global --add safe.directory $SOURCE')"
  [[ "$SOURCE_COMMIT" == "$REL_COMMIT" ]] \
    || die "$SOURCE is at commit $SOURCE_COMMIT, not IREE $VERSION's $REL_COMMIT: check out the" \
      "release ('git -C $SOURCE checkout $REL_COMMIT', then 'git -C $SOURCE submodule update')"
  PROVENANCE="git checkout at IREE $VERSION's commit (tag $REL_TAG), pinned by build-iree-runtime.sh"
  unmodified "$SOURCE" "the IREE checkout"
else
  SOURCE_COMMIT="unknown"
  warn "$SOURCE is not a git checkout: only its runtime/version.json ($SOURCE_VERSION) says it is" \
    "IREE $VERSION, and its commit cannot be checked or recorded; build from a git checkout of tag" \
    "$REL_TAG for a verified build"
  PROVENANCE="not a git checkout: runtime/version.json says $SOURCE_VERSION"
fi
say "IREE sources: $SOURCE (version.json: $SOURCE_VERSION, commit $SOURCE_COMMIT)"

# A file that proves each third-party checkout is there (not an empty submodule directory).
submodule_marker() {
  case "$1" in
    flatcc) echo "src/runtime/verifier.c" ;;
    printf) echo "src/printf/printf.c" ;;
    benchmark) echo "src/benchmark.cc" ;;
  esac
}

# Where each third-party checkout of the release is: the given directory, else the submodule.
declare -A THIRD_PARTY
SUBMODULES=()
for name in "${KNOWN_SUBMODULES[@]}"; do
  has_submodule "$name" && SUBMODULES+=("$name")
done
STAGE=0
for name in "${KNOWN_SUBMODULES[@]}"; do
  given=""
  case "$name" in
    flatcc) given="$FLATCC" ;;
    printf) given="$PRINTF" ;;
    benchmark) given="$BENCHMARK" ;;
  esac
  if ! has_submodule "$name"; then
    [[ -z "$given" ]] || die "IREE $VERSION has no $name submodule: leave out --$name"
    continue
  fi
  marker="$(submodule_marker "$name")"
  if [[ -n "$given" ]]; then
    [[ -f "$given/$marker" ]] || die "--$name $given is not a $name checkout (no $marker)"
    THIRD_PARTY[$name]="$(cd "$given" && pwd)"
    STAGE=1
  elif [[ -f "$SOURCE/third_party/$name/$marker" ]]; then
    THIRD_PARTY[$name]="$SOURCE/third_party/$name"
  else
    die "IREE's submodule third_party/$name is missing (no $marker). Run" \
      "'git -C $SOURCE submodule update --init ${SUBMODULES[*]/#/third_party/}', or give a checkout" \
      "with --$name DIR (IREE $VERSION pins commit ${REL_SUBMODULE[$name]})"
  fi
  say "$name: ${THIRD_PARTY[$name]}"
done

# Each third-party checkout must be at the commit the release pins.
declare -A SUBMODULE_COMMIT
for name in "${SUBMODULES[@]}"; do
  dir="${THIRD_PARTY[$name]}"
  pin="${REL_SUBMODULE[$name]}"
  if [[ -e "$dir/.git" ]]; then
    need_tool git "Install git: $dir is a git checkout, whose commit must be checked."
    commit="$(git -C "$dir" rev-parse HEAD)" || die "git cannot read the commit of $dir (see above)"
    [[ "$commit" == "$pin" ]] || die "$name checkout $dir is at commit $commit, but IREE $VERSION" \
      "pins $pin: 'git -C $dir checkout $pin'"
    unmodified "$dir" "the $name checkout"
  else
    commit="unknown"
    warn "$dir is not a git checkout: its commit cannot be checked against the one IREE pins ($pin)"
  fi
  SUBMODULE_COMMIT[$name]="$commit"
done
say "provenance: $PROVENANCE; $(for name in "${SUBMODULES[@]}"; do printf '%s %s, ' "$name" \
  "${SUBMODULE_COMMIT[$name]}"; done | sed 's/, $//')"

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
  for name in "${SUBMODULES[@]}"; do
    rm -f "$CMAKE_SOURCE/third_party/$name"
    ln -s "${THIRD_PARTY[$name]}" "$CMAKE_SOURCE/third_party/$name"
  done
fi

# ------------------------------------------------------------------------------------------------
# Configure and build

# What this release builds beyond the common set: its extra tools, printf's archive where it has one.
if [[ "$REL_TOOLS" != "-" ]]; then
  for tool in ${REL_TOOLS//,/ }; do
    CMAKE_TARGETS+=("$tool")
    TOOLS+=("$tool")
  done
fi
has_submodule printf && THIRD_PARTY_ARCHIVES+=("$PRINTF_ARCHIVE")

configure_runtime() { # build directory, extra CMake arguments: the runtime-only configure
  local dir="$1"
  shift
  run cmake -G Ninja -S "$CMAKE_SOURCE" -B "$dir" "$@" \
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
}

if [[ "$CROSS" == 1 ]]; then
  # The cross build runs tools at build time (iree-flatcc-cli generates the flatbuffer code): they
  # come from a host build of the same release, made here (that one target) when none is given.
  if [[ -z "$HOST_TOOLS" ]]; then
    HOST_BUILD="$BUILD_ROOT/build"
    if [[ ! -x "$HOST_BUILD/tools/iree-flatcc-cli" ]]; then
      say "building the host tools (iree-flatcc-cli) for $HOST_PLATFORM in $HOST_BUILD"
      configure_runtime "$HOST_BUILD"
      run ninja -C "$HOST_BUILD" ${JOBS:+-j "$JOBS"} iree-flatcc-cli \
        || die "building the host tool iree-flatcc-cli failed (see the compiler output above)"
    fi
    HOST_TOOLS="$HOST_BUILD/tools"
  fi
  [[ -d "$HOST_TOOLS" ]] || die "--host-tools $HOST_TOOLS is not a directory"
  HOST_TOOLS="$(cd "$HOST_TOOLS" && pwd)"
  [[ -x "$HOST_TOOLS/iree-flatcc-cli" ]] || die "$HOST_TOOLS has no iree-flatcc-cli: give the" \
    "tools directory of a $HOST_PLATFORM build of IREE $VERSION with --host-tools, or leave it out to" \
    "build one"
  say "host tools: $HOST_TOOLS"
  BUILD_DIR="$BUILD_ROOT/build-$PLATFORM"
  say "configuring a runtime-only cross build for $PLATFORM in $BUILD_DIR"
  configure_runtime "$BUILD_DIR" \
    -DCMAKE_SYSTEM_NAME=Linux \
    -DCMAKE_SYSTEM_PROCESSOR="$ARCH" \
    -DCMAKE_C_COMPILER="$CC_BIN" \
    -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DIREE_HOST_BIN_DIR="$HOST_TOOLS"
else
  BUILD_DIR="$BUILD_ROOT/build"
  say "configuring a runtime-only build in $BUILD_DIR"
  configure_runtime "$BUILD_DIR"
fi

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
  "$NM_BIN" -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sed 's/@.*//' | sort -u
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
say "linking $LIB_NAME: ${#WHOLE[@]} archives whole, ${#REST[@]} IREE archives and ${#THIRD[@]} third-party archives as needed, nothing left undefined"
if [[ "$OS" == linux ]]; then
  run "$CC_BIN" -shared -o "$LIB_OUT" -Wl,-soname,"$LIB_NAME" \
    -Wl,--whole-archive "${WHOLE[@]}" -Wl,--no-whole-archive \
    -Wl,--start-group "${REST[@]}" "${THIRD[@]}" -Wl,--end-group \
    -Wl,--no-undefined -lpthread -ldl -lm \
    || die "linking $LIB_NAME failed (an undefined symbol above names what is missing)"
elif [[ "$OS" == windows ]]; then
  run "$CC_BIN" -shared -o "$LIB_OUT" -Wl,--export-all-symbols \
    -Wl,--whole-archive "${WHOLE[@]}" -Wl,--no-whole-archive \
    -Wl,--start-group "${REST[@]}" "${THIRD[@]}" -Wl,--end-group \
    -Wl,--no-undefined -lm \
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
  EXPORTED="$("$NM_BIN" -D --defined-only "$LIB_OUT" | awk 'NF == 3 { print $3 }' | sort -u)"
elif [[ "$OS" == windows ]]; then
  EXPORTED="$("$NM_BIN" -g --defined-only "$LIB_OUT" | awk 'NF == 3 && $2 == "T" { print $3 }' | sort -u)"
else
  EXPORTED="$("$NM_BIN" -gU "$LIB_OUT" | awk 'NF == 3 { sub(/^_/, "", $3); print $3 }' | sort -u)"
fi
missing_of() { # symbol-list lines on stdin ("a or b": either will do); prints the missing ones
  local line alt found
  while IFS= read -r line; do
    line="${line%%#*}"
    line="$(echo "$line" | xargs)"
    [[ -n "$line" ]] || continue
    found=0
    for alt in ${line// or / }; do
      grep -qxF "$alt" <<<"$EXPORTED" && found=1
    done
    [[ "$found" == 1 ]] || echo "$line"
  done
}
RUNTIME_IREE_SYMBOLS="$(cat "$SYMBOL_LIST"; printf '%s\n' "${PARAMETER_SYMBOLS[@]}")"
CHECKED="$(grep -cvE '^[[:space:]]*(#|$)' <<<"$RUNTIME_IREE_SYMBOLS")"
mapfile -t MISSING < <(missing_of <<<"$RUNTIME_IREE_SYMBOLS")
MISSING_NOTE="none"
if [[ "$REL_SYMBOLS" == runtime-iree ]]; then
  [[ ${#MISSING[@]} -eq 0 ]] \
    || die "$LIB_NAME does not export ${#MISSING[@]} of the $CHECKED symbols runtime-iree needs:" \
      "${MISSING[*]}"
  say "all $CHECKED symbols runtime-iree and its parameter support need are exported"
else
  mapfile -t MISSING_CORE < <(printf '%s\n' "${CORE_SYMBOLS[@]}" | missing_of)
  [[ ${#MISSING_CORE[@]} -eq 0 ]] \
    || die "$LIB_NAME does not export ${#MISSING_CORE[@]} of the ${#CORE_SYMBOLS[@]} core runtime" \
      "API symbols: ${MISSING_CORE[*]}"
  say "all ${#CORE_SYMBOLS[@]} core runtime API symbols are exported"
  if [[ ${#MISSING[@]} -gt 0 ]]; then
    MISSING_NOTE="${MISSING[*]}"
    say "note: runtime-iree does not call IREE $VERSION's C API yet: ${#MISSING[@]} of the $CHECKED" \
      "symbols it calls on 3.11 are not exported: ${MISSING[*]}"
  else
    MISSING_NOTE="none"
    say "every one of the $CHECKED symbols runtime-iree calls on 3.11 is exported (their signatures may differ)"
  fi
fi
if [[ "$CROSS" == 1 ]]; then
  say "ldd -r: not run on a cross-built library (the link used --no-undefined; runtime-iree/scripts/check-aarch64-natives.sh runs it under qemu)"
elif [[ "$OS" == linux ]] && command -v ldd >/dev/null 2>&1; then
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
# Temporary files are made by mktemp in the target directory (a new file with an unpredictable name,
# never a planted link), written through the shell, then renamed over the target.
new_temp() { # target directory, name: prints the temporary file's path
  mktemp "$1/.$2.XXXXXXXX" || die "cannot create a temporary file in $1"
}
install_file() { # source, target directory, mode
  local tmp
  tmp="$(new_temp "$2" "$(basename "$1")")"
  cat "$1" >"$tmp" || { rm -f "$tmp"; die "cannot write $tmp"; }
  chmod "$3" "$tmp"
  mv -f "$tmp" "$2/$(basename "$1")" # replace atomically: a running JVM keeps its old mapping
}
install_file "$LIB_OUT" "$PREFIX/lib" 755
for tool in "${TOOLS[@]}"; do
  [[ -x "$BUILD_DIR/tools/$tool$EXE" ]] || die "the build produced no tools/$tool$EXE"
  install_file "$BUILD_DIR/tools/$tool$EXE" "$PREFIX/bin" 755
done

# BUILD-INFO: what the library was built from and with, as Java properties (runtime-iree-native
# packages it into the jar and its manifest; the loader checks the extracted library's SHA-256).
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{print $1}'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{print $1}'
  else
    die "neither sha256sum nor shasum is installed: install coreutils"
  fi
}
compiler_of() { # CMake's compiler for a language (C or CXX), as its --version's first line
  local path
  path="$(sed -n "s/^CMAKE_$1_COMPILER:[A-Z]*=//p" "$BUILD_DIR/CMakeCache.txt" | head -1)"
  [[ -n "$path" ]] || path="$([[ "$1" == C ]] && echo "$CC_BIN" || echo "$CXX_BIN")"
  "$path" --version 2>/dev/null | head -1 | tr -d '\r'
}
LIB_SHA256="$(sha256_of "$PREFIX/lib/$LIB_NAME")"
[[ "$LIB_SHA256" =~ ^[0-9a-f]{64}$ ]] || die "cannot compute the SHA-256 of $PREFIX/lib/$LIB_NAME"
SIZE="$(wc -c < "$PREFIX/lib/$LIB_NAME" | tr -d ' ')"
INFO_TMP="$(new_temp "$PREFIX/lib" BUILD-INFO)"
cat > "$INFO_TMP" <<EOF
# IREE's runtime library $LIB_NAME, built by iree-stubs' runtime-iree/scripts/build-iree-runtime.sh.
# runtime-iree-native packages this file beside the library in its jar, and the same facts in the
# jar's manifest; runtime-iree checks the library it extracts against library.sha256.
iree.version=$VERSION
iree.commit=$SOURCE_COMMIT
iree.provenance=$PROVENANCE
iree.version-json=$SOURCE_VERSION
iree.tag=$REL_TAG
hal.module.version=$REL_HAL
submodule.flatcc=${SUBMODULE_COMMIT[flatcc]:-none}
submodule.printf=${SUBMODULE_COMMIT[printf]:-none}
submodule.benchmark=${SUBMODULE_COMMIT[benchmark]:-none}
runtime-iree.symbols=$REL_SYMBOLS
runtime-iree.missing-symbols=$MISSING_NOTE
platform=$PLATFORM
build.host=$HOST_PLATFORM
cross.toolchain=${CROSS_TRIPLE:-none}
library=$LIB_NAME
library.sha256=$LIB_SHA256
library.size=$SIZE
compiler=$(compiler_of C)
compiler.cxx=$(compiler_of CXX)
cmake=$CMAKE_VERSION
build.type=Release
hal.drivers=local-sync,local-task
executable.loaders=embedded-elf,vmvx-module,system-library
tools=$(IFS=,; echo "${TOOLS[*]}")
built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
EOF
chmod 644 "$INFO_TMP"
mv -f "$INFO_TMP" "$PREFIX/lib/BUILD-INFO"
rm -f "$PREFIX/BUILD-INFO.txt" # where earlier versions of this script wrote a note

say "done: $PREFIX/lib/$LIB_NAME ($SIZE bytes, SHA-256 $LIB_SHA256)"
say "build info: $PREFIX/lib/BUILD-INFO (IREE commit $SOURCE_COMMIT)"
say "tools: $PREFIX/bin/{$(IFS=,; echo "${TOOLS[*]}")}"
if [[ "$PREFIX" == "$DATA_HOME/iree-stubs/iree-runtime/$VERSION/$PLATFORM" ]]; then
  say "runtime-iree finds this library by itself (IREE $VERSION, $PLATFORM)"
else
  say "runtime-iree looks elsewhere by default: run Java with -Diree.runtime.library=$PREFIX/lib/$LIB_NAME"
fi
