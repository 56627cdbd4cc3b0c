//! Red team of issue 45: configurations a reviewer would reject whose risk
//! lives outside the audited text or in a corner of how its tool reads it
//! (context files, interpolation defaults, overrides, anchors and merge
//! keys, ConfigMaps, RBAC, RuntimeClass, NetworkPolicy defaults,
//! sandbox-runtime globs, Codex permission profiles, OCI masked paths).
//!
//! Each starts from a worked example of `fixtures/runner/` that is eligible
//! with its honest overlay (checked here too, so an attack is refused for
//! its own sake) and changes one thing. None may exit 0.

use std::path::Path;
use std::process::{Command, Stdio};

use isolint_acceptance::{bin, root};

struct Attack {
    name: &'static str,
    /// The worked example: a directory of `fixtures/runner/` and its input.
    base: (&'static str, &'static str),
    /// Text replaced in the input (each must occur).
    edits: &'static [(&'static str, &'static str)],
    /// Text appended to the input.
    append: &'static str,
    /// Files written beside the input.
    files: &'static [(&'static str, &'static str)],
    args: &'static [&'static str],
}

const A: Attack = Attack {
    name: "",
    base: ("compose", "compose.yaml"),
    edits: &[],
    append: "",
    files: &[],
    args: &[],
};

const COMPOSE: (&str, &str) = ("compose", "compose.yaml");
const K8S: (&str, &str) = ("kubernetes", "restricted.yaml");
const OCI: (&str, &str) = ("oci", "config.json");
const BWRAP: (&str, &str) = ("bwrap", "run-tests.sh");
const CODEX: (&str, &str) = ("codex", "config.toml");
const SRT: (&str, &str) = ("sandbox", "srt-settings.json");

const K8S_POLICY: &str = "  policyTypes:\n  - Egress\n";
const OCI_MASKED: &str = "\"/proc/kcore\", ";
const SRT_DENY: &str = "\"/home\",";

fn attacks() -> Vec<Attack> {
    vec![
        // ---------------------------------------------------------- Compose
        Attack { name: "compose: merge key pulls privileged from an anchor", edits: &[("    read_only: true\n", "    <<: *common\n    read_only: true\n")], append: "x-common: &common\n  privileged: true\n", ..A },
        Attack { name: "compose: .env turns a default capability into SYS_ADMIN", edits: &[("    cap_drop: [ALL]\n", "    cap_drop: [ALL]\n    cap_add: [\"${CAP:-CHOWN}\"]\n")], files: &[(".env", "CAP=SYS_ADMIN\n")], ..A },
        Attack { name: "compose: .env sets the safe value a shell could change", edits: &[("network_mode: none", "network_mode: ${NET:-host}")], files: &[(".env", "NET=none\n")], ..A },
        Attack { name: "compose: default of an unset variable is unconfined seccomp", edits: &[("security_opt: [no-new-privileges:true]", "security_opt: [no-new-privileges:true, \"seccomp=${SECCOMP:-unconfined}\"]")], ..A },
        Attack { name: "compose: override file adds the Docker socket", files: &[("compose.override.yml", "services:\n  lint:\n    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n")], ..A },
        Attack { name: "compose: env_file long syntax loads NODE_OPTIONS", edits: &[("    network_mode: none\n", "    network_mode: none\n    env_file:\n      - path: ./job.env\n        required: true\n")], files: &[("job.env", "NODE_OPTIONS=--require /tmp/x.js\n")], ..A },
        Attack { name: "compose: include with an override list adds privilege", append: "include:\n  - path: [side.yml, side-more.yml]\n", files: &[("side.yml", "services:\n  side:\n    image: y\n    network_mode: none\n"), ("side-more.yml", "services:\n  side:\n    privileged: true\n")], ..A },
        Attack { name: "compose: network_mode joins a peer on the host network", edits: &[("network_mode: none", "network_mode: service:peer")], append: "  peer:\n    image: y\n    network_mode: host\n", ..A },
        Attack { name: "compose: volumes_from a peer holding the Docker socket", edits: &[("    network_mode: none\n", "    network_mode: none\n    volumes_from: [peer]\n")], append: "  peer:\n    image: y\n    network_mode: none\n    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n", ..A },
        Attack { name: "compose: a secret file from the home directory", edits: &[("    network_mode: none\n", "    network_mode: none\n    secrets: [key]\n")], append: "secrets:\n  key:\n    file: ~/.ssh/id_ed25519\n", ..A },
        Attack { name: "compose: an anchored volume list hides the socket", edits: &[("    volumes:\n      - /srv/workshop/snapshots/parser:/workspace:ro\n", "    volumes: *vols\n")], append: "x-vols: &vols\n  - /srv/workshop/snapshots/parser:/workspace:ro\n  - /var/run/docker.sock:/var/run/docker.sock\n", ..A },
        Attack { name: "compose: include from a subdirectory reads its env_file there", append: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", "services:\n  side:\n    image: y\n    network_mode: none\n    env_file: ./side.env\n"), ("sub/side.env", "LD_PRELOAD=/tmp/x.so\n"), ("side.env", "TZ=UTC\n")], ..A },
        // ------------------------------------------------------- Kubernetes
        Attack { name: "k8s: envFrom a ConfigMap injecting LD_PRELOAD", base: K8S, edits: &[("    resources:\n", "    envFrom:\n    - configMapRef: {name: env}\n    resources:\n")], append: "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: env, namespace: ci}\ndata:\n  LD_PRELOAD: /tmp/x.so\n", ..A },
        Attack { name: "k8s: egress: [] with no policyTypes leaves egress open", base: K8S, edits: &[(K8S_POLICY, "  egress: []\n")], ..A },
        Attack { name: "k8s: the RuntimeClass named gvisor runs runc", base: K8S, edits: &[("handler: runsc", "handler: runc")], ..A },
        Attack { name: "k8s: a runtime class known only by its name", base: K8S, edits: &[("runtimeClassName: gvisor", "runtimeClassName: gvisor-compat")], ..A },
        Attack { name: "k8s: a ClusterRoleBinding grants the token admin", base: K8S, edits: &[("automountServiceAccountToken: false", "automountServiceAccountToken: true")], append: "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: ci-admin}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}\nsubjects:\n- {kind: ServiceAccount, name: default, namespace: ci}\n", ..A },
        Attack { name: "k8s: a writable PVC shared beyond the job", base: K8S, edits: &[("    resources:\n", "    volumeMounts:\n    - {name: data, mountPath: /data}\n    resources:\n"), ("  containers:\n", "  volumes:\n  - name: data\n    persistentVolumeClaim: {claimName: shared}\n  containers:\n")], ..A },
        Attack { name: "k8s: a gitRepo volume fetches at start", base: K8S, edits: &[("    resources:\n", "    volumeMounts:\n    - {name: src, mountPath: /src, readOnly: true}\n    resources:\n"), ("  containers:\n", "  volumes:\n  - name: src\n    gitRepo: {repository: \"https://example.com/x.git\"}\n  containers:\n")], ..A },
        Attack { name: "k8s: a CSI secrets-store volume is a credential", base: K8S, edits: &[("    resources:\n", "    volumeMounts:\n    - {name: s, mountPath: /s, readOnly: true}\n    resources:\n"), ("  containers:\n", "  volumes:\n  - name: s\n    csi: {driver: secrets-store.csi.k8s.io, readOnly: true, volumeAttributes: {secretProviderClass: aws}}\n  containers:\n")], ..A },
        Attack { name: "k8s: no seccompProfile runs Unconfined", base: K8S, edits: &[("    seccompProfile:\n      type: RuntimeDefault\n", "")], ..A },
        Attack { name: "k8s: a Secret in the stream gives an AWS key", base: K8S, edits: &[("    resources:\n", "    env:\n    - name: AWS_SECRET_ACCESS_KEY\n      valueFrom: {secretKeyRef: {name: aws, key: k}}\n    resources:\n")], append: "---\napiVersion: v1\nkind: Secret\nmetadata: {name: aws, namespace: ci}\nstringData:\n  k: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", ..A },
        Attack { name: "k8s: a projected token despite automount false", base: K8S, edits: &[("    resources:\n", "    volumeMounts:\n    - {name: tok, mountPath: /var/run/secrets/tokens, readOnly: true}\n    resources:\n"), ("  containers:\n", "  volumes:\n  - name: tok\n    projected:\n      sources:\n      - serviceAccountToken: {path: token}\n  containers:\n")], ..A },
        Attack { name: "k8s: a second policy allows all egress", base: K8S, append: "---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: open, namespace: ci}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n  - {}\n", ..A },
        Attack { name: "k8s: the deny policy is in another namespace", base: K8S, edits: &[("  name: default-deny-egress\n  namespace: ci\n", "  name: default-deny-egress\n  namespace: other\n")], ..A },
        Attack { name: "k8s: a privileged init container", base: K8S, edits: &[("  containers:\n", "  initContainers:\n  - name: init\n    image: busybox@sha256:fcb75f691c8b0414d670ae570240cbf95502cc18a9ba57e982ecac589760a186\n    securityContext: {privileged: true}\n  containers:\n")], ..A },
        // -------------------------------------------------------------- OCI
        Attack { name: "oci: maskedPaths leaves /proc/kcore exposed", base: OCI, edits: &[(OCI_MASKED, "")], ..A },
        Attack { name: "oci: readonlyPaths leaves /proc/sys writable", base: OCI, edits: &[(", \"/proc/sys\"", "")], ..A },
        Attack { name: "oci: a later device rule allows every device again", base: OCI, edits: &[("{ \"allow\": false, \"access\": \"rwm\" }", "{ \"allow\": false, \"access\": \"rwm\" }, { \"allow\": true, \"type\": \"a\", \"access\": \"rwm\" }")], ..A },
        Attack { name: "oci: the raw disk as a device node", base: OCI, edits: &[("{ \"allow\": false, \"access\": \"rwm\" }", "{ \"allow\": false, \"access\": \"rwm\" }, { \"allow\": true, \"type\": \"b\", \"major\": 8, \"minor\": 0, \"access\": \"rw\" }"), ("\"namespaces\": [", "\"devices\": [{ \"path\": \"/dev/sda\", \"type\": \"b\", \"major\": 8, \"minor\": 0 }],\n    \"namespaces\": [")], ..A },
        Attack { name: "oci: the network namespace joins the host's", base: OCI, edits: &[("{ \"type\": \"network\" }", "{ \"type\": \"network\", \"path\": \"/proc/1/ns/net\" }")], ..A },
        Attack { name: "oci: a prestart hook runs a host program", base: OCI, edits: &[("  \"root\":", "  \"hooks\": { \"createRuntime\": [{ \"path\": \"/usr/local/bin/setup-net\" }] },\n  \"root\":")], ..A },
        Attack { name: "oci: CAP_SYS_ADMIN effective", base: OCI, edits: &[("\"capabilities\": {}", "\"capabilities\": { \"bounding\": [\"CAP_SYS_ADMIN\"], \"effective\": [\"CAP_SYS_ADMIN\"], \"permitted\": [\"CAP_SYS_ADMIN\"] }")], ..A },
        // ------------------------------------------------------------ bwrap
        Attack { name: "bwrap: a bind from a variable", base: BWRAP, edits: &[("  --tmpfs /tmp \\\n", "  --tmpfs /tmp \\\n  --bind \"$HOME\" /home/u \\\n")], ..A },
        Attack { name: "bwrap: the Docker socket bound in", base: BWRAP, edits: &[("  --tmpfs /tmp \\\n", "  --tmpfs /tmp \\\n  --bind /var/run/docker.sock /var/run/docker.sock \\\n")], ..A },
        Attack { name: "bwrap: --share-net after --unshare-all", base: BWRAP, edits: &[("  --die-with-parent \\\n", "  --die-with-parent \\\n  --share-net \\\n")], ..A },
        Attack { name: "bwrap: LD_PRELOAD from the writable scratch", base: BWRAP, edits: &[("  --setenv LANG C.UTF-8 \\\n", "  --setenv LANG C.UTF-8 \\\n  --setenv LD_PRELOAD /scratch/x.so \\\n")], ..A },
        Attack { name: "bwrap: a -try bind of the user's keys", base: BWRAP, edits: &[("  --tmpfs /tmp \\\n", "  --tmpfs /tmp \\\n  --ro-bind-try /home/botie/.ssh /keys \\\n")], ..A },
        // ------------------------------------------------------------ Codex
        Attack { name: "codex: the profile enables the network the legacy key denies", base: CODEX, edits: &[("enabled = false", "enabled = true")], append: "\n[sandbox_workspace_write]\nnetwork_access = false\n", ..A },
        Attack { name: "codex: the shell environment is inherited", base: CODEX, edits: &[("inherit = \"none\"", "inherit = \"all\"")], ..A },
        Attack { name: "codex: the home directory is a trusted project", base: CODEX, append: "\n[projects.\"/home/botie\"]\ntrust_level = \"trusted\"\n", ..A },
        Attack { name: "codex: a selected profile turns the sandbox off", base: CODEX, edits: &[("approval_policy = \"never\"\n", "approval_policy = \"never\"\nprofile = \"fast\"\n")], append: "\n[profiles.fast]\nsandbox_mode = \"danger-full-access\"\n", ..A },
        Attack { name: "codex: the permissions profile reads the user's keys", base: CODEX, edits: &[("\":minimal\" = \"read\"\n", "\":minimal\" = \"read\"\n\"/home/botie/.ssh\" = \"read\"\n")], ..A },
        Attack { name: "codex: an MCP server runs outside the sandbox", base: CODEX, append: "\n[mcp_servers.tools]\ncommand = \"npx\"\nargs = [\"-y\", \"some-mcp-server\"]\n", ..A },
        // -------------------------------------------------- sandbox-runtime
        Attack { name: "srt: a denied glob cannot narrow the home directory", base: SRT, edits: &[(SRT_DENY, "\"/home/*\",")], ..A },
        Attack { name: "srt: allowRead re-allows the keys inside a denied home", base: SRT, edits: &[("\"allowRead\": []", "\"allowRead\": [\"/home/botie/.ssh\"]")], ..A },
        Attack { name: "srt: enableWeakerNestedSandbox", base: SRT, edits: &[("  \"network\": {", "  \"enableWeakerNestedSandbox\": true,\n  \"network\": {")], ..A },
        Attack { name: "srt: allowAllUnixSockets", base: SRT, edits: &[("\"deniedDomains\": []", "\"deniedDomains\": [], \"allowAllUnixSockets\": true")], ..A },
        Attack { name: "srt: an external proxy decides the domains", base: SRT, edits: &[("\"deniedDomains\": []", "\"deniedDomains\": [], \"httpProxyPort\": 3128")], ..A },
        Attack { name: "srt: the filesystem policy is disabled", base: SRT, edits: &[("\"denyWrite\": []", "\"denyWrite\": [], \"disabled\": true")], ..A },
        Attack { name: "srt: Apple Events launch unsandboxed programs", base: SRT, edits: &[("  \"network\": {", "  \"allowAppleEvents\": true,\n  \"network\": {")], ..A },
        Attack { name: "srt: a writable home through a glob", base: SRT, edits: &[("\"/srv/workshop/scratch/job-17\"", "\"/srv/workshop/scratch/job-17\", \"/home/*/.config\"")], ..A },
    ]
}

fn run(a: &Attack, bases: &Path) -> (i32, String) {
    let (sub, input) = a.base;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(&proj).unwrap();
    let mut text = std::fs::read_to_string(bases.join(sub).join(input)).unwrap();
    for (from, to) in a.edits {
        assert!(
            text.contains(from),
            "{}: `{from}` is not in {sub}/{input}",
            a.name
        );
        text = text.replacen(from, to, 1);
    }
    text.push_str(a.append);
    std::fs::write(proj.join(input), &text).unwrap();
    for (p, content) in a.files {
        let path = proj.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
    }
    let runner = bases.join(sub).join("runner.json");
    let out = Command::new(bin())
        .args(["audit", "--today", "2026-12-07", "--runner"])
        .arg(&runner)
        .args(a.args)
        .arg(input)
        .current_dir(&proj)
        .env("HOME", &home)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), all)
}

#[test]
fn no_red_team_configuration_exits_0() {
    let bases = root().join("fixtures/runner");
    // The untouched examples are eligible, so what blocks an attack is the
    // attack.
    let mut wrong = Vec::new();
    for base in [COMPOSE, K8S, OCI, BWRAP, CODEX, SRT] {
        let (code, out) = run(
            &Attack {
                name: "control",
                base,
                ..A
            },
            &bases,
        );
        if code != 0 {
            wrong.push(format!("control {}: exit {code}\n{out}", base.0));
        }
    }
    let attacks = attacks();
    for a in &attacks {
        let (code, _) = run(a, &bases);
        if code == 0 {
            wrong.push(format!("{}: exit 0", a.name));
        }
    }
    assert!(attacks.len() >= 30, "only {} configurations", attacks.len());
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        attacks.len() + 6,
        wrong.join("\n")
    );
}
