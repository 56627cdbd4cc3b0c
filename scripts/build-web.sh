#!/usr/bin/env bash
# Builds the browser page into dist/ (release, offline). Needs the tools
# that scripts/setup.sh installs: trunk 0.21.14, wasm-bindgen 0.2.130 and
# the npm binaryen (wasm-opt 132) in .tools/npm.
set -euo pipefail
cd "$(dirname "$0")/.."

export PATH="$PWD/.tools/npm/node_modules/.bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"

for tool in trunk wasm-bindgen wasm-opt; do
  if ! command -v "$tool" >/dev/null; then
    echo "build-web: $tool is missing; run scripts/setup.sh first" >&2
    exit 1
  fi
done

if [ -f Cargo.lock ]; then
  cargo fetch --locked
fi
trunk build --release --offline --config trunk.toml "$@"
echo "build-web: page written to $PWD/dist" >&2
