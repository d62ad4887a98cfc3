//! Output paths and writers: nothing but a new path or a regular file is ever written, results
//! never land inside the dataset or on top of one another, and two runs never write one output.
//! Each refusal exits 2 before any job runs and names the path.

use crate::common::*;
use predicates::prelude::*;
use std::path::Path;
use std::process::Stdio;

fn refused(data: &Path, extra: &[&str], needle: &str) {
    let strategy = if data.extension().is_some_and(|e| e == "sdk") {
        "abc"
    } else {
        "mrv"
    };
    let assert = bench_run()
        .args(["--strategy", strategy, "--dataset"])
        .arg(data)
        .args(extra)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(
        stderr.contains(needle),
        "stderr lacks {needle:?}:\n{stderr}"
    );
}

#[test]
fn outputs_that_would_clobber_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data_dir = d.join("data");
    std::fs::create_dir(&data_dir).unwrap();
    let data = write(&data_dir, "p.txt", HITORI_DEMO);
    let s = |p: &Path| p.display().to_string();
    // A directory as output.
    refused(&data, &["--output", &s(d)], "is a directory");
    // The dataset file itself, even with --force, and a path inside the dataset directory.
    refused(
        &data,
        &["--output", &s(&data), "--force"],
        "over the dataset",
    );
    refused(
        &data_dir,
        &["--output", &s(&data_dir.join("r.csv"))],
        "inside the dataset",
    );
    // The trace on top of the output, or on the output's meta (a Sudoku set: traces are ABC's).
    let out = d.join("r.csv");
    let sd = write(d, "s.sdk", &format!("{SUDOKU_DEMO}\n"));
    refused(
        &sd,
        &["--output", &s(&out), "--trace", &s(&out)],
        "the same file as the run's output",
    );
    refused(
        &sd,
        &["--output", &s(&out), "--trace", &s(&d.join("r.meta.json"))],
        "the same file as the run's meta file",
    );
    // A meta file's name as the output.
    refused(
        &data,
        &["--output", &s(&d.join("x.meta.json"))],
        "looks like a meta file",
    );
    // A trace in a directory that does not exist names the trace, not the results.
    refused(
        &sd,
        &["--output", &s(&out), "--trace", &s(&d.join("nodir/t.csv"))],
        "nodir/t.csv: the directory",
    );
    // None of the refusals left anything behind: no journal, no `running` meta to trip on.
    let mut left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["data", "s.sdk"]);
}

#[test]
fn a_special_file_is_never_replaced_even_with_force() {
    // A device node made in a temporary directory (never /dev/null itself); needs root.
    let dir = tempfile::tempdir().unwrap();
    let dev = dir.path().join("null");
    let made = std::process::Command::new("mknod")
        .arg(&dev)
        .args(["c", "1", "3"])
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIP: cannot mknod (not root?)");
        return;
    }
    let data = write(dir.path(), "p.txt", HITORI_DEMO);
    refused(
        &data,
        &["--output", &dev.display().to_string(), "--force"],
        "not a regular file",
    );
    let meta = std::fs::symlink_metadata(&dev).unwrap();
    assert!(!meta.is_file(), "the device node is still a device node");
}

#[test]
fn a_fifo_dataset_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("SKIP: mkfifo unavailable");
        return;
    }
    let out = dir.path().join("r.csv");
    // Nothing writes to the FIFO: opening it would block forever. The command must return.
    refused(
        &fifo,
        &["--output", &out.display().to_string()],
        "save the input to a file first",
    );
}

#[test]
fn a_second_writer_of_one_output_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    // Enough jobs that the first run is still going when the second starts.
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let out = dir.path().join("r.csv");
    let mut first = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
        .args([
            "--quiet",
            "--strategy",
            "abc",
            "--seeds",
            "2000",
            "--threads",
            "1",
        ])
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first run holds the lock (its lock file names it).
    let lock = dir.path().join("r.meta.lock");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.contains("pid")) {
        assert!(
            std::time::Instant::now() < deadline,
            "first run never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for extra in [&["--force"][..], &["--resume"][..]] {
        let assert = bench_run()
            .args(["--strategy", "abc", "--seeds", "2000"])
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(&out)
            .args(extra)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(
            stderr.contains("another bench-run is writing these results")
                && stderr.contains(&format!("pid {}", first.id())),
            "{stderr}"
        );
    }
    let _ = first.kill();
    let _ = first.wait();
}
