//! Text formats: grid blocks, and Simon Tatham's *Singles* game IDs.
//!
//! Line numbers are 1-based within the text given; the caller adds the file path. Parsers never
//! panic: they work on `char`s and whole tokens, never on byte offsets into unknown text.

use thiserror::Error;

use super::grid::{HitoriPuzzle, Shading, MAX_SIDE, MIN_SIDE};

/// One puzzle read from a text, with where it started and what came with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedHitori {
    /// 1-based line of the puzzle's first row (grid blocks) or of its game ID (Singles).
    pub line: usize,
    /// The name given in the file, if any.
    pub name: Option<String>,
    /// The puzzle.
    pub puzzle: HitoriPuzzle,
    /// The known solution, if the file gives one.
    pub solution: Option<Shading>,
}

/// A text that is not a valid puzzle file; the message says what was expected and what was found.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// 1-based line within the text.
    pub line: usize,
    /// What was expected and what was found.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// At most 24 characters of untrusted text, so a huge token cannot flood a message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(24).collect();
    if s.chars().nth(24).is_some() {
        out.push('…');
    }
    out
}

/// [`clip`], quoted in backticks.
fn shown(s: &str) -> String {
    format!("`{}`", clip(s))
}

/// Parses one whitespace-separated grid token as a positive `u32`.
fn parse_number(tok: &str, line: usize) -> Result<u32, ParseError> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if digits(tok) {
        return match tok.parse::<u32>() {
            Ok(0) => Err(err(
                line,
                "expected a positive integer (numbers start at 1), found 0",
            )),
            Ok(v) => Ok(v),
            Err(_) => Err(err(
                line,
                format!(
                    "expected a number at most {}, found {}",
                    u32::MAX,
                    shown(tok)
                ),
            )),
        };
    }
    if tok.strip_prefix('-').is_some_and(digits) {
        return Err(err(
            line,
            format!(
                "expected a positive integer, found the negative {}",
                shown(tok)
            ),
        ));
    }
    Err(err(
        line,
        format!("expected a positive integer, found {}", shown(tok)),
    ))
}

/// A grid block being read.
struct Block {
    line: usize,
    name: Option<String>,
    width: usize,
    cells: Vec<u32>,
    rows: usize,
}

impl Block {
    fn finish(self) -> Result<ParsedHitori, ParseError> {
        if self.rows < MIN_SIDE {
            return Err(err(
                self.line,
                format!(
                    "expected a puzzle of {MIN_SIDE} to {MAX_SIDE} rows, found a block of {} row",
                    self.rows
                ),
            ));
        }
        let puzzle = HitoriPuzzle::new(self.width, self.rows, self.cells)
            .map_err(|e| err(self.line, e.to_string()))?;
        Ok(ParsedHitori {
            line: self.line,
            name: self.name,
            puzzle,
            solution: None,
        })
    }
}

/// Grid blocks: rows of whitespace-separated positive integers, a blank line between puzzles,
/// `#` comment lines (also trailing `# ...` on a line).
///
/// A comment line `# name: X` names the next block; it must come directly before the block
/// (other comment lines may sit between them, a blank line cancels it), and inside a block it
/// ends that block. Other comment lines are ignored anywhere. Errors: ragged rows, non-numbers,
/// 0 or negative numbers, numbers too large for `u32`, blocks with a side below 2 or above 64,
/// and a text with no puzzle at all.
pub fn parse_grid_blocks(text: &str) -> Result<Vec<ParsedHitori>, ParseError> {
    let mut out = Vec::new();
    let mut blocks = GridBlocks::default();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        last_line = i + 1;
        out.extend(blocks.line(raw, last_line)?);
    }
    out.extend(blocks.finish()?);
    if out.is_empty() {
        return Err(err(
            last_line.max(1),
            "expected at least one puzzle block, found none (no puzzle found)",
        ));
    }
    Ok(out)
}

/// The grid-block parser of [`parse_grid_blocks`], fed one line at a time, so that a file of a
/// million blocks is read in the memory of one block.
#[derive(Default)]
pub struct GridBlocks {
    block: Option<Block>,
    pending_name: Option<String>,
}

impl GridBlocks {
    /// Takes the next line (1-based `line_no`, without its line end); returns the block that this
    /// line ended, if any.
    pub fn line(&mut self, raw: &str, line_no: usize) -> Result<Option<ParsedHitori>, ParseError> {
        let trimmed = raw.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            let Some(name) = comment.trim().strip_prefix("name:") else {
                return Ok(None);
            };
            let done = self.block.take().map(Block::finish).transpose()?;
            // The name becomes the puzzle's id in the dataset; an empty one gave rows with an
            // empty `puzzle_id`, so it is an error, not a silent "".
            let name = name.trim();
            if name.is_empty() {
                return Err(err(
                    line_no,
                    "expected a puzzle name after `# name:`, found nothing",
                ));
            }
            self.pending_name = Some(name.to_string());
            return Ok(done);
        }
        // Drop a trailing comment; `split` works on chars, so this is safe for any text.
        let content = raw.split('#').next().unwrap_or("");
        if content.trim().is_empty() {
            self.pending_name = None;
            return self.block.take().map(Block::finish).transpose();
        }
        if self.block.is_none() {
            if let Some(message) = sudoku_like(content) {
                return Err(err(line_no, message));
            }
        }
        let mut row = Vec::new();
        for tok in content.split_whitespace() {
            row.push(parse_number(tok, line_no)?);
        }
        match self.block.as_mut() {
            None => {
                if !(MIN_SIDE..=MAX_SIDE).contains(&row.len()) {
                    return Err(err(
                        line_no,
                        format!(
                            "expected {MIN_SIDE} to {MAX_SIDE} numbers in a puzzle row, found {}",
                            row.len()
                        ),
                    ));
                }
                self.block = Some(Block {
                    line: line_no,
                    name: self.pending_name.take(),
                    width: row.len(),
                    cells: row,
                    rows: 1,
                });
            }
            Some(b) => {
                if row.len() != b.width {
                    return Err(err(
                        line_no,
                        format!(
                            "expected {} numbers in this row (like the block's first row), found {}",
                            b.width,
                            row.len()
                        ),
                    ));
                }
                if b.rows == MAX_SIDE {
                    return Err(err(
                        line_no,
                        format!(
                            "expected at most {MAX_SIDE} rows in a puzzle (block started at line {}), found more",
                            b.line
                        ),
                    ));
                }
                b.cells.extend_from_slice(&row);
                b.rows += 1;
            }
        }
        Ok(None)
    }

    /// The end of the text: the last block, if one is open.
    pub fn finish(&mut self) -> Result<Option<ParsedHitori>, ParseError> {
        self.block.take().map(Block::finish).transpose()
    }
}

/// When a line that starts a grid block is one long run of digits and dots, it was meant as a
/// Sudoku line that the loader did not recognise (wrong length, full-width digits, other blank
/// marks): say that, instead of "expected a positive integer".
fn sudoku_like(content: &str) -> Option<String> {
    let token = content.trim();
    let cells = token.chars().count();
    let is_cell = |c: char| c.is_numeric() || matches!(c, '.' | '-' | '_' | '*' | '．');
    if cells < 17 || token.contains(char::is_whitespace) || !token.chars().all(is_cell) {
        return None;
    }
    let wide = !token.is_ascii();
    let what = if wide {
        "non-ASCII (e.g. full-width) digits"
    } else if cells != 81 {
        "a length other than 81"
    } else {
        "blank marks other than `.` and `0`"
    };
    Some(format!(
        "this line looks like a Sudoku puzzle ({cells} characters of digits and dots) but has {what}; \
         a Sudoku line needs exactly 81 cells written with the ASCII digits 1-9 and `.` or `0` for \
         blanks, and a Hitori grid row 2 to 64 numbers separated by spaces"
    ))
}

/// Splits a Singles game ID into width text, height text and cell text when it has the shape
/// `<digits>x<digits>[d<letters>]:<cells>`. The optional `d..` is Singles' difficulty suffix.
fn split_id(s: &str) -> Option<(&str, &str, &str)> {
    let (params, cells) = s.split_once(':')?;
    let (ws, rest) = params.split_once('x')?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let hlen = rest.bytes().take_while(u8::is_ascii_digit).count();
    // `hlen` counts ASCII bytes from the start, so it is a char boundary.
    let (hs, suffix) = rest.split_at(hlen);
    let suffix_ok = suffix.is_empty()
        || suffix
            .strip_prefix('d')
            .is_some_and(|d| d.bytes().all(|b| b.is_ascii_lowercase()));
    (digits(ws) && digits(hs) && suffix_ok).then_some((ws, hs, cells))
}

/// Parses a side given as ASCII digits, saturating so a huge number cannot overflow.
fn side(s: &str) -> usize {
    s.bytes().fold(0usize, |acc, b| {
        acc.saturating_mul(10).saturating_add((b - b'0') as usize)
    })
}

/// The value of one Singles cell character.
fn cell_value(ch: char) -> Option<u32> {
    match ch {
        '1'..='9' => Some(ch as u32 - '0' as u32),
        'a'..='z' => Some(ch as u32 - 'a' as u32 + 10),
        'A'..='Z' => Some(ch as u32 - 'A' as u32 + 36),
        _ => None,
    }
}

/// One line of Simon Tatham's *Singles* game IDs: `WxH:` then `W*H` cells row-major (`1-9`,
/// `a-z` = 10..35, `A-Z` = 36..61).
///
/// The line may hold tab-separated fields: a field before the ID is its name, a field after it
/// a solution mask (`#` shaded, `.` unshaded, `W*H` characters). Returns `Ok(None)` for blank
/// and `#`-comment lines. Errors: bad `WxH`, a side out of range, a cell count other than `W*H`,
/// bad cell characters (which one, and at which cell), bad mask length or characters.
pub fn parse_singles_line(line: &str, line_no: usize) -> Result<Option<ParsedHitori>, ParseError> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = trimmed.split('\t').map(str::trim).collect();
    let (name, id, rest) = if split_id(fields[0]).is_some() {
        (None, fields[0], &fields[1..])
    } else if fields.len() >= 2 && split_id(fields[1]).is_some() {
        (Some(fields[0]), fields[1], &fields[2..])
    } else {
        let at = if fields.len() >= 2 {
            fields[1]
        } else {
            fields[0]
        };
        return Err(err(
            line_no,
            format!(
                "expected a Singles game ID `WxH:cells` (like `5x5:...`), optionally after a name and a tab, found {}",
                shown(at)
            ),
        ));
    };
    if rest.len() > 1 {
        return Err(err(
            line_no,
            format!(
                "expected at most a solution mask after the game ID, found {} more tab-separated fields",
                rest.len()
            ),
        ));
    }
    let Some((ws, hs, cells_text)) = split_id(id) else {
        return Err(err(line_no, "expected a Singles game ID `WxH:cells`"));
    };
    let (w, h) = (side(ws), side(hs));
    if !(MIN_SIDE..=MAX_SIDE).contains(&w) || !(MIN_SIDE..=MAX_SIDE).contains(&h) {
        return Err(err(
            line_no,
            format!(
                "expected width and height from {MIN_SIDE} to {MAX_SIDE}, found {}x{}",
                clip(ws),
                clip(hs)
            ),
        ));
    }
    let mut cells = Vec::with_capacity(w * h);
    for (k, ch) in cells_text.chars().enumerate() {
        match cell_value(ch) {
            Some(v) => cells.push(v),
            None => {
                return Err(err(
                    line_no,
                    format!(
                        "expected a cell character (1-9, a-z = 10..35, A-Z = 36..61), found {ch:?} at cell {} of the game ID",
                        k + 1
                    ),
                ))
            }
        }
    }
    if cells.len() != w * h {
        return Err(err(
            line_no,
            format!(
                "expected {} cells for {w}x{h}, found {}",
                w * h,
                cells.len()
            ),
        ));
    }
    let puzzle = HitoriPuzzle::new(w, h, cells).map_err(|e| err(line_no, e.to_string()))?;
    let solution = match rest.first() {
        None => None,
        Some(mask) => Some(parse_mask(mask, w, h, line_no)?),
    };
    Ok(Some(ParsedHitori {
        line: line_no,
        name: name.map(str::to_string),
        puzzle,
        solution,
    }))
}

/// The solution mask of a Singles line, checked character by character first so an error
/// names the offending position rather than only the length.
fn parse_mask(mask: &str, w: usize, h: usize, line_no: usize) -> Result<Shading, ParseError> {
    if let Some((k, ch)) = mask
        .chars()
        .enumerate()
        .find(|&(_, ch)| ch != '#' && ch != '.')
    {
        return Err(err(
            line_no,
            format!(
                "expected `#` (shaded) or `.` (unshaded) in the solution mask, found {ch:?} at position {}",
                k + 1
            ),
        ));
    }
    let n = mask.chars().count();
    if n != w * h {
        return Err(err(
            line_no,
            format!(
                "expected a solution mask of {} characters for {w}x{h}, found {n}",
                w * h
            ),
        ));
    }
    Shading::from_mask(w, h, mask).map_err(|e| err(line_no, e.to_string()))
}

/// Every Singles game ID of a text, one per line (see [`parse_singles_line`]); errors when the
/// text holds none.
pub fn parse_singles(text: &str) -> Result<Vec<ParsedHitori>, ParseError> {
    let mut out = Vec::new();
    let mut last_line = 0;
    for (i, line) in text.lines().enumerate() {
        last_line = i + 1;
        if let Some(p) = parse_singles_line(line, i + 1)? {
            out.push(p);
        }
    }
    if out.is_empty() {
        return Err(err(
            last_line.max(1),
            "expected at least one Singles game ID, found none (no puzzle found)",
        ));
    }
    Ok(out)
}

/// True when the first non-blank, non-comment line looks like a Singles ID (optionally after a
/// tab-separated name field).
pub fn looks_like_singles(text: &str) -> bool {
    let Some(line) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    let mut fields = line.split('\t').map(str::trim);
    let first = fields.next().unwrap_or("");
    split_id(first).is_some() || fields.next().is_some_and(|f| split_id(f).is_some())
}

/// The grid-block form of a puzzle: one line per row, numbers separated by single spaces.
pub fn to_grid_block(p: &HitoriPuzzle) -> String {
    let mut s = String::new();
    for row in p.cells().chunks(p.width()) {
        let line: Vec<String> = row.iter().map(u32::to_string).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

/// The Singles game ID of a puzzle, or `None` when a value exceeds 61 (no character for it).
pub fn to_singles_id(p: &HitoriPuzzle) -> Option<String> {
    let mut s = format!("{}x{}:", p.width(), p.height());
    for &v in p.cells() {
        let ch = match v {
            1..=9 => char::from_digit(v, 10)?,
            10..=35 => char::from(b'a' + (v - 10) as u8),
            36..=61 => char::from(b'A' + (v - 36) as u8),
            _ => return None,
        };
        s.push(ch);
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DEMO: &str = "1 1 3 1 2\n4 4 2 5 1\n3 5 1 2 3\n2 2 4 4 5\n2 2 5 1 4\n";

    fn grid_err(text: &str) -> ParseError {
        parse_grid_blocks(text).expect_err("expected an error")
    }

    fn singles_err(line: &str) -> ParseError {
        parse_singles_line(line, 7).expect_err("expected an error")
    }

    #[test]
    fn grid_blocks_with_names_comments_and_blank_lines() {
        let text = "# a file\n# name: demo\n1 1 3 1 2 # first row\n4 4 2 5 1\n3 5 1 2 3\n2 2 4 4 5\n2 2 5 1 4\n\n\n1 2\n# inner comment\n2 1\n";
        let v = parse_grid_blocks(text).unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].line, 3);
        assert_eq!(v[0].name.as_deref(), Some("demo"));
        assert_eq!(v[0].puzzle.value(4, 2), 5);
        assert_eq!(v[1].line, 10);
        assert_eq!(v[1].name, None);
        assert_eq!(v[1].puzzle.cells(), &[1, 2, 2, 1]);
        // A name separated from its block by a blank line does not stick.
        let v = parse_grid_blocks("# name: x\n\n1 2\n2 1\n").unwrap();
        assert_eq!(v[0].name, None);
        // A name line inside a block ends it and names the next one.
        let v = parse_grid_blocks("1 2\n2 1\n# name: b\n3 4\n4 3\n").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].name.as_deref(), Some("b"));
        // Large values and rectangular grids are fine.
        let v = parse_grid_blocks("4294967295 1 2\n1 2 3\n").unwrap();
        assert_eq!((v[0].puzzle.width(), v[0].puzzle.height()), (3, 2));
    }

    #[test]
    fn grid_block_errors_name_line_and_expectation() {
        let e = grid_err("1 2 3\n1 2\n");
        assert_eq!(e.line, 2);
        assert_eq!(
            e.message,
            "expected 3 numbers in this row (like the block's first row), found 2"
        );
        let e = grid_err("1 2\n2 1\n\n1 x\n");
        assert_eq!(
            (e.line, e.message.as_str()),
            (4, "expected a positive integer, found `x`")
        );
        let e = grid_err("1 2\n0 1\n");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("expected a positive integer") && e.message.contains("found 0"));
        let e = grid_err("1 -2\n2 1\n");
        assert_eq!(e.line, 1);
        assert!(e.message.contains("negative `-2`"), "{}", e.message);
        let e = grid_err("1 2\n2 99999999999\n");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("at most 4294967295"), "{}", e.message);
        let e = grid_err("\n1 2 3\n");
        assert_eq!(e.line, 2);
        assert!(
            e.message.contains("rows, found a block of 1 row"),
            "{}",
            e.message
        );
        let e = grid_err("7\n");
        assert_eq!(e.line, 1);
        assert!(e.message.contains("found 1"), "{}", e.message);
        let wide = vec!["1"; 65].join(" ");
        let e = grid_err(&format!("# c\n{wide}\n"));
        assert_eq!(e.line, 2);
        assert!(e.message.contains("2 to 64 numbers") && e.message.contains("found 65"));
        let tall = "1 2\n".repeat(65);
        let e = grid_err(&tall);
        assert_eq!(e.line, 65);
        assert!(e.message.contains("at most 64 rows"), "{}", e.message);
        let e = grid_err("# only a comment\n\n");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("no puzzle found"));
        assert_eq!(grid_err("").line, 1);
        let e = grid_err("1 2\n2 ü\n");
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "expected a positive integer, found `ü`")
        );
        assert_eq!(
            e.to_string(),
            "line 2: expected a positive integer, found `ü`"
        );
    }

    /// Regression: `# name:` with nothing after it named the next block "", which became an
    /// empty puzzle id in the result CSV.
    #[test]
    fn empty_name_comment_is_an_error() {
        for text in ["# name:\n1 2\n2 1\n", "1 2\n2 1\n#name:   \t\r\n3 4\n4 3\n"] {
            let e = grid_err(text);
            assert_eq!(
                e.message, "expected a puzzle name after `# name:`, found nothing",
                "{text:?}"
            );
        }
        assert_eq!(grid_err("# c\n# name:\n1 2\n2 1\n").line, 2);
        // The block before the bad line is still checked first, as before.
        assert_eq!(grid_err("1 2 3\n# name:\n").line, 1);
    }

    #[test]
    fn singles_lines_with_name_and_mask() {
        let p = parse_singles_line("3x2:12a4BZ", 4).unwrap().unwrap();
        assert_eq!(p.line, 4);
        assert_eq!(p.puzzle.cells(), &[1, 2, 10, 4, 37, 61]);
        assert_eq!((p.puzzle.width(), p.puzzle.height()), (3, 2));
        assert_eq!((p.name.clone(), p.solution.clone()), (None, None));
        let p = parse_singles_line("x/y\t2x2:1221\t#..#\r", 1)
            .unwrap()
            .unwrap();
        assert_eq!(p.name.as_deref(), Some("x/y"));
        assert_eq!(p.solution.unwrap().to_mask(), "#..#");
        let p = parse_singles_line("2x2de:1221\t.##.", 1).unwrap().unwrap();
        assert_eq!(p.solution.unwrap().to_mask(), ".##.");
        assert_eq!(parse_singles_line("  ", 1), Ok(None));
        assert_eq!(parse_singles_line("# 5x5:...", 1), Ok(None));
        let all = parse_singles("# header\n\n2x2:1221\n3x2:123231\n").unwrap();
        assert_eq!(all.iter().map(|p| p.line).collect::<Vec<_>>(), vec![3, 4]);
    }

    #[test]
    fn singles_errors_name_line_and_expectation() {
        let e = singles_err("5by5:1234");
        assert_eq!(e.line, 7);
        assert!(
            e.message.contains("expected a Singles game ID `WxH:cells`"),
            "{}",
            e.message
        );
        let e = singles_err("70x5:1");
        assert_eq!(
            e.message,
            "expected width and height from 2 to 64, found 70x5"
        );
        let e = singles_err("99999999999999999999999x5:1");
        assert!(e.message.contains("from 2 to 64"), "{}", e.message);
        let e = singles_err("1x5:11111");
        assert!(e.message.contains("found 1x5"));
        let e = singles_err("2x2:122");
        assert_eq!(e.message, "expected 4 cells for 2x2, found 3");
        let e = singles_err("2x2:12210");
        assert!(
            e.message.contains("expected a cell character"),
            "{}",
            e.message
        );
        assert!(e.message.contains("'0' at cell 5"), "{}", e.message);
        let e = singles_err("2x2:1é21");
        assert!(e.message.contains("'é' at cell 2"), "{}", e.message);
        let e = singles_err("2x2:1221\t#.#");
        assert_eq!(
            e.message,
            "expected a solution mask of 4 characters for 2x2, found 3"
        );
        let e = singles_err("2x2:1221\t#x.#");
        assert!(
            e.message.contains("found 'x' at position 2"),
            "{}",
            e.message
        );
        let e = singles_err("n\t2x2:1221\t#..#\textra");
        assert!(
            e.message.contains("at most a solution mask"),
            "{}",
            e.message
        );
        let e = parse_singles("\n# nothing\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("no puzzle found"));
        let e = parse_singles("2x2:1221\n2x2:12\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn detection() {
        assert!(looks_like_singles("# c\n\n5x5:1234512345123451234512345\n"));
        assert!(looks_like_singles("name\t5x5:1234512345123451234512345\n"));
        assert!(!looks_like_singles(DEMO));
        assert!(!looks_like_singles("# name: x\n1 2\n2 1\n"));
        assert!(!looks_like_singles(""));
    }

    #[test]
    fn round_trips() {
        let v = parse_grid_blocks(DEMO).unwrap();
        let p = &v[0].puzzle;
        assert_eq!(to_grid_block(p), DEMO);
        let id = to_singles_id(p).unwrap();
        assert_eq!(id, "5x5:1131244251351232244522514");
        let back = parse_singles_line(&id, 1).unwrap().unwrap();
        assert_eq!(&back.puzzle, p);
        let big = HitoriPuzzle::new(2, 2, vec![10, 35, 36, 61]).unwrap();
        let id = to_singles_id(&big).unwrap();
        assert_eq!(id, "2x2:azAZ");
        assert_eq!(parse_singles_line(&id, 1).unwrap().unwrap().puzzle, big);
        let huge = HitoriPuzzle::new(2, 2, vec![1, 62, 1, 1]).unwrap();
        assert_eq!(to_singles_id(&huge), None);
        let back = parse_grid_blocks(&to_grid_block(&huge)).unwrap();
        assert_eq!(back[0].puzzle, huge);
    }

    proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC{0,200}") {
            let _ = parse_grid_blocks(&s);
            let _ = parse_singles(&s);
            let _ = looks_like_singles(&s);
        }

        #[test]
        fn parsers_never_panic_on_near_valid_text(s in "[0-9x:#. \t\n\ra-zA-Z-]{0,120}") {
            let _ = parse_grid_blocks(&s);
            let _ = parse_singles(&s);
        }
    }
}
