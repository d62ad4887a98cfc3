//! Hitori grid blocks: never panic; errors name a line inside the text; every parsed puzzle
//! has a non-empty name (if any) and survives a round trip through `to_grid_block`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use puzzlebench::hitori::{parse_grid_blocks, to_grid_block};

fuzz_target!(|data: &[u8]| {
    // The loader refuses non-UTF-8 before any parser runs, so only text matters here.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let max_line = text.lines().count().max(1);
    match parse_grid_blocks(text) {
        Ok(puzzles) => {
            assert!(!puzzles.is_empty());
            for p in &puzzles {
                assert!((1..=max_line).contains(&p.line), "line {}", p.line);
                // The line number is exact: it holds the puzzle's first row (before any comment).
                let own = text.lines().nth(p.line - 1).expect("line exists");
                let row: Vec<u32> = own
                    .split('#')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .map(|t| t.parse().expect("a parsed row holds numbers"))
                    .collect();
                assert_eq!(row, p.puzzle.cells()[..p.puzzle.width()]);
                if let Some(name) = &p.name {
                    assert!(!name.trim().is_empty(), "empty name at line {}", p.line);
                }
                let back = parse_grid_blocks(&to_grid_block(&p.puzzle)).expect("round trip");
                assert_eq!(back.len(), 1);
                assert_eq!(back[0].puzzle, p.puzzle);
            }
        }
        Err(e) => {
            assert!(
                (1..=max_line).contains(&e.line),
                "error line {}: {e}",
                e.line
            );
            assert!(!e.message.trim().is_empty());
        }
    }
});
