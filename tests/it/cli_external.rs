//! External solvers through `bench-run --solvers`: rows, verification, budgets, faults and
//! resume for a program speaking the line protocol, side by side with a built-in strategy.

use crate::common::*;
use std::path::Path;

/// A manifest naming the fault-injecting test solver with `env` settings.
fn manifest(dir: &Path, name: &str, env: &str) -> std::path::PathBuf {
    let solver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/solvers/fault.sh");
    write(
        dir,
        &format!("{name}.toml"),
        &format!(
            "[solver.{name}]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nenv = {{ {env} }}\n",
            solver.display()
        ),
    )
}

const DEMO_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

#[test]
fn an_external_solver_runs_beside_a_built_in_one_and_is_verified() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let m = manifest(dir.path(), "echo", &format!("ANSWER = \"{DEMO_SOLUTION}\""));
    let out = dir.path().join("r.csv");
    bench_run()
        .args(["--strategy", "backtrack,echo", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let r = rows(&out);
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].strategy, "echo");
    assert_eq!(r[1].status, Some(puzzlebench::results::Status::Solved));
    assert!(r[1].verified);
    // Counters named in the answer's statistics fill their columns; the rest go to `stats`.
    assert_eq!(r[1].counters.nodes, Some(7));
    assert_eq!(r[1].counters.guesses, Some(2));
    assert!(
        r[1].stats.as_deref().is_some_and(|s| s.contains("seed=")),
        "{:?}",
        r[1].stats
    );
    assert!(r[1].cpu_s.is_some(), "measured columns are filled");
    // The meta knows the manifest, so a resume with another manifest would be refused.
    let meta = std::fs::read_to_string(dir.path().join("r.meta.json")).unwrap();
    assert!(meta.contains("solvers_manifest_hash"), "{meta}");
}

#[test]
fn a_wrong_external_answer_is_a_wrong_row_and_a_hang_is_a_timeout_row() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &sudoku_lines());
    let wrong = manifest(
        dir.path(),
        "liar",
        &format!("ANSWER = \"{DEMO_SOLUTION}\", FAULT = \"wrong\""),
    );
    let out = dir.path().join("w.csv");
    bench_run()
        .args(["--strategy", "liar", "--solvers"])
        .arg(&wrong)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(1);
    assert!(rows(&out)
        .iter()
        .all(|r| r.status == Some(puzzlebench::results::Status::Wrong)));

    let pid = dir.path().join("pid");
    let hang = manifest(
        dir.path(),
        "sleeper",
        &format!("FAULT = \"hang\", PIDFILE = \"{}\"", pid.display()),
    );
    let out = dir.path().join("h.csv");
    let start = std::time::Instant::now();
    bench_run()
        .args([
            "--strategy",
            "sleeper",
            "--timeout",
            "0.2",
            "--threads",
            "2",
            "--solvers",
        ])
        .arg(&hang)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    let r = rows(&out);
    assert_eq!(r.len(), 4);
    assert!(r
        .iter()
        .all(|r| r.status == Some(puzzlebench::results::Status::Timeout)));
    // Generous: 4 jobs x 0.2 s on 2 threads plus kills; proves "did not hang", not speed.
    assert!(start.elapsed().as_secs() < 60);
}

#[test]
fn a_bad_manifest_is_refused_before_any_job() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "s.txt", &format!("{SUDOKU_DEMO}\n"));
    let m = write(
        dir.path(),
        "m.toml",
        "[solver.x]\nkind = \"sudoku\"\ncommand = [\"/no/such/program\"]\nmode = \"batch\"\n",
    );
    let out = dir.path().join("r.csv");
    let a = bench_run()
        .args(["--strategy", "x", "--solvers"])
        .arg(&m)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(
        stderr.contains("m.toml") && stderr.contains("/no/such/program"),
        "{stderr}"
    );
    assert!(!out.exists());
    // A built-in option no external solver honours is refused.
    let ok = manifest(dir.path(), "echo", &format!("ANSWER = \"{DEMO_SOLUTION}\""));
    let a = bench_run()
        .args(["--strategy", "echo", "--node-limit", "5", "--solvers"])
        .arg(&ok)
        .arg("--dataset")
        .arg(&data)
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(stderr.contains("--node-limit does not apply"), "{stderr}");
}
