#!/usr/bin/env bash
# The steps of the isolint GitHub Action (action.yml at the repository root),
# kept in a script so they run, and are tested, without a GitHub runner:
#   action-run.sh install   build and install isolint unless $ISOLINT names one
#   action-run.sh audit     write the SARIF report, the job summary and the exit code
#   action-run.sh gate      exit with the code the audit recorded
# Inputs arrive as INPUT_* variables (never spliced into the script's text):
#   INPUT_PATHS (whitespace-separated files or directories, default "."),
#   INPUT_FAIL_ON, INPUT_BASELINE, INPUT_WAIVERS, INPUT_LABELS, INPUT_FROM,
#   INPUT_SARIF_FILE (default isolint.sarif).
# Fail closed: an unreadable input, a bad option, a missing report or any
# exit status but 0 and 1 makes the gate fail.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/isolint-action"
mkdir -p "$state"

fail() {
  echo "::error title=isolint action::$*" >&2
  echo 2 >"$state/exit-code"
  exit 2
}

bin() {
  if [ -n "${ISOLINT:-}" ]; then
    printf '%s\n' "$ISOLINT"
  elif [ -x "$state/root/bin/isolint" ]; then
    printf '%s\n' "$state/root/bin/isolint"
  else
    printf '%s\n' isolint
  fi
}

install() {
  if [ -n "${ISOLINT:-}" ]; then
    [ -x "$ISOLINT" ] || fail "ISOLINT=$ISOLINT is not an executable"
    echo "using $ISOLINT"
    return
  fi
  command -v cargo >/dev/null || fail "cargo is needed to build isolint (add a Rust toolchain step first)"
  cargo install --locked --path "$here/tui" --root "$state/root"
  if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$state/root/bin" >>"$GITHUB_PATH"
  fi
}

audit() {
  local isolint sarif code md_code
  isolint="$(bin)"
  sarif="${INPUT_SARIF_FILE:-isolint.sarif}"
  local -a paths=() opts=()
  read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
  [ "${#paths[@]}" -gt 0 ] || fail "no paths to audit"
  case "${INPUT_FAIL_ON:-}" in
    "" ) ;;
    critical|high|medium|low|info) opts+=(--fail-on "$INPUT_FAIL_ON") ;;
    *) fail "fail-on must be critical, high, medium, low or info, not '${INPUT_FAIL_ON}'" ;;
  esac
  [ -z "${INPUT_BASELINE:-}" ] || opts+=(--baseline "$INPUT_BASELINE")
  [ -z "${INPUT_WAIVERS:-}" ] || opts+=(--waivers "$INPUT_WAIVERS")
  [ -z "${INPUT_LABELS:-}" ] || opts+=(--labels "$INPUT_LABELS")
  [ -z "${INPUT_FROM:-}" ] || opts+=(--from "$INPUT_FROM")

  rm -f "$sarif" "$state/report.md"
  code=0
  "$isolint" audit --color never "${opts[@]}" --format sarif -o "$sarif" -- "${paths[@]}" || code=$?
  md_code=0
  "$isolint" audit --color never "${opts[@]}" --format markdown -o "$state/report.md" -- "${paths[@]}" \
    2>/dev/null || md_code=$?
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$state/report.md" ]; then
    cat "$state/report.md" >>"$GITHUB_STEP_SUMMARY"
  fi
  case "$code" in
    0|1) ;;
    *) fail "isolint audit exited $code (an input or usage error, see above)" ;;
  esac
  [ -s "$sarif" ] || fail "isolint wrote no SARIF report to $sarif"
  [ "$md_code" = "$code" ] || fail "the markdown run exited $md_code, the SARIF run $code"
  echo "$code" >"$state/exit-code"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    { echo "exit-code=$code"; echo "sarif-file=$sarif"; } >>"$GITHUB_OUTPUT"
  fi
}

gate() {
  [ -f "$state/exit-code" ] || fail "the audit step did not run or did not finish"
  local code
  code="$(cat "$state/exit-code")"
  case "$code" in
    0) echo "isolint: passed" ;;
    1) echo "::error title=isolint::findings block this change (see the job summary and code scanning)" >&2 ;;
    *) echo "::error title=isolint::the audit could not be completed" >&2; code=2 ;;
  esac
  exit "$code"
}

case "${1:-}" in
  install) install ;;
  audit) audit ;;
  gate) gate ;;
  *) echo "usage: $0 install|audit|gate" >&2; exit 2 ;;
esac
