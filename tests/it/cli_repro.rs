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
        .stdout(predicate::str::contains("Ratios on the runs both solved"))
        .stdout(predicate::str::contains(
            "row basic needs ×2.0 the mean nodes of mrv basic; equal median time (×1.0), on the 3 \
             of 4 common runs both solved",
        ))
        .stdout(predicate::str::contains("Wilson 95%"));
    let out = bench_report()
        .args(["summary", &s(&p), "--format", "csv"])
        .assert()
        .success();
    let csv = String::from_utf8(out.get_output().stdout.clone()).expect("utf-8");
    assert!(!csv.contains("NaN") && !csv.contains("000000000"), "{csv}");
    // mrv's ERT time: (14397.000000000002 + 3 x 0.001) / 4 solved.
    // ... then mrv's memout count, 0: new columns go at the end.
    assert!(csv.contains(",nodes,10,3599.25075,0\n"), "{csv}");
    assert!(csv
        .lines()
        .next()
        .expect("header")
        .ends_with("solved_lo_pct,solved_hi_pct,ert_unit,ert_effort,ert_s,memout"));
}

/// Hitori rows of mrv: `generated:1..4` with nodes 3, 7, 1, 9 (max depth nodes - 1 for the
/// first two: single-path searches) and a `demo` puzzle with 100 nodes.
fn hitori_subset_rows() -> Vec<Record> {
    let spec = [
        ("generated:1", 3, 2),
        ("generated:2", 7, 6),
        ("generated:3", 1, 0),
        ("generated:4", 9, 4),
        ("demo", 100, 9),
    ];
    spec.iter()
        .enumerate()
        .map(|(j, &(p, nodes, depth))| {
            let mut r = Record::sample("h5", "mrv", p, Status::Solved, 0.001 * (j + 1) as f64);
            r.job = j as u64;
            r.counters.nodes = Some(nodes);
            r.counters.max_depth = Some(depth);
            r.counters.backtracks = Some(nodes / 2);
            r
        })
        .collect()
}

fn summary_json(args: &[&str]) -> serde_json::Value {
    let out = bench_report()
        .arg("summary")
        .args(args)
        .args(["--format", "json"])
        .assert()
        .success();
    serde_json::from_slice(&out.get_output().stdout).expect("json")
}

#[test]
fn summary_where_and_counters_give_type7_figures_of_a_subset() {
    let d = TempDir::new().expect("tmp");
    let p = d.path().join("run.csv");
    write(&p, &hitori_subset_rows());
    let j = summary_json(&[&s(&p), "--where", "puzzle_id=generated:*", "--counters"]);
    assert_eq!(j["filter"], "puzzle_id=generated:*");
    let g = &j["groups"][0];
    assert_eq!(
        (g["runs"].as_u64(), g["puzzles"].as_u64()),
        (Some(4), Some(4))
    );
    let n = &g["counters"]["nodes"];
    // Sorted 1 3 7 9: type 7 p10 at h = 0.3 -> 1 + 0.3 * 2; median h = 1.5 -> 3 + 0.5 * 4;
    // p90 h = 2.7 -> 7 + 0.7 * 2.
    assert_eq!(n["runs"], 4);
    assert_eq!(n["sum"], 20.0);
    assert_eq!(n["mean"], 5.0);
    assert_eq!(
        (n["min"].as_f64(), n["max"].as_f64()),
        (Some(1.0), Some(9.0))
    );
    assert_eq!(n["p10"], 1.6);
    assert_eq!(n["median"], 5.0);
    assert_eq!(n["p90"], 8.4);
    // off_path = nodes - 1 - max_depth: 0, 0, 0, 4.
    let off = &g["counters"]["off_path"];
    assert_eq!(
        (off["zeros"].as_u64(), off["sum"].as_f64()),
        (Some(3), Some(4.0))
    );
    assert_eq!(g["counters"]["wall_s"]["max"], 0.004);
    assert!(
        g["counters"].get("cycles").is_none(),
        "no row reports cycles"
    );
    // Numeric terms, and-ed.
    let j = summary_json(&[&s(&p), "--where", "nodes>=7,nodes<100", "--counters"]);
    assert_eq!(j["groups"][0]["runs"], 2);
    assert_eq!(j["groups"][0]["counters"]["nodes"]["sum"], 16.0);
    let j = summary_json(&[&s(&p), "--where", "off_path=0"]);
    assert_eq!(j["groups"][0]["runs"], 3);
    // Without --counters the key is null; the text form names the filter.
    assert!(summary_json(&[&s(&p)])["groups"][0]["counters"].is_null());
    bench_report()
        .args(["summary", &s(&p), "--where", "puzzle_id=demo", "--counters"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Rows: only those with puzzle_id=demo",
        ))
        .stdout(predicate::str::contains("off_path"));
    // A filter that keeps nothing is said, not an error.
    bench_report()
        .args(["summary", &s(&p), "--where", "status=wrong"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: --where status=wrong matched none of the 5 rows",
        ));
}

#[test]
fn summary_best_of_k_over_colonies() {
    let d = TempDir::new().expect("tmp");
    let p = d.path().join("k.csv");
    // One puzzle, seed 0, 8 colonies: colony c solves in cycles[c] (0: unsolved after 2000).
    let cycles = [0u64, 0, 300, 0, 0, 0, 0, 100];
    let rows: Vec<Record> = cycles
        .iter()
        .enumerate()
        .map(|(c, &n)| {
            let status = if n > 0 {
                Status::Solved
            } else {
                Status::Unsolved
            };
            let n = if n > 0 { n } else { 2000 };
            let mut r = Record::sample("sd", "abc", "sd:1", status, n as f64 / 1000.0);
            r.job = c as u64;
            r.colony = c as u32;
            r.counters.cycles = Some(n);
            r
        })
        .collect();
    write(&p, &rows);
    let j = summary_json(&[&s(&p), "--best-of", "1,2,4,8,3"]);
    let b = &j["groups"][0]["best_of"];
    let at = |i: usize, k: &str| b[i][k].clone();
    // K = 1: 8 runs, 2 solved, (6 * 2000 + 300 + 100) / 2 = 6200 cycles, 6.2 s.
    assert_eq!(
        (at(0, "k"), at(0, "blocks"), at(0, "solved")),
        (1.into(), 8.into(), 2.into())
    );
    assert_eq!(
        (at(0, "ert_effort"), at(0, "ert_s")),
        (6200.0.into(), 6.2.into())
    );
    // K = 2: {0,1} 2000, {2,3} 300, {4,5} 2000, {6,7} 100 -> 4400 / 2.
    assert_eq!(
        (at(1, "blocks"), at(1, "solved"), at(1, "ert_effort")),
        (4.into(), 2.into(), 2200.0.into())
    );
    // K = 4: {0..3} 300, {4..7} 100 -> 400 / 2; K = 8: 100.
    assert_eq!(at(2, "ert_effort"), 200.0);
    assert_eq!(
        (at(3, "blocks"), at(3, "ert_effort"), at(3, "solved_pct")),
        (1.into(), 100.0.into(), 100.0.into())
    );
    // K = 3: blocks {0,1,2} 300 and {3,4,5} 2000; {6,7} is incomplete and left out.
    assert_eq!(
        (at(4, "blocks"), at(4, "solved"), at(4, "ert_effort")),
        (2.into(), 1.into(), 2300.0.into())
    );
    assert_eq!(at(4, "unit"), "cycles");
    bench_report()
        .args(["summary", &s(&p), "--best-of", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Best of K colonies"));
    bench_report()
        .args(["summary", &s(&p), "--best-of", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--best-of"));
}

#[test]
fn summary_trace_gives_convergence_quantiles() {
    let d = TempDir::new().expect("tmp");
    let (p, t) = (d.path().join("r.csv"), d.path().join("t.csv"));
    let mut trace =
        puzzlebench::results::write::csv_line(puzzlebench::results::trace::TRACE_COLUMNS)
            .expect("header");
    let mut rows = Vec::new();
    // Three seeds: best conflicts fall by 1 a cycle from 4, 6 and 8; seed 0 solves at cycle 4,
    // the others stop unsolved at cycle 5 (at 1 and 3).
    for (seed, start) in [(0u64, 4u32), (1, 6), (2, 8)] {
        let solved = seed == 0;
        let status = if solved {
            Status::Solved
        } else {
            Status::Unsolved
        };
        let mut r = Record::sample("sd", "abc", "sd:1", status, 0.01);
        r.seed = seed;
        r.job = seed;
        r.counters.cycles = Some(if solved { 4 } else { 5 });
        let best: Vec<u32> = (0..=r.counters.cycles.unwrap_or(0) as u32)
            .map(|c| start.saturating_sub(c))
            .collect();
        puzzlebench::results::trace::write_job(&mut trace, &r, &best).expect("trace rows");
        rows.push(r);
    }
    fs::write(&t, trace).expect("trace");
    write(&p, &rows);
    let j = summary_json(&[&s(&p), "--trace", &s(&t)]);
    let c = &j["convergence"][0];
    assert_eq!(
        (c["dataset"].as_str(), c["runs"].as_u64()),
        (Some("sd"), Some(3))
    );
    let pts = c["points"].as_array().expect("points");
    let first = &pts[0];
    // Cycle 0: 4 6 8 -> p10 4.4, median 6, p90 7.6, all unsolved.
    assert_eq!(
        (first["cycle"].as_u64(), first["median"].as_f64()),
        (Some(0), Some(6.0))
    );
    assert_eq!(
        (first["p10"].as_f64(), first["p90"].as_f64()),
        (Some(4.4), Some(7.6))
    );
    let last = pts.last().expect("last");
    // Cycle 5: 0 (solved, carried forward), 1, 3; unsolved 1 and 3 -> median 2.
    assert_eq!(
        (last["cycle"].as_u64(), last["median"].as_f64()),
        (Some(5), Some(1.0))
    );
    assert_eq!(
        (last["unsolved"].as_u64(), last["unsolved_median"].as_f64()),
        (Some(2), Some(2.0))
    );
    // `--where` reaches the trace through the rows it keeps: the solved seed alone, then the
    // two unsolved ones (cycle 0: 6 and 8 -> median 7).
    let j = summary_json(&[&s(&p), "--trace", &s(&t), "--where", "status=solved"]);
    let c = &j["convergence"][0];
    assert_eq!(c["runs"].as_u64(), Some(1));
    assert_eq!(c["points"][0]["median"].as_f64(), Some(4.0));
    let j = summary_json(&[&s(&p), "--trace", &s(&t), "--where", "status=unsolved"]);
    let c = &j["convergence"][0];
    assert_eq!(c["runs"].as_u64(), Some(2));
    assert_eq!(c["points"][0]["median"].as_f64(), Some(7.0));
    // plot draws the same runs as the summary counts.
    for (filter, runs) in [(None, 3), (Some("seed=1"), 1), (Some("status=unsolved"), 2)] {
        let out = d.path().join(format!("plots-{runs}"));
        let mut cmd = bench_report();
        cmd.args(["plot", &s(&p), "--out", &s(&out), "--trace", &s(&t)]);
        if let Some(f) = filter {
            cmd.args(["--where", f]);
        }
        cmd.assert().success();
        let svg = fs::read_to_string(out.join("convergence.svg")).expect("convergence.svg");
        assert!(
            svg.contains(&format!("(median of {runs} runs)")),
            "{filter:?}: {svg}"
        );
    }
    bench_report()
        .args(["summary", &s(&p), "--trace", &s(&d.path().join("none.csv"))])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("none.csv"));
}

#[test]
fn summary_bad_where_exits_2_saying_what_was_expected() {
    let d = TempDir::new().expect("tmp");
    let p = d.path().join("run.csv");
    write(&p, &hitori_subset_rows());
    for (filter, needle) in [
        ("size<9x9", "size is text"),
        ("nodes>=many", "nodes is a number"),
        ("status=done", "status is solved, unsolved"),
        ("nodes", "expected key=value"),
        ("strategy=mrv,", "empty term"),
        (
            "limt=50",
            "no row has a column, parameter or stats key limt",
        ),
    ] {
        bench_report()
            .args(["summary", &s(&p), "--where", filter])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
    }
}
