//! The puzzle type: 81 cells, `0` for a blank, with givens that never repeat in a unit.

use std::fmt;

/// A solved grid, row-major, every cell `1..=9`.
pub type Solution = [u8; 81];

/// The three kinds of unit a digit must appear in exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A row, numbered 1..=9 from the top.
    Row,
    /// A column, numbered 1..=9 from the left.
    Column,
    /// A 3x3 box, numbered 1..=9 row-major from the top left.
    Box,
}

impl UnitKind {
    /// Lower-case name as used in messages.
    pub fn name(self) -> &'static str {
        match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        }
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A 1-based (row, column) position, displayed as `r3c7`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Row, 1..=9.
    pub row: usize,
    /// Column, 1..=9.
    pub col: usize,
}

impl Pos {
    /// The 1-based position of a row-major cell index `0..81`.
    pub fn of(cell: usize) -> Pos {
        Pos {
            row: cell / 9 + 1,
            col: cell % 9 + 1,
        }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}

/// Why a cell array is not a valid puzzle.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum GridError {
    /// A cell holds something other than `0..=9`.
    #[error("cell {at} holds {value}, expected 0 (blank) or a digit 1-9")]
    BadValue {
        /// Where.
        at: Pos,
        /// The offending value.
        value: u8,
    },
    /// A given digit appears twice in one unit.
    #[error("given {digit} repeats in {unit} {index} ({})", describe_pair(*.unit, *.first, *.second))]
    Repeat {
        /// The repeated digit.
        digit: u8,
        /// Which kind of unit.
        unit: UnitKind,
        /// The unit's 1-based number.
        index: usize,
        /// The first cell holding the digit (row-major order).
        first: Pos,
        /// The second cell holding the digit.
        second: Pos,
    },
}

/// "columns 3 and 7" inside a row, "rows 1 and 6" inside a column, "r1c7 and r2c9" inside a box:
/// the shortest text that still names both cells.
fn describe_pair(unit: UnitKind, a: Pos, b: Pos) -> String {
    match unit {
        UnitKind::Row => format!("columns {} and {}", a.col, b.col),
        UnitKind::Column => format!("rows {} and {}", a.row, b.row),
        UnitKind::Box => format!("{a} and {b}"),
    }
}

/// The first fault of a cell array, in the order messages promise: the first cell (row-major)
/// holding something other than `0..=9`, else the first repeat scanning rows, then columns,
/// then boxes, each unit in order. `None` for a valid grid.
fn first_fault(cells: &[u8; 81]) -> Option<GridError> {
    for (i, &v) in cells.iter().enumerate() {
        if v > 9 {
            return Some(GridError::BadValue {
                at: Pos::of(i),
                value: v,
            });
        }
    }
    for (u, members) in UNITS.iter().enumerate() {
        let mut seen = [usize::MAX; 10];
        for &c in members {
            let c = c as usize;
            let v = cells[c] as usize;
            if v == 0 {
                continue;
            }
            if seen[v] != usize::MAX {
                return Some(GridError::Repeat {
                    digit: v as u8,
                    unit: unit_kind(u),
                    index: u % 9 + 1,
                    first: Pos::of(seen[v]),
                    second: Pos::of(c),
                });
            }
            seen[v] = c;
        }
    }
    None
}

/// A Sudoku puzzle: row-major cells, `0` = blank, givens `1..=9` that never repeat in a row,
/// column or box (the constructor checks). It may still have no solution, or several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SudokuPuzzle {
    cells: [u8; 81],
}

impl SudokuPuzzle {
    /// Checks values (`0..=9`) and that no given repeats in its row, column or box; the error
    /// names the digit and both cells.
    pub fn new(cells: [u8; 81]) -> Result<Self, GridError> {
        // One pass with a digit mask per row, column and box accepts a valid grid (every
        // puzzle of a dataset, checked as it is loaded) in a few hundred instructions; only a
        // grid it refuses takes the scan that names the first fault.
        let mut rows = [0u16; 9];
        let mut cols = [0u16; 9];
        let mut boxes = [0u16; 9];
        let mut fault = false;
        for (i, &v) in cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let (r, c, b) = (i / 9, i % 9, BOX[i] as usize);
            let bit = 1u16 << (v & 15);
            if v > 9 || (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                fault = true;
                break;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        match fault.then(|| first_fault(&cells)).flatten() {
            Some(e) => Err(e),
            None => Ok(SudokuPuzzle { cells }),
        }
    }

    /// The cells, row-major, `0` for a blank.
    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// Number of givens (non-blank cells).
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// The usual one-line form: 81 characters, digits for givens, `.` for blanks.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) })
            .collect()
    }
}

impl fmt::Display for SudokuPuzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// Kind of unit `u` in [`UNITS`] numbering.
pub(crate) fn unit_kind(u: usize) -> UnitKind {
    match u / 9 {
        0 => UnitKind::Row,
        1 => UnitKind::Column,
        _ => UnitKind::Box,
    }
}

/// Row of each cell.
pub(crate) const ROW: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (i / 9) as u8;
        i += 1;
    }
    t
};

/// Column of each cell.
pub(crate) const COL: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (i % 9) as u8;
        i += 1;
    }
    t
};

/// Box of each cell (row-major numbering of boxes).
pub(crate) const BOX: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = ((i / 27) * 3 + (i % 9) / 3) as u8;
        i += 1;
    }
    t
};

/// The 27 units: rows 0..9, columns 9..18, boxes 18..27, each listing its cells in row-major order.
pub(crate) const UNITS: [[u8; 9]; 27] = {
    let mut t = [[0u8; 9]; 27];
    let mut k = 0;
    while k < 9 {
        let mut j = 0;
        while j < 9 {
            t[k][j] = (k * 9 + j) as u8;
            t[9 + k][j] = (j * 9 + k) as u8;
            t[18 + k][j] = ((k / 3) * 27 + (k % 3) * 3 + (j / 3) * 9 + j % 3) as u8;
            j += 1;
        }
        k += 1;
    }
    t
};

/// The 20 peers of each cell (same row, column or box, excluding the cell).
pub(crate) const PEERS: [[u8; 20]; 81] = {
    let mut t = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut p = 0;
        while p < 81 {
            if p != c && (ROW[p] == ROW[c] || COL[p] == COL[c] || BOX[p] == BOX[c]) {
                t[c][n] = p as u8;
                n += 1;
            }
            p += 1;
        }
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        for (c, peers) in PEERS.iter().enumerate() {
            let mut seen = [false; 81];
            for &p in peers {
                assert!(!seen[p as usize]);
                seen[p as usize] = true;
                assert_ne!(p as usize, c);
            }
        }
        for unit in &UNITS {
            let mut seen = [false; 81];
            for &c in unit {
                seen[c as usize] = true;
            }
            assert_eq!(seen.iter().filter(|&&s| s).count(), 9);
        }
        assert_eq!(UNITS[18 + 4][0], 30);
        assert_eq!(BOX[80], 8);
        assert_eq!(BOX[30], 4);
    }

    #[test]
    fn repeats_name_digit_and_both_cells() {
        let mut cells = [0u8; 81];
        cells[9 + 2] = 5;
        cells[9 + 6] = 5;
        let e = SudokuPuzzle::new(cells).unwrap_err();
        assert_eq!(e.to_string(), "given 5 repeats in row 2 (columns 3 and 7)");

        let mut cells = [0u8; 81];
        cells[3] = 4;
        cells[5 * 9 + 3] = 4;
        let e = SudokuPuzzle::new(cells).unwrap_err();
        assert_eq!(e.to_string(), "given 4 repeats in column 4 (rows 1 and 6)");

        let mut cells = [0u8; 81];
        cells[6] = 9;
        cells[9 + 8] = 9;
        let e = SudokuPuzzle::new(cells).unwrap_err();
        assert_eq!(e.to_string(), "given 9 repeats in box 3 (r1c7 and r2c9)");

        let mut cells = [0u8; 81];
        cells[80] = 10;
        let e = SudokuPuzzle::new(cells).unwrap_err();
        assert_eq!(
            e,
            GridError::BadValue {
                at: Pos { row: 9, col: 9 },
                value: 10
            }
        );
    }

    #[test]
    fn line_round_trip_and_givens() {
        let mut cells = [0u8; 81];
        cells[0] = 1;
        cells[80] = 9;
        let p = SudokuPuzzle::new(cells).unwrap();
        assert_eq!(p.givens(), 2);
        let line = p.to_line();
        assert_eq!(line.len(), 81);
        assert!(line.starts_with("1."));
        assert!(line.ends_with(".9"));
    }

    #[test]
    fn the_mask_pass_agrees_with_the_scan_that_names_faults() {
        // Grids from near-valid to crowded, and values past 9: whatever the one-pass check
        // accepts the naming scan finds no fault in, and what it refuses comes back with the
        // scan's fault.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let (mut valid, mut invalid) = (0, 0);
        for round in 0..20_000 {
            let mut cells = [0u8; 81];
            let filled = rng.random_range(0..=81);
            for _ in 0..filled {
                let at = rng.random_range(0..81);
                cells[at] = if round % 50 == 0 {
                    rng.random_range(0..=12)
                } else {
                    rng.random_range(1..=9)
                };
            }
            // Half of the rounds keep only the digits that fit, so valid grids are common.
            if round % 2 == 0 {
                let mut kept = [0u8; 81];
                for i in 0..81 {
                    kept[i] = cells[i];
                    if first_fault(&kept).is_some() {
                        kept[i] = 0;
                    }
                }
                cells = kept;
            }
            let want = first_fault(&cells);
            match SudokuPuzzle::new(cells) {
                Ok(p) => {
                    assert_eq!(want, None, "{cells:?}");
                    assert_eq!(p.cells(), &cells);
                    valid += 1;
                }
                Err(e) => {
                    assert_eq!(Some(e), want);
                    invalid += 1;
                }
            }
        }
        assert!(
            valid > 5_000 && invalid > 5_000,
            "{valid} valid, {invalid} invalid"
        );
    }
}
