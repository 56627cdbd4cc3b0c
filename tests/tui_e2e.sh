#!/usr/bin/env bash
# End-to-end test of the terminal dashboard in a real terminal (tmux).
#
#   tests/tui_e2e.sh [path/to/isolint]      (default: target/release/isolint)
#
# Runs the binary on a temporary copy of the workshop profile in a private
# tmux server and checks what a reviewer sees: a writable-mount finding with
# its source line, the export (a valid isolint.findings/v2 document written
# atomically in the working directory), live re-audit after an on-disk edit,
# an error panel for broken JSON, resizing to 80x24, a fix previewed with
# f and applied with y, and that the terminal
# is restored on quit and on SIGTERM. Fails loudly on the first mismatch.
set -euo pipefail

cd "$(dirname "$0")/.."
BIN=${1:-target/release/isolint}
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac
[ -x "$BIN" ] || { echo "tui_e2e: FAIL: no executable at $BIN (build with cargo build --release)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "tui_e2e: FAIL: tmux is not installed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "tui_e2e: FAIL: python3 is not installed" >&2; exit 1; }

WORK=$(mktemp -d)
# A private tmux server whose socket lives (and dies) with the temp dir.
T() { tmux -S "$WORK/tmux.sock" "$@"; }
cleanup() {
  T kill-server 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

cp fixtures/profiles/workshop.json "$WORK/workshop.json"
PROFILE="$WORK/workshop.json"
CHECKS=0
SESSION=""

ok() { CHECKS=$((CHECKS + 1)); printf 'tui_e2e: ok %2d  %s\n' "$CHECKS" "$*"; }
screen() { T capture-pane -p -t "$SESSION"; }
fail() {
  echo "tui_e2e: FAIL: $*" >&2
  if [ -n "$SESSION" ] && T has-session -t "$SESSION" 2>/dev/null; then
    echo "---- screen of $SESSION ----" >&2
    screen >&2 || true
    echo "----------------------------" >&2
  fi
  exit 1
}
# wait_for TEXT [SECONDS]: poll the screen until it contains TEXT.
wait_for() {
  local deadline=$((SECONDS + ${2:-5}))
  while [ "$SECONDS" -lt "$deadline" ]; do
    screen | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  fail "the screen never showed: $1"
}
# keys K...: send keys one at a time (an Esc followed at once by a letter
# reads as Alt+letter, as in any terminal).
keys() {
  for k in "$@"; do
    T send-keys -t "$SESSION" "$k"
    sleep 0.15
  done
}
pane() { T display-message -p -t "$SESSION" "$1"; }

# The pane runs the dashboard, then records the terminal mode it left behind.
# start SESSION W H STTY_FILE [FILE...]   (default: workshop.json)
start() {
  SESSION=$1
  local w=$2 h=$3 stty_file=$4
  shift 4
  local files="${*:-workshop.json}"
  T new-session -d -s "$SESSION" -x "$w" -y "$h" -c "$WORK" \
    "${ENVS:-} '$BIN' tui $files; stty -a > '$stty_file' 2>&1; echo exited > '$stty_file.done'; sleep 30"
  T set-option -t "$SESSION" remain-on-exit on >/dev/null
}

# After the dashboard exited: normal screen, visible cursor, cooked tty.
check_restored() {
  local stty_file=$1 why=$2 deadline=$((SECONDS + 5))
  while [ ! -f "$stty_file.done" ]; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$why: the dashboard did not exit"
    sleep 0.1
  done
  [ "$(pane '#{alternate_on}')" = 0 ] || fail "$why: still on the alternate screen"
  [ "$(pane '#{cursor_flag}')" = 1 ] || fail "$why: the cursor is still hidden"
  grep -qE '(^|[ ;])icanon([ ;]|$)' "$stty_file" || fail "$why: the terminal is left in raw mode (no icanon): $(cat "$stty_file")"
  grep -qE '(^|[ ;])echo([ ;]|$)' "$stty_file" || fail "$why: echo is left off: $(cat "$stty_file")"
  ! screen | grep -qF 'Areas' || fail "$why: the dashboard is still drawn on the normal screen"
}

# ── 1. open, see a writable-mount finding and its source line ──────────────
start main 120 40 "$WORK/stty.main"
wait_for "[1 Findings]"
[ "$(pane '#{alternate_on}')" = 1 ] || fail "the dashboard does not use the alternate screen"
wait_for "not eligible"
screen | grep -qiE '\b(safe|secure)\b' && fail "the screen calls a profile safe or secure"
ok "dashboard opens on the alternate screen with the not-eligible banner"

keys g
screen | grep -qF '› Writable mounts' || fail "the first finding (g) is not in Writable mounts; expected the workshop profile to have writable-mount findings"
LINE=$(screen | sed -n 's/.*Source · workshop\.json:\([0-9][0-9]*\).*/\1/p' | head -1)
[ -n "$LINE" ] || fail "the source pane does not name the finding's line"
SCREEN=$(screen) python3 - "$PROFILE" "$LINE" <<'PY' || fail "the source pane does not show line $LINE of the profile"
import os, re, sys
path, line = sys.argv[1], int(sys.argv[2])
want = open(path, encoding="utf-8").read().splitlines()[line - 1].strip()
rows = os.environ["SCREEN"].splitlines()
at = next(i for i, r in enumerate(rows) if re.search(r"▶ +%d │" % line, r))
# The marked row plus its wrapped continuation rows, right pane only.
def right(r):
    return r.split("││", 1)[-1].rstrip("│ ")
parts = [right(rows[at]).split("│", 1)[1]]
for r in rows[at + 1:]:
    if "┆" not in right(r):
        break
    parts.append(right(r).split("┆", 1)[1])
shown = " ".join(p.strip() for p in parts)
norm = lambda s: re.sub(r"\s+", " ", s).strip()
assert norm(want) == norm(shown), (want, shown)
PY
ok "writable-mount finding selected; source pane marks line $LINE with the profile's text"

# ── 2. export ───────────────────────────────────────────────────────────────
TOTAL=$(screen | sed -n 's/.* \([0-9][0-9]*\) findings · .*/\1/p' | head -1)
[ -n "$TOTAL" ] || fail "the header does not count findings"
keys s s s s            # raise the floor to critical: the export must ignore it
keys x
wait_for "export to: ./workshop.findings.json"
[ -f "$WORK/workshop.findings.json" ] && fail "the export wrote before the path was confirmed"
keys Enter
wait_for "to ./workshop.findings.json"
[ -f "$WORK/workshop.findings.json" ] || fail "no export file in the working directory"
ls -A "$WORK" | grep -q '\.tmp$' && fail "a temporary export file was left behind"
python3 - "$WORK/workshop.findings.json" "$TOTAL" <<'PY' || fail "the export is not a valid isolint.findings/v2 document"
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
assert doc["schema"] == "isolint.findings/v2", doc.get("schema")
for k in ["route", "tool", "profile", "labels", "verdict", "notice", "summary", "issues", "runtime_checks"]:
    assert k in doc, k
assert doc["verdict"] in ("not-eligible", "eligible-for-runtime-testing")
assert doc["verdict"] == "not-eligible"
assert len(doc["issues"]) == int(sys.argv[2]), (len(doc["issues"]), sys.argv[2])
assert sum(doc["summary"].values()) == len(doc["issues"])
for i in doc["issues"]:
    for k in ["rule", "area", "severity", "pointer", "message", "remediation", "evidence"]:
        assert k in i, k
assert all(c["kind"] and c["expect"] for c in doc["runtime_checks"])
PY
ok "x asked where, then Enter wrote ./workshop.findings.json: valid isolint.findings/v2 with all $TOTAL findings despite the severity filter"
keys Escape
sleep 0.3

# ── 3. on-disk edits are re-audited ─────────────────────────────────────────
BEFORE=$(screen | sed -n '3p')
sed -i 's|"/var/run/docker.sock", "target": "/var/run/docker.sock"|"/srv/workshop/cache", "target": "/cache"|' "$PROFILE"
grep -q '/srv/workshop/cache' "$PROFILE" || fail "the test edit did not apply to the fixture copy"
wait_for "workshop.json changed on disk: re-audited"
AFTER=$(screen | sed -n '3p')
[ "$BEFORE" != "$AFTER" ] || fail "the counts did not change after removing the engine socket mount: $AFTER"
ok "on-disk edit re-audited automatically (counts: '$(echo "$AFTER" | sed 's/  */ /g')')"

printf '{\n  "schema": "isolint.profile/v1",\n  "name": "x" "y"\n}\n' > "$PROFILE"
wait_for "input error at line 3, column"
wait_for "workshop.json:3:"
ok "broken JSON shows an error panel with file:line:column, no crash"
cp fixtures/profiles/workshop.json "$PROFILE"
wait_for "not eligible"
wait_for "Areas"
ok "fixing the file brings the findings back"

# ── 4. resize ──────────────────────────────────────────────────────────────
T resize-window -t "$SESSION" -x 80 -y 24
sleep 0.5
WIDEST=$(screen | python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in sys.stdin))')
screen | grep -qF "[1 Findings]" || fail "nothing redrawn after resizing to 80x24"
[ "$(pane '#{pane_width}')" = 80 ] || fail "tmux did not resize the pane"
[ "$WIDEST" -le 80 ] || fail "a line is wider than 80 columns after resizing"
ok "resized to 80x24 and redrawn"

# ── 5. help, quit, terminal restored ────────────────────────────────────────
keys '?'
wait_for "Keys — ? or Esc closes"
keys Escape
sleep 0.3
screen | grep -qF "Keys — ? or Esc closes" && fail "Esc did not close the help"
keys q
check_restored "$WORK/stty.main" "after q"
ok "q quits: alternate screen off, cursor shown, tty back in canonical mode with echo"

# ── 5a. o opens $EDITOR at the finding, then the dashboard resumes ───────
# A stub editor records its arguments. For the imported Deployment it must
# be given the original YAML file at the finding's line; for vim-style
# editors the convention is +LINE FILE, for hx FILE:LINE:COLUMN.
cat > "$WORK/stub-editor" <<'SH'
#!/bin/sh
printf '%s\n' "$(basename "$0")" "$@" > "$STUB_LOG"
SH
chmod +x "$WORK/stub-editor"
ln -sf "$WORK/stub-editor" "$WORK/hx"
cp fixtures/import/kubernetes/deployment-host.yaml "$WORK/deployment.yaml"
for ed in stub-editor hx; do
  rm -f "$WORK/editor.log"
  ENVS="STUB_LOG='$WORK/editor.log' VISUAL='$WORK/$ed'" start "edit-$ed" 120 36 "$WORK/stty.edit" deployment.yaml
  wait_for "[0 Profiles]"
  keys Enter
  wait_for "[1 Findings]"
  WANT=$(screen | sed -n 's/.*Source · deployment\.yaml:\([0-9][0-9]*\).*/\1/p' | head -1)
  [ -n "$WANT" ] || fail "the source pane does not name the original file's line"
  keys o
  for _ in $(seq 1 50); do [ -s "$WORK/editor.log" ] && break; sleep 0.1; done
  [ -s "$WORK/editor.log" ] || fail "o did not run \$VISUAL ($ed)"
  wait_for "back from"
  wait_for "[1 Findings]"
  [ "$(pane '#{alternate_on}')" = 1 ] || fail "the dashboard did not take the alternate screen back after $ed"
  ARGS=$(tail -n +2 "$WORK/editor.log" | tr '\n' ' ')
  case $ed in
    hx) echo "$ARGS" | grep -qE "deployment\.yaml:$WANT:[0-9]+ \$" || fail "hx got '$ARGS', want deployment.yaml:$WANT:COL" ;;
    *) [ "$ARGS" = "+$WANT deployment.yaml " ] || fail "$ed got '$ARGS', want '+$WANT deployment.yaml'" ;;
  esac
  keys j
  sleep 0.3
  screen | grep -qF "[1 Findings]" || fail "keys do nothing after the editor returned"
  keys q
  check_restored "$WORK/stty.edit" "after q (editor $ed)"
  T kill-session -t "$SESSION" 2>/dev/null || true
  rm -f "$WORK/stty.edit" "$WORK/stty.edit.done"
  ok "o ran $ed with '$ARGS' (the original file at line $WANT) and the dashboard resumed"
done

# ── 5b. several profiles in one file: every one is listed and reachable ───
# A Deployment with two containers and a Compose file with two services:
# each opens on the profiles list, whose rows carry each profile's verdict;
# j walks to the second, Enter opens its findings, and the header counts.
cp fixtures/import/kubernetes/deployment-host.yaml "$WORK/deployment.yaml"
cat > "$WORK/compose.yaml" <<'YAML'
services:
  calm:
    image: busybox@sha256:0000000000000000000000000000000000000000000000000000000000000000
    read_only: true
    network_mode: none
    cap_drop: [ALL]
  risky:
    image: python:3.12
    privileged: true
    volumes:
      - /var/run/docker.sock:/var/run/docker.sock
      - ~/.aws:/root/.aws
YAML
for case in "deployment.yaml:Deployment/builder/build:Deployment/builder/fetch" "compose.yaml:#calm:#risky"; do
  IFS=: read -r file one two <<<"$case"
  for size in 80x24 120x36; do
    w=${size%x*}; h=${size#*x}
    start "multi-${file%.*}-$w" "$w" "$h" "$WORK/stty.multi" "$file"
    wait_for "[0 Profiles]"
    wait_for "profile 1 of 2"
    ROWS=$(screen | grep -E '│.{0,2}[✗✓?] ' || true)
    [ "$(printf '%s\n' "$ROWS" | grep -c .)" = 2 ] || fail "$file at $size: the list does not show two profiles: $ROWS"
    printf '%s\n' "$ROWS" | grep -qF "$one" || fail "$file at $size: $one is not listed"
    printf '%s\n' "$ROWS" | grep -qF "$two" || fail "$file at $size: $two is not listed"
    printf '%s\n' "$ROWS" | grep -q '✗' || fail "$file at $size: no row shows a not-eligible verdict"
    FIRST=$(screen | sed -n 1p)
    keys j
    wait_for "profile 2 of 2"
    [ "$(screen | sed -n 1p)" != "$FIRST" ] || fail "$file at $size: the header did not change to the second profile"
    keys Enter
    wait_for "[1 Findings]"
    screen | grep -qF "profile 2 of 2" || fail "$file at $size: the findings header lost the position"
    keys ']'
    wait_for "profile 1 of 2"
    keys q
    check_restored "$WORK/stty.multi" "after q ($file)"
    T kill-session -t "$SESSION" 2>/dev/null || true
    rm -f "$WORK/stty.multi" "$WORK/stty.multi.done"
  done
  ok "$file: both profiles listed with verdicts at 80x24 and 120x36, each reachable (j, Enter, ])"
done

start dir 120 36 "$WORK/stty.dir" .
wait_for "[0 Profiles]"
N=$(screen | sed -n 's/.*profile 1 of \([0-9][0-9]*\).*/\1/p' | head -1)
[ "${N:-0}" -ge 5 ] || fail "tui DIR lists ${N:-no} profiles; expected the workshop profile, 2 containers and 2 services"
keys q
check_restored "$WORK/stty.dir" "after q (directory)"
T kill-session -t "$SESSION" 2>/dev/null || true
ok "tui DIR opens on the list of all $N profiles of the directory"

# ── 5c. within an area, the worst finding comes first ─────────────────────
start order 120 40 "$WORK/stty.order"
wait_for "[1 Findings]"
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
  screen | python3 -c '
import re, sys
rank = {"CRIT": 0, "HIGH": 1, "MED": 2, "LOW": 3, "INFO": 4}
# The list pane only: the detail below repeats the selected severity.
text = sys.stdin.read().split("┌ Detail")[0]
tags = [rank[m.group(1)] for m in re.finditer(r"[│›] *(CRIT|HIGH|MED|LOW|INFO) +[A-Z]{3}[0-9]{3} ", text)]
sys.exit(0 if tags == sorted(tags) else 1)' || fail "an area lists a finding below a less severe one"
  keys l
done
keys q
check_restored "$WORK/stty.order" "after q (order)"
T kill-session -t "$SESSION" 2>/dev/null || true
ok "every area lists its findings worst first"

# ── 5d. small screens, drilling in, the blocking filter and n after / ─────
# At 60x20 and 40x12 the bottom bar still says how to get help and quit, and
# the detail stays readable; Enter drills into a finding and Esc backs out;
# b keeps only the blocking findings; n after a search goes to the next
# match, never to another profile while this one has more.
for size in 60x20 40x12 80x24 120x36; do
  w=${size%x*}; h=${size#*x}
  start "small-$w" "$w" "$h" "$WORK/stty.small"
  wait_for "[1 Findings]"
  screen | tail -n 1 | grep -qF "? help" || fail "$size: the bottom bar lost '? help': $(screen | tail -n 1)"
  screen | tail -n 1 | grep -qF "q quit" || fail "$size: the bottom bar lost 'q quit': $(screen | tail -n 1)"
  screen | grep -qF "Detail" || fail "$size: no detail pane"
  screen | grep -qF "› CRIT" || fail "$size: the selected finding is not in the list"
  keys Enter
  sleep 0.3
  screen | grep -qF "› CRIT" && fail "$size: Enter did not drill into the finding"
  screen | grep -qF "Detail" || fail "$size: the drilled-in view has no detail"
  keys Escape
  sleep 0.3
  keys b
  wait_for "only blocking findings"
  screen | grep -qE '[│›] *(MED|LOW|INFO) +[A-Z]{3}[0-9]{3} ' && fail "$size: b left a non-blocking finding in the list"
  keys b / d o c k e r Enter
  sleep 0.3
  keys n
  sleep 0.3
  screen | grep -qF "profile 1 of 1" || fail "$size: n left the profile"
  keys q
  check_restored "$WORK/stty.small" "after q ($size)"
  T kill-session -t "$SESSION" 2>/dev/null || true
  rm -f "$WORK/stty.small" "$WORK/stty.small.done"
done
ok "at 40x12 to 120x36: help and quit stay in the bar, Enter drills in, b and n work"

# ── 5c. f previews a finding's fix, y applies it ───────────────────────────
# At 80x24, on a copy: `f` on the added capability (PRV002, a safe fix)
# shows the diff in a pane, `y` writes it atomically and re-audits, and the
# finding is gone from the file's audit.
cp fixtures/profiles/workshop.json "$WORK/fixme.json"
start fix 80 24 "$WORK/stty.fix" fixme.json
wait_for "[1 Findings]"
TOTAL=$(screen | sed -n 's/.* \([0-9][0-9]*\) findings · .*/\1/p' | head -1)
[ -n "$TOTAL" ] || fail "the header does not count findings"
keys / P R V 0 0 2 Enter
sleep 0.3
keys f
wait_for "Fix of PRV002"
wait_for "safe fix"
# The diff may run below the pane: page down until the removed line shows.
for _ in 1 2 3; do
  screen | grep -qE '│-.*"NET_ADMIN"' && break
  keys PageDown
done
screen | grep -qE '│-.*"NET_ADMIN"' || fail "the fix pane does not show the removed capability as a - line"
screen | grep -qE '│\+.*"add": \[\]' || fail "the fix pane does not show the fixed line as a + line"
screen | grep -qF "wJalrXUtnFEMI" && fail "a secret reached the fix pane"
cmp -s fixtures/profiles/workshop.json "$WORK/fixme.json" || fail "the preview wrote the file"
keys y
wait_for "fixed PRV002"
wait_for "re-audited"
cmp -s fixtures/profiles/workshop.json "$WORK/fixme.json" && fail "y did not write the fix"
ls -A "$WORK" | grep -q '\.tmp$' && fail "a temporary file was left behind by the fix"
"$BIN" audit --format json "$WORK/fixme.json" > "$WORK/fixme.audit.json" 2>/dev/null || true
python3 - "$WORK/fixme.audit.json" "$TOTAL" <<'PY' || fail "the fixed file still has PRV002, or lost more than that finding"
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
rules = [i["rule"] for i in doc["issues"]]
assert "PRV002" not in rules, rules
assert len(rules) == int(sys.argv[2]) - 1, (len(rules), sys.argv[2])
PY
keys Escape Escape
sleep 0.3
AFTER=$(screen | sed -n 's/.* \([0-9][0-9]*\) findings · .*/\1/p' | head -1)
[ "$AFTER" = $((TOTAL - 1)) ] || fail "the dashboard counts $AFTER findings after the fix, not $((TOTAL - 1))"
keys q
check_restored "$WORK/stty.fix" "after q (fix)"
T kill-session -t "$SESSION" 2>/dev/null || true
ok "at 80x24 f showed PRV002's fix as a diff, y wrote it and re-audited: $TOTAL findings, then $AFTER"

# ── 6. SIGTERM restores the terminal too ───────────────────────────────────
start term 120 40 "$WORK/stty.term"
wait_for "[1 Findings]"
SHELL_PID=$(pane '#{pane_pid}')
APP_PID=$(pgrep -P "$SHELL_PID" | head -1)
[ -n "$APP_PID" ] || fail "could not find the dashboard's process"
kill -TERM "$APP_PID"
check_restored "$WORK/stty.term" "after SIGTERM"
ok "SIGTERM: dashboard exits and restores the terminal"

# ── 7. A terminal that disappears ends the dashboard ───────────────────────
# Killing the tmux server closes the pty under the dashboard. crossterm then
# reads end-of-file forever without returning (crossterm-rs/crossterm#793);
# the dashboard's watchdog must end the process instead of leaving it
# spinning on a core.
start gone 100 30 "$WORK/stty.gone"
wait_for "[1 Findings]"
SHELL_PID=$(pane '#{pane_pid}')
APP_PID=$(pgrep -P "$SHELL_PID" | head -1)
[ -n "$APP_PID" ] || fail "could not find the dashboard's process"
SESSION=""
T kill-server
for _ in $(seq 1 30); do
  kill -0 "$APP_PID" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$APP_PID" 2>/dev/null; then
  kill -9 "$APP_PID" 2>/dev/null || true
  fail "the dashboard kept running 3 s after its terminal went away"
fi
ok "a vanished terminal ends the dashboard (no orphan left spinning)"

echo "tui_e2e: all $CHECKS checks passed ($BIN)"
