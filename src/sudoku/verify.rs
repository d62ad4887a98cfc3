//! Independent check of a claimed solution. Stateless, and it shares no code with the solvers
//! (none of their tables, bitboards or propagation), so a bug there cannot hide a bug here.
//!
//! It runs on every answer of every run, where a solve takes a microsecond or two, so it is
//! built to cost little: one row-major pass over the 81 cells checks each is a digit and
//! keeps its given, and sets the digit's bit in a nine-bit word of its row, column and box;
//! the grid is a solution when all 27 words are full. Only a grid that fails takes
//! [`plain::verify`], the cell-by-cell check that names the first violation; it is also the
//! oracle the fast check is tested against.

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
    if is_solution(puzzle, solution) {
        Ok(())
    } else {
        plain::verify(puzzle, solution)
    }
}

/// Whether `solution` solves `puzzle`: every cell a digit 1-9 that keeps its given, and each
/// row, column and box's word of digits seen full (nine cells, nine digits: none twice).
fn is_solution(puzzle: &SudokuPuzzle, solution: &Solution) -> bool {
    const FULL: u16 = 0b11_1111_1110;
    let mut rows = [0u16; 9];
    let mut cols = [0u16; 9];
    let mut boxes = [0u16; 9];
    let givens = puzzle.cells();
    for r in 0..9 {
        for c in 0..9 {
            let (v, g) = (solution[r * 9 + c], givens[r * 9 + c]);
            if !(1..=9).contains(&v) || (g != 0 && g != v) {
                return false;
            }
            let bit = 1u16 << v;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[r / 3 * 3 + c / 3] |= bit;
        }
    }
    (0..9).all(|u| rows[u] & cols[u] & boxes[u] == FULL)
}

/// The same check, cell by cell: naive on purpose, and naming what is wrong.
pub mod plain {
    use super::*;

    /// [`verify`](super::verify), checked cell by cell: the first violation (cells, then givens,
    /// then rows, columns, boxes), or Ok.
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

    #[test]
    fn the_fast_check_agrees_with_the_cell_by_cell_one() {
        // Solutions of the demo and of a blank puzzle, spoiled in the ways a solver can go
        // wrong: two cells swapped, a cell changed or blanked, a value past 9, rows or bands
        // swapped; each verdict and each violation must be the plain check's.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let (demo_p, demo_s) = demo();
        let blank = SudokuPuzzle::new([0; 81]).unwrap();
        let (mut good, mut bad) = (0, 0);
        for round in 0..20_000 {
            let p = if round % 2 == 0 { demo_p } else { blank };
            let mut t = demo_s;
            for _ in 0..rng.random_range(0..3) {
                match rng.random_range(0..5) {
                    0 => t.swap(rng.random_range(0..81), rng.random_range(0..81)),
                    1 => t[rng.random_range(0..81)] = rng.random_range(1..=9),
                    2 => t[rng.random_range(0..81)] = rng.random_range(0..=12),
                    3 => {
                        let (a, b) = (rng.random_range(0..9), rng.random_range(0..9));
                        for c in 0..9 {
                            t.swap(a * 9 + c, b * 9 + c);
                        }
                    }
                    _ => {
                        // Digits relabelled: still a solution of the blank puzzle.
                        let (a, b) = (rng.random_range(1..=9), rng.random_range(1..=9));
                        for v in t.iter_mut() {
                            if *v == a {
                                *v = b;
                            } else if *v == b {
                                *v = a;
                            }
                        }
                    }
                }
            }
            let want = plain::verify(&p, &t);
            assert_eq!(verify(&p, &t), want, "{t:?}");
            assert_eq!(is_solution(&p, &t), want.is_ok());
            if want.is_ok() {
                good += 1;
            } else {
                bad += 1;
            }
        }
        assert!(good > 3_000 && bad > 3_000, "{good} solutions, {bad} not");
    }
}

/// Ok when `answer` solves the order-K grid `givens` (row-major, `0` = blank, side K² =
/// `side`): every cell a value `1..=side` that keeps its given, and every row, column and
/// `K x K` box holding each value once. Otherwise what is wrong, first cell or unit first.
/// Plain loops over index arithmetic: nothing shared with the grid type or any solver.
pub fn verify_order(side: usize, givens: &[u8], answer: &[u8]) -> Result<(), String> {
    let k = (1..=side)
        .find(|k| k * k == side)
        .ok_or_else(|| format!("side {side} is not a square; expected 4, 9, 16, 25 or 36"))?;
    if givens.len() != side * side || answer.len() != side * side {
        return Err(format!(
            "expected {} cells, the answer has {}",
            side * side,
            answer.len()
        ));
    }
    for (i, (&g, &v)) in givens.iter().zip(answer).enumerate() {
        let (r, c) = (i / side + 1, i % side + 1);
        if v == 0 || usize::from(v) > side {
            return Err(format!("cell r{r}c{c} holds {v}, expected 1-{side}"));
        }
        if g != 0 && g != v {
            return Err(format!(
                "cell r{r}c{c} is a given {g} but the answer has {v}"
            ));
        }
    }
    for u in 0..side {
        let mut row = vec![false; side + 1];
        let mut col = vec![false; side + 1];
        let mut bx = vec![false; side + 1];
        for j in 0..side {
            let rv = usize::from(answer[u * side + j]);
            let cv = usize::from(answer[j * side + u]);
            let (br, bc) = ((u / k) * k + j / k, (u % k) * k + j % k);
            let bv = usize::from(answer[br * side + bc]);
            for (seen, v, what) in [
                (&mut row, rv, "row"),
                (&mut col, cv, "column"),
                (&mut bx, bv, "box"),
            ] {
                if std::mem::replace(&mut seen[v], true) {
                    return Err(format!("value {v} appears twice in {what} {}", u + 1));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod order_tests {
    use super::verify_order;

    /// A valid 4x4 grid written out by hand.
    const G4: [u8; 16] = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];

    #[test]
    fn order_k_answers_are_checked_cell_given_and_unit() {
        let blank = [0u8; 16];
        assert_eq!(verify_order(4, &blank, &G4), Ok(()));
        let mut givens = blank;
        givens[0] = 2;
        assert!(verify_order(4, &givens, &G4)
            .err()
            .is_some_and(|e| e.contains("r1c1 is a given 2")));
        let mut bad = G4;
        bad.swap(0, 1); // rows still fine, columns 1 and 2 now repeat
        assert!(verify_order(4, &blank, &bad)
            .err()
            .is_some_and(|e| e.contains("twice in column 1")));
        let mut boxbad = G4;
        // Rows and columns of a Latin square that is not a Sudoku: swap rows 2 and 3.
        boxbad[4..8].copy_from_slice(&G4[8..12]);
        boxbad[8..12].copy_from_slice(&G4[4..8]);
        assert!(verify_order(4, &blank, &boxbad)
            .err()
            .is_some_and(|e| e.contains("box")));
        let mut zero = G4;
        zero[15] = 0;
        assert!(verify_order(4, &blank, &zero).is_err());
        assert!(verify_order(5, &blank, &G4).is_err());
    }
}
