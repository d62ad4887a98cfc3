//! Solves the Hitori puzzles of a corpus file, optionally of one size only, in one reused
//! [`Scratch`], for instruction counts of the solver alone (no harness):
//!
//! `valgrind --tool=callgrind target/release/examples/hitori_profile FILE [SIZE] [MAX_SOLUTIONS] [ROUNDS]`
//!
//! Prints the puzzles solved and the total search nodes; `callgrind_annotate --inclusive=yes`
//! then gives each phase's share (see `benches/hitori-phases.sh`).
use puzzlebench::hitori::{parse_singles, solve_with, verify, Scratch, SearchConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args
        .get(1)
        .ok_or("usage: hitori_profile FILE [SIZE] [MAX_SOLUTIONS] [ROUNDS]")?;
    let size: Option<usize> = args
        .get(2)
        .map(|s| s.parse())
        .transpose()?
        .filter(|&s| s > 0);
    let max_solutions: u32 = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(1);
    let rounds: u32 = args.get(4).map(|s| s.parse()).transpose()?.unwrap_or(1);
    let text = std::fs::read_to_string(path)?;
    let all = parse_singles(&text)?;
    let cfg = SearchConfig {
        max_solutions,
        ..SearchConfig::default()
    };
    let mut scratch = Scratch::new();
    let (mut solved, mut nodes) = (0u64, 0u64);
    for _ in 0..rounds {
        for p in all
            .iter()
            .filter(|p| size.is_none_or(|s| p.puzzle.width() == s))
        {
            let res = solve_with(&mut scratch, &p.puzzle, &cfg, &mut || false);
            nodes += res.stats.nodes;
            let sol = res
                .first
                .ok_or_else(|| format!("line {}: no solution", p.line))?;
            verify(&p.puzzle, &sol).map_err(|e| format!("line {}: {e}", p.line))?;
            if max_solutions >= 2 && res.solutions != 1 {
                return Err(format!("line {}: {} solutions", p.line, res.solutions).into());
            }
            solved += 1;
        }
    }
    println!("solved {solved} nodes {nodes}");
    Ok(())
}
