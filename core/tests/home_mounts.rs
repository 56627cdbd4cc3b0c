//! Home directories (issue 44, §3): binding a project directory inside a
//! home, or one file such as `~/.gitconfig`, is not "the home directory
//! is mounted"; a bind of the home itself, or of something above it such
//! as `/`, still is. Credential stores under a home stay credentials, and
//! a directory that holds one still exposes it.
//!
//! Each row adds one read-only mount to the hardened workshop profile and
//! names the rules expected (and not expected) at that mount.

use isolint_core::{audit, AuditOptions, Labels};

fn rules_at(source: &str) -> Vec<&'static str> {
    let mut p: serde_json::Value =
        serde_json::from_str(include_str!("../../fixtures/profiles/workshop-fixed.json")).unwrap();
    p["mounts"].as_array_mut().unwrap().push(serde_json::json!({
        "source": source, "target": "/mnt/h", "access": "read-only"
    }));
    let r = audit(
        p.to_string().as_bytes(),
        "t.json",
        &Labels::workshop(),
        &AuditOptions { today: None },
    )
    .unwrap();
    r.issues
        .iter()
        .filter(|f| f.pointer == "/mounts/2/source")
        .map(|f| f.rule)
        .collect()
}

/// (source, rules that must fire, rules that must not)
type Row = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const TABLE: &[Row] = &[
    // The home itself, however it is written.
    ("/home/u", &["MNT001", "MNT005"], &[]),
    ("/home/u/", &["MNT001"], &[]),
    ("/home//u/./", &["MNT001"], &[]),
    ("/home/u/src/..", &["MNT001"], &[]),
    ("/root", &["MNT001"], &[]),
    ("/Users/u", &["MNT001"], &[]),
    ("~", &["MNT001"], &[]),
    ("$HOME", &["MNT001"], &[]),
    ("${HOME}/", &["MNT001"], &[]),
    ("~u", &["MNT001"], &[]),
    ("C:\\Users\\u", &["MNT001"], &[]),
    // Above every home: the homes are exposed.
    ("/home", &["MNT001"], &[]),
    ("/", &["MNT005"], &[]),
    // A project directory or one file inside a home: not the home.
    ("/home/u/src/proj", &[], &["MNT001", "MNT005"]),
    ("/home/u/work", &[], &["MNT001", "MNT005"]),
    ("/home/u/.gitconfig", &[], &["MNT001", "MNT005"]),
    ("/home/u/.bashrc", &[], &["MNT001", "MNT005"]),
    ("/root/proj", &[], &["MNT001", "MNT005"]),
    ("/Users/u/code/app", &[], &["MNT001", "MNT005"]),
    ("~/src/proj", &[], &["MNT001", "MNT005"]),
    ("~/.gitconfig", &[], &["MNT001", "MNT005"]),
    ("$HOME/proj", &[], &["MNT001", "MNT005"]),
    ("C:\\Users\\u\\proj", &[], &["MNT001", "MNT005"]),
    // Credential stores under a home stay credentials.
    ("/home/u/.aws", &["MNT002"], &["MNT001"]),
    ("/home/u/.ssh/id_ed25519", &["MNT002"], &["MNT001"]),
    ("~/.aws", &["MNT002"], &["MNT001"]),
    ("/root/.kube/config", &["MNT002"], &["MNT001"]),
    ("/home/u/.config/gcloud", &["MNT002"], &["MNT001"]),
    // The home's own state directories hold other programs' secrets.
    ("/home/u/.config", &["MNT001", "MNT005"], &[]),
    ("/home/u/.local/share", &["MNT001"], &[]),
    ("/home/u/.mozilla", &["MNT001"], &[]),
    ("/Users/u/Library", &["MNT001"], &[]),
];

#[test]
fn a_directory_inside_a_home_is_not_the_home() {
    let mut failed = Vec::new();
    for (source, must, must_not) in TABLE {
        let got = rules_at(source);
        let missing: Vec<_> = must.iter().filter(|r| !got.contains(r)).collect();
        let extra: Vec<_> = must_not.iter().filter(|r| got.contains(r)).collect();
        if !missing.is_empty() || !extra.is_empty() {
            failed.push(format!(
                "{source}: missing {missing:?}, unwanted {extra:?} (got {got:?})"
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        TABLE.len(),
        failed.join("\n")
    );
}
