//! The fast baseline: digit-major bitboard candidates, naked and hidden singles and locked
//! candidates to a fixpoint at every node, and near the root the triad rule too (see
//! `Rules::Triads` and `TRIAD_DEPTH`), branching on a cell with the fewest candidates (the
//! one with the most unsolved peers among them), and of two candidates trying first the one that
//! takes more from the peers (see `node`). A search for more than one solution (a proof of
//! uniqueness) has the triad rule at every node and splits on a digit's configurations in a
//! band or stack instead (see `Bitboard::split`). The board is `Copy` and each branch works on
//! its own copy, so there is no undo log and no allocation.

use super::bitboard::{Bitboard, Rules};
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
    /// Branch assignments tried: each child of a branching point counts one (a digit of a
    /// branching cell, or in a uniqueness search a configuration of a split).
    pub guesses: u64,
}

/// Search context: limits, counters, scratch. Lives for one `solve` call.
struct Ctx<'a> {
    /// The search of the solver's previous version: singles only, and the first cell with the
    /// fewest candidates (see [`first_solution_in_previous_order`]).
    previous: bool,
    max_solutions: u32,
    node_limit: u64,
    stop: &'a mut dyn FnMut() -> bool,
    nodes: u64,
    guesses: u64,
    /// Guesses on the path from the root to the current node.
    depth: u32,
    solutions: u32,
    first: Option<Solution>,
    end: Option<BacktrackEnd>,
}

/// How often (in nodes) the stop callback is polled: a power of two minus one, used as a mask.
const STOP_MASK: u64 = 1023;

/// The deepest nodes (in guesses from the root) whose fixpoint includes the triad rule; deeper
/// ones stop at locked candidates. The rule prunes the tree most near the root, where a node
/// stands for a large subtree, while deep in the tree it rarely fires and its upkeep (triad
/// masks saved at every scan, a count over the digits at every fixpoint) outweighs what it
/// saves. Of the limits measured, 4 took the fewest instructions on forum_hardest_1106 and on
/// top1465 (see docs/performance.md §Design measurements).
const TRIAD_DEPTH: u32 = 4;

/// Bitmask candidates, naked and hidden singles, locked candidates and (near the root) the
/// triad rule, fewest-candidates branching (most unsolved peers on ties; of two candidates, the
/// one that takes more from the peers first). max_solutions 1 =
/// first solution; 2 = prove uniqueness (0 is treated as 1). `stop` polled every ~1024 nodes.
pub fn solve(
    puzzle: &SudokuPuzzle,
    max_solutions: u32,
    node_limit: Option<u64>,
    stop: &mut dyn FnMut() -> bool,
) -> BacktrackResult {
    run(search, puzzle, false, max_solutions, node_limit, stop)
}

/// The first solution, or None, found by the solver's previous search: singles alone at each
/// node (no locked candidates) and the first cell with the fewest candidates. Where a puzzle has
/// several solutions, which one comes first depends on the search; the generator completes its
/// random grids with this one so that a seed gives the same puzzles as before (the bundled
/// datasets are reproducible from their README commands).
pub(crate) fn first_solution_in_previous_order(puzzle: &SudokuPuzzle) -> Option<Solution> {
    run(search, puzzle, true, 1, None, &mut || false).first
}

/// A search entry point: [`search`], or in the tests one of the builds it picks from.
type Search = fn(&mut Ctx<'_>, &mut Bitboard);

fn run(
    search: Search,
    puzzle: &SudokuPuzzle,
    previous: bool,
    max_solutions: u32,
    node_limit: Option<u64>,
    stop: &mut dyn FnMut() -> bool,
) -> BacktrackResult {
    let mut ctx = Ctx {
        previous,
        max_solutions: max_solutions.max(1),
        node_limit: node_limit.unwrap_or(u64::MAX),
        stop,
        nodes: 0,
        guesses: 0,
        depth: 0,
        solutions: 0,
        first: None,
        end: None,
    };
    if let Ok(mut board) = Bitboard::new(puzzle) {
        search(&mut ctx, &mut board);
    }
    BacktrackResult {
        end: ctx.end.unwrap_or(BacktrackEnd::Complete),
        solutions: ctx.solutions,
        first: ctx.first,
        nodes: ctx.nodes,
        guesses: ctx.guesses,
    }
}

/// The search, compiled for the machine where it can be: [`search_x86`] when the CPU has the
/// instructions it is built with, else [`search_portable`]; for a uniqueness search (more than
/// one solution wanted) or a first-solution one, each its own copy (see [`node`]).
fn search(ctx: &mut Ctx<'_>, board: &mut Bitboard) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: the CPU has every feature `search_x86` is compiled with (checked just above).
        unsafe {
            if uniqueness(ctx) {
                search_x86::<true>(ctx, board);
            } else {
                search_x86::<false>(ctx, board);
            }
        }
        return;
    }
    search_portable(ctx, board);
}

/// Whether `ctx` is a search for more than one solution (a proof of uniqueness): it splits on
/// configurations (see [`node`]).
fn uniqueness(ctx: &Ctx<'_>) -> bool {
    !ctx.previous && ctx.max_solutions > 1
}

/// [`node`] for any CPU of the target.
fn search_portable(ctx: &mut Ctx<'_>, board: &mut Bitboard) {
    if uniqueness(ctx) {
        portable::<true>(ctx, board);
    } else {
        portable::<false>(ctx, board);
    }
}

/// [`search_portable`]'s recursion, for one kind of search.
fn portable<const UNIQUE: bool>(ctx: &mut Ctx<'_>, board: &mut Bitboard) {
    node::<UNIQUE>(ctx, board, portable::<UNIQUE>);
}

/// [`node`] compiled with POPCNT (one instruction for the popcounts of the branching rule
/// instead of a dozen) and BMI1/BMI2 (three-operand shifts and `and not`, `tzcnt`, `blsr` for
/// the bit loops): the propagation and branching inline into it and use them.
///
/// # Safety
/// The CPU must have POPCNT, BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
unsafe fn search_x86<const UNIQUE: bool>(ctx: &mut Ctx<'_>, board: &mut Bitboard) {
    // SAFETY: the caller guarantees the features, and the recursion is on the same CPU.
    node::<UNIQUE>(ctx, board, |ctx, board| unsafe {
        search_x86::<UNIQUE>(ctx, board)
    });
}

/// One node: propagate the board, then branch, recursing through `child` (the caller itself,
/// so that the whole search is compiled for one set of CPU features). Sets `ctx.end` when the
/// whole search must stop.
///
/// `UNIQUE`: whether this is a uniqueness search ([`uniqueness`]), a constant so that the
/// first-solution search is compiled without the split and its counts (each kind its own
/// recursive function, so their code does not share registers or layout).
#[inline(always)]
fn node<const UNIQUE: bool>(
    ctx: &mut Ctx<'_>,
    board: &mut Bitboard,
    child: impl Fn(&mut Ctx<'_>, &mut Bitboard),
) {
    if ctx.nodes >= ctx.node_limit {
        ctx.end = Some(BacktrackEnd::NodeLimit);
        return;
    }
    ctx.nodes += 1;
    if ctx.nodes & STOP_MASK == 0 && (ctx.stop)() {
        ctx.end = Some(BacktrackEnd::Stopped);
        return;
    }
    // Each arm inlines its own copy of the propagation, specialised to its rules (the deep
    // nodes' copy does none of the triad rule's upkeep).
    debug_assert_eq!(UNIQUE, uniqueness(ctx));
    // A uniqueness search's fixpoint comes with the per-triad counts its split ranks by.
    let fixpoint = if UNIQUE {
        board.propagate_counted::<true>(Rules::Triads)
    } else if ctx.previous {
        board.propagate_counted::<false>(Rules::Singles)
    } else if ctx.depth <= TRIAD_DEPTH {
        board.propagate_counted::<false>(Rules::Triads)
    } else {
        board.propagate_counted::<false>(Rules::Locked)
    };
    let Ok(count) = fixpoint else {
        return;
    };
    // A search for more than one solution splits on a digit's configurations in a band or
    // stack (see `Bitboard::split`), with the triad rule at every node: the split reads the
    // triads the rule's scans leave, and the two only pay together (node counts in
    // docs/performance.md §Design measurements). The first-solution search keeps cells and the
    // value order (the split was measured on uniqueness searches only).
    if UNIQUE {
        if let Some(split) = board.split(&count) {
            let mut rest = split.configs;
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                ctx.guesses += 1;
                let mut next = *board;
                next.keep_config(split, k);
                ctx.depth += 1;
                child(ctx, &mut next);
                ctx.depth -= 1;
                if ctx.end.is_some() {
                    return;
                }
            }
            return;
        }
    }
    let Some(cell) = board.branch_cell(!ctx.previous) else {
        ctx.solutions += 1;
        if ctx.first.is_none() {
            ctx.first = Some(board.values());
        }
        if ctx.solutions >= ctx.max_solutions {
            ctx.end = Some(BacktrackEnd::Complete);
        }
        return;
    };
    // Of two candidates, the one whose placement takes more from the peers goes first (ties: the
    // lower digit): its propagation goes further, so where it is the wrong one it fails sooner:
    // fewer first-solution nodes on every corpus measured but top1465, and not an artefact of digit
    // labels (see docs/performance.md §Design measurements). The uniqueness (L2) tree of a puzzle
    // with one solution does not depend on it.
    let mut rest = board.candidates(cell);
    let high_first = !ctx.previous && rest.count_ones() == 2 && {
        let (low, high) = (rest.trailing_zeros(), 15 - rest.leading_zeros());
        board.takes(high as usize, cell) > board.takes(low as usize, cell)
    };
    while rest != 0 {
        let d = if high_first {
            15 - rest.leading_zeros()
        } else {
            rest.trailing_zeros()
        } as usize;
        rest &= !(1 << d);
        ctx.guesses += 1;
        let mut next = *board;
        // A candidate of an unsolved cell always has its place; Err would only mean a dead end.
        if next.place(d, cell).is_ok() {
            ctx.depth += 1;
            child(ctx, &mut next);
            ctx.depth -= 1;
        }
        if ctx.end.is_some() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::bitboard::reference;
    use crate::sudoku::cands::{Board, Pending};
    use crate::sudoku::parse::parse_lines;
    use crate::sudoku::testdata::{
        corpus, demo_puzzle, demo_solution, puzzle, random_puzzle, TOP1465_FIRST,
    };
    use crate::sudoku::verify::verify;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn never() -> impl FnMut() -> bool {
        || false
    }

    /// The reference: the previous solver on the cell-major [`Board`] (singles, first cell with
    /// the fewest candidates); with `locked` the current one: the logic grader's locked
    /// candidates added, the reference triad rule too down to [`TRIAD_DEPTH`] guesses (at every
    /// node when `max` is over one), and the current branching rules (for more than one solution
    /// the split of [`config_split`]) and value order. Returns (solutions up to `max`, first solution,
    /// nodes, guesses).
    fn reference(p: &SudokuPuzzle, max: u32, locked: bool) -> (u32, Option<Solution>, u64, u64) {
        struct R {
            locked: bool,
            max: u32,
            solutions: u32,
            first: Option<Solution>,
            nodes: u64,
            guesses: u64,
        }
        fn go(r: &mut R, mut b: Board, pending: &mut Pending, depth: u32) {
            r.nodes += 1;
            let rules = match (r.locked, depth <= TRIAD_DEPTH || r.max > 1) {
                (false, _) => Rules::Singles,
                (true, true) => Rules::Triads,
                (true, false) => Rules::Locked,
            };
            let fixpoint = reference::fixpoint(&mut b, pending, rules);
            if fixpoint.is_err() {
                return;
            }
            if r.locked && r.max > 1 {
                if let Some((bit, children)) = config_split(&b) {
                    for leave in children {
                        if r.solutions >= r.max {
                            break;
                        }
                        r.guesses += 1;
                        let mut child = b;
                        let ok = leave
                            .iter()
                            .try_for_each(|&c| child.eliminate(c, bit, pending).map(|_| ()));
                        if ok.is_ok() {
                            go(r, child, pending, depth + 1);
                        } else {
                            // The solver visits the child and finds the contradiction there.
                            r.nodes += 1;
                            pending.clear();
                        }
                    }
                    return;
                }
            }
            let Some(cell) = b.branch_cell(r.locked) else {
                r.solutions += 1;
                r.first.get_or_insert(b.vals);
                return;
            };
            // Digits in increasing order, but of two candidates (with `locked`) the one whose
            // placement takes more candidates from the peers first.
            let mut order: Vec<u16> = (0..9)
                .map(|d| 1u16 << d)
                .filter(|&bit| b.cand[cell] & bit != 0)
                .collect();
            if r.locked && order.len() == 2 && b.takes(cell, order[1]) > b.takes(cell, order[0]) {
                order.swap(0, 1);
            }
            for bit in order {
                if r.solutions >= r.max {
                    break;
                }
                r.guesses += 1;
                let mut child = b;
                if child.place(cell, bit, pending).is_ok() {
                    go(r, child, pending, depth + 1);
                } else {
                    pending.clear();
                }
            }
        }
        let mut r = R {
            locked,
            max,
            solutions: 0,
            first: None,
            nodes: 0,
            guesses: 0,
        };
        let mut pending = Pending::new();
        if let Ok(b) = Board::new(p, &mut pending) {
            go(&mut r, b, &mut pending, 0);
        }
        (r.solutions, r.first, r.nodes, r.guesses)
    }

    /// The reference's split of a uniqueness search (see `Bitboard::split`), cell by cell on
    /// [`Board`]: the digit's bit, and for each child, in the order of the permutations, the
    /// unsolved cells of the region that lose it. None when no cell is unsolved.
    fn config_split(b: &Board) -> Option<(u16, Vec<Vec<usize>>)> {
        if b.vals.iter().all(|&v| v != 0) {
            return None;
        }
        // The triad (i, j) of region `r`: in band r, box i's cells in the band's row j; in
        // stack r - 3, band i's cells in the stack's column j.
        let triad = |r: usize, i: usize, j: usize| -> [usize; 3] {
            std::array::from_fn(|q| {
                if r < 3 {
                    (3 * r + j) * 9 + 3 * i + q
                } else {
                    (3 * i + q) * 9 + 3 * (r - 3) + j
                }
            })
        };
        let has = |c: usize, d: usize| b.vals[c] == d as u8 + 1 || b.cand[c] >> d & 1 == 1;
        let possible =
            |r: usize, d: usize, i: usize, j: usize| triad(r, i, j).iter().any(|&c| has(c, d));
        let perms = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let configs = |r: usize, d: usize| -> Vec<[usize; 3]> {
            perms
                .iter()
                .filter(|p| (0..3).all(|i| possible(r, d, i, p[i])))
                .copied()
                .collect()
        };
        // The region with the fewest possible (digit, triad) pairs above 27 (every digit fixed),
        // the first of equals.
        let pairs = |r: usize| {
            (0..9)
                .map(|d| (0..9).filter(|&t| possible(r, d, t / 3, t % 3)).count())
                .sum::<usize>()
        };
        let r = (0..6)
            .filter(|&r| pairs(r) > 27)
            .min_by_key(|&r| pairs(r))?;
        // Its digit with the fewest configurations, two or more; the lowest of equals.
        let d = (0..9)
            .filter(|&d| configs(r, d).len() >= 2)
            .min_by_key(|&d| configs(r, d).len())?;
        let region: Vec<usize> = (0..9).flat_map(|t| triad(r, t / 3, t % 3)).collect();
        let children = configs(r, d)
            .iter()
            .map(|p| {
                let kept: Vec<usize> = (0..3).flat_map(|i| triad(r, i, p[i])).collect();
                region
                    .iter()
                    .copied()
                    .filter(|c| b.vals[*c] == 0 && !kept.contains(c))
                    .collect()
            })
            .collect();
        Some((1 << d, children))
    }

    /// Same answers and the same search tree (the fixpoints and the branching rule are the same)
    /// as the reference, on random puzzles with one, several or no solutions.
    #[test]
    fn agrees_with_the_reference_on_random_puzzles() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut by_count = [0u32; 4];
        for i in 0..1500 {
            let keep = rng.random_range(18..40);
            let noise = if i % 3 == 0 {
                rng.random_range(1..4)
            } else {
                0
            };
            let p = random_puzzle(&mut rng, keep, noise);
            for max in [1, 2, 3] {
                let r = solve(&p, max, None, &mut never());
                let (solutions, first, nodes, guesses) = reference(&p, max, true);
                assert_eq!(r.end, BacktrackEnd::Complete);
                assert_eq!(
                    (r.solutions, r.first, r.nodes, r.guesses),
                    (solutions, first, nodes, guesses),
                    "{} max {max}",
                    p.to_line()
                );
                if let Some(s) = r.first {
                    assert_eq!(verify(&p, &s), Ok(()));
                }
                if max == 3 {
                    by_count[r.solutions as usize] += 1;
                }
                if max == 1 {
                    // The generator's search: the previous one.
                    let (_, first, _, _) = reference(&p, 1, false);
                    assert_eq!(
                        first_solution_in_previous_order(&p),
                        first,
                        "{}",
                        p.to_line()
                    );
                }
            }
        }
        // The sample covers no, one, two and three-or-more solutions.
        assert!(by_count.iter().all(|&n| n > 50), "{by_count:?}");
    }

    #[test]
    fn agrees_with_the_reference_on_the_corpus() {
        let Some(text) = corpus("puzzles3_magictour_top1465.txt") else {
            return;
        };
        // First solution too: the value order shapes that search (with one solution, not the
        // uniqueness one).
        for p in parse_lines(&text).unwrap().iter().step_by(5) {
            for max in [1, 2] {
                let r = solve(&p.puzzle, max, None, &mut never());
                let (solutions, first, nodes, guesses) = reference(&p.puzzle, max, true);
                assert_eq!(
                    (r.solutions, r.first, r.nodes, r.guesses),
                    (solutions, first, nodes, guesses),
                    "line {} max {max}",
                    p.line
                );
            }
        }
    }

    /// The generator's starts (three shuffled diagonal boxes, many solutions) complete to the
    /// same first solution as the previous search (the reference without `locked`).
    #[test]
    fn previous_order_first_solution_matches_the_reference_on_generator_starts() {
        use rand::seq::SliceRandom;
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        for _ in 0..300 {
            let mut cells = [0u8; 81];
            for b in [0, 4, 8] {
                let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
                digits.shuffle(&mut rng);
                for (k, &c) in crate::sudoku::grid::UNITS[18 + b].iter().enumerate() {
                    cells[c as usize] = digits[k];
                }
            }
            let p = SudokuPuzzle::new(cells).unwrap();
            let (_, first, _, _) = reference(&p, 1, false);
            assert!(first.is_some());
            assert_eq!(
                first_solution_in_previous_order(&p),
                first,
                "{}",
                p.to_line()
            );
        }
    }

    /// The build for any CPU gives the same results, counters included, as the one `solve`
    /// picks on this machine (on x86-64 with POPCNT and BMI, the other one, which the other
    /// tests exercise).
    #[test]
    fn the_portable_search_agrees() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        for i in 0..400 {
            let keep = rng.random_range(18..40);
            let noise = if i % 3 == 0 { 2 } else { 0 };
            let p = random_puzzle(&mut rng, keep, noise);
            for (previous, max) in [(false, 1), (false, 2), (false, 3), (true, 1)] {
                for limit in [None, Some(7)] {
                    let picked = run(search, &p, previous, max, limit, &mut never());
                    let portable = run(search_portable, &p, previous, max, limit, &mut never());
                    assert_eq!(
                        picked,
                        portable,
                        "{} max {max} limit {limit:?}",
                        p.to_line()
                    );
                }
            }
        }
        // It polls the stop callback on the same schedule.
        let empty = SudokuPuzzle::new([0; 81]).unwrap();
        let mut calls = 0;
        let r = run(search_portable, &empty, false, u32::MAX, None, &mut || {
            calls += 1;
            calls >= 2
        });
        assert_eq!(r.end, BacktrackEnd::Stopped);
        assert_eq!(r.nodes, 2 * (STOP_MASK + 1));
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
        let p = puzzle(TOP1465_FIRST);
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
}
