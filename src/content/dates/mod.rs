//! `relative-date` and `date-past`: times that were true when written.
//!
//! A relative time ("next Thursday", "明天", "下周三", "다음 주", "来週") in a project or
//! feedback memory is reported only where it points at a day, a week, a month or a year
//! (not in an idiom, a duration, a label, a name or code: [`english`], [`cjk`]), resolved
//! from the best evidence of when it was written ([`written`]), and the audit suggests that
//! absolute date and says where the day came from. Weeks start on Monday: "next Thursday"
//! and "下周四" are the Thursday of the following week, "this Thursday" and "本周四" that of
//! the same week.

mod cjk;
mod deadline;
mod english;
mod prose;
mod relative;
mod written;

use std::ops::Range;
use std::time::SystemTime;

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ZonedDateTime};

pub(super) use deadline::past_deadlines;

use super::fix::{DateEdit, DateField, Fix};
use super::{AuditFinding, Memory, finding, line_at};
use crate::finding::Severity;
use crate::store::MemoryType;
use relative::Relative;

/// Today, and the zone in which file times become calendar days.
#[derive(Debug, Clone)]
pub struct Clock {
    pub today: Date,
    pub zone: TimeZone,
}

impl Clock {
    pub fn system() -> Self {
        let now = ZonedDateTime::now();
        Self {
            today: now.date(),
            zone: now.time_zone().clone(),
        }
    }

    pub fn fixed(today: Date, zone: TimeZone) -> Self {
        Self { today, zone }
    }

    fn day_of(&self, time: SystemTime) -> Option<Date> {
        let stamp = Timestamp::try_from(time).ok()?;
        Some(self.zone.to_datetime(stamp).date())
    }
}

/// One relative time found in a text: its bytes and what it means.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Hit {
    range: Range<usize>,
    meaning: Relative,
}

/// Every relative time in a project or feedback memory.
pub(super) fn relative_dates(memory: &Memory, clock: &Clock) -> Vec<AuditFinding> {
    if !matches!(
        memory.memory_type(),
        Some(MemoryType::Project | MemoryType::Feedback)
    ) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let fields = [DateField::Description, DateField::Body];
    for (field, (text, first_line)) in fields.into_iter().zip(memory.texts()) {
        let not_prose = prose::not_prose(text);
        let mut hits = english::phrases(text, &not_prose);
        hits.extend(cjk::phrases(text, &not_prose));
        hits.sort_by_key(|hit| hit.range.start);
        for hit in hits {
            let phrase = &text[hit.range.clone()];
            let line = line_at(text, hit.range.start, first_line);
            let at = line.map(|l| format!(" on line {l}")).unwrap_or_default();
            let when = written::written(memory, text, hit.range.start, first_line, clock);
            let resolved = when
                .as_ref()
                .and_then(|w| Some((w, hit.meaning.resolve(w.day)?)));
            let (message, fix) = match resolved {
                Some((when, resolved)) => (
                    format!(
                        "{phrase:?}{at} will be wrong tomorrow; written {} {}, it means {}",
                        when.day,
                        when.evidence,
                        resolved.text()
                    ),
                    Some(Fix::AbsoluteDate(DateEdit {
                        phrase: phrase.to_owned(),
                        absolute: resolved.text(),
                        field,
                        at: hit.range.start,
                    })),
                ),
                None => (
                    format!("{phrase:?}{at} will be wrong tomorrow; write the date it means"),
                    None,
                ),
            };
            out.push(finding(
                memory,
                "relative-date",
                Severity::Warning,
                line,
                message,
                fix,
            ));
        }
    }
    out
}

/// Checks a matcher: each text of `found` yields exactly its phrase, each of `not_found`
/// none.
#[cfg(test)]
fn check_matcher(
    phrases: fn(&str, &[Range<usize>]) -> Vec<Hit>,
    found: &[(&str, &str)],
    not_found: &[&str],
) {
    let matched = |text: &str| -> Vec<String> {
        phrases(text, &prose::not_prose(text))
            .into_iter()
            .map(|hit| text[hit.range].to_owned())
            .collect()
    };
    for (text, phrase) in found {
        assert_eq!(matched(text), [*phrase], "{text}");
    }
    for text in not_found {
        assert_eq!(matched(text), Vec::<String>::new(), "{text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::fix::apply_date_edits;

    fn project(file: &str, description: &str, body: &str) -> Memory {
        Memory {
            name: "m".into(),
            name_from_file: false,
            extra: None,
            position: None,
            unreadable: None,
            kind: Some("project".into()),
            description: Some(description.into()),
            body: body.into(),
            file: file.into(),
            description_line: Some(3),
            body_line: 6,
            // 2026-04-20, as a clone months later would leave it.
            modified: Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_776_643_200)),
            journaled: None,
            frontmatter: None,
        }
    }

    fn clock() -> Clock {
        Clock::fixed(Date::new(2026, 12, 1).unwrap(), TimeZone::UTC)
    }

    #[test]
    fn the_fix_replaces_the_phrase_found_and_nothing_else() {
        let memory = project(
            "project_weather.md",
            "Weather from the tomorrow.io API",
            "Use the `tomorrow` flag of the tomorrow.io client.\nRotate the key tomorrow.",
        );
        let found = relative_dates(&memory, &clock());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].finding.line, Some(7));
        let Some(Fix::AbsoluteDate(edit)) = &found[0].fix else {
            panic!("no date fix: {found:?}");
        };
        let (mut description, mut body) = (memory.description().to_owned(), memory.body.clone());
        assert_eq!(apply_date_edits(&[edit], &mut description, &mut body), 1);
        assert_eq!(description, memory.description());
        assert_eq!(
            body,
            "Use the `tomorrow` flag of the tomorrow.io client.\nRotate the key 2026-04-21."
        );
    }

    #[test]
    fn the_message_names_the_evidence_of_when_it_was_written() {
        let memory = project(
            "project_sprint_2026-03-24.md",
            "",
            "Demo the importer this week.",
        );
        let found = relative_dates(&memory, &clock());
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].finding.message,
            "\"this week\" on line 6 will be wrong tomorrow; written 2026-03-24 per the file name, it means the week of 2026-03-23"
        );
    }

    #[test]
    fn an_edit_whose_phrase_moved_is_not_applied() {
        let edit = DateEdit {
            phrase: "tomorrow".into(),
            absolute: "2026-04-21".into(),
            field: DateField::Body,
            at: 0,
        };
        // The body gained two words before the phrase since the check.
        let (mut description, mut body) = (String::new(), "Now tomorrow".to_owned());
        assert_eq!(apply_date_edits(&[&edit], &mut description, &mut body), 0);
        assert_eq!(body, "Now tomorrow");
    }

    #[test]
    fn user_and_reference_memories_are_not_checked() {
        let mut memory = project("user_tz.md", "", "Moved to Berlin yesterday.");
        memory.kind = Some("user".into());
        assert!(relative_dates(&memory, &clock()).is_empty());
    }
}
