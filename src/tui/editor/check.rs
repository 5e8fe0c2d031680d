//! The rules of the set a save must also pass, checked live beside the record's own rules, so
//! that "✓ valid" is never followed by a refusal: a name another record has, and the index
//! (MEMORY.md) over its line or byte budget with this edit in it.

use crate::store::Record;
use crate::store::index;
use crate::store::inspect::Inspection;

/// Why saving `edited` (replacing `base`, or added when `None`) into the set `inspection` shows
/// would be refused, if it would.
pub fn set_refusal(
    inspection: &Inspection,
    base: Option<&Record>,
    edited: &Record,
) -> Option<String> {
    let others: Vec<(&str, &Record)> = inspection
        .entries
        .iter()
        .filter_map(|e| e.record().map(|r| (e.file.as_str(), r)))
        .filter(|(_, r)| base.is_none_or(|b| b.name() != r.name()))
        .collect();
    if others.iter().any(|(_, r)| r.name() == edited.name()) {
        return Some(format!(
            "name: another record is already named {:?}",
            edited.name()
        ));
    }
    // The engine names the file `<name>-<32 hex>.md`; the length is what the budget counts.
    let file = format!("{}-{}.md", edited.name(), "0".repeat(32));
    let text = index::render(others.into_iter().chain([(file.as_str(), edited)]));
    let (lines, bytes) = index::measure(&text);
    let budget = inspection.budget;
    if lines > budget.max_index_lines || bytes > budget.max_index_bytes {
        return Some(format!(
            "index: MEMORY.md would be {lines}/{} lines, {bytes}/{} bytes",
            budget.max_index_lines, budget.max_index_bytes
        ));
    }
    None
}

/// Whether `used` of `max` is at least 95%: the gauge's warning colour.
pub fn near(used: usize, max: usize) -> bool {
    max > 0 && used * 100 >= max * 95
}
