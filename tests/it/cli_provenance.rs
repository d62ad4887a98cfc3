//! Provenance (issue 27, item 6): the meta names the build and the external program's files,
//! records the host's state, and `--resume` against a changed program is refused unless
//! `--resume-any-build` says otherwise (which the meta then records).
#![cfg(target_os = "linux")]

use crate::common::*;
use std::path::Path;
use std::process::{Command, Stdio};

const DEMO_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

fn meta(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The meta names the build and the solver's files, and the host's state.
fn check_build_and_host(m0: &serde_json::Value, script: &Path) {
    let build = &m0["build"];
    assert_eq!(build["version"], env!("CARGO_PKG_VERSION"));
    assert!(
        build["profile"] == "release" || build["profile"] == "debug",
        "{build}"
    );
    assert!(
        build["exe_hash"].as_str().is_some_and(|h| h.len() == 16),
        "{build}"
    );
    assert!(build.get("git_revision").is_some(), "{build}");
    let files = build["solvers"]["h"]["files"].as_object().expect("files");
    let script_key = script.canonicalize().unwrap().display().to_string();
    assert!(files.contains_key(&script_key), "{files:?}");
    assert!(files.keys().any(|k| k.contains("python3")), "{files:?}");
    assert!(
        build["solvers"]["h"]["manifest_hash"].is_string(),
        "{build}"
    );
    let host = &m0["host_state"];
    for key in [
        "load1_start",
        "load1_end",
        "wall_s",
        "run_cpu_s",
        "host_busy_cpu_s",
        "others_cpu_s",
    ] {
        assert!(host[key].is_number(), "{key}: {host}");
    }
}

#[test]
fn resume_against_a_changed_program_is_refused_unless_overridden() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The solver script is a copy in the temporary directory, so the test can change it.
    let script = d.join("solver.py");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/hostile.py"),
        &script,
    )
    .unwrap();
    let hang = write(d, "hang", "");
    let m = write(
        d,
        "m.toml",
        &format!(
            "[solver.h]\nkind = \"sudoku\"\ncommand = [\"python3\", \"solver.py\"]\nmode = \"batch\"\n\
             randomised = true\nworkdir = \".\"\nenv = {{ ANSWER = \"{DEMO_SOLUTION}\", HANG_IF = \"{}\" }}\n",
            hang.display()
        ),
    );
    let data = write(d, "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = d.join("r.csv");
    let cmd = || {
        let mut c = Command::new(assert_cmd::cargo::cargo_bin("bench-run"));
        c.args([
            "--strategy",
            "h",
            "--quiet",
            "--no-summary",
            "--threads",
            "1",
        ])
        .args(["--seeds", "3", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out);
        c
    };
    // Job 0 answers, job 1 hangs: interrupt after the first row.
    let child = cmd().stderr(Stdio::piped()).spawn().unwrap();
    let journal = d.join("r.csv.partial");
    let first = interrupt_after(child, &journal, 2);
    assert_eq!(first.status.code(), Some(130));
    check_build_and_host(&meta(&d.join("r.csv.partial.meta.json")), &script);

    // The script changes: --resume names it and refuses.
    std::fs::remove_file(&hang).unwrap();
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("# changed\n");
    std::fs::write(&script, text).unwrap();
    let refused = cmd().arg("--resume").output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot resume")
            && stderr.contains("solver `h`")
            && stderr.contains("solver.py"),
        "{stderr}"
    );
    assert!(stderr.contains("--resume-any-build"), "{stderr}");

    // The override finishes the run and the meta says what differed.
    let done = cmd()
        .args(["--resume", "--resume-any-build"])
        .output()
        .unwrap();
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert_eq!(rows(&out).len(), 3);
    let m1 = meta(&d.join("r.meta.json"));
    let across = m1["build"]["resumed_across"].as_str().expect("recorded");
    assert!(across.contains("solver.py"), "{across}");
}

#[test]
fn resume_any_build_needs_resume() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = bench_run()
        .args(["--strategy", "backtrack", "--resume-any-build", "--dataset"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
}

#[test]
fn built_in_solves_record_their_cpu_time() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let out = dir.path().join("r.csv");
    bench_run()
        .args(["--strategy", "backtrack", "--no-summary", "--dataset"])
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let header = std::fs::read_to_string(&out).unwrap();
    let header = header.lines().next().unwrap().to_string();
    // Every run since issue 37 records what a solver claimed and why a job ended.
    assert!(
        header.contains(",wall_s,cpu_s,claim,ended_by,message"),
        "{header}"
    );
    assert!(
        !header.contains("max_rss_kib") && !header.contains("startup_s"),
        "{header}"
    );
    let r = rows(&out);
    assert!(r.iter().all(|r| r.cpu_s.is_some_and(|c| c >= 0.0)), "{r:?}");
}
