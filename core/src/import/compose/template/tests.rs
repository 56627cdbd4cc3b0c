//! The oracle: compose-go's and go-shellwords' own test vectors, kept as
//! data under `fixtures/compose-go/`, read by this port. A vector either
//! gives compose-go's value or is refused where compose-go errs.

use super::super::shellwords;
use super::*;

fn fixture(name: &str) -> serde_json::Value {
    let text = match name {
        "interpolation" => include_str!("../../../../../fixtures/compose-go/interpolation.json"),
        _ => include_str!("../../../../../fixtures/compose-go/shellwords.json"),
    };
    serde_json::from_str(text).unwrap()
}

fn text(v: &serde_json::Value, key: &str) -> String {
    v.get(key)
        .and_then(|x| x.as_str())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn compose_go_vectors() {
    let doc = fixture("interpolation");
    let envs = doc.get("envs").unwrap();
    let vectors = doc.get("vectors").and_then(|v| v.as_array()).unwrap();
    let mut wrong = Vec::new();
    for v in vectors {
        let env = envs
            .get(text(v, "env"))
            .and_then(|e| e.as_object())
            .unwrap();
        let lookup = |name: &str| match env.get(name).and_then(|x| x.as_str()) {
            Some(s) => Var::Set(s.to_string()),
            None => Var::Unset,
        };
        let template = text(v, "template");
        let got = substitute(&template, &lookup);
        let ok = match (text(v, "error").as_str(), &got) {
            ("", Ok(i)) => i.text == text(v, "expect") && i.is_exact(),
            ("invalid", Err(TemplateError::Invalid)) => true,
            ("required", Err(TemplateError::Required { name, reason })) => {
                *name == text(v, "variable") && *reason == text(v, "reason")
            }
            _ => false,
        };
        if !ok {
            wrong.push(format!("{} {template:?}: got {got:?}", text(v, "test")));
        }
    }
    assert!(vectors.len() >= 100, "{} vectors", vectors.len());
    assert!(
        wrong.is_empty(),
        "{} of {} vectors disagree:\n{}",
        wrong.len(),
        vectors.len(),
        wrong.join("\n")
    );

    let ops = doc.get("operators").and_then(|v| v.as_array()).unwrap();
    for o in ops {
        assert_eq!(
            operator(&text(o, "input")),
            Some(text(o, "symbol").as_str()),
            "{o}"
        );
    }
}

#[test]
fn go_shellwords_vectors() {
    let doc = fixture("shellwords");
    let vectors = doc.get("vectors").and_then(|v| v.as_array()).unwrap();
    let mut wrong = Vec::new();
    for v in vectors {
        let line = text(v, "line");
        let got = shellwords::parse(&line);
        let ok = match (v.get("expect").and_then(|e| e.as_array()), &got) {
            (Some(want), Ok(s)) => {
                let words: Vec<&str> = s.words.iter().map(|(w, _)| w.as_str()).collect();
                let want: Vec<&str> = want.iter().filter_map(|w| w.as_str()).collect();
                words == want
            }
            (None, Err(())) => true,
            _ => false,
        };
        if !ok {
            wrong.push(format!("{} {line:?}: got {got:?}", text(v, "test")));
        }
    }
    assert!(vectors.len() >= 35, "{} vectors", vectors.len());
    assert!(
        wrong.is_empty(),
        "{} of {} vectors disagree:\n{}",
        wrong.len(),
        vectors.len(),
        wrong.join("\n")
    );
}

/// Where each word starts, so a finding points into the string.
#[test]
fn shellwords_offsets() {
    let s = shellwords::parse("a  'b c' \"\" d\\ e; rm -rf /").unwrap();
    let got: Vec<(&str, usize)> = s.words.iter().map(|(w, i)| (w.as_str(), *i)).collect();
    assert_eq!(got, vec![("a", 0), ("b c", 3), ("", 9), ("d e", 12)]);
    assert_eq!(s.stopped_at, Some(16));
}

/// The audit's own reading, with no environment: a default is used, a
/// plain reference stays visible, a required variable is refused, and
/// `HOME` is set.
#[test]
fn unknown_environment() {
    let lookup = |name: &str| {
        if name == "HOME" {
            Var::UnknownNonEmpty
        } else {
            Var::Unknown
        }
    };
    let read = |t: &str| substitute(t, &lookup);
    let i = read("${A:-/a}/${B}/$C/$$/${D:-}/${E-}").unwrap();
    assert_eq!(i.text, "/a/${B}/$C/$//");
    assert_eq!(i.unresolved, vec!["B", "C"]);
    assert_eq!(i.defaulted.len(), 3);
    assert_eq!(read("${A:+x}").unwrap().text, "${A}");
    assert_eq!(read("${HOME:-/root}/x").unwrap().text, "${HOME}/x");
    assert_eq!(read("${HOME:+set}").unwrap().text, "set");
    assert_eq!(read("${HOME:?}").unwrap().text, "${HOME}");
    assert_eq!(
        read("${PG_PASS:?database password required}"),
        Err(TemplateError::Required {
            name: "PG_PASS".into(),
            reason: "database password required".into()
        })
    );
    assert_eq!(
        read("echo $1 $ $(date) ${").unwrap_err(),
        TemplateError::Invalid
    );
    assert_eq!(read("echo $1 $ $(date)").unwrap().text, "echo $1 $ $(date)");
}
