//! One puzzle per line: 81 cells (`1-9` givens, `.` or `0` blanks), optionally followed by other
//! fields (a rating, a known solution). Never panics, whatever the input: it walks `char`s and
//! never slices bytes.

use super::grid::{Solution, SudokuPuzzle};
use super::verify::verify;

/// A puzzle read from a line, with the line number (1-based) and the solution if the line gave one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedSudoku {
    /// 1-based line number in the text.
    pub line: usize,
    /// The puzzle.
    pub puzzle: SudokuPuzzle,
    /// A known solution from the same line, already checked against the givens.
    pub solution: Option<Solution>,
}

/// Why a line is not a puzzle. The caller adds the file path.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What was expected and what was found.
    pub message: String,
}

/// Characters that may separate the cells from what follows them, besides whitespace.
const SEPARATORS: &[char] = &[',', ';', ':', '|'];

fn is_separator(c: char) -> bool {
    c.is_whitespace() || SEPARATORS.contains(&c)
}

/// Describes a character for a message: printable ones quoted, others as a code point.
fn show(c: char) -> String {
    if c.is_control() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

/// The first 81 non-whitespace-led characters of the line are the cells (leading whitespace
/// trimmed); after them any text is allowed (a rating, a solution) provided it is separated by
/// whitespace or one of `,;:|` or the line ends. If a following field is exactly 81 digits 1-9
/// it is taken as the known solution (and must agree with the givens, else error). Blank lines
/// and lines starting with `#` give Ok(None).
pub fn parse_line(line: &str, line_no: usize) -> Result<Option<ParsedSudoku>, ParseError> {
    let err = |message: String| ParseError {
        line: line_no,
        message,
    };
    // A byte-order mark can lead the first line of a file saved by some editors.
    let text = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    // The usual line: 81 ASCII cells, read as bytes. Anything else takes the walk over chars,
    // which also finds what to say about a bad line.
    if let Some(head) = text.as_bytes().get(..81) {
        if head.iter().all(|b| matches!(b, b'0'..=b'9' | b'.')) {
            let mut cells = [0u8; 81];
            for (slot, &b) in cells.iter_mut().zip(head) {
                *slot = b.saturating_sub(b'0');
            }
            // 81 ASCII bytes end on a char boundary.
            return after_cells(cells, text.get(81..).unwrap_or(""), line_no);
        }
    }
    let (cells, rest) = cells_by_chars(text).map_err(err)?;
    after_cells(cells, rest, line_no)
}

/// The 81 cells at the start of `text`, one `char` at a time, and the text after them; or
/// what is wrong with them.
fn cells_by_chars(text: &str) -> Result<([u8; 81], &str), String> {
    let mut cells = [0u8; 81];
    let mut chars = text.chars();
    for (i, slot) in cells.iter_mut().enumerate() {
        match chars.next() {
            Some(c @ '1'..='9') => *slot = c as u8 - b'0',
            Some('.' | '0') => *slot = 0,
            Some(c) if is_separator(c) => {
                return Err(format!(
                    "expected 81 cells (1-9 givens, '.' or '0' blanks), found {i} before {}",
                    show(c)
                ))
            }
            Some(c) => {
                return Err(format!("bad character {} at cell {}", show(c), i + 1));
            }
            None => {
                return Err(format!(
                    "expected 81 cells (1-9 givens, '.' or '0' blanks), found {i} before the end of the line"
                ))
            }
        }
    }
    Ok((cells, chars.as_str()))
}

/// The rest of a line after its 81 cells: a separator or the end, then optional fields, one of
/// which may be the known solution.
fn after_cells(
    cells: [u8; 81],
    rest: &str,
    line_no: usize,
) -> Result<Option<ParsedSudoku>, ParseError> {
    let err = |message: String| ParseError {
        line: line_no,
        message,
    };
    if let Some(c) = rest.chars().next() {
        if !is_separator(c) {
            return Err(err(format!(
                "expected whitespace or one of , ; : | after the 81 cells, found {}",
                show(c)
            )));
        }
    }
    let puzzle = SudokuPuzzle::new(cells).map_err(|e| err(e.to_string()))?;
    let solution = match rest
        .split(is_separator)
        .find(|f| f.chars().count() == 81 && f.chars().all(|c| matches!(c, '1'..='9')))
    {
        None => None,
        Some(field) => {
            let mut sol = [0u8; 81];
            for (slot, b) in sol.iter_mut().zip(field.bytes()) {
                *slot = b - b'0';
            }
            verify(&puzzle, &sol).map_err(|v| err(format!("the solution field is wrong: {v}")))?;
            Some(sol)
        }
    };
    Ok(Some(ParsedSudoku {
        line: line_no,
        puzzle,
        solution,
    }))
}

/// Every puzzle of a text, one per line, stopping at the first bad line. An error "no puzzle
/// found" (reported at line 1) when the text holds no puzzle at all.
pub fn parse_lines(text: &str) -> Result<Vec<ParsedSudoku>, ParseError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(p) = parse_line(line, i + 1)? {
            out.push(p);
        }
    }
    if out.is_empty() {
        return Err(ParseError {
            line: 1,
            message: "no puzzle found (the text holds only blank lines and # comments)".into(),
        });
    }
    Ok(out)
}

/// True when the first non-blank non-comment line starts with 81 characters from 0-9 and '.'.
/// Cheap content sniffing for the dataset loader; it does not validate the puzzle.
pub fn looks_like_sudoku(text: &str) -> bool {
    let Some(line) = text
        .lines()
        .map(|l| l.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}'))
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    let mut n = 0;
    for c in line.chars().take(81) {
        if !(c.is_ascii_digit() || c == '.') {
            return false;
        }
        n += 1;
    }
    n == 81
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testdata::{DEMO, DEMO_SOLUTION};

    fn msg(line: &str, no: usize) -> String {
        parse_line(line, no).unwrap_err().to_string()
    }

    #[test]
    fn plain_dotted_and_trailing_text() {
        let p = parse_line(DEMO, 3).unwrap().unwrap();
        assert_eq!(p.line, 3);
        assert_eq!(p.puzzle.givens(), 36);
        assert_eq!(p.solution, None);
        let dotted = DEMO.replace('0', ".");
        let q = parse_line(&format!("  {dotted}  # rating 3.4"), 1)
            .unwrap()
            .unwrap();
        assert_eq!(q.puzzle, p.puzzle);
        assert_eq!(q.puzzle.to_line(), dotted);
        for sep in [",", ";", ":", "|", "\t"] {
            let r = parse_line(&format!("{DEMO}{sep}ER 7.1"), 1)
                .unwrap()
                .unwrap();
            assert_eq!(r.puzzle, p.puzzle);
        }
        assert!(parse_line(&format!("{DEMO}\r"), 1).unwrap().is_some());
    }

    #[test]
    fn known_solution_is_read_and_checked() {
        let p = parse_line(&format!("{DEMO} 3.2 {DEMO_SOLUTION}"), 5)
            .unwrap()
            .unwrap();
        assert_eq!(
            p.solution.map(|s| s.to_vec()),
            Some(crate::sudoku::testdata::demo_solution().to_vec())
        );
        let p = parse_line(&format!("{DEMO},{DEMO_SOLUTION}"), 5)
            .unwrap()
            .unwrap();
        assert!(p.solution.is_some());

        // A solution that contradicts a given (r1c4 = 2 in the demo).
        let mut bad: Vec<char> = DEMO_SOLUTION.chars().collect();
        bad.swap(0, 3);
        let bad: String = bad.into_iter().collect();
        let m = msg(&format!("{DEMO} {bad}"), 9);
        assert!(m.starts_with("line 9: the solution field is wrong"), "{m}");
        assert!(m.contains("r1c4"), "{m}");
    }

    #[test]
    fn comments_and_blank_lines() {
        assert_eq!(parse_line("", 1), Ok(None));
        assert_eq!(parse_line("   \t", 1), Ok(None));
        assert_eq!(parse_line("# a comment 123", 1), Ok(None));
        assert_eq!(parse_line("   # indented comment", 1), Ok(None));
    }

    #[test]
    fn error_cases_carry_the_line_number() {
        assert_eq!(
            msg(&DEMO[..80], 4),
            "line 4: expected 81 cells (1-9 givens, '.' or '0' blanks), found 80 before the end of the line"
        );
        assert_eq!(
            msg(&format!("{} {}", &DEMO[..40], &DEMO[40..]), 2),
            "line 2: expected 81 cells (1-9 givens, '.' or '0' blanks), found 40 before ' '"
        );
        let mut bad = DEMO.to_string();
        bad.replace_range(16..17, "x");
        assert_eq!(msg(&bad, 7), "line 7: bad character 'x' at cell 17");
        assert_eq!(
            msg(&format!("{DEMO}5"), 8),
            "line 8: expected whitespace or one of , ; : | after the 81 cells, found '5'"
        );
        // r2c3 and r2c7 both 5.
        let mut rep = DEMO.to_string();
        rep.replace_range(11..12, "5");
        rep.replace_range(15..16, "5");
        assert_eq!(
            msg(&rep, 2),
            "line 2: given 5 repeats in row 2 (columns 3 and 7)"
        );
    }

    #[test]
    fn parse_lines_counts_lines_and_rejects_empty_text() {
        let text = format!("# header\n\n{DEMO}\r\n{}\n", DEMO.replace('0', "."));
        let all = parse_lines(&text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].line, 3);
        assert_eq!(all[1].line, 4);
        let e = parse_lines("# only a comment\n\n").unwrap_err();
        assert!(e.message.starts_with("no puzzle found"), "{e}");
        assert!(parse_lines("").is_err());
        let e = parse_lines(&format!("{DEMO}\nhello\n")).unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn sniffing() {
        assert!(looks_like_sudoku(&format!("# c\n\n{DEMO} extra\n")));
        assert!(looks_like_sudoku(&DEMO.replace('0', ".")));
        assert!(!looks_like_sudoku("5 5\n1 2 3\n"));
        assert!(!looks_like_sudoku("5x5:1234512345123451234512345\n"));
        assert!(!looks_like_sudoku(&DEMO[..80]));
        assert!(!looks_like_sudoku(""));
    }

    #[test]
    fn non_ascii_never_panics() {
        let s = format!("{}é{}", &DEMO[..10], &DEMO[11..]);
        assert_eq!(msg(&s, 1), "line 1: bad character 'é' at cell 11");
        let s = format!("{DEMO}→x");
        assert!(parse_line(&s, 1).is_err());
        let s = format!("{DEMO} {}é", &DEMO_SOLUTION[..80]);
        assert_eq!(parse_line(&s, 1).unwrap().unwrap().solution, None);
    }

    mod prop {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn never_panics(s in "\\PC{0,200}") {
                let _ = parse_line(&s, 1);
                let _ = looks_like_sudoku(&s);
            }

            #[test]
            fn ascii_lines_read_as_bytes_give_the_cells_of_the_char_walk(
                givens in proptest::collection::vec((0usize..81, 1u8..=9), 0..30),
                zeros in any::<bool>(),
                tail in "([ ,;:|][1-9.]{0,90}){0,2}",
            ) {
                // Few givens, so that most lines are valid puzzles, some with repeats.
                let mut cells = [if zeros { b'0' } else { b'.' }; 81];
                for (at, d) in givens {
                    cells[at] = b'0' + d;
                }
                let cells = String::from_utf8(cells.to_vec()).expect("ascii");
                let line = format!("{cells}{tail}");
                let (want, rest) = cells_by_chars(&line).expect("81 valid cells");
                prop_assert_eq!(rest, tail.as_str());
                match (parse_line(&line, 3), SudokuPuzzle::new(want)) {
                    (Ok(Some(p)), Ok(q)) => prop_assert_eq!(p.puzzle, q),
                    (Err(e), Err(g)) => prop_assert!(
                        e.message == g.to_string() || e.message.starts_with("the solution field"),
                        "{}", e.message
                    ),
                    (got, grid) => prop_assert!(false, "{got:?} against {grid:?}"),
                }
            }

            #[test]
            fn never_panics_near_valid(prefix in "[0-9.]{75,85}", tail in "\\PC{0,100}") {
                let _ = parse_line(&format!("{prefix}{tail}"), 1);
                let _ = parse_lines(&format!("{prefix}{tail}\n{tail}"));
            }
        }
    }
}
