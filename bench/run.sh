#!/usr/bin/env bash
# Whole-process benchmarks of isolint, printed as one table: figure, value,
# goal, and ratio to the goal (ratio ≤ 1 meets a "≤" goal; ≥ 1 meets a "≥" goal).
# Usage: bench/run.sh [--smoke] [--old PATH]
#   --smoke: tiny sizes, 2 runs; CI uses it to show the script works.
#   --old PATH: the 6f84cf6 binary the batch is compared with, side by
#   side in one run; without it that commit is built once into
#   .tools/old-6f84cf6-target and the binary cached as .tools/isolint-6f84cf6.
set -euo pipefail
cd "$(dirname "$0")/.."
SMOKE=0; OLD=""
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) SMOKE=1 ;;
    --old) OLD=$2; shift ;;
    *) echo "usage: bench/run.sh [--smoke] [--old PATH]" >&2; exit 2 ;;
  esac
  shift
done
OLD_COMMIT=6f84cf6
if [ -z "$OLD" ] && [ $SMOKE = 1 ] && [ ! -x ".tools/isolint-$OLD_COMMIT" ]; then
  # The smoke run shows the script works; it does not build a second
  # release binary from history (a shallow clone may not even hold it).
  echo "bench: no cached $OLD_COMMIT binary, so the smoke run skips the side-by-side comparison" >&2
elif [ -z "$OLD" ]; then
  OLD=.tools/isolint-$OLD_COMMIT
  if [ ! -x "$OLD" ]; then
    mkdir -p .tools
    rm -rf ".tools/old-$OLD_COMMIT"
    git worktree add --detach ".tools/old-$OLD_COMMIT" "$OLD_COMMIT" >/dev/null 2>&1
    (cd ".tools/old-$OLD_COMMIT" && CARGO_TARGET_DIR="$PWD/../old-$OLD_COMMIT-target" cargo build --release -q -p isolint)
    cp ".tools/old-$OLD_COMMIT-target/release/isolint" "$OLD"
    git worktree remove --force ".tools/old-$OLD_COMMIT"
  fi
fi
OUT=bench/out; mkdir -p "$OUT"
unset CARGO_TARGET_DIR
# --bins as well: with --examples alone cargo builds only the examples, and
# the table would time whatever isolint binary an earlier build left (or none).
cargo build --release -q -p isolint -p isolint-core --features isolint-core/synth,isolint/bench-hooks --bins --examples
BIN=target/release/isolint
GEN=target/release/examples/gen
TP=target/release/examples/throughput

if [ $SMOKE = 1 ]; then RUNS=2; BATCH=200; WARM=0; else RUNS=30; BATCH=10000; WARM=3; fi

# Inputs (deterministic generator in core/src/synth.rs).
[ -d "$OUT/p100" ] || "$GEN" batch 100 "$OUT/p100"
rm -rf "$OUT/batch"; "$GEN" batch "$BATCH" "$OUT/batch"
"$GEN" catalog 10000 "$OUT/labels10k.json"
"$GEN" profile 10000 "$OUT/profile10k.json"
ONE=fixtures/profiles/workshop-fixed.json

# The share of this machine's CPU time the hypervisor gave to others
# ("steal", /proc/stat) while a figure was timed: on a shared host the
# same binary's figures move with it, so the table says how much there was.
cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $9}' /proc/stat 2>/dev/null || echo "0 0"; }
rm -f "$OUT/steal.txt"
hf() { # median seconds of a command; $2: a file removed before each run
  local prep=(); [ -n "${2:-}" ] && prep=(--prepare "rm -f $2")
  # Earlier figures' writes reach the disk first, not during this one.
  sync
  local before; before=$(cpu_ticks)
  hyperfine -N --style none --warmup "$WARM" --runs "$RUNS" -i "${prep[@]}" --export-json "$OUT/hf.json" "$1" >/dev/null 2>&1
  # hf runs in a subshell ($(...)): the share goes to a file.
  echo "$before $(cpu_ticks)" | awk '{t=$3-$1; printf "%.0f\n", (t > 0 ? 100 * ($4 - $2) / t : 0)}' >> "$OUT/steal.txt"
  python3 -c 'import json;print(json.load(open("'"$OUT"'/hf.json"))["results"][0]["median"])'
}
rss_kib() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n1; }

one=$(hf "$BIN audit --format json $ONE")
hundred=$(hf "$BIN audit --format json $OUT/p100")
# Each run writes a new export, as a CI job does: deleting the previous
# run's 160 MB file costs the file system 20-40 ms, and it is not the
# audit's time (BENCHMARKS.md, the paragraph under the table).
batch_s=$(hf "$BIN audit --format json --output $OUT/batch.json $OUT/batch" "$OUT/batch.json")
big=$(hf "$BIN audit --format json --labels $OUT/labels10k.json --output $OUT/big.json $OUT/profile10k.json" "$OUT/big.json")
rss=$(rss_kib "$BIN" audit --format json "$ONE" || true)
# Not a goal, reported below the table: the same 10k x 10k audit run once
# after the machine sat idle, as a CI job runs it. hyperfine's runs follow
# each other and find the memory the last run freed still backed by the
# host; on this VM a run after a pause costs more (BENCHMARKS.md).
cold_ms=NA
if [ $SMOKE = 0 ]; then
  cold_ms=$(for _ in 1 2 3 4 5; do
    sleep 5; rm -f "$OUT/big.json"
    s=$(date +%s%N)
    "$BIN" audit --format json --labels "$OUT/labels10k.json" --output "$OUT/big.json" "$OUT/profile10k.json" >/dev/null 2>&1 || true
    echo $(( ($(date +%s%N) - s) / 1000 ))
  done | sort -n | sed -n 3p | awk '{printf "%.1f", $1 / 1000}')
fi
# The batch and the 100 Kubernetes manifests against the 6f84cf6 binary,
# side by side in one hyperfine run: "label old_ms new_ms ratio user_ms
# old_user new_user user_ratio".
if [ $SMOKE = 1 ]; then SIDE_BATCH=200; SIDE_RUNS=2; else SIDE_BATCH=10000; SIDE_RUNS=20; fi
if [ -n "$OLD" ]; then
  GEN="$GEN" BATCH=$SIDE_BATCH bench/side-by-side.sh "$OLD" "$BIN" "$SIDE_RUNS" > "$OUT/side.txt"
else
  : > "$OUT/side.txt"
fi
# compose-lint 0.36.2 on one real Compose file, side by side (optional:
# skipped with a message when .tools/compose-lint is not installed; this
# script never downloads it, bench/vs-compose-lint.sh --install does).
if [ $SMOKE = 1 ]; then CL_RUNS=2; else CL_RUNS=10; fi
bench/vs-compose-lint.sh "$BIN" "$CL_RUNS" > "$OUT/compose-lint.txt"
tp_args=(); [ $SMOKE = 1 ] && tp_args=(--smoke)
"$TP" "${tp_args[@]}" > "$OUT/throughput.txt"
val() { awk -v k="$1" '$1==k{print $2}' "$OUT/throughput.txt"; }

# Imports of every format near the 8 MiB input limit (bench/gen-imports.py;
# generated into a temporary directory, never committed), and at half that
# size: CPU time (user + sys: on a host shared with other work the wall
# clock reads several times higher) and peak RSS of the whole process, the
# median of IMP_RUNS runs each, and cpu(full) / cpu(half), which is about
# 2 when the cost is linear in the input.
IMP=$(mktemp -d); trap 'rm -rf "$IMP"' EXIT
if [ $SMOKE = 1 ]; then IMP_SCALE=0.02; IMP_RUNS=2; else IMP_SCALE=1; IMP_RUNS=5; fi
python3 bench/gen-imports.py "$IMP/full" "$IMP_SCALE" > "$IMP/counts.txt"
python3 bench/gen-imports.py "$IMP/half" "$(python3 -c "print($IMP_SCALE / 2)")" > /dev/null
: > "$OUT/imports.txt"
# "cpu_seconds peak_kib exit_status": medians over IMP_RUNS runs, the
# status of the last.
cpu_rss() {
  : > "$IMP/runs.txt"
  for _ in $(seq "$IMP_RUNS"); do
    /usr/bin/time -f '%U %S %M %x' -o "$IMP/time.txt" "$BIN" import "$1" -o "$IMP/out.json" >/dev/null 2>&1 || true
    tail -n1 "$IMP/time.txt" >> "$IMP/runs.txt"
  done
  local mid=$(( (IMP_RUNS + 1) / 2 ))
  echo "$(awk '{printf "%.3f\n", $1 + $2}' "$IMP/runs.txt" | sort -n | sed -n "${mid}p")" \
       "$(awk '{print $3}' "$IMP/runs.txt" | sort -n | sed -n "${mid}p")" \
       "$(tail -n1 "$IMP/runs.txt" | awk '{print $4}')"
}
for f in compose.yaml pod.yaml env.yaml bwrap.sh bwrap-undo.sh config.json config.toml; do
  read -r full kib code < <(cpu_rss "$IMP/full/$f")
  read -r half _ _ < <(cpu_rss "$IMP/half/$f")
  echo "$f $(stat -c %s "$IMP/full/$f") $full $half $kib $code" >> "$OUT/imports.txt"
done

# Hostile inputs under 1 MiB, every format through every output
# (bench/hostile.sh; goal ≤ 2 s CPU and ≤ 512 MiB each): its own table,
# printed after this one.
hostile_args=(); [ $SMOKE = 1 ] && hostile_args=(--smoke)
hostile_ok=1
bench/hostile.sh "${hostile_args[@]}" "$BIN" > "$OUT/hostile.txt" 2>&1 || hostile_ok=0

wasm_gz=NA
if [ -d dist ] && ls dist/*.wasm >/dev/null 2>&1; then
  wasm_gz=$(( ( $(cat dist/*.wasm | gzip -9 | wc -c) + $(cat dist/*.js | gzip -9 | wc -c) ) / 1024 ))
fi

python3 - "$one" "$hundred" "$BATCH" "$batch_s" "$big" "$rss" "$(val scale_ratio)" "$wasm_gz" "$(val parse_mb_per_s)" "$(val serde_json_mb_per_s)" "$SMOKE" "$cold_ms" "$(cat "$OUT/steal.txt" 2>/dev/null | tr '\n' ' ')" "$OUT/imports.txt" "$OUT/side.txt" "$OUT/compose-lint.txt" <<'PY'
import sys
one, hundred, batch, batch_s, big, rss, scale, wasm, ours, serde, smoke, cold, steal, imports, side, composelint = sys.argv[1:]
rows = []
def row(name, value, unit, goal, le=True):
    try:
        v = float(value)
    except ValueError:
        rows.append((name, "n/a", f"{'≤' if le else '≥'} {goal} {unit}", "n/a")); return
    ratio = v / goal
    ok = ratio <= 1 if le else ratio >= 1
    rows.append((name, f"{v:.2f} {unit}", f"{'≤' if le else '≥'} {goal} {unit}", f"{ratio:.2f}{'' if ok else ('  (smoke: not judged)' if smoke == '1' else '  MISSED')}"))
row("one typical profile, whole process, median", float(one) * 1e3, "ms", 10)
row("100 profiles, whole process, median", float(hundred) * 1e3, "ms", 40)
row(f"{batch} profiles, batch", int(batch) / float(batch_s), "profiles/s", 20000, le=False)
row("10k mounts × 10k labels, one profile", float(big) * 1e3, "ms", 50)
side_rows = [line.split() for line in open(side)]
for label, old, new, ratio, _, old_user, new_user, user_ratio in side_rows:
    if label.startswith("batch"):
        what = label.replace("batch-", "") + " profiles, batch"
        row(f"{what}: time / 6f84cf6's, side by side", float(ratio), "×", 1.15)
        row(f"{what}: user CPU / 6f84cf6's, side by side", float(user_ratio), "×", 1.15)
for f in open(composelint).read().split("\n"):
    if f.startswith("compose-lint "):
        _, name, i_ms, c_ms, speed = f.split()[:5]
        row(f"compose-lint 0.36.2 time / isolint's, {name}, side by side", float(speed), "×", 15, le=False)
row("time(100k) / time(10k), in process" if smoke == "0" else "time(10k) / time(1k), in process (smoke)", scale, "", 12)
row("peak RSS, one profile", (float(rss) / 1024) if rss.strip().isdigit() else "x", "MiB", 10)
row("wasm + js bundle, gzip (importers included)", wasm, "KB", 512)
for line in open(imports):
    f, size, full, half, kib, code = line.split()
    what = f"import {f}, {int(size) / 2**20:.1f} MiB" + (" (refused, exit 2)" if code == "2" else "")
    row(f"{what}: CPU time (user + sys), median", float(full) * 1e3, "ms", 1000)
    row(f"{what}: peak RSS, median", int(kib) / 1024 if kib.isdigit() else "x", "MiB", 200)
    row(f"{what}: cpu(full) / cpu(half)", float(full) / max(float(half), 1e-3), "", 2.5)
w = [max(len(r[i]) for r in rows) for i in range(4)]
hdr = ("figure", "value", "goal", "ratio")
w = [max(w[i], len(hdr[i])) for i in range(4)]
print("  ".join(h.ljust(w[i]) for i, h in enumerate(hdr)))
print("  ".join("-" * w[i] for i in range(4)))
for r in rows:
    print("  ".join(r[i].ljust(w[i]) for i in range(4)))
missed = [r[0] for r in rows if r[3].endswith("MISSED")]
if missed:
    print(f"\n{len(missed)} figure(s) MISSED their goal: " + "; ".join(missed))
print(f"\nJSON parse throughput: isolint {ours} MB/s, serde_json {serde} MB/s on the same bytes (ratio {float(ours)/float(serde):.2f})")
st = steal.split()
if len(st) == 4:
    print(f"CPU time taken by the host (steal) while timed: one {st[0]} %, 100 profiles {st[1]} %, batch {st[2]} %, 10k x 10k {st[3]} %"
          " (above a few per cent, the timings of this run read high)")
if cold != "NA":
    print(f"10k mounts × 10k labels, one run after 5 s idle (median of 5, not a goal): {cold} ms")
for label, old, new, ratio, _, old_user, new_user, user_ratio in side_rows:
    if not label.startswith("batch"):
        print(f"{label} against 6f84cf6, side by side: {old} -> {new} ms ({ratio}x), user CPU {old_user} -> {new_user} ms ({user_ratio}x)")
if smoke == "1":
    print("(smoke run: tiny sizes and 2 runs; numbers are not meaningful)")
PY
echo
echo "Hostile inputs under 1 MiB (bench/hostile.sh${hostile_args[*]:+ ${hostile_args[*]}}):"
cat "$OUT/hostile.txt"
# A crash, a file of too many profiles audited rather than refused, or a
# run over its bound fails the run (the smoke included: CPU time, not the
# wall clock, is judged, so a busy host does not fail it).
[ $hostile_ok = 1 ]
