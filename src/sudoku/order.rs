//! Sudoku of any order K = 2..=6 (a K²xK² grid of K x K boxes, values `1..=K²`): the grid
//! type and its two text forms.
//!
//! - The one-line form (PROTOCOL.md, "Sudoku of order K"): `sudoku<N>:` with N = K², then the
//!   N² values row-major, comma-separated, `0` for a blank, e.g. `sudoku16:0,5,0,…`. A second
//!   whitespace-separated field in the same form may give the solution.
//! - The instance files of Lloyd & Amos' `sudoku_acs`: the order K, a second number (ignored),
//!   then the N² values separated by whitespace (tabs, CRLF or LF line ends), `-1` for a blank.
//!
//! The classic 9x9 type ([`super::grid::SudokuPuzzle`]) stays the fast path: the loader turns an
//! order-3 grid of either form into it, so only orders other than 3 use this type.

/// Smallest and largest order handled.
pub const ORDERS: std::ops::RangeInclusive<usize> = 2..=6;

/// A Sudoku grid of order K: `cells` row-major, `0` = blank, givens never repeating in a unit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SudokuK {
    order: u8,
    cells: Vec<u8>,
}

impl SudokuK {
    /// A grid of `order` from its cells; `Err` says which cell or unit is wrong.
    pub fn new(order: usize, cells: Vec<u8>) -> Result<SudokuK, String> {
        if !ORDERS.contains(&order) {
            return Err(format!(
                "order {order} is not supported; expected 2 to 6 (4x4 to 36x36)"
            ));
        }
        let n = order * order;
        if cells.len() != n * n {
            return Err(format!(
                "an order-{order} grid has {} cells, found {}",
                n * n,
                cells.len()
            ));
        }
        if let Some(i) = cells.iter().position(|&v| usize::from(v) > n) {
            return Err(format!(
                "cell r{}c{} holds {}, expected 0 (blank) or 1-{n}",
                i / n + 1,
                i % n + 1,
                cells[i]
            ));
        }
        if let Some(msg) = first_repeat(order, &cells) {
            return Err(format!("given {msg}"));
        }
        Ok(SudokuK {
            order: order as u8,
            cells,
        })
    }

    /// K.
    pub fn order(&self) -> usize {
        usize::from(self.order)
    }

    /// K², the side and the number of values.
    pub fn side(&self) -> usize {
        self.order() * self.order()
    }

    /// The cells, row-major, `0` = blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The one-line form of these cells.
    pub fn to_line(&self) -> String {
        to_line(self.order(), &self.cells)
    }
}

/// `"<v> repeats in <unit> <i> (rA cB and rC cD)"` for the first repeated non-zero value
/// (rows, then columns, then boxes), `None` when there is none.
fn first_repeat(order: usize, cells: &[u8]) -> Option<String> {
    let n = order * order;
    for (kind, at) in [
        ("row", row_cell as fn(usize, usize, usize) -> usize),
        ("column", col_cell),
        ("box", box_cell),
    ] {
        for u in 0..n {
            let mut seen = vec![usize::MAX; n + 1];
            for j in 0..n {
                let c = at(order, u, j);
                let v = usize::from(cells[c]);
                if v == 0 {
                    continue;
                }
                if seen[v] != usize::MAX {
                    let p = |c: usize| format!("r{}c{}", c / n + 1, c % n + 1);
                    return Some(format!(
                        "{v} repeats in {kind} {} ({} and {})",
                        u + 1,
                        p(seen[v]),
                        p(c)
                    ));
                }
                seen[v] = c;
            }
        }
    }
    None
}

fn row_cell(order: usize, u: usize, j: usize) -> usize {
    u * order * order + j
}

fn col_cell(order: usize, u: usize, j: usize) -> usize {
    j * order * order + u
}

fn box_cell(order: usize, u: usize, j: usize) -> usize {
    let n = order * order;
    (u / order * order + j / order) * n + u % order * order + j % order
}

/// The one-line form of `cells` of order `order`.
pub fn to_line(order: usize, cells: &[u8]) -> String {
    let mut s = format!("sudoku{}:", order * order);
    for (i, v) in cells.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&v.to_string());
    }
    s
}

/// The order of a `sudoku<N>:` prefix (N = K², K = 2..=6) at the start of `field`, and the rest.
fn split_prefix(field: &str) -> Option<(usize, &str)> {
    let rest = field.strip_prefix("sudoku")?;
    let (num, body) = rest.split_once(':')?;
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) || num.len() > 2 {
        return None;
    }
    let side: usize = num.parse().ok()?;
    ORDERS.clone().find(|k| k * k == side).map(|k| (k, body))
}

/// Whether the first content line of `text` is in the one-line form.
pub fn looks_like_order_line(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with("sudoku") && l.contains(':'))
}

/// Whether a line is a lone order 2-6, as the first line of a `sudoku_acs` instance file is.
pub fn looks_like_acs_start(line: &str) -> bool {
    let t = line.trim();
    t.len() == 1 && t.parse::<usize>().is_ok_and(|k| ORDERS.contains(&k))
}

/// Whether `text` starts like a `sudoku_acs` instance file: its first three content lines are
/// a lone order 2-6, a lone whole number, and a row of at least four numbers.
pub fn looks_like_acs(text: &str) -> bool {
    let mut ls = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let (Some(a), Some(b), Some(c)) = (ls.next(), ls.next(), ls.next()) else {
        return false;
    };
    looks_like_acs_start(a)
        && b.parse::<i64>().is_ok()
        && c.split_whitespace().count() >= 4
        && c.split_whitespace().all(|t| t.parse::<i64>().is_ok())
}

/// The values of one field of the one-line form, checked for count and range.
fn parse_values(field: &str, what: &str) -> Result<(usize, Vec<u8>), String> {
    let (order, body) = split_prefix(field).ok_or_else(|| {
        format!(
            "{what} must start with sudoku4:, sudoku9:, sudoku16:, sudoku25: or sudoku36:, found `{}`",
            field.chars().take(20).collect::<String>()
        )
    })?;
    let n = order * order;
    let mut cells = Vec::with_capacity(n * n);
    for (i, tok) in body.split(',').enumerate() {
        let v: usize = tok.trim().parse().map_err(|_| {
            format!(
                "{what}: value {} is `{}`, expected a whole number 0-{n}",
                i + 1,
                tok.chars().take(12).collect::<String>()
            )
        })?;
        if v > n {
            return Err(format!(
                "{what}: value {} is {v}, expected 0 (blank) or 1-{n}",
                i + 1
            ));
        }
        cells.push(v as u8);
    }
    if cells.len() != n * n {
        return Err(format!(
            "{what}: an order-{order} grid ({n}x{n}) has {} values, found {}",
            n * n,
            cells.len()
        ));
    }
    Ok((order, cells))
}

/// A grid of the one-line form and the solution its line gives, if any.
pub type OrderLine = (SudokuK, Option<Vec<u8>>);

/// One puzzle in the one-line form: the grid and, where a second field gives one, the
/// solution. `Ok(None)` for a blank or `#` comment line.
pub fn parse_order_line(line: &str) -> Result<Option<OrderLine>, String> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let mut fields = t.split_whitespace();
    let (order, cells) = parse_values(fields.next().unwrap_or(""), "the puzzle")?;
    let grid = SudokuK::new(order, cells)?;
    let solution = match fields.next() {
        None => None,
        Some(f) => {
            let (o, s) = parse_values(f, "the solution")?;
            if o != order || s.contains(&0) {
                return Err(format!(
                    "the solution must be a complete order-{order} grid in the same form"
                ));
            }
            Some(s)
        }
    };
    if let Some(extra) = fields.next() {
        return Err(format!(
            "unexpected third field `{}`; expected the puzzle and optionally its solution",
            extra.chars().take(20).collect::<String>()
        ));
    }
    Ok(Some((grid, solution)))
}

/// A `sudoku_acs` instance file's whole text. `Err` gives the 1-based line and the problem.
pub fn parse_acs(text: &str) -> Result<SudokuK, (usize, String)> {
    let mut toks = text
        .lines()
        .enumerate()
        .flat_map(|(i, l)| l.split_whitespace().map(move |t| (i + 1, t)));
    let (l1, first) = toks.next().ok_or((1, "empty file".to_string()))?;
    let order: usize = first.parse().ok().filter(|k| ORDERS.contains(k)).ok_or((
        l1,
        format!("first number is `{first}`, expected the order 2-6"),
    ))?;
    let (l2, second) = toks
        .next()
        .ok_or((l1, "expected a second number after the order".to_string()))?;
    second.parse::<i64>().map_err(|_| {
        (
            l2,
            format!("second number is `{second}`, expected a whole number"),
        )
    })?;
    let n = order * order;
    let mut cells = Vec::with_capacity(n * n);
    let mut last = l2;
    for (line, t) in toks {
        last = line;
        let v: i64 = t.parse().map_err(|_| {
            (
                line,
                format!("`{t}` is not a number; expected -1 (blank) or 1-{n}"),
            )
        })?;
        let v = match v {
            -1 => 0,
            1.. if v as usize <= n => v as u8,
            _ => return Err((line, format!("value {v}: expected -1 (blank) or 1-{n}"))),
        };
        if cells.len() == n * n {
            return Err((
                line,
                format!("more than the {} values of an order-{order} grid", n * n),
            ));
        }
        cells.push(v);
    }
    if cells.len() != n * n {
        return Err((
            last,
            format!(
                "an order-{order} grid has {} values, found {}",
                n * n,
                cells.len()
            ),
        ));
    }
    SudokuK::new(order, cells).map_err(|e| (last, e))
}

/// A Lewis-style puzzle: a random complete grid of `order` (the propagating decoder from
/// random value preferences), then cells removed at random until `given_pct`% of them (rounded
/// down) remain. It may have several solutions.
pub fn generate<R: rand::Rng>(order: usize, given_pct: usize, rng: &mut R) -> SudokuK {
    use super::prop::{solve, Mode, PropParams};
    let n = order * order;
    let params = PropParams {
        colony_size: 1,
        limit: 1,
        max_cycles: u64::MAX,
        mode: Mode::Restarts,
    };
    let blank = vec![0u8; n * n];
    let mut cells = solve(order, &blank, &params, rng, &mut || false, None)
        .solution
        .unwrap_or(blank);
    let keep = n * n * given_pct.min(100) / 100;
    // A partial Fisher-Yates shuffle picks the cells to blank.
    let mut idx: Vec<usize> = (0..n * n).collect();
    for i in 0..n * n - keep {
        let j = rng.random_range(i..n * n);
        idx.swap(i, j);
        cells[idx[i]] = 0;
    }
    SudokuK {
        order: order as u8,
        cells,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_form_round_trips_and_checks_values() {
        let mut cells = vec![0u8; 16];
        cells[0] = 1;
        cells[5] = 1;
        let g = SudokuK::new(2, cells.clone()).map_err(|e| e.to_string());
        assert!(g.is_err(), "1 repeats in box 1");
        cells[5] = 3;
        let g = SudokuK::new(2, cells).expect("valid");
        let line = g.to_line();
        assert!(line.starts_with("sudoku4:1,0,0,0,0,3,"));
        let (back, sol) = parse_order_line(&line).expect("parses").expect("a puzzle");
        assert_eq!(back, g);
        assert!(sol.is_none());
        let e = parse_order_line("sudoku16:1,2").err().unwrap_or_default();
        assert!(e.contains("has 256 values, found 2"), "{e}");
        let e = parse_order_line("sudoku4:1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,9")
            .err()
            .unwrap_or_default();
        assert!(e.contains("value 16 is 9"), "{e}");
        let e = parse_order_line("sudoku10:1").err().unwrap_or_default();
        assert!(e.contains("must start with"), "{e}");
        assert_eq!(parse_order_line("  # comment").ok(), Some(None));
        assert!(looks_like_order_line("# c\nsudoku16:0,0"));
        assert!(!looks_like_order_line("5x5:12345"));
    }

    #[test]
    fn generated_grids_keep_the_given_share_and_have_a_completion() {
        use rand::SeedableRng;
        for (order, pct) in [(2usize, 50usize), (4, 45), (5, 45)] {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(order as u64);
            let g = generate(order, pct, &mut rng);
            let n = order * order;
            let given = g.cells().iter().filter(|&&v| v != 0).count();
            assert_eq!(given, n * n * pct / 100);
            // The constructor's checks hold (no repeated given).
            assert!(SudokuK::new(order, g.cells().to_vec()).is_ok());
        }
    }

    #[test]
    fn acs_files_parse_with_crlf_and_tabs_and_say_where_they_are_wrong() {
        let mut text = String::from("2\r\n1\r\n");
        for r in 0..4 {
            let row: Vec<&str> = (0..4)
                .map(|c| {
                    if r == c {
                        "-1"
                    } else {
                        ["1", "2", "3", "4"][(r * 2 + c) % 4]
                    }
                })
                .collect();
            text.push_str(&row.join("\t"));
            text.push_str("\t\r\n");
        }
        // Built rows repeat values; check the error, then a blank grid.
        assert!(parse_acs(&text).is_err());
        let blank = format!("2\n1\n{}\n", vec!["-1"; 16].join(" "));
        let g = parse_acs(&blank).expect("blank grid");
        assert_eq!(
            (g.order(), g.cells().iter().filter(|&&v| v == 0).count()),
            (2, 16)
        );
        assert!(looks_like_acs(&blank) && !looks_like_acs("12\n1\n"));
        assert!(!looks_like_acs("3\n1\n2\n"), "a one-column Hitori grid");
        let short = "2\n1\n-1 -1\n";
        assert_eq!(parse_acs(short).err().map(|e| e.0), Some(3));
        let bad = "2\n1\n-1 7\n";
        let e = parse_acs(bad).err().unwrap_or_default();
        assert!(e.0 == 3 && e.1.contains("value 7"), "{e:?}");
        assert!(parse_acs("9\n1\n").is_err());
    }
}
