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

use crate::hitori::grid::{HitoriPuzzle, Shading};
use crate::hitori::parse as hparse;
use crate::sudoku::grid::{Solution, SudokuPuzzle};
use crate::sudoku::parse as sparse;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Which family of puzzle a dataset entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PuzzleKind {
    /// Hitori (shade cells).
    Hitori,
    /// Classic 9x9 Sudoku.
    Sudoku,
}

impl PuzzleKind {
    /// Lower-case name, as written in the `kind` column.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleKind::Hitori => "hitori",
            PuzzleKind::Sudoku => "sudoku",
        }
    }
}

impl fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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
            PuzzleData::Sudoku { .. } => PuzzleKind::Sudoku,
        }
    }

    /// `WxH`, as written in the `size` column.
    pub fn size(&self) -> String {
        match &self.data {
            PuzzleData::Hitori { puzzle, .. } => format!("{}x{}", puzzle.width(), puzzle.height()),
            PuzzleData::Sudoku { .. } => "9x9".to_string(),
        }
    }

    /// Number of cells, for fractions such as `propagated`.
    pub fn cell_count(&self) -> usize {
        match &self.data {
            PuzzleData::Hitori { puzzle, .. } => puzzle.width() * puzzle.height(),
            PuzzleData::Sudoku { .. } => 81,
        }
    }

    /// Feeds the puzzle's identity and content into a plan fingerprint.
    pub(crate) fn fingerprint(&self, h: &mut crate::harness::seed::StableHasher) {
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
        }
    }
}

/// A loaded corpus.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Name used in the `dataset` column: the directory name or the file stem.
    pub name: String,
    /// The path given.
    pub path: PathBuf,
    /// Puzzle files read, in order.
    pub files: Vec<PathBuf>,
    /// Every puzzle, files in order, puzzles in file order.
    pub puzzles: Vec<Puzzle>,
}

impl Dataset {
    /// How many puzzles of a kind the dataset holds.
    pub fn count(&self, kind: PuzzleKind) -> usize {
        self.puzzles.iter().filter(|p| p.kind() == kind).count()
    }

    /// The kinds present, in a fixed order.
    pub fn kinds(&self) -> Vec<PuzzleKind> {
        [PuzzleKind::Hitori, PuzzleKind::Sudoku]
            .into_iter()
            .filter(|k| self.count(*k) > 0)
            .collect()
    }
}

/// What went wrong loading a dataset. Each variant names the file and, where it applies, the line.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
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
}

impl Format {
    /// Detect from the text: Singles IDs first (they have the unmistakable `WxH:` prefix), then
    /// 81-cell Sudoku lines, and anything else is read as Hitori grid blocks, whose parser then
    /// says precisely what is wrong with a file that is none of the three.
    pub fn detect(text: &str) -> Format {
        if hparse::looks_like_singles(text) {
            Format::Singles
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

/// The files a dataset path stands for: the file itself, or a directory's puzzle files by name.
pub fn dataset_files(path: &Path) -> Result<Vec<PathBuf>, DatasetError> {
    let io = |source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
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

fn read_text(path: &Path) -> Result<String, DatasetError> {
    let bytes = std::fs::read(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        DatasetError::NotText {
            path: path.to_path_buf(),
            line: good.iter().filter(|&&b| b == b'\n').count() + 1,
        }
    })?;
    // A byte-order mark (some editors save UTF-8 with one) is encoding, not content. Only the
    // Sudoku parser skipped it: a Hitori file with one failed on an invisible "`1`" token, or a
    // Singles file became grid blocks, or its first name (so id) started with U+FEFF.
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The puzzles of one file, with ids, in file order.
pub fn load_file(path: &Path, file_index: usize) -> Result<Vec<Puzzle>, DatasetError> {
    let mut out = Vec::new();
    load_file_into(path, file_index, &mut out)?;
    Ok(out)
}

/// Append the puzzles of one file to `out` (appending, not collecting and moving, keeps a
/// million-puzzle file from briefly existing twice in memory).
fn load_file_into(
    path: &Path,
    file_index: usize,
    out: &mut Vec<Puzzle>,
) -> Result<(), DatasetError> {
    let start = out.len();
    let text = read_text(path)?;
    let parse_err = |line: usize, message: String| DatasetError::Parse {
        path: path.to_path_buf(),
        line,
        message,
    };
    let stem = stem(path);
    match Format::detect(&text) {
        Format::HitoriGrid | Format::Singles => {
            let parsed = if Format::detect(&text) == Format::Singles {
                hparse::parse_singles(&text)
            } else {
                hparse::parse_grid_blocks(&text)
            }
            .map_err(|e| parse_err(e.line, e.message))?;
            for (i, p) in parsed.into_iter().enumerate() {
                out.push(Puzzle {
                    id: p.name.unwrap_or_else(|| format!("{stem}:{}", i + 1)),
                    file: file_index,
                    line: p.line,
                    data: PuzzleData::Hitori {
                        puzzle: p.puzzle,
                        solution: p.solution,
                    },
                });
            }
        }
        Format::SudokuLines => {
            out.reserve_exact(text.bytes().filter(|&b| b == b'\n').count() + 1);
            for (i, line) in text.lines().enumerate() {
                if let Some(p) =
                    sparse::parse_line(line, i + 1).map_err(|e| parse_err(e.line, e.message))?
                {
                    let index = out.len() - start + 1;
                    out.push(Puzzle {
                        id: format!("{stem}:{index}"),
                        file: file_index,
                        line: p.line,
                        data: PuzzleData::Sudoku {
                            puzzle: p.puzzle,
                            solution: p.solution.map(Box::new),
                        },
                    });
                }
            }
        }
    }
    if out.len() == start {
        return Err(DatasetError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// Load a dataset from a directory or a file.
pub fn load(path: &Path) -> Result<Dataset, DatasetError> {
    let files = dataset_files(path)?;
    let name = if path.is_dir() {
        path.file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    } else {
        stem(path)
    };
    let mut puzzles: Vec<Puzzle> = Vec::new();
    // Ids by hash -> index of the first puzzle with that hash: a duplicate check that costs a
    // few bytes per puzzle rather than a copy of every id.
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for (fi, file) in files.iter().enumerate() {
        let start = puzzles.len();
        load_file_into(file, fi, &mut puzzles)?;
        for i in start..puzzles.len() {
            let mut h = crate::harness::seed::StableHasher::default();
            h.write_str(&puzzles[i].id);
            let first = *seen.entry(h.finish()).or_insert(i);
            if first != i && puzzles[first].id == puzzles[i].id {
                let (f, p) = (&puzzles[first], &puzzles[i]);
                return Err(DatasetError::DuplicateId {
                    path: file.clone(),
                    line: p.line,
                    id: p.id.clone(),
                    first_path: files[f.file].clone(),
                    first_line: f.line,
                });
            }
        }
    }
    Ok(Dataset {
        name,
        path: path.to_path_buf(),
        files,
        puzzles,
    })
}
