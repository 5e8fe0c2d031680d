//! `date-past`: a deadline already past. A date counts only where a deadline word governs it
//! ("due by 2026-01-05", "until 2026-01-10", "expires 2026-02-01", "截止 2026-01-10",
//! "2026-01-10까지", "2026-01-10まで"), never a date that only shares a line with "by"
//! ("keyed by", "written 2026-01-05 by Priya") nor a date that records when something was seen.

use std::ops::Range;
use std::sync::LazyLock;

use jiff::civil::Date;
use regex::{Captures, Regex};

use super::super::{AuditFinding, Memory, finding, line_at};
use super::Clock;
use super::prose::{inside, not_prose};
use crate::finding::Severity;

const MONTHS: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

/// An absolute date, in the forms memories write it.
fn absolute_pattern() -> String {
    format!(
        // ASCII word boundaries: `2026-01-10까지` ends its date before a Hangul particle.
        r"(?:(?-u:\b)(?P<y1>\d{{4}})[-/.](?P<m1>\d{{1,2}})[-/.](?P<d1>\d{{1,2}})(?-u:\b)
        |(?P<y2>\d{{4}})\s?[年년]\s?(?P<m2>\d{{1,2}})\s?[月월]\s?(?P<d2>\d{{1,2}})\s?[日号일]
        |(?-u:\b)(?P<mn3>{MONTHS})\.?\s+(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y3>\d{{4}})(?-u:\b)
        |(?-u:\b)(?P<d4>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mn4>{MONTHS})\.?,?\s+(?P<y4>\d{{4}})(?-u:\b))"
    )
}

pub(super) static ABSOLUTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!("(?ix){}", absolute_pattern())).expect("a valid literal pattern")
});

/// A date governed by a deadline word: the word right before it, or a CJK deadline marker
/// right after it.
static DEADLINE: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = format!(
        r"(?ix)
        (?P<word>
            \b(?:until|till|due(?:\s+(?:by|on|date))?|deadline(?:\s+(?:is|of|on))?
              |expires?(?:\s+on)?|expiry(?:\s+date)?|expiring(?:\s+on)?|valid\s+(?:until|till|through|thru)
              |no\s+later\s+than|by|before|(?:freeze|frozen)\s+(?:until|till|through|thru))
            \s*[:：]?\s*(?:on\s+|the\s+)?
          |(?:截止(?:日期|时间|日)?|期限|到期日?|冻结(?:至|到)|封版(?:日期|时间)?|마감(?:일)?|締め?切り?日?|期限は)\s*[：:是为]?\s*)?
        (?P<date>{absolute})
        (?P<after>\s*(?:之前|以前|前|截止|到期|为止|까지|이전|まで|までに))?",
        absolute = absolute_pattern(),
    );
    Regex::new(&pattern).expect("a valid literal pattern")
});

/// On a line where "before" (or `之前`, `以前`, `前`, `이전`) marks a deadline, not a
/// history ("Before 2026-01-05 builds used Node 18"): something must or is planned to happen.
static OBLIGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:must|should|need(?:s|ed)?\s+to|has\s+to|have\s+to|required|due|deadline|finish|merge|ship|land|submit|renew|rotate|migrate|complete|remove|delete|upgrade|release)\b|必须|需要|务必|要|应|得|完成|提交|上线|发布|合并|迁移|해야|완료|제출|必要|までに",
    )
    .expect("a valid literal pattern")
});

/// Verbs after which "by" introduces a key, not a deadline.
const KEYED: [&str; 17] = [
    "keyed",
    "sorted",
    "grouped",
    "indexed",
    "ordered",
    "partitioned",
    "filtered",
    "named",
    "prefixed",
    "suffixed",
    "tagged",
    "labelled",
    "labeled",
    "stamped",
    "bucketed",
    "sharded",
    "split",
];

/// "by 2026-01-05-style names": the date is an example of a format.
static NAMES_A_FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^[\s-]*(?:style|format|prefix|suffix|pattern|names?)\b")
        .expect("a valid literal pattern")
});

/// Absolute dates already past where a deadline word governs them.
pub(crate) fn past_deadlines(memory: &Memory, clock: &Clock) -> Vec<AuditFinding> {
    let mut out = Vec::new();
    for (text, first_line) in memory.texts() {
        let not_prose = not_prose(text);
        for caps in DEADLINE.captures_iter(text) {
            let (Some(whole), Some(date_text)) = (caps.get(0), caps.name("date")) else {
                continue;
            };
            let Some(date) = absolute(&caps) else {
                continue;
            };
            if date >= clock.today
                || inside(&not_prose, &whole.range())
                || !governs(text, whole.range(), &caps)
            {
                continue;
            }
            let line = line_at(text, whole.start(), first_line);
            let at = line.map(|l| format!(" on line {l}")).unwrap_or_default();
            let word = caps
                .name("word")
                .or(caps.name("after"))
                .map_or("", |m| m.as_str().trim());
            out.push(finding(
                memory,
                "date-past",
                Severity::Info,
                line,
                format!(
                    "{:?}{at} is past ({date}) and is a deadline ({word:?}): is this still true?",
                    date_text.as_str(),
                ),
                None,
            ));
        }
    }
    out
}

/// Whether the deadline word really governs the date: "before" and its CJK forms only on a
/// line that says something must happen; a date with neither a word before nor a marker
/// after is no deadline.
fn governs(text: &str, whole: Range<usize>, caps: &Captures<'_>) -> bool {
    let before_word = caps.name("word").map(|m| m.as_str().trim().to_lowercase());
    let after_word = caps.name("after").map(|m| m.as_str().trim().to_owned());
    let weak = match (&before_word, &after_word) {
        (Some(word), _) if !word.is_empty() => word.starts_with("before"),
        (_, Some(word)) => matches!(word.as_str(), "之前" | "以前" | "前" | "이전"),
        _ => return false,
    };
    if before_word.as_deref() == Some("by") {
        // "keyed by", "sorted by": what follows is a key, not a deadline.
        let word_before = text[..whole.start]
            .split_whitespace()
            .next_back()
            .unwrap_or_default()
            .to_lowercase();
        if KEYED.contains(&word_before.as_str()) || NAMES_A_FORMAT.is_match(&text[whole.end..]) {
            return false;
        }
    }
    if !weak {
        return true;
    }
    let start = text[..whole.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[whole.end..]
        .find('\n')
        .map_or(text.len(), |i| whole.end + i);
    OBLIGATION.is_match(&text[start..end])
}

/// The date the `ABSOLUTE` (or `DEADLINE`) captures name, if it is one.
pub(super) fn absolute(caps: &Captures<'_>) -> Option<Date> {
    let number = |name: &str| caps.name(name)?.as_str().parse::<i64>().ok();
    let month_name = |name: &str| {
        let word = caps.name(name)?.as_str().to_lowercase();
        let index = [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ]
        .iter()
        .position(|m| word.starts_with(m))?;
        Some(index as i64 + 1)
    };
    let (y, m, d) = if let Some(y) = number("y1") {
        (y, number("m1")?, number("d1")?)
    } else if let Some(y) = number("y2") {
        (y, number("m2")?, number("d2")?)
    } else if let Some(y) = number("y3") {
        (y, month_name("mn3")?, number("d3")?)
    } else {
        (number("y4")?, month_name("mn4")?, number("d4")?)
    };
    Date::new(
        i16::try_from(y).ok()?,
        i8::try_from(m).ok()?,
        i8::try_from(d).ok()?,
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn past(body: &str) -> Vec<String> {
        let memory = Memory {
            name: "m".into(),
            kind: Some("project".into()),
            ..Memory::other_file("m.md", body.into())
        };
        let clock = Clock::fixed(Date::new(2026, 12, 1).unwrap(), jiff::tz::TimeZone::UTC);
        past_deadlines(&memory, &clock)
            .into_iter()
            .map(|f| f.finding.message)
            .collect()
    }

    #[test]
    fn a_past_deadline_is_reported() {
        for body in [
            "The API key is due by 2026-01-05.",
            "Merge freeze until January 10, 2026.",
            "The staging cert expires 2026-02-01.",
            "Deadline: 2026-03-01 for the migration.",
            "Submit the report before 2026-04-01.",
            "截止 2026年1月10日 提交。",
            "2026-01-10까지 리뷰 완료.",
            "2026-01-10までにレビュー。",
            "2026年1月10日之前必须完成迁移。",
        ] {
            assert_eq!(past(body).len(), 1, "{body}");
        }
    }

    #[test]
    fn dates_that_are_no_deadline_are_not() {
        for body in [
            "Sessions are keyed by 2026-01-05 style dates.",
            "The index was built by filtering 2025-06-01 logs.",
            "Written 2026-01-05 by Priya.",
            "Observed 2026-01-05: builds take ten minutes until the cache warms.",
            "Before 2026-01-05 builds used Node 18.",
            "2026年1月之前我们用的是 Node 18，2025-12-01 之前也是。",
            "Run `git log --until 2026-01-05` to see them.",
            "The freeze lasts until 2027-01-10.",
            "Decided 2026-01-05; we keep tabs.",
        ] {
            assert_eq!(past(body), Vec::<String>::new(), "{body}");
        }
    }
}
