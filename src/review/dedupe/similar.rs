//! Which memories say the same thing. Each memory is its content words (name, description and
//! body; [`super::words`]), weighted by how rare each word is in the folder (a word every note
//! of the project uses tells nothing) and twice as much when the name or description uses it.
//! Two memories are near-duplicates when the cosine of those weights reaches [`SIMILARITY`]
//! and they share at least [`MIN_SHARED`] words. A group is a clique: every two of its
//! members are near-duplicates, so unrelated notes never chain into one group.

use std::collections::{BTreeMap, HashMap};

use super::words::{Words, is_bigram, joined_bigrams, words};

/// The cosine two memories' weighted words must reach.
pub const SIMILARITY: f64 = 0.3;
/// The content words two near-duplicates must share at least.
pub const MIN_SHARED: usize = 2;
/// At most this many shared words are named in a message.
const SHOWN_WORDS: usize = 8;
/// A word in the name or description counts this much more than one only in the body.
const SUMMARY_WEIGHT: f64 = 2.0;

/// A group of near-duplicates among some memories: their positions, in order, and the words
/// they share, the most telling first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Similar {
    pub members: Vec<usize>,
    pub shared_words: Vec<String>,
}

/// One memory as weighted words, by the form they are compared in.
struct Vector {
    weights: BTreeMap<String, f64>,
    norm: f64,
    /// Each word as written, for messages.
    written: Words,
    /// Name, description and body: where shared bigrams are joined back into words.
    text: String,
}

fn vectors(items: &[(&str, &str, &str)]) -> Vec<Vector> {
    let words: Vec<(Words, Words)> = items
        .iter()
        .map(|(name, description, body)| {
            let summary = words(&format!("{name}\n{description}"));
            (summary, words(body))
        })
        .collect();
    let mut documents: HashMap<&str, usize> = HashMap::new();
    for (summary, body) in &words {
        for word in summary
            .keys()
            .chain(body.keys().filter(|w| !summary.contains_key(*w)))
        {
            *documents.entry(word.as_str()).or_default() += 1;
        }
    }
    let count = items.len() as f64;
    words
        .iter()
        .zip(items)
        .map(|((summary, body), (name, description, text))| {
            let mut written = body.clone();
            written.extend(summary.iter().map(|(k, v)| (k.clone(), v.clone())));
            let weights: BTreeMap<String, f64> = written
                .keys()
                .map(|word| {
                    let seen = documents.get(word.as_str()).copied().unwrap_or(1) as f64;
                    // Smoothed inverse document frequency: 1 for a word in every memory.
                    let rarity = ((1.0 + count) / (1.0 + seen)).ln() + 1.0;
                    let place = if summary.contains_key(word) {
                        SUMMARY_WEIGHT
                    } else {
                        1.0
                    };
                    (word.clone(), rarity * place)
                })
                .collect();
            let norm = weights.values().map(|w| w * w).sum::<f64>().sqrt();
            Vector {
                weights,
                norm,
                written,
                text: format!("{name}\n{description}\n{text}"),
            }
        })
        .collect()
}

/// The cosine of two memories, when they share enough words to be compared at all.
fn similarity(a: &Vector, b: &Vector) -> Option<f64> {
    let (small, large) = if a.weights.len() <= b.weights.len() {
        (a, b)
    } else {
        (b, a)
    };
    let mut shared = 0;
    let mut dot = 0.0;
    for (word, weight) in &small.weights {
        if let Some(other) = large.weights.get(word) {
            shared += 1;
            dot += weight * other;
        }
    }
    if shared < MIN_SHARED || a.norm == 0.0 || b.norm == 0.0 {
        return None;
    }
    Some(dot / (a.norm * b.norm))
}

/// The dedupe rule over any memories (both formats), given as `(name, description, body)`:
/// cliques of two or more near-duplicates, in the order of their first member. The closest
/// pairs are grouped first; a memory joins a group only if it is a near-duplicate of every
/// member, and belongs to one group at most.
pub fn similar_groups<'a>(
    items: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> Vec<Similar> {
    let items: Vec<(&str, &str, &str)> = items.into_iter().collect();
    let vectors = vectors(&items);
    let mut close: HashMap<(usize, usize), f64> = HashMap::new();
    for i in 0..vectors.len() {
        for j in i + 1..vectors.len() {
            if let Some(score) = similarity(&vectors[i], &vectors[j])
                && score >= SIMILARITY
            {
                close.insert((i, j), score);
            }
        }
    }
    let mut pairs: Vec<(&(usize, usize), &f64)> = close.iter().collect();
    pairs.sort_by(|a, b| b.1.total_cmp(a.1).then(a.0.cmp(b.0)));
    let near = |a: usize, b: usize| close.contains_key(&(a.min(b), a.max(b)));
    let mut group_of: Vec<Option<usize>> = vec![None; vectors.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (&(i, j), _) in pairs {
        match (group_of[i], group_of[j]) {
            (None, None) => {
                group_of[i] = Some(groups.len());
                group_of[j] = Some(groups.len());
                groups.push(vec![i, j]);
            }
            (Some(g), None) | (None, Some(g)) => {
                let newcomer = if group_of[i].is_none() { i } else { j };
                if groups[g].iter().all(|&m| near(m, newcomer)) {
                    groups[g].push(newcomer);
                    group_of[newcomer] = Some(g);
                }
            }
            (Some(_), Some(_)) => {}
        }
    }
    for members in &mut groups {
        members.sort_unstable();
    }
    groups.sort_by_key(|members| members[0]);
    groups
        .into_iter()
        .map(|members| Similar {
            shared_words: shared_words(&members, &vectors),
            members,
        })
        .collect()
}

/// The words every member has, the heaviest first (at most [`SHOWN_WORDS`]); when a group of
/// three or more has none in common, those of its first two members.
fn shared_words(members: &[usize], vectors: &[Vector]) -> Vec<String> {
    let all = words_in_all(members, vectors);
    if all.is_empty() && members.len() > 2 {
        return words_in_all(&members[..2], vectors);
    }
    all
}

fn first_written(vectors: &[Vector], member: usize, word: &str) -> String {
    vectors[member]
        .written
        .get(word)
        .cloned()
        .unwrap_or_else(|| word.to_owned())
}

fn words_in_all(members: &[usize], vectors: &[Vector]) -> Vec<String> {
    let first = &vectors[members[0]].weights;
    let shared: Vec<(&String, f64)> = first
        .iter()
        .filter_map(|(word, weight)| {
            let mut total = *weight;
            for &m in &members[1..] {
                total += vectors[m].weights.get(word)?;
            }
            Some((word, total))
        })
        .collect();
    let bigrams: HashMap<&str, f64> = shared
        .iter()
        .filter(|(word, _)| is_bigram(word))
        .map(|(word, total)| (word.as_str(), *total))
        .collect();
    let mut shown: Vec<(String, f64)> = shared
        .iter()
        .filter(|(word, _)| !is_bigram(word) || word.chars().count() == 1)
        .map(|(word, total)| (first_written(vectors, members[0], word), *total))
        .collect();
    let text = &vectors[members[0]].text;
    for phrase in joined_bigrams(text, |b| bigrams.contains_key(b)) {
        let chars: Vec<char> = phrase.chars().collect();
        let total = chars
            .windows(2)
            .filter_map(|pair| bigrams.get(pair.iter().collect::<String>().as_str()))
            .sum();
        shown.push((phrase, total));
    }
    shown.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    shown
        .into_iter()
        .take(SHOWN_WORDS)
        .map(|(word, _)| word)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrelated_notes_do_not_chain_through_a_shared_neighbour() {
        // b is close to a and to c, a and c are unrelated: two groups at most, never a+b+c.
        let groups = similar_groups([
            (
                "deploy-staging",
                "deploy staging cluster kubectl helm",
                "helm chart rollout",
            ),
            (
                "deploy-helm",
                "deploy staging helm kubectl postgres migration",
                "helm chart migration rollout postgres",
            ),
            (
                "postgres-migration",
                "postgres migration schema alembic",
                "migration rollout postgres alembic",
            ),
        ]);
        assert!(groups.iter().all(|g| g.members.len() == 2), "{groups:?}");
        assert!(!groups.is_empty());
    }
}
