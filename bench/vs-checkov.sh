#!/usr/bin/env bash
# isolint side by side with Checkov on bench/scenarios/: does each tool catch
# the one risk a scenario adds to the hardened baseline, and how long does a
# whole process take on 1 file and on a directory of 100 manifests.
#
# Usage: bench/vs-checkov.sh
#   RUNS_FAST=20 RUNS_SLOW=5   hyperfine runs for isolint / Checkov
# Checkov 3.3.30 is installed from PyPI into .tools/checkov (git-ignored) on
# the first run and reused afterwards. Outputs go to bench/out/vs-checkov.
set -euo pipefail
cd "$(dirname "$0")/.."
unset CARGO_TARGET_DIR

CHECKOV_VERSION=3.3.30
VENV=.tools/checkov
OUT=bench/out/vs-checkov
SCN=bench/scenarios
BIN=target/release/isolint
RUNS_FAST=${RUNS_FAST:-20}
RUNS_SLOW=${RUNS_SLOW:-5}
rm -rf "$OUT"; mkdir -p "$OUT/isolint" "$OUT/checkov"

# Always: cargo returns at once when the binary is current, and rebuilds a stale one.
(unset CARGO_TARGET_DIR; cargo build --release -q -p isolint)

# --- Checkov, idempotent install -------------------------------------------
CHECKOV="$VENV/bin/checkov"
if [ -x "$CHECKOV" ] && [ "$("$CHECKOV" --version 2>/dev/null)" = "$CHECKOV_VERSION" ]; then
  echo "checkov $CHECKOV_VERSION already in $VENV" >&2
else
  echo "installing checkov==$CHECKOV_VERSION into $VENV" >&2
  if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check "checkov==$CHECKOV_VERSION"; } >"$OUT/pip.log" 2>&1; then
    echo "pip install checkov==$CHECKOV_VERSION failed (see $OUT/pip.log); comparing isolint only" >&2
    CHECKOV=""
  fi
fi
# --skip-download: no call to the Prisma Cloud API (offline, and isolint
# makes no network calls either); it only drops doc links and severities.
CK_ARGS=(--framework kubernetes secrets --compact --quiet -o json --skip-download)

# --- Detection ---------------------------------------------------------------
# The hardened Pod is the baseline: isolint marks each finding `new` or
# `existing` against it (--baseline does not change the exit status).
"$BIN" audit --format json -o "$OUT/isolint/hardened.base.json" "$SCN/hardened.yaml" 2>/dev/null || true
for f in "$SCN"/*.yaml; do
  s=$(basename "$f" .yaml)
  set +e
  "$BIN" audit --format json --baseline "$OUT/isolint/hardened.base.json" "$f" >"$OUT/isolint/$s.json" 2>/dev/null
  echo $? >"$OUT/isolint/$s.rc"
  if [ -n "$CHECKOV" ] && [ "$s" != compose-risky ]; then
    "$CHECKOV" -f "$f" "${CK_ARGS[@]}" >"$OUT/checkov/$s.json" 2>"$OUT/checkov/$s.err"
    echo $? >"$OUT/checkov/$s.rc"
  elif [ -n "$CHECKOV" ]; then # no Compose framework; what the secrets framework alone says
    "$CHECKOV" -f "$f" --framework secrets --compact --quiet -o json --skip-download >"$OUT/checkov/$s.secrets.json" 2>/dev/null
  fi
  set -e
done

python3 - "$OUT" "${CHECKOV:+yes}" <<'PY'
import json, os, sys
out, have_ck = sys.argv[1], sys.argv[2] == "yes"

# Rules of each tool that address the scenario's risk. A tool "caught" the
# scenario when it reports at least one of them (isolint must also exit 1,
# i.e. declare the profile not eligible). Empty list: the tool has no check.
ISOLINT = {
    "home-hostpath": ["MNT001", "MNT005"],
    "aws-hostpath": ["MNT002"],
    "docker-socket": ["MNT004", "PRV009"],
    "privileged": ["PRV001"],
    "caps-sys-admin-net-admin": ["PRV002"],
    "env-secrets": ["CRD002"],
    "no-limits": ["LIM003", "LIM007"],
    "host-namespaces": ["PRV006"],
    "shell-pip-pytest": ["CMD003", "DEP011"],
    "latest-tag": ["DEP006"],
    "root-escalation": ["PRV004", "PRV005"],
}
CHECKOV = {
    "home-hostpath": [],            # no hostPath check besides the docker socket
    "aws-hostpath": [],
    "docker-socket": ["CKV_K8S_27"],
    "privileged": ["CKV_K8S_16"],
    "caps-sys-admin-net-admin": ["CKV_K8S_25", "CKV_K8S_39"],
    "env-secrets": ["CKV_SECRET_*"],
    "no-limits": ["CKV_K8S_10", "CKV_K8S_11", "CKV_K8S_12", "CKV_K8S_13"],
    "host-namespaces": ["CKV_K8S_17", "CKV_K8S_18", "CKV_K8S_19"],
    "shell-pip-pytest": [],         # no check on the command
    "latest-tag": ["CKV_K8S_14", "CKV_K8S_43"],
    "root-escalation": ["CKV_K8S_20", "CKV_K8S_23", "CKV_K8S_40"],
}
# The Compose file carries four risks; each counts when one of its rules fires.
COMPOSE = {
    "privileged": ["PRV001"],
    "docker socket": ["MNT004", "PRV009"],
    "host network": ["PRV006"],
    "env secret": ["CRD002"],
}

def docs(path):
    d = json.load(open(path))
    return d if isinstance(d, list) else [d]

def isolint(s):
    rc = int(open(f"{out}/isolint/{s}.rc").read())
    issues = [i for d in docs(f"{out}/isolint/{s}.json") for i in d["issues"]]
    return rc, issues

def checkov_failed(s):
    ids = []
    for r in docs(f"{out}/checkov/{s}.json"):
        ids += [c["check_id"] for c in r.get("results", {}).get("failed_checks", [])]
    return sorted(set(ids))

def match(ids, wanted):
    return sorted({i for i in ids for w in wanted
                   if i == w or (w.endswith("*") and i.startswith(w[:-1]))})

rows, icount, ccount, n = [], 0, 0, 0
rc, base = isolint("hardened")
block = sorted({i["rule"] for i in base if i["severity"] in ("critical", "high")})
undeclared = all("not declared" in json.dumps(i).replace("not-declared", "not declared") for i in base
                 if i["severity"] in ("critical", "high"))
base_ck = checkov_failed("hardened") if have_ck else []
rows.append(("hardened (baseline)", "eligible" if rc == 0 else "not eligible",
             f"{len(base_ck)} failed" if have_ck else "unavailable",
             f"isolint: {len(base)} findings, blocking {','.join(block) or 'none'}"
             + (" (all 'not declared')" if block and undeclared else "")
             + (f"; Checkov: {','.join(base_ck)}" if have_ck else "")))

for s in ISOLINT:
    n += 1
    rc, issues = isolint(s)
    new = [i for i in issues if i.get("baseline") == "new"]
    hit = match([i["rule"] for i in new], ISOLINT[s])
    icaught = rc == 1 and bool(hit)
    icount += icaught
    if have_ck:
        failed = checkov_failed(s)
        chit = match(failed, CHECKOV[s])
        ccaught = bool(chit)
        ccount += ccaught
        ck = "yes" if ccaught else "no"
        cdet = ",".join(chit) if chit else ("no check" if not CHECKOV[s] else "none fired")
    else:
        ck, cdet = "unavailable", ""
    rows.append((s, "yes" if icaught else "no", ck,
                 f"isolint: {','.join(hit) or '-'} ({len(new)} new vs baseline); Checkov: {cdet}"))

rc, issues = isolint("compose-risky")
got = {r: bool(match([i["rule"] for i in issues], w)) for r, w in COMPOSE.items()}
ccompose = "not supported"
note = ""
if have_ck and os.path.exists(f"{out}/checkov/compose-risky.secrets.json"):
    sec = sorted({c["check_id"] for r in docs(f"{out}/checkov/compose-risky.secrets.json")
                  for c in r.get("results", {}).get("failed_checks", [])})
    note = f"; Checkov --framework secrets alone: {','.join(sec) or 'nothing'}"
rows.append(("compose-risky (Compose)",
             f"{'yes' if rc == 1 and all(got.values()) else 'no'} ({sum(got.values())}/{len(got)} risks)",
             ccompose,
             "isolint missed: " + (",".join(r for r, v in got.items() if not v) or "none") + note))

w = [max(len(r[k]) for r in rows + [("scenario", "isolint caught", "Checkov caught", "")]) for k in range(3)]
print(f"| {'scenario':<{w[0]}} | {'isolint caught':<{w[1]}} | {'Checkov caught':<{w[2]}} | detail |")
print(f"|{'-'*(w[0]+2)}|{'-'*(w[1]+2)}|{'-'*(w[2]+2)}|--------|")
for r in rows:
    print(f"| {r[0]:<{w[0]}} | {r[1]:<{w[1]}} | {r[2]:<{w[2]}} | {r[3]} |")
print()
print(f"caught (Pod scenarios): isolint {icount}/{n}, Checkov " + (f"{ccount}/{n}" if have_ck else "unavailable")
      + f"; Compose: isolint {sum(got.values())}/{len(got)} risks, Checkov not supported")
PY

# --- Timing ------------------------------------------------------------------
# 100 manifests: the 12 Pod scenarios copied round-robin into one directory
# (the Compose file is left out: Checkov cannot read it).
COPIES="$OUT/copies100"; mkdir -p "$COPIES"
pods=()
for f in "$SCN"/*.yaml; do [ "$(basename "$f")" = compose-risky.yaml ] || pods+=("$f"); done
for i in $(seq 0 99); do
  p=${pods[$((i % ${#pods[@]}))]}
  cp "$p" "$COPIES/$(printf %03d "$i")-$(basename "$p")"
done
got=$("$BIN" audit --format json --from kubernetes "$COPIES" 2>/dev/null | python3 -c 'import json,sys;print(len(json.load(sys.stdin)))' || true)
[ "$got" = 100 ] || { echo "isolint audited $got of 100 copies" >&2; exit 2; }

ONE="$SCN/privileged.yaml"
hf() { # label, runs, warmup, command... -> median seconds, also kept in $OUT
  local label=$1 runs=$2 warm=$3; shift 3
  hyperfine -N --style none -i --warmup "$warm" --runs "$runs" \
    --export-json "$OUT/hf-$label.json" "$*" >/dev/null 2>&1
  python3 -c 'import json,sys;r=json.load(open(sys.argv[1]))["results"][0];print(r["median"], r["stddev"] or 0)' "$OUT/hf-$label.json"
}
i1=$(hf isolint-1 "$RUNS_FAST" 3 "$BIN" audit --format json "$ONE")
i100=$(hf isolint-100 "$RUNS_FAST" 3 "$BIN" audit --format json --from kubernetes "$COPIES")
if [ -n "$CHECKOV" ]; then
  c1=$(hf checkov-1 "$RUNS_SLOW" 1 "$CHECKOV" -f "$ONE" "${CK_ARGS[@]}")
  c100=$(hf checkov-100 "$RUNS_SLOW" 1 "$CHECKOV" -d "$COPIES" "${CK_ARGS[@]}")
else
  c1="nan 0"; c100="nan 0"
fi
python3 - "$i1" "$i100" "$c1" "$c100" "$RUNS_FAST" "$RUNS_SLOW" <<'PY'
import math, sys
(i1, i1s), (i100, i100s), (c1, c1s), (c100, c100s) = (map(float, a.split()) for a in sys.argv[1:5])
rf, rs = sys.argv[5:7]
def ms(v, s): return "n/a" if math.isnan(v) else f"{v*1e3:.1f} ms ± {s*1e3:.1f}"
def ratio(c, i): return "n/a" if math.isnan(c) else f"{c/i:.0f}×"
print()
print(f"| input (whole process, median ± sd) | isolint ({rf} runs) | Checkov ({rs} runs) | Checkov / isolint |")
print("|---|---|---|---|")
print(f"| 1 manifest (privileged.yaml) | {ms(i1, i1s)} | {ms(c1, c1s)} | {ratio(c1, i1)} |")
print(f"| 100 manifests (directory) | {ms(i100, i100s)} | {ms(c100, c100s)} | {ratio(c100, i100)} |")
PY
