//! The changes a caller asks for: append, consolidate, edit, remove, revert. Each plans the next
//! set from the set read inside the lock; [`super::txn`] commits it.
//!
//! Placement: a consolidation appends its replacements after every kept record (the contract,
//! and the reference's golden `consolidated` store), but an approved proposal that replaces one
//! record with one (a fix) is an edit; an edit or a rename takes the place of the
//! record it replaces, in the manifest and so in MEMORY.md; a revert puts each restored record
//! in the place of the record it takes back.
//!
//! Addressing: a record is named by its `name`, which a hand edit can leave held by two listed
//! files. Such a name is ambiguous: every change that would pick one of them by name is refused
//! ([`StoreError::AmbiguousName`]) instead of touching both; a caller that knows the file
//! addresses it with a [`StoredRecord`]. Duplicates already in the set are kept as they are
//! (the rest of the set stays usable); a change never writes a new one.

use std::collections::HashSet;

use super::error::{Result, StoreError};
use super::txn::Next;
use super::{Commit, MemorySet, Record, Store, StoredRecord};

/// A record as the caller read it: by name (which must be unique in the set) or by its file.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target<'a> {
    Named(&'a Record),
    Stored(&'a StoredRecord),
}

impl Target<'_> {
    fn record(&self) -> &Record {
        match self {
            Target::Named(record) => record,
            Target::Stored(entry) => &entry.record,
        }
    }
}

impl Store {
    /// Appends new records; a name already in the set (or twice in the batch) fails the batch.
    pub fn extend(&self, records: Vec<Record>) -> Result<Commit> {
        if records.is_empty() {
            return Ok(Commit {
                set: self.read()?,
                ..Commit::default()
            });
        }
        self.transact(|current| {
            let mut next: Vec<Next> = current.entries.iter().cloned().map(Next::Keep).collect();
            next.extend(records.into_iter().map(Next::Write));
            Ok(next)
        })
    }

    /// Replaces `source_names` (among `base` and `additions`) with `replacements`, keeping
    /// every other current record, including those other writers added since `base` was read.
    /// The replacements are appended, as the contract has it.
    pub fn apply_consolidation(
        &self,
        base: &[Record],
        additions: Vec<Record>,
        source_names: &[String],
        replacements: Vec<Record>,
    ) -> Result<Commit> {
        self.consolidate(base, additions, source_names, replacements, false)
    }

    /// [`Store::apply_consolidation`] for an approved proposal: one that replaces exactly one
    /// record with exactly one (a fix, a redaction, a reviewer's edit) puts it in that record's
    /// place, as a hand edit does; any other is appended, as the contract has it.
    pub(crate) fn apply_proposed_consolidation(
        &self,
        base: &[Record],
        additions: Vec<Record>,
        source_names: &[String],
        replacements: Vec<Record>,
    ) -> Result<Commit> {
        let one_for_one = source_names.len() == 1 && replacements.len() == 1;
        self.consolidate(base, additions, source_names, replacements, one_for_one)
    }

    fn consolidate(
        &self,
        base: &[Record],
        additions: Vec<Record>,
        source_names: &[String],
        replacements: Vec<Record>,
        in_place: bool,
    ) -> Result<Commit> {
        validate_plan(base, &additions, source_names, &replacements)?;
        self.transact(|current| {
            check_base(current, base)?;
            let sources: HashSet<&str> = source_names.iter().map(String::as_str).collect();
            for name in &sources {
                unique(current, name)?;
            }
            let mut replacements = replacements.into_iter();
            let mut next: Vec<Next> = Vec::with_capacity(current.len() + 1);
            for entry in &current.entries {
                if !sources.contains(entry.record.name()) {
                    next.push(Next::Keep(entry.clone()));
                } else if in_place && let Some(record) = replacements.next() {
                    next.push(Next::Write(record));
                }
            }
            next.extend(
                additions
                    .into_iter()
                    .filter(|r| !sources.contains(r.name()))
                    .map(Next::Write),
            );
            next.extend(replacements.map(Next::Write));
            Ok(next)
        })
    }

    /// A hand edit of one record (a rename is a different name), based on the version the
    /// editor read: if it changed or vanished since, nothing is written. The edited record
    /// keeps the place of the one it replaces.
    pub fn replace(&self, base: &Record, edited: Record) -> Result<Commit> {
        self.revise(vec![Target::Named(base)], vec![edited])
    }

    /// [`Store::replace`] for the record in one listed file: works when its name is ambiguous.
    pub fn replace_entry(&self, base: &StoredRecord, edited: Record) -> Result<Commit> {
        self.revise(vec![Target::Stored(base)], vec![edited])
    }

    /// Removes records, each of which must still be exactly as the caller read it.
    pub fn remove(&self, base: &[Record]) -> Result<Commit> {
        if base.is_empty() {
            return Err(StoreError::NothingToRemove);
        }
        self.revise(base.iter().map(Target::Named).collect(), Vec::new())
    }

    /// [`Store::remove`] by listed file: works when a name is ambiguous.
    pub fn remove_entries(&self, base: &[StoredRecord]) -> Result<Commit> {
        if base.is_empty() {
            return Err(StoreError::NothingToRemove);
        }
        self.revise(base.iter().map(Target::Stored).collect(), Vec::new())
    }

    /// Removes `base` (each still exactly as the caller read it) and writes `additions`:
    /// the general base-checked edit. The i-th addition takes the place of the i-th base
    /// record; additions beyond the base are appended.
    pub fn exchange(&self, base: &[Record], additions: Vec<Record>) -> Result<Commit> {
        self.revise(base.iter().map(Target::Named).collect(), additions)
    }

    /// [`Store::exchange`] by listed file (how an undo names the files its entry wrote).
    pub fn exchange_entries(
        &self,
        base: &[StoredRecord],
        additions: Vec<Record>,
    ) -> Result<Commit> {
        self.revise(base.iter().map(Target::Stored).collect(), additions)
    }

    /// Takes out each target (checked as read) and writes `additions`, each in the place of the
    /// target of the same rank, the rest at the end.
    fn revise(&self, targets: Vec<Target<'_>>, additions: Vec<Record>) -> Result<Commit> {
        self.transact(|current| {
            let mut at = Vec::with_capacity(targets.len());
            for target in &targets {
                let position = locate(current, target)?;
                if at.contains(&position) {
                    return Err(StoreError::Conflict {
                        detail: format!("{:?} is named twice", target.record().name()),
                    });
                }
                at.push(position);
            }
            let mut additions = additions.into_iter();
            let mut in_place: Vec<Option<Record>> = vec![None; current.len()];
            let mut taken = vec![false; current.len()];
            for position in at {
                taken[position] = true;
                in_place[position] = additions.next();
            }
            let mut next = Vec::with_capacity(current.len() + additions.len());
            for (i, entry) in current.entries.iter().enumerate() {
                match in_place[i].take() {
                    Some(record) => next.push(Next::Write(record)),
                    None if taken[i] => {}
                    None => next.push(Next::Keep(entry.clone())),
                }
            }
            next.extend(additions.map(Next::Write));
            Ok(next)
        })
    }
}

/// Where `target` is in `current`, if it is still there exactly as it was read.
fn locate(current: &MemorySet, target: &Target<'_>) -> Result<usize> {
    let (position, record) = match target {
        Target::Named(record) => (unique(current, record.name())?, *record),
        Target::Stored(entry) => {
            let position = current.entries.iter().position(|e| e.file == entry.file);
            if position.is_none() && current.get(entry.record.name()).is_some() {
                // Its file is gone but the name is there: another version replaced it.
                return Err(StoreError::Conflict {
                    detail: format!("{:?} was changed since it was read", entry.record.name()),
                });
            }
            (position, &entry.record)
        }
    };
    match position {
        None => Err(StoreError::Conflict {
            detail: format!("{:?} was removed since it was read", record.name()),
        }),
        Some(i) if current.entries[i].record != *record => Err(StoreError::Conflict {
            detail: format!("{:?} was changed since it was read", record.name()),
        }),
        Some(i) => Ok(i),
    }
}

/// The position of the one entry named `name` (`None`: there is none); two or more is
/// [`StoreError::AmbiguousName`].
fn unique(current: &MemorySet, name: &str) -> Result<Option<usize>> {
    let mut holders = current
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.record.name() == name);
    let first = holders.next().map(|(i, _)| i);
    let others: Vec<String> = holders.map(|(_, e)| e.file.clone()).collect();
    match first {
        Some(i) if !others.is_empty() => Err(StoreError::AmbiguousName {
            name: name.to_owned(),
            files: std::iter::once(current.entries[i].file.clone())
                .chain(others)
                .collect(),
        }),
        first => Ok(first),
    }
}

fn validate_plan(
    base: &[Record],
    additions: &[Record],
    source_names: &[String],
    replacements: &[Record],
) -> Result<()> {
    let invalid = |rule: String| Err(StoreError::InvalidPlan { rule });
    if source_names.is_empty() {
        return invalid("source_names must not be empty".into());
    }
    if replacements.is_empty() {
        return invalid("records (the replacements) must not be empty".into());
    }
    let candidates: HashSet<&str> = base.iter().chain(additions).map(Record::name).collect();
    let mut seen = HashSet::new();
    for name in source_names {
        if !seen.insert(name) {
            return invalid(format!("source name {name:?} is listed twice"));
        }
        if !candidates.contains(name.as_str()) {
            return invalid(format!("source name {name:?} is not among the candidates"));
        }
    }
    Ok(())
}

/// Every base record must still be in the set, unchanged (when a name is held twice, by one
/// of its holders).
fn check_base(current: &MemorySet, base: &[Record]) -> Result<()> {
    for record in base {
        let mut named = current
            .entries
            .iter()
            .filter(|e| e.record.name() == record.name())
            .peekable();
        if named.peek().is_none() {
            return Err(StoreError::Conflict {
                detail: format!("{:?} was removed since it was read", record.name()),
            });
        }
        if !named.any(|e| e.record == *record) {
            return Err(StoreError::Conflict {
                detail: format!("{:?} was changed since it was read", record.name()),
            });
        }
    }
    Ok(())
}
