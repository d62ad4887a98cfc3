//! Issue 37: the `claim` and `ended_by` columns, a false "no solution" counted as `wrong`,
//! `--cpu-limit` on built-ins, and the bad values of the new limit options.

use crate::common::*;
use puzzlebench::results::{Claim, EndedBy, Status};
use std::path::Path;

fn unsolved_manifest(dir: &Path) -> std::path::PathBuf {
    let solver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    write(
        dir,
        "nosol.toml",
        &format!(
            "[solver.nosol]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nenv = {{ FAULT = \"unsolved\" }}\n",
            solver.display()
        ),
    )
}

#[test]
fn a_false_no_solution_on_every_hard_sudoku_is_fifty_wrong_rows_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let m = unsolved_manifest(dir.path());
    let out = dir.path().join("out.csv");
    let assert = bench_run()
        .args(["--strategy", "nosol", "--threads", "1", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(datasets().join("sudoku-hard"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("wrong"), "{stderr}");
    let rows = rows(&out);
    assert_eq!(rows.len(), 50);
    for r in &rows {
        assert_eq!(r.status, Some(Status::Wrong), "{r:?}");
        assert_eq!(r.claim, Some(Claim::NoSolution), "{r:?}");
        assert!(!r.verified);
        assert!(
            r.message.contains("claimed no solution") && r.message.contains("generated.txt"),
            "{}",
            r.message
        );
    }
    let header = std::fs::read_to_string(&out).unwrap();
    let first = header.lines().next().unwrap();
    assert!(first.contains(",claim,ended_by,message"), "{first}");
}

#[test]
fn a_no_solution_claim_without_a_known_solution_stays_unsolved_with_its_claim() {
    let dir = tempfile::tempdir().unwrap();
    let m = unsolved_manifest(dir.path());
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = dir.path().join("out.csv");
    bench_run()
        .args(["--strategy", "nosol", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, Some(Status::Unsolved));
    assert_eq!(rows[0].claim, Some(Claim::NoSolution));
    assert_eq!(rows[0].ended_by, None);
}

#[test]
fn a_node_limit_row_says_so_in_ended_by_and_a_free_row_says_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    bench_run()
        .args([
            "--strategy",
            "backtrack",
            "--node-limit",
            "1",
            "--threads",
            "1",
        ])
        .arg("--dataset")
        .arg(datasets().join("sudoku-hard"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert!(rows
        .iter()
        .any(|r| r.status == Some(Status::Timeout) && r.ended_by == Some(EndedBy::NodeLimit)));
    for r in &rows {
        match r.status {
            Some(Status::Timeout) => assert_eq!(r.ended_by, Some(EndedBy::NodeLimit), "{r:?}"),
            _ => assert_eq!(r.ended_by, None, "{r:?}"),
        }
    }
    // The filter reads the column.
    let s = puzzlebench_report(&out, "ended_by=node-limit");
    assert!(s.contains("backtrack"), "{s}");
}

fn puzzlebench_report(file: &Path, filter: &str) -> String {
    let out = assert_cmd::Command::cargo_bin("bench-report")
        .unwrap()
        .args(["summary", "--where", filter])
        .arg(file)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

#[test]
fn a_built_in_over_its_cpu_limit_is_a_cpu_timeout() {
    // ABC on the hard Sudokus runs far longer than a millisecond of CPU per job.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    bench_run()
        .args([
            "--strategy",
            "abc",
            "--cpu-limit",
            "0.001",
            "--max-cycles",
            "100000",
            "--threads",
            "1",
            "--warmup",
            "0",
        ])
        .arg("--dataset")
        .arg(datasets().join("sudoku-hard"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    let cpu: Vec<_> = rows
        .iter()
        .filter(|r| r.ended_by == Some(EndedBy::Cpu))
        .collect();
    assert!(!cpu.is_empty(), "no cpu-ended rows");
    for r in cpu {
        assert_eq!(r.status, Some(Status::Timeout), "{r:?}");
        assert!(r.cpu_s.unwrap_or(0.0) >= 0.001, "{r:?}");
    }
    let meta = std::fs::read_to_string(dir.path().join("out.meta.json")).unwrap();
    assert!(meta.contains("\"cpu_limit_s\": 0.001"), "{meta}");
    assert!(meta.contains("process-tree"), "{meta}");
}

#[test]
fn bad_limit_values_are_refused_with_the_value_and_what_is_expected() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    for (args, needles) in [
        (
            &["--memory-limit", "0"][..],
            &["\"0\"", "at least 16 MiB"][..],
        ),
        (&["--memory-limit", "10X"], &["\"10X\"", "unknown unit"]),
        (&["--memory-limit", "1M"], &["\"1M\"", "at least 16 MiB"]),
        (&["--memory-limit=-5M"], &["\"-5M\"", "expected a size"]),
        (&["--cpu-limit=-1"], &["\"-1\"", "seconds"]),
        (&["--cpu-limit", "NaN"], &["\"NaN\"", "seconds"]),
    ] {
        let out = dir.path().join("out.csv");
        let assert = bench_run()
            .args(["--strategy", "backtrack"])
            .args(args)
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(&out)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{stderr}");
        for n in needles {
            assert!(
                stderr.contains(n),
                "{args:?}: stderr lacks {n:?}:\n{stderr}"
            );
        }
        assert!(!out.exists());
    }
}

/// A manifest of test solvers: each `(name, mode, command)`, with fault.sh's `unknown`
/// answers for the well-behaved `calm` beside them.
fn limits_manifest(dir: &Path, entries: &[(&str, &str, String)]) -> std::path::PathBuf {
    let fault = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    let mut text = format!(
        "[solver.calm]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nenv = {{ FAULT = \"unknown\" }}\n",
        fault.display()
    );
    for (name, mode, command) in entries {
        text.push_str(&format!(
            "[solver.{name}]\nkind = \"sudoku\"\ncommand = {command}\nmode = \"{mode}\"\n"
        ));
    }
    write(dir, "limits.toml", &text)
}

/// Three Sudoku lines (no solutions given).
fn three_sudokus(dir: &Path) -> std::path::PathBuf {
    let lines: Vec<String> = sudoku_lines().lines().take(3).map(str::to_string).collect();
    write(dir, "three.txt", &(lines.join("\n") + "\n"))
}

// A solver that allocates 1 MiB every 10 ms (about 100 MB/s) and never answers: every job
// is a `memout` stopped near the limit, the solver is restarted for each, and `calm` in
// the same run is unaffected. (`--timeout 120` only guards against a hang.)
#[test]
fn an_allocator_without_bound_is_a_memout_on_every_job_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let hog = write(
        dir.path(),
        "hog.py",
        "import sys, time\nhog = []\nfor line in sys.stdin:\n    while True:\n        hog.append(b'\\x01' * (1 << 20))\n        time.sleep(0.01)\n",
    );
    let m = limits_manifest(
        dir.path(),
        &[(
            "hog",
            "batch",
            format!("[\"python3\", \"{}\"]", hog.display()),
        )],
    );
    let data = three_sudokus(dir.path());
    let out = dir.path().join("out.csv");
    bench_run()
        .args([
            "--strategy",
            "hog,calm",
            "--threads",
            "1",
            "--timeout",
            "120",
        ])
        .args(["--memory-limit", "64M", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert_eq!(rows.len(), 6);
    for r in rows.iter().filter(|r| r.strategy == "hog") {
        assert_eq!(r.status, Some(Status::Memout), "{r:?}");
        assert_eq!(r.ended_by, Some(EndedBy::Memory), "{r:?}");
        let peak = r.max_rss_kib.expect("peak");
        // Past the limit, and not by more than the run's whole allowance (generous: a
        // loaded machine may sample late; the documented margin is measured separately).
        assert!(peak > 64 * 1024 && peak < 64 * 1024 + 128 * 1024, "{r:?}");
        assert!(r.message.contains("64 MiB memory limit"), "{}", r.message);
    }
    for r in rows.iter().filter(|r| r.strategy == "calm") {
        assert_eq!(r.status, Some(Status::Unsolved), "{r:?}");
        assert_eq!(r.ended_by, None, "{r:?}");
    }
    let meta = std::fs::read_to_string(dir.path().join("out.meta.json")).unwrap();
    assert!(meta.contains("\"memory_limit_bytes\": 67108864"), "{meta}");
    assert!(meta.contains("\"memory_sample_ms\""), "{meta}");
    // The summary counts them.
    let s = puzzlebench_report(&out, "ended_by=memory");
    assert!(s.contains("hog") && s.contains("memout"), "{s}");
}

/// A sh solver whose forked child does the work: `burn` spins until killed; `work` spins
/// for a fixed count and exits, and the parent answers `unknown`.
const CHILD_SOLVER: &str = "tab=$(printf '\\t')\nwhile IFS=\"$tab\" read -r job seed puzzle; do\n    if [ \"$1\" = burn ]; then\n        sh -c 'while :; do :; done' &\n        wait\n    else\n        sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'\n        printf '%s\\tunknown\\t\\t\\n' \"$job\"\n    fi\ndone\n";

// The CPU-time limit is on the whole tree: a child that burns CPU while its parent waits
// is stopped by it, in both modes, with the child's CPU time in `cpu_s`.
#[test]
fn a_child_burning_cpu_is_stopped_by_the_cpu_limit_of_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let sh = write(dir.path(), "child.sh", CHILD_SOLVER);
    let cmd = format!("[\"sh\", \"{}\", \"burn\"]", sh.display());
    let m = limits_manifest(
        dir.path(),
        &[("burn", "batch", cmd.clone()), ("burn1", "per-puzzle", cmd)],
    );
    let data = three_sudokus(dir.path());
    let out = dir.path().join("out.csv");
    bench_run()
        .args(["--strategy", "burn,burn1,calm", "--threads", "1"])
        .args(["--timeout", "120", "--cpu-limit", "0.3", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert_eq!(rows.len(), 9);
    for r in rows.iter().filter(|r| r.strategy.starts_with("burn")) {
        assert_eq!(r.status, Some(Status::Timeout), "{r:?}");
        assert_eq!(r.ended_by, Some(EndedBy::Cpu), "{r:?}");
        // The child's CPU time is counted (sampled in clock ticks: 10 ms of slack).
        assert!(r.cpu_s.unwrap_or(0.0) >= 0.29, "{r:?}");
        assert!(r.message.contains("CPU-time limit"), "{}", r.message);
    }
    for r in rows.iter().filter(|r| r.strategy == "calm") {
        assert_eq!(r.ended_by, None, "{r:?}");
    }
}

// Without any limit, `cpu_s` still counts the whole tree: a child the solver ran and
// reaped before answering.
#[test]
fn cpu_s_counts_a_reaped_child_without_any_limit() {
    let dir = tempfile::tempdir().unwrap();
    let sh = write(dir.path(), "child.sh", CHILD_SOLVER);
    let cmd = format!("[\"sh\", \"{}\", \"work\"]", sh.display());
    let m = limits_manifest(
        dir.path(),
        &[("work", "batch", cmd.clone()), ("work1", "per-puzzle", cmd)],
    );
    let data = three_sudokus(dir.path());
    let out = dir.path().join("out.csv");
    bench_run()
        .args(["--strategy", "work,work1", "--threads", "1", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r.status, Some(Status::Unsolved), "{r:?}");
        // The parent only waits (a few ms of its own CPU time); the child's loop takes
        // about 0.7 s of CPU on this project's host, and a CPU time is the same on a
        // loaded machine, so a tenth of it is a bound that only the child's time meets.
        let cpu = r.cpu_s.unwrap_or(0.0);
        assert!(cpu > 0.07, "{r:?}");
    }
}

#[test]
fn a_memory_limit_in_the_manifest_is_checked_and_never_for_a_built_in() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let fault = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    for (name, limit, needles) in [
        (
            "backtrack",
            "1G",
            &["[solver.backtrack] memory_limit", "built-in"][..],
        ),
        (
            "mine",
            "10X",
            &["[solver.mine] memory_limit", "\"10X\"", "unknown unit"],
        ),
        (
            "mine",
            "0",
            &["[solver.mine] memory_limit", "at least 16 MiB"],
        ),
    ] {
        let m = write(
            dir.path(),
            "m.toml",
            &format!(
                "[solver.{name}]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nmemory_limit = \"{limit}\"\n",
                fault.display()
            ),
        );
        let out = dir.path().join("out.csv");
        let assert = bench_run()
            .args(["--strategy", "backtrack", "--solvers"])
            .arg(&m)
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(&out)
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{stderr}");
        for n in needles {
            assert!(stderr.contains(n), "{name} {limit}: lacks {n:?}:\n{stderr}");
        }
        assert!(!out.exists());
    }
}

// A solver that dies of a signal the harness did not send: an `error` row whose `ended_by`
// says `signal`.
#[test]
fn a_solver_killed_by_a_signal_is_an_error_ended_by_signal() {
    let dir = tempfile::tempdir().unwrap();
    let fault = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    let m = write(
        dir.path(),
        "crash.toml",
        &format!(
            "[solver.crash]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nenv = {{ FAULT = \"crash\" }}\n",
            fault.display()
        ),
    );
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let out = dir.path().join("out.csv");
    bench_run()
        .args(["--strategy", "crash", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(1);
    let rows = rows(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, Some(Status::Error), "{:?}", rows[0]);
    assert_eq!(rows[0].ended_by, Some(EndedBy::Signal), "{:?}", rows[0]);
    assert!(rows[0].message.contains("SIGSEGV"), "{}", rows[0].message);
}

fn report(args: &[&str], files: &[&Path]) -> assert_cmd::assert::Assert {
    let mut c = assert_cmd::Command::cargo_bin("bench-report").unwrap();
    c.args(args);
    for f in files {
        c.arg(f);
    }
    c.assert()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// Issue 37 item 4: where the dataset gives no solution, a "no solution" claim that another
// configuration's verified solve refutes is flagged by summary (every format), the HTML page
// and compare (a regression).
#[test]
fn a_no_solution_claim_another_configuration_solved_is_flagged_in_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let m = unsolved_manifest(dir.path());
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let run = |strategies: &str, name: &str| {
        let out = dir.path().join(name);
        bench_run()
            .args(["--strategy", strategies, "--solvers"])
            .arg(&m)
            .arg("--dataset")
            .arg(&data)
            .arg("--output")
            .arg(&out)
            .assert()
            .code(0);
        out
    };
    let both = run("nosol,backtrack", "both.csv");
    let alone = run("nosol", "alone.csv");

    let said = text(&report(&["summary"], &[&both]).success().get_output().stdout);
    assert!(
        said.contains("CONTRADICTION on s puzzle")
            && said.contains("nosol claimed no solution (seed 0), but backtrack solved it"),
        "{said}"
    );
    let md = text(
        &report(&["summary", "--format", "markdown"], &[&both])
            .success()
            .get_output()
            .stdout,
    );
    assert!(md.contains("nosol claimed no solution"), "{md}");
    let json = text(
        &report(&["summary", "--format", "json"], &[&both])
            .success()
            .get_output()
            .stdout,
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["contradictions"][0]["claimed_by"], "nosol", "{json}");
    assert_eq!(v["contradictions"][0]["solved_by"], "backtrack", "{json}");
    let csv = report(&["summary", "--format", "csv"], &[&both]).success();
    let err = text(&csv.get_output().stderr);
    assert!(err.contains("warning: CONTRADICTION"), "{err}");
    let page = dir.path().join("page");
    report(&["html", "--out"], &[&page, &both]).success();
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    assert!(html.contains("nosol claimed no solution"));

    // compare: the new run's refuted claim is a regression, even against itself.
    let c = report(&["compare"], &[&both, &both]).code(1);
    let out = text(&c.get_output().stdout);
    assert!(
        out.contains("REGRESSION: 1 no-solution claim of the new run refuted by a verified solve"),
        "{out}"
    );
    // A claim nothing refutes is not flagged anywhere.
    let said = text(
        &report(&["summary"], &[&alone])
            .success()
            .get_output()
            .stdout,
    );
    assert!(!said.contains("CONTRADICTION"), "{said}");
    report(&["compare"], &[&alone, &alone]).code(0);
    // The solve on the baseline's side refutes the new run's claim too.
    let solved = run("backtrack", "solved.csv");
    let c = report(&["compare"], &[&solved, &alone]).code(1);
    let out = text(&c.get_output().stdout);
    assert!(
        out.contains("1 no-solution claim of the new run refuted"),
        "{out}"
    );
}

// One job over the limit (job 1, whatever warm-up solved before it), the others not: only
// that job is a `memout`, and the solver restarted after it serves the next job. Its 80 MiB come in one allocation, just over the
// 64 MiB limit and far under the `RLIMIT_DATA` backstop, so the program's own allocation
// succeeds and the harness, not a MemoryError, ends the job.
#[test]
fn one_puzzle_over_the_limit_is_one_memout_and_the_next_job_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let solver = write(
        dir.path(),
        "one.py",
        "import sys, time\nfor line in sys.stdin:\n    job = line.split('\\t')[0]\n    if job == '1':\n        hold = b'\\x01' * (80 << 20)\n        time.sleep(60)\n    print(f'{job}\\tunknown\\t\\t', flush=True)\n",
    );
    let m = limits_manifest(
        dir.path(),
        &[(
            "one",
            "batch",
            format!("[\"python3\", \"{}\"]", solver.display()),
        )],
    );
    let data = three_sudokus(dir.path());
    let out = dir.path().join("out.csv");
    bench_run()
        .args(["--strategy", "one", "--threads", "1", "--timeout", "120"])
        .args(["--memory-limit", "64M", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(0);
    let rows = rows(&out);
    let statuses: Vec<_> = rows.iter().map(|r| (r.status, r.ended_by)).collect();
    assert_eq!(
        statuses,
        [
            (Some(Status::Unsolved), None),
            (Some(Status::Memout), Some(EndedBy::Memory)),
            (Some(Status::Unsolved), None),
        ],
        "{rows:?}"
    );
    assert!(
        rows[1].max_rss_kib.is_some_and(|k| k > 64 * 1024),
        "{:?}",
        rows[1]
    );
}
