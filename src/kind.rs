//! The puzzle families puzzlebench knows. A leaf module, so that the result files
//! ([`crate::results`]) and the dataset loader can both name a kind without importing each other.

use std::fmt;
use std::str::FromStr;

/// Which family of puzzle a dataset entry, a solver or a row is about.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleKind {
    /// Hitori (shade cells).
    #[default]
    Hitori,
    /// Classic 9x9 Sudoku.
    Sudoku,
}

impl PuzzleKind {
    /// Every kind.
    pub const ALL: [PuzzleKind; 2] = [PuzzleKind::Hitori, PuzzleKind::Sudoku];

    /// The grid sides a solver of this kind takes unless it declares others
    /// ([`crate::solver::Sizes::Usual`]): `None` where the rules hold at every size (Hitori),
    /// the classic 9x9 for Sudoku.
    pub fn usual_sides(self) -> Option<Vec<usize>> {
        match self {
            PuzzleKind::Hitori => None,
            PuzzleKind::Sudoku => Some(vec![9]),
        }
    }

    /// Lower-case name, as written in the `kind` column.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleKind::Hitori => "hitori",
            PuzzleKind::Sudoku => "sudoku",
        }
    }
}

impl fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a puzzle kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown puzzle kind {0:?}; expected hitori or sudoku")]
pub struct UnknownKind(pub String);

impl FromStr for PuzzleKind {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PuzzleKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for k in PuzzleKind::ALL {
            assert_eq!(k.name().parse::<PuzzleKind>(), Ok(k));
        }
        assert!("kakuro".parse::<PuzzleKind>().is_err());
    }
}
