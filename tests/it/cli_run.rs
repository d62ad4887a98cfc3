//! `bench-run` end to end: rows, determinism, sharding, overwrite protection.

use crate::common::*;
use predicates::prelude::*;
use puzzlebench::results::meta;
use puzzlebench::results::Status;

#[test]
fn demo_puzzle_takes_8_nodes_with_mrv_and_basic_rules() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "demo.txt", HITORI_DEMO);
    let out = dir.path().join("r.csv");
    bench_run()
        .args([
            "--strategy",
            "mrv",
            "--rules",
            "basic",
            "--record-solutions",
        ])
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("mrv"));
    let r = rows(&out);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].puzzle_id, "demo");
    assert_eq!(r[0].status, Some(Status::Solved));
    assert!(r[0].verified);
    assert_eq!(r[0].counters.nodes, Some(8));
    assert_eq!(r[0].solution.as_deref(), Some(HITORI_DEMO_MASK));
    assert_eq!(r[0].size, "5x5");
    assert_eq!(r[0].kind.name(), "hitori");
    // The sidecar describes the run.
    let m = puzzlebench::results::read::read_meta_file(&meta::meta_path(&out)).unwrap();
    assert_eq!(m.status, Some(puzzlebench::results::RunStatus::Complete));
    assert_eq!(m.jobs_total, Some(1));
    assert_eq!(m.strategies, vec!["mrv".to_string()]);
    assert!(!dir.path().join("r.csv.partial").exists());
    assert!(!dir.path().join("r.csv.tmp").exists());
}

#[test]
fn csv_header_is_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "demo.txt", HITORI_DEMO);
    let out = dir.path().join("r.csv");
    bench_run()
        .args(["--strategy", "mrv,row", "--count-solutions", "2"])
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let header = text.lines().next().unwrap();
    assert_eq!(
        header,
        "dataset,puzzle_id,kind,size,strategy,rules,params,seed,colony,job,status,verified,nodes,\
         max_depth,backtracks,propagated,guesses,cycles,evaluations,scouts,best_conflicts,\
         empties_after_presolve,solutions,wall_s,cpu_s,claim,ended_by,message"
    );
    let r = rows(&out);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].strategy, "mrv");
    assert_eq!(r[1].strategy, "row");
    assert!(
        r.iter().all(|r| r.counters.solutions == Some(1)),
        "demo is unique"
    );
}

fn run_to(args: &[&str], data: &std::path::Path, out: &std::path::Path) {
    bench_run()
        .args(args)
        .arg("--dataset")
        .arg(data)
        .arg("--output")
        .arg(out)
        .assert()
        .success();
}

#[test]
fn rows_do_not_depend_on_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    write(&data, "demo.txt", HITORI_DEMO);
    write(&data, "sudoku.txt", &sudoku_lines());
    let hitori = [
        "--strategy",
        "mrv,row",
        "--rules",
        "full",
        "--record-solutions",
    ];
    let sudoku = [
        "--strategy",
        "abc,abc-hybrid,backtrack",
        "--seeds",
        "3",
        "--colonies",
        "2",
        "--max-cycles",
        "300",
        "--record-solutions",
    ];
    for (i, args) in [&hitori[..], &sudoku[..]].iter().enumerate() {
        let a = dir.path().join(format!("t1-{i}.csv"));
        let b = dir.path().join(format!("t2-{i}.csv"));
        let mut one = args.to_vec();
        one.extend(["--threads", "1"]);
        let mut two = args.to_vec();
        two.extend(["--threads", "2"]);
        run_to(&one, &data, &a);
        run_to(&two, &data, &b);
        let (ra, rb) = (untimed(&a), untimed(&b));
        assert!(!ra.is_empty());
        assert_eq!(ra, rb, "rows differ between --threads 1 and 2 for {args:?}");
        // Jobs are sorted by index in the finished file.
        assert!(ra.windows(2).all(|w| w[0].job < w[1].job));
    }
}

#[test]
fn shards_union_equals_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "sudoku.txt", &sudoku_lines());
    let args = [
        "--strategy",
        "abc,backtrack",
        "--seeds",
        "2",
        "--max-cycles",
        "200",
    ];
    let full = dir.path().join("full.csv");
    run_to(&args, &data, &full);
    let mut union = Vec::new();
    for k in 1..=3 {
        let out = dir.path().join(format!("s{k}.csv"));
        let mut a = args.to_vec();
        let shard = format!("{k}/3");
        a.extend(["--shard", &shard]);
        run_to(&a, &data, &out);
        let m = puzzlebench::results::read::read_meta_file(&meta::meta_path(&out)).unwrap();
        // 4 puzzles x 2 seeds x (abc + backtrack).
        assert_eq!(m.jobs_total, Some(16));
        union.extend(untimed(&out));
    }
    union.sort_by_key(|r| r.job);
    assert_eq!(union, untimed(&full));
}

#[test]
fn results_are_never_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "demo.txt", HITORI_DEMO);
    let out = dir.path().join("r.csv");
    run_to(&["--strategy", "mrv"], &data, &out);
    let before = std::fs::read(&out).unwrap();
    bench_run()
        .args(["--strategy", "row", "--dataset"])
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exist"));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    run_to(&["--strategy", "row", "--force"], &data, &out);
    assert_eq!(rows(&out)[0].strategy, "row");
}

#[test]
fn sudoku_rows_carry_abc_counters_and_colonies() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "demo.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = dir.path().join("r.csv");
    let trace = dir.path().join("trace.csv");
    bench_run()
        .args([
            "--strategy",
            "abc-hybrid,backtrack",
            "--seeds",
            "2",
            "--colonies",
            "3",
        ])
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .arg("--trace")
        .arg(&trace)
        .assert()
        .success();
    let r = rows(&out);
    // abc-hybrid: 2 seeds x 3 colonies; backtrack is deterministic: 2 seeds x 1 colony.
    assert_eq!(r.len(), 8);
    let abc: Vec<_> = r.iter().filter(|r| r.strategy == "abc-hybrid").collect();
    assert_eq!(abc.len(), 6);
    assert!(abc
        .iter()
        .all(|r| r.counters.empties_after_presolve.is_some() && r.counters.evaluations.is_some()));
    assert_eq!(
        abc[0].params.as_str(),
        "colony_size=100;limit=50;max_cycles=2000;neighbourhood=box"
    );
    let bt: Vec<_> = r.iter().filter(|r| r.strategy == "backtrack").collect();
    assert!(bt.iter().all(|r| r.status == Some(Status::Solved)
        && r.counters.nodes.is_some()
        && r.counters.cycles.is_none()));
    let t = std::fs::read_to_string(&trace).unwrap();
    assert!(
        t.starts_with("job,cycle,best_conflicts,dataset,puzzle_id,strategy,params,seed,colony\n")
    );
    // One traced run per ABC job, ending at the job's last cycle.
    let runs = puzzlebench::results::trace::read_trace(&trace).unwrap();
    assert_eq!(runs.len(), 6);
    for run in &runs {
        let row = abc
            .iter()
            .find(|r| r.job == run.job)
            .expect("a row per traced job");
        assert_eq!((run.seed, run.colony), (row.seed, row.colony));
        assert_eq!(run.points.last().map(|p| p.0), row.counters.cycles);
    }
}

#[test]
fn a_node_budget_ends_as_a_timeout_row() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "demo.txt", HITORI_DEMO);
    let out = dir.path().join("r.csv");
    // The demo needs 8 nodes with basic rules; 3 are not enough.
    run_to(
        &["--strategy", "mrv", "--rules", "basic", "--node-limit", "3"],
        &data,
        &out,
    );
    let r = rows(&out);
    assert_eq!(r[0].status, Some(Status::Timeout));
    assert!(!r[0].verified);
    assert_eq!(r[0].params.as_str(), "max_solutions=1;node_limit=3");
    // The same budget is generous enough with full rules (3 nodes).
    let out2 = dir.path().join("r2.csv");
    run_to(
        &["--strategy", "mrv", "--rules", "full", "--node-limit", "3"],
        &data,
        &out2,
    );
    assert_eq!(rows(&out2)[0].status, Some(Status::Solved));
}

#[test]
fn jobs_follow_the_plan_order_over_a_streamed_mixed_dataset() {
    // Strategies of both kinds, files of both kinds interleaved, several seeds: every
    // strategy block streams the puzzles of its kind again, in dataset order.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    write(&data, "a.txt", HITORI_DEMO);
    write(&data, "b.txt", &sudoku_lines());
    write(&data, "c.tsv", "2x2:1221\nsmall\t3x3:212123331\n");
    let out = dir.path().join("out.csv");
    run_to(
        &[
            "--strategy",
            "mrv,backtrack,row",
            "--seeds",
            "2",
            "--threads",
            "2",
        ],
        &data,
        &out,
    );
    let got: Vec<(u64, String, String, u64)> = rows(&out)
        .into_iter()
        .map(|r| {
            assert_eq!(r.status, Some(puzzlebench::results::Status::Solved));
            (r.job, r.strategy, r.puzzle_id, r.seed)
        })
        .collect();
    let hitori = ["demo", "c:1", "small"];
    let sudoku = ["b:1", "b:2", "b:3", "b:4"];
    let mut want = Vec::new();
    for (strategy, ids) in [
        ("mrv", &hitori[..]),
        ("backtrack", &sudoku[..]),
        ("row", &hitori[..]),
    ] {
        for id in ids {
            for seed in 0..2u64 {
                want.push((
                    want.len() as u64,
                    strategy.to_string(),
                    id.to_string(),
                    seed,
                ));
            }
        }
    }
    assert_eq!(got, want);
}

#[test]
fn unsolved_rows_say_whether_the_search_was_exhausted_or_gave_up() {
    let dir = tempfile::tempdir().unwrap();
    // No shading of this grid satisfies the rules.
    let hitori = write(dir.path(), "none.txt", "1 1\n1 1\n");
    let out = dir.path().join("h.csv");
    run_to(&["--strategy", "mrv"], &hitori, &out);
    let r = rows(&out);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].status, Some(Status::Unsolved));
    assert_eq!(r[0].message, "no solution: the search space was exhausted");
    // Pure ABC on the demo with a 5-cycle budget gives up.
    let sudoku = write(dir.path(), "demo.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = dir.path().join("s.csv");
    run_to(&["--strategy", "abc", "--max-cycles", "5"], &sudoku, &out);
    let r = rows(&out);
    assert_eq!(r[0].status, Some(Status::Unsolved));
    assert_eq!(
        r[0].message,
        "gave up: the cycle budget ran out without a solution"
    );
}
