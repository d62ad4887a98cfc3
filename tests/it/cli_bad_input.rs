//! Every kind of bad input is refused before any work: exit code 2, a message naming the
//! file, the line and what was expected, no panic, and no result file.

use crate::common::*;
use predicates::prelude::*;
use std::path::Path;

/// Run bench-run on a one-file dataset; assert exit 2, that stderr contains every `needle`,
/// that nothing panicked, and that no results were written.
fn refuses(name: &str, text: &str, strategy: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), name, text);
    refuses_path(&data, strategy, &[], needles, dir.path());
}

fn refuses_path(data: &Path, strategy: &str, extra: &[&str], needles: &[&str], dir: &Path) {
    let out = dir.join("out.csv");
    let assert = bench_run()
        .args(["--strategy", strategy])
        .args(extra)
        .arg("--dataset")
        .arg(data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    for n in needles {
        assert!(stderr.contains(n), "stderr lacks {n:?}:\n{stderr}");
    }
    assert!(!out.exists(), "a result file was written despite bad input");
}

#[test]
fn hitori_ragged_rows() {
    refuses(
        "p.txt",
        "1 2 3\n2 3 1\n3 1\n",
        "mrv",
        &["p.txt:3:", "expected 3"],
    );
}

#[test]
fn hitori_bad_character() {
    refuses("p.txt", "1 2 3\n2 x 1\n3 1 2\n", "mrv", &["p.txt:2:"]);
}

#[test]
fn hitori_value_below_one() {
    refuses("p.txt", "1 2 3\n2 0 1\n3 1 2\n", "mrv", &["p.txt:2:"]);
}

#[test]
fn hitori_value_too_large() {
    refuses(
        "p.txt",
        "1 2 3\n2 99999999999999 1\n3 1 2\n",
        "mrv",
        &["p.txt:2:"],
    );
}

#[test]
fn hitori_side_over_maximum() {
    let row: Vec<String> = (1..=65).map(|v| v.to_string()).collect();
    let text = format!("{}\n", vec![row.join(" "); 65].join("\n"));
    refuses("big.txt", &text, "mrv", &["big.txt:1:", "64"]);
}

#[test]
fn singles_cell_count_disagrees_with_size() {
    refuses("s.tsv", "3x3:12323131\n", "mrv", &["s.tsv:1:", "9", "8"]);
}

#[test]
fn singles_bad_character() {
    refuses("s.tsv", "3x3:1232!1312\n", "mrv", &["s.tsv:1:"]);
}

#[test]
fn empty_file() {
    refuses("empty.txt", "", "mrv", &["empty.txt", "no puzzle"]);
    refuses(
        "comments.txt",
        "# nothing here\n\n",
        "mrv",
        &["comments.txt", "no puzzle"],
    );
}

#[test]
fn unreadable_path() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope");
    refuses_path(&missing, "mrv", &[], &["nope", "cannot read"], dir.path());
}

#[test]
fn directory_without_puzzle_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("ds");
    std::fs::create_dir(&d).unwrap();
    write(&d, "README.md", "# about\n");
    refuses_path(&d, "mrv", &[], &["ds", "no puzzle files"], dir.path());
}

#[test]
fn sudoku_wrong_length() {
    let short = &SUDOKU_DEMO[..80];
    refuses(
        "s.txt",
        &format!("{SUDOKU_DEMO}\n{short}\n"),
        "abc",
        &["s.txt:2:", "81"],
    );
}

#[test]
fn sudoku_bad_character() {
    let bad = format!("{}x{}", &SUDOKU_DEMO[..40], &SUDOKU_DEMO[41..]);
    refuses(
        "s.txt",
        &format!("{SUDOKU_DEMO}\n{bad}\n"),
        "backtrack",
        &["s.txt:2:"],
    );
}

#[test]
fn sudoku_repeated_given() {
    // Row 1 gets a second 2.
    let bad = format!("2{}", &SUDOKU_DEMO[1..]);
    refuses(
        "s.txt",
        &format!("# c\n{bad}\n"),
        "backtrack",
        &["s.txt:2:", "2"],
    );
}

#[test]
fn unknown_strategy_and_kind_mismatch() {
    refuses("p.txt", HITORI_DEMO, "dfs", &["unknown strategy", "mrv"]);
    refuses("p.txt", HITORI_DEMO, "abc", &["abc", "sudoku"]);
    refuses("p.txt", HITORI_DEMO, "mrv,mrv", &["twice"]);
}

#[test]
fn impossible_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "p.txt", HITORI_DEMO);
    let sd = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let cases: &[(&Path, &str, &[&str], &str)] = &[
        (&data, "mrv", &["--rules", "fancy"], "--rules"),
        (&data, "mrv", &["--timeout=-1"], "--timeout"),
        (&data, "mrv", &["--timeout", "nan"], "--timeout"),
        (&data, "mrv", &["--seeds", "0"], "--seeds"),
        (&data, "mrv", &["--threads", "0"], "--threads"),
        (
            &data,
            "mrv",
            &["--count-solutions", "0"],
            "--count-solutions",
        ),
        (&data, "mrv", &["--node-limit", "0"], "--node-limit"),
        (&data, "mrv", &["--shard", "4/3"], "--shard"),
        (&data, "mrv", &["--colonies", "4"], "--colonies"),
        (&sd, "abc", &["--colony-size", "3"], "colony"),
        (&sd, "abc", &["--limit", "soon"], "--limit"),
        (&sd, "abc", &["--neighbourhood", "ring"], "--neighbourhood"),
        (&sd, "abc", &["--max-cycles", "0"], "--max-cycles"),
        (&sd, "backtrack", &["--trace", "t.csv"], "--trace"),
        (&data, "mrv", &["--threads", "1025"], "--threads"),
        (&data, "mrv", &["--timeout", "1e-9"], "0.001"),
        (&data, "mrv", &["--timeout", "-1"], "--timeout"),
        (
            &data,
            "mrv",
            &["--seed", "18446744073709551615", "--seeds", "2"],
            "past the largest 64-bit value",
        ),
        (
            &sd,
            "abc",
            &["--node-limit", "5"],
            "does not apply to any strategy",
        ),
        (
            &data,
            "mrv",
            &["--max-cycles", "10"],
            "does not apply to any strategy",
        ),
        (
            &data,
            "mrv,row",
            &["--seeds", "4294967295"],
            "more than the 4294967296 one run may hold",
        ),
    ];
    for (path, strategy, extra, needle) in cases {
        refuses_path(path, strategy, extra, &[needle], dir.path());
    }
}

#[test]
fn resume_without_an_interrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "p.txt", HITORI_DEMO);
    refuses_path(
        &data,
        "mrv",
        &["--resume"],
        &["--resume", "no interrupted run"],
        dir.path(),
    );
}

#[test]
fn two_files_numbering_the_same_ids() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    write(&data, "hard.sdk", SUDOKU_DEMO);
    write(&data, "hard.txt", SUDOKU_DEMO);
    refuses_path(
        &data,
        "backtrack",
        &[],
        &[
            "hard.txt: puzzle id \"hard:1\" is also given to a puzzle of",
            "hard.sdk",
            "rename one file",
        ],
        dir.path(),
    );
}
