//! The solver's three-valued bitboard state (white, black, unknown per cell).
//!
//! Bit layout: one `u64` per row for white and one for black; bit `c` is column `c`.
//!
//! ```text
//!   row r:  white[r] = 0b...00101   cells (r,0) and (r,2) white
//!           black[r] = 0b...00010   cell  (r,1) black
//!   unknown = !(white | black) & row_mask(width)
//! ```
//!
//! The state is a plain `Copy` value (1 KiB); the search copies it to branch instead of keeping
//! an undo log.

use super::grid::{Shading, MAX_SIDE};

/// Zero-sized marker: the state cannot be extended to a solution. Not an error: the search
/// simply prunes the branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contradiction;

/// A partial shading: each cell white, black or unknown (neither bit set).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct State {
    /// Row `r`, bit `c`: cell `(r, c)` is white.
    pub(crate) white: [u64; MAX_SIDE],
    /// Row `r`, bit `c`: cell `(r, c)` is black.
    pub(crate) black: [u64; MAX_SIDE],
}

impl State {
    /// All cells unknown.
    pub(crate) fn empty() -> Self {
        State {
            white: [0; MAX_SIDE],
            black: [0; MAX_SIDE],
        }
    }

    /// Number of fixed (white or black) cells in the first `height` rows.
    pub(crate) fn fixed_count(&self, height: usize) -> u32 {
        (0..height)
            .map(|r| (self.white[r] | self.black[r]).count_ones())
            .sum()
    }

    /// The black cells as a [`Shading`]; unknown cells count as white.
    pub(crate) fn shading(&self, width: usize, height: usize) -> Shading {
        // One exactly sized allocation: a `flat_map` has no exact length, and collecting it
        // reallocated four times or so per answer.
        let mut black = Vec::with_capacity(width * height);
        for &row in &self.black[..height] {
            black.extend((0..width).map(|c| row >> c & 1 != 0));
        }
        // Dimensions come from a valid puzzle, so this cannot fail.
        Shading::new(width, height, black).expect("state dimensions come from a valid puzzle")
    }
}

/// The mask of the `width` low bits (the cells of one row).
#[inline]
pub(crate) fn row_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
