//! Writes synthetic benchmark inputs:
//! `gen catalog N OUT`, `gen profile N OUT`, `gen batch COUNT DIR` (COUNT realistic profiles).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use isolint_core::synth;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = |i: usize| {
        args.get(i)
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or_else(|| usage())
    };
    match args.first().map(String::as_str) {
        Some("catalog") => write(&args, 2, &synth::catalog(n(1))),
        Some("profile") => write(&args, 2, &synth::profile(n(1), 0)),
        Some("batch") => {
            let count = n(1);
            let dir = std::path::PathBuf::from(args.get(2).unwrap_or_else(|| usage()));
            std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(&e));
            for i in 0..count {
                // Realistic size: 4 to 12 mounts, like the workshop profiles.
                let text = synth::profile(4 + i % 9, i);
                std::fs::write(dir.join(format!("p{i:05}.json")), text)
                    .unwrap_or_else(|e| fail(&e));
            }
        }
        _ => usage(),
    }
}

fn write(args: &[String], i: usize, text: &str) {
    let out = args.get(i).unwrap_or_else(|| usage());
    std::fs::write(out, text).unwrap_or_else(|e| fail(&e));
}

fn fail(e: &dyn std::fmt::Display) -> ! {
    eprintln!("gen: {e}");
    std::process::exit(2)
}

fn usage() -> ! {
    eprintln!("usage: gen catalog N OUT | gen profile N OUT | gen batch COUNT DIR");
    std::process::exit(2)
}
