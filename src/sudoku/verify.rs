//! Independent check of a claimed solution. Deliberately naive and stateless: it shares no code
//! with the solvers (no tables, no bitmasks), so a bug there cannot hide a bug here.

use super::grid::{Pos, Solution, SudokuPuzzle, UnitKind};

/// What is wrong with a claimed solution, and where (1-based rows and columns).
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// A cell is not a digit 1-9 (for instance still blank).
    #[error("cell {at} holds {value}, expected a digit 1-9")]
    NotADigit {
        /// Where.
        at: Pos,
        /// What it holds.
        value: u8,
    },
    /// A given of the puzzle was changed.
    #[error("cell {at} is a given {given} but the solution has {found}")]
    GivenChanged {
        /// Where.
        at: Pos,
        /// The puzzle's given.
        given: u8,
        /// What the solution holds there.
        found: u8,
    },
    /// A digit appears twice in one unit (which also means another digit is missing there).
    #[error("digit {digit} appears twice in {unit} {index} ({first} and {second})")]
    Duplicate {
        /// The repeated digit.
        digit: u8,
        /// Which kind of unit.
        unit: UnitKind,
        /// The unit's 1-based number.
        index: usize,
        /// First cell holding it.
        first: Pos,
        /// Second cell holding it.
        second: Pos,
    },
}

/// Ok when every row, column and box of `solution` holds 1..9 once and every given of `puzzle`
/// is kept; otherwise the first violation found (cells, then givens, then rows, columns, boxes).
pub fn verify(puzzle: &SudokuPuzzle, solution: &Solution) -> Result<(), Violation> {
    for r in 0..9 {
        for c in 0..9 {
            let v = solution[r * 9 + c];
            if !(1..=9).contains(&v) {
                return Err(Violation::NotADigit {
                    at: Pos {
                        row: r + 1,
                        col: c + 1,
                    },
                    value: v,
                });
            }
        }
    }
    for r in 0..9 {
        for c in 0..9 {
            let g = puzzle.cells()[r * 9 + c];
            let v = solution[r * 9 + c];
            if g != 0 && g != v {
                return Err(Violation::GivenChanged {
                    at: Pos {
                        row: r + 1,
                        col: c + 1,
                    },
                    given: g,
                    found: v,
                });
            }
        }
    }
    for kind in [UnitKind::Row, UnitKind::Column, UnitKind::Box] {
        for u in 0..9 {
            // Positions of the unit's nine cells, written out per kind.
            let mut cells = [(0usize, 0usize); 9];
            for (k, slot) in cells.iter_mut().enumerate() {
                *slot = match kind {
                    UnitKind::Row => (u, k),
                    UnitKind::Column => (k, u),
                    UnitKind::Box => ((u / 3) * 3 + k / 3, (u % 3) * 3 + k % 3),
                };
            }
            let mut first_at: [Option<(usize, usize)>; 10] = [None; 10];
            for &(r, c) in &cells {
                let v = solution[r * 9 + c] as usize;
                if let Some((r0, c0)) = first_at[v] {
                    return Err(Violation::Duplicate {
                        digit: v as u8,
                        unit: kind,
                        index: u + 1,
                        first: Pos {
                            row: r0 + 1,
                            col: c0 + 1,
                        },
                        second: Pos {
                            row: r + 1,
                            col: c + 1,
                        },
                    });
                }
                first_at[v] = Some((r, c));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testdata::{demo_puzzle, demo_solution};

    fn demo() -> (SudokuPuzzle, Solution) {
        (demo_puzzle(), demo_solution())
    }

    #[test]
    fn accepts_the_solution() {
        let (p, s) = demo();
        assert_eq!(verify(&p, &s), Ok(()));
    }

    #[test]
    fn rejects_a_blank_cell() {
        let (p, mut s) = demo();
        s[40] = 0;
        let e = verify(&p, &s).unwrap_err();
        assert_eq!(e.to_string(), "cell r5c5 holds 0, expected a digit 1-9");
    }

    #[test]
    fn rejects_a_changed_given() {
        let (p, mut s) = demo();
        // r1c4 is a given 2 in the demo; swap it with r1c1 so rows stay duplicate-free.
        s.swap(0, 3);
        let e = verify(&p, &s).unwrap_err();
        assert!(matches!(e, Violation::GivenChanged { given: 2, .. }), "{e}");
        assert!(e.to_string().contains("r1c4"), "{e}");
    }

    #[test]
    fn rejects_row_column_and_box_duplicates() {
        let blank = SudokuPuzzle::new([0; 81]).unwrap();
        let (_, s) = demo();

        // Swapping two cells of one column keeps columns but breaks two rows.
        let mut t = s;
        t.swap(0, 9);
        let e = verify(&blank, &t).unwrap_err();
        assert!(
            matches!(
                e,
                Violation::Duplicate {
                    unit: UnitKind::Row,
                    index: 1,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("row 1"), "{e}");

        // Swapping two whole rows from different bands keeps rows and columns but breaks boxes.
        let mut t = s;
        for c in 0..9 {
            t.swap(c, 3 * 9 + c);
        }
        let e = verify(&blank, &t).unwrap_err();
        assert!(
            matches!(
                e,
                Violation::Duplicate {
                    unit: UnitKind::Box,
                    index: 1,
                    ..
                }
            ),
            "{e}"
        );

        // Swapping two cells of one row breaks two columns (rows stay fine).
        let mut t = s;
        t.swap(0, 1);
        let e = verify(&blank, &t).unwrap_err();
        match e {
            Violation::Duplicate {
                unit: UnitKind::Column,
                index,
                first,
                second,
                ..
            } => {
                assert_eq!(index, 1);
                assert_eq!(first.col, 1);
                assert_eq!(second.col, 1);
            }
            other => panic!("expected a column duplicate, got {other}"),
        }
    }
}
