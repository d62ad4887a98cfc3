//! `bench-gen`: generate datasets with unique solutions, deterministically from a seed.
//! Puzzle i of a run uses its own RNG (seed, kind, size, i), so `--count 40` starts with the
//! same puzzles as `--count 20`, and the result does not depend on the thread count.

mod common;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use puzzlebench::hitori;
use puzzlebench::results::write::AtomicFile;
use puzzlebench::seed::job_rng;
use puzzlebench::sudoku;
use rayon::prelude::*;
use std::io::Write as _;
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
        /// Write an output estimated beyond 2 GiB (refused without it, with the estimate).
        #[arg(long)]
        allow_large: bool,
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
        /// Write an output estimated beyond 2 GiB (refused without it, with the estimate).
        #[arg(long)]
        allow_large: bool,
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

/// The largest output written without `--allow-large` (2 GiB): a mistyped `--count` or
/// `--order` should cost a message, not a full disk. Ten million 9x9 puzzles with their
/// solutions (1.6 GB) fit; ten million 36x36 ones (about 39 GB) do not.
const MAX_OUTPUT: u64 = 2 << 30;

/// Puzzles generated (in parallel) and written per chunk: the memory of the output is one
/// chunk's text, whatever `--count` is.
const CHUNK: u32 = 4096;

/// `n` bytes for a message: `1.6 GB`, `39.0 GB`, `233.1 MB`.
fn size_text(n: u64) -> String {
    let n = n as f64;
    if n >= 1e9 {
        format!("{:.1} GB", n / 1e9)
    } else {
        format!("{:.1} MB", n / 1e6)
    }
}

/// Refuses an output estimated (`per` bytes at most a puzzle) beyond [`MAX_OUTPUT`] unless
/// `allow` (`--allow-large`), before anything is generated.
fn check_size(count: u32, per: u64, allow: bool) -> Result<()> {
    let total = u64::from(count) * per + header().len() as u64;
    if total > MAX_OUTPUT && !allow {
        bail!(
            "the output would be up to about {} ({count} puzzles of up to {per} bytes each), \
             beyond the 2 GiB bench-gen writes without --allow-large; lower --count, or add \
             --allow-large if the disk has room",
            size_text(total),
        );
    }
    Ok(())
}

/// Decimal digits of `v`.
fn digits(v: usize) -> u64 {
    v.to_string().len() as u64
}

/// Writes the header, then puzzle `i`'s text (its line or lines) for every `i < count`, in
/// order: generated [`CHUNK`] at a time in parallel, each chunk written before the next is
/// made, into a temporary file renamed over `out` at the end (an error leaves `out` as it was).
fn write_puzzles<F>(out: &Path, force: bool, count: u32, make: F) -> Result<()>
where
    F: Fn(u32) -> Result<String> + Sync,
{
    let werr = || format!("{}: cannot write", out.display());
    let mut file = AtomicFile::create(out, force).with_context(werr)?;
    file.write_all(header().as_bytes()).with_context(werr)?;
    let mut start = 0;
    while start < count {
        let end = count.min(start.saturating_add(CHUNK));
        let texts = (start..end)
            .into_par_iter()
            .map(&make)
            .collect::<Result<Vec<String>>>()?;
        for t in &texts {
            file.write_all(t.as_bytes()).with_context(werr)?;
        }
        start = end;
    }
    file.commit().with_context(werr)
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
            allow_large,
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
            // Singles: `WxH:`, a character a cell, a tab, the mask, the line end. Grid: a
            // blank line, then rows of numbers up to the larger side.
            let per = if grid {
                1 + h as u64 * (w as u64 * (digits(w.max(h)) + 1))
            } else {
                format!("{w}x{h}:").len() as u64 + 2 * (w * h) as u64 + 2
            };
            check_size(count, per, allow_large)?;
            check_out(&out, force)?;
            let stream = format!("bench-gen-hitori-{w}x{h}");
            write_puzzles(&out, force, count, |i| {
                let mut rng = job_rng(seed, &stream, i);
                let (p, s) = hitori::generate::generate(w, h, &mut rng);
                if grid {
                    Ok(format!("\n{}", hitori::parse::to_grid_block(&p)))
                } else {
                    let id = hitori::parse::to_singles_id(&p).context(
                        "a value above 61 cannot be written as a Singles ID; use --format grid",
                    )?;
                    Ok(format!("{id}\t{}\n", s.to_mask()))
                }
            })?;
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
            allow_large,
            ..
        } => {
            let target = sudoku_target(difficulty.as_deref(), givens)?;
            if count == 0 {
                bail!("--count must be at least 1, found 0");
            }
            // The puzzle's 81 cells, a space, the solution's 81 digits, the line end.
            check_size(count, 164, allow_large)?;
            check_out(&out, force)?;
            let stream = match target {
                SudokuTarget::Difficulty(d) => format!("bench-gen-sudoku-{}", d.name()),
                SudokuTarget::Givens(g) => format!("bench-gen-sudoku-givens-{g}"),
            };
            write_puzzles(&out, force, count, |i| {
                let mut rng = job_rng(seed, &stream, i);
                let (p, s) = match target {
                    SudokuTarget::Difficulty(d) => sudoku::generate::generate(d, &mut rng),
                    SudokuTarget::Givens(g) => sudoku::generate::generate_givens(g, &mut rng)?,
                };
                let sol: String = s.iter().map(|&v| char::from(b'0' + v)).collect();
                Ok(format!("{} {sol}\n", p.to_line()))
            })?;
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
    allow_large: bool,
) -> Result<()> {
    let n = usize::from(order) * usize::from(order);
    // `sudokuN:`, N² values of up to digits(N) each with a comma between, the line end.
    let per = format!("sudoku{n}:").len() as u64 + (n * n) as u64 * (digits(n) + 1);
    check_size(count, per, allow_large)?;
    check_out(out, force)?;
    let stream = format!("bench-gen-sudoku-order-{order}-{pct}");
    write_puzzles(out, force, count, |i| {
        let mut rng = job_rng(seed, &stream, i);
        let grid = sudoku::order::generate(usize::from(order), usize::from(pct), &mut rng);
        Ok(format!("{}\n", grid.to_line()))
    })?;
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
            allow_large,
            ..
        } => sudoku_of_order(
            k,
            given_pct.unwrap_or(0),
            count,
            seed,
            out,
            force,
            allow_large,
        ),
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
