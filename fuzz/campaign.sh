#!/usr/bin/env bash
# The long fuzz campaign: every target for SECONDS (default 300) each,
# printing executions and crashes per target. Results go in FUZZING.md.
# `-s none`: core forbids unsafe code, so AddressSanitizer adds nothing the
# Rust bounds and overflow checks (debug assertions stay on) do not catch,
# and without it each run is several times faster.
set -euo pipefail
cd "$(dirname "$0")"
SECS="${1:-300}"
./seed.sh
printf '%-10s %12s %8s\n' target executions crashes
total=0
for t in $(cargo +nightly fuzz list); do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="artifacts/$t.log"
  cargo +nightly fuzz run -s none "$t" "corpus/$t" -- -max_total_time="$SECS" -max_len=65536 -timeout=5 -rss_limit_mb=2048 >"$log" 2>&1 || true
  execs=$(grep -aoE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -n1); execs=${execs:-0}
  crashes=$(find "artifacts/$t" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  total=$((total + execs))
  printf '%-10s %12s %8s\n' "$t" "$execs" "$crashes"
done
echo "total executions: $total"
