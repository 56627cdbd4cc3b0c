//! Network rules for names the job resolves differently from what the
//! reviewer read (issue 23, item 3): a hosts-file entry that pins a name to
//! a metadata, loopback or private address, and resolvers nobody pinned.
//!
//! The allow-list is written in names; what a name means inside the job
//! is decided by its hosts file and its resolver. Both are set by the
//! launcher, and the code under test connects to whatever they answer.

use super::netaddr::{self, Special};
use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::json::escape_token;
use crate::model::{Dns, Egress, StringEnum};

pub(crate) const NET030: Rule = Rule {
    id: "NET030",
    name: "hosts-entry-to-special-address",
    area: Area::Network,
    severity: Severity::High,
    title: "a hosts-file entry points a name at a metadata or private address",
    rationale: "Kubernetes `hostAliases` and Compose `extra_hosts` write the job's hosts file, which wins over DNS. A name pinned there to the metadata endpoint (critical), to loopback or to a private address turns an innocent-looking destination into the instance's credentials or an internal service, and a name-based allow-list or URL check still sees the harmless name. The job's purpose does not enter into it: every program in it resolves through that file.",
    remediation: "Remove the entry, or point the name at the public service it stands for; reach internal services through the network layer's allow-list by address, where the reviewer sees them.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_hosts,
};

fn check_hosts(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = ctx.profile.network.as_ref() else {
        return;
    };
    for (name, addr) in net.hosts.as_deref().unwrap_or(&[]) {
        let dest = netaddr::parse(addr);
        let Some(worst) = netaddr::specials(&dest).first().copied() else {
            continue;
        };
        let d = e.emit(
            format!("/network/hosts/{}", escape_token(name)),
            format!("`{name}` is pinned to `{}` ({}) in the job's hosts file: every connection to that name, however the allow-list reads it, goes there", dest.display(), worst.as_str()),
        );
        d.evidence("name", name.as_str())
            .evidence("reaches", worst.as_str());
        if worst == Special::Metadata {
            d.severity(Severity::Critical);
        }
    }
}

pub(crate) const NET031: Rule = Rule {
    id: "NET031",
    name: "resolver-not-pinned",
    area: Area::Network,
    severity: Severity::High,
    title: "the job's names go to a resolver nobody pinned",
    rationale: "A resolver set for the job (Kubernetes `dnsPolicy: None` with `dnsConfig.nameservers`, Compose `dns`) decides what every allow-listed name means, and can change its answers between the check and the connection. One outside the job's network also receives every query, which is a channel out for data (high); one inside it still answers for names the reviewer read as fixed (medium). With `network.dns: pinned` the addresses are fixed at launch and this is not a finding.",
    remediation: "Use the platform's resolver, or pin the addresses the job needs (`network.dns: pinned`) and deny DNS to anything else at the network layer.",
    runtime_check: None,
    check: check_resolvers,
};

fn check_resolvers(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = ctx.profile.network.as_ref() else {
        return;
    };
    let list = net.resolvers.as_deref().unwrap_or(&[]);
    if list.is_empty() || net.dns == Some(Dns::Pinned) {
        return;
    }
    for (i, r) in list.iter().enumerate() {
        let dest = netaddr::parse(r);
        let inside = netaddr::specials(&dest).iter().any(|s| {
            matches!(
                s,
                Special::Loopback | Special::Private | Special::LinkLocal | Special::PrivateName
            )
        });
        let d = e.emit(
            format!("/network/resolvers/{i}"),
            if inside {
                format!("names resolve through `{}`, which nobody pinned: its answers decide where allow-listed names lead", dest.display())
            } else {
                format!("names resolve through `{}`, outside the job's network and not pinned: its answers decide where allow-listed names lead, and every query carries data to it", dest.display())
            },
        );
        d.evidence("resolver", dest.display());
        if inside {
            d.severity(Severity::Medium);
        }
    }
}

pub(crate) const NET032: Rule = Rule {
    id: "NET032",
    name: "dns-exfiltration",
    area: Area::Network,
    severity: Severity::High,
    title: "an allow-list job can send data out through the platform's resolver",
    rationale: "An allow list filters connections, but a job that may resolve names hands every query to a recursive resolver, which forwards it to whichever server is authoritative for the name. Code under test that looks up `<data>.attacker.example` delivers the data to the attacker's name server without one packet to a host the list names, at tens of kilobytes a minute, and gets answers back the same way. This is a channel out, not rebinding (NET005): pinning the allowed names' addresses does not close it unless the job cannot query a resolver at all. An outside resolver is reported by NET031.",
    remediation: "Resolve the allowed names at launch (`network.dns: pinned`, addresses in the hosts file) and block DNS from the job at the network layer, or route lookups through a resolver that answers only the allow list's names and refuses the rest.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: check_dns_channel,
};

fn check_dns_channel(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(net) = ctx.profile.network.as_ref() else {
        return;
    };
    if net.egress != Some(Egress::AllowList) || net.dns == Some(Dns::Pinned) {
        return;
    }
    // An unreadable `dns` is its own profile finding; a resolver outside
    // the job's network is NET031's, at high already.
    if net.dns.is_none() && ctx.present("/network/dns") {
        return;
    }
    let outside = net.resolvers.as_deref().unwrap_or(&[]).iter().any(|r| {
        !netaddr::specials(&netaddr::parse(r)).iter().any(|s| {
            matches!(
                s,
                Special::Loopback | Special::Private | Special::LinkLocal | Special::PrivateName
            )
        })
    });
    if outside {
        return;
    }
    let how = if net.dns.is_some() {
        "resolves names through the system resolver"
    } else {
        "resolves names however the runner defaults (`dns` is not declared)"
    };
    e.emit(
        "/network/dns",
        format!("the job is limited to an allow list but {how}: a lookup of a name under a domain the writer controls carries data to that domain's name server through the platform's recursive resolver, past the allow list"),
    )
    .evidence("egress", "allow-list")
    .evidence("dns", net.dns.map_or("not-declared", |d| d.as_str()));
}

pub const RULES: &[&Rule] = &[&NET030, &NET031, &NET032];

#[cfg(test)]
mod tests {
    use crate::finding::{Area, Severity};

    fn with_network(fields: &str) -> String {
        let fixed = crate::WORKSHOP_PROFILE_FIXED;
        let at = fixed.find("\"follow_redirects\"").unwrap();
        format!("{}{fields}, {}", &fixed[..at], &fixed[at..])
    }

    fn findings(profile: &str) -> Vec<(&'static str, Severity)> {
        super::super::area_findings(profile, Area::Network, Some("2026-11-29"))
            .into_iter()
            .filter(|f| f.0 == "NET030" || f.0 == "NET031")
            .map(|f| (f.0, f.1))
            .collect()
    }

    #[test]
    fn hosts_and_resolvers() {
        use Severity::*;
        let cases: &[(&str, &[(&str, Severity)])] = &[
            (
                r#""hosts": {"pypi.org": "169.254.169.254"}"#,
                &[("NET030", Critical)],
            ),
            (
                r#""hosts": {"pypi.org": "0xa9fea9fe"}"#,
                &[("NET030", Critical)],
            ),
            (
                r#""hosts": {"api.example.com": "10.1.2.3"}"#,
                &[("NET030", High)],
            ),
            (
                r#""hosts": {"api.example.com": "127.0.0.1"}"#,
                &[("NET030", High)],
            ),
            (r#""hosts": {"mirror.example.com": "93.184.216.34"}"#, &[]),
            (r#""resolvers": ["8.8.8.8"]"#, &[("NET031", High)]),
            (r#""resolvers": ["10.0.0.10"]"#, &[("NET031", Medium)]),
            (r#""resolvers": []"#, &[]),
        ];
        for (fields, want) in cases {
            // The fixed workshop profile pins DNS; resolvers only count
            // when nothing is pinned.
            let system = with_network(fields).replace(r#""dns": "pinned""#, r#""dns": "system""#);
            assert_eq!(&findings(&system), want, "{fields}");
        }
        let pinned = with_network(r#""resolvers": ["8.8.8.8"]"#);
        assert!(pinned.contains(r#""dns": "pinned""#));
        assert!(findings(&pinned).is_empty());
    }
}
