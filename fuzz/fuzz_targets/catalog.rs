#![no_main]
//! Catalog bytes → parse → index → classify a few paths.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(labels) = isolint_core::Labels::load(data) {
        for p in [
            "/",
            "/home/botie",
            "/srv/workshop/scratch/x",
            "/var/run/docker.sock",
            "relative/x",
            "/a/../b",
        ] {
            let c = labels.index.classify(p);
            for e in &c.exposes {
                assert!(isolint_core::labels::contains(&c.normalized.path, &e.path));
            }
        }
    }
});
