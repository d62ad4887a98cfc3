//! Sudoku lines: never panic; errors name a line inside the text; puzzles and known solutions
//! survive a round trip through the one-line form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use puzzlebench::sudoku::{looks_like_sudoku, parse_line, parse_lines, verify};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = looks_like_sudoku(text);
    let max_line = text.lines().count().max(1);
    match parse_lines(text) {
        Ok(puzzles) => {
            for p in &puzzles {
                assert!((1..=max_line).contains(&p.line), "line {}", p.line);
                // The line number is exact: that line alone gives the same puzzle.
                let own = text.lines().nth(p.line - 1).expect("line exists");
                assert_eq!(parse_line(own, p.line), Ok(Some(p.clone())));
                let mut line = p.puzzle.to_line();
                if let Some(sol) = &p.solution {
                    // The parser promises a checked solution.
                    assert!(verify(&p.puzzle, sol).is_ok());
                    line.push(' ');
                    line.extend(sol.iter().map(|&d| char::from(b'0' + d)));
                }
                let back = parse_line(&line, 3).expect("round trip").expect("a puzzle");
                assert_eq!(
                    (back.line, back.puzzle, back.solution),
                    (3, p.puzzle, p.solution)
                );
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
