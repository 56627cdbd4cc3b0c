//! Issue 21 item 4: a user is read as each runtime reads it. runc, Docker
//! and Compose parse `uid[:gid]` with Go's `strconv.Atoi` (a sign and
//! leading zeros are accepted) and look other text up in the image; the
//! Kubernetes API server reads YAML 1.1 integers (through JSON, so `0.0`
//! is 0) and allows 0..2147483647; runc decodes OCI ids as `uint32`.
//! Every spelling a runtime reads as uid 0, or that it could read more
//! than one way, is root here (PRV004 at high severity), or the import
//! refuses the file with a position. Plain non-root users stay non-root,
//! so the table can fail.

use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Labels, Severity};

#[derive(Debug, PartialEq)]
enum Read {
    /// The import refused the file, naming line and column.
    Refused,
    /// PRV004 at high severity: root, or a user that may be root.
    Root,
    /// PRV004 at low severity: a non-root user whose group is root.
    RootGroup,
    /// No PRV004: an unprivileged user.
    User,
}

fn read(bytes: &str, format: Format) -> Read {
    let units = match import::import(bytes.as_bytes(), format) {
        Ok(u) => u,
        Err(e) => {
            assert!(e.loc.is_some(), "{bytes}: error without position: {e}");
            return Read::Refused;
        }
    };
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let u = units.first().expect("a profile");
    let r = isolint_core::audit::audit_imported(
        u,
        "input",
        &Labels::workshop(),
        &options,
        None,
        &isolint_core::InOrder,
    )
    .unwrap();
    match r.issues.iter().find(|f| f.rule == "PRV004") {
        Some(f) if f.severity == Severity::Low => Read::RootGroup,
        Some(_) => Read::Root,
        None => Read::User,
    }
}

fn compose(user: &str) -> String {
    format!("services:\n  a:\n    image: x\n    user: {user}\n")
}

fn k8s(sc: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n  containers:\n  - name: c\n    image: x\n    securityContext: {{{sc}}}\n"
    )
}

fn oci(user: &str) -> String {
    format!(
        "{{\"ociVersion\": \"1.0.2\", \"process\": {{\"args\": [\"sh\"], \"user\": {user}}}, \"root\": {{\"path\": \"rootfs\"}}}}"
    )
}

fn root_or_refused(r: &Read) -> bool {
    matches!(r, Read::Root | Read::Refused)
}

#[test]
fn compose_users_as_docker_reads_them() {
    for u in [
        "0",
        "\"0\"",
        "+0",
        "\"-0\"",
        "00",
        "\"+00\"",
        "0x0",
        "0o0",
        "0.0",
        "0e0",
        "\" 0\"",
        "\"0 \"",
        "\"0:\"",
        "\":0\"",
        "root",
        "\"root:x\"",
        "4294967296",
        "\"-1\"",
        "\"١\"",
        "\"0:0:0\"",
        "\"ROOT\"",
        "\"0\\t\"",
        // Not a string: Compose's schema refuses it.
        "true",
        "[0]",
        "{uid: 0}",
    ] {
        let got = read(&compose(u), Format::Compose);
        assert!(root_or_refused(&got), "user: {u} read as {got:?}");
    }
    for u in ["\"1000:0\"", "\"app:root\"", "\"1000:+0\"", "\"1000:00\""] {
        let got = read(&compose(u), Format::Compose);
        assert!(
            matches!(got, Read::RootGroup | Read::Root | Read::Refused),
            "user: {u} read as {got:?}"
        );
    }
    for u in ["1000", "\"1000:1000\"", "app", "\"app:app\""] {
        assert_eq!(read(&compose(u), Format::Compose), Read::User, "user: {u}");
    }
}

#[test]
fn kubernetes_ids_as_the_api_server_reads_them() {
    for sc in [
        "runAsUser: 0",
        "runAsUser: +0",
        "runAsUser: -0",
        "runAsUser: 00",
        "runAsUser: 0x0",
        "runAsUser: 0o0",
        "runAsUser: 0b0",
        "runAsUser: 0.0",
        "runAsUser: -0.0",
        "runAsUser: 0e3",
        "runAsUser: .0",
        "runAsUser: 0_0",
        "runAsUser: \"0\"",
        "runAsUser: 4294967296",
        "runAsUser: 2147483648",
        "runAsUser: -1",
        "runAsUser: 0.5",
        "runAsUser: true",
        "runAsUser: ١",
        "runAsUser: [0]",
        "runAsNonRoot: \"true\"",
        "runAsNonRoot: 1",
        "runAsGroup: 1000",
    ] {
        let got = read(&k8s(sc), Format::Kubernetes);
        assert!(root_or_refused(&got), "{sc}: read as {got:?}");
    }
    for sc in [
        "runAsUser: 1000, runAsGroup: 0",
        "runAsUser: 1000, runAsGroup: 0x0",
        "runAsUser: 1000, runAsGroup: 0.0",
    ] {
        let got = read(&k8s(sc), Format::Kubernetes);
        assert!(
            matches!(got, Read::RootGroup | Read::Root | Read::Refused),
            "{sc}: read as {got:?}"
        );
    }
    for sc in [
        "runAsUser: 1000",
        "runAsUser: 1000, runAsGroup: 1000",
        "runAsUser: 0x3E8",
        "runAsUser: 1e3",
        "runAsNonRoot: true",
    ] {
        assert_eq!(read(&k8s(sc), Format::Kubernetes), Read::User, "{sc}");
    }
}

#[test]
fn oci_ids_as_runc_decodes_them() {
    for u in [
        "{\"uid\": 0}",
        "{\"uid\": 0, \"gid\": 0}",
        "{\"uid\": -0}",
        "{\"uid\": 0.0}",
        "{\"uid\": 0e0}",
        "{\"uid\": \"0\"}",
        "{\"uid\": 4294967296}",
        "{\"uid\": -1}",
        "{\"uid\": true}",
        "{\"uid\": null}",
        "{}",
        "{\"username\": \"ContainerAdministrator\"}",
        "{\"uid\": 1000, \"gid\": 4294967296}",
    ] {
        let got = read(&oci(u), Format::Oci);
        assert!(root_or_refused(&got), "user {u}: read as {got:?}");
    }
    assert_eq!(
        read(&oci("{\"uid\": 1000, \"gid\": 0}"), Format::Oci),
        Read::RootGroup
    );
    assert_eq!(
        read(&oci("{\"uid\": 1000, \"gid\": 1000}"), Format::Oci),
        Read::User
    );
}
