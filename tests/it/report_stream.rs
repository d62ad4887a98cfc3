//! CLI tests of the streaming `bench-report merge` and `compare`: rows out of order, plans
//! checked from the rows when metas are missing, dataset contents checked from the metas, and
//! the complete list of changes in `--markdown-out`.

use crate::common::{bench_run, datasets, rows, untimed};
use assert_cmd::Command;
use puzzlebench::results::meta::meta_path;
use puzzlebench::results::{Columns, Record, RunMeta, Status};
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn bench_report() -> Command {
    Command::cargo_bin("bench-report").expect("binary built")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A shard of a real `bench-run` plan on the bundled 5x5 set, its meta removed.
fn shard_without_meta(d: &TempDir, name: &str, extra: &[&str], shard: &str) -> PathBuf {
    let out = d.path().join(name);
    bench_run()
        .arg("--dataset")
        .arg(datasets().join("hitori5"))
        .args(["--strategy", "mrv", "--threads", "1", "--shard", shard])
        .args(extra)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    fs::remove_file(meta_path(&out)).expect("meta written, then removed");
    out
}

fn merge(files: &[&Path], out: &Path) -> assert_cmd::assert::Assert {
    let mut c = bench_report();
    c.arg("merge");
    for f in files {
        c.arg(f);
    }
    c.arg("--output").arg(out).arg("--allow-missing").assert()
}

#[test]
fn merge_without_metas_accepts_one_plan_and_refuses_two() {
    let d = TempDir::new().expect("tmp");
    // One plan, two shards, no metas: the rows fit one plan, so they merge to the
    // unsharded run's rows.
    let one = ["--rules", "basic", "--seed", "7", "--seeds", "2"];
    let a = shard_without_meta(&d, "a.csv", &one, "1/2");
    let b = shard_without_meta(&d, "b.csv", &one, "2/2");
    let whole = d.path().join("whole.csv");
    bench_run()
        .arg("--dataset")
        .arg(datasets().join("hitori5"))
        .args(["--strategy", "mrv", "--threads", "1"])
        .args(one)
        .arg("--output")
        .arg(&whole)
        .assert()
        .code(0);
    let merged = d.path().join("merged.csv");
    merge(&[&a, &b], &merged).code(0);
    assert_eq!(untimed(&merged), untimed(&whole));

    // `basic` with seed 7 against `full` with seed 0, then the same rules with another
    // --seed (only the numbering of seeds against jobs tells those apart): refused, with a
    // row of each file named, and nothing published.
    for (name, opts, needles) in [
        (
            "c.csv",
            ["--rules", "full", "--seed", "0"],
            &["rules basic", "seed 7", "rules full"][..],
        ),
        (
            "e.csv",
            ["--rules", "basic", "--seed", "8"],
            &["seed 7", "seed 9"][..],
        ),
    ] {
        let other = shard_without_meta(&d, name, &[&opts[..], &["--seeds", "2"]].concat(), "2/2");
        let target = d.path().join(format!("m-{name}"));
        let out = merge(&[&a, &other], &target).code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        for needle in ["different plans (checked from the rows", &s(&a), &s(&other)]
            .into_iter()
            .chain(needles.iter().copied())
        {
            assert!(err.contains(needle), "stderr lacks {needle:?}: {err}");
        }
        assert!(!target.exists(), "nothing published on a refusal");
    }
}

#[test]
fn merge_refuses_a_file_out_of_job_order_with_its_line() {
    let d = TempDir::new().expect("tmp");
    let mut r: Vec<Record> = (0..4)
        .map(|j| {
            let mut r = Record::sample("d", "mrv", &format!("d:{}", j + 1), Status::Solved, 0.001);
            r.job = j;
            r.counters.nodes = Some(1);
            r
        })
        .collect();
    r.swap(1, 2);
    let p = d.path().join("x.csv");
    fs::write(
        &p,
        puzzlebench::results::write::results_csv(&r, Columns::default()),
    )
    .expect("write");
    let out = merge(&[&p], &d.path().join("m.csv")).code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains(&format!("{}:4: job 1 follows job 2", s(&p))),
        "{err}"
    );
}

/// `n` solved Hitori rows of one strategy.
fn run(n: u64, nodes: impl Fn(u64) -> u64) -> Vec<Record> {
    (0..n)
        .map(|j| {
            let mut r = Record::sample(
                "hitori5",
                "mrv",
                &format!("hitori5:{}", j + 1),
                Status::Solved,
                0.001,
            );
            r.job = j;
            r.counters.nodes = Some(nodes(j));
            r
        })
        .collect()
}

fn write_run(d: &TempDir, name: &str, rows: &[Record], hash: Option<&str>) -> PathBuf {
    let p = d.path().join(name);
    fs::write(
        &p,
        puzzlebench::results::write::results_csv(rows, Columns::default()),
    )
    .expect("write");
    if let Some(h) = hash {
        let m = RunMeta {
            dataset_name: Some("hitori5".into()),
            dataset_hash: Some(h.into()),
            ..RunMeta::default()
        };
        fs::write(meta_path(&p), serde_json::to_string(&m).expect("json")).expect("meta");
    }
    p
}

#[test]
fn markdown_out_lists_every_change_while_the_terminal_stops_at_20() {
    let d = TempDir::new().expect("tmp");
    let base = write_run(&d, "base.csv", &run(30, |_| 5), Some("h1"));
    let new = write_run(&d, "new.csv", &run(30, |_| 6), Some("h1"));
    let md = d.path().join("report.md");
    let out = bench_report()
        .arg("compare")
        .arg(&base)
        .arg(&new)
        .arg("--markdown-out")
        .arg(&md)
        .assert()
        .code(1);
    let term = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let file = fs::read_to_string(&md).expect("markdown written");
    let changes = |t: &str| {
        t.lines()
            .filter(|l| l.contains("| nodes | 5 | 6 | worse |"))
            .count()
    };
    assert_eq!(changes(&term), 20, "{term}");
    assert!(term.contains("… and 10 more"), "{term}");
    assert_eq!(changes(&file), 30, "{file}");
    assert!(!file.contains("more"), "{file}");
}

#[test]
fn compare_refuses_different_dataset_contents_unless_forced() {
    let d = TempDir::new().expect("tmp");
    let base = write_run(&d, "base.csv", &run(10, |_| 5), Some("aaaa"));
    let new = write_run(&d, "new.csv", &run(10, |_| 5), Some("bbbb"));
    let out = bench_report()
        .arg("compare")
        .arg(&base)
        .arg(&new)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    for needle in [
        "different dataset contents for hitori5",
        "aaaa",
        "bbbb",
        &s(&base),
        &s(&new),
        "--force",
    ] {
        assert!(err.contains(needle), "stderr lacks {needle:?}: {err}");
    }
    let out = bench_report()
        .arg("compare")
        .arg(&base)
        .arg(&new)
        .arg("--force")
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("compared anyway (--force)"), "{err}");

    // One meta missing: said on stderr, and the comparison runs.
    let bare = write_run(&d, "bare.csv", &run(10, |_| 5), None);
    let out = bench_report()
        .arg("compare")
        .arg(&base)
        .arg(&bare)
        .assert()
        .code(0);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains(&format!("{} (new): no .meta.json beside it", s(&bare))),
        "{err}"
    );
}

#[test]
fn compare_names_a_column_missing_on_one_side_and_fails_on_a_wrong_row() {
    let d = TempDir::new().expect("tmp");
    let mut with = run(6, |_| 5);
    for r in &mut with {
        r.counters.solutions = Some(1);
    }
    let cols = Columns {
        solutions: true,
        ..Columns::default()
    };
    let a = d.path().join("a.csv");
    fs::write(&a, puzzlebench::results::write::results_csv(&with, cols)).expect("write");
    let b = write_run(&d, "b.csv", &run(6, |_| 5), None);
    let out = bench_report()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        err.contains("the baseline has solutions and the new run does not"),
        "{err}"
    );

    let mut bad = run(6, |_| 5);
    bad[3].status = Some(Status::Wrong);
    let w = write_run(&d, "w.csv", &bad, None);
    let out = bench_report()
        .arg("compare")
        .arg(&w)
        .arg(&w)
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("1 row of the new run wrong"), "{text}");
    // The rows helper reads through the same reader the reports use.
    assert_eq!(rows(&w).len(), 6);
}

/// A shard of an ABC plan with several colonies on the demo Sudoku, its meta removed.
fn abc_shard_without_meta(
    d: &TempDir,
    name: &str,
    seed: &str,
    colonies: &str,
    shard: &str,
) -> PathBuf {
    let out = d.path().join(name);
    bench_run()
        .arg("--dataset")
        .arg(datasets().join("sudoku-demo"))
        .args([
            "--strategy",
            "abc",
            "--max-cycles",
            "20",
            "--seeds",
            "2",
            "--threads",
            "1",
        ])
        .args(["--seed", seed, "--colonies", colonies, "--shard", shard])
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    fs::remove_file(meta_path(&out)).expect("meta written, then removed");
    out
}

#[test]
fn merge_without_metas_checks_the_numbering_of_colonies() {
    let d = TempDir::new().expect("tmp");
    let a = abc_shard_without_meta(&d, "a.csv", "7", "3", "1/2");
    let b = abc_shard_without_meta(&d, "b.csv", "7", "3", "2/2");
    let merged = d.path().join("merged.csv");
    let out = merge(&[&a, &b], &merged).code(0);
    let said = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        said.contains("6 rows (completeness unknown: not every input has a .meta.json"),
        "{said}"
    );
    let merged_rows = rows(&merged);
    let keys: Vec<(u64, u64, u32)> = merged_rows
        .iter()
        .map(|r| (r.job, r.seed, r.colony))
        .collect();
    assert_eq!(
        keys,
        [
            (0, 7, 0),
            (1, 7, 1),
            (2, 7, 2),
            (3, 8, 0),
            (4, 8, 1),
            (5, 8, 2)
        ]
    );
    // The other half of a plan with another --seed, or with another --colonies: the block's
    // strategy, rules, params and seed range can all look right, only the numbering differs.
    for (name, seed, colonies) in [("c.csv", "8", "3"), ("e.csv", "7", "2")] {
        let other = abc_shard_without_meta(&d, name, seed, colonies, "2/2");
        let target = d.path().join(format!("m-{name}"));
        let out = merge(&[&a, &other], &target).code(2);
        let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        for needle in [
            "different plans (checked from the rows",
            "rows of runs with different --seed, --seeds or --colonies are mixed",
            &s(&a),
            &s(&other),
        ] {
            assert!(err.contains(needle), "stderr lacks {needle:?}: {err}");
        }
        assert!(!target.exists(), "nothing published on a refusal");
    }
}
