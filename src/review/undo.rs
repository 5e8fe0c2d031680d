//! Undo, written once over the change model (docs/architecture.md, "The change model"): an
//! entry is undone by applying the inverse of its change ([`Change::inverse`]), whose base is
//! what the entry left. What is refused before anything is read ([`Entry::undo_refusal`]), the
//! check that each path still holds what the entry left ([`check_base`]) and the words a
//! refusal is said in ([`Blocked::said`]) are here; a format's engine only reads what holds each
//! path now and writes the inverse with compare-and-swap under its lock ([`UndoEngine`]).

use super::entry::Entry;
use super::error::{FoundSince, ReviewError};
use crate::change::{Change, Touched};

/// What holds one path of an inverse change now, as the journal would keep it (credentials
/// redacted; `None`: nothing), read by the format's engine for [`check_base`].
#[derive(Debug, Clone)]
pub(crate) struct Held {
    /// The path of the inverse: `before` is what the entry left there, `after` what the undo
    /// puts back.
    pub touched: Touched,
    /// Its content (`Version::kept`; `None`: nothing there). Only the content is compared: a
    /// refusal names the memory from the entry's own side, so what holds the path now is not
    /// read for its name (a frontmatter parse per file of a Claude Code folder).
    pub now: Option<String>,
}

/// Why a format's engine did not write an undo, in its terms; [`Blocked::said`] words it the
/// same on every format.
#[derive(Debug)]
pub(crate) enum Blocked {
    /// A memory is not as the entry left it: found by [`check_base`], or by the engine's own
    /// compare (a `.memory` name taken again).
    Found { name: String, found: FoundSince },
    /// Another program wrote `file` between the engine's read and its write.
    Raced { file: String },
    /// The engine's compare-and-swap refused, in its own words ("since it was read").
    Conflict(String),
    /// Anything else: the undo failed, not refused.
    Failed(ReviewError),
}

impl Blocked {
    /// The refusal of the undo of entry `id`, one wording on every format.
    pub(crate) fn said(self, id: u64) -> ReviewError {
        match self {
            Blocked::Found { name, found } => ReviewError::undo_found(id, &name, found),
            Blocked::Raced { file } => ReviewError::UndoBlocked {
                id,
                detail: format!("{file} changed since #{id}"),
            },
            Blocked::Conflict(detail) => ReviewError::UndoBlocked {
                id,
                detail: detail.replace("since it was read", &format!("since #{id}")),
            },
            Blocked::Failed(error) => error,
        }
    }
}

impl From<ReviewError> for Blocked {
    fn from(error: ReviewError) -> Self {
        Blocked::Failed(error)
    }
}

/// The one seam a format implements to be undone: the rest of undo is [`undo`].
pub(crate) trait UndoEngine {
    /// What the engine answers once the inverse is written (its commit, the undo's entry).
    type Undone;

    /// Writes `inverse` (the inverse of `entry`'s change) as one journaled change, its
    /// compare-and-swap against what `entry` left. Before the first byte is written it reads
    /// what holds each path it compares whole and passes them to `check`, whose refusal it
    /// returns unchanged; a path the engine merges instead (an index kept as lines) is its
    /// own to check.
    fn write_inverse(
        &self,
        entry: &Entry,
        inverse: &Change,
        check: &dyn Fn(&[Held]) -> Result<(), ReviewError>,
    ) -> Result<Self::Undone, Blocked>;
}

/// An undo written: what the format's engine answered, and the inverse change it wrote, from
/// which what the undo says (its notes, a format's summary) is said without building the
/// entry's change again.
#[derive(Debug)]
pub(crate) struct Reverted<U> {
    pub undone: U,
    pub inverse: Change,
}

impl<U> Reverted<U> {
    /// The same inverse, with `undone` as the engine's answer (said in a format's terms).
    pub(crate) fn map<V>(self, said: impl FnOnce(U, &Change) -> V) -> Reverted<V> {
        Reverted {
            undone: said(self.undone, &self.inverse),
            inverse: self.inverse,
        }
    }
}

/// Reverts `entry` as a new change, whatever came after it, as `git revert` does: refused as
/// [`Entry::undo_refusal`] says, or when a path no longer holds what the entry left there;
/// otherwise `engine` writes the inverse of its change.
pub(crate) fn undo<E: UndoEngine + ?Sized>(
    engine: &E,
    entry: &Entry,
) -> Result<E::Undone, ReviewError> {
    revert(engine, entry).map(|reverted| reverted.undone)
}

/// [`undo`], answering the inverse it wrote too.
pub(crate) fn revert<E: UndoEngine + ?Sized>(
    engine: &E,
    entry: &Entry,
) -> Result<Reverted<E::Undone>, ReviewError> {
    // Made once: each file image's memory name is read through its frontmatter.
    let change = entry.change();
    if let Some(refused) = entry.undo_refusal_of(&change) {
        return Err(refused);
    }
    let id = entry.id;
    let inverse = change.inverse();
    let undone = engine
        .write_inverse(entry, &inverse, &|held| check_base(id, held))
        .map_err(|blocked| blocked.said(id))?;
    Ok(Reverted { undone, inverse })
}

/// Refuses the undo of entry `id` when a path does not hold what the entry left: first the
/// memories it wrote (changed or removed since), then the names it freed (added again since),
/// each said by the memory's name. A path the entry left as it found it is not checked: the
/// undo writes nothing there.
pub(crate) fn check_base(id: u64, held: &[Held]) -> Result<(), ReviewError> {
    let wrote = held.iter().filter(|h| h.touched.before.is_some());
    let freed = held.iter().filter(|h| h.touched.before.is_none());
    for held in wrote.chain(freed).filter(|h| !h.touched.unchanged()) {
        if let Some((name, found)) = found_at(&held.touched, held.now.as_deref()) {
            return Err(Blocked::Found { name, found }.said(id));
        }
    }
    Ok(())
}

/// How a path of an inverse is found when `now` is not its base, and the memory that names it.
fn found_at(touched: &Touched, now: Option<&str>) -> Option<(String, FoundSince)> {
    let found = match (&touched.before, now) {
        (None, None) => return None,
        (Some(left), Some(now)) if left.kept == now => return None,
        (None, Some(_)) => FoundSince::AddedAgain,
        (Some(_), None) => FoundSince::Removed,
        (Some(_), Some(_)) => FoundSince::Changed,
    };
    // A name taken again is said by the memory the undo would bring back.
    let named = match found {
        FoundSince::AddedAgain => touched.after.as_ref(),
        _ => touched.before.as_ref(),
    };
    let name = named
        .and_then(|v| v.memory.clone())
        .unwrap_or_else(|| touched.file.clone());
    Some((name, found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::Version;

    fn memory(name: &str, kept: &str) -> Option<Version> {
        Some(Version {
            memory: Some(name.into()),
            kept: kept.into(),
        })
    }

    fn held(
        file: &str,
        left: Option<Version>,
        back: Option<Version>,
        now: Option<Version>,
    ) -> Held {
        let now = now.map(|v| v.kept);
        Held {
            touched: Touched {
                file: file.into(),
                before: left,
                after: back,
                redacted: Default::default(),
            },
            now,
        }
    }

    fn detail(result: Result<(), ReviewError>) -> String {
        match result {
            Err(ReviewError::UndoBlocked { detail, .. }) => detail,
            other => panic!("not refused as blocked: {other:?}"),
        }
    }

    #[test]
    fn a_path_that_holds_what_the_entry_left_passes() {
        let same = [
            held("a.md", memory("a", "2"), memory("a", "1"), memory("a", "2")),
            held("b.md", None, memory("b", "x"), None),
        ];
        assert!(check_base(4, &same).is_ok());
    }

    #[test]
    fn each_way_a_path_differs_is_said_by_the_memorys_name() {
        let changed = held("a.md", memory("a", "2"), memory("a", "1"), memory("a", "3"));
        assert_eq!(
            detail(check_base(4, &[changed])),
            "\"a\" was changed since #4"
        );
        let removed = held("a.md", memory("a", "2"), None, None);
        assert_eq!(
            detail(check_base(4, &[removed])),
            "\"a\" was removed since #4"
        );
        let again = held("b.md", None, memory("b", "x"), memory("b", "y"));
        assert_eq!(
            detail(check_base(4, &[again])),
            "\"b\" was added again since #4"
        );
        let index = held(
            "MEMORY.md",
            Some(Version {
                memory: None,
                kept: "1".into(),
            }),
            None,
            None,
        );
        assert_eq!(
            detail(check_base(4, &[index])),
            "\"MEMORY.md\" was removed since #4"
        );
    }

    #[test]
    fn what_the_entry_wrote_is_checked_before_the_names_it_freed() {
        let both = [
            held("b.md", None, memory("b", "x"), memory("b", "y")),
            held("a.md", memory("a", "2"), None, None),
        ];
        assert_eq!(detail(check_base(4, &both)), "\"a\" was removed since #4");
    }

    /// `Entry::changed_files` answers without building the change: the same answer as its
    /// definition over the change, for an entry of each kind of path and of none.
    #[test]
    fn whether_an_entry_changed_files_is_what_its_change_says() {
        let base = r#""id":4,"at":1,"op":"set","who":{"user":"ana","host":"h"},"proposal":null,"reason":null,"undoes":null"#;
        let record = r#"{"file":"a.md","name":"a","type":"user","description":"d","body":"b"}"#;
        let lines = serde_json::to_string(&crate::review::line_change::LineChange::between(
            "MEMORY.md",
            "- a\n",
            "- a\n- b\n",
        ))
        .expect("json");
        let kinds = [
            r#""before":[],"after":[]"#.to_owned(),
            format!(r#""before":[{record}],"after":[]"#),
            format!(r#""before":[],"after":[{record}]"#),
            r#""before":[],"after":[],"files":[{"file":"a.md","before":null,"after":"x"}]"#
                .to_owned(),
            format!(r#""before":[],"after":[],"lines":[{lines}]"#),
        ];
        let mut changed = Vec::new();
        for kind in &kinds {
            let entry: Entry =
                serde_json::from_str(&format!("{{{base},{kind}}}")).expect("an entry");
            let by_change = !entry.change().touched.is_empty();
            assert_eq!(entry.changed_files(), by_change, "{kind}");
            changed.push(by_change);
        }
        assert_eq!(changed, [false, true, true, true, true]);
    }

    #[test]
    fn a_path_the_entry_left_as_it_was_is_not_checked() {
        let unchanged = held("a.md", memory("a", "x"), memory("a", "x"), None);
        assert!(check_base(4, &[unchanged]).is_ok());
    }
}
