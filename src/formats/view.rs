//! The workbench's panes in neutral terms: what each backend makes of its folder for the
//! list, memory and index panes (built in `src/formats/<name>/view.rs`), so that one pane
//! draws every format and never asks which one it is. Text here is as read (untrusted): the
//! pane makes it safe to print.

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
