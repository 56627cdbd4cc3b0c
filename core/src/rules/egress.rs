//! Network rules for egress that a proxy setting or a trust setting can
//! get around (issue 23, items 1 and 5).
//!
//! A proxy is an application-layer control: only the programs that read
//! the proxy variables use it, and only for the protocols it filters.
//! Trust settings decide which server counts as the allowed one: with
//! verification off, or with a certificate store the job itself can write,
//! anything that answers on the path is accepted as the allowed
//! destination. The task being "only tests" does not change this: the
//! code under test opens its own connections.

use super::netaddr::in_zone;
use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::json::escape_token;
use crate::model::{Egress, NetworkEnforcement};

fn variables<'a>(ctx: &'a Ctx<'_>) -> &'a [(String, String)] {
    ctx.profile
        .environment
        .as_ref()
        .and_then(|env| env.variables.as_deref())
        .unwrap_or(&[])
}

fn var_pointer(name: &str) -> String {
    format!("/environment/variables/{}", escape_token(name))
}

// ------------------------------------------------------------------ proxy

pub(crate) const NET020: Rule = Rule {
    id: "NET020",
    name: "egress-enforced-by-proxy",
    area: Area::Network,
    severity: Severity::High,
    title: "the egress allow-list is enforced only by a proxy",
    rationale: "A proxy filters the requests that programs choose to send through it. Code under test can ignore `HTTP_PROXY`, open a raw socket, or use a protocol the proxy does not inspect, and then reaches whatever the network allows. The lesson separates an application-layer check from an enforced egress policy; a proxy is the former.",
    remediation: "Keep the proxy, and enforce the same allow-list at the network layer (`network-policy` or `firewall`), so a direct connection is refused.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_proxy_only,
};

fn check_proxy_only(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = ctx.profile.network.as_ref() else {
        return;
    };
    if net.enforced_by != Some(NetworkEnforcement::Proxy) {
        return;
    }
    let egress = net
        .egress
        .map(crate::model::StringEnum::as_str)
        .unwrap_or("not declared");
    e.emit(
        "/network/enforced_by",
        format!("egress `{egress}` is enforced only by a proxy; a process that ignores the proxy variables, or speaks a protocol the proxy does not filter, connects directly unless the network layer blocks it"),
    )
    .evidence("egress", egress);
}

/// The host of a proxy URL (`http://user:pw@host:3128/` gives `host`),
/// lowercase, without brackets; `None` when there is none.
pub(super) fn proxy_host(value: &str) -> Option<String> {
    let v = value.trim();
    let rest = v.split_once("://").map_or(v, |(_, r)| r);
    let rest = rest.split(['/', '?', '#']).next().unwrap_or("");
    // Credentials before the last `@` are never shown.
    let hostport = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    let host = if let Some(inner) = hostport.strip_prefix('[') {
        inner.split(']').next().unwrap_or("")
    } else {
        hostport.split(':').next().unwrap_or("")
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

fn is_proxy_var(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "http_proxy"
            | "https_proxy"
            | "all_proxy"
            | "ftp_proxy"
            | "grpc_proxy"
            | "npm_config_proxy"
            | "npm_config_https_proxy"
    )
}

fn is_no_proxy_var(name: &str) -> bool {
    name.eq_ignore_ascii_case("no_proxy")
}

/// Whether a `NO_PROXY` value exempts every destination.
pub(super) fn exempts_everything(value: &str) -> bool {
    value
        .split([',', ' '])
        .map(str::trim)
        .any(|p| matches!(p, "*" | "0.0.0.0/0" | "::/0" | "*.*"))
}

pub(crate) const NET021: Rule = Rule {
    id: "NET021",
    name: "proxy-variable-bypass",
    area: Area::Network,
    severity: Severity::High,
    title: "a proxy variable points outside the allow-list or exempts everything",
    rationale: "Proxy variables route every HTTP client in the job. A proxy that is not one of the reviewed destinations forwards to any host it likes, and `NO_PROXY=*` tells clients to skip a filtering proxy altogether. Either way the reviewed list no longer describes where the traffic goes.",
    remediation: "Point proxy variables at the declared egress proxy, list it in `network.allow`, and keep `NO_PROXY` to exact internal names.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_proxy_variables,
};

fn check_proxy_variables(ctx: &Ctx<'_>, e: &mut Emitter) {
    let net = ctx.profile.network.as_ref();
    let egress = net.and_then(|n| n.egress);
    let allowed: Vec<String> = net
        .and_then(|n| n.allow.as_deref())
        .unwrap_or(&[])
        .iter()
        .filter_map(|a| a.host.as_deref())
        .map(|h| h.trim_end_matches('.').to_ascii_lowercase())
        .collect();
    for (name, value) in variables(ctx) {
        if is_no_proxy_var(name) && exempts_everything(value) {
            e.emit(
                var_pointer(name),
                format!("`{name}` exempts every destination from the proxy, so a proxy-filtered allow-list filters nothing"),
            )
            .evidence("variable", name.as_str());
            continue;
        }
        if !is_proxy_var(name) || egress == Some(Egress::AllowAll) {
            continue;
        }
        match proxy_host(value) {
            Some(host) if allowed.contains(&host) => {}
            Some(host) => {
                e.emit(
                    var_pointer(name),
                    format!("`{name}` sends the job's traffic through `{host}`, which is not in `network.allow`: a proxy outside the reviewed list forwards to any destination"),
                )
                .evidence("variable", name.as_str())
                .evidence("host", host);
            }
            None if value.trim().is_empty() => {}
            None => {
                e.emit(
                    var_pointer(name),
                    format!("`{name}` names a proxy whose host cannot be read, so it cannot be compared with `network.allow`"),
                )
                .evidence("variable", name.as_str());
            }
        }
    }
}

// ------------------------------------------------------------------ trust

/// Variables that switch certificate verification off, and whether a
/// value does so.
fn disables_verification(name: &str, value: &str) -> bool {
    let v = value.trim().to_ascii_lowercase();
    let falsy = matches!(v.as_str(), "0" | "false" | "no" | "off");
    match name {
        "NODE_TLS_REJECT_UNAUTHORIZED" | "PYTHONHTTPSVERIFY" => falsy,
        // git reads it as a boolean; set to anything true it skips checks.
        "GIT_SSL_NO_VERIFY" => !v.is_empty() && !falsy,
        "CURL_INSECURE" | "PIP_TRUSTED_HOST" | "UV_INSECURE_HOST" => !v.is_empty(),
        _ => name.eq_ignore_ascii_case("npm_config_strict_ssl") && falsy,
    }
}

/// Variables that choose the certificates a client trusts.
const TRUST_STORES: &[&str] = &[
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "GIT_SSL_CAINFO",
    "GIT_SSL_CAPATH",
    "PIP_CERT",
    "AWS_CA_BUNDLE",
];

/// Directories a job can write in nearly every runner, mounted or not.
const ALWAYS_WRITABLE: &[&str] = &["/tmp", "/var/tmp", "/dev/shm", "/run/user"];

fn under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    dir.is_empty() || path == dir || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// Where in the job's writable space `value` lies: the writable mount
/// target or well-known directory holding it. A relative path or one
/// with `..` is resolved against a working directory nobody declared, so
/// it counts as writable.
fn writable_place(ctx: &Ctx<'_>, value: &str) -> Option<String> {
    let p = crate::labels::normalize(value.trim());
    if p.relative || p.had_parent_refs {
        return Some("a path resolved at run time".to_string());
    }
    let path = format!("/{}", p.path.trim_start_matches('/'));
    for m in ctx.mounts.iter().filter(|m| m.writable()) {
        if let Some(t) = &m.target {
            if !t.relative && under(&path, &format!("/{}", t.path.trim_start_matches('/'))) {
                return Some(format!(
                    "the writable mount `{}`",
                    m.mount.target.as_deref().unwrap_or("")
                ));
            }
        }
    }
    ALWAYS_WRITABLE
        .iter()
        .find(|d| under(&path, d))
        .map(|d| format!("`{d}`, which the job can write"))
}

pub(crate) const NET022: Rule = Rule {
    id: "NET022",
    name: "tls-trust-weakened",
    area: Area::Network,
    severity: Severity::High,
    title: "certificate verification is off or trusts a store the job can write",
    rationale: "An allow-list names destinations, and certificates are how a client knows it reached one. With verification off (`NODE_TLS_REJECT_UNAUTHORIZED=0`, `GIT_SSL_NO_VERIFY`, `PYTHONHTTPSVERIFY=0`), or with `SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE` or `NODE_EXTRA_CA_CERTS` pointing into writable space, anything that can answer on the route is accepted as the allowed service.",
    remediation: "Remove the variable; if a private authority is needed, mount its certificate read-only from outside the job's writable space.",
    runtime_check: Some(CheckKind::EnvExact),
    check: check_trust,
};

fn check_trust(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (name, value) in variables(ctx) {
        if disables_verification(name, value) {
            e.emit(
                var_pointer(name),
                format!("`{name}` switches certificate verification off, so anything on the path can answer for an allowed destination"),
            )
            .evidence("variable", name.as_str())
            .evidence("problem", "verification-off");
        } else if TRUST_STORES.contains(&name.as_str()) && !value.trim().is_empty() {
            if let Some(place) = writable_place(ctx, value) {
                e.emit(
                    var_pointer(name),
                    format!("`{name}` makes clients trust certificates from {place}: the job can add its own authority and pose as any allowed destination"),
                )
                .evidence("variable", name.as_str())
                .evidence("problem", "writable-trust-store");
            }
        }
    }
}

// ---------------------------------------------------- allow-list entries

/// The allow entries of the profile with their pointers, host lowercase
/// and without a leading `*.` or a trailing dot.
fn allowed_hosts(ctx: &Ctx<'_>) -> Vec<(String, String, Option<u64>)> {
    let Some(net) = ctx.profile.network.as_ref() else {
        return Vec::new();
    };
    if net.egress == Some(Egress::Deny) {
        return Vec::new();
    }
    net.allow
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            // What the entry denotes: a URL, user info or a port written
            // into `host` (NET010) must not hide the host from these rules.
            let h = super::netaddr::parse(a.host.as_deref()?).display();
            let h = h
                .strip_prefix("*.")
                .unwrap_or(&h)
                .trim_start_matches('.')
                .to_string();
            Some((format!("/network/allow/{i}"), h, a.port))
        })
        .collect()
}

/// Services where anyone can publish content or receive uploads, with
/// what they carry; matched as the name or any name under it.
const SHARED_HOSTING: &[(&str, &str)] = &[
    (
        "github.com",
        "repositories, gists and release files anyone can publish",
    ),
    (
        "githubusercontent.com",
        "raw files from any repository or gist",
    ),
    ("gitlab.com", "repositories and snippets anyone can publish"),
    ("bitbucket.org", "repositories anyone can publish"),
    ("s3.amazonaws.com", "buckets anyone can create"),
    ("amazonaws.com", "buckets and endpoints anyone can create"),
    ("storage.googleapis.com", "buckets anyone can create"),
    (
        "blob.core.windows.net",
        "storage accounts anyone can create",
    ),
    ("pastebin.com", "pastes anyone can write and read"),
    ("paste.ee", "pastes anyone can write and read"),
    ("hastebin.com", "pastes anyone can write and read"),
    ("dpaste.org", "pastes anyone can write and read"),
    ("transfer.sh", "file uploads"),
    ("file.io", "file uploads"),
    ("webhook.site", "requests anyone can read"),
    ("ngrok.io", "tunnels to machines anyone runs"),
    ("ngrok-free.app", "tunnels to machines anyone runs"),
    ("trycloudflare.com", "tunnels to machines anyone runs"),
    ("discord.com", "webhooks that accept posts"),
    ("pypi.org", "packages anyone can upload"),
    ("pythonhosted.org", "packages anyone can upload"),
    ("npmjs.org", "packages anyone can publish"),
    ("npmjs.com", "packages anyone can publish"),
    ("crates.io", "crates anyone can publish"),
    ("rubygems.org", "gems anyone can publish"),
    ("docker.io", "images anyone can push"),
];

pub(crate) const NET023: Rule = Rule {
    id: "NET023",
    name: "shared-hosting-allowed",
    area: Area::Network,
    severity: Severity::Medium,
    title: "an allow entry reaches a service anyone can publish to",
    rationale: "An allow-list limits who the job talks to, not what those services hold. Code hosts, buckets, pastebins, tunnels and package indexes carry content that anyone wrote and accept content the job sends, so an allowed entry is both a payload source and an exfiltration channel. For untrusted tenancy this is high.",
    remediation: "Fetch what the job needs in a separate fetch stage or bake it into the image; if the service must stay, allow only the exact path through a filtering proxy enforced at the network layer.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_shared_hosting,
};

fn check_shared_hosting(ctx: &Ctx<'_>, e: &mut Emitter) {
    let untrusted = ctx.profile.tenancy == Some(crate::model::Tenancy::Untrusted);
    for (pointer, host, _) in allowed_hosts(ctx) {
        let Some((zone, what)) = SHARED_HOSTING.iter().find(|(z, _)| in_zone(&host, z)) else {
            continue;
        };
        let d = e.emit(
            format!("{pointer}/host"),
            format!("`{host}` serves {what}: code under test can fetch a payload from it or post data to it, even though the entry is reviewed"),
        );
        d.evidence("host", host.as_str()).evidence("zone", *zone);
        if untrusted {
            d.severity(Severity::High);
        }
    }
}

/// Names of the Kubernetes API server inside a cluster.
fn is_api_server(host: &str) -> bool {
    matches!(
        host,
        "kubernetes"
            | "kubernetes.default"
            | "kubernetes.default.svc"
            | "kubernetes.default.svc.cluster.local"
    )
}

pub(crate) const NET024: Rule = Rule {
    id: "NET024",
    name: "in-cluster-destination",
    area: Area::Network,
    severity: Severity::High,
    title: "an allow entry reaches the cluster's control plane or a metadata address by another name",
    rationale: "The Kubernetes API server (`kubernetes.default.svc`) and the kubelet (ports 10250, 10255) hand out pods, secrets and command execution to whoever holds a token; wildcard DNS names such as `169.254.169.254.nip.io` reach the metadata endpoint while passing an address check on the name.",
    remediation: "Remove the entry; a test job needs neither the control plane nor a name whose address its writer chooses.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_in_cluster,
};

fn check_in_cluster(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (pointer, host, port) in allowed_hosts(ctx) {
        if is_api_server(&host) {
            e.emit(
                format!("{pointer}/host"),
                format!("`{host}` is the Kubernetes API server: with the pod's service account token the job can read secrets or start pods"),
            )
            .evidence("host", host.as_str())
            .evidence("problem", "api-server");
        } else if let Some((z, answer)) = super::netaddr::address_in_name(&host) {
            let how = match answer {
                super::netaddr::Answer::InName => "which resolves a name to the address written in it, metadata and private addresses included",
                super::netaddr::Answer::Loopback => "which resolves every name to loopback, where local services trust their callers",
            };
            e.emit(
                format!("{pointer}/host"),
                format!("`{host}` is under `{z}`, {how}"),
            )
            .evidence("host", host.as_str())
            .evidence("problem", "address-in-name");
        }
        if let Some(p @ (10250 | 10255)) = port {
            e.emit(
                format!("{pointer}/port"),
                format!("port {p} is the kubelet's API, which lists pods and, on 10250, runs commands in them"),
            )
            .evidence("port", p)
            .evidence("problem", "kubelet");
        }
    }
}

pub const RULES: &[&Rule] = &[&NET020, &NET021, &NET022, &NET023, &NET024];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_hosts() {
        let table: &[(&str, Option<&str>)] = &[
            ("http://proxy.internal:3128", Some("proxy.internal")),
            (
                "http://user:pw@Proxy.Internal:3128/",
                Some("proxy.internal"),
            ),
            ("proxy.internal:8080", Some("proxy.internal")),
            ("socks5h://10.0.0.5:1080", Some("10.0.0.5")),
            ("http://[fd00::1]:3128", Some("fd00::1")),
            ("https://a@b@evil.example:443", Some("evil.example")),
            ("http://proxy.internal.:3128", Some("proxy.internal")),
            ("", None),
            ("http://", None),
        ];
        for (v, want) in table {
            assert_eq!(proxy_host(v).as_deref(), *want, "{v}");
        }
    }

    #[test]
    fn no_proxy_everything() {
        for v in ["*", "localhost,*", " * ", "0.0.0.0/0", "a.internal, ::/0"] {
            assert!(exempts_everything(v), "{v}");
        }
        for v in [
            "",
            "localhost,127.0.0.1",
            ".internal",
            "*.internal",
            "10.0.0.0/8",
        ] {
            assert!(!exempts_everything(v), "{v}");
        }
    }

    #[test]
    fn verification_switches() {
        let table: &[(&str, &str, bool)] = &[
            ("NODE_TLS_REJECT_UNAUTHORIZED", "0", true),
            ("NODE_TLS_REJECT_UNAUTHORIZED", "1", false),
            ("GIT_SSL_NO_VERIFY", "1", true),
            ("GIT_SSL_NO_VERIFY", "true", true),
            ("GIT_SSL_NO_VERIFY", "false", false),
            ("GIT_SSL_NO_VERIFY", "", false),
            ("PYTHONHTTPSVERIFY", "0", true),
            ("PYTHONHTTPSVERIFY", "1", false),
            ("npm_config_strict_ssl", "false", true),
            ("NPM_CONFIG_STRICT_SSL", "true", false),
            ("PIP_TRUSTED_HOST", "pypi.example", true),
            ("LANG", "0", false),
        ];
        for (n, v, want) in table {
            assert_eq!(disables_verification(n, v), *want, "{n}={v}");
        }
    }

    const BASE: &str = r#"{"schema":"isolint.profile/v1","mounts":[
        {"source":"/srv/workshop/snapshots/parser","target":"/workspace","access":"read-only"},
        {"source":"/srv/workshop/scratch/job-17","target":"/scratch","access":"read-write"}],
        "network":{"egress":"allow-list","enforced_by":"ENF","allow":[{"host":"proxy.internal","port":3128,"protocol":"http"}]},
        "environment":{"inherit":false,"variables":{VARS}}}"#;

    fn net_rules(enforced: &str, vars: &str) -> Vec<&'static str> {
        let p = BASE.replace("ENF", enforced).replace("VARS", vars);
        let mut v: Vec<&'static str> = super::super::area_findings(&p, Area::Network, None)
            .into_iter()
            .map(|f| f.0)
            .filter(|r| r.starts_with("NET02"))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn allow_rules(tenancy: &str, host: &str, port: u64) -> Vec<(&'static str, Severity)> {
        let p = format!(
            r#"{{"schema":"isolint.profile/v1","tenancy":"{tenancy}","network":{{"egress":"allow-list","enforced_by":"firewall",
            "allow":[{{"host":"{host}","port":{port},"protocol":"https"}}]}}}}"#
        );
        super::super::area_findings(&p, Area::Network, None)
            .into_iter()
            .filter(|f| matches!(f.0, "NET023" | "NET024"))
            .map(|f| (f.0, f.1))
            .collect()
    }

    #[test]
    fn allow_entries_table() {
        let h = Severity::High;
        let m = Severity::Medium;
        type Case<'a> = (&'a str, &'a str, u64, &'a [(&'a str, Severity)]);
        let table: &[Case<'_>] = &[
            ("internal", "github.com", 443, &[("NET023", m)]),
            ("untrusted", "github.com", 443, &[("NET023", h)]),
            (
                "internal",
                "raw.githubusercontent.com",
                443,
                &[("NET023", m)],
            ),
            ("internal", "gist.github.com", 443, &[("NET023", m)]),
            ("internal", "*.s3.amazonaws.com", 443, &[("NET023", m)]),
            ("internal", "pastebin.com", 443, &[("NET023", m)]),
            ("internal", "upload.pypi.org", 443, &[("NET023", m)]),
            ("internal", "registry.npmjs.org.", 443, &[("NET023", m)]),
            ("internal", "kubernetes.default.svc", 443, &[("NET024", h)]),
            (
                "internal",
                "Kubernetes.Default.Svc.Cluster.Local",
                443,
                &[("NET024", h)],
            ),
            ("internal", "169.254.169.254.nip.io", 80, &[("NET024", h)]),
            ("internal", "app.10.0.0.1.sslip.io", 443, &[("NET024", h)]),
            ("internal", "node1.internal", 10250, &[("NET024", h)]),
            ("internal", "node1.internal", 10255, &[("NET024", h)]),
            // Written as a URL or with a port: the host is still judged.
            (
                "internal",
                "https://deploy:T0pS3cret@github.com/org",
                443,
                &[("NET023", m)],
            ),
            ("internal", "github.com:443", 443, &[("NET023", m)]),
            (
                "internal",
                "https://kubernetes.default.svc/api",
                443,
                &[("NET024", h)],
            ),
            // Benign twins.
            ("internal", "api.internal.example", 443, &[]),
            ("internal", "notgithub.com", 443, &[]),
            ("internal", "github.com.example.org", 443, &[]),
            ("internal", "kubernetes.example.com", 443, &[]),
            ("internal", "nip.io.example.com", 443, &[]),
            ("internal", "pypi.internal.example", 443, &[]),
            ("internal", "node1.internal", 10251, &[]),
        ];
        for (t, host, port, want) in table {
            assert_eq!(allow_rules(t, host, *port), *want, "{t} {host}:{port}");
        }
    }

    #[test]
    fn profiles_and_benign_twins() {
        let table: &[(&str, &str, &[&str])] = &[
            // Benign twins first.
            (
                "firewall",
                r#""HTTP_PROXY":"http://proxy.internal:3128""#,
                &[],
            ),
            (
                "network-policy",
                r#""https_proxy":"http://proxy.internal:3128","NO_PROXY":"localhost,.internal""#,
                &[],
            ),
            (
                "firewall",
                r#""SSL_CERT_FILE":"/etc/ssl/certs/ca.pem""#,
                &[],
            ),
            (
                "firewall",
                r#""REQUESTS_CA_BUNDLE":"/workspace/ca.pem""#,
                &[],
            ),
            ("firewall", r#""NODE_TLS_REJECT_UNAUTHORIZED":"1""#, &[]),
            ("firewall", r#""LANG":"C.UTF-8""#, &[]),
            // Findings.
            (
                "proxy",
                r#""HTTP_PROXY":"http://proxy.internal:3128""#,
                &["NET020"],
            ),
            (
                "firewall",
                r#""HTTPS_PROXY":"http://relay.example.net:8080""#,
                &["NET021"],
            ),
            (
                "firewall",
                r#""ALL_PROXY":"socks5://u:p@203.0.113.9:1080""#,
                &["NET021"],
            ),
            ("firewall", r#""no_proxy":"*""#, &["NET021"]),
            (
                "firewall",
                r#""NODE_TLS_REJECT_UNAUTHORIZED":"0""#,
                &["NET022"],
            ),
            ("firewall", r#""GIT_SSL_NO_VERIFY":"1""#, &["NET022"]),
            ("firewall", r#""PYTHONHTTPSVERIFY":"0""#, &["NET022"]),
            (
                "firewall",
                r#""SSL_CERT_FILE":"/scratch/ca.pem""#,
                &["NET022"],
            ),
            (
                "firewall",
                r#""NODE_EXTRA_CA_CERTS":"/tmp/ca.pem""#,
                &["NET022"],
            ),
            (
                "firewall",
                r#""REQUESTS_CA_BUNDLE":"/workspace/../scratch/ca.pem""#,
                &["NET022"],
            ),
            ("firewall", r#""REQUESTS_CA_BUNDLE":"ca.pem""#, &["NET022"]),
            (
                "proxy",
                r#""NO_PROXY":"*","SSL_CERT_DIR":"/scratch/certs""#,
                &["NET020", "NET021", "NET022"],
            ),
        ];
        for (enf, vars, want) in table {
            assert_eq!(net_rules(enf, vars), *want, "{enf} {vars}");
        }
    }
}
