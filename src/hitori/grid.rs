//! The puzzle grid (numbers) and a shading (which cells are black), both row-major.

use thiserror::Error;

/// Largest side accepted, in cells. A row of the solver's state is one `u64`, so 64 is the limit.
pub const MAX_SIDE: usize = 64;

/// Smallest side accepted, in cells: a 1-wide line has no Hitori structure worth solving.
pub const MIN_SIDE: usize = 2;

/// Why a grid or a shading could not be built. Messages say what was expected and what was found.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum GridError {
    /// A side outside `2..=MAX_SIDE`.
    #[error("expected width and height from 2 to {max}, found {width}x{height}", max = MAX_SIDE)]
    BadSize {
        /// The width given.
        width: usize,
        /// The height given.
        height: usize,
    },
    /// The cell vector does not hold `width * height` entries.
    #[error("expected {expected} cells for a {width}x{height} grid, found {found}")]
    CellCount {
        /// The width given.
        width: usize,
        /// The height given.
        height: usize,
        /// `width * height`.
        expected: usize,
        /// The number of cells given.
        found: usize,
    },
    /// A cell holds 0; Hitori numbers start at 1.
    #[error("expected numbers of at least 1, found 0 at row {row}, column {col} (1-based)")]
    ZeroValue {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        col: usize,
    },
    /// A mask character other than `#` or `.`.
    #[error("expected `#` (shaded) or `.` (unshaded) in the mask, found {found:?} at position {position} (1-based)")]
    BadMaskChar {
        /// The offending character.
        found: char,
        /// 1-based character position in the mask.
        position: usize,
    },
}

/// Checks the sides and the cell count shared by [`HitoriPuzzle`] and [`Shading`].
fn check_dims(width: usize, height: usize, len: usize) -> Result<(), GridError> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
        return Err(GridError::BadSize { width, height });
    }
    if len != width * height {
        return Err(GridError::CellCount {
            width,
            height,
            expected: width * height,
            found: len,
        });
    }
    Ok(())
}

/// A Hitori puzzle: a `width x height` grid of positive numbers, row-major.
///
/// Numbers are usually `1..=max(width, height)` but larger ones are accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HitoriPuzzle {
    width: usize,
    height: usize,
    cells: Vec<u32>,
}

impl HitoriPuzzle {
    /// Builds a puzzle from row-major `cells`; sides must be `2..=MAX_SIDE`, every value `>= 1`.
    pub fn new(width: usize, height: usize, cells: Vec<u32>) -> Result<Self, GridError> {
        check_dims(width, height, cells.len())?;
        if let Some(i) = cells.iter().position(|&v| v == 0) {
            return Err(GridError::ZeroValue {
                row: i / width + 1,
                col: i % width + 1,
            });
        }
        Ok(HitoriPuzzle {
            width,
            height,
            cells,
        })
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The number at 0-based `(row, col)`. Panics when out of range, like slice indexing.
    pub fn value(&self, row: usize, col: usize) -> u32 {
        assert!(row < self.height && col < self.width, "cell out of range");
        self.cells[row * self.width + col]
    }

    /// All numbers, row-major.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }
}

/// A shading of a grid: `true` = black (shaded), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shading {
    width: usize,
    height: usize,
    black: Vec<bool>,
}

impl Shading {
    /// Builds a shading from row-major flags (`true` = black).
    pub fn new(width: usize, height: usize, black: Vec<bool>) -> Result<Self, GridError> {
        check_dims(width, height, black.len())?;
        Ok(Shading {
            width,
            height,
            black,
        })
    }

    /// Parses a mask of exactly `width * height` characters, `#` black and `.` white, row-major.
    pub fn from_mask(width: usize, height: usize, mask: &str) -> Result<Self, GridError> {
        let mut black = Vec::with_capacity(mask.len().min(MAX_SIDE * MAX_SIDE));
        for (i, ch) in mask.chars().enumerate() {
            match ch {
                '#' => black.push(true),
                '.' => black.push(false),
                other => {
                    return Err(GridError::BadMaskChar {
                        found: other,
                        position: i + 1,
                    })
                }
            }
        }
        Shading::new(width, height, black)
    }

    /// The mask form: `#` black, `.` white, row-major, no separators.
    pub fn to_mask(&self) -> String {
        self.black
            .iter()
            .map(|&b| if b { '#' } else { '.' })
            .collect()
    }

    /// Whether 0-based `(row, col)` is black. Panics when out of range, like slice indexing.
    pub fn is_black(&self, row: usize, col: usize) -> bool {
        assert!(row < self.height && col < self.width, "cell out of range");
        self.black[row * self.width + col]
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// All flags, row-major (`true` = black).
    pub fn cells(&self) -> &[bool] {
        &self.black
    }

    /// Number of black cells.
    pub fn black_count(&self) -> usize {
        self.black.iter().filter(|&&b| b).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_checks_sides_count_and_zero() {
        assert_eq!(
            HitoriPuzzle::new(1, 5, vec![1; 5]),
            Err(GridError::BadSize {
                width: 1,
                height: 5
            })
        );
        assert!(HitoriPuzzle::new(65, 2, vec![1; 130]).is_err());
        let e = HitoriPuzzle::new(2, 2, vec![1; 3]).unwrap_err();
        assert_eq!(e.to_string(), "expected 4 cells for a 2x2 grid, found 3");
        let e = HitoriPuzzle::new(2, 2, vec![1, 2, 0, 1]).unwrap_err();
        assert_eq!(e, GridError::ZeroValue { row: 2, col: 1 });
        let p = HitoriPuzzle::new(3, 2, vec![1, 2, 3, 4, 5, 99]).unwrap();
        assert_eq!((p.width(), p.height()), (3, 2));
        assert_eq!(p.value(1, 2), 99);
        assert_eq!(p.value(0, 1), 2);
    }

    #[test]
    fn mask_round_trip_and_errors() {
        let s = Shading::from_mask(3, 2, "#.#.#.").unwrap();
        assert!(s.is_black(0, 0) && !s.is_black(0, 1) && s.is_black(1, 1));
        assert_eq!(s.to_mask(), "#.#.#.");
        assert_eq!(s.black_count(), 3);
        assert_eq!(s.cells(), [true, false, true, false, true, false]);
        let e = Shading::from_mask(3, 2, "#.x...").unwrap_err();
        assert_eq!(
            e,
            GridError::BadMaskChar {
                found: 'x',
                position: 3
            }
        );
        assert!(matches!(
            Shading::from_mask(3, 2, "#...."),
            Err(GridError::CellCount { found: 5, .. })
        ));
    }
}
