//! Singles game IDs: never panic; errors name a line inside the text; line-by-line parsing
//! agrees with whole-text parsing; every puzzle survives a round trip through `to_singles_id`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use puzzlebench::hitori::{looks_like_singles, parse_singles, parse_singles_line, to_singles_id};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = looks_like_singles(text);
    let max_line = text.lines().count().max(1);
    match parse_singles(text) {
        Ok(puzzles) => {
            assert!(!puzzles.is_empty());
            for p in &puzzles {
                assert!((1..=max_line).contains(&p.line), "line {}", p.line);
                // The line number is exact: that line alone gives the same puzzle.
                let own = text.lines().nth(p.line - 1).expect("line exists");
                assert_eq!(
                    parse_singles_line(own, p.line)
                        .as_ref()
                        .ok()
                        .and_then(Option::as_ref),
                    Some(p)
                );
                if let Some(name) = &p.name {
                    assert!(!name.trim().is_empty(), "empty name at line {}", p.line);
                }
                if let Some(s) = &p.solution {
                    assert_eq!(
                        (s.width(), s.height()),
                        (p.puzzle.width(), p.puzzle.height())
                    );
                }
                // Singles values are 1..=61, so the ID always exists.
                let id = to_singles_id(&p.puzzle).expect("Singles values fit an ID");
                let back = parse_singles_line(&id, 1)
                    .expect("round trip")
                    .expect("a puzzle");
                assert_eq!(back.puzzle, p.puzzle);
            }
        }
        Err(e) => {
            assert!(
                (1..=max_line).contains(&e.line),
                "error line {}: {e}",
                e.line
            );
            assert!(!e.message.trim().is_empty());
            // The whole-text error is the first failing line's own error.
            if let Some(line) = text.lines().nth(e.line - 1) {
                if let Err(le) = parse_singles_line(line, e.line) {
                    assert_eq!(le, e);
                }
            }
        }
    }
});
