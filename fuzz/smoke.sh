#!/usr/bin/env bash
# Short fuzz smoke for ./test.sh: every target, a bounded number of runs
# over the seed corpus, so a regression shows. Needs nightly + cargo-fuzz
# (installed by scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")"
RUNS="${FUZZ_SMOKE_RUNS:-20000}"
./seed.sh
for t in $(cargo +nightly fuzz list); do
  [ -d "corpus/$t" ] || mkdir -p "corpus/$t"
  out=$(cargo +nightly fuzz run -s none "$t" "corpus/$t" -- -runs="$RUNS" -max_len=65536 -timeout=5 -rss_limit_mb=2048 2>&1) || {
    echo "$out" | tail -n 40; echo "fuzz smoke: target $t FAILED"; exit 1; }
  execs=$(echo "$out" | grep -oE 'Done [0-9]+ runs' | grep -oE '[0-9]+' || echo "?")
  echo "fuzz smoke: $t ok ($execs runs)"
done
