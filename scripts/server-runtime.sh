#!/usr/bin/env bash
# Makes a Java runtime of only the modules the Hooklens jar needs, with this machine's JDK (JAVA_HOME, else the
# java on PATH), for the container image (scripts/image-root.sh) and the platform VSIX
# (vscode-extension/scripts/package-platform.sh).
#   scripts/server-runtime.sh JAR DIR [LEVEL]    JAR: the shaded jar (for its module list); DIR: made anew;
#                                                LEVEL: jlink's --compress, 0 to 2 (default 2)
set -euo pipefail

jar="$1"
out="$2"
compress="${3:-2}"
java="$(readlink -f "$(command -v "${JAVA_HOME:+$JAVA_HOME/bin/}java")")"
jdk="$(dirname "$(dirname "$java")")"
for tool in jlink jdeps; do
  if [ ! -x "$jdk/bin/$tool" ]; then
    echo "server-runtime: $jdk has no $tool; a full JDK 17 or newer is needed (openjdk-17-jdk-headless)" >&2
    exit 2
  fi
done

rm -rf "$out"
# jdeps finds what the classes reference; jdk.crypto.ec is loaded as a provider (TLS to an API server with EC
# certificates) and jdk.zipfs as a file system provider, which no class names.
modules="$("$jdk/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 "$jar"),jdk.crypto.ec,jdk.zipfs"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress="$compress" \
  --generate-cds-archive --output "$out"
# The archive for heaps beyond 32 GB (no compressed pointers), which Hooklens never has.
rm -f "$out/lib/server/classes_nocoops.jsa"
