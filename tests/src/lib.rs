//! Support for the acceptance suites: find (and build) the `isolint`
//! binary, run it from the workspace root, and validate JSON against the
//! project's own JSON Schemas.
//!
//! Why a build step: `CARGO_BIN_EXE_<name>` exists only for tests of the
//! package that owns the binary, and this package is a separate workspace
//! member. So the first test that needs the binary runs
//! `cargo build -p isolint` into the same target directory and profile as
//! the running test (a no-op when it is up to date). Set `ISOLINT_BIN` to
//! test another build instead (e.g. `target/release/isolint`).

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::Value;

/// The workspace root (the parent of this package's folder).
pub fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// `<target>/<profile>` of the running test executable
/// (`<target>/<profile>/deps/<test>-<hash>`).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("test executable lives in <target>/<profile>/deps")
        .to_path_buf()
}

/// The `isolint` binary under test, built on first use, with the test-only
/// `fault-injection` feature (`ISOLINT_VERIFY_FAULT`; release builds lack it).
pub fn bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(p) = std::env::var_os("ISOLINT_BIN") {
            return PathBuf::from(p);
        }
        let profile_dir = profile_dir();
        let target_dir = profile_dir.parent().expect("target dir").to_path_buf();
        let profile = match profile_dir.file_name().and_then(OsStr::to_str) {
            Some("debug") | None => "dev".to_string(),
            Some(other) => other.to_string(),
        };
        let cargo = std::env::var_os("CARGO")
            .or_else(|| option_env!("CARGO").map(Into::into))
            .unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "isolint",
                "--bin",
                "isolint",
                // The verify suites inject faults; every suite uses this
                // one binary, so that builds never alternate.
                "--features",
                "fault-injection",
                "--profile",
                &profile,
            ])
            .arg("--manifest-path")
            .arg(root().join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&target_dir)
            // The outer cargo's jobserver is not ours to use.
            .env_remove("CARGO_MAKEFLAGS")
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .output()
            .expect("run cargo build -p isolint");
        assert!(
            out.status.success(),
            "cargo build -p isolint failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let exe = profile_dir.join(format!("isolint{}", std::env::consts::EXE_SUFFIX));
        assert!(exe.is_file(), "no binary at {}", exe.display());
        exe
    })
}

/// What one run of the binary produced.
#[derive(Debug)]
pub struct Run {
    /// The exit code (`None` when killed by a signal).
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn stdout_str(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}):\n{}",
                String::from_utf8_lossy(&self.stdout)
            )
        })
    }
    /// Assert the exit code and that nothing panicked.
    pub fn expect_code(&self, code: i32) -> &Self {
        assert!(
            !self.stderr.contains("panicked") && !self.stderr.contains("RUST_BACKTRACE"),
            "the binary panicked:\n{}",
            self.stderr
        );
        assert_eq!(
            self.code,
            Some(code),
            "exit code; stderr:\n{}\nstdout:\n{}",
            self.stderr,
            String::from_utf8_lossy(&self.stdout)
        );
        self
    }
}

/// Run `isolint ARGS` from the workspace root, colour variables cleared.
pub fn isolint<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    isolint_in(&root(), args, None)
}

/// Run `isolint ARGS` in `dir`, with `stdin` piped in when given.
pub fn isolint_in<I, S>(dir: &Path, args: I, stdin: Option<&[u8]>) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("RUST_BACKTRACE")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn isolint");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("stdin");
        // The binary may stop reading early (size limit); a closed pipe is fine.
        let _ = pipe.write_all(bytes);
    }
    let out = child.wait_with_output().expect("wait for isolint");
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Profiles under `fixtures/profiles/`, sorted by name.
pub fn fixture_profiles() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fixtures/profiles"))
        .expect("fixtures/profiles")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

/// Whether `c` must never reach a terminal raw: C0 controls other than
/// newline, DEL, and C1 controls (CSI U+009B included).
pub fn is_raw_control(c: char) -> bool {
    c != '\n' && c.is_control()
}

/// Every string (keys included) in a JSON value.
pub fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                strings(v, out);
            }
        }
        _ => {}
    }
}

/// A validator for the JSON Schema keywords the project's schemas use:
/// `$ref` (local), `type`, `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, `items`, `minimum`, `maximum`, `minLength`,
/// `pattern`, `uniqueItems`. An unsupported keyword fails validation, so a
/// schema cannot silently outgrow this checker.
pub struct Validator<'a> {
    root: &'a Value,
}

const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "title",
    "description",
    "examples",
    "default",
];

impl<'a> Validator<'a> {
    pub fn new(root: &'a Value) -> Self {
        Validator { root }
    }

    /// Every violation, as `pointer: problem` lines.
    pub fn validate(&self, instance: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        self.check(self.root, instance, "", &mut errors);
        errors
    }

    fn resolve(&self, reference: &str) -> &'a Value {
        let ptr = reference
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("only local $ref: {reference}"));
        self.root
            .pointer(ptr)
            .unwrap_or_else(|| panic!("dangling $ref {reference}"))
    }

    fn check(&self, schema: &'a Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let Some(s) = schema.as_object() else {
            if schema == &Value::Bool(false) {
                errors.push(format!("{at}: not allowed"));
            }
            return;
        };
        for (key, kw) in s {
            match key.as_str() {
                k if ANNOTATIONS.contains(&k) => {}
                "$ref" => self.check(
                    self.resolve(kw.as_str().expect("$ref string")),
                    v,
                    at,
                    errors,
                ),
                "oneOf" => {
                    let subs = kw.as_array().expect("oneOf array");
                    let matching = subs
                        .iter()
                        .filter(|sub| {
                            let mut e = Vec::new();
                            self.check(sub, v, at, &mut e);
                            e.is_empty()
                        })
                        .count();
                    if matching != 1 {
                        errors.push(format!(
                            "{at}: matches {matching} of the oneOf alternatives, not exactly one"
                        ));
                    }
                }
                "type" => {
                    let types: Vec<&str> = match kw {
                        Value::String(t) => vec![t.as_str()],
                        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                        _ => panic!("bad type keyword at {at}"),
                    };
                    if !types.iter().any(|t| has_type(v, t)) {
                        errors.push(format!("{at}: expected {types:?}, found {v}"));
                    }
                }
                "enum" => {
                    if !kw.as_array().expect("enum array").contains(v) {
                        errors.push(format!("{at}: {v} is not one of {kw}"));
                    }
                }
                "const" => {
                    if kw != v {
                        errors.push(format!("{at}: {v} is not {kw}"));
                    }
                }
                "properties" => {
                    if let Some(obj) = v.as_object() {
                        for (name, sub) in kw.as_object().expect("properties object") {
                            if let Some(value) = obj.get(name) {
                                self.check(sub, value, &format!("{at}/{name}"), errors);
                            }
                        }
                    }
                }
                "required" => {
                    if let Some(obj) = v.as_object() {
                        for name in kw
                            .as_array()
                            .expect("required array")
                            .iter()
                            .filter_map(Value::as_str)
                        {
                            if !obj.contains_key(name) {
                                errors.push(format!("{at}: missing required `{name}`"));
                            }
                        }
                    }
                }
                "additionalProperties" => {
                    if let Some(obj) = v.as_object() {
                        let known = s.get("properties").and_then(Value::as_object);
                        for (name, value) in obj {
                            if known.is_some_and(|k| k.contains_key(name)) {
                                continue;
                            }
                            match kw {
                                Value::Bool(false) => {
                                    errors.push(format!("{at}: unknown field `{name}`"))
                                }
                                Value::Bool(true) => {}
                                sub => self.check(sub, value, &format!("{at}/{name}"), errors),
                            }
                        }
                    }
                }
                "items" => {
                    if let Some(items) = v.as_array() {
                        for (i, item) in items.iter().enumerate() {
                            self.check(kw, item, &format!("{at}/{i}"), errors);
                        }
                    }
                }
                "uniqueItems" => {
                    if let (Some(items), Some(true)) = (v.as_array(), kw.as_bool()) {
                        for (i, a) in items.iter().enumerate() {
                            if items.iter().skip(i + 1).any(|b| a == b) {
                                errors.push(format!("{at}: duplicate item {a}"));
                            }
                        }
                    }
                }
                "minimum" | "maximum" => {
                    if let (Some(n), Some(bound)) = (v.as_f64(), kw.as_f64()) {
                        let bad = if key == "minimum" {
                            n < bound
                        } else {
                            n > bound
                        };
                        if bad {
                            errors.push(format!("{at}: {n} violates {key} {bound}"));
                        }
                    }
                }
                "minLength" => {
                    if let (Some(t), Some(min)) = (v.as_str(), kw.as_u64()) {
                        if (t.chars().count() as u64) < min {
                            errors.push(format!("{at}: shorter than {min}"));
                        }
                    }
                }
                "pattern" => {
                    if let Some(t) = v.as_str() {
                        let re = regex::Regex::new(kw.as_str().expect("pattern string"))
                            .expect("valid pattern");
                        if !re.is_match(t) {
                            errors.push(format!("{at}: {t:?} does not match {kw}"));
                        }
                    }
                }
                other => errors.push(format!(
                    "{at}: schema keyword `{other}` is not supported by the test validator"
                )),
            }
        }
    }
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        _ => panic!("unknown type {t}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn validator_checks_what_it_claims() {
        let schema = json!({
            "type": "object", "required": ["a"], "additionalProperties": false,
            "properties": {
                "a": { "$ref": "#/$defs/small" },
                "b": { "type": "array", "items": { "enum": ["x", "y"] }, "uniqueItems": true },
                "c": { "type": "string", "pattern": "^/", "minLength": 2 }
            },
            "$defs": { "small": { "type": "integer", "minimum": 0, "maximum": 3 } }
        });
        let v = Validator::new(&schema);
        assert!(v
            .validate(&json!({"a": 1, "b": ["x"], "c": "/p"}))
            .is_empty());
        assert_eq!(
            v.validate(&json!({"b": ["z", "x", "x"], "c": "p", "d": 1}))
                .len(),
            6
        );
        assert_eq!(v.validate(&json!({"a": 4})).len(), 1);
        let unsupported = json!({"oneOf": []});
        assert_eq!(Validator::new(&unsupported).validate(&json!(1)).len(), 1);
    }
}
