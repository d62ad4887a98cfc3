//! The documentation's promises about itself: every relative link in every Markdown file
//! resolves inside the repository, and every command of the README's first walk-through runs and still
//! prints the table lines the README quotes (the columns that do not depend on the machine).

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown pages whose links are checked: every `.md` file of the repository (issue 38:
/// the check covered README, PROTOCOL and docs/ only, and datasets' READMEs pointed outside).
/// The files git knows (tracked or not ignored) where git can list them, else every `.md`
/// under the root outside `target/` and hidden directories.
fn pages() -> Vec<PathBuf> {
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-co", "--exclude-standard", "*.md"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty());
    let mut out: Vec<PathBuf> = match listed {
        Some(o) => String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| root().join(l))
            .filter(|p| p.is_file())
            .collect(),
        None => {
            let mut found = Vec::new();
            let mut dirs = vec![root().to_path_buf()];
            while let Some(d) = dirs.pop() {
                for e in std::fs::read_dir(&d).expect("readable directory") {
                    let p = e.expect("entry").path();
                    let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                    let name = name.unwrap_or_default();
                    if p.is_dir() {
                        if !name.starts_with('.') && name != "target" {
                            dirs.push(p);
                        }
                    } else if name.ends_with(".md") {
                        found.push(p);
                    }
                }
            }
            found
        }
    };
    out.sort();
    out
}

/// `(line, target)` of each inline Markdown link `[text](target)` outside code blocks.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((i + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let pages = pages();
    assert!(
        pages.len() >= 8,
        "README, PROTOCOL and the docs pages: {pages:?}"
    );
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("readable page");
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let path = target.split('#').next().unwrap_or("");
            let resolved = page.parent().expect("a directory").join(path);
            // A link must resolve inside the repository: a clone has nothing beside it.
            let inside = std::fs::canonicalize(&resolved)
                .is_ok_and(|r| r.starts_with(std::fs::canonicalize(root()).expect("root")));
            if !resolved.exists() || !inside {
                broken.push(format!("{}:{line}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    for want in ["README.md", "docs/running.md", "datasets/hitori5/README.md"] {
        assert!(pages.contains(&root().join(want)), "{want} is checked");
    }
}

// Issue 38: README.md, docs/reproduction-results.md and datasets' READMEs sent the reader to
// `../shared/DESIGN.md` and `../shared/seeds/`, which a clone does not have. No page may send
// a reader outside the repository for content (tooling that reads the public corpora from
// beside the repository, through an override, may say so).
#[test]
fn no_page_points_outside_the_repository_for_content() {
    let mut found = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("readable page");
        for (i, line) in text.lines().enumerate() {
            if line.contains("shared/seeds") || line.contains("shared/DESIGN") {
                found.push(format!("{}:{}: {line}", page.display(), i + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "pages pointing outside:\n{}",
        found.join("\n")
    );
    // docs/running.md's examples read bundled datasets, so they run on a clone.
    let running = std::fs::read_to_string(root().join("docs/running.md")).expect("running.md");
    for line in running
        .lines()
        .filter(|l| l.starts_with("bench-run --dataset "))
    {
        let data = line.split_whitespace().nth(2).unwrap_or("");
        assert!(
            root().join(data).exists(),
            "{line}: {data} is not in the repository"
        );
    }
    // Its list of bench-report subcommands is complete.
    let row = running
        .lines()
        .find(|l| l.starts_with("| `bench-report` |"))
        .expect("the bench-report row");
    for sub in [
        "summary", "compare", "ab", "plot", "html", "merge", "history",
    ] {
        assert!(row.contains(&format!("`{sub}`")), "{sub} missing: {row}");
    }
}

#[test]
fn the_link_finder_finds_links() {
    let found = links("see [a](x.md) and [b](y.md#z)\n```\n[c](not-a-link)\n```\n");
    assert_eq!(found, [(1, "x.md".into()), (1, "y.md#z".into())]);
}

/// The README's walk-through: its `target/release/...` commands and the lines of its
/// `text` blocks.
fn walkthrough() -> (Vec<Vec<String>>, Vec<String>) {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let start = readme
        .find("## A first walk-through")
        .expect("a walk-through section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let (mut commands, mut quoted) = (Vec::new(), Vec::new());
    let mut block: Option<&str> = None;
    for line in section.lines() {
        if let Some(lang) = line.strip_prefix("```") {
            block = if block.is_some() { None } else { Some(lang) };
            continue;
        }
        match block {
            Some("sh") if line.starts_with("target/release/") => {
                commands.push(line.split_whitespace().map(String::from).collect())
            }
            Some("text") => quoted.push(line.to_string()),
            _ => {}
        }
    }
    (commands, quoted)
}

#[test]
fn the_walkthrough_runs_and_prints_what_it_quotes() {
    let (commands, quoted) = walkthrough();
    assert!(commands.len() >= 5, "{commands:?}");
    assert!(quoted.len() >= 4, "{quoted:?}");
    let dir = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(root().join("datasets"), dir.path().join("datasets"))
        .expect("link the datasets");
    let mut printed = String::new();
    for cmd in &commands {
        let bin = cmd[0].trim_start_matches("target/release/");
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin(bin))
            .args(&cmd[1..])
            .current_dir(dir.path())
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}: exit {:?}\n{}",
            cmd.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        printed.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    // A quoted line is a printed line with its machine-dependent last columns cut off.
    for q in &quoted {
        let want: Vec<&str> = q.split_whitespace().collect();
        let found = printed.lines().any(|l| {
            let got: Vec<&str> = l.split_whitespace().collect();
            got.len() >= want.len() && got[..want.len()] == want[..]
        });
        assert!(
            found,
            "the README quotes a line no command printed:\n{q}\n\nprinted:\n{printed}"
        );
    }
    assert!(dir.path().join("results/html/index.html").is_file());
    // The sweep plot the README shows is the one its commands draw (it has no timings).
    let drawn = dir
        .path()
        .join("results/plots/sudoku-medium-abc-hybrid-sweep-colony_size.svg");
    let shown = root().join("docs/img/sweep-colony-size.svg");
    assert_eq!(
        std::fs::read_to_string(&drawn).expect("the sweep plot"),
        std::fs::read_to_string(&shown).expect("the README's plot"),
        "{} differs from what the walk-through draws: copy {} over it",
        shown.display(),
        drawn.display()
    );
}
