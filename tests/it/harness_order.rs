//! The order jobs run in (issue 36): the jobs a report pairs — one puzzle and seed under each
//! strategy — run back to back on one worker, the strategies taking turns being first; warm-up
//! solves come before a worker's first measured job of a strategy and never make a row; rows
//! stay in plan order and do not depend on `--strategy`'s order beyond their job numbers.

use crate::common::*;
use puzzlebench::harness::{bench, BenchConfig};
use puzzlebench::results::read::read_meta_file;
use puzzlebench::results::Record;
use puzzlebench::solver::{End, FnSolver, Outcome, PuzzleKind, Solver, Task};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Every solve of every strategy, in the order they were called: (strategy, puzzle id).
type Calls = Arc<Mutex<Vec<(&'static str, String)>>>;

fn logging(name: &'static str, calls: &Calls) -> Box<dyn Solver> {
    let calls = Arc::clone(calls);
    Box::new(FnSolver::new(
        name,
        PuzzleKind::Hitori,
        move |t: &mut Task<'_>| {
            calls
                .lock()
                .expect("lock")
                .push((name, t.puzzle.id.clone()));
            Ok(Outcome::new(End::GaveUp))
        },
    ))
}

fn dataset(dir: &Path, puzzles: usize) -> std::path::PathBuf {
    let grids: Vec<String> = (0..puzzles)
        .map(|i| HITORI_DEMO.replace("# name: demo", &format!("# name: p{i}")))
        .collect();
    write(dir, "six.txt", &grids.join("\n"))
}

fn run(dir: &Path, names: &[&'static str], warmup: u32, calls: &Calls) -> Vec<Record> {
    let solvers = names.iter().map(|n| logging(n, calls)).collect();
    let mut cfg = BenchConfig::new(dataset(dir, 6), solvers);
    cfg.threads = 1;
    cfg.warmup = warmup;
    cfg.output = Some(dir.join(format!("{}-{warmup}.csv", names.join("_"))));
    cfg.command_line = vec!["test".into()];
    let out = bench(cfg, &AtomicBool::new(false)).expect("run");
    rows(&out.path)
}

#[test]
fn a_pair_group_runs_back_to_back_and_the_strategies_take_turns_being_first() {
    let d = tempfile::tempdir().expect("tmp");
    let calls: Calls = Arc::default();
    let rows = run(d.path(), &["a", "b", "c"], 0, &calls);
    let calls = calls.lock().expect("lock").clone();
    assert_eq!(rows.len(), 18);
    assert_eq!(calls.len(), 18, "no warm-up asked, none done");
    let mut firsts = [0; 3];
    for (i, group) in calls.chunks(3).enumerate() {
        let puzzle = &group[0].1;
        assert!(
            group.iter().all(|(_, p)| p == puzzle),
            "group {i}: {group:?}"
        );
        let mut names: Vec<&str> = group.iter().map(|(n, _)| *n).collect();
        firsts[["a", "b", "c"]
            .iter()
            .position(|n| *n == names[0])
            .expect("known")] += 1;
        names.sort_unstable();
        assert_eq!(names, ["a", "b", "c"], "group {i}");
    }
    assert_eq!(firsts, [2, 2, 2], "each strategy first equally often");
    // The rows are in plan order whatever order the jobs ran in.
    let jobs: Vec<u64> = rows.iter().map(|r| r.job).collect();
    assert_eq!(jobs, (0..18).collect::<Vec<_>>());
    assert!(rows[..6].iter().all(|r| r.strategy == "a"));
    assert!(rows[12..].iter().all(|r| r.strategy == "c"));
}

#[test]
fn warm_up_solves_come_first_are_counted_in_the_meta_and_make_no_row() {
    let d = tempfile::tempdir().expect("tmp");
    let calls: Calls = Arc::default();
    let rows = run(d.path(), &["a", "b"], 2, &calls);
    let calls = calls.lock().expect("lock").clone();
    assert_eq!(rows.len(), 12, "warm-up solves write no row");
    // One worker: two warm-up solves of each strategy's first job before it is measured.
    assert_eq!(calls.len(), 12 + 4);
    assert_eq!(
        calls[..3].iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        ["a", "a", "a"],
        "a warmed up twice, then measured"
    );
    assert_eq!(
        calls[3..6].iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        ["b", "b", "b"]
    );
    let meta = read_meta_file(&d.path().join("a_b-2.meta.json")).expect("meta");
    let e = meta.execution.expect("execution recorded");
    assert_eq!(e.order, "pair-groups");
    assert_eq!((e.warmup.per_worker, e.warmup.solves), (2, 4));
    assert!(e.warmup.budget_s > 0.0 && e.warmup.budget_s <= 1.0);
    assert_eq!(e.pinning.mode, "auto");
    assert!(!e.pinning.allowed.is_empty());
}

#[test]
fn rows_do_not_depend_on_the_order_of_strategies_beyond_their_job_numbers() {
    let d = tempfile::tempdir().expect("tmp");
    let calls: Calls = Arc::default();
    let key = |r: &Record| (r.strategy.clone(), r.puzzle_id.clone(), r.status);
    let mut ab: Vec<_> = run(d.path(), &["a", "b"], 1, &calls)
        .iter()
        .map(key)
        .collect();
    let mut ba: Vec<_> = run(d.path(), &["b", "a"], 1, &calls)
        .iter()
        .map(key)
        .collect();
    ab.sort();
    ba.sort();
    assert_eq!(ab, ba);
}

#[test]
fn pin_on_refuses_more_workers_than_allowed_cpus_and_pin_off_records_no_cpu() {
    let d = tempfile::tempdir().expect("tmp");
    let data = write(d.path(), "demo.txt", HITORI_DEMO);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let too_many = (cpus + 1).to_string();
    let out = d.path().join("on.csv");
    let run = bench_run()
        .args([
            "--strategy",
            "mrv",
            "--pin",
            "on",
            "--threads",
            &too_many,
            "--dataset",
        ])
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert!(
        err.contains("--pin on") && err.contains(&format!("{too_many} workers")),
        "{err}"
    );
    assert!(!out.exists() && !d.path().join("on.csv.partial").exists());
    bench_run()
        .args(["--strategy", "mrv", "--pin", "sometimes", "--dataset"])
        .arg(&data)
        .assert()
        .code(2);
    let off = d.path().join("off.csv");
    bench_run()
        .args([
            "--strategy",
            "mrv",
            "--pin",
            "off",
            "--threads",
            &too_many,
            "--dataset",
        ])
        .arg(&data)
        .arg("--output")
        .arg(&off)
        .assert()
        .success();
    let meta = read_meta_file(&puzzlebench::results::meta::meta_path(&off)).expect("meta");
    let p = meta.execution.expect("execution").pinning;
    assert_eq!(p.mode, "off");
    assert!(p.workers.is_empty());
    // Auto with more workers than CPUs: unpinned, and said once.
    let auto = d.path().join("auto.csv");
    let run = bench_run()
        .args(["--strategy", "mrv", "--threads", &too_many, "--dataset"])
        .arg(&data)
        .arg("--output")
        .arg(&auto)
        .assert()
        .success();
    let err = String::from_utf8_lossy(&run.get_output().stderr).to_string();
    assert_eq!(err.matches("workers not pinned").count(), 1, "{err}");
    let meta = read_meta_file(&puzzlebench::results::meta::meta_path(&auto)).expect("meta");
    let p = meta.execution.expect("execution").pinning;
    assert!(p.workers.is_empty() && p.note.is_some_and(|n| n.contains("not pinned")));
}

#[test]
fn the_order_of_strategy_names_does_not_change_the_order_jobs_run_in() {
    let d = tempfile::tempdir().expect("tmp");
    let (ab, ba): (Calls, Calls) = (Arc::default(), Arc::default());
    run(d.path(), &["a", "b"], 1, &ab);
    run(d.path(), &["b", "a"], 1, &ba);
    let ab = ab.lock().expect("lock").clone();
    assert_eq!(ab, *ba.lock().expect("lock"));
    // And they still take turns: a first in the first group (its warm-up, its job, then b's
    // warm-up and job), b first in the second.
    let names: Vec<&str> = ab[..6].iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["a", "a", "b", "b", "b", "a"]);
}
