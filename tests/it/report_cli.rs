//! CLI tests of `bench-report` on synthetic results written by the library's own CSV writer,
//! exactly as `bench-run` writes them.

use assert_cmd::Command;
use predicates::prelude::*;
use puzzlebench::results::{Columns, Record, Status};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn bench_report() -> Command {
    Command::cargo_bin("bench-report").expect("binary built")
}

fn write_csv(path: &Path, rows: &[Record], cols: Columns) {
    fs::write(path, puzzlebench::results::write::results_csv(rows, cols)).expect("write csv");
}

/// `n` Hitori jobs, two strategies alternating, with wall times from `time(i)`.
fn hitori_run(n: u64, time: impl Fn(u64) -> f64) -> Vec<Record> {
    (0..n)
        .map(|j| {
            let mut r = Record::sample(
                "hitori5",
                if j % 2 == 0 { "mrv" } else { "row" },
                &format!("hitori5:{}", j / 2 + 1),
                Status::Solved,
                time(j),
            );
            r.seed = 1;
            r.job = j;
            r.counters.nodes = Some(5 + j % 7);
            r.counters.max_depth = Some(3);
            r.counters.backtracks = Some(j % 3);
            r.counters.propagated = puzzlebench::results::counters::Fraction::new(0.25);
            r
        })
        .collect()
}

/// Deterministic +-3% wobble so medians are not all equal.
fn wobble(j: u64) -> f64 {
    1.0 + 0.03 * ((j * 7 % 5) as f64 - 2.0) / 2.0
}

fn base_run() -> Vec<Record> {
    hitori_run(40, |j| 0.001 * wobble(j))
}

fn file(dir: &TempDir, name: &str, rows: &[Record]) -> PathBuf {
    let p = dir.path().join(name);
    write_csv(&p, rows, Columns::default());
    p
}

#[test]
fn compare_identical_runs_exits_0() {
    let d = TempDir::new().expect("tmp");
    let a = file(&d, "a.csv", &base_run());
    let b = file(&d, "b.csv", &base_run());
    bench_report()
        .args(["compare"])
        .arg(&a)
        .arg(&b)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("## No regression"));
}

#[test]
fn compare_worse_counter_exits_1_and_names_the_puzzle() {
    let d = TempDir::new().expect("tmp");
    let a = file(&d, "a.csv", &base_run());
    let mut new = base_run();
    new[7].counters.nodes = Some(500); // hitori5:4, row
    let b = file(&d, "b.csv", &new);
    bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "| hitori5 | row basic | hitori5:4 | 1 | 0 | nodes | 5 | 500 | worse |",
        ));
}

#[test]
fn compare_worse_status_exits_1() {
    let d = TempDir::new().expect("tmp");
    let a = file(&d, "a.csv", &base_run());
    let mut new = base_run();
    new[0].status = Some(Status::Timeout);
    new[0].verified = false;
    let b = file(&d, "b.csv", &new);
    bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "| hitori5 | mrv basic | hitori5:1 | 1 | 0 | solved | timeout | worse |",
        ));
}

#[test]
fn compare_flags_slowdown_only_when_interval_clears_band() {
    let d = TempDir::new().expect("tmp");
    let a = file(&d, "a.csv", &base_run());
    // x1.5 on every row (20 per strategy): flagged.
    let slow = file(&d, "slow.csv", &hitori_run(40, |j| 0.0015 * wobble(j)));
    bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&slow)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("2 groups slower"))
        .stdout(predicate::str::contains("| SLOWER |"));
    // With --times warn (baseline from another machine) the slowdown is reported, not failed.
    bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&slow)
        .args(["--times", "warn"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("2 groups slower (not judged"));
    // x1.05 with different noise: within the band.
    let meh = file(&d, "meh.csv", &hitori_run(40, |j| 0.00105 * wobble(j + 3)));
    bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&meh)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("within noise"))
        .stdout(predicate::str::contains("slower").not());
    // The exports and the markdown copy are written alongside the verdict.
    let gab = d.path().join("gab.json");
    let bmf = d.path().join("bmf.json");
    let md = d.path().join("summary.md");
    bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&slow)
        .arg("--github-benchmark-out")
        .arg(&gab)
        .arg("--bmf-out")
        .arg(&bmf)
        .arg("--markdown-out")
        .arg(&md)
        .assert()
        .code(1);
    let gab: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&gab).expect("gab")).expect("json");
    assert_eq!(gab[0]["name"], "hitori5/mrv basic median wall");
    assert_eq!(gab[0]["unit"], "s");
    let bmf: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&bmf).expect("bmf")).expect("json");
    assert!(bmf["hitori5/row basic"]["latency"]["value"]
        .as_f64()
        .is_some());
    assert!(fs::read_to_string(&md)
        .expect("md")
        .starts_with("## REGRESSION"));
}

#[test]
fn compare_lists_missing_rows_and_reads_directories() {
    let d = TempDir::new().expect("tmp");
    let base_dir = d.path().join("base");
    let new_dir = d.path().join("new");
    fs::create_dir_all(&base_dir).expect("dir");
    fs::create_dir_all(&new_dir).expect("dir");
    let rows = base_run();
    // Baseline split over two files in a directory; the new run lacks the last two jobs.
    write_csv(&base_dir.join("a.csv"), &rows[..20], Columns::default());
    write_csv(&base_dir.join("b.csv"), &rows[20..], Columns::default());
    write_csv(&new_dir.join("all.csv"), &rows[..38], Columns::default());
    bench_report()
        .arg("compare")
        .arg(&base_dir)
        .arg(&new_dir)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("2 rows missing from new"))
        .stdout(predicate::str::contains("### Rows missing from new (2)"))
        .stdout(predicate::str::contains(
            "| hitori5 | mrv basic | hitori5:20 | 1 | 0 |",
        ));
}

fn shard_meta(k: u64, n: u64, total: u64, hash: &str) -> serde_json::Value {
    serde_json::json!({
        "tool": "bench-run", "version": "0.1.0", "git_revision": null,
        "command_line": ["bench-run", "--dataset", "datasets/hitori5", "--shard", format!("{k}/{n}")],
        "dataset": "hitori5", "strategies": ["mrv", "row"], "seed": 1, "seeds": 1, "colonies": 1,
        "timeout_s": 10.0, "node_limit": null, "threads": 2,
        "shard": {"index": k, "count": n}, "jobs_total": total, "jobs_in_shard": total / n,
        "plan_hash": hash, "started": "2024-05-01T10:00:00Z", "finished": "2024-05-01T10:05:00Z",
        "status": "complete", "machine": {"cpus": 2}
    })
}

/// Split a 30-job run into 3 shards by `job % 3`, each with its meta.
fn write_shards(d: &TempDir, rows: &[Record]) -> Vec<PathBuf> {
    (1..=3u64)
        .map(|k| {
            let part: Vec<Record> = rows
                .iter()
                .filter(|r| r.job % 3 == k - 1)
                .cloned()
                .collect();
            let p = d.path().join(format!("shard{k}.csv"));
            write_csv(&p, &part, Columns::default());
            let meta = shard_meta(k, 3, rows.len() as u64, "plan-1");
            fs::write(
                d.path().join(format!("shard{k}.meta.json")),
                meta.to_string(),
            )
            .expect("meta");
            p
        })
        .collect()
}

#[test]
fn merge_of_three_shards_equals_the_unsharded_run() {
    let d = TempDir::new().expect("tmp");
    let rows = hitori_run(30, |j| 0.001 * wobble(j));
    let shards = write_shards(&d, &rows);
    let whole = file(&d, "whole.csv", &rows);
    let out = d.path().join("merged.csv");
    bench_report()
        .arg("merge")
        .args(shards.iter().rev())
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("30 rows (complete)"));
    assert_eq!(
        fs::read(&out).expect("merged"),
        fs::read(&whole).expect("whole")
    );
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(d.path().join("merged.meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["status"], "complete");
    assert_eq!(meta["shard"], serde_json::json!({"index": 1, "count": 1}));
    assert_eq!(meta["jobs_total"], 30);
    assert_eq!(meta["merged_from"].as_array().map(Vec::len), Some(3));
    // A second merge onto the same output is refused without --force, allowed with it.
    bench_report()
        .arg("merge")
        .args(&shards)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "already exists (pass --force to overwrite)",
        ));
    bench_report()
        .arg("merge")
        .args(&shards)
        .arg("--output")
        .arg(&out)
        .arg("--force")
        .assert()
        .code(0);
}

#[test]
fn merge_refuses_duplicates_and_other_plans() {
    let d = TempDir::new().expect("tmp");
    let rows = hitori_run(30, |_| 0.001);
    let shards = write_shards(&d, &rows);
    let copy = d.path().join("copy.csv");
    fs::copy(&shards[0], &copy).expect("copy");
    fs::copy(
        d.path().join("shard1.meta.json"),
        d.path().join("copy.meta.json"),
    )
    .expect("copy");
    let out = d.path().join("merged.csv");
    bench_report()
        .arg("merge")
        .args(&shards)
        .arg(&copy)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "duplicate job 0 (puzzle hitori5:1)",
        ))
        .stderr(predicate::str::contains("shard1.csv"))
        .stderr(predicate::str::contains("copy.csv"));
    assert!(!out.exists(), "nothing written on refusal");

    fs::write(
        d.path().join("shard2.meta.json"),
        shard_meta(2, 3, 30, "plan-2").to_string(),
    )
    .expect("meta");
    bench_report()
        .arg("merge")
        .args(&shards)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("different plans"))
        .stderr(predicate::str::contains("plan-1"))
        .stderr(predicate::str::contains("plan-2"));
}

#[test]
fn merge_reports_missing_jobs() {
    let d = TempDir::new().expect("tmp");
    let rows = hitori_run(30, |_| 0.001);
    let shards = write_shards(&d, &rows);
    let out = d.path().join("merged.csv");
    bench_report()
        .arg("merge")
        .arg(&shards[0])
        .arg(&shards[2])
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("10 of 30 jobs missing: 1, 4, 7,"));
    assert!(!out.exists());
    bench_report()
        .arg("merge")
        .arg(&shards[0])
        .arg(&shards[2])
        .arg("--output")
        .arg(&out)
        .arg("--allow-missing")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("20 rows (interrupted)"));
}

/// A small XML well-formedness check: tags nest and close, attributes are quoted, `&` starts
/// an entity. Enough to catch a truncated or mangled SVG without an XML dependency.
fn assert_well_formed(xml: &str) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        for (i, _) in text.match_indices('&') {
            let ent = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"]
                    .iter()
                    .any(|e| ent.starts_with(e)),
                "bare & in text: {}",
                &ent[..ent.len().min(20)]
            );
        }
        rest = &rest[start..];
        if rest.starts_with("<!--") {
            let end = rest.find("-->").expect("comment closed");
            rest = &rest[end + 3..];
            continue;
        }
        if rest.starts_with("<?") {
            let end = rest.find("?>").expect("declaration closed");
            rest = &rest[end + 2..];
            continue;
        }
        // Find the tag end outside quotes.
        let mut quote = None;
        let mut end = None;
        for (i, c) in rest.char_indices().skip(1) {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '>') => {
                    end = Some(i);
                    break;
                }
                (None, '<') => panic!("'<' inside a tag"),
                _ => {}
            }
        }
        let end = end.expect("tag closed");
        let tag = &rest[1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.trim()),
                "mismatched close tag"
            );
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().expect("tag name");
            stack.push(name.to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
}

/// A trace of three seeds each of abc and abc-hybrid on one puzzle, as bench-run writes it.
fn write_abc_trace(path: &Path) {
    // Through the library's own writer.
    let mut t = puzzlebench::results::write::csv_line(puzzlebench::results::trace::TRACE_COLUMNS)
        .expect("header");
    for (job, (strategy, slope, seed)) in [("abc", 1, 0), ("abc", 1, 1), ("abc", 1, 2)]
        .into_iter()
        .chain([
            ("abc-hybrid", 2, 0),
            ("abc-hybrid", 2, 1),
            ("abc-hybrid", 2, 2),
        ])
        .enumerate()
    {
        let mut r = Record::sample("sudoku & co", strategy, "s:1", Status::Solved, 0.01);
        r.params = puzzlebench::results::Params::from_cell("limit=50");
        r.seed = seed;
        r.job = job as u64;
        let best: Vec<u32> = (0..20u32)
            .map(|cycle| 20u32.saturating_sub(cycle * slope + seed as u32))
            .collect();
        puzzlebench::results::trace::write_job(&mut t, &r, &best).expect("trace rows");
    }
    fs::write(path, t).expect("trace");
}

#[test]
fn plot_writes_well_formed_svgs_with_one_series_per_strategy() {
    let d = TempDir::new().expect("tmp");
    let mut rows = hitori_run(40, |j| 0.0001 * (j + 1) as f64);
    // An ABC group with 2 colonies on a Sudoku dataset.
    for j in 0..12u64 {
        let status = if j % 3 == 0 {
            Status::Unsolved
        } else {
            Status::Solved
        };
        let mut r = Record::sample(
            "sudoku & co",
            "abc",
            &format!("s:{}", j / 4 + 1),
            status,
            0.01 * (j + 1) as f64,
        );
        r.params = puzzlebench::results::Params::from_cell("limit=50");
        r.seed = j / 2 % 2;
        r.colony = (j % 2) as u32;
        r.job = 100 + j;
        r.counters.cycles = Some(10 * (j + 1));
        rows.push(r);
    }
    let csv = file(&d, "x.csv", &rows);
    let trace = d.path().join("trace.csv");
    write_abc_trace(&trace);
    let out = d.path().join("plots");
    let assert = bench_report()
        .arg("plot")
        .arg(&csv)
        .arg("--out")
        .arg(&out)
        .arg("--trace")
        .arg(&trace)
        .assert()
        .code(0);
    let stdout = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    let names: Vec<String> = stdout
        .lines()
        .map(|l| {
            Path::new(l)
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "hitori5-cactus.svg",
            "sudokuco~0e5e73d3-cactus.svg",
            "hitori5-nodes.svg",
            "sudokuco~0e5e73d3-cycles.svg",
            "convergence.svg"
        ]
    );
    let expect_series = |name: &str, labels: &[&str]| {
        let svg = fs::read_to_string(out.join(name)).expect("svg");
        assert_well_formed(&svg);
        for l in labels {
            assert_eq!(
                svg.matches(&format!(">\n{l}")).count(),
                1,
                "{name}: legend {l}"
            );
        }
        // Each series is drawn in its own palette colour, and no further colour is used.
        let palette = ["#1F77B4", "#FF7F0E", "#2CA02C", "#D62728"];
        for (i, col) in palette.iter().enumerate() {
            let drawn = svg.contains(&format!("stroke=\"{col}\""));
            assert_eq!(drawn, i < labels.len(), "{name}: colour {col}");
        }
    };
    expect_series(
        "hitori5-cactus.svg",
        &["mrv basic (20/20 solved)", "row basic (20/20 solved)"],
    );
    expect_series(
        "hitori5-nodes.svg",
        &["mrv basic (20/20 solved)", "row basic (20/20 solved)"],
    );
    expect_series("sudokuco~0e5e73d3-cycles.svg", &["abc (8/12 solved)"]);
    expect_series(
        "convergence.svg",
        &["abc (median of 3 runs)", "abc-hybrid (median of 3 runs)"],
    );
}

#[test]
fn summary_formats_and_time_limit_from_meta() {
    let d = TempDir::new().expect("tmp");
    let rows = hitori_run(30, |_| 0.5);
    let p = file(&d, "x.csv", &rows);
    bench_report()
        .arg("summary")
        .arg(&p)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "PAR-2 omitted: no time limit known",
        ));
    fs::write(
        d.path().join("x.meta.json"),
        shard_meta(1, 1, 30, "h").to_string(),
    )
    .expect("meta");
    bench_report()
        .arg("summary")
        .arg(&p)
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "PAR-2: mean of wall time if solved, else 2 x the time limit (10.0 s).",
        ))
        .stdout(predicate::str::contains(
            "equal mean nodes (×1.0); equal median time (×1.0), on the",
        ));
    let out = bench_report()
        .args(["summary", "--format", "json"])
        .arg(&p)
        .assert()
        .code(0);
    let j: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).expect("json output");
    assert_eq!(j["groups"][0]["runs"], 15);
    assert_eq!(j["time_limit_s"], 10.0);
    bench_report()
        .args(["summary", "--format", "csv"])
        .arg(&p)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with(
            "dataset,kind,strategy,rules,params,runs,solved",
        ));
}

/// Run `args` and expect exit 2 with every `needles` in stderr and no panic.
fn bad_input(args: &[&str], needles: &[&str]) {
    let out = bench_report().args(args).assert().code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "stderr lacks {n:?}: {err}");
    }
}

#[test]
fn bad_inputs_exit_2_naming_file_and_line() {
    let d = TempDir::new().expect("tmp");
    let good = file(&d, "good.csv", &base_run());
    let missing = d.path().join("nope.csv");
    let empty = d.path().join("empty.csv");
    fs::write(&empty, "").expect("write");
    let header_only = d.path().join("header.csv");
    write_csv(&header_only, &[], Columns::default());
    let bad_cell = d.path().join("bad.csv");
    let text = fs::read_to_string(&good).expect("read");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 7 gets "abc" in the nodes column (index 12).
    let mut cells: Vec<String> = text
        .lines()
        .nth(6)
        .expect("line 7")
        .split(',')
        .map(String::from)
        .collect();
    cells[12] = "abc".into();
    lines[6] = cells.join(",");
    fs::write(&bad_cell, lines.join("\n") + "\n").expect("write");
    let short = d.path().join("short.csv");
    fs::write(
        &short,
        format!("{}\nhitori5,p\n", text.lines().next().expect("header")),
    )
    .expect("write");
    let bad_meta = d.path().join("m.csv");
    fs::copy(&good, &bad_meta).expect("copy");
    fs::write(d.path().join("m.meta.json"), "{\"timeout_s\": \"ten\"}").expect("meta");
    let bad_trace = d.path().join("trace.csv");
    fs::write(
        &bad_trace,
        "job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony\n\
         0,x,3,d,p,abc,,0,0\n",
    )
    .expect("trace");
    let empty_dir = d.path().join("emptydir");
    fs::create_dir_all(&empty_dir).expect("dir");

    let s = |p: &Path| p.display().to_string();
    bad_input(&["summary", &s(&missing)], &[&s(&missing), "cannot read"]);
    bad_input(&["summary", &s(&empty)], &[&s(&empty), "empty file"]);
    bad_input(
        &["summary", &s(&header_only)],
        &[&s(&header_only), "no rows"],
    );
    bad_input(
        &["summary", &s(&bad_cell)],
        &[&format!(
            "{}:7: bad value \"abc\" in column nodes: expected an unsigned integer",
            s(&bad_cell)
        )],
    );
    bad_input(
        &["compare", &s(&good), &s(&short)],
        &[&format!("{}:2:", s(&short)), "fields"],
    );
    bad_input(&["compare", &s(&missing), &s(&good)], &[&s(&missing)]);
    bad_input(
        &["summary", &s(&bad_meta)],
        &["m.meta.json:1:", "bad run metadata"],
    );
    bad_input(
        &[
            "plot",
            &s(&good),
            "--out",
            &s(&d.path().join("o")),
            "--trace",
            &s(&bad_trace),
        ],
        &[&format!(
            "{}:2: bad value \"x\" in column cycle",
            s(&bad_trace)
        )],
    );
    bad_input(
        &["compare", &s(&empty_dir), &s(&good)],
        &[&s(&empty_dir), "no *.csv"],
    );
    bad_input(
        &[
            "merge",
            &s(&bad_cell),
            "--output",
            &s(&d.path().join("m_out.csv")),
        ],
        &[&format!("{}:7:", s(&bad_cell))],
    );
    bad_input(
        &["compare", &s(&good), &s(&good), "--noise-band=1.5"],
        &["--noise-band must be in [0, 1), got 1.5"],
    );
}
