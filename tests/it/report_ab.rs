//! CLI tests of `bench-report ab` on a real `bench-run` output.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn bench_report() -> Command {
    Command::cargo_bin("bench-report").expect("bench-report is built")
}

/// `mrv` and `row` with basic rules on the committed hitori5 set (41 puzzles, fast).
fn hitori5_run(dir: &TempDir) -> PathBuf {
    let out = dir.path().join("h5.csv");
    let dataset = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/hitori5");
    crate::common::bench_run()
        .args([
            "--strategy",
            "mrv,row",
            "--rules",
            "basic",
            "--threads",
            "1",
        ])
        .arg("--dataset")
        .arg(&dataset)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    out
}

#[test]
fn ab_compares_mrv_and_row_on_a_real_run() {
    let dir = TempDir::new().expect("tempdir");
    let csv = hitori5_run(&dir);
    bench_report()
        .arg("ab")
        .arg(&csv)
        .args(["--a", "strategy=mrv", "--b", "strategy=row"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "hitori5:\n41 pairs, dataset hash ",
        ))
        .stdout(predicate::str::contains("41/41 (100.0% ["))
        .stdout(predicate::str::contains("Verdict: both solve all 41; "))
        .stdout(predicate::str::contains(
            "PAR-2 and PAR-10 omitted: the run had no --timeout (pass --time-limit SECS)",
        ));

    let out = bench_report()
        .arg("ab")
        .arg(&csv)
        .args(["--a", "strategy=mrv", "--b", "strategy=row,rules=basic"])
        .args(["--format", "json", "--time-limit", "10"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["overall"]["pairs"], 41);
    assert_eq!(v["overall"]["success"]["a"]["solved"], 41);
    assert_eq!(v["overall"]["comparisons"][0]["metric"], "nodes");
    assert_eq!(v["overall"]["comparisons"][1]["metric"], "wall_s");
    assert_eq!(v["time_limit_s"], 10.0);
    assert!(v["overall"]["par2_s"]["a"]
        .as_f64()
        .is_some_and(|p| p > 0.0 && p < 10.0));
    assert_eq!(v["a"]["label"], "mrv");

    bench_report()
        .arg("ab")
        .arg(&csv)
        .args([
            "--a",
            "strategy=mrv",
            "--b",
            "strategy=row",
            "--format",
            "markdown",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("### hitori5"))
        .stdout(predicate::str::contains("Verdict: **both solve all 41"));
}

#[test]
fn ab_refuses_bad_selectors_with_exit_code_2() {
    let dir = TempDir::new().expect("tempdir");
    let csv = hitori5_run(&dir);
    let ab = |a: &str, b: &str| {
        let mut c = bench_report();
        c.arg("ab").arg(&csv).args(["--a", a, "--b", b]);
        c
    };
    ab("strategy=dfs", "strategy=row")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--a strategy=dfs: no configuration matches",
        ))
        .stderr(predicate::str::contains("mrv [basic] max_solutions=1"));
    ab("strategy=mrv", "rules=basic")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("matches 2 configurations"));
    ab("colour=red", "strategy=row")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown key \"colour\""));
    ab("mrv", "strategy=row")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a key=value term"));
}
