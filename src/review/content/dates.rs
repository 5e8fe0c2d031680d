//! `relative-date` and `date-past`: times that were true when written.
//!
//! A relative time ("next Thursday", "in two days", "明天", "下周三") in a project or feedback
//! memory is resolved against the day of the file's last change, in the local time zone, and
//! the audit suggests that absolute date. Weeks start on Monday: "next Thursday" and "下周四"
//! are the Thursday of the following week, "this Thursday" and "本周四" that of the same week.

use std::sync::LazyLock;
use std::time::SystemTime;

use jiff::civil::{Date, Weekday};
use jiff::tz::TimeZone;
use jiff::{Span, Timestamp, ZonedDateTime};
use regex::{Captures, Regex};

use super::fix::{DateEdit, Fix};
use super::{AuditFinding, Memory, finding, line_at};
use crate::store::{MemoryType, Severity};

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

const NUMBER: &str = r"\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve";
const WEEKDAYS: &str = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";

static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = format!(
        r"(?ix)
        \b(?P<day>the\ day\ after\ tomorrow|the\ day\ before\ yesterday|today|tonight|tomorrow|yesterday)\b
        |\b(?P<rel>this|next|last)\s+(?P<unit>week|month|year|{WEEKDAYS})\b
        |\bin\s+(?P<n_in>{NUMBER})\s+(?P<u_in>day|week|month|year)s?\b
        |\b(?P<n_ago>{NUMBER})\s+(?P<u_ago>day|week|month|year)s?\s+ago\b
        |(?P<zh_day>大后天|大前天|后天|明天|今天|今晚|昨天|昨晚|前天)
        |(?P<zh_rel>下|上|本|这)个?(?P<zh_unit>周|星期|礼拜|月)(?P<zh_wd>[一二三四五六日天])?
        |(?P<zh_year>明年|去年|今年|后年|前年)
        |(?P<zh_n>\d+|[一二两三四五六七八九十]+)个?(?P<zh_u>天|周|星期|月|年)(?P<zh_dir>之后|以后|后|之前|以前|前)"
    );
    Regex::new(&pattern).expect("a valid literal pattern")
});

/// What a relative phrase resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolved {
    Day(Date),
    /// The Monday the week starts on.
    Week(Date),
    Month(Date),
    Year(i16),
}

impl Resolved {
    fn text(self) -> String {
        match self {
            Resolved::Day(d) => d.to_string(),
            Resolved::Week(monday) => format!("the week of {monday}"),
            Resolved::Month(first) => format!("{:04}-{:02}", first.year(), first.month()),
            Resolved::Year(year) => year.to_string(),
        }
    }
}

/// Every relative time in a project or feedback memory.
pub fn relative_dates(memory: &Memory, clock: &Clock) -> Vec<AuditFinding> {
    if !matches!(
        memory.kind,
        Some(MemoryType::Project | MemoryType::Feedback)
    ) {
        return Vec::new();
    }
    let written = memory.modified.and_then(|t| clock.day_of(t));
    let mut out = Vec::new();
    for (text, first_line) in memory.texts() {
        for caps in RELATIVE.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let phrase = whole.as_str();
            let line = line_at(text, whole.start(), first_line);
            let at = line.map(|l| format!(" on line {l}")).unwrap_or_default();
            let resolved = written.and_then(|day| resolve(&caps, day));
            let (message, fix) = match (resolved, written) {
                (Some(resolved), Some(day)) => (
                    format!(
                        "{phrase:?}{at} will be wrong tomorrow; written {day}, it means {}",
                        resolved.text()
                    ),
                    Some(Fix::AbsoluteDate(DateEdit {
                        phrase: phrase.to_owned(),
                        absolute: resolved.text(),
                    })),
                ),
                _ => (
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

fn resolve(caps: &Captures<'_>, day: Date) -> Option<Resolved> {
    let text = |name: &str| caps.name(name).map(|m| m.as_str().to_lowercase());
    let days = |n: i64| day.checked_add(Span::new().days(n)).ok().map(Resolved::Day);
    if let Some(word) = text("day") {
        return days(match word.as_str() {
            "the day after tomorrow" => 2,
            "the day before yesterday" => -2,
            "tomorrow" => 1,
            "yesterday" => -1,
            _ => 0,
        });
    }
    if let Some(word) = text("zh_day") {
        return days(match word.as_str() {
            "大后天" => 3,
            "后天" => 2,
            "明天" => 1,
            "昨天" | "昨晚" => -1,
            "前天" => -2,
            "大前天" => -3,
            _ => 0,
        });
    }
    if let (Some(rel), Some(unit)) = (text("rel"), text("unit")) {
        let step = match rel.as_str() {
            "next" => 1,
            "last" => -1,
            _ => 0,
        };
        return match unit.as_str() {
            "week" => shift_weeks(day, step).map(Resolved::Week),
            "month" => shift_months(day, step).map(Resolved::Month),
            "year" => Some(Resolved::Year(day.year() + step as i16)),
            weekday => weekday_in(day, step, english_weekday(weekday)?),
        };
    }
    if let (Some(rel), Some(unit)) = (text("zh_rel"), text("zh_unit")) {
        let step = match rel.as_str() {
            "下" => 1,
            "上" => -1,
            _ => 0,
        };
        if unit == "月" {
            return shift_months(day, step).map(Resolved::Month);
        }
        return match text("zh_wd") {
            Some(wd) => weekday_in(day, step, chinese_weekday(&wd)?),
            None => shift_weeks(day, step).map(Resolved::Week),
        };
    }
    if let Some(word) = text("zh_year") {
        let step = match word.as_str() {
            "后年" => 2,
            "明年" => 1,
            "去年" => -1,
            "前年" => -2,
            _ => 0,
        };
        return Some(Resolved::Year(day.year() + step));
    }
    let (n, unit, sign) = if let (Some(n), Some(u)) = (text("n_in"), text("u_in")) {
        (english_number(&n)?, u, 1)
    } else if let (Some(n), Some(u)) = (text("n_ago"), text("u_ago")) {
        (english_number(&n)?, u, -1)
    } else {
        let n = chinese_number(&text("zh_n")?)?;
        let sign = if text("zh_dir")?.ends_with('后') {
            1
        } else {
            -1
        };
        let unit = match text("zh_u")?.as_str() {
            "天" => "day",
            "月" => "month",
            "年" => "year",
            _ => "week",
        };
        (n, unit.to_owned(), sign)
    };
    let n = n * sign;
    match unit.as_str() {
        "day" => days(n),
        "week" => days(7 * n),
        "month" => day
            .checked_add(Span::new().months(n))
            .ok()
            .map(Resolved::Day),
        _ => day
            .checked_add(Span::new().years(n))
            .ok()
            .map(Resolved::Day),
    }
}

fn monday_of(day: Date) -> Option<Date> {
    let back = i64::from(day.weekday().to_monday_zero_offset());
    day.checked_sub(Span::new().days(back)).ok()
}

fn shift_weeks(day: Date, weeks: i64) -> Option<Date> {
    monday_of(day)?.checked_add(Span::new().weeks(weeks)).ok()
}

fn shift_months(day: Date, months: i64) -> Option<Date> {
    day.first_of_month()
        .checked_add(Span::new().months(months))
        .ok()
}

fn weekday_in(day: Date, weeks: i64, weekday: Weekday) -> Option<Resolved> {
    let monday = shift_weeks(day, weeks)?;
    let offset = i64::from(weekday.to_monday_zero_offset());
    monday
        .checked_add(Span::new().days(offset))
        .ok()
        .map(Resolved::Day)
}

fn english_weekday(word: &str) -> Option<Weekday> {
    Some(match word {
        "monday" => Weekday::Monday,
        "tuesday" => Weekday::Tuesday,
        "wednesday" => Weekday::Wednesday,
        "thursday" => Weekday::Thursday,
        "friday" => Weekday::Friday,
        "saturday" => Weekday::Saturday,
        "sunday" => Weekday::Sunday,
        _ => return None,
    })
}

fn chinese_weekday(word: &str) -> Option<Weekday> {
    Some(match word {
        "一" => Weekday::Monday,
        "二" => Weekday::Tuesday,
        "三" => Weekday::Wednesday,
        "四" => Weekday::Thursday,
        "五" => Weekday::Friday,
        "六" => Weekday::Saturday,
        "日" | "天" => Weekday::Sunday,
        _ => return None,
    })
}

fn english_number(word: &str) -> Option<i64> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    match word {
        "a" | "an" => Some(1),
        _ => word
            .parse()
            .ok()
            .or_else(|| WORDS.iter().position(|w| *w == word).map(|i| i as i64 + 1)),
    }
}

/// `三`, `两`, `十`, `十二`, `二十`, `二十五`, or digits.
fn chinese_number(word: &str) -> Option<i64> {
    if let Ok(n) = word.parse() {
        return Some(n);
    }
    let digit = |c: char| {
        "零一二三四五六七八九"
            .chars()
            .position(|d| d == c)
            .map(|i| i as i64)
    };
    let chars: Vec<char> = word
        .chars()
        .map(|c| if c == '两' { '二' } else { c })
        .collect();
    match chars.as_slice() {
        [c] if *c == '十' => Some(10),
        [c] => digit(*c),
        ['十', ones] => Some(10 + digit(*ones)?),
        [tens, '十'] => Some(10 * digit(*tens)?),
        [tens, '十', ones] => Some(10 * digit(*tens)? + digit(*ones)?),
        _ => None,
    }
}

const MONTHS: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

static ABSOLUTE: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = format!(
        r"(?ix)
        \b(?P<y1>\d{{4}})[-/](?P<m1>\d{{1,2}})[-/](?P<d1>\d{{1,2}})\b
        |(?P<y2>\d{{4}})年(?P<m2>\d{{1,2}})月(?P<d2>\d{{1,2}})[日号]
        |\b(?P<mn3>{MONTHS})\.?\s+(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y3>\d{{4}})\b
        |\b(?P<d4>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<mn4>{MONTHS})\.?,?\s+(?P<y4>\d{{4}})\b"
    );
    Regex::new(&pattern).expect("a valid literal pattern")
});

static DEADLINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:until|till|by|before|freeze|frozen|deadline|due|expires?|expiry)\b|截止|之前|以前|冻结|封版|到期|期限",
    )
    .expect("a valid literal pattern")
});

/// Absolute dates already past on lines that read like a deadline or a freeze.
pub fn past_deadlines(memory: &Memory, clock: &Clock) -> Vec<AuditFinding> {
    let mut out = Vec::new();
    for (text, first_line) in memory.texts() {
        let mut offset = 0;
        for line_text in text.split_inclusive('\n') {
            let start = offset;
            offset += line_text.len();
            let Some(word) = DEADLINE.find(line_text) else {
                continue;
            };
            for caps in ABSOLUTE.captures_iter(line_text) {
                let Some(whole) = caps.get(0) else { continue };
                let Some(date) = absolute(&caps) else {
                    continue;
                };
                if date >= clock.today {
                    continue;
                }
                let line = line_at(text, start, first_line);
                let at = line.map(|l| format!(" on line {l}")).unwrap_or_default();
                out.push(finding(
                    memory,
                    "date-past",
                    Severity::Info,
                    line,
                    format!(
                        "{:?}{at} is past ({date}) and reads like a deadline ({:?}): is this still true?",
                        whole.as_str(),
                        word.as_str()
                    ),
                    None,
                ));
            }
        }
    }
    out
}

fn absolute(caps: &Captures<'_>) -> Option<Date> {
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

    fn resolved(phrase: &str, day: Date) -> Option<String> {
        let caps = RELATIVE.captures(phrase)?;
        resolve(&caps, day).map(Resolved::text)
    }

    #[test]
    fn english_and_chinese_phrases_resolve_from_the_day_written() {
        // A Thursday.
        let day = Date::new(2026, 11, 26).unwrap();
        for (phrase, expected) in [
            ("tomorrow", "2026-11-27"),
            ("yesterday", "2026-11-25"),
            ("the day after tomorrow", "2026-11-28"),
            ("next Thursday", "2026-12-03"),
            ("this Monday", "2026-11-23"),
            ("last Friday", "2026-11-20"),
            ("next week", "the week of 2026-11-30"),
            ("last month", "2026-10"),
            ("next year", "2027"),
            ("in two days", "2026-11-28"),
            ("3 weeks ago", "2026-11-05"),
            ("明天", "2026-11-27"),
            ("后天", "2026-11-28"),
            ("下周", "the week of 2026-11-30"),
            ("下周三", "2026-12-02"),
            ("上个月", "2026-10"),
            ("三天后", "2026-11-29"),
            ("两周前", "2026-11-12"),
            ("明年", "2027"),
        ] {
            assert_eq!(resolved(phrase, day).as_deref(), Some(expected), "{phrase}");
        }
    }

    #[test]
    fn words_that_only_look_relative_are_not_matched() {
        for text in [
            "the todays list",
            "nextweek",
            "in the days of old",
            "weekly sync",
            "a week",
        ] {
            assert!(RELATIVE.captures(text).is_none(), "{text}");
        }
        assert_eq!(chinese_number("二十五"), Some(25));
        assert_eq!(chinese_number("十"), Some(10));
    }
}
