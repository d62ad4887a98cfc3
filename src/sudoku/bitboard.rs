//! Digit-major bitboard for the backtracking solver: for each digit, the set of cells that can
//! still hold it, as the bits of a `u128`. Naked and hidden singles to a fixpoint, like
//! [`super::cands::Board`] (which reaches the same fixpoint and stays the board of the presolver,
//! the logic grader and the tests' reference), plus locked candidates, and cheaper where the
//! solver spends its time:
//!
//! - Placing digits is a few mask operations: the digit leaves the peers of all the cells placed
//!   at once in one `AND NOT`, and every other digit leaves the cells.
//! - Naked singles are the cells in exactly one digit set: a once/twice accumulation over nine
//!   words instead of a per-peer test at every elimination.
//! - A digit's hidden singles and locked candidates depend on its own set alone, so each digit
//!   carries a dirty bit and only digits whose set changed are rescanned, instead of all 27 units
//!   after every change. One scan does both, by table look-ups on "triads" (the three cells where
//!   a row or column crosses a box; see [`scan`](Bitboard::scan)).
//! - The triad rule ([`Rules::Triads`]: a triad holds three digits) needs every digit's triads;
//!   the scans leave them in the board, so the rule's pass is a count over nine words.
//!
//! Layout: the three bands (rows 1-3, 4-6, 7-9) sit in 32-bit lanes. Cell `c` is bit
//! `32 * (c / 27) + c % 27`, so inside a lane a cell is bit `9 * row + col` (row 0..3 within the
//! band) and each row is a 9-bit field. Lane bits 27..32 are always zero.
//!
//! ```text
//!  lane k (band k), 27 bits:   row 2 [26..18] | row 1 [17..9] | row 0 [8..0]
//!  a row, 9 bits:              box 2 [8..6]   | box 1 [5..3]  | box 0 [2..0]
//! ```

use super::contradiction::Contradiction;
use super::grid::{Solution, SudokuPuzzle, PEERS as PEER_LIST};

/// The nine digit bits of a digit mask (digit `d` is bit `d - 1`).
const ALL_DIGITS: u16 = 0x1FF;
/// One lane's 27 cells.
const LANE: u128 = (1 << 27) - 1;
/// Every cell of the grid.
const CELLS: u128 = LANE | LANE << 32 | LANE << 64;

/// The bit of a cell.
const fn bit(cell: usize) -> u128 {
    1 << (32 * (cell / 27) + cell % 27)
}

/// The cell of a bit position (the inverse of [`bit`]).
fn cell_of(pos: u32) -> usize {
    (pos / 32 * 27 + pos % 32) as usize
}

/// Byte `i` of entry `m` is bit `i` of `m`: eight cells' flags spread to one byte each.
const BYTES_OF: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut i = 0;
        while i < 8 {
            t[m] |= ((m as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        m += 1;
    }
    t
};

/// A set in cell order (bit `c` for cell `c`) in the board's lane layout (see [`bit`]).
#[inline(always)]
fn lanes_of(cells: u128) -> u128 {
    (cells & LANE) | (cells >> 27 & LANE) << 32 | (cells >> 54 & LANE) << 64
}

/// The cells of each given digit (entry `d` for digit `d + 1`), in the lane layout: per digit
/// a byte compare of the whole grid (six 16-byte compares, SSE2, the x86_64 baseline), where
/// a walk over the cells or'ed a 128-bit shifted bit into the cell's value's set (a chain of
/// stores and reloads through the blanks' slot).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn given_sets(cells: &[u8; 81]) -> [u128; 9] {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let mut padded = [0u8; 96];
    padded[..81].copy_from_slice(cells);
    // SAFETY: SSE2 is part of this build's target (the `cfg` above); each load reads 16 bytes
    // at offsets 0, 16, .., 80 of the 96-byte array.
    let chunks: [__m128i; 6] =
        std::array::from_fn(|k| unsafe { _mm_loadu_si128(padded[16 * k..].as_ptr().cast()) });
    std::array::from_fn(|d| {
        let mut set = 0u128;
        for (k, &chunk) in chunks.iter().enumerate() {
            // SAFETY: as above; these work on values only.
            let eq =
                unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, _mm_set1_epi8(d as i8 + 1))) };
            set |= u128::from(eq as u16) << (16 * k);
        }
        lanes_of(set)
    })
}

/// [`given_sets`] for other targets: a walk over the cells.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn given_sets(cells: &[u8; 81]) -> [u128; 9] {
    given_sets_portable(cells)
}

/// The cells of each given digit, one cell at a time (other targets' build, and the tests'
/// reference for the SSE2 one).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
fn given_sets_portable(cells: &[u8; 81]) -> [u128; 9] {
    let mut sets = [0u128; 9];
    for (cell, &v) in cells.iter().enumerate() {
        if let Some(set) = usize::from(v).checked_sub(1).and_then(|d| sets.get_mut(d)) {
            *set |= bit(cell);
        }
    }
    sets
}

/// The 20 peers of each cell as a set.
const PEERS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            t[c] |= bit(PEER_LIST[c][k] as usize);
            k += 1;
        }
        c += 1;
    }
    t
};

/// [`PEERS`] by bit position (see [`bit`]) rather than by cell: the positions of a set's bits
/// index it without converting them to cells. Lane bits 27..32 are never set, their entries 0.
/// Entry 128, `trailing_zeros` of an empty set, is 0 too: [`Bitboard::place_sole`] looks up
/// its first two cells whether or not it has them.
const PEERS_AT: [u128; 129] = {
    let mut t = [0u128; 129];
    let mut c = 0;
    while c < 81 {
        t[32 * (c / 27) + c % 27] = PEERS[c];
        c += 1;
    }
    t
};

/// A triad matrix: for one digit, which of nine triads (three lines crossing three boxes) hold
/// a candidate, bit `3 * i + j` for the triad of box `i` and line `j` in a band (its rows), and of
/// band `i` and line `j` in a stack (its columns). Which role takes the high index is free: every
/// rule the tables below encode treats lines and boxes alike (see the `tables_are_symmetric`
/// test), and these orders are the ones the bits fall into most cheaply
/// ([`fold_rows`], [`fold_stack`]).
type Triads = usize;

/// The triads of line `r` / box `b` (see [`Triads`]).
const fn line_mask(r: usize) -> usize {
    7 << (3 * r)
}
const fn box_mask(b: usize) -> usize {
    0b001_001_001 << b
}

/// Locked candidates on one triad matrix, to their fixpoint: a box whose candidates are all in
/// one line takes the digit from the line's other boxes (pointing), and a line whose candidates
/// are all in one box takes it from the box's other lines (claiming). 0 when a line or a box is
/// left without a candidate: a contradiction.
const LOCKED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut cur = m;
        loop {
            let mut next = cur;
            let mut empty = false;
            let mut i = 0;
            while i < 3 {
                let line = next & line_mask(i);
                if line == 0 {
                    empty = true;
                } else if line & (line - 1) == 0 {
                    // Claiming: the line's only box loses the digit elsewhere.
                    next &= !(box_mask(line.trailing_zeros() as usize % 3) & !line);
                }
                let bx = next & box_mask(i);
                if bx == 0 {
                    empty = true;
                } else if bx & (bx - 1) == 0 {
                    // Pointing: the box's only line loses the digit elsewhere.
                    next &= !(line_mask(bx.trailing_zeros() as usize / 3) & !bx);
                }
                i += 1;
            }
            if empty {
                cur = 0;
                break;
            }
            if next == cur {
                break;
            }
            cur = next;
        }
        t[m] = cur as u16;
        m += 1;
    }
    t
};

/// The triad matrix itself when every line and every box has a candidate, else 0: the check
/// of singles without locked candidates.
const CHECKED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut ok = true;
        let mut i = 0;
        while i < 3 {
            ok &= m & line_mask(i) != 0 && m & box_mask(i) != 0;
            i += 1;
        }
        t[m] = if ok { m as u16 } else { 0 };
        m += 1;
    }
    t
};

/// The triads alone in their line or alone in their box: where such a triad has one cell, that
/// cell is a hidden single of the line or the box.
const ALONE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut a = 0;
        let mut i = 0;
        while i < 3 {
            let line = m & line_mask(i);
            if line != 0 && line & (line - 1) == 0 {
                a |= line;
            }
            let bx = m & box_mask(i);
            if bx != 0 && bx & (bx - 1) == 0 {
                a |= bx;
            }
            i += 1;
        }
        t[m] = a as u16;
        m += 1;
    }
    t
};

/// The first cell of every triad of a lane (bits `9 * row + 3 * box`).
const TRIAD_BASE: u32 = 0x0124_9249;

/// Two band triad matrices (bit `3 * box + row`) from two lane masks that have bits only on
/// triads' first cells ([`TRIAD_BASE`]): row `r` moves down `8 * r` bits, onto bit
/// `3 * box + r`, and what the shifts carry elsewhere falls outside the nine bits. Both masks
/// in one `u64`, 32 bits apart, so one set of shifts folds the two.
fn fold_rows(a: u32, b: u32) -> (Triads, Triads) {
    let both = u64::from(a) | u64::from(b) << 32;
    let folded = both | both >> 8 | both >> 16;
    ((folded & 0x1FF) as usize, (folded >> 32 & 0x1FF) as usize)
}

/// The cells of a band's triads (bit `3 * box + row`) as a 27-bit lane mask.
const TRIAD_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cells = 0;
        let mut i = 0;
        while i < 9 {
            if m >> i & 1 == 1 {
                cells |= 7 << (9 * (i % 3) + 3 * (i / 3));
            }
            i += 1;
        }
        t[m] = cells;
        m += 1;
    }
    t
};

/// Columns `0..3` of each band in a 27-bit column mask (bit `9 * band + column`).
const STACK_0: u32 = 0x001C_0E07;

/// A stack's triad matrix (bit `3 * band + column`) from a 27-bit column mask shifted so that
/// the stack's columns are its bits `0..3` of each band: the bands move down 6 and 12 bits,
/// by one multiplication (band `k`'s three bits, at `9 * k`, move up `12 - 6 * k` onto bit
/// `12 + 3 * k`, then all down 12; the other copies the product makes land elsewhere, and no two
/// copies share a bit, so nothing carries; the one that leaves the word, band 2's top bit moved
/// up 12, is not one of the nine). Two shifts and two ORs cost more than one multiply where, as
/// in the scan, they run six times a digit (see docs/performance.md §Design measurements).
fn fold_stack(cols: u32) -> Triads {
    let m = cols & STACK_0;
    ((m.wrapping_mul(1 << 12 | 1 << 6 | 1) >> 12) & 0x1FF) as usize
}

/// The inverse of [`fold_stack`]: a stack's triad matrix back to a 27-bit column mask of its
/// first stack (bit `9 * band + column`).
const STACK_COLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = (m & 7 | (m & 0x38) << 6 | (m & 0x1C0) << 12) as u32;
        m += 1;
    }
    t
};

/// A 9-bit column mask copied into the three rows of a lane.
const fn spread(cols: u32) -> u32 {
    cols * (1 | 1 << 9 | 1 << 18)
}

/// A digit's triads in one word: its band triad matrices (bit `9 * band + 3 * box + row`,
/// see [`fold_rows`]) in bits `0..27` and its stack triad matrices (bit
/// `9 * stack + 3 * band + column`, see [`fold_stack`]) in bits `32..59`.
const ALL_TRIADS: u64 = ((1 << 27) - 1) | ((1 << 27) - 1) << 32;

/// The first triad of each box in [`ALL_TRIADS`]: in a band's matrix a box's three triads are
/// three adjacent bits (its rows), and in a stack's its three columns are.
const BOX_FIRST: u64 = 0x0124_9249 | 0x0124_9249 << 32;

/// The triads of `x` (see [`ALL_TRIADS`]) alone in their box. At a fixpoint of locked
/// candidates a triad alone in its box is alone in its line too (pointing took the rest of the
/// line), and the other way round: these are the triads the digit is forced into.
#[inline(always)]
fn alone_in_box(x: u64) -> u64 {
    let [x0, x1, x2] = [x & BOX_FIRST, x & BOX_FIRST << 1, x & BOX_FIRST << 2];
    let others = (x1 >> 1 | x2 >> 2) | (x0 << 1 | x2 >> 1) | (x0 << 2 | x1 << 1);
    x & !others
}

/// For a triad matrix `m`, the triads that share a line or a box with a triad of `m`, other
/// than that triad itself (two of `m` in one line take each other).
const CROSS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut x = 0;
        let mut i = 0;
        while i < 9 {
            if m >> i & 1 == 1 {
                x |= (line_mask(i / 3) | box_mask(i % 3)) & !(1 << i);
            }
            i += 1;
        }
        t[m] = x as u16;
        m += 1;
    }
    t
};

/// The six perfect matchings of a triad matrix (see [`Triads`]), bit `3 * i + p(i)` for each
/// permutation `p` of 0..3, in lexicographic order of `(p(0), p(1), p(2))`. In a band's matrix
/// (bit `3 * box + row`) a matching gives each box the row of its digit, in a stack's (bit
/// `3 * band + column`) each band the column: one configuration of a digit in the band or stack.
const PERMS: [u16; 6] = [
    1 | 1 << 4 | 1 << 8,
    1 | 1 << 5 | 1 << 7,
    1 << 1 | 1 << 3 | 1 << 8,
    1 << 1 | 1 << 5 | 1 << 6,
    1 << 2 | 1 << 3 | 1 << 7,
    1 << 2 | 1 << 4 | 1 << 6,
];

/// For each triad matrix, the configurations it allows: bit `k` when it holds [`PERMS`]`[k]`.
const CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 6 {
            if m & PERMS[k] as usize == PERMS[k] as usize {
                t[m] |= 1 << k;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// How many configurations each triad matrix allows (the bits of [`CONFIGS`]).
const CONFIG_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = CONFIGS[m].count_ones() as u8;
        m += 1;
    }
    t
};

/// Where region `r`'s triad matrix sits in a digit's triads word ([`ALL_TRIADS`]): bands 0..3,
/// then stacks 0..3.
const REGION_AT: [u32; 6] = [0, 9, 18, 32, 41, 50];

/// The cells of each region: the three bands, then the three stacks.
const REGION_CELLS: [u128; 6] = {
    let mut t = [0u128; 6];
    let mut r = 0;
    while r < 3 {
        t[r] = LANE << (32 * r);
        let cols = spread(7 << (3 * r)) as u128;
        t[3 + r] = cols | cols << 32 | cols << 64;
        r += 1;
    }
    t
};

/// The cells of configuration `k` ([`PERMS`]) of region `r`: its three triads.
const CONFIG_CELLS: [[u128; 6]; 6] = {
    let mut t = [[0u128; 6]; 6];
    let mut r = 0;
    while r < 3 {
        let mut k = 0;
        while k < 6 {
            let m = PERMS[k] as usize;
            t[r][k] = (TRIAD_CELLS[m] as u128) << (32 * r);
            let cols = STACK_COLS[m] << (3 * r);
            let mut band = 0;
            while band < 3 {
                t[3 + r][k] |= (spread((cols >> (9 * band)) & 0x1FF) as u128) << (32 * band);
                band += 1;
            }
            k += 1;
        }
        r += 1;
    }
    t
};

/// A branching point of a uniqueness search: one digit's configurations in one band or stack
/// (see [`Bitboard::split`]), each child keeping one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Split {
    /// The digit (0-based).
    pub(crate) digit: usize,
    /// The region: bands 0..3, stacks 3..6.
    pub(crate) region: usize,
    /// The configurations left, bit `k` for [`PERMS`]`[k]`: two or more.
    pub(crate) configs: u8,
}

/// Per-triad counts over the digits, bit-sliced: bit `i` of `count[j]` is bit `j` of triad `i`'s
/// count (triads as in [`ALL_TRIADS`]).
pub(crate) type Counts = [u64; 4];

/// Which rules [`Bitboard::propagate`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rules {
    /// Naked and hidden singles.
    Singles,
    /// Singles and locked candidates (pointing and claiming).
    Locked,
    /// Singles, locked candidates and the triad rule (see [`Bitboard::triads`]).
    Triads,
}

/// At-least-one to at-least-four counts of a sequence of masks, bit-sliced: bit `i` of
/// `n[k]` is set when bit `i` was set in at least `k + 1` of the masks.
#[derive(Default, Clone, Copy)]
struct AtLeast {
    n: [u64; 4],
}

impl AtLeast {
    #[inline(always)]
    fn add(&mut self, x: u64) {
        self.n[3] |= self.n[2] & x;
        self.n[2] |= self.n[1] & x;
        self.n[1] |= self.n[0] & x;
        self.n[0] |= x;
    }
}

/// What [`Bitboard::scan`] found for a digit.
struct Scanned {
    /// The digit's set without its locked candidates.
    set: u128,
    /// Its hidden singles.
    singles: u128,
    /// Whether the columns' locked candidates took some: only then can the rows and boxes
    /// have more (those of the rows and boxes are at their fixpoint after one look-up each, and
    /// the columns saw them gone).
    again: bool,
    /// The triads of the digit's set after its locked candidates (see [`ALL_TRIADS`]): exact
    /// once the scan left the set unchanged (`again` false).
    triads: u64,
}

/// Candidates and placements, digit-major. `Copy` (240 bytes): the search branches by copying.
#[derive(Clone, Copy)]
pub(crate) struct Bitboard {
    /// `pos[d]`: the cells that can hold digit `d + 1`. A placed cell stays only in its own
    /// digit's set and a placed digit leaves all its peers, so a unit where `d + 1` is placed
    /// holds exactly that one cell of `pos[d]`.
    pos: [u128; 9],
    /// Cells not placed yet.
    unsolved: u128,
    /// Digits (bit `d` for `pos[d]`) whose set changed since its last [`scan`](Self::scan).
    /// The scan reads nothing but the digit's own set and which of its cells are placed (a cell
    /// of the set is placed only with that digit), so a clean digit cannot have a new hidden
    /// single, a new unit without a place or a new locked candidate.
    dirty: u16,
    /// For a clean digit, its triads (see [`ALL_TRIADS`]) from its last scan: the triad rule's
    /// input, kept with the board so that a digit that stays clean need not be scanned again
    /// for it.
    triads: [u64; 9],
}

impl Bitboard {
    /// The board of a puzzle with its givens placed, not yet propagated. Err when a given has
    /// no place or a blank cell has no candidate left.
    pub(crate) fn new(puzzle: &SudokuPuzzle) -> Result<Bitboard, Contradiction> {
        // All givens at once: per digit its cells, then one pass over the digits, rather than
        // one placement (nine set updates) per given.
        let givens = given_sets(puzzle.cells());
        let placed = givens.iter().fold(0, |m, &g| m | g);
        let mut b = Bitboard {
            pos: [0; 9],
            unsolved: CELLS & !placed,
            dirty: ALL_DIGITS,
            triads: [0; 9],
        };
        for (set, &g) in b.pos.iter_mut().zip(&givens) {
            let mut peers = 0;
            let mut rest = g;
            while rest != 0 {
                peers |= PEERS_AT[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            // Two equal givens that see each other.
            if peers & g != 0 {
                return Err(Contradiction);
            }
            *set = (CELLS & !placed & !peers) | g;
        }
        b.naked_singles()?;
        Ok(b)
    }

    /// Puts digit `d + 1` in `cell`. Err when the cell is placed already or cannot hold it.
    #[inline(always)]
    pub(crate) fn place(&mut self, d: usize, cell: usize) -> Result<(), Contradiction> {
        self.place_all(d, bit(cell))
    }

    /// Puts digit `d + 1` in every cell of `cells` at once. Err when one of them is placed
    /// already or cannot hold it, or two of them see each other (they would both need it).
    #[inline(always)]
    fn place_all(&mut self, d: usize, cells: u128) -> Result<(), Contradiction> {
        // A hidden single of a row can lose its place to locked candidates along a column in
        // the same scan: the row is then left without a place for the digit.
        if cells & !(self.pos[d] & self.unsolved) != 0 {
            return Err(Contradiction);
        }
        // Every digit loses the cells, then `d + 1` gets its set back: no branch per digit.
        let own = self.pos[d];
        let mut hit = 0u16;
        for set in self.pos.iter_mut().rev() {
            hit = hit << 1 | u16::from(*set & cells != 0);
            *set &= !cells;
        }
        self.pos[d] = own;
        self.dirty |= hit & !(1 << d);
        self.place_sole(d, cells)
    }

    /// [`Self::place_all`] for cells where `d + 1` is the only candidate (naked singles): no
    /// other digit's set holds them, so only this digit's set changes. The cells must be
    /// unsolved and in the digit's set (naked singles are by construction).
    #[inline(always)]
    fn place_sole(&mut self, d: usize, cells: u128) -> Result<(), Contradiction> {
        let set = self.pos[d];
        // The first two cells' peers without a branch on how many cells there are (an empty set's
        // `trailing_zeros`, 128, looks up no peers): the bit loop's exit mispredicted. Two
        // look-ups, not three: the third was slower (see docs/performance.md §Design measurements).
        let second = cells & cells.wrapping_sub(1);
        let mut peers =
            PEERS_AT[cells.trailing_zeros() as usize] | PEERS_AT[second.trailing_zeros() as usize];
        let mut rest = second & second.wrapping_sub(1);
        while rest != 0 {
            peers |= PEERS_AT[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        if peers & cells != 0 {
            return Err(Contradiction);
        }
        self.unsolved &= !cells;
        let next = set & !peers;
        self.dirty |= u16::from(next != set) << d;
        self.pos[d] = next;
        Ok(())
    }

    /// Unsolved cells with exactly one candidate. Err when an unsolved cell has none.
    #[inline(always)]
    fn naked_singles(&self) -> Result<u128, Contradiction> {
        // A placed cell is in its digit's set alone, so counting over whole sets and masking
        // once at the end gives the same singles with two operations less per digit. (Not on
        // SSE2 registers: fewer instructions, but slower in wall time, as every pass waits on
        // the move of its result back to general registers; see docs/performance.md.)
        let (mut once, mut twice) = (0u128, 0u128);
        for &set in &self.pos {
            twice |= once & set;
            once |= set;
        }
        if self.unsolved & !once != 0 {
            return Err(Contradiction);
        }
        Ok(once & !twice & self.unsolved)
    }

    /// One digit's hidden singles (rows, columns, boxes) and, with `locked`, its locked
    /// candidates (pointing and claiming, along rows and columns, to their fixpoint): the set
    /// of digit `d + 1` once the locked candidates are gone, and the unsolved cells that are the
    /// only place for it in a row, column or box. Err when some unit has no place for it. Reads
    /// only the digit's own set and which cells are placed.
    ///
    /// Rows and boxes are done per band, columns and boxes per stack, each on the band's or
    /// stack's 3x3 triad matrix ([`Triads`]) by table look-ups: [`LOCKED`] or [`CHECKED`] keeps
    /// the triads that may still hold the digit, [`ALONE`] marks those alone in their line or
    /// box, and a lone triad with one cell is a hidden single. The rules are those of
    /// [`super::cands::Board`] and `logic::singles_and_locked`; only their order differs, and it
    /// does not change the fixpoint: each rule only removes candidates, and removing more never
    /// stops another rule from firing.
    #[inline(always)]
    fn scan(&self, d: usize, locked: bool) -> Result<Scanned, Contradiction> {
        let table = if locked { &LOCKED } else { &CHECKED };
        let set = self.pos[d];
        let mut lanes = [set as u32, (set >> 32) as u32, (set >> 64) as u32];
        let open = [
            self.unsolved as u32,
            (self.unsolved >> 32) as u32,
            (self.unsolved >> 64) as u32,
        ];
        let mut single = [0u32; 3];
        let mut triads = 0u64;
        // Rows and boxes, band by band. A triad's three cells, shifted onto its first, say
        // whether it has a candidate and whether it has exactly one: a few operations for the
        // nine triads at once.
        for k in 0..3 {
            let w = lanes[k];
            let (w1, w2) = (w >> 1, w >> 2);
            let any = (w | w1 | w2) & TRIAD_BASE;
            let two = ((w & w1) | (w2 & (w | w1))) & TRIAD_BASE;
            let (present, one) = fold_rows(any, any & !two);
            let keep = table[present] as usize;
            if keep == 0 {
                return Err(Contradiction);
            }
            triads |= (keep as u64) << (9 * k);
            // Placed cells are never taken (their lines and box hold nothing else anyway).
            let w = w & (TRIAD_CELLS[keep] | !open[k]);
            lanes[k] = w;
            single[k] = w & TRIAD_CELLS[keep & ALONE[keep] as usize & one];
        }
        // Columns and boxes, stack by stack, from two 27-bit column masks (bit
        // `9 * band + column`): the columns with a candidate in at least one / exactly one of
        // the band's rows.
        let (mut once, mut exactly_one) = (0u32, 0u32);
        for (k, &w) in lanes.iter().enumerate() {
            let (a, b, c) = (w & 0x1FF, (w >> 9) & 0x1FF, w >> 18);
            let any = a | b | c;
            once |= any << (9 * k);
            exactly_one |= (any & !((a & b) | (c & (a | b)))) << (9 * k);
        }
        let (mut cols_keep, mut cols_single) = (0u32, 0u32);
        for s in 0..3 {
            let keep = table[fold_stack(once >> (3 * s))] as usize;
            if keep == 0 {
                return Err(Contradiction);
            }
            triads |= (keep as u64) << (32 + 9 * s);
            let lone = keep & ALONE[keep] as usize & fold_stack(exactly_one >> (3 * s));
            cols_keep |= STACK_COLS[keep] << (3 * s);
            cols_single |= STACK_COLS[lone] << (3 * s);
        }
        let rows_done = lanes;
        for k in 0..3 {
            let band = |m: u32| spread((m >> (9 * k)) & 0x1FF);
            lanes[k] &= band(cols_keep) | !open[k];
            single[k] |= lanes[k] & band(cols_single);
            single[k] &= open[k];
        }
        let join = |m: [u32; 3]| u128::from(m[0]) | u128::from(m[1]) << 32 | u128::from(m[2]) << 64;
        Ok(Scanned {
            set: join(lanes),
            singles: join(single),
            again: (lanes[0] ^ rows_done[0])
                | (lanes[1] ^ rows_done[1])
                | (lanes[2] ^ rows_done[2])
                != 0,
            triads,
        })
    }

    /// The triad rule, once over the 54 triads (where a row or a column crosses a box: three cells,
    /// so three different digits). A digit is possible in a triad when one of its cells can hold it
    /// (placed cells included), forced when the triad is alone in its line or box (the line or box
    /// has no other place for it). Fewer than three possible or more than three forced digits is a
    /// contradiction; exactly three possible are all forced, so they leave the rest of the triad's
    /// line and box; exactly three forced are the triad's digits, so the others leave its cells.
    /// True when a set changed.
    ///
    /// Singles and locked candidates see one digit at a time; this sees what three cells hold
    /// together (a naked or a hidden triple of a line and a box at once), so it prunes the search
    /// trees (by how much: docs/performance.md §Design measurements). It reads the triad masks the
    /// scans left in the board (the forced triads follow from them, see [`alone_in_box`]), so it
    /// must run with every digit clean: then a count over nine words finds the triads to act on,
    /// usually none.
    ///
    /// With `COUNTS` also returns how many digits each triad has possible ([`Counts`], else zeros):
    /// after the last call of a fixpoint, the counts [`Self::split`] ranks the regions by.
    #[inline(always)]
    fn triads<const COUNTS: bool>(&mut self) -> Result<(bool, Counts), Contradiction> {
        let (mut possible, mut forced) = (AtLeast::default(), AtLeast::default());
        // With `COUNTS`, possible digits in binary instead (the split needs exact counts, up to
        // nine): bit-sliced carries in place of at-least-k slices. (Both cost the same seven
        // operations a digit, but the checks below take more on binary counts: the
        // first-solution search, which does not split, keeps the slices.)
        let mut count: Counts = [0; 4];
        // A loop rather than `map`, which the compiler leaves out of line.
        let mut alone = [0u64; 9];
        for (a, &t) in alone.iter_mut().zip(&self.triads) {
            *a = alone_in_box(t);
        }
        for (&mine, &forced_here) in self.triads.iter().zip(&alone) {
            if COUNTS {
                let mut carry = mine;
                for c in count.iter_mut() {
                    let next = *c & carry;
                    *c ^= carry;
                    carry = next;
                }
            } else {
                possible.add(mine);
            }
            forced.add(forced_here);
        }
        // Triads with three possible digits or more, and with exactly three.
        let (three_up, full) = if COUNTS {
            let [c0, c1, c2, c3] = count;
            ((c0 & c1) | c2 | c3, c0 & c1 & !(c2 | c3))
        } else {
            (possible.n[2], possible.n[2] & !possible.n[3])
        };
        if three_up != ALL_TRIADS || forced.n[3] != 0 {
            return Err(Contradiction);
        }
        // Triads with exactly three possible digits, and with exactly three forced. Where both
        // hold the two sets are one, and there is nothing to do (full triads, mostly).
        let three = forced.n[2];
        if full == three {
            return Ok((false, count));
        }
        let mut changed = false;
        for d in 0..9 {
            let (mine, alone) = (self.triads[d], alone[d]);
            // The triads the digit must fill, and those it must leave (besides those crossing
            // the former: they go by `CROSS`).
            let (fill, leave) = (full & mine, three & mine & !alone);
            if fill | leave == 0 {
                continue;
            }
            let drop = |at: u32| -> usize {
                let m = |x: u64| (x >> at) as usize & 0x1FF;
                (CROSS[m(fill)] as usize | m(leave)) & m(mine)
            };
            let mut gone = [0u32; 3];
            let mut cols = 0u32;
            for k in 0..3 {
                gone[k] = TRIAD_CELLS[drop(9 * k as u32)];
                cols |= STACK_COLS[drop(32 + 9 * k as u32)] << (3 * k);
            }
            let band = |k: usize| u128::from(gone[k] | spread((cols >> (9 * k)) & 0x1FF));
            let gone = (band(0) | band(1) << 32 | band(2) << 64) & self.unsolved;
            let set = self.pos[d];
            if set & gone != 0 {
                self.pos[d] = set & !gone;
                self.dirty |= 1 << d;
                changed = true;
            }
        }
        Ok((changed, count))
    }

    /// [`Self::propagate_counted`] for the tests, which checks on the way that both of its
    /// builds reach the same fixpoint and that the counts it returns are those of the board.
    #[cfg(test)]
    pub(crate) fn propagate(&mut self, rules: Rules) -> Result<(), Contradiction> {
        let mut counted = *self;
        let with_counts = counted.propagate_counted::<true>(rules);
        let plain = self.propagate_counted::<false>(rules).map(|_| ());
        assert_eq!(with_counts.map(|_| ()), plain);
        if let Ok(count) = with_counts {
            assert_eq!((counted.pos, counted.unsolved), (self.pos, self.unsolved));
            if rules == Rules::Triads && self.unsolved != 0 {
                // Triad by triad, how many digits' words have it.
                let mut recount = [0u64; 4];
                for i in 0..64 {
                    let n = self.triads.iter().filter(|&&t| t >> i & 1 == 1).count() as u64;
                    for (j, c) in recount.iter_mut().enumerate() {
                        *c |= (n >> j & 1) << i;
                    }
                }
                assert_eq!(count, recount);
            }
        }
        plain
    }

    /// The fixpoint of `rules`. On `Err` the board is garbage. [`Rules::Triads`] reads the
    /// triad masks that earlier scans saved for digits still clean, and only scans under it save
    /// them: a board propagated with it must have been propagated with it since [`Self::new`]
    /// (the search keeps it to the nodes nearest the root, whose ancestors all use it).
    ///
    /// With `COUNTS`, under [`Rules::Triads`], returns how many digits each triad has possible
    /// at the fixpoint (see [`Self::triads`]) for [`Self::split`], which would otherwise count
    /// them again; zeros without it or under the other rules, meaningless on a solved board.
    /// Only the uniqueness search splits, so only its build takes the counts: the triad rule's
    /// checks cost a few operations more on them.
    #[inline(always)]
    pub(crate) fn propagate_counted<const COUNTS: bool>(
        &mut self,
        rules: Rules,
    ) -> Result<Counts, Contradiction> {
        let locked = rules != Rules::Singles;
        // Whether a set changed since the last naked-singles pass. Naked singles go first: their
        // pass is the cheapest and places the most.
        let mut changed = true;
        loop {
            if self.unsolved == 0 {
                return Ok([0; 4]);
            }
            if changed {
                changed = false;
                let singles = self.naked_singles()?;
                if singles != 0 {
                    // The digits with singles first, without a branch per digit: which ones
                    // have some is unpredictable, a loop over a mask of them mispredicts once.
                    let mut digits = 0u16;
                    for &set in self.pos.iter().rev() {
                        digits = digits << 1 | u16::from(singles & set != 0);
                    }
                    while digits != 0 {
                        let d = digits.trailing_zeros() as usize;
                        digits &= digits - 1;
                        // A single that lost its last candidate to an earlier placement of this
                        // pass is in no set any more: then no cell is placed here, and the next
                        // pass reports the cell.
                        self.place_sole(d, singles & self.pos[d])?;
                    }
                    changed = true;
                    continue;
                }
            }
            if self.dirty == 0 {
                if rules != Rules::Triads {
                    return Ok([0; 4]);
                }
                let (changed_any, count) = self.triads::<COUNTS>()?;
                if !changed_any {
                    return Ok(count);
                }
                changed = true;
                continue;
            }
            let mut round = self.dirty;
            self.dirty = 0;
            while round != 0 {
                let d = round.trailing_zeros() as usize;
                round &= round - 1;
                let Scanned {
                    set,
                    singles: cells,
                    again,
                    triads,
                } = self.scan(d, locked)?;
                if rules == Rules::Triads {
                    self.triads[d] = triads;
                }
                // Where locked candidates went, other cells may be singles, and where the
                // columns took some the digit's rows may have more. (No branch: whether they
                // did is unpredictable.)
                changed |= set != self.pos[d];
                self.pos[d] = set;
                self.dirty |= u16::from(again) << d;
                if cells != 0 {
                    self.place_all(d, cells)?;
                    changed = true;
                }
            }
        }
    }

    /// The cell to branch on: an unsolved cell with the fewest candidates; among those, with
    /// `most_peers`, one with the most unsolved peers (the most constrained, whose guesses prune
    /// the most; see docs/performance.md §Design measurements); then the first in row-major order.
    /// None when every cell is placed.
    #[inline(always)]
    pub(crate) fn branch_cell(&self, most_peers: bool) -> Option<usize> {
        if self.unsolved == 0 {
            return None;
        }
        let mut m = self.fewest();
        let mut best = (0, m.trailing_zeros());
        if most_peers {
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                let score = (PEERS_AT[p as usize] & self.unsolved).count_ones();
                if score > best.0 {
                    best = (score, p);
                }
            }
        }
        Some(cell_of(best.1))
    }

    /// The split of a uniqueness search at this fixpoint of [`Rules::Triads`] (which leaves every
    /// digit's exact triads in the board): the band or stack with the fewest possible (digit,
    /// triad) pairs, more than the 27 of a region where every digit is fixed, and in it the digit
    /// with the fewest configurations ([`CONFIGS`]), two or more. Ties go to the first region
    /// (bands, then stacks) and the lowest digit. None when the board is solved; only then is no
    /// region above 27 (an unsolved cell's digits each have two places or more in its box, so two
    /// triads in the box's band or stack).
    ///
    /// tdoku's rule (`BranchOnBandAndValue`), on configurations rather than cells, with the region
    /// ranked by its triads, which bit-sliced counters give in a few dozen operations, rather than
    /// by its configurations (54 look-ups): against bivalue cells it saves most on the hardest
    /// corpus and costs little elsewhere (see docs/performance.md §Design measurements).
    ///
    /// `count`: what [`Self::propagate_counted`] returned for this fixpoint (bit `i` of `count[j]`
    /// is bit `j` of how many digits have triad `i` of a band's or a stack's matrix possible),
    /// which the triad rule's last pass counted on these same triads.
    #[inline(always)]
    pub(crate) fn split(&self, count: &Counts) -> Option<Split> {
        // A solved board may have left the fixpoint before rescanning: its triads are stale.
        if self.unsolved == 0 {
            return None;
        }
        // Minima of (count, index) keys, so that ties go to the lower index, without a branch
        // per region or digit (which is taken is unpredictable).
        let mut best = u32::MAX;
        for (r, &at) in REGION_AT.iter().enumerate() {
            let field = 0x1FFu64 << at;
            let total: u32 = count
                .iter()
                .enumerate()
                .map(|(j, &c)| (c & field).count_ones() << j)
                .sum();
            // 27 when every digit is fixed in the region (three triads each).
            let key = if total > 27 {
                total << 3 | r as u32
            } else {
                u32::MAX
            };
            best = best.min(key);
        }
        if best == u32::MAX {
            return None;
        }
        let region = (best & 7) as usize;
        let at = REGION_AT[region];
        let mut pick = u32::MAX;
        for (d, &t) in self.triads.iter().enumerate() {
            let n = u32::from(CONFIG_COUNT[(t >> at) as usize & 0x1FF]);
            let key = if n >= 2 { n << 4 | d as u32 } else { u32::MAX };
            pick = pick.min(key);
        }
        let digit = (pick & 15) as usize;
        Some(Split {
            digit,
            region,
            configs: CONFIGS[(self.triads[digit] >> at) as usize & 0x1FF],
        })
    }

    /// Keeps configuration `k` of a [`Split`]: its digit leaves the region's cells outside the
    /// configuration's three triads.
    #[inline(always)]
    pub(crate) fn keep_config(&mut self, split: Split, k: usize) {
        let d = split.digit;
        let keep = CONFIG_CELLS[split.region][k] | !REGION_CELLS[split.region];
        let set = self.pos[d];
        self.pos[d] = set & keep;
        self.dirty |= u16::from(set & !keep != 0) << d;
    }

    /// The candidates that placing digit `d + 1` in `cell` takes from the cell's peers.
    #[inline(always)]
    pub(crate) fn takes(&self, d: usize, cell: usize) -> u32 {
        (PEERS[cell] & self.pos[d] & self.unsolved).count_ones()
    }

    /// The unsolved cells with the fewest candidates (some, if a cell is unsolved).
    #[inline(always)]
    fn fewest(&self) -> u128 {
        // At a fixpoint every unsolved cell has two candidates or more and almost always some
        // have exactly two: cells with one or more, two or more, three or more candidates
        // answer that case in a third of the work of a full count. Placed cells are in one set
        // only, so they are masked out once at the end.
        let (mut one, mut two, mut three) = (0u128, 0u128, 0u128);
        for &set in &self.pos {
            three |= two & set;
            two |= one & set;
            one |= set;
        }
        let pairs = two & !three & self.unsolved;
        if pairs != 0 && self.unsolved & !two == 0 {
            return pairs;
        }
        // Bit-sliced count of candidates per cell: bit j of every count in `count[j]`.
        let mut count = [0u128; 4];
        for &set in &self.pos {
            let mut carry = set & self.unsolved;
            for c in count.iter_mut() {
                let sum = *c ^ carry;
                carry &= *c;
                *c = sum;
            }
        }
        // Every unsolved cell has a count in 0..=9, so some `n` matches.
        for n in 0..=9 {
            let mut m = self.unsolved;
            for (j, &c) in count.iter().enumerate() {
                m &= if n >> j & 1 == 1 { c } else { !c };
            }
            if m != 0 {
                return m;
            }
        }
        0
    }

    /// The candidate digits of a cell (bit `d` for digit `d + 1`).
    #[inline(always)]
    pub(crate) fn candidates(&self, cell: usize) -> u16 {
        let b = bit(cell) & self.unsolved;
        let mut m = 0;
        for &set in self.pos.iter().rev() {
            m = m << 1 | u16::from(set & b != 0);
        }
        m
    }

    /// The grid: placed digits, 0 for unsolved cells.
    ///
    /// Bit-sliced: the four bits of every cell's value are four sets (bit `k` of a placed
    /// digit `d + 1` puts its cells in plane `k`), and each plane is spread to bytes eight cells
    /// at a look-up: a cell-by-cell walk of the 81 placed bits was a visible share of an easy
    /// puzzle's solve (see docs/performance.md §Design measurements).
    pub(crate) fn values(&self) -> Solution {
        let mut planes = [0u128; 4];
        for (d, &set) in self.pos.iter().enumerate() {
            let placed = set & !self.unsolved;
            for (k, plane) in planes.iter_mut().enumerate() {
                // Branch-free: all-ones when bit k of the value d + 1 is set.
                *plane |= placed & 0u128.wrapping_sub((d as u128 + 1) >> k & 1);
            }
        }
        // Each lane's 27 cells as four words of eight bytes, written at the lane's first cell
        // in lane order: a word's bytes past the lane are overwritten by the next lane's
        // (and the last lane's by nothing, in the padding).
        let mut out = [0u8; 81 + 8];
        for lane in 0..3 {
            let bits = planes.map(|p| (p >> (32 * lane)) as u32);
            for w in 0..4 {
                let mut word = 0;
                for (k, &b) in bits.iter().enumerate() {
                    word |= BYTES_OF[(b >> (8 * w) & 0xFF) as usize] << k;
                }
                let at = 27 * lane + 8 * w;
                out[at..at + 8].copy_from_slice(&word.to_le_bytes());
            }
        }
        let mut vals = [0u8; 81];
        vals.copy_from_slice(&out[..81]);
        vals
    }
}

/// The tests' reference for [`Rules`]: the rules on the cell-major [`Board`], written
/// separately and plainly (unit by unit, triad by triad).
#[cfg(test)]
pub(crate) mod reference {
    use super::Rules;
    use crate::sudoku::cands::{Board, Pending, ALL};
    use crate::sudoku::contradiction::Contradiction;
    use crate::sudoku::grid::{COL, ROW, UNITS};
    use crate::sudoku::logic::singles_and_locked;

    /// The 54 triads: each as its three cells, the other six cells of its line (row or column)
    /// and the other six of its box.
    fn triads() -> Vec<([usize; 3], Vec<usize>, Vec<usize>)> {
        let mut out = Vec::new();
        for (line, members) in UNITS.iter().enumerate().take(18) {
            for b in 0..3 {
                // Row `line` crosses boxes 3 * (line / 3) + b; column `line - 9` crosses boxes
                // b * 3 + (line - 9) / 3.
                let bx = if line < 9 {
                    3 * (line / 3) + b
                } else {
                    3 * b + (line - 9) / 3
                };
                let cells: Vec<usize> = members
                    .iter()
                    .map(|&c| usize::from(c))
                    .filter(|c| UNITS[18 + bx].contains(&(*c as u8)))
                    .collect();
                let rest = |u: usize| -> Vec<usize> {
                    UNITS[u]
                        .iter()
                        .map(|&c| usize::from(c))
                        .filter(|c| !cells.contains(c))
                        .collect()
                };
                out.push(([cells[0], cells[1], cells[2]], rest(line), rest(18 + bx)));
            }
        }
        // The cells of a row triad share a row; of a column triad, a column.
        assert!(out.iter().take(27).all(|(c, _, _)| ROW[c[0]] == ROW[c[2]]));
        assert!(out.iter().skip(27).all(|(c, _, _)| COL[c[0]] == COL[c[2]]));
        out
    }

    /// One pass of the triad rule over all 54 triads (see `Bitboard::triads`). True when a
    /// candidate went.
    pub(crate) fn triad_rule(b: &mut Board, pending: &mut Pending) -> Result<bool, Contradiction> {
        let has = |b: &Board, c: usize| {
            if b.vals[c] != 0 {
                1u16 << (b.vals[c] - 1)
            } else {
                b.cand[c]
            }
        };
        let any = |b: &Board, cells: &[usize]| cells.iter().fold(0, |m, &c| m | has(b, c));
        let mut changed = false;
        for (cells, line, bx) in triads() {
            let possible = any(b, &cells);
            let forced = possible & !(any(b, &line) & any(b, &bx));
            if possible.count_ones() < 3 || forced.count_ones() > 3 {
                return Err(Contradiction);
            }
            if possible.count_ones() == 3 {
                for &c in line.iter().chain(&bx) {
                    changed |= b.eliminate(c, possible, pending)?;
                }
            }
            if forced.count_ones() == 3 {
                for &c in &cells {
                    changed |= b.eliminate(c, ALL & !forced, pending)?;
                }
            }
        }
        Ok(changed)
    }

    /// The fixpoint of `rules`. On `Err` the board is garbage and `pending` is cleared.
    pub(crate) fn fixpoint(
        b: &mut Board,
        pending: &mut Pending,
        rules: Rules,
    ) -> Result<(), Contradiction> {
        loop {
            match rules {
                Rules::Singles => return b.propagate(pending),
                Rules::Locked => return singles_and_locked(b, pending).map(|_| ()),
                Rules::Triads => {
                    singles_and_locked(b, pending)?;
                    match triad_rule(b, pending) {
                        Ok(true) => {}
                        Ok(false) => return Ok(()),
                        Err(e) => {
                            pending.clear();
                            return Err(e);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::cands::{Board, Pending};
    use crate::sudoku::testdata::{corpus, demo_puzzle, demo_solution, puzzle, random_puzzle};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// Candidates per cell as [`Board`] keeps them: 0 for a placed cell.
    fn cands(b: &Bitboard) -> [u16; 81] {
        std::array::from_fn(|c| b.candidates(c))
    }

    /// The hidden singles of digit `d`.
    fn hidden(b: &Bitboard, d: usize) -> Result<u128, Contradiction> {
        b.scan(d, false).map(|s| s.singles)
    }

    fn propagated(p: &SudokuPuzzle) -> Option<Bitboard> {
        let mut b = Bitboard::new(p).ok()?;
        b.propagate(Rules::Locked).ok()?;
        Some(b)
    }

    #[test]
    fn given_sets_agree_with_a_walk_over_the_cells() {
        let mut rng = Pcg64Mcg::seed_from_u64(13);
        let mut grids: Vec<[u8; 81]> =
            vec![[0; 81], [9; 81], std::array::from_fn(|c| c as u8 % 10)];
        for _ in 0..500 {
            grids.push(std::array::from_fn(|_| rng.random_range(0..=9)));
        }
        for cells in &grids {
            let sets = given_sets(cells);
            assert_eq!(sets, given_sets_portable(cells), "{cells:?}");
            for (c, &v) in cells.iter().enumerate() {
                for (d, &set) in sets.iter().enumerate() {
                    assert_eq!(set & bit(c) != 0, usize::from(v) == d + 1, "cell {c}");
                }
            }
            assert!(sets.iter().all(|&set| set & !CELLS == 0));
        }
    }

    #[test]
    fn values_are_the_placed_digits() {
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        for keep in [0, 17, 30, 50, 81] {
            for _ in 0..50 {
                let p = random_puzzle(&mut rng, keep, 0);
                // A fresh board has the givens placed and nothing else.
                let b = Bitboard::new(&p).expect("a random puzzle's givens are consistent");
                assert_eq!(&b.values(), p.cells());
                // Propagated, each placed cell shows its digit and every other cell 0.
                let Some(b) = propagated(&p) else { continue };
                let vals = b.values();
                for (c, &v) in vals.iter().enumerate() {
                    if b.unsolved & bit(c) != 0 {
                        assert_eq!(v, 0, "cell {c}");
                    } else {
                        // A placed cell stays in its own digit's set only.
                        let owners: Vec<usize> =
                            (0..9).filter(|&d| b.pos[d] & bit(c) != 0).collect();
                        assert_eq!(owners, [usize::from(v) - 1], "cell {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn layout_tables() {
        for (c, &peers) in PEERS.iter().enumerate() {
            assert_eq!(cell_of(bit(c).trailing_zeros()), c);
            assert_eq!(peers.count_ones(), 20);
            assert_eq!(peers & bit(c), 0);
            assert_eq!(peers & !CELLS, 0);
            assert_eq!(PEERS_AT[bit(c).trailing_zeros() as usize], peers);
        }
        assert_eq!(CELLS.count_ones(), 81);
        // Every other entry, 128 (an empty set's `trailing_zeros`) among them, has no peers.
        assert_eq!(PEERS_AT.len(), 129);
        for (pos, &peers) in PEERS_AT.iter().enumerate() {
            if pos >= 128 || CELLS >> pos & 1 == 0 {
                assert_eq!(peers, 0, "{pos}");
            }
        }
    }

    /// Placing one to five cells that do not see each other takes every one's peers from the
    /// digit, whichever of them the look-ups without a branch cover; two that do see each other
    /// are a contradiction.
    #[test]
    fn place_sole_takes_the_peers_of_every_cell() {
        let empty = SudokuPuzzle::new([0; 81]).unwrap();
        // r1c1, r2c4, r3c7, r4c2, r5c5: rows, columns and boxes all different.
        let apart = [0, 12, 24, 28, 40];
        for n in 0..=apart.len() {
            let mut b = Bitboard::new(&empty).unwrap();
            b.dirty = 0;
            let cells = apart[..n].iter().fold(0, |m, &c| m | bit(c));
            let peers = apart[..n].iter().fold(0, |m, &c| m | PEERS[c]);
            assert_eq!(b.place_sole(3, cells), Ok(()));
            assert_eq!(b.pos[3], CELLS & !peers, "{n} cells");
            assert_eq!(b.unsolved, CELLS & !cells);
            assert_eq!(b.dirty >> 3 & 1, u16::from(n > 0));
        }
        let mut b = Bitboard::new(&empty).unwrap();
        // r1c1 and r1c9 share a row.
        assert_eq!(
            b.place_sole(0, bit(0) | bit(12) | bit(8)),
            Err(Contradiction)
        );
    }

    /// The triad matrix with its two indices swapped (bit `3 * i + j` to bit `3 * j + i`).
    fn transpose(m: usize) -> usize {
        (0..9).fold(0, |t, i| t | (m >> i & 1) << (3 * (i % 3) + i / 3))
    }

    /// The scan may index a triad matrix either way round (box or line first): the tables must
    /// not mind.
    #[test]
    fn tables_are_symmetric() {
        for m in 0..512 {
            let t = transpose(m);
            assert_eq!(transpose(t), m);
            assert_eq!(usize::from(LOCKED[t]), transpose(usize::from(LOCKED[m])));
            assert_eq!(usize::from(CHECKED[t]), transpose(usize::from(CHECKED[m])));
            assert_eq!(usize::from(ALONE[t]), transpose(usize::from(ALONE[m])));
        }
    }

    /// The folds put each triad's bit where [`TRIAD_CELLS`] and [`STACK_COLS`] expect it.
    #[test]
    fn folds_match_the_cell_tables() {
        for i in 0..9 {
            let cells = TRIAD_CELLS[1 << i];
            // Three adjacent cells of one row: the triad of box i / 3 and row i % 3.
            assert_eq!(cells, 7 << (9 * (i % 3) + 3 * (i / 3)));
            assert_eq!(fold_rows(cells & TRIAD_BASE, 0), (1 << i, 0));
            assert_eq!(fold_rows(0, cells & TRIAD_BASE), (0, 1 << i));
            assert_eq!(fold_rows(TRIAD_BASE, cells & TRIAD_BASE), (0x1FF, 1 << i));
            // Band i / 3, column i % 3 of the first stack.
            let cols = STACK_COLS[1 << i];
            assert_eq!(cols, 1 << (9 * (i / 3) + i % 3));
            assert_eq!(fold_stack(cols), 1 << i);
            // The same column in the second or third stack is not the first stack's.
            assert_eq!(fold_stack(cols << 3), 0);
            assert_eq!(fold_stack(cols << 6), 0);
        }
        // Every matrix, whatever the other stacks' columns hold (the multiplication must not
        // carry, nor lose a bit that leaves the word).
        for (m, &cols) in STACK_COLS.iter().enumerate() {
            for other in [0, ((1 << 27) - 1) & !STACK_0, !STACK_0] {
                assert_eq!(fold_stack(cols | other), m, "{m:#x} {other:#x}");
            }
            assert_eq!(fold_stack(cols << 3), 0);
        }
    }

    /// The configurations: six matchings of a triad matrix, counted right, and each one's cells
    /// three triads of its region, one per box, in three different rows (a band) or columns (a
    /// stack); together the six cover the region.
    #[test]
    fn configuration_tables() {
        for (k, &p) in PERMS.iter().enumerate() {
            assert_eq!(p.count_ones(), 3);
            // One triad per line and per box.
            for i in 0..3 {
                assert_eq!((usize::from(p) & line_mask(i)).count_ones(), 1, "{k}");
                assert_eq!((usize::from(p) & box_mask(i)).count_ones(), 1, "{k}");
            }
        }
        for (m, &count) in CONFIG_COUNT.iter().enumerate() {
            let brute = PERMS
                .iter()
                .filter(|&&p| m & usize::from(p) == usize::from(p))
                .count();
            assert_eq!(usize::from(count), brute);
        }
        assert_eq!(CONFIGS[0x1FF], 0x3F);
        for r in 0..6 {
            assert_eq!(REGION_CELLS[r].count_ones(), 27);
            let mut all = 0;
            for &cells in &CONFIG_CELLS[r] {
                assert_eq!(cells & !REGION_CELLS[r], 0);
                let list: Vec<usize> = (0..81).filter(|&c| cells & bit(c) != 0).collect();
                assert_eq!(list.len(), 9);
                let (rows, cols, boxes) = (
                    |c: &usize| c / 9,
                    |c: &usize| c % 9,
                    |c: &usize| c / 27 * 3 + c % 9 / 3,
                );
                let distinct = |f: &dyn Fn(&usize) -> usize| {
                    let mut v: Vec<usize> = list.iter().map(f).collect();
                    v.sort_unstable();
                    v.dedup();
                    v.len()
                };
                assert_eq!(distinct(&boxes), 3);
                // A band's configuration: three rows, each a triad (three columns); a stack's:
                // three columns.
                if r < 3 {
                    assert_eq!(distinct(&rows), 3);
                } else {
                    assert_eq!(distinct(&cols), 3);
                }
                all |= cells;
            }
            assert_eq!(all, REGION_CELLS[r]);
        }
    }

    #[test]
    fn singles_solve_the_demo() {
        let b = propagated(&demo_puzzle()).unwrap();
        assert_eq!(b.values(), demo_solution());
        assert_eq!(b.branch_cell(true), None);
    }

    #[test]
    fn hidden_singles_in_a_row_a_column_and_a_box() {
        // Digit 1 in r2c4 and r3c7 leaves row 1 one place for it among c1-c3, and the 2 and 3 in
        // r1c2, r1c3 pin it to r1c1: a hidden single in row 1 (and in box 1).
        let mut line = String::from(".23......");
        line.push_str("...1.....");
        line.push_str("......1..");
        line.push_str(&".".repeat(54));
        let b = Bitboard::new(&puzzle(&line)).unwrap();
        assert_eq!(hidden(&b, 0), Ok(bit(0)));
        // Column: 5s in r1..r8 outside column 9 leave r9c9 the only 5 of column 9.
        let mut cells = [0u8; 81];
        for (r, c) in [
            (0, 0),
            (1, 3),
            (2, 6),
            (3, 1),
            (4, 4),
            (5, 7),
            (6, 2),
            (7, 5),
        ] {
            cells[r * 9 + c] = 5;
        }
        let b = Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap();
        assert_eq!(hidden(&b, 4), Ok(bit(80)));
        // Box: 7s in rows 1 and 2 and in columns 1 and 2 leave r3c3 the only 7 of box 1.
        let mut cells = [0u8; 81];
        for (r, c) in [(0, 4), (1, 7), (4, 0), (7, 1)] {
            cells[r * 9 + c] = 7;
        }
        let b = Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap();
        assert_eq!(hidden(&b, 6), Ok(bit(20)));
        // The fixpoint places it.
        let mut b = b;
        b.propagate(Rules::Locked).unwrap();
        assert_eq!(b.values()[20], 7);
    }

    #[test]
    fn a_unit_without_a_place_is_a_contradiction() {
        // Row 1 holds 1-8 and column 9 a 9 lower down: r1c9 has no candidate, which `new` reports.
        let mut line = String::from("12345678.");
        line.push_str(&".".repeat(27));
        line.push_str("........9");
        line.push_str(&".".repeat(36));
        assert!(Bitboard::new(&puzzle(&line)).is_err());
        // 1s in rows 1-2 and columns 1-2 outside box 1, and a 5 in r3c3: box 1 has no place for 1
        // although every cell keeps candidates.
        let mut cells = [0u8; 81];
        for (r, c) in [(0, 3), (1, 6), (3, 0), (6, 1)] {
            cells[r * 9 + c] = 1;
        }
        cells[20] = 5;
        let b = Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap();
        assert_eq!(hidden(&b, 0), Err(Contradiction));
        let mut b = b;
        assert_eq!(b.propagate(Rules::Locked), Err(Contradiction));
    }

    /// A board from (row, column, digit) givens, 0-based rows and columns; transposed on request
    /// so one position checks both the row and the column code.
    fn board(givens: &[(usize, usize, u8)], transpose: bool) -> Bitboard {
        let mut cells = [0u8; 81];
        for &(r, c, v) in givens {
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            cells[r * 9 + c] = v;
        }
        Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap()
    }

    /// The cells (row, column; transposed on request) that locked candidates take digit 1 from.
    fn locked_removals(b: &mut Bitboard, transpose: bool) -> Vec<(usize, usize)> {
        let before = b.pos[0];
        let after = b.scan(0, true).unwrap().set;
        b.pos[0] = after;
        let gone = before & !after;
        assert_ne!(gone, 0);
        let mut cells: Vec<_> = (0..81)
            .filter(|&c| gone & bit(c) != 0)
            .map(|c| {
                if transpose {
                    (c % 9, c / 9)
                } else {
                    (c / 9, c % 9)
                }
            })
            .collect();
        cells.sort_unstable();
        cells
    }

    #[test]
    fn locked_candidates_pointing_and_claiming() {
        for transpose in [false, true] {
            // Pointing: box 1's second and third rows are full, so its 1 is in row 1 and the
            // rest of row 1 loses it.
            let givens: Vec<_> = (0..3)
                .flat_map(|c| [(1, c, 2 + c as u8), (2, c, 5 + c as u8)])
                .collect();
            let mut b = board(&givens, transpose);
            assert_eq!(
                locked_removals(&mut b, transpose),
                (3..9).map(|c| (0, c)).collect::<Vec<_>>()
            );
            // Nothing more to remove for 1: the scan reached the fixpoint of the rules.
            assert_eq!(b.scan(0, true).map(|s| s.set), Ok(b.pos[0]));
            // Claiming: row 1 outside box 1 is full, so its 1 is in box 1 and the box's other
            // rows lose it.
            let givens: Vec<_> = (3..9).map(|c| (0, c, c as u8 - 1)).collect();
            let mut b = board(&givens, transpose);
            assert_eq!(
                locked_removals(&mut b, transpose),
                [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
            );
        }
        // Propagation applies them: after the pointing position's fixpoint, row 1 keeps places
        // for 1 in box 1 only.
        let givens: Vec<_> = (0..3)
            .flat_map(|c| [(1, c, 2 + c as u8), (2, c, 5 + c as u8)])
            .collect();
        let mut b = board(&givens, false);
        b.propagate(Rules::Locked).unwrap();
        assert_eq!(
            b.pos[0] & (0..9).fold(0, |m, c| m | bit(c)),
            bit(0) | bit(1) | bit(2)
        );
    }

    #[test]
    fn two_boxes_pointing_at_one_row_is_a_contradiction() {
        // Boxes 1 and 2 both have their 1 confined to row 1: row 1 would need two 1s (and box 3
        // is claimed by both rows 2 and 3).
        let mut givens: Vec<_> = (0..3)
            .flat_map(|c| [(1, c, 2 + c as u8), (2, c, 5 + c as u8)])
            .collect();
        givens.extend((3..6).flat_map(|c| [(1, c, 5 + c as u8 - 3), (2, c, 2 + c as u8 - 3)]));
        let b = board(&givens, false);
        // Singles alone see no contradiction yet; locked candidates do.
        assert!(hidden(&b, 0).is_ok());
        assert!(b.scan(0, true).is_err());
        let mut b = board(&givens, false);
        assert_eq!(b.propagate(Rules::Locked), Err(Contradiction));
    }

    #[test]
    fn two_lines_claiming_one_box_is_a_contradiction() {
        // Columns 1 and 2 are full below band 1, so both have their 1 in box 1: it would need
        // two (and boxes 4 and 7 both need column 3). Transposed: rows 1 and 2, full right of
        // stack 1.
        let mut givens: Vec<_> = (3..6)
            .flat_map(|r| [(r, 0, r as u8 - 1), (r, 1, r as u8 + 2)])
            .collect();
        givens.extend((6..9).flat_map(|r| [(r, 0, r as u8 - 1), (r, 1, r as u8 - 4)]));
        for transpose in [false, true] {
            let b = board(&givens, transpose);
            assert!(hidden(&b, 0).is_ok());
            assert!(b.scan(0, true).is_err());
            let mut b = b;
            assert_eq!(b.propagate(Rules::Locked), Err(Contradiction));
        }
    }

    /// The candidates of (row, column), transposed on request.
    fn cands_at(b: &Bitboard, r: usize, c: usize, transpose: bool) -> u16 {
        let (r, c) = if transpose { (c, r) } else { (r, c) };
        b.candidates(r * 9 + c)
    }

    /// The board of `givens` at its fixpoint without the triad rule, and at its fixpoint with it.
    fn locked_and_triads(givens: &[(usize, usize, u8)], transpose: bool) -> (Bitboard, Bitboard) {
        let mut locked = board(givens, transpose);
        locked.propagate(Rules::Locked).unwrap();
        let mut triads = board(givens, transpose);
        triads.propagate(Rules::Triads).unwrap();
        (locked, triads)
    }

    #[test]
    fn triad_rule_naked_triple_of_a_triad() {
        // Row 1 holds 7, 8, 9 in c4-c6 and box 1 holds 4, 5, 6 in row 2: r1c1-r1c3 can only
        // hold 1, 2, 3, all three of them, so the rest of row 1 and of box 1 loses 1, 2 and 3.
        // No digit alone sees it: each of 1, 2, 3 keeps places outside the triad in row 1 and
        // in box 1.
        let givens = [
            (0, 3, 7),
            (0, 4, 8),
            (0, 5, 9),
            (1, 0, 4),
            (1, 1, 5),
            (1, 2, 6),
        ];
        for transpose in [false, true] {
            let (locked, triads) = locked_and_triads(&givens, transpose);
            for c in 0..3 {
                assert_eq!(cands_at(&triads, 0, c, transpose), 0b111);
            }
            for (r, c) in [(0, 6), (0, 7), (0, 8), (2, 0), (2, 1), (2, 2)] {
                assert_ne!(cands_at(&locked, r, c, transpose) & 0b111, 0, "{r} {c}");
                assert_eq!(cands_at(&triads, r, c, transpose) & 0b111, 0, "{r} {c}");
            }
            // What is left for those cells: 4, 5, 6 in row 1; 7, 8, 9 in box 1.
            assert_eq!(cands_at(&triads, 0, 6, transpose), 0b111 << 3);
            assert_eq!(cands_at(&triads, 2, 0, transpose), 0b111 << 6);
        }
    }

    #[test]
    fn triad_rule_hidden_triple_of_a_triad() {
        // 1, 2 and 3 in rows 2 and 3 of boxes 2 and 3 leave row 1 no place for them outside
        // r1c1-r1c3: the triad holds exactly 1, 2, 3, and its cells lose every other digit.
        let givens = [
            (1, 3, 1),
            (1, 4, 2),
            (1, 5, 3),
            (2, 6, 1),
            (2, 7, 2),
            (2, 8, 3),
        ];
        for transpose in [false, true] {
            let (locked, triads) = locked_and_triads(&givens, transpose);
            for c in 0..3 {
                assert_eq!(cands_at(&locked, 0, c, transpose), ALL_DIGITS);
                assert_eq!(cands_at(&triads, 0, c, transpose), 0b111);
            }
        }
    }

    #[test]
    fn triad_rule_four_digits_forced_into_a_triad_is_a_contradiction() {
        // As above with 4 added: row 1 must put 1, 2, 3 and 4 into three cells. Each digit alone
        // still has three places, so only the triad rule sees it.
        let givens = [
            (1, 3, 1),
            (1, 4, 2),
            (1, 5, 3),
            (2, 3, 4),
            (1, 6, 4),
            (2, 6, 1),
            (2, 7, 2),
            (2, 8, 3),
        ];
        for transpose in [false, true] {
            let mut b = board(&givens, transpose);
            b.propagate(Rules::Locked).unwrap();
            let mut b = board(&givens, transpose);
            assert_eq!(b.propagate(Rules::Triads), Err(Contradiction));
        }
    }

    /// Outcomes seen by [`lockstep`]: fixpoints solved, fixpoints that need a guess, and
    /// contradictions.
    #[derive(Default)]
    struct Seen {
        solved: u32,
        stuck: u32,
        contradictions: u32,
        nodes: u32,
    }

    /// Propagates both boards to the fixpoint of `rules` (the reference: [`reference::fixpoint`]
    /// on [`Board`]) and checks they agree, and agree on the cell to branch on (with singles
    /// alone, the previous rule; else the current one), then does the same for every child of
    /// the branching cell, depth first, until `seen.nodes` reaches `budget`. Search states reach
    /// contradictions the givens of a puzzle rarely do (a digit with no place left in a unit
    /// although every cell keeps a candidate).
    fn lockstep(
        mut old: Board,
        mut new: Bitboard,
        pending: &mut Pending,
        seen: &mut Seen,
        budget: u32,
        line: &str,
        rules: Rules,
    ) {
        seen.nodes += 1;
        let ok = reference::fixpoint(&mut old, pending, rules).is_ok();
        assert_eq!(
            ok,
            new.propagate(rules).is_ok(),
            "{line} at node {} {rules:?}",
            seen.nodes
        );
        if !ok {
            seen.contradictions += 1;
            return;
        }
        assert_eq!(old.vals, new.values(), "{line} at node {}", seen.nodes);
        assert_eq!(old.cand, cands(&new), "{line} at node {}", seen.nodes);
        let most_peers = rules != Rules::Singles;
        let cell = old.branch_cell(most_peers);
        assert_eq!(
            cell,
            new.branch_cell(most_peers),
            "{line} at node {}",
            seen.nodes
        );
        let Some(cell) = cell else {
            seen.solved += 1;
            return;
        };
        seen.stuck += 1;
        let mut rest = old.cand[cell];
        while rest != 0 && seen.nodes < budget {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let (mut o, mut n) = (old, new);
            // After a fixpoint no peer is down to one candidate, so neither placement fails.
            o.place(cell, bit, pending).unwrap();
            n.place(bit.trailing_zeros() as usize, cell).unwrap();
            lockstep(o, n, pending, seen, budget, line, rules);
        }
    }

    #[test]
    fn fixpoints_match_the_reference_along_search_trees() {
        for rules in [Rules::Singles, Rules::Locked, Rules::Triads] {
            let mut rng = Pcg64Mcg::seed_from_u64(7);
            let mut seen = Seen::default();
            for i in 0..1500 {
                let keep = rng.random_range(17..36);
                let noise = if i % 2 == 0 {
                    0
                } else {
                    rng.random_range(1..6)
                };
                let p = random_puzzle(&mut rng, keep, noise);
                let line = p.to_line();
                let mut pending = Pending::new();
                match (Board::new(&p, &mut pending), Bitboard::new(&p)) {
                    (Ok(old), Ok(new)) => {
                        let budget = seen.nodes + 60;
                        lockstep(old, new, &mut pending, &mut seen, budget, &line, rules);
                    }
                    (Err(_), Err(_)) => pending.clear(),
                    _ => panic!("{line}: only one board reports a contradiction"),
                }
            }
            // The sample covers all three outcomes.
            let counts = (seen.solved, seen.stuck, seen.contradictions);
            assert!(
                counts.0 > 1000 && counts.1 > 5000 && counts.2 > 500,
                "{rules:?}: {counts:?}"
            );
        }
    }

    #[test]
    fn fixpoints_match_the_reference_on_the_corpus() {
        let Some(text) = corpus("puzzles3_magictour_top1465.txt") else {
            return;
        };
        let all = crate::sudoku::parse::parse_lines(&text).unwrap();
        for rules in [Rules::Singles, Rules::Locked, Rules::Triads] {
            let mut seen = Seen::default();
            for p in all.iter().step_by(7) {
                let mut pending = Pending::new();
                let old = Board::new(&p.puzzle, &mut pending).unwrap();
                let new = Bitboard::new(&p.puzzle).unwrap();
                let budget = seen.nodes + 500;
                let line = p.puzzle.to_line();
                lockstep(old, new, &mut pending, &mut seen, budget, &line, rules);
            }
            assert!(seen.solved > 100, "{rules:?}: {}", seen.solved);
        }
    }
}
