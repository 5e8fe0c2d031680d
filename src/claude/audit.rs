//! The audit of a Claude Code folder: what Claude Code will not load, what the index gets
//! wrong, and which topic files break the conventions the agent is told to follow.

use super::folder::{CONSOLIDATE_LOCK, IndexFile, Snapshot, Topic, TopicContent};
use super::frontmatter::{Frontmatter, KNOWN_TYPES};
use super::frontmatter_lint::{name_is_blank, quoting_fix, truncated_values};
use super::index::{CutBy, INDEX_FILE, LONG_LINE, LineKind, Load, ParsedIndex};
use crate::finding::{Finding, Severity};

/// A finding about `file`, as the audit reports most.
fn about(code: &'static str, severity: Severity, file: &str, message: String) -> Finding {
    Finding::new(code, severity, Some(file.to_owned()), message)
}

use Severity::{Error, Warning};

pub fn audit(snapshot: &Snapshot) -> Vec<Finding> {
    let mut out = Vec::new();
    match &snapshot.index {
        IndexFile::Read(index) => audit_index(snapshot, index, &mut out),
        IndexFile::Unreadable(why) => {
            out.push(about("file-unreadable", Error, INDEX_FILE, why.clone()))
        }
        IndexFile::Missing => {}
    }
    for topic in &snapshot.topics {
        audit_topic(snapshot, topic, &mut out);
    }
    if let Some(lock) = &snapshot.consolidation
        && lock.live
    {
        out.push(about(
            "consolidation-running",
            Warning,
            CONSOLIDATE_LOCK,
            format!(
                "a consolidation (process {}) is rewriting this folder now; what you read may change under you",
                lock.pid
            ),
        ));
    }
    out
}

fn audit_index(snapshot: &Snapshot, index: &ParsedIndex, out: &mut Vec<Finding>) {
    if let Some(by) = index.cut_by {
        out.push(truncated(snapshot, index, by));
    }
    for line in &index.lines {
        match &line.kind {
            LineKind::Entry { target, file, .. }
                if !file.as_deref().is_some_and(|f| snapshot.links_somewhere(f)) =>
            {
                out.push(
                    about(
                        "index-dangling",
                        Error,
                        INDEX_FILE,
                        format!("the entry links to {target}, which is not a topic file here"),
                    )
                    .at(line.number),
                );
            }
            LineKind::Text => out.push(
                about(
                    "index-content",
                    Warning,
                    INDEX_FILE,
                    "memory content in the index (not an entry, heading or blank line); it belongs in a topic file".into(),
                )
                .at(line.number),
            ),
            _ => {}
        }
        let length = line.text.trim_end_matches('\r').chars().count();
        if length > LONG_LINE && line.load != Load::Stripped {
            out.push(
                about(
                    "index-line-long",
                    Warning,
                    INDEX_FILE,
                    format!("the line is {length} characters, over {LONG_LINE}: one short line per memory"),
                )
                .at(line.number),
            );
        }
    }
}

fn truncated(snapshot: &Snapshot, index: &ParsedIndex, by: CutBy) -> Finding {
    let limits = index.limits;
    let dropped: Vec<_> = index.dropped_entries().collect();
    let mut cut: Vec<String> = Vec::new();
    for file in dropped.iter().filter_map(|l| l.entry_file()) {
        if snapshot.topic(file).is_some() && !cut.iter().any(|c| c == file) {
            cut.push(file.to_owned());
        }
    }
    let limit = match by {
        CutBy::Lines => format!("{} lines", limits.lines),
        CutBy::Size => format!("{} {}", limits.size, limits.unit.label()),
    };
    let mut finding = about(
        "index-truncated",
        Error,
        INDEX_FILE,
        format!(
            "Claude Code stops loading MEMORY.md at {limit} ({} lines, {} {} after stripping); {} entries past the cut are not loaded",
            index.counted_lines,
            index.counted_size,
            limits.unit.label(),
            dropped.len()
        ),
    );
    if let Some(first) = index.cut_at() {
        finding.line = Some(index.lines[first].number);
    }
    finding.cut = Some(cut);
    finding
}

fn audit_topic(snapshot: &Snapshot, topic: &Topic, out: &mut Vec<Finding>) {
    let file = topic.file.as_str();
    let parsed = match &topic.content {
        TopicContent::Read(parsed) => parsed,
        TopicContent::Unreadable(why) => {
            out.push(about("file-unreadable", Error, file, why.clone()));
            return;
        }
    };
    if !snapshot.is_listed(file) {
        out.push(about(
            "index-unlisted",
            Warning,
            file,
            "no index entry links to this file: the agent finds it only by searching".into(),
        ));
    }
    match &parsed.frontmatter {
        Frontmatter::Missing => out.push(about(
            "frontmatter-missing",
            Warning,
            file,
            "no frontmatter: a memory without name, description or type".into(),
        )),
        // Claude Code never parses a topic file (the model reads it as text), so broken YAML
        // changes nothing the agent sees: hygiene, not an error.
        Frontmatter::Invalid { line, message } => {
            let fix = quoting_fix(&parsed.raw, *line)
                .map(|fixed| format!("; quote the value: {fixed}"))
                .unwrap_or_default();
            out.push(
                about(
                    "frontmatter-invalid",
                    Warning,
                    file,
                    format!("the frontmatter is not valid YAML: {message}{fix}"),
                )
                .at(*line),
            );
        }
        Frontmatter::Fields(_) => {
            let mut missing = Vec::new();
            for (field, present) in [
                ("name", parsed.field("name").is_some()),
                ("description", parsed.field("description").is_some()),
                ("type", parsed.kind().is_some()),
            ] {
                if !present {
                    missing.push(field);
                }
            }
            if !missing.is_empty() {
                out.push(about(
                    "field-missing",
                    Warning,
                    file,
                    format!("the frontmatter lacks {}", missing.join(", ")),
                ));
            }
            if name_is_blank(parsed) {
                out.push(about(
                    "name-empty",
                    Warning,
                    file,
                    format!(
                        "the name is empty (Claude Code writes name: \"\" for a name it cannot make ASCII); memwb shows the file name {:?} instead",
                        topic.stem()
                    ),
                ));
            }
            for cut in truncated_values(parsed) {
                out.push(
                    about(
                        "value-truncated",
                        Warning,
                        file,
                        format!(
                            "YAML reads {} as {:?}: the unquoted \" #\" starts a comment that drops the rest; quote the value: {}",
                            cut.key, cut.read, cut.fix
                        ),
                    )
                    .at(cut.line),
                );
            }
            if let Some(kind) = parsed.kind()
                && !KNOWN_TYPES.contains(&kind)
            {
                out.push(about(
                    "type-unknown",
                    Warning,
                    file,
                    crate::store::RecordError::Type(kind.to_owned()).to_string(),
                ));
            }
        }
    }
    for (offset, target) in wiki_links(&parsed.body) {
        let known = snapshot
            .topics
            .iter()
            .any(|t| t.name() == target || t.stem() == target);
        if !known {
            out.push(
                about(
                    "link-dangling",
                    Warning,
                    file,
                    format!("[[{target}]] matches no topic file's name or file name"),
                )
                .at(parsed.body_line + offset),
            );
        }
    }
}

/// `[[target]]` links (`[[target|label]]`, `[[target#part]]` link to `target`), each with its
/// line offset in `text`.
pub(crate) fn wiki_links(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    for (offset, line) in text.split('\n').enumerate() {
        let mut rest = line;
        while let Some(start) = rest.find("[[") {
            let after = &rest[start + 2..];
            let Some(end) = after.find("]]") else { break };
            let inner = &after[..end];
            let target = inner.split(['|', '#']).next().unwrap_or("").trim();
            if !target.is_empty() {
                links.push((offset, target.to_owned()));
            }
            rest = &after[end + 2..];
        }
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wiki_links_are_found_with_their_line() {
        assert_eq!(
            wiki_links("a [[x]] b [[y|label]]\nc [[z#p]] [[ ]]"),
            vec![(0, "x".into()), (0, "y".into()), (1, "z".into())]
        );
    }
}
