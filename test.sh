#!/usr/bin/env bash
# The one test command: installs what is missing (idempotently), then runs
# every suite: format and lint gates, unit, property, golden, CLI, terminal
# (tmux) and real-browser tests, and a smoke run of the benchmark script.
set -euo pipefail
cd "$(dirname "$0")"
export CI="${CI:-true}"           # insta: a missing snapshot fails instead of being written
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
unset CARGO_TARGET_DIR              # suites find binaries under ./target

step() { printf '\n=== %s ===\n' "$*"; }
start=$(date +%s)

step "setup (installs only what is missing)"
./scripts/setup.sh

step "format"
cargo fmt --all --check

step "lint (core must stay I/O-free: core/clippy.toml)"
cargo clippy -p isolint-core --all-targets -- -D warnings
# The rest of the workspace: the CLI, the page (natively) and the test crates.
cargo clippy --workspace --all-targets -- -D warnings

step "API docs (no broken or private links)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p isolint-core -p isolint -p isolint-web

step "build the release binary"
cargo build --release -p isolint

step "unit, property, golden, CLI and snapshot tests"
cargo test --workspace --exclude isolint-browser-tests

step "terminal end-to-end (tmux)"
./tests/tui_e2e.sh target/release/isolint

step "browser page build (trunk, offline)"
./scripts/build-web.sh

step "real-browser end-to-end (headless Chromium)"
cargo test -p isolint-browser-tests -- --test-threads=1

if [ -x bench/run.sh ]; then
  step "benchmark script smoke"
  ./bench/run.sh --smoke
fi

if [ -x fuzz/smoke.sh ]; then
  step "fuzz smoke"
  ./fuzz/smoke.sh
fi

printf '\nall suites passed in %ss\n' "$(( $(date +%s) - start ))"
