//! The workbench's panes in neutral terms: what each backend makes of its folder for the
//! list, memory and index panes (built in `src/formats/<name>/view.rs`), so that one pane
//! draws every format and never asks which one it is. Text here is as read (untrusted): the
//! pane makes it safe to print.

use crate::finding::{Finding, Severity};

/// How a heading, a row or a line is to be taken (the front end picks its style).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Ok,
    Warning,
    Error,
    /// Said, but not a problem (a line an agent is not given).
    Dim,
}

/// The index pane: the index file as the format's rules read it, line by line, under a
/// heading that says how it stands; and the index's use of its budget (the list's gauges).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexView {
    /// How the index stands, in words ("in sync", "CUT, 200 lines loaded").
    pub heading: String,
    pub tone: Tone,
    /// The fix is rebuilding it: the front end names its key after the words.
    pub rebuildable: bool,
    pub lines: Vec<IndexLine>,
    pub gauges: Vec<Gauge>,
}

/// One line of the index pane, as read (untrusted: redact and sanitize before drawing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    pub mark: IndexMark,
    pub text: String,
}

/// What a line of the index pane is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexMark {
    /// As it should be.
    Same,
    /// Only in the file on disk (the fix removes it).
    OnlyOnDisk,
    /// Only in the index the set derives (the fix adds it).
    OnlyDerived,
    /// An entry whose file is not there.
    Dangling,
    /// A line that is no entry where the format wants entries.
    Content,
    /// A line an agent is not given (stripped, or past the load cut).
    NotLoaded,
    /// Where loading stops.
    Cut,
    /// A memory file no entry lists.
    Unlisted,
}

impl IndexMark {
    /// Whether the line is one `n`/`N` stop at: anything not as it should be.
    pub fn is_drift(self) -> bool {
        self != Self::Same
    }
}

/// How much of a limit something uses (`used` may be over `max`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gauge {
    pub label: String,
    pub used: usize,
    pub max: usize,
}

impl IndexView {
    /// A view with nothing to show (before the first reading).
    pub fn empty() -> Self {
        Self {
            heading: String::new(),
            tone: Tone::Ok,
            rebuildable: false,
            lines: Vec::new(),
            gauges: Vec::new(),
        }
    }
}

impl Default for IndexView {
    fn default() -> Self {
        Self::empty()
    }
}

/// A line diff of two texts: `' '` kept, `'-'` only in the first, `'+'` only in the second.
pub(crate) fn drift(first: &str, second: &str) -> Vec<(char, String)> {
    similar::TextDiff::from_lines(first, second)
        .iter_all_changes()
        .map(|c| {
            let marker = match c.tag() {
                similar::ChangeTag::Equal => ' ',
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
            };
            (marker, c.value().trim_end_matches('\n').to_owned())
        })
        .collect()
}

/// One row of the list pane, as read (untrusted: the pane makes it safe to print).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListRow<'a> {
    /// The memory's name (a file that does not read: its file).
    pub name: &'a str,
    /// Its type, where it reads and has one.
    pub kind: Option<&'a str>,
    /// Its description (its file where it has none); why, where it does not read.
    pub about: String,
    pub state: RowState,
    /// What else a person should know of it at a glance ("unlisted").
    pub notes: Vec<&'static str>,
}

/// How a list row's memory stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowState {
    /// It reads: with the worst of the format's own findings about it (`None`: none), and
    /// whether its index entry is past the load cut (an agent is not given it).
    Reads {
        health: Option<Severity>,
        past_cut: bool,
    },
    /// The file does not parse as a memory.
    Invalid,
    /// Listed, but the file is not there.
    Missing,
    /// Listed, but it resolves outside the folder.
    Escapes,
    /// Listed under a name the format refuses.
    UnsafeName,
    /// Listed, but not a regular file.
    NotAFile,
    /// It could not be read.
    Unreadable,
}

impl RowState {
    /// The mark and word of a state that is not `Reads`.
    pub fn mark_and_word(self) -> (&'static str, &'static str) {
        match self {
            Self::Reads { .. } => ("✓", "valid"),
            Self::Invalid => ("✗", "invalid"),
            Self::Missing => ("?", "missing"),
            Self::Escapes => ("↗", "escapes"),
            Self::UnsafeName => ("!", "unsafe name"),
            Self::NotAFile => ("✗", "not a file"),
            Self::Unreadable => ("✗", "unreadable"),
        }
    }

    /// Whether the memory reads.
    pub fn reads(self) -> bool {
        matches!(self, Self::Reads { .. })
    }
}

/// What the list pane shows around its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListView {
    /// Why the set as a whole does not read, each said above the rows.
    pub problems: Vec<String>,
    /// What the list says when the folder holds no memory.
    pub empty: &'static str,
    /// The heading above the files in the folder that are not in the set.
    pub strays_heading: &'static str,
    /// The folder's state below the list (a lock, a consolidation running).
    pub state: Option<StateLine>,
    /// The Findings view's marks get a column of their own beside the rows' states; `false`
    /// where a row's state is already the worst of the format's own findings (they fold into
    /// it).
    pub marks_beside: bool,
}

/// A file in the folder that is not in the set, as the list shows it below its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stray {
    /// Its file, relative to the memory folder (as read: untrusted).
    pub file: String,
    /// What it is, in a word ("unlisted").
    pub label: &'static str,
    /// What it is, in words.
    pub what: &'static str,
    /// Whether it may be adopted into the set when it reads as a memory (else it can only be
    /// deleted).
    pub adoptable: bool,
}

/// One line about the folder's state: a label, then the words in their tone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateLine {
    pub label: Option<&'static str>,
    pub words: String,
    pub tone: Tone,
}

/// The memory pane: one memory as its format reads it. Text is as read; the builder redacts
/// what an agent wrote (credentials are drawn redacted, as the audit reports them) and the
/// pane makes it safe to print.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryView {
    /// The name the title shows (a file that does not read: its file).
    pub name: String,
    /// Its file, relative to the memory folder.
    pub file: String,
    /// What else the title says of it ("no name: file name shown").
    pub notes: Vec<&'static str>,
    /// The lines above its findings: its fields, or what is wrong with it.
    pub head: Vec<HeadLine>,
    /// The format's own findings about it (the front end adds the set's last check).
    pub findings: Vec<Finding>,
    /// Why it does not read, when it does not: a finding saying only that is not listed again.
    pub reason: Option<String>,
    /// Said below the findings (a memory an agent is not given, and why).
    pub after: Vec<(String, Tone)>,
    /// The text below the rule (`None`: none is shown).
    pub text: Option<MemoryText>,
    /// The file line holding the description, and the line of `head` that shows it.
    pub description_at: Option<(usize, usize)>,
}

/// The text a memory pane shows below its fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryText {
    pub text: String,
    /// The file line on which `text` starts.
    pub first_line: usize,
    /// Shown with line numbers, the line at fault marked (`Some(None)`: no line is).
    pub numbered: Option<Option<usize>>,
}

/// A line above a memory's findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadLine {
    /// A whole line in its tone ("✗ invalid").
    Said(String, Tone),
    /// A label (indented by `depth`), then its value: lines of segments, the first beside the
    /// label, the others below it.
    Field {
        label: String,
        depth: usize,
        value: Vec<Segment>,
    },
}

/// Part of a field's value, and how it looks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub text: String,
    pub look: Look,
}

/// How a segment looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Plain,
    Tone(Tone),
    /// A memory's type, in its colour.
    Kind,
}

impl HeadLine {
    /// `label` then `value`, plain.
    pub fn field(label: &str, value: &str) -> Self {
        Self::toned(label, value, Look::Plain)
    }

    /// `label` then `value`, looking as `look` says.
    pub fn toned(label: &str, value: &str, look: Look) -> Self {
        Self::Field {
            label: label.to_owned(),
            depth: 0,
            value: vec![Segment {
                text: value.to_owned(),
                look,
            }],
        }
    }
}
