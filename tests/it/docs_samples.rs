//! Sample outputs in the manual cannot go stale (issue 36, item 10). In `docs/*.md` and
//! `PROTOCOL.md` every fenced block names its language, and a `text` block is a sample
//! output: the block before it must be a `sh` block (prose may come between), whose commands
//! this test runs, and each quoted line must still be printed, its machine-dependent last columns cut
//! off (the quoted words are a prefix of a printed line's words). A block that is not output
//! (commands, a manifest, a file layout, a wire format) carries another language and is not
//! compared. The README's walk-through is checked the same way in `docs.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn pages() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    out.push(root().join("PROTOCOL.md"));
    out.sort();
    out
}

/// A fenced block: its first line number (1-based, the fence), language and lines.
#[derive(Debug)]
struct Block {
    line: usize,
    lang: String,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut open: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_start();
        if let Some(rest) = line.strip_prefix("```") {
            match open.take() {
                Some(b) => out.push(b),
                None => {
                    open = Some(Block {
                        line: i + 1,
                        lang: rest.trim().to_string(),
                        lines: Vec::new(),
                    })
                }
            }
            continue;
        }
        if let Some(b) = open.as_mut() {
            b.lines.push(raw.to_string());
        }
    }
    out
}

#[test]
fn the_block_finder_pairs_commands_with_their_output() {
    let found = blocks("a\n```sh\nx\n```\nprose\n  ```text\n  y\n  ```\n```\nz\n```\n");
    let got: Vec<(usize, &str)> = found.iter().map(|b| (b.line, b.lang.as_str())).collect();
    assert_eq!(got, [(2, "sh"), (6, "text"), (9, "")]);
    assert_eq!(found[0].lines, ["x"]);
    assert_eq!(found[1].lines, ["  y"]);
}

#[test]
fn every_fenced_block_in_the_manual_names_its_language() {
    let mut bare = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        for b in blocks(&text) {
            if b.lang.is_empty() {
                bare.push(format!("{}:{}", page.display(), b.line));
            }
        }
    }
    assert!(
        bare.is_empty(),
        "fenced blocks without a language (use `text` for a sample output, checked by \
         docs_samples.rs, or name what the block is): {bare:?}"
    );
}

/// Runs a `sh` block in a scratch directory that sees the repository's datasets, examples and
/// scripts, with the release binaries first on `PATH`; `cargo run --release --example NAME`
/// runs the example built beside them. Returns stdout and stderr together.
fn run_block(commands: &[String]) -> String {
    let bin_dir = assert_cmd::cargo::cargo_bin("bench-run")
        .parent()
        .expect("the binaries' directory")
        .to_path_buf();
    let dir = tempfile::tempdir().expect("tempdir");
    for name in ["datasets", "examples", "scripts"] {
        std::os::unix::fs::symlink(root().join(name), dir.path().join(name)).expect("link");
    }
    let mut script = String::from("set -e\n");
    for c in commands {
        let line = match c.trim().strip_prefix("cargo run --release --example ") {
            Some(rest) => {
                let name = rest.split_whitespace().next().unwrap_or_default();
                let exe = bin_dir.join("examples").join(name);
                if !exe.is_file() {
                    // `cargo test --test it` alone does not build the examples.
                    let built = Command::new(env!("CARGO"))
                        .args(["build", "--release", "--example", name])
                        .current_dir(root())
                        .status()
                        .expect("cargo runs");
                    assert!(built.success(), "cargo build --example {name}");
                }
                format!("{} {}", exe.display(), &rest[name.len()..])
            }
            None => c.clone(),
        };
        script.push_str(&line);
        script.push('\n');
    }
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&script)
        .env("PATH", path)
        .current_dir(dir.path())
        .output()
        .expect("sh runs");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{script}exit {:?}\n{printed}",
        out.status.code()
    );
    printed
}

#[test]
fn every_sample_output_in_the_manual_is_still_printed() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        let found = blocks(&text);
        for (i, b) in found.iter().enumerate() {
            if b.lang != "text" {
                continue;
            }
            let where_ = format!("{}:{}", page.display(), b.line);
            let commands = match i.checked_sub(1).map(|j| &found[j]) {
                Some(prev) if prev.lang == "sh" => &prev.lines,
                _ => panic!("{where_}: a `text` block (a sample output) must follow the `sh` block that prints it"),
            };
            let printed = run_block(commands);
            for q in b.lines.iter().filter(|l| !l.trim().is_empty()) {
                let want: Vec<&str> = q.split_whitespace().collect();
                let found = printed.lines().any(|l| {
                    let got: Vec<&str> = l.split_whitespace().collect();
                    got.len() >= want.len() && got[..want.len()] == want[..]
                });
                assert!(
                    found,
                    "{where_} quotes a line its commands no longer print:\n{q}\n\nprinted:\n{printed}"
                );
            }
            checked += 1;
        }
    }
    // own-solver.md's summary, PROTOCOL.md's reference solver, reports.md's trace file.
    assert!(checked >= 3, "only {checked} sample outputs found");
}

/// The batch overhead figure from "batch mode costs" to the closing parenthesis of its
/// measurement, whitespace folded.
fn overhead_figure(page: &str) -> String {
    let text = std::fs::read_to_string(root().join(page)).expect("page");
    let folded = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let start = folded
        .find("batch mode costs ")
        .unwrap_or_else(|| panic!("{page}: no \"batch mode costs\" figure"));
    let end = folded[start..]
        .find("--nocapture`)")
        .unwrap_or_else(|| panic!("{page}: the overhead figure names no command"));
    folded[start..start + end].to_string()
}

#[test]
fn the_overhead_figure_is_the_same_in_both_pages() {
    let own = overhead_figure("docs/own-solver.md");
    let protocol = overhead_figure("PROTOCOL.md");
    assert_eq!(own, protocol);
    assert!(own.contains("2026-") && own.contains("host"), "{own}");
}
