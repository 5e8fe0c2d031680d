//! The secret rules on a corpus of real token shapes and of look-alikes that are not secrets.
//! Every token here is synthetic (random characters in the provider's documented shape),
//! assembled at run time so that no scanner mistakes this file for a leak.

use memwb::redact::{REDACTED, find, preview, redact};

/// `(what, text, the value a scanner must find)`.
fn real_shapes() -> Vec<(&'static str, String, String)> {
    let aws = ["AKIA", "Z7Q3K2LMN4PQRS5T"].concat();
    let github = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    let github_pat = [
        "github_pat_",
        "11u8jzPde0IgxLd6GncfBA_epfJBd0Kh8oOOL8dKLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFRIBXuDL7",
    ]
    .concat();
    let gitlab = ["glpat-", "xYz12AbC34dEf56GhI78jK"].concat();
    let slack = [
        "xoxb-",
        "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    ]
    .concat();
    let stripe = ["sk_live_", "51H8xYzAbCdEfGhIjKlMnOpQrStUv"].concat();
    let anthropic = [
        "sk-ant-api03-",
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzAB-CDEFGHAA",
    ]
    .concat();
    let google = ["AIza", "SyD3x7Kq9LmN2pQrS5tUvW8xYz0AbCdEfGh"].concat();
    let openai = [
        "sk-proj-",
        "Na1Hedcm4pMbXDuCL1mHoOsFaQfDPrAJ71fTquWoGsbeKXgzg2sye9b2Rann76dEyTzAeKOmXR",
        "T3BlbkFJ",
        "rvftva9AW7hipTgadDZFlRJmCGmUXiAPyhzAnar3ZLt4bnlz2MPKgcjnCqaXNv1syeefnLOpaM",
    ]
    .concat();
    let jwt = [
        "eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.",
        "eyJzdWIiOiAiMTIzNDU2Nzg5MCIsICJuYW1lIjogIkNpIEJvdCIsICJpYXQiOiAxNzE2MjM5MDIyfQ.",
        "xxNDi9LE1Ki3ylOjt6o0NpUmkVO8JmR8y4EMfAdggcG",
    ]
    .concat();
    let db_password = "S3cr3tP4ssw0rd";
    let assigned = "hunter2hunter2X9";
    let key_block = [
        "-----BEGIN RSA PRIVATE KEY-----\n",
        "MIIEowIBAAKCAQEAx3f8Lq0vZ1pQkT6yWm9sR2cJ4nH8bV5dE7gF1aK3oN6uY0iX\n",
        "-----END RSA PRIVATE KEY-----",
    ]
    .concat();
    vec![
        (
            "aws access key",
            format!("the deploy key is {aws} for now"),
            aws.clone(),
        ),
        (
            "github token",
            format!("push with {github}"),
            github.clone(),
        ),
        (
            "github fine-grained token",
            format!("token: {github_pat}"),
            github_pat.clone(),
        ),
        ("gitlab token", format!("CI uses {gitlab}"), gitlab.clone()),
        ("slack bot token", format!("bot {slack}"), slack.clone()),
        (
            "stripe live key",
            format!("charge with {stripe}"),
            stripe.clone(),
        ),
        (
            "anthropic key",
            format!("ANTHROPIC_API_KEY={anthropic}"),
            anthropic.clone(),
        ),
        (
            "openai project key",
            format!("OPENAI_API_KEY={openai}"),
            openai.clone(),
        ),
        (
            "json web token",
            format!("Authorization: Bearer {jwt}"),
            jwt.clone(),
        ),
        (
            "google api key",
            format!("maps key {google}"),
            google.clone(),
        ),
        (
            "password in a URL",
            format!("db is postgres://admin:{db_password}@db.internal:5432/app"),
            db_password.to_owned(),
        ),
        (
            "password assignment",
            format!("password={assigned}"),
            assigned.to_owned(),
        ),
        (
            "private key block",
            format!("key:\n{key_block}\n"),
            key_block.clone(),
        ),
    ]
}

#[test]
fn every_real_shape_is_found_and_redacted_whole() {
    for (what, text, value) in real_shapes() {
        let hits: Vec<_> = find(&text).into_iter().filter(|h| !h.example).collect();
        assert!(!hits.is_empty(), "{what}: nothing found in {text:?}");
        let covered = hits
            .iter()
            .any(|h| text[h.range.clone()].contains(&value[..value.len().min(12)]));
        assert!(covered, "{what}: the hits {hits:?} miss the value");
        let redacted = redact(&text);
        assert!(redacted.contains(REDACTED), "{what}: {redacted}");
        assert!(
            !redacted.contains(&value),
            "{what}: the value survived: {redacted}"
        );
    }
}

#[test]
fn look_alikes_are_not_secrets() {
    let png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    for text in [
        "request id 123e4567-e89b-12d3-a456-426614174000 failed",
        "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
        &format!("the logo is ![logo]({png})"),
        "set password=<your password> in .env",
        "token = ${GITHUB_TOKEN}",
        "Use tabs in every language; run cargo test --all before pushing.",
        "the API key lives in the vault, never in this file",
    ] {
        let hits: Vec<_> = find(text).into_iter().filter(|h| !h.example).collect();
        assert!(hits.is_empty(), "{text:?} gave {hits:?}");
        assert_eq!(redact(text), text);
    }
}

#[test]
fn documented_example_keys_are_reported_as_examples_and_kept() {
    for key in [
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ] {
        let text = format!("as in the AWS docs: {key}");
        let hits = find(&text);
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert!(hits[0].example, "{key} is an example");
        assert_eq!(&text[hits[0].range.clone()], key);
        assert_eq!(redact(&text), text, "an example is not redacted");
    }
}

#[test]
fn a_preview_never_shows_more_than_a_quarter_and_nothing_of_a_short_secret() {
    for (what, _, value) in real_shapes() {
        let shown = preview(&value);
        let length = value.chars().count();
        let head = shown.trim_end_matches('…');
        if length < 16 {
            assert_eq!(shown, "[hidden]", "{what}: {shown}");
        } else {
            assert!(shown.ends_with('…'), "{what}: {shown}");
            assert!(value.starts_with(head), "{what}");
            assert!(head.chars().count() <= 4, "{what}: {shown}");
            assert!(head.chars().count() * 4 <= length, "{what}: {shown}");
        }
    }
    assert_eq!(
        preview("pw7"),
        "[hidden]",
        "a short URL password shows nothing"
    );
}
