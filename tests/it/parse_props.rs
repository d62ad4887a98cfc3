//! Property tests for the puzzle-file parsers and the dataset loader.
//!
//! Three families of property, for each format (Hitori grid blocks, Singles game IDs, Sudoku
//! lines) and for `dataset::load_file` on a real file:
//!
//! * (a) arbitrary bytes and strings never panic, and an error names a line inside the text
//!   with a non-empty message;
//! * (b) random mutations of valid files (bytes deleted, inserted or replaced, lines duplicated,
//!   dropped or swapped) never panic, and either parse or fail at a line inside the file;
//! * (c) valid puzzles written out and read back give the same puzzles, names, solutions and
//!   line numbers.
//!
//! The loader is also checked against the public parsers: whatever `Format::detect` picks,
//! `load_file` must report exactly what that parser reports, so the two paths cannot drift.
//!
//! Case counts keep the whole file at a few seconds in release builds.

use proptest::prelude::*;
use proptest::sample::Index;
use puzzlebench::dataset::{load_file, DatasetError, Format, Puzzle, PuzzleData};
use puzzlebench::hitori::{
    looks_like_singles, parse_grid_blocks, parse_singles, parse_singles_line, to_grid_block,
    to_singles_id, HitoriPuzzle, ParsedHitori, Shading,
};
use puzzlebench::sudoku::{
    looks_like_sudoku, parse_line, parse_lines, ParsedSudoku, Solution, SudokuPuzzle,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::path::Path;

/// A solved Sudoku grid (the demo puzzle's solution); relabelling its digits gives others.
const SUDOKU_SOLVED: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

// ---------------------------------------------------------------------------------------------
// Invariants shared by every property.

/// The highest line number an error may name: the text's last line, or 1 for an empty text
/// (the parsers report "no puzzle found" at line 1 then).
fn max_line(text: &str) -> usize {
    text.lines().count().max(1)
}

fn check_hitori(
    what: &str,
    text: &str,
    res: &Result<Vec<ParsedHitori>, puzzlebench::hitori::ParseError>,
) {
    let n = max_line(text);
    match res {
        Ok(v) => {
            assert!(!v.is_empty(), "{what}: Ok with no puzzle for {text:?}");
            for p in v {
                assert!(
                    (1..=n).contains(&p.line),
                    "{what}: puzzle line {} outside 1..={n} for {text:?}",
                    p.line
                );
                if let Some(name) = &p.name {
                    assert!(
                        !name.trim().is_empty(),
                        "{what}: empty name at line {} in {text:?}",
                        p.line
                    );
                }
            }
            assert!(
                v.windows(2).all(|w| w[0].line < w[1].line),
                "{what}: lines not increasing for {text:?}"
            );
        }
        Err(e) => {
            assert!(
                (1..=n).contains(&e.line),
                "{what}: error line {} outside 1..={n} for {text:?}: {e}",
                e.line
            );
            assert!(
                !e.message.trim().is_empty(),
                "{what}: empty message for {text:?}"
            );
            assert!(e.to_string().starts_with(&format!("line {}: ", e.line)));
        }
    }
}

fn check_sudoku(text: &str, res: &Result<Vec<ParsedSudoku>, puzzlebench::sudoku::ParseError>) {
    let n = max_line(text);
    match res {
        Ok(v) => {
            assert!(!v.is_empty(), "sudoku: Ok with no puzzle for {text:?}");
            for p in v {
                assert!(
                    (1..=n).contains(&p.line),
                    "sudoku: puzzle line {} outside 1..={n}",
                    p.line
                );
            }
        }
        Err(e) => {
            assert!(
                (1..=n).contains(&e.line),
                "sudoku: error line {} outside 1..={n} for {text:?}: {e}",
                e.line
            );
            assert!(
                !e.message.trim().is_empty(),
                "sudoku: empty message for {text:?}"
            );
        }
    }
}

/// Runs every parser and sniffer on `text` and checks the shared invariants.
fn check_text(text: &str) {
    check_hitori("grid", text, &parse_grid_blocks(text));
    check_hitori("singles", text, &parse_singles(text));
    check_sudoku(text, &parse_lines(text));
    // Reported lines are exact, not merely in range: the line alone gives the same puzzle.
    let lines: Vec<&str> = text.lines().collect();
    for p in parse_singles(text).unwrap_or_default() {
        assert_eq!(parse_singles_line(lines[p.line - 1], p.line), Ok(Some(p)));
    }
    for p in parse_lines(text).unwrap_or_default() {
        assert_eq!(parse_line(lines[p.line - 1], p.line), Ok(Some(p)));
    }
    for (i, line) in text.lines().enumerate() {
        // The single-line parsers must report the line number they were given, nothing else.
        match parse_singles_line(line, i + 1) {
            Ok(Some(p)) => assert_eq!(p.line, i + 1),
            Ok(None) => {}
            Err(e) => assert_eq!(e.line, i + 1, "{e}"),
        }
        match parse_line(line, i + 1) {
            Ok(Some(p)) => assert_eq!(p.line, i + 1),
            Ok(None) => {}
            Err(e) => assert_eq!(e.line, i + 1, "{e}"),
        }
    }
    // Detection is total; Singles wins over Sudoku by design.
    let f = Format::detect(text);
    assert_eq!(f == Format::Singles, looks_like_singles(text));
    if f == Format::HitoriGrid {
        assert!(!looks_like_sudoku(text));
    }
}

/// Puzzles as (id, line, data), or an error as (line, message).
type Loaded = Result<Vec<(String, usize, PuzzleData)>, (usize, String)>;

/// What `load_file` should give for `text`: the puzzles of the parser that `Format::detect`
/// picks, or that parser's error.
fn expected_load(text: &str, stem: &str) -> Loaded {
    let hitori = |v: Vec<ParsedHitori>| {
        v.into_iter()
            .enumerate()
            .map(|(i, p)| {
                let id = p.name.unwrap_or_else(|| format!("{stem}:{}", i + 1));
                let data = PuzzleData::Hitori {
                    puzzle: p.puzzle,
                    solution: p.solution,
                };
                (id, p.line, data)
            })
            .collect()
    };
    match Format::detect(text) {
        Format::HitoriGrid => parse_grid_blocks(text)
            .map(hitori)
            .map_err(|e| (e.line, e.message)),
        Format::Singles => parse_singles(text)
            .map(hitori)
            .map_err(|e| (e.line, e.message)),
        Format::SudokuLines => parse_lines(text)
            .map(|v| {
                v.into_iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let data = PuzzleData::Sudoku {
                            puzzle: p.puzzle,
                            solution: p.solution.map(Box::new),
                        };
                        (format!("{stem}:{}", i + 1), p.line, data)
                    })
                    .collect()
            })
            .map_err(|e| (e.line, e.message)),
        // Order-K forms: the loader's behaviour is checked by tests/it/sudoku_order.rs; the
        // generated texts here never take these forms.
        Format::SudokuOrderLines | Format::AcsInstance => Err((0, "order-K form".to_string())),
    }
}

/// Writes `bytes` to `dir/case.txt`, loads it and checks the result against the parsers.
fn check_file(dir: &Path, bytes: &[u8]) {
    let path = dir.join("case.txt");
    std::fs::write(&path, bytes).unwrap();
    let res = load_file(&path, 7);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let want = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            // Every format is read a line at a time, so a bad line before the invalid bytes
            // is reported first, exactly as the parser reports it on the text before them.
            let line_start = bytes[..e.valid_up_to()]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let before = std::str::from_utf8(&bytes[..line_start]).unwrap();
            let before = before.strip_prefix('\u{feff}').unwrap_or(before);
            match res {
                Err(DatasetError::NotText { line, .. }) => assert_eq!(line, want),
                Err(DatasetError::Parse { line, message, .. }) => {
                    assert!(
                        line < want,
                        "error at {line}, after the invalid line {want}"
                    );
                    // (An ACS-like text's parser is checked elsewhere; see below.)
                    let want = expected_load(before, "case").err();
                    if want != Some((0, "order-K form".to_string())) {
                        assert_eq!(
                            want,
                            Some((line, message)),
                            "for the text before the invalid bytes {before:?}"
                        );
                    }
                }
                other => panic!("invalid UTF-8 gave {other:?}"),
            }
            return;
        }
    };
    // The loader drops one leading byte-order mark before detection; the parsers do not.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match (res, expected_load(text, "case")) {
        // A text that reads as an ACS instance (a lone number first): its parser is checked
        // by tests/it/sudoku_order.rs and the loader's unit tests.
        (_, Err((0, m))) if m == "order-K form" => {}
        (Ok(got), Ok(want)) => {
            let got: Vec<_> = got
                .into_iter()
                .map(|p: Puzzle| {
                    assert_eq!(p.file, 7);
                    (p.id, p.line, p.data)
                })
                .collect();
            assert_eq!(
                got, want,
                "load_file disagrees with the parser for {text:?}"
            );
            for (id, line, _) in &got {
                assert!(
                    !id.trim().is_empty(),
                    "empty puzzle id at line {line} in {text:?}"
                );
            }
        }
        (
            Err(DatasetError::Parse {
                line,
                message,
                path: p,
            }),
            Err(want),
        ) => {
            assert_eq!(p, path);
            assert_eq!(
                (line, message),
                want,
                "load_file's error differs from the parser's for {text:?}"
            );
        }
        // The Sudoku parser's "no puzzle found" is the loader's `Empty`.
        (Err(DatasetError::Empty { .. }), Err((1, m))) if m.starts_with("no puzzle found") => {}
        // So is the grid-block parser's (the loader streams blocks and counts them itself).
        (Err(DatasetError::Empty { .. }), Err((_, m)))
            if m.starts_with("expected at least one puzzle block") => {}
        (got, want) => panic!("load_file gave {got:?}, the parser {want:?}, for {text:?}"),
    }
    check_text(text);
}

// ---------------------------------------------------------------------------------------------
// Generators of valid files, with what they hold.

/// One Hitori puzzle as a file holds it.
#[derive(Clone, Debug)]
struct HEntry {
    name: Option<String>,
    puzzle: HitoriPuzzle,
    solution: Option<Shading>,
}

fn name() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_./-]{1,12}"
}

/// A random grid: sides 2..=7, values `1..=max` (mostly small, so rows repeat numbers).
fn hitori_grid(max: u32) -> impl Strategy<Value = HitoriPuzzle> {
    (2usize..=7, 2usize..=7).prop_flat_map(move |(w, h)| {
        let value = prop_oneof![4 => 1..=(w.max(h) as u32), 1 => 1..=max];
        prop::collection::vec(value, w * h).prop_map(move |c| HitoriPuzzle::new(w, h, c).unwrap())
    })
}

/// A generated unique-solution puzzle with its shading (small sides keep it fast).
fn hitori_generated() -> impl Strategy<Value = (HitoriPuzzle, Shading)> {
    (2usize..=5, 2usize..=5, any::<u64>()).prop_map(|(w, h, seed)| {
        puzzlebench::hitori::generate(w, h, &mut Pcg64Mcg::seed_from_u64(seed))
    })
}

fn hitori_entry(max: u32, with_solution: bool) -> impl Strategy<Value = HEntry> {
    let random = (hitori_grid(max), any::<bool>()).prop_flat_map(move |(p, masked)| {
        let (w, h) = (p.width(), p.height());
        let mask = prop::collection::vec(any::<bool>(), w * h)
            .prop_map(move |b| Shading::new(w, h, b).unwrap());
        let sol = if with_solution && masked {
            mask.prop_map(Some).boxed()
        } else {
            Just(None).boxed()
        };
        (Just(p), sol)
    });
    let generated = hitori_generated().prop_map(move |(p, s)| (p, with_solution.then_some(s)));
    (
        prop_oneof![6 => random, 1 => generated],
        prop::option::of(name()),
    )
        .prop_map(|((puzzle, solution), name)| HEntry {
            name,
            puzzle,
            solution,
        })
}

/// Layout choices shared by the file writers.
#[derive(Clone, Debug)]
struct Layout {
    crlf: bool,
    header: bool,
    /// Per entry: a comment line before it.
    comments: Vec<bool>,
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(any::<bool>(), 8),
    )
        .prop_map(|(crlf, header, comments)| Layout {
            crlf,
            header,
            comments,
        })
}

/// Appends lines to a text, counting them, with the chosen line ending.
struct Writer {
    text: String,
    line: usize,
    eol: &'static str,
}

impl Writer {
    fn new(l: &Layout) -> Writer {
        let mut w = Writer {
            text: String::new(),
            line: 0,
            eol: if l.crlf { "\r\n" } else { "\n" },
        };
        if l.header {
            w.push("# puzzles written by parse_props");
        }
        w
    }

    /// Pushes one line, returns its 1-based number.
    fn push(&mut self, line: &str) -> usize {
        self.text.push_str(line);
        self.text.push_str(self.eol);
        self.line += 1;
        self.line
    }
}

/// Grid blocks: optional `# name:` line, the rows, a blank line. Returns text and first-row lines.
fn write_grid(entries: &[HEntry], l: &Layout) -> (String, Vec<usize>) {
    let mut w = Writer::new(l);
    let mut lines = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if l.comments[i % l.comments.len()] {
            w.push("# a comment 1 2 3");
        }
        if let Some(n) = &e.name {
            w.push(&format!("# name: {n}"));
        }
        for (k, row) in to_grid_block(&e.puzzle).lines().enumerate() {
            let at = w.push(row);
            if k == 0 {
                lines.push(at);
            }
        }
        w.push("");
    }
    (w.text, lines)
}

/// Singles lines: `[name<TAB>]id[<TAB>mask]`, comment lines sprinkled in.
fn write_singles(entries: &[HEntry], l: &Layout) -> (String, Vec<usize>) {
    let mut w = Writer::new(l);
    let mut lines = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if l.comments[i % l.comments.len()] {
            w.push("# 5x5:comment");
            w.push("");
        }
        let mut s = String::new();
        if let Some(n) = &e.name {
            s.push_str(n);
            s.push('\t');
        }
        s.push_str(&to_singles_id(&e.puzzle).expect("values fit Singles"));
        if let Some(m) = &e.solution {
            s.push('\t');
            s.push_str(&m.to_mask());
        }
        lines.push(w.push(&s));
    }
    (w.text, lines)
}

/// One Sudoku line as a file holds it.
#[derive(Clone, Debug)]
struct SEntry {
    puzzle: SudokuPuzzle,
    solution: Option<Solution>,
    /// Blanks as `0` rather than `.`.
    zeros: bool,
    /// Separator before the extra fields, and whether a rating field comes first.
    sep: char,
    rating: bool,
}

/// A solved grid: the demo solution with its digits relabelled by a random permutation.
fn solved_grid() -> impl Strategy<Value = Solution> {
    Just((1u8..=9).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(|perm| {
            let mut g = [0u8; 81];
            for (slot, b) in g.iter_mut().zip(SUDOKU_SOLVED.bytes()) {
                *slot = perm[usize::from(b - b'1')];
            }
            g
        })
}

fn sudoku_entry() -> impl Strategy<Value = SEntry> {
    (
        solved_grid(),
        prop::collection::vec(prop::bool::weighted(0.55), 81),
        any::<bool>(),
        any::<bool>(),
        prop::sample::select(vec![' ', '\t', ',', ';', ':', '|']),
        any::<bool>(),
    )
        .prop_map(|(sol, blank, with_sol, zeros, sep, rating)| {
            let mut cells = sol;
            for (c, &b) in cells.iter_mut().zip(&blank) {
                if b {
                    *c = 0;
                }
            }
            SEntry {
                puzzle: SudokuPuzzle::new(cells).unwrap(),
                solution: with_sol.then_some(sol),
                zeros,
                sep,
                rating,
            }
        })
}

fn write_sudoku(entries: &[SEntry], l: &Layout) -> (String, Vec<usize>) {
    let mut w = Writer::new(l);
    let mut lines = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if l.comments[i % l.comments.len()] {
            w.push("  # 123456789");
            w.push("");
        }
        let mut s = e.puzzle.to_line();
        if e.zeros {
            s = s.replace('.', "0");
        }
        if e.rating {
            s.push(e.sep);
            s.push_str("7.2");
        }
        if let Some(sol) = &e.solution {
            s.push(e.sep);
            s.extend(sol.iter().map(|&d| char::from(b'0' + d)));
        }
        lines.push(w.push(&s));
    }
    (w.text, lines)
}

/// What a valid file holds, entry by entry: the name it gives, the line, the content.
type Expected = Vec<(Option<String>, usize, PuzzleData)>;

fn hitori_expected(entries: Vec<HEntry>, lines: Vec<usize>) -> Expected {
    entries
        .into_iter()
        .zip(lines)
        .map(|(e, line)| {
            let data = PuzzleData::Hitori {
                puzzle: e.puzzle,
                solution: e.solution,
            };
            (e.name, line, data)
        })
        .collect()
}

/// A valid file of any of the three formats, with what it holds.
fn valid_file_with_expected() -> impl Strategy<Value = (String, Expected)> {
    let entries = |max, sol| prop::collection::vec(hitori_entry(max, sol), 1..4);
    prop_oneof![
        (entries(u32::MAX, false), layout()).prop_map(|(e, l)| {
            let (text, lines) = write_grid(&e, &l);
            (text, hitori_expected(e, lines))
        }),
        (entries(61, true), layout()).prop_map(|(e, l)| {
            let (text, lines) = write_singles(&e, &l);
            (text, hitori_expected(e, lines))
        }),
        (prop::collection::vec(sudoku_entry(), 1..5), layout()).prop_map(|(e, l)| {
            let (text, lines) = write_sudoku(&e, &l);
            let want = e
                .into_iter()
                .zip(lines)
                .map(|(e, line)| {
                    (
                        None,
                        line,
                        PuzzleData::Sudoku {
                            puzzle: e.puzzle,
                            solution: e.solution.map(Box::new),
                        },
                    )
                })
                .collect();
            (text, want)
        }),
    ]
}

/// A valid file of any of the three formats, as bytes.
fn valid_file() -> impl Strategy<Value = Vec<u8>> {
    valid_file_with_expected().prop_map(|(text, _)| text.into_bytes())
}

// ---------------------------------------------------------------------------------------------
// Mutations.

#[derive(Clone, Debug)]
enum Mutation {
    DeleteByte(Index),
    InsertByte(Index, u8),
    ReplaceByte(Index, u8),
    DuplicateLine(Index),
    DropLine(Index),
    SwapLines(Index, Index),
}

/// Bytes that mean something to some parser, plus any byte (which may break UTF-8).
fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        3 => prop::sample::select(b"0123456789 \t\r\n#.x:-aZd,;|".to_vec()),
        1 => any::<u8>(),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::DeleteByte),
        (any::<Index>(), interesting_byte()).prop_map(|(i, b)| Mutation::InsertByte(i, b)),
        (any::<Index>(), interesting_byte()).prop_map(|(i, b)| Mutation::ReplaceByte(i, b)),
        any::<Index>().prop_map(Mutation::DuplicateLine),
        any::<Index>().prop_map(Mutation::DropLine),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

fn mutate(bytes: &mut Vec<u8>, m: &Mutation) {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    match *m {
        Mutation::DeleteByte(i) if !bytes.is_empty() => {
            bytes.remove(i.index(bytes.len()));
            return;
        }
        Mutation::InsertByte(i, b) => {
            bytes.insert(i.index(bytes.len() + 1), b);
            return;
        }
        Mutation::ReplaceByte(i, b) if !bytes.is_empty() => {
            let k = i.index(bytes.len());
            bytes[k] = b;
            return;
        }
        Mutation::DuplicateLine(i) => {
            let k = i.index(lines.len());
            lines.insert(k, lines[k].clone());
        }
        Mutation::DropLine(i) => {
            lines.remove(i.index(lines.len()));
        }
        Mutation::SwapLines(a, b) => {
            let n = lines.len();
            lines.swap(a.index(n), b.index(n));
        }
        _ => return,
    }
    *bytes = lines.join(&b'\n');
}

// ---------------------------------------------------------------------------------------------
// Arbitrary text.

/// Text built from fragments the parsers care about (huge numbers, `#` everywhere, `WxH:`
/// prefixes, CRLF, tabs, byte-order marks, non-ASCII) mixed with arbitrary characters.
fn soup() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        prop::sample::select(vec![
            "0",
            "1",
            "7",
            "9",
            "12",
            "-3",
            "+4",
            "4294967295",
            "4294967296",
            "99999999999999999999999999",
            "#",
            "# name:",
            "# name: a",
            "\n",
            "\r\n",
            "\r",
            "\t",
            " ",
            "  ",
            "x",
            ":",
            "5x5:",
            "2x2:",
            "64x64:",
            "65x2:",
            "2x2d:",
            "2x2de:",
            "1221",
            "azAZ",
            ".",
            "..",
            "#.",
            "|",
            ",",
            ";",
            "é",
            "ü",
            "→",
            "\u{feff}",
            "\u{a0}",
            "\u{2028}",
            "\u{0}",
            "\u{7f}",
        ])
        .prop_map(str::to_string),
        "[0-9]{1,81}",
        "[0-9.]{79,83}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(fragment, 0..64).prop_map(|v| v.concat())
}

// ---------------------------------------------------------------------------------------------
// The properties.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// (a) Arbitrary strings, for every parser.
    #[test]
    fn arbitrary_strings_never_panic(s in prop_oneof![soup(), any::<String>(), "\\PC{0,300}"]) {
        check_text(&s);
    }

    /// (a) Arbitrary bytes, read as text the way an editor would show them.
    #[test]
    fn arbitrary_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..400)) {
        check_text(&String::from_utf8_lossy(&b));
    }

    /// (b) Mutated valid files, for every parser.
    #[test]
    fn mutated_valid_files_never_panic(
        mut bytes in valid_file(),
        muts in prop::collection::vec(mutation(), 1..5),
    ) {
        for m in &muts {
            mutate(&mut bytes, m);
        }
        check_text(&String::from_utf8_lossy(&bytes));
    }

    /// (c) Grid blocks round-trip: puzzles, names and first-row lines.
    #[test]
    fn grid_blocks_round_trip(
        entries in prop::collection::vec(hitori_entry(u32::MAX, false), 1..5),
        l in layout(),
    ) {
        let (text, lines) = write_grid(&entries, &l);
        let got = parse_grid_blocks(&text).unwrap();
        prop_assert_eq!(got.len(), entries.len());
        for ((g, e), line) in got.iter().zip(&entries).zip(&lines) {
            prop_assert_eq!(&g.puzzle, &e.puzzle);
            prop_assert_eq!(&g.name, &e.name);
            prop_assert_eq!(g.line, *line);
            prop_assert_eq!(&g.solution, &None);
        }
        prop_assert_eq!(Format::detect(&text), Format::HitoriGrid);
    }

    /// (c) Singles lines round-trip: puzzles, names, masks and lines.
    #[test]
    fn singles_round_trip(
        entries in prop::collection::vec(hitori_entry(61, true), 1..5),
        l in layout(),
    ) {
        let (text, lines) = write_singles(&entries, &l);
        let got = parse_singles(&text).unwrap();
        prop_assert_eq!(got.len(), entries.len());
        for ((g, e), line) in got.iter().zip(&entries).zip(&lines) {
            prop_assert_eq!(&g.puzzle, &e.puzzle);
            prop_assert_eq!(&g.name, &e.name);
            prop_assert_eq!(&g.solution, &e.solution);
            prop_assert_eq!(g.line, *line);
        }
        prop_assert_eq!(Format::detect(&text), Format::Singles);
    }

    /// (c) Sudoku lines round-trip, with and without a solution field.
    #[test]
    fn sudoku_lines_round_trip(entries in prop::collection::vec(sudoku_entry(), 1..6), l in layout()) {
        let (text, lines) = write_sudoku(&entries, &l);
        let got = parse_lines(&text).unwrap();
        prop_assert_eq!(got.len(), entries.len());
        for ((g, e), line) in got.iter().zip(&entries).zip(&lines) {
            prop_assert_eq!(&g.puzzle, &e.puzzle);
            prop_assert_eq!(&g.solution, &e.solution);
            prop_assert_eq!(g.line, *line);
        }
        prop_assert_eq!(Format::detect(&text), Format::SudokuLines);
    }
}

proptest! {
    // Each case writes a file, so fewer of them.
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// (a) `load_file` on arbitrary bytes: no panic, and exactly the parser's verdict.
    #[test]
    fn load_file_arbitrary_bytes(b in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        soup().prop_map(String::into_bytes),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        check_file(dir.path(), &b);
    }

    /// (b) `load_file` on mutated valid files.
    #[test]
    fn load_file_mutated(mut bytes in valid_file(), muts in prop::collection::vec(mutation(), 1..4)) {
        for m in &muts {
            mutate(&mut bytes, m);
        }
        let dir = tempfile::tempdir().unwrap();
        check_file(dir.path(), &bytes);
    }

    /// (c) `load_file` round trip of valid files: the same puzzles, lines and solutions, with
    /// ids from the file's names or `<stem>:<index>`.
    #[test]
    fn load_file_round_trip((text, want) in valid_file_with_expected(), bom in any::<bool>()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("round-trip.txt");
        // Editors that save UTF-8 with a byte-order mark must not change what a file holds.
        let bom = if bom { "\u{feff}" } else { "" };
        std::fs::write(&path, format!("{bom}{text}")).unwrap();
        let got = load_file(&path, 2).unwrap();
        prop_assert_eq!(got.len(), want.len());
        for (i, (g, (name, line, data))) in got.into_iter().zip(want).enumerate() {
            let id = name.unwrap_or_else(|| format!("round-trip:{}", i + 1));
            prop_assert_eq!((g.id, g.file, g.line, g.data), (id, 2, line, data));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions: one test per bug, named after it.

fn load_text(text: &str) -> Result<Vec<Puzzle>, DatasetError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bom.txt");
    std::fs::write(&path, text).unwrap();
    load_file(&path, 0)
}

/// A file saved with a UTF-8 byte-order mark: Hitori grid blocks failed on an invisible
/// `\u{feff}1` token, a Singles file fell through to grid blocks, and a named Singles line got an
/// id starting with U+FEFF. Sudoku lines already worked.
#[test]
fn byte_order_mark_at_file_start() {
    let grid = load_text("\u{feff}1 2\n2 1\n").unwrap();
    assert_eq!(grid[0].id, "bom:1");
    let PuzzleData::Hitori { puzzle, .. } = &grid[0].data else {
        panic!("not Hitori: {grid:?}");
    };
    assert_eq!(puzzle.cells(), &[1, 2, 2, 1]);
    let singles = load_text("\u{feff}2x2:1221\n").unwrap();
    assert_eq!((singles[0].id.as_str(), singles[0].line), ("bom:1", 1));
    let named = load_text("\u{feff}demo\t2x2:1221\t#..#\n").unwrap();
    assert_eq!(named[0].id, "demo");
    let sudoku = load_text(&format!("\u{feff}{SUDOKU_SOLVED}\n")).unwrap();
    assert_eq!(sudoku[0].id, "bom:1");
    // Only a leading mark is encoding; one later in the text is content, and an error.
    let e = load_text("1 2\n\u{feff}2 1\n").unwrap_err();
    assert!(matches!(e, DatasetError::Parse { line: 2, .. }), "{e}");
}

/// `# name:` with nothing after it gave a puzzle whose id was "" (an empty `puzzle_id` column).
#[test]
fn empty_name_comment_is_a_load_error() {
    let e = load_text("# name:  \n1 2\n2 1\n").unwrap_err();
    assert!(matches!(e, DatasetError::Parse { line: 1, .. }), "{e}");
    assert!(
        e.to_string()
            .ends_with("bom.txt:1: expected a puzzle name after `# name:`, found nothing"),
        "{e}"
    );
}
