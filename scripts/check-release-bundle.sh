#!/usr/bin/env bash
# Builds the Maven Central bundle of a release with `mvn -P release deploy` (the profile in
# pom.xml: sources and Javadoc jars, gpg signatures, checksums, central-publishing-maven-plugin with
# its upload skipped) from a copy of this checkout, signed with a throwaway key made here (no
# passphrase, in a temporary GNUPGHOME that is deleted afterwards), and checks it with
# ReleaseBundleCheck.java: every published artifact there, nothing else, each with what Central
# requires. Then it plants omissions in copies of the bundle, re-signed and re-summed so that only
# the omission is wrong (a missing Javadoc jar, a POM without licenses, a missing signature, a
# checksum that does not match), and checks that each one fails the check.
#
# Nothing is uploaded (the plugin's skipUpload): the bundle stays in the copy. Maven runs online
# because the plugin's publish goal says it needs the network and is skipped in offline mode;
# plugins come from the local repository (what it lacks, from Maven Central once). Tests are not run
# (mvn verify runs them). Needs JDK 22+ (runtime-iree is published: JAVA_HOME, else
# /usr/lib/jvm/temurin-25-jdk-amd64), gpg, zip and unzip; without them it prints
# "skipped: <reason>" and exits 0 (--strict: exit 2). About 8 minutes on a busy 2-core machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="0.1.0"
STRICT=0
KEEP=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --strict) STRICT=1; shift ;;
    --keep) KEEP=1; shift ;;
    --version) VERSION="${2:?--version needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; echo "Options: --strict --keep (the work directory) --version V (default $VERSION)"; exit 0 ;;
    *) echo "check-release-bundle: error: unknown option '$1'" >&2; exit 1 ;;
  esac
done

skip() {
  echo "check-release-bundle: skipped: $*"
  [[ "$STRICT" == 1 ]] && exit 2
  exit 0
}
command -v gpg >/dev/null 2>&1 || skip "no gpg (Debian: apt-get install gnupg)"
for tool in zip unzip; do
  command -v "$tool" >/dev/null 2>&1 || skip "no $tool (Debian: apt-get install $tool)"
done
java_feature() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [[ -z "${JAVA_HOME:-}" || "$(java_feature "$JAVA_HOME")" -lt 22 ]]; then
  JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
[[ -x "$JAVA_HOME/bin/java" && "$(java_feature "$JAVA_HOME")" -ge 22 ]] \
  || skip "no JDK 22+ (runtime-iree is published; set JAVA_HOME)"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"

# The published artifacts: every module whose POM does not set maven.deploy.skip, and the parent.
PUBLISHED=(iree-stubs-parent iree-stubs-bom iree-stubs-annotations iree-stubs-runtime
  iree-stubs-pydm iree-stubs-derive iree-stubs-micrometer iree-stubs-runtime-iree-native
  iree-stubs-processor iree-stubs-cli iree-stubs-maven-plugin iree-stubs-runtime-iree)
MODULES=bom,annotations,runtime,pydm,derive,micrometer,runtime-iree-native,processor,cli,maven-plugin,runtime-iree
# The native jars this machine's installs give (classifier: os-maven-plugin's scheme).
DATA="${XDG_DATA_HOME:-$HOME/.local/share}/iree-stubs/iree-runtime/3.11.0"
CLASSIFIERS=()
[[ -f "$DATA/linux-x86_64/lib/BUILD-INFO" ]] && CLASSIFIERS+=(linux-x86_64)
[[ -f "$DATA/linux-aarch64/lib/BUILD-INFO" ]] && CLASSIFIERS+=(linux-aarch_64)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/release-check.XXXXXX")"
cleanup() {
  gpgconf --kill gpg-agent >/dev/null 2>&1 || true
  if [[ "$KEEP" == 1 ]]; then echo "check-release-bundle: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
START=$SECONDS

echo "== a throwaway signing key (GNUPGHOME=$WORK/gnupg, no passphrase)"
export GNUPGHOME="$WORK/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key \
  "iree-stubs release check (throwaway) <release-check@invalid>" ed25519 sign 1d 2>/dev/null
KEY="$(gpg --batch --list-secret-keys --with-colons 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')"
echo "   key $KEY"

echo "== a copy of the checkout at version $VERSION (as 'mvn versions:set' would make it)"
mkdir "$WORK/tree"
tar -C "$ROOT" --exclude=./.git --exclude='*/target' --exclude=./target -cf - . | tar -C "$WORK/tree" -xf -
find "$WORK/tree" -name pom.xml -not -path '*/src/*' -print0 \
  | xargs -0 sed -i "s/0\.1\.0-SNAPSHOT/$VERSION/g"

echo "== mvn -P release deploy (skipUpload: the bundle only)"
# The plugin reads the Portal's server entry even when it uploads nothing: a placeholder one.
cat >"$WORK/settings.xml" <<'EOF'
<settings>
  <servers>
    <server><id>central</id><username>not-used</username><password>not-used</password></server>
  </servers>
</settings>
EOF
MVN=(mvn -B -q -s "$WORK/settings.xml" -f "$WORK/tree/pom.xml" -P release -pl "$MODULES" -am deploy
  -DskipTests -Dinvoker.skip -Derrorprone.skip -Dspotless.check.skip -Dmaven.install.skip
  "-Dgpg.keyname=$KEY")
BUILD_START=$SECONDS
"${MVN[@]}" >"$WORK/mvn.log" 2>&1 || { tail -40 "$WORK/mvn.log"; echo "check-release-bundle: the release build failed (above)"; exit 1; }
# The plugin writes the bundle into the first module of the reactor (the BOM).
BUNDLE="$(find "$WORK/tree" -path '*/target/central-publishing/central-bundle.zip' | head -1)"
[[ -n "$BUNDLE" ]] || { tail -20 "$WORK/mvn.log"; echo "check-release-bundle: no bundle was built"; exit 1; }
echo "   built in $((SECONDS - BUILD_START)) s: $BUNDLE ($(wc -c <"$BUNDLE") bytes)"

CHECK=(java "$ROOT/scripts/ReleaseBundleCheck.java")
ARGS=(--expect "$(IFS=,; echo "${PUBLISHED[*]}")" --gpg)
[[ ${#CLASSIFIERS[@]} -gt 0 ]] && ARGS+=(--classifiers "$(IFS=,; echo "${CLASSIFIERS[*]}")")
echo "== the bundle as built (native jars expected: ${CLASSIFIERS[*]:-none installed})"
"${CHECK[@]}" "$BUNDLE" "${ARGS[@]}" || { echo "check-release-bundle: the bundle misses what Central requires"; exit 1; }
unzip -l "$BUNDLE" | awk '$4 ~ /\.(jar|pom)$/ { printf "   %10d  %s\n", $1, $4 }'

# A planted omission: a copy of the bundle changed by $2 (a function of the unpacked directory),
# every changed file re-signed and re-summed, must fail the check with a finding about $1.
RESIGN() { # file: a new signature and checksums
  rm -f "$1.asc"
  gpg --batch --quiet --armor --detach-sign --local-user "$KEY" --output "$1.asc" "$1"
  md5sum "$1" | awk '{print $1}' >"$1.md5"
  sha1sum "$1" | awk '{print $1}' >"$1.sha1"
  [[ -f "$1.sha256" ]] && sha256sum "$1" | awk '{print $1}' >"$1.sha256"
  [[ -f "$1.sha512" ]] && sha512sum "$1" | awk '{print $1}' >"$1.sha512"
  return 0
}
planted() { # name, what the finding must mention, function changing the unpacked bundle
  local dir="$WORK/planted-$1" out
  rm -rf "$dir" && mkdir -p "$dir/x" && (cd "$dir/x" && unzip -q "$BUNDLE")
  (cd "$dir/x" && "$3")
  (cd "$dir/x" && zip -q -r ../bundle.zip .)
  if out="$("${CHECK[@]}" "$dir/bundle.zip" "${ARGS[@]}")"; then
    echo "   NOT CAUGHT: $1"
    FAILED=1
  elif grep -q -- "$2" <<<"$out"; then
    echo "   caught: $1: $(grep -m1 -- "$2" <<<"$out" | sed 's/^ *//')"
  else
    echo "   caught, but not as expected ($2): $1: $out"
    FAILED=1
  fi
}
no_javadoc() { rm -f dev/ireestubs/iree-stubs-runtime/*/iree-stubs-runtime-*-javadoc.jar*; }
no_licenses() {
  local pom
  pom="$(ls dev/ireestubs/iree-stubs-bom/*/iree-stubs-bom-*.pom)"
  sed -i '/<licenses>/,/<\/licenses>/d' "$pom"
  RESIGN "$pom"
}
parent_no_licenses() {
  local pom
  pom="$(ls dev/ireestubs/iree-stubs-parent/*/iree-stubs-parent-*.pom)"
  sed -i '/<licenses>/,/<\/licenses>/d' "$pom"
  RESIGN "$pom"
}
no_signature() { rm -f dev/ireestubs/iree-stubs-cli/*/iree-stubs-cli-*[0-9].jar.asc; }
bad_checksum() {
  local f
  f="$(ls dev/ireestubs/iree-stubs-annotations/*/iree-stubs-annotations-*[0-9].jar.sha1)"
  echo 0000000000000000000000000000000000000000 >"$f"
}
bad_signature() {
  local f
  f="$(ls dev/ireestubs/iree-stubs-processor/*/iree-stubs-processor-*[0-9].pom)"
  echo "<!-- changed after signing -->" >>"$f"
  md5sum "$f" | awk '{print $1}' >"$f.md5"
  sha1sum "$f" | awk '{print $1}' >"$f.sha1"
  [[ -f "$f.sha256" ]] && sha256sum "$f" | awk '{print $1}' >"$f.sha256"
  [[ -f "$f.sha512" ]] && sha512sum "$f" | awk '{print $1}' >"$f.sha512"
  return 0
}

echo "== planted omissions (each must fail the check)"
FAILED=0
planted "runtime's Javadoc jar removed" "iree-stubs-runtime-$VERSION-javadoc.jar: the Javadoc jar" no_javadoc
planted "the BOM's POM without <licenses>" "iree-stubs-bom:$VERSION: the POM (nor its parent) has no <licenses>" no_licenses
planted "the parent POM without <licenses>" "iree-stubs-runtime:$VERSION: the POM (nor its parent) has no <licenses>" parent_no_licenses
planted "cli's jar unsigned" "iree-stubs-cli-$VERSION.jar: no .asc signature" no_signature
planted "annotations' jar with a wrong .sha1" "iree-stubs-annotations-$VERSION.jar: its .sha1 checksum" bad_checksum
planted "processor's POM changed after signing" "iree-stubs-processor-$VERSION.pom: its .asc signature does not verify" bad_signature
if [[ "$FAILED" == 1 ]]; then
  echo "check-release-bundle: a planted omission passed the check"
  exit 1
fi
echo "check-release-bundle: the bundle holds what Central requires; 6 planted omissions each fail the check ($((SECONDS - START)) s)"
