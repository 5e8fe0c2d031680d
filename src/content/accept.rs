//! Accepted findings: a person judged a finding of one code on one record acceptable
//! (`memwb accept CODE NAME`), so `check` stops counting it and CI fails on new findings only.
//! Kept in memwb's state folder of the set, `accepted.json`, replaced atomically.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::AuditFinding;
use crate::fs::{IoHooks, atomic_replace_private, create_private_dir_all, read_optional};
use crate::redact::redact;
use crate::review::error::ReviewError;
use crate::review::who::Who;
use crate::store::StoreError;
use crate::time::now_ms;

pub const ACCEPTED_FILE: &str = "accepted.json";

/// The content codes a record can carry; only these can be accepted.
pub const CODES: [&str; 7] = [
    "secret",
    "secret-example",
    "stale-path",
    "relative-date",
    "date-past",
    "duplicate",
    "conflict",
];

/// The codes whose acceptance binds to the values found, not to the record.
pub const SECRET_CODES: [&str; 2] = ["secret", "secret-example"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepted {
    pub code: String,
    pub name: String,
    pub reason: Option<String>,
    pub by: Who,
    /// Unix milliseconds.
    pub at: i64,
    /// For `secret` and `secret-example`: the fingerprints of the values accepted
    /// ([`crate::redact::fingerprint`], never the values). A value not among them is a new
    /// finding. Empty in files written before fingerprints: those cover the code and record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fingerprints: Vec<String>,
}

/// The accepted findings of one set, kept in its state folder (`.memory/.memwb`).
#[derive(Debug, Clone)]
pub struct Acceptances {
    path: PathBuf,
    pub entries: Vec<Accepted>,
}

impl Acceptances {
    /// Reads `<state_dir>/accepted.json`; a missing file is no acceptances.
    pub fn load(state_dir: &Path) -> Result<Self, ReviewError> {
        let path = state_dir.join(ACCEPTED_FILE);
        let entries = match read_optional(&path)? {
            None => Vec::new(),
            Some(bytes) => {
                serde_json::from_slice(&bytes).map_err(|e| ReviewError::DataInvalid {
                    what: "accepted findings",
                    path: path.clone(),
                    rule: e.to_string(),
                })?
            }
        };
        Ok(Self { path, entries })
    }

    pub fn covers(&self, finding: &AuditFinding) -> Option<&Accepted> {
        self.entries.iter().find(|a| {
            a.code == finding.finding.code
                && a.name == finding.name
                && (a.fingerprints.is_empty()
                    || finding
                        .fingerprint
                        .as_ref()
                        .is_some_and(|f| a.fingerprints.contains(f)))
        })
    }

    /// Records an acceptance (replacing an earlier one for the same code and record) and
    /// writes the file. Call under the set's lock. `fingerprints` are the values a secret
    /// acceptance binds to ([`super::secret_fingerprints`]): one is needed for those codes.
    pub fn accept(
        &mut self,
        code: &str,
        name: &str,
        reason: Option<String>,
        fingerprints: Vec<String>,
    ) -> Result<&Accepted, ReviewError> {
        if !CODES.contains(&code) {
            return Err(ReviewError::FindingCodeUnknown {
                code: code.to_owned(),
                known: CODES.join(", "),
            });
        }
        if SECRET_CODES.contains(&code) && fingerprints.is_empty() {
            return Err(ReviewError::NothingToAccept {
                code: code.to_owned(),
                name: name.to_owned(),
            });
        }
        self.entries.retain(|a| !(a.code == code && a.name == name));
        self.entries.push(Accepted {
            code: code.to_owned(),
            name: name.to_owned(),
            reason: reason.map(|r| redact(&r).into_owned()),
            by: Who::current(),
            at: now_ms(),
            fingerprints: if SECRET_CODES.contains(&code) {
                fingerprints
            } else {
                Vec::new()
            },
        });
        if let Some(dir) = self.path.parent() {
            create_private_dir_all(dir).map_err(|e| StoreError::io("create", dir, e))?;
        }
        let mut bytes = serde_json::to_vec_pretty(&self.entries).unwrap_or_default();
        bytes.push(b'\n');
        atomic_replace_private(&self.path, &bytes, &IoHooks::default())?;
        Ok(&self.entries[self.entries.len() - 1])
    }
}
