#!/usr/bin/env bash
# isolint side by side with compose-lint 0.36.2, the closest Compose peer,
# on one real Compose file (fixtures/import/real/compose/): the whole
# process of each, timed in one hyperfine run. Goal: isolint ≥ 15× faster.
#
# Usage: bench/vs-compose-lint.sh [--install] [BIN] [RUNS]
#   --install: install compose-lint from PyPI into .tools/compose-lint (a
#   venv, git-ignored) when it is not there yet. Without it the script never
#   downloads: when compose-lint is missing it says so and exits 0, so
#   bench/run.sh (and ./test.sh through it) stays offline.
# Prints one line: "compose-lint FILE isolint_ms compose_lint_ms speedup
# user_ms isolint_user compose_lint_user".
set -euo pipefail
cd "$(dirname "$0")/.."
INSTALL=0
if [ "${1:-}" = --install ]; then INSTALL=1; shift; fi
BIN=${1:-target/release/isolint}
RUNS=${2:-10}
VERSION=0.36.2
VENV=.tools/compose-lint
CL="$VENV/bin/compose-lint"
# The largest real Compose file isolint audits whole: most of the others
# name files beside them (`env_file`, build contexts) that the fixtures do
# not carry, and isolint then refuses (exit 2) before auditing, which
# would time a refusal, not an audit.
FILE=${FILE:-fixtures/import/real/compose/wireguard.yaml}
OUT=bench/out/vs-compose-lint; mkdir -p "$OUT"

installed() { [ -x "$CL" ] && "$VENV/bin/pip" show compose-lint 2>/dev/null | grep -qx "Version: $VERSION"; }
if ! installed; then
  if [ $INSTALL = 0 ]; then
    echo "compose-lint $VERSION is not installed in $VENV: skipped (bench/vs-compose-lint.sh --install installs it from PyPI)" >&2
    exit 0
  fi
  echo "installing compose-lint==$VERSION into $VENV" >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "compose-lint==$VERSION" >"$OUT/pip.log" 2>&1 \
    || { echo "pip install compose-lint==$VERSION failed (see $OUT/pip.log)" >&2; exit 2; }
fi
[ -x "$BIN" ] || { echo "no isolint binary at $BIN" >&2; exit 2; }
set +e
"$BIN" audit --format json --from compose "$FILE" >/dev/null 2>&1
[ $? -le 1 ] || { echo "isolint refuses $FILE (exit 2): pick a file it audits (FILE=...)" >&2; exit 2; }
set -e

# Both read the same file and write a report; exit statuses are not judged
# (both report findings on this file).
hyperfine -N --style none -i --warmup 2 --runs "$RUNS" --export-json "$OUT/hf.json" \
  "$BIN audit --format json --from compose $FILE" \
  "$CL check --format json $FILE" >/dev/null 2>&1
python3 - "$OUT/hf.json" "$(basename "$FILE")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
i, c = r[0]["median"] * 1e3, r[1]["median"] * 1e3
iu, cu = r[0]["user"] * 1e3, r[1]["user"] * 1e3
print(f"compose-lint {sys.argv[2]} {i:.1f} {c:.1f} {c / i:.1f} user_ms {iu:.1f} {cu:.1f}")
PY
