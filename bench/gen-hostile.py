#!/usr/bin/env python3
"""Write hostile inputs just under 1 MiB into DIR, one file per case, for
bench/hostile.sh: for every import format and the native profile, many
profiles, many mounts, long values, deep nesting, many findings and
secret values nested inside each other. Each case is built to make one
stage do as much work per input byte as it can. Deterministic; nothing
here is committed as data.

Usage: bench/gen-hostile.py DIR [SCALE]   (SCALE < 1 shrinks every input)
Prints one line per case: `name file items`.
"""
import json, os, sys

out = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
# Just under 1 MiB: the goal is stated for inputs under 1 MiB.
BUDGET = int((1024 * 1024 - 2048) * scale)
# The "max" cases: as many profiles as an audit takes from one file
# (1,000; fewer at a smaller scale), each as large and as risky as its
# share of the budget allows.
MAXN = max(1, int(1000 * scale))
PER = BUDGET // MAXN - 40
DIGEST = "busybox@sha256:" + "0" * 64
os.makedirs(out, exist_ok=True)
cases = []


def write(case, name, text, items):
    path = os.path.join(out, case, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    cases.append((case, os.path.join(case, name), items))


def fill(case, name, head, item, tail=""):
    """head + item(0) + item(1) + ... + tail, as many items as fit."""
    parts, size, i = [head], len(head) + len(tail), 0
    while True:
        s = item(i)
        if size + len(s) > BUDGET:
            break
        parts.append(s)
        size += len(s)
        i += 1
    parts.append(tail)
    write(case, name, "".join(parts), i)


def nested_secrets(budget):
    """Values each holding the one before it, alternately as a prefix and
    as a suffix: every pair overlaps, and every value is a secret."""
    vals, v, size = [], "hunter2Secret", 0
    while size + len(v) + 40 < budget:
        vals.append(v)
        size += len(v) + 40
        v = (v + "Q7") if len(vals) % 2 else ("zX" + v)
    return vals


def long_value(budget):
    return "/srv/" + "a" * (budget - 200)


# ── Codex config.toml ─────────────────────────────────────────────────
fill("codex-profiles", "config.toml", 'sandbox_mode = "workspace-write"\n',
     lambda i: f"[profiles.p{i}]\n")
fill("codex-risky-profiles", "config.toml", 'sandbox_mode = "workspace-write"\n',
     lambda i: f'[profiles.p{i}]\nsandbox_mode = "danger-full-access"\n')
write("codex-max-profiles", "config.toml", 'sandbox_mode = "workspace-write"\n' + "".join(
    f'[profiles.p{i}]\nsandbox_mode = "danger-full-access"\n'
    f'[profiles.p{i}.sandbox_workspace_write]\nwritable_roots = ['
    + ", ".join(f'"/home/u{j}/.aws"' for j in range(max(1, (PER - 120) // 18))) + "]\n"
    for i in range(MAXN - 1)), MAXN - 1)
fill("codex-roots", "config.toml",
     'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = [\n',
     lambda i: f'"/home/u{i}/.aws",\n', "]\n")
fill("codex-env", "config.toml",
     'sandbox_mode = "workspace-write"\n[shell_environment_policy]\ninherit = "none"\n'
     "[shell_environment_policy.set]\n",
     lambda i: f'API_TOKEN_{i} = "ghp_{i:036d}"\n')
write("codex-long", "config.toml",
      'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["'
      + long_value(BUDGET) + '"]\n', 1)
depth = BUDGET // 8
write("codex-deep", "config.toml",
      'sandbox_mode = "workspace-write"\nx = ' + "[" * depth + "]" * depth + "\n", depth)
vals = nested_secrets(BUDGET)
write("codex-nested-secrets", "config.toml",
      'sandbox_mode = "workspace-write"\n[shell_environment_policy]\ninherit = "none"\n'
      "[shell_environment_policy.set]\n"
      + "".join(f'PASSWORD_{i} = "{v}"\n' for i, v in enumerate(vals)), len(vals))

# ── Docker Compose ────────────────────────────────────────────────────
fill("compose-services", "compose.yaml", "services:\n", lambda i: f"  s{i}: {{image: x}}\n")
fill("compose-risky-services", "compose.yaml", "services:\n",
     lambda i: f"  s{i}: {{image: x, privileged: true, volumes: ['/:/h{i}']}}\n")
# A secret in every service: the file's secrets grow with its profiles.
fill("compose-secret-services", "compose.yaml", "services:\n",
     lambda i: f"  s{i}: {{image: x, environment: {{API_TOKEN: ghp_{i:036d}}}}}\n")
write("compose-max-services", "compose.yaml", "services:\n" + "".join(
    f"  s{i}:\n    image: x\n    privileged: true\n    volumes:\n"
    + "".join(f"      - /home/u{j}/.ssh:/w{j}\n" for j in range(max(1, (PER - 60) // 30)))
    for i in range(MAXN)), MAXN)
fill("compose-volumes", "compose.yaml",
     f"services:\n  s:\n    image: {DIGEST}\n    volumes:\n",
     lambda i: f"      - /home/u{i}/.ssh:/w{i}\n")
fill("compose-env", "compose.yaml",
     f"services:\n  s:\n    image: {DIGEST}\n    environment:\n",
     lambda i: f"      API_TOKEN_{i}: ghp_{i:036d}\n")
write("compose-long", "compose.yaml",
      f"services:\n  s:\n    image: {DIGEST}\n    command: [\"sh\", \"-c\", \"{'a' * (BUDGET - 200)}\"]\n", 1)
depth = BUDGET // 4
write("compose-deep", "compose.yaml",
      f"services:\n  s:\n    image: x\nx-deep: " + "[" * depth + "]" * depth + "\n", depth)
# Aliases: each level refers to the one before twice.
lines = ["x-a0: &a0 [" + ",".join(["v"] * 8) + "]\n"]
for i in range(1, 40):
    lines.append(f"x-a{i}: &a{i} [*a{i-1}, *a{i-1}]\n")
write("compose-aliases", "compose.yaml",
      "services:\n  s:\n    image: x\n    labels: *a39\n" + "".join(lines), 40)
vals = nested_secrets(BUDGET)
write("compose-nested-secrets", "compose.yaml",
      f"services:\n  s:\n    image: {DIGEST}\n    environment:\n"
      + "".join(f"      PASSWORD_{i}: {v}\n" for i, v in enumerate(vals)), len(vals))

# ── Kubernetes ────────────────────────────────────────────────────────
fill("k8s-documents", "pods.yaml", "",
     lambda i: f"---\nkind: Pod\napiVersion: v1\nmetadata: {{name: p{i}}}\nspec: {{containers: [{{name: c, image: x}}]}}\n")
fill("k8s-secret-documents", "pods.yaml", "",
     lambda i: f"---\nkind: Pod\napiVersion: v1\nmetadata: {{name: p{i}}}\nspec: {{containers: [{{name: c, image: x, env: [{{name: API_TOKEN, value: ghp_{i:036d}}}]}}]}}\n")
write("k8s-max-documents", "pods.yaml", "".join(
    f"---\nkind: Pod\napiVersion: v1\nmetadata: {{name: p{i}}}\nspec:\n  containers:\n"
    f"  - name: c\n    image: x\n    securityContext: {{privileged: true}}\n    env:\n"
    + "".join(f"    - {{name: API_TOKEN_{j}, value: ghp_{i:018d}{j:018d}}}\n" for j in range(max(1, (PER - 150) // 75)))
    for i in range(MAXN)), MAXN)
fill("k8s-containers", "pod.yaml",
     "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers:\n",
     lambda i: f"  - {{name: c{i}, image: x, securityContext: {{privileged: true}}}}\n")
# Each mount with its hostPath volume.
n = BUDGET // 110
write("k8s-mounts", "pod.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers:\n"
      "  - name: c\n    image: x\n    volumeMounts:\n"
      + "".join(f"    - {{name: v{i}, mountPath: /w{i}}}\n" for i in range(n))
      + "  volumes:\n"
      + "".join(f"  - {{name: v{i}, hostPath: {{path: /home/u{i}}}}}\n" for i in range(n)), n)
fill("k8s-env", "pod.yaml",
     "apiVersion: v1\nkind: Pod\nmetadata: {name: env}\nspec:\n  containers:\n"
     "  - name: c\n    image: x\n    env:\n",
     lambda i: f"    - {{name: API_TOKEN_{i}, value: ghp_{i:036d}}}\n")
depth = BUDGET // 4
write("k8s-deep", "pod.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: d, annotations: {a: b}}\nspec:\n  containers: [{name: c, image: x}]\n"
      "  x: " + "[" * depth + "]" * depth + "\n", depth)
vals = nested_secrets(BUDGET)
write("k8s-nested-secrets", "pod.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata: {name: env}\nspec:\n  containers:\n"
      "  - name: c\n    image: x\n    env:\n"
      + "".join(f"    - {{name: PASSWORD_{i}, value: {v}}}\n" for i, v in enumerate(vals)), len(vals))

# ── OCI config.json ───────────────────────────────────────────────────
OCI_HEAD = '{"ociVersion": "1.0.2", "process": {"user": {"uid": 0, "gid": 0}, "args": ["sh"]}, "root": {"path": "rootfs"}, "mounts": ['
fill("oci-mounts", "config.json", OCI_HEAD,
     lambda i: (", " if i else "") + f'{{"destination": "/w{i}", "type": "bind", "source": "/home/u{i}/.aws", "options": ["rbind", "rw"]}}',
     "]}\n")
fill("oci-env", "config.json",
     '{"ociVersion": "1.0.2", "root": {"path": "rootfs"}, "process": {"args": ["sh"], "env": [',
     lambda i: (", " if i else "") + f'"API_TOKEN_{i}=ghp_{i:036d}"', "]}}\n")
write("oci-long", "config.json",
      '{"ociVersion": "1.0.2", "root": {"path": "rootfs"}, "process": {"args": ["sh", "-c", "'
      + "a" * (BUDGET - 200) + '"]}}\n', 1)
depth = BUDGET // 4
write("oci-deep", "config.json",
      '{"ociVersion": "1.0.2", "root": {"path": "rootfs"}, "process": {"args": ["sh"]}, "x": '
      + "[" * depth + "]" * depth + "}\n", depth)
vals = nested_secrets(BUDGET)
write("oci-nested-secrets", "config.json",
      '{"ociVersion": "1.0.2", "root": {"path": "rootfs"}, "process": {"args": ["sh"], "env": ['
      + ", ".join(f'"PASSWORD_{i}={v}"' for i, v in enumerate(vals)) + "]}}\n", len(vals))

# ── sandbox-runtime / Claude Code settings ────────────────────────────
fill("sandbox-write", "settings.json", '{"filesystem": {"allowWrite": [',
     lambda i: (", " if i else "") + f'"/home/u{i}/.ssh"', "]}}\n")
fill("sandbox-domains", "settings.json", '{"network": {"allowedDomains": [',
     lambda i: (", " if i else "") + f'"h{i}.example.com"', "]}}\n")
fill("sandbox-excluded", "settings.json",
     '{"sandbox": {"enabled": true, "excludedCommands": [',
     lambda i: (", " if i else "") + f'"docker run -v /:/h{i} *"', "]}}\n")
vals = nested_secrets(BUDGET)
write("sandbox-nested-secrets", "settings.json",
      '{"sandbox": {"enabled": true}, "env": {'
      + ", ".join(f'"PASSWORD_{i}": "{v}"' for i, v in enumerate(vals)) + "}}\n", len(vals))

# ── bwrap ─────────────────────────────────────────────────────────────
fill("bwrap-binds", "run.sh", "bwrap \\\n",
     lambda i: f"  --bind /home/u{i}/.aws /w{i} \\\n", "  -- make test\n")
fill("bwrap-setenv", "run.sh", "bwrap \\\n",
     lambda i: f"  --setenv API_TOKEN_{i} ghp_{i:036d} \\\n", "  -- make test\n")
write("bwrap-long", "run.sh",
      "bwrap --bind / / -- sh -c '" + "a" * (BUDGET - 200) + "'\n", 1)
vals = nested_secrets(BUDGET)
write("bwrap-nested-secrets", "run.sh",
      "bwrap --dev-bind / / \\\n"
      + "".join(f"  --setenv PASSWORD_{i} {v} \\\n" for i, v in enumerate(vals))
      + "  -- make test\n", len(vals))

# ── isolint profile JSON ──────────────────────────────────────────────
with open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "profiles", "workshop.json")) as f:
    base = json.load(f)


def profile(case, key, make):
    """The workshop profile with `make(i)` items under `key` (a list or a
    map) until the document is just under the budget."""
    p = json.loads(json.dumps(base))
    size = len(json.dumps(p)) + 64
    items = [] if key != "variables" else {}
    i = 0
    while True:
        k, v = make(i)
        add = len(json.dumps(v)) + (len(json.dumps(k)) + 2 if k else 0) + 2
        if size + add > BUDGET:
            break
        size += add
        if k is None:
            items.append(v)
        else:
            items[k] = v
        i += 1
    if key == "mounts":
        p["mounts"] = items
    elif key == "variables":
        p["environment"]["variables"] = items
    elif key == "allow":
        p["network"]["allow"] = items
    write(case, "profile.json", json.dumps(p), i)


profile("profile-mounts", "mounts",
        lambda i: (None, {"source": f"/home/u{i}/.aws", "target": f"/w{i}", "access": "read-write"}))
profile("profile-env", "variables", lambda i: (f"API_TOKEN_{i}", f"ghp_{i:036d}"))
profile("profile-allow", "allow", lambda i: (None, f"h{i}.internal"))
p = json.loads(json.dumps(base))
p["command"] = {"shell": "pip install " + "a" * (BUDGET - 4096)}
write("profile-long", "profile.json", json.dumps(p, indent=1), 1)
depth = BUDGET // 4
write("profile-deep", "profile.json",
      json.dumps(base)[:-1] + ', "x": ' + "[" * depth + "]" * depth + "}\n", depth)
p = json.loads(json.dumps(base))
vals = nested_secrets(BUDGET - 4096)
p["environment"]["variables"] = {f"PASSWORD_{i}": v for i, v in enumerate(vals)}
write("profile-nested-secrets", "profile.json", json.dumps(p, indent=1), len(vals))

# One profile more than an audit takes from one file, at any scale: the
# audit formats must refuse these (exit 2), `isolint import` writes them.
write("codex-over-cap", "config.toml", 'sandbox_mode = "read-only"\n'
      + "".join(f"[profiles.p{i}]\n" for i in range(1000)), 1001)
write("compose-over-cap", "compose.yaml", "services:\n"
      + "".join(f"  s{i}: {{image: x}}\n" for i in range(1001)), 1001)

for c in cases:
    print(*c)
