//! Full recount of the ABC fitness, from scratch. The colony never calls it in its loop (moves
//! are scored by their delta); it is the reference the delta is tested against.

/// Duplicates in one group of nine cells: sum over digits of (count - 1) for counts > 1.
fn duplicates(cells: impl Iterator<Item = u8>) -> u32 {
    let mut count = [0u32; 10];
    for v in cells {
        count[v as usize % 10] += 1;
    }
    count[1..].iter().map(|&n| n.saturating_sub(1)).sum()
}

/// Row plus column duplicates of a full grid, plus box duplicates when `with_boxes` (the
/// cross-box variant, whose moves can break boxes). 0 means solved.
pub(crate) fn conflicts(vals: &[u8; 81], with_boxes: bool) -> u32 {
    let mut total = 0;
    for k in 0..9 {
        total += duplicates((0..9).map(|j| vals[k * 9 + j]));
        total += duplicates((0..9).map(|j| vals[j * 9 + k]));
        if with_boxes {
            let (r0, c0) = ((k / 3) * 3, (k % 3) * 3);
            total += duplicates((0..9).map(|j| vals[(r0 + j / 3) * 9 + c0 + j % 3]));
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testdata::demo_solution;

    #[test]
    fn zero_on_a_solution_and_counts_excess_copies() {
        let s = demo_solution();
        assert_eq!(conflicts(&s, true), 0);
        let mut t = s;
        t.swap(0, 1); // same row and box: breaks two columns by one each
        assert_eq!(conflicts(&t, false), 2);
        let mut t = [1u8; 81];
        // Each row and each column has nine 1s: 8 excess each.
        assert_eq!(conflicts(&t, false), 8 * 18);
        assert_eq!(conflicts(&t, true), 8 * 27);
        t[0] = 2;
        assert_eq!(conflicts(&t, false), 8 * 18 - 2);
    }
}
