//! CLI tests of the reproduction helpers: `bench-gen sudoku --givens N` and the duplicate,
//! incomplete-input and like-with-like behaviour of `bench-report summary`.

use assert_cmd::Command;
use predicates::prelude::*;
use puzzlebench::results::{Columns, Record, Status};
use std::fs;
use std::path::{Path, PathBuf};
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
