//! Fail closed: what Docker Compose does with a file that the import cannot
//! follow is refused at its line and column, and what it can follow is read
//! the way Compose reads it, so that the audit's verdict is Compose's
//! container's. One table per class of setting.

use super::import;
use crate::import::table_tests::assert_none_wrong;

/// compose-go reads each YAML document of a file as one more layer and
/// merges them in order (`loader/multidoc_test.go`,
/// `TestLoadMultiDocumentYaml`); an empty document, as after a trailing
/// `---`, is skipped (`TestLoadMultiDocumentYaml_TrailingSeparator`). This
/// import reads one document: a second one with content is refused where
/// it starts, never read as if it were not there.
#[test]
fn a_second_yaml_document_is_refused_where_it_starts() {
    let one = "services:\n  a:\n    image: x\n    network_mode: none\n";
    let more = "services:\n  a:\n    privileged: true\n";
    let b = "services:\n  b:\n    image: y\n";
    // (file, where the refusal points, or None when the file is read)
    let table: Vec<(String, Option<(u32, u32)>)> = vec![
        (format!("{one}---\n{more}"), Some((6, 1))),
        (format!("{one}---\n{more}---\n{b}"), Some((6, 1))),
        (format!("{one}---\n{b}"), Some((6, 1))),
        (format!("{one}---\nx-extra: 1\n"), Some((6, 1))),
        (format!("{one}---\n---\n{more}"), Some((7, 1))),
        // An empty document is nothing to merge.
        (format!("{one}---\n"), None),
        (format!("---\n{one}"), None),
        (format!("---\n{one}...\n"), None),
    ];
    let mut wrong = Vec::new();
    for (yaml, want) in &table {
        let got = import(yaml.as_bytes());
        match (want, &got) {
            (Some((line, column)), Err(e)) => {
                let at = e.loc.map(|l| (l.line, l.column));
                let m = e.to_string();
                if at != Some((*line, *column))
                    || !m.contains("Docker Compose merges")
                    || !m.contains("second YAML document")
                {
                    wrong.push(format!("{yaml:?}: refused at {at:?}: {m}"));
                }
            }
            (Some(_), Ok(_)) => wrong.push(format!("{yaml:?}: read, not refused")),
            (None, Err(e)) => wrong.push(format!("{yaml:?}: refused: {e}")),
            (None, Ok(_)) => {}
        }
    }
    assert_none_wrong(&wrong, table.len());
}
