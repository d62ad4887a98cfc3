//! Sudoku of order K (issue 29): `bench-gen sudoku --order K`, the one-line `sudokuN:` form,
//! `sudoku_acs` instance files, `abc-prop` and `restarts` on them with every answer verified,
//! and the 9x9-only strategies refusing other orders by name.

use crate::common::{bench_run, rows, write};
use assert_cmd::Command;
use puzzlebench::results::Status;
use std::path::PathBuf;

fn bench_gen() -> Command {
    Command::cargo_bin("bench-gen").expect("binary built")
}

/// Generate `count` puzzles of `order` with `pct`% given into `dir/name`.
fn generate(dir: &std::path::Path, name: &str, order: u8, pct: u8, count: u32) -> PathBuf {
    let out = dir.join(name);
    bench_gen()
        .args(["sudoku", "--order", &order.to_string(), "--given-pct"])
        .arg(pct.to_string())
        .args(["--count", &count.to_string(), "--seed", "4", "--out"])
        .arg(&out)
        .assert()
        .success();
    out
}

#[test]
fn generated_16x16_puzzles_are_solved_and_verified_by_both_new_strategies() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = generate(dir.path(), "g16.txt", 4, 45, 3);
    let text = std::fs::read_to_string(&file).expect("read");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3);
    for l in &lines {
        let vals: Vec<&str> = l
            .strip_prefix("sudoku16:")
            .expect("prefix")
            .split(',')
            .collect();
        assert_eq!(vals.len(), 256);
        assert_eq!(vals.iter().filter(|v| **v != "0").count(), 256 * 45 / 100);
    }
    let out = dir.path().join("r.csv");
    bench_run()
        .args([
            "--strategy",
            "abc-prop,restarts",
            "--seeds",
            "2",
            "--dataset",
        ])
        .arg(&file)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let rs = rows(&out);
    assert_eq!(rs.len(), 12);
    for r in &rs {
        assert_eq!(r.size, "16x16");
        assert_eq!(r.status, Some(Status::Solved), "{r:?}");
        assert!(r.verified);
        assert!(r.counters.evaluations.is_some_and(|e| e >= 1));
        assert_eq!(r.counters.best_conflicts, Some(0));
    }
    // The same seed gives the same rows.
    let again = dir.path().join("again.csv");
    bench_run()
        .args([
            "--strategy",
            "abc-prop,restarts",
            "--seeds",
            "2",
            "--threads",
            "2",
            "--dataset",
        ])
        .arg(&file)
        .arg("--output")
        .arg(&again)
        .assert()
        .success();
    let strip = |v: Vec<puzzlebench::results::Record>| {
        v.iter()
            .map(puzzlebench::results::Record::without_timing)
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(rows(&again)), strip(rs));
}

#[test]
fn the_9x9_only_strategies_refuse_other_orders_naming_the_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = generate(dir.path(), "g16.txt", 4, 50, 1);
    for s in ["abc", "abc-hybrid", "backtrack"] {
        let out = dir.path().join(format!("{s}.csv"));
        bench_run()
            .args(["--strategy", s, "--dataset"])
            .arg(&file)
            .arg("--output")
            .arg(&out)
            .assert()
            .code(1);
        let rs = rows(&out);
        assert_eq!(rs[0].status, Some(Status::Error));
        assert!(
            rs[0].message.contains("not order 4 (16x16)"),
            "{}",
            rs[0].message
        );
    }
}

#[test]
fn acs_instance_files_load_byte_for_byte_with_crlf_and_tabs() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A 4x4 (order 2) file in the instance format, written here: CRLF, tab-separated,
    // trailing tab, -1 blanks.
    let grid = [
        ["1", "-1", "-1", "4"],
        ["-1", "4", "1", "-1"],
        ["-1", "1", "4", "-1"],
        ["4", "-1", "-1", "1"],
    ];
    let mut text = String::from("2\r\n1\r\n");
    for row in grid {
        text.push_str(&row.join("\t"));
        text.push_str("\t\r\n");
    }
    let d = dir.path().join("acs");
    std::fs::create_dir(&d).expect("mkdir");
    write(&d, "inst4x4_50_0.txt", &text);
    // Order 3 instance: becomes the classic type, so backtrack takes it.
    let mut nine = String::from("3\r\n1\r\n");
    for _ in 0..9 {
        nine.push_str(&["-1"; 9].join("\t"));
        nine.push_str("\t\r\n");
    }
    let nine_file = write(&d, "inst9x9_0_0.txt", &nine);
    let out = dir.path().join("r.csv");
    bench_run()
        .args(["--strategy", "abc-prop", "--dataset"])
        .arg(&d)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let out9 = dir.path().join("r9.csv");
    bench_run()
        .args(["--strategy", "backtrack", "--dataset"])
        .arg(&nine_file)
        .arg("--output")
        .arg(&out9)
        .assert()
        .success();
    let mut rs = rows(&out);
    rs.extend(rows(&out9));
    let sizes: Vec<(&str, &str, Option<Status>)> = rs
        .iter()
        .map(|r| (r.puzzle_id.as_str(), r.size.as_str(), r.status))
        .collect();
    assert!(
        sizes.contains(&("inst4x4_50_0:1", "4x4", Some(Status::Solved))),
        "{sizes:?}"
    );
    assert!(
        sizes.contains(&("inst9x9_0_0:1", "9x9", Some(Status::Solved))),
        "{sizes:?}"
    );
    assert_eq!(rs.len(), 3);
    assert!(rs
        .iter()
        .any(|r| r.strategy == "backtrack" && r.size == "9x9"));
}

#[test]
fn malformed_order_k_input_names_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        (
            "short.txt",
            "# c\nsudoku16:1,2,3\n",
            "short.txt:2",
            "has 256 values, found 3",
        ),
        (
            "repeat.txt",
            "sudoku4:1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n",
            "repeat.txt:1",
            "repeats in row 1",
        ),
        ("acs.txt", "4\n1\n-1 99 -1 -1\n", "acs.txt:3", "value 99"),
    ];
    for (name, text, at, what) in cases {
        let f = write(dir.path(), name, text);
        let err = bench_run()
            .args(["--strategy", "abc-prop", "--dataset"])
            .arg(&f)
            .arg("--output")
            .arg(dir.path().join("x.csv"))
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&err);
        assert!(err.contains(at) && err.contains(what), "{name}: {err}");
    }
}

/// The first 20 of `sudoku_acs`' own 25x25 instances at 45%, where its checkout is given
/// (ACS_INSTANCES=<checkout>/instances/general; never copied into this repository).
#[test]
fn acs_25x25_instances_load_when_available() {
    let Some(dir) = std::env::var_os("ACS_INSTANCES").map(PathBuf::from) else {
        eprintln!("skipped: set ACS_INSTANCES to sudoku_acs' instances/general to run this");
        return;
    };
    for i in 0..20 {
        let f = dir.join(format!("inst25x25_45_{i}.txt"));
        let ds = puzzlebench::dataset::Dataset::open(&f).expect("loads");
        let p = ds.load_all().expect("puzzles");
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].size(), "25x25");
        assert_eq!(p[0].sudoku_order(), Some(5));
    }
}
