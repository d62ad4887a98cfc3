//! CLI tests of the reproduction helpers: `bench-gen sudoku --givens N` and the duplicate,
//! incomplete-input and like-with-like behaviour of `bench-report summary`.

use assert_cmd::Command;
use predicates::prelude::*;
use puzzlebench::results::meta::{meta_path, RunMeta, RunStatus};
use puzzlebench::results::{Columns, Record, Status};
use std::fs;
use std::path::Path;
use tempfile::TempDir;

fn bench_gen() -> Command {
    Command::cargo_bin("bench-gen").expect("binary built")
}

fn bench_report() -> Command {
    Command::cargo_bin("bench-report").expect("binary built")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The puzzle lines of a bench-gen Sudoku file (comments skipped).
fn puzzle_lines(p: &Path) -> Vec<String> {
    fs::read_to_string(p)
        .expect("generated file")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn givens_gives_exactly_n_givens_deterministically() {
    let d = TempDir::new().expect("tmp");
    let (a, b) = (d.path().join("a.txt"), d.path().join("b.txt"));
    for p in [&a, &b] {
        bench_gen()
            .args(["sudoku", "--givens", "28", "--count", "4", "--seed", "5"])
            .args(["--out", &s(p)])
            .assert()
            .success()
            .stdout(predicate::str::contains("wrote 4 28-given Sudoku puzzles"));
    }
    let lines = puzzle_lines(&a);
    assert_eq!(lines, puzzle_lines(&b), "same seed, same puzzles");
    assert_eq!(lines.len(), 4);
    for l in &lines {
        let (puzzle, solution) = l.split_once(' ').expect("puzzle and solution");
        let givens = puzzle
            .bytes()
            .filter(|c| c.is_ascii_digit() && *c != b'0')
            .count();
        assert_eq!(givens, 28, "{l}");
        // Every given agrees with the solution written beside it.
        for (p, s) in puzzle.bytes().zip(solution.bytes()) {
            assert!(p == b'.' || p == b'0' || p == s, "{l}");
        }
    }
    // The file is a dataset bench-run reads, and backtracking proves each puzzle unique.
    let out = d.path().join("u.csv");
    Command::cargo_bin("bench-run")
        .expect("binary built")
        .args([
            "--dataset",
            &s(&a),
            "--strategy",
            "backtrack",
            "--count-solutions",
            "2",
        ])
        .args([
            "--threads",
            "1",
            "--quiet",
            "--no-summary",
            "--output",
            &s(&out),
        ])
        .assert()
        .success();
    let csv = fs::read_to_string(&out).expect("results");
    let header: Vec<&str> = csv.lines().next().expect("header").split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "solutions")
        .expect("solutions column");
    for row in csv.lines().skip(1) {
        assert_eq!(row.split(',').nth(col), Some("1"), "{row}");
    }
}

#[test]
fn givens_below_the_reach_of_the_generator_is_refused() {
    let d = TempDir::new().expect("tmp");
    let out = d.path().join("g.txt");
    for n in ["17", "20", "81"] {
        bench_gen()
            .args(["sudoku", "--givens", n, "--count", "1", "--out", &s(&out)])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("--givens: {n} givens")))
            .stderr(predicate::str::contains("reaches 21 to 80 givens"));
    }
    assert!(!out.exists(), "nothing written on a refused --givens");
    bench_gen()
        .args(["sudoku", "--givens", "30", "--difficulty", "easy"])
        .args(["--count", "1", "--out", &s(&out)])
        .assert()
        .code(2);
    bench_gen()
        .args(["sudoku", "--count", "1", "--out", &s(&out)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--difficulty"));
}

/// `n` Hitori jobs: mrv solves every puzzle, row all but the last.
fn hitori_rows(n: u64) -> Vec<Record> {
    let mut rows = Vec::new();
    for (j, strategy) in (0..2 * n).map(|j| (j, if j % 2 == 0 { "mrv" } else { "row" })) {
        let last = j / 2 == n - 1;
        let status = if strategy == "row" && last {
            Status::Timeout
        } else {
            Status::Solved
        };
        let mut r = Record::sample("h5", strategy, &format!("h5:{}", j / 2 + 1), status, 0.001);
        r.job = j;
        r.counters.nodes = Some(if strategy == "mrv" { 10 } else { 20 });
        rows.push(r);
    }
    rows
}

fn write(path: &Path, rows: &[Record]) {
    fs::write(
        path,
        puzzlebench::results::write::results_csv(rows, Columns::default()),
    )
    .expect("write csv");
}

#[test]
fn summary_refuses_duplicate_jobs_naming_both_files() {
    let d = TempDir::new().expect("tmp");
    let dir = d.path().join("runs");
    fs::create_dir(&dir).expect("dir");
    // A directory holding two runs of one plan.
    write(&dir.join("a.csv"), &hitori_rows(4));
    write(&dir.join("b.csv"), &hitori_rows(4));
    bench_report()
        .args(["summary", &s(&dir)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("b.csv"))
        .stderr(predicate::str::contains("is also in"))
        .stderr(predicate::str::contains("a.csv"))
        .stderr(predicate::str::contains("--allow-duplicates"));
    let out = bench_report()
        .args([
            "summary",
            &s(&dir),
            "--allow-duplicates",
            "--format",
            "json",
        ])
        .assert()
        .success();
    let j: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    assert_eq!(j["duplicate_jobs"], 8);
    assert_eq!(j["groups"][0]["runs"], 8, "both copies counted");
    // Other seeds of the same plan are other jobs, not duplicates.
    let mut other = hitori_rows(4);
    for r in &mut other {
        r.seed = 1;
    }
    write(&dir.join("b.csv"), &other);
    bench_report()
        .args(["summary", &s(&dir)])
        .assert()
        .success();
}

/// The meta sidecar of `results` with this status and plan size.
fn write_meta(results: &Path, status: RunStatus, jobs_total: Option<u64>) {
    let meta = RunMeta {
        jobs_total,
        status: Some(status),
        ..Default::default()
    };
    puzzlebench::results::write::write_meta(&meta_path(results), &meta).expect("meta");
}

#[test]
fn summary_reports_a_partial_input_as_incomplete() {
    let d = TempDir::new().expect("tmp");
    let results = d.path().join("run.csv");
    let journal = d.path().join("run.csv.partial");
    write(&journal, &hitori_rows(3));
    write_meta(&results, RunStatus::Interrupted, Some(80));
    let line = format!(
        "INCOMPLETE input {} (the journal of an unfinished run, meta status interrupted): 6 rows of 80 planned",
        s(&journal)
    );
    bench_report()
        .args(["summary", &s(&journal)])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(line.clone()));
    bench_report()
        .args(["summary", &s(&journal), "--format", "markdown"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!("> **{line}")));
    let out = bench_report()
        .args(["summary", &s(&journal), "--format", "json"])
        .assert()
        .success();
    let j: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).expect("json");
    assert_eq!(j["incomplete"][0]["rows"], 6);
    assert_eq!(j["incomplete"][0]["jobs"], 80);
    bench_report()
        .args(["summary", &s(&journal), "--format", "csv"])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning: INCOMPLETE input"));
    // A finished file whose meta says complete is not flagged.
    write(&results, &hitori_rows(3));
    write_meta(&results, RunStatus::Complete, None);
    bench_report()
        .args(["summary", &s(&results)])
        .assert()
        .success()
        .stdout(predicate::str::contains("INCOMPLETE").not());
}

#[test]
fn summary_ratios_and_csv_compare_like_with_like() {
    let d = TempDir::new().expect("tmp");
    let p = d.path().join("run.csv");
    let mut rows = hitori_rows(4);
    // Float noise in a wall time must not reach the CSV.
    rows[0].wall_s = 14397.000000000002;
    write(&p, &rows);
    bench_report()
        .args(["summary", &s(&p)])
        .assert()
        .success()
        .stdout(predicate::str::contains("ratios on the runs both solved"))
        .stdout(predicate::str::contains(
            "row basic / mrv basic: nodes x2.0 (mean), wall x1.0 (median) on the 3 of 4 common runs both solved",
        ))
        .stdout(predicate::str::contains("Wilson 95%"));
    let out = bench_report()
        .args(["summary", &s(&p), "--format", "csv"])
        .assert()
        .success();
    let csv = String::from_utf8(out.get_output().stdout.clone()).expect("utf-8");
    assert!(!csv.contains("NaN") && !csv.contains("000000000"), "{csv}");
    // mrv's ERT time: (14397.000000000002 + 3 x 0.001) / 4 solved.
    assert!(csv.contains(",nodes,10,3599.25075\n"), "{csv}");
    assert!(csv
        .lines()
        .next()
        .expect("header")
        .ends_with("solved_lo_pct,solved_hi_pct,ert_unit,ert_effort,ert_s"));
}
