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
/// from its lowest seed upward. Carries only go up, so the downward half is a log-step fill
/// (Kogge-Stone): after the step of shift `k`, a bit is set when a seed lies less than `2k`
/// above it through open bits. Six steps of three operations (and five to widen the open
/// mask) cost less than the three bit reversals that turning the row over would take on
/// x86-64, which has no instruction for them.
#[inline]
fn fill_runs(seeds: u64, open: u64) -> u64 {
    let upward = ((open.wrapping_add(seeds) ^ open) & open) | seeds;
    let (mut g, mut p) = (seeds, open);
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    p &= p >> 16;
    g |= p & (g >> 32);
    upward | g
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

/// The unknown cells that could be white-separating cut vertices, judged from their 3x3
/// neighbourhood alone, as row masks (rows `height..` zero).
///
/// A cell's open (non-black, in-grid) orthogonal neighbours are joined around it when the
/// corner between two consecutive ones is open too. If they form at most one such arc, every
/// path through the cell can detour around it, so removing it disconnects nothing: it is no
/// cut vertex. So [`CutFinder::run`]'s forced cells are a subset of this set, and when the
/// set is empty the cut pass can only check that the whites are connected. An arc ends at an
/// open neighbour not joined to the next one clockwise; two ends or more mean two arcs.
pub(crate) fn cut_candidates(s: &State, width: usize, height: usize) -> [u64; MAX_SIDE] {
    let full = row_mask(width);
    let mut out = [0u64; MAX_SIDE];
    let open = |r: usize| full & !s.black[r];
    let mut above = 0u64;
    let mut here = open(0);
    for (r, cand) in out.iter_mut().enumerate().take(height) {
        let below = if r + 1 < height { open(r + 1) } else { 0 };
        // Neighbour masks aligned on the cell's bit: `x << 1` moves column c-1 onto c.
        let (n, s_) = (above, below);
        let (w, e) = (here << 1, here >> 1);
        let (nw, ne) = (above << 1, above >> 1);
        let (sw, se) = (below << 1, below >> 1);
        let end_n = n & !(ne & e);
        let end_e = e & !(se & s_);
        let end_s = s_ & !(sw & w);
        let end_w = w & !(nw & n);
        let two = (end_n & (end_e | end_s | end_w)) | (end_e & (end_s | end_w)) | (end_s & end_w);
        *cand = two & full & !(s.white[r] | s.black[r]);
        above = here;
        here = below;
    }
    out
}

/// One DFS frame: an unknown cell, or a white region contracted into one node, with its
/// Tarjan values, kept on the stack rather than in per-cell arrays, since only the frame's own
/// code and its parent's read them.
#[derive(Clone, Copy)]
struct Frame {
    /// A cell: its index. A region: where its neighbour list starts in `CutFinder::around`.
    idx: u32,
    /// A region: the next entry of its neighbour list to try, and the list's end.
    next: u32,
    end: u32,
    /// A cell: its row and column.
    row: u8,
    col: u8,
    /// A cell: its open neighbours not yet tried (bit 0 up, 1 left, 2 right, 3 down).
    todo: u8,
    /// [`UNKNOWN`], [`LONE`] or [`REGION`].
    kind: u8,
    /// Discovery time.
    disc: u32,
    /// Lowest discovery time reachable from the subtree by one back edge.
    low: u32,
    /// Number of white cells in the DFS subtree.
    sub_white: u16,
}

/// Reusable scratch for the Tarjan pass; sized once per puzzle, never reallocated in search.
/// [`CutFinder::reset`] resizes it for the next puzzle within the capacity it already has, so
/// a worker that keeps one allocates only when a puzzle is larger than any before.
#[derive(Default)]
pub(crate) struct CutFinder {
    width: usize,
    height: usize,
    /// DFS discovery time; a cell is visited by the current pass when its time is above
    /// `base`, so no pass clears the array (times grow from pass to pass instead). Every cell
    /// of a white region holds the region's time.
    disc: Vec<u32>,
    /// The time the last pass ended at; the next pass's times start above it.
    base: u32,
    stack: Vec<Frame>,
    /// The unknown neighbours of the white regions on the stack, packed `row << 6 | col`, one
    /// list a region, in stack order.
    around: Vec<u16>,
    /// Unknown cells found to be white-forcing cut vertices, as (row, col); a cell may be
    /// listed more than once.
    pub(crate) forced: Vec<(u8, u8)>,
}

/// Frame kinds: an unknown cell, a white cell with no white neighbour (a region of one, kept
/// as a cell: most regions are such, and a cell frame costs less than a flood), a region.
const UNKNOWN: u8 = 0;
const LONE: u8 = 1;
const REGION: u8 = 2;

/// Row step and column step of the four directions (up, left, right, down); direction `d`'s
/// opposite is `3 - d`.
const STEP_ROW: [isize; 4] = [-1, 0, 0, 1];
const STEP_COL: [isize; 4] = [0, -1, 1, 0];

/// The open neighbours of `(r, c)` as direction bits, from `open` padded with an empty row
/// above and below (`open[r + 1]` is row `r`'s non-black cells).
#[inline(always)]
fn open_dirs(open: &[u64; MAX_SIDE + 2], r: usize, c: usize) -> u8 {
    let up = open[r] >> c & 1;
    let left = (open[r + 1] << 1) >> c & 1;
    let right = (open[r + 1] >> 1) >> c & 1;
    let down = open[r + 2] >> c & 1;
    (up | left << 1 | right << 2 | down << 3) as u8
}

/// Row masks of one pass, each padded with an empty row above and below (`x[r + 1]` is row
/// `r`), and the region being flooded.
struct Boards {
    /// Non-black cells.
    open: [u64; MAX_SIDE + 2],
    /// White cells.
    white: [u64; MAX_SIDE + 2],
    /// The white region being flooded; all zero between floods.
    region: [u64; MAX_SIDE + 2],
}

impl Boards {
    /// Fills `region` with the white region of the white cell `(r, c)` and returns its first
    /// and last row (unpadded). Rows are grown by [`fill_runs`] from the rows next to them,
    /// and a row that grew has both its neighbours looked at again (a bit set of such rows,
    /// lowest first), until none grows.
    fn flood(&mut self, r: usize, c: usize) -> (usize, usize) {
        let (wh, reg) = (&self.white, &mut self.region);
        reg[r + 1] = fill_runs(1 << c, wh[r + 1]);
        let (mut lo, mut hi) = (r + 1, r + 1);
        // Bit `p - 1` stands for padded row `p`; padded rows 0 and h + 1 have no whites.
        let mut dirty = 1u64 << r;
        while dirty != 0 {
            let p = dirty.trailing_zeros() as usize + 1;
            dirty &= dirty - 1;
            for q in [p - 1, p + 1] {
                let seeds = reg[p] & wh[q] & !reg[q];
                if seeds != 0 {
                    reg[q] |= fill_runs(seeds, wh[q]);
                    dirty |= 1 << (q - 1);
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
            }
        }
        (lo - 1, hi - 1)
    }
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
        // Times restart from 1, so every stale time must read as unvisited: zero them all.
        self.disc.clear();
        self.disc.resize(n, 0);
        self.base = 0;
        // The DFS stack holds each node at most once, and each DFS tree edge (at most n - 1)
        // forces at most one cell; each unknown cell borders at most four regions.
        self.stack.clear();
        self.stack.reserve(n);
        self.around.clear();
        self.around.reserve(4 * n);
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
    /// The graph is contracted first: each connected region of white cells is one node, whose
    /// neighbours are the unknown cells next to it. That changes no unknown cell's answer (a
    /// region stays joined whatever unknown cell is removed), and on the corpus it leaves one
    /// node in six: most non-black cells are white, in a few regions. A region is flooded
    /// with row bitboards when the DFS first reaches it.
    ///
    /// The DFS is rooted at a white region, so the root is never a candidate; an unknown cell
    /// `p` with DFS child `u` where `low[u] >= disc[p]` cuts `u`'s subtree off from the rest,
    /// and that matters exactly when the subtree holds some but not all of the whites.
    ///
    /// A cell's open neighbours are read from the rows' bitboards once, when it is reached,
    /// as four direction bits; the way back to a DFS parent cell is left out, and edges back
    /// to a parent region are kept (either could only lower `low` to the parent's time, which
    /// the test `>=` allows anyway).
    pub(crate) fn run(&mut self, s: &State) -> Result<(), Contradiction> {
        self.forced.clear();
        let h = self.height;
        let total_white: u32 = s.white[..h].iter().map(|r| r.count_ones()).sum();
        let Some(r0) = (0..h).find(|&r| s.white[r] != 0) else {
            return Ok(());
        };
        // `total_white` fits u16: at most 4096 cells.
        let total_white = total_white as u16;
        if self.base > u32::MAX - (MAX_SIDE * MAX_SIDE) as u32 {
            self.disc.fill(0);
            self.base = 0;
        }
        let full = row_mask(self.width);
        let mut b = Boards {
            open: [0; MAX_SIDE + 2],
            white: [0; MAX_SIDE + 2],
            region: [0; MAX_SIDE + 2],
        };
        for r in 0..h {
            b.open[r + 1] = full & !s.black[r];
            b.white[r + 1] = s.white[r];
        }
        self.stack.clear();
        self.around.clear();
        let mut time = self.base + 1;
        let root = self.enter_white(&mut b, r0, s.white[r0].trailing_zeros() as usize, 0, time);
        self.stack.push(root);
        let reached_white = self.dfs(&mut b, &mut time, total_white);
        self.base = time;
        if reached_white < total_white {
            return Err(Contradiction);
        }
        Ok(())
    }

    /// The frame of the white cell `(r, c)`'s region, discovered at `time`: a [`LONE`] cell
    /// frame (with the open directions `skip` left out) when it has no white neighbour, else
    /// a [`REGION`] frame.
    #[inline(always)]
    fn enter_white(&mut self, b: &mut Boards, r: usize, c: usize, skip: u8, time: u32) -> Frame {
        if open_dirs(&b.white, r, c) == 0 {
            let mut f = self.enter_cell(b, r, c, skip, time);
            f.kind = LONE;
            f.sub_white = 1;
            f
        } else {
            self.enter_region(b, r, c, time)
        }
    }

    /// The frame of the white region of `(r, c)`, discovered at `time`: floods it, stamps its
    /// cells that have an unknown neighbour (the only ones a DFS step reaches it by) with
    /// `time` and lists its unknown neighbours in `around`.
    fn enter_region(&mut self, b: &mut Boards, r: usize, c: usize, time: u32) -> Frame {
        let w = self.width;
        let (lo, hi) = b.flood(r, c);
        let mut sub_white = 0;
        let unknown = |p: usize| b.open[p] & !b.white[p];
        for r in lo..=hi {
            let reg = b.region[r + 1];
            sub_white += reg.count_ones() as u16;
            let touching = unknown(r) | unknown(r + 2) | unknown(r + 1) << 1 | unknown(r + 1) >> 1;
            let mut m = reg & touching;
            while m != 0 {
                self.disc[r * w + m.trailing_zeros() as usize] = time;
                m &= m - 1;
            }
        }
        let start = self.around.len() as u32;
        for r in lo.saturating_sub(1)..(hi + 2).min(self.height) {
            let reg = &b.region;
            let unknown = b.open[r + 1] & !b.white[r + 1];
            let mut m = (reg[r] | reg[r + 2] | reg[r + 1] << 1 | reg[r + 1] >> 1) & unknown;
            while m != 0 {
                self.around
                    .push((r as u16) << 6 | m.trailing_zeros() as u16);
                m &= m - 1;
            }
        }
        b.region[lo + 1..hi + 2].fill(0);
        let end = self.around.len() as u32;
        Frame {
            idx: start,
            next: start,
            end,
            row: 0,
            col: 0,
            todo: 0,
            kind: REGION,
            disc: time,
            low: time,
            sub_white,
        }
    }

    /// The frame of the unknown cell `(r, c)`, discovered at `time`, with the open directions
    /// `skip` left out.
    #[inline(always)]
    fn enter_cell(&mut self, b: &Boards, r: usize, c: usize, skip: u8, time: u32) -> Frame {
        let v = r * self.width + c;
        self.disc[v] = time;
        Frame {
            idx: v as u32,
            next: 0,
            end: 0,
            row: r as u8,
            col: c as u8,
            todo: open_dirs(&b.open, r, c) & !skip,
            kind: UNKNOWN,
            disc: time,
            low: time,
            sub_white: 0,
        }
    }

    /// The DFS from the root frame on the stack; returns the number of whites it reached.
    fn dfs(&mut self, b: &mut Boards, time: &mut u32, total_white: u16) -> u16 {
        let base = self.base;
        let w = self.width;
        while let Some(top) = self.stack.last_mut() {
            // The next neighbour of the top node: (row, col, the direction back to a parent
            // cell), or none left.
            let next = if top.kind == REGION {
                (top.next < top.end).then(|| {
                    let e = self.around[top.next as usize];
                    top.next += 1;
                    ((e >> 6) as usize, (e & 63) as usize, 0)
                })
            } else {
                (top.todo != 0).then(|| {
                    let d = top.todo.trailing_zeros() as usize;
                    top.todo &= top.todo - 1;
                    let nr = (top.row as usize).wrapping_add_signed(STEP_ROW[d]);
                    let nc = (top.col as usize).wrapping_add_signed(STEP_COL[d]);
                    (nr, nc, 1 << (3 - d))
                })
            };
            if let Some((nr, nc, skip)) = next {
                let dv = self.disc[nr * w + nc];
                if dv > base {
                    // A back edge.
                    top.low = top.low.min(dv);
                    continue;
                }
                *time += 1;
                let frame = if b.white[nr + 1] >> nc & 1 != 0 {
                    self.enter_white(b, nr, nc, skip, *time)
                } else {
                    self.enter_cell(b, nr, nc, skip, *time)
                };
                self.stack.push(frame);
            } else {
                let Some(done) = self.stack.pop() else {
                    break;
                };
                if done.kind == REGION {
                    self.around.truncate(done.idx as usize);
                }
                let Some(parent) = self.stack.last_mut() else {
                    return done.sub_white;
                };
                parent.low = parent.low.min(done.low);
                let sw = done.sub_white;
                parent.sub_white += sw;
                if parent.kind == UNKNOWN && done.low >= parent.disc && sw > 0 && sw < total_white {
                    self.forced.push((parent.row, parent.col));
                }
            }
        }
        0
    }
}

#[cfg(test)]
mod reference {
    //! The previous Tarjan pass (a cell at a time, four directions tried in turn), kept as
    //! the test oracle of [`CutFinder::run`](super::CutFinder::run).
    use super::*;

    /// One DFS frame: cell index, its row and column, and the next direction to try (0..4).
    #[derive(Clone, Copy)]
    struct OldFrame {
        idx: u16,
        row: u8,
        col: u8,
        dir: u8,
    }

    /// Reusable scratch for the Tarjan pass; sized once per puzzle, never reallocated in search.
    /// [`CutFinder::reset`] resizes it for the next puzzle within the capacity it already has, so
    /// a worker that keeps one allocates only when a puzzle is larger than any before.
    #[derive(Default)]
    pub(crate) struct ReferenceCuts {
        width: usize,
        height: usize,
        /// DFS discovery time, 0 = not visited. Times fit `u16` as a grid has at most 4096 cells.
        disc: Vec<u16>,
        /// Lowest discovery time reachable from the subtree by one back edge.
        low: Vec<u16>,
        /// Number of white cells in the DFS subtree.
        sub_white: Vec<u16>,
        stack: Vec<OldFrame>,
        /// Unknown cells found to be white-forcing cut vertices, as (row, col).
        pub(crate) forced: Vec<(u8, u8)>,
    }

    impl ReferenceCuts {
        /// Scratch for a `width x height` grid.
        #[cfg(test)]
        pub(crate) fn new(width: usize, height: usize) -> Self {
            let mut f = ReferenceCuts::default();
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
            self.stack.push(OldFrame {
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
                        self.stack.push(OldFrame {
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

    proptest::proptest! {
        /// [`fill_runs`] against a bit-by-bit walk out of each seed, both ways.
        #[test]
        fn fill_runs_equals_walking_from_each_seed(
            open in proptest::prelude::any::<u64>(),
            pick in proptest::prelude::any::<u64>(),
        ) {
            let seeds = open & pick & pick.rotate_left(17) & pick.rotate_left(41);
            let mut want = 0u64;
            for c in (0..64i32).filter(|&c| seeds >> c & 1 != 0) {
                for step in [1i32, -1] {
                    let mut k = c;
                    while (0..64).contains(&k) && open >> k & 1 != 0 {
                        want |= 1 << k;
                        k += step;
                    }
                }
            }
            proptest::prop_assert_eq!(fill_runs(seeds, open), want);
        }
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
        f.dedup();
        assert_eq!(f, vec![(0, 1), (1, 1)]);
        // A cut vertex that only strands unknown cells is not forced.
        let s = state(&["?B??", "??W?", "????", "????"]);
        assert_eq!(cf.run(&s), Ok(()));
        assert!(cf.forced.is_empty(), "{:?}", cf.forced);
    }

    /// A random state: each cell black, white or unknown with the given weights (blacks may
    /// touch; the cut pass does not rely on the rules).
    fn random_state(w: usize, h: usize, seed: u64, black: u32, white: u32) -> State {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut s = State::empty();
        for r in 0..h {
            for c in 0..w {
                let x = rng.random_range(0..100);
                if x < black {
                    s.black[r] |= 1 << c;
                } else if x < black + white {
                    s.white[r] |= 1 << c;
                }
            }
        }
        s
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// The stack-frame Tarjan pass with reused discovery times agrees with the previous
        /// one (fresh arrays each pass) on connectivity and forced cells, its forced cells are
        /// local cut candidates, and with no candidate nothing is forced. One finder runs
        /// eight states in a row, so stale times from earlier passes are exercised.
        #[test]
        fn cut_pass_agrees_with_the_reference_tarjan(
            w in 2usize..=64,
            h in 2usize..=64,
            seed in proptest::prelude::any::<u64>(),
            black in 0u32..45,
            white in 1u32..50,
        ) {
            let mut fast = CutFinder::new(w, h);
            let mut slow = reference::ReferenceCuts::new(w, h);
            for k in 0..8 {
                let s = random_state(w, h, seed.wrapping_add(k), black, white);
                let (a, b) = (fast.run(&s), slow.run(&s));
                proptest::prop_assert_eq!(a, b);
                proptest::prop_assert_eq!(a.is_ok(), whites_connected(&s, w, h));
                if a.is_err() {
                    continue;
                }
                let mut fa = fast.forced.clone();
                let mut fb = slow.forced.clone();
                fa.sort_unstable();
                fa.dedup();
                fb.sort_unstable();
                fb.dedup();
                proptest::prop_assert_eq!(&fa, &fb);
                let cand = cut_candidates(&s, w, h);
                for &(r, c) in &fa {
                    proptest::prop_assert!(cand[r as usize] >> c & 1 != 0, "({r},{c}) not a candidate");
                }
                proptest::prop_assert!(cand[h..].iter().all(|&m| m == 0));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// The contracted pass on states shaped like the corpus's cut passes (two cells in
        /// three white, in large regions and lone cells, few unknowns) against the reference
        /// Tarjan on the uncontracted grid: same connectivity verdict and the same set of
        /// forced cells, with a finder reused across states.
        #[test]
        fn contracted_cut_pass_agrees_on_mostly_white_states(
            w in 2usize..=64,
            h in 2usize..=64,
            seed in proptest::prelude::any::<u64>(),
            black in 5u32..35,
            white in 40u32..95,
        ) {
            let mut fast = CutFinder::new(w, h);
            let mut slow = reference::ReferenceCuts::new(w, h);
            for k in 0..8 {
                let s = random_state(w, h, seed.wrapping_add(k), black, white);
                let (a, b) = (fast.run(&s), slow.run(&s));
                proptest::prop_assert_eq!(a, b);
                if a.is_err() {
                    continue;
                }
                let mut fa = fast.forced.clone();
                let mut fb = slow.forced.clone();
                fa.sort_unstable();
                fa.dedup();
                fb.sort_unstable();
                fb.dedup();
                proptest::prop_assert_eq!(&fa, &fb);
            }
        }
    }

    #[test]
    fn local_candidates_are_cells_with_two_arcs_of_open_neighbours() {
        // (1,1) lies between diagonal blacks (0,2) and (2,0): its neighbours form two arcs.
        // (1,2) has (0,2) above it black, and its other three neighbours stay joined.
        let s = state(&["??B?", "????", "B???", "????"]);
        let cand = cut_candidates(&s, 4, 4);
        assert_eq!(cand[1] >> 1 & 1, 1);
        assert_eq!(cand[1] >> 2 & 1, 0);
        // A corner cell with one open neighbour, and an all-unknown grid, have none.
        let s = state(&["?B", "??"]);
        assert_eq!(cut_candidates(&s, 2, 2)[0] & 1, 0);
        let s = state(&["???", "???", "???"]);
        assert!(cut_candidates(&s, 3, 3).iter().all(|&m| m == 0));
        // An edge cell whose right and lower neighbours are parted by a black corner is one;
        // the corner cell beside it, whose two neighbours meet at an open corner, is not; the
        // same cell white is not (only unknown cells can be forced).
        let s = state(&["???", "??B", "???"]);
        let cand = cut_candidates(&s, 3, 3);
        assert_eq!(cand[0], 0b010);
        let s = state(&["?W?", "??B", "???"]);
        assert_eq!(cut_candidates(&s, 3, 3)[0], 0);
    }
}
