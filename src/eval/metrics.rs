//! Scoring one case's selection, and the means over a run.
//!
//! For a case, the *live* expected names are its `expect` names still in the set; the others
//! are `broken` (reported, never counted as misses). Over the first k selected names:
//! - recall: live expected names selected / live expected names;
//! - precision: live expected names selected / names selected (0 when nothing was selected);
//! - reciprocal rank: 1 / the 1-based position of the first live expected name (0 if none);
//! - forbidden: the `forbid` names selected.
//!
//! recall@k, precision@k and MRR are the means of those over the cases with at least one live
//! expected name; forbidden hits count every forbidden name selected, over every case.

use serde::Serialize;

use super::cases::Case;

/// One case, run by one selector.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseResult {
    pub query: String,
    pub expect: Vec<String>,
    pub forbid: Vec<String>,
    /// The first k names the selector chose, in its order.
    pub selected: Vec<String>,
    /// Every live expected name selected, and no forbidden one.
    pub hit: bool,
    /// Expected names no longer in the set.
    pub broken: Vec<String>,
    /// 1-based position of the first live expected name among `selected`.
    pub rank: Option<usize>,
    /// The forbidden names that were selected.
    pub forbidden: Vec<String>,
    /// Why the selector gave no answer for this case (the model failed or broke a rule):
    /// the case then counts as selecting nothing.
    pub error: Option<String>,
}

/// Whether a case passes, fails, or can no longer be judged because its names are gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Fail,
    Broken,
}

impl CaseResult {
    /// Scores `selected` (the selector's choice, in order) for `case`; `in_set` says whether a
    /// name is in the set; only the first `k` selected names count.
    pub fn score(
        case: &Case,
        in_set: &dyn Fn(&str) -> bool,
        mut selected: Vec<String>,
        k: usize,
        error: Option<String>,
    ) -> Self {
        selected.truncate(k);
        let broken: Vec<String> = case
            .expect
            .iter()
            .filter(|name| !in_set(name))
            .cloned()
            .collect();
        let is_live = |name: &String| case.expect.contains(name) && !broken.contains(name);
        let rank = selected.iter().position(is_live).map(|i| i + 1);
        let forbidden: Vec<String> = selected
            .iter()
            .filter(|name| case.forbid.contains(name))
            .cloned()
            .collect();
        let all_live_selected = case
            .expect
            .iter()
            .filter(|name| !broken.contains(name))
            .all(|name| selected.contains(name));
        let judgeable = broken.is_empty() || case.expect.len() > broken.len();
        Self {
            query: case.query.clone(),
            expect: case.expect.clone(),
            forbid: case.forbid.clone(),
            hit: judgeable && error.is_none() && all_live_selected && forbidden.is_empty(),
            selected,
            broken,
            rank,
            forbidden,
            error,
        }
    }

    fn live_expected(&self) -> impl Iterator<Item = &String> {
        self.expect.iter().filter(|n| !self.broken.contains(n))
    }

    fn live_selected(&self) -> usize {
        self.live_expected()
            .filter(|n| self.selected.contains(n))
            .count()
    }

    /// Counted in the means: at least one expected name is still in the set.
    pub fn is_scored(&self) -> bool {
        self.live_expected().next().is_some()
    }

    pub fn recall(&self) -> Option<f64> {
        let live = self.live_expected().count();
        (live > 0).then(|| self.live_selected() as f64 / live as f64)
    }

    pub fn precision(&self) -> Option<f64> {
        self.is_scored().then(|| {
            if self.selected.is_empty() {
                0.0
            } else {
                self.live_selected() as f64 / self.selected.len() as f64
            }
        })
    }

    pub fn reciprocal_rank(&self) -> Option<f64> {
        self.is_scored()
            .then(|| self.rank.map_or(0.0, |rank| 1.0 / rank as f64))
    }

    pub fn verdict(&self) -> Verdict {
        if self.hit {
            Verdict::Pass
        } else if !self.broken.is_empty() && !self.is_scored() && self.forbidden.is_empty() {
            Verdict::Broken
        } else {
            Verdict::Fail
        }
    }
}

/// The means over one selector's run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    /// `None` when no case could be scored.
    pub recall_at_k: Option<f64>,
    pub precision_at_k: Option<f64>,
    pub mrr: Option<f64>,
    pub forbidden_hits: usize,
    /// Cases counted in the means.
    pub scored: usize,
}

impl Scores {
    pub fn of(results: &[CaseResult]) -> Self {
        let mean = |metric: fn(&CaseResult) -> Option<f64>| {
            let values: Vec<f64> = results.iter().filter_map(metric).collect();
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        };
        Self {
            recall_at_k: mean(CaseResult::recall),
            precision_at_k: mean(CaseResult::precision),
            mrr: mean(CaseResult::reciprocal_rank),
            forbidden_hits: results.iter().map(|r| r.forbidden.len()).sum(),
            scored: results.iter().filter(|r| r.is_scored()).count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    fn case(expect: &[&str], forbid: &[&str]) -> Case {
        Case::new("q", names(expect), names(forbid), None).unwrap()
    }

    fn all_present(_: &str) -> bool {
        true
    }

    #[test]
    fn a_selection_is_cut_at_k_before_scoring() {
        let result = CaseResult::score(
            &case(&["c"], &[]),
            &all_present,
            names(&["a", "b", "c"]),
            2,
            None,
        );
        assert_eq!(result.selected, ["a", "b"]);
        assert_eq!(result.rank, None);
        assert_eq!(result.recall(), Some(0.0));
        assert!(!result.hit);
    }

    #[test]
    fn a_missing_expected_name_is_broken_not_missed() {
        let in_set = |name: &str| name != "gone";
        let partly = CaseResult::score(&case(&["a", "gone"], &[]), &in_set, names(&["a"]), 5, None);
        assert_eq!(partly.broken, ["gone"]);
        assert_eq!(partly.recall(), Some(1.0), "scored on the live name only");
        assert!(partly.hit);
        let wholly = CaseResult::score(&case(&["gone"], &[]), &in_set, names(&["a"]), 5, None);
        assert_eq!(wholly.verdict(), Verdict::Broken);
        assert_eq!(
            (
                wholly.recall(),
                wholly.precision(),
                wholly.reciprocal_rank()
            ),
            (None, None, None)
        );
        assert_eq!(Scores::of(&[wholly]).scored, 0);
    }

    #[test]
    fn a_failed_selector_is_a_failed_case() {
        let result = CaseResult::score(
            &case(&["a"], &[]),
            &all_present,
            Vec::new(),
            5,
            Some("not JSON".into()),
        );
        assert_eq!(result.verdict(), Verdict::Fail);
        assert_eq!(result.recall(), Some(0.0));
        assert_eq!(result.precision(), Some(0.0));
    }
}
