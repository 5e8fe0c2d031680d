//! Styles. With `NO_COLOR` set (to anything non-empty) only modifiers are used.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set and non-empty (<https://no-color.org>).
    pub fn from_env() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self { color: !no_color }
    }

    pub fn plain() -> Self {
        Self { color: false }
    }

    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::default().fg(color)
        } else {
            Style::default()
        }
    }

    pub fn border(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            (true, false) => Style::default().add_modifier(Modifier::BOLD),
            (false, _) => self.fg(Color::DarkGray),
        }
    }

    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    pub fn ok(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn error(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn warning(&self) -> Style {
        self.fg(Color::Yellow)
    }

    pub fn dim(&self) -> Style {
        if self.color {
            self.fg(Color::DarkGray)
        } else {
            Style::default().add_modifier(Modifier::DIM)
        }
    }

    pub fn key(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    pub fn label(&self) -> Style {
        self.fg(Color::Blue).add_modifier(Modifier::BOLD)
    }

    pub fn added(&self) -> Style {
        if self.color {
            self.fg(Color::Green)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        }
    }

    pub fn removed(&self) -> Style {
        if self.color {
            self.fg(Color::Red)
        } else {
            Style::default().add_modifier(Modifier::CROSSED_OUT)
        }
    }

    /// The style of something said in `tone`.
    pub fn tone(&self, tone: crate::formats::Tone) -> Style {
        match tone {
            crate::formats::Tone::Ok => self.ok(),
            crate::formats::Tone::Warning => self.warning(),
            crate::formats::Tone::Error => self.error(),
            crate::formats::Tone::Dim => self.dim(),
        }
    }

    /// A memory's type: each of the four types every format knows in its colour, any
    /// other as a label.
    pub fn kind(&self, kind: &str) -> Style {
        match kind {
            "user" => self.fg(Color::Magenta),
            "feedback" => self.fg(Color::Yellow),
            "project" => self.fg(Color::Blue),
            "reference" => self.fg(Color::Cyan),
            _ => self.label(),
        }
    }
}
