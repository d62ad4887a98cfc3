//! The external-solver worker against tests/solvers/fault.sh, a solver that misbehaves on
//! request: every fault path ends as a row-worthy outcome or error, never a hang.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use puzzlebench::dataset::{load_file, Puzzle};
use puzzlebench::external::{manifest, ExternalSolver, GIVE_UP_AFTER};
use puzzlebench::solver::{Answer, End, Outcome, Rng, Solver, SolverError, Task, Worker};

const SOLVED: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn demo() -> Puzzle {
    let mut p = load_file(&root().join("datasets/sudoku-demo/demo.txt"), 0).expect("demo loads");
    p.remove(0)
}

/// A solver running fault.sh in `mode` with `env` (TOML inline-table body).
fn fault_solver(mode: &str, env: &str) -> (ExternalSolver, tempfile::TempDir) {
    fault_solver_answering(mode, env, SOLVED)
}

fn fault_solver_answering(
    mode: &str,
    env: &str,
    answer: &str,
) -> (ExternalSolver, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("tempdir");
    let pidfile = dir.path().join("pid");
    let text = format!(
        "[solver.fault]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"{mode}\"\n\
         env = {{ ANSWER = \"{answer}\", PIDFILE = \"{}\", {env} }}\n",
        root().join("tests/solvers/fault.sh").display(),
        pidfile.display()
    );
    let specs = manifest::parse(&dir.path().join("m.toml"), &text, &[]).expect("manifest");
    let solver = ExternalSolver::new(specs.into_iter().next().expect("one entry"));
    (solver, dir)
}

fn job(
    worker: &mut dyn Worker,
    puzzle: &Puzzle,
    job: u64,
    timeout: Option<Duration>,
) -> Result<Outcome, SolverError> {
    let mut rng = Rng::new(1);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut task = Task::new(puzzle, job, 42, &mut rng, &stop, timeout);
    worker.solve(&mut task)
}

fn err(r: Result<Outcome, SolverError>) -> String {
    match r {
        Ok(o) => panic!("expected an error, got {o:?}"),
        Err(e) => e.to_string(),
    }
}

fn stat<'a>(o: &'a Outcome, key: &str) -> Option<&'a str> {
    o.measured
        .stats
        .as_deref()?
        .split(';')
        .find_map(|p| p.strip_prefix(key)?.strip_prefix('='))
}

fn pid_from(dir: &Path) -> i32 {
    let text = std::fs::read_to_string(dir.join("pid")).expect("pidfile written");
    text.trim().parse().expect("pid")
}

/// No live process of the group is left (killed orphans may linger briefly as zombies until
/// init reaps them, so those are not counted; allow a moment for that).
fn group_gone(pgid: i32) -> bool {
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        let live = std::fs::read_dir("/proc")
            .expect("procfs")
            .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
            .filter(|stat| {
                // Fields after the parenthesised command: state, ppid, pgrp, ...
                let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
                let f: Vec<&str> = rest.split_whitespace().collect();
                f.len() > 2 && f[2] == pgid.to_string() && f[0] != "Z"
            })
            .count();
        if live == 0 {
            return true;
        }
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn batch_answers_fill_counters_stats_and_measurements_from_one_process() {
    let (s, _d) = fault_solver("batch", "FAULT = \"ok\"");
    let p = demo();
    let mut w = s.start().expect("start");
    let a = job(w.as_mut(), &p, 1, None).expect("ok");
    let b = job(w.as_mut(), &p, 2, None).expect("ok");
    assert_eq!(
        a.end,
        End::Found(Answer::Sudoku(std::array::from_fn(|i| SOLVED.as_bytes()
            [i]
            - b'0')))
    );
    assert_eq!((a.counters.nodes, a.counters.guesses), (Some(7), Some(2)));
    assert_eq!(stat(&a, "seed"), Some("42"), "{:?}", a.measured.stats);
    assert_eq!(
        stat(&a, "pid"),
        stat(&b, "pid"),
        "batch mode keeps one process"
    );
    assert!(a.measured.cpu_s.is_some() && a.measured.max_rss_kib.is_some_and(|k| k > 0));
    assert!(s.measures() && !s.randomised());
}

#[test]
fn per_puzzle_starts_one_process_per_job_and_measures_it() {
    let (s, _d) = fault_solver("per-puzzle", "FAULT = \"ok\"");
    let p = demo();
    let mut w = s.start().expect("start");
    let a = job(w.as_mut(), &p, 1, None).expect("ok");
    let b = job(w.as_mut(), &p, 2, None).expect("ok");
    assert!(matches!(a.end, End::Found(_)));
    assert_ne!(stat(&a, "pid"), stat(&b, "pid"), "a process per job");
    assert!(a.measured.cpu_s.is_some() && a.measured.max_rss_kib.is_some_and(|k| k > 0));
}

#[test]
fn environment_reaches_the_solver() {
    for (mode, timeout, want) in [
        ("batch", None, "none"),
        ("per-puzzle", Some(Duration::from_secs(30)), "30"),
    ] {
        let (s, _d) = fault_solver(mode, "FAULT = \"env\", EXTRA = \"x y\"");
        let mut w = s.start().expect("start");
        let o = job(w.as_mut(), &demo(), 1, timeout).expect("ok");
        assert_eq!(o.end, End::GaveUp);
        assert_eq!(
            o.message.as_deref(),
            Some("the solver gave up (status `unknown`)")
        );
        assert_eq!(
            o.measured.stats.as_deref(),
            Some(format!("kind=sudoku;mode={mode};timeout={want};extra=x y").as_str())
        );
    }
}

#[test]
fn wrong_answer_is_returned_for_the_verifier() {
    for mode in ["batch", "per-puzzle"] {
        let (s, _d) = fault_solver(mode, "FAULT = \"wrong\"");
        let mut w = s.start().expect("start");
        let o = job(w.as_mut(), &demo(), 1, None).expect("a well-shaped answer is no fault");
        let Answer::Sudoku(grid) = (match o.end {
            End::Found(a) => a,
            other => panic!("{other:?}"),
        }) else {
            panic!("not a sudoku answer")
        };
        assert!(grid.iter().all(|&d| d == 1), "{grid:?}");
    }
}

#[test]
fn unsolved_and_reported_errors() {
    let (s, _d) = fault_solver("batch", "FAULT = \"unsolved\"");
    let mut w = s.start().expect("start");
    let o = job(w.as_mut(), &demo(), 1, None).expect("ok");
    assert_eq!((o.end, o.counters.nodes), (End::NoSolution, Some(3)));
    let (s, _d) = fault_solver("batch", "FAULT = \"error\"");
    let mut w = s.start().expect("start");
    let e = err(job(w.as_mut(), &demo(), 1, None));
    assert!(
        e.contains("the solver reported an error (reason=test)"),
        "{e}"
    );
    assert!(e.contains("stderr: out of patience"), "{e}");
    // A reported error is not a fault: the process lives on and is never given up.
    for j in 2..=GIVE_UP_AFTER as u64 + 2 {
        let e = err(job(w.as_mut(), &demo(), j, None));
        assert!(e.contains("reported an error"), "{e}");
    }
}

#[test]
fn hang_times_out_quickly_kills_the_group_and_batch_goes_on() {
    let (s, d) = fault_solver("batch", "FAULT = \"hang\", FAULT_JOB = \"1\"");
    let mut w = s.start().expect("start");
    let t = Instant::now();
    let o = job(w.as_mut(), &demo(), 1, Some(Duration::from_millis(200)))
        .expect("timeout is an outcome");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "did not hang: {:?}",
        t.elapsed()
    );
    assert_eq!(o.end, End::Stopped);
    let m = o.message.expect("message");
    assert!(
        m.contains("no answer within the 0.2 s budget") && m.contains("SIGTERM"),
        "{m}"
    );
    assert!(
        group_gone(pid_from(d.path())),
        "solver and its `sleep` are gone"
    );
    let next = job(w.as_mut(), &demo(), 2, Some(Duration::from_secs(30))).expect("restarted");
    assert!(matches!(next.end, End::Found(_)));
}

#[test]
fn hang_ignoring_sigterm_is_killed() {
    for mode in ["batch", "per-puzzle"] {
        let (s, d) = fault_solver(mode, "FAULT = \"hang-ignore-term\"");
        let mut w = s.start().expect("start");
        let t = Instant::now();
        let o = job(w.as_mut(), &demo(), 1, Some(Duration::from_millis(200))).expect("timeout");
        assert!(t.elapsed() < Duration::from_secs(10), "did not hang");
        assert_eq!(o.end, End::Stopped);
        let m = o.message.expect("message");
        assert!(m.contains("SIGTERM, then SIGKILL"), "{m}");
        assert!(group_gone(pid_from(d.path())));
    }
}

#[test]
fn timeouts_never_count_towards_giving_up() {
    let (s, _d) = fault_solver("batch", "FAULT = \"hang\"");
    let mut w = s.start().expect("start");
    for j in 1..=GIVE_UP_AFTER as u64 + 1 {
        let o = job(w.as_mut(), &demo(), j, Some(Duration::from_millis(50))).expect("timeout");
        assert_eq!(o.end, End::Stopped, "job {j}");
    }
}

#[test]
fn interrupt_stops_promptly_without_a_message() {
    let (s, d) = fault_solver("batch", "FAULT = \"hang\"");
    let mut w = s.start().expect("start");
    let flag = AtomicBool::new(false);
    let p = demo();
    let o = std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            flag.store(true, Ordering::SeqCst);
        });
        let mut rng = Rng::new(1);
        let mut task = Task::new(&p, 1, 42, &mut rng, &flag, None);
        w.solve(&mut task).expect("stopped")
    });
    assert_eq!((o.end, o.message), (End::Stopped, None));
    assert!(group_gone(pid_from(d.path())));
}

#[test]
fn crash_names_the_signal_and_keeps_stderr() {
    for mode in ["batch", "per-puzzle"] {
        let (s, _d) = fault_solver(mode, "FAULT = \"crash\"");
        let mut w = s.start().expect("start");
        let e = err(job(w.as_mut(), &demo(), 1, None));
        assert!(
            e.contains("killed by signal 11 (SIGSEGV) before answering"),
            "{e}"
        );
        assert!(e.contains("stderr: about to crash on job 1"), "{e}");
    }
}

#[test]
fn early_exit_and_nonzero_exit_are_errors() {
    for mode in ["batch", "per-puzzle"] {
        let (s, _d) = fault_solver(mode, "FAULT = \"exit-early\"");
        let mut w = s.start().expect("start");
        let e = err(job(w.as_mut(), &demo(), 1, None));
        assert!(e.contains("exited with status 0 before"), "{e}");
        let (s, _d) = fault_solver(mode, "FAULT = \"stderr-exit\"");
        let mut w = s.start().expect("start");
        let e = err(job(w.as_mut(), &demo(), 1, None));
        assert!(e.contains("exited with status 1 before"), "{e}");
        assert!(
            e.contains("stderr: custom diagnostic 42 | second line"),
            "{e}"
        );
    }
    let (s, _d) = fault_solver("per-puzzle", "FAULT = \"exit-nonzero\"");
    let mut w = s.start().expect("start");
    let e = err(job(w.as_mut(), &demo(), 1, None));
    assert!(e.contains("exited with status 3 after answering"), "{e}");
}

#[test]
fn protocol_breaks_are_precise_errors_and_batch_restarts() {
    let cases = [
        ("garbage", "protocol error: expected 4 tab-separated fields"),
        (
            "other-job",
            "protocol error: answer for job 2, expected job 1",
        ),
        (
            "long",
            "protocol error: answer line longer than 1048576 bytes",
        ),
    ];
    for (fault, want) in cases {
        for mode in ["batch", "per-puzzle"] {
            let (s, _d) = fault_solver(mode, &format!("FAULT = \"{fault}\", FAULT_JOB = \"1\""));
            let mut w = s.start().expect("start");
            let e = err(job(w.as_mut(), &demo(), 1, None));
            assert!(e.contains(want), "{mode} {fault}: {e}");
            let next = job(w.as_mut(), &demo(), 2, None).expect("the next job runs");
            assert!(matches!(next.end, End::Found(_)), "{mode} {fault}");
        }
    }
    let (s, _d) = fault_solver("per-puzzle", "FAULT = \"extra-output\"");
    let mut w = s.start().expect("start");
    let e = err(job(w.as_mut(), &demo(), 1, None));
    assert!(
        e.contains("output after the answer line: `trailing chatter"),
        "{e}"
    );
}

#[test]
fn misshaped_answer_is_a_protocol_error() {
    let (s, _d) = fault_solver_answering("batch", "FAULT = \"ok\"", "123");
    let mut w = s.start().expect("start");
    let e = err(job(w.as_mut(), &demo(), 1, None));
    assert!(
        e.contains("a Sudoku answer is 81 digits 1-9, found 3"),
        "{e}"
    );
}

#[test]
fn five_faults_in_a_row_give_up_and_say_so() {
    for mode in ["batch", "per-puzzle"] {
        let (s, _d) = fault_solver(mode, "FAULT = \"crash\"");
        let mut w = s.start().expect("start");
        for j in 1..=GIVE_UP_AFTER as u64 {
            let e = err(job(w.as_mut(), &demo(), j, None));
            assert!(e.contains("SIGSEGV"), "{e}");
        }
        // Another worker of the same solver gives up too: the count is the solver's.
        let mut other = s.start().expect("start");
        let e = err(job(other.as_mut(), &demo(), 6, None));
        assert!(
            e.contains("crashed or broke the protocol on 5 jobs in a row"),
            "{e}"
        );
        assert!(
            e.contains("not restarted again") && e.contains("SIGSEGV"),
            "{e}"
        );
    }
}

#[test]
fn a_success_resets_the_fault_count() {
    // Job 3 always crashes; any other job number is answered. Alternating them never reaches
    // five faults in a row.
    let (s, _d) = fault_solver("batch", "FAULT = \"crash\", FAULT_JOB = \"3\"");
    let mut w = s.start().expect("start");
    for round in 0..GIVE_UP_AFTER as u64 + 1 {
        assert!(err(job(w.as_mut(), &demo(), 3, None)).contains("SIGSEGV"));
        assert!(
            job(w.as_mut(), &demo(), 100 + round, None).is_ok(),
            "round {round}"
        );
    }
}
