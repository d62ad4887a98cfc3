//! The ABC encoding: per 3x3 box, a permutation of the box's missing digits placed into its free
//! cells (in a fixed order), so every box holds 1..9 once by construction. A [`Source`] keeps the
//! decoded grid together with per-row, per-column (and, for the cross-box variant, per-box)
//! digit counts, so a swap of two cells is scored by its delta on the few lines it touches and
//! applied in place: no decoding, no rescan of 81 cells, no allocation per move.
//!
//! Speed notes (the colony scores about a hundred moves per cycle, so these few functions are
//! the whole cost of a run): a [`Move`] carries, besides its two cells, the lines its delta must
//! read, already resolved so that a line both cells share points at an always-empty line and
//! contributes nothing (no branch, no masking); a line's "present" and "repeated" digits sit in
//! one `u32` so each term of the delta is one shift; and a fresh source is built from the
//! givens' counts (computed once per puzzle) plus its free cells only, its bit masks derived
//! from the byte counts eight digits at a time.

use rand::Rng;

use super::grid::{SudokuPuzzle, BOX, COL, ROW, UNITS};

/// Line numbering shared by counts and masks: rows 0..9, columns 9..18, boxes 18..27.
const COL_LINE: u8 = 9;
const BOX_LINE: u8 = 18;
/// A line that never holds a digit: a move whose two cells share a row (or column) points both
/// of its row (or column) slots here, so that pair of terms is zero.
const EMPTY_LINE: u8 = 27;
/// Masks per source: 27 lines, the empty one, and padding to 256 so that indexing with a `u8`
/// line needs neither a bounds check nor a masking instruction (only the first 28 are ever
/// touched, so the padding costs memory, not cache).
const LINE_SLOTS: usize = 256;

/// A grid's 81 cells padded to 256 for the same reason: a move's `u8` cell indexes it
/// directly. Cells 81.. stay 0.
const CELL_SLOTS: usize = 256;
type Cells = [u8; CELL_SLOTS];

/// One candidate swap, resolved once per puzzle so scoring it costs loads and shifts only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Move {
    /// The two cells whose values swap.
    a: u8,
    b: u8,
    /// Row, column and box lines of `a` then of `b`, for the delta; a row or column the two
    /// cells share is [`EMPTY_LINE`] in both. The box lines count only in the cross-box variant
    /// (a box move keeps both cells in one box).
    row: [u8; 2],
    col: [u8; 2],
    boxes: [u8; 2],
}

impl Move {
    fn new(a: u8, b: u8) -> Move {
        let (ai, bi) = (a as usize, b as usize);
        let pair = |la: u8, lb: u8| {
            if la == lb {
                [EMPTY_LINE; 2]
            } else {
                [la, lb]
            }
        };
        Move {
            a,
            b,
            row: pair(ROW[ai], ROW[bi]),
            col: pair(COL_LINE + COL[ai], COL_LINE + COL[bi]),
            boxes: pair(BOX_LINE + BOX[ai], BOX_LINE + BOX[bi]),
        }
    }

    /// The two cells the move swaps (for tests: the colony reads the resolved fields).
    #[cfg(test)]
    pub(crate) fn cells(&self) -> (usize, usize) {
        (self.a as usize, self.b as usize)
    }
}

/// Moves of one neighbourhood, flat: group `k` (a box, or a line for cross-box moves) owns
/// `len[k]` moves from `start[k]`. Powers of two sizes let a masked index replace a bounds check
/// in the hot loop (at most 9 * 72 box moves or 18 * 54 line moves exist, both under 1024).
///
/// A group's size is kept as the draw uses it: widened to `u64` and beside its rejection
/// threshold (see [`below_by`]), so the bounded draw multiplies and compares straight from
/// memory instead of loading, extending and negating it in registers (the draw loops have
/// none to spare).
struct MoveTable {
    moves: [Move; MOVE_SLOTS],
    start: [u32; GROUP_SLOTS],
    len: [u64; GROUP_SLOTS],
    threshold: [u32; GROUP_SLOTS],
    /// Groups with at least one move, and its threshold.
    groups: u32,
    groups_threshold: u32,
}

const MOVE_SLOTS: usize = 1024;
/// A move's place in its table (under [`MOVE_SLOTS`]), as the colony stores a phase's draws.
pub(crate) type MoveIndex = u16;
/// The shuffle's scratch copy of the pools, padded to a power of two so its two indices are
/// masked rather than bounds-checked.
const POOL_SLOTS: usize = 128;
const GROUP_SLOTS: usize = 32;

impl MoveTable {
    fn new() -> MoveTable {
        MoveTable {
            moves: [Move::default(); MOVE_SLOTS],
            start: [0; GROUP_SLOTS],
            len: [0; GROUP_SLOTS],
            threshold: [0; GROUP_SLOTS],
            groups: 0,
            groups_threshold: 0,
        }
    }

    /// Appends a group of moves; an empty one is skipped (it could never be drawn).
    fn push(&mut self, moves: impl Iterator<Item = Move>) {
        let k = self.groups as usize;
        let start = if k == 0 {
            0
        } else {
            self.start[k - 1] + self.len[k - 1] as u32
        };
        let mut len = 0;
        for mv in moves {
            self.moves[(start + len) as usize] = mv;
            len += 1;
        }
        if len > 0 {
            self.start[k] = start;
            self.len[k] = u64::from(len);
            self.threshold[k] = len.wrapping_neg();
            self.groups += 1;
            self.groups_threshold = self.groups.wrapping_neg();
        }
    }

    /// A group uniformly, then a move of it uniformly, from one `u64` draw (two `below`s).
    /// Requires at least one group. (The colony draws indices; tests draw moves.)
    #[cfg(test)]
    fn pick<R: Rng + ?Sized>(&self, rng: &mut R) -> &Move {
        self.get(self.pick_index(rng))
    }

    /// The index of the move [`MoveTable::pick`] returns, for the same draws: the colony draws
    /// a whole phase's moves first and scores them after (see `abc::Colony::phases`).
    #[inline(always)]
    fn pick_index<R: Rng + ?Sized>(&self, rng: &mut R) -> MoveIndex {
        let r = rng.next_u64();
        let groups = u64::from(self.groups);
        let k = below_by(r as u32, groups, self.groups_threshold, rng) as usize & (GROUP_SLOTS - 1);
        let j = below_by((r >> 32) as u32, self.len[k], self.threshold[k], rng);
        (self.start[k] + j) as MoveIndex
    }

    /// The move [`MoveTable::pick_index`] would index, for the same draws, read straight from
    /// the table: for the colony's draw loops, short enough that the two masks that spare
    /// `pick_index` its bounds checks were a noticeable share of a draw.
    ///
    /// `GROUPS`, when not 0, is the table's group count (the caller checked it,
    /// [`MoveTable::groups`]): a constant, the group draw's multiplication is an `lea` or a
    /// shift, off the one multiplier the generator's three and the move draw's keep busy.
    #[inline(always)]
    fn draw<const GROUPS: u32, R: Rng + ?Sized>(&self, rng: &mut R) -> &Move {
        debug_assert!(GROUPS == 0 || GROUPS == self.groups);
        let r = rng.next_u64();
        let k = if GROUPS == 0 {
            below_by(r as u32, u64::from(self.groups), self.groups_threshold, rng)
        } else {
            below_by(r as u32, u64::from(GROUPS), GROUPS.wrapping_neg(), rng)
        } as usize;
        debug_assert!(k < (self.groups as usize).max(1));
        // SAFETY: `below_by` returns a number below its range, or 0 for a range of 0 (Canon's
        // method: `hi` is the top half of `bits * range` with `bits < 2^32`, so below
        // `range`; the `hi + 1` case is the top half of the longer product
        // `(bits * 2^32 + more) * range / 2^64`, less a carry it drops, so below `range`
        // too). So `k < max(groups, 1)`, and `push` counts at most `GROUP_SLOTS` groups (its
        // `start[k]` store would panic past that), the arrays' length.
        let (len, threshold, start) = unsafe {
            (
                *self.len.get_unchecked(k),
                *self.threshold.get_unchecked(k),
                *self.start.get_unchecked(k),
            )
        };
        let j = below_by((r >> 32) as u32, len, threshold, rng);
        let index = (start + j) as usize;
        debug_assert!(index < MOVE_SLOTS);
        // SAFETY: `j < len[k]` (or 0, for a length of 0) as above, and group `k`'s moves
        // `start[k]..start[k] + len[k]` were all stored by `push` into `moves` (its stores
        // are bounds-checked; a group never pushed has start and length 0), so the index
        // lies in the table.
        unsafe { self.moves.get_unchecked(index) }
    }

    /// The move at an index from [`MoveTable::pick_index`] (masked: no bounds check).
    #[cfg(test)]
    fn get(&self, index: MoveIndex) -> &Move {
        &self.moves[usize::from(index) & (MOVE_SLOTS - 1)]
    }
}

/// One Fisher–Yates step: swap position `at` with `base + j`, j drawn uniformly in `0..=k`,
/// then place the digit it leaves at `at` (final from then on) into `free`, that position's
/// cell.
#[derive(Debug, Clone, Copy, Default)]
struct ShuffleStep {
    at: u8,
    base: u8,
    k: u8,
    free: FreeCell,
}

/// A free cell with its row and column lines.
#[derive(Debug, Clone, Copy, Default)]
struct FreeCell {
    cell: u8,
    /// Where the counts of its row and of its column start in `Source::counts` read as one
    /// flat array (16 bytes a line), so a digit's count is one add away.
    row: u16,
    col: u16,
}

/// Where the free cells are, fixed for one puzzle.
pub(crate) struct Layout {
    /// The givens as a source holds its cells (see `Source::vals`), 0 on free cells.
    givens: Cells,
    /// Row and column digit counts of the givens alone; every box counts each digit once (a
    /// fresh source fills every box with its missing digits).
    base_counts: [Counts; 32],
    /// The same draws and placements as shuffling box after box, flattened so a fresh source
    /// is two loops of fixed length instead of eighteen short ones (whose exits the branch
    /// predictor missed): `pools` holds every box's missing digits end to end, `shuffle` the
    /// Fisher–Yates steps in draw order, each with the cell its position fills, and `firsts`
    /// the one position per box no step ends on (the box's first, final once the box's last
    /// step is done), with its cell.
    pools: [u8; POOL_SLOTS],
    shuffle: [ShuffleStep; 81],
    n_shuffle: usize,
    firsts: [(u8, FreeCell); 9],
    n_firsts: usize,
    /// Free cells in all (pool positions in use).
    n_free: usize,
    /// Box moves, a group per box with at least two free cells (the only boxes where a swap
    /// changes anything), in box order: the ordered pairs of distinct free cells, `m * (m - 1)`
    /// of them, so a move costs two draws instead of three.
    box_moves: MoveTable,
    /// Cross-box moves, a group per line whose free cells lie in at least two boxes (the only
    /// lines a cross-box swap can use), in line order: the ordered pairs of its free cells in
    /// different boxes.
    line_moves: MoveTable,
}

impl Layout {
    /// The layout of a puzzle (its givens stay fixed).
    pub(crate) fn new(puzzle: &SudokuPuzzle) -> Layout {
        let mut givens = [0; CELL_SLOTS];
        givens[..81].copy_from_slice(puzzle.cells());
        let mut l = Layout {
            givens: givens.map(|d| 3 * d),
            base_counts: [[0; 16]; 32],
            pools: [0; POOL_SLOTS],
            shuffle: [ShuffleStep::default(); 81],
            n_shuffle: 0,
            firsts: [(0, FreeCell::default()); 9],
            n_firsts: 0,
            n_free: 0,
            box_moves: MoveTable::new(),
            line_moves: MoveTable::new(),
        };
        for (c, &v) in givens[..81].iter().enumerate() {
            if v != 0 {
                l.base_counts[ROW[c] as usize][v as usize] += 1;
                l.base_counts[(COL_LINE + COL[c]) as usize][v as usize] += 1;
            }
        }
        for b in 0..9 {
            l.base_counts[BOX_LINE as usize + b][1..10].fill(1);
            // Free cells row-major within the box, and the digits missing from it, ascending.
            let (mut box_free, mut m) = ([0u8; 9], 0);
            let mut present = [false; 10];
            for &c in &UNITS[18 + b] {
                let v = givens[c as usize];
                if v == 0 {
                    box_free[m] = c;
                    m += 1;
                } else {
                    present[v as usize] = true;
                }
            }
            let (mut pool, mut n) = ([0u8; 9], 0);
            for d in 1..=9u8 {
                if !present[d as usize] {
                    pool[n] = d;
                    n += 1;
                }
            }
            // Holds because a SudokuPuzzle never repeats a given within a box.
            debug_assert_eq!(n, m);
            let free = &box_free[..m];
            let base = l.n_free;
            let free_cell = |k: usize| {
                let c = free[k] as usize;
                FreeCell {
                    cell: free[k],
                    row: 16 * u16::from(ROW[c]),
                    col: 16 * u16::from(COL_LINE + COL[c]),
                }
            };
            for k in (1..free.len()).rev() {
                l.shuffle[l.n_shuffle] = ShuffleStep {
                    at: (base + k) as u8,
                    base: base as u8,
                    k: k as u8,
                    free: free_cell(k),
                };
                l.n_shuffle += 1;
            }
            if m > 0 {
                l.firsts[l.n_firsts] = (base as u8, free_cell(0));
                l.n_firsts += 1;
            }
            l.pools[base..base + m].copy_from_slice(&pool[..m]);
            l.n_free += m;
            l.box_moves
                .push(free.iter().enumerate().flat_map(|(i, &p)| {
                    free.iter()
                        .enumerate()
                        .filter(move |&(j, _)| j != i)
                        .map(move |(_, &q)| Move::new(p, q))
                }));
        }
        for members in &UNITS[..18] {
            let free: Vec<u8> = members
                .iter()
                .copied()
                .filter(|&c| givens[c as usize] == 0)
                .collect();
            l.line_moves.push(free.iter().flat_map(|&a| {
                free.iter()
                    .filter(move |&&b| BOX[a as usize] != BOX[b as usize])
                    .map(move |&b| Move::new(a, b))
            }));
        }
        l
    }

    /// Whether the neighbourhood has any move at all (else the encoding is a single point).
    pub(crate) fn can_move(&self, cross: bool) -> bool {
        if cross {
            self.line_moves.groups > 0
        } else {
            self.box_moves.groups > 0
        }
    }

    /// Box move: a box among those with >= 2 free cells, then two distinct free cells of it
    /// (an ordered pair, uniform). Requires `can_move(false)`.
    #[cfg(test)]
    pub(crate) fn pick_box_move<R: Rng + ?Sized>(&self, rng: &mut R) -> &Move {
        self.box_moves.pick(rng)
    }

    /// Cross-box move: a row or column whose free cells span >= 2 boxes, then an ordered pair of
    /// its free cells lying in different boxes, uniform. Requires `can_move(true)`.
    #[cfg(test)]
    pub(crate) fn pick_cross_move<R: Rng + ?Sized>(&self, rng: &mut R) -> &Move {
        self.line_moves.pick(rng)
    }

    /// A box move (`CROSS` false) or a cross-box move (`CROSS` true), as described on
    /// `pick_box_move` and `pick_cross_move`, by its index (the colony's rewinds redraw with it;
    /// its draw loops take [`Layout::draw_move`]).
    #[inline(always)]
    pub(crate) fn pick_index<const CROSS: bool, R: Rng + ?Sized>(&self, rng: &mut R) -> MoveIndex {
        if CROSS {
            self.line_moves.pick_index(rng)
        } else {
            self.box_moves.pick_index(rng)
        }
    }

    /// The move of the index [`Layout::pick_index`] draws, for the same draws.
    ///
    /// `GROUPS` as [`MoveTable::draw`] takes it: 0, or the neighbourhood's group count
    /// ([`Layout::groups`]).
    #[inline(always)]
    pub(crate) fn draw_move<const CROSS: bool, const GROUPS: u32, R: Rng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> &Move {
        if CROSS {
            self.line_moves.draw::<GROUPS, R>(rng)
        } else {
            self.box_moves.draw::<GROUPS, R>(rng)
        }
    }

    /// The number of groups (boxes, or lines for cross-box moves) a move is drawn from.
    pub(crate) fn groups(&self, cross: bool) -> u32 {
        if cross {
            self.line_moves.groups
        } else {
            self.box_moves.groups
        }
    }

    /// The move of a [`Layout::pick_index`] index.
    #[cfg(test)]
    pub(crate) fn get_move<const CROSS: bool>(&self, index: MoveIndex) -> &Move {
        if CROSS {
            self.line_moves.get(index)
        } else {
            self.box_moves.get(index)
        }
    }
}

/// A number in `0..range` from 32 random bits `bits`, by Canon's method as `rand` 0.9 does for
/// `u32` ranges (multiply, and in the rare biased case fold in 32 more bits from `rng`). Moves
/// take both halves of one `u64` draw this way: one generator step per move instead of two.
#[inline(always)]
fn below<R: Rng + ?Sized>(bits: u32, range: u32, rng: &mut R) -> u32 {
    below_by(bits, u64::from(range), range.wrapping_neg(), rng)
}

/// [`below`] for a `range` (a `u32`, widened) whose rejection threshold `range.wrapping_neg()`
/// comes precomputed, as the move tables keep both.
#[inline(always)]
fn below_by<R: Rng + ?Sized>(bits: u32, range: u64, threshold: u32, rng: &mut R) -> u32 {
    debug_assert!(range <= u64::from(u32::MAX) && threshold == (range as u32).wrapping_neg());
    let m = u64::from(bits) * range;
    let (hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > threshold {
        let new_hi = ((u64::from(rng.next_u32()) * range) >> 32) as u32;
        if lo.checked_add(new_hi).is_none() {
            return hi + 1;
        }
    }
    hi
}

/// How many times each digit (byte 1..=9) occurs in one row, column or box; bytes 0 and 10..16
/// stay 0. Sixteen bytes so [`mask_of`] reads them as two words.
type Counts = [u8; 16];

/// Bytes of a source's counts, 32 lines of [`Counts`] (a power of two, for masked indexing).
const COUNT_BYTES: usize = 32 * 16;

/// The same facts as bits, for the delta: bit `3d` set when digit `d` occurs in the line, bit
/// `DUP + 3d` set when it occurs at least twice. One load answers both questions a swap asks,
/// and the two spare bits above each flag let the delta add the masks of a cell's lines and
/// read a digit's flags of all of them as one 2-bit field (at most 3 lines, so at most 3), and
/// two such fields, of the two cells, as one 3-bit sum (at most 6): see [`Source::delta`].
type Mask = u64;

/// Where the "at least twice" flags start: bit `DUP + 3d` of a [`Mask`] (up to bit 61).
const DUP: u32 = 32;

/// Bit `3i` set for each bit `i` of a five-bit index: spreads flags at digits to flags at
/// their [`Mask`] positions, five digits a lookup.
const SPREAD: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut i = 0;
    while i < 32 {
        let mut b = 0;
        while b < 5 {
            if i >> b & 1 == 1 {
                t[i] |= 1 << (3 * b);
            }
            b += 1;
        }
        i += 1;
    }
    t
};

/// Digit flags (bit `d` for digit `d`, `d` < 10) at their [`Mask`] positions (bit `3d`).
#[inline(always)]
fn spread(flags: u32) -> Mask {
    SPREAD[(flags & 31) as usize] | SPREAD[(flags >> 5 & 31) as usize] << 15
}

/// Mask of a line holding 1..9 once each, as every box of a fresh source does.
const WHOLE_BOX: Mask = {
    let mut m = 0;
    let mut d = 1;
    while d <= 9 {
        m |= 1 << (3 * d);
        d += 1;
    }
    m
};

/// Bit `i` set when byte `i` of `w` has its top bit set (the eight top bits gathered by one
/// multiplication: the shifted copies land on distinct bit positions, so no carries).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn top_bits(w: u64) -> u32 {
    const TOP: u64 = 0x8080_8080_8080_8080;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    (((w & TOP) >> 7).wrapping_mul(GATHER) >> 56) as u32
}

/// Mask of a line from its counts: bit `d` of the flags of [`digit_flags_portable`] spread to
/// bit `3d` (present) and `DUP + 3d` (repeated), as [`line_masks`] writes them.
#[cfg(test)]
fn mask_of(counts: &Counts) -> Mask {
    let (present, dup) = digit_flags_portable(counts);
    spread(present) | spread(dup) << DUP
}

/// Bit `d` set in the first word when digit `d` counts at least 1, in the second at least 2,
/// eight digits at a time: adding 0x7F (0x7E) to a byte sets its top bit exactly when the
/// count is at least 1 (2). Counts never exceed 9, so no byte carries into the next. For
/// [`line_masks_portable`], the build other targets use.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn digit_flags_portable(counts: &Counts) -> (u32, u32) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut half = [0u8; 8];
    half.copy_from_slice(&counts[..8]);
    let lo = u64::from_le_bytes(half);
    half.copy_from_slice(&counts[8..]);
    let hi = u64::from_le_bytes(half);
    let present =
        top_bits(lo.wrapping_add(ONES * 0x7F)) | top_bits(hi.wrapping_add(ONES * 0x7F)) << 8;
    let dup = top_bits(lo.wrapping_add(ONES * 0x7E)) | top_bits(hi.wrapping_add(ONES * 0x7E)) << 8;
    (present, dup)
}

/// Writes each line's mask from its counts and returns the digits present summed over the
/// lines (each line's distinct digits).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
#[inline(always)]
fn line_masks_portable(counts: &[Counts], masks: &mut [Mask]) -> u32 {
    let mut distinct = 0;
    for (mask, counts) in masks.iter_mut().zip(counts) {
        let (present, dup) = digit_flags_portable(counts);
        *mask = spread(present) | spread(dup) << DUP;
        distinct += present.count_ones();
    }
    distinct
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn line_masks(counts: &[Counts], masks: &mut [Mask]) -> u32 {
    line_masks_portable(counts, masks)
}

/// [`line_masks_portable`] by SSE2, which every x86_64 CPU has (no dispatch needed): two byte
/// compares of all sixteen counts against 0 and 1 and their sign bits gathered, where the portable
/// build spends a multiply per eight digits per flag (see docs/performance.md §Design
/// measurements). Counts are at most 9, so the signed compare reads them right. The present digits
/// are counted by subtracting each line's first compare (-1 a present digit) from a byte
/// accumulator (at most 27 lines, so no byte wraps) and one sum of absolute differences at the end,
/// instead of a population count a line, which x86_64's baseline lacks.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn line_masks(counts: &[Counts], masks: &mut [Mask]) -> u32 {
    use std::arch::x86_64::{
        _mm_add_epi64, _mm_cmpgt_epi8, _mm_cvtsi128_si64, _mm_movemask_epi8, _mm_sad_epu8,
        _mm_set1_epi8, _mm_set_epi64x, _mm_setzero_si128, _mm_srli_si128, _mm_sub_epi8,
    };
    debug_assert!(counts.len() <= 27);
    // SAFETY: these intrinsics need only SSE2, which the `cfg` above says this build targets
    // (it is part of every x86_64 target's baseline); they work on values, touching no memory.
    unsafe {
        let mut present_bytes = _mm_setzero_si128();
        for (mask, counts) in masks.iter_mut().zip(counts) {
            let v = u128::from_le_bytes(*counts);
            let v = _mm_set_epi64x((v >> 64) as i64, v as i64);
            let present_v = _mm_cmpgt_epi8(v, _mm_set1_epi8(0));
            present_bytes = _mm_sub_epi8(present_bytes, present_v);
            let present = _mm_movemask_epi8(present_v) as u32;
            let dup = _mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(1))) as u32;
            *mask = spread(present) | spread(dup) << DUP;
        }
        let sums = _mm_sad_epu8(present_bytes, _mm_setzero_si128());
        _mm_cvtsi128_si64(_mm_add_epi64(sums, _mm_srli_si128::<8>(sums))) as u32
    }
}

/// One food source: a full grid consistent with the encoding, its digit counts and their masks.
/// Its fitness and trial count live with the colony, in arrays the roulette and the scouts scan.
#[derive(Clone)]
pub(crate) struct Source {
    /// Masks of every line, indexed like [`Layout::base_counts`]; slot [`EMPTY_LINE`] and the
    /// padding stay 0.
    masks: [Mask; LINE_SLOTS],
    /// Each cell's digit `d` as `3d`, the position of its flags in a [`Mask`]: the delta shifts
    /// by it directly (and by it `| DUP`, the same as `+ DUP` as `3d < DUP`).
    vals: Cells,
    /// Digit counts of every line (padded to 32 for masked indexing): only improving moves and
    /// fresh sources touch them.
    counts: [Counts; 32],
    /// The colony's count of the non-improving neighbours this source may still have before
    /// its scout is due (its limit less its trial count, see `abc::Colony::due`); nothing here
    /// reads or writes it. Kept beside the grid so the colony's scoring loops reach it from the
    /// source they already hold rather than through one more array (whose pointer they had
    /// no register left for).
    pub(crate) left: u32,
}

impl Source {
    /// A source of `layout`'s puzzle, holding its givens, to be randomised before use. The
    /// givens are written here once: no move touches a given cell and [`Source::randomize`]
    /// rewrites every free one, so a fresh source need not copy them again (a 256-byte copy
    /// about once in two cycles).
    pub(crate) fn new(layout: &Layout) -> Source {
        Source {
            masks: [0; LINE_SLOTS],
            vals: layout.givens,
            counts: [[0; 16]; 32],
            left: 0,
        }
    }

    /// An all-zero placeholder, for the tests that set a source's fields by hand.
    #[cfg(test)]
    pub(crate) fn empty() -> Source {
        Source {
            masks: [0; LINE_SLOTS],
            vals: [0; CELL_SLOTS],
            counts: [[0; 16]; 32],
            left: 0,
        }
    }

    /// The grid.
    pub(crate) fn grid(&self) -> [u8; 81] {
        let mut g = [0; 81];
        for (d, &v) in g.iter_mut().zip(&self.vals) {
            *d = v / 3;
        }
        g
    }

    /// Makes this a fresh random source and returns its conflicts: each box's pool shuffled
    /// (Fisher–Yates, last index first, box after box) into its free cells, counts and masks
    /// rebuilt. The givens are left as they are: `self` must come from [`Source::new`] with
    /// this `layout`. Inlined into the colony's two out-of-line builds of it (portable and BMI2, see
    /// `abc::Colony::randomize`); the tests call it as it is.
    #[inline(always)]
    pub(crate) fn randomize<R: Rng + ?Sized>(&mut self, layout: &Layout, rng: &mut R) -> u32 {
        debug_assert!(self.vals[..81]
            .iter()
            .zip(&layout.givens[..81])
            .all(|(&v, &g)| g == 0 || v == g));
        let mut perm = layout.pools;
        self.counts = layout.base_counts;
        // Each digit is placed as its Fisher–Yates step fixes it, straight from the register
        // the swap left it in, rather than by a second pass over the positions (more
        // instructions a cycle). Position `at` is final once its step is done and no
        // later step reads it, so the swap only writes the other side.
        for step in &layout.shuffle[..layout.n_shuffle] {
            // `random_range(0..=k)` draws exactly this (Canon's method on a `u32`), without the
            // range checks and the generic path's extra moves, 60-odd times per fresh source.
            let j = below(rng.next_u32(), u32::from(step.k) + 1, rng);
            let (at, to) = (usize::from(step.at), usize::from(step.base) + j as usize);
            let (at, to) = (at & (POOL_SLOTS - 1), to & (POOL_SLOTS - 1));
            let digit = perm[to];
            perm[to] = perm[at];
            self.place(&step.free, digit);
        }
        for (at, f) in &layout.firsts[..layout.n_firsts] {
            self.place(f, perm[usize::from(*at) & (POOL_SLOTS - 1)]);
        }
        let lines = BOX_LINE as usize;
        let distinct = line_masks(&self.counts[..lines], &mut self.masks[..lines]);
        self.masks[lines..EMPTY_LINE as usize].fill(WHOLE_BOX);
        // The boxes are whole, and every row and column holds nine digits: its duplicates are
        // nine less the digits it has (a digit placed `n` times beyond the givens' `g` repeats
        // `n + g - 1` times). Counted from the masks' flags so the placements need not compare
        // each count.
        9 * lines as u32 - distinct
    }

    /// Puts `digit` in free cell `f` of a fresh source, counting it on the cell's row and
    /// column.
    #[inline(always)]
    fn place(&mut self, f: &FreeCell, digit: u8) {
        let d = usize::from(digit) & 15;
        self.vals[usize::from(f.cell)] = 3 * digit;
        // Masked to the 512 bytes instead of bounds-checked; a line offset plus a digit below
        // 16 stays within the line. One `and` a line where `[line & 31][d]` took a mask and a
        // shift too.
        let counts = self.counts.as_flattened_mut();
        counts[(usize::from(f.row) + d) & (COUNT_BYTES - 1)] += 1;
        counts[(usize::from(f.col) + d) & (COUNT_BYTES - 1)] += 1;
    }

    /// Change of fitness if the move's two cells swapped values. With `CROSS` box duplicates
    /// count too (the cross-box variant); without it the cells share a box (so hold different
    /// digits). Branch-free on purpose: whether the cells share a row or column is a coin toss
    /// the branch predictor would lose, so a shared line reads the empty line instead.
    ///
    /// Per line, a swap changes the duplicates by +1 if the digit coming in was already there
    /// and by -1 if the digit going out was there more than once. Cell `a`'s lines lose `x`
    /// and gain `y`, cell `b`'s the reverse, so the sum of those flags over `a`'s lines is the
    /// field at `y` (and at `DUP + x`) of the sum of their masks, and the same for `b`: two
    /// sums of masks, four shifts, and no per-line work.
    #[inline(always)]
    pub(crate) fn delta<const CROSS: bool>(&self, mv: &Move) -> i32 {
        let (x, y) = (self.vals[usize::from(mv.a)], self.vals[usize::from(mv.b)]);
        if CROSS && x == y {
            return 0;
        }
        let mask = |line: u8| self.masks[usize::from(line)];
        let mut at_a = mask(mv.row[0]) + mask(mv.col[0]);
        let mut at_b = mask(mv.row[1]) + mask(mv.col[1]);
        if CROSS {
            at_a += mask(mv.boxes[0]);
            at_b += mask(mv.boxes[1]);
        }
        // Wrapping shifts: the amounts are below 64 anyway, and so stated they compile to the
        // bare shift instruction, with no masking of the amount.
        let (x3, y3) = (u32::from(x), u32::from(y));
        let gained = (at_a.wrapping_shr(y3) + at_b.wrapping_shr(x3)) & 7;
        // The "lost" fields sit at bit DUP of the sum of the other two shifts. Nothing below
        // carries into it: the low 32 bits of each shifted sum hold the present fields above
        // the digit (under 2^27) and the repeated fields of the digits below it, shifted
        // down (fields of at most 3 every 3 bits: under 3/7 * 2^32), so under 2^31 each.
        // One shift of the sum instead of `| DUP` on both amounts, which compiled to an `and`
        // and an `or` each.
        let lost = ((at_a.wrapping_shr(x3) + at_b.wrapping_shr(y3)) >> DUP) & 7;
        gained as i32 - lost as i32
    }

    /// Swaps the move's two cells, updating counts and masks. Inlined into the colony's two
    /// out-of-line builds of it (portable and BMI2, see `abc::Colony::apply`). It walks the
    /// move's resolved lines, as the delta does: a line both cells share is the empty line in
    /// both slots, where the two exchanges cancel, in the counts (wrapping through 255 and
    /// back) and in the mask (see [`TOGGLE`]); no branch on the geometry.
    #[inline(always)]
    pub(crate) fn apply<const CROSS: bool>(&mut self, mv: &Move) {
        let (a, b) = (usize::from(mv.a), usize::from(mv.b));
        let (x, y) = (self.vals[a], self.vals[b]);
        self.vals[a] = y;
        self.vals[b] = x;
        self.exchange(mv.row[0], x, y);
        self.exchange(mv.row[1], y, x);
        self.exchange(mv.col[0], x, y);
        self.exchange(mv.col[1], y, x);
        if CROSS {
            self.exchange(mv.boxes[0], x, y);
            self.exchange(mv.boxes[1], y, x);
        }
    }

    /// Moves one `out` out of and one `inn` into a line, keeping its count and mask in step:
    /// only those two digits' bits can change, each by the flag its count crossed. The digits
    /// come as cells hold them, `3d`.
    #[inline(always)]
    fn exchange(&mut self, line: u8, out3: u8, inn3: u8) {
        let counts = &mut self.counts[usize::from(line) & 31];
        let (out, inn) = (usize::from(out3 / 3) & 15, usize::from(inn3 / 3) & 15);
        // The count `out` falls to, and the one `inn` rises from (read after the fall, so the
        // same digit in and out toggles the same flag twice: no change).
        let fell_to = counts[out].wrapping_sub(1);
        counts[out] = fell_to;
        let rose_from = counts[inn];
        counts[inn] = rose_from.wrapping_add(1);
        self.masks[usize::from(line)] ^= TOGGLE[usize::from(fell_to)] << u32::from(out3)
            ^ TOGGLE[usize::from(rose_from)] << u32::from(inn3);
    }
}

/// The mask bits of one digit that flip as its count steps between `k` and `k + 1`, at digit
/// 0: present between 0 and 1, repeated between 1 and 2, none above. None between 255 and 0
/// either, the empty line's round trip (see [`Source::apply`]), so its mask stays 0; and all
/// 256 entries, so a `u8` index needs no bounds check. Toggling those bits replaces clearing
/// both digits' bits and rewriting them from their counts, which cost more an apply.
const TOGGLE: [u64; 256] = {
    let mut t = [0; 256];
    t[0] = 1;
    t[1] = 1 << DUP;
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::fitness;
    use crate::sudoku::testdata::{demo_puzzle, puzzle, TOP1465_FIRST};
    use proptest::prelude::*;
    use rand::{Rng, RngCore, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    fn boxes_whole(vals: &[u8; 81]) -> bool {
        UNITS[18..].iter().all(|u| {
            let mut seen = 0u16;
            for &c in u {
                seen |= 1 << vals[c as usize];
            }
            seen == 0x3FE
        })
    }

    /// Counts and masks rebuilt from the grid the slow way, digit by digit, to check the
    /// incremental ones against.
    fn recounted(vals: &[u8; 81]) -> ([Counts; 32], [Mask; LINE_SLOTS]) {
        let mut counts = [[0u8; 16]; 32];
        for (line, members) in UNITS.iter().enumerate() {
            for &c in members {
                counts[line][vals[c as usize] as usize] += 1;
            }
        }
        let mut masks = [0; LINE_SLOTS];
        for (mask, c) in masks.iter_mut().zip(&counts) {
            for (d, &n) in c.iter().enumerate().take(10).skip(1) {
                *mask |= u64::from(n >= 1) << (3 * d) | u64::from(n >= 2) << (DUP + 3 * d as u32);
            }
        }
        (counts, masks)
    }

    fn consistent(s: &Source) -> bool {
        let (counts, masks) = recounted(&s.grid());
        counts == s.counts && masks == s.masks
    }

    #[test]
    fn draw_move_is_the_move_of_pick_index() {
        // The unchecked draw the colony uses and the masked index its rewinds use: the same
        // move from the same draws, leaving the generator in the same state, both
        // neighbourhoods, on a layout with few free cells and on one with many.
        for p in [demo_puzzle(), puzzle(TOP1465_FIRST)] {
            let l = Layout::new(&p);
            let mut a = Pcg64Mcg::seed_from_u64(23);
            let mut b = a.clone();
            for _ in 0..20_000 {
                assert_eq!(
                    l.draw_move::<false, 0, _>(&mut a),
                    l.get_move::<false>(l.pick_index::<false, _>(&mut b))
                );
                assert_eq!(
                    l.draw_move::<true, 0, _>(&mut a),
                    l.get_move::<true>(l.pick_index::<true, _>(&mut b))
                );
            }
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn draws_with_a_constant_group_count_are_the_runtime_ones() {
        // The colony's draw loops take the group count as a constant when it is 9 (box
        // moves) or 18 (cross-box moves): the same moves and generator state as the count
        // read at run time. TOP1465_FIRST has free cells in every box and line.
        let l = Layout::new(&puzzle(TOP1465_FIRST));
        assert_eq!((l.groups(false), l.groups(true)), (9, 18));
        let mut a = Pcg64Mcg::seed_from_u64(29);
        let mut b = a.clone();
        for _ in 0..20_000 {
            assert_eq!(
                l.draw_move::<false, 9, _>(&mut a),
                l.draw_move::<false, 0, _>(&mut b)
            );
            assert_eq!(
                l.draw_move::<true, 18, _>(&mut a),
                l.draw_move::<true, 0, _>(&mut b)
            );
        }
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn random_source_respects_boxes_and_givens() {
        let p = demo_puzzle();
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut s = Source::new(&l);
        for _ in 0..20 {
            let conflicts = s.randomize(&l, &mut rng);
            assert!(boxes_whole(&s.grid()));
            for (i, &g) in p.cells().iter().enumerate() {
                assert!(g == 0 || s.grid()[i] == g);
            }
            assert_eq!(conflicts, fitness::conflicts(&s.grid(), false));
            assert!(consistent(&s));
        }
    }

    #[test]
    fn delta_fields_take_no_carry_at_their_fullest() {
        // The delta reads 3-bit fields of shifted sums of up to three masks; with every flag
        // of every line set (the most there can be below each field), each field must still
        // read exactly the sum of its flags, for every pair of digits.
        let full = WHOLE_BOX | WHOLE_BOX << DUP;
        let mut s = Source::empty();
        s.masks[..27].fill(full);
        for x in 1..10u8 {
            for y in 1..10u8 {
                if x == y {
                    continue;
                }
                s.vals[0] = 3 * x;
                s.vals[1] = 3 * y;
                let mv = Move {
                    a: 0,
                    b: 1,
                    row: [0, 1],
                    col: [9, 10],
                    boxes: [18, 19],
                };
                // Each line has both digits twice or more: a's two lines gain y and lose a
                // repeated x, b's the reverse: 4 - 4 (6 - 6 with the boxes).
                assert_eq!(s.delta::<false>(&mv), 0, "{x} {y}");
                assert_eq!(s.delta::<true>(&mv), 0, "{x} {y}");
                // No repeated x in a's lines: those lose nothing.
                let mut t = s.clone();
                for line in [0usize, 9] {
                    t.masks[line] &= !(1u64 << (DUP + 3 * u32::from(x)));
                }
                assert_eq!(t.delta::<false>(&mv), 2, "{x} {y}");
                // Nor a repeated y in b's: the lost field reads 0 under every other flag.
                for line in [1usize, 10] {
                    t.masks[line] &= !(1u64 << (DUP + 3 * u32::from(y)));
                }
                assert_eq!(t.delta::<false>(&mv), 4, "{x} {y}");
                // No y at all in a's lines: a gains nothing there.
                let mut t = s.clone();
                for line in [0usize, 9] {
                    t.masks[line] &= !(1u64 << (3 * u32::from(y)));
                }
                assert_eq!(t.delta::<false>(&mv), -2, "{x} {y}");
            }
        }
    }

    #[test]
    fn mask_of_reads_every_count() {
        // Counts up to 9 (a cross-box line can hold nine copies) must not carry between bytes.
        for d in 1..10 {
            for n in 0..10u8 {
                let mut c = [0u8; 16];
                c[d] = n;
                c[10 - d] = 9 - n.min(9);
                let mut want = 0;
                for (k, &v) in c.iter().enumerate().take(10) {
                    want |=
                        u64::from(v >= 1) << (3 * k) | u64::from(v >= 2) << (DUP + 3 * k as u32);
                }
                assert_eq!(mask_of(&c), want, "{c:?}");
            }
        }
    }

    #[test]
    fn line_masks_builds_agree() {
        // Every line of counts 0..=9 a seeded generator makes, and each single digit's count.
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut lines = Vec::new();
        for _ in 0..10_000 {
            let mut c = [0u8; 16];
            for v in &mut c[1..10] {
                *v = rng.random_range(0..=9);
            }
            lines.push(c);
        }
        for d in 1..10 {
            for n in 0..=9 {
                let mut c = [0u8; 16];
                c[d] = n;
                lines.push(c);
            }
        }
        for c in &lines {
            let (present, dup) = digit_flags_portable(c);
            for (d, &v) in c.iter().enumerate() {
                assert_eq!(present >> d & 1 == 1, v >= 1, "{c:?}");
                assert_eq!(dup >> d & 1 == 1, v >= 2, "{c:?}");
            }
        }
        // In runs of up to 27 lines (the most a call gets), masks and the present digits.
        for run in lines
            .chunks(27)
            .chain(lines.chunks(18))
            .chain(lines.chunks(1))
        {
            let (mut fast, mut portable) = ([0; 27], [0; 27]);
            let n = line_masks(run, &mut fast[..run.len()]);
            assert_eq!(n, line_masks_portable(run, &mut portable[..run.len()]));
            assert_eq!(fast, portable);
            let nonzero = run.iter().flatten().filter(|&&v| v > 0).count();
            assert_eq!(n as usize, nonzero);
            for (mask, c) in fast.iter().zip(run) {
                assert_eq!(*mask, mask_of(c), "{c:?}");
            }
        }
    }

    #[test]
    fn below_is_in_range_and_uniform() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        for range in [1u32, 2, 7, 72] {
            let mut counts = vec![0u32; range as usize];
            let n = 20_000 * range;
            for _ in 0..n {
                let bits = rng.next_u32();
                let v = below(bits, range, &mut rng);
                counts[v as usize] += 1;
            }
            // Each value expects 20,000 hits; 5% off would be over 7 standard deviations.
            assert!(
                counts.iter().all(|&c| (19_000..=21_000).contains(&c)),
                "{counts:?}"
            );
        }
        // The biased corner (low product bits near the top) still stays in range.
        assert!(below(u32::MAX, 72, &mut rng) < 72);
    }

    #[test]
    fn moves_are_never_wasted() {
        // Box 1 fully given and box 2 with a single free cell: no move may land there, and
        // cross moves must always join two boxes.
        let sol = crate::sudoku::testdata::demo_solution();
        let mut cells = *demo_puzzle().cells();
        for &c in &UNITS[18] {
            cells[c as usize] = sol[c as usize];
        }
        for &c in &UNITS[19][1..] {
            cells[c as usize] = sol[c as usize];
        }
        cells[UNITS[19][0] as usize] = 0;
        let p = SudokuPuzzle::new(cells).unwrap();
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for _ in 0..2000 {
            let (a, b) = l.pick_box_move(&mut rng).cells();
            assert_ne!(a, b);
            assert_eq!(BOX[a], BOX[b]);
            assert!(BOX[a] >= 2);
            assert_eq!(p.cells()[a], 0);
            assert_eq!(p.cells()[b], 0);
            let (a, b) = l.pick_cross_move(&mut rng).cells();
            assert_ne!(BOX[a], BOX[b]);
            assert!(ROW[a] == ROW[b] || COL[a] == COL[b]);
            assert_eq!(p.cells()[a], 0);
            assert_eq!(p.cells()[b], 0);
        }
    }

    fn check_moves(line: &str, seed: u64, moves: usize, cross: bool) -> Result<(), TestCaseError> {
        let p = puzzle(line);
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut s = Source::new(&l);
        let mut conflicts = s.randomize(&l, &mut rng);
        for _ in 0..moves {
            let mv = *if cross {
                l.pick_cross_move(&mut rng)
            } else {
                l.pick_box_move(&mut rng)
            };
            let d = if cross {
                s.delta::<true>(&mv)
            } else {
                s.delta::<false>(&mv)
            };
            let (a, b) = mv.cells();
            let mut swapped = s.grid();
            swapped.swap(a, b);
            prop_assert_eq!(
                i64::from(conflicts) + i64::from(d),
                i64::from(fitness::conflicts(&swapped, cross))
            );
            // Apply about half of the moves, as the colony would keep only some.
            if d <= 0 || rng.random_bool(0.5) {
                if cross {
                    s.apply::<true>(&mv);
                } else {
                    s.apply::<false>(&mv);
                }
                conflicts = conflicts.wrapping_add_signed(d);
                prop_assert_eq!(s.grid(), swapped);
                prop_assert_eq!(conflicts, fitness::conflicts(&s.grid(), cross));
                // The box variant never touches box counts (its boxes stay whole).
                prop_assert!(consistent(&s), "counts or masks drifted from the grid");
            }
        }
        for (i, &g) in p.cells().iter().enumerate() {
            prop_assert!(g == 0 || s.grid()[i] == g, "given at cell {} changed", i);
        }
        if !cross {
            prop_assert!(boxes_whole(&s.grid()));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn box_delta_equals_recount_and_boxes_stay_whole(seed in any::<u64>(), moves in 1usize..400) {
            check_moves(TOP1465_FIRST, seed, moves, false)?;
            check_moves(crate::sudoku::testdata::DEMO, seed, moves, false)?;
        }

        #[test]
        fn cross_delta_equals_recount(seed in any::<u64>(), moves in 1usize..400) {
            check_moves(TOP1465_FIRST, seed, moves, true)?;
            check_moves(crate::sudoku::testdata::DEMO, seed, moves, true)?;
        }
    }
}
