//! Destinations of network allow entries: what a `host` string denotes
//! (a name, a wildcard, an address, a range) and which special address
//! ranges it reaches (cloud metadata, loopback, private, link-local).
//!
//! Parsing is lenient on purpose: a URL, a `host:port` or a bracketed IPv6
//! literal is reduced to its host, and IPv4 addresses written the way
//! `inet_aton` accepts them (`2852039166`, `0xa9fea9fe`, `0251.0376.0251.0376`)
//! are recognised, because HTTP clients resolve them that way and they are
//! the classic way around a metadata deny list.

use core::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What an allow entry's `host` denotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Dest {
    /// Empty, `*` or an unspecified address: anything.
    Any(String),
    /// A name with a `*` in it.
    Wildcard(String),
    /// A DNS name (lowercase, no trailing dot).
    Name(String),
    /// One address; `unusual` when not written in the usual notation.
    Ip { addr: IpAddr, unusual: bool },
    /// An address range `addr/prefix`.
    Net { addr: IpAddr, prefix: u8 },
}

impl Dest {
    /// The normalized form for evidence.
    pub fn display(&self) -> String {
        match self {
            Dest::Any(s) | Dest::Wildcard(s) | Dest::Name(s) => s.clone(),
            Dest::Ip { addr, .. } => addr.to_string(),
            Dest::Net { addr, prefix } => format!("{addr}/{prefix}"),
        }
    }
    /// Whether the destination is looked up in DNS.
    pub fn is_name(&self) -> bool {
        matches!(self, Dest::Name(_) | Dest::Wildcard(_))
    }
}

/// Reduce a declared host to what it denotes.
pub(crate) fn parse(raw: &str) -> Dest {
    let mut h = raw.trim().to_ascii_lowercase();
    if let Some(i) = h.find("://") {
        h = h.split_off(i + 3);
    }
    // user info of a URL
    if let Some(at) = h.find('@') {
        if h.find('/').is_none_or(|slash| at < slash) {
            h = h.split_off(at + 1);
        }
    }
    if h.is_empty() || h == "*" || h == "*.*" || h == "any" {
        return Dest::Any(if h.is_empty() { "(empty)".into() } else { h });
    }
    // A range is `address/prefix`; any other `/` starts a URL path.
    if let Some((a, p)) = h.split_once('/') {
        if let (Some(addr), Ok(prefix)) = (address(a), p.parse::<u8>()) {
            let max = if addr.is_ipv4() { 32 } else { 128 };
            if prefix <= max {
                let addr = mask(addr, prefix);
                return if prefix == 0 {
                    Dest::Net { addr, prefix }
                } else if prefix == max {
                    Dest::Ip {
                        addr,
                        unusual: false,
                    }
                } else {
                    Dest::Net { addr, prefix }
                };
            }
        }
        h.truncate(h.find('/').unwrap_or(h.len()));
    }
    // `[v6]:port`, `[v6]`, `host:port`, bare v6
    let host = if let Some(rest) = h.strip_prefix('[') {
        rest.split(']').next().unwrap_or("").to_string()
    } else if h.matches(':').count() == 1 {
        h.split(':').next().unwrap_or("").to_string()
    } else {
        h.clone()
    };
    let host = host.trim_end_matches('.').to_string();
    if let Ok(v6) = host.parse::<Ipv6Addr>() {
        return ip_dest(IpAddr::V6(v6), false);
    }
    if let Ok(v4) = host.parse::<Ipv4Addr>() {
        return ip_dest(IpAddr::V4(v4), false);
    }
    // Leading zeros: `inet_aton` reads `010` as octal (8), other parsers
    // as decimal (10) or refuse it. Judge by a reading that reaches a
    // special range when any does.
    let decimal = decimal_quad(&host).filter(|d| !special_v4(u32::from(*d), 32).is_empty());
    match (inet_aton(&host), decimal) {
        (Some(v4), Some(d)) if special_v4(u32::from(v4), 32).is_empty() => {
            return ip_dest(IpAddr::V4(d), true)
        }
        (Some(v4), _) => return ip_dest(IpAddr::V4(v4), true),
        (None, Some(d)) => return ip_dest(IpAddr::V4(d), true),
        (None, None) => {}
    }
    if host.is_empty() {
        return Dest::Any("(empty)".into());
    }
    if host.contains('*') {
        return Dest::Wildcard(host);
    }
    Dest::Name(host)
}

fn ip_dest(addr: IpAddr, unusual: bool) -> Dest {
    if addr.is_unspecified() {
        Dest::Any(addr.to_string())
    } else {
        Dest::Ip { addr, unusual }
    }
}

fn address(s: &str) -> Option<IpAddr> {
    let s = s.trim_start_matches('[').trim_end_matches(']');
    s.parse::<IpAddr>()
        .ok()
        .or_else(|| inet_aton(s).map(IpAddr::V4))
}

/// Four dotted parts of decimal digits, read as decimal even with leading
/// zeros (`010.0.0.1` as `10.0.0.1`), as some parsers read them.
fn decimal_quad(s: &str) -> Option<Ipv4Addr> {
    let mut parts = s.split('.');
    let mut octets = [0u8; 4];
    for o in &mut octets {
        let p = parts.next()?;
        if p.is_empty() || p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    parts.next().is_none().then_some(Ipv4Addr::from(octets))
}

/// IPv4 in any form `inet_aton` accepts: 1 to 4 parts, each decimal, octal
/// (leading `0`) or hexadecimal (`0x`), the last filling the remaining bytes.
fn inet_aton(s: &str) -> Option<Ipv4Addr> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(parts.len());
    for p in &parts {
        let n = if let Some(hex) = p.strip_prefix("0x") {
            u32::from_str_radix(hex, 16).ok()?
        } else if p.len() > 1 && p.starts_with('0') {
            u32::from_str_radix(p.get(1..)?, 8).ok()?
        } else if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) {
            p.parse::<u32>().ok()?
        } else {
            return None;
        };
        nums.push(n);
    }
    let (last, head) = nums.split_last()?;
    let mut v: u32 = 0;
    for (i, n) in head.iter().enumerate() {
        if *n > 255 {
            return None;
        }
        v |= n << (24 - 8 * i);
    }
    let room = 32 - 8 * head.len() as u32;
    if room < 32 && u64::from(*last) >= 1u64 << room {
        return None;
    }
    Some(Ipv4Addr::from(v | last))
}

fn mask(addr: IpAddr, prefix: u8) -> IpAddr {
    match addr {
        IpAddr::V4(a) => {
            let m = if prefix == 0 {
                0
            } else {
                u32::MAX << (32 - u32::from(prefix))
            };
            IpAddr::V4(Ipv4Addr::from(u32::from(a) & m))
        }
        IpAddr::V6(a) => {
            let m = if prefix == 0 {
                0
            } else {
                u128::MAX << (128 - u32::from(prefix))
            };
            IpAddr::V6(Ipv6Addr::from(u128::from(a) & m))
        }
    }
}

// ------------------------------------------------------------ host syntax

/// Why a declared `host` is not a plain destination (a DNS name, an
/// address or a range, with an optional leading `*.`). The network layer
/// matches addresses and ports; URL parts around the host mean the entry
/// was written for an application URL check, a different control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum HostProblem {
    /// Empty or blank: reported as matching everything (NET003).
    Empty,
    /// `*` (or `*.*`) alone: reported as matching everything (NET003).
    AnyWildcard,
    Whitespace,
    Scheme,
    /// `user@` or `user:password@` before the host.
    Userinfo,
    Path,
    Query,
    Fragment,
    /// `host:443`, `[::1]:443`: the port belongs in `port`.
    Port,
    /// `[::1]`: URL notation for an IPv6 literal.
    Brackets,
    /// A `*` anywhere but as a whole leading label `*.`.
    Wildcard,
    /// An address range whose prefix is not a number in range.
    Prefix,
    /// Not ASCII: an internationalized name must be written `xn--…`.
    NonAscii,
    /// Not a DNS name: a character, an empty, long or hyphen-edged label,
    /// an all-digit last label that is no address.
    Name,
}

impl HostProblem {
    pub fn as_str(self) -> &'static str {
        match self {
            HostProblem::Empty => "empty",
            HostProblem::AnyWildcard => "any-wildcard",
            HostProblem::Whitespace => "whitespace",
            HostProblem::Scheme => "scheme",
            HostProblem::Userinfo => "userinfo",
            HostProblem::Path => "path",
            HostProblem::Query => "query",
            HostProblem::Fragment => "fragment",
            HostProblem::Port => "port",
            HostProblem::Brackets => "brackets",
            HostProblem::Wildcard => "wildcard",
            HostProblem::Prefix => "prefix",
            HostProblem::NonAscii => "non-ascii",
            HostProblem::Name => "name",
        }
    }
    /// The problem as a reader needs it, no value quoted.
    pub fn phrase(self) -> &'static str {
        match self {
            HostProblem::Empty => "it is empty",
            HostProblem::AnyWildcard => "it is a bare wildcard",
            HostProblem::Whitespace => "it contains spaces",
            HostProblem::Scheme => "it starts with a URL scheme",
            HostProblem::Userinfo => "it carries user info before an `@`",
            HostProblem::Path => "it has a URL path",
            HostProblem::Query => "it has a URL query",
            HostProblem::Fragment => "it has a URL fragment",
            HostProblem::Port => "it embeds a port, which belongs in `port`",
            HostProblem::Brackets => "it wraps an address in URL brackets",
            HostProblem::Wildcard => "its `*` is not a whole leading `*.` label",
            HostProblem::Prefix => "its range prefix is not a number the address family allows",
            HostProblem::NonAscii => {
                "it is not ASCII (an internationalized name is written in its `xn--` form)"
            }
            HostProblem::Name => "it is not a valid DNS name",
        }
    }
    /// Whether another rule already reports the entry as matching every
    /// destination.
    pub fn matches_everything(self) -> bool {
        matches!(self, HostProblem::Empty | HostProblem::AnyWildcard)
    }
}

/// Whether `name` is a DNS name: labels of letters, digits, `-` and `_`
/// (seen in real internal names), 1 to 63 bytes, no `-` at either end,
/// 253 bytes at most, the last label not all digits (that would be a
/// malformed address). One trailing dot (a fully qualified name) is fine.
fn dns_name(name: &str) -> bool {
    let n = name.strip_suffix('.').unwrap_or(name);
    if n.is_empty() || n.len() > 253 {
        return false;
    }
    let labels: Vec<&str> = n.split('.').collect();
    let ok = labels.iter().all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    });
    ok && labels
        .last()
        .is_some_and(|l| !l.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `s` is an address in any notation the resolver takes.
fn is_address(s: &str) -> bool {
    s.parse::<IpAddr>().is_ok() || inet_aton(s).is_some()
}

/// What keeps a declared host from being a plain destination; empty when
/// it is one.
pub(super) fn host_problems(raw: &str) -> Vec<HostProblem> {
    use HostProblem as P;
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return vec![P::Empty];
    }
    if matches!(trimmed, "*" | "*.*") {
        return vec![P::AnyWildcard];
    }
    let mut out = Vec::new();
    if trimmed.len() != raw.len() || trimmed.chars().any(char::is_whitespace) {
        out.push(P::Whitespace);
    }
    let mut h = trimmed;
    if let Some(i) = h.find("://") {
        out.push(P::Scheme);
        h = h.get(i + 3..).unwrap_or("");
    }
    // The authority ends at the first `/`, `?` or `#`.
    let end = h.find(['/', '?', '#']).unwrap_or(h.len());
    let (mut auth, rest) = h.split_at(end);
    if let Some(at) = auth.rfind('@') {
        out.push(P::Userinfo);
        auth = auth.get(at + 1..).unwrap_or("");
    }
    let path_end = rest.find(['?', '#']).unwrap_or(rest.len());
    let (path, tail) = rest.split_at(path_end);
    if tail.starts_with('?') {
        out.push(P::Query);
    }
    if tail.contains('#') {
        out.push(P::Fragment);
    }
    if let Some(prefix) = path
        .strip_prefix('/')
        .filter(|_| is_address(auth.trim_start_matches('[').trim_end_matches(']')))
    {
        // `address/prefix` is a range, not a path.
        let max = if auth.contains(':') { 128 } else { 32 };
        if !prefix.parse::<u8>().is_ok_and(|p| p <= max) {
            out.push(P::Prefix);
        }
        if auth.starts_with('[') {
            out.push(P::Brackets);
        }
        return dedup(out);
    }
    if !path.is_empty() {
        out.push(P::Path);
    }
    if auth.is_empty() {
        // A scheme or a path with no host in front of it.
        out.push(P::Name);
        return dedup(out);
    }
    let host = if let Some(inner) = auth.strip_prefix('[') {
        let (v6, after) = inner.split_once(']').unwrap_or((inner, ""));
        if after.is_empty() {
            out.push(P::Brackets);
        } else if after
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(P::Port);
        } else {
            out.push(P::Name);
        }
        if v6.parse::<Ipv6Addr>().is_err() {
            out.push(P::Name);
        }
        return dedup(out);
    } else if auth.parse::<Ipv6Addr>().is_ok() {
        return out;
    } else if let Some((name, port)) = auth.split_once(':') {
        if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) {
            out.push(P::Port);
        } else {
            out.push(P::Name);
        }
        name
    } else {
        auth
    };
    if is_address(host) {
        return dedup(out);
    }
    let name = match host.strip_prefix("*.") {
        Some(rest) => rest,
        None => host,
    };
    if name.contains('*') {
        out.push(P::Wildcard);
    } else if !name.is_ascii() {
        out.push(P::NonAscii);
    } else {
        // Spaces are reported on their own; the rest must be a name.
        let compact: String = name.chars().filter(|c| !c.is_whitespace()).collect();
        if !dns_name(&compact) {
            out.push(P::Name);
        }
    }
    dedup(out)
}

fn dedup(mut v: Vec<HostProblem>) -> Vec<HostProblem> {
    let mut seen = Vec::with_capacity(v.len());
    v.retain(|p| {
        let new = !seen.contains(p);
        seen.push(*p);
        new
    });
    v
}

/// A special-purpose destination class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Special {
    /// Cloud instance metadata: hands out the host's credentials.
    Metadata,
    Loopback,
    LinkLocal,
    Private,
    /// A name that only resolves inside a private network.
    PrivateName,
}

impl Special {
    pub fn as_str(self) -> &'static str {
        match self {
            Special::Metadata => "cloud-metadata",
            Special::Loopback => "loopback",
            Special::LinkLocal => "link-local",
            Special::Private => "private",
            Special::PrivateName => "private-name",
        }
    }
}

const V4: &[(u32, u8, Special)] = &[
    (0xa9fe_a9fe, 32, Special::Metadata), // 169.254.169.254: AWS, GCP, Azure, OCI, ...
    (0xa9fe_aa02, 32, Special::Metadata), // 169.254.170.2: ECS task credentials
    (0x6464_64c8, 32, Special::Metadata), // 100.100.100.200: Alibaba Cloud
    (0xa83f_8110, 32, Special::Metadata), // 168.63.129.16: Azure wire server
    (0x7f00_0000, 8, Special::Loopback),
    (0xa9fe_0000, 16, Special::LinkLocal),
    (0x0a00_0000, 8, Special::Private),
    (0xac10_0000, 12, Special::Private),
    (0xc0a8_0000, 16, Special::Private),
    (0x6440_0000, 10, Special::Private), // shared address space (carrier NAT)
];

const V6: &[(u128, u8, Special)] = &[
    (
        0xfd00_0ec2_0000_0000_0000_0000_0000_0254,
        128,
        Special::Metadata,
    ), // AWS IMDS over IPv6
    (1, 128, Special::Loopback),
    (0xfe80 << 112, 10, Special::LinkLocal),
    (0xfc00 << 112, 7, Special::Private),
];

/// The IPv4 address embedded in an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64
/// (`64:ff9b::a.b.c.d`) address.
fn embedded_v4(a: Ipv6Addr) -> Option<Ipv4Addr> {
    let v = u128::from(a);
    let top = v >> 32;
    (top == 0xffff || top == 0x0064_ff9b_0000_0000_0000_0000)
        .then(|| Ipv4Addr::from((v & 0xffff_ffff) as u32))
}

/// Whether [a1, a1+2^(w-p1)) and [a2, a2+2^(w-p2)) overlap, in a `w`-bit
/// space: true when the shorter prefix contains the other's base.
fn overlaps(a1: u128, p1: u8, a2: u128, p2: u8, w: u8) -> bool {
    let p = p1.min(p2);
    let shift = u32::from(w - p);
    let m = if shift >= 128 {
        0
    } else {
        u128::MAX >> shift << shift
    };
    let m = if w == 32 { m & 0xffff_ffff } else { m };
    a1 & m == a2 & m
}

fn special_v4(a: u32, prefix: u8) -> Vec<Special> {
    V4.iter()
        .filter(|(b, p, _)| overlaps(u128::from(a), prefix, u128::from(*b), *p, 32))
        .map(|(_, _, s)| *s)
        .collect()
}

fn special_v6(a: Ipv6Addr, prefix: u8) -> Vec<Special> {
    if prefix >= 96 {
        if let Some(v4) = embedded_v4(a) {
            return special_v4(u32::from(v4), prefix - 96);
        }
    }
    let mut out: Vec<Special> = V6
        .iter()
        .filter(|(b, p, _)| overlaps(u128::from(a), prefix, *b, *p, 128))
        .map(|(_, _, s)| *s)
        .collect();
    if prefix < 96 {
        // A wide v6 range also covers the mapped IPv4 space.
        for ipv4_space in [0xffff_u128 << 32, 0x0064_ff9b_u128 << 96] {
            if overlaps(u128::from(a), prefix, ipv4_space, 96, 128) {
                out.extend(special_v4(0, 0));
            }
        }
    }
    out
}

/// Host names of metadata services.
const METADATA_NAMES: &[&str] = &[
    "metadata.google.internal",
    "metadata.goog",
    "metadata",
    "instance-data",
    "instance-data.ec2.internal",
];
/// Suffixes of names that resolve only inside a private network: a
/// cluster's service names (`vault.vault.svc`, `*.svc.cluster.local`),
/// Consul's (`vault.service.consul`), and the private-use zones.
const PRIVATE_SUFFIXES: &[&str] = &[
    "svc",
    "consul",
    "internal",
    "local",
    "localdomain",
    "lan",
    "home.arpa",
    "intranet",
    "corp",
];

/// What a public DNS service answers for the names under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// The address written in the name (wildcard-IP services), or each of
    /// several in turn (rebinding services).
    InName,
    /// Loopback, whatever the name.
    Loopback,
}

/// Public services whose answer the name's writer chooses, matched as the
/// zone or any name under it.
pub(super) const ADDRESS_IN_NAME: &[(&str, Answer)] = &[
    // 10.0.0.1.nip.io, app-10-0-0-1.nip.io, 0a000001.nip.io
    ("nip.io", Answer::InName),
    // as nip.io, and IPv6 as `--1.sslip.io`
    ("sslip.io", Answer::InName),
    ("xip.io", Answer::InName),
    // 10.0.0.1.traefik.me, else loopback
    ("traefik.me", Answer::InName),
    // make-1.2.3.4-rebind-169.254.169.254-rr.1u.ms
    ("1u.ms", Answer::InName),
    // 7f000001.a9fea9fe.rbndr.us
    ("rbndr.us", Answer::InName),
    // Singularity: s-1.2.3.4-169.254.169.254-N-fs-e.d.rebind.it
    ("rebind.it", Answer::InName),
    ("localtest.me", Answer::Loopback),
    ("lvh.me", Answer::Loopback),
    ("vcap.me", Answer::Loopback),
    ("localhost.direct", Answer::Loopback),
    ("lacolhost.com", Answer::Loopback),
];

/// Whether `host` is `zone` or a name under it.
pub(super) fn in_zone(host: &str, zone: &str) -> bool {
    host == zone || host.strip_suffix(zone).is_some_and(|r| r.ends_with('.'))
}

/// The service of [`ADDRESS_IN_NAME`] a name (or wildcard) is under.
pub(super) fn address_in_name(name: &str) -> Option<(&'static str, Answer)> {
    let n = name.trim_start_matches("*.");
    ADDRESS_IN_NAME.iter().find(|(z, _)| in_zone(n, z)).copied()
}

/// Every address a wildcard-IP or rebinding name can spell, in the forms
/// those services read: four decimal parts separated by `.` or `-`
/// (`10.0.0.1`, `10-0-0-1`, also split across labels), eight hex digits
/// (`0a000001`), and IPv6 with `-` for `:` (`--1`, `fd00-ec2--254`).
/// Where a run of numbers can be read more than one way, every reading
/// counts: the address the service answers is the writer's choice.
fn addresses_in_name(sub: &str) -> Vec<IpAddr> {
    let mut out = Vec::new();
    let tokens: Vec<&str> = sub.split(['.', '-']).collect();
    let octet = |t: &str| {
        (!t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u8>().ok())
            .flatten()
    };
    let octets: Vec<Option<u8>> = tokens.iter().map(|t| octet(t)).collect();
    for w in octets.windows(4) {
        if let [Some(a), Some(b), Some(c), Some(d)] = *w {
            out.push(IpAddr::V4(Ipv4Addr::new(a, b, c, d)));
        }
    }
    for t in &tokens {
        if t.len() == 8 {
            if let Ok(v) = u32::from_str_radix(t, 16) {
                out.push(IpAddr::V4(Ipv4Addr::from(v)));
            }
        }
    }
    // A DNS label has at most 63 bytes; a longer one spells no address,
    // and trying every `-` of it would cost its length squared.
    for label in sub.split('.').filter(|l| l.len() <= 63) {
        let starts = std::iter::once(0).chain(label.match_indices('-').map(|(i, _)| i + 1));
        for i in starts {
            let v6 = label.get(i..).unwrap_or("").replace('-', ":");
            if let Ok(a) = v6.parse::<Ipv6Addr>() {
                out.push(IpAddr::V6(a));
            }
        }
    }
    out
}

/// What a name under a wildcard-IP or rebinding service reaches: the
/// specials of every address written in it, or private where it spells
/// none (the service answers what its owner, or the name's, chooses).
fn service_special(name: &str, zone: &str, answer: Answer) -> Vec<Special> {
    if answer == Answer::Loopback {
        return vec![Special::Loopback];
    }
    let sub = name.strip_suffix(zone).unwrap_or("").trim_end_matches('.');
    let addrs = addresses_in_name(sub);
    if addrs.is_empty() {
        return vec![Special::Private];
    }
    addrs
        .into_iter()
        .flat_map(|a| match a {
            IpAddr::V4(v4) => special_v4(u32::from(v4), 32),
            IpAddr::V6(v6) => special_v6(v6, 128),
        })
        .collect()
}

fn name_special(name: &str) -> Vec<Special> {
    let n = name.trim_start_matches("*.");
    if METADATA_NAMES.contains(&n) {
        return vec![Special::Metadata];
    }
    if n == "localhost"
        || n.ends_with(".localhost")
        || n == "ip6-localhost"
        || n == "ip6-loopback"
        || n == "localhost.localdomain"
    {
        return vec![Special::Loopback];
    }
    if let Some((zone, answer)) = address_in_name(n) {
        return service_special(n, zone, answer);
    }
    if PRIVATE_SUFFIXES
        .iter()
        .any(|s| n == *s || n.ends_with(&format!(".{s}")))
    {
        return vec![Special::PrivateName];
    }
    Vec::new()
}

/// The special destinations a declared destination reaches, worst first,
/// without repeats.
pub(super) fn specials(d: &Dest) -> Vec<Special> {
    let mut out = match d {
        Dest::Any(_) => special_v4(0, 0),
        Dest::Name(n) | Dest::Wildcard(n) => name_special(n),
        Dest::Ip {
            addr: IpAddr::V4(a),
            ..
        } => special_v4(u32::from(*a), 32),
        Dest::Ip {
            addr: IpAddr::V6(a),
            ..
        } => special_v6(*a, 128),
        Dest::Net {
            addr: IpAddr::V4(a),
            prefix,
        } => special_v4(u32::from(*a), *prefix),
        Dest::Net {
            addr: IpAddr::V6(a),
            prefix,
        } => special_v6(*a, *prefix),
    };
    crate::sort::sort(&mut out);
    out.dedup();
    out
}

/// Why a destination is wider than one service, if it is.
pub(super) fn breadth(d: &Dest) -> Option<String> {
    match d {
        Dest::Any(s) => Some(format!("`{s}` matches every destination")),
        Dest::Wildcard(s) => Some(format!("`{s}` matches every name under it, including ones created later")),
        Dest::Name(n) if !n.contains('.') && name_special(n).is_empty() => Some(format!(
            "`{n}` is a single label: a top-level domain, or a name the resolver completes with its search list"
        )),
        Dest::Net { addr: IpAddr::V4(_), prefix } if *prefix < 24 => {
            Some(format!("`{}` spans {} addresses", d.display(), 1u64 << (32 - u32::from(*prefix))))
        }
        Dest::Net { addr: IpAddr::V6(_), prefix } if *prefix < 64 => {
            Some(format!("`{}` spans more than one /64 network", d.display()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sp(h: &str) -> Vec<Special> {
        specials(&parse(h))
    }

    #[test]
    fn parsing_reduces_to_the_host() {
        assert_eq!(
            parse("https://PyPI.org:443/simple"),
            Dest::Name("pypi.org".into())
        );
        assert_eq!(
            parse("pypi.internal.example."),
            Dest::Name("pypi.internal.example".into())
        );
        assert_eq!(
            parse("http://user:pw@10.0.0.1/x"),
            Dest::Ip {
                addr: "10.0.0.1".parse().unwrap(),
                unusual: false
            }
        );
        assert_eq!(
            parse("[fd00:ec2::254]:80"),
            Dest::Ip {
                addr: "fd00:ec2::254".parse().unwrap(),
                unusual: false
            }
        );
        assert_eq!(
            parse("10.1.2.3/8"),
            Dest::Net {
                addr: "10.0.0.0".parse().unwrap(),
                prefix: 8
            }
        );
        assert_eq!(
            parse("10.1.2.3/32"),
            Dest::Ip {
                addr: "10.1.2.3".parse().unwrap(),
                unusual: false
            }
        );
        assert!(matches!(parse("*"), Dest::Any(_)));
        assert!(matches!(parse(""), Dest::Any(_)));
        assert!(matches!(parse("0.0.0.0"), Dest::Any(_)));
        assert!(matches!(parse("::"), Dest::Any(_)));
        assert!(matches!(parse("*.example.com"), Dest::Wildcard(_)));
        assert!(matches!(parse("0.0.0.0/0"), Dest::Net { prefix: 0, .. }));
    }

    #[test]
    fn unusual_ipv4_notations() {
        for h in [
            "2852039166",
            "0xa9fea9fe",
            "0251.0376.0251.0376",
            "169.254.43518",
            "0xa9.0xfe.0xa9.0xfe",
        ] {
            assert_eq!(
                parse(h),
                Dest::Ip {
                    addr: "169.254.169.254".parse().unwrap(),
                    unusual: true
                },
                "{h}"
            );
        }
        assert_eq!(
            parse("127.1"),
            Dest::Ip {
                addr: "127.0.0.1".parse().unwrap(),
                unusual: true
            }
        );
        assert_eq!(parse("1.2.3.256"), Dest::Name("1.2.3.256".into()));
        assert_eq!(parse("123.com"), Dest::Name("123.com".into()));
        assert_eq!(parse("09.1.1.1"), Dest::Name("09.1.1.1".into()));
    }

    /// A dotted quad with leading zeros reads as octal to `inet_aton` and
    /// as decimal to others: the reading that reaches a special range wins.
    #[test]
    fn leading_zeros_are_judged_by_the_riskier_reading() {
        for (h, want) in [
            ("010.0.0.1", "10.0.0.1"),
            ("010.8.8.8", "10.8.8.8"),
            ("0127.0.0.1", "127.0.0.1"),
            ("0169.0254.0169.0254", "169.254.169.254"),
            ("0192.0168.01.01", "192.168.1.1"),
            ("0251.0376.0251.0376", "169.254.169.254"),
            ("010.010.010.010", "10.10.10.10"),
            ("012.0.0.1", "10.0.0.1"),
            ("011.0.0.1", "9.0.0.1"),
        ] {
            let d = parse(h);
            assert_eq!(
                d,
                Dest::Ip {
                    addr: want.parse().unwrap(),
                    unusual: true
                },
                "{h}"
            );
        }
        assert!(!specials(&parse("0127.0.0.1")).is_empty());
        assert!(!specials(&parse("010.0.0.1")).is_empty());
    }

    #[test]
    fn special_ranges() {
        assert_eq!(
            sp("169.254.169.254"),
            vec![Special::Metadata, Special::LinkLocal]
        );
        assert_eq!(
            sp("http://169.254.169.254/latest/meta-data"),
            vec![Special::Metadata, Special::LinkLocal]
        );
        assert_eq!(
            sp("fd00:ec2::254"),
            vec![Special::Metadata, Special::Private]
        );
        assert_eq!(
            sp("::ffff:169.254.169.254"),
            vec![Special::Metadata, Special::LinkLocal]
        );
        assert_eq!(
            sp("64:ff9b::a9fe:a9fe"),
            vec![Special::Metadata, Special::LinkLocal]
        );
        assert_eq!(sp("metadata.google.internal"), vec![Special::Metadata]);
        assert_eq!(sp("127.0.0.53"), vec![Special::Loopback]);
        assert_eq!(sp("::1"), vec![Special::Loopback]);
        assert_eq!(sp("localhost"), vec![Special::Loopback]);
        assert_eq!(sp("app.localhost"), vec![Special::Loopback]);
        assert_eq!(sp("10.20.30.40"), vec![Special::Private]);
        assert_eq!(sp("172.16.0.1"), vec![Special::Private]);
        assert_eq!(sp("172.32.0.1"), Vec::<Special>::new());
        assert_eq!(sp("192.168.1.1"), vec![Special::Private]);
        assert_eq!(sp("100.64.0.1"), vec![Special::Private]);
        assert_eq!(sp("fe80::1"), vec![Special::LinkLocal]);
        assert_eq!(sp("fd12::1"), vec![Special::Private]);
        assert_eq!(sp("db.internal"), vec![Special::PrivateName]);
        assert_eq!(sp("printer.local"), vec![Special::PrivateName]);
        assert_eq!(sp("pypi.internal.example"), Vec::<Special>::new());
        assert_eq!(sp("93.184.215.14"), Vec::<Special>::new());
        assert_eq!(sp("2606:4700::1111"), Vec::<Special>::new());
    }

    #[test]
    fn ranges_overlapping_special_space() {
        let all = sp("0.0.0.0/0");
        assert!(
            all.contains(&Special::Metadata)
                && all.contains(&Special::Private)
                && all.contains(&Special::Loopback)
        );
        assert_eq!(
            sp("169.254.0.0/16"),
            vec![Special::Metadata, Special::LinkLocal]
        );
        assert_eq!(sp("10.0.0.0/8"), vec![Special::Private]);
        assert_eq!(sp("8.0.0.0/7"), Vec::<Special>::new());
        assert_eq!(sp("172.0.0.0/8"), vec![Special::Private]);
        assert!(sp("::/0").contains(&Special::Metadata));
        assert!(sp("::/0").contains(&Special::Loopback));
        assert_eq!(sp("2001:db8::/32"), Vec::<Special>::new());
    }

    #[test]
    fn breadth_of_destinations() {
        assert!(breadth(&parse("*")).is_some());
        assert!(breadth(&parse("*.example.com")).is_some());
        assert!(breadth(&parse("com")).is_some());
        assert!(breadth(&parse("0.0.0.0/0")).is_some());
        assert!(breadth(&parse("10.0.0.0/8")).is_some());
        assert!(breadth(&parse("203.0.113.0/24")).is_none());
        assert!(breadth(&parse("2001:db8::/32")).is_some());
        assert!(breadth(&parse("2001:db8::/64")).is_none());
        assert!(breadth(&parse("pypi.org")).is_none());
        assert!(breadth(&parse("localhost")).is_none());
        assert!(breadth(&parse("metadata")).is_none());
    }

    #[test]
    fn host_syntax_table() {
        use HostProblem as P;
        let table: &[(&str, &[HostProblem])] = &[
            // valid: names, addresses, ranges, a leading wildcard
            ("pypi.internal.example", &[]),
            ("PyPI.org", &[]),
            ("pypi.org.", &[]),
            ("xn--bcher-kva.example", &[]),
            ("a-b_c.example", &[]),
            ("*.example.com", &[]),
            ("203.0.113.7", &[]),
            ("10.0.0.0/8", &[]),
            ("10.1.2.3/32", &[]),
            ("::1", &[]),
            ("2001:db8::1", &[]),
            ("2001:db8::/32", &[]),
            ("::ffff:169.254.169.254", &[]),
            ("2852039166", &[]),
            ("localhost", &[]),
            // matching everything: NET003's
            ("", &[P::Empty]),
            ("   ", &[P::Empty]),
            ("*", &[P::AnyWildcard]),
            // URL parts
            ("https://mirror.example", &[P::Scheme]),
            ("https://mirror.example/simple", &[P::Scheme, P::Path]),
            (
                "https://deploy:T0pS3cret@mirror.example",
                &[P::Scheme, P::Userinfo],
            ),
            ("deploy@mirror.example", &[P::Userinfo]),
            ("mirror.example/simple", &[P::Path]),
            ("mirror.example/", &[P::Path]),
            ("mirror.example?x=1", &[P::Query]),
            ("mirror.example#top", &[P::Fragment]),
            (
                "https://mirror.example:8443/a?b#c",
                &[P::Scheme, P::Query, P::Fragment, P::Path, P::Port],
            ),
            ("mirror.example:8443", &[P::Port]),
            ("host:443", &[P::Port]),
            ("[::1]:443", &[P::Port]),
            ("203.0.113.7:80", &[P::Port]),
            ("[::1]", &[P::Brackets]),
            ("[2001:db8::]/32", &[P::Brackets]),
            ("https://", &[P::Scheme, P::Name]),
            // wildcards only as a whole leading label
            ("api.*.example.com", &[P::Wildcard]),
            ("*example.com", &[P::Wildcard]),
            ("*.*.example.com", &[P::Wildcard]),
            ("https://*", &[P::Scheme, P::Wildcard]),
            // not names
            ("mirror example", &[P::Whitespace]),
            (" pypi.org", &[P::Whitespace]),
            ("bücher.example", &[P::NonAscii]),
            ("-bad.example", &[P::Name]),
            ("a..b", &[P::Name]),
            ("1.2.3.256", &[P::Name]),
            ("host:abc", &[P::Name]),
            ("fe80::1%eth0", &[P::Name]),
            ("10.0.0.0/33", &[P::Prefix]),
            ("2001:db8::/129", &[P::Prefix]),
            (&"a".repeat(64), &[P::Name]),
        ];
        assert!(table.len() >= 25);
        for (host, want) in table {
            let mut got = host_problems(host);
            let mut want = want.to_vec();
            got.sort_by_key(|p| p.as_str());
            want.sort_by_key(|p| p.as_str());
            assert_eq!(got, want, "{host:?}");
        }
    }
}
