//! The lessons: small profiles, each showing one idea of the
//! workshop. A learner loads one and edits it until the verdict flips.
//!
//! Each lesson starts from the fixed workshop job and changes only what its
//! idea is about, so the blocking findings all come from that idea.

use isolint_core::Area;

/// One gallery entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// Stable id, used in tests and `data-lesson` attributes.
    pub id: &'static str,
    /// Short title for the gallery button.
    pub title: &'static str,
    /// What to notice, in a few sentences.
    pub explanation: &'static str,
    /// What to change to make the profile eligible.
    pub try_this: &'static str,
    /// File name used as `profile.source` in the exports.
    pub file: &'static str,
    pub text: &'static str,
    /// Whether the profile is eligible as shipped.
    pub eligible: bool,
    /// The areas where this lesson's blocking findings appear.
    pub areas: &'static [Area],
}

/// Every lesson, in the order the gallery shows them.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "workshop",
        title: "The workshop job",
        explanation: "The parser job from the workshop, with every mistake still in it. \
            Use it as a checklist: each finding names the line to change and why.",
        try_this: "Fix one area at a time, starting with the blocking findings; \
            the Fixed job entry shows one way to end up.",
        file: "workshop.json",
        text: isolint_core::WORKSHOP_PROFILE,
        eligible: false,
        areas: &[],
    },
    Lesson {
        id: "home-read-only",
        title: "Home directory, read-only",
        explanation: "Mounting the developer's home read-only feels harmless because nothing \
            can be changed. But the tests can still read everything in it, including the cloud \
            keys under `.aws`. For secrets, reading is the leak.",
        try_this: "Delete the `/home/botie` mount: the parser needs only its snapshot and scratch space.",
        file: "home-read-only.json",
        text: include_str!("../gallery/home-read-only.json"),
        eligible: false,
        areas: &[Area::ReadOnlyMounts],
    },
    Lesson {
        id: "engine-socket",
        title: "Container engine socket",
        explanation: "Whoever can talk to the engine socket can ask the host to start a new \
            privileged container with the host's disk inside it. Handing the socket to a test \
            hands over the machine, whatever the other settings say.",
        try_this: "Remove the `docker.sock` mount. Services the tests need belong in `needs.services`.",
        file: "engine-socket.json",
        text: include_str!("../gallery/engine-socket.json"),
        eligible: false,
        areas: &[Area::WritableMounts, Area::Privileges],
    },
    Lesson {
        id: "inherited-secret",
        title: "Inherited environment with a token",
        explanation: "With `inherit: true` the job receives every variable of the shell that \
            launched it, and a token is also written straight into the profile. Any hook or \
            child process can read it and send it away. The page masks the value in its results, \
            but the runner would not.",
        try_this: "Set `inherit` to `false` and delete the token. If the job really needs access, \
            ask a broker for a short-lived, task-scoped credential.",
        file: "inherited-secret.json",
        text: include_str!("../gallery/inherited-secret.json"),
        eligible: false,
        areas: &[Area::Credentials],
    },
    Lesson {
        id: "open-egress",
        title: "Open network, redirects followed",
        explanation: "The tests can reach any host. The only guard is a URL check inside the \
            application, which a redirect or a plain socket walks around, and internal services \
            and the cloud metadata address stay reachable.",
        try_this: "Deny egress (the parser needs no network) and have the network layer enforce it.",
        file: "open-egress.json",
        text: include_str!("../gallery/open-egress.json"),
        eligible: false,
        areas: &[Area::Network],
    },
    Lesson {
        id: "shell-python-c",
        title: "Shell text with python -c",
        explanation: "The command is a line of shell text: quoting, `&&` and expansions are up \
            to a shell, and `python -c` runs whatever code the string holds. A fixed program with \
            an argument list is easier to check, though that program may still run repository code.",
        try_this: "Replace `shell` with `\"executable\": \"python\"` and the arguments \
            `[\"-m\", \"pytest\", \"tests/test_date.py\"]`.",
        file: "shell-python-c.json",
        text: include_str!("../gallery/shell-python-c.json"),
        eligible: false,
        areas: &[Area::Command],
    },
    Lesson {
        id: "timeout-parent",
        title: "No limits; timeout kills the parent",
        explanation: "Only wall time is set, it is merely requested, and a timeout kills just \
            the parent process. Children the tests fork keep running, and memory, CPU, process \
            count and output have no bound at all.",
        try_this: "Add CPU, memory, process and output limits, enforce them with a cgroup, \
            kill the whole process group, and cap concurrent jobs.",
        file: "timeout-parent.json",
        text: include_str!("../gallery/timeout-parent.json"),
        eligible: false,
        areas: &[Area::Limits],
    },
    Lesson {
        id: "runtime-fetch",
        title: "Packages fetched at run time",
        explanation: "Dependencies are downloaded when the job starts, from a movable image tag \
            and with no lockfile. The tests then run with the network that did the fetching, \
            and nobody can say later exactly what was installed. A lockfile would pin versions \
            but would not vet install hooks.",
        try_this: "Prepare dependencies in a reviewed image pinned by digest, keep a lockfile, \
            and let the tests run with egress denied.",
        file: "runtime-fetch.json",
        text: include_str!("../gallery/runtime-fetch.json"),
        eligible: false,
        areas: &[Area::Dependencies, Area::Network],
    },
    Lesson {
        id: "artifact-escape",
        title: "HTML reports and .. patterns",
        explanation: "The collection patterns sweep the whole tree and climb out of it with `..`, \
            and an HTML coverage report travels back to reviewers' browsers. The code under test \
            wrote those files: treat them as hostile until checked.",
        try_this: "Collect only named report files, bound their size, and mark artifacts untrusted.",
        file: "artifact-escape.json",
        text: include_str!("../gallery/artifact-escape.json"),
        eligible: false,
        areas: &[Area::Artifacts],
    },
    Lesson {
        id: "untrusted-container",
        title: "Untrusted code in a container",
        explanation: "The hardened container that suits our own parser is not enough for code \
            from an unknown fork: containers share the host's kernel, so one kernel bug is a way \
            out. Strangers' code needs a boundary with its own kernel.",
        try_this: "Change `boundary.kind` to `microvm` (or `vm`) and keep its runtime patched.",
        file: "untrusted-container.json",
        text: include_str!("../gallery/untrusted-container.json"),
        eligible: false,
        areas: &[Area::Isolation],
    },
    Lesson {
        id: "writable-source",
        title: "Writable source snapshot",
        explanation: "The tests can rewrite the snapshot they run from, git hooks and \
            configuration included, which a person or a CI job runs later. Inputs stay \
            read-only; output goes to scratch.",
        try_this: "Set the `/workspace` mount back to `read-only`.",
        file: "writable-source.json",
        text: include_str!("../gallery/writable-source.json"),
        eligible: false,
        areas: &[Area::WritableMounts],
    },
    Lesson {
        id: "credential-in-context",
        title: "A static key in model context",
        explanation: "An organisation-wide static deploy key sits where the model can read it, \
            and whatever the agent reads can end up in what it writes. Credentials should be \
            minted per task by a broker, expire quickly, and stay out of prompts.",
        try_this: "Remove the credential: the parser tests need none.",
        file: "credential-in-context.json",
        text: include_str!("../gallery/credential-in-context.json"),
        eligible: false,
        areas: &[Area::Credentials],
    },
    Lesson {
        id: "privileged-hardened",
        title: "A \"hardened\" label, privileged settings",
        explanation: "The label says hardened, but the settings give the job root, privileged \
            mode and `SYS_ADMIN`. A label only describes how the job was packaged; the audit \
            reads the settings.",
        try_this: "Set `privileged` to `false`, drop all capabilities and run as user `1000:1000`.",
        file: "privileged-hardened.json",
        text: include_str!("../gallery/privileged-hardened.json"),
        eligible: false,
        areas: &[Area::Privileges, Area::Isolation],
    },
    Lesson {
        id: "install-scripts",
        title: "Install scripts are code too",
        explanation: "The test command is clean, but a setup step runs a shell script and \
            `npm install`, whose package hooks run whatever the packages say. Setup runs inside \
            the same sandbox with the same reach as the tests, so it gets the same review.",
        try_this: "Remove the setup step: the reviewed image already holds the dependencies. \
            If a step must stay, give it a fixed executable and arguments, and review its hooks.",
        file: "install-scripts.json",
        text: include_str!("../gallery/install-scripts.json"),
        eligible: false,
        areas: &[Area::Command, Area::Dependencies],
    },
    Lesson {
        id: "purpose-is-not-a-limit",
        title: "The purpose is not a limit",
        explanation: "The purpose says the job only lists test names and never touches the \
            network or the home directory. Nothing enforces a sentence: the settings still mount \
            the home directory and open the network, so a hook can read keys and send them out.",
        try_this: "Make the settings say what the purpose says: remove the `/home/botie` mount \
            and deny egress at the network layer.",
        file: "purpose-is-not-a-limit.json",
        text: include_str!("../gallery/purpose-is-not-a-limit.json"),
        eligible: false,
        areas: &[Area::ReadOnlyMounts, Area::Network],
    },
    Lesson {
        id: "cleanup-left-behind",
        title: "Worker and credentials left behind",
        explanation: "After the tests, the worker is kept, the upload credential stays valid, \
            cleanup failures are ignored and the private inputs are retained. The next job, or \
            whoever finds the worker, inherits all of it: the output channel is a boundary too.",
        try_this: "Destroy the worker, expire the credential, retry then alert on cleanup \
            failures, and keep only the metadata needed to diagnose the run.",
        file: "cleanup-left-behind.json",
        text: include_str!("../gallery/cleanup-left-behind.json"),
        eligible: false,
        areas: &[Area::Cleanup],
    },
    Lesson {
        id: "runtime-plan",
        title: "What runtime testing will try",
        explanation: "This job is eligible, which only means it may go on to the next test. \
            The plan under the verdict lists what a verifier will try inside the launched \
            sandbox: read excluded files, write outside scratch, reach blocked addresses, exceed \
            each limit, and see the task credential expire. Only those observations show \
            enforcement.",
        try_this: "Read the plan, then mount `/home/botie` read-only and see a read check join it.",
        file: "runtime-plan.json",
        text: include_str!("../gallery/runtime-plan.json"),
        eligible: true,
        areas: &[],
    },
    Lesson {
        id: "fixed",
        title: "Fixed job (eligible)",
        explanation: "The workshop job after the fixes: read-only snapshot, scratch for output, \
            no network, no inherited environment, limits that something enforces. It is eligible \
            for runtime testing, which is where these settings must be observed rather than assumed.",
        try_this: "Break one setting and watch the verdict flip.",
        file: "workshop-fixed.json",
        text: isolint_core::WORKSHOP_PROFILE_FIXED,
        eligible: true,
        areas: &[],
    },
];

/// A lesson by id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use isolint_core::{audit, AuditOptions, Date, Labels, Verdict};

    #[test]
    fn the_loading_screen_lists_every_lesson_in_order() {
        let html = include_str!("../index.html");
        let boot = &html[html.find("id=\"boot\"").expect("boot screen")..];
        let boot = &boot[..boot.find("</ul>").expect("lesson list")];
        let listed: Vec<String> = boot
            .split("<li>")
            .skip(1)
            .map(|li| li[..li.find("</li>").expect("closed")].replace("&amp;", "&"))
            .collect();
        let titles: Vec<&str> = LESSONS.iter().map(|l| l.title).collect();
        assert_eq!(
            listed, titles,
            "index.html's static list and LESSONS differ"
        );
    }

    fn run(l: &Lesson) -> isolint_core::Report {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        audit(l.text.as_bytes(), l.file, &Labels::workshop(), &opts)
            .unwrap_or_else(|e| panic!("lesson {} is unreadable: {e}", l.id))
    }

    #[test]
    fn the_gallery_has_unique_ids_and_at_least_eight_lessons() {
        assert!(LESSONS.len() >= 8);
        let mut ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), LESSONS.len());
        assert!(
            LESSONS.iter().any(|l| l.eligible),
            "one lesson shows the goal"
        );
        assert_eq!(lesson("fixed").map(|l| l.eligible), Some(true));
    }

    #[test]
    fn every_lesson_reaches_the_verdict_it_promises() {
        for l in LESSONS {
            let r = run(l);
            let expect = if l.eligible {
                Verdict::EligibleForRuntimeTesting
            } else {
                Verdict::NotEligible
            };
            let blocking: Vec<String> = r
                .issues
                .iter()
                .filter(|f| f.blocks())
                .map(|f| format!("{} {} {}", f.rule, f.area.title(), f.pointer))
                .collect();
            assert_eq!(r.verdict, expect, "lesson {}: blocking {blocking:#?}", l.id);
        }
    }

    #[test]
    fn each_single_idea_lesson_blocks_only_in_its_own_areas() {
        for l in LESSONS.iter().filter(|l| !l.areas.is_empty()) {
            let r = run(l);
            let blocking: Vec<_> = r.issues.iter().filter(|f| f.blocks()).collect();
            assert!(
                blocking.iter().any(|f| l.areas.contains(&f.area)),
                "lesson {} raises nothing blocking in {:?}",
                l.id,
                l.areas
            );
            let stray: Vec<String> = blocking
                .iter()
                .filter(|f| !l.areas.contains(&f.area))
                .map(|f| format!("{} {} {}: {}", f.rule, f.area.title(), f.pointer, f.message))
                .collect();
            assert!(
                stray.is_empty(),
                "lesson {} blocks outside its idea: {stray:#?}",
                l.id
            );
        }
    }

    #[test]
    fn lesson_texts_do_not_echo_secrets_into_results() {
        let l = lesson("inherited-secret").expect("lesson");
        let token = "ghp_R8v2Lk9QmT4xW7nB3cZ5yH1dF6gJ0pSaE2uK";
        assert!(l.text.contains(token));
        let r = run(l);
        let json = isolint_core::render::json::render(&r);
        assert!(!json.contains(token));
        assert!(
            !r.source_text.contains(token),
            "masked source for share links"
        );
    }
}
