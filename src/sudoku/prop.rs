//! `abc-prop` and its control `restarts`: a bee colony whose food sources are decoded with
//! constraint propagation, for Sudoku of any order 2..=6 (4x4 to 36x36).
//!
//! A food source is one preferred value per cell. Decoding it fills the grid greedily: take
//! the unplaced cell with the fewest candidates (first in row-major order on a tie), place its
//! preferred value if that is still a candidate, else the next candidate after it (cyclically),
//! then propagate naked and hidden singles and locked candidates (pointing, claiming). A value
//! whose propagation contradicts is refuted: the state before it comes back, the value leaves
//! the cell (propagated in turn) and the choice is made again. Repeat until the grid is full
//! (a solution) or a refutation itself contradicts. The fitness is the number of cells left
//! unplaced then (lower is better; 0 = solved). The decode records its decisions (cell, the
//! candidates it had, the value placed), and that is what the bees work on:
//!
//! - a neighbour of a source changes one of its decisions (later decisions more often) to
//!   another of the candidates the cell had at that point: the best-so-far source's value there
//!   when it differs and is a candidate (a quarter of the time, `SHARE`: the colony's shared
//!   memory, like ACS's best-value reinforcement), else a random one;
//! - employed bees try one neighbour per source, onlookers pick sources by roulette on
//!   `worst - fitness + 1`; a neighbour replaces its source when it is no worse (equal
//!   fitness moves along plateaus); a source not improved for `limit` tries is replaced by
//!   a scout (a fresh random source).
//!
//! `restarts` is the same decoder with employed and onlooker phases off: every cycle decodes
//! `colony_size` fresh random sources, so its cycles cost the same number of decodes as the
//! colony's (which adds its scouts) and `evaluations` (decodes) is the shared effort unit.
//!
//! Candidates are bitmasks (`u64`: up to 36 values); the per-unit count of places left for
//! each value gives hidden singles without rescanning units; the decoder allocates nothing
//! per decode (it copies the givens' propagated state into buffers made once per job).

use rand::Rng;

/// Which variant runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The colony: employed, onlooker and scout phases.
    Colony,
    /// The control: only fresh random sources, every cycle.
    Restarts,
}

/// Colony parameters (shared with `abc`'s flags: `--colony-size`, `--limit`, `--max-cycles`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropParams {
    /// Bees; food sources are half of it (at least one).
    pub colony_size: usize,
    /// Tries without improvement before a source is abandoned; 0 = by order, `10 * (K - 2)`
    /// (10 for 9x9, 30 for 25x25; at least 10).
    pub limit: u32,
    /// Cycle budget.
    pub max_cycles: u64,
    /// Colony or restarts.
    pub mode: Mode,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropEnd {
    /// A decode completed the grid.
    Solved,
    /// The givens contradict each other under propagation: no solution.
    NoSolution,
    /// `max_cycles` ran out.
    MaxCycles,
    /// The stop check fired.
    Stopped,
}

/// A run's result and counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropResult {
    /// How it ended.
    pub end: PropEnd,
    /// The solution (values `1..=N`, row-major), when solved.
    pub solution: Option<Vec<u8>>,
    /// 1-based cycle of the solving decode (0: solved by the givens' propagation or by an
    /// initial source); the cycles run otherwise.
    pub cycles: u64,
    /// Decodes.
    pub evaluations: u64,
    /// Fresh random sources after the initial ones (scouts; every source of `restarts`).
    pub scouts: u64,
    /// Best fitness (cells unplaced) at the end; 0 when solved.
    pub best: u32,
}

/// The geometry of an order-`n` grid: `n*n` values, `n^4` cells.
struct Geometry {
    /// Box side (n).
    order: usize,
    /// Values per unit (N = n*n).
    size: usize,
    /// Cells (N*N).
    cells: usize,
    /// Peers of each cell, `stride` per cell.
    peers: Vec<u16>,
    stride: usize,
    /// Cells of each unit (rows, columns, boxes), `size` per unit.
    units: Vec<u16>,
    /// The three units of each cell.
    cell_units: Vec<[u16; 3]>,
    /// Each cell's box-row and box-column intersection: `box * order + row % order` and
    /// `box * order + column % order` (precomputed: divisions by a runtime order are slow).
    cross: Vec<[u8; 2]>,
}

impl Geometry {
    fn new(order: usize) -> Geometry {
        let size = order * order;
        let cells = size * size;
        let box_of = |c: usize| (c / size / order) * order + (c % size) / order;
        let cell_units: Vec<[u16; 3]> = (0..cells)
            .map(|c| {
                [
                    (c / size) as u16,
                    (size + c % size) as u16,
                    (2 * size + box_of(c)) as u16,
                ]
            })
            .collect();
        let mut units = vec![0u16; 3 * size * size];
        let mut fill = vec![0usize; 3 * size];
        for (c, us) in cell_units.iter().enumerate() {
            for &u in us {
                let u = usize::from(u);
                units[u * size + fill[u]] = c as u16;
                fill[u] += 1;
            }
        }
        let stride = 3 * size - 2 * order - 1;
        let mut peers = Vec::with_capacity(cells * stride);
        for c in 0..cells {
            let start = peers.len();
            for p in 0..cells {
                let shares = (0..3).any(|k| cell_units[p][k] == cell_units[c][k]);
                if p != c && shares {
                    peers.push(p as u16);
                }
            }
            debug_assert_eq!(peers.len() - start, stride);
        }
        let cross = (0..cells)
            .map(|c| {
                let b = box_of(c) * order;
                [(b + c / size % order) as u8, (b + c % size % order) as u8]
            })
            .collect();
        Geometry {
            order,
            size,
            cells,
            peers,
            stride,
            units,
            cell_units,
            cross,
        }
    }
}

/// The decoder's working state: candidates, placed values (0 = unplaced, else value + 1), the
/// per-unit count of cells that can still take each value, the values placed per unit, and
/// per box-row and box-column intersection the union of its cells' candidates (indexed as
/// `Geometry::cross`), exact for every box outside `dirty`.
#[derive(Clone)]
struct State {
    cand: Vec<u64>,
    val: Vec<u8>,
    count: Vec<u8>,
    placed_in: Vec<u64>,
    placed: usize,
    rmask: Vec<u64>,
    cmask: Vec<u64>,
    /// Boxes whose candidates changed since `locked` last looked at them: only they, their
    /// bands and their stacks can hold a new locked-candidates deduction.
    dirty: u64,
}

impl State {
    fn copy_from(&mut self, other: &State) {
        self.cand.copy_from_slice(&other.cand);
        self.val.copy_from_slice(&other.val);
        self.count.copy_from_slice(&other.count);
        self.placed_in.copy_from_slice(&other.placed_in);
        self.placed = other.placed;
        self.rmask.copy_from_slice(&other.rmask);
        self.cmask.copy_from_slice(&other.cmask);
        self.dirty = other.dirty;
    }
}

/// One decision of a decode: the cell, the candidates it had, the value placed (0-based).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Decision {
    cell: u16,
    value: u8,
    cands: u64,
}

/// The propagating decoder for one puzzle.
struct Decoder {
    geo: Geometry,
    base: State,
    work: State,
    /// The state before the current decision, to undo a refuted value.
    save: State,
    queue: Vec<(u16, u8)>,
}

impl Decoder {
    /// The decoder for `cells` (0 = blank, else `1..=N`) of order `order`; `None` when the
    /// givens contradict each other under propagation.
    fn new(order: usize, cells: &[u8]) -> Option<Decoder> {
        let geo = Geometry::new(order);
        let n = geo.size;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let base = State {
            cand: vec![full; geo.cells],
            val: vec![0; geo.cells],
            count: vec![n as u8; 3 * n * n],
            placed_in: vec![0; 3 * n],
            placed: 0,
            rmask: vec![0; n * order],
            cmask: vec![0; n * order],
            dirty: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
        };
        let mut d = Decoder {
            work: base.clone(),
            save: base.clone(),
            base,
            queue: Vec::with_capacity(geo.cells * 2),
            geo,
        };
        for (c, &v) in cells.iter().enumerate() {
            if v != 0 && !(d.place(c, v - 1) && d.propagate()) {
                return None;
            }
        }
        if !d.propagate_all() {
            return None;
        }
        d.base.copy_from(&d.work);
        Some(d)
    }

    /// Remove value `v` from unplaced cell `p`'s candidates; false on a contradiction. Queues
    /// naked and hidden singles that appear.
    #[inline]
    fn remove(&mut self, p: usize, v: usize) -> bool {
        let b = 1u64 << v;
        let n = self.geo.size;
        let w = &mut self.work;
        w.cand[p] &= !b;
        w.dirty |= 1 << (usize::from(self.geo.cell_units[p][2]) - 2 * n);
        let m = w.cand[p];
        if m == 0 {
            return false;
        }
        if m & (m - 1) == 0 {
            self.queue.push((p as u16, m.trailing_zeros() as u8));
        }
        for &u in &self.geo.cell_units[p] {
            let u = usize::from(u);
            if w.placed_in[u] & b != 0 {
                continue;
            }
            let k = &mut w.count[u * n + v];
            *k -= 1;
            match *k {
                0 => return false,
                1 => {
                    let unit = &self.geo.units[u * n..(u + 1) * n];
                    if let Some(&q) = unit.iter().find(|&&q| w.cand[usize::from(q)] & b != 0) {
                        self.queue.push((q, v as u8));
                    }
                }
                _ => {}
            }
        }
        true
    }

    /// Place value `v` (0-based) in cell `c`; false on a contradiction.
    fn place(&mut self, c: usize, v: u8) -> bool {
        let w = &mut self.work;
        if w.val[c] != 0 {
            return w.val[c] == v + 1;
        }
        let b = 1u64 << v;
        if w.cand[c] & b == 0 {
            return false;
        }
        let mut others = w.cand[c] & !b;
        w.cand[c] = b;
        let n = self.geo.size;
        w.dirty |= 1 << (usize::from(self.geo.cell_units[c][2]) - 2 * n);
        // The cell's other candidates leave its units.
        while others != 0 {
            let o = others.trailing_zeros() as usize;
            others &= others - 1;
            for &u in &self.geo.cell_units[c] {
                let u = usize::from(u);
                let w = &mut self.work;
                if w.placed_in[u] & (1 << o) != 0 {
                    continue;
                }
                let k = &mut w.count[u * n + o];
                *k -= 1;
                match *k {
                    0 => return false,
                    1 => {
                        let unit = &self.geo.units[u * n..(u + 1) * n];
                        if let Some(&q) = unit.iter().find(|&&q| {
                            usize::from(q) != c && w.cand[usize::from(q)] & (1 << o) != 0
                        }) {
                            self.queue.push((q, o as u8));
                        }
                    }
                    _ => {}
                }
            }
        }
        let w = &mut self.work;
        w.val[c] = v + 1;
        w.cand[c] = 0;
        w.placed += 1;
        for &u in &self.geo.cell_units[c] {
            w.placed_in[usize::from(u)] |= b;
        }
        let stride = self.geo.stride;
        for i in c * stride..(c + 1) * stride {
            let p = usize::from(self.geo.peers[i]);
            if self.work.val[p] == 0
                && self.work.cand[p] & b != 0
                && !self.remove(p, usize::from(v))
            {
                return false;
            }
        }
        true
    }

    /// Place every queued single; false on a contradiction.
    fn propagate(&mut self) -> bool {
        while let Some((c, v)) = self.queue.pop() {
            if !self.place(usize::from(c), v) {
                self.queue.clear();
                return false;
            }
        }
        true
    }

    /// The union of the candidates of box `b`'s line `i` (a row when `rows`, else a column).
    fn cross(&self, rows: bool, b: usize, i: usize) -> u64 {
        let k = b * self.geo.order + i;
        if rows {
            self.work.rmask[k]
        } else {
            self.work.cmask[k]
        }
    }

    /// Remove the values of `mask` from box `b`'s line `i` (a row when `rows`, else a
    /// column); `None` on a contradiction, else whether anything was removed.
    fn clear_cross(&mut self, rows: bool, b: usize, i: usize, mask: u64) -> Option<bool> {
        let (o, n) = (self.geo.order, self.geo.size);
        let (r0, c0) = (b / o * o, b % o * o);
        let mut changed = false;
        for t in 0..o {
            let cell = if rows {
                (r0 + i) * n + c0 + t
            } else {
                (r0 + t) * n + c0 + i
            };
            let mut hit = self.work.cand[cell] & mask;
            while hit != 0 {
                let v = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                changed = true;
                if !self.remove(cell, v) {
                    return None;
                }
            }
        }
        Some(changed)
    }

    /// One pass of locked candidates: pointing (a value a box holds in one of its lines only
    /// leaves the rest of that line) and claiming (a value a line holds in one box only leaves
    /// the rest of that box). Singles alone leave 25x25 decodes guessing where these rules
    /// would have decided, and every guess is a chance to go wrong. `None` on a
    /// contradiction, else whether anything was removed. The intersection unions are computed
    /// once per pass; removals only shrink candidates, so a stale union is a superset and
    /// every deduction from it still holds (a value it shows that has gone from the whole box
    /// or line was already a contradiction, which `remove` reports). Only dirty boxes are
    /// recomputed and looked at (pointing), and only the lines of their bands and stacks
    /// (claiming): elsewhere nothing changed since the last pass drew its deductions, so the
    /// pass removes exactly what a full one would, for a fraction of the work.
    fn locked(&mut self) -> Option<bool> {
        let (o, n) = (self.geo.order, self.geo.size);
        let dirty = std::mem::take(&mut self.work.dirty);
        if dirty == 0 {
            return Some(false);
        }
        let (mut bands, mut stacks) = (0u64, 0u64);
        let mut left = dirty;
        while left != 0 {
            let b = left.trailing_zeros() as usize;
            left &= left - 1;
            bands |= 1 << (b / o);
            stacks |= 1 << (b % o);
            let w = &mut self.work;
            w.rmask[b * o..(b + 1) * o].fill(0);
            w.cmask[b * o..(b + 1) * o].fill(0);
            let unit = 2 * n + b;
            for &c in &self.geo.units[unit * n..(unit + 1) * n] {
                let c = usize::from(c);
                let [ri, ci] = self.geo.cross[c];
                w.rmask[usize::from(ri)] |= w.cand[c];
                w.cmask[usize::from(ci)] |= w.cand[c];
            }
        }
        let mut changed = false;
        // The values in at least two of `o` masks.
        let twice = |m: &[u64; 6]| {
            let (mut once, mut twice) = (0u64, 0u64);
            for &x in &m[..o] {
                twice |= once & x;
                once |= x;
            }
            twice
        };
        let mut loc = [0u64; 6];
        let mut left = dirty;
        while left != 0 {
            let b = left.trailing_zeros() as usize;
            left &= left - 1;
            for rows in [true, false] {
                for (i, l) in loc.iter_mut().enumerate().take(o) {
                    *l = self.cross(rows, b, i);
                }
                let more = twice(&loc);
                for (i, &l) in loc.iter().enumerate().take(o) {
                    let only = l & !more;
                    for k in 0..o {
                        let b2 = if rows { b / o * o + k } else { k * o + b % o };
                        if only != 0 && b2 != b && self.cross(rows, b2, i) & only != 0 {
                            changed |= self.clear_cross(rows, b2, i, only)?;
                        }
                    }
                }
            }
        }
        for rows in [true, false] {
            let touched = if rows { bands } else { stacks };
            for line in 0..n {
                let (band, i) = (line / o, line % o);
                if touched & (1 << band) == 0 {
                    continue;
                }
                let bx = |k: usize| if rows { band * o + k } else { k * o + band };
                for (k, l) in loc.iter_mut().enumerate().take(o) {
                    *l = self.cross(rows, bx(k), i);
                }
                let more = twice(&loc);
                for (k, &l) in loc.iter().enumerate().take(o) {
                    let (b, only) = (bx(k), l & !more);
                    for i2 in 0..o {
                        if only != 0 && i2 != i && self.cross(rows, b, i2) & only != 0 {
                            changed |= self.clear_cross(rows, b, i2, only)?;
                        }
                    }
                }
            }
        }
        Some(changed)
    }

    /// Singles to a fixpoint, then locked candidates, until neither changes anything; false on
    /// a contradiction.
    fn propagate_all(&mut self) -> bool {
        if !self.propagate() {
            return false;
        }
        loop {
            match self.locked() {
                None => {
                    self.queue.clear();
                    return false;
                }
                Some(false) if self.queue.is_empty() => return true,
                Some(_) => {
                    if !self.propagate() {
                        return false;
                    }
                }
            }
        }
    }

    /// The unplaced cell with the fewest candidates (first on a tie), or `None` when full.
    fn pick_cell(&self) -> Option<usize> {
        let mut best = None;
        let mut best_n = u32::MAX;
        for (c, &m) in self.work.cand.iter().enumerate() {
            if self.work.val[c] == 0 {
                let k = m.count_ones();
                if k < best_n {
                    best_n = k;
                    best = Some(c);
                    if k <= 2 {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Decode `pref` (one preferred 0-based value per cell), recording the decisions. Returns
    /// the fitness: cells unplaced when a refutation contradicts, 0 when the grid is complete
    /// (the solution is then in `self.work.val`).
    fn decode(&mut self, pref: &[u8], decisions: &mut Vec<Decision>) -> u32 {
        self.work.copy_from(&self.base);
        self.queue.clear();
        decisions.clear();
        let n = self.geo.size as u32;
        while let Some(c) = self.pick_cell() {
            let m = self.work.cand[c];
            let p = u32::from(pref[c]);
            // The first candidate at or after the preferred value, cyclically.
            let above = m >> p;
            let v = if above != 0 {
                p + above.trailing_zeros()
            } else {
                m.trailing_zeros()
            };
            debug_assert!(v < n);
            // A value whose propagation fails is refuted rather than ending the decode: the
            // state before it comes back, the value leaves the cell, and the cell is chosen
            // again (a one-level probe; the decode stays a function of `pref`).
            self.save.copy_from(&self.work);
            if self.place(c, v as u8) && self.propagate_all() {
                decisions.push(Decision {
                    cell: c as u16,
                    value: v as u8,
                    cands: m,
                });
                continue;
            }
            self.work.copy_from(&self.save);
            self.queue.clear();
            if !(self.remove(c, v as usize) && self.propagate_all()) {
                return (self.geo.cells - self.work.placed) as u32;
            }
        }
        0
    }

    /// The current grid, values `1..=N`.
    fn solution(&self) -> Vec<u8> {
        self.work.val.clone()
    }
}

/// How often a neighbour takes the best-so-far source's value at the changed cell (the
/// colony's shared memory); the rest of the time it takes a random other candidate. Below one
/// half so that the sources keep more of their own diversity instead of all drifting to the
/// best one, which is what stalls them at the 25x25 phase transition (docs/reproduction.md).
const SHARE: f64 = 0.25;

/// The `k`-th set bit of `m` (0-based).
fn nth_bit(mut m: u64, k: u32) -> u8 {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// Per-job buffers of the colony.
struct Colony {
    sources: usize,
    cells: usize,
    size: usize,
    pref: Vec<u8>,
    fit: Vec<u32>,
    trial: Vec<u32>,
    decisions: Vec<Vec<Decision>>,
    cand_pref: Vec<u8>,
    cand_dec: Vec<Decision>,
    best_pref: Vec<u8>,
    best: u32,
}

impl Colony {
    fn new(sources: usize, cells: usize, size: usize) -> Colony {
        Colony {
            sources,
            cells,
            size,
            pref: vec![0; sources * cells],
            fit: vec![u32::MAX; sources],
            trial: vec![0; sources],
            decisions: vec![Vec::with_capacity(cells); sources],
            cand_pref: vec![0; cells],
            cand_dec: Vec::with_capacity(cells),
            best_pref: vec![0; cells],
            best: u32::MAX,
        }
    }

    /// Fill the candidate buffer with a fresh random source.
    fn random_candidate<R: Rng>(&mut self, rng: &mut R) {
        let n = self.size as u8;
        for p in &mut self.cand_pref {
            *p = rng.random_range(0..n);
        }
    }

    /// Fill the candidate buffer with a neighbour of source `i`: one of its decisions changed
    /// to another candidate of that cell. False when the source has no decision to change.
    fn neighbour<R: Rng>(&mut self, i: usize, rng: &mut R) -> bool {
        let dec = &self.decisions[i];
        if dec.is_empty() {
            return false;
        }
        self.cand_pref
            .copy_from_slice(&self.pref[i * self.cells..(i + 1) * self.cells]);
        // Later decisions more often: the lower of a uniform index and a uniform index above it.
        let j = rng.random_range(0..dec.len());
        let j = rng.random_range(j..dec.len());
        let d = dec[j];
        let others = d.cands & !(1u64 << d.value);
        if others == 0 {
            return false;
        }
        let c = usize::from(d.cell);
        let from_best = self.best_pref[c];
        let v =
            if self.best != u32::MAX && rng.random_bool(SHARE) && others & (1u64 << from_best) != 0
            {
                from_best
            } else {
                nth_bit(others, rng.random_range(0..others.count_ones()))
            };
        // Keep the earlier decisions as they were: pin each to the value it took.
        for e in &dec[..j] {
            self.cand_pref[usize::from(e.cell)] = e.value;
        }
        self.cand_pref[c] = v;
        true
    }

    /// Decode the candidate buffer; remember it as the best when it is.
    fn evaluate(&mut self, dec: &mut Decoder) -> u32 {
        let f = dec.decode(&self.cand_pref, &mut self.cand_dec);
        if f < self.best {
            self.best = f;
            self.best_pref.copy_from_slice(&self.cand_pref);
            for d in &self.cand_dec {
                self.best_pref[usize::from(d.cell)] = d.value;
            }
        }
        f
    }

    /// Store the candidate buffer as source `i` with fitness `f`.
    fn store(&mut self, i: usize, f: u32) {
        self.pref[i * self.cells..(i + 1) * self.cells].copy_from_slice(&self.cand_pref);
        std::mem::swap(&mut self.decisions[i], &mut self.cand_dec);
        self.fit[i] = f;
        self.trial[i] = 0;
    }
}

/// Solve the order-`order` grid `cells` (row-major, 0 = blank, else `1..=order²`). `stop` is
/// checked once per cycle; `trace` gets the best fitness after the initial sources and after
/// each cycle.
pub fn solve<R: Rng>(
    order: usize,
    cells: &[u8],
    params: &PropParams,
    rng: &mut R,
    stop: &mut dyn FnMut() -> bool,
    mut trace: Option<&mut Vec<u32>>,
) -> PropResult {
    let mut r = PropResult {
        end: PropEnd::NoSolution,
        solution: None,
        cycles: 0,
        evaluations: 0,
        scouts: 0,
        best: u32::MAX,
    };
    // Only orders 2-6 with their cell count are grids (the callers never pass anything else).
    if !(2..=6).contains(&order) || cells.len() != order.pow(4) {
        return r;
    }
    let Some(mut dec) = Decoder::new(order, cells) else {
        return r;
    };
    let total = dec.geo.cells;
    let limit = match params.limit {
        0 => 10 * (order.saturating_sub(2).max(1) as u32),
        l => l,
    };
    let mut col = Colony::new((params.colony_size / 2).max(1), total, dec.geo.size);
    let solved = |dec: &Decoder, mut r: PropResult| {
        r.end = PropEnd::Solved;
        r.best = 0;
        r.solution = Some(dec.solution());
        r
    };
    if dec.base.placed == total {
        dec.work.copy_from(&dec.base);
        return solved(&dec, r);
    }
    for i in 0..col.sources {
        col.random_candidate(rng);
        let f = col.evaluate(&mut dec);
        r.evaluations += 1;
        if f == 0 {
            r.best = col.best;
            return solved(&dec, r);
        }
        col.store(i, f);
    }
    r.best = col.best;
    if let Some(t) = trace.as_deref_mut() {
        t.push(col.best);
    }
    while r.cycles < params.max_cycles {
        if stop() {
            r.end = PropEnd::Stopped;
            return r;
        }
        r.cycles += 1;
        let found = match params.mode {
            Mode::Colony => colony_cycle(&mut col, &mut dec, limit, rng, &mut r),
            Mode::Restarts => restart_cycle(&mut col, &mut dec, params.colony_size, rng, &mut r),
        };
        r.best = col.best;
        if let Some(t) = trace.as_deref_mut() {
            t.push(col.best);
        }
        if found {
            return solved(&dec, r);
        }
    }
    r.end = PropEnd::MaxCycles;
    r
}

/// One try at improving source `i`; true when the neighbour solves the puzzle.
fn improve<R: Rng>(
    col: &mut Colony,
    dec: &mut Decoder,
    i: usize,
    rng: &mut R,
    r: &mut PropResult,
) -> bool {
    if !col.neighbour(i, rng) {
        col.trial[i] += 1;
        return false;
    }
    let f = col.evaluate(dec);
    r.evaluations += 1;
    if f == 0 {
        return true;
    }
    if f <= col.fit[i] {
        let improved = f < col.fit[i];
        let trial = col.trial[i];
        col.store(i, f);
        if !improved {
            col.trial[i] = trial + 1;
        }
    } else {
        col.trial[i] += 1;
    }
    false
}

/// Employed, onlooker and scout phases; true when a decode solved the puzzle.
fn colony_cycle<R: Rng>(
    col: &mut Colony,
    dec: &mut Decoder,
    limit: u32,
    rng: &mut R,
    r: &mut PropResult,
) -> bool {
    for i in 0..col.sources {
        if improve(col, dec, i, rng, r) {
            return true;
        }
    }
    for _ in 0..col.sources {
        let worst = col.fit.iter().copied().max().unwrap_or(0);
        let total: u64 = col.fit.iter().map(|&f| u64::from(worst - f) + 1).sum();
        let mut pick = rng.random_range(0..total);
        let mut i = 0;
        for (k, &f) in col.fit.iter().enumerate() {
            let w = u64::from(worst - f) + 1;
            if pick < w {
                i = k;
                break;
            }
            pick -= w;
        }
        if improve(col, dec, i, rng, r) {
            return true;
        }
    }
    for i in 0..col.sources {
        if col.trial[i] >= limit {
            col.random_candidate(rng);
            let f = col.evaluate(dec);
            r.evaluations += 1;
            r.scouts += 1;
            if f == 0 {
                return true;
            }
            col.store(i, f);
        }
    }
    false
}

/// `colony_size` fresh random sources; true when one solved the puzzle.
fn restart_cycle<R: Rng>(
    col: &mut Colony,
    dec: &mut Decoder,
    colony_size: usize,
    rng: &mut R,
    r: &mut PropResult,
) -> bool {
    for _ in 0..colony_size.max(1) {
        col.random_candidate(rng);
        let f = col.evaluate(dec);
        r.evaluations += 1;
        r.scouts += 1;
        if f == 0 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// An independent check (plain loops, nothing shared with the decoder): every row, column
    /// and box holds 1..=N once, and every given is kept.
    fn valid(order: usize, puzzle: &[u8], sol: &[u8]) -> bool {
        let n = order * order;
        let unit_ok = |cells: Vec<usize>| {
            let mut seen = vec![false; n + 1];
            cells.into_iter().all(|c| {
                let v = usize::from(sol[c]);
                (1..=n).contains(&v) && !std::mem::replace(&mut seen[v], true)
            })
        };
        (0..n).all(|i| {
            unit_ok((0..n).map(|j| i * n + j).collect())
                && unit_ok((0..n).map(|j| j * n + i).collect())
                && unit_ok(
                    (0..n)
                        .map(|j| {
                            let (br, bc) = (i / order * order, i % order * order);
                            (br + j / order) * n + bc + j % order
                        })
                        .collect(),
                )
        }) && puzzle.iter().zip(sol).all(|(&g, &s)| g == 0 || g == s)
    }

    fn digits(s: &str) -> Vec<u8> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    const HARD: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    fn params(mode: Mode) -> PropParams {
        PropParams {
            colony_size: 20,
            limit: 20,
            max_cycles: 100_000,
            mode,
        }
    }

    fn run(order: usize, cells: &[u8], mode: Mode, seed: u64) -> PropResult {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        solve(order, cells, &params(mode), &mut rng, &mut || false, None)
    }

    #[test]
    fn geometry_has_the_right_peers_and_units() {
        for order in 2..=6 {
            let g = Geometry::new(order);
            let n = order * order;
            assert_eq!(g.peers.len(), n * n * (3 * n - 2 * order - 1));
            assert_eq!(g.units.len(), 3 * n * n);
            // Every cell is in exactly three units.
            let mut hits = vec![0; n * n];
            for &c in &g.units {
                hits[usize::from(c)] += 1;
            }
            assert!(hits.iter().all(|&h| h == 3));
        }
    }

    #[test]
    fn both_modes_solve_a_hard_9x9_and_every_answer_is_valid() {
        let p = digits(HARD);
        for mode in [Mode::Colony, Mode::Restarts] {
            for seed in 0..3 {
                let r = run(3, &p, mode, seed);
                assert_eq!(r.end, PropEnd::Solved, "{mode:?} seed {seed}");
                let s = r.solution.as_deref().unwrap_or_default();
                assert!(valid(3, &p, s), "{mode:?}");
                assert_eq!(r.best, 0);
                assert!(r.evaluations >= 1);
            }
        }
    }

    #[test]
    fn blank_grids_of_every_order_are_completed() {
        for order in 2..=5usize {
            let p = vec![0u8; order.pow(4)];
            let r = run(order, &p, Mode::Colony, 7);
            assert_eq!(r.end, PropEnd::Solved, "order {order}");
            assert!(valid(order, &p, r.solution.as_deref().unwrap_or_default()));
        }
    }

    #[test]
    fn same_seed_same_result_and_restarts_count_every_source_as_a_scout() {
        let p = digits(HARD);
        assert_eq!(run(3, &p, Mode::Colony, 5), run(3, &p, Mode::Colony, 5));
        let r = run(3, &p, Mode::Restarts, 5);
        assert_eq!(
            r.scouts + 10,
            r.evaluations,
            "10 initial sources, then scouts only"
        );
    }

    #[test]
    fn contradictory_givens_are_no_solution_and_a_budget_ends_the_run() {
        // Two 1s forced into row 1 by the columns: r1c1 can only be 1 ... simplest: a cell
        // whose row and column between them hold every digit.
        let mut p = vec![0u8; 81];
        for (i, v) in (1..=8).enumerate() {
            p[i + 1] = v; // row 1, columns 2-9 hold 1-8
        }
        p[9 * 4] = 9; // r5c1 = 9: r1c1 has no candidate left
        assert_eq!(run(3, &p, Mode::Colony, 1).end, PropEnd::NoSolution);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut calls = 0;
        let r = solve(
            3,
            &digits(HARD),
            &params(Mode::Colony),
            &mut rng,
            &mut || {
                calls += 1;
                calls > 1
            },
            None,
        );
        assert!(matches!(r.end, PropEnd::Stopped | PropEnd::Solved));
        let mut trace = Vec::new();
        let one = PropParams {
            max_cycles: 1,
            ..params(Mode::Colony)
        };
        let r = solve(
            3,
            &digits(HARD),
            &one,
            &mut rng,
            &mut || false,
            Some(&mut trace),
        );
        assert!(r.cycles <= 1 && (r.end == PropEnd::Solved || r.end == PropEnd::MaxCycles));
        assert!(!trace.is_empty() && trace.windows(2).all(|w| w[1] <= w[0]));
    }

    #[test]
    fn a_value_that_contradicts_is_refuted_and_the_decode_goes_on() {
        // Walk the all-lowest-values decode of HARD to the first decision where some
        // candidate fails under propagation; prefer that candidate there. The decode must
        // not keep it and must carry on past that decision.
        let p = digits(HARD);
        let mut d = Decoder::new(3, &p).expect("consistent givens");
        d.work.copy_from(&d.base);
        let mut before = d.base.clone();
        let mut found = None;
        while let Some(c) = d.pick_cell() {
            before.copy_from(&d.work);
            let m = before.cand[c];
            let failing = (0..9u8).filter(|&v| m & (1 << v) != 0).find(|&v| {
                d.work.copy_from(&before);
                d.queue.clear();
                !(d.place(c, v) && d.propagate_all())
            });
            if let Some(v) = failing {
                found = Some((c, v, before.placed));
                break;
            }
            d.work.copy_from(&before);
            assert!(d.place(c, m.trailing_zeros() as u8) && d.propagate_all());
        }
        let (c, v, placed) = found.expect("some decision of HARD has a failing candidate");
        let mut pref = vec![0u8; 81];
        pref[c] = v;
        let mut dec = Vec::new();
        let f = d.decode(&pref, &mut dec);
        assert!(!dec.iter().any(|e| usize::from(e.cell) == c && e.value == v));
        assert!(
            d.work.placed > placed,
            "the decode went past the refuted value"
        );
        assert_eq!(f as usize, 81 - d.work.placed);
        if f == 0 {
            assert!(valid(3, &p, &d.solution()));
        }
    }

    #[test]
    fn a_decode_stops_when_a_refutation_contradicts_and_counts_what_is_left() {
        let p = digits(HARD);
        let mut d = Decoder::new(3, &p).expect("consistent givens");
        let mut dec = Vec::new();
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        for _ in 0..50 {
            let pref: Vec<u8> = (0..81).map(|_| rng.random_range(0..9)).collect();
            let f = d.decode(&pref, &mut dec);
            assert_eq!(f as usize, 81 - d.work.placed);
            // Placed values never clash: every placed cell differs from its placed peers.
            for c in 0..81 {
                let v = d.work.val[c];
                if v != 0 {
                    let peers = &d.geo.peers[c * 20..(c + 1) * 20];
                    assert!(peers.iter().all(|&q| d.work.val[usize::from(q)] != v));
                }
            }
            if f == 0 {
                assert!(valid(3, &p, &d.solution()));
            }
        }
    }
}
