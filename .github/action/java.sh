#!/usr/bin/env bash
# Says in GITHUB_OUTPUT whether Java 17 or newer is at hand (JAVA_HOME's, else the PATH's): found=true or
# found=false, so that the action installs one only when it is missing.
set -euo pipefail
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
major=0
if command -v "$java" >/dev/null 2>&1; then
  # Java 8 and older name their version 1.x, which reads as 1 here.
  version="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
  major="${version%%.*}"
fi
if [ "${major:-0}" -ge 17 ] 2>/dev/null; then
  echo "hooklens: Java $major found" >&2
  echo "found=true" >> "$GITHUB_OUTPUT"
else
  echo "hooklens: no Java 17 or newer found; setting one up" >&2
  echo "found=false" >> "$GITHUB_OUTPUT"
fi
