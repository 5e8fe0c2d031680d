//! Recall and precision of the secret rules on the generated corpus
//! (`tests/fixtures/secrets/corpus.txt`): every template is expanded into several samples
//! with a seeded generator; a positive is found when a reported secret covers its marked
//! value and redaction removes it; every other reported secret is a false positive.
//! docs/audit.md gives the method and the figures this prints.

use std::ops::Range;

use memwb::redact::{find, redact};

const SAMPLES_PER_TEMPLATE: u64 = 4;
const MIN_RECALL: f64 = 0.95;
const MIN_PRECISION: f64 = 0.97;

#[derive(Clone, Copy, PartialEq)]
enum Label {
    Secret,
    NotSecret,
    Example,
}

struct Sample {
    label: Label,
    kind: String,
    text: String,
    value: Option<Range<usize>>,
}

/// A small deterministic generator (SplitMix64): the corpus is the same on every run.
struct Generator(u64);

impl Generator {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick(&mut self, alphabet: &[u8]) -> char {
        alphabet[(self.next() % alphabet.len() as u64) as usize] as char
    }

    /// `length` characters of `class`; the mixed classes always hold every kind they name,
    /// as generated keys and chosen passwords do.
    fn string(&mut self, class: char, length: usize) -> String {
        const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
        const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        const DIGITS: &[u8] = b"0123456789";
        const SYMBOLS: &[u8] = b"!#%&*+-_=?^~";
        let (alphabet, required): (Vec<u8>, Vec<&[u8]>) = match class {
            'a' => ([LOWER, UPPER, DIGITS].concat(), vec![LOWER, UPPER, DIGITS]),
            'l' => ([LOWER, DIGITS].concat(), vec![LOWER, DIGITS]),
            'U' => ([UPPER, DIGITS].concat(), vec![UPPER, DIGITS]),
            'h' => (b"0123456789abcdef".to_vec(), vec![]),
            'H' => (b"0123456789ABCDEF".to_vec(), vec![]),
            'd' => (DIGITS.to_vec(), vec![]),
            'b' => (
                [LOWER, UPPER, DIGITS, b"+/"].concat(),
                vec![LOWER, UPPER, DIGITS],
            ),
            'p' => (
                [LOWER, UPPER, DIGITS, SYMBOLS].concat(),
                vec![LOWER, UPPER, DIGITS, SYMBOLS],
            ),
            'q' => (
                [LOWER, UPPER, DIGITS, b"!-_.~"].concat(),
                vec![LOWER, UPPER, DIGITS],
            ),
            other => panic!("unknown class {other}"),
        };
        let mut chars: Vec<char> = (0..length).map(|_| self.pick(&alphabet)).collect();
        for (slot, set) in required.iter().enumerate() {
            if slot < length {
                let at = (self.next() % length as u64) as usize;
                // Spread the required kinds over distinct positions.
                let at = (at + slot) % length;
                chars[at] = self.pick(set);
            }
        }
        chars.into_iter().collect()
    }
}

/// Expands `{c:N}` placeholders and `\n`, and finds the `[[value]]` marks.
fn expand(template: &str, generator: &mut Generator) -> (String, Option<Range<usize>>) {
    let template = template.replace("\\n", "\n");
    let mut out = String::new();
    let mut value_start = None;
    let mut value = None;
    let mut rest = template.as_str();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("[[") {
            value_start = Some(out.len());
            rest = after;
        } else if let Some(after) = rest.strip_prefix("]]") {
            value = value_start.take().map(|start| start..out.len());
            rest = after;
        } else if let Some(close) =
            rest.strip_prefix('{')
                .and_then(|r| r.find('}'))
                .filter(|&close| {
                    let inner = &rest[1..=close];
                    inner.len() >= 3
                        && inner.as_bytes()[1] == b':'
                        && inner[2..].bytes().all(|b| b.is_ascii_digit())
                })
        {
            let inner = &rest[1..=close];
            let class = inner.chars().next().unwrap_or('a');
            let length: usize = inner[2..].parse().unwrap_or(0);
            out.push_str(&generator.string(class, length));
            rest = &rest[close + 2..];
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    (out, value)
}

fn corpus() -> Vec<Sample> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/secrets/corpus.txt"
    ))
    .expect("the corpus fixture");
    let mut samples = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        let label = match line.chars().next() {
            Some('+') => Label::Secret,
            Some('-') => Label::NotSecret,
            Some('~') => Label::Example,
            _ => continue,
        };
        let (kind, template) = line[1..]
            .split_once(" | ")
            .unwrap_or_else(|| panic!("line {}: no ` | `", line_no + 1));
        for seed in 0..SAMPLES_PER_TEMPLATE {
            let mut generator = Generator(seed * 7919 + line_no as u64);
            let (text, value) = expand(template, &mut generator);
            assert_eq!(
                value.is_some(),
                label == Label::Secret,
                "line {}: a positive marks its value, nothing else does",
                line_no + 1
            );
            samples.push(Sample {
                label,
                kind: kind.trim().to_owned(),
                text,
                value,
            });
        }
    }
    samples
}

#[test]
fn secrets_recall_and_precision_on_the_generated_corpus() {
    let samples = corpus();
    let kinds = |label| {
        let mut kinds: Vec<&str> = samples
            .iter()
            .filter(|s| s.label == label)
            .map(|s| s.kind.as_str())
            .collect();
        kinds.dedup();
        kinds.len()
    };
    let (mut found, mut positives, mut true_hits, mut false_hits) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    let mut false_alarms = Vec::new();
    for sample in &samples {
        let hits: Vec<_> = find(&sample.text)
            .into_iter()
            .filter(|h| !h.example)
            .collect();
        let overlaps = |r: &Range<usize>| {
            sample
                .value
                .as_ref()
                .is_some_and(|v| r.start < v.end && v.start < r.end)
        };
        for hit in &hits {
            if overlaps(&hit.range) {
                true_hits += 1;
            } else {
                false_hits += 1;
                false_alarms.push(format!(
                    "{} ({}): {:?}",
                    sample.kind,
                    hit.rule,
                    &sample.text[hit.range.clone()]
                ));
            }
        }
        if let Some(value) = &sample.value {
            positives += 1;
            let secret = &sample.text[value.clone()];
            if hits.iter().any(|h| overlaps(&h.range)) && !redact(&sample.text).contains(secret) {
                found += 1;
            } else {
                misses.push(format!("{}: {:?}", sample.kind, sample.text));
            }
        }
    }
    let recall = found as f64 / positives as f64;
    let precision = true_hits as f64 / (true_hits + false_hits).max(1) as f64;
    println!(
        "corpus: {} samples, {positives} secrets of {} kinds, {} look-alikes of {} kinds, {} examples",
        samples.len(),
        kinds(Label::Secret),
        samples
            .iter()
            .filter(|s| s.label == Label::NotSecret)
            .count(),
        kinds(Label::NotSecret),
        samples.iter().filter(|s| s.label == Label::Example).count(),
    );
    println!(
        "recall {recall:.3} ({found}/{positives}), precision {precision:.3} ({true_hits}/{})",
        true_hits + false_hits
    );
    assert!(
        recall >= MIN_RECALL,
        "recall {recall:.3} < {MIN_RECALL}; missed:\n{}",
        misses.join("\n")
    );
    assert!(
        precision >= MIN_PRECISION,
        "precision {precision:.3} < {MIN_PRECISION}; false alarms:\n{}",
        false_alarms.join("\n")
    );
}

#[test]
fn documented_examples_and_filler_are_examples_and_never_redacted() {
    for sample in corpus().iter().filter(|s| s.label == Label::Example) {
        let hits = find(&sample.text);
        assert!(
            hits.iter().any(|h| h.example),
            "{}: not reported as an example: {hits:?}",
            sample.kind
        );
        assert!(
            hits.iter().all(|h| h.example),
            "{}: reported as a secret: {hits:?}",
            sample.kind
        );
        assert_eq!(redact(&sample.text), sample.text, "{}", sample.kind);
    }
}
