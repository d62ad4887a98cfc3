//! A trivial external solver for measuring puzzlebench's per-job protocol overhead (batch
//! mode): it answers every request with the solution in `$ANSWER` and reports, as
//! `solver_ns`, the time it spent between reading the request and writing the answer.
//! With `$WORK=N` it first does N rounds of dependent integer arithmetic per job (a fixed
//! amount of CPU work, the same under any load: benches/gate-matrix.sh uses it to make a
//! solver exactly three times slower than another).
//!
//! Not a Cargo example target (it is not in `examples/`'s top level): tests/it/external_overhead.rs
//! builds it with `rustc -O` and drives it through the external worker.
use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let answer = std::env::var("ANSWER").unwrap_or_else(|_| "1".repeat(81));
    let work: u64 = std::env::var("WORK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut input = std::io::stdin().lock();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let t = Instant::now();
        let job = line.split('\t').next().unwrap_or("0");
        // An LCG chain: each step needs the one before, so it cannot be vectorised, and
        // black_box keeps the compiler from dropping it.
        let mut x = std::hint::black_box(work);
        for _ in 0..work {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        }
        std::hint::black_box(x);
        let ns = t.elapsed().as_nanos();
        // The answer must leave at once: the harness is waiting for it.
        if writeln!(out, "{job}\tsolved\t{answer}\tsolver_ns={ns}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}
