//! Rules of the `network` area: default-deny egress for offline jobs, and
//! where access is needed, destinations and protocols constrained at the
//! network layer, with redirects, DNS changes, private addresses and cloud
//! metadata in the threat model.

use super::netaddr::{self, Dest, Special};
use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{AllowEntry, Dns, Egress, Network, NetworkEnforcement, StringEnum, Tenancy};

/// The declared network section, unless it is absent or unreadable.
fn network<'a>(ctx: &'a Ctx<'_>) -> Option<&'a Network> {
    ctx.profile.network.as_ref()
}

/// The entries that say what the job may reach: those of an allow list,
/// or of a section that lists entries without declaring `egress`. Under
/// `deny` or `allow-all` they decide nothing (see NET009).
fn allow_entries<'a>(ctx: &'a Ctx<'_>) -> Vec<(String, &'a AllowEntry)> {
    let Some(net) = network(ctx) else {
        return Vec::new();
    };
    if !matches!(net.egress, Some(Egress::AllowList) | None) {
        return Vec::new();
    }
    net.allow
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            ctx.root
                .pointer(&format!("/network/allow/{i}"))
                .and_then(|n| n.members())
                .is_some()
        })
        .map(|(i, a)| (format!("/network/allow/{i}"), a))
        .collect()
}

/// The services the job declares it must reach.
fn services<'a>(ctx: &'a Ctx<'_>) -> &'a [String] {
    ctx.profile
        .needs
        .as_ref()
        .and_then(|n| n.services.as_deref())
        .unwrap_or(&[])
}

fn egress_text(net: &Network) -> &'static str {
    net.egress.map_or("not declared", |e| e.as_str())
}

pub(crate) const NET001: Rule = Rule {
    id: "NET001",
    name: "egress-undeclared",
    area: Area::Network,
    severity: Severity::High,
    title: "network egress is not declared",
    rationale: "Without a declared egress policy the job gets whatever network the runner provides, which is usually the open internet and the internal network. An offline test job should deny egress by default.",
    remediation: "Declare `network.egress`: `deny` for an offline job, or `allow-list` with the few services it needs.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_egress_undeclared,
};

fn check_egress_undeclared(ctx: &Ctx<'_>, e: &mut Emitter) {
    match network(ctx) {
        None if !ctx.present("/network") => {
            e.emit("/network/egress", "no `network` section is declared, so the job gets the runner's default network, often unrestricted")
                .evidence("egress", "not declared");
        }
        Some(net) if net.egress.is_none() && !ctx.present("/network/egress") => {
            e.emit("/network/egress", "`egress` is not declared, so what the job may reach is left to the runner's default")
                .evidence("egress", "not declared");
        }
        _ => {}
    }
}

pub(crate) const NET002: Rule = Rule {
    id: "NET002",
    name: "allow-all-egress",
    area: Area::Network,
    severity: Severity::High,
    title: "egress allows every destination",
    rationale: "With `allow-all` the code under test can send data anywhere and reach cloud metadata, internal services and the internet. A job that lists no services needs no network at all; one that does needs only those. Untrusted code with open egress is blocking at the highest severity.",
    remediation: "Set `egress` to `deny`, or to `allow-list` with one entry per service named in `needs.services`.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_allow_all,
};

fn check_allow_all(ctx: &Ctx<'_>, e: &mut Emitter) {
    if network(ctx).is_none_or(|n| n.egress != Some(Egress::AllowAll)) {
        return;
    }
    let svc = services(ctx);
    let untrusted = ctx.profile.tenancy == Some(Tenancy::Untrusted);
    let (msg, sev) = if svc.is_empty() {
        (
            "egress is `allow-all` although the job lists no services it must reach; the code under test can reach any host, cloud metadata and private networks included".to_string(),
            if untrusted { Severity::Critical } else { Severity::High },
        )
    } else {
        (
            format!(
                "egress is `allow-all` although the job needs only {}; the code under test can reach any other host as well",
                svc.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
            ),
            Severity::High,
        )
    };
    e.emit("/network/egress", msg)
        .severity(sev)
        .evidence("services", svc.to_vec())
        .evidence(
            "tenancy",
            ctx.profile.tenancy.map_or("not declared", |t| t.as_str()),
        );
}

pub(crate) const NET003: Rule = Rule {
    id: "NET003",
    name: "broad-destination",
    area: Area::Network,
    severity: Severity::High,
    title: "an allow entry admits more than one service",
    rationale: "Wildcards, bare top-level names, unspecified addresses and wide address ranges turn an allow list back into an open door: anyone who can register a name or host a machine inside the range becomes reachable.",
    remediation: "List exact host names or single addresses, one entry per service the job needs.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_broad,
};

fn check_broad(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, a) in allow_entries(ctx) {
        let host_ptr = format!("{ptr}/host");
        match &a.host {
            None if !ctx.present(&host_ptr) => {
                e.emit(host_ptr, "the allow entry names no `host`, so depending on the enforcer it admits every destination")
                    .evidence("host", "not declared");
            }
            Some(h) => {
                let d = netaddr::parse(h);
                if let Some(why) = netaddr::breadth(&d) {
                    e.emit(
                        host_ptr,
                        format!("{why}; an allow entry should name one service"),
                    )
                    .evidence("normalized", d.display());
                }
            }
            None => {}
        }
    }
}

fn phrase(s: Special) -> &'static str {
    match s {
        Special::Metadata => "the cloud metadata service, which hands out the host's credentials",
        Special::Loopback => "loopback, where local services trust their callers",
        Special::LinkLocal => "link-local addresses, where host and metadata services live",
        Special::Private => "private network addresses behind the perimeter",
        Special::PrivateName => "a name that resolves only inside a private network",
    }
}

pub(crate) const NET004: Rule = Rule {
    id: "NET004",
    name: "private-destination",
    area: Area::Network,
    severity: Severity::High,
    title: "an allow entry reaches private, loopback, link-local or cloud metadata addresses",
    rationale: "Private and loopback addresses lead to services that trust their network position; link-local addresses hold the cloud metadata endpoint, which hands out the host's credentials. Numeric tricks (`2852039166`, `::ffff:169.254.169.254`) reach them too.",
    remediation: "Remove the entry. Reach a test service by its own exact address and list it in `needs.services`; never allow the metadata endpoint.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_private,
};

fn check_private(ctx: &Ctx<'_>, e: &mut Emitter) {
    let svc = services(ctx);
    for (ptr, a) in allow_entries(ctx) {
        let Some(h) = &a.host else { continue };
        let d = netaddr::parse(h);
        let specials = netaddr::specials(&d);
        let Some(worst) = specials.first().copied() else {
            continue;
        };
        let unusual = match &d {
            Dest::Ip {
                addr,
                unusual: true,
            } => format!(" (an unusual notation for `{addr}`)"),
            _ => String::new(),
        };
        let listed = svc.iter().any(|s| s.eq_ignore_ascii_case(h.trim()));
        let sev = if worst == Special::Metadata {
            Severity::Critical
        } else if listed {
            Severity::Medium
        } else {
            Severity::High
        };
        let d2 = e
            .emit(
                format!("{ptr}/host"),
                format!("`{}`{unusual} reaches {}", shown_host(h), phrase(worst)),
            )
            .severity(sev);
        d2.evidence("normalized", d.display()).evidence(
            "reaches",
            specials.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        );
        if listed {
            d2.evidence("listed_in_needs_services", true);
        }
    }
}

pub(crate) const NET005: Rule = Rule {
    id: "NET005",
    name: "mutable-dns",
    area: Area::Network,
    severity: Severity::Medium,
    title: "allowed host names are resolved by a DNS that can change",
    rationale: "A name is reviewed once but resolved at every connection. When the resolver is the system's, the address behind an allowed name can move, including to a private or metadata address (DNS rebinding).",
    remediation: "Set `dns` to `pinned` so allowed names resolve to reviewed addresses, or list addresses instead of names.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_dns,
};

fn check_dns(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = network(ctx) else { return };
    if net.dns == Some(Dns::Pinned) || (net.dns.is_none() && ctx.present("/network/dns")) {
        return;
    }
    let names: Vec<String> = allow_entries(ctx)
        .iter()
        .filter_map(|(_, a)| a.host.as_deref())
        .map(netaddr::parse)
        .filter(Dest::is_name)
        .map(|d| d.display())
        .collect();
    let Some(first) = names.first() else { return };
    let how = if net.dns.is_some() {
        "resolved by the system resolver"
    } else {
        "resolved however the runner defaults (`dns` is not declared)"
    };
    e.emit(
        "/network/dns",
        format!("the allow list names hosts such as `{first}`, {how}; the addresses behind a name can change after review, even to a private address"),
    )
    .evidence("names", names.iter().take(20).cloned().collect::<Vec<_>>())
    .evidence("count", names.len());
}

pub(crate) const NET006: Rule = Rule {
    id: "NET006",
    name: "redirects-followed",
    area: Area::Network,
    severity: Severity::High,
    title: "redirects are followed by the job's HTTP clients",
    rationale: "A redirect lets an allowed server send the client somewhere else. A URL check that saw only the first address is bypassed, and the new destination may be private or the metadata endpoint.",
    remediation: "Set `follow_redirects` to `false`, and enforce the allow list at the network layer so a redirect cannot leave it.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_redirects,
};

fn check_redirects(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = network(ctx) else { return };
    let (list, deny) = (
        net.egress == Some(Egress::AllowList),
        net.egress == Some(Egress::Deny),
    );
    if deny {
        return;
    }
    match net.follow_redirects {
        Some(true) => {
            let sev = if list {
                Severity::High
            } else {
                Severity::Medium
            };
            let why = if list {
                "a listed host can send the client to any other host, past a check that only saw the first URL"
            } else {
                "the client goes wherever a server sends it"
            };
            e.emit(
                "/network/follow_redirects",
                format!("redirects are followed: {why}"),
            )
            .severity(sev)
            .evidence("egress", egress_text(net));
        }
        None if list && !ctx.present("/network/follow_redirects") => {
            e.emit(
                "/network/follow_redirects",
                "`follow_redirects` is not declared for an allow list; many clients follow redirects by default",
            )
            .severity(Severity::Medium)
            .evidence("egress", egress_text(net));
        }
        _ => {}
    }
}

pub(crate) const NET007: Rule = Rule {
    id: "NET007",
    name: "egress-not-network-enforced",
    area: Area::Network,
    severity: Severity::High,
    title: "egress is not enforced at the network layer",
    rationale: "An application URL check sees only the requests that go through that application; code under test opens its own sockets, resolves its own names and ignores proxies. A network policy or firewall covers the rest of the route. Without either, the egress setting is only a request.",
    remediation: "Set `enforced_by` to `network-policy` or `firewall`, and keep any application check as an extra layer.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_enforcement,
};

fn check_enforcement(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = network(ctx) else { return };
    let egress = egress_text(net);
    let all = net.egress == Some(Egress::AllowAll);
    let msg = match net.enforced_by {
        Some(NetworkEnforcement::Application) if all => {
            "the only egress control is an application URL check; code under test opens its own sockets without asking it".to_string()
        }
        Some(NetworkEnforcement::Application) => format!(
            "egress `{egress}` is enforced only by an application URL check; code under test opens its own sockets, so the network layer must enforce the policy"
        ),
        Some(NetworkEnforcement::None) if !all => {
            format!("nothing enforces egress `{egress}`; a setting no one enforces is not a boundary")
        }
        None if !all && !ctx.present("/network/enforced_by") => {
            format!("`enforced_by` is not declared, so nothing shows that the network layer enforces egress `{egress}`")
        }
        _ => return,
    };
    e.emit("/network/enforced_by", msg)
        .evidence("egress", egress);
}

/// Protocols that carry requests and credentials in clear text.
const PLAINTEXT: &[&str] = &[
    "http", "ftp", "telnet", "ws", "ldap", "smtp", "pop3", "imap", "git", "rsync", "tftp", "nntp",
];

pub(crate) const NET008: Rule = Rule {
    id: "NET008",
    name: "unconstrained-allow-entry",
    area: Area::Network,
    severity: Severity::Medium,
    title: "an allow entry without port or protocol, or with a plaintext protocol",
    rationale: "An entry without a port opens every service on the host; without a protocol, any protocol may use it. Plaintext protocols expose what the job sends, and let anyone on the path alter what it receives.",
    remediation: "Give every entry a `port` and a `protocol`, and prefer encrypted protocols such as `https`.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_unconstrained,
};

fn check_unconstrained(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, a) in allow_entries(ctx) {
        let host = a
            .host
            .as_deref()
            .map_or_else(|| "(no host)".to_string(), shown_host);
        let port_ptr = format!("{ptr}/port");
        match a.port {
            None if !ctx.present(&port_ptr) => {
                e.emit(
                    port_ptr,
                    format!("the entry for `{host}` names no `port`, so every port of it is open"),
                )
                .evidence("missing", "port");
            }
            Some(p) if p == 0 || p > 65535 => {
                e.emit(
                    port_ptr,
                    format!("port `{p}` is outside 1-65535; enforcers may read it as any port"),
                )
                .evidence("port", p);
            }
            _ => {}
        }
        let proto_ptr = format!("{ptr}/protocol");
        match a.protocol.as_deref().map(|p| p.trim().to_ascii_lowercase()) {
            None if !ctx.present(&proto_ptr) => {
                e.emit(
                    proto_ptr,
                    format!(
                        "the entry for `{host}` names no `protocol`, so any protocol may use it"
                    ),
                )
                .evidence("missing", "protocol");
            }
            Some(p) if PLAINTEXT.contains(&p.as_str()) => {
                e.emit(proto_ptr, format!("`{p}` is a plaintext protocol: what the job sends and receives can be read or altered on the way"))
                    .evidence("protocol", p);
            }
            _ => {}
        }
    }
}

pub(crate) const NET009: Rule = Rule {
    id: "NET009",
    name: "contradictory-network",
    area: Area::Network,
    severity: Severity::Low,
    title: "network settings contradict each other",
    rationale: "Allow entries under `deny` or `allow-all` have no effect, but a reader may believe they do. Settings that disagree make the profile say more than the runner enforces.",
    remediation: "Remove the allow entries, or set `egress` to `allow-list` if they are meant.",
    runtime_check: None,
    check: check_contradiction,
};

fn check_contradiction(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = network(ctx) else { return };
    let n = net.allow.as_ref().map_or(0, Vec::len);
    if n == 0 {
        return;
    }
    let why = match net.egress {
        Some(Egress::Deny) => "egress is `deny` yet allow entries are listed; a reader cannot tell which one the runner applies",
        Some(Egress::AllowAll) => "egress is `allow-all`, so the allow entries restrict nothing; they suggest a limit that does not exist",
        _ => return,
    };
    e.emit("/network/allow", why)
        .evidence("egress", egress_text(net))
        .evidence("entries", n);
}

/// The host as messages show it: as written when it is a plain
/// destination, else reduced to what it denotes, so that user info, a
/// path or a query never reach a message.
fn shown_host(raw: &str) -> String {
    if netaddr::host_problems(raw).is_empty() {
        raw.trim().to_string()
    } else {
        netaddr::parse(raw).display()
    }
}

/// How imported NetworkPolicy peers that are pods, not addresses, are written.
const IN_CLUSTER: &str = "in-cluster ";

pub(crate) const NET010: Rule = Rule {
    id: "NET010",
    name: "allow-host-not-a-host",
    area: Area::Network,
    severity: Severity::High,
    title: "an allow entry's host is a URL or not a valid host",
    rationale: "The network layer sees addresses and ports, not URLs. An allow entry written as `https://mirror.example/simple`, `user@mirror.example` or `mirror.example:8443` was meant for an application URL check, which is a different control; an enforcer reads it in its own way, drops it or rejects the policy, so the reviewed list is not what is enforced. A host is a DNS name, an IP address or a CIDR range, with an optional leading `*.`.",
    remediation: "Write only the host in `host` (`mirror.example`, `203.0.113.7`, `10.1.2.0/24`), put the port in `port` and the protocol in `protocol`, and keep URL paths for an application-level check.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_host_syntax,
};

fn check_host_syntax(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, a) in allow_entries(ctx) {
        let Some(h) = &a.host else { continue };
        // The Kubernetes importer's description of selector peers (`in-cluster
        // pods app=db in the policy's namespace`): not a host, and judged as
        // an in-cluster destination by NET024.
        if h.starts_with(IN_CLUSTER) {
            continue;
        }
        let problems = netaddr::host_problems(h);
        if problems.is_empty() || problems.iter().any(|p| p.matches_everything()) {
            continue;
        }
        let url = problems.iter().any(|p| {
            use netaddr::HostProblem as P;
            matches!(
                p,
                P::Scheme | P::Userinfo | P::Path | P::Query | P::Fragment
            )
        });
        let why = if url {
            "the network layer matches addresses and ports, not URLs, and an application URL check is a different control"
        } else {
            "the network layer matches a DNS name, an address or a range, with an optional leading `*.`"
        };
        let phrases: Vec<&str> = problems.iter().map(|p| p.phrase()).collect();
        e.emit(
            format!("{ptr}/host"),
            format!(
                "the allow entry for `{}` is not a plain host: {}; {why}, so what this entry admits depends on how the enforcer reads it",
                shown_host(h),
                phrases.join(", ")
            ),
        )
        .evidence("normalized", netaddr::parse(h).display())
        .evidence(
            "problems",
            problems.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
        );
    }
}

pub(crate) const NET011: Rule = Rule {
    id: "NET011",
    name: "secret-in-allow-entry",
    area: Area::Credentials,
    severity: Severity::Critical,
    title: "an allow entry carries a credential",
    rationale: "User info in an allow entry (`deploy:password@mirror.example`) is a secret written into the profile: it is stored, reviewed, exported and shared with it. isolint never repeats the value; it names the entry.",
    remediation: "Remove the credential from the entry and rotate it. If the job needs to authenticate to the mirror, declare a broker-issued task credential under `credentials`.",
    runtime_check: None,
    check: check_secret_in_entry,
};

/// Every allow entry, whatever `egress` says: a secret written into the
/// profile is disclosed whether or not the entry decides anything.
fn check_secret_in_entry(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = network(ctx) else { return };
    for (i, a) in net.allow.as_deref().unwrap_or(&[]).iter().enumerate() {
        for (field, value) in [
            ("host", a.host.as_deref()),
            ("protocol", a.protocol.as_deref()),
        ] {
            let Some(v) = value else { continue };
            // The credential-in-URL test of every other rule, applied to
            // the entry read as a URL (`user:pw@host` has no scheme).
            let as_url = if v.contains("://") {
                v.to_string()
            } else {
                format!("https://{}", v.trim())
            };
            let by = if crate::secrets::looks_like_secret(v) {
                "value"
            } else if crate::secrets::looks_like_secret(&as_url) {
                "url-userinfo"
            } else {
                continue;
            };
            e.emit(
                format!("/network/allow/{i}/{field}"),
                format!("the `{field}` of allow entry {i} carries a credential; written into the profile it is stored, reviewed and shared with it, and isolint does not repeat it"),
            )
            .evidence("detected_by", by);
        }
    }
}

pub const RULES: &[&Rule] = &[
    &NET001, &NET002, &NET003, &NET004, &NET005, &NET006, &NET007, &NET008, &NET009, &NET010,
    &NET011,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date;
    use crate::report::{audit, AuditOptions, Labels};

    fn fired(profile: &str) -> Vec<(String, String, Severity)> {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let r = audit(profile.as_bytes(), "t.json", &Labels::workshop(), &opts).unwrap();
        r.issues
            .iter()
            .filter(|f| f.rule.starts_with("NET"))
            .map(|f| (f.rule.to_string(), f.pointer.clone(), f.severity))
            .collect()
    }

    fn with(network: &str, extra: &str) -> String {
        format!(r#"{{"name":"t"{extra},"network":{network}}}"#)
    }

    fn sev(f: &[(String, String, Severity)], rule: &str, ptr: &str) -> Option<Severity> {
        f.iter()
            .find(|(r, p, _)| r == rule && p == ptr)
            .map(|x| x.2)
    }

    #[test]
    fn workshop_profiles() {
        let f = fired(include_str!("../../../fixtures/profiles/workshop.json"));
        assert_eq!(sev(&f, "NET002", "/network/egress"), Some(Severity::High));
        assert_eq!(
            sev(&f, "NET007", "/network/enforced_by"),
            Some(Severity::High)
        );
        assert_eq!(
            sev(&f, "NET006", "/network/follow_redirects"),
            Some(Severity::Medium)
        );
        let f = fired(include_str!(
            "../../../fixtures/profiles/workshop-fixed.json"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn allow_all_severity_follows_tenancy_and_needs() {
        let n = r#"{"egress":"allow-all","enforced_by":"firewall"}"#;
        assert_eq!(
            sev(
                &fired(&with(n, r#","tenancy":"untrusted""#)),
                "NET002",
                "/network/egress"
            ),
            Some(Severity::Critical)
        );
        assert_eq!(
            sev(
                &fired(&with(n, r#","tenancy":"internal""#)),
                "NET002",
                "/network/egress"
            ),
            Some(Severity::High)
        );
        let needs = r#","tenancy":"untrusted","needs":{"services":["test-service"]}"#;
        assert_eq!(
            sev(&fired(&with(n, needs)), "NET002", "/network/egress"),
            Some(Severity::High)
        );
    }

    #[test]
    fn entries_are_judged_only_where_they_decide() {
        let entries = r#"[{"host":"169.254.169.254","port":80,"protocol":"http"}]"#;
        let f = fired(&with(
            &format!(
                r#"{{"egress":"allow-list","enforced_by":"firewall","dns":"pinned","follow_redirects":false,"allow":{entries}}}"#
            ),
            "",
        ));
        assert_eq!(
            sev(&f, "NET004", "/network/allow/0/host"),
            Some(Severity::Critical)
        );
        assert!(sev(&f, "NET008", "/network/allow/0/protocol").is_some());
        let f = fired(&with(
            &format!(r#"{{"egress":"deny","enforced_by":"firewall","allow":{entries}}}"#),
            "",
        ));
        assert!(sev(&f, "NET004", "/network/allow/0/host").is_none());
        assert_eq!(sev(&f, "NET009", "/network/allow"), Some(Severity::Low));
    }

    #[test]
    fn private_service_listed_in_needs_is_medium() {
        let n = r#"{"egress":"allow-list","enforced_by":"firewall","dns":"pinned","follow_redirects":false,"allow":[{"host":"10.1.2.3","port":5432,"protocol":"postgres"}]}"#;
        assert_eq!(
            sev(&fired(&with(n, "")), "NET004", "/network/allow/0/host"),
            Some(Severity::High)
        );
        assert_eq!(
            sev(
                &fired(&with(n, r#","needs":{"services":["10.1.2.3"]}"#)),
                "NET004",
                "/network/allow/0/host"
            ),
            Some(Severity::Medium)
        );
    }

    #[test]
    fn dns_only_matters_for_names() {
        let n = |host: &str, dns: &str| {
            format!(
                r#"{{"egress":"allow-list","enforced_by":"firewall","follow_redirects":false{dns},"allow":[{{"host":"{host}","port":443,"protocol":"https"}}]}}"#
            )
        };
        assert!(sev(
            &fired(&with(&n("pypi.org", r#","dns":"system""#), "")),
            "NET005",
            "/network/dns"
        )
        .is_some());
        assert!(sev(
            &fired(&with(&n("pypi.org", ""), "")),
            "NET005",
            "/network/dns"
        )
        .is_some());
        assert!(sev(
            &fired(&with(&n("pypi.org", r#","dns":"pinned""#), "")),
            "NET005",
            "/network/dns"
        )
        .is_none());
        assert!(sev(
            &fired(&with(&n("203.0.113.7", r#","dns":"system""#), "")),
            "NET005",
            "/network/dns"
        )
        .is_none());
    }

    #[test]
    fn missing_network_is_one_finding() {
        let f = fired(r#"{"name":"t"}"#);
        assert_eq!(
            f,
            vec![(
                "NET001".to_string(),
                "/network/egress".to_string(),
                Severity::High
            )]
        );
    }
}
