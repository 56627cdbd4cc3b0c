#![no_main]
//! `isolint verify`'s spec builder (isolint_core::launch::spec) on any
//! JSON document, and the `--args` payload that carries the job's
//! environment to bubblewrap. What reaches bwrap must mean one thing:
//! every mount path is absolute and in normal form (no NUL, `.`, `..`,
//! `//`, trailing `/`), no target touches the launcher's directory, and
//! the payload splits back into exactly the variables given, so no value
//! can smuggle in an option. Raw name/value pairs (the input split at
//! 0xFF bytes) are either refused or split back the same way.
use isolint_core::launch::{covers, env_args, spec, INSIDE};
use libfuzzer_sys::fuzz_target;

fn round_trip(vars: &[(&[u8], &[u8])]) {
    let Ok(payload) = env_args(vars.iter().copied()) else {
        return;
    };
    let fields: Vec<&[u8]> = payload.split(|b| *b == 0).collect();
    assert_eq!(fields.len(), 2 + 3 * vars.len(), "fields: {fields:?}");
    assert_eq!(fields[0], b"--clearenv");
    for (i, (k, v)) in vars.iter().enumerate() {
        assert_eq!(fields[1 + 3 * i], b"--setenv");
        assert_eq!(fields[2 + 3 * i], *k);
        assert_eq!(fields[3 + 3 * i], *v);
    }
    assert_eq!(fields[fields.len() - 1], b"");
}

fuzz_target!(|data: &[u8]| {
    let raw: Vec<&[u8]> = data.split(|b| *b == 0xFF).collect();
    let pairs: Vec<(&[u8], &[u8])> = raw.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    round_trip(&pairs);

    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let Ok(s) = spec(&doc) else {
        return;
    };
    for m in &s.mounts {
        for p in [&m.source, &m.target] {
            assert!(p.starts_with('/'), "{p:?}");
            assert!(!p.contains('\0'), "{p:?}");
            assert!(p == "/" || !p.ends_with('/'), "{p:?}");
            assert!(!p.contains("//"), "{p:?}");
            assert!(!p.split('/').any(|c| c == "." || c == ".."), "{p:?}");
        }
        assert_ne!(m.target, "/");
        assert!(!covers(INSIDE, &m.target) && !covers(&m.target, INSIDE));
    }
    let vars: Vec<(&[u8], &[u8])> = s
        .variables
        .iter()
        .map(|(k, v)| (k.as_bytes(), v.as_bytes()))
        .collect();
    assert!(
        env_args(vars.iter().copied()).is_ok(),
        "a spec's variables can be set"
    );
    round_trip(&vars);
});
