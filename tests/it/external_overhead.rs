//! Batch-mode protocol overhead per job, with examples/external/echo_solver.rs (built here
//! with `rustc -O`): (wall - time the solver reports) / jobs. Prints the figure; asserts only
//! that every answer came back right. `PB_OVERHEAD_JOBS` sets the job count (default 2000;
//! the README figure uses 100000):
//!
//! `PB_OVERHEAD_JOBS=100000 cargo test --release --test it external_overhead -- --nocapture`

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use puzzlebench::dataset::load_file;
use puzzlebench::external::{manifest, ExternalSolver};
use puzzlebench::solver::{End, Rng, Solver, Task};

const SOLVED: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

#[test]
#[ignore = "needs rustc (builds the echo solver); prints a figure"]
fn batch_overhead_per_job() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = dir.path().join("echo_solver");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let built = Command::new(&rustc)
        .args(["-O", "--edition", "2021", "-o"])
        .arg(&exe)
        .arg(root.join("examples/external/echo_solver.rs"))
        .status();
    if !built.is_ok_and(|s| s.success()) {
        crate::common::needs(&format!("`{rustc}` to build the echo solver"));
    }
    let text = format!(
        "[solver.echo]\nkind = \"sudoku\"\ncommand = [\"{}\"]\nmode = \"batch\"\nenv = {{ ANSWER = \"{SOLVED}\" }}\n",
        exe.display()
    );
    let spec = manifest::parse(&dir.path().join("m.toml"), &text, &[])
        .expect("manifest")
        .remove(0);
    let solver = ExternalSolver::new(spec);
    let puzzle = load_file(&root.join("datasets/sudoku-demo/demo.txt"), 0)
        .expect("demo")
        .remove(0);
    let jobs: u64 = std::env::var("PB_OVERHEAD_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let mut worker = solver.start().expect("start");
    // The first job pays the process start-up; time the rest.
    let mut rng = Rng::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut task = Task::new(&puzzle, 0, 0, &mut rng, &stop, None);
    worker.solve(&mut task).expect("warm-up job");
    let mut solver_ns: u64 = 0;
    let mut child_cpu = 0.0;
    let t = Instant::now();
    for job in 1..=jobs {
        let mut task = Task::new(&puzzle, job, job, &mut rng, &stop, None);
        let o = worker.solve(&mut task).expect("echo answers");
        assert!(matches!(o.end, End::Found(_)), "job {job}");
        let ns = o
            .measured
            .stats
            .as_deref()
            .and_then(|s| s.strip_prefix("solver_ns="))
            .and_then(|v| v.parse::<u64>().ok())
            .expect("solver_ns reported");
        solver_ns += ns;
        child_cpu += o.measured.cpu_s.expect("cpu measured");
        assert!(
            o.measured.max_rss_kib.is_some_and(|k| k > 0),
            "job {job}: peak memory"
        );
    }
    let wall = t.elapsed();
    let overhead_us = (wall.as_secs_f64() - solver_ns as f64 * 1e-9) / jobs as f64 * 1e6;
    println!(
        "batch overhead: {jobs} jobs, wall {:.3} s, solver-reported {:.3} s, overhead \
         {overhead_us:.2} us/job; solver process CPU {:.2} us/job",
        wall.as_secs_f64(),
        solver_ns as f64 * 1e-9,
        child_cpu / jobs as f64 * 1e6
    );
}
