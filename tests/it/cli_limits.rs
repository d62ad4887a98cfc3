//! Issue 37: the `claim` and `ended_by` columns, a false "no solution" counted as `wrong`,
//! `--cpu-limit` on built-ins, and the bad values of the new limit options.

use crate::common::*;
use puzzlebench::results::{Claim, EndedBy, Status};
use std::path::Path;

fn unsolved_manifest(dir: &Path) -> std::path::PathBuf {
    let solver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    write(
        dir,
        "nosol.toml",
        &format!(
            "[solver.nosol]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nenv = {{ FAULT = \"unsolved\" }}\n",
            solver.display()
        ),
    )
}

#[test]
fn a_false_no_solution_on_every_hard_sudoku_is_fifty_wrong_rows_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let m = unsolved_manifest(dir.path());
    let out = dir.path().join("out.csv");
    let assert = bench_run()
        .args(["--strategy", "nosol", "--threads", "1", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(datasets().join("sudoku-hard"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("wrong"), "{stderr}");
    let rows = rows(&out);
    assert_eq!(rows.len(), 50);
    for r in &rows {
        assert_eq!(r.status, Some(Status::Wrong), "{r:?}");
        assert_eq!(r.claim, Some(Claim::NoSolution), "{r:?}");
        assert!(!r.verified);
        assert!(
            r.message.contains("claimed no solution") && r.message.contains("generated.txt"),
            "{}",
            r.message
        );
    }
    let header = std::fs::read_to_string(&out).unwrap();
    let first = header.lines().next().unwrap();
    assert!(first.contains(",claim,ended_by,message"), "{first}");
}

#[test]
fn a_no_solution_claim_without_a_known_solution_stays_unsolved_with_its_claim() {
    let dir = tempfile::tempdir().unwrap();
    let m = unsolved_manifest(dir.path());
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = dir.path().join("out.csv");
    bench_run()
        .args(["--strategy", "nosol", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, Some(Status::Unsolved));
    assert_eq!(rows[0].claim, Some(Claim::NoSolution));
    assert_eq!(rows[0].ended_by, None);
}

#[test]
fn a_node_limit_row_says_so_in_ended_by_and_a_free_row_says_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    bench_run()
        .args([
            "--strategy",
            "backtrack",
            "--node-limit",
            "1",
            "--threads",
            "1",
        ])
        .arg("--dataset")
        .arg(datasets().join("sudoku-hard"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert!(rows
        .iter()
        .any(|r| r.status == Some(Status::Timeout) && r.ended_by == Some(EndedBy::NodeLimit)));
    for r in &rows {
        match r.status {
            Some(Status::Timeout) => assert_eq!(r.ended_by, Some(EndedBy::NodeLimit), "{r:?}"),
            _ => assert_eq!(r.ended_by, None, "{r:?}"),
        }
    }
    // The filter reads the column.
    let s = puzzlebench_report(&out, "ended_by=node-limit");
    assert!(s.contains("backtrack"), "{s}");
}

fn puzzlebench_report(file: &Path, filter: &str) -> String {
    let out = assert_cmd::Command::cargo_bin("bench-report")
        .unwrap()
        .args(["summary", "--where", filter])
        .arg(file)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

#[test]
fn a_built_in_over_its_cpu_limit_is_a_cpu_timeout() {
    // ABC on the hard Sudokus runs far longer than a millisecond of CPU per job.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    bench_run()
        .args([
            "--strategy",
            "abc",
            "--cpu-limit",
            "0.001",
            "--max-cycles",
            "100000",
            "--threads",
            "1",
            "--warmup",
            "0",
        ])
        .arg("--dataset")
        .arg(datasets().join("sudoku-hard"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    let cpu: Vec<_> = rows
        .iter()
        .filter(|r| r.ended_by == Some(EndedBy::Cpu))
        .collect();
    assert!(!cpu.is_empty(), "no cpu-ended rows");
    for r in cpu {
        assert_eq!(r.status, Some(Status::Timeout), "{r:?}");
        assert!(r.cpu_s.unwrap_or(0.0) >= 0.001, "{r:?}");
    }
    let meta = std::fs::read_to_string(dir.path().join("out.meta.json")).unwrap();
    assert!(meta.contains("\"cpu_limit_s\": 0.001"), "{meta}");
    assert!(meta.contains("process-tree"), "{meta}");
}

#[test]
fn bad_limit_values_are_refused_with_the_value_and_what_is_expected() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    for (args, needles) in [
        (
            &["--memory-limit", "0"][..],
            &["\"0\"", "at least 16 MiB"][..],
        ),
        (&["--memory-limit", "10X"], &["\"10X\"", "unknown unit"]),
        (&["--memory-limit", "1M"], &["\"1M\"", "at least 16 MiB"]),
        (&["--cpu-limit=-1"], &["\"-1\"", "seconds"]),
        (&["--cpu-limit", "NaN"], &["\"NaN\"", "seconds"]),
    ] {
        let out = dir.path().join("out.csv");
        let assert = bench_run()
            .args(["--strategy", "backtrack"])
            .args(args)
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(&out)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{stderr}");
        for n in needles {
            assert!(
                stderr.contains(n),
                "{args:?}: stderr lacks {n:?}:\n{stderr}"
            );
        }
        assert!(!out.exists());
    }
}
