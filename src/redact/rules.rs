//! memwb's own secret rules, beside `redact-secret`'s detectors: shapes that crate misses and
//! that agents write into memory (a Slack webhook URL, an Azure connection string, a password
//! named in Chinese, a key quoted in backticks in prose, a labelled free-form secret), and the
//! documented example keys and placeholders that look like credentials but are not.
//!
//! Each rule is a regular expression whose `v` group is the value; a candidate value then has
//! to look like a secret (not a placeholder, not a word, not a path), so prose that merely
//! talks about passwords stays quiet. The corpus in `tests/fixtures/secrets/` measures it.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// A rule of memwb's own: its name (as a finding shows it), its pattern, and whether the value
/// must pass [`looks_secret`] (a prefix as specific as `SK` + 32 hex needs no more evidence).
struct Rule {
    name: &'static str,
    pattern: Regex,
    needs_shape_check: bool,
}

fn rule(name: &'static str, pattern: &str, needs_shape_check: bool) -> Rule {
    Rule {
        name,
        pattern: Regex::new(pattern).expect("a valid literal pattern"),
        needs_shape_check,
    }
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    // Characters a password may hold, up to a space, a quote or a separator of its context.
    let value = r#"[^\s"'`<>;,，。；]"#;
    vec![
        rule(
            "slack-webhook",
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<v>[A-Za-z0-9_/-]{20,})",
            false,
        ),
        rule(
            "discord-webhook",
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/(?P<v>\d{5,}/[A-Za-z0-9_-]{20,})",
            false,
        ),
        rule(
            "url-password",
            r"\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:(?P<v>[^\s@/]{3,128})@[A-Za-z0-9.-]",
            false,
        ),
        rule("pypi-token", r"\b(?P<v>pypi-AgE[A-Za-z0-9_-]{50,})", false),
        rule("twilio-api-key", r"\b(?P<v>SK[0-9a-fA-F]{32})\b", false),
        rule(
            "azure-shared-access-key",
            r"(?i)\b(?:SharedAccessKey|AccountKey|SharedAccessSignature)\s*=\s*(?P<v>[A-Za-z0-9+/%=&:_.-]{16,})",
            false,
        ),
        rule(
            "hex-secret",
            r"(?i)\b(?:hmac|signing|webhook|client|app|api|shared|secret|private)[A-Za-z _-]{0,24}(?:secret|key|token)\b[^\n:=]{0,20}(?:[:=]|\bis\b)[ \t]*[`'\x22]?(?P<v>[0-9a-f]{32,128})\b",
            false,
        ),
        rule(
            "password-zh",
            &format!(
                r"(?:密码|口令|密钥|秘钥|令牌)\s*(?:是|为|：|:|=)\s*[`'\x22“]?(?P<v>{value}{{4,}})"
            ),
            true,
        ),
        rule(
            "password-assignment",
            &format!(
                r"(?i)\b(?:pwd|passwd|pass|passphrase|db_?pass(?:word)?)\s*[:=]\s*[`'\x22]?(?P<v>{value}{{4,}})"
            ),
            true,
        ),
        rule(
            "labelled-secret",
            &format!(
                r"(?i)\b(?:client[ _-]?secret|secret[ _-]?key|secret|password|passphrase|api[ _-]?key|access[ _-]?key|auth[ _-]?token|token)\b[^\n:=]{{0,40}}?(?:[:=]|\bis\b)[ \t]*[`'\x22]?(?P<v>{value}{{8,}})"
            ),
            true,
        ),
        rule(
            "backticked-key",
            r"(?i)\b(?:key|token|secret|password|credential|api)\b[^\n`]{0,40}`(?P<v>[A-Za-z0-9_+/=.-]{20,})`",
            true,
        ),
    ]
});

/// One value a rule of memwb's own found: `(rule, byte range)`.
pub(super) fn find(text: &str) -> Vec<(&'static str, Range<usize>)> {
    let mut out = Vec::new();
    for rule in RULES.iter() {
        for captures in rule.pattern.captures_iter(text) {
            let Some(value) = captures.name("v") else {
                continue;
            };
            let trimmed = value
                .as_str()
                .trim_end_matches(['.', ')', ']', '}', '!', '?']);
            let range = value.start()..value.start() + trimmed.len();
            if rule.needs_shape_check && !looks_secret(trimmed) {
                continue;
            }
            out.push((rule.name, range));
        }
    }
    out
}

/// Whether a labelled value is a secret rather than prose, a placeholder or a reference: long
/// enough, no template syntax, and mixing letters with digits or symbols the way generated
/// and chosen passwords do (`hunter2hunter2X9`, `Tr0ub4dor&3x`), unlike words (`elsewhere`),
/// paths (`~/.config/gh/hosts.yml`) and environment references (`${TOKEN}`).
fn looks_secret(value: &str) -> bool {
    let chars: Vec<char> = value.chars().collect();
    if chars.len() < 4 || is_placeholder(value) {
        return false;
    }
    let environment_reference = value.len() > 2 && value.starts_with('%') && value.ends_with('%');
    if value.contains("://") || value.starts_with(['~', '/', '.']) || environment_reference {
        return false;
    }
    if value.contains('/') && !value.contains(['+', '=']) {
        return false;
    }
    let letters = chars.iter().filter(|c| c.is_alphabetic()).count();
    let digits = chars.iter().filter(|c| c.is_ascii_digit()).count();
    let symbols = chars.len() - letters - digits;
    let upper = chars.iter().any(|c| c.is_uppercase());
    let lower = chars.iter().any(|c| c.is_lowercase());
    // An identifier: words joined by `_`, `-` or `.` with no digit (`read_from_vault`).
    if digits == 0
        && chars
            .iter()
            .all(|c| c.is_alphabetic() || "_-.".contains(*c))
    {
        return false;
    }
    // A constant's name (`ARCHITECTURE_DECISION_RECORD_V2`).
    if value.contains('_')
        && !lower
        && chars
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
    {
        return false;
    }
    // A file name (`secrets.yaml`, `token2.json`).
    if let Some((_, ext)) = value.rsplit_once('.')
        && (2..=4).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_lowercase())
    {
        return false;
    }
    let classes = usize::from(letters > 0) + usize::from(digits > 0) + usize::from(symbols > 0);
    let mixed_case_word = upper && lower && digits > 0;
    letters > 0 && (classes >= 2 || mixed_case_word) && (digits > 0 || symbols > 0)
}

/// Template text and filler standing where a secret would go: `<your-token>`, `${API_KEY}`,
/// `{{ secret }}`, `your_api_key_here`, `changeme`, runs of `X`, `*` or `0`.
pub(super) fn is_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    let template = (value.contains('<') && value.contains('>'))
        || ["${", "$(", "{{", "}}"].iter().any(|t| value.contains(t));
    let variable = value.strip_prefix('$').is_some_and(|name| {
        !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    });
    if template || variable {
        return true;
    }
    const WORDS: [&str; 12] = [
        "your",
        "example",
        "placeholder",
        "changeme",
        "redacted",
        "dummy",
        "sample",
        "replace",
        "insert",
        "xxxx",
        "****",
        "todo",
    ];
    if WORDS.iter().any(|w| lower.contains(w)) {
        return true;
    }
    is_filler(value)
}

/// Whether most of a value is one repeated filler character (`ghp_XXXXXXXX…`, `sk-0000…`):
/// a placeholder shaped like a real key, reported as an example.
pub(super) fn is_filler(value: &str) -> bool {
    let filler = |c: char| matches!(c, 'X' | 'x' | '*' | '0' | '#' | '.' | '•');
    let mut longest = 0;
    let mut run = 0;
    let mut previous = None;
    for c in value.chars() {
        if filler(c) && previous == Some(c) {
            run += 1;
        } else {
            run = usize::from(filler(c));
        }
        previous = Some(c);
        longest = longest.max(run);
    }
    longest >= 6 && longest * 2 >= value.chars().count()
}

/// Keys vendors publish in their documentation, found whole: Stripe's test keys from its API
/// reference, jwt.io's sample token, AWS's `…EXAMPLE` keys. Reported as `secret-example`.
static DOCUMENTED_KEYS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:(?:AKIA|ASIA)[0-9A-Z]{9}EXAMPLE|[A-Za-z0-9/+]{30}EXAMPLEKEY",
        r"|sk_test_4eC39HqLyjWDarjtT1zdp7dc|pk_test_TYooMQauvdEDq54NiTphI7jx",
        r"|sk_test_BQokikJOvBiI2HlWgH4olfQ2|pk_test_6pRNASCoBOKtIshFeQd4XMUh",
        r"|eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+",
        r"|[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c)",
    ))
    .expect("a valid literal pattern")
});

/// The documented example keys in `text`.
pub(super) fn documented_examples(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    DOCUMENTED_KEYS.find_iter(text).map(|m| m.range())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_labelled_value_must_look_like_a_secret() {
        for secret in [
            "hunter2hunter2X9",
            "Tr0ub4dor&3x",
            "Qz8vLm3Kp1",
            "9vK2mQ8xL4pR7tZ1",
        ] {
            assert!(looks_secret(secret), "{secret}");
        }
        for prose in [
            "elsewhere",
            "read_from_vault",
            "~/.config/gh/hosts.yml",
            "${GITHUB_TOKEN}",
            "<your-password>",
            "secrets.yaml",
            "XXXXXXXXXXXX",
            "changeme123",
        ] {
            assert!(!looks_secret(prose), "{prose}");
        }
    }

    #[test]
    fn filler_is_a_placeholder_and_real_values_are_not() {
        assert!(is_placeholder("ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"));
        assert!(is_placeholder("sk-****************"));
        assert!(!is_placeholder("ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"));
    }
}
