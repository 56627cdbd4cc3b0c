//! `import::detect_and_import` parses a YAML file once for detection and
//! import; what it returns is what `detect` then `import` return, for
//! every file under `fixtures/import` (good, malformed and real ones).
//! Without source maps, only the source maps differ.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::{Path, PathBuf};

use isolint_core::import;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn detecting_and_importing_at_once_is_detecting_then_importing() {
    let mut all = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import"),
        &mut all,
    );
    all.sort();
    let mut imported = 0;
    for path in &all {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().and_then(|n| n.to_str());
        let apart = import::detect(&bytes, name).map(|f| (f, import::import(&bytes, f)));
        let together = import::detect_and_import(&bytes, name, true);
        assert_eq!(together, apart, "{}", path.display());
        let Some((format, Ok(mut units))) = apart else {
            continue;
        };
        imported += 1;
        let (f, lean) = import::detect_and_import(&bytes, name, false).unwrap();
        assert_eq!(f, format);
        let lean = lean.unwrap();
        assert!(lean.iter().all(|u| u.source_map.is_empty()));
        units.iter_mut().for_each(|u| u.source_map.clear());
        assert_eq!(lean, units, "{}", path.display());
    }
    assert!(imported >= 50, "{imported} files imported");
}
