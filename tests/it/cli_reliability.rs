//! Reliability, third round: every path a run creates is checked, inputs that size memory are
//! bounded, a manifest is read once and safely, and a resumed row must be its job's own.

use crate::common::*;
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// `bench-run` on the Hitori demo into `dir`, with `extra` options; exit 2 and `needle` said.
fn refused_in(dir: &Path, extra: &[&str], needle: &str) -> String {
    let data = write(dir, "p.txt", HITORI_DEMO);
    let mut cmd = bench_run();
    if !extra.contains(&"--strategy") {
        cmd.args(["--strategy", "mrv"]);
    }
    let out = cmd
        .current_dir(dir)
        .arg("--dataset")
        .arg(&data)
        .args(extra)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not())
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        stderr.contains(needle),
        "stderr lacks {needle:?}:\n{stderr}"
    );
    stderr
}

fn mkfifo(p: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_link_at_a_temporary_path_is_refused_and_its_target_kept() {
    let dir = tempfile::tempdir().unwrap();
    let victim = write(dir.path(), "victim.txt", "precious\n");
    for side in [
        "out.csv.tmp",
        "trace.csv.tmp",
        "out.csv.partial",
        "out.meta.lock",
    ] {
        let link = dir.path().join(side);
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let mut extra = vec!["--output", "out.csv"];
        if side.starts_with("trace") {
            extra = vec!["--output", "out.csv", "--trace", "trace.csv"];
        }
        let strategy_ok = !side.starts_with("trace");
        if strategy_ok {
            refused_in(dir.path(), &extra, "is a symbolic link");
        } else {
            // --trace needs an ABC strategy: a Sudoku dataset.
            let data = write(dir.path(), "s.sdk", &format!("{SUDOKU_DEMO}\n"));
            let out = bench_run()
                .current_dir(dir.path())
                .args(["--strategy", "abc", "--dataset"])
                .arg(&data)
                .args(&extra)
                .assert()
                .code(2)
                .get_output()
                .clone();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("trace's temporary file is a symbolic link"),
                "{stderr}"
            );
        }
        std::fs::remove_file(&link).unwrap();
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "precious\n",
            "{side}"
        );
        assert!(!dir.path().join("out.csv").exists(), "{side}: no results");
    }
}

#[test]
fn a_fifo_at_a_temporary_path_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    if !mkfifo(&dir.path().join("out.csv.tmp")) {
        eprintln!("SKIP: mkfifo unavailable");
        return;
    }
    refused_in(
        dir.path(),
        &["--output", "out.csv"],
        "out.csv.tmp: the output's temporary file exists and is not a regular file",
    );
}

#[test]
fn two_outputs_that_share_a_meta_cannot_both_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "p.txt", HITORI_DEMO);
    bench_run()
        .current_dir(dir.path())
        .args(["--strategy", "mrv", "--dataset"])
        .arg(&data)
        .args(["--output", "coll.csv"])
        .assert()
        .success();
    let meta = std::fs::read_to_string(dir.path().join("coll.meta.json")).unwrap();
    assert!(meta.contains("\"results_file\": \"coll.csv\""), "{meta}");
    // `-o coll` would write coll.meta.json too: refused, even with --force.
    for force in [false, true] {
        let mut extra = vec!["--output", "coll"];
        if force {
            extra.push("--force");
        }
        refused_in(
            dir.path(),
            &extra,
            "its meta file coll.meta.json belongs to coll.csv too",
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("coll.meta.json")).unwrap(),
        meta,
        "the first run's meta is untouched"
    );
    // A meta naming its sibling is refused by the readers too.
    std::fs::copy(dir.path().join("coll.csv"), dir.path().join("coll")).unwrap();
    Command::cargo_bin("bench-report")
        .unwrap()
        .current_dir(dir.path())
        .args(["summary", "coll"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "describes another results file, coll.csv",
        ));
    Command::cargo_bin("bench-report")
        .unwrap()
        .current_dir(dir.path())
        .args(["summary", "coll.csv"])
        .assert()
        .success();
}

#[test]
fn parameters_that_size_memory_are_bounded_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.sdk", &format!("{SUDOKU_DEMO}\n"));
    let run = |extra: &[&str]| {
        let out = bench_run()
            .current_dir(dir.path())
            .args(["--strategy", "abc", "--dataset"])
            .arg(&data)
            .args(["--output", "o.csv"])
            .args(extra)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("panicked").not())
            .get_output()
            .clone();
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = run(&["--colony-size", "100000000"]);
    assert!(
        e.contains("expected a whole number from 4 to 100000"),
        "{e}"
    );
    let e = run(&["--max-cycles", "99999999999999999"]);
    assert!(
        e.contains("expected a whole number from 1 to 1000000000000"),
        "{e}"
    );
    // 1024 workers x 100,000 bees is about 130 GB: more than any test machine has free.
    let e = run(&["--colony-size", "100000", "--threads", "1024"]);
    assert!(e.contains("the plan needs about"), "{e}");
    assert!(e.contains("1024 workers x"), "{e}");
    assert!(!dir.path().join("o.csv").exists());
    assert!(
        !dir.path().join("o.csv.partial").exists(),
        "nothing was run"
    );
}

#[test]
fn a_manifest_must_be_a_small_regular_file_of_plain_values() {
    let dir = tempfile::tempdir().unwrap();
    refused_in(
        dir.path(),
        &["--solvers", "/dev/zero", "--output", "o.csv"],
        "/dev/zero: not a regular file",
    );
    let fifo = dir.path().join("m.toml");
    if mkfifo(&fifo) {
        refused_in(
            dir.path(),
            &["--solvers", "m.toml", "--output", "o.csv"],
            "m.toml: not a regular file",
        );
        std::fs::remove_file(&fifo).unwrap();
    }
    write(
        dir.path(),
        "m.toml",
        "[solver.x]\nkind = \"hitori\"\ncommand = [\"sh\"]\nmode = \"batch\"\nparams = \"a\\u0000b\"\n",
    );
    refused_in(
        dir.path(),
        &[
            "--solvers",
            "m.toml",
            "--strategy",
            "x",
            "--output",
            "o.csv",
        ],
        "m.toml: [solver.x] params: holds the control character U+0000",
    );
    assert!(!dir.path().join("o.csv.partial").exists(), "no job was run");
}

#[test]
fn a_journal_row_of_another_job_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = datasets().join("hitori5");
    let run = |extra: &[&str]| {
        bench_run()
            .current_dir(dir.path())
            .args(["--strategy", "mrv,row", "--dataset"])
            .arg(&data)
            .args(["--output", "r.csv", "--no-summary"])
            .args(extra)
            .assert()
    };
    run(&[]).success();
    // An interrupted run's files, made from the finished one: its first rows, then job 3's
    // row claiming another puzzle.
    let text = std::fs::read_to_string(dir.path().join("r.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().take(4).map(String::from).collect();
    let job3 = text.lines().nth(4).unwrap();
    assert!(job3.contains("generated:3"), "{job3}");
    lines.push(job3.replace("generated:3", "generated:4"));
    std::fs::write(dir.path().join("r.csv.partial"), lines.join("\n") + "\n").unwrap();
    std::fs::rename(
        dir.path().join("r.meta.json"),
        dir.path().join("r.csv.partial.meta.json"),
    )
    .unwrap();
    std::fs::remove_file(dir.path().join("r.csv")).unwrap();
    let out = run(&["--resume"]).code(2).get_output().clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("r.csv.partial:5: job 3: the row is for dataset hitori5, puzzle generated:4"),
        "{stderr}"
    );
    assert!(
        stderr.contains("this plan's job 3 is dataset hitori5, puzzle generated:3"),
        "{stderr}"
    );
    assert!(!dir.path().join("r.csv").exists(), "never marked complete");
    // The honest journal resumes.
    lines.pop();
    std::fs::write(dir.path().join("r.csv.partial"), lines.join("\n") + "\n").unwrap();
    run(&["--resume"]).success();
    assert_eq!(data_rows(&dir.path().join("r.csv")), 82);
}

#[test]
fn every_numeric_flag_says_non_negative_for_a_negative_number() {
    let dir = tempfile::tempdir().unwrap();
    for flag in [
        "--threads",
        "--seed",
        "--seeds",
        "--colonies",
        "--count-solutions",
        "--node-limit",
        "--repeat",
        "--colony-size",
        "--max-cycles",
    ] {
        refused_in(
            dir.path(),
            &[flag, "-1", "--output", "o.csv"],
            &format!("invalid value '-1' for '{flag}"),
        );
        refused_in(
            dir.path(),
            &[flag, "-1"],
            "expected a non-negative whole number",
        );
    }
    refused_in(
        dir.path(),
        &["--timeout", "-1"],
        "expected a number of seconds",
    );
    refused_in(
        dir.path(),
        &["--limit", "-1"],
        "expected a positive integer",
    );
}

#[test]
fn the_nightly_refuses_to_write_inside_the_baseline() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for out in ["results/baseline", "results/baseline/x"] {
        let o = std::process::Command::new("bash")
            .arg(root.join("scripts/nightly.sh"))
            .env("NIGHTLY_OUT", out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("inside the committed baseline"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(!root.join("results/baseline/x").exists());
}

#[test]
fn the_screenshot_script_encodes_the_file_url() {
    // A stand-in browser records the URL it is given and writes the PNG where asked.
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let stub = write(
        &bin,
        "chromium",
        "#!/bin/sh\nfor a; do case $a in --screenshot=*) out=${a#--screenshot=};; file://*) printf %s \"$a\" > \"$URL_LOG\";; esac; done\nprintf png > \"$out\"\n",
    );
    std::fs::set_permissions(&stub, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let pages = dir.path().join("a #1 100%");
    std::fs::create_dir(&pages).unwrap();
    let page = write(&pages, "index.html", "<p>x</p>");
    let log = dir.path().join("url.txt");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = std::process::Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/screenshot.sh"))
        .arg(&page)
        .arg(dir.path().join("shot.png"))
        .env("PATH", path)
        .env("URL_LOG", &log)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let url = std::fs::read_to_string(&log).unwrap();
    let want: PathBuf = pages.join("index.html");
    let encoded = want
        .display()
        .to_string()
        .replace('%', "%25")
        .replace(' ', "%20")
        .replace('#', "%23");
    assert_eq!(url, format!("file://{encoded}"));
}

#[test]
fn the_other_binaries_say_non_negative_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.txt");
    for (flag, args) in [
        (
            "--count",
            vec!["sudoku", "--difficulty", "easy", "--count", "-1"],
        ),
        (
            "--seed",
            vec!["hitori", "--size", "5", "--count", "1", "--seed", "-1"],
        ),
        ("--size", vec!["hitori", "--size", "-5", "--count", "1"]),
    ] {
        let o = Command::cargo_bin("bench-gen")
            .unwrap()
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(&format!("for '{flag}")), "{flag}: {e}");
        assert!(
            e.contains("expected a non-negative whole number"),
            "{flag}: {e}"
        );
    }
    for args in [
        vec!["summary", "x.csv", "--time-limit", "-1"],
        vec!["summary", "x.csv", "--best-of", "-2"],
        vec!["compare", "a", "b", "--noise-band", "-0.5"],
    ] {
        let o = Command::cargo_bin("bench-report")
            .unwrap()
            .args(&args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("expected a non-negative"), "{args:?}: {e}");
    }
}
