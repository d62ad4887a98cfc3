//! One document model for every report: a report builds a [`Doc`] of blocks (headings,
//! paragraphs, notes, warnings, lists, tables, figures) once, and the doc is rendered as aligned
//! text for a terminal, GitHub-flavoured markdown for files and job summaries, or HTML for the
//! page. No renderer parses another's output, and every piece of text that came from a user
//! (dataset names, puzzle ids, parameters, paths) is escaped for the target it is written to:
//! a `|` or a newline cannot break a markdown table, a `<` cannot open an HTML tag, a control
//! character cannot reach a terminal.

use std::fmt::Write as _;

/// A run of text with its emphasis. Text is always plain: escaping happens in the renderers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// A name or a command, set in monospace.
    Code(String),
    /// Strong emphasis.
    Strong(String),
}

/// A line of spans: a paragraph, a list item, a heading.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inline(pub Vec<Span>);

impl Inline {
    /// Plain text.
    pub fn text(s: impl Into<String>) -> Inline {
        Inline(vec![Span::Text(s.into())])
    }

    /// Append plain text.
    pub fn plain(mut self, s: impl Into<String>) -> Inline {
        self.0.push(Span::Text(s.into()));
        self
    }

    /// Append monospace text.
    pub fn code(mut self, s: impl Into<String>) -> Inline {
        self.0.push(Span::Code(s.into()));
        self
    }

    /// Append strong text.
    pub fn strong(mut self, s: impl Into<String>) -> Inline {
        self.0.push(Span::Strong(s.into()));
        self
    }

    /// The text without emphasis (for text output and titles).
    pub fn plain_text(&self) -> String {
        self.0
            .iter()
            .map(|s| match s {
                Span::Text(t) | Span::Code(t) | Span::Strong(t) => t.as_str(),
            })
            .collect()
    }
}

impl From<String> for Inline {
    fn from(s: String) -> Inline {
        Inline::text(s)
    }
}

impl From<&str> for Inline {
    fn from(s: &str) -> Inline {
        Inline::text(s)
    }
}

/// A table: `labels` leading columns are left-aligned names, the rest right-aligned values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// Column names.
    pub head: Vec<String>,
    /// Cells, row by row (each row as long as `head`).
    pub rows: Vec<Vec<String>>,
    /// How many leading columns are names (left-aligned).
    pub labels: usize,
}

impl Table {
    /// A table whose first `labels` columns are names.
    pub fn new(head: &[&str], labels: usize) -> Table {
        Table {
            head: head.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
            labels,
        }
    }

    /// Add a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }
}

/// An SVG figure (HTML only; text and markdown leave it out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// Unique id within the page (derived one to one from a file or dataset name).
    pub id: String,
    /// What it shows.
    pub title: String,
    /// The SVG document.
    pub svg: String,
    /// A line under it, empty for none.
    pub caption: String,
}

/// One block of a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A heading; level 1 is the report's own title.
    Heading(u8, Inline),
    /// A paragraph.
    Para(Inline),
    /// Small print: definitions, footnotes.
    Note(Inline),
    /// Something the reader must see before the numbers (an incomplete input).
    Warning(Inline),
    /// A bulleted list.
    List(Vec<Inline>),
    /// A table.
    Table(Table),
    /// Figures shown side by side.
    Figures(Vec<Figure>),
}

/// A report's document.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doc(pub Vec<Block>);

impl Doc {
    /// Add a block.
    pub fn push(&mut self, b: Block) -> &mut Doc {
        self.0.push(b);
        self
    }

    /// Add a heading.
    pub fn heading(&mut self, level: u8, text: impl Into<Inline>) -> &mut Doc {
        self.push(Block::Heading(level, text.into()))
    }

    /// Add a paragraph.
    pub fn para(&mut self, text: impl Into<Inline>) -> &mut Doc {
        self.push(Block::Para(text.into()))
    }

    /// Add a note.
    pub fn note(&mut self, text: impl Into<Inline>) -> &mut Doc {
        self.push(Block::Note(text.into()))
    }

    /// Add a warning.
    pub fn warning(&mut self, text: impl Into<Inline>) -> &mut Doc {
        self.push(Block::Warning(text.into()))
    }

    /// Add a list (nothing when empty).
    pub fn list(&mut self, items: Vec<Inline>) -> &mut Doc {
        if !items.is_empty() {
            self.push(Block::List(items));
        }
        self
    }

    /// Add a table (nothing when it has no row).
    pub fn table(&mut self, t: Table) -> &mut Doc {
        if !t.rows.is_empty() {
            self.push(Block::Table(t));
        }
        self
    }

    /// Append another document's blocks, its headings `shift` levels deeper.
    pub fn append(&mut self, other: Doc, shift: u8) -> &mut Doc {
        for b in other.0 {
            self.0.push(match b {
                Block::Heading(l, t) => Block::Heading(l.saturating_add(shift).min(6), t),
                b => b,
            });
        }
        self
    }

    /// Aligned text for a terminal.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (i, b) in self.0.iter().enumerate() {
            match b {
                Block::Heading(1, t) => {
                    let _ = writeln!(out, "{}", text_safe(&t.plain_text()));
                }
                Block::Heading(_, t) => {
                    if i > 0 {
                        out.push('\n');
                    }
                    let _ = writeln!(out, "{}:", text_safe(&t.plain_text()));
                }
                Block::Para(t) | Block::Note(t) => {
                    let _ = writeln!(out, "{}", text_safe(&t.plain_text()));
                }
                Block::Warning(t) => {
                    let _ = writeln!(out, "{}\n", text_safe(&t.plain_text()));
                }
                Block::List(items) => {
                    for t in items {
                        let _ = writeln!(out, "  {}", text_safe(&t.plain_text()));
                    }
                }
                Block::Table(t) => out.push_str(&aligned(t)),
                Block::Figures(_) => {}
            }
        }
        out
    }

    /// GitHub-flavoured markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        for b in &self.0 {
            match b {
                Block::Heading(l, t) => {
                    let _ = writeln!(out, "{} {}\n", "#".repeat(usize::from(*l)), md_inline(t));
                }
                Block::Para(t) => {
                    let _ = writeln!(out, "{}\n", md_inline(t));
                }
                Block::Note(t) => {
                    let _ = writeln!(out, "<sub>{}</sub><br>\n", md_inline(t));
                }
                Block::Warning(t) => {
                    let _ = writeln!(out, "> **{}**\n", md_inline(t));
                }
                Block::List(items) => {
                    for t in items {
                        let _ = writeln!(out, "- {}", md_inline(t));
                    }
                    out.push('\n');
                }
                Block::Table(t) => {
                    out.push_str(&markdown_table(t));
                    out.push('\n');
                }
                Block::Figures(_) => {}
            }
        }
        out
    }

    /// HTML for the page, headings `shift` levels deeper. Tables are sortable and scroll
    /// inside their box when wider than the page.
    pub fn html(&self, shift: u8) -> String {
        let mut out = String::new();
        for b in &self.0 {
            match b {
                Block::Heading(l, t) => {
                    let l = (l + shift).min(6);
                    let _ = writeln!(out, "<h{l}>{}</h{l}>", html_inline(t));
                }
                Block::Para(t) => {
                    let _ = writeln!(out, "<p>{}</p>", html_inline(t));
                }
                Block::Note(t) => {
                    let _ = writeln!(out, "<p class=\"note\">{}</p>", html_inline(t));
                }
                Block::Warning(t) => {
                    let _ = writeln!(out, "<p class=\"warning\">{}</p>", html_inline(t));
                }
                Block::List(items) => {
                    out.push_str("<ul>\n");
                    for t in items {
                        let _ = writeln!(out, "<li>{}</li>", html_inline(t));
                    }
                    out.push_str("</ul>\n");
                }
                Block::Table(t) => out.push_str(&html_table(t)),
                Block::Figures(figs) => {
                    out.push_str("<div class=\"plots\">\n");
                    for f in figs {
                        let caption = if f.caption.is_empty() {
                            String::new()
                        } else {
                            format!(
                                "<figcaption class=\"note\">{}</figcaption>",
                                esc(&f.caption)
                            )
                        };
                        let _ = writeln!(
                            out,
                            "<figure id=\"{}\" aria-label=\"{}\">{}{caption}</figure>",
                            esc(&f.id),
                            esc(&f.title),
                            f.svg.trim()
                        );
                    }
                    out.push_str("</div>\n");
                }
            }
        }
        out
    }
}

/// Control characters shown as escapes (`\n`, `\u{1b}`): user text never moves the cursor,
/// starts a line or rings a terminal.
fn visible_controls(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            o.extend(c.escape_default());
        } else {
            o.push(c);
        }
    }
    std::borrow::Cow::Owned(o)
}

/// Text for a terminal.
pub fn text_safe(s: &str) -> String {
    visible_controls(s).into_owned()
}

/// Escape text for HTML content and attribute values (control characters shown as escapes).
pub fn esc(s: &str) -> String {
    let s = visible_controls(s);
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// Escape text for markdown, inside or outside a table: every character that could start
/// markup where it stands is backslash-escaped (`` ` * < | ~ \`` anywhere, `_` outside a word,
/// `# > - +` where a line starts, the `]` of `](`, `][`, `]:` and the `[` of `[^`), control
/// characters are shown as escapes: a name never becomes emphasis, a link, an HTML tag, a
/// heading, a list or a new cell, and ordinary text (`[0.5, 0.8]`, `#3`) stays readable.
pub fn md_escape(s: &str) -> String {
    md_escape_in(s, false)
}

/// [`md_escape`] for a table cell, where a leading `#` starts no heading and stays as it is.
fn md_escape_cell(s: &str) -> String {
    md_escape_in(s, true)
}

fn md_escape_in(s: &str, cell: bool) -> String {
    let s = visible_controls(s);
    let chars: Vec<char> = s.chars().collect();
    let mut o = String::with_capacity(s.len() + 4);
    let first = chars.iter().position(|c| !c.is_whitespace()).unwrap_or(0);
    for (i, &c) in chars.iter().enumerate() {
        let word = |j: Option<&char>| j.is_some_and(|c| c.is_alphanumeric());
        let next = chars.get(i + 1).copied();
        let special = match c {
            '_' => !(i > 0 && word(chars.get(i - 1)) && word(chars.get(i + 1))),
            // Only where a line starts: a heading, a quote, a list item.
            '#' | '>' | '-' | '+' => i == first && !cell,
            // A link, an image or a footnote needs `](`, `][`, `]:` or `[^`: escaping those
            // is enough, and an interval `[0.5, 0.8]` stays as it is.
            '[' => next == Some('^'),
            ']' => matches!(next, Some('(' | '[' | ':')),
            '\\' | '`' | '*' | '<' | '|' | '~' => true,
            _ => false,
        };
        if special {
            o.push('\\');
        }
        o.push(c);
    }
    o
}

/// Markdown for a code span holding any text: fenced with more backticks than it contains.
fn md_code(s: &str) -> String {
    let s = visible_controls(s).replace('|', "\\|");
    let mut run = 0;
    let mut longest = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

fn md_inline(t: &Inline) -> String {
    t.0.iter()
        .map(|s| match s {
            Span::Text(x) => md_escape(x),
            Span::Code(x) => md_code(x),
            Span::Strong(x) => format!("**{}**", md_escape(x)),
        })
        .collect()
}

fn html_inline(t: &Inline) -> String {
    t.0.iter()
        .map(|s| match s {
            Span::Text(x) => esc(x),
            Span::Code(x) => format!("<code>{}</code>", esc(x)),
            Span::Strong(x) => format!("<strong>{}</strong>", esc(x)),
        })
        .collect()
}

fn aligned(t: &Table) -> String {
    let cell = |c: &String| text_safe(c);
    let head: Vec<String> = t.head.iter().map(cell).collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(cell).collect())
        .collect();
    let width = |i: usize| {
        rows.iter()
            .filter_map(|r| r.get(i))
            .chain([&head[i]])
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..head.len()).map(width).collect();
    let mut out = String::new();
    for r in std::iter::once(&head).chain(rows.iter()) {
        let mut line = String::new();
        for (i, c) in r.iter().enumerate() {
            let pad = " ".repeat(widths[i].saturating_sub(c.chars().count()));
            if i > 0 {
                line.push_str("  ");
            }
            if i < t.labels {
                let _ = write!(line, "{c}{pad}");
            } else {
                let _ = write!(line, "{pad}{c}");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

fn markdown_table(t: &Table) -> String {
    let row = |cells: &[String]| {
        let c: Vec<String> = cells.iter().map(|c| md_escape_cell(c)).collect();
        format!("| {} |\n", c.join(" | "))
    };
    let mut out = row(&t.head);
    out.push('|');
    for i in 0..t.head.len() {
        out.push_str(if i < t.labels { " --- |" } else { " ---: |" });
    }
    out.push('\n');
    for r in &t.rows {
        out.push_str(&row(r));
    }
    out
}

fn html_table(t: &Table) -> String {
    let mut out = String::from("<div class=\"scroll\"><table class=\"sortable\">\n<thead><tr>");
    for h in &t.head {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in &t.rows {
        out.push_str("<tr>");
        for (i, c) in r.iter().enumerate() {
            let cls = if i < t.labels { "" } else { " class=\"num\"" };
            let _ = write!(out, "<td{cls}>{}</td>", esc(c));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Doc {
        let mut d = Doc::default();
        d.heading(2, Inline::text("Dataset ").code(name));
        let mut t = Table::new(&["dataset", "runs"], 1);
        t.row(vec![name.to_string(), "3".into()]);
        d.table(t);
        d.list(vec![Inline::text(name)]);
        d.note(Inline::text("from ").code(name));
        d
    }

    #[test]
    fn user_text_cannot_break_a_markdown_table_or_heading() {
        for name in [
            "a|b", "a\nb", "# x", "a<b", "`x`", "*x*", "[l](u)", "_x_", "> q", "- l", "![i](u)",
        ] {
            let md = sample(name).markdown();
            let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
            assert_eq!(table.len(), 3, "{name:?}: header, rule, one row:\n{md}");
            // Every row splits into exactly two cells on unescaped pipes.
            for l in &table {
                let cells = l
                    .char_indices()
                    .filter(|&(i, c)| c == '|' && (i == 0 || !l[..i].ends_with('\\')))
                    .count();
                assert_eq!(cells, 3, "{name:?}: {l}");
            }
            if name == "a<b" {
                assert!(md.contains("a\\<b") && !md.contains(" a<b"), "{md}");
            }
            assert!(
                md.lines().filter(|l| l.starts_with('#')).count() == 1,
                "{name:?}: one heading only: {md}"
            );
        }
    }

    #[test]
    fn markdown_escapes_keep_intraword_underscores_readable() {
        assert_eq!(md_escape("colony_size=20"), "colony_size=20");
        assert_eq!(md_escape("_x_"), "\\_x\\_");
        assert_eq!(md_escape("a|b"), "a\\|b");
        assert_eq!(md_escape("line\nbreak"), "line\\\\nbreak");
        assert_eq!(md_escape("[0.5, 0.8] #3"), "[0.5, 0.8] #3");
        assert_eq!(md_escape("# h"), "\\# h");
        assert_eq!(md_escape("[l](u)"), "[l\\](u)");
        assert_eq!(md_escape_cell("#1"), "#1");
        assert_eq!(md_code("a`b"), "``a`b``");
    }

    #[test]
    fn html_escapes_every_user_text() {
        let h = sample("a<b>&\"'").html(1);
        assert!(
            h.contains("<h3>Dataset <code>a&lt;b&gt;&amp;&quot;&#39;</code></h3>"),
            "{h}"
        );
        assert!(
            h.contains("<td>a&lt;b&gt;&amp;&quot;&#39;</td><td class=\"num\">3</td>"),
            "{h}"
        );
        assert!(!h.contains("<b>"), "{h}");
    }

    #[test]
    fn text_aligns_columns_and_shows_controls() {
        let mut d = Doc::default();
        let mut t = Table::new(&["name", "n"], 1);
        t.row(vec!["long name".into(), "1".into()]);
        t.row(vec!["x\u{1b}[2J".into(), "100".into()]);
        d.table(t);
        let s = d.text();
        assert_eq!(
            s, "name          n\nlong name     1\nx\\u{1b}[2J  100\n",
            "{s}"
        );
    }

    #[test]
    fn append_shifts_headings_and_empty_parts_add_nothing() {
        let mut inner = Doc::default();
        inner.heading(1, "Inner");
        inner.list(Vec::new());
        inner.table(Table::new(&["a"], 1));
        let mut d = Doc::default();
        d.append(inner, 2);
        assert_eq!(d.0, vec![Block::Heading(3, Inline::text("Inner"))]);
    }
}
