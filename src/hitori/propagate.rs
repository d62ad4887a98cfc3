//! Propagation of the rules to a fixpoint on a [`State`] (layout in [`super::state`]).

use super::connectivity::{cut_candidates, whites_connected, CutFinder};
use super::grid::{HitoriPuzzle, MAX_SIDE};
use super::rules::Rules;
use super::state::{row_mask, Contradiction, State};

/// Per-puzzle tables plus reusable scratch: everything propagation needs, built once per solve.
/// [`Propagator::reset`] rebuilds it for another puzzle in the buffers it already has, so a
/// search scratch kept across solves allocates only for a puzzle larger than any before.
pub(crate) struct Propagator {
    width: usize,
    height: usize,
    rules: Rules,
    /// For cell `r * width + c`: the other columns of row `r` holding the same number.
    row_same: Vec<u64>,
    /// For cell `r * width + c`: the other rows of column `c` holding the same number.
    col_same: Vec<u64>,
    /// Scratch of [`same_by_table`], all zero between uses.
    by_value: Vec<u64>,
    /// Cells the `full` rules fix before any search, from the numbers alone, as row masks.
    static_white: [u64; MAX_SIDE],
    static_black: [u64; MAX_SIDE],
    /// Newly fixed cells whose consequences are not yet drawn, packed `row << 6 | col`.
    queue: Vec<u16>,
    cuts: CutFinder,
}

/// Grids whose numbers are all below this fill the same-number tables through a table indexed
/// by number ([`same_by_table`]); others compare pairs of cells ([`same_by_pairs`]).
const VALUE_TABLE: usize = 1 << 12;

/// Fills `row_same` and `col_same` (`w * h` long; overwritten) for the row-major `values`,
/// each below `m`, in O(w h) and one pass over the rows: `by_value[x]` collects the cells of
/// the current row holding `x` (cleared after the row), and `by_value[(c + 1) * m + x]` the
/// rows of column `c` holding `x`, read once every row is in. Comparing every pair of a line
/// instead costs O(w h (w + h)), a large share of a whole solve (see docs/performance.md).
/// `by_value` must be `(w + 1) * m` long and all zero, and is left so.
fn same_by_table(
    w: usize,
    m: usize,
    values: &[u32],
    by_value: &mut [u64],
    row_same: &mut [u64],
    col_same: &mut [u64],
) {
    let (row_t, col_t) = by_value.split_at_mut(m);
    for (r, row) in values.chunks_exact(w).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            row_t[x as usize] |= 1 << c;
            col_t[c * m + x as usize] |= 1 << r;
        }
        let out = &mut row_same[r * w..(r + 1) * w];
        for (c, (&x, o)) in row.iter().zip(out).enumerate() {
            *o = row_t[x as usize] & !(1 << c);
        }
        for &x in row {
            row_t[x as usize] = 0;
        }
    }
    for (r, (row, out)) in values
        .chunks_exact(w)
        .zip(col_same.chunks_exact_mut(w))
        .enumerate()
    {
        for (c, (&x, o)) in row.iter().zip(out).enumerate() {
            *o = col_t[c * m + x as usize] & !(1 << r);
        }
    }
    col_t.fill(0);
}

/// [`same_by_table`] for any numbers, comparing every pair of cells of each line.
fn same_by_pairs(w: usize, values: &[u32], row_same: &mut [u64], col_same: &mut [u64]) {
    let h = values.len() / w;
    for r in 0..h {
        for c in 0..w {
            let x = values[r * w + c];
            for k in 0..w {
                if k != c && values[r * w + k] == x {
                    row_same[r * w + c] |= 1 << k;
                }
            }
            for k in 0..h {
                if k != r && values[k * w + c] == x {
                    col_same[r * w + c] |= 1 << k;
                }
            }
        }
    }
}

impl Default for Propagator {
    /// Empty tables, for [`Propagator::reset`] to fill.
    fn default() -> Self {
        Propagator {
            width: 0,
            height: 0,
            rules: Rules::Basic,
            row_same: Vec::new(),
            col_same: Vec::new(),
            by_value: Vec::new(),
            static_white: [0; MAX_SIDE],
            static_black: [0; MAX_SIDE],
            queue: Vec::new(),
            cuts: CutFinder::default(),
        }
    }
}

impl Propagator {
    /// Builds the tables for `puzzle` under `rules`.
    #[cfg(test)]
    pub(crate) fn new(puzzle: &HitoriPuzzle, rules: Rules) -> Self {
        let mut p = Propagator::default();
        p.reset(puzzle, rules);
        p
    }

    /// Rebuilds the tables for `puzzle` under `rules`, reusing the buffers.
    pub(crate) fn reset(&mut self, puzzle: &HitoriPuzzle, rules: Rules) {
        let (w, h) = (puzzle.width(), puzzle.height());
        let v = puzzle.cells();
        self.width = w;
        self.height = h;
        self.rules = rules;
        for t in [&mut self.row_same, &mut self.col_same] {
            t.clear();
            t.resize(w * h, 0);
        }
        let max = v.iter().copied().max().unwrap_or(0) as usize;
        if max < VALUE_TABLE {
            let m = max + 1;
            let need = (w + 1) * m;
            // All zero between uses: only the growth needs filling.
            if self.by_value.len() < need {
                self.by_value.resize(need, 0);
            }
            same_by_table(
                w,
                m,
                v,
                &mut self.by_value[..need],
                &mut self.row_same,
                &mut self.col_same,
            );
        } else {
            same_by_pairs(w, v, &mut self.row_same, &mut self.col_same);
        }
        self.static_white = [0; MAX_SIDE];
        self.static_black = [0; MAX_SIDE];
        self.queue.clear();
        self.queue.reserve(w * h);
        self.cuts.reset(w, h);
        if rules == Rules::Full {
            self.find_static();
        }
    }

    /// Static deductions of the `full` rules, from the numbers alone, for every line, read off
    /// the same-number tables (each a bit mask of the line), so a cell costs a few bit tests.
    ///
    /// Sandwich `x y x`: if y were black, both x's (its neighbours) would be white, two white
    /// x's in one line. So y is white. Adjacent pair `x x`: they cannot both be black
    /// (adjacent) nor both white (duplicate), so exactly one is white, and that white x
    /// blackens every other x in the line. So every x of the line outside the pair is black.
    ///
    /// Deliberately absent: "a number unique in its row and column is white". Shading such a
    /// cell breaks no rule, so that rule only preserves the *existence* of a solution, not the
    /// solution count; counting up to 2 to prove uniqueness would then miss solutions.
    fn find_static(&mut self) {
        let (w, h) = (self.width, self.height);
        for r in 0..h {
            let row = &self.row_same[r * w..(r + 1) * w];
            let mut white = 0u64;
            for c in 1..w {
                // `pair`: the cell left of c holds c's number; `sandwich`: the cells left and
                // right of c hold one number.
                let left = row[c - 1];
                if left >> c & 1 != 0 {
                    // `left` holds c's number's other cells but c - 1 itself.
                    self.static_black[r] |= left & !(1 << c);
                }
                if c + 1 < w {
                    white |= (left >> (c + 1) & 1) << c;
                }
            }
            self.static_white[r] |= white;
        }
        for c in 0..w {
            let bit = 1u64 << c;
            for r in 1..h {
                let up = self.col_same[(r - 1) * w + c];
                if up >> r & 1 != 0 {
                    let mut m = up & !(1 << r);
                    while m != 0 {
                        self.static_black[m.trailing_zeros() as usize] |= bit;
                        m &= m - 1;
                    }
                }
                if r + 1 < h && up >> (r + 1) & 1 != 0 {
                    self.static_white[r] |= bit;
                }
            }
        }
    }

    /// Fixes `(r, c)` white, queueing it; contradiction when it is black.
    #[inline]
    pub(crate) fn make_white(
        &mut self,
        s: &mut State,
        r: usize,
        c: usize,
    ) -> Result<(), Contradiction> {
        let bit = 1u64 << c;
        if s.white[r] & bit != 0 {
            return Ok(());
        }
        if s.black[r] & bit != 0 {
            return Err(Contradiction);
        }
        s.white[r] |= bit;
        self.queue.push(((r as u16) << 6) | c as u16);
        Ok(())
    }

    /// Fixes `(r, c)` black, queueing it; contradiction when it is white.
    #[inline]
    pub(crate) fn make_black(
        &mut self,
        s: &mut State,
        r: usize,
        c: usize,
    ) -> Result<(), Contradiction> {
        let bit = 1u64 << c;
        if s.black[r] & bit != 0 {
            return Ok(());
        }
        if s.white[r] & bit != 0 {
            return Err(Contradiction);
        }
        s.black[r] |= bit;
        self.queue.push(((r as u16) << 6) | c as u16);
        Ok(())
    }

    /// Draws the consequences of every queued cell with the two `basic` rules, to a fixpoint.
    /// The queue is empty afterwards, whatever the outcome.
    fn run_queue(&mut self, s: &mut State) -> Result<(), Contradiction> {
        let res = self.run_queue_inner(s);
        if res.is_err() {
            self.queue.clear();
        }
        res
    }

    fn run_queue_inner(&mut self, s: &mut State) -> Result<(), Contradiction> {
        let (w, h) = (self.width, self.height);
        while let Some(e) = self.queue.pop() {
            let (r, c) = ((e >> 6) as usize, (e & 63) as usize);
            if s.white[r] >> c & 1 != 0 {
                // A white cell blackens the other copies of its number in its row and in its
                // column (separately: a white in the row and another in the column is fine).
                let idx = r * w + c;
                let m = self.row_same[idx];
                if m & s.white[r] != 0 {
                    return Err(Contradiction);
                }
                let mut new = m & !s.black[r];
                s.black[r] |= new;
                while new != 0 {
                    let k = new.trailing_zeros() as u16;
                    new &= new - 1;
                    self.queue.push(((r as u16) << 6) | k);
                }
                let mut cm = self.col_same[idx];
                while cm != 0 {
                    let k = cm.trailing_zeros() as usize;
                    cm &= cm - 1;
                    self.make_black(s, k, c)?;
                }
            } else {
                // A black cell whitens its four neighbours; a black neighbour is a contradiction.
                if c > 0 {
                    self.make_white(s, r, c - 1)?;
                }
                if c + 1 < w {
                    self.make_white(s, r, c + 1)?;
                }
                if r > 0 {
                    self.make_white(s, r - 1, c)?;
                }
                if r + 1 < h {
                    self.make_white(s, r + 1, c)?;
                }
            }
        }
        Ok(())
    }

    /// Applies what holds before any choice: with `full` rules, the static deductions. Then
    /// settles. Call once on the root state.
    pub(crate) fn root(&mut self, s: &mut State) -> Result<(), Contradiction> {
        self.queue.clear();
        for r in 0..self.height {
            let (white, black) = (self.static_white[r], self.static_black[r]);
            if white & black != 0 {
                return Err(Contradiction);
            }
            s.white[r] |= white;
            s.black[r] |= black;
            let mut m = white | black;
            while m != 0 {
                self.queue
                    .push(((r as u16) << 6) | m.trailing_zeros() as u16);
                m &= m - 1;
            }
        }
        self.settle(s)
    }

    /// Fixes one cell (`black` or white) and settles.
    pub(crate) fn assign(
        &mut self,
        s: &mut State,
        r: usize,
        c: usize,
        black: bool,
    ) -> Result<(), Contradiction> {
        self.queue.clear();
        if black {
            self.make_black(s, r, c)?;
        } else {
            self.make_white(s, r, c)?;
        }
        self.settle(s)
    }

    /// Propagates the queued cells to a fixpoint and checks connectivity. With `full` rules the
    /// connectivity pass also whitens white-separating cut vertices, and the loop repeats until
    /// it finds none. `Err` when the state is contradictory or its whites are cut apart.
    pub(crate) fn settle(&mut self, s: &mut State) -> Result<(), Contradiction> {
        self.run_queue(s)?;
        match self.rules {
            Rules::Basic => {
                if whites_connected(s, self.width, self.height) {
                    Ok(())
                } else {
                    Err(Contradiction)
                }
            }
            Rules::Full => loop {
                // No unknown cell that could be a cut vertex, judged from its 3x3 neighbourhood
                // (about one pass in seven on the corpus, always the last when no cell is left
                // unknown): the Tarjan pass could force nothing, and the bitboard flood is
                // enough to check that the whites are connected.
                let cand = cut_candidates(s, self.width, self.height);
                if cand[..self.height].iter().all(|&m| m == 0) {
                    return if whites_connected(s, self.width, self.height) {
                        Ok(())
                    } else {
                        Err(Contradiction)
                    };
                }
                self.cuts.run(s)?;
                if self.cuts.forced.is_empty() {
                    return Ok(());
                }
                let blacks = s.black;
                for i in 0..self.cuts.forced.len() {
                    let (r, c) = self.cuts.forced[i];
                    if let Err(e) = self.make_white(s, r as usize, c as usize) {
                        self.queue.clear();
                        return Err(e);
                    }
                }
                self.run_queue(s)?;
                // Another cut pass only matters when a black was added. Without one the graph
                // of non-black cells is unchanged, so its cut vertices are too, and each new
                // white is a cut vertex with old whites on two sides: removing any other cell
                // leaves it joined to old whites on one side, so it strands nothing. The cut
                // pass is most of the cost of probing, and this skips about one run in two.
                if s.black[..self.height] == blacks[..self.height] {
                    return Ok(());
                }
            },
        }
    }

    /// Failed-literal probing, `full` rules only (a no-op for `basic`): for each unknown cell,
    /// settle a copy of `s` with the cell black; if that contradicts, the cell is white in
    /// every solution extending `s`, so fix it white in `s` (and settle). Likewise with the
    /// cell white, but only for cells whose number repeats in their row or column: whitening a
    /// cell with no duplicate blackens nothing, so that probe almost never fails and is
    /// skipped for its cost. Passes repeat until one fixes nothing, since a new fact can make
    /// an earlier probe fail.
    ///
    /// Sound for counting as well as for finding: a probe only removes colourings that have
    /// no completion. `Err` when both colours of some cell fail.
    ///
    /// This is what stops the tail: without it, a wrong colour chosen high in the tree is only
    /// refuted after whole subtrees, because what refutes it (two duplicates that both must be
    /// white, or a white region sealed off) shows up only once other cells are fixed. The loop
    /// runs only while cells are unknown, so grids the static rules and cut pass already solve
    /// pay nothing.
    ///
    /// Cost control: a probe that settles without contradiction fixes other cells too, and
    /// propagation is monotone (more fixed cells never make a failure go away), so probing any
    /// of those cells with the colour it got there cannot fail either until `s` gains a fact.
    /// Such probes are skipped for the rest of the pass; a pass that fixed something is
    /// followed by a fresh one, so nothing is missed at the fixpoint. This cuts most probes.
    // Out of line: benches/hitori-phases.sh finds it by name.
    #[inline(never)]
    pub(crate) fn probe(&mut self, s: &mut State) -> Result<(), Contradiction> {
        if self.rules != Rules::Full {
            return Ok(());
        }
        let (w, h) = (self.width, self.height);
        let full = row_mask(w);
        loop {
            let mut changed = false;
            // Colours already implied by a successful probe of this pass (see above).
            let mut implied_black = [0u64; MAX_SIDE];
            let mut implied_white = [0u64; MAX_SIDE];
            for r in 0..h {
                let mut todo = full & !(s.white[r] | s.black[r]);
                while todo != 0 {
                    let c = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let bit = 1u64 << c;
                    // An earlier probe of this pass may have fixed the cell since.
                    if (s.white[r] | s.black[r]) & bit != 0 {
                        continue;
                    }
                    if implied_black[r] & bit == 0 {
                        let mut t = *s;
                        if self.assign(&mut t, r, c, true).is_err() {
                            self.assign(s, r, c, false)?;
                            changed = true;
                            continue;
                        }
                        for k in 0..h {
                            implied_black[k] |= t.black[k];
                            implied_white[k] |= t.white[k];
                        }
                    }
                    let i = r * w + c;
                    if self.row_same[i] | self.col_same[i] == 0 || implied_white[r] & bit != 0 {
                        continue;
                    }
                    let mut t = *s;
                    if self.assign(&mut t, r, c, false).is_err() {
                        self.assign(s, r, c, true)?;
                        changed = true;
                        continue;
                    }
                    for k in 0..h {
                        implied_black[k] |= t.black[k];
                        implied_white[k] |= t.white[k];
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Static MRV score of `(r, c)`: other cells of its row with the same number plus other
    /// cells of its column with the same number (at most 63 + 63).
    #[inline]
    pub(crate) fn dup_score(&self, r: usize, c: usize) -> u32 {
        let (a, b) = self.same(r, c);
        a.count_ones() + b.count_ones()
    }

    /// The other cells of `(r, c)`'s row with its number (column bits) and of its column
    /// (row bits).
    #[inline]
    pub(crate) fn same(&self, r: usize, c: usize) -> (u64, u64) {
        let i = r * self.width + c;
        (self.row_same[i], self.col_same[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hitori::generate::generate;
    use crate::hitori::grid::Shading;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn demo() -> HitoriPuzzle {
        let v = [
            1, 1, 3, 1, 2, 4, 4, 2, 5, 1, 3, 5, 1, 2, 3, 2, 2, 4, 4, 5, 2, 2, 5, 1, 4,
        ];
        HitoriPuzzle::new(5, 5, v.to_vec()).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn same_number_tables_by_table_equal_by_pairs(
            w in 2usize..=64,
            h in 2usize..=64,
            seed in any::<u64>(),
            spread in 1u32..80,
        ) {
            use rand::Rng;
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let values: Vec<u32> = (0..w * h).map(|_| rng.random_range(1..=spread)).collect();
            let (mut row_a, mut col_a) = (vec![0; w * h], vec![0; w * h]);
            let m = spread as usize + 1;
            let mut by_value = vec![0; (w + 1) * m];
            same_by_table(w, m, &values, &mut by_value, &mut row_a, &mut col_a);
            prop_assert!(by_value.iter().all(|&m| m == 0), "table left dirty");
            let (mut row_b, mut col_b) = (vec![0; w * h], vec![0; w * h]);
            same_by_pairs(w, &values, &mut row_b, &mut col_b);
            prop_assert_eq!(row_a, row_b);
            prop_assert_eq!(col_a, col_b);
        }
    }

    #[test]
    fn large_numbers_take_the_pairwise_tables() {
        // 2 x 3 with numbers beyond the table: rows `9000 5 9000` and `5 5 9000`.
        let p = HitoriPuzzle::new(3, 2, vec![9000, 5, 9000, 5, 5, 9000]).unwrap();
        let pr = Propagator::new(&p, Rules::Basic);
        assert!(
            pr.by_value.is_empty(),
            "no table for numbers of {VALUE_TABLE} and more"
        );
        assert_eq!(pr.row_same, vec![0b100, 0, 0b001, 0b010, 0b001, 0]);
        assert_eq!(pr.col_same, vec![0, 0b10, 0b10, 0, 0b01, 0b01]);
        // Reused for a small-number grid, the same Propagator takes the table path.
        let mut pr = pr;
        pr.reset(&demo(), Rules::Basic);
        assert_eq!(pr.same(0, 0), (0b1010, 0));
    }

    #[test]
    fn white_blackens_same_number_in_row_and_column_only() {
        let p = demo();
        let mut pr = Propagator::new(&p, Rules::Basic);
        let mut s = State::empty();
        // (0,1) = 1 white: (0,0) and (0,3) are the other 1s of its row; column 1 has no other 1,
        // and the 1 at (2,2) is in neither line, so it is not blackened.
        pr.assign(&mut s, 0, 1, false).unwrap();
        assert!(s.black[0] & 1 == 1 && s.black[0] >> 3 & 1 == 1);
        assert_eq!(s.black[2] >> 2 & 1, 0);
        // ... and the new blacks whiten their neighbours.
        assert!(s.white[1] & 1 == 1 && s.white[1] >> 3 & 1 == 1 && s.white[0] >> 4 & 1 == 1);
    }

    #[test]
    fn two_adjacent_blacks_contradict() {
        let p = demo();
        let mut pr = Propagator::new(&p, Rules::Basic);
        let mut s = State::empty();
        pr.assign(&mut s, 0, 0, true).unwrap();
        let mut t = s;
        assert_eq!(pr.assign(&mut t, 0, 1, true), Err(Contradiction));
        // The queue is left clean: a later assignment still works.
        let mut t = s;
        assert_eq!(pr.assign(&mut t, 2, 2, true), Ok(()));
    }

    #[test]
    fn probing_shades_a_corner_whose_whitening_seals_it_off() {
        // 1 1 2    (0,0) white would blacken (0,1) and (1,0), walling it into the corner: no
        // 1 2 3    rule before probing sees that, probing does, so (0,0) is black and its two
        // 2 3 1    neighbours white.
        let p = HitoriPuzzle::new(3, 3, vec![1, 1, 2, 1, 2, 3, 2, 3, 1]).unwrap();
        let mut pr = Propagator::new(&p, Rules::Full);
        let mut s = State::empty();
        pr.root(&mut s).unwrap();
        assert_eq!(
            (s.black[0] & 1, s.white[0] & 1),
            (0, 0),
            "unknown before probing"
        );
        pr.probe(&mut s).unwrap();
        assert_eq!(s.black[0] & 1, 1);
        assert!(s.white[0] >> 1 & 1 == 1 && s.white[1] & 1 == 1);
        // `basic` keeps the article's two rules: probing is a no-op there.
        let mut pb = Propagator::new(&p, Rules::Basic);
        let mut s = State::empty();
        pb.root(&mut s).unwrap();
        pb.probe(&mut s).unwrap();
        assert_eq!(s, State::empty());
    }

    /// The cells of row masks, as sorted (row, col).
    fn cells_of(masks: &[u64]) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        for (r, &m) in masks.iter().enumerate() {
            for c in 0..64 {
                if m >> c & 1 != 0 {
                    out.push((r as u8, c as u8));
                }
            }
        }
        out
    }

    #[test]
    fn full_static_rules_sandwich_and_pair() {
        // Row 0: 2 1 2 -> the 1 is white (sandwich). Row 1: 3 3 1 3 -> last 3 black (pair),
        // and its 1 is sandwiched between 3s. Column 0 (2 3 2) sandwiches (1,0).
        let p = HitoriPuzzle::new(4, 3, vec![2, 1, 2, 4, 3, 3, 1, 3, 2, 4, 4, 1]).unwrap();
        let pr = Propagator::new(&p, Rules::Full);
        assert_eq!(cells_of(&pr.static_white), vec![(0, 1), (1, 0), (1, 2)]);
        // Row 1's pair blackens (1,3); row 2's 4 4 pair has no other 4 in its row.
        assert_eq!(cells_of(&pr.static_black), vec![(1, 3)]);
        let pb = Propagator::new(&p, Rules::Basic);
        assert!(cells_of(&pb.static_white).is_empty() && cells_of(&pb.static_black).is_empty());
        // A column pair: column 0 reads 5 5 1 5, so (3,0) is black, and its 1 sits between
        // two 5s, so (2,0) is white.
        let p = HitoriPuzzle::new(2, 4, vec![5, 1, 5, 2, 1, 3, 5, 4]).unwrap();
        let pr = Propagator::new(&p, Rules::Full);
        assert_eq!(cells_of(&pr.static_black), vec![(3, 0)]);
        assert_eq!(cells_of(&pr.static_white), vec![(2, 0)]);
    }

    /// Cells as (row, col).
    type Cells = Vec<(u8, u8)>;

    /// The static rules cell by cell over the numbers (the previous implementation), the
    /// oracle of the bitboard [`Propagator::find_static`].
    fn static_by_cells(p: &HitoriPuzzle) -> (Cells, Cells) {
        let (w, h) = (p.width(), p.height());
        let (mut white, mut black) = (Vec::new(), Vec::new());
        for li in 0..h + w {
            let line: Vec<(usize, usize)> = if li < h {
                (0..w).map(|k| (li, k)).collect()
            } else {
                (0..h).map(|k| (k, li - h)).collect()
            };
            let v = |(r, c): (usize, usize)| p.value(r, c);
            for i in 0..line.len() {
                let (r, c) = line[i];
                if i >= 1 && i + 1 < line.len() && v(line[i - 1]) == v(line[i + 1]) {
                    white.push((r as u8, c as u8));
                }
                if i + 1 < line.len() && v(line[i + 1]) == v(line[i]) {
                    for (j, &cell) in line.iter().enumerate() {
                        if j != i && j != i + 1 && v(cell) == v(line[i]) {
                            black.push((cell.0 as u8, cell.1 as u8));
                        }
                    }
                }
            }
        }
        for x in [&mut white, &mut black] {
            x.sort_unstable();
            x.dedup();
        }
        (white, black)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn static_rules_by_bitboards_equal_cell_by_cell(
            w in 2usize..=64,
            h in 2usize..=64,
            seed in any::<u64>(),
            spread in 1u32..12,
        ) {
            use rand::Rng;
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let values: Vec<u32> = (0..w * h).map(|_| rng.random_range(1..=spread)).collect();
            let p = HitoriPuzzle::new(w, h, values).unwrap();
            let pr = Propagator::new(&p, Rules::Full);
            let (white, black) = static_by_cells(&p);
            prop_assert_eq!(cells_of(&pr.static_white), white);
            prop_assert_eq!(cells_of(&pr.static_black), black);
        }
    }

    /// Fixes the cells of `solution` selected by `subset` (cycled), propagates with `rules`
    /// and checks that nothing contradicts the solution.
    fn check_subset(p: &HitoriPuzzle, sol: &Shading, subset: &[bool], rules: Rules) {
        let (w, h) = (p.width(), p.height());
        let mut pr = Propagator::new(p, rules);
        let mut s = State::empty();
        pr.root(&mut s)
            .expect("root propagation contradicts a solution");
        for r in 0..h {
            for c in 0..w {
                if subset[(r * w + c) % subset.len()] {
                    let res = if sol.is_black(r, c) {
                        pr.make_black(&mut s, r, c)
                    } else {
                        pr.make_white(&mut s, r, c)
                    };
                    assert_eq!(res, Ok(()), "fixing ({r},{c}) to the solution contradicts");
                }
            }
        }
        assert_eq!(
            pr.settle(&mut s),
            Ok(()),
            "{rules:?} contradicts a solution"
        );
        assert_eq!(
            pr.probe(&mut s),
            Ok(()),
            "{rules:?} probing contradicts a solution"
        );
        for r in 0..h {
            for c in 0..w {
                let b = s.black[r] >> c & 1 != 0;
                let wh = s.white[r] >> c & 1 != 0;
                let want_black = sol.is_black(r, c);
                assert!(
                    (!b || want_black) && (!wh || !want_black),
                    "{rules:?} fixed ({r},{c}) against the solution"
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn propagation_never_contradicts_a_known_solution(
            seed in any::<u64>(),
            w in 3usize..8,
            h in 3usize..8,
            subset in proptest::collection::vec(any::<bool>(), 1..40),
        ) {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let (p, sol) = generate(w, h, &mut rng);
            check_subset(&p, &sol, &subset, Rules::Basic);
            check_subset(&p, &sol, &subset, Rules::Full);
        }
    }

    #[test]
    fn propagation_never_contradicts_the_demo_solution_exhaustive_pairs() {
        let p = demo();
        let sol = Shading::from_mask(5, 5, "#..#..#.......#.#.#.#....").unwrap();
        // Every single cell and every pair of cells fixed to the solution.
        for i in 0..25 {
            for j in i..25 {
                let mut subset = vec![false; 25];
                subset[i] = true;
                subset[j] = true;
                check_subset(&p, &sol, &subset, Rules::Basic);
                check_subset(&p, &sol, &subset, Rules::Full);
            }
        }
    }
}
