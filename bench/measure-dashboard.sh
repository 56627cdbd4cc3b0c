#!/usr/bin/env bash
# Measures the dashboard (not a test; prints numbers):
#   - time from process start to the first frame, on the workshop profile and
#     on a generated profile with at least 1,000 findings;
#   - peak RSS on that profile.
# A binary built with the `bench-hooks` feature exits right after its first
# frame when ISOLINT_EXIT_AFTER_FIRST_FRAME is set (bench/run.sh builds one). Runs inside a private tmux server
# so the dashboard has a real terminal (120x40).
#
#   bench/measure-dashboard.sh [path/to/isolint]   (default target/release/isolint,
#   built by bench/run.sh with --features bench-hooks)
# Goals: first frame <= 50 ms, peak RSS <= 15 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/isolint}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
[ -x "$BIN" ] || { echo "measure: no executable at $BIN" >&2; exit 1; }
WORK=$(mktemp -d)
T() { tmux -S "$WORK/tmux.sock" "$@"; }
trap 'T kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT

# Run a command in a 120x40 terminal and wait for it to finish.
in_terminal() {
  local name=$1; shift
  rm -f "$WORK/$name.done"
  T new-session -d -s "$name" -x 120 -y 40 -c "$WORK" "$* ; touch $WORK/$name.done"
  for _ in $(seq 1 1200); do [ -f "$WORK/$name.done" ] && return 0; sleep 0.1; done
  echo "measure: $name did not finish" >&2; exit 1
}

cp fixtures/profiles/workshop.json "$WORK/workshop.json"

# A profile with many mounts of sensitive, unlabelled and writable sources,
# grown until the audit reports at least 1,000 findings.
make_big() {  # MOUNTS SECRETS
  python3 - "$WORK/big.json" "$1" "$2" <<'PY'
import json, sys
path, n, secrets = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = json.load(open("fixtures/profiles/workshop.json"))
kinds = [
    ("/home/dev{i}", "read-write"), ("/home/dev{i}/.aws", "read-only"),
    ("/srv/unlabelled/{i}/../x", "read-write"), ("relative/{i}", None),
    ("/var/run/docker.sock", "read-write"), ("/srv/workshop/snapshots/parser/{i}", "read-write"),
]
p["mounts"] = []
for i in range(n):
    src, acc = kinds[i % len(kinds)]
    m = {"source": src.format(i=i), "target": "/etc/m%d" % i}
    if acc:
        m["access"] = acc
    p["mounts"].append(m)
p["environment"]["variables"].update({"TOKEN_%d" % i: "ghp_%036d" % i for i in range(secrets)})
json.dump(p, open(path, "w"), indent=2)
PY
}

first_frame_line() {  # FILE -> the dashboard's own report line
  rm -f "$WORK/ff.txt"
  in_terminal ff "ISOLINT_EXIT_AFTER_FIRST_FRAME=1 '$BIN' tui '$1' 2> '$WORK/ff.txt'"
  cat "$WORK/ff.txt"
}

# Grow the mount count until the audit reports at least 1,000 findings.
SECRETS=${SECRETS:-4}
n=100
while :; do
  make_big "$n" "$SECRETS"
  line=$(first_frame_line "$WORK/big.json")
  findings=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) findings.*/\1/p')
  [ -n "$findings" ] || { echo "measure: unexpected output: $line" >&2; exit 1; }
  [ "$findings" -ge 1000 ] && break
  n=$((n + 50))
done
echo "measure: load average now: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "measure: generated profile: $n mounts, $SECRETS secret variables, $findings findings, $(wc -c < "$WORK/big.json") bytes"
echo "measure: dashboard says (workshop): $(first_frame_line "$WORK/workshop.json")"
echo "measure: dashboard says (big):      $line"

if command -v hyperfine >/dev/null; then
  for f in workshop big; do
    in_terminal "hf-$f" "ISOLINT_EXIT_AFTER_FIRST_FRAME=1 hyperfine -N --output=inherit --warmup 3 --runs 30 \
      --export-json '$WORK/hf-$f.json' \"'$BIN' tui $f.json\" 2> '$WORK/hf-$f.log'"
    [ -s "$WORK/hf-$f.json" ] || { echo "measure: hyperfine failed:" >&2; cat "$WORK/hf-$f.log" >&2; exit 1; }
    python3 - "$WORK/hf-$f.json" "$f" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("measure: process start to first frame (%s, hyperfine, 30 runs): mean %.1f ms, median %.1f ms, min %.1f ms, max %.1f ms; user %.1f ms, sys %.1f ms"
      % (sys.argv[2], r["mean"] * 1e3, r["median"] * 1e3, r["min"] * 1e3, r["max"] * 1e3, r["user"] * 1e3, r["system"] * 1e3))
PY
  done
else
  for f in workshop big; do
    in_terminal "loop-$f" "for i in \$(seq 20); do s=\$(date +%s%N); ISOLINT_EXIT_AFTER_FIRST_FRAME=1 '$BIN' tui $f.json 2>/dev/null; e=\$(date +%s%N); echo \$(( (e - s) / 1000 )); done > '$WORK/loop-$f.txt'"
    sort -n "$WORK/loop-$f.txt" | awk -v f="$f" '{a[NR]=$1} END {printf "measure: process start to first frame (%s, 20 runs): median %.1f ms, max %.1f ms\n", f, a[int((NR+1)/2)]/1000, a[NR]/1000}'
  done
fi

if [ -x /usr/bin/time ]; then
  in_terminal rss "ISOLINT_EXIT_AFTER_FIRST_FRAME=1 /usr/bin/time -v '$BIN' tui big.json 2> '$WORK/time.txt'"
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time.txt")
  echo "measure: peak RSS (big, /usr/bin/time -v): ${kb} KiB = $(python3 -c "print(round($kb/1024, 1))") MiB"
fi
