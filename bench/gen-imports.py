#!/usr/bin/env python3
"""Write large inputs of every import format into DIR, each close to the
8 MiB input limit (or the size the issue reported), for bench/run.sh.
Deterministic; nothing here is committed as data.

Usage: bench/gen-imports.py DIR [SCALE]   (SCALE < 1 shrinks every input)
"""
import json, os, sys

out = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
LIMIT = 8 * 1024 * 1024
DIGEST = "busybox@sha256:" + "0" * 64
os.makedirs(out, exist_ok=True)


def fill(name, head, item, tail="", budget=LIMIT - 4096):
    """head + item(0) + item(1) + ... + tail, as many items as fit."""
    budget = int(budget * scale)
    parts, size, i = [head], len(head) + len(tail), 0
    while True:
        s = item(i)
        if size + len(s) > budget:
            break
        parts.append(s)
        size += len(s)
        i += 1
    parts.append(tail)
    with open(os.path.join(out, name), "w") as f:
        f.write("".join(parts))
    return i


def count(name, head, item, n, tail=""):
    n = max(1, int(n * scale))
    with open(os.path.join(out, name), "w") as f:
        f.write(head + "".join(item(i) for i in range(n)) + tail)
    return n


counts = {}
# Compose: as many services as 8 MiB holds.
counts["compose"] = fill(
    "compose.yaml",
    "services:\n",
    lambda i: f"  s{i}:\n    image: {DIGEST}\n    volumes: [\"./d{i}:/w{i}:ro\"]\n"
    f"    environment: [\"V{i}=1\"]\n    user: \"1000\"\n",
)
# One Pod with 20,000 containers.
counts["pod"] = count(
    "pod.yaml",
    "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers:\n",
    lambda i: f"  - name: c{i}\n    image: {DIGEST}\n",
    20000,
)
# One container with 100,000 environment entries.
counts["env"] = count(
    "env.yaml",
    f"apiVersion: v1\nkind: Pod\nmetadata: {{name: env}}\nspec:\n  containers:\n  - name: c\n    image: {DIGEST}\n    env:\n",
    lambda i: f"    - {{name: V{i}, value: \"v{i}\"}}\n",
    100000,
)
# A bwrap script of binds, the size the issue reported (7.7 MB).
counts["bwrap"] = fill(
    "bwrap.sh",
    "bwrap \\\n",
    lambda i: f"  --ro-bind /srv/d{i} /w/d{i} \\\n",
    "  --unshare-all -- make test\n",
    budget=7_700_000,
)
# bwrap options that take back what earlier ones gave (variables set and
# unset, namespaces unshared and shared again, capabilities added and
# dropped): each removal must cost what it removes, not a scan of all.
counts["bwrap-undo"] = fill(
    "bwrap-undo.sh",
    "bwrap \\\n",
    lambda i: f"  --setenv V{i} x --unsetenv W{i} --unshare-all --share-net "
    f"--cap-add CAP_A{i} --cap-drop CAP_B{i} \\\n",
    "  -- make test\n",
)
# OCI: mounts and environment.
mounts, env = [], []
budget, size, i = int((LIMIT - 4096) * scale), 200, 0
while size < budget:
    m = {"destination": f"/w/d{i}", "type": "bind", "source": f"/srv/d{i}", "options": ["rbind", "ro"]}
    e = f"V{i}=v{i}"
    size += len(json.dumps(m)) + len(json.dumps(e)) + 4
    mounts.append(m)
    env.append(e)
    i += 1
counts["oci"] = i
with open(os.path.join(out, "config.json"), "w") as f:
    json.dump(
        {
            "ociVersion": "1.0.2",
            "process": {"user": {"uid": 1000, "gid": 1000}, "args": ["make", "test"], "env": env},
            "root": {"path": "rootfs", "readonly": True},
            "mounts": mounts,
        },
        f,
    )
# Codex: a long writable_roots list and many environment entries.
counts["codex"] = fill(
    "config.toml",
    'sandbox_mode = "workspace-write"\n\n[shell_environment_policy]\ninherit = "none"\n\n'
    "[shell_environment_policy.set]\n",
    lambda i: f'V{i} = "v{i}"\n',
    '\n[sandbox_workspace_write]\nwritable_roots = ["/srv/out"]\n',
)
for k, v in counts.items():
    print(k, v)
