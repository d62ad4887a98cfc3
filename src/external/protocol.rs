//! The line protocol: request lines out, answer lines in, parsed strictly.
//!
//! Request: `<job>\t<seed>\t<puzzle>\n`. Answer: `<job>\t<status>\t<answer>\t<stats>\n`.
//! PROTOCOL.md at the repository root is the user-facing description of the same thing.

use std::fmt::Write as _;

use crate::hitori::grid::Shading;
use crate::solver::{Answer, Counters, Puzzle, PuzzleData};

/// The longest answer line accepted, newline excluded; anything longer is a fault.
pub const MAX_LINE: usize = 1 << 20;

/// The `status` field of an answer line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// A solution follows.
    Solved,
    /// Proved there is none.
    Unsolved,
    /// Gave up.
    Unknown,
    /// The solver reports its own failure.
    Error,
}

/// One answer line, split but not yet checked against the puzzle.
#[derive(Debug, PartialEq, Eq)]
pub struct AnswerLine<'a> {
    /// The job it answers.
    pub job: u64,
    /// How the solver says it ended.
    pub status: Status,
    /// The solution text (empty unless solved).
    pub answer: &'a str,
    /// The raw `key=value;…` field.
    pub stats: &'a str,
}

/// Appends the request line for `puzzle` (newline included) to `out`.
pub fn encode_request(job: u64, seed: u64, puzzle: &Puzzle, out: &mut String) {
    // Writing to a String cannot fail.
    let _ = write!(out, "{job}\t{seed}\t");
    match &puzzle.data {
        PuzzleData::Sudoku { puzzle, .. } => {
            out.extend(
                puzzle
                    .cells()
                    .iter()
                    .map(|&v| if v == 0 { '.' } else { char::from(b'0' + v) }),
            );
        }
        PuzzleData::SudokuK { puzzle, .. } => out.push_str(&puzzle.to_line()),
        PuzzleData::Hitori { puzzle, .. } => {
            let _ = write!(out, "{}x{}:", puzzle.width(), puzzle.height());
            for (i, v) in puzzle.cells().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{v}");
            }
        }
    }
    out.push('\n');
}

/// Splits an answer line (without its `\n`; one trailing `\r` is tolerated) strictly.
pub fn parse_answer(line: &[u8]) -> Result<AnswerLine<'_>, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| {
        format!(
            "answer line is not UTF-8 (bad byte at {}): {}",
            e.valid_up_to() + 1,
            excerpt(line)
        )
    })?;
    let fields: Vec<&str> = text.split('\t').collect();
    if fields.len() != 4 {
        return Err(format!(
            "expected 4 tab-separated fields `job, status, answer, stats`, found {}: {}",
            fields.len(),
            excerpt(line)
        ));
    }
    let job = parse_job(fields[0]).ok_or_else(|| {
        format!(
            "job field `{}` is not a job number: {}",
            clip(fields[0]),
            excerpt(line)
        )
    })?;
    let status = match fields[1] {
        "solved" => Status::Solved,
        "unsolved" => Status::Unsolved,
        "unknown" => Status::Unknown,
        "error" => Status::Error,
        other => {
            return Err(format!(
                "status `{}` is not one of solved, unsolved, unknown, error",
                clip(other)
            ))
        }
    };
    let answer = fields[2];
    match (status, answer.is_empty()) {
        (Status::Solved, true) => return Err("status `solved` with an empty answer".into()),
        (Status::Unsolved | Status::Unknown | Status::Error, false) => {
            return Err(format!("status `{}` with a non-empty answer", fields[1]))
        }
        _ => {}
    }
    Ok(AnswerLine {
        job,
        status,
        answer,
        stats: fields[3],
    })
}

/// Decimal digits only: no sign, no spaces, so `+7` and ` 7` are faults, not job 7.
fn parse_job(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Checks the answer's shape against the puzzle and converts it; a well-shaped but wrong
/// answer passes (the harness's verifier judges it), a mis-shaped one is a fault.
pub fn to_answer(puzzle: &Puzzle, answer: &str) -> Result<Answer, String> {
    match &puzzle.data {
        PuzzleData::Sudoku { .. } => {
            let b = answer.as_bytes();
            if b.len() != 81 || !b.iter().all(|c| (b'1'..=b'9').contains(c)) {
                return Err(format!(
                    "a Sudoku answer is 81 digits 1-9, found {} characters: `{}`",
                    answer.chars().count(),
                    clip(answer)
                ));
            }
            let mut cells = [0u8; 81];
            for (c, &d) in cells.iter_mut().zip(b) {
                *c = d - b'0';
            }
            Ok(Answer::Sudoku(cells))
        }
        PuzzleData::SudokuK { puzzle, .. } => {
            let side = puzzle.side();
            let body = answer
                .strip_prefix(&format!("sudoku{side}:"))
                .ok_or_else(|| {
                    format!(
                        "a {side}x{side} Sudoku answer is `sudoku{side}:` then {} comma-separated values, found `{}`",
                        side * side,
                        clip(answer)
                    )
                })?;
            let cells: Vec<u8> = body
                .split(',')
                .map(|t| {
                    t.parse::<u8>()
                        .ok()
                        .filter(|&v| v >= 1 && usize::from(v) <= side)
                })
                .collect::<Option<Vec<u8>>>()
                .filter(|c| c.len() == side * side)
                .ok_or_else(|| {
                    format!(
                        "a {side}x{side} Sudoku answer holds {} values 1-{side}: `{}`",
                        side * side,
                        clip(answer)
                    )
                })?;
            Ok(Answer::SudokuK(cells))
        }
        PuzzleData::Hitori { puzzle, .. } => {
            let (w, h) = (puzzle.width(), puzzle.height());
            let n = answer.chars().count();
            if n != w * h {
                return Err(format!(
                    "a {w}x{h} Hitori answer is {} `#`/`.` characters, found {n}: `{}`",
                    w * h,
                    clip(answer)
                ));
            }
            Shading::from_mask(w, h, answer)
                .map(Answer::Hitori)
                .map_err(|e| format!("bad Hitori answer: {e}"))
        }
    }
}

/// Splits the stats field: counter keys fill `counters`; the other pairs come back verbatim,
/// `;`-joined in their order (None when there are none). Empty segments (`a=1;;b=2`, a
/// trailing `;`) are ignored; a pair without `=`, an empty or repeated key, or a counter
/// whose value does not parse is a fault.
pub fn split_stats(stats: &str, counters: &mut Counters) -> Result<Option<String>, String> {
    let mut extra = String::new();
    let mut seen: Vec<&str> = Vec::new();
    for pair in stats.split(';').filter(|p| !p.is_empty()) {
        let Some((k, v)) = pair.split_once('=') else {
            return Err(format!("stats pair `{}` has no `=`", clip(pair)));
        };
        if k.is_empty() {
            return Err(format!("stats pair `{}` has an empty key", clip(pair)));
        }
        if seen.contains(&k) {
            return Err(format!("stats key `{}` is repeated", clip(k)));
        }
        seen.push(k);
        let known = counters
            .set_by_name(k, v)
            .map_err(|expected| format!("stats key `{k}`: {:?} is not {expected}", clip(v)))?;
        // `solutions` also stays in the stats: its column exists only with
        // --count-solutions, and a solver's count must not be dropped without it.
        if !known || k == "solutions" {
            if !extra.is_empty() {
                extra.push(';');
            }
            extra.push_str(pair);
        }
    }
    Ok((!extra.is_empty()).then_some(extra))
}

/// A short, printable excerpt of a line for messages.
pub fn excerpt(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(120)]);
    let mut s: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if line.len() > 120 {
        s.push('…');
    }
    format!("`{s}`")
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::PuzzleData;
    use crate::hitori::grid::HitoriPuzzle;
    use crate::sudoku::grid::SudokuPuzzle;

    const GIVENS: &str =
        "000260701680070090190004500820100040004602900050003028009300074040050036703018000";
    const SOLVED: &str =
        "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

    fn sudoku() -> Puzzle {
        let mut cells = [0u8; 81];
        for (c, b) in cells.iter_mut().zip(GIVENS.bytes()) {
            *c = b - b'0';
        }
        Puzzle {
            id: "demo:1".into(),
            file: 0,
            line: 1,
            data: PuzzleData::Sudoku {
                puzzle: SudokuPuzzle::new(cells).expect("valid"),
                solution: None,
            },
        }
    }

    fn hitori() -> Puzzle {
        Puzzle {
            id: "h:1".into(),
            file: 0,
            line: 1,
            data: PuzzleData::Hitori {
                puzzle: HitoriPuzzle::new(3, 2, vec![1, 2, 3, 10, 1, 2]).expect("valid"),
                solution: None,
            },
        }
    }

    #[test]
    fn requests_use_the_canonical_forms() {
        let mut s = String::new();
        encode_request(7, u64::MAX, &sudoku(), &mut s);
        let want = format!("7\t18446744073709551615\t{}\n", GIVENS.replace('0', "."));
        assert_eq!(s, want);
        s.clear();
        encode_request(0, 1, &hitori(), &mut s);
        assert_eq!(s, "0\t1\t3x2:1,2,3,10,1,2\n");
    }

    #[test]
    fn answer_lines_parse() {
        let l = parse_answer(b"12\tsolved\t#..#.#\tnodes=3;x=y\r").expect("valid");
        assert_eq!(
            l,
            AnswerLine {
                job: 12,
                status: Status::Solved,
                answer: "#..#.#",
                stats: "nodes=3;x=y"
            }
        );
        for (text, st) in [
            ("1\tunsolved\t\t", Status::Unsolved),
            ("1\tunknown\t\t", Status::Unknown),
            ("1\terror\t\treason=oom", Status::Error),
        ] {
            assert_eq!(parse_answer(text.as_bytes()).expect("valid").status, st);
        }
    }

    #[test]
    fn malformed_answer_lines_say_why() {
        let cases: [(&[u8], &str); 9] = [
            (b"hello", "expected 4 tab-separated fields"),
            (b"1\tsolved\tx", "found 3"),
            (b"1\tsolved\tx\ty\tz", "found 5"),
            (b"-1\tsolved\tx\t", "job field `-1`"),
            (b"+1\tsolved\tx\t", "job field `+1`"),
            (b"1\tSOLVED\tx\t", "status `SOLVED`"),
            (b"1\tsolved\t\t", "empty answer"),
            (b"1\tunsolved\tx\t", "non-empty answer"),
            (b"1\tsolved\t\xff\t", "not UTF-8"),
        ];
        for (line, want) in cases {
            let e = parse_answer(line).expect_err("malformed");
            assert!(e.contains(want), "{e:?} should contain {want:?}");
        }
        let e = parse_answer(b"99999999999999999999999\tsolved\tx\t").expect_err("overflow");
        assert!(e.contains("not a job number"), "{e}");
    }

    #[test]
    fn answers_are_shape_checked() {
        assert_eq!(
            to_answer(&sudoku(), SOLVED).expect("shape"),
            Answer::Sudoku(std::array::from_fn(|i| SOLVED.as_bytes()[i] - b'0'))
        );
        // Wrong but well-shaped passes: the verifier, not the protocol, rejects it.
        assert!(to_answer(&sudoku(), &"1".repeat(81)).is_ok());
        let e = to_answer(&sudoku(), &SOLVED[..80]).expect_err("short");
        assert!(e.contains("81 digits") && e.contains("found 80"), "{e}");
        let e = to_answer(&sudoku(), &SOLVED.replace('4', "0")).expect_err("zero");
        assert!(e.contains("81 digits"), "{e}");
        match to_answer(&hitori(), "#..#.#").expect("shape") {
            Answer::Hitori(s) => assert_eq!(s.to_mask(), "#..#.#"),
            other => panic!("{other:?}"),
        }
        let e = to_answer(&hitori(), "#..#.").expect_err("short");
        assert!(e.contains("3x2") && e.contains("found 5"), "{e}");
        let e = to_answer(&hitori(), "#..#.x").expect_err("char");
        assert!(e.contains("bad Hitori answer"), "{e}");
    }

    #[test]
    fn stats_fill_counters_and_keep_the_rest() {
        let mut c = Counters::default();
        let extra = split_stats("nodes=5;difficulty=hard;guesses=2;;t=0.5;", &mut c).expect("ok");
        assert_eq!(extra.as_deref(), Some("difficulty=hard;t=0.5"));
        assert_eq!((c.nodes, c.guesses), (Some(5), Some(2)));
        let mut c = Counters::default();
        assert_eq!(split_stats("", &mut c).expect("empty"), None);
        // `solutions` fills its counter and is kept in the stats too.
        let mut c = Counters::default();
        let extra = split_stats("solutions=2;nodes=1", &mut c).expect("ok");
        assert_eq!(extra.as_deref(), Some("solutions=2"));
        assert_eq!(c.solutions, Some(2));
        for (s, want) in [
            ("nodes", "no `=`"),
            ("=3", "empty key"),
            ("a=1;a=2", "repeated"),
            ("nodes=many", "nodes"),
        ] {
            let e = split_stats(s, &mut Counters::default()).expect_err(s);
            assert!(e.contains(want), "{e:?} should contain {want:?}");
        }
    }
}
