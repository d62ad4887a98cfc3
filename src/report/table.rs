//! Tables and the few other shapes reports print, in two styles from one set of cells: aligned
//! text for a terminal and GitHub-flavoured markdown for job summaries and files.

use std::fmt::Write as _;

/// How to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Aligned columns for a terminal.
    Text,
    /// GitHub-flavoured markdown.
    Markdown,
}

/// A table: the first two columns are left-aligned labels, the rest right-aligned numbers.
pub fn render(style: Style, header: &[String], rows: &[Vec<String>]) -> String {
    match style {
        Style::Text => aligned(header, rows),
        Style::Markdown => markdown_table(header, rows),
    }
}

/// A section heading before a table.
pub fn heading(style: Style, title: &str) -> String {
    match style {
        Style::Text => format!("\n{}:\n", title.to_lowercase()),
        Style::Markdown => format!("\n**{title}**\n\n"),
    }
}

/// One item of a list.
pub fn bullet(style: Style, item: &str) -> String {
    match style {
        Style::Text => format!("  {item}\n"),
        Style::Markdown => format!("- {item}\n"),
    }
}

/// A footnote line.
pub fn footnote(style: Style, text: &str) -> String {
    match style {
        Style::Text => format!("{text}\n"),
        Style::Markdown => format!("<sub>{text}</sub><br>\n"),
    }
}

/// Escape a markdown table cell.
pub fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn aligned(header: &[String], rows: &[Vec<String>]) -> String {
    let ncol = header.len();
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..ncol).map(width).collect();
    let mut out = String::new();
    for r in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = widths[i].saturating_sub(c.chars().count());
                if i < 2 {
                    format!("{c}{}", " ".repeat(pad))
                } else {
                    format!("{}{c}", " ".repeat(pad))
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n|", header.join(" | "));
    for i in 0..header.len() {
        out.push_str(if i < 2 { " --- |" } else { " ---: |" });
    }
    out.push('\n');
    for r in rows {
        let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_two_styles() {
        let h = vec!["a".to_string(), "b".into(), "n".into()];
        let r = vec![vec!["x".to_string(), "y|z".into(), "10".into()]];
        assert_eq!(render(Style::Text, &h, &r), "a  b     n\nx  y|z  10\n");
        assert_eq!(
            render(Style::Markdown, &h, &r),
            "| a | b | n |\n| --- | --- | ---: |\n| x | y\\|z | 10 |\n"
        );
        assert_eq!(heading(Style::Text, "Ratios"), "\nratios:\n");
    }
}
