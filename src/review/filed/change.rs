//! A proposal as the one change model sees it ([`Proposal::change`]): every file it would
//! touch, each as it is and as approving it would leave it, whatever the format kept (a plan
//! of records with the sources it read, or whole file images). What a proposal says of itself
//! (its kind as shown, its summary, whether it only redacts, the memories it reads and
//! writes) is written once over that change, the same on every format.

use serde_json::Value;

use super::images::topic_name;
use super::{Kind, Proposal};
use crate::change::{Change, FileImage, Op, Sides, Touched, Version};
#[cfg(feature = "tui")]
use crate::frontmatter;
use crate::memory::RecordInput;
use crate::redact::REDACTION_EVIDENCE;

/// A memory's fields as a journal entry or a proposal keeps them: the memory it is, its
/// fields (as JSON) its content.
pub(crate) fn input_version(record: &RecordInput) -> Version {
    Version {
        memory: Some(record.name.clone()),
        kept: serde_json::to_string(record).unwrap_or_default(),
    }
}

/// A whole file: a memory by its name, unless it is an index (`index`, as the format says).
pub(crate) fn image_touched(image: &FileImage, index: bool) -> Touched {
    let version = |text: &Option<String>| {
        text.as_ref().map(|text| Version {
            memory: (!index).then(|| topic_name(&image.file, text)),
            kept: text.clone(),
        })
    };
    Touched {
        file: image.file.clone(),
        before: version(&image.before),
        after: version(&image.after),
        redacted: Sides::default(),
    }
}

/// The memory one side of a change holds, as its fields, whatever the format kept: a record's
/// fields as [`input_version`] keeps them, or a whole file read through its frontmatter (`type`
/// and `description` empty where it has none, its name the one the change says). What the
/// workbench draws of a proposal and of a journal entry alike. `None`: the side holds no one
/// memory (an index).
#[cfg(feature = "tui")]
pub(crate) fn version_fields(version: &Version) -> Option<RecordInput> {
    let name = version.memory.as_ref()?;
    // A record's fields are kept as an object with exactly its four keys, which no file whose
    // text is a memory (frontmatter, then a body) reads as.
    if let Ok(record) = serde_json::from_str::<RecordInput>(&version.kept) {
        return Some(record);
    }
    let parsed = frontmatter::parse(&version.kept);
    Some(RecordInput {
        name: name.clone(),
        kind: parsed.kind().unwrap_or_default().to_owned(),
        description: parsed.field("description").unwrap_or_default().to_owned(),
        body: parsed.trimmed_body().to_owned(),
    })
}

/// A plan of records as kept, read leniently: the names of the memories it replaces and the
/// records it writes (an item that does not read is left out: whether the plan is valid is its
/// state's to say). An extraction is an array of records, a consolidation
/// `{"source_names":[...],"records":[...]}`.
fn planned(plan: &Value) -> (Vec<String>, Vec<RecordInput>) {
    let records = |items: Option<&Value>| -> Vec<RecordInput> {
        items
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|item| serde_json::from_value(item.clone()).ok())
            .collect()
    };
    match plan {
        Value::Array(_) => (Vec::new(), records(Some(plan))),
        Value::Object(fields) => {
            let sources = fields
                .get("source_names")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            (sources, records(fields.get("records")))
        }
        _ => (Vec::new(), Vec::new()),
    }
}

impl Kind {
    /// The kind of change `touched` makes, as a person reads it: only new files (or
    /// memories) is an extraction, one that removes any a consolidation, anything else (every
    /// memory changed where it is, a credential redacted) an edit. `None`: it touches nothing.
    pub fn of_touched(touched: &[Touched]) -> Option<Kind> {
        if touched.is_empty() {
            None
        } else if touched.iter().all(|t| t.before.is_none()) {
            Some(Kind::Extraction)
        } else if touched.iter().any(|t| t.after.is_none()) {
            Some(Kind::Consolidation)
        } else {
            Some(Kind::Edit)
        }
    }

    /// The change model's op for this kind.
    pub fn op(self) -> Op {
        match self {
            Kind::Extraction => Op::Add,
            Kind::Consolidation => Op::Consolidate,
            Kind::Edit => Op::Set,
        }
    }
}

/// What of a proposal one place of its change comes from.
enum Place {
    /// A memory its plan replaces, as it read it.
    Source,
    /// The record at this index of its plan.
    Planned(usize),
    /// A memory it adds beside its plan.
    Addition,
    /// A whole file image it holds.
    Image,
}

impl Proposal {
    /// The change this proposal makes if approved: every file it touches, derived from what
    /// it keeps whatever the format (the sources it read with their files and the records its
    /// plan writes; the file images it holds), and its op from [`Kind::of_touched`].
    ///
    /// A plan of records writes each record into a file the format names when approving it,
    /// so such a memory is touched at an empty path, except that a plan replacing one memory
    /// with one writes it in that memory's place (as approving does): then the source's file
    /// is touched before and after.
    pub fn change(&self) -> Change {
        self.change_of(self.laid_out())
    }

    /// [`Proposal::change`] of its places ([`Proposal::laid_out`]).
    fn change_of(&self, places: Vec<(Touched, Place)>) -> Change {
        let touched: Vec<Touched> = places.into_iter().map(|(t, _)| t).collect();
        let kind = Kind::of_touched(&touched).unwrap_or(self.kind);
        Change {
            op: kind.op(),
            touched,
        }
    }

    /// [`Proposal::change`]'s places, each with what of the proposal it comes from: the one
    /// layout that the change, [`Proposal::planned_at`] and the editable places read.
    fn laid_out(&self) -> Vec<(Touched, Place)> {
        let (sources, records) = planned(&self.plan);
        let mut places: Vec<(Touched, Place)> = self
            .base
            .iter()
            .filter(|source| sources.contains(&source.record.name))
            .map(|source| {
                let touched = Touched {
                    file: source.file.clone(),
                    before: Some(input_version(&source.record)),
                    after: None,
                    redacted: Sides::default(),
                };
                (touched, Place::Source)
            })
            .collect();
        let mut written: Vec<usize> = (0..records.len()).collect();
        if let ([source], [record]) = (sources.as_slice(), records.as_slice())
            && let Some((in_place, place)) = places
                .iter_mut()
                .find(|(t, _)| t.before.as_ref().and_then(|b| b.memory.as_ref()) == Some(source))
        {
            in_place.after = Some(input_version(record));
            *place = Place::Planned(0);
            written.clear();
        }
        let new_memory = |record: &RecordInput| Touched {
            file: String::new(),
            before: None,
            after: Some(input_version(record)),
            redacted: Sides::default(),
        };
        places.extend(
            written
                .into_iter()
                .map(|i| (new_memory(&records[i]), Place::Planned(i))),
        );
        places.extend(
            self.additions
                .iter()
                .filter(|addition| !sources.contains(&addition.name))
                .map(|addition| (new_memory(addition), Place::Addition)),
        );
        places.extend(
            self.files
                .iter()
                .map(|image| (image_touched(image, false), Place::Image)),
        );
        places
    }

    /// What kind of change it is as a person reads it, the same on every format
    /// ([`Kind::of_touched`] of its change): a fix that rewrites one memory where it is is an
    /// edit, whichever way its format files it. The kind it was filed as is `kind`.
    pub fn change_kind(&self) -> Kind {
        self.kind_of(&self.change())
    }

    /// [`Proposal::change_kind`] given its change ([`Proposal::change`]), made once by a
    /// caller that needs it too.
    pub(crate) fn kind_of(&self, change: &Change) -> Kind {
        Kind::of_touched(&change.touched).unwrap_or(self.kind)
    }

    /// Which of its plan's records its change writes at `at` (a place in
    /// [`Proposal::change`]'s `touched`). `None`: that place holds no record its plan writes
    /// (a source it removes, an addition, a file image, or no place at all). What a
    /// reviewer's edit of the memory at `at` replaces in a plan of records.
    pub(crate) fn planned_at(&self, at: usize) -> Option<usize> {
        match self.laid_out().get(at) {
            Some((_, Place::Planned(i))) => Some(*i),
            _ => None,
        }
    }

    /// [`Proposal::change`], and the places in it of the memories a reviewer's edit can be
    /// saved into, whatever its format keeps: a record its plan writes or a file image it
    /// writes. An addition (a memory it adds beside its plan) is drawn but not: no edit of it
    /// is kept, so `e` is refused on it before anyone types. Both from one layout of its
    /// places (each reads every file image's memory name through its frontmatter).
    #[cfg(feature = "tui")]
    pub(crate) fn change_and_edit_kept(&self) -> (Change, Vec<usize>) {
        let places = self.laid_out();
        let kept = edit_kept_among(&places);
        (self.change_of(places), kept)
    }

    /// What it does, in one line: "add a, b", "edit a; add c", "replace a, b with c",
    /// "remove d", or "redact NAME: what" for a redaction.
    pub fn summary(&self) -> String {
        self.summary_of(&self.change())
    }

    /// [`Proposal::summary`] given its change ([`Proposal::change`]), made once by a caller
    /// that needs it too.
    pub(crate) fn summary_of(&self, change: &Change) -> String {
        if let Some(redaction) = self.redaction_said(change) {
            return redaction;
        }
        touched_summary(&change.touched)
    }

    /// "redact NAME: github-token on line 7" for a proposal that only redacts credentials:
    /// its stored before and after are the same (both kept redacted), so "edit X" would say
    /// nothing of what it does.
    pub fn redaction_summary(&self) -> Option<String> {
        self.redaction_said(&self.change())
    }

    fn redaction_said(&self, change: &Change) -> Option<String> {
        let what = self
            .evidence
            .as_deref()
            .and_then(|e| e.strip_prefix(REDACTION_EVIDENCE))
            .and_then(|e| e.split(';').next())?;
        if !change.redaction_only() {
            return None;
        }
        Some(format!(
            "redact {}: {what}",
            change.memories().changed.join(", ")
        ))
    }
}

/// The places among `places` (a proposal's layout) of the memories a reviewer's edit can be
/// saved into (see `Proposal::change_and_edit_kept`).
#[cfg(feature = "tui")]
fn edit_kept_among(places: &[(Touched, Place)]) -> Vec<usize> {
    let kept = |(touched, place): &(Touched, Place)| match place {
        Place::Planned(_) => true,
        Place::Image => touched.after.is_some(),
        Place::Source | Place::Addition => false,
    };
    (0..places.len()).filter(|at| kept(&places[*at])).collect()
}

/// What a change does to its memories, in one line: "add a", "edit b", "replace a, b with c",
/// "remove d" (parts joined by "; "), by the memory each file holds.
pub(crate) fn touched_summary(touched: &[Touched]) -> String {
    let names = |wanted: fn(&Touched) -> bool, side: fn(&Touched) -> &Option<Version>| {
        touched
            .iter()
            .filter(|t| wanted(t))
            .filter_map(|t| side(t).as_ref()?.memory.clone())
            .collect::<Vec<String>>()
    };
    let created = names(|t| t.before.is_none(), |t| &t.after);
    let edited = names(|t| t.before.is_some() && t.after.is_some(), |t| &t.after);
    let deleted = names(|t| t.after.is_none(), |t| &t.before);
    if touched.is_empty() {
        return NOTHING_PROPOSED.into();
    }
    if !deleted.is_empty() && (!created.is_empty() || !edited.is_empty()) {
        let mut sources = names(|t| t.before.is_some() && t.after.is_some(), |t| &t.before);
        sources.extend(deleted);
        let mut results = edited;
        results.extend(created);
        return format!("replace {} with {}", sources.join(", "), results.join(", "));
    }
    let mut parts = Vec::new();
    for (verb, names) in [("add", created), ("edit", edited), ("remove", deleted)] {
        if !names.is_empty() {
            parts.push(format!("{verb} {}", names.join(", ")));
        }
    }
    parts.join("; ")
}

/// What a proposal whose plan holds nothing that reads says it does.
const NOTHING_PROPOSED: &str = "changes nothing (its plan does not read)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::entry::JournalRecord;
    use crate::review::proposal::Origin;
    use crate::review::proposal::images::tests::image;

    const A: &str = "---\nname: tabs rule\ntype: feedback\n---\nUse tabs.\n";

    fn of_images(files: Vec<FileImage>) -> Proposal {
        let mut proposal = Proposal::pending(Kind::Edit, Origin::new("test"), None);
        proposal.files = files;
        proposal
    }

    fn record(name: &str, body: &str) -> RecordInput {
        RecordInput {
            name: name.into(),
            kind: "project".into(),
            description: "d".into(),
            body: body.into(),
        }
    }

    /// A consolidation plan of `records` replacing `sources` (each read from `<name>.md`).
    fn of_plan(sources: &[RecordInput], records: &[RecordInput]) -> Proposal {
        let mut proposal = Proposal::pending(Kind::Consolidation, Origin::new("test"), None);
        proposal.base = sources
            .iter()
            .map(|r| JournalRecord {
                file: format!("{}.md", r.name),
                record: r.clone(),
            })
            .collect();
        let names: Vec<&str> = sources.iter().map(|r| r.name.as_str()).collect();
        proposal.plan = serde_json::json!({ "source_names": names, "records": records });
        proposal
    }

    #[cfg(feature = "tui")]
    #[test]
    fn a_memory_reads_as_the_same_fields_kept_as_a_record_or_as_its_file() {
        let fields = record("alpha", "Use tabs.");
        let file = "---\nname: alpha\ndescription: d\ntype: project\n---\n\nUse tabs.\n";
        let kept = image_touched(&image("project_alpha.md", None, Some(file)), false);
        assert_eq!(
            version_fields(&input_version(&fields)),
            Some(fields.clone())
        );
        assert_eq!(kept.after.as_ref().and_then(version_fields), Some(fields));
        let index = image_touched(&image("MEMORY.md", None, Some("- [a](a.md)\n")), true);
        assert_eq!(index.after.as_ref().and_then(version_fields), None);
    }

    #[test]
    fn a_summary_of_file_images_names_the_memories() {
        let said = |files| of_images(files).summary();
        assert_eq!(said(vec![image("a.md", None, Some(A))]), "add tabs rule");
        assert_eq!(
            said(vec![
                image("a.md", Some(A), Some("x")),
                image("b.md", Some("y"), None)
            ]),
            "replace tabs rule, b with a"
        );
        assert_eq!(
            said(vec![
                image("a.md", Some(A), Some("x")),
                image("c.md", Some(A), Some("y"))
            ]),
            "edit a, c"
        );
        assert_eq!(
            said(vec![
                image("b.md", Some("y"), None),
                image("c.md", Some("z"), None),
                image("m.md", None, Some(A)),
            ]),
            "replace b, c with tabs rule"
        );
    }

    #[test]
    fn a_plan_replacing_one_memory_with_one_is_an_edit_in_its_place() {
        let fix = of_plan(&[record("alpha", "old")], &[record("alpha", "new")]);
        let change = fix.change();
        assert_eq!(change.files(), ["alpha.md"]);
        assert_eq!(change.op, Op::Set);
        assert_eq!(fix.change_kind(), Kind::Edit);
        assert_eq!(fix.summary(), "edit alpha");
        assert_eq!(change.memories().changed, ["alpha"]);
        let merged = of_plan(
            &[record("alpha", "a"), record("beta", "b")],
            &[record("gamma", "a and b")],
        );
        assert_eq!(merged.change_kind(), Kind::Consolidation);
        assert_eq!(merged.summary(), "replace alpha, beta with gamma");
        assert_eq!(merged.change().memories().added, ["gamma"]);
        assert_eq!(merged.change().memories().removed, ["alpha", "beta"]);
    }

    #[test]
    fn each_memory_a_plan_writes_is_found_at_its_place_in_the_change() {
        let fix = of_plan(&[record("alpha", "old")], &[record("alpha", "new")]);
        assert_eq!(
            (fix.planned_at(0), fix.planned_at(1)),
            (Some(0), None),
            "in its place"
        );
        let merged = of_plan(
            &[record("alpha", "a"), record("beta", "b")],
            &[record("gamma", "a and b"), record("delta", "d")],
        );
        let touched = merged.change().touched;
        for (at, touched) in touched.iter().enumerate() {
            let written = merged
                .planned_at(at)
                .map(|i| input_version(&planned(&merged.plan).1[i]));
            assert_eq!(written, touched.after.clone(), "at {at}");
        }
        assert_eq!(merged.planned_at(4), None);
        let files = of_images(vec![image("a.md", None, Some(A))]);
        assert_eq!(files.planned_at(0), None);
    }

    /// alpha and beta merged into gamma, delta added beside the plan.
    #[cfg(feature = "tui")]
    fn merged_with_an_addition() -> Proposal {
        let mut merged = of_plan(
            &[record("alpha", "a"), record("beta", "b")],
            &[record("gamma", "a and b")],
        );
        merged.additions = vec![record("delta", "d")];
        merged
    }

    /// An edit is kept by a record the plan writes or a file image written, never by a
    /// source it removes, an addition beside its plan or an image of a removed file.
    #[cfg(feature = "tui")]
    #[test]
    fn an_edit_is_kept_only_where_the_proposal_writes_a_memory_it_keeps_edits_of() {
        let edit_kept = |proposal: &Proposal| proposal.change_and_edit_kept().1;
        let merged = merged_with_an_addition();
        // alpha and beta removed, gamma planned, delta added.
        assert_eq!(merged.change().touched.len(), 4);
        assert_eq!(edit_kept(&merged), [2]);
        let fix = of_plan(&[record("alpha", "old")], &[record("alpha", "new")]);
        assert_eq!(edit_kept(&fix), [0]);
        let files = of_images(vec![
            image("a.md", None, Some(A)),
            image("b.md", Some(A), None),
        ]);
        assert_eq!(edit_kept(&files), [0]);
    }

    /// The Proposals view lists a proposal from one layout of its change: the same change,
    /// editable places, summary and kind as asking for each alone.
    #[cfg(feature = "tui")]
    #[test]
    fn a_proposal_listed_from_one_layout_is_what_each_ask_says() {
        let mut redaction = of_images(vec![image("a.md", Some(A), Some(A))]);
        redaction.evidence = Some(format!("{REDACTION_EVIDENCE}github-token on line 1"));
        let proposals = [
            merged_with_an_addition(),
            of_plan(&[record("alpha", "old")], &[record("alpha", "new")]),
            of_images(vec![
                image("a.md", None, Some(A)),
                image("b.md", Some(A), None),
            ]),
            redaction,
            of_images(Vec::new()),
        ];
        for proposal in &proposals {
            let (change, _) = proposal.change_and_edit_kept();
            assert_eq!(change, proposal.change());
            assert_eq!(proposal.summary_of(&change), proposal.summary());
            assert_eq!(proposal.kind_of(&change), proposal.change_kind());
        }
        let kept: Vec<Vec<usize>> = proposals
            .iter()
            .map(|p| p.change_and_edit_kept().1)
            .collect();
        assert_eq!(kept, [vec![2], vec![0], vec![0], vec![0], vec![]]);
    }

    #[test]
    fn a_redaction_is_said_as_one_on_either_kind_of_proposal() {
        let evidence = Some(format!(
            "{REDACTION_EVIDENCE}github-token on line 1; approving …"
        ));
        let mut plan = of_plan(
            &[record("alpha", "[REDACTED]")],
            &[record("alpha", "[REDACTED]")],
        );
        plan.evidence = evidence.clone();
        let mut files = of_images(vec![image("a.md", Some(A), Some(A))]);
        files.evidence = evidence;
        assert_eq!(plan.summary(), "redact alpha: github-token on line 1");
        assert_eq!(files.summary(), "redact tabs rule: github-token on line 1");
        assert_eq!(plan.change_kind(), Kind::Edit);
        assert_eq!(files.change_kind(), Kind::Edit);
        let mut edited = of_plan(&[record("alpha", "x")], &[record("alpha", "y")]);
        edited.evidence = plan.evidence.clone();
        assert_eq!(
            edited.redaction_summary(),
            None,
            "it changes more than a credential"
        );
    }
}
