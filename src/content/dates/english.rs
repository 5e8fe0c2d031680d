//! English relative times that point at a day, a week, a month or a year, and the uses of
//! the same words that do not: idioms ("none pay tomorrow", "as it does today"), durations
//! ("in 14 days", "twice in one day"), labels and names ("the Today widget", `Tomorrow.io`,
//! `today-timeline.tsx`). When unsure, a phrase is not reported.

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::Hit;
use super::prose::{char_at, char_before, inside, line_around};
use super::relative::{Relative, Unit, english_number, weekday};

const NUMBER: &str = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";
const WEEKDAYS: &str = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";

static PHRASE: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = format!(
        r"(?ix)
        \b(?P<day>the\ day\ after\ tomorrow|the\ day\ before\ yesterday|today|tonight|tomorrow|yesterday)\b
        |\b(?P<rel>this|next|last)\s+(?P<unit>week|month|year|{WEEKDAYS})\b
        # A count ahead is a point in time only after a verb of schedule: \x22ships in two days\x22,
        # not \x22done in one week\x22, \x22expire in 14 days\x22 (a rule), \x22twice in one day\x22.
        |\b(?:is|are|starts?|begins?|ships?|launch(?:es)?|lands?|goes\ live|happens|due|scheduled|planned)\s+
          (?P<in>in\s+(?P<n_in>{NUMBER})\s+(?P<u_in>day|week|month|year)s?)\b
        |\b(?P<n_ago>{NUMBER})\s+(?P<u_ago>day|week|month|year)s?\s+ago\b"
    );
    Regex::new(&pattern).expect("a valid literal pattern")
});

/// Nouns after which a phrase names a thing on a screen or in code ("Today widget").
static LABEL_NOUN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s+(?:widgets?|views?|tabs?|screens?|pages?|buttons?|panels?|cards?|sections?|columns?|tiles?|feeds?|filters?|labels?|badges?|menus?|modes?|apps?|api|components?|panes?|dashboards?|headers?|sheets?|lists?|fields?|options?|toggles?|icons?|endpoints?|tables?|timelines?|folders?|files?|buckets?|queues?|jobs?|channels?)\b",
    )
    .expect("a valid literal pattern")
});

/// Clause openings after which "today" means "currently" ("as it does today", "than it is
/// today", "like today", "the tools of today"), or a time is generic ("none pay tomorrow").
static GENERIC_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        (?:\b(?:as|than|like)\b(?:\s+\S+){0,4}\s*$)
        |(?:\b(?:do|does|did|works?|behaves?|looks?|stands?|exists?|handles?|runs?)\s+(?:it\s+)?$)
        |(?:\bof\s+$)
        |(?:\b(?:none|nobody|no\ one|no-one|everyone|everybody|anyone|anybody|nothing|never)\b(?:\s+\S+){0,3}\s*$)
        |(?:\b(?:here|gone|no|a|better|than)\s+$)
        |(?:\b(?:today|tomorrow)\s+or\s+$)",
    )
    .expect("a valid literal pattern")
});

static GENERIC_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:\s+or\s+(?:tomorrow|today|the\ next)|'s\s+(?:world|standards?|age|era|terms|market|web|problem|news)\b|\s+never\s+comes)",
    )
    .expect("a valid literal pattern")
});

/// "the next week", "every last month", "last week of March": an order or a span, not a time.
static ORDINAL_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:the|a|an|every|each|per)\s+$").expect("a valid literal pattern")
});

/// A phrase already followed by its date: "tomorrow (2026-03-25)".
static RESOLVED_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*[(,\u{2014}\u{2013}-]\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")
        .expect("a valid literal pattern")
});

/// Every English relative time in `text` outside `not_prose`.
pub(super) fn phrases(text: &str, not_prose: &[Range<usize>]) -> Vec<Hit> {
    PHRASE
        .captures_iter(text)
        .filter_map(|caps| {
            let range = caps.name("in").or_else(|| caps.get(0))?.range();
            let meaning = meaning(&caps)?;
            (!inside(not_prose, &range) && is_a_time(text, &range, &caps))
                .then_some(Hit { range, meaning })
        })
        .collect()
}

fn meaning(caps: &Captures<'_>) -> Option<Relative> {
    let text = |name: &str| caps.name(name).map(|m| m.as_str().to_lowercase());
    let unit = |word: &str| match word {
        "day" => Unit::Day,
        "week" => Unit::Week,
        "month" => Unit::Month,
        _ => Unit::Year,
    };
    if let Some(word) = text("day") {
        return Some(Relative::Day(match word.as_str() {
            "the day after tomorrow" => 2,
            "the day before yesterday" => -2,
            "tomorrow" => 1,
            "yesterday" => -1,
            _ => 0,
        }));
    }
    if let (Some(rel), Some(word)) = (text("rel"), text("unit")) {
        let step = match rel.as_str() {
            "next" => 1,
            "last" => -1,
            _ => 0,
        };
        return Some(match word.as_str() {
            "week" => Relative::Week(step),
            "month" => Relative::Month(step),
            "year" => Relative::Year(step),
            day => Relative::Weekday {
                weeks: step,
                day: weekday(day)?,
            },
        });
    }
    if let (Some(n), Some(u)) = (text("n_in"), text("u_in")) {
        return Some(Relative::Offset {
            count: english_number(&n)?,
            unit: unit(&u),
        });
    }
    let (n, u) = (text("n_ago")?, text("u_ago")?);
    Some(Relative::Offset {
        count: -english_number(&n)?,
        unit: unit(&u),
    })
}

/// Whether the phrase at `range` is a time a person wrote, not part of a name, a label or an
/// idiom.
fn is_a_time(text: &str, range: &Range<usize>, caps: &Captures<'_>) -> bool {
    let phrase = &text[range.clone()];
    let (line_start, _) = line_around(text, range.start);
    let before_on_line = &text[line_start..range.start];
    let after = &text[range.end..];
    if part_of_a_name(text, range) || quoted_alone(text, range) {
        return false;
    }
    let mut letters = phrase.chars();
    let capitalised = letters.next().is_some_and(char::is_uppercase)
        && letters.next().is_some_and(char::is_lowercase);
    if capitalised && !starts_a_sentence(before_on_line) {
        return false;
    }
    if LABEL_NOUN.is_match(after) || RESOLVED_AFTER.is_match(after) {
        return false;
    }
    // The clause may start on an earlier line of the paragraph (wrapped prose).
    let paragraph = text[..range.start].rfind("\n\n").map_or(0, |i| i + 2);
    let before_in_paragraph = &text[paragraph..range.start];
    let clause_start = before_in_paragraph
        .rfind(['.', ';', '!', '?', ',', ':'])
        .map_or(0, |i| i + 1);
    let clause_before = &before_in_paragraph[clause_start..];
    if caps.name("rel").is_some() {
        let last_of = caps
            .name("rel")
            .is_some_and(|m| m.as_str().eq_ignore_ascii_case("last"))
            && after.trim_start().to_lowercase().starts_with("of ");
        return !(ORDINAL_BEFORE.is_match(clause_before) || last_of);
    }
    if caps.name("day").is_some() {
        let as_of = clause_before.to_lowercase().trim_end().ends_with("as of");
        if (GENERIC_BEFORE.is_match(clause_before) && !as_of) || GENERIC_AFTER.is_match(after) {
            return false;
        }
    }
    true
}

/// Attached to a name: `today-timeline`, `Tomorrow.io`, `next_week`, `$today`, `{today}`,
/// `today()`, `/tomorrow/`.
fn part_of_a_name(text: &str, range: &Range<usize>) -> bool {
    let before = char_before(text, range.start);
    let after = char_at(text, range.end);
    let after_next = after.and_then(|c| char_at(text, range.end + c.len_utf8()));
    let joins = |c: char| "-_/\\@#$%{}<>=~+|".contains(c);
    if before.is_some_and(|c| joins(c) || c == '.' || c.is_alphanumeric()) {
        return true;
    }
    match after {
        Some(c) if joins(c) || c == '(' || c == '[' || c.is_alphanumeric() => true,
        Some('.' | ':') => after_next.is_some_and(char::is_alphanumeric),
        _ => false,
    }
}

/// The phrase alone in quotes: `"Today"`, `'Tomorrow'`, `“Today”`: a label.
fn quoted_alone(text: &str, range: &Range<usize>) -> bool {
    let before = char_before(text, range.start);
    let after = char_at(text, range.end);
    matches!(
        (before, after),
        (Some('"'), Some('"'))
            | (Some('\''), Some('\''))
            | (Some('\u{201C}'), Some('\u{201D}'))
            | (Some('\u{2018}'), Some('\u{2019}'))
            | (Some('*'), Some('*'))
    )
}

/// Whether a phrase after `before` (the text before it on its line) opens a sentence, a list
/// item, a heading, a table cell or a quotation.
fn starts_a_sentence(before: &str) -> bool {
    let trimmed = before.trim_end_matches(|c: char| c.is_whitespace() || c == '*' || c == '_');
    match trimmed.chars().next_back() {
        None => true,
        Some(c) => ".!?:;(-+>#|[\u{2014}\u{2013}\"\u{201C}".contains(c) || c.is_ascii_digit(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::dates::check_matcher;

    #[test]
    fn english_points_in_time_are_found() {
        check_matcher(
            phrases,
            &[
                ("Release moved to next Thursday.", "next Thursday"),
                ("Tomorrow we cut the branch.", "Tomorrow"),
                ("- Yesterday the deploy failed twice.", "Yesterday"),
                ("The freeze starts tomorrow.", "tomorrow"),
                ("We merged it 3 weeks ago.", "3 weeks ago"),
                ("The migration ships in two days.", "in two days"),
                ("As of today, v1 is read-only.", "today"),
                ("Sprint review this week: demo the importer.", "this week"),
                ("Planned for next week.", "next week"),
                ("tomorrow's release needs the flag", "tomorrow"),
                ("1. Today: rotate the key.", "Today"),
            ],
            &[],
        );
    }

    #[test]
    fn idioms_durations_labels_and_names_are_not() {
        check_matcher(
            phrases,
            &[],
            &[
                "Of the trial users, none pay tomorrow either.",
                "Of the trial users, none\n  pay tomorrow either.",
                "Keep the output exactly as it does today.",
                "The parser handles it better than it does today.",
                "The import finished in one week.",
                "Refresh tokens expire in 14 days.",
                "It crashed twice in one day.",
                "The Today widget shows the agenda.",
                "Today widget: shows the agenda.",
                "Weather comes from the Tomorrow.io API.",
                "See `today-timeline.tsx` for the layout.",
                "See today-timeline.tsx for the layout.",
                "The `Tomorrow.io` key lives in the vault.",
                "Call `getToday()` instead of new Date().",
                "Label the tab \"Today\" in the UI.",
                "```\nrelease tomorrow\n```",
                "The last week of each sprint is for fixes.",
                "Over the next month the quota doubles.",
                "Links: https://example.com/tomorrow/plan",
                "The apps of today expect dark mode.",
                "Ship it today or tomorrow, whichever.",
                "Deploy tomorrow (2026-03-25) after the freeze.",
                "nextweek",
                "weekly sync",
                "a week",
            ],
        );
    }
}
