//! The crate's layering, checked on the source text: the puzzles (`hitori`, `sudoku`) and the
//! modules beneath them never reach up into the harness, the reports, the result files or the
//! solver seam — tests included — and `harness` and `report` never import each other; the
//! files of `report` and `results` import each other through no circle, and name no solver
//! or puzzle.
//! A `use` that breaks a rule fails here with the file and line.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `path` (or `path` itself).
fn sources(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path).expect("readable source directory") {
        let p = entry.expect("directory entry").path();
        if p.is_dir() {
            out.extend(sources(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// `file:line: text` for each line of the sources under `below` that names one of `above`.
fn reaches(below: &[&str], above: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for dir in below {
        for file in sources(&root.join(dir)) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for module in above {
                    // `crate::` paths only: `super::verify` inside `sudoku` is the puzzle's own
                    // verifier, not the crate's.
                    if code.contains(&format!("crate::{module}")) {
                        found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn puzzles_and_their_foundations_never_reach_up() {
    let below = [
        "hitori", "sudoku", "clock.rs", "hash.rs", "seed.rs", "kind.rs",
    ];
    let above = [
        "harness",
        "report",
        "results",
        "builtin",
        "external",
        "strategies",
        "solver",
        "dataset",
        "verify",
    ];
    let found = reaches(&below, &above);
    assert!(found.is_empty(), "layering broken:\n{}", found.join("\n"));
}

#[test]
fn harness_and_report_never_import_each_other() {
    let found = reaches(&["harness"], &["report"]);
    assert!(
        found.is_empty(),
        "harness imports report:\n{}",
        found.join("\n")
    );
    let found = reaches(&["report"], &["harness"]);
    assert!(
        found.is_empty(),
        "report imports harness:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checker_sees_a_reach_when_there_is_one() {
    // The seeding rule's user in the harness names `crate::seed`: a pattern the check finds,
    // so an empty answer above means the lines were read, not skipped.
    let found = reaches(&["harness"], &["seed"]);
    assert!(
        found.iter().any(|l| l.contains("run.rs")),
        "expected the harness's use of crate::seed, got {found:?}"
    );
}

/// The code of a source file a build without tests sees: everything before its first
/// `#[cfg(test)]`, comments cut off each line, with the line numbers kept.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .take_while(|(_, l)| !l.trim_start().starts_with("#[cfg(test)]"))
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("")))
        .collect()
}

/// The paths a `use` tree (or a plain path) starting at `s[*i]` names, each as its segments:
/// `{a::{b, c}, d as e}` gives `[a, b]`, `[a, c]`, `[d]`.
fn use_tree(s: &[u8], i: &mut usize) -> Vec<Vec<String>> {
    let skip_ws = |i: &mut usize| {
        while *i < s.len() && s[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    skip_ws(i);
    if *i < s.len() && s[*i] == b'{' {
        *i += 1;
        let mut out = Vec::new();
        while *i < s.len() {
            skip_ws(i);
            if *i < s.len() && s[*i] == b'}' {
                *i += 1;
                break;
            }
            out.extend(use_tree(s, i));
            // Past an alias (`self as io`) to the next item.
            while *i < s.len() && s[*i] != b',' && s[*i] != b'}' {
                *i += 1;
            }
            if *i < s.len() && s[*i] == b',' {
                *i += 1;
            }
        }
        return out;
    }
    let start = *i;
    while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_' || s[*i] == b'*') {
        *i += 1;
    }
    let ident = String::from_utf8_lossy(&s[start..*i]).into_owned();
    if ident.is_empty() {
        return Vec::new();
    }
    if s[*i..].starts_with(b"::") {
        *i += 2;
        let rest = use_tree(s, i);
        if rest.is_empty() {
            return vec![vec![ident]];
        }
        return rest
            .into_iter()
            .map(|mut p| {
                p.insert(0, ident.clone());
                p
            })
            .collect();
    }
    vec![vec![ident]]
}

/// Every crate path `file`'s code names (`crate::…`, and `super::…` resolved against the
/// file's directory `dir` under `src`), with the line it is on.
fn crate_paths(file: &Path, dir: &str) -> Vec<(usize, Vec<String>)> {
    let text = std::fs::read_to_string(file).expect("readable source");
    let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
    let mut out = Vec::new();
    for (line, code) in code_lines(&text) {
        let bytes = code.as_bytes();
        for (prefix, base) in [("crate::", None), ("super::", Some(dir))] {
            // `super::` in a directory's `mod.rs` is the crate root: no edge inside it.
            if base.is_some() && is_mod {
                continue;
            }
            let mut from = 0;
            while let Some(at) = code[from..].find(prefix) {
                let mut i = from + at + prefix.len();
                from = i;
                // `$crate::` in a macro, `super::super::`: not a path this check follows.
                if code[..i - prefix.len()].ends_with('$') || code[i..].starts_with("super::") {
                    continue;
                }
                for mut p in use_tree(bytes, &mut i) {
                    if let Some(d) = base {
                        p.insert(0, d.to_string());
                    }
                    out.push((line, p));
                }
            }
        }
    }
    out
}

/// The import graph of the files of `dirs` (each a directory under `src`): one node per file
/// (`report::compare`; a `mod.rs` is its directory, `report`), one edge per file a file's
/// code names, with the first `file:line` naming it. Edges to or from a directory's
/// `mod.rs` are left out (a parent holds what its children share; naming it is no circle).
fn import_graph(dirs: &[&str]) -> std::collections::BTreeMap<(String, String), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let module_of = |p: &[String]| -> Option<String> {
        let (dir, child) = (p.first()?, p.get(1)?);
        (dirs.contains(&dir.as_str()) && root.join(dir).join(format!("{child}.rs")).is_file())
            .then(|| format!("{dir}::{child}"))
    };
    let mut edges = std::collections::BTreeMap::new();
    for dir in dirs {
        for file in sources(&root.join(dir)) {
            let Some(stem) = file.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if stem == "mod" {
                continue;
            }
            let node = format!("{dir}::{stem}");
            for (line, path) in crate_paths(&file, dir) {
                if let Some(to) = module_of(&path) {
                    if to != node {
                        edges
                            .entry((node.clone(), to))
                            .or_insert_with(|| format!("{}:{line}", file.display()));
                    }
                }
            }
        }
    }
    edges
}

/// Each circle of the graph once, as its nodes in order, the first node the least.
fn circles(edges: &std::collections::BTreeMap<(String, String), String>) -> Vec<Vec<String>> {
    let mut next: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (a, b) in edges.keys() {
        next.entry(a.as_str()).or_default().push(b.as_str());
    }
    let mut found = std::collections::BTreeSet::new();
    // A depth-first walk from each node, through nodes greater than it only, finding the
    // paths back to it: every circle once, from its least node.
    fn walk<'a>(
        start: &'a str,
        at: &'a str,
        path: &mut Vec<&'a str>,
        next: &std::collections::BTreeMap<&'a str, Vec<&'a str>>,
        found: &mut std::collections::BTreeSet<Vec<String>>,
    ) {
        for &n in next.get(at).into_iter().flatten() {
            if n == start {
                found.insert(path.iter().map(|s| s.to_string()).collect());
            } else if n > start && !path.contains(&n) && path.len() < 8 {
                path.push(n);
                walk(start, n, path, next, found);
                path.pop();
            }
        }
    }
    for &start in next.keys() {
        walk(start, start, &mut vec![start], &next, &mut found);
    }
    found.into_iter().collect()
}

// Issue 39: `compare` ↔ `gate` (one constant), `input` ↔ `plot` (a 6-line struct) and
// `read` ↔ `trace` (a forwarder) were circles nobody meant.
#[test]
fn no_two_modules_import_each_other_through_any_path() {
    let edges = import_graph(&["report", "results"]);
    let found: Vec<String> = circles(&edges)
        .into_iter()
        .map(|c| {
            let mut hops = Vec::new();
            for (k, a) in c.iter().enumerate() {
                let b = &c[(k + 1) % c.len()];
                hops.push(format!("{a} -> {b} ({})", edges[&(a.clone(), b.clone())]));
            }
            hops.join(", ")
        })
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_import_graph_holds_the_imports_it_should() {
    let edges = import_graph(&["report", "results"]);
    // A plain `use crate::…`, a brace list (`use crate::report::{…}`), a `super::` path and
    // an inline path: an empty circle list above means these were read.
    for (a, b) in [
        ("report::gate", "report::compare"),
        ("report::gate", "report::host"),
        ("results::trace", "results::read"),
        ("report::html", "results::trace"),
    ] {
        assert!(
            edges.contains_key(&(a.to_string(), b.to_string())),
            "{a} -> {b} missing from {:?}",
            edges.keys().collect::<Vec<_>>()
        );
    }
    // The walk finds a circle when there is one.
    let mut toy = std::collections::BTreeMap::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        toy.insert((a.to_string(), b.to_string()), String::new());
    }
    assert_eq!(circles(&toy), vec![vec!["a", "b", "c"]]);
    let mut i = 0;
    assert_eq!(
        use_tree(b"{a::{b, c as d}, e::*}", &mut i),
        vec![vec!["a", "b"], vec!["a", "c"], vec!["e", "*"]]
    );
}

// Issue 39: the effort fallback made `report` import `builtin`, a line the checks above did
// not see. The reports and the result files name no solver, no puzzle and no binary's
// helpers: what they need to know of the solvers is handed in (`report::Vocabulary`).
#[test]
fn reports_and_result_files_name_no_solver_and_no_puzzle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let forbidden = [
        "builtin",
        "strategies",
        "external",
        "harness",
        "hitori",
        "sudoku",
    ];
    let mut found = Vec::new();
    for dir in ["report", "results"] {
        for file in sources(&root.join(dir)) {
            for (line, path) in crate_paths(&file, dir) {
                if path
                    .first()
                    .is_some_and(|m| forbidden.contains(&m.as_str()))
                {
                    found.push(format!(
                        "{}:{line}: crate::{}",
                        file.display(),
                        path.join("::")
                    ));
                }
            }
        }
    }
    assert!(found.is_empty(), "reaches a solver:\n{}", found.join("\n"));
}
