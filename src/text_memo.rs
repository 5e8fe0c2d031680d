//! A bounded memo of what a pure function of a text answers, for texts read again and again
//! (a frontmatter parsed, a text scanned for credentials): the last [`TextMemo`] answers, by
//! the SHA-256 of their text, so that no text (and no secret in one) is kept as a key and a
//! key is 32 bytes whatever the text's length.

use std::num::NonZeroUsize;
use std::sync::{Mutex, PoisonError};

use lru::LruCache;
use sha2::{Digest, Sha256};

/// The answers of one function of a text for the last `capacity` texts of at most
/// `max_bytes` bytes; a longer text (rare) is answered afresh each time.
pub(crate) struct TextMemo<V> {
    kept: Mutex<Option<LruCache<[u8; 32], V>>>,
    capacity: NonZeroUsize,
    max_bytes: usize,
}

impl<V: Clone> TextMemo<V> {
    /// An empty memo (a `static`'s: nothing is allocated until the first text).
    pub(crate) const fn new(capacity: NonZeroUsize, max_bytes: usize) -> Self {
        Self {
            kept: Mutex::new(None),
            capacity,
            max_bytes,
        }
    }

    /// What `answer` gives for `text`: kept from an earlier call with the same text, or made
    /// now (outside the lock) and kept. The function must depend on the text alone.
    pub(crate) fn get_or(&self, text: &str, answer: impl FnOnce() -> V) -> V {
        if text.len() > self.max_bytes {
            return answer();
        }
        let digest: [u8; 32] = Sha256::digest(text.as_bytes()).into();
        // A panic elsewhere while holding the lock leaves the map as consistent as `LruCache`
        // keeps itself: every answer in it is still its text's, made outside the lock.
        let kept = || self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(known) = kept().as_mut().and_then(|map| map.get(&digest)) {
            return known.clone();
        }
        let made = answer();
        kept()
            .get_or_insert_with(|| LruCache::new(self.capacity))
            .put(digest, made.clone());
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer is kept by its whole text: texts of one length never answer for each other,
    /// a text read again is not answered afresh, and one too long to keep always is.
    #[test]
    fn an_answer_is_kept_by_its_whole_text_only() {
        let memo: TextMemo<usize> = TextMemo::new(NonZeroUsize::new(8).expect("not zero"), 8);
        let mut made = 0;
        let mut ask = |text: &str| {
            memo.get_or(text, || {
                made += 1;
                text.bytes().filter(|b| *b == b'a').count()
            })
        };
        assert_eq!(ask("aab"), 2);
        assert_eq!(ask("abb"), 1);
        assert_eq!(ask("aab"), 2);
        assert_eq!(ask("aaaaaaaaa"), 9);
        assert_eq!(ask("aaaaaaaaa"), 9);
        assert_eq!(made, 4, "aab once, abb once, the long text each time");
    }
}
