#!/usr/bin/env bash
# Installs what the test suites need, idempotently. Nothing is downloaded at
# build or test time afterwards: every tool comes from a package registry here.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132

log() { printf 'setup: %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! rustup component list --installed | grep -q '^rust-src'; then
  log "adding the rust-src component (the page rebuilds std for size)"
  rustup component add rust-src
fi

if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
  log "installing trunk $TRUNK_VERSION (about 10 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Not --locked: its lock file names a dependency version the registry lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ ! -x .tools/npm/node_modules/.bin/wasm-opt ]; then
  log "installing binaryen@$BINARYEN_VERSION (wasm-opt) from npm into .tools/npm"
  mkdir -p .tools/npm
  (cd .tools/npm && { [ -f package.json ] || echo '{"private":true}' > package.json; } \
    && npm install --no-audit --no-fund "binaryen@$BINARYEN_VERSION" >&2)
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  log "installing chromium and chromium-driver from Debian"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >&2
fi

for tool in tmux hyperfine; do
  if ! command -v "$tool" >/dev/null; then
    log "installing $tool from Debian"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$tool" >&2
  fi
done
if [ ! -x /usr/bin/time ]; then
  log "installing GNU time from Debian (peak RSS in bench/run.sh)"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq time >&2
fi
if ! bwrap --version >/dev/null 2>&1; then
  log "installing bubblewrap from Debian (isolint verify launches its workers with it)"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq bubblewrap >&2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  if rustup toolchain list | grep -q nightly; then
    log "installing cargo-fuzz (fuzz smoke)"
    cargo install cargo-fuzz --locked
  else
    log "no nightly toolchain: the fuzz smoke will be skipped (fuzz/smoke.sh says so)"
  fi
fi
log "all tools present"
