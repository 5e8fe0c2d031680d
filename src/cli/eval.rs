//! `memwb eval`: run the set's regression queries (or its self-retrieval cases) with the
//! keyword fallback and, when a model is configured, the model selector; `eval add`, `eval rm`,
//! `eval ls` edit the case file. Exit 1 below `--min-recall` or on any forbidden hit.

use serde::Serialize;

use super::model_args::ModelArgs;
use super::output::{inert, print_json};
use super::{EXIT_FINDINGS, EXIT_OK};
use crate::eval::{
    self, Case, CaseResult, EvalError, EvalState, FolderEval, ReplyCache, SelectorRun, Verdict,
    model_label,
};
use crate::formats::Open;
use crate::session::Selector;

/// More names than a MEMORY.md of 200 lines can list is no longer a selection.
const MAX_K: usize = 200;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct EvalArgs {
    #[command(subcommand)]
    command: Option<EvalCommand>,
    /// Run the self-retrieval cases instead: each memory's description must select it.
    #[arg(long = "self")]
    self_cases: bool,
    /// Most memories to select per query (as `select --max`), the k of recall@k and precision@k.
    // `--k` was its first name: kept, hidden, so that scripts keep working.
    #[arg(long = "max", alias = "k", value_name = "N", default_value_t = eval::DEFAULT_K)]
    k: usize,
    /// Print {"k","cases","selectors":{"keyword":{...},"model":{...}}}.
    #[arg(long)]
    json: bool,
    /// Exit 1 when a selector's recall@k is below R (0 to 1).
    #[arg(long, value_name = "R")]
    min_recall: Option<f64>,
    /// Ask the model even for requests whose reply is cached.
    #[arg(long)]
    no_cache: bool,
    #[command(flatten)]
    model: ModelArgs,
}

#[derive(clap::Subcommand, Debug)]
enum EvalCommand {
    /// Add a case: QUERY must select every --expect name and no --forbid name.
    Add(AddArgs),
    /// Remove case N (numbered from 1, as `eval ls` shows).
    Rm {
        /// The case's number (see `eval ls`).
        #[arg(value_name = "N")]
        number: usize,
    },
    /// List the cases.
    Ls {
        /// Print the cases as the case file holds them.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args, Debug)]
struct AddArgs {
    /// The request to select for (any text, leading dashes included).
    #[arg(value_name = "QUERY", allow_hyphen_values = true)]
    query: String,
    /// Records the selection must include.
    #[arg(long, value_name = "NAME", num_args = 1..)]
    expect: Vec<String>,
    /// Records the selection must not include.
    #[arg(long, value_name = "NAME", num_args = 1..)]
    forbid: Vec<String>,
    /// Why the case exists (any text, leading dashes included).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    note: Option<String>,
}

/// `memwb eval` on the folder `open` holds, whatever its format: its cases where the backend
/// keeps memwb's state, edited under the folder's lock.
pub(crate) fn run(open: &Open, args: &EvalArgs) -> anyhow::Result<u8> {
    run_on(&FolderEval::open(open).map_err(failed)?, args)
}

/// An evaluation error as a command reports it: a backend's error as every command reports
/// one (the engine's own error, which the hints and exit rules tell apart).
fn failed(error: EvalError) -> anyhow::Error {
    match error {
        EvalError::Format(error) => super::read::failed(error),
        other => other.into(),
    }
}

/// `memwb eval` and its subcommands on `folder`.
pub(crate) fn run_on(folder: &FolderEval, args: &EvalArgs) -> anyhow::Result<u8> {
    match &args.command {
        Some(EvalCommand::Add(add)) => {
            let case = Case::new(
                add.query.clone(),
                add.expect.clone(),
                add.forbid.clone(),
                add.note.clone(),
            )?;
            let number = folder.add_case(case).map_err(failed)?;
            say!("added case {number}; memwb eval runs every case")?;
            Ok(EXIT_OK)
        }
        Some(EvalCommand::Rm { number }) => {
            let removed = folder.remove_case(*number).map_err(failed)?;
            say!("removed case {number}: {}", inert(&removed.label()))?;
            Ok(EXIT_OK)
        }
        Some(EvalCommand::Ls { json }) => list(folder.state(), *json),
        None => evaluate(folder, args, &|name| std::env::var(name).ok()),
    }
}

fn list(state: &EvalState, json: bool) -> anyhow::Result<u8> {
    let cases = eval::load_cases(state)?;
    if json {
        print_json(&cases)?;
        return Ok(EXIT_OK);
    }
    if cases.is_empty() {
        say!("no cases; add one with: memwb eval add QUERY --expect NAME")?;
    }
    for (i, case) in cases.iter().enumerate() {
        let mut line = format!(
            "{:>3}  {}  expect {}",
            i + 1,
            one_line(&case.query),
            names(&case.expect)
        );
        if !case.forbid.is_empty() {
            line.push_str(&format!("  forbid {}", names(&case.forbid)));
        }
        if let Some(note) = &case.note {
            line.push_str(&format!("  ({})", one_line(note)));
        }
        say!("{line}")?;
    }
    Ok(EXIT_OK)
}

/// Untrusted text on one line, inert.
fn one_line(text: &str) -> String {
    inert(&text.replace(['\n', '\r'], " "))
}

fn names(list: &[String]) -> String {
    if list.is_empty() {
        "(none)".into()
    } else {
        inert(&list.join(", "))
    }
}

/// One run, for printing and for the exit code.
#[derive(Debug)]
pub(crate) struct Report {
    pub k: usize,
    pub cases: usize,
    pub keyword: SelectorRun,
    /// The model's label and its run, when a model is configured.
    pub model: Option<(String, SelectorRun)>,
}

impl Report {
    fn selectors(&self) -> impl Iterator<Item = (&str, &SelectorRun)> {
        std::iter::once(("keyword", &self.keyword))
            .chain(self.model.as_ref().map(|(_, run)| ("model", run)))
    }

    /// The documented `--json` shape, keys in the documented order; `rank`, `error` and the
    /// model's `cost` come after the documented keys.
    fn to_json(&self) -> ReportJson<'_> {
        fn selector(run: &SelectorRun) -> SelectorJson<'_> {
            SelectorJson {
                recall_at_k: run.scores.recall_at_k,
                precision_at_k: run.scores.precision_at_k,
                mrr: run.scores.mrr,
                forbidden_hits: run.scores.forbidden_hits,
                results: run.results.iter().map(ResultJson::from).collect(),
                cost: None,
            }
        }
        let model = self.model.as_ref().map(|(label, run)| SelectorJson {
            cost: run.cost.map(|cost| CostJson {
                model: label,
                calls: cost.calls,
                cached: cost.cached,
                tokens: cost.tokens.map(|t| TokensJson {
                    prompt: t.prompt_tokens,
                    completion: t.completion_tokens,
                    total: t.total(),
                }),
                seconds: cost.elapsed.as_secs_f64(),
            }),
            ..selector(run)
        });
        ReportJson {
            k: self.k,
            cases: self.cases,
            selectors: SelectorsJson {
                keyword: selector(&self.keyword),
                model,
            },
        }
    }

    /// 1 when a selector's recall is below `min_recall` (or nothing could be scored), or when
    /// any forbidden name was selected.
    pub(crate) fn exit_code(&self, min_recall: Option<f64>) -> u8 {
        let failed = self.selectors().any(|(_, run)| {
            run.scores.forbidden_hits > 0
                || min_recall.is_some_and(|min| run.scores.recall_at_k.is_none_or(|r| r < min))
        });
        if failed { EXIT_FINDINGS } else { EXIT_OK }
    }
}

#[derive(Serialize)]
struct ReportJson<'a> {
    k: usize,
    cases: usize,
    selectors: SelectorsJson<'a>,
}

#[derive(Serialize)]
struct SelectorsJson<'a> {
    keyword: SelectorJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<SelectorJson<'a>>,
}

#[derive(Serialize)]
struct SelectorJson<'a> {
    recall_at_k: Option<f64>,
    precision_at_k: Option<f64>,
    mrr: Option<f64>,
    forbidden_hits: usize,
    results: Vec<ResultJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<CostJson<'a>>,
}

#[derive(Serialize)]
struct CostJson<'a> {
    model: &'a str,
    calls: usize,
    cached: usize,
    tokens: Option<TokensJson>,
    seconds: f64,
}

#[derive(Serialize)]
struct TokensJson {
    prompt: u64,
    completion: u64,
    total: u64,
}

#[derive(Serialize)]
struct ResultJson<'a> {
    query: &'a str,
    expect: &'a [String],
    forbid: &'a [String],
    selected: &'a [String],
    hit: bool,
    broken: &'a [String],
    rank: Option<usize>,
    error: Option<&'a str>,
}

impl<'a> From<&'a CaseResult> for ResultJson<'a> {
    fn from(result: &'a CaseResult) -> Self {
        Self {
            query: &result.query,
            expect: &result.expect,
            forbid: &result.forbid,
            selected: &result.selected,
            hit: result.hit,
            broken: &result.broken,
            rank: result.rank,
            error: result.error.as_deref(),
        }
    }
}

/// Runs the cases `args` names on a folder of either format; `env` looks up environment
/// variables (model settings).
pub(crate) fn execute_on(
    folder: &FolderEval,
    args: &EvalArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Report> {
    if let Some(min) = args.min_recall
        && !(0.0..=1.0).contains(&min)
    {
        anyhow::bail!("--min-recall must be between 0 and 1 (got {min})");
    }
    if !(1..=MAX_K).contains(&args.k) {
        anyhow::bail!("--k must be between 1 and {MAX_K} (got {})", args.k);
    }
    let selector = Selector::configured(&args.model.flags(), env)?;
    let corpus = folder.corpus().map_err(failed)?;
    let cases = if args.self_cases {
        eval::self_cases(&corpus.memories)
    } else {
        eval::load_cases(folder.state())?
    };
    let keyword = eval::run_keyword(&corpus, &cases, args.k);
    let model = match (selector.settings(), selector.client()) {
        (Some(settings), Some(client)) => {
            let label = model_label(settings);
            let cache = (!args.no_cache).then(|| ReplyCache::new(folder.state(), label.clone()));
            let run = eval::run_model(&corpus, &cases, args.k, client, cache);
            Some((label, run))
        }
        _ => None,
    };
    Ok(Report {
        k: args.k,
        cases: cases.len(),
        keyword,
        model,
    })
}

fn evaluate(
    folder: &FolderEval,
    args: &EvalArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<u8> {
    let report = execute_on(folder, args, env)?;
    if args.json {
        print_json(&report.to_json())?;
    } else {
        print_human(&report)?;
    }
    Ok(report.exit_code(args.min_recall))
}

fn print_human(report: &Report) -> anyhow::Result<()> {
    if report.cases == 0 {
        say!("no cases; add one with: memwb eval add QUERY --expect NAME (or run --self)")?;
        return Ok(());
    }
    let runs: Vec<(&str, &SelectorRun)> = report.selectors().collect();
    for i in 0..report.cases {
        let case = &report.keyword.results[i];
        say!(
            "{:>3}  {}  expect {}",
            i + 1,
            one_line(&case.query),
            names(&case.expect)
        )?;
        if !case.broken.is_empty() {
            say!("     broken: {} no longer in the set", names(&case.broken))?;
        }
        for (name, run) in &runs {
            say!("     {name:<8} {}", describe(&run.results[i]))?;
        }
    }
    let k = report.k;
    say!("")?;
    say!("selector  recall@{k}  precision@{k}  MRR    forbidden  failed")?;
    for (name, run) in &runs {
        let scores = &run.scores;
        say!(
            "{name:<9} {:<9} {:<12} {:<6} {:<10} {}",
            ratio(scores.recall_at_k),
            ratio(scores.precision_at_k),
            ratio(scores.mrr),
            scores.forbidden_hits,
            run.failures()
        )?;
    }
    if let Some((label, run)) = &report.model
        && let Some(cost) = &run.cost
    {
        let tokens = cost.tokens.map_or("tokens not reported".to_owned(), |t| {
            format!("{} tokens", t.total())
        });
        say!(
            "model {}: {} calls, {} cached, {tokens}, {:.1} s",
            inert(label),
            cost.calls,
            cost.cached,
            cost.elapsed.as_secs_f64()
        )?;
    }
    Ok(())
}

fn describe(result: &CaseResult) -> String {
    let mark = match result.verdict() {
        Verdict::Pass => "✓ hit ",
        Verdict::Fail => "✗ miss",
        Verdict::Broken => "! broken",
    };
    let rank = result
        .rank
        .map_or(String::new(), |rank| format!(" rank {rank}"));
    let mut line = format!("{mark}{rank}  selected {}", names(&result.selected));
    if !result.forbidden.is_empty() {
        line.push_str(&format!("  FORBIDDEN {}", names(&result.forbidden)));
    }
    if let Some(error) = &result.error {
        line.push_str(&format!("  error: {}", one_line(error)));
    }
    line
}

fn ratio(value: Option<f64>) -> String {
    value.map_or("-".into(), |v| format!("{v:.2}"))
}
