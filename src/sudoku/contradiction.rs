//! The outcome "no solution" that the candidate boards and the presolver share. It lives below
//! all of them ([`super::cands`], [`super::bitboard`], [`super::presolve`]) so that none of them
//! has to import it from another, which made `cands` and `presolve` depend on each other.

/// The puzzle has no solution: some cell has no candidate left, or some unit has no place for a
/// digit. A zero-sized type: contradiction is an outcome, not a failure of the code.
#[derive(thiserror::Error, Debug, Clone, Copy, PartialEq, Eq)]
#[error("contradiction: the puzzle has no solution")]
pub struct Contradiction;
