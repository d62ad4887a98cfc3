//! No orphan solver processes: whether puzzlebench is stopped by Ctrl-C, by SIGTERM, or dies
//! outright (SIGKILL, as a crash would), the external solver it started does not outlive it.
#![cfg(target_os = "linux")]

use crate::common::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether `pid` is a live process (not gone, not a zombie waiting to be reaped).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the parenthesised command name.
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !state.is_some_and(|s| s.starts_with('Z') || s.starts_with('X'))
    })
}

/// Start a run whose solver hangs on its first puzzle, wait until the solver is up, send
/// `signal` to puzzlebench, and check the solver is gone shortly after puzzlebench is.
fn solver_dies_with_puzzlebench(signal: &str, mode: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let data = write(d, "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let pidfile = d.join("solver.pid");
    let solver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    let manifest = write(
        d,
        "m.toml",
        &format!(
            "[solver.hang]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"{mode}\"\nenv = {{ FAULT = \"hang-exec\", PIDFILE = \"{}\" }}\n",
            solver.display(),
            pidfile.display()
        ),
    );
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
        .args([
            "--strategy",
            "hang",
            "--quiet",
            "--timeout",
            "600",
            "--solvers",
        ])
        .arg(&manifest)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(d.join("r.csv"))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let solver_pid: u32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no solver after 60 s"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert!(alive(solver_pid));
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if signal == "KILL" {
        assert_eq!(out.status.code(), None, "{stderr}");
    } else {
        assert_eq!(out.status.code(), Some(130), "{stderr}");
    }
    // The kernel (SIGKILL) or puzzlebench (INT, TERM) ends the solver; allow for scheduling.
    let start = Instant::now();
    while alive(solver_pid) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "solver {solver_pid} outlived puzzlebench ({signal}, {mode})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn no_orphan_after_ctrl_c() {
    solver_dies_with_puzzlebench("INT", "batch");
    solver_dies_with_puzzlebench("INT", "per-puzzle");
}

#[test]
fn no_orphan_after_sigterm() {
    solver_dies_with_puzzlebench("TERM", "batch");
    solver_dies_with_puzzlebench("TERM", "per-puzzle");
}

#[test]
fn no_orphan_after_puzzlebench_is_killed() {
    solver_dies_with_puzzlebench("KILL", "batch");
    solver_dies_with_puzzlebench("KILL", "per-puzzle");
}
