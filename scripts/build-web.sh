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

# The page rebuilds the standard library for its own profile: std is
# then optimized for size with the page, and a panic traps at once instead
# of formatting its message. The page never showed that message: Yew's
# default hook wrote it to the browser's developer console, which now shows
# only the trap ("unreachable"); `trunk serve` builds, made without these
# options, still print it for whoever debugs one. Both are unstable cargo/rustc
# options, enabled for this build alone with RUSTC_BOOTSTRAP on the pinned
# stable toolchain; native builds and every test are untouched. It is the
# largest single cut in the page's size (BENCHMARKS.md).
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
if ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  echo "build-web: the rust-src component is missing; run scripts/setup.sh first" >&2
  exit 1
fi

if [ -f Cargo.lock ]; then
  # Also fetches the standard library's own dependencies (build-std).
  cargo fetch --locked --target wasm32-unknown-unknown
fi
trunk build --release --offline --config trunk.toml "$@"
echo "build-web: page written to $PWD/dist" >&2
