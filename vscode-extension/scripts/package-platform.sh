#!/usr/bin/env bash
# Packages target/hooklens-TARGET-<version>.vsix: the extension for one VS Code platform, with a Java runtime of
# only the modules the server needs (scripts/server-runtime.sh) as server/runtime, which the extension starts
# the server with when it finds no Java 17+ of the user's. The runtime is made by this machine's JDK, so run it
# on the platform it is for, with that platform's JDK 17+:
#   scripts/package-platform.sh [TARGET]    TARGET: a vsce target (linux-x64, darwin-arm64, win32-x64, ...);
#                                           default: this machine's
# Before packaging it checks the runtime: the CLI lints a bad manifest with it, and the language server answers
# over stdio with a diagnostic.
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
repo="$(dirname "$here")"

if [ $# -gt 0 ]; then
  target="$1"
else
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) os=win32 ;;
    *) echo "package-platform: unknown system $(uname -s); name the target" >&2; exit 2 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "package-platform: unknown machine $(uname -m); name the target" >&2; exit 2 ;;
  esac
  target="$os-$arch"
fi

# The jar with only this platform's native libraries when the build has a profile for it; else the default jar.
profile=()
if grep -q "<id>platform-$target</id>" "$repo/language-server/pom.xml"; then
  profile=("-Pplatform-$target")
fi
(cd "$repo" && mvn -B -ntp -q -DskipTests "${profile[@]}" -pl language-server -am package)
jar="$repo/language-server/target/hooklens.jar"

runtime="$here/target/runtime-$target"
# Uncompressed: the VSIX's zip then packs the runtime smaller than jlink's own compression does (30 MB, not 36).
"$repo/scripts/server-runtime.sh" "$jar" "$runtime" 0
java="$runtime/bin/java"
[ -x "$java" ] || java="$runtime/bin/java.exe"

# The CLI: a preStop longer than the grace period is a finding (exit 1); anything else is a broken runtime.
status=0
"$java" -jar "$jar" lint --format json "$repo/examples/overrun.yaml" >/dev/null || status=$?
if [ "$status" -ne 1 ]; then
  echo "package-platform: the runtime's lint of examples/overrun.yaml exited $status, not 1 (findings)" >&2
  exit 1
fi
node "$here/scripts/lsp-smoke.mjs" "$java" "$jar" >/dev/null

(cd "$here" && npm run -s compile && node scripts/package.mjs --target "$target" --runtime "$runtime")
