#!/usr/bin/env bash
# Checks the linux-aarch64 natives that build-iree-runtime.sh --platform linux-aarch64 cross-built,
# on this (x86-64) machine, under user-mode emulation (qemu-aarch64 with the cross sysroot):
#
#   - the library is an aarch64 ELF shared object, the one its BUILD-INFO describes (SHA-256, size);
#   - it exports runtime-iree's symbols (required-symbols.txt, read with the target's nm): all of
#     them for a release runtime-iree calls, exactly the ones the build recorded otherwise;
#   - every symbol it needs resolves in the aarch64 C library (the dynamic linker's own
#     LD_TRACE_LOADED_OBJECTS + LD_BIND_NOW + LD_WARN, as ldd -r, run under qemu);
#   - the cross-built iree-run-module runs the aarch64 modules of ../shared/iree-reflection/models
#     on both CPU drivers (local-sync, local-task) and prints the values that folder's README gives
#     (the x86-64 values: micro_speech on the "yes" features, all zeros and all 255; simple_mul).
#     Those modules are IREE 3.11's (hal 0.6): a release with another HAL module version (3.12:
#     hal 0.7) must refuse them with IREE's import mismatch, which still shows its tools running.
#
# For every release installed under ROOT/<release>/linux-aarch64/ (or the --release given). What it
# needs and is missing (qemu-aarch64, the aarch64 sysroot, an install, the models) makes it print
# "skipped: <reason>" and exit 0, so CI on a machine without them passes; --strict makes a skip
# exit 2. A failed check exits 1. Takes seconds.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SYMBOL_LIST="$SCRIPT_DIR/../src/main/resources/dev/ireestubs/iree/required-symbols.txt"
ROOT="${XDG_DATA_HOME:-$HOME/.local/share}/iree-stubs/iree-runtime"
MODELS="${IREE_REFLECTION_DIR:-$SCRIPT_DIR/../../../shared/iree-reflection}/models"
SYSROOT="${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}"
RELEASES=()
STRICT=0
PLATFORM=linux-aarch64

usage() {
  cat <<EOF
Usage: $(basename "$0") [--release NAME]... [--root DIR] [--models DIR] [--sysroot DIR] [--strict]

Checks IREE's linux-aarch64 runtime installed by build-iree-runtime.sh --platform linux-aarch64
under qemu-aarch64: the library (ELF machine, BUILD-INFO, runtime-iree's symbols, every symbol
resolving) and iree-run-module on the aarch64 modules of shared/iree-reflection/models, on both
CPU drivers, against that folder's README values.

  --release NAME  check this release (repeatable; default: every release installed under the root)
  --root DIR      where the installs are, DIR/<release>/linux-aarch64/ (default: $ROOT)
  --models DIR    the models folder (default: \$IREE_REFLECTION_DIR/models, else
                  ../shared/iree-reflection/models beside the checkout)
  --sysroot DIR   the aarch64 sysroot qemu loads libraries from (default: $SYSROOT, Debian's
                  libc6-arm64-cross)
  --strict        exit 2 instead of 0 when something needed is missing (the check is skipped)

Needs qemu-aarch64 (Debian: 'apt-get install qemu-user') and the aarch64 C library
('apt-get install libc6-arm64-cross', part of crossbuild-essential-arm64).
EOF
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --release) RELEASES+=("${2:?--release needs a name}"); shift 2 ;;
    --root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
    --models) MODELS="${2:?--models needs a directory}"; shift 2 ;;
    --sysroot) SYSROOT="${2:?--sysroot needs a directory}"; shift 2 ;;
    --strict) STRICT=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; echo "check-aarch64-natives: error: unknown option '$1'" >&2; exit 1 ;;
  esac
done

skip() {
  echo "check-aarch64-natives: skipped: $*"
  [[ "$STRICT" == 1 ]] && exit 2
  exit 0
}
FAILED=0
PASSED=0
pass() { echo "   ok   $*"; PASSED=$((PASSED + 1)); }
fail() { echo "   FAIL $*"; FAILED=$((FAILED + 1)); }

command -v qemu-aarch64 >/dev/null 2>&1 \
  || skip "no qemu-aarch64 on PATH (Debian: apt-get install qemu-user)"
LOADER="$SYSROOT/lib/ld-linux-aarch64.so.1"
[[ -e "$LOADER" ]] \
  || skip "no aarch64 C library at $SYSROOT (Debian: apt-get install libc6-arm64-cross)"
if [[ ${#RELEASES[@]} -eq 0 ]]; then
  for dir in "$ROOT"/*/"$PLATFORM"/lib/BUILD-INFO; do
    [[ -f "$dir" ]] && RELEASES+=("$(basename "$(dirname "$(dirname "$(dirname "$dir")")")")")
  done
  [[ ${#RELEASES[@]} -gt 0 ]] || skip "no $PLATFORM install under $ROOT (build one:" \
    "runtime-iree/scripts/build-iree-runtime.sh --platform $PLATFORM --source <IREE checkout>)"
fi
MICRO="$MODELS/2026-06_iree-embedded_micro_speech_kws_aarch64_generic_bc17.vmfb"
MUL="$MODELS/2026-06_iree-embedded_simple_mul_aarch64_bc17.vmfb"
YES="$MODELS/2026-06_iree-embedded_micro_speech_yes_features.input.bin"
for f in "$MICRO" "$MUL" "$YES"; do
  [[ -f "$f" ]] || skip "no $f (the shared iree-reflection folder; --models DIR)"
done
NM=nm
command -v aarch64-linux-gnu-nm >/dev/null 2>&1 && NM=aarch64-linux-gnu-nm

emulate() { # program, arguments...: runs an aarch64 program with the sysroot's libraries
  qemu-aarch64 -L "$SYSROOT" "$@"
}
info_value() { # BUILD-INFO file, key
  sed -n "s/^$2=//p" "$1" | head -1
}

check_library() { # install directory
  local lib="$1/lib/libiree_runtime.so" info="$1/lib/BUILD-INFO" machine sha size exported
  local missing expected line alt found kind trace
  [[ -f "$lib" ]] || { fail "no $lib"; return; }
  machine="$(od -An -tx1 -j18 -N2 "$lib" | tr -d ' \n')"
  [[ "$machine" == "b700" ]] && pass "aarch64 ELF: $lib" \
    || fail "$lib is not an aarch64 ELF file (e_machine $machine, not b700)"
  [[ "$(info_value "$info" platform)" == "$PLATFORM" ]] && pass "BUILD-INFO platform=$PLATFORM" \
    || fail "BUILD-INFO says platform=$(info_value "$info" platform), not $PLATFORM"
  sha="$(sha256sum "$lib" | awk '{print $1}')"
  size="$(wc -c <"$lib" | tr -d ' ')"
  [[ "$sha" == "$(info_value "$info" library.sha256)" && "$size" == "$(info_value "$info" library.size)" ]] \
    && pass "SHA-256 and size as BUILD-INFO records ($size bytes)" \
    || fail "$lib is not the library its BUILD-INFO describes (SHA-256 $sha, $size bytes)"

  exported="$("$NM" -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u)"
  missing=()
  while IFS= read -r line; do
    line="${line%%#*}"
    line="$(echo "$line" | xargs)"
    [[ -n "$line" ]] || continue
    found=0
    for alt in ${line// or / }; do grep -qxF "$alt" <<<"$exported" && found=1; done
    [[ "$found" == 1 ]] || missing+=("$line")
  done <"$SYMBOL_LIST"
  kind="$(info_value "$info" runtime-iree.symbols)"
  expected="$(info_value "$info" runtime-iree.missing-symbols)"
  if [[ "$kind" == runtime-iree ]]; then
    [[ ${#missing[@]} -eq 0 ]] \
      && pass "exports all $(grep -cvE '^[[:space:]]*(#|$)' "$SYMBOL_LIST") symbols of runtime-iree's list ($NM)" \
      || fail "does not export ${#missing[@]} of runtime-iree's symbols: ${missing[*]:0:8}..."
  else
    [[ "${missing[*]:-none}" == "${expected:-none}" ]] \
      && pass "exports runtime-iree's list except what the build recorded as missing (${expected:-none}) ($NM)" \
      || fail "runtime-iree's symbols it lacks are '${missing[*]:-none}', the build recorded '${expected:-none}'"
  fi
  # The dynamic linker's own check, as ldd -r: every symbol bound now, each unresolved one reported.
  trace="$(emulate -E LD_TRACE_LOADED_OBJECTS=1 -E LD_BIND_NOW=1 -E LD_WARN=1 "$LOADER" "$lib" 2>&1)" \
    || { fail "the aarch64 dynamic linker cannot load $lib: $trace"; return; }
  if grep -q "undefined symbol" <<<"$trace"; then
    fail "symbols that the aarch64 C library does not resolve: $(grep 'undefined symbol' <<<"$trace" | head -3)"
  else
    pass "every symbol resolves in the aarch64 C library (ld.so under qemu: $(grep -c '=>' <<<"$trace") libraries)"
  fi
}

run_module() { # tool, expected last line, iree-run-module arguments...: one run, compared
  local tool="$1" expected="$2" out
  shift 2
  out="$(emulate "$tool" "$@" 2>&1)" || true
  if [[ "$(tail -1 <<<"$out")" == "$expected" ]]; then
    pass "$(basename "$tool") ${*#--module=} => $expected"
  else
    fail "$(basename "$tool") $*: expected '$expected', got: $(tail -3 <<<"$out" | tr '\n' ' ')"
  fi
}

check_tools() { # install directory, release
  local tool="$1/bin/iree-run-module" hal device out
  [[ -x "$tool" ]] || { fail "no $tool"; return; }
  hal="$(info_value "$1/lib/BUILD-INFO" hal.module.version)"
  cd "$MODELS"
  if [[ "$hal" == "0.6" ]]; then
    for device in local-sync local-task; do
      # The values of ../shared/iree-reflection/README.md (the x86-64 runtime gives the same).
      run_module "$tool" "1x4xf32=[-12.6956 -3.90635 9.94343 -3.28488]" --module="$(basename "$MICRO")" \
        --device=$device --function=tf2onnx --input=1x49x40x1xui8=@"$(basename "$YES")"
      run_module "$tool" "1x4xf32=[0 0 0 0]" --module="$(basename "$MICRO")" \
        --device=$device --function=tf2onnx --input=1x49x40x1xi8=0
      run_module "$tool" "1x4xf32=[-12.6956 3.55122 9.94343 9.94343]" --module="$(basename "$MICRO")" \
        --device=$device --function=tf2onnx --input=1x49x40x1xui8=255
      run_module "$tool" "4xf32=5 12 21 32" --module="$(basename "$MUL")" \
        --device=$device --function=simple_mul --input=4xf32=1,2,3,4 --input=4xf32=5,6,7,8
    done
  else
    # No aarch64 module of this HAL version here: the 3.11 module must be refused, by the aarch64
    # runtime's own import check (the tool ran, read the module and resolved its imports).
    out="$(emulate "$tool" --module="$(basename "$MICRO")" --device=local-sync --function=tf2onnx \
      --input=1x49x40x1xi8=0 2>&1)" && fail "IREE $2 (hal $hal) ran a hal 0.6 module" || true
    if grep -q "import function hal.command_buffer.dispatch signature mismatch" <<<"$out"; then
      pass "iree-run-module (hal $hal) refuses the hal 0.6 module with IREE's import mismatch, as on x86-64" \
        "(no aarch64 module for hal $hal here to run)"
    else
      fail "iree-run-module (hal $hal) on the hal 0.6 module: $(tail -2 <<<"$out" | tr '\n' ' ')"
    fi
  fi
  cd - >/dev/null
}

START=$SECONDS
echo "check-aarch64-natives: $(qemu-aarch64 --version | head -1), sysroot $SYSROOT, nm $NM"
for release in "${RELEASES[@]}"; do
  dir="$ROOT/$release/$PLATFORM"
  echo "== IREE $release, $dir"
  if [[ ! -f "$dir/lib/BUILD-INFO" ]]; then
    fail "no $PLATFORM install of IREE $release at $dir"
    continue
  fi
  check_library "$dir"
  check_tools "$dir" "$release"
done
echo "check-aarch64-natives: $PASSED passed, $FAILED failed ($((SECONDS - START)) s; ${RELEASES[*]})"
[[ "$FAILED" == 0 ]]
