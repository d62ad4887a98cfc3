//! `bench-gen`: generate datasets with unique solutions, deterministically from a seed.
//! Puzzle i of a run uses its own RNG (seed, kind, size, i), so `--count 40` starts with the
//! same puzzles as `--count 20`, and the result does not depend on the thread count.

mod common;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use puzzlebench::hitori;
use puzzlebench::results::write::write_atomic;
use puzzlebench::seed::job_rng;
use puzzlebench::sudoku;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  bench-gen hitori --size 10 --count 40 --seed 1 --out datasets/hitori10/puzzles.txt
  bench-gen sudoku --difficulty hard --count 50 --seed 3 --out datasets/sudoku-hard/puzzles.txt
  bench-gen sudoku --givens 30 --count 100 --seed 1 --out results/g30.txt";

/// Generate puzzle datasets with unique solutions (Sudoku graded by difficulty),
/// deterministically from a seed.
#[derive(Parser, Debug)]
#[command(name = "bench-gen", version, about, long_about = None, after_help = EXAMPLES)]
struct Args {
    #[command(subcommand)]
    kind: Kind,
}

#[derive(Subcommand, Debug)]
enum Kind {
    /// Hitori puzzles with a unique solution, written as Singles game IDs with their solution
    /// masks (or as grid blocks with `--format grid`).
    Hitori {
        /// Width (and height, unless --height is given), 2..=64.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = common::whole::<usize>(0, u64::from(u32::MAX)))]
        size: usize,
        /// Height, for rectangular grids.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = common::whole::<usize>(0, u64::from(u32::MAX)))]
        height: Option<usize>,
        /// How many puzzles (1 to 10,000,000).
        #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = common::whole::<u32>(1, 10_000_000))]
        count: u32,
        /// Seed.
        #[arg(long, default_value_t = 0, value_name = "S", allow_negative_numbers = true, value_parser = common::whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Output file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// `singles` (game IDs with solution masks) or `grid` (number rows, no solutions).
        #[arg(long, default_value = "singles")]
        format: String,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Sudoku puzzles with a unique solution, graded by the techniques a solution needs
    /// (--difficulty) or with an exact number of givens (--givens); or, with --order K and
    /// --given-pct P, K²xK² puzzles made as Lewis made his: a random full grid with cells
    /// removed at random until P% remain. Those may have several solutions (any valid
    /// completion counts as solved), and are written in the one-line `sudokuN:` form without
    /// a solution.
    Sudoku {
        /// `easy` (singles only), `medium` (more than singles, no guessing) or `hard` (guessing).
        #[arg(long, required_unless_present_any = ["givens", "order"], conflicts_with_all = ["givens", "order"])]
        difficulty: Option<String>,
        /// Order K, 2 to 6 (4x4 to 36x36), with --given-pct.
        #[arg(long, value_name = "K", conflicts_with = "givens", requires = "given_pct", allow_negative_numbers = true, value_parser = common::whole::<u8>(2, 6))]
        order: Option<u8>,
        /// Percentage of cells given, 0 to 100, with --order.
        #[arg(long, value_name = "P", requires = "order", allow_negative_numbers = true, value_parser = common::whole::<u8>(0, 100))]
        given_pct: Option<u8>,
        /// Exactly N givens, any difficulty (21 to 80: random digging practically never
        /// reaches fewer).
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = common::whole::<usize>(0, u64::from(u32::MAX)))]
        givens: Option<usize>,
        /// How many puzzles (1 to 10,000,000).
        #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = common::whole::<u32>(1, 10_000_000))]
        count: u32,
        /// Seed.
        #[arg(long, default_value_t = 0, value_name = "S", allow_negative_numbers = true, value_parser = common::whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Output file.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
}

fn check_out(out: &Path, force: bool) -> Result<()> {
    if out.exists() && !force {
        bail!(
            "{}: already exists; choose another --out or add --force",
            out.display()
        );
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create", dir.display()))?;
    }
    Ok(())
}

/// What `bench-gen sudoku` aims at.
#[derive(Clone, Copy)]
enum SudokuTarget {
    Difficulty(sudoku::generate::Difficulty),
    Givens(usize),
}

/// Validate `--difficulty` / `--givens` before any work (clap ensures exactly one is given).
fn sudoku_target(difficulty: Option<&str>, givens: Option<usize>) -> Result<SudokuTarget> {
    use sudoku::generate::{GivensError, MAX_GIVENS, MIN_GIVENS};
    match (difficulty, givens) {
        (_, Some(g)) if !(MIN_GIVENS..=MAX_GIVENS).contains(&g) => {
            bail!("--givens: {}", GivensError::OutOfRange(g))
        }
        (_, Some(g)) => Ok(SudokuTarget::Givens(g)),
        (Some(d), None) => Ok(SudokuTarget::Difficulty(d.parse().map_err(|_| {
            anyhow::anyhow!("--difficulty {d:?}: expected easy, medium or hard")
        })?)),
        (None, None) => bail!("give --difficulty or --givens"),
    }
}

fn header() -> String {
    let cmd: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, a)| if i == 0 { "bench-gen".to_string() } else { a })
        .collect();
    format!(
        "# generated by puzzlebench {}: {}\n",
        env!("CARGO_PKG_VERSION"),
        cmd.join(" ")
    )
}

fn run(args: Args) -> Result<()> {
    match args.kind {
        Kind::Hitori {
            size,
            height,
            count,
            seed,
            out,
            format,
            force,
        } => {
            let (w, h) = (size, height.unwrap_or(size));
            let max = hitori::grid::MAX_SIDE;
            if !(2..=max).contains(&w) || !(2..=max).contains(&h) {
                bail!("--size/--height must be from 2 to {max}, found {w}x{h}");
            }
            if count == 0 {
                bail!("--count must be at least 1, found 0");
            }
            let grid = match format.as_str() {
                "singles" => false,
                "grid" => true,
                other => bail!("--format {other:?}: expected \"singles\" or \"grid\""),
            };
            check_out(&out, force)?;
            let stream = format!("bench-gen-hitori-{w}x{h}");
            let puzzles: Vec<_> = (0..count)
                .into_par_iter()
                .map(|i| {
                    let mut rng = job_rng(seed, &stream, i);
                    hitori::generate::generate(w, h, &mut rng)
                })
                .collect();
            let mut text = header();
            for (p, s) in &puzzles {
                if grid {
                    text.push('\n');
                    text.push_str(&hitori::parse::to_grid_block(p));
                } else {
                    let id = hitori::parse::to_singles_id(p).context(
                        "a value above 61 cannot be written as a Singles ID; use --format grid",
                    )?;
                    let _ = writeln!(text, "{id}\t{}", s.to_mask());
                }
            }
            write_atomic(&out, text.as_bytes(), force)
                .with_context(|| format!("{}: cannot write", out.display()))?;
            common::print(&format!(
                "wrote {count} {w}x{h} Hitori puzzles to {}\n",
                out.display()
            ));
        }
        Kind::Sudoku {
            difficulty,
            givens,
            count,
            seed,
            out,
            force,
            ..
        } => {
            let target = sudoku_target(difficulty.as_deref(), givens)?;
            if count == 0 {
                bail!("--count must be at least 1, found 0");
            }
            check_out(&out, force)?;
            let stream = match target {
                SudokuTarget::Difficulty(d) => format!("bench-gen-sudoku-{}", d.name()),
                SudokuTarget::Givens(g) => format!("bench-gen-sudoku-givens-{g}"),
            };
            let puzzles: Vec<_> = (0..count)
                .into_par_iter()
                .map(|i| {
                    let mut rng = job_rng(seed, &stream, i);
                    match target {
                        SudokuTarget::Difficulty(d) => Ok(sudoku::generate::generate(d, &mut rng)),
                        SudokuTarget::Givens(g) => sudoku::generate::generate_givens(g, &mut rng),
                    }
                })
                .collect::<Result<_, _>>()?;
            let mut text = header();
            for (p, s) in &puzzles {
                let sol: String = s.iter().map(|&v| char::from(b'0' + v)).collect();
                let _ = writeln!(text, "{} {sol}", p.to_line());
            }
            write_atomic(&out, text.as_bytes(), force)
                .with_context(|| format!("{}: cannot write", out.display()))?;
            let what = match target {
                SudokuTarget::Difficulty(d) => d.name().to_string(),
                SudokuTarget::Givens(g) => format!("{g}-given"),
            };
            common::print(&format!(
                "wrote {count} {what} Sudoku puzzles to {}\n",
                out.display()
            ));
        }
    }
    Ok(())
}

/// `bench-gen sudoku --order K --given-pct P`: Lewis-style puzzles in the one-line form.
fn sudoku_of_order(
    order: u8,
    pct: u8,
    count: u32,
    seed: u64,
    out: &Path,
    force: bool,
) -> Result<()> {
    check_out(out, force)?;
    let stream = format!("bench-gen-sudoku-order-{order}-{pct}");
    let lines: Vec<String> = (0..count)
        .into_par_iter()
        .map(|i| {
            let mut rng = job_rng(seed, &stream, i);
            sudoku::order::generate(usize::from(order), usize::from(pct), &mut rng).to_line()
        })
        .collect();
    let mut text = header();
    for l in &lines {
        let _ = writeln!(text, "{l}");
    }
    write_atomic(out, text.as_bytes(), force)
        .with_context(|| format!("{}: cannot write", out.display()))?;
    let n = usize::from(order) * usize::from(order);
    common::print(&format!(
        "wrote {count} {n}x{n} Sudoku puzzles with {pct}% given (not checked unique) to {}\n",
        out.display()
    ));
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.kind {
        Kind::Sudoku {
            order: Some(k),
            given_pct,
            count,
            seed,
            ref out,
            force,
            ..
        } => sudoku_of_order(k, given_pct.unwrap_or(0), count, seed, out, force),
        _ => run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench-gen: error: {}", common::error_text(&e));
            ExitCode::from(2)
        }
    }
}
