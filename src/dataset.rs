//! Corpus loading: a directory or a file becomes a list of puzzles with stable ids.
//!
//! A directory contributes every puzzle file in it, sorted by file name; `README*`, Markdown,
//! JSON and hidden files are documentation, not puzzles, and are skipped. Each file's format
//! is detected from its content (see [`Format::detect`]), so extensions carry no meaning.
//!
//! Ids are `<file stem>:<1-based index within the file>`, or the name the file gives a puzzle.
//! An id therefore never changes when other files are added to the directory.
//!
//! Every error names the file, the line and what was expected there.
//!
//! Nothing here holds a whole corpus in memory. [`Dataset::open`] reads every file once to
//! validate it, count its puzzles, fingerprint its content and check that ids are unique;
//! [`Dataset::puzzles`] then streams the puzzles again, file by file and (for the line formats,
//! Sudoku lines and Singles IDs) line by line, as often as the plan needs them. A file whose
//! content no longer matches the first read is an error, never a silently different run. Hitori
//! grid-block files are parsed whole, one file at a time: they are small, and a block spans lines.

use crate::hash::StableHasher;
use crate::hitori::grid::{HitoriPuzzle, Shading};
use crate::hitori::parse as hparse;
use crate::sudoku::grid::{Solution, SudokuPuzzle};
use crate::sudoku::parse as sparse;
use std::collections::HashMap;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

pub use crate::kind::PuzzleKind;

/// A puzzle's content, with the solution the file gives where it gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleData {
    /// A Hitori grid and, optionally, its known shading.
    Hitori {
        /// The grid.
        puzzle: HitoriPuzzle,
        /// The shading the file gives, if any.
        solution: Option<Shading>,
    },
    /// A Sudoku grid and, optionally, its known solution.
    Sudoku {
        /// The givens.
        puzzle: SudokuPuzzle,
        /// The solution the file gives, if any (boxed: most corpora give none, and a
        /// million-puzzle dataset should not pay 82 bytes a puzzle for the empty slot).
        solution: Option<Box<Solution>>,
    },
    /// A Sudoku grid of order K other than 3 (16x16, 25x25, …) and, optionally, a known
    /// solution (values `1..=K²`, row-major).
    SudokuK {
        /// The givens.
        puzzle: crate::sudoku::order::SudokuK,
        /// The solution the file gives, if any.
        solution: Option<Box<[u8]>>,
    },
}

/// One puzzle of a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Stable id (`<file stem>:<index>` or a name from the file).
    pub id: String,
    /// Index into [`Dataset::files`].
    pub file: usize,
    /// 1-based line where the puzzle starts in its file.
    pub line: usize,
    /// The content.
    pub data: PuzzleData,
}

impl Puzzle {
    /// The puzzle's family.
    pub fn kind(&self) -> PuzzleKind {
        match self.data {
            PuzzleData::Hitori { .. } => PuzzleKind::Hitori,
            PuzzleData::Sudoku { .. } | PuzzleData::SudokuK { .. } => PuzzleKind::Sudoku,
        }
    }

    /// The Sudoku order K (3 for 9x9), `None` for other kinds.
    pub fn sudoku_order(&self) -> Option<usize> {
        match &self.data {
            PuzzleData::Hitori { .. } => None,
            PuzzleData::Sudoku { .. } => Some(3),
            PuzzleData::SudokuK { puzzle, .. } => Some(puzzle.order()),
        }
    }

    /// `WxH`, as written in the `size` column.
    pub fn size(&self) -> String {
        match &self.data {
            PuzzleData::Hitori { puzzle, .. } => format!("{}x{}", puzzle.width(), puzzle.height()),
            PuzzleData::Sudoku { .. } => "9x9".to_string(),
            PuzzleData::SudokuK { puzzle, .. } => format!("{0}x{0}", puzzle.side()),
        }
    }

    /// Number of cells, for fractions such as `propagated`.
    pub fn cell_count(&self) -> usize {
        match &self.data {
            PuzzleData::Hitori { puzzle, .. } => puzzle.width() * puzzle.height(),
            PuzzleData::Sudoku { .. } => 81,
            PuzzleData::SudokuK { puzzle, .. } => puzzle.cells().len(),
        }
    }

    /// A Sudoku puzzle from one line in the dataset format (81 cells, optionally followed by
    /// the solution), with the id `line`: for tests, examples and benches.
    pub fn sudoku_from_line(line: &str) -> Result<Puzzle, sparse::ParseError> {
        let p = sparse::parse_line(line, 1)?.ok_or_else(|| sparse::ParseError {
            line: 1,
            message: "blank or comment line; expected 81 cells".into(),
        })?;
        Ok(Puzzle {
            id: "line".into(),
            file: 0,
            line: 1,
            data: PuzzleData::Sudoku {
                puzzle: p.puzzle,
                solution: p.solution.map(Box::new),
            },
        })
    }

    /// Feeds the puzzle's identity and content into a plan fingerprint.
    pub(crate) fn fingerprint(&self, h: &mut StableHasher) {
        h.write_str(&self.id);
        match &self.data {
            PuzzleData::Hitori { puzzle, solution } => {
                h.write_u64(puzzle.width() as u64);
                h.write_u64(puzzle.height() as u64);
                for &v in puzzle.cells() {
                    h.write_u64(u64::from(v));
                }
                h.write_str(&solution.as_ref().map(Shading::to_mask).unwrap_or_default());
            }
            PuzzleData::Sudoku { puzzle, solution } => {
                h.write_bytes(puzzle.cells());
                h.write_bytes(solution.as_ref().map(|s| &s[..]).unwrap_or(&[]));
            }
            PuzzleData::SudokuK { puzzle, solution } => {
                h.write_u64(puzzle.order() as u64);
                h.write_bytes(puzzle.cells());
                h.write_bytes(solution.as_deref().unwrap_or(&[]));
            }
        }
    }
}

/// One puzzle file of a dataset, as the validating read found it.
#[derive(Clone, Debug)]
pub struct DataFile {
    /// The file.
    pub path: PathBuf,
    /// Its format, detected from its first puzzle line.
    pub format: Format,
    /// Number of puzzles in it.
    pub puzzles: u64,
    /// Fingerprint of its puzzles (ids and content), to notice a file changed under a run.
    content: u64,
    /// Size and modification time at the first read: a cheap check before each later read.
    stamp: (u64, Option<std::time::SystemTime>),
}

/// A file's size and modification time.
fn stamp(path: &Path) -> Result<(u64, Option<std::time::SystemTime>), DatasetError> {
    let meta = std::fs::metadata(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok((meta.len(), meta.modified().ok()))
}

impl DataFile {
    /// The kind of puzzle the file holds (one kind per file: the format decides it).
    pub fn kind(&self) -> PuzzleKind {
        self.format.kind()
    }
}

/// A validated corpus: its files and counts, not its puzzles (stream those with
/// [`Dataset::puzzles`]).
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Name used in the `dataset` column: the directory name or the file stem.
    pub name: String,
    /// The path given.
    pub path: PathBuf,
    /// Puzzle files, in reading order.
    pub files: Vec<DataFile>,
    /// Fingerprint of every puzzle's id and content, in order.
    content: u64,
    /// The Sudoku orders present, ascending, with where each is first met.
    orders: Vec<OrderSeen>,
}

/// A Sudoku order (3 for 9x9) a dataset holds: how many puzzles, and the first of them, for
/// refusing a solver that does not take that order before anything runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderSeen {
    /// The order K (the grid is K² x K²).
    pub order: usize,
    /// Puzzles of this order in the dataset.
    pub puzzles: u64,
    /// The file of the first of them.
    pub path: PathBuf,
    /// Its 1-based line.
    pub line: usize,
    /// Its id.
    pub id: String,
}

impl OrderSeen {
    /// Count one more puzzle of an order in `seen` (kept ascending by order).
    fn note(seen: &mut Vec<OrderSeen>, p: &Puzzle, path: &Path) {
        let Some(order) = p.sudoku_order() else {
            return;
        };
        match seen.binary_search_by_key(&order, |o| o.order) {
            Ok(i) => seen[i].puzzles += 1,
            Err(i) => seen.insert(
                i,
                OrderSeen {
                    order,
                    puzzles: 1,
                    path: path.to_path_buf(),
                    line: p.line,
                    id: p.id.clone(),
                },
            ),
        }
    }
}

impl Dataset {
    /// The Sudoku orders present (3 for 9x9), ascending, with the first puzzle of each.
    pub fn sudoku_orders(&self) -> &[OrderSeen] {
        &self.orders
    }

    /// Total number of puzzles.
    pub fn len(&self) -> u64 {
        self.files.iter().map(|f| f.puzzles).sum()
    }

    /// Whether the dataset holds no puzzle (never true of an opened one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many puzzles of a kind the dataset holds.
    pub fn count(&self, kind: PuzzleKind) -> u64 {
        self.files
            .iter()
            .filter(|f| f.kind() == kind)
            .map(|f| f.puzzles)
            .sum()
    }

    /// The kinds present, in a fixed order.
    pub fn kinds(&self) -> Vec<PuzzleKind> {
        [PuzzleKind::Hitori, PuzzleKind::Sudoku]
            .into_iter()
            .filter(|k| self.count(*k) > 0)
            .collect()
    }

    /// Fingerprint of the content (every id and grid, in order), as 16 hex digits.
    pub fn content_hash(&self) -> String {
        format!("{:016x}", self.content)
    }

    /// Stream the puzzles of `kind` (all kinds for `None`) in dataset order, reading the files
    /// again. Each item is a puzzle or the error that ended the stream; a file that changed
    /// since [`Dataset::open`] read it ends the stream with [`DatasetError::Changed`].
    pub fn puzzles(&self, kind: Option<PuzzleKind>) -> Puzzles<'_> {
        Puzzles {
            dataset: self,
            kind,
            next_file: 0,
            reader: None,
            done: false,
        }
    }

    /// Every puzzle in memory, for tools and tests on small datasets. Runs stream instead.
    pub fn load_all(&self) -> Result<Vec<Puzzle>, DatasetError> {
        self.puzzles(None).collect()
    }
}

/// What went wrong loading a dataset. Each variant names the file and, where it applies, the line.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// Not a regular file or a directory (a FIFO, a device, a pipe such as `/dev/stdin`).
    #[error("{path}: not a regular file or a directory; a dataset is read twice (to validate, then to run), so save the input to a file first")]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The path could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A file is not valid UTF-8 text.
    #[error("{path}:{line}: expected UTF-8 text, found invalid bytes")]
    NotText {
        /// The file.
        path: PathBuf,
        /// The line holding the first invalid byte.
        line: usize,
    },
    /// A line does not hold what the detected format expects.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What was expected and what was found.
        message: String,
    },
    /// A line longer than any puzzle line could be (a binary file, `/dev/zero`, a missing line end).
    #[error("{path}:{line}: expected a line of at most {limit} bytes (no puzzle line comes near it), found a longer one; is this a puzzle file?")]
    LineTooLong {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A file holds no puzzle.
    #[error("{path}: no puzzle found (expected Hitori grid blocks, Singles game IDs or 81-cell Sudoku lines)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A directory holds no puzzle file.
    #[error("{path}: no puzzle files in this directory (README, Markdown, JSON and hidden files are skipped)")]
    NoFiles {
        /// The directory.
        path: PathBuf,
    },
    /// Two files with the same stem both number their puzzles `<stem>:<n>`.
    #[error("{path}: puzzle id \"{stem}:{index}\" is also given to a puzzle of {first_path}: both file names have the stem {stem:?}, and puzzles without a name are numbered <stem>:<n>; rename one file")]
    StemClash {
        /// The later file.
        path: PathBuf,
        /// The earlier file.
        first_path: PathBuf,
        /// The shared stem.
        stem: String,
        /// The first number both files give.
        index: u64,
    },
    /// A puzzle's name equals the id the loader gives an unnamed puzzle elsewhere.
    #[error("{path}:{line}: puzzle id {id:?} is also the id of puzzle {index} of {other_path}, which has no name; ids must be unique within a dataset")]
    NameClash {
        /// The file naming the puzzle.
        path: PathBuf,
        /// Its line.
        line: usize,
        /// The name.
        id: String,
        /// The file whose numbering gives the same id.
        other_path: PathBuf,
        /// Which puzzle of it.
        index: u64,
    },
    /// A file no longer holds what the first read of it found.
    #[error("{path}: the file changed while puzzlebench was reading it (its {what} differ from the first read); results would mix two datasets, so the run stops{}", if *after_use { "; puzzles of the changed file were already handed out" } else { "" })]
    Changed {
        /// The file.
        path: PathBuf,
        /// What differs: `size and modification time`, `format` or `puzzles`.
        what: &'static str,
        /// Whether puzzles of the file had been handed out before the change was seen (their
        /// results cannot be trusted).
        after_use: bool,
    },
    /// Two puzzles got the same id.
    #[error("{path}:{line}: puzzle id {id:?} is already used at {first_path}:{first_line}; ids must be unique within a dataset")]
    DuplicateId {
        /// The later file.
        path: PathBuf,
        /// Its line.
        line: usize,
        /// The id.
        id: String,
        /// Where the id was first seen.
        first_path: PathBuf,
        /// Line of the first use.
        first_line: usize,
    },
}

/// A puzzle file format, detected from content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Hitori rows of whitespace-separated numbers, blank line between puzzles.
    HitoriGrid,
    /// Simon Tatham's Singles game IDs (`WxH:cells`), optional name and mask fields.
    Singles,
    /// 81-cell Sudoku lines.
    SudokuLines,
    /// Sudoku of order K in the one-line form (`sudoku16:` then comma-separated values).
    SudokuOrderLines,
    /// One `sudoku_acs` instance file (order, a second number, the grid with -1 blanks).
    AcsInstance,
}

impl Format {
    /// The kind of puzzle the format holds.
    pub fn kind(self) -> PuzzleKind {
        match self {
            Format::HitoriGrid | Format::Singles => PuzzleKind::Hitori,
            Format::SudokuLines | Format::SudokuOrderLines | Format::AcsInstance => {
                PuzzleKind::Sudoku
            }
        }
    }

    /// Detect from the text: Singles IDs first (they have the unmistakable `WxH:` prefix), then
    /// 81-cell Sudoku lines, and anything else is read as Hitori grid blocks, whose parser then
    /// says precisely what is wrong with a file that is none of the three.
    pub fn detect(text: &str) -> Format {
        if hparse::looks_like_singles(text) {
            Format::Singles
        } else if crate::sudoku::order::looks_like_order_line(text) {
            Format::SudokuOrderLines
        } else if crate::sudoku::order::looks_like_acs(text) {
            Format::AcsInstance
        } else if sparse::looks_like_sudoku(text) {
            Format::SudokuLines
        } else {
            Format::HitoriGrid
        }
    }
}

/// Whether a directory entry is documentation rather than puzzles.
fn is_skipped(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with('.')
        || lower.starts_with("readme")
        || lower.ends_with(".md")
        || lower.ends_with(".json")
}

/// The name a dataset path gives its rows (`dataset` column): a directory's name, or a
/// file's stem. Known before anything is read.
pub fn dataset_name(path: &Path) -> String {
    if path.is_dir() {
        path.file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    } else {
        stem(path)
    }
}

/// Refuse anything but a regular file or a directory before opening it: a FIFO would block
/// in `open`, and a pipe or `/dev/stdin` cannot be read twice as a dataset must be.
fn check_kind(path: &Path, meta: &std::fs::Metadata) -> Result<(), DatasetError> {
    if meta.is_file() || meta.is_dir() {
        Ok(())
    } else {
        Err(DatasetError::NotAFile {
            path: path.to_path_buf(),
        })
    }
}

/// The files a dataset path stands for: the file itself, or a directory's puzzle files by name.
pub fn dataset_files(path: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    let io = |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    check_kind(path, &meta)?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let p = entry.path();
        if is_skipped(&name) || !p.is_file() {
            continue;
        }
        files.push(p);
    }
    files.sort();
    if files.is_empty() {
        return Err(DatasetError::NoFiles {
            path: path.to_path_buf(),
        });
    }
    Ok(files)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The longest line a dataset may hold, line end excluded.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines of a file, one at a time, with the same splitting as [`str::lines`] (`\n`, or `\r\n`),
/// a leading byte-order mark removed, and invalid UTF-8 reported at its line.
///
/// Memory is one line (at most [`MAX_LINE`]) and the reader's buffer, whatever the file holds:
/// a line is lent from one reused buffer, and a run of blank lines is passed over in place
/// (given once, as its first line: every format reads a run of blank lines as it reads one), so
/// a file of gigabytes of newlines costs neither memory nor a call per line.
struct LineReader {
    path: PathBuf,
    reader: BufReader<File>,
    buf: Vec<u8>,
    line_no: usize,
    /// Lines read ahead (format detection) and given back, served before the file's next.
    back: std::collections::VecDeque<(usize, String)>,
}

/// Whether a byte may stand on a blank line.
fn blank_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

impl LineReader {
    fn open(path: &Path) -> Result<LineReader, DatasetError> {
        let file = File::open(path).map_err(|source| DatasetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(LineReader {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 16, file),
            buf: Vec::new(),
            line_no: 0,
            back: std::collections::VecDeque::new(),
        })
    }

    fn io(&self, source: std::io::Error) -> DatasetError {
        DatasetError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Gives a line read ahead back, to be read again (in the order given back).
    fn unread(&mut self, no: usize, line: String) {
        self.back.push_back((no, line));
    }

    /// The next line and its 1-based number, `None` at the end of the file.
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, DatasetError> {
        if let Some((no, line)) = self.back.pop_front() {
            self.buf = line.into_bytes();
            // Valid: it was a `str` when read ahead.
            return Ok(std::str::from_utf8(&self.buf).ok().map(|l| (no, l)));
        }
        self.buf.clear();
        // Bounded: a 64x64 grid row of 10-digit numbers or a Singles ID with name and mask is a
        // few KiB, so a longer line is not a puzzle, and reading it whole could take gigabytes.
        let n = (&mut self.reader)
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| self.io(e))?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        let no = self.line_no;
        let ended = self.buf.last() == Some(&b'\n');
        if ended {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        // A cut-off line (no line end within the cap) is longer than the cap, so this test
        // catches both.
        if self.buf.len() > MAX_LINE {
            return Err(DatasetError::LineTooLong {
                path: self.path.clone(),
                line: no,
                limit: MAX_LINE,
            });
        }
        if ended && self.buf.iter().all(|&b| blank_byte(b)) {
            self.skip_blank_lines()?;
        }
        let mut line = std::str::from_utf8(&self.buf).map_err(|_| DatasetError::NotText {
            path: self.path.clone(),
            line: no,
        })?;
        if no == 1 {
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        Ok(Some((no, line)))
    }

    /// After a blank line: consume the whole blank lines that follow it, straight from the
    /// reader's buffer, counting them. Stops before the first line that is not blank or whose
    /// end is not in the buffer yet (read the usual way, then).
    fn skip_blank_lines(&mut self) -> Result<(), DatasetError> {
        loop {
            let path = &self.path;
            let chunk = self.reader.fill_buf().map_err(|source| DatasetError::Io {
                path: path.clone(),
                source,
            })?;
            let mut used = 0;
            let mut lines = 0;
            for (i, &b) in chunk.iter().enumerate() {
                if b == b'\n' {
                    used = i + 1;
                    lines += 1;
                } else if !blank_byte(b) {
                    break;
                }
            }
            // A blank line longer than the buffer is left to `next_line`, which caps it.
            if lines == 0 {
                return Ok(());
            }
            self.reader.consume(used);
            self.line_no += lines;
        }
    }
}

enum Source {
    /// Line formats, read a line at a time.
    Lines(LineReader),
    /// Grid blocks, parsed a line at a time as well; `pending` is an error found in the lines
    /// before the first row (an empty `# name:`), reported by the first read.
    Grid {
        lines: LineReader,
        blocks: hparse::GridBlocks,
        pending: Option<hparse::ParseError>,
    },
}

/// Whether a line holds content (not blank, not a `#` comment line).
fn is_content(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

/// The puzzles of one file, in order, with their ids; every format is read a line at a time.
pub struct FileReader {
    path: PathBuf,
    file_index: usize,
    stem: String,
    format: Format,
    source: Source,
    /// Puzzles yielded so far.
    count: u64,
}

impl FileReader {
    /// Open a file and detect its format from its first puzzle line (see [`Format::detect`]).
    ///
    /// The lines before it are not kept: they are blank or comments, which only the grid-block
    /// parser reads (a `# name:` names the first block), so they are fed to it as they come and
    /// it keeps what it needs (the pending name, or the first error). Only the few content
    /// lines of the look-ahead are held.
    pub fn open(path: &Path, file_index: usize) -> Result<FileReader, DatasetError> {
        let mut lines = LineReader::open(path)?;
        let mut blocks = hparse::GridBlocks::default();
        let mut pending = None;
        let mut first = None;
        while let Some((no, line)) = lines.next_line()? {
            if is_content(line) {
                first = Some((no, line.to_string()));
                break;
            }
            if pending.is_none() {
                // No block is open before the first row, so nothing is lost here but a name.
                pending = blocks.line(line, no).err();
            }
        }
        let mut format = first
            .as_ref()
            .map_or(Format::HitoriGrid, |(_, l)| Format::detect(l));
        if let Some((no, line)) = first {
            let mut ahead = vec![(no, line)];
            if crate::sudoku::order::looks_like_acs_start(&ahead[0].1) {
                // A lone number starts a `sudoku_acs` instance file or no puzzle file at all:
                // the next two content lines decide which parser says so. Blank and comment
                // lines among them are dropped: the ACS parser skips them, and the grid parser
                // refuses the lone number before it would read them.
                while ahead.len() < 3 {
                    let Some((no, l)) = lines.next_line()? else {
                        break;
                    };
                    if is_content(l) {
                        ahead.push((no, l.to_string()));
                    }
                }
                let joined: Vec<&str> = ahead.iter().map(|(_, l)| l.as_str()).collect();
                format = Format::detect(&joined.join("\n"));
            }
            for (no, l) in ahead {
                lines.unread(no, l);
            }
        }
        let source = match format {
            Format::Singles
            | Format::SudokuLines
            | Format::SudokuOrderLines
            | Format::AcsInstance => Source::Lines(lines),
            Format::HitoriGrid => Source::Grid {
                lines,
                blocks,
                pending,
            },
        };
        Ok(FileReader {
            path: path.to_path_buf(),
            file_index,
            stem: stem(path),
            format,
            source,
            count: 0,
        })
    }

    /// The detected format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The next puzzle, `None` after the last; an empty file is an error.
    pub fn next_puzzle(&mut self) -> Result<Option<Puzzle>, DatasetError> {
        let (path, stem, file) = (&self.path, &self.stem, self.file_index);
        let parse_err = |line: usize, message: String| DatasetError::Parse {
            path: path.clone(),
            line,
            message,
        };
        let hitori = |p: hparse::ParsedHitori, n: u64| Puzzle {
            id: p.name.unwrap_or_else(|| numbered_id(stem, n)),
            file,
            line: p.line,
            data: PuzzleData::Hitori {
                puzzle: p.puzzle,
                solution: p.solution,
            },
        };
        let found = match &mut self.source {
            Source::Grid {
                lines,
                blocks,
                pending,
            } => loop {
                if let Some(e) = pending.take() {
                    return Err(parse_err(e.line, e.message));
                }
                let Some((no, line)) = lines.next_line()? else {
                    let last = blocks.finish().map_err(|e| parse_err(e.line, e.message))?;
                    break last.map(|p| {
                        self.count += 1;
                        hitori(p, self.count)
                    });
                };
                if let Some(p) = blocks
                    .line(line, no)
                    .map_err(|e| parse_err(e.line, e.message))?
                {
                    self.count += 1;
                    break Some(hitori(p, self.count));
                }
            },
            Source::Lines(lines) => loop {
                if self.format == Format::AcsInstance {
                    if self.count > 0 {
                        break None;
                    }
                    self.count = 1;
                    break Some(read_acs(lines, stem, file, &parse_err)?);
                }
                let Some((no, line)) = lines.next_line()? else {
                    break None;
                };
                if self.format == Format::SudokuOrderLines {
                    if let Some((grid, sol)) = crate::sudoku::order::parse_order_line(line)
                        .map_err(|m| parse_err(no, m))?
                    {
                        self.count += 1;
                        break Some(sudoku_of_order(
                            numbered_id(stem, self.count),
                            file,
                            no,
                            grid,
                            sol,
                        ));
                    }
                } else if self.format == Format::SudokuLines {
                    if let Some(p) =
                        sparse::parse_line(line, no).map_err(|e| parse_err(e.line, e.message))?
                    {
                        self.count += 1;
                        break Some(Puzzle {
                            id: numbered_id(stem, self.count),
                            file,
                            line: p.line,
                            data: PuzzleData::Sudoku {
                                puzzle: p.puzzle,
                                solution: p.solution.map(Box::new),
                            },
                        });
                    }
                } else if let Some(p) = hparse::parse_singles_line(line, no)
                    .map_err(|e| parse_err(e.line, e.message))?
                {
                    self.count += 1;
                    break Some(hitori(p, self.count));
                }
            },
        };
        if found.is_none() && self.count == 0 {
            return Err(DatasetError::Empty { path: path.clone() });
        }
        Ok(found)
    }
}

/// A `sudoku_acs` instance file's one puzzle, read a line at a time to the file's end (in the
/// memory of one grid: a value past the grid is refused at its line).
fn read_acs(
    lines: &mut LineReader,
    stem: &str,
    file: usize,
    parse_err: &dyn Fn(usize, String) -> DatasetError,
) -> Result<Puzzle, DatasetError> {
    let mut acs = crate::sudoku::order::AcsReader::default();
    let mut start = None;
    while let Some((no, l)) = lines.next_line()? {
        if start.is_none() && is_content(l) {
            start = Some(no);
        }
        acs.line(l, no).map_err(|(l, m)| parse_err(l, m))?;
    }
    let grid = acs.finish().map_err(|(l, m)| parse_err(l, m))?;
    Ok(sudoku_of_order(
        numbered_id(stem, 1),
        file,
        start.unwrap_or(1),
        grid,
        None,
    ))
}

/// A puzzle of order K: the classic 9x9 type for order 3 (so every 9x9 solver takes it), the
/// order-K type otherwise.
fn sudoku_of_order(
    id: String,
    file: usize,
    line: usize,
    grid: crate::sudoku::order::SudokuK,
    solution: Option<Vec<u8>>,
) -> Puzzle {
    let data = match <[u8; 81]>::try_from(grid.cells()) {
        Ok(cells) if grid.order() == 3 => match SudokuPuzzle::new(cells) {
            Ok(puzzle) => PuzzleData::Sudoku {
                puzzle,
                solution: solution
                    .and_then(|s| <[u8; 81]>::try_from(s.as_slice()).ok())
                    .map(Box::new),
            },
            // Unreachable: the order-K type already checked values and repeats.
            Err(_) => PuzzleData::SudokuK {
                puzzle: grid,
                solution: solution.map(Vec::into_boxed_slice),
            },
        },
        _ => PuzzleData::SudokuK {
            puzzle: grid,
            solution: solution.map(Vec::into_boxed_slice),
        },
    };
    Puzzle {
        id,
        file,
        line,
        data,
    }
}

/// The puzzles of one file, with ids, in file order.
pub fn load_file(path: &Path, file_index: usize) -> Result<Vec<Puzzle>, DatasetError> {
    let mut reader = FileReader::open(path, file_index)?;
    let mut out = Vec::new();
    while let Some(p) = reader.next_puzzle()? {
        out.push(p);
    }
    Ok(out)
}

/// A stream of a dataset's puzzles (see [`Dataset::puzzles`]).
pub struct Puzzles<'a> {
    dataset: &'a Dataset,
    kind: Option<PuzzleKind>,
    next_file: usize,
    /// The file being read, its index, and the fingerprint of what it gave so far.
    reader: Option<(FileReader, usize, StableHasher)>,
    done: bool,
}

impl Puzzles<'_> {
    fn advance(&mut self) -> Result<Option<Puzzle>, DatasetError> {
        loop {
            if let Some((reader, _, hash)) = &mut self.reader {
                if let Some(p) = reader.next_puzzle()? {
                    p.fingerprint(hash);
                    return Ok(Some(p));
                }
                self.check_file_end()?;
            }
            let files = &self.dataset.files;
            let Some(fi) = (self.next_file..files.len())
                .find(|&i| self.kind.is_none_or(|k| files[i].kind() == k))
            else {
                return Ok(None);
            };
            self.next_file = fi + 1;
            let changed = |what| DatasetError::Changed {
                path: files[fi].path.clone(),
                what,
                after_use: false,
            };
            if stamp(&files[fi].path)? != files[fi].stamp {
                return Err(changed("size and modification time"));
            }
            let reader = FileReader::open(&files[fi].path, fi)?;
            if reader.format() != files[fi].format {
                return Err(changed("format"));
            }
            self.reader = Some((reader, fi, StableHasher::default()));
        }
    }

    /// The current file is read to its end: it must have given what the first read found.
    fn check_file_end(&mut self) -> Result<(), DatasetError> {
        if let Some((reader, fi, hash)) = self.reader.take() {
            let file = &self.dataset.files[fi];
            if reader.count != file.puzzles || hash.finish() != file.content {
                return Err(DatasetError::Changed {
                    path: file.path.clone(),
                    what: "puzzles",
                    after_use: true,
                });
            }
        }
        Ok(())
    }

    /// Read the rest of the file the stream is in and check it, for a consumer that stops
    /// early: every puzzle it took is then known to be the puzzle [`Dataset::open`] saw.
    pub fn finish_file(&mut self) -> Result<(), DatasetError> {
        if let Some((reader, _, hash)) = &mut self.reader {
            while let Some(p) = reader.next_puzzle()? {
                p.fingerprint(hash);
            }
        }
        self.check_file_end()
    }
}

impl Iterator for Puzzles<'_> {
    type Item = Result<Puzzle, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.advance().transpose();
        if !matches!(item, Some(Ok(_))) {
            self.done = true;
        }
        item
    }
}

/// The numbers `n` of the `<stem>:<n>` ids a file gives its unnamed puzzles, as ascending
/// runs `(first, last)`: one run for a Sudoku file however long, so the uniqueness check costs
/// nothing per puzzle.
#[derive(Default)]
struct Numbered {
    runs: Vec<(u64, u64)>,
}

impl Numbered {
    fn push(&mut self, n: u64) {
        match self.runs.last_mut() {
            Some((_, last)) if *last + 1 == n => *last = n,
            _ => self.runs.push((n, n)),
        }
    }

    fn contains(&self, n: u64) -> bool {
        self.runs.iter().any(|&(a, b)| (a..=b).contains(&n))
    }

    /// The smallest number both give.
    fn first_common(&self, other: &Numbered) -> Option<u64> {
        let mut best: Option<u64> = None;
        for &(a, b) in &self.runs {
            for &(c, d) in &other.runs {
                let lo = a.max(c);
                if lo <= b.min(d) {
                    best = Some(best.map_or(lo, |x| x.min(lo)));
                }
            }
        }
        best
    }
}

impl Dataset {
    /// Open a dataset (a directory or a file): read every file once to validate it, count and
    /// fingerprint its puzzles and check ids are unique. Memory does not grow with the number
    /// of puzzles, except for the names that files give puzzles (Hitori only).
    pub fn open(path: &Path) -> Result<Dataset, DatasetError> {
        let paths = dataset_files(path)?;
        let name = dataset_name(path);
        let mut files = Vec::with_capacity(paths.len());
        let mut content = StableHasher::default();
        // Names given in files -> (file, line) of their first use.
        let mut named: HashMap<String, (usize, usize)> = HashMap::new();
        // Per file: the numbers of its `<stem>:<n>` ids.
        let mut numbered: Vec<Numbered> = Vec::with_capacity(paths.len());
        let mut orders: Vec<OrderSeen> = Vec::new();
        for (fi, file) in paths.iter().enumerate() {
            let before = stamp(file)?;
            let mut reader = FileReader::open(file, fi)?;
            let mut hash = StableHasher::default();
            let mut nums = Numbered::default();
            while let Some(p) = reader.next_puzzle()? {
                OrderSeen::note(&mut orders, &p, file);
                p.fingerprint(&mut hash);
                p.fingerprint(&mut content);
                let numbered_id =
                    p.id.strip_prefix(reader.stem.as_str())
                        .and_then(|r| r.strip_prefix(':'))
                        .is_some_and(|n| n.parse() == Ok(reader.count));
                if numbered_id {
                    nums.push(reader.count);
                } else if let Some(&(ff, fl)) = named.get(&p.id) {
                    return Err(DatasetError::DuplicateId {
                        path: file.clone(),
                        line: p.line,
                        id: p.id,
                        first_path: paths[ff].clone(),
                        first_line: fl,
                    });
                } else {
                    named.insert(p.id, (fi, p.line));
                }
            }
            // A file written while it was being read would be fingerprinted half old, half new.
            if stamp(file)? != before {
                return Err(DatasetError::Changed {
                    path: file.clone(),
                    what: "size and modification time",
                    after_use: false,
                });
            }
            files.push(DataFile {
                path: file.clone(),
                format: reader.format,
                puzzles: reader.count,
                content: hash.finish(),
                stamp: before,
            });
            numbered.push(nums);
        }
        // Numbered ids can only clash between files with the same stem (a.txt and a.sdk), or
        // with a name that happens to read `<stem>:<n>`.
        let stems: Vec<String> = paths.iter().map(|p| stem(p)).collect();
        for j in 0..paths.len() {
            for i in 0..j {
                if stems[i] == stems[j] {
                    if let Some(index) = numbered[i].first_common(&numbered[j]) {
                        return Err(DatasetError::StemClash {
                            path: paths[j].clone(),
                            first_path: paths[i].clone(),
                            stem: stems[j].clone(),
                            index,
                        });
                    }
                }
            }
        }
        let mut clashes: Vec<(usize, usize, &String, usize, u64)> = Vec::new();
        for (id, &(fi, line)) in &named {
            let Some((s, n)) = id.rsplit_once(':') else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            if let Some(other) =
                (0..paths.len()).find(|&k| stems[k] == s && numbered[k].contains(n))
            {
                clashes.push((fi, line, id, other, n));
            }
        }
        // Report the first clash in file order, whatever the hash map's order.
        if let Some(&(fi, line, id, other, index)) = clashes.iter().min_by_key(|c| (c.0, c.1)) {
            return Err(DatasetError::NameClash {
                path: paths[fi].clone(),
                line,
                id: id.clone(),
                other_path: paths[other].clone(),
                index,
            });
        }
        Ok(Dataset {
            name,
            path: path.to_path_buf(),
            files,
            content: content.finish(),
            orders,
        })
    }
}

/// `stem:n`, the id of a file's `n`th puzzle. Built by hand: `format!` cost about a fifth
/// of validating a Sudoku line, paid per puzzle when the dataset is opened (before any job
/// runs) and again as the run streams it.
fn numbered_id(stem: &str, n: u64) -> String {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let mut id = String::with_capacity(stem.len() + 1 + digits.len() - start);
    id.push_str(stem);
    id.push(':');
    id.extend(digits[start..].iter().map(|&d| char::from(d)));
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_ids_are_stem_colon_number() {
        for n in [0, 1, 9, 10, 49_158, u64::MAX] {
            assert_eq!(
                numbered_id("puzzles2_17_clue", n),
                format!("puzzles2_17_clue:{n}")
            );
        }
        assert_eq!(numbered_id("", 7), ":7");
    }

    const SUDOKU: &str =
        "000260701680070090190004500820100040004602900050003028009300074040050036703018000";
    const SUDOKU2: &str =
        "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    const HITORI: &str = "# name: demo\n1 1 3 1 2\n4 4 2 5 1\n3 5 1 2 3\n2 2 4 4 5\n2 2 5 1 4\n";

    fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().expect("tempdir");
        for (name, text) in files {
            std::fs::write(d.path().join(name), text).expect("write");
        }
        d
    }

    #[test]
    fn streaming_gives_every_file_in_order_and_filters_by_kind() {
        let singles = "5x5:1131244251351232244522514\nnamed\t5x5:1131244251351232244522514\n";
        let d = dir_with(&[
            ("a.txt", HITORI),
            ("b.sdk", &format!("# c\n{SUDOKU}\r\n\n{SUDOKU2}")),
            ("c.tsv", singles),
            ("README.md", "not puzzles"),
        ]);
        let ds = Dataset::open(d.path()).expect("open");
        assert_eq!(ds.len(), 5);
        assert_eq!(ds.count(PuzzleKind::Hitori), 3);
        assert_eq!(ds.count(PuzzleKind::Sudoku), 2);
        let all = ds.load_all().expect("stream");
        let ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["demo", "b:1", "b:2", "c:1", "named"]);
        let lines: Vec<usize> = all.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 2, 4, 1, 2]);
        // The streamed puzzles are exactly what each file's loader gives.
        let mut by_file = Vec::new();
        for (i, f) in ds.files.iter().enumerate() {
            by_file.extend(load_file(&f.path, i).expect("load_file"));
        }
        assert_eq!(all, by_file);
        let sudoku: Vec<String> = ds
            .puzzles(Some(PuzzleKind::Sudoku))
            .map(|p| p.expect("puzzle").id)
            .collect();
        assert_eq!(sudoku, ["b:1", "b:2"]);
        // Streaming twice gives the same puzzles (the plan streams once per strategy).
        assert_eq!(ds.load_all().expect("again"), all);
    }

    #[test]
    fn a_line_over_the_cap_is_refused_at_its_line_and_one_at_the_cap_is_read() {
        let long = format!("{SUDOKU}\n{}\n", "1".repeat(MAX_LINE + 1));
        let d = dir_with(&[("x.txt", &long)]);
        let err = load_file(&d.path().join("x.txt"), 0).expect_err("too long");
        assert!(
            matches!(
                err,
                DatasetError::LineTooLong {
                    line: 2,
                    limit: MAX_LINE,
                    ..
                }
            ),
            "{err}"
        );
        assert!(err
            .to_string()
            .contains("x.txt:2: expected a line of at most 65536 bytes"));
        // No line end at all (like /dev/zero): refused after reading the cap, not the file.
        let d = dir_with(&[("z.txt", &"0".repeat(3 * MAX_LINE))]);
        let err = load_file(&d.path().join("z.txt"), 0).expect_err("too long");
        assert!(
            matches!(err, DatasetError::LineTooLong { line: 1, .. }),
            "{err}"
        );
        // Exactly at the cap with a CRLF end: read, and judged by the format's parser instead.
        let at_cap = format!("{SUDOKU}\r\n{}\r\n", "1".repeat(MAX_LINE));
        let d = dir_with(&[("c.txt", &at_cap)]);
        let err = load_file(&d.path().join("c.txt"), 0).expect_err("not a puzzle");
        assert!(matches!(err, DatasetError::Parse { line: 2, .. }), "{err}");
    }

    #[test]
    fn grid_blocks_stream_one_block_at_a_time() {
        // The first block comes out before the broken second one is reached.
        let text = format!("{HITORI}\n1 2\n2 x\n");
        let d = dir_with(&[("g.txt", &text)]);
        let mut r = FileReader::open(&d.path().join("g.txt"), 0).expect("open");
        let first = r.next_puzzle().expect("first block").expect("some");
        assert_eq!((first.id.as_str(), first.line), ("demo", 2));
        let err = r.next_puzzle().expect_err("second block is broken");
        assert!(
            err.to_string()
                .contains("g.txt:9: expected a positive integer, found `x`"),
            "{err}"
        );
        // A file that ends inside a block gives that block.
        let d = dir_with(&[("h.txt", "1 2\n2 1")]);
        let all = load_file(&d.path().join("h.txt"), 0).expect("load");
        assert_eq!(all.len(), 1);
    }

    #[test]
    fn sudoku_like_lines_that_are_not_sudoku_say_so() {
        let cases = [
            (
                SUDOKU[..80].to_string(),
                "(80 characters of digits and dots) but has a length other than 81",
            ),
            (
                SUDOKU
                    .chars()
                    .map(|c| char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c))
                    .collect(),
                "(81 characters of digits and dots) but has non-ASCII (e.g. full-width) digits",
            ),
            (
                SUDOKU.replace('0', "_"),
                "but has blank marks other than `.` and `0`",
            ),
        ];
        for (line, want) in cases {
            let d = dir_with(&[("s.txt", &format!("# c\n{line}\n"))]);
            let err = load_file(&d.path().join("s.txt"), 0).expect_err("not loadable");
            let msg = err.to_string();
            assert!(
                msg.contains("s.txt:2: this line looks like a Sudoku puzzle"),
                "{msg}"
            );
            assert!(msg.contains(want), "{msg}");
        }
        // A short run of digits is still judged as a grid row.
        let d = dir_with(&[("r.txt", "12345\n")]);
        let err = load_file(&d.path().join("r.txt"), 0).expect_err("one number");
        assert!(
            err.to_string().contains("expected 2 to 64 numbers"),
            "{err}"
        );
    }

    #[test]
    fn content_hash_follows_content_not_file_layout_on_disk() {
        let a = dir_with(&[("x.txt", &format!("{SUDOKU}\n{SUDOKU2}\n"))]);
        let b = dir_with(&[("x.txt", &format!("# comment\n\n{SUDOKU}\r\n{SUDOKU2}"))]);
        let c = dir_with(&[("x.txt", &format!("{SUDOKU2}\n{SUDOKU}\n"))]);
        let hash = |d: &tempfile::TempDir| Dataset::open(d.path()).expect("open").content_hash();
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(hash(&a), hash(&c));
    }

    #[test]
    fn a_file_changed_after_open_ends_the_stream_with_an_error() {
        let d = dir_with(&[("x.txt", &format!("{SUDOKU}\n{SUDOKU2}\n"))]);
        let ds = Dataset::open(d.path()).expect("open");
        let x = d.path().join("x.txt");
        let mtime = std::fs::metadata(&x)
            .expect("meta")
            .modified()
            .expect("mtime");
        // Same size, same modification time (restored), different content: only the
        // fingerprint at the end of the file can tell, after the puzzles were handed out.
        std::fs::write(&x, format!("{SUDOKU2}\n{SUDOKU}\n")).expect("write");
        let f = std::fs::File::options().write(true).open(&x).expect("open");
        f.set_modified(mtime).expect("set mtime");
        drop(f);
        let got: Vec<_> = ds.puzzles(None).collect();
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            matches!(
                got.last(),
                Some(Err(DatasetError::Changed {
                    what: "puzzles",
                    after_use: true,
                    ..
                }))
            ),
            "{got:?}"
        );
        // A stream stopped early checks the rest of its file on request.
        let mut early = ds.puzzles(None);
        assert!(early.next().is_some_and(|p| p.is_ok()));
        assert!(matches!(
            early.finish_file(),
            Err(DatasetError::Changed { .. })
        ));
        // Fewer puzzles: the size differs, so nothing is handed out.
        std::fs::write(&x, format!("{SUDOKU}\n")).expect("write");
        let err = ds.load_all().expect_err("changed");
        assert!(
            err.to_string().contains(
                "x.txt: the file changed while puzzlebench was reading it (its size and modification time differ"
            ),
            "{err}"
        );
        // A different format.
        std::fs::write(&x, HITORI).expect("write");
        assert!(matches!(ds.load_all(), Err(DatasetError::Changed { .. })));
    }

    #[test]
    fn ids_must_be_unique_across_files() {
        // Two files with one stem both number their puzzles x:1, x:2, ...
        let d = dir_with(&[("x.sdk", SUDOKU), ("x.txt", SUDOKU2)]);
        let e = Dataset::open(d.path()).expect_err("stem clash").to_string();
        assert!(
            e.contains("x.txt: puzzle id \"x:1\" is also given to a puzzle of"),
            "{e}"
        );
        assert!(e.contains("x.sdk"), "{e}");
        // A name that reads like another file's numbered id.
        let d = dir_with(&[
            ("a.txt", &HITORI.replace("# name: demo", "# name: b:2")),
            ("b.txt", &format!("{SUDOKU}\n{SUDOKU2}\n")),
        ]);
        let e = Dataset::open(d.path()).expect_err("name clash").to_string();
        assert!(
            e.contains("a.txt:2: puzzle id \"b:2\" is also the id of puzzle 2 of"),
            "{e}"
        );
        // ... but not when that file has no puzzle with that number.
        let d = dir_with(&[
            ("a.txt", &HITORI.replace("# name: demo", "# name: b:3")),
            ("b.txt", &format!("{SUDOKU}\n{SUDOKU2}\n")),
        ]);
        assert_eq!(Dataset::open(d.path()).expect("no clash").len(), 3);
        // The same name twice.
        let d = dir_with(&[("a.txt", HITORI), ("b.txt", HITORI)]);
        let e = Dataset::open(d.path()).expect_err("duplicate").to_string();
        assert!(
            e.contains("b.txt:2: puzzle id \"demo\" is already used at"),
            "{e}"
        );
    }

    #[test]
    fn numbered_runs() {
        let mut a = Numbered::default();
        for n in [1, 2, 3, 7, 8] {
            a.push(n);
        }
        assert_eq!(a.runs, [(1, 3), (7, 8)]);
        assert!(a.contains(2) && a.contains(8) && !a.contains(5));
        let mut b = Numbered::default();
        for n in [4, 5, 8] {
            b.push(n);
        }
        assert_eq!(a.first_common(&b), Some(8));
        assert_eq!(b.first_common(&Numbered::default()), None);
    }

    /// Bytes a reader holds besides its fixed buffer: the lines read ahead, and its line buffer.
    fn held(r: &FileReader) -> usize {
        let lines = match &r.source {
            Source::Lines(l) | Source::Grid { lines: l, .. } => l,
        };
        lines.buf.capacity() + lines.back.iter().map(|(_, l)| l.capacity()).sum::<usize>()
    }

    // Issue 38: leading blank and comment lines, and the look-ahead that detects the format,
    // were kept in memory (300 MB of newlines took 18.7 GB). What precedes the first puzzle
    // line is read and let go; a reader holds a few lines at most.
    #[test]
    fn what_precedes_the_first_puzzle_is_not_held() {
        let filler = format!(
            "{}{}{}{}",
            "\n".repeat(300_000),
            "\r\n \t\n".repeat(100_000),
            "# a comment line that is not a name\n".repeat(30_000),
            "\n".repeat(100_000)
        );
        let cases = [
            (
                "s.txt",
                format!("{filler}{SUDOKU}\n{filler}{SUDOKU2}\n{filler}"),
                2,
            ),
            ("h.txt", format!("{filler}{HITORI}{filler}{HITORI}"), 2),
            (
                "a.txt",
                format!(
                    "{filler}2\n{filler}1\n{filler}{}\n",
                    vec!["-1"; 16].join(" ")
                ),
                1,
            ),
            (
                "o.txt",
                format!("{filler}sudoku4:{}\n", vec!["0"; 16].join(",")),
                1,
            ),
        ];
        for (name, text, puzzles) in cases {
            let d = dir_with(&[(name, &text)]);
            let path = d.path().join(name);
            let mut r = FileReader::open(&path, 0).expect("open");
            assert!(held(&r) < 4096, "{name}: holds {} bytes", held(&r));
            let mut n = 0;
            while let Some(p) = r.next_puzzle().unwrap_or_else(|e| panic!("{name}: {e}")) {
                assert!(held(&r) < 4096, "{name}: holds {} bytes", held(&r));
                n += 1;
                // Line numbers count every line passed over (630,000 before the first).
                assert!(p.line > 630_000, "{name}: line {}", p.line);
            }
            assert_eq!(n, puzzles, "{name}");
        }
        // The first puzzle line's number, after blank lines passed over in bulk.
        let d = dir_with(&[(
            "n.txt",
            &format!("{}\r\n\n  \n{SUDOKU}\n", "\n".repeat(70_000)),
        )]);
        let all = load_file(&d.path().join("n.txt"), 0).expect("load");
        assert_eq!(all[0].line, 70_004);
        // A file of nothing but blank lines is refused, holding nothing.
        let d = dir_with(&[("e.txt", &"\n".repeat(1_000_000))]);
        let mut r = FileReader::open(&d.path().join("e.txt"), 0).expect("open");
        assert!(held(&r) < 4096);
        assert!(matches!(r.next_puzzle(), Err(DatasetError::Empty { .. })));
        // An empty `# name:` before the first block is still the grid parser's error.
        let d = dir_with(&[("m.txt", &format!("\n# name:\n\n{HITORI}"))]);
        let e = load_file(&d.path().join("m.txt"), 0).expect_err("empty name");
        assert!(
            e.to_string().contains("m.txt:2: expected a puzzle name"),
            "{e}"
        );
        // A name before the blank-line run is cancelled by it; one right before the block is
        // kept, whatever precedes it.
        let text = format!(
            "# name: gone\n{}# name: kept\n1 2\n2 1\n",
            "\n".repeat(5000)
        );
        let d = dir_with(&[("k.txt", &text)]);
        let all = load_file(&d.path().join("k.txt"), 0).expect("load");
        assert_eq!(all[0].id, "kept");
        let d = dir_with(&[("g.txt", "# name: gone\n\n\n1 2\n2 1\n")]);
        assert_eq!(
            load_file(&d.path().join("g.txt"), 0).expect("load")[0].id,
            "g:1"
        );
    }

    // Issue 38: an ACS instance file was read whole before parsing (a header then 600 MB of
    // rows took 590 MB). It is read a line at a time and refused at the first value past its
    // grid: the invalid bytes far below are never reached.
    #[test]
    fn acs_files_are_read_a_line_at_a_time() {
        let row = ["-1"; 9].join("\t");
        let mut text = String::from("3\r\n1\r\n");
        for _ in 0..20_000 {
            text.push_str(&row);
            text.push_str("\t\r\n");
        }
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"\xff\xfe\n");
        let d = tempfile::tempdir().expect("tempdir");
        let path = d.path().join("inst.txt");
        std::fs::write(&path, &bytes).expect("write");
        let mut r = FileReader::open(&path, 0).expect("open");
        assert_eq!(r.format(), Format::AcsInstance);
        let e = r.next_puzzle().expect_err("too many values");
        assert!(held(&r) < 4096, "holds {} bytes", held(&r));
        let m = e.to_string();
        assert!(
            m.contains("inst.txt:12: more than the 81 values of an order-3 grid"),
            "{m}"
        );
        assert!(m.contains("expected a sudoku_acs instance file"), "{m}");
        // A valid one, with CRLF ends and comments, is one puzzle at its first line.
        let mut ok = String::from("# an instance\n3\r\n1\r\n");
        for _ in 0..9 {
            ok.push_str(&row);
            ok.push_str("\r\n");
        }
        let d = dir_with(&[("ok.txt", &ok)]);
        let all = load_file(&d.path().join("ok.txt"), 0).expect("load");
        assert_eq!(
            (all.len(), all[0].line, all[0].sudoku_order()),
            (1, 2, Some(3))
        );
    }

    // Issue 38: an order outside 2-6, a malformed second line or a `#` line in an instance got
    // a Hitori-grid message or "`#` is not a number"; each gets the ACS parser's, at its line.
    #[test]
    fn acs_like_files_get_acs_messages_with_file_and_line() {
        for (text, want) in [
            (
                "7\n1\n-1 -1 -1\n",
                "f.txt:1: the first line is `7`, not an order",
            ),
            ("100\n1\n-1 -1\n", "f.txt:1: the first line is `100`"),
            ("0\n1\n-1\n", "f.txt:1: the first line is `0`"),
            ("3\nabc\n-1 -1 -1\n", "f.txt:2: the second line is `abc`"),
            ("3\n1 2\n-1 -1 -1\n", "f.txt:2: the second line is `1 2`"),
            (
                "\n\n3\n\n1\n# note\n-1 -1 x\n",
                "f.txt:7: `x` is not a number",
            ),
        ] {
            let d = dir_with(&[("f.txt", text)]);
            let e = load_file(&d.path().join("f.txt"), 0)
                .expect_err(text)
                .to_string();
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(
                e.contains("expected a sudoku_acs instance file") && e.contains("(2 to 6"),
                "{e}"
            );
        }
    }
}
