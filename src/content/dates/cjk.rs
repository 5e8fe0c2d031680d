//! Chinese, Japanese and Korean relative times. These scripts write words without spaces, so
//! a time word can be the front of another word: `下个周期` (next cycle), `这周边` (around
//! here), `一年前端` (one year of frontend), `三天后端`, `오늘날` (nowadays), `다음 주소` (next
//! address), `明日香` (a name). A match counts only when the characters around it do not
//! join it into such a word.

use std::ops::Range;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::Hit;
use super::prose::{char_at, char_before, inside, is_hangul, is_kana, line_around};
use super::relative::{Relative, Unit, han_number, korean_number, weekday};

static HAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?P<ja_day>明後日|一昨日|今日|本日|明日|昨日)
        |(?P<zh_day>大后天|大前天|后天|明天|今天|今晚|昨天|昨晚|前天)
        |(?P<ja_year>再来年|来年|昨年)
        |(?P<zh_year>明年|去年|今年|后年|前年)
        |(?P<ja_rel>再来|今|来|先)(?P<ja_unit>週|月)(?:の?(?P<ja_wd>[月火水木金土日])曜日?)?
        |(?P<zh_rel>下|上|本|这)(?P<zh_ge>个)?(?P<zh_unit>周|星期|礼拜|月)(?P<zh_wd>[一二三四五六日天])?
        |(?P<n>\d{1,3}|[一二两三四五六七八九十]{1,3})(?P<n_ge>个|ヶ|か|カ|ヵ|箇)?
          (?P<n_unit>天|日|週間|周|週|星期|月|年)(?P<n_dir>之后|以后|之前|以前|后|後|前)",
    )
    .expect("a valid literal pattern")
});

static HANGUL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?P<ko_day>그저께|오늘|어제|내일|모레)
        |(?P<ko_year>재작년|작년|지난해|올해|내년|내후년)
        |(?P<ko_rel>다음|이번|지난|저번)\ ?(?P<ko_unit>주|달)(?:\ ?(?P<ko_wd>[월화수목금토일])요일)?
        |(?P<n>\d{1,3}|한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\ ?(?P<n_unit>일|주일|주|달|개월|년)\ ?(?P<n_dir>전|후|뒤)",
    )
    .expect("a valid literal pattern")
});

/// Characters that, after a time word, make it part of another word.
const HAN_JOINS_AFTER: &str = "端台缀置期边围长刊报末气头香性半後后方门悔述记养形习";
/// Characters that, before `下`/`上`/`本`/`这`/`来`/`先`/`今`, make it the end of another word
/// (`马上`, `以下`, `日本`, `未来`, `優先`, `如今`).
const HAN_JOINS_BEFORE: &str = "马线以之向上下根基版文日成样剧脚资课账标范读台网楼地未将本元従由出往到外近如原優祖率最首事只当現第看起回过带后进";
/// What may follow a Korean time word: particles (`오늘은`, `내일까지`, `전에`, `후로`).
const KO_PARTICLES: &str = "에은는의도까부로만쯤이가을를엔께";

/// Every Chinese, Japanese and Korean relative time in `text` outside `not_prose`.
pub(super) fn phrases(text: &str, not_prose: &[Range<usize>]) -> Vec<Hit> {
    let han = HAN.captures_iter(text).filter_map(|caps| {
        let range = caps.get(0)?.range();
        let meaning = han_meaning(text, &caps)?;
        (!inside(not_prose, &range) && han_stands_alone(text, &range, &caps))
            .then_some(Hit { range, meaning })
    });
    let hangul = HANGUL.captures_iter(text).filter_map(|caps| {
        let range = caps.get(0)?.range();
        let meaning = korean_meaning(text, &caps)?;
        (!inside(not_prose, &range) && hangul_stands_alone(text, &range, &caps))
            .then_some(Hit { range, meaning })
    });
    han.chain(hangul).collect()
}

fn han_meaning(text: &str, caps: &Captures<'_>) -> Option<Relative> {
    let word = |name: &str| caps.name(name).map(|m| m.as_str());
    if let Some(day) = word("ja_day").or(word("zh_day")) {
        return Some(Relative::Day(match day {
            "大后天" => 3,
            "明後日" | "后天" => 2,
            "明日" | "明天" => 1,
            "昨日" | "昨天" | "昨晚" => -1,
            "一昨日" | "前天" => -2,
            "大前天" => -3,
            _ => 0,
        }));
    }
    if let Some(year) = word("ja_year").or(word("zh_year")) {
        return Some(Relative::Year(match year {
            "再来年" | "后年" => 2,
            "来年" | "明年" => 1,
            "昨年" | "去年" => -1,
            "前年" => -2,
            _ => 0,
        }));
    }
    if let Some(rel) = word("ja_rel").or(word("zh_rel")) {
        let step = match rel {
            "再来" => 2,
            "来" | "下" => 1,
            "先" | "上" => -1,
            _ => 0,
        };
        let unit = word("ja_unit").or(word("zh_unit"))?;
        if unit == "月" {
            // `下个月`, `来月`; a weekday never follows a month.
            return (word("ja_wd").is_none() && word("zh_wd").is_none())
                .then_some(Relative::Month(step));
        }
        return Some(match word("ja_wd").or(word("zh_wd")) {
            Some(day) => Relative::Weekday {
                weeks: step,
                day: weekday(day)?,
            },
            None => Relative::Week(step),
        });
    }
    let count = han_number(word("n")?)?;
    let (unit, counter) = (word("n_unit")?, word("n_ge"));
    let unit = match unit {
        "天" | "日" => Unit::Day,
        "年" if count < 100 => Unit::Year,
        // `2024年前` is "before 2024".
        "年" => return None,
        // `三月后` is "after March"; a count of months takes a counter: `三个月后`, `3ヶ月前`.
        "月" if counter.is_some() => Unit::Month,
        "月" => return None,
        _ => Unit::Week,
    };
    if unit == Unit::Day && word("n_unit") == Some("日") {
        // `3日前` is Japanese for three days ago, but `1月3日前` is "before January 3rd",
        // and Chinese counts days in `天`: only a Japanese line is read so.
        let start = caps.get(0)?.start();
        let (_, line) = line_around(text, start);
        if char_before(text, start) == Some('月') || !line.chars().any(is_kana) {
            return None;
        }
    }
    let sign = if matches!(word("n_dir")?, "之后" | "以后" | "后" | "後") {
        1
    } else {
        -1
    };
    Some(Relative::Offset {
        count: sign * count,
        unit,
    })
}

fn han_stands_alone(text: &str, range: &Range<usize>, caps: &Captures<'_>) -> bool {
    let before = char_before(text, range.start);
    let after = char_at(text, range.end);
    if after.is_some_and(|c| HAN_JOINS_AFTER.contains(c)) {
        return false;
    }
    let relative = caps.name("ja_rel").or(caps.name("zh_rel")).is_some();
    if relative && before.is_some_and(|c| HAN_JOINS_BEFORE.contains(c)) {
        return false;
    }
    // `第三天后` is an ordinal; `3天` after a digit run is part of a larger number.
    if caps.name("n").is_some() && before.is_some_and(|c| c == '第' || c.is_ascii_digit()) {
        return false;
    }
    // `这周一起` (together), `下周一样`: the weekday joins the next character.
    let weekday_joins =
        caps.name("zh_wd").is_some() && after.is_some_and(|c| "起样直定般些点下共切".contains(c));
    !weekday_joins
}

fn korean_meaning(text: &str, caps: &Captures<'_>) -> Option<Relative> {
    let word = |name: &str| caps.name(name).map(|m| m.as_str());
    if let Some(day) = word("ko_day") {
        return Some(Relative::Day(match day {
            "내일" => 1,
            "모레" => 2,
            "어제" => -1,
            "그저께" => -2,
            _ => 0,
        }));
    }
    if let Some(year) = word("ko_year") {
        return Some(Relative::Year(match year {
            "내후년" => 2,
            "내년" => 1,
            "작년" | "지난해" => -1,
            "재작년" => -2,
            _ => 0,
        }));
    }
    if let Some(rel) = word("ko_rel") {
        let step = match rel {
            "다음" => 1,
            "지난" | "저번" => -1,
            _ => 0,
        };
        return Some(match (word("ko_unit")?, word("ko_wd")) {
            ("달", None) => Relative::Month(step),
            ("달", Some(_)) => return None,
            (_, Some(day)) => Relative::Weekday {
                weeks: step,
                day: weekday(day)?,
            },
            (_, None) => Relative::Week(step),
        });
    }
    let (number, unit) = (word("n")?, word("n_unit")?);
    // Native numbers count weeks and months (`두 달`); days and years take digits (`3일`),
    // so `세일 후` (after the sale) is no count.
    if !number.starts_with(|c: char| c.is_ascii_digit()) && !matches!(unit, "주" | "달") {
        return None;
    }
    let count = korean_number(number)?;
    let unit = match unit {
        "일" => {
            // `3월 1일 전` is "before March 1st".
            let start = caps.get(0)?.start();
            if text[..start].trim_end().ends_with('월') {
                return None;
            }
            Unit::Day
        }
        "년" if count >= 100 => return None,
        "년" => Unit::Year,
        "달" | "개월" => Unit::Month,
        _ => Unit::Week,
    };
    let sign = if word("n_dir")? == "전" { -1 } else { 1 };
    Some(Relative::Offset {
        count: sign * count,
        unit,
    })
}

fn hangul_stands_alone(text: &str, range: &Range<usize>, caps: &Captures<'_>) -> bool {
    let before = char_before(text, range.start);
    let after = char_at(text, range.end);
    if before.is_some_and(|c| is_hangul(c) || c.is_ascii_digit()) {
        return false;
    }
    // `어제오늘` (these days) and `오늘내일` (any day now) are idioms.
    if caps.name("ko_day").is_some() && text[range.end..].starts_with(['오', '내']) {
        return false;
    }
    !after.is_some_and(|c| is_hangul(c) && !KO_PARTICLES.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::dates::check_matcher;

    #[test]
    fn chinese_japanese_and_korean_points_in_time_are_found() {
        check_matcher(
            phrases,
            &[
                ("发布定在明天。", "明天"),
                ("下周三之前合并。", "下周三"),
                ("上个月迁移了数据库。", "上个月"),
                ("三天后上线。", "三天后"),
                ("两周前回滚过一次。", "两周前"),
                ("这周要完成评审。", "这周"),
                ("三个月后再续费。", "三个月后"),
                ("三天前提交了修复。", "三天前"),
                ("오늘 배포했습니다.", "오늘"),
                ("어제 롤백했다.", "어제"),
                ("내일까지 리뷰 완료.", "내일"),
                ("다음 주 월요일에 릴리스.", "다음 주 월요일"),
                ("다음 주에 마이그레이션.", "다음 주"),
                ("지난주에 키를 교체했다.", "지난주"),
                ("3일 전에 장애가 있었다.", "3일 전"),
                ("今日リリースした。", "今日"),
                ("明日までにレビュー。", "明日"),
                ("来週の木曜日に移行する。", "来週の木曜日"),
                ("先週ロールバックした。", "先週"),
                ("3日前に障害があった。", "3日前"),
            ],
            &[],
        );
    }

    #[test]
    fn compounds_and_dates_are_not() {
        check_matcher(
            phrases,
            &[],
            &[
                "下个周期再看。",
                "这周边的服务都要改。",
                "一年前端经验。",
                "三天后端就好了。",
                "2024年前完成迁移。",
                "3月后再说。",
                "马上周一开会",
                "日本月刊",
                "오늘날 대부분의 팀은",
                "세일 후에 정리.",
                "지난 주말에 봤다.",
                "어제오늘 일이 아니다.",
                "다음 주소로 보내세요.",
                "3월 1일 전에 제출.",
                "明日香さんのメモ。",
                "未来週刊の記事。",
                "1月3日前提交。",
                "前半と後半。",
                "`今天` 是一个变量名",
            ],
        );
    }
}
