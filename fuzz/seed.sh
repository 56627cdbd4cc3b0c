#!/usr/bin/env bash
# Builds each target's seed corpus from fixtures/ (not committed: generated).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/profile corpus/catalog corpus/pair corpus/waivers corpus/import corpus/verify_spec corpus/probe_plan
find ../fixtures -name '*.json' -not -path '*/expected/*' -size -64k | while read -r f; do
  h=$(sha1sum "$f" | cut -c1-16)
  cp "$f" "corpus/profile/$h"
  case "$f" in *labels*) cp "$f" "corpus/catalog/$h" ;; esac
  case "$f" in *waivers*) cp "$f" "corpus/waivers/$h" ;; esac
done
cp ../fixtures/labels/workshop.json corpus/catalog/workshop
for f in ../fixtures/profiles/*.json; do
  h=$(sha1sum "$f" | cut -c1-16)
  { cat "$f"; printf '\0'; cat ../fixtures/labels/workshop.json; } > "corpus/pair/$h"
done
# verify's spec builder reads profiles; the probe reads findings exports.
for f in ../fixtures/profiles/*.json; do
  cp "$f" "corpus/verify_spec/$(sha1sum "$f" | cut -c1-16)"
done
for f in ../fixtures/expected/*.json; do
  grep -q 'isolint.findings/v2' "$f" && cp "$f" "corpus/probe_plan/$(sha1sum "$f" | cut -c1-16)"
done
# Importer seeds: a leading byte 6 means "detect the format".
i=0
find ../fixtures/import -type f -size -64k | sort | while read -r f; do
  i=$((i + 1))
  { printf '\006'; cat "$f"; } > "corpus/import/seed$i"
done
[ -d regressions ] && for t in regressions/*/; do
  name=$(basename "$t"); [ -d "corpus/$name" ] && cp "$t"* "corpus/$name/" 2>/dev/null || true
done
exit 0
