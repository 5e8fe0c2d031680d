//! What a relative phrase means, once matched, and the absolute date it resolves to from the
//! day it was written. Weeks start on Monday.

use jiff::Span;
use jiff::civil::{Date, Weekday};

/// The meaning of one matched phrase, independent of its language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Relative {
    /// That many days from the day written ("tomorrow": 1, "前天": -2).
    Day(i64),
    /// The week that many weeks from the one written in ("next week": 1).
    Week(i64),
    /// The month that many months from the one written in.
    Month(i64),
    /// The year that many years from the one written in.
    Year(i64),
    /// A weekday of the week that many weeks away ("next Thursday", "下周四", "来週の木曜日").
    Weekday { weeks: i64, day: Weekday },
    /// A count of units before (negative) or after the day written ("3 weeks ago", "三天后").
    Offset { count: i64, unit: Unit },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Day,
    Week,
    Month,
    Year,
}

/// What a relative phrase resolves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Resolved {
    Day(Date),
    /// The Monday the week starts on.
    Week(Date),
    Month(Date),
    Year(i16),
}

impl Resolved {
    pub(super) fn text(self) -> String {
        match self {
            Resolved::Day(d) => d.to_string(),
            Resolved::Week(monday) => format!("the week of {monday}"),
            Resolved::Month(first) => format!("{:04}-{:02}", first.year(), first.month()),
            Resolved::Year(year) => year.to_string(),
        }
    }
}

impl Relative {
    pub(super) fn resolve(self, day: Date) -> Option<Resolved> {
        let days = |n: i64| day.checked_add(Span::new().days(n)).ok().map(Resolved::Day);
        match self {
            Relative::Day(n) => days(n),
            Relative::Week(n) => shift_weeks(day, n).map(Resolved::Week),
            Relative::Month(n) => day
                .first_of_month()
                .checked_add(Span::new().months(n))
                .ok()
                .map(Resolved::Month),
            Relative::Year(n) => i16::try_from(i64::from(day.year()) + n)
                .ok()
                .map(Resolved::Year),
            Relative::Weekday {
                weeks,
                day: weekday,
            } => {
                let offset = i64::from(weekday.to_monday_zero_offset());
                shift_weeks(day, weeks)?
                    .checked_add(Span::new().days(offset))
                    .ok()
                    .map(Resolved::Day)
            }
            Relative::Offset { count, unit } => {
                let span = match unit {
                    Unit::Day => Span::new().days(count),
                    Unit::Week => Span::new().days(count.checked_mul(7)?),
                    Unit::Month => Span::new().months(count),
                    Unit::Year => Span::new().years(count),
                };
                day.checked_add(span).ok().map(Resolved::Day)
            }
        }
    }
}

fn shift_weeks(day: Date, weeks: i64) -> Option<Date> {
    let back = i64::from(day.weekday().to_monday_zero_offset());
    day.checked_sub(Span::new().days(back))
        .ok()?
        .checked_add(Span::new().weeks(weeks))
        .ok()
}

/// `monday` … `sunday`, `月` … `日` (Japanese and Korean weekday stems), `一` … `日`/`天`.
pub(super) fn weekday(word: &str) -> Option<Weekday> {
    Some(match word {
        "monday" | "一" | "月" | "월" => Weekday::Monday,
        "tuesday" | "二" | "火" | "화" => Weekday::Tuesday,
        "wednesday" | "三" | "水" | "수" => Weekday::Wednesday,
        "thursday" | "四" | "木" | "목" => Weekday::Thursday,
        "friday" | "五" | "金" | "금" => Weekday::Friday,
        "saturday" | "六" | "土" | "토" => Weekday::Saturday,
        "sunday" | "日" | "天" | "일" => Weekday::Sunday,
        _ => return None,
    })
}

pub(super) fn english_number(word: &str) -> Option<i64> {
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
pub(super) fn han_number(word: &str) -> Option<i64> {
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

/// Digits or a native Korean count (`한` … `열`).
pub(super) fn korean_number(word: &str) -> Option<i64> {
    const NATIVE: [&str; 10] = [
        "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열",
    ];
    word.parse()
        .ok()
        .or_else(|| NATIVE.iter().position(|w| *w == word).map(|i| i as i64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_meaning_resolves_from_the_day_written() {
        // A Thursday.
        let day = Date::new(2026, 11, 26).unwrap();
        let text = |r: Relative| r.resolve(day).map(Resolved::text);
        assert_eq!(text(Relative::Day(1)).as_deref(), Some("2026-11-27"));
        assert_eq!(
            text(Relative::Week(1)).as_deref(),
            Some("the week of 2026-11-30")
        );
        assert_eq!(
            text(Relative::Week(0)).as_deref(),
            Some("the week of 2026-11-23")
        );
        assert_eq!(text(Relative::Month(-1)).as_deref(), Some("2026-10"));
        assert_eq!(text(Relative::Year(1)).as_deref(), Some("2027"));
        let thursday = Relative::Weekday {
            weeks: 1,
            day: Weekday::Thursday,
        };
        assert_eq!(text(thursday).as_deref(), Some("2026-12-03"));
        let ago = Relative::Offset {
            count: -3,
            unit: Unit::Week,
        };
        assert_eq!(text(ago).as_deref(), Some("2026-11-05"));
        assert_eq!(han_number("二十五"), Some(25));
        assert_eq!(han_number("十"), Some(10));
        assert_eq!(korean_number("두"), Some(2));
        assert_eq!(weekday("월"), Some(Weekday::Monday));
    }
}
