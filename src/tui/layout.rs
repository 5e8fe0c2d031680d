//! Where everything goes on the screen. The app keeps the last [`Areas`] for the mouse; the
//! drawing code ([`super::ui`]) computes them. Neither depends on the other for it.

use ratatui::layout::{Constraint, Layout, Rect};

use super::panes::Pane;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Areas {
    pub manifest: Rect,
    pub record: Rect,
    pub index: Rect,
    pub query: Rect,
    pub status: Rect,
    pub hints: Rect,
    /// A view (Proposals, History): the list, and the selected item's detail (or the editor).
    pub list: Rect,
    pub detail: Rect,
}

impl Areas {
    pub fn pane(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Manifest => self.manifest,
            Pane::Record => self.record,
            Pane::Index => self.index,
            Pane::Query => self.query,
        }
    }

    fn pane_mut(&mut self, pane: Pane) -> &mut Rect {
        match pane {
            Pane::Manifest => &mut self.manifest,
            Pane::Record => &mut self.record,
            Pane::Index => &mut self.index,
            Pane::Query => &mut self.query,
        }
    }
}

/// The body, the status line and the hints bar.
fn frame_rows(area: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// The four panes. A zoomed pane takes the whole body; the editor takes the whole right column
/// (it needs the room more than MEMORY.md does).
pub(crate) fn layout(area: Rect, focus: Pane, zoom: bool, editing: bool) -> Areas {
    let [body, status, hints] = frame_rows(area);
    let mut areas = Areas {
        status,
        hints,
        ..Areas::default()
    };
    if zoom && !editing {
        *areas.pane_mut(focus) = body;
        return areas;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body);
    let [manifest, query] =
        Layout::vertical([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(left);
    areas.manifest = manifest;
    areas.query = query;
    if editing {
        areas.record = right;
    } else {
        let [record, index] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
        areas.record = record;
        areas.index = index;
    }
    areas
}

/// A view (Proposals, History): the list on top (at most a third of the body), the detail of
/// the selected item below, full width.
pub(crate) fn view_layout(area: Rect, rows: usize) -> Areas {
    let [body, status, hints] = frame_rows(area);
    let [list, detail] = split_view(body, rows);
    Areas {
        status,
        hints,
        list,
        detail,
        ..Areas::default()
    }
}

/// A view's body: the list (`rows` rows and its frame, at most a third), the detail below.
pub(crate) fn split_view(body: Rect, rows: usize) -> [Rect; 2] {
    let most = (body.height / 3).max(4);
    let want = (rows as u16).saturating_add(2).clamp(4, most);
    Layout::vertical([Constraint::Length(want), Constraint::Min(3)]).areas(body)
}

/// A `width` × `height` rectangle in the middle of `area` (clipped to it).
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}
