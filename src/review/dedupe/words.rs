//! The words two memories can share: Unicode word boundaries (`unicode-segmentation`) for
//! scripts that space their words, character bigrams for runs of Han, kana and Hangul (which
//! do not, or glue particles to their words), and no stopwords in any of them (`stop-words`,
//! the Stopwords ISO lists for English, Chinese, Japanese and Korean, plus the words every
//! memory file repeats: its type, "memory", URL and file-name parts, the "How to apply"
//! of the feedback template). English words are compared by their Snowball stem
//! (`rust-stemmers`), so `defer` and `deferring` are one word.

use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

/// Content words by the form they are compared in (an English word's stem), each with the
/// word as first written (lowercased), for messages.
pub(super) type Words = BTreeMap<String, String>;

/// Words that name the format, not the subject: the four types (`feedback_…`, `project_…`
/// file-name prefixes) and the parts of URLs and file names.
const FORMAT_WORDS: [&str; 17] = [
    "user",
    "feedback",
    "project",
    "reference",
    "memory",
    "memories",
    "note",
    "notes",
    "http",
    "https",
    "www",
    "com",
    "org",
    "md",
    "html",
    "txt",
    "apply",
];

fn stopwords() -> &'static HashSet<&'static str> {
    static WORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut words: HashSet<&'static str> = FORMAT_WORDS.into_iter().collect();
        for language in ["en", "zh", "ja", "ko"] {
            words.extend(stop_words::get(language).iter().copied());
        }
        words
    })
}

/// Characters written without spaces between words (or with particles glued on): they are
/// compared by bigrams.
fn is_cjk(c: char) -> bool {
    is_hiragana(c)
        || matches!(c,
            '\u{3400}'..='\u{4DBF}'   // Han extension A
            | '\u{4E00}'..='\u{9FFF}' // Han
            | '\u{F900}'..='\u{FAFF}' // Han compatibility
            | '\u{30A0}'..='\u{30FF}' // katakana
            | '\u{31F0}'..='\u{31FF}' // katakana extension
            | '\u{1100}'..='\u{11FF}' // Hangul jamo
            | '\u{3130}'..='\u{318F}' // Hangul compatibility jamo
            | '\u{AC00}'..='\u{D7AF}' // Hangul syllables
        )
}

fn is_hiragana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{309F}')
}

/// The distinct content words of `text`.
pub(super) fn words(text: &str) -> Words {
    let mut out = Words::new();
    let mut rest = text;
    while let Some(start) = rest.find(is_cjk) {
        spaced_words(&rest[..start], &mut out);
        let run = &rest[start..];
        let end = run.find(|c: char| !is_cjk(c)).unwrap_or(run.len());
        bigrams(&run[..end], &mut out);
        rest = &run[end..];
    }
    spaced_words(rest, &mut out);
    out
}

fn spaced_words(text: &str, out: &mut Words) {
    static ENGLISH: OnceLock<Stemmer> = OnceLock::new();
    let english = ENGLISH.get_or_init(|| Stemmer::create(Algorithm::English));
    let stop = stopwords();
    for word in text.unicode_words() {
        // `never_defer_commands`, `github.com`: one word for UAX #29, several here.
        for part in word.split(['_', '.']) {
            let lower = part.to_lowercase();
            let lower = lower
                .strip_suffix("'s")
                .or_else(|| lower.strip_suffix("\u{2019}s"))
                .unwrap_or(&lower);
            if lower.chars().count() < 2
                || lower.chars().all(|c| c.is_numeric())
                || stop.contains(lower)
            {
                continue;
            }
            let key = if lower.is_ascii() {
                english.stem(lower).into_owned()
            } else {
                lower.to_owned()
            };
            if !stop.contains(key.as_str()) {
                out.entry(key).or_insert_with(|| lower.to_owned());
            }
        }
    }
}

/// Whether a word is a bigram (or lone character) of Han, kana or Hangul.
pub(super) fn is_bigram(word: &str) -> bool {
    word.chars().next().is_some_and(is_cjk)
}

/// The longest stretches of `text`'s Han, kana and Hangul runs whose every bigram is in
/// `shared`, each once, in text order: what a person reads instead of overlapping pairs
/// (`데이터베이스`, not `데이`, `이터`, `터베`, `베이`, `이스`).
pub(super) fn joined_bigrams(text: &str, shared: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |stretch: &[char]| {
        let phrase: String = stretch.iter().collect();
        if stretch.len() >= 2 && !out.contains(&phrase) {
            out.push(phrase);
        }
    };
    let mut rest = text;
    while let Some(start) = rest.find(is_cjk) {
        let run = &rest[start..];
        let end = run.find(|c: char| !is_cjk(c)).unwrap_or(run.len());
        let chars: Vec<char> = run[..end].chars().collect();
        let mut from = 0;
        for i in 0..chars.len().saturating_sub(1) {
            let bigram: String = chars[i..i + 2].iter().collect();
            if !shared(&bigram) {
                push(&chars[from..=i]);
                from = i + 1;
            }
        }
        push(&chars[from..]);
        rest = &run[end..];
    }
    // `마이그레이션` rather than `마이그레이션은` and `마이그레이션을` (a particle glued on).
    let all = out.clone();
    out.retain(|phrase| {
        !all.iter()
            .any(|other| other != phrase && phrase.contains(other.as_str()))
    });
    out
}

/// A run of Han, kana or Hangul: its bigrams (the run itself when it is one character),
/// without stopwords and without pairs of hiragana, which are mostly grammar.
fn bigrams(run: &str, out: &mut Words) {
    let stop = stopwords();
    if stop.contains(run) {
        return;
    }
    let chars: Vec<char> = run.chars().collect();
    if chars.len() == 1 {
        if !is_hiragana(chars[0]) {
            out.insert(run.to_owned(), run.to_owned());
        }
        return;
    }
    for pair in chars.windows(2) {
        if pair.iter().all(|&c| is_hiragana(c)) {
            continue;
        }
        let bigram: String = pair.iter().collect();
        if !stop.contains(bigram.as_str()) {
            out.insert(bigram.clone(), bigram);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(text: &str) -> Vec<String> {
        words(text).into_keys().collect()
    }

    #[test]
    fn stopwords_and_type_prefixes_are_not_words() {
        assert_eq!(
            list("feedback_never_defer_commands: the user's commands are run by the agent"),
            ["agent", "command", "defer"]
        );
        assert_eq!(list("user_github_account"), ["account", "github"]);
        assert_eq!(
            list("See https://github.com/octocat and 2026 notes.md"),
            ["github", "octocat"]
        );
    }

    #[test]
    fn han_hangul_and_kana_runs_are_bigrams() {
        assert_eq!(list("生产数据库"), ["产数", "据库", "数据", "生产"]);
        // Korean: particles glued to a word still leave the word's bigrams shared.
        let a = words("데이터베이스는 운영 서버");
        let b = words("데이터베이스를 운영");
        assert!(a.contains_key("데이") && b.contains_key("데이") && b.contains_key("운영"));
        assert!(!a.contains_key("는"));
        // Japanese: katakana words and kanji compounds, not the hiragana between them.
        assert_eq!(
            joined_bigrams("운영 데이터베이스는", |b| words("데이터베이스를")
                .contains_key(b)),
            ["데이터베이스"]
        );
        let ja = words("データベースを使うこと");
        assert!(ja.contains_key("デー"));
        assert!(!ja.contains_key("こと"));
    }
}
