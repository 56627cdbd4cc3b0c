use super::*;

#[test]
fn every_rule_has_an_entry_and_every_entry_a_rule() {
    let mut seen = std::collections::HashSet::new();
    for f in catalog() {
        assert!(seen.insert(f.rule), "{} is declared twice", f.rule);
        assert!(
            crate::rules::all().any(|r| r.id == f.rule),
            "{} names no rule",
            f.rule
        );
        match &f.remedy {
            Remedy::Fix { summary, .. } => assert!(!summary.is_empty(), "{}", f.rule),
            Remedy::None(reason) => assert!(!reason.is_empty(), "{} says no why", f.rule),
        }
    }
    let missing: Vec<&str> = crate::rules::all()
        .map(|r| r.id)
        .filter(|id| for_rule(id).is_none())
        .collect();
    assert!(missing.is_empty(), "rules with no fix entry: {missing:?}");
}

fn set(p: &str, v: &'static str) -> Edit {
    Edit::Set {
        pointer: p.into(),
        value: v,
    }
}

fn rm(p: &str) -> Edit {
    Edit::Remove { pointer: p.into() }
}

/// The bytes outside the edited spans are the original's, in order.
fn outside_kept(old: &str, new: &str, edits: &[TextEdit]) -> bool {
    let mut at_old = 0;
    let mut at_new = 0;
    for e in edits {
        let keep = &old[at_old..e.start];
        if new.get(at_new..at_new + keep.len()) != Some(keep) {
            return false;
        }
        at_new += keep.len() + e.text.len();
        at_old = e.end;
    }
    new.get(at_new..) == old.get(at_old..)
}

#[test]
fn edits_are_written_in_the_document_own_style() {
    let cases: &[(&str, Vec<Edit>, &str)] = &[
        // Replace a scalar in place.
        (
            "{\n  \"boundary\": {\n    \"privileged\": true\n  }\n}\n",
            vec![set("/boundary/privileged", "false")],
            "{\n  \"boundary\": {\n    \"privileged\": false\n  }\n}\n",
        ),
        // A new key after the last member, same indentation.
        (
            "{\n  \"boundary\": {\n    \"user\": \"1000\"\n  }\n}\n",
            vec![set("/boundary/privileged", "false")],
            "{\n  \"boundary\": {\n    \"user\": \"1000\",\n    \"privileged\": false\n  }\n}\n",
        ),
        // A missing parent object is created, indented one level more.
        (
            "{\n    \"name\": \"t\"\n}\n",
            vec![set("/limits/wall_seconds", "3600"), set("/limits/processes", "256")],
            "{\n    \"name\": \"t\",\n    \"limits\": {\n        \"wall_seconds\": 3600,\n        \"processes\": 256\n    }\n}\n",
        ),
        // Tabs stay tabs.
        (
            "{\n\t\"name\": \"t\"\n}",
            vec![set("/cleanup/destroy_worker", "true")],
            "{\n\t\"name\": \"t\",\n\t\"cleanup\": {\n\t\t\"destroy_worker\": true\n\t}\n}",
        ),
        // One-line objects stay on one line.
        (
            "{\"name\": \"t\", \"boundary\": {\"privileged\": true}}",
            vec![set("/boundary/privileged", "false"), set("/boundary/seccomp", "\"default\"")],
            "{\"name\": \"t\", \"boundary\": {\"privileged\": false, \"seccomp\": \"default\"}}",
        ),
        // Compact colon style is kept.
        (
            "{\"name\":\"t\"}",
            vec![set("/network/egress", "\"deny\"")],
            "{\"name\":\"t\",\"network\":{\"egress\":\"deny\"}}",
        ),
        // The separator between members is copied.
        (
            "{\"a\":1,\"b\":{\"c\":true}}",
            vec![set("/b/d", "false"), set("/e", "2")],
            "{\"a\":1,\"b\":{\"c\":true,\"d\":false},\"e\":2}",
        ),
        // An empty object gets its first member.
        (
            "{\"boundary\": {}}",
            vec![set("/boundary/privileged", "false")],
            "{\"boundary\": {\"privileged\": false}}",
        ),
        // Remove a middle array item with its comma.
        (
            "{\"m\": [1, 2, 3]}",
            vec![rm("/m/1")],
            "{\"m\": [1, 3]}",
        ),
        // Remove the last item: the comma before it goes.
        (
            "{\"m\": [\n  1,\n  2\n]}",
            vec![rm("/m/1")],
            "{\"m\": [\n  1\n]}",
        ),
        // Remove the first item.
        (
            "{\"m\": [1, 2, 3]}",
            vec![rm("/m/0")],
            "{\"m\": [2, 3]}",
        ),
        // Remove the two last items.
        (
            "{\"m\": [1, 2, 3]}",
            vec![rm("/m/2"), rm("/m/1")],
            "{\"m\": [1]}",
        ),
        // Remove the first and the last.
        (
            "{\"m\": [1, 2, 3]}",
            vec![rm("/m/0"), rm("/m/2")],
            "{\"m\": [2]}",
        ),
        // Remove every item.
        (
            "{\"m\": [\n  1,\n  2\n]}",
            vec![rm("/m/0"), rm("/m/1")],
            "{\"m\": []}",
        ),
        // Remove an object member.
        (
            "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}",
            vec![rm("/b")],
            "{\n  \"a\": 1,\n  \"c\": 3\n}",
        ),
        // An edit inside a removed node is dropped.
        (
            "{\"mounts\": [{\"access\": \"read-write\"}, {\"access\": \"read-only\"}]}",
            vec![set("/mounts/0/access", "\"read-only\""), rm("/mounts/0")],
            "{\"mounts\": [{\"access\": \"read-only\"}]}",
        ),
        // Removing what is absent changes nothing.
        ("{\"a\": 1}", vec![rm("/b")], "{\"a\": 1}"),
        // Escaped pointer tokens.
        (
            "{\"v\": {\"a/b\": 1, \"c\": 2}}",
            vec![rm("/v/a~1b")],
            "{\"v\": {\"c\": 2}}",
        ),
        // A file with CRLF line ends gets CRLF on the new line.
        (
            "{\r\n  \"a\": 1\r\n}",
            vec![set("/b", "2")],
            "{\r\n  \"a\": 1,\r\n  \"b\": 2\r\n}",
        ),
        // The same edit twice is made once.
        (
            "{\"a\": true}",
            vec![set("/a", "false"), set("/a", "false")],
            "{\"a\": false}",
        ),
    ];
    let mut wrong = Vec::new();
    for (i, (text, edits, want)) in cases.iter().enumerate() {
        let doc = crate::json::parse(text.as_bytes(), crate::json::Limits::default()).unwrap();
        let mut unique: Vec<Edit> = Vec::new();
        for e in edits {
            if !unique.contains(e) {
                unique.push(e.clone());
            }
        }
        let planned = json_edit::plan(text, &doc.root, &unique);
        let got = planned.as_ref().map(|p| apply(text, p));
        match (&planned, &got) {
            (Ok(p), Ok(g)) if g == want => {
                assert!(outside_kept(text, g, p), "case {i}: bytes outside moved");
                crate::json::parse(g.as_bytes(), crate::json::Limits::default())
                    .unwrap_or_else(|e| panic!("case {i}: {e}"));
            }
            _ => wrong.push(format!("case {i}: got {got:?}, want {want:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn edits_that_cannot_be_written_are_refused() {
    let cases: &[(&str, Vec<Edit>)] = &[
        (
            "{\"boundary\": 3}",
            vec![set("/boundary/privileged", "false")],
        ),
        ("{\"a\": [1]}", vec![set("/a/x", "1")]),
        ("{\"a\": 1}", vec![set("/a", "2"), set("/a", "3")]),
        ("{\"a\": 1}", vec![rm("")]),
    ];
    for (text, edits) in cases {
        let doc = crate::json::parse(text.as_bytes(), crate::json::Limits::default()).unwrap();
        assert!(
            json_edit::plan(text, &doc.root, edits).is_err(),
            "{text} {edits:?}"
        );
    }
}

#[test]
fn a_fix_is_proven_or_withdrawn() {
    let labels = crate::Labels::workshop();
    let audit = |t: &str| {
        crate::audit(
            t.as_bytes(),
            "t.json",
            &labels,
            &crate::AuditOptions::default(),
        )
        .map(|r| r.issues)
        .map_err(|e| e.to_string())
    };
    let text = crate::WORKSHOP_PROFILE;
    let out = fix_profile(text, &Selection::default(), &audit).unwrap();
    assert!(!out.applied.is_empty());
    assert!(out
        .applied
        .iter()
        .all(|c| c.applicability == Applicability::Safe));
    assert!(out.withdrawn.is_empty(), "{:?}", out.withdrawn);
    // A second run has nothing left to do.
    let again = fix_profile(&out.fixed, &Selection::default(), &audit).unwrap();
    assert!(again.edits.is_empty(), "{:?}", again.applied);
    // An audit that sees a new finding after any change withdraws the fix.
    let liar = |t: &str| {
        let mut f = audit(t)?;
        if t != text {
            let mut extra = f.first().cloned().ok_or("no finding")?;
            extra.rule = "PRF009";
            f.push(extra);
        }
        Ok(f)
    };
    let out = fix_profile(text, &Selection::default(), &liar).unwrap();
    assert!(out.applied.is_empty());
    assert!(!out.withdrawn.is_empty());
    assert_eq!(out.fixed, text);
}
