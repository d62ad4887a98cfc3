//! Depth-first search: propagate, pick a cell by a strategy, try black then white.

use std::fmt;
use std::str::FromStr;

use super::grid::{HitoriPuzzle, Shading, MAX_SIDE};
use super::propagate::Propagator;
use super::rules::{Rules, UnknownName};
use super::state::{row_mask, State};

/// How the search picks the cell to branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The article's MRV: the unknown cell whose number repeats most often in its row plus its
    /// column, counted on the original grid; ties go to the first in row-major order.
    Mrv,
    /// The first unknown cell in row-major order.
    Row,
    /// Dynamic MRV: the unknown cell with the most copies of its number that are still
    /// unknown in its row plus its column (current state, not the original grid); ties go to
    /// the first in row-major order. Not in the article.
    MrvDynamic,
}

impl Strategy {
    /// Every strategy, in a stable order.
    pub const ALL: [Strategy; 3] = [Strategy::Mrv, Strategy::Row, Strategy::MrvDynamic];

    /// The name used on the command line and in records.
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Mrv => "mrv",
            Strategy::Row => "row",
            Strategy::MrvDynamic => "mrv-dyn",
        }
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| UnknownName {
                kind: "strategy",
                found: s.to_string(),
                expected: Strategy::ALL.map(|x| x.name()).join(", "),
            })
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to search for and within which budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// How the branching cell is chosen.
    pub strategy: Strategy,
    /// Which deductions propagation makes.
    pub rules: Rules,
    /// Stop after this many solutions: 1 = first solution, 2 = prove uniqueness. 0 acts as 1.
    pub max_solutions: u32,
    /// Give up (end = [`SearchEnd::NodeLimit`]) rather than count a node beyond this many.
    pub node_limit: Option<u64>,
}

impl Default for SearchConfig {
    /// `mrv`, `full`, first solution, no node limit.
    fn default() -> Self {
        SearchConfig {
            strategy: Strategy::Mrv,
            rules: Rules::Full,
            max_solutions: 1,
            node_limit: None,
        }
    }
}

/// The search's own counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Calls of the recursive search, root included, as the article's Java `solve()` counts
    /// them: the root counts 1, and a child counts 1 only when its assignment, propagated to a
    /// fixpoint (with `full` rules, probing included), neither contradicts nor disconnects the
    /// whites (the Java code evaluates `assign(..) && propagateAll() && isConnected() &&
    /// solve()`, so a branch that fails before `solve()` is no call). With `mrv` + `basic` the
    /// article's demo takes 8 (a single path of depth 7); counting every attempted child as
    /// well would give 13, since 5 black tries on that path contradict at once.
    pub nodes: u64,
    /// Deepest recursion level reached (root = 0), over counted nodes.
    pub max_depth: u32,
    /// Child branches (black or white tries, counted nodes or not) that ended without giving
    /// the search enough solutions: immediate contradictions, exhausted subtrees, and, when
    /// counting, leaves whose solution did not reach `max_solutions`.
    pub backtracks: u64,
    /// Cells fixed (white or black) by the root propagation (probing included), before the
    /// first branch.
    pub propagated: u32,
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// The tree was exhausted or `max_solutions` was reached: `solutions` is exact up to the cap.
    Complete,
    /// The node limit was reached first.
    NodeLimit,
    /// The caller's stop check returned true.
    Stopped,
}

/// The outcome of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Why the search ended.
    pub end: SearchEnd,
    /// Solutions found (at most `max_solutions`).
    pub solutions: u32,
    /// The first solution found.
    pub first: Option<Shading>,
    /// Counters.
    pub stats: SearchStats,
}

/// How often (in nodes) the stop closure is polled; a power of two.
const STOP_POLL: u64 = 64;

/// One open node of the explicit DFS stack: its settled state, the branching cell and the
/// next colour to try (0 = black, 1 = white, 2 = done). The stack replaces recursion so a
/// 64x64 grid cannot overflow a thread's stack.
struct Frame {
    state: State,
    row: u8,
    col: u8,
    next: u8,
}

/// Picks branching cells; holds the static MRV buckets.
struct Picker {
    strategy: Strategy,
    height: usize,
    full: u64,
    /// Static MRV: per distinct score, highest first, the cells with that score as row masks.
    buckets: Vec<[u64; MAX_SIDE]>,
}

impl Default for Picker {
    /// No buckets, for [`Picker::reset`] to fill.
    fn default() -> Self {
        Picker {
            strategy: Strategy::Mrv,
            height: 0,
            full: 0,
            buckets: Vec::new(),
        }
    }
}

impl Picker {
    /// Sets the picker up for `puzzle` (whose tables `prop` holds), reusing the buckets.
    fn reset(&mut self, strategy: Strategy, puzzle: &HitoriPuzzle, prop: &Propagator) {
        let w = puzzle.width();
        self.strategy = strategy;
        self.height = puzzle.height();
        self.full = row_mask(w);
        self.buckets.clear();
        if strategy == Strategy::Mrv {
            let h = self.height;
            // A score is at most 63 + 63, so the set of distinct scores fits one u128, and a
            // score's bucket (highest score first) is the number of higher scores present,
            // looked up in a table: no sort and no list of scores.
            let mut present = 0u128;
            for r in 0..h {
                for c in 0..w {
                    present |= 1 << prop.dup_score(r, c);
                }
            }
            let distinct = present.count_ones();
            let mut rank = [0u8; 128];
            let (mut rest, mut b) = (present, distinct);
            while rest != 0 {
                // Lowest score first: it takes the last bucket.
                b -= 1;
                rank[rest.trailing_zeros() as usize] = b as u8;
                rest &= rest - 1;
            }
            self.buckets.resize(distinct as usize, [0; MAX_SIDE]);
            for r in 0..h {
                for c in 0..w {
                    let b = rank[prop.dup_score(r, c) as usize] as usize;
                    self.buckets[b][r] |= 1 << c;
                }
            }
        }
    }

    /// The cell to branch on, or `None` when no cell is unknown.
    fn pick(&self, s: &State, prop: &Propagator) -> Option<(usize, usize)> {
        let unknown = |r: usize| self.full & !(s.white[r] | s.black[r]);
        match self.strategy {
            Strategy::Row => (0..self.height).find_map(|r| {
                let u = unknown(r);
                (u != 0).then(|| (r, u.trailing_zeros() as usize))
            }),
            // Scanning buckets from the highest score, rows in order, lowest bit first, gives
            // exactly the article's row-major scan with a strict `>` on the score.
            Strategy::Mrv => self.buckets.iter().find_map(|b| {
                (0..self.height).find_map(|r| {
                    let u = unknown(r) & b[r];
                    (u != 0).then(|| (r, u.trailing_zeros() as usize))
                })
            }),
            Strategy::MrvDynamic => {
                let mut best: Option<(u32, usize, usize)> = None;
                for r in 0..self.height {
                    let mut u = unknown(r);
                    while u != 0 {
                        let c = u.trailing_zeros() as usize;
                        u &= u - 1;
                        let (rm, cm) = prop.same(r, c);
                        let row_unknown = (rm & unknown(r)).count_ones();
                        let mut col_unknown = 0;
                        let mut m = cm;
                        while m != 0 {
                            let k = m.trailing_zeros() as usize;
                            m &= m - 1;
                            col_unknown += (unknown(k) >> c & 1) as u32;
                        }
                        let score = row_unknown + col_unknown;
                        match best {
                            Some((b, _, _)) if score <= b => {}
                            _ => best = Some((score, r, c)),
                        }
                    }
                }
                best.map(|(_, r, c)| (r, c))
            }
        }
    }
}

/// The buffers of a solve (propagation tables, connectivity scratch, MRV buckets, the DFS
/// stack), kept between solves: [`solve_with`] refills them for each puzzle within the
/// capacity they already have, so a solve allocates nothing but its answer's [`Shading`] once
/// the scratch has seen a puzzle at least as large. One per thread; it holds no result, and
/// what a solve returns never depends on what the scratch solved before.
#[derive(Default)]
pub struct Scratch {
    prop: Propagator,
    picker: Picker,
    stack: Vec<Frame>,
}

impl Scratch {
    /// An empty scratch; its buffers grow on first use.
    pub fn new() -> Self {
        Scratch::default()
    }
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scratch")
            .field("stack_capacity", &self.stack.capacity())
            .finish_non_exhaustive()
    }
}

/// Solves `puzzle` by propagation and depth-first search (black before white).
///
/// `stop` is polled every 64 nodes; when it returns true the search returns promptly with
/// [`SearchEnd::Stopped`]. The solver keeps no clock: the caller's closure checks the time.
///
/// Allocates its buffers afresh; to solve many puzzles, keep a [`Scratch`] and call
/// [`solve_with`], which gives the same result.
pub fn solve(
    puzzle: &HitoriPuzzle,
    cfg: &SearchConfig,
    stop: &mut dyn FnMut() -> bool,
) -> SearchResult {
    solve_with(&mut Scratch::new(), puzzle, cfg, stop)
}

/// [`solve`] in the buffers of `scratch`, reused from earlier solves.
pub fn solve_with(
    scratch: &mut Scratch,
    puzzle: &HitoriPuzzle,
    cfg: &SearchConfig,
    stop: &mut dyn FnMut() -> bool,
) -> SearchResult {
    let (w, h) = (puzzle.width(), puzzle.height());
    let max_solutions = cfg.max_solutions.max(1);
    let Scratch {
        prop,
        picker,
        stack,
    } = scratch;
    prop.reset(puzzle, cfg.rules);
    stack.clear();
    let mut stats = SearchStats::default();
    let mut solutions = 0u32;
    let mut first: Option<Shading> = None;
    let result = |end, solutions, first, stats| SearchResult {
        end,
        solutions,
        first,
        stats,
    };

    if cfg.node_limit == Some(0) {
        return result(SearchEnd::NodeLimit, 0, None, stats);
    }
    stats.nodes = 1;
    let mut root = State::empty();
    // Probing is part of the fixpoint under `full` (a no-op under `basic`).
    let root_ok = prop.root(&mut root).is_ok() && prop.probe(&mut root).is_ok();
    stats.propagated = root.fixed_count(h);
    if !root_ok {
        return result(SearchEnd::Complete, 0, None, stats);
    }
    if stats.propagated as usize == w * h {
        // Settled means consistent and connected: a complete state is a solution. The picker
        // is built only below, when the search branches (most corpus grids settle here).
        return result(SearchEnd::Complete, 1, Some(root.shading(w, h)), stats);
    }
    picker.reset(cfg.strategy, puzzle, prop);
    match picker.pick(&root, prop) {
        // Not reached: every strategy picks some unknown cell while one is left.
        None => return result(SearchEnd::Complete, 1, Some(root.shading(w, h)), stats),
        Some((r, c)) => stack.push(Frame {
            state: root,
            row: r as u8,
            col: c as u8,
            next: 0,
        }),
    }

    while let Some(top) = stack.last_mut() {
        if top.next >= 2 {
            stack.pop();
            if !stack.is_empty() {
                stats.backtracks += 1; // this child's subtree ran out
            }
            continue;
        }
        let black = top.next == 0;
        top.next += 1;
        let (r, c) = (top.row as usize, top.col as usize);
        let mut child = top.state;
        if prop.assign(&mut child, r, c, black).is_err() || prop.probe(&mut child).is_err() {
            stats.backtracks += 1;
            continue;
        }
        // The child passed propagation and connectivity: it is a call of the search.
        if cfg.node_limit.is_some_and(|lim| stats.nodes >= lim) {
            return result(SearchEnd::NodeLimit, solutions, first, stats);
        }
        stats.nodes += 1;
        if stats.nodes % STOP_POLL == 0 && stop() {
            return result(SearchEnd::Stopped, solutions, first, stats);
        }
        let depth = stack.len() as u32;
        stats.max_depth = stats.max_depth.max(depth);
        match picker.pick(&child, prop) {
            None => {
                solutions += 1;
                if first.is_none() {
                    first = Some(child.shading(w, h));
                }
                if solutions >= max_solutions {
                    return result(SearchEnd::Complete, solutions, first, stats);
                }
                stats.backtracks += 1; // a solution, but not enough of them
            }
            Some((nr, nc)) => stack.push(Frame {
                state: child,
                row: nr as u8,
                col: nc as u8,
                next: 0,
            }),
        }
    }
    result(SearchEnd::Complete, solutions, first, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hitori::verify::verify;

    pub(crate) fn demo() -> HitoriPuzzle {
        let v = [
            1, 1, 3, 1, 2, 4, 4, 2, 5, 1, 3, 5, 1, 2, 3, 2, 2, 4, 4, 5, 2, 2, 5, 1, 4,
        ];
        HitoriPuzzle::new(5, 5, v.to_vec()).unwrap()
    }

    const DEMO_MASK: &str = "#..#..#.......#.#.#.#....";

    fn cfg(strategy: Strategy, rules: Rules, max_solutions: u32) -> SearchConfig {
        SearchConfig {
            strategy,
            rules,
            max_solutions,
            node_limit: None,
        }
    }

    fn run(p: &HitoriPuzzle, c: &SearchConfig) -> SearchResult {
        solve(p, c, &mut || false)
    }

    #[test]
    fn demo_mrv_basic_takes_the_articles_8_nodes() {
        let p = demo();
        let res = run(&p, &cfg(Strategy::Mrv, Rules::Basic, 1));
        assert_eq!(res.end, SearchEnd::Complete);
        assert_eq!(res.solutions, 1);
        let sol = res.first.expect("a solution");
        assert_eq!(sol.to_mask(), DEMO_MASK);
        assert_eq!(verify(&p, &sol), Ok(()));
        assert_eq!(res.stats.nodes, 8, "{:?}", res.stats);
        assert_eq!(
            res.stats.propagated, 0,
            "basic rules fix nothing before a choice"
        );
    }

    #[test]
    fn demo_solved_by_every_strategy_and_rule_set_and_unique() {
        let p = demo();
        for s in Strategy::ALL {
            for r in Rules::ALL {
                let res = run(&p, &cfg(s, r, 1));
                assert_eq!(res.end, SearchEnd::Complete, "{s} {r}");
                assert_eq!(res.first.map(|x| x.to_mask()).as_deref(), Some(DEMO_MASK));
                let res = run(&p, &cfg(s, r, 2));
                assert_eq!(
                    (res.end, res.solutions),
                    (SearchEnd::Complete, 1),
                    "{s} {r}"
                );
                assert_eq!(res.first.map(|x| x.to_mask()).as_deref(), Some(DEMO_MASK));
            }
        }
    }

    // Regression: the article's rule "no white and one unknown left in a duplicate group: it is
    // white" is unsound; this corpus puzzle's unique solution shades both 4s of column 5.
    #[test]
    fn solution_shading_every_copy_of_a_number_in_a_line_is_found() {
        // tud-singles 5x5/2711ef2b-1efc-4bec-be45-c35fbed5477b
        let p = crate::hitori::parse::parse_singles_line("5x5:4215435313314253354554234", 1)
            .unwrap()
            .unwrap()
            .puzzle;
        let mask = "....##.#......##.#......#";
        assert_eq!((p.value(0, 4), p.value(4, 4)), (4, 4));
        assert!(
            mask.starts_with("....#") && mask.ends_with('#'),
            "both 4s shaded"
        );
        for r in Rules::ALL {
            for s in Strategy::ALL {
                let res = run(&p, &cfg(s, r, 2));
                assert_eq!(
                    (res.end, res.solutions),
                    (SearchEnd::Complete, 1),
                    "{s} {r}"
                );
                let sol = res.first.unwrap();
                assert_eq!(sol.to_mask(), mask, "{s} {r}");
                assert_eq!(verify(&p, &sol), Ok(()));
            }
        }
    }

    // Regression (issue 13, Hitori tail): this hill-climbed 17x17 (datasets/hitori-tail, first
    // line) took 5,308 nodes with mrv + full before failed-literal probing.
    #[test]
    fn hunted_17x17_tail_puzzle_takes_few_nodes_with_probing() {
        let id = concat!(
            "17x17:4adf78233b2gahe9c4d5cfh8bg7916132f9h83g3a52716h4b7ea55hcd9cd2e31gg43eff3416badg297dcd626bhc3h5gf34g798fhgaecbd7538f965bg8h167h6396e52cabch9a63d5",
            "eb8373f3316391578efdbha4ghd9agbgc413haefa83dgh27647h8a4f91ec297ga8e24h1dg5c819e4d89af7563cgh7g5hbf2agdfd453ch678427c26g539fb89hc9138de7ahgc5hb2d4"
        );
        let p = crate::hitori::parse::parse_singles_line(id, 1)
            .unwrap()
            .unwrap()
            .puzzle;
        let res = run(&p, &cfg(Strategy::Mrv, Rules::Full, 1));
        assert_eq!(res.end, SearchEnd::Complete);
        let sol = res.first.expect("a solution");
        assert_eq!(verify(&p, &sol), Ok(()));
        assert_eq!(sol.to_mask(), "#....#..#.#.#..#...#.#..#.....#...#..#..#..#..#..#..#..#...#..#.#..#..#...#..#....#..#....#.#...#.#....#.#.....#..#...#....#.#...#...#...#...#.#.#.#.#..#..#.#...#...#....#..#.....#.#..#....#.#.#.#....#..#.#.....#..#.#..#......#..#....#....#.#...#...#..#....#.....#.#..#..##...#.#..#..#....");
        assert_eq!(res.stats.nodes, 5, "{:?}", res.stats);
        for s in Strategy::ALL {
            let res = run(&p, &cfg(s, Rules::Full, 2));
            assert_eq!((res.end, res.solutions), (SearchEnd::Complete, 1), "{s}");
            assert!(res.stats.nodes <= 20, "{s}: {:?}", res.stats);
        }
    }

    #[test]
    fn counting_mode_finds_more_than_one_solution() {
        // A 2x2 of distinct numbers: all white is valid, and so is shading any one cell (the
        // other three form an L); two shaded cells would touch or split the whites.
        let p = HitoriPuzzle::new(2, 2, vec![1, 2, 3, 4]).unwrap();
        let res = run(&p, &cfg(Strategy::Row, Rules::Basic, 100));
        // All white, or exactly one of the 4 cells black: 5 solutions.
        assert_eq!((res.end, res.solutions), (SearchEnd::Complete, 5));
        // Black first: the first solution shades (0,0).
        assert_eq!(res.first.unwrap().to_mask(), "#...");
        let res = run(&p, &cfg(Strategy::Row, Rules::Full, 3));
        assert_eq!((res.end, res.solutions), (SearchEnd::Complete, 3));
    }

    #[test]
    fn node_limit_and_stop_end_the_search() {
        // All 1s: at most one white per row, which 6x6 cannot do with non-touching blacks.
        let p = HitoriPuzzle::new(6, 6, vec![1; 36]).unwrap();
        let res = run(&p, &cfg(Strategy::Row, Rules::Basic, 1));
        assert_eq!((res.end, res.solutions), (SearchEnd::Complete, 0));
        // A puzzle with many solutions explored exhaustively hits the limits.
        let q = HitoriPuzzle::new(8, 8, (1..=64).collect()).unwrap();
        let mut c = cfg(Strategy::Row, Rules::Basic, u32::MAX);
        c.node_limit = Some(100);
        let res = run(&q, &c);
        assert_eq!(res.end, SearchEnd::NodeLimit);
        assert_eq!(res.stats.nodes, 100);
        c.node_limit = None;
        let mut polls = 0;
        let res = solve(&q, &c, &mut || {
            polls += 1;
            polls == 3
        });
        assert_eq!(res.end, SearchEnd::Stopped);
        assert_eq!(res.stats.nodes, 3 * STOP_POLL);
    }

    #[test]
    fn names_parse_and_print() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>(), Ok(s));
        }
        for r in Rules::ALL {
            assert_eq!(r.name().parse::<Rules>(), Ok(r));
        }
        let e = "fast".parse::<Strategy>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown strategy `fast`, expected one of: mrv, row, mrv-dyn"
        );
        assert!("Full".parse::<Rules>().is_err());
    }
}
