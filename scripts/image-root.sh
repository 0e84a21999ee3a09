#!/usr/bin/env bash
# Stages the files the container image adds to an empty (scratch) base: a Java runtime of only the modules the
# CLI needs, the C libraries it loads, a non-root user and /tmp. Jib takes the folder as an extra directory
# (mvn -Pimage verify, in language-server).
#   scripts/image-root.sh JAR DIR    JAR: the shaded CLI (for its module list); DIR: made anew
# The runtime comes from this machine's JDK (JAVA_HOME, else the java on PATH) and the C libraries from the
# same machine, the ones that JDK was built against: no registry is needed, and the same machine makes the same
# files (Jib fixes timestamps and order, so the layers' digests follow) but for the JDK's class-data archive,
# which JDK 17 writes differently each time: the runtime's layer changes with every build, the others do not.
set -euo pipefail

jar="$1"
root="$2"
rm -rf "$root"
mkdir -p "$root/etc" "$root/tmp" "$root/src"
"$(dirname "${BASH_SOURCE[0]}")/server-runtime.sh" "$jar" "$root/opt/java"

# The C libraries a library needs, as ldd resolves them on this machine (absolute paths; vdso has none).
needs() {
  ldd "$1" | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p'
}
# The runtime's core: the launcher, the VM and the libraries every java starts with. What they need from the
# system is all the image carries.
declare -A system
for core in "$root/opt/java/bin/java" "$root/opt/java/lib/server/libjvm.so" "$root/opt/java/lib/libzip.so" \
    "$root/opt/java/lib/libnio.so" "$root/opt/java/lib/libnet.so"; do
  for lib in $(needs "$core"); do
    case "$lib" in "$root"/*) ;; *) system["$lib"]=1 ;; esac
  done
done
# Desktop libraries (AWT, sound, fonts, colour) come with java.desktop, which the CLI needs for java.beans only;
# they would need X11, ALSA and more, so the ones needing anything beyond the core's libraries are left out.
for lib in "$root"/opt/java/lib/*.so; do
  for dep in $(needs "$lib"); do
    case "$dep" in "$root"/*) continue ;; esac
    if [ -z "${system[$dep]:-}" ]; then
      rm "$lib"
      break
    fi
  done
done
for lib in "${!system[@]}"; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done

# Numeric ids in the image config let a cluster check runAsNonRoot; the names serve tools that look them up.
# Home is /tmp, the one place the user can write.
cat > "$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
hooklens:x:65532:65532:hooklens:/tmp:/sbin/nologin
EOF
cat > "$root/etc/group" <<'EOF'
root:x:0:
hooklens:x:65532:
EOF
