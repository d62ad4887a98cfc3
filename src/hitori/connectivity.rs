//! The global rule "white cells form one region", on partial states.
//!
//! Two tools: a bitboard flood fill (a yes/no answer, used with the `basic` rules) and an
//! iterative Tarjan lowlink pass (used with the `full` rules) that answers the same question and
//! also lists the unknown cells whose blackening would split the white cells (cut vertices that
//! separate whites). In both, black cells are walls and unknown cells are passable, and only
//! WHITE cells are counted as reached: the article's check counted unknown cells too and so
//! declared almost every partial state dead.

use super::grid::MAX_SIDE;
use super::state::{row_mask, Contradiction, State};

/// Fills, within one row, every run of `open` bits that contains a bit of `seeds`.
///
/// `seeds` must be a subset of `open`. Adding the seeds to `open` carries from the lowest seed
/// of each run to just past the run's top, so `(open + seeds) ^ open` marks each seeded run
/// from its lowest seed upward; the same on the bit-reversed row gives the downward half.
/// Two additions and two bit reversals replace a loop of up to 64 single-step shifts.
#[inline]
fn fill_runs(seeds: u64, open: u64) -> u64 {
    #[inline]
    fn up(seeds: u64, open: u64) -> u64 {
        ((open.wrapping_add(seeds) ^ open) & open) | seeds
    }
    let upward = up(seeds, open);
    let downward = up(seeds.reverse_bits(), open.reverse_bits()).reverse_bits();
    upward | downward
}

/// True when every white cell of `s` can reach every other through non-black cells.
///
/// Rows are flooded with [`fill_runs`]; sweeps go down then up until nothing changes, so a
/// region that winds back and forth costs one sweep pair per turn, not one per cell.
pub(crate) fn whites_connected(s: &State, width: usize, height: usize) -> bool {
    let full = row_mask(width);
    let Some(start) = (0..height).find(|&r| s.white[r] != 0) else {
        return true; // no whites yet: nothing to keep together
    };
    let mut reach = [0u64; MAX_SIDE];
    let first = s.white[start] & s.white[start].wrapping_neg(); // lowest white bit
    reach[start] = fill_runs(first, full & !s.black[start]);
    loop {
        let mut changed = false;
        for r in (0..height).chain((0..height).rev()) {
            let open = full & !s.black[r];
            let mut seeds = reach[r];
            if r > 0 {
                seeds |= reach[r - 1] & open;
            }
            if r + 1 < height {
                seeds |= reach[r + 1] & open;
            }
            if seeds != reach[r] {
                let filled = fill_runs(seeds, open);
                if filled != reach[r] {
                    reach[r] = filled;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    (0..height).all(|r| s.white[r] & !reach[r] == 0)
}

/// One DFS frame: cell index, its row and column, and the next direction to try (0..4).
#[derive(Clone, Copy)]
struct Frame {
    idx: u16,
    row: u8,
    col: u8,
    dir: u8,
}

/// Reusable scratch for the Tarjan pass; sized once per puzzle, never reallocated in search.
/// [`CutFinder::reset`] resizes it for the next puzzle within the capacity it already has, so
/// a worker that keeps one allocates only when a puzzle is larger than any before.
#[derive(Default)]
pub(crate) struct CutFinder {
    width: usize,
    height: usize,
    /// DFS discovery time, 0 = not visited. Times fit `u16` as a grid has at most 4096 cells.
    disc: Vec<u16>,
    /// Lowest discovery time reachable from the subtree by one back edge.
    low: Vec<u16>,
    /// Number of white cells in the DFS subtree.
    sub_white: Vec<u16>,
    stack: Vec<Frame>,
    /// Unknown cells found to be white-forcing cut vertices, as (row, col).
    pub(crate) forced: Vec<(u8, u8)>,
}

impl CutFinder {
    /// Scratch for a `width x height` grid.
    #[cfg(test)]
    pub(crate) fn new(width: usize, height: usize) -> Self {
        let mut f = CutFinder::default();
        f.reset(width, height);
        f
    }

    /// Makes the scratch fit a `width x height` grid, reusing its buffers.
    pub(crate) fn reset(&mut self, width: usize, height: usize) {
        let n = width * height;
        self.width = width;
        self.height = height;
        // `run` clears `disc` itself and writes `low` and `sub_white` of a cell only after
        // its `disc`, so only the lengths matter here.
        for v in [&mut self.disc, &mut self.low, &mut self.sub_white] {
            v.clear();
            v.resize(n, 0);
        }
        // The DFS stack holds each cell at most once, and each DFS tree edge (at most n - 1)
        // forces at most one cell.
        self.stack.clear();
        self.stack.reserve(n);
        self.forced.clear();
        self.forced.reserve(n);
    }

    /// Checks that the whites are connected (through non-black cells) and fills `self.forced`
    /// with every unknown cell whose blackening would separate some white cells from others.
    ///
    /// Sound because blacks only ever get added: if removing `u` from the graph of non-black
    /// cells leaves whites in two components, every completion that blackens `u` has them apart,
    /// so `u` is white in every solution extending `s`.
    ///
    /// The DFS is rooted at a white cell, so the root is never a candidate; a non-root unknown
    /// `p` with DFS child `u` where `low[u] >= disc[p]` cuts `u`'s subtree off from the rest, and
    /// that matters exactly when the subtree holds some but not all of the whites.
    pub(crate) fn run(&mut self, s: &State) -> Result<(), Contradiction> {
        self.forced.clear();
        let (w, h) = (self.width, self.height);
        let total_white: u32 = s.white[..h].iter().map(|r| r.count_ones()).sum();
        if total_white == 0 {
            return Ok(());
        }
        // `total_white` fits u16: at most 4096 cells.
        let total_white = total_white as u16;
        let Some(r0) = (0..h).find(|&r| s.white[r] != 0) else {
            return Ok(());
        };
        let c0 = s.white[r0].trailing_zeros() as usize;
        self.disc.fill(0);
        let root = (r0 * w + c0) as u16;
        let mut time: u16 = 1;
        self.disc[root as usize] = 1;
        self.low[root as usize] = 1;
        self.sub_white[root as usize] = 1;
        self.stack.clear();
        self.stack.push(Frame {
            idx: root,
            row: r0 as u8,
            col: c0 as u8,
            dir: 0,
        });
        while let Some(top) = self.stack.last_mut() {
            let (u, r, c) = (top.idx as usize, top.row as usize, top.col as usize);
            if top.dir < 4 {
                let d = top.dir;
                top.dir += 1;
                let (nr, nc) = match d {
                    0 if r > 0 => (r - 1, c),
                    1 if c > 0 => (r, c - 1),
                    2 if c + 1 < w => (r, c + 1),
                    3 if r + 1 < h => (r + 1, c),
                    _ => continue,
                };
                if s.black[nr] >> nc & 1 != 0 {
                    continue;
                }
                let v = nr * w + nc;
                if self.disc[v] == 0 {
                    time += 1;
                    self.disc[v] = time;
                    self.low[v] = time;
                    self.sub_white[v] = (s.white[nr] >> nc & 1) as u16;
                    self.stack.push(Frame {
                        idx: v as u16,
                        row: nr as u8,
                        col: nc as u8,
                        dir: 0,
                    });
                } else if self.disc[v] < self.low[u] {
                    // A back edge (or the tree edge to the parent, harmless for cut vertices:
                    // it can only lower low[u] to disc[parent], which still satisfies `>=`).
                    self.low[u] = self.disc[v];
                }
            } else {
                self.stack.pop();
                let Some(parent) = self.stack.last() else {
                    break;
                };
                let (p, pr, pc) = (
                    parent.idx as usize,
                    parent.row as usize,
                    parent.col as usize,
                );
                if self.low[u] < self.low[p] {
                    self.low[p] = self.low[u];
                }
                let sw = self.sub_white[u];
                self.sub_white[p] += sw;
                let p_unknown = (s.white[pr] | s.black[pr]) >> pc & 1 == 0;
                if p_unknown && self.low[u] >= self.disc[p] && sw > 0 && sw < total_white {
                    self.forced.push((pr as u8, pc as u8));
                }
            }
        }
        if self.sub_white[root as usize] < total_white {
            return Err(Contradiction);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a state from rows of `W` (white), `B` (black) and `?` (unknown).
    fn state(rows: &[&str]) -> State {
        let mut s = State::empty();
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    'W' => s.white[r] |= 1 << c,
                    'B' => s.black[r] |= 1 << c,
                    _ => {}
                }
            }
        }
        s
    }

    #[test]
    fn fill_runs_fills_only_seeded_runs() {
        let open = 0b1110_0111_1011;
        assert_eq!(fill_runs(0b0000_0010_0000, open), 0b0000_0111_1000);
        assert_eq!(fill_runs(0b1000_0000_0001, open), 0b1110_0000_0011);
        assert_eq!(fill_runs(0, open), 0);
        assert_eq!(fill_runs(1 << 63, u64::MAX), u64::MAX);
        assert_eq!(fill_runs(1, u64::MAX), u64::MAX);
    }

    #[test]
    fn unknown_cells_between_whites_are_not_dead() {
        // Whites in opposite corners, only unknowns between them: still connectable.
        let s = state(&["W???", "?B??", "??B?", "???W"]);
        assert!(whites_connected(&s, 4, 4));
        let mut cf = CutFinder::new(4, 4);
        assert_eq!(cf.run(&s), Ok(()));
    }

    #[test]
    fn whites_walled_off_are_dead() {
        // The corner white is enclosed by two blacks.
        let s = state(&["WB??", "B???", "???W", "????"]);
        assert!(!whites_connected(&s, 4, 4));
        let mut cf = CutFinder::new(4, 4);
        assert_eq!(cf.run(&s), Err(Contradiction));
        // A winding path of unknowns still connects (needs several sweeps).
        let s = state(&["W?B??", "B?B?B", "??B??", "?BBB?", "????W"]);
        assert!(whites_connected(&s, 5, 5));
        let s = state(&["W?B??", "B?B?B", "??B??", "?BBBB", "???BW"]);
        assert!(!whites_connected(&s, 5, 5));
    }

    #[test]
    fn cut_vertices_that_separate_whites_are_forced() {
        // (0,1) is the only way out of the corner white: forced. (2,2)'s neighbours hold no
        // white on one side only, so cutting it strands no white.
        let s = state(&["W?B?", "B???", "????", "???W"]);
        let mut cf = CutFinder::new(4, 4);
        assert_eq!(cf.run(&s), Ok(()));
        let mut f = cf.forced.clone();
        f.sort_unstable();
        assert_eq!(f, vec![(0, 1), (1, 1)]);
        // A cut vertex that only strands unknown cells is not forced.
        let s = state(&["?B??", "??W?", "????", "????"]);
        assert_eq!(cf.run(&s), Ok(()));
        assert!(cf.forced.is_empty(), "{:?}", cf.forced);
    }
}
