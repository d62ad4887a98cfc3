//! The fast baseline: bitmask candidates, naked and hidden singles to a fixpoint at every node,
//! branching on the cell with the fewest candidates. The board is `Copy` and each branch works on
//! its own copy, so there is no undo log and no allocation.

use super::cands::{Board, Pending};
use super::grid::{Solution, SudokuPuzzle};

/// How a backtracking run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BacktrackEnd {
    /// The search space was exhausted, or `max_solutions` solutions were found.
    Complete,
    /// `node_limit` nodes were visited before the search finished.
    NodeLimit,
    /// The `stop` callback asked to stop.
    Stopped,
}

/// Outcome and counters of one backtracking run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BacktrackResult {
    /// How the run ended.
    pub end: BacktrackEnd,
    /// Solutions found (at most `max_solutions`).
    pub solutions: u32,
    /// The first solution found.
    pub first: Option<Solution>,
    /// Search nodes: propagations run, the root included.
    pub nodes: u64,
    /// Branch assignments tried (each child of a branching cell counts one).
    pub guesses: u64,
}

/// Search context: limits, counters, scratch. Lives for one `solve` call.
struct Ctx<'a> {
    max_solutions: u32,
    node_limit: u64,
    stop: &'a mut dyn FnMut() -> bool,
    pending: Pending,
    nodes: u64,
    guesses: u64,
    solutions: u32,
    first: Option<Solution>,
    end: Option<BacktrackEnd>,
}

/// How often (in nodes) the stop callback is polled: a power of two minus one, used as a mask.
const STOP_MASK: u64 = 1023;

/// Bitmask candidates, naked + hidden singles, fewest-candidates branching. max_solutions 1 =
/// first solution; 2 = prove uniqueness (0 is treated as 1). `stop` polled every ~1024 nodes.
pub fn solve(
    puzzle: &SudokuPuzzle,
    max_solutions: u32,
    node_limit: Option<u64>,
    stop: &mut dyn FnMut() -> bool,
) -> BacktrackResult {
    let mut ctx = Ctx {
        max_solutions: max_solutions.max(1),
        node_limit: node_limit.unwrap_or(u64::MAX),
        stop,
        pending: Pending::new(),
        nodes: 0,
        guesses: 0,
        solutions: 0,
        first: None,
        end: None,
    };
    if let Ok(board) = Board::new(puzzle, &mut ctx.pending) {
        search(&mut ctx, board);
    }
    BacktrackResult {
        end: ctx.end.unwrap_or(BacktrackEnd::Complete),
        solutions: ctx.solutions,
        first: ctx.first,
        nodes: ctx.nodes,
        guesses: ctx.guesses,
    }
}

/// One node: propagate the board (whose pending singles are in `ctx.pending`), then branch.
/// Sets `ctx.end` when the whole search must stop.
fn search(ctx: &mut Ctx<'_>, mut board: Board) {
    if ctx.nodes >= ctx.node_limit {
        ctx.end = Some(BacktrackEnd::NodeLimit);
        ctx.pending.clear();
        return;
    }
    ctx.nodes += 1;
    if ctx.nodes & STOP_MASK == 0 && (ctx.stop)() {
        ctx.end = Some(BacktrackEnd::Stopped);
        ctx.pending.clear();
        return;
    }
    if board.propagate(&mut ctx.pending).is_err() {
        return;
    }
    let Some(cell) = board.fewest_candidates() else {
        ctx.solutions += 1;
        if ctx.first.is_none() {
            ctx.first = Some(board.vals);
        }
        if ctx.solutions >= ctx.max_solutions {
            ctx.end = Some(BacktrackEnd::Complete);
        }
        return;
    };
    let mut rest = board.cand[cell];
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        ctx.guesses += 1;
        let mut child = board;
        if child.place(cell, bit, &mut ctx.pending).is_ok() {
            search(ctx, child);
        } else {
            ctx.pending.clear();
        }
        if ctx.end.is_some() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::parse::parse_lines;
    use crate::sudoku::testdata::{corpus, demo_puzzle, demo_solution, puzzle};
    use crate::sudoku::verify::verify;

    fn never() -> impl FnMut() -> bool {
        || false
    }

    #[test]
    fn solves_the_demo() {
        let r = solve(&demo_puzzle(), 2, None, &mut never());
        assert_eq!(r.end, BacktrackEnd::Complete);
        assert_eq!(r.solutions, 1);
        assert_eq!(r.first, Some(demo_solution()));
        assert_eq!(verify(&demo_puzzle(), &r.first.unwrap()), Ok(()));
        // Singles solve the demo: no branching at all.
        assert_eq!((r.nodes, r.guesses), (1, 0));
    }

    #[test]
    fn counts_two_solutions() {
        // Blank an unavoidable rectangle of the demo solution: corners a b / b a in two rows of
        // one band. Both fillings keep every unit whole, so there are exactly two solutions.
        let sol = demo_solution();
        let mut cells = sol;
        let mut found = false;
        'outer: for r1 in 0..9 {
            for r2 in (r1 + 1)..9 {
                if r1 / 3 != r2 / 3 {
                    continue;
                }
                for c1 in 0..9 {
                    for c2 in (c1 + 1)..9 {
                        let (a, b) = (sol[r1 * 9 + c1], sol[r1 * 9 + c2]);
                        if sol[r2 * 9 + c1] == b && sol[r2 * 9 + c2] == a {
                            for &(r, c) in &[(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
                                cells[r * 9 + c] = 0;
                            }
                            found = true;
                            break 'outer;
                        }
                    }
                }
            }
        }
        assert!(found, "the demo solution has an unavoidable rectangle");
        let p = SudokuPuzzle::new(cells).unwrap();
        let r = solve(&p, 2, None, &mut never());
        assert_eq!(r.solutions, 2);
        assert_eq!(r.end, BacktrackEnd::Complete);
        let r = solve(&p, 10, None, &mut never());
        assert_eq!(r.solutions, 2);
        let empty = SudokuPuzzle::new([0; 81]).unwrap();
        let r = solve(&empty, 2, None, &mut never());
        assert_eq!(r.solutions, 2);
        assert_eq!(verify(&empty, &r.first.unwrap()), Ok(()));
    }

    #[test]
    fn zero_solutions_for_an_unsolvable_puzzle() {
        // No conflicting givens: r1c9 must be 9 (row 1 holds 1-8) but column 9 has a 9 lower down,
        // and it sits outside box 3.
        let mut line = String::from("12345678.");
        line.push_str(&".".repeat(27));
        line.push_str("........9");
        line.push_str(&".".repeat(81 - 45));
        let r = solve(&puzzle(&line), 2, None, &mut never());
        assert_eq!(r.solutions, 0);
        assert_eq!(r.first, None);
        assert_eq!(r.end, BacktrackEnd::Complete);

        // A subtler one that needs search: the demo with r1c1 forced to a wrong value.
        let mut cells = demo_puzzle().cells().to_owned();
        cells[0] = 5; // the solution has 4; 5 conflicts with no given
        let p = SudokuPuzzle::new(cells).unwrap();
        let r = solve(&p, 2, None, &mut never());
        assert_eq!(r.solutions, 0);
    }

    #[test]
    fn node_limit_and_stop_are_respected() {
        let p = puzzle(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        );
        let full = solve(&p, 2, None, &mut never());
        assert!(full.nodes > 10, "needs search: {}", full.nodes);
        let r = solve(&p, 2, Some(5), &mut never());
        assert_eq!(r.end, BacktrackEnd::NodeLimit);
        assert_eq!(r.nodes, 5);
        let empty = SudokuPuzzle::new([0; 81]).unwrap();
        let mut calls = 0;
        let r = solve(&empty, u32::MAX, None, &mut || {
            calls += 1;
            calls >= 3
        });
        assert_eq!(r.end, BacktrackEnd::Stopped);
        assert_eq!(r.nodes, 3 * (STOP_MASK + 1));
    }

    #[test]
    fn solves_the_first_200_of_top1465() {
        let Some(text) = corpus("puzzles3_magictour_top1465.txt") else {
            return;
        };
        let all = parse_lines(&text).unwrap();
        for p in all.iter().take(200) {
            let r = solve(&p.puzzle, 2, None, &mut never());
            assert_eq!(r.solutions, 1, "line {}", p.line);
            assert_eq!(
                verify(&p.puzzle, &r.first.unwrap()),
                Ok(()),
                "line {}",
                p.line
            );
        }
    }

    /// Timing: `cargo test --release --lib -- --ignored --nocapture backtrack_speed`.
    #[test]
    #[ignore]
    fn backtrack_speed() {
        for file in [
            "puzzles3_magictour_top1465.txt",
            "puzzles6_forum_hardest_1106.txt",
            "puzzles5_forum_hardest_1905_11+.txt",
        ] {
            let Some(text) = corpus(file) else {
                return;
            };
            let all = parse_lines(&text).unwrap();
            let mut best = f64::MAX;
            let (mut nodes, mut guesses) = (0, 0);
            for _ in 0..3 {
                let t = crate::sudoku::testdata::Timer::start();
                nodes = 0;
                guesses = 0;
                for p in &all {
                    let r = solve(&p.puzzle, 1, None, &mut never());
                    assert!(r.first.is_some());
                    nodes += r.nodes;
                    guesses += r.guesses;
                }
                best = best.min(t.secs());
            }
            let n = all.len() as f64;
            eprintln!(
                "{file}: {} puzzles, {:.1} us/puzzle on-CPU (best of 3), {:.1} nodes, {:.1} guesses per puzzle",
                all.len(),
                best * 1e6 / n,
                nodes as f64 / n,
                guesses as f64 / n
            );
        }
    }
}
