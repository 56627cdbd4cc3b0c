#!/usr/bin/env bash
# The batch figures as ratios to an older binary, both timed side by side
# in one hyperfine run (an absolute rate on a shared host is noise; a
# ratio of two binaries timed in alternation is not).
# Usage: bench/side-by-side.sh OLD_BIN NEW_BIN [RUNS]
# Prints "figure old_ms new_ms ratio" lines, ratio = new / old.
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$1; NEW=$2; RUNS=${3:-20}
OUT=bench/out/side; mkdir -p "$OUT"
GEN=${GEN:-target/release/examples/gen}
BATCH=${BATCH:-10000}
[ -d "$OUT/batch$BATCH" ] || "$GEN" batch "$BATCH" "$OUT/batch$BATCH" >/dev/null
# The 100 Kubernetes manifests of bench/vs-checkov.sh: its 12 Pod
# scenarios copied round-robin.
K8S="$OUT/copies100"
if [ ! -d "$K8S" ]; then
  mkdir -p "$K8S"
  pods=()
  for f in bench/scenarios/*.yaml; do [ "$(basename "$f")" = compose-risky.yaml ] || pods+=("$f"); done
  for i in $(seq 0 99); do
    p=${pods[$((i % ${#pods[@]}))]}
    cp "$p" "$K8S/$(printf %03d "$i")-$(basename "$p")"
  done
fi
pair() { # label, command template with BIN -> "label old_ms new_ms ratio"
  local label=$1 cmd=$2
  hyperfine -N --style none -i --warmup 2 --runs "$RUNS" --export-json "$OUT/$label.json" \
    --prepare "rm -f $OUT/out.json" \
    "${cmd//BIN/$OLD}" "${cmd//BIN/$NEW}" >/dev/null 2>&1
  python3 - "$OUT/$label.json" "$label" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
o, n = r[0]["median"] * 1e3, r[1]["median"] * 1e3
ou, nu = r[0]["user"] * 1e3, r[1]["user"] * 1e3
print(f"{sys.argv[2]} {o:.1f} {n:.1f} {n / o:.2f} user_ms {ou:.0f} {nu:.0f} {nu / max(ou, 1e-9):.2f}")
PY
}
pair "batch-$BATCH" "BIN audit --format json --output $OUT/out.json $OUT/batch$BATCH"
pair k8s-100 "BIN audit --format json --from kubernetes --output $OUT/out.json $K8S"
