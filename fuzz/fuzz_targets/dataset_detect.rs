//! The loader's path without the file system: `Format::detect`, then the parser it picks, as
//! `dataset::load_file` does. Never panic; the detected format's parser gives puzzles with
//! non-empty ids (names) and lines inside the file, or an error at a line inside the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use puzzlebench::dataset::Format;
use puzzlebench::hitori::{looks_like_singles, parse_grid_blocks, parse_singles};
use puzzlebench::sudoku::{looks_like_sudoku, parse_lines};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let max_line = text.lines().count().max(1);
    let in_file = |line: usize| assert!((1..=max_line).contains(&line), "line {line}");
    let format = Format::detect(text);
    // Order-K Sudoku (`sudokuN:` lines, ACS instance files) have their own parsers and tests;
    // this target checks the classic three formats.
    if matches!(format, Format::SudokuOrderLines | Format::AcsInstance) {
        return;
    }
    assert_eq!(format == Format::Singles, looks_like_singles(text));
    assert_eq!(
        format == Format::SudokuLines,
        !looks_like_singles(text) && looks_like_sudoku(text)
    );
    let hitori = match format {
        Format::HitoriGrid => parse_grid_blocks(text),
        Format::Singles => parse_singles(text),
        Format::SudokuOrderLines | Format::AcsInstance => return,
        Format::SudokuLines => {
            match parse_lines(text) {
                Ok(v) => v.iter().for_each(|p| in_file(p.line)),
                Err(e) => {
                    in_file(e.line);
                    assert!(!e.message.trim().is_empty());
                }
            }
            return;
        }
    };
    match hitori {
        Ok(v) => {
            for p in &v {
                in_file(p.line);
                // A name becomes the puzzle's id, which must not be empty.
                if let Some(name) = &p.name {
                    assert!(!name.trim().is_empty(), "empty id at line {}", p.line);
                }
            }
        }
        Err(e) => {
            in_file(e.line);
            assert!(!e.message.trim().is_empty());
        }
    }
});
