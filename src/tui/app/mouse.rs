//! The mouse: a click focuses the pane under the pointer (and selects the row there), the wheel
//! scrolls what is under it.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

use super::{App, View};
use crate::tui::panes::Pane;

impl App {
    fn pane_at(&self, at: Position) -> Option<Pane> {
        Pane::ALL
            .into_iter()
            .find(|pane| self.areas.pane(*pane).contains(at))
    }

    pub(super) fn mouse(&mut self, mouse: MouseEvent) {
        if self.modal.is_some() {
            match mouse.kind {
                MouseEventKind::ScrollDown => self.scroll_modal(true),
                MouseEventKind::ScrollUp => self.scroll_modal(false),
                _ => {}
            }
            return;
        }
        if self.editor.is_some() {
            return;
        }
        let at = Position {
            x: mouse.column,
            y: mouse.row,
        };
        let down = match mouse.kind {
            MouseEventKind::ScrollDown => true,
            MouseEventKind::ScrollUp => false,
            MouseEventKind::Down(MouseButton::Left) => {
                if self.view == View::Panes {
                    let Some(pane) = self.pane_at(at) else {
                        return;
                    };
                    self.focus = pane;
                }
                self.active_mut().click(at);
                return;
            }
            _ => return,
        };
        if self.view == View::Panes {
            let Some(pane) = self.pane_at(at) else {
                return;
            };
            self.pane_mut(pane).scroll(down);
        } else {
            self.active_mut().scroll(down);
        }
    }
}
