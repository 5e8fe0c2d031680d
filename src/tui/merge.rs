//! Re-applying an edit after a conflicting change: a three-way merge of the record's four fields
//! (the version the editor opened, the user's edit, the record as it is now). A field changed by
//! one side takes that side; a field both changed differently is a conflict the user resolves,
//! seen side by side, never a silent overwrite.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use super::keymap::{self, Action, Scope};
use super::theme::Theme;
use crate::sanitize;

/// One field both sides changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldConflict {
    pub field: usize,
    pub mine: String,
    pub theirs: String,
}

/// The outcome of a three-way merge: each field's merged value (a conflicting field holds the
/// user's value until resolved) and the conflicts, in field order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Merged {
    pub values: [String; 4],
    pub conflicts: Vec<FieldConflict>,
}

/// Merges `mine` and `theirs`, both derived from `base`, field by field.
pub(crate) fn three_way(base: &[String; 4], mine: &[String; 4], theirs: &[String; 4]) -> Merged {
    let mut conflicts = Vec::new();
    let values = std::array::from_fn(|i| {
        if mine[i] == base[i] || mine[i] == theirs[i] {
            theirs[i].clone()
        } else if theirs[i] == base[i] {
            mine[i].clone()
        } else {
            conflicts.push(FieldConflict {
                field: i,
                mine: mine[i].clone(),
                theirs: theirs[i].clone(),
            });
            mine[i].clone()
        }
    });
    Merged { values, conflicts }
}

/// Draws the first open conflict: the user's value beside the current one.
pub(crate) fn render(
    frame: &mut Frame,
    area: Rect,
    conflict: &FieldConflict,
    label: &str,
    theme: &Theme,
) {
    let key = |action| keymap::label(Scope::Merge, action);
    let title = format!(
        " both changed {label}: {} keeps yours, {} takes theirs ",
        key(Action::TakeMine),
        key(Action::TakeTheirs)
    );
    let block = Block::default().borders(Borders::TOP).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(inner);
    for (area, heading, text, style) in [
        (left, "yours", &conflict.mine, theme.added()),
        (
            right,
            "theirs (on disk now)",
            &conflict.theirs,
            theme.removed(),
        ),
    ] {
        let mut lines = vec![Line::styled(heading.to_owned(), theme.label())];
        lines.extend(
            sanitize::lines(text)
                .into_iter()
                .map(|l| Line::styled(l, style)),
        );
        let lines = super::text::wrap(lines, area.width.saturating_sub(1) as usize);
        frame.render_widget(Paragraph::new(lines), area);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(values: [&str; 4]) -> [String; 4] {
        values.map(str::to_owned)
    }

    #[test]
    fn one_sided_changes_merge_from_either_side() {
        let base = fields(["a", "user", "old", "body"]);
        let mine = fields(["a", "user", "mine", "body"]);
        let theirs = fields(["a", "project", "old", "their body"]);
        let merged = three_way(&base, &mine, &theirs);
        assert_eq!(
            merged.values,
            fields(["a", "project", "mine", "their body"])
        );
        assert!(merged.conflicts.is_empty());
    }

    #[test]
    fn a_field_both_changed_is_a_conflict_not_an_overwrite() {
        let base = fields(["a", "user", "old", "body"]);
        let mine = fields(["a", "user", "mine", "body"]);
        let theirs = fields(["a", "user", "theirs", "body"]);
        let merged = three_way(&base, &mine, &theirs);
        assert_eq!(
            merged.conflicts,
            [FieldConflict {
                field: 2,
                mine: "mine".into(),
                theirs: "theirs".into()
            }]
        );
        // the same change on both sides is no conflict
        let same = three_way(&base, &mine, &mine);
        assert!(same.conflicts.is_empty());
        assert_eq!(same.values, mine);
    }
}
