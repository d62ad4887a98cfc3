//! Artificial Bee Colony for Sudoku, as in the article, with its defects fixed: neighbours come
//! only from boxes with at least two free cells (no wasted evaluation), and a swap is scored by
//! its delta on the lines it touches (no rebuild, no allocation per move).
//!
//! Cycle = employed phase (one neighbour per source, greedy `<` replacement), onlooker phase
//! (`sources` roulette picks on weight `max_conflicts - conflicts + 1`, weights fixed at the start
//! of the phase, one neighbour per pick), scout phase (a source with `trial >= limit` is replaced
//! by a random one). The run stops as soon as a zero-conflict source exists.

use std::fmt;
use std::str::FromStr;

use rand::Rng;

use super::encoding::{Layout, Move, Source};
use super::grid::{Solution, SudokuPuzzle};
use super::presolve;

/// When a source that keeps failing to improve is abandoned to a scout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// After this many consecutive non-improving neighbours (the article's 50).
    Fixed(u32),
    /// After `15 + 5 * conflicts` of that source: patient near a solution, quick to restart far
    /// from one (the article's suggested improvement).
    Adaptive,
}

impl Limit {
    /// The abandonment threshold for a source with `conflicts` conflicts.
    #[inline]
    pub fn for_conflicts(self, conflicts: u32) -> u32 {
        match self {
            Limit::Fixed(n) => n,
            Limit::Adaptive => conflicts.saturating_mul(5).saturating_add(15),
        }
    }
}

impl FromStr for Limit {
    type Err = String;
    /// `"50"` (a positive count) or `"adaptive"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("adaptive") {
            return Ok(Limit::Adaptive);
        }
        match t.parse::<u32>() {
            Ok(0) => Err("limit must be at least 1".into()),
            Ok(n) => Ok(Limit::Fixed(n)),
            Err(_) => Err(format!(
                "invalid limit {s:?}: expected a positive integer or \"adaptive\""
            )),
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Fixed(n) => write!(f, "{n}"),
            Limit::Adaptive => f.write_str("adaptive"),
        }
    }
}

/// Which swaps make a neighbour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Neighbourhood {
    /// Two free cells of one box (the article's move): boxes always stay whole, fitness counts
    /// row and column duplicates.
    Box,
    /// Two free cells of different boxes in one row or column (the article's suggested variant);
    /// boxes may break, so box duplicates count in the fitness too.
    ///
    /// Measured weakness, inherent to the definition rather than to this code: sources start
    /// with every box whole, and from such a source every cross-box swap adds exactly 2 box
    /// duplicates while it can remove at most 2 row or column duplicates, so no single move is
    /// strictly better and the greedy rule never accepts one. The variant then only samples
    /// fresh random sources through its scouts (see docs/performance.md §Design measurements).
    CrossBox,
}

impl Neighbourhood {
    /// `"box"` or `"cross-box"`, as parsed.
    pub fn name(self) -> &'static str {
        match self {
            Neighbourhood::Box => "box",
            Neighbourhood::CrossBox => "cross-box",
        }
    }
}

impl FromStr for Neighbourhood {
    type Err = String;
    /// `"box"` or `"cross-box"`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "box" => Ok(Neighbourhood::Box),
            "cross-box" => Ok(Neighbourhood::CrossBox),
            _ => Err(format!(
                "invalid neighbourhood {s:?}: expected \"box\" or \"cross-box\""
            )),
        }
    }
}

impl fmt::Display for Neighbourhood {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Colony parameters. Call [`AbcParams::validate`] before [`solve`]; `solve` itself never panics
/// on bad values (it uses at least two sources).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AbcParams {
    /// Bees; half are employed, so `colony_size / 2` food sources. Default 100.
    pub colony_size: usize,
    /// Abandonment rule. Default `Fixed(50)`.
    pub limit: Limit,
    /// Cycles before giving up. Default 2000.
    pub max_cycles: u64,
    /// Move type. Default `Box`.
    pub neighbourhood: Neighbourhood,
    /// Run naked and hidden singles first and the colony on what is left (`abc-hybrid`).
    pub presolve: bool,
}

impl Default for AbcParams {
    fn default() -> Self {
        AbcParams {
            colony_size: 100,
            limit: Limit::Fixed(50),
            max_cycles: 2000,
            neighbourhood: Neighbourhood::Box,
            presolve: false,
        }
    }
}

impl AbcParams {
    /// `colony_size` >= 4 and even, `max_cycles` >= 1, a fixed limit >= 1.
    pub fn validate(&self) -> Result<(), String> {
        if self.colony_size < 4
            || !self.colony_size.is_multiple_of(2)
            || self.colony_size > MAX_COLONY_SIZE
        {
            return Err(format!(
                "colony size must be an even number from 4 to {MAX_COLONY_SIZE}, got {}",
                self.colony_size
            ));
        }
        if !(1..=MAX_CYCLES).contains(&self.max_cycles) {
            return Err(format!(
                "max cycles must be from 1 to {MAX_CYCLES}, got {}",
                self.max_cycles
            ));
        }
        if self.limit == Limit::Fixed(0) {
            return Err("limit must be at least 1".into());
        }
        Ok(())
    }
}

/// The largest `--colony-size`: a colony holds about 1.3 KiB a bee (the source, and its share
/// of the roulette table), so this is about 130 MiB a worker.
pub const MAX_COLONY_SIZE: usize = 100_000;

/// The largest `--max-cycles`: a trillion cycles is days of one colony's work; a larger
/// number is a typo, not a plan.
pub const MAX_CYCLES: u64 = 1_000_000_000_000;

impl AbcParams {
    /// Bytes one colony holds while it runs (its sources, conflicts, roulette table, drawn
    /// moves and scout bits), the same sizes as the allocations [`solve`] makes: what a worker
    /// needs for one job, for the estimate of a plan's memory before it runs.
    pub fn memory_bytes(&self) -> u64 {
        let n = (self.colony_size / 2).max(2);
        let per_source = std::mem::size_of::<Source>()
            + std::mem::size_of::<u32>()
            + std::mem::size_of::<Move>()
            + std::mem::size_of::<(u32, Move)>()
            + (MAX_CONFLICTS as usize + 1) * std::mem::size_of::<u32>()
            + 1;
        (n * per_source + FILL_CHUNK * 4 + NARROW_TABLE) as u64
    }
}

/// How an ABC run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AbcEnd {
    /// A zero-conflict source was found (or presolve filled the grid).
    Solved,
    /// `max_cycles` cycles ran without a solution. Also reported, with `cycles = 0`, when the
    /// neighbourhood has no move at all on this grid and the only encoding is not a solution.
    MaxCycles,
    /// The `stop` callback asked to stop.
    Stopped,
    /// The presolver proved the puzzle has no solution (hybrid only).
    PresolveContradiction,
}

/// Outcome and counters of one ABC run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbcResult {
    /// How the run ended.
    pub end: AbcEnd,
    /// The solution when solved.
    pub solution: Option<Solution>,
    /// The 1-based cycle in which a zero-conflict source first existed; 0 when solved at
    /// initialisation or by presolve; the number of cycles run when not solved.
    pub cycles: u64,
    /// Fitness evaluations: initial sources, every neighbour, every scout's new source.
    pub evaluations: u64,
    /// Sources abandoned and replaced by scouts.
    pub scouts: u64,
    /// Fewest conflicts any source ever had (0 when solved). 0 as well after a presolve
    /// contradiction, where no source was built.
    pub best_conflicts: u32,
    /// Blanks left by the presolver: Some only with `presolve` (None after a contradiction).
    pub empties_after_presolve: Option<u32>,
}

/// Runs the colony on `puzzle`. `stop` polled once per cycle. `trace`, when Some, receives the
/// best conflict count after initialisation (index 0) and after each cycle (so `cycles + 1`
/// entries; a single 0 when presolve fills the grid, none after a presolve contradiction).
/// The run ends inside the cycle where a source first reaches 0 conflicts. All randomness comes
/// from `rng`, so a seeded generator gives the same run every time. `R: Clone` because each
/// cycle draws from a local copy (kept in registers) that is written back at its end: the
/// draws, and the generator's state after the run, are exactly those of drawing through `rng`.
pub fn solve<R: Rng + Clone>(
    puzzle: &SudokuPuzzle,
    params: &AbcParams,
    rng: &mut R,
    stop: &mut dyn FnMut() -> bool,
    trace: Option<&mut Vec<u32>>,
) -> AbcResult {
    solve_on(has_bmi2(), puzzle, params, rng, stop, trace)
}

/// [`solve`] on a chosen build of the cycle: the BMI2 one when `bmi2` (the CPU must have BMI1
/// and BMI2), else the portable one. Tests run both and compare.
fn solve_on<R: Rng + Clone>(
    bmi2: bool,
    puzzle: &SudokuPuzzle,
    params: &AbcParams,
    rng: &mut R,
    stop: &mut dyn FnMut() -> bool,
    trace: Option<&mut Vec<u32>>,
) -> AbcResult {
    let mut trace = trace;
    let (grid, empties) = if params.presolve {
        match presolve::singles(puzzle) {
            Err(_) => {
                return AbcResult {
                    end: AbcEnd::PresolveContradiction,
                    solution: None,
                    cycles: 0,
                    evaluations: 0,
                    scouts: 0,
                    best_conflicts: 0,
                    empties_after_presolve: None,
                }
            }
            Ok((filled, 0)) => {
                if let Some(t) = trace.as_deref_mut() {
                    t.push(0);
                }
                return AbcResult {
                    end: AbcEnd::Solved,
                    solution: Some(*filled.cells()),
                    cycles: 0,
                    evaluations: 0,
                    scouts: 0,
                    best_conflicts: 0,
                    empties_after_presolve: Some(0),
                };
            }
            // Presolved cells are sound deductions, so the colony treats them as givens.
            Ok((filled, left)) => (filled, Some(left)),
        }
    } else {
        (*puzzle, None)
    };
    let mut result = match params.neighbourhood {
        Neighbourhood::Box => Colony::<false>::run(bmi2, &grid, params, rng, stop, trace),
        Neighbourhood::CrossBox => Colony::<true>::run(bmi2, &grid, params, rng, stop, trace),
    };
    result.empties_after_presolve = empties;
    result
}

/// Entries of the roulette table one fill step writes (see [`fill_table`]): 32 bytes of one-byte
/// entries, two vector stores, which cover the whole run of most sources at once (16 entries took
/// more steps a source and more instructions; see docs/performance.md §Design measurements).
const FILL_CHUNK: usize = 32;

/// The largest fitness a source can have: 27 lines (boxes count in the cross-box variant) of
/// at most 8 repeats each. It bounds the roulette weights, hence the table the roulette needs.
const MAX_CONFLICTS: u32 = 27 * 8;

/// Colonies of at most this many sources keep their roulette table in bytes (a quarter of the
/// stores of a `u32` one, and a quarter of the cache lines).
const NARROW_SOURCES: usize = 256;

/// An onlooker phase's roulette: the table from target to source (see [`fill_table`]), in
/// bytes or in words by the colony's size, and the total weight times 2^-53 as a float (see
/// `roulette_target`). The word table is its live part, `total` entries; the byte table is
/// whole, with `total` beside it (see [`narrow_pick`]).
#[derive(Clone, Copy)]
enum Roulette<'r> {
    Narrow(&'r [u8; NARROW_TABLE], usize, f64),
    Wide(&'r [u32], f64),
}

/// A roulette table entry: the index of a source.
trait Entry: Copy {
    /// The entry for source `i`; `i` fits (a `u8` table serves at most [`NARROW_SOURCES`]).
    fn of(i: usize) -> Self;
    fn index(self) -> u32;
}

impl Entry for u8 {
    #[inline(always)]
    fn of(i: usize) -> u8 {
        debug_assert!(i < NARROW_SOURCES);
        i as u8
    }
    #[inline(always)]
    fn index(self) -> u32 {
        u32::from(self)
    }
}

impl Entry for u32 {
    #[inline(always)]
    fn of(i: usize) -> u32 {
        i as u32
    }
    #[inline(always)]
    fn index(self) -> u32 {
        self
    }
}

/// Fills the roulette table for weights `max - conflicts[i] + 1`: entry `t`, for each target
/// `t` below the total weight, is the first source whose cumulative weight exceeds `t`, so
/// source `i` fills the `weight[i]` entries from `cum[i - 1]`. `table` needs `total +
/// FILL_CHUNK` entries. Each source writes whole chunks from its run's start until its run is
/// covered: what it writes past its run's end, the next source overwrites (its run starts
/// there), and the last source's overshoot lands in the padding, which no pick reads.
#[inline(always)]
fn fill_table<T: Entry>(table: &mut [T], conflicts: &[u32], max: u32) {
    let mut start = 0;
    for (i, &c) in conflicts.iter().enumerate() {
        let end = start + (max - c) as usize + 1;
        let entry = T::of(i);
        // Every run needs a first chunk; a second is rare (weights above FILL_CHUNK), so the
        // common case is straight-line code.
        table[start..start + FILL_CHUNK].fill(entry);
        let mut at = start + FILL_CHUNK;
        while at < end {
            table[at..at + FILL_CHUNK].fill(entry);
            at += FILL_CHUNK;
        }
        start = end;
    }
}

/// Live entries a byte table has room for: a power of two no smaller than the largest total
/// weight of a byte-table colony, so [`fill_narrow`] masks a chunk's start into the table (one
/// `and`) where a clamp took a compare, a move and a conditional move.
const NARROW_SPAN: usize = 1 << 16;
const _: () = assert!(NARROW_SOURCES * (MAX_CONFLICTS as usize + 1) <= NARROW_SPAN);

/// Length of a byte table: [`NARROW_SPAN`] and two chunks of padding (for the two-chunk
/// stores of [`fill_narrow`]).
const NARROW_TABLE: usize = NARROW_SPAN + 2 * FILL_CHUNK;

/// [`fill_table`] for a byte table (at most [`NARROW_SOURCES`] sources, `table` at least
/// [`NARROW_TABLE`] long, as the colony allocates it): the same entries below the total weight
/// (the padding past it may differ), with fewer instructions a source. A run starts at a
/// partial sum of the weights, so below [`NARROW_SPAN`], where the mask leaves it unchanged:
/// masked, the compiler sees every chunk within the fixed-size table and drops the bounds
/// checks. The chunk of source `i` is kept in a vector register, one byte add from the previous
/// source's (no broadcast per source). When no run is longer than two chunks (the usual
/// case), the runs' ends go unchecked.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn fill_narrow(table: &mut [u8], conflicts: &[u32], max: u32) {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_set1_epi8, _mm_setzero_si128, _mm_storeu_si128,
    };
    debug_assert!(conflicts.len() <= NARROW_SOURCES);
    let Some(table) = table.first_chunk_mut::<NARROW_TABLE>() else {
        // Not reached: the colony allocates NARROW_TABLE bytes; the generic fill is right
        // for any table of `total + FILL_CHUNK` entries.
        fill_table(table, conflicts, max);
        return;
    };
    let store = |at: usize, chunk: __m128i, table: &mut [u8; NARROW_TABLE]| {
        let at = at & (NARROW_SPAN - 1);
        let dst = &mut table[at..at + FILL_CHUNK];
        // SAFETY: `dst` is a slice of FILL_CHUNK (32) bytes, so both 16-byte unaligned stores
        // land inside it; SSE2 is part of this build's target (the `cfg` above).
        unsafe {
            _mm_storeu_si128(dst.as_mut_ptr().cast(), chunk);
            _mm_storeu_si128(dst.as_mut_ptr().add(16).cast(), chunk);
        }
    };
    // Sixteen copies of source i's index.
    // SAFETY: SSE2 only, which the `cfg` says this build targets; these intrinsics work on
    // values, touching no memory.
    let (mut chunk, one) = unsafe { (_mm_setzero_si128(), _mm_set1_epi8(1)) };

    // The OR of the `max - c`, one cheap vector pass: below a power of two exactly when each
    // is. When every weight `max - c + 1` fits one chunk, or two, that much from each run's
    // start covers it, with no end check (a compare and a branch a source, and a second round
    // of the loop for a run past one chunk). The usual case: a colony's fitnesses lie within a
    // few tens of each other (see docs/performance.md §Design measurements).
    let spread = conflicts.iter().fold(0, |spread, &c| spread | (max - c));
    let unchecked = |chunks: usize, table: &mut [u8; NARROW_TABLE]| {
        // SAFETY: as above, SSE2 on values only.
        let mut chunk = unsafe { _mm_setzero_si128() };
        let mut start = 0;
        for &c in conflicts {
            // Both chunks from one masked start (one `and` where the second chunk's own
            // start took a second): the table has two chunks of padding past NARROW_SPAN.
            let at = start & (NARROW_SPAN - 1);
            let dst = &mut table[at..at + 2 * FILL_CHUNK];
            // SAFETY: `dst` is a slice of 2 * FILL_CHUNK (64) bytes, and the stores write its
            // first 16 * 2 * chunks <= 64; SSE2 as above.
            unsafe {
                for k in 0..2 * chunks {
                    _mm_storeu_si128(dst.as_mut_ptr().add(16 * k).cast(), chunk);
                }
                chunk = _mm_add_epi8(chunk, one);
            }
            // `max + 1 - c`, not `max - c + 1`: one `add` fewer (`max + 1` is kept).
            start += (max + 1 - c) as usize;
        }
    };
    if spread < FILL_CHUNK as u32 {
        unchecked(1, table);
        return;
    }
    if spread < 2 * FILL_CHUNK as u32 {
        unchecked(2, table);
        return;
    }
    let mut start = 0;
    for &c in conflicts {
        let end = start + (max - c) as usize + 1;
        store(start, chunk, table);
        let mut at = start + FILL_CHUNK;
        while at < end {
            store(at, chunk, table);
            at += FILL_CHUNK;
        }
        // SAFETY: SSE2 on values only, as above.
        chunk = unsafe { _mm_add_epi8(chunk, one) };
        start = end;
    }
}

/// The source a roulette draw `u` (one `u64`, as `random::<f64>()` consumes) picks: the entry
/// of the phase's table (its live part, `total` entries) at the draw's target. The target is
/// below `total` (x < 1); the `min` only spares a bounds check (and keeps the scan's answer,
/// the last source, were it ever reached).
#[inline(always)]
fn roulette_pick<T: Entry>(table: &[T], u: u64, scale: f64) -> u32 {
    let target = roulette_target(u >> 11, scale) as usize;
    table[target.min(table.len() - 1)].index()
}

/// [`roulette_pick`] on a whole byte table whose live part is its first `total` entries: the
/// target is below `total` (the float product rounds below it, see `roulette_target`), which
/// is at most [`NARROW_SPAN`], so masking it into the table (one `and`) reads the same entry
/// as the clamp, with no compare, no conditional move and no length to keep in a register:
/// the onlooker draws had spilled it (and two other values) to the stack.
#[inline(always)]
fn narrow_pick(table: &[u8; NARROW_TABLE], total: usize, u: u64, scale: f64) -> u32 {
    let target = roulette_target(u >> 11, scale) as usize;
    debug_assert!(target < total && total <= NARROW_SPAN);
    u32::from(table[target & (NARROW_SPAN - 1)])
}

/// The roulette's target, floor(x * total) for the draw x = `bits` * 2^-53 of `random::<f64>()`
/// (`bits` < 2^53), given `scale` = total * 2^-53 (exact: a power of two times an integer
/// below 2^53). The float product is the article's: x is exact, so x * total and
/// `bits` * `scale` are the same real number, rounded once, to the same double (a test checks
/// it over many draws). One multiplication instead of two.
#[inline(always)]
fn roulette_target(bits: u64, scale: f64) -> u64 {
    let product = bits as f64 * scale;
    // SAFETY: `product` is x * total with 0 <= x < 1 and total < 2^53, so finite and in
    // [0, total], well inside i64. Unchecked because the checked `as` spends float compares
    // and conditional moves on a NaN or an overflow that cannot occur, on every pick.
    unsafe { product.to_int_unchecked::<i64>() as u64 }
}

/// Whether the CPU has BMI1 and BMI2 (see `Colony::cycle`).
fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi1") && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The colony's state for one run; `CROSS` selects the neighbourhood at compile time so the
/// inner loop carries no branch on it.
struct Colony<'a, const CROSS: bool> {
    layout: Layout,
    sources: Vec<Source>,
    /// Fitness of each source, apart from the grids: the roulette and the best-so-far scan
    /// read only these, a few cache lines instead of fifty sources. (The trial counts live in
    /// the sources, see `Source::trial`.)
    conflicts: Vec<u32>,
    /// The onlooker phase's roulette as a table: entry `t` is the source a pick whose target
    /// is `t` takes (see [`fill_table`]), rebuilt once per phase. In bytes up to
    /// [`NARROW_SOURCES`] sources (`wide` then stays empty), else in `wide`.
    narrow: Vec<u8>,
    wide: Vec<u32>,
    /// The employed phase's drawn moves, one per source (see `Colony::phases`), copied out of
    /// the move table as they are drawn: the scoring loops then read each move's fields
    /// straight from this array, with no index to load and mask and no table pointer to hold
    /// (one load more a draw, several fewer a score).
    draws: Vec<Move>,
    /// The onlookers' picked sources with their drawn moves, in pick order: one array, so the
    /// onlooker loops keep one pointer fewer live (they spilled to the stack).
    picks: Vec<(u32, Move)>,
    /// Sources due for a scout, a bit each (source `i` is bit `i % 64` of word `i / 64`): bit
    /// `i` is set exactly when source `i` has failed its limit's worth of neighbours since it
    /// last improved or was made (its `left` reached 0). The scoring loops set a bit as a
    /// count reaches 0, so the scout phase visits only the due sources, in index order as the
    /// article's scan of them all (which read every source each cycle, for about one scout in two
    /// cycles).
    due: Vec<u64>,
    limit: Limit,
    evaluations: u64,
    scouts: u64,
    best: u32,
    /// The CPU has BMI1 and BMI2: cycles run the build of the loops that uses them.
    bmi2: bool,
    trace: Option<&'a mut Vec<u32>>,
}

impl<'a, const CROSS: bool> Colony<'a, CROSS> {
    fn run<R: Rng + Clone>(
        bmi2: bool,
        grid: &SudokuPuzzle,
        params: &AbcParams,
        rng: &mut R,
        stop: &mut dyn FnMut() -> bool,
        trace: Option<&'a mut Vec<u32>>,
    ) -> AbcResult {
        let n = (params.colony_size / 2).max(2);
        let layout = Layout::new(grid);
        // Room for the largest total weight there can be, so no phase has to grow the table.
        let table_len = n * (MAX_CONFLICTS as usize + 1) + FILL_CHUNK;
        let mut colony = Colony::<CROSS> {
            sources: vec![Source::new(&layout); n],
            conflicts: vec![0; n],
            narrow: vec![0; if n <= NARROW_SOURCES { NARROW_TABLE } else { 0 }],
            wide: vec![0; if n <= NARROW_SOURCES { 0 } else { table_len }],
            draws: vec![Move::default(); n],
            picks: vec![(0, Move::default()); n],
            due: vec![0; n.div_ceil(64)],
            limit: params.limit,
            layout,
            evaluations: 0,
            scouts: 0,
            best: u32::MAX,
            bmi2,
            trace,
        };
        for i in 0..n {
            let (source, layout) = (&mut colony.sources[i], &colony.layout);
            let c = if bmi2 {
                Self::randomize::<true, R>(source, layout, rng)
            } else {
                Self::randomize::<false, R>(source, layout, rng)
            };
            colony.conflicts[i] = c;
            restart(colony.limit, &mut colony.due, i, &mut colony.sources[i], c);
            colony.evaluations += 1;
            colony.best = colony.best.min(c);
        }
        colony.record();
        if colony.best == 0 {
            return colony.finish(AbcEnd::Solved, 0);
        }
        if !colony.layout.can_move(CROSS) {
            return colony.finish(AbcEnd::MaxCycles, 0);
        }
        for cycle in 1..=params.max_cycles {
            if stop() {
                return colony.finish(AbcEnd::Stopped, cycle - 1);
            }
            if colony.cycle(rng) {
                colony.record();
                return colony.finish(AbcEnd::Solved, cycle);
            }
            colony.record();
        }
        colony.finish(AbcEnd::MaxCycles, params.max_cycles)
    }

    fn record(&mut self) {
        let best = self.best;
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(best);
        }
    }

    fn finish(self, end: AbcEnd, cycles: u64) -> AbcResult {
        let solution = if end == AbcEnd::Solved {
            self.conflicts
                .iter()
                .position(|&c| c == 0)
                .map(|i| self.sources[i].grid())
        } else {
            None
        };
        AbcResult {
            end,
            solution,
            cycles,
            evaluations: self.evaluations,
            scouts: self.scouts,
            best_conflicts: self.best,
            empties_after_presolve: None,
        }
    }

    /// One neighbour of source `i`, kept if strictly better. True when it reached 0 conflicts.
    /// Takes the source's parts besides its index so the employed phase can walk them with
    /// iterators (no bounds checks); the caller counts the evaluation. A failure counts down
    /// the source's `left`, and marks it due as that reaches 0 (a decrement and a branch on
    /// its flags, where counting up had taken the decrement alone, but the scout phase then
    /// need not compare every source's count with its limit).
    #[inline(always)]
    fn try_move<const BMI2: bool>(
        (best, limit, due): (&mut u32, Limit, &mut [u64]),
        i: usize,
        (source, conflicts): (&mut Source, &mut u32),
        mv: &Move,
    ) -> bool {
        let d = source.delta::<CROSS>(mv);
        if d < 0 {
            Self::apply::<BMI2>(source, mv);
            *conflicts = conflicts.wrapping_add_signed(d);
            restart(limit, due, i, source, *conflicts);
            *best = (*best).min(*conflicts);
            *conflicts == 0
        } else {
            source.left = source.left.wrapping_sub(1);
            if source.left == 0 {
                mark_due(due, i);
            }
            false
        }
    }

    /// [`Source::apply`], out of line, in the build `BMI2` names (the cycle's). Out of line: about
    /// one move in ten is kept, and inlined, this rare path's values crowded the scoring loop's
    /// registers.
    #[inline(always)]
    fn apply<const BMI2: bool>(source: &mut Source, mv: &Move) {
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only inside `cycle_bmi2`, which `cycle` calls only when
            // the CPU reports BMI1 and BMI2.
            unsafe { Self::apply_bmi2(source, mv) };
            return;
        }
        Self::apply_portable(source, mv);
    }

    /// See [`Colony::apply`].
    #[inline(never)]
    fn apply_portable(source: &mut Source, mv: &Move) {
        source.apply::<CROSS>(mv);
    }

    /// [`Colony::apply_portable`] compiled for BMI1 and BMI2: its shifts by a register need no
    /// move into `cl`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline(never)]
    fn apply_bmi2(source: &mut Source, mv: &Move) {
        source.apply::<CROSS>(mv);
    }

    /// [`Source::randomize`], out of line (a fresh source is built about once in two cycles),
    /// in the build `BMI2` names, as [`Colony::apply`].
    #[inline(always)]
    fn randomize<const BMI2: bool, R: Rng + ?Sized>(
        source: &mut Source,
        layout: &Layout,
        rng: &mut R,
    ) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only inside `cycle_bmi2`, which `cycle` calls only when
            // the CPU reports BMI1 and BMI2, or in `run` when `bmi2` says the CPU has them.
            return unsafe { Self::randomize_bmi2(source, layout, rng) };
        }
        Self::randomize_portable(source, layout, rng)
    }

    /// See [`Colony::randomize`].
    #[inline(never)]
    fn randomize_portable<R: Rng + ?Sized>(
        source: &mut Source,
        layout: &Layout,
        rng: &mut R,
    ) -> u32 {
        source.randomize(layout, rng)
    }

    /// [`Colony::randomize_portable`] compiled for BMI1 and BMI2 (the generator's 128-bit
    /// multiplication by `mulx`, shifts without `cl`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline(never)]
    fn randomize_bmi2<R: Rng + ?Sized>(source: &mut Source, layout: &Layout, rng: &mut R) -> u32 {
        source.randomize(layout, rng)
    }

    /// Employed, onlooker and scout phases. True as soon as a source reaches 0 conflicts.
    /// Kept out of line: inlined into the caller's large frame, its loop state spilled to the
    /// stack, the generator's included, which put a store and a reload on every draw.
    ///
    /// Built twice: as is, and for x86-64 CPUs with BMI1 and BMI2 (detected once per run),
    /// whose flag-free shifts by a register (the delta's four, the bounded draws') and
    /// multiplications into any register leave the loops fewer moves and spills. Both builds
    /// run the same code, so the same draws and results.
    #[inline(never)]
    fn cycle<R: Rng + Clone>(&mut self, rng: &mut R) -> bool {
        #[cfg(target_arch = "x86_64")]
        if self.bmi2 {
            // SAFETY: `bmi2` is set only when the CPU reports BMI1 and BMI2 (`solve` asks
            // `has_bmi2`, and the tests that force it check it first).
            return unsafe { self.cycle_bmi2(rng) };
        }
        self.cycle_in::<false, R>(rng)
    }

    /// [`Colony::cycle`] compiled for BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    fn cycle_bmi2<R: Rng + Clone>(&mut self, rng: &mut R) -> bool {
        self.cycle_in::<true, R>(rng)
    }

    /// The body of [`Colony::cycle`]; `BMI2` says which build of the draws to call.
    #[inline(always)]
    fn cycle_in<const BMI2: bool, R: Rng + Clone>(&mut self, rng: &mut R) -> bool {
        // A copy on the stack that nothing else can see lives in registers; through the
        // caller's reference, every draw stored the generator's state back to memory.
        let mut local = rng.clone();
        let done = self.phases::<BMI2, R>(&mut local);
        *rng = local;
        done
    }

    /// The body of [`Colony::cycle`], on the local generator.
    ///
    /// Each phase draws all its moves (and the onlookers their picks) before it scores any:
    /// no draw depends on a score (the roulette's weights are fixed for the phase), so the
    /// draws are those of the article's interleaved loop, and each of the two short loops
    /// keeps its state in registers (interleaved, the generator, the move tables and the
    /// scoring spilled to the stack). A phase that ends early, on a solution, rewinds the
    /// generator to the phase's start and redraws only what the interleaved loop had drawn.
    #[inline(always)]
    fn phases<const BMI2: bool, R: Rng + Clone>(&mut self, rng: &mut R) -> bool {
        let n = self.sources.len();
        let start = rng.clone();
        Self::draw_phase::<BMI2, R>(&self.layout, None, (&mut self.draws[..n], &mut []), rng);
        if let Some(i) = self.employed::<BMI2>() {
            self.evaluations += i as u64 + 1;
            *rng = start;
            for _ in 0..=i {
                self.layout.pick_index::<CROSS, _>(rng);
            }
            return true;
        }
        self.evaluations += n as u64;

        let (total, scale) = self.roulette();
        // The byte table is allocated whole exactly when the colony is narrow.
        let roulette = match self.narrow.first_chunk::<NARROW_TABLE>() {
            Some(table) => Roulette::Narrow(table, total, scale),
            None => Roulette::Wide(&self.wide[..total], scale),
        };
        let start = rng.clone();
        Self::draw_phase::<BMI2, R>(
            &self.layout,
            Some(roulette),
            (&mut [], &mut self.picks[..n]),
            rng,
        );
        if let Some(k) = self.onlookers::<BMI2>() {
            self.evaluations += k as u64 + 1;
            *rng = start;
            for _ in 0..=k {
                rng.next_u64();
                self.layout.pick_index::<CROSS, _>(rng);
            }
            return true;
        }
        self.evaluations += n as u64;

        self.scouts::<BMI2, R>(rng)
    }

    /// A phase's draws, in the article's order: a move per source (employed bees, no
    /// roulette), or per onlooker its roulette pick then its move. Calls the build of
    /// [`Colony::draw`] that `BMI2` names.
    #[inline(always)]
    fn draw_phase<const BMI2: bool, R: Rng + ?Sized>(
        layout: &Layout,
        roulette: Option<Roulette<'_>>,
        out: (&mut [Move], &mut [(u32, Move)]),
        rng: &mut R,
    ) {
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only inside `cycle_bmi2`, which `cycle` calls only when
            // the CPU reports BMI1 and BMI2.
            unsafe { Self::draw_bmi2(layout, roulette, out, rng) };
            return;
        }
        Self::draw(layout, roulette, out, rng);
    }

    /// See [`Colony::draw_phase`]. Out of line so that its arguments cannot alias: inlined,
    /// the stores to the draws made the compiler reload the move tables' sizes on every draw.
    #[inline(never)]
    fn draw<R: Rng + ?Sized>(
        layout: &Layout,
        roulette: Option<Roulette<'_>>,
        out: (&mut [Move], &mut [(u32, Move)]),
        rng: &mut R,
    ) {
        Self::draw_body(layout, roulette, out, rng);
    }

    /// [`Colony::draw`] compiled for BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    #[inline(never)]
    fn draw_bmi2<R: Rng + ?Sized>(
        layout: &Layout,
        roulette: Option<Roulette<'_>>,
        out: (&mut [Move], &mut [(u32, Move)]),
        rng: &mut R,
    ) {
        Self::draw_body(layout, roulette, out, rng);
    }

    /// The body of both builds of [`Colony::draw`]: [`Colony::draw_with`] for the layout's
    /// group count, a constant where it is the usual one (nine boxes, or eighteen lines, have
    /// moves), so the group draw multiplies by a constant: one multiplication fewer a move on
    /// the scalar multiplier, which the generator's three and the move draw's keep busy.
    #[inline(always)]
    fn draw_body<R: Rng + ?Sized>(
        layout: &Layout,
        roulette: Option<Roulette<'_>>,
        out: (&mut [Move], &mut [(u32, Move)]),
        rng: &mut R,
    ) {
        match (CROSS, layout.groups(CROSS)) {
            (false, 9) => Self::draw_with::<9, R>(layout, roulette, out, rng),
            (true, 18) => Self::draw_with::<18, R>(layout, roulette, out, rng),
            _ => Self::draw_with::<0, R>(layout, roulette, out, rng),
        }
    }

    /// A phase's draws (see [`Colony::draw_phase`]), the moves' groups drawn with `GROUPS` as
    /// [`Layout::draw_move`] takes it.
    #[inline(always)]
    fn draw_with<const GROUPS: u32, R: Rng + ?Sized>(
        layout: &Layout,
        roulette: Option<Roulette<'_>>,
        (draws, picks): (&mut [Move], &mut [(u32, Move)]),
        rng: &mut R,
    ) {
        match roulette {
            None => {
                // Two draws an iteration: the loop's count, compare and branch once a pair.
                let mut pairs = draws.chunks_exact_mut(2);
                for pair in &mut pairs {
                    pair[0] = Self::pick_move::<GROUPS, R>(layout, rng);
                    pair[1] = Self::pick_move::<GROUPS, R>(layout, rng);
                }
                for slot in pairs.into_remainder() {
                    *slot = Self::pick_move::<GROUPS, R>(layout, rng);
                }
            }
            Some(Roulette::Narrow(table, total, scale)) => {
                Self::onlooker_draws::<GROUPS, R>(
                    layout,
                    |u| narrow_pick(table, total, u, scale),
                    picks,
                    rng,
                );
            }
            Some(Roulette::Wide(table, scale)) => {
                // A live part is never empty (every weight is at least 1); said so, the pick's
                // clamped index needs no bounds check.
                if table.is_empty() {
                    return;
                }
                Self::onlooker_draws::<GROUPS, R>(
                    layout,
                    |u| roulette_pick(table, u, scale),
                    picks,
                    rng,
                );
            }
        }
    }

    /// A move drawn as [`Layout::pick_index`] draws it, copied out of its table.
    #[inline(always)]
    fn pick_move<const GROUPS: u32, R: Rng + ?Sized>(layout: &Layout, rng: &mut R) -> Move {
        *layout.draw_move::<CROSS, GROUPS, _>(rng)
    }

    /// The onlookers' draws: per onlooker its roulette pick (`roulette` of one `u64` draw), then
    /// its move.
    #[inline(always)]
    fn onlooker_draws<const GROUPS: u32, R: Rng + ?Sized>(
        layout: &Layout,
        roulette: impl Fn(u64) -> u32,
        picks: &mut [(u32, Move)],
        rng: &mut R,
    ) {
        // One onlooker an iteration: unrolled by two, as the employed draws are, the loop ran
        // out of registers and rebuilt the generator's three 64-bit constants on every draw.
        for (pick, slot) in picks {
            let u = rng.next_u64();
            *pick = roulette(u);
            *slot = Self::pick_move::<GROUPS, R>(layout, rng);
        }
    }

    /// Scores the drawn move of every source in turn. The index of the source that reached
    /// 0 conflicts, if one did (the phase stops there).
    #[inline(always)]
    fn employed<const BMI2: bool>(&mut self) -> Option<usize> {
        let n = self.sources.len();
        let employed = self
            .sources
            .iter_mut()
            .zip(self.conflicts.iter_mut().zip(&self.draws[..n]));
        let (best, limit, due) = (&mut self.best, self.limit, &mut self.due[..]);
        for (i, (source, (conflicts, mv))) in employed.enumerate() {
            if Self::try_move::<BMI2>((best, limit, due), i, (source, conflicts), mv) {
                return Some(i);
            }
        }
        None
    }

    /// Scores the onlookers' drawn moves on their picked sources, in pick order (a source
    /// picked twice sees its first move's result). The pick that reached 0 conflicts, if any.
    #[inline(always)]
    fn onlookers<const BMI2: bool>(&mut self) -> Option<usize> {
        let n = self.sources.len();
        // Slices of exactly `n`, the bound the picks are below (see the SAFETY note).
        let sources = &mut self.sources[..n];
        let conflicts = &mut self.conflicts[..n];
        // The pick's place is found from what is left of the iterator, on the way out only:
        // an `enumerate` count took one instruction a pick.
        let mut picks = self.picks[..n].iter();
        let (best, limit, due) = (&mut self.best, self.limit, &mut self.due[..]);
        while let Some((i, mv)) = picks.next() {
            let i = *i as usize;
            debug_assert!(i < n);
            // SAFETY: `i < n`, the length of both slices: every pick is an entry of the
            // phase's roulette table (`draw_body` writes all `n` picks this phase, each read
            // from the table), and every entry of either table is below `n`: the tables are
            // allocated as zeros (n >= 2), grown only with zeros, and `fill_table` and
            // `fill_narrow` write only source indices (`T::of(i)`, or the byte chunk that
            // counts 0, 1, ... one step a source) of the `n` sources. Unchecked, the pick
            // needs no clamp (a compare and a conditional move on every pick).
            let parts = unsafe { (sources.get_unchecked_mut(i), conflicts.get_unchecked_mut(i)) };
            if Self::try_move::<BMI2>((best, limit, due), i, parts, mv) {
                return Some(n - 1 - picks.len());
            }
        }
        None
    }

    /// Builds the onlooker phase's roulette table (see [`fill_table`]) and returns its total
    /// weight, as an integer (the length of the table's live part) and as a float times 2^-53
    /// (see `roulette_target`).
    ///
    /// Roulette weights `max - conflicts + 1` (>= 1, so all-equal degrades to uniform),
    /// computed once for the phase as the article does. A pick draws x in [0, 1) and takes the
    /// first source whose cumulative weight exceeds x * total, as the article's linear scan.
    /// The sums are integers, so `cum > x * total` is the same test as
    /// `cum > floor(x * total)`: the answer depends only on the target floor(x * total), an
    /// integer below `total`, and the table holds it for each, so a pick is one load. The
    /// weights are a few tens each, so the table is a thousand-odd bytes, filled a chunk per
    /// source. (It replaced a guide table with a window of compares, which cost more, mostly in
    /// the picks; see docs/performance.md §Design measurements.)
    #[inline(always)]
    fn roulette(&mut self) -> (usize, f64) {
        let n = self.sources.len();
        let conflicts = &self.conflicts[..n];
        let (max, total) = if n <= NARROW_SOURCES {
            // One pass for the largest fitness and the sum of all, in u32 lanes, four to a
            // vector (u64 lanes hold half as many): at most 256 fitnesses of at
            // most MAX_CONFLICTS, far from overflowing. The weights then sum to
            // `n * (max + 1) - sum`, with no second pass over them.
            let (max, sum) = conflicts
                .iter()
                .fold((0, 0u32), |(max, sum), &c| (max.max(c), sum + c));
            (max, (n as u32 * (max + 1) - sum) as usize)
        } else {
            let max = conflicts.iter().copied().max().unwrap_or(0);
            (max, conflicts.iter().map(|&c| (max - c) as usize + 1).sum())
        };
        // The tables were sized for weights up to MAX_CONFLICTS + 1, so this never grows one;
        // it only keeps a fitness above that bound from indexing past the end.
        let len = total + FILL_CHUNK;
        if n <= NARROW_SOURCES {
            if self.narrow.len() < len {
                self.narrow.resize(len, 0);
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            fill_narrow(&mut self.narrow[..], conflicts, max);
            #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
            fill_table(&mut self.narrow[..len], conflicts, max);
        } else {
            if self.wide.len() < len {
                self.wide.resize(len, 0);
            }
            fill_table(&mut self.wide[..len], conflicts, max);
        }
        (total, total as f64 * (1.0 / (1u64 << 53) as f64))
    }

    /// Scout phase: every source whose trial count reached its limit (for its conflicts) is
    /// replaced by a fresh random one, in index order: the due bits' order. True when a fresh
    /// source is a solution.
    #[inline(always)]
    fn scouts<const BMI2: bool, R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        for w in 0..self.due.len() {
            // Taken whole: a fresh source's bit is set again below only if its limit is 0
            // (due at once, as its trial count 0 already reaches that limit), and it waits
            // for the next phase, as the article's scan has passed it by then.
            let mut bits = std::mem::take(&mut self.due[w]);
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let source = &mut self.sources[i];
                let c = Self::randomize::<BMI2, R>(source, &self.layout, rng);
                self.conflicts[i] = c;
                restart(self.limit, &mut self.due, i, source, c);
                self.evaluations += 1;
                self.scouts += 1;
                self.best = self.best.min(c);
                if c == 0 {
                    return true;
                }
            }
        }
        false
    }
}

/// Starts source `i`'s count of failures afresh (it improved, or is new, with `conflicts`):
/// its scout is due after `limit` of them, at once when that is 0.
#[inline(always)]
fn restart(limit: Limit, due: &mut [u64], i: usize, source: &mut Source, conflicts: u32) {
    let left = limit.for_conflicts(conflicts);
    source.left = left;
    let bit = 1u64 << (i % 64);
    if let Some(word) = due.get_mut(i / 64) {
        if left == 0 {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }
}

/// Marks source `i` due for a scout: its count of failures just reached its limit. Out of
/// line: about one failure in fifty, and inlined its code crowded the scoring loops.
#[cold]
#[inline(never)]
fn mark_due(due: &mut [u64], i: usize) {
    if let Some(word) = due.get_mut(i / 64) {
        *word |= 1 << (i % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testdata::{demo_puzzle, puzzle, TOP1465_FIRST};
    use crate::sudoku::verify::verify;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn run(p: &SudokuPuzzle, params: &AbcParams, seed: u64) -> (AbcResult, Vec<u32>) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut trace = Vec::new();
        let r = solve(p, params, &mut rng, &mut || false, Some(&mut trace));
        (r, trace)
    }

    fn check_consistent(p: &SudokuPuzzle, r: &AbcResult, trace: &[u32]) {
        match r.end {
            AbcEnd::Solved => {
                let s = r.solution.expect("solved runs carry the solution");
                assert_eq!(verify(p, &s), Ok(()));
                assert_eq!(r.best_conflicts, 0);
            }
            _ => {
                assert!(r.solution.is_none());
                assert!(r.best_conflicts > 0);
            }
        }
        assert_eq!(trace.len() as u64, r.cycles + 1);
        assert!(trace.windows(2).all(|w| w[1] <= w[0]), "best never worsens");
        assert_eq!(trace.last().copied(), Some(r.best_conflicts));
    }

    #[test]
    fn solves_the_demo_for_several_seeds() {
        let p = demo_puzzle();
        let params = AbcParams::default();
        let mut solved = 0;
        for seed in 0..8 {
            let (r, trace) = run(&p, &params, seed);
            check_consistent(&p, &r, &trace);
            if r.end == AbcEnd::Solved {
                solved += 1;
                assert!(r.cycles >= 1 && r.cycles <= params.max_cycles);
            }
            assert_eq!(r.empties_after_presolve, None);
        }
        assert!(solved >= 6, "only {solved}/8 seeds solved the demo");
    }

    #[test]
    fn value_stability_seed_42() {
        // Pins the random stream: any change to move picks, roulette or scouting shows here.
        let (r, trace) = run(&demo_puzzle(), &AbcParams::default(), 42);
        assert_eq!(r.end, AbcEnd::Solved);
        assert_eq!(
            (r.cycles, r.evaluations, r.scouts, &trace[..5]),
            (248, 24935, 103, &[33u32, 31, 31, 31, 29][..])
        );
        // The generator is left where the run's last draw left it: each cycle draws from a
        // local copy that is written back, and this value predates that copy.
        let mut rng = Pcg64Mcg::seed_from_u64(42);
        solve(
            &demo_puzzle(),
            &AbcParams::default(),
            &mut rng,
            &mut || false,
            None,
        );
        assert_eq!(rand::RngCore::next_u64(&mut rng), 167_580_146_431_463_007);
    }

    #[test]
    fn bmi2_and_portable_builds_give_the_same_runs() {
        // Whole results, traces and the generator's state afterwards, BMI2 build against the
        // portable one: the default colony, a 2-source one, adaptive limits, cross-box moves
        // and the hybrid, on a puzzle the colony solves (mid-phase) and one it does not.
        if !has_bmi2() {
            eprintln!("skipping: this CPU has no BMI1/BMI2, so there is one build only");
            return;
        }
        let hard = puzzle(TOP1465_FIRST);
        for (p, max_cycles) in [(demo_puzzle(), 300), (hard, 60)] {
            for params in [
                AbcParams::default(),
                AbcParams {
                    colony_size: 4,
                    ..AbcParams::default()
                },
                AbcParams {
                    colony_size: 18,
                    limit: Limit::Adaptive,
                    ..AbcParams::default()
                },
                AbcParams {
                    neighbourhood: Neighbourhood::CrossBox,
                    ..AbcParams::default()
                },
                AbcParams {
                    presolve: true,
                    ..AbcParams::default()
                },
            ] {
                let params = AbcParams {
                    max_cycles,
                    ..params
                };
                for seed in 0..6 {
                    let one = |bmi2| {
                        let mut rng = Pcg64Mcg::seed_from_u64(seed);
                        let mut trace = Vec::new();
                        let r =
                            solve_on(bmi2, &p, &params, &mut rng, &mut || false, Some(&mut trace));
                        (r, trace, rand::RngCore::next_u64(&mut rng))
                    };
                    assert_eq!(one(true), one(false), "{params:?} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn hybrid_on_the_demo() {
        // The demo falls to singles entirely: solved with no cycle.
        let params = AbcParams {
            presolve: true,
            ..AbcParams::default()
        };
        let (r, trace) = run(&demo_puzzle(), &params, 3);
        assert_eq!(r.end, AbcEnd::Solved);
        assert_eq!((r.cycles, r.evaluations), (0, 0));
        assert_eq!(r.empties_after_presolve, Some(0));
        assert_eq!(trace, vec![0]);
        assert_eq!(verify(&demo_puzzle(), &r.solution.unwrap()), Ok(()));
    }

    #[test]
    fn hybrid_with_blanks_left_and_contradiction() {
        // A puzzle singles cannot finish: the colony runs on the rest.
        let p = puzzle(TOP1465_FIRST);
        let params = AbcParams {
            presolve: true,
            max_cycles: 50,
            ..AbcParams::default()
        };
        let (r, trace) = run(&p, &params, 5);
        let left = r.empties_after_presolve.expect("presolve ran");
        assert!(left > 0);
        check_consistent(&p, &r, &trace);

        let mut line = String::from("12345678.");
        line.push_str(&".".repeat(27));
        line.push_str("........9");
        line.push_str(&".".repeat(81 - 45));
        let (r, trace) = run(&puzzle(&line), &params, 5);
        assert_eq!(r.end, AbcEnd::PresolveContradiction);
        assert_eq!(r.solution, None);
        assert!(trace.is_empty());
    }

    #[test]
    fn adaptive_limit_and_cross_box_give_verified_results() {
        let p = demo_puzzle();
        for params in [
            AbcParams {
                limit: Limit::Adaptive,
                ..AbcParams::default()
            },
            AbcParams {
                neighbourhood: Neighbourhood::CrossBox,
                ..AbcParams::default()
            },
        ] {
            let mut solved = 0;
            for seed in 0..4 {
                let (r, trace) = run(&p, &params, seed);
                check_consistent(&p, &r, &trace);
                solved += u32::from(r.end == AbcEnd::Solved);
            }
            eprintln!("{params:?}: {solved}/4 solved");
        }
    }

    #[test]
    fn cross_box_never_improves_a_fresh_source() {
        // Pins the weakness documented on `Neighbourhood::CrossBox`: a fresh source has whole
        // boxes, and a cross-box swap then costs +2 in boxes and saves at most 2 in lines.
        use crate::sudoku::encoding::{Layout, Source};
        let l = Layout::new(&demo_puzzle());
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        let mut s = Source::new(&l);
        for _ in 0..50 {
            s.randomize(&l, &mut rng);
            for _ in 0..200 {
                let mv = l.pick_cross_move(&mut rng);
                assert!(s.delta::<true>(mv) >= 0);
            }
        }
    }

    #[test]
    fn stop_and_max_cycles() {
        let p = puzzle(TOP1465_FIRST);
        let params = AbcParams {
            max_cycles: 7,
            ..AbcParams::default()
        };
        let (r, trace) = run(&p, &params, 1);
        assert_eq!(r.end, AbcEnd::MaxCycles);
        assert_eq!(r.cycles, 7);
        check_consistent(&p, &r, &trace);
        // Initial 50 plus 100 neighbours a cycle, plus one per scout.
        assert_eq!(r.evaluations, 50 + 7 * 100 + r.scouts);

        let mut polls = 0;
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let r = solve(
            &p,
            &AbcParams::default(),
            &mut rng,
            &mut || {
                polls += 1;
                polls > 3
            },
            None,
        );
        assert_eq!(r.end, AbcEnd::Stopped);
        assert_eq!(r.cycles, 3);
    }

    #[test]
    fn params_parse_and_validate() {
        assert_eq!("50".parse::<Limit>(), Ok(Limit::Fixed(50)));
        assert_eq!("adaptive".parse::<Limit>(), Ok(Limit::Adaptive));
        assert!("0".parse::<Limit>().is_err());
        assert!("-3".parse::<Limit>().is_err());
        assert_eq!(Limit::Fixed(7).to_string(), "7");
        assert_eq!(Limit::Adaptive.to_string(), "adaptive");
        assert_eq!(Limit::Adaptive.for_conflicts(4), 35);
        assert_eq!(
            "cross-box".parse::<Neighbourhood>(),
            Ok(Neighbourhood::CrossBox)
        );
        assert_eq!("box".parse::<Neighbourhood>(), Ok(Neighbourhood::Box));
        assert!("ring".parse::<Neighbourhood>().is_err());
        assert_eq!(Neighbourhood::CrossBox.name(), "cross-box");
        assert_eq!(AbcParams::default().validate(), Ok(()));
        let bad = |f: fn(&mut AbcParams)| {
            let mut p = AbcParams::default();
            f(&mut p);
            p.validate().is_err()
        };
        assert!(bad(|p| p.colony_size = 2));
        assert!(bad(|p| p.colony_size = 7));
        assert!(bad(|p| p.max_cycles = 0));
        assert!(bad(|p| p.limit = Limit::Fixed(0)));
    }

    /// The article's roulette: x * total against the running sum of weights, in floats.
    fn article_pick(conflicts: &[u32], u: u64) -> u32 {
        let max = conflicts.iter().copied().max().unwrap();
        let total: u64 = conflicts.iter().map(|&c| u64::from(max - c) + 1).sum();
        let x = (u >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let r = x * total as f64;
        let mut cum = 0u64;
        for (i, &c) in conflicts.iter().enumerate() {
            cum += u64::from(max - c) + 1;
            if cum as f64 > r {
                return i as u32;
            }
        }
        conflicts.len() as u32 - 1
    }

    /// The table's pick for the same draw, through a table of entry type `T`.
    fn table_picks<T: Entry + Default>(conflicts: &[u32], draws: &[u64]) -> Vec<u32> {
        let max = conflicts.iter().copied().max().unwrap();
        let total: usize = conflicts.iter().map(|&c| (max - c) as usize + 1).sum();
        let mut table = vec![T::default(); total + FILL_CHUNK];
        fill_table(&mut table, conflicts, max);
        let scale = total as f64 * (1.0 / (1u64 << 53) as f64);
        draws
            .iter()
            .map(|&u| roulette_pick(&table[..total], u, scale))
            .collect()
    }

    /// [`fill_narrow`]'s picks for the same draws, on a table of `len` entries.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    fn narrow_picks(conflicts: &[u32], draws: &[u64], len: Option<usize>) -> Vec<u32> {
        let max = conflicts.iter().copied().max().unwrap();
        let total: usize = conflicts.iter().map(|&c| (max - c) as usize + 1).sum();
        // Stale entries past the live part, as a later phase finds them.
        let mut table = vec![0xEE; len.unwrap_or(NARROW_TABLE)];
        fill_narrow(&mut table, conflicts, max);
        let scale = total as f64 * (1.0 / (1u64 << 53) as f64);
        // A whole table is picked from as the colony does, masked (see `narrow_pick`).
        match table.first_chunk::<NARROW_TABLE>() {
            Some(whole) => draws
                .iter()
                .map(|&u| narrow_pick(whole, total, u, scale))
                .collect(),
            None => draws
                .iter()
                .map(|&u| roulette_pick(&table[..total], u, scale))
                .collect(),
        }
    }

    #[test]
    fn roulette_target_stays_below_every_narrow_total() {
        // `narrow_pick` masks the target instead of clamping it, which reads the same entry
        // only if the target is below the total: the largest draw must land below every total
        // a byte table can have (and the largest total must land on its last entry).
        let largest = (1u64 << 53) - 1;
        for total in 1..=NARROW_SPAN {
            let scale = total as f64 * (1.0 / (1u64 << 53) as f64);
            assert_eq!(roulette_target(largest, scale), total as u64 - 1, "{total}");
        }
    }

    #[test]
    fn roulette_table_picks_as_the_article_scan() {
        // Colonies of 2 to 300 sources (both entry widths), fitness spreads from none (all
        // weights 1) to the largest possible (weights up to MAX_CONFLICTS + 1, many chunks a
        // source), and the draws at the ends of [0, 1) besides random ones. Spreads 31, 32, 63
        // and 64 sit either side of the byte fill's bounds (weights up to one chunk, two
        // chunks); `paths` records that all three of its fills were taken.
        let mut rng = Pcg64Mcg::seed_from_u64(17);
        let mut paths = [false; 3];
        for (n, spread) in [
            (2, 1),
            (2, MAX_CONFLICTS),
            (50, 1),
            (50, 30),
            (50, MAX_CONFLICTS),
            (256, 31),
            (256, 32),
            (256, 63),
            (256, 64),
            (256, 40),
            (300, 40),
        ] {
            for _ in 0..20 {
                let conflicts: Vec<u32> = (0..n).map(|_| rng.random_range(0..=spread)).collect();
                let mut draws: Vec<u64> = (0..2000)
                    .map(|_| rand::RngCore::next_u64(&mut rng))
                    .collect();
                draws.extend([0, u64::MAX, 1 << 63, (1 << 63) - 1]);
                let want: Vec<u32> = draws.iter().map(|&u| article_pick(&conflicts, u)).collect();
                assert_eq!(
                    table_picks::<u32>(&conflicts, &draws),
                    want,
                    "{conflicts:?}"
                );
                if n <= NARROW_SOURCES {
                    assert_eq!(table_picks::<u8>(&conflicts, &draws), want, "{conflicts:?}");
                    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                    {
                        // The byte fill's path: by the largest weight, in chunks (1, 2, more).
                        let min = conflicts.iter().copied().min().unwrap();
                        let max = conflicts.iter().copied().max().unwrap();
                        paths[((max - min) as usize / FILL_CHUNK).min(2)] = true;
                        assert_eq!(
                            narrow_picks(&conflicts, &draws, None),
                            want,
                            "{conflicts:?}"
                        );
                    }
                    // A table shorter than the colony's takes the generic fill.
                    let live: usize = {
                        let max = conflicts.iter().copied().max().unwrap();
                        conflicts.iter().map(|&c| (max - c) as usize + 1).sum()
                    };
                    let short = Some(live + FILL_CHUNK);
                    assert_eq!(
                        narrow_picks(&conflicts, &draws, short),
                        want,
                        "{conflicts:?}"
                    );
                }
            }
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        assert_eq!(paths, [true; 3]);
    }

    #[test]
    fn colonies_past_the_byte_table_run_too() {
        // 300 sources: the roulette table holds words, not bytes.
        let p = puzzle(TOP1465_FIRST);
        let params = AbcParams {
            colony_size: 600,
            max_cycles: 20,
            ..AbcParams::default()
        };
        let (r, trace) = run(&p, &params, 2);
        check_consistent(&p, &r, &trace);
        assert_eq!(r.evaluations, 300 + 20 * 600 + r.scouts);
    }

    #[test]
    #[allow(deprecated)] // StepRng: a generator that returns the given u64, as a reference.
    fn roulette_target_is_the_article_float_product() {
        // The article draws x = random::<f64>() and compares cumulative weights with x * total.
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        for total in [
            1u64,
            2,
            3,
            50,
            51,
            97,
            1000,
            1023,
            2049,
            65_537,
            (1 << 40) + 7,
        ] {
            let scale = total as f64 * (1.0 / (1u64 << 53) as f64);
            for _ in 0..20_000 {
                let u = rand::RngCore::next_u64(&mut rng);
                let x: f64 = {
                    let mut r = rand::rngs::mock::StepRng::new(u, 0);
                    r.random()
                };
                let want = (x * total as f64) as u64;
                assert_eq!(roulette_target(u >> 11, scale), want, "{u} {total}");
            }
        }
        // The largest draw stays below the total.
        assert_eq!(
            roulette_target((1 << 53) - 1, 50.0 / (1u64 << 53) as f64),
            49
        );
    }
}
