#!/usr/bin/env bash
# The language server latency and memory harness (docs/performance.md): builds the server and the
# harness, installs the pinned yaml-language-server, then measures both in one run and prints the table.
# Arguments go to LspLatency (--edits N, --warmup N, --lines N, --docs N, --skip-yaml-ls, --skip-memory).
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"
mvn -B -q -DskipTests -pl benchmarks -am package
if [ ! -d benchmarks/yaml-ls/node_modules ] || [ benchmarks/yaml-ls/package-lock.json -nt benchmarks/yaml-ls/node_modules ]; then
  npm ci --prefix benchmarks/yaml-ls --no-audit --no-fund >&2
fi
exec java -cp benchmarks/target/benchmarks.jar io.hooklens.bench.lsp.LspLatency --repo "$repo" "$@"
