//! Reliability, fourth round (issue 38): bounded memory for every input and output, messages
//! that say what happened, and the inputs that were trusted too much.

use crate::common::*;
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::Path;

/// `bench-gen` with `args` and `--out out`: its exit code and stderr.
fn bench_gen(args: &[&str], out: &Path) -> (Option<i32>, String) {
    let o = Command::cargo_bin("bench-gen")
        .expect("bench-gen is built")
        .args(args)
        .arg("--out")
        .arg(out)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("bench-gen runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

// Issue 38, item 2: `--count 10000000 --order 6` (about 35 GB) was accepted with no estimate,
// and the whole output was held twice before writing. Outputs beyond 2 GiB are refused up
// front with the estimate, unless --allow-large; nothing is written.
#[test]
fn bench_gen_refuses_an_output_beyond_the_bound_with_its_estimate() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("big.txt");
    for (args, estimate) in [
        (
            vec![
                "sudoku",
                "--order",
                "6",
                "--given-pct",
                "45",
                "--count",
                "10000000",
            ],
            "up to about 39.0 GB (10000000 puzzles of up to 3897 bytes each)",
        ),
        (
            vec!["hitori", "--size", "64", "--count", "1000000"],
            "up to about 8.2 GB",
        ),
        (
            vec![
                "hitori", "--size", "40", "--format", "grid", "--count", "2000000",
            ],
            "GB (2000000 puzzles",
        ),
    ] {
        let (code, e) = bench_gen(&args, &out);
        assert_eq!(code, Some(2), "{args:?}: {e}");
        assert!(e.contains(estimate), "{args:?}: {e}");
        assert!(
            e.contains("beyond the 2 GiB") && e.contains("--allow-large"),
            "{e}"
        );
        assert!(!out.exists(), "nothing is written");
    }
}

// Issue 38, item 2: the output is written as it is made, a chunk at a time; the file is the
// same as one made whole (puzzle i depends only on the seed and i), past a chunk boundary.
#[test]
fn bench_gen_streams_the_same_puzzles_past_a_chunk() {
    let d = tempfile::tempdir().unwrap();
    let (long, short) = (d.path().join("long.txt"), d.path().join("short.txt"));
    let base = ["sudoku", "--order", "2", "--given-pct", "50", "--seed", "9"];
    let (code, e) = bench_gen(&[&base[..], &["--count", "4100"]].concat(), &long);
    assert_eq!(code, Some(0), "{e}");
    let (code, e) = bench_gen(&[&base[..], &["--count", "5"]].concat(), &short);
    assert_eq!(code, Some(0), "{e}");
    let long = std::fs::read_to_string(&long).unwrap();
    let short = std::fs::read_to_string(&short).unwrap();
    let puzzles = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let (l, s) = (puzzles(&long), puzzles(&short));
    assert_eq!(l.len(), 4100);
    assert_eq!(&l[..5], &s[..]);
    assert!(l.iter().all(|p| p.starts_with("sudoku4:")), "{:?}", &l[..3]);
    // No temporary file is left beside the output.
    let names: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// `bench-run` on `data` with the backtrack strategy: exit code and stderr.
fn run_on(dir: &Path, data: &Path) -> (Option<i32>, String) {
    let o = bench_run()
        .current_dir(dir)
        .args(["--strategy", "backtrack", "--threads", "1"])
        .arg("--dataset")
        .arg(data)
        .arg("--output")
        .arg(dir.join("out.csv"))
        .arg("--force")
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("bench-run runs");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

// Issue 38, item 1: 10 MB of newlines before a grid took 629 MB; blank and comment lines are
// passed over, not kept. Here 40 MB of them (CRLF, spaces, `#` lines) before and after.
#[test]
fn blank_and_comment_lines_around_a_puzzle_are_passed_over() {
    let d = tempfile::tempdir().unwrap();
    let mut text = String::with_capacity(50 << 20);
    text.push_str(&"\n".repeat(20 << 20));
    text.push_str(&"\r\n  \t\n".repeat(1 << 20));
    text.push_str(&"# a comment\n".repeat(1 << 19));
    text.push_str(SUDOKU_DEMO);
    text.push('\n');
    text.push_str(&"\n".repeat(8 << 20));
    let data = write(d.path(), "s.txt", &text);
    let (code, e) = run_on(d.path(), &data);
    assert_eq!(code, Some(0), "{e}");
    let r = rows(&d.path().join("out.csv"));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].puzzle_id, "s:1");
    // Nothing but blank lines: refused as holding no puzzle.
    let empty = write(d.path(), "e.txt", &"\n".repeat(30 << 20));
    let (code, e) = run_on(d.path(), &empty);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("e.txt: no puzzle found"), "{e}");
}

// Issue 38, item 3: ACS files' errors name the file, the line of the fault and the format.
#[test]
fn acs_instance_errors_name_file_line_and_format() {
    let d = tempfile::tempdir().unwrap();
    let row = vec!["-1"; 16].join("\t");
    let mut grid: Vec<String> = vec![row.clone(); 16];
    grid[3] = format!("7\t{}", vec!["-1"; 15].join("\t"));
    grid[9] = format!("-1\t7\t{}", vec!["-1"; 14].join("\t"));
    grid[10] = format!("-1\t7\t{}", vec!["-1"; 14].join("\t"));
    let repeat = write(
        d.path(),
        "r.txt",
        &format!("4\r\n1\r\n{}\r\n", grid.join("\r\n")),
    );
    for (file, want) in [
        (repeat, "r.txt:13: given 7 at r11c2 repeats in column 2"),
        (
            write(d.path(), "o.txt", "8\n1\n-1 -1 -1\n"),
            "o.txt:1: the first line is `8`, not an order",
        ),
        (
            write(d.path(), "s.txt", &format!("4\n1 x\n{row}\n")),
            "s.txt:2: the second line is `1 x`",
        ),
        (
            write(
                d.path(),
                "t.txt",
                &format!("2\n1\n{}\n", vec!["-1"; 17].join(" ")),
            ),
            "t.txt:3: more than the 16 values",
        ),
    ] {
        let (code, e) = run_on(d.path(), &file);
        assert_eq!(code, Some(2), "{e}");
        assert!(e.contains(want), "{e}");
        assert!(
            e.contains("expected a sudoku_acs instance file: the order K (2 to 6"),
            "{e}"
        );
    }
    // A `#` line inside an instance is a comment, as in every other format.
    let mut ok = String::from("2\n# the second number\n1\n");
    for _ in 0..4 {
        ok.push_str("-1 -1 -1 -1\n# row\n");
    }
    let ok = write(d.path(), "ok.txt", &ok);
    let o = bench_run()
        .current_dir(d.path())
        .args(["--strategy", "abc-prop", "--threads", "1", "--dataset"])
        .arg(&ok)
        .arg("--output")
        .arg(d.path().join("ok.csv"))
        .assert()
        .success()
        .stderr(predicate::str::contains("panicked").not());
    drop(o);
    assert_eq!(rows(&d.path().join("ok.csv")).len(), 1);
}

// Issue 38, item 7: `--noise-band` with `--calibrate` was accepted and the band silently won.
#[test]
fn noise_band_and_calibrate_are_refused_together() {
    let d = tempfile::tempdir().unwrap();
    let a = write(d.path(), "a.csv", "x\n");
    for sub in ["compare", "html"] {
        let mut cmd = Command::cargo_bin("bench-report").unwrap();
        cmd.arg(sub);
        if sub == "html" {
            cmd.arg("--out")
                .arg(d.path().join("page"))
                .arg(&a)
                .arg("--baseline");
        }
        let o = cmd
            .arg(&a)
            .arg(&a)
            .args(["--noise-band", "0.3", "--calibrate"])
            .arg(&a)
            .arg(&a)
            .output()
            .unwrap();
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{sub}: {e}");
        assert!(
            e.contains("--noise-band")
                && e.contains("cannot be used with")
                && e.contains("--calibrate"),
            "{sub}: {e}"
        );
    }
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

// Issue 38, items 10 and 11: `-o out/mycrate.csv` beside a directory `out/mycrate/` was
// refused ("its meta file … belongs to …/mycrate too"): only a results file owns a meta. And
// finished runs left a `*.meta.lock` beside every result.
#[test]
fn a_directory_owns_no_meta_and_finished_runs_leave_no_lock() {
    let d = tempfile::tempdir().unwrap();
    let data = write(d.path(), "p.txt", HITORI_DEMO);
    let out = d.path().join("out");
    std::fs::create_dir_all(out.join("mycrate").join("src")).unwrap();
    for (name, args) in [
        ("mycrate.csv", &["--strategy", "mrv"][..]),
        ("second.csv", &["--strategy", "mrv,row"][..]),
    ] {
        bench_run()
            .args(args)
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(out.join(name))
            .assert()
            .success();
    }
    assert_eq!(
        names(&out),
        [
            "mycrate",
            "mycrate.csv",
            "mycrate.meta.json",
            "second.csv",
            "second.meta.json"
        ]
    );
    // A results FILE of the other name still owns the meta.
    std::fs::write(out.join("third"), "x\n").unwrap();
    let o = bench_run()
        .args(["--strategy", "mrv", "--dataset"])
        .arg(&data)
        .arg("--output")
        .arg(out.join("third.csv"))
        .assert()
        .code(2);
    let e = String::from_utf8_lossy(&o.get_output().stderr).into_owned();
    assert!(e.contains("belongs to") && e.contains("third"), "{e}");
    assert!(
        !out.join("third.meta.lock").exists(),
        "a refused run leaves no lock"
    );
}

// Issue 38, item 9: `compare` given the parent of nightly runs said only "holds no *.csv
// files"; it says which night to name.
#[test]
fn compare_given_the_parent_of_nights_says_which_night_to_name() {
    let d = tempfile::tempdir().unwrap();
    let data = write(d.path(), "p.txt", HITORI_DEMO);
    let nightly = d.path().join("nightly");
    for night in ["2026-12-01", "2026-12-02"] {
        bench_run()
            .args(["--strategy", "mrv", "--dataset"])
            .arg(&data)
            .arg("--output")
            .arg(nightly.join(night).join("hitori.csv"))
            .assert()
            .success();
    }
    let o = Command::cargo_bin("bench-report")
        .unwrap()
        .arg("compare")
        .arg(nightly.join("2026-12-01"))
        .arg(&nightly)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("directory holds no *.csv files"), "{e}");
    assert!(
        e.contains("2 of its subdirectories hold results")
            && e.contains(&format!("{}", nightly.join("2026-12-02").display())),
        "{e}"
    );
}
