//! When a relative phrase was written, from the best evidence the memory holds. A file's
//! mtime is the weakest: a clone or a copy resets it, so "this week" in
//! `standup_2026-03-24.md` cloned in April would read as April. In order:
//!
//! 1. a date opening the phrase's line (`- 2026-03-24: deploy tomorrow`) or in the nearest
//!    heading above it (`## 2026-03-24`), or a date in the file name;
//! 2. the `modified` field of the frontmatter (Claude Code stamps it on every write);
//! 3. memwb's journal: the change that wrote a `.memory` record file as it reads now;
//! 4. the file's last change (mtime).
//!
//! A date after today is no evidence of when something was written (a plan's file name).

use jiff::Timestamp;
use jiff::civil::Date;
use regex::Regex;
use std::sync::LazyLock;

use super::super::Memory;
use super::Clock;
use super::deadline::{ABSOLUTE, absolute};

/// The day a phrase was written, and why memwb believes so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Written {
    pub day: Date,
    pub evidence: String,
}

/// A date in a file name: `2026-03-24`, `2026_03_24`, `20260324`.
static NAME_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^0-9])(20\d{2})[-_.]?(0[1-9]|1[0-2])[-_.]?(0[1-9]|[12]\d|3[01])(?:[^0-9]|$)")
        .expect("a valid literal pattern")
});

/// A line that opens with a date, after list markers, emphasis and brackets.
static LINE_DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:[-*+]|\d+[.)])?\s*[\[(*_]*\s*$").expect("a valid literal pattern")
});

/// When the text at byte `at` of `text` (the memory's description or body) was written.
pub(super) fn written(
    memory: &Memory,
    text: &str,
    at: usize,
    first_line: Option<usize>,
    clock: &Clock,
) -> Option<Written> {
    let not_future = |day: Date| day <= clock.today;
    let lines: Vec<(usize, &str)> = line_starts(text);
    let index = lines
        .iter()
        .rposition(|(start, _)| *start <= at)
        .unwrap_or(0);
    let line_number = |i: usize| first_line.map(|first| first + i);
    if let Some((_, line)) = lines.get(index)
        && let Some(day) = opening_date(line).filter(|d| not_future(*d))
    {
        let on = line_number(index).map_or(String::new(), |n| format!(" {n}"));
        return Some(Written {
            day,
            evidence: format!("per the date opening line{on}"),
        });
    }
    if let Some((i, heading)) = lines[..index]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, (_, l))| l.trim_start().starts_with('#'))
        .map(|(i, (_, l))| (i, *l))
        && let Some(day) = first_date(heading).filter(|d| not_future(*d))
    {
        let on = line_number(i).map_or(String::new(), |n| format!(" on line {n}"));
        return Some(Written {
            day,
            evidence: format!("per the heading{on}"),
        });
    }
    let name = memory.file.rsplit('/').next().unwrap_or(&memory.file);
    if let Some(day) = name_date(name).filter(|d| not_future(*d)) {
        return Some(Written {
            day,
            evidence: "per the file name".into(),
        });
    }
    if let Some(day) = memory
        .frontmatter
        .as_deref()
        .and_then(|raw| modified_field(raw, clock))
        .filter(|d| not_future(*d))
    {
        return Some(Written {
            day,
            evidence: "per its `modified` field".into(),
        });
    }
    if let Some(day) = memory.journaled.and_then(|t| clock.day_of(t)) {
        return Some(Written {
            day,
            evidence: "per memwb's journal".into(),
        });
    }
    let day = memory.modified.and_then(|t| clock.day_of(t))?;
    Some(Written {
        day,
        evidence: "per the file's last change".into(),
    })
}

fn line_starts(text: &str) -> Vec<(usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n')
        .map(|line| {
            let start = offset;
            offset += line.len();
            (start, line.trim_end_matches(['\n', '\r']))
        })
        .collect()
}

/// The date a line opens with: `2026-03-24: …`, `- **2026-03-24** …`, `[2026-03-24] …`.
fn opening_date(line: &str) -> Option<Date> {
    let caps = ABSOLUTE.captures(line)?;
    let whole = caps.get(0)?;
    LINE_DATE
        .is_match(&line[..whole.start()])
        .then(|| absolute(&caps))?
}

fn first_date(line: &str) -> Option<Date> {
    ABSOLUTE
        .captures_iter(line)
        .find_map(|caps| absolute(&caps))
}

fn name_date(name: &str) -> Option<Date> {
    let caps = NAME_DATE.captures(name)?;
    let number = |i: usize| caps.get(i)?.as_str().parse::<i16>().ok();
    Date::new(
        number(1)?,
        i8::try_from(number(2)?).ok()?,
        i8::try_from(number(3)?).ok()?,
    )
    .ok()
}

/// The day of a top-level `modified:` field: a timestamp (`2026-09-14T08:21:07.512Z`, in the
/// clock's zone) or a date.
fn modified_field(frontmatter: &str, clock: &Clock) -> Option<Date> {
    let value = frontmatter
        .lines()
        .find_map(|line| line.strip_prefix("modified:"))?
        .trim()
        .trim_matches(['"', '\'']);
    if let Ok(stamp) = value.parse::<Timestamp>() {
        return Some(clock.zone.to_datetime(stamp).date());
    }
    value.get(..10)?.parse::<Date>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::tz::TimeZone;
    use std::time::SystemTime;

    fn memory(file: &str, body: &str, frontmatter: Option<&str>) -> Memory {
        Memory {
            name: "m".into(),
            kind: Some("project".into()),
            body_line: 5,
            modified: Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_776_643_200)),
            frontmatter: frontmatter.map(str::to_owned),
            ..Memory::other_file(file, body.into())
        }
    }

    fn evidence(file: &str, body: &str, frontmatter: Option<&str>) -> (String, String) {
        let clock = Clock::fixed(Date::new(2026, 12, 1).unwrap(), TimeZone::UTC);
        let memory = memory(file, body, frontmatter);
        let at = body.find("this week").unwrap();
        let found = written(&memory, body, at, Some(5), &clock).unwrap();
        (found.day.to_string(), found.evidence)
    }

    #[test]
    fn the_best_evidence_wins() {
        let mtime = (
            "2026-04-20".to_owned(),
            "per the file's last change".to_owned(),
        );
        assert_eq!(evidence("notes.md", "Ship this week.", None), mtime);
        assert_eq!(
            evidence("standup_2026-03-24.md", "Ship this week.", None),
            ("2026-03-24".into(), "per the file name".into())
        );
        assert_eq!(
            evidence(
                "notes.md",
                "Ship this week.",
                Some("name: m\nmodified: 2026-03-02T23:10:00Z")
            ),
            ("2026-03-02".into(), "per its `modified` field".into())
        );
        assert_eq!(
            evidence(
                "standup_2026-03-24.md",
                "## 2026-03-10\nShip this week.",
                None
            ),
            ("2026-03-10".into(), "per the heading on line 5".into())
        );
        assert_eq!(
            evidence(
                "log.md",
                "## 2026-03-10\n- 2026-03-12: ship this week.",
                None
            ),
            ("2026-03-12".into(), "per the date opening line 6".into())
        );
        // A heading without a date stops the search upwards; a future date is no evidence.
        assert_eq!(
            evidence("log.md", "## 2026-03-10\n## Plans\nShip this week.", None),
            mtime
        );
        assert_eq!(
            evidence("plan_2027-01-04.md", "Ship this week.", None),
            mtime
        );
    }

    #[test]
    fn the_journal_comes_after_modified_and_before_the_mtime() {
        let clock = Clock::fixed(Date::new(2026, 12, 1).unwrap(), TimeZone::UTC);
        let body = "Ship this week.";
        let mut memory = memory("notes.md", body, None);
        // 2026-03-02 12:00 UTC.
        memory.journaled =
            Some(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_772_452_800));
        let found = written(&memory, body, 5, Some(5), &clock).unwrap();
        assert_eq!(
            (found.day.to_string(), found.evidence.as_str()),
            ("2026-03-02".to_owned(), "per memwb's journal")
        );
        memory.frontmatter = Some("modified: 2026-02-01".into());
        let found = written(&memory, body, 5, Some(5), &clock).unwrap();
        assert_eq!(found.evidence, "per its `modified` field");
    }
}
