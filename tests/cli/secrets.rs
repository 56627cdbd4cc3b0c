//! No secret and no raw control character on any stream.

use crate::common::*;

pub(crate) const SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
pub(crate) const KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";

pub(crate) fn hostile_profile() -> String {
    format!(
        r#"{{
  "schema": "isolint.profile/v1",
  "name": "evil\u001b[2J\u001b]0;owned\u0007name",
  "purpose": "\u009b31mC1 escape\u0085 and \u001b[31mred",
  "boundary": {{ "kind": "container", "label": "\u001b]8;;http://x.example\u0007hardened\u001b]8;;\u0007" }},
  "mounts": [
    {{ "source": "/home/botie/\u001b[8m.aws", "target": "/creds\u0007", "access": "read-only" }}
  ],
  "environment": {{
    "inherit": true,
    "variables": {{ "AWS_ACCESS_KEY_ID": "{KEY_ID}", "AWS_SECRET_ACCESS_KEY": "{SECRET}", "X\u001b[0m": "y" }}
  }},
  "command": {{ "executable": "python", "arguments": ["-c", "print('{SECRET}')", "\u001b[1m"] }}
}}
"#
    )
}

#[test]
fn no_secret_and_no_raw_control_character_reaches_any_output() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "hostile.json", hostile_profile().as_bytes());
    let sgr = regex::Regex::new(r"\x1b\[[0-9;]*m").unwrap();
    for format in ["text", "json", "sarif"] {
        for color in ["never", "always"] {
            let run = isolint_in(
                tmp.path(),
                [
                    "audit",
                    "--today",
                    TODAY,
                    "--color",
                    color,
                    "--format",
                    format,
                    "hostile.json",
                ],
                None,
            );
            run.expect_code(1);
            let out = run.stdout_str();
            for secret in [SECRET, KEY_ID, "wJalrXUtnFEMI"] {
                assert!(!out.contains(secret), "{format}: secret leaked");
                assert!(
                    !run.stderr.contains(secret),
                    "{format}: secret leaked on stderr"
                );
            }
            // Colour codes are the only ESC allowed, and only in coloured text.
            let stripped = sgr.replace_all(&out, "");
            let check = if format == "text" && color == "always" {
                stripped.to_string()
            } else {
                out.clone()
            };
            let bad: Vec<char> = check.chars().filter(|&c| is_raw_control(c)).collect();
            assert!(
                bad.is_empty(),
                "{format}/{color}: raw control characters {bad:?}"
            );
            if format != "text" {
                // Escaped in JSON (`\u001b`) would still decode to ESC: check
                // every decoded string too.
                let mut all = Vec::new();
                strings(&run.json(), &mut all);
                for s in &all {
                    assert!(
                        !s.contains(SECRET) && !s.contains(KEY_ID),
                        "{format}: secret in a string"
                    );
                    assert!(
                        !s.chars().any(is_raw_control),
                        "{format}: control character in {s:?}"
                    );
                }
            }
        }
    }
}

// ---- waivers ------------------------------------------------------------
