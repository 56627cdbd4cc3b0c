#!/usr/bin/env python3
"""Instruction counts of a callgrind profile by stage and by source file.

Usage: bench/cg-stages.py CALLGRIND_OUT [PROFILES]

Reads `callgrind_annotate` (inclusive and exclusive) of a profile taken
with line tables (`--config profile.release.debug="line-tables-only"`),
so code inlined into a caller is still charged to its own source file.
Prints two tables, instructions per profile when PROFILES is given:
  - stages: the inclusive count of the functions that start each stage
    (names of both 6f84cf6 and later, so two profiles compare);
  - files: the exclusive count summed by source file (core's modules, the
    standard library and each dependency by crate), largest first.
"""
import re, subprocess, sys
from collections import defaultdict

path = sys.argv[1]
per = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0

def annotate(inclusive):
    out = subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}",
         "--threshold=100", "--auto=no", path],
        capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*?):(.*?)(?: \[.*\])?$", line)
        if m:
            rows.append((int(m.group(1).replace(",", "")), m.group(2), m.group(3)))
    return rows

# Stage -> function names that begin it (regex on the demangled name).
STAGES = [
    ("total", r"^main$"),
    ("read inputs (CLI)", r"files::input::read_input$|files::input::read$"),
    ("parse (json::parse)", r"^isolint_core::json::parse$"),
    ("decode", r"^isolint_core::decode::profile$"),
    ("secrets: collect", r"^isolint_core::(redact|secrets)::Secrets::collect$"),
    ("sha256 of the bytes", r"^isolint_core::(report|digest)::sha256_hex$"),
    ("fingerprint", r"^isolint_core::report::fingerprint$"),
    ("mount views", r"^isolint_core::rules::MountView::new$"),
    ("rules", r"^isolint_core::rules::(run_scheduled|run_on)$"),
    ("plan", r"^isolint_core::plan::derive$"),
    ("clean: findings", r"^isolint_core::report::findings$"),
    ("clean: value digests", r"Secrets::value_digest$"),
    ("clean: checks", r"^isolint_core::report::clean_checks$"),
    ("clean: mount table + masked source", r"^isolint_core::report::tables$"),
    ("assemble", r"^isolint_core::report::assemble$"),
    ("audit (all)", r"^isolint_core::report::audit_parsed$"),
    ("JSON export (render)", r"^isolint_core::render::json::(element|written|write_report)$"),
    ("drop Report", r"^core::ptr::drop_in_place<isolint_core::report::Report>$"),
]

inc = annotate(True)
by_fn = defaultdict(int)
for n, f, fn in inc:
    by_fn[fn] = max(by_fn[fn], n)
print(f"{'stage':40} {'instructions':>14}")
for name, rx in STAGES:
    total = max((n for fn, n in by_fn.items() if re.search(rx, fn)), default=0)
    print(f"{name:40} {total / per:14,.0f}")

exc = annotate(False)
by_file = defaultdict(int)
for n, f, fn in exc:
    f = re.sub(r".*/library/([^/]+)/.*", r"std \1", f)
    f = re.sub(r".*/registry/src/[^/]+/([^/]+?)-[\d.]+[^/]*/.*", r"crate \1", f)
    f = re.sub(r".*/(core|tui)/(src|examples)/", r"\1/\2/", f)
    f = re.sub(r"^\./.*|.*/sysdeps/.*|\?\?\?", "libc/other", f)
    by_file[f] += n
print()
print(f"{'file (exclusive)':40} {'instructions':>14}")
for f, n in sorted(by_file.items(), key=lambda x: -x[1])[:45]:
    print(f"{f:40} {n / per:14,.0f}")


def callees(rx):
    """Direct callees (inclusive counts) of the largest function matching rx."""
    out = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", "--tree=calling", "--threshold=100",
         "--auto=no", path], capture_output=True, text=True, check=True).stdout
    blocks, cur = [], None
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([\s\d.]+%\)\s+([*>])\s+(.*?):(.*?)(?: \(\d[\d,]*x\))?(?: \[.*\])?$", line)
        if not m:
            cur = None
            continue
        n, kind, f, fn = int(m.group(1).replace(",", "")), m.group(2), m.group(3), m.group(4)
        if kind == "*":
            cur = (n, fn, [])
            blocks.append(cur)
        elif cur is not None:
            cur[2].append((n, f, fn))
    # A function inlining code of other files has a block per file: merged.
    found = [b for b in blocks if re.search(rx, b[1])]
    if not found:
        return None
    name = max(found, key=lambda b: b[0])[1]
    merged = defaultdict(int)
    files = {}
    for b in found:
        if b[1] == name:
            for n, f, fn in b[2]:
                merged[fn] += n
                files[fn] = f
    total = sum(b[0] for b in found if b[1] == name)
    return (total, name, [(n, files[fn], fn) for fn, n in merged.items()])


def module(f, fn):
    m = re.search(r"core/src/(rules/[a-z_]+)\.rs", f)
    if m:
        return m.group(1)
    m = re.search(r"isolint_core::rules::([a-z_]+)::", fn)
    return f"rules/{m.group(1)}" if m else f"other ({fn[:40]})"


for title, rx in [("rules by module (direct callees of the rule runner)",
                   r"^isolint_core::rules::(run_scheduled|run_on)$")]:
    b = callees(rx)
    if not b:
        continue
    agg = defaultdict(int)
    for n, f, fn in b[2]:
        agg[module(f, fn)] += n
    print()
    print(f"{title}: {b[0] / per:,.0f} in all")
    for k, n in sorted(agg.items(), key=lambda x: -x[1]):
        print(f"  {k:38} {n / per:14,.0f}")

if len(sys.argv) > 3:
    for rx in sys.argv[3:]:
        b = callees(rx)
        if not b:
            print(f"\nno function matches {rx}")
            continue
        print(f"\n{b[1][:80]}: {b[0] / per:,.0f}")
        for n, f, fn in sorted(b[2], key=lambda x: -x[0])[:25]:
            print(f"  {fn[:90]:90} {n / per:12,.0f}")
