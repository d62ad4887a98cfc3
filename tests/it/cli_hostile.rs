//! External solvers that start slowly or resist being stopped (tests/solvers/hostile.py):
//! start-up kept out of the jobs with the `ready` handshake, runs that end on time whatever
//! the program does (leaves its process group, forks a process into a new session, ignores
//! SIGTERM), answers taken while a helper holds stdout, honest messages, and descriptor limits.
#![cfg(target_os = "linux")]

use crate::common::*;
use puzzlebench::results::{Record, Status};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const DEMO_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

/// A manifest for the hostile solver: `extra` lines go in its table (`ready = true`, …),
/// `env` in its environment (besides the answer).
fn manifest(dir: &Path, mode: &str, extra: &str, env: &str) -> PathBuf {
    let solver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/hostile.py");
    write(
        dir,
        "m.toml",
        &format!(
            "[solver.h]\nkind = \"sudoku\"\ncommand = [\"python3\", \"{}\"]\nmode = \"{mode}\"\n\
             randomised = true\n{extra}\nenv = {{ ANSWER = \"{DEMO_SOLUTION}\", PIDDIR = \"{}\", {env} }}\n",
            solver.display(),
            dir.join("pids").display()
        ),
    )
}

/// `bench-run` over `jobs` seeds of the demo puzzle with solver `h`, not yet waited for.
fn start(dir: &Path, m: &Path, jobs: u32, args: &[&str]) -> Child {
    std::fs::create_dir_all(dir.join("pids")).unwrap();
    let data = write(dir, "s.txt", &format!("{SUDOKU_DEMO}\n"));
    Command::new(assert_cmd::cargo::cargo_bin("bench-run"))
        .args([
            "--strategy",
            "h",
            "--quiet",
            "--no-summary",
            "--threads",
            "1",
        ])
        .args(["--seeds", &jobs.to_string(), "--solvers"])
        .arg(m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(dir.join("r.csv"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for the run to end; the point is that it ends, so the bound is generous.
fn finish(mut child: Child) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the run did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Whether `pid` is a live process (not gone, not a zombie).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !state.is_some_and(|s| s.starts_with('Z') || s.starts_with('X'))
    })
}

/// Every process the solver started (its pid files), checked gone: at once, or after a
/// short grace for the kernel to finish them.
fn assert_none_left(dir: &Path) {
    let pids: Vec<u32> = std::fs::read_dir(dir.join("pids"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    assert!(!pids.is_empty(), "the solver recorded no process");
    let start = Instant::now();
    for pid in pids {
        while alive(pid) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "process {pid} outlived the run"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn statuses(rows: &[Record]) -> Vec<Status> {
    rows.iter().map(|r| r.status.expect("status")).collect()
}

/// Item 1 of issue 27: a restart's start-up is not charged to the next job.
#[test]
fn with_ready_a_slow_start_up_is_charged_to_no_job() {
    // Start-up 1.2 s, budget 1 s; job 0 runs 3 s (a timeout and a restart), the rest are quick.
    let env = "STARTUP = \"1.2\", READY = \"1\", JOB0_SLEEP = \"3\"";
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(d, "batch", "ready = true", env);
    let out = finish(start(d, &m, 3, &["--timeout", "1"]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = rows(&d.join("r.csv"));
    assert_eq!(
        statuses(&r),
        [Status::Timeout, Status::Solved, Status::Solved],
        "{r:?}"
    );
    // The first start and the restart after job 0 are measured; job 2 reused the process.
    let startups: Vec<Option<f64>> = r.iter().map(|r| r.startup_s).collect();
    assert!(startups[0].is_some_and(|s| s >= 1.2), "{startups:?}");
    assert!(startups[1].is_some_and(|s| s >= 1.2), "{startups:?}");
    assert_eq!(startups[2], None);
    let csv = std::fs::read_to_string(d.join("r.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains(",startup_s,"), "{csv}");

    // Without the handshake, the same start-up lands in the jobs: each restart eats the
    // budget, so every job times out, and no start-up is known.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(
        d,
        "batch",
        "",
        &env.replace("READY = \"1\"", "READY = \"0\""),
    );
    let out = finish(start(d, &m, 3, &["--timeout", "1"]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = rows(&d.join("r.csv"));
    assert_eq!(statuses(&r), [Status::Timeout; 3], "{r:?}");
    assert!(r.iter().all(|r| r.startup_s.is_none()), "{r:?}");
}

#[test]
fn with_ready_each_per_puzzle_start_up_is_measured_and_not_charged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(
        d,
        "per-puzzle",
        "ready = true",
        "STARTUP = \"1.2\", READY = \"1\"",
    );
    let out = finish(start(d, &m, 2, &["--timeout", "1"]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = rows(&d.join("r.csv"));
    assert_eq!(statuses(&r), [Status::Solved; 2], "{r:?}");
    assert!(
        r.iter().all(|r| r.startup_s.is_some_and(|s| s >= 1.2)),
        "{r:?}"
    );
}

#[test]
fn a_start_up_that_never_says_ready_is_an_error_row_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(
        d,
        "batch",
        "ready = true\nstartup_limit = 0.5",
        "READY = \"never\"",
    );
    let out = finish(start(d, &m, 2, &[]));
    assert_eq!(out.status.code(), Some(1));
    let r = rows(&d.join("r.csv"));
    assert_eq!(statuses(&r), [Status::Error; 2], "{r:?}");
    assert!(
        r[0].message
            .contains("no `ready` line within the 0.5 s start-up limit (`startup_limit`)"),
        "{}",
        r[0].message
    );
    assert_none_left(d);

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(d, "batch", "ready = true", "READY = \"garbage\"");
    let out = finish(start(d, &m, 1, &[]));
    assert_eq!(out.status.code(), Some(1));
    let r = rows(&d.join("r.csv"));
    assert!(
        r[0].message.contains("expected the line `ready`")
            && r[0].message.contains("starting up..."),
        "{}",
        r[0].message
    );
}

/// Item 2: a solver that escapes its process group, forks into a new session, or ignores
/// SIGTERM is still stopped at its budget, and nothing it started is left.
#[test]
fn a_solver_resisting_its_stop_still_times_out_and_leaves_nothing() {
    for (escape, mode) in [
        ("setpgid", "batch"),
        ("setpgid", "per-puzzle"),
        ("setsid-fork", "batch"),
        ("setsid-fork", "per-puzzle"),
        ("ignore-term", "batch"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let m = manifest(d, mode, "", &format!("ESCAPE = \"{escape}\""));
        let out = finish(start(d, &m, 2, &["--timeout", "1"]));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{escape} {mode}: {stderr}");
        let r = rows(&d.join("r.csv"));
        assert_eq!(statuses(&r), [Status::Timeout; 2], "{escape} {mode}: {r:?}");
        assert!(
            r[0].message.contains("no answer within the 1 s budget"),
            "{escape}: {}",
            r[0].message
        );
        if escape == "ignore-term" {
            assert!(
                r[0].message.contains("SIGTERM, then SIGKILL"),
                "{}",
                r[0].message
            );
        }
        assert_none_left(d);
    }
}

/// Item 2: the first Ctrl-C ends a run whose solver resists (exit 130, nothing left).
#[test]
fn the_first_ctrl_c_ends_a_run_whose_solver_resists() {
    for escape in ["setpgid", "setsid-fork", "ignore-term"] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let m = manifest(d, "batch", "", &format!("ESCAPE = \"{escape}\""));
        let child = start(d, &m, 3, &[]);
        // Wait until the escape has happened (setsid-fork: the forked process is up).
        let want = if escape == "setsid-fork" { 2 } else { 1 };
        let begin = Instant::now();
        while std::fs::read_dir(d.join("pids")).unwrap().count() < want {
            assert!(
                begin.elapsed() < Duration::from_secs(60),
                "{escape}: no solver"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        assert!(Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success());
        let out = finish(child);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{escape}: {stderr}");
        assert!(!stderr.contains("second interrupt"), "{stderr}");
        assert_none_left(d);
    }
}

/// Item 3: an answer is taken when its line arrives, although a helper holds stdout open.
#[test]
fn an_answer_counts_though_a_helper_holds_stdout_open() {
    for budget in [&["--timeout", "5"][..], &[]] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let m = manifest(d, "per-puzzle", "", "ESCAPE = \"helper\"");
        let out = finish(start(d, &m, 2, budget));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r = rows(&d.join("r.csv"));
        assert_eq!(statuses(&r), [Status::Solved; 2], "{budget:?}: {r:?}");
        assert!(r.iter().all(|r| r.verified));
        assert_none_left(d);
    }
}

/// Item 5: a solver that closes stdout and lingers is ended by puzzlebench, and the row
/// says so instead of "killed by signal 15".
#[test]
fn a_solver_puzzlebench_had_to_end_is_not_said_to_be_killed_by_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let m = manifest(d, "batch", "", "ESCAPE = \"close-stdout\"");
    let out = finish(start(d, &m, 1, &[]));
    assert_eq!(out.status.code(), Some(1));
    let r = rows(&d.join("r.csv"));
    let msg = &r[0].message;
    assert!(
        !msg.contains("signal 15") && !msg.contains("killed by"),
        "{msg}"
    );
    assert!(
        msg.contains("closed its output before answering but did not exit")
            && msg.contains("puzzlebench ended it (SIGTERM)"),
        "{msg}"
    );
    assert_none_left(d);
}

/// Runs `bench-run` under `sh` with descriptor limits set by `ulimit`.
fn with_ulimit(dir: &Path, ulimit: &str, threads: &str) -> Output {
    let m = manifest(dir, "batch", "", "");
    std::fs::create_dir_all(dir.join("pids")).unwrap();
    let data = write(dir, "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let script = format!(
        "{ulimit} && exec \"$0\" --strategy h --quiet --no-summary --seeds 4 --threads {threads} \
         --solvers \"$1\" --dataset \"$2\" --output \"$3\""
    );
    Command::new("sh")
        .args(["-c", &script])
        .arg(assert_cmd::cargo::cargo_bin("bench-run"))
        .arg(&m)
        .arg(&data)
        .arg(dir.join("r.csv"))
        .output()
        .unwrap()
}

/// Item 4: a --threads whose pipes cannot fit under the hard descriptor limit is refused
/// up front with the numbers; a low soft limit is raised, and the solvers get it back.
#[test]
fn descriptor_limits_are_raised_or_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let out = with_ulimit(dir.path(), "ulimit -n 1024", "300");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--threads 300 needs about") && stderr.contains("the limit is 1024"),
        "{stderr}"
    );
    assert!(!dir.path().join("r.csv").exists());
    // Issue 38: the advice was "use --threads 0 or fewer" under a low limit. It names a
    // thread count that fits both the limit and the CPUs, or the limit to set.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n: usize = stderr
        .split("use --threads ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    assert!((1..=cpus).contains(&n), "{stderr}");
    assert!(stderr.contains("`ulimit -n "), "{stderr}");
    let dir = tempfile::tempdir().unwrap();
    let out = with_ulimit(dir.path(), "ulimit -n 60", "1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("not even --threads 1 fits") && stderr.contains("`ulimit -n "),
        "{stderr}"
    );
    assert!(!stderr.contains("--threads 0"), "{stderr}");

    // Soft 256 under a higher hard limit: 40 threads need more than 256 and get them.
    let hard: u64 = String::from_utf8_lossy(
        &Command::new("sh")
            .args(["-c", "ulimit -Hn"])
            .output()
            .unwrap()
            .stdout,
    )
    .trim()
    .parse()
    .unwrap_or(u64::MAX);
    assert!(
        hard >= 1024,
        "this test needs a hard limit of 1024 or more, not {hard}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = with_ulimit(dir.path(), "ulimit -Sn 256", "40");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = rows(&dir.path().join("r.csv"));
    assert_eq!(statuses(&r), [Status::Solved; 4], "{r:?}");
    // Each solver runs under the soft limit puzzlebench was started with.
    for row in &r {
        assert!(
            row.stats
                .as_deref()
                .is_some_and(|s| s.contains("nofile=256")),
            "{:?}",
            row.stats
        );
    }
}
