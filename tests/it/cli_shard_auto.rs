//! `--shard auto` (Slurm array tasks) and `--shard auto/N` (Kubernetes Indexed Jobs): the slice
//! comes from the environment and is said on stderr; nothing is read from the environment
//! without `auto`; a missing, malformed, stepped or gapped setting stops the run with exit 2
//! before anything is written; the resume command of an interrupted task carries the slice.

use crate::common::*;
use assert_cmd::Command;
use predicates::prelude::*;
use puzzlebench::results::meta;
use puzzlebench::results::read::read_meta_file;
use puzzlebench::results::Shard;
use std::path::Path;

/// Every variable `auto` may read: cleared first so that a test run inside a real Slurm job or
/// pod sees only what the test sets.
const SCHEDULER_VARS: [&str; 6] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
];

const ARGS: [&str; 4] = ["--strategy", "abc,backtrack", "--seeds", "2"];

/// `bench-run ARGS --dataset data --output out` in an environment holding only `vars` of the
/// scheduler's.
fn run_with(vars: &[(&str, &str)], extra: &[&str], data: &Path, out: &Path) -> Command {
    let mut c = bench_run();
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    c.envs(vars.iter().copied())
        .args(ARGS)
        .args(["--max-cycles", "200"])
        .args(extra)
        .arg("--dataset")
        .arg(data)
        .arg("--output")
        .arg(out);
    c
}

fn slurm_task(id: &str, min: &str, max: &str, count: &str) -> Vec<(&'static str, String)> {
    vec![
        ("SLURM_ARRAY_TASK_ID", id.to_string()),
        ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
        ("SLURM_ARRAY_TASK_MIN", min.to_string()),
        ("SLURM_ARRAY_TASK_MAX", max.to_string()),
        ("SLURM_ARRAY_TASK_STEP", "1".to_string()),
    ]
}

fn as_refs<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    v.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

fn shard_of(out: &Path) -> Option<Shard> {
    read_meta_file(&meta::meta_path(out))
        .expect("meta written")
        .shard
}

#[test]
fn slurm_arrays_from_0_and_from_1_take_their_slice_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let full = dir.path().join("full.csv");
    run_with(&[], &[], &data, &full).assert().success();
    for (min, max) in [("0", "2"), ("1", "3")] {
        let mut union = Vec::new();
        for i in 0..3u32 {
            let id = (min.parse::<u32>().unwrap() + i).to_string();
            let vars = slurm_task(&id, min, max, "3");
            let out = dir.path().join(format!("from{min}-{id}.csv"));
            let want = format!(
                "bench-run: --shard auto: running slice {}/3 (from SLURM_ARRAY_TASK_ID={id}, SLURM_ARRAY_TASK_COUNT=3, SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}, SLURM_ARRAY_TASK_STEP=1)",
                i + 1
            );
            run_with(&as_refs(&vars), &["--shard", "auto"], &data, &out)
                .assert()
                .success()
                .stderr(predicate::str::contains(want));
            assert_eq!(
                shard_of(&out),
                Some(Shard {
                    index: i + 1,
                    count: 3
                })
            );
            union.extend(untimed(&out));
        }
        union.sort_by_key(|r| r.job);
        assert_eq!(union, untimed(&full), "array {min}-{max}");
    }
}

#[test]
fn kubernetes_indexed_job_takes_completion_index_plus_1() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let auto = dir.path().join("auto.csv");
    let fixed = dir.path().join("fixed.csv");
    run_with(
        &[("JOB_COMPLETION_INDEX", "3")],
        &["--shard=auto/4"],
        &data,
        &auto,
    )
    .assert()
    .success()
    .stderr(predicate::str::contains(
        "--shard auto/4: running slice 4/4 (from JOB_COMPLETION_INDEX=3)",
    ));
    run_with(&[], &["--shard", "4/4"], &data, &fixed)
        .assert()
        .success();
    assert_eq!(untimed(&auto), untimed(&fixed));
    assert_eq!(shard_of(&auto), Some(Shard { index: 4, count: 4 }));
}

#[test]
fn without_auto_the_environment_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let mut vars = slurm_task("2", "1", "2", "2");
    vars.push(("JOB_COMPLETION_INDEX", "1".into()));
    let vars = as_refs(&vars);
    // A fixed slice stays that slice, and no shard means the whole run, in a task's
    // environment as anywhere else.
    let fixed = dir.path().join("fixed.csv");
    run_with(&vars, &["--shard", "1/2"], &data, &fixed)
        .assert()
        .success()
        .stderr(predicate::str::contains("running slice").not());
    assert_eq!(shard_of(&fixed), Some(Shard { index: 1, count: 2 }));
    let whole = dir.path().join("whole.csv");
    run_with(&vars, &[], &data, &whole).assert().success();
    assert_eq!(rows(&whole).len(), 16);
    assert!(shard_of(&whole).is_none_or(|s| s == Shard::default()));
}

/// Scheduler variables of one case.
type Vars<'a> = Vec<(&'a str, &'a str)>;

#[test]
fn bad_environments_exit_2_naming_the_variable_and_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let out = dir.path().join("r.csv");
    let cases: [(&str, Vars, &str); 8] = [
        ("auto", vec![], "SLURM_ARRAY_TASK_ID is not set"),
        (
            "auto",
            vec![("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1")],
            "SLURM_ARRAY_TASK_COUNT is not set",
        ),
        (
            "auto",
            vec![
                ("SLURM_ARRAY_TASK_ID", "two"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
            ],
            r#"SLURM_ARRAY_TASK_ID="two" is not a whole number"#,
        ),
        (
            "auto",
            vec![
                ("SLURM_ARRAY_TASK_ID", "3"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "7"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
            ],
            "SLURM_ARRAY_TASK_STEP=2: a stepped or gapped Slurm array is refused",
        ),
        (
            "auto",
            vec![
                ("SLURM_ARRAY_TASK_ID", "7"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "7"),
            ],
            "SLURM_ARRAY_TASK_MAX=7: a stepped or gapped Slurm array is refused",
        ),
        (
            "auto",
            vec![("JOB_COMPLETION_INDEX", "0")],
            "for a Kubernetes Indexed Job use --shard auto/N",
        ),
        ("auto/4", vec![], "JOB_COMPLETION_INDEX is not set"),
        (
            "auto/4",
            vec![("JOB_COMPLETION_INDEX", "4")],
            "JOB_COMPLETION_INDEX=4: index out of range",
        ),
    ];
    for (spec, vars, want) in cases {
        run_with(&vars, &["--shard", spec], &data, &out)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want));
        assert!(
            std::fs::read_dir(dir.path()).unwrap().count() == 1,
            "{spec} {vars:?}: nothing but the dataset may be written"
        );
    }
    // The value itself is checked by the parser, before the environment.
    run_with(&[], &["--shard", "auto/0"], &data, &out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("auto/N"));
}

/// The printed resume command of an interrupted `--shard auto` task names the slice it took,
/// so it finishes the run with or without the task's variables (after the task is gone, say).
#[cfg(unix)]
#[test]
fn the_resume_command_of_an_auto_task_carries_the_resolved_slice() {
    use std::process::{Command as Std, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let heavy = [
        "--strategy",
        "abc",
        "--seeds",
        "600",
        "--max-cycles",
        "1500",
        "--threads",
        "2",
        "--quiet",
    ];
    let reference = dir.path().join("ref.csv");
    Command::cargo_bin("bench-run")
        .unwrap()
        .args(heavy)
        .args(["--shard", "2/3", "--dataset"])
        .arg(&data)
        .arg("--output")
        .arg(&reference)
        .assert()
        .success();

    let out = dir.path().join("task.csv");
    let journal = dir.path().join("task.csv.partial");
    let mut c = Std::new(assert_cmd::cargo::cargo_bin("bench-run"));
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    let child = c
        .envs(slurm_task("1", "0", "2", "3"))
        .args(heavy)
        .args(["--shard", "auto", "--dataset"])
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = interrupt_after(child, &journal, 20);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let resume = stderr
        .lines()
        .find_map(|l| l.strip_prefix("bench-run: to finish the run: "))
        .unwrap_or_else(|| panic!("no resume command in {stderr}"));
    assert!(
        resume.contains("--shard 2/3") && !resume.contains("auto"),
        "{resume}"
    );

    let mut sh = Std::new("sh");
    for v in SCHEDULER_VARS {
        sh.env_remove(v);
    }
    let finished = sh.args(["-c", resume]).output().unwrap();
    assert!(
        finished.status.success(),
        "{resume}: {}",
        String::from_utf8_lossy(&finished.stderr)
    );
    assert_eq!(untimed(&out), untimed(&reference));
}
