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
        for (i, &v) in cells.iter().enumerate() {
            if v > 9 {
                return Err(GridError::BadValue {
                    at: Pos::of(i),
                    value: v,
                });
            }
        }
        // Scan units in the order rows, columns, boxes so the reported repeat is stable.
        for (u, members) in UNITS.iter().enumerate() {
            let mut seen = [usize::MAX; 10];
            for &c in members {
                let c = c as usize;
                let v = cells[c] as usize;
                if v == 0 {
                    continue;
                }
                if seen[v] != usize::MAX {
                    return Err(GridError::Repeat {
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
        Ok(SudokuPuzzle { cells })
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
}
