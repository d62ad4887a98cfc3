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

/// What a `sudoku_acs` instance file holds, for error messages: every ACS error names the
/// format it expected and the orders it takes.
pub const ACS_FORMAT: &str = "a sudoku_acs instance file: the order K (2 to 6, for 4x4 to \
36x36) alone on the first line, a whole number alone on the second, then the K²xK² grid's \
values row by row, -1 for a blank (`#` comment lines and blank lines are skipped)";

/// Whether a line is a lone whole number of at most four characters, as the first line of a
/// `sudoku_acs` instance file is (its order). No Hitori grid row is a lone number, so such a
/// file is an ACS file or no puzzle file at all; an order outside 2-6 is then refused by the
/// ACS parser, which says what it takes.
pub fn looks_like_acs_start(line: &str) -> bool {
    let t = line.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    t.len() <= 4 && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `text` starts like a `sudoku_acs` instance file: its first content line is a lone
/// number (see [`looks_like_acs_start`]), and the second content line is a lone token (the
/// file's second number, however malformed) or a `-1` (a blank, which no Hitori grid holds)
/// appears in the second or third. Only the first three content lines are looked at.
pub fn looks_like_acs(text: &str) -> bool {
    let mut ls = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let (Some(a), Some(b)) = (ls.next(), ls.next()) else {
        return false;
    };
    let c = ls.next().unwrap_or("");
    let blank = |l: &str| l.split_whitespace().any(|t| t == "-1");
    looks_like_acs_start(a) && (b.split_whitespace().count() == 1 || blank(b) || blank(c))
}

/// A `sudoku_acs` instance file read a line at a time ([`AcsReader::line`], then
/// [`AcsReader::finish`]), in the memory of one grid whatever the file holds: a value past the
/// grid's last is refused at its line, so rows after the grid are never gathered. Errors give
/// the 1-based line of the fault and end with what the format is ([`ACS_FORMAT`]).
#[derive(Debug, Default)]
pub struct AcsReader {
    /// The order, once its line is read.
    order: Option<usize>,
    /// Whether the second number's line has been read.
    second: bool,
    cells: Vec<u8>,
    /// Per row, column and box: the values given so far (bit v), to refuse a repeat at the
    /// line that repeats it.
    units: Vec<u64>,
    /// The last content line read, where a file that ends too early is reported.
    last_line: usize,
}

fn acs_err(line: usize, what: impl std::fmt::Display) -> (usize, String) {
    (line, format!("{what}; expected {ACS_FORMAT}"))
}

impl AcsReader {
    /// Takes the next line (1-based `line_no`, without its line end).
    pub fn line(&mut self, raw: &str, line_no: usize) -> Result<(), (usize, String)> {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            return Ok(());
        }
        self.last_line = line_no;
        let mut toks = t.split_whitespace();
        let Some(order) = self.order else {
            let first = toks.next().unwrap_or("");
            let order = first.parse().ok().filter(|k| ORDERS.contains(k));
            let Some(order) = order.filter(|_| toks.next().is_none()) else {
                return Err(acs_err(
                    line_no,
                    format!("the first line is `{}`, not an order", clip(t)),
                ));
            };
            let n = order * order;
            self.order = Some(order);
            self.cells = Vec::with_capacity(n * n);
            self.units = vec![0; 3 * n];
            return Ok(());
        };
        if !self.second {
            if toks.next().is_some_and(|s| s.parse::<i64>().is_ok()) && toks.next().is_none() {
                self.second = true;
                return Ok(());
            }
            return Err(acs_err(
                line_no,
                format!("the second line is `{}`, not a lone whole number", clip(t)),
            ));
        }
        let n = order * order;
        for tok in toks {
            let v: i64 = tok.parse().map_err(|_| {
                acs_err(
                    line_no,
                    format!("`{}` is not a number (-1 for a blank or 1-{n})", clip(tok)),
                )
            })?;
            let v = match v {
                -1 => 0,
                1.. if v as usize <= n => v as u8,
                _ => {
                    return Err(acs_err(
                        line_no,
                        format!("value {v}: an order-{order} grid takes -1 (blank) or 1-{n}"),
                    ))
                }
            };
            let i = self.cells.len();
            if i == n * n {
                return Err(acs_err(
                    line_no,
                    format!(
                        "more than the {} values of an order-{order} grid ({n}x{n})",
                        n * n
                    ),
                ));
            }
            if v > 0 {
                let (r, c) = (i / n, i % n);
                let b = r / order * order + c / order;
                let bit = 1u64 << v;
                for (kind, u, slot) in [("row", r, r), ("column", c, n + c), ("box", b, 2 * n + b)]
                {
                    if self.units[slot] & bit != 0 {
                        return Err(acs_err(
                            line_no,
                            format!(
                                "given {v} at r{}c{} repeats in {kind} {}",
                                r + 1,
                                c + 1,
                                u + 1
                            ),
                        ));
                    }
                }
                for slot in [r, n + c, 2 * n + b] {
                    self.units[slot] |= bit;
                }
            }
            self.cells.push(v);
        }
        Ok(())
    }

    /// The end of the file: the grid, or what is missing (at the file's last content line).
    pub fn finish(self) -> Result<SudokuK, (usize, String)> {
        let at = self.last_line.max(1);
        let Some(order) = self.order else {
            return Err(acs_err(at, "the file holds no order"));
        };
        if !self.second {
            return Err(acs_err(at, "the file ends after the order"));
        }
        let n = order * order;
        if self.cells.len() != n * n {
            return Err(acs_err(
                at,
                format!(
                    "the file ends after {} of the {} values of an order-{order} grid ({n}x{n})",
                    self.cells.len(),
                    n * n
                ),
            ));
        }
        SudokuK::new(order, self.cells).map_err(|e| acs_err(at, e))
    }
}

/// At most 20 characters of `s`, for a message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(20).collect();
    if s.chars().nth(20).is_some() {
        out.push('…');
    }
    out
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

/// A `sudoku_acs` instance file's whole text (see [`AcsReader`]). `Err` gives the 1-based
/// line and the problem.
pub fn parse_acs(text: &str) -> Result<SudokuK, (usize, String)> {
    let mut r = AcsReader::default();
    for (i, l) in text.lines().enumerate() {
        r.line(l, i + 1)?;
    }
    r.finish()
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
        // A lone number never starts a Hitori grid (rows have 2 to 64 numbers), so any such
        // start with a lone second line, or a -1 soon after, is the ACS parser's to judge.
        assert!(looks_like_acs(&blank) && looks_like_acs("12\n1\n"));
        assert!(looks_like_acs("7\n1\n-1 -1\n") && looks_like_acs("100\nx\n"));
        assert!(looks_like_acs("3\n1 2\n-1 4\n"), "a malformed second line");
        assert!(
            !looks_like_acs("5\n1 1 3 1 2\n4 4 2 5 1\n"),
            "a size above a grid"
        );
        assert!(!looks_like_acs("12345\n") && !looks_like_acs("3\n"));
        let short = "2\n1\n-1 -1\n";
        assert_eq!(parse_acs(short).err().map(|e| e.0), Some(3));
        let bad = "2\n1\n-1 7\n";
        let e = parse_acs(bad).err().unwrap_or_default();
        assert!(e.0 == 3 && e.1.contains("value 7"), "{e:?}");
        assert!(parse_acs("9\n1\n").is_err());
    }

    /// The error of an ACS text: (line, message).
    fn acs_err(text: &str) -> (usize, String) {
        parse_acs(text).expect_err("refused")
    }

    // Issue 38: a repeated given was reported at the file's last line, an order 7 or 100 or a
    // malformed second line got a Hitori-grid message, and a `#` line was refused as "not a
    // number". Each error is at its line and says what an ACS file is.
    #[test]
    fn acs_errors_are_at_the_faulty_line_and_name_the_format() {
        let row = |v: &str| [v; 9].join("\t");
        let mut rows: Vec<String> = (0..9).map(|_| row("-1")).collect();
        rows[2] = format!("5\t{}", ["-1"; 8].join("\t"));
        rows[6] = format!("5\t{}", ["-1"; 8].join("\t"));
        let text = format!("3\n1\n{}\n", rows.join("\n"));
        let (line, m) = acs_err(&text);
        assert_eq!(line, 9, "{m}");
        assert!(m.contains("given 5 at r7c1 repeats in column 1"), "{m}");
        // A box repeat, on the line of the second given.
        let mut rows: Vec<String> = (0..9).map(|_| row("-1")).collect();
        rows[0] = format!("4\t{}", ["-1"; 8].join("\t"));
        rows[1] = format!("-1\t4\t{}", ["-1"; 7].join("\t"));
        let (line, m) = acs_err(&format!("3\n1\n{}\n", rows.join("\n")));
        assert_eq!(line, 4, "{m}");
        assert!(m.contains("repeats in box 1"), "{m}");
        for (text, want_line, want) in [
            ("7\n1\n-1 -1\n", 1, "`7`, not an order"),
            ("100\n1\n-1\n", 1, "`100`, not an order"),
            ("3\n1 2\n-1\n", 2, "the second line is `1 2`"),
            ("3\nx\n-1\n", 2, "the second line is `x`"),
            ("2\n1\n-1 -1 -1 -1\n-1 z\n", 4, "`z` is not a number"),
            ("2\n1\n-1 -1 -1 -1\n-1 5\n", 4, "value 5"),
            ("2\n1\n-1 -1\n# c\n", 3, "after 2 of the 16 values"),
        ] {
            let (line, m) = acs_err(text);
            assert_eq!(line, want_line, "{text:?}: {m}");
            assert!(m.contains(want), "{text:?}: {m}");
            assert!(
                m.contains("expected a sudoku_acs instance file") && m.contains("2 to 6"),
                "{m}"
            );
        }
        // `#` comment lines and blank lines are skipped, anywhere.
        let mut with_comments = String::from("# from sudoku_acs\n2\n\n1\n");
        for _ in 0..4 {
            with_comments.push_str("# a row\n-1 -1 -1 -1\n");
        }
        assert_eq!(parse_acs(&with_comments).map(|g| g.order()), Ok(2));
        // Values past the grid are refused at the first of them: nothing after it is read.
        let mut r = AcsReader::default();
        for (i, l) in [
            "2",
            "1",
            "-1 -1 -1 -1",
            "-1 -1 -1 -1",
            "-1 -1 -1 -1",
            "-1 -1 -1 -1",
        ]
        .iter()
        .enumerate()
        {
            r.line(l, i + 1).expect("the grid");
        }
        let e = r.line("-1", 7).expect_err("past the grid");
        assert!(e.0 == 7 && e.1.contains("more than the 16 values"), "{e:?}");
    }
}
