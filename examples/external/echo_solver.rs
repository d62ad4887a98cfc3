//! A trivial external solver for measuring puzzlebench's per-job protocol overhead (batch
//! mode): it answers every request with the solution in `$ANSWER` and reports, as
//! `solver_ns`, the time it spent between reading the request and writing the answer.
//!
//! Not a Cargo example target (it is not in `examples/`'s top level): tests/it/external_overhead.rs
//! builds it with `rustc -O` and drives it through the external worker.
use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let answer = std::env::var("ANSWER").unwrap_or_else(|_| "1".repeat(81));
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
