//! The reading commands, written once over [`Backend`]: `ls`, `show` and `select` print the
//! same shapes on every format, with what a format adds (Claude Code's other frontmatter
//! fields, files the index does not list, files that are no memory).

use std::io::Write;

use super::EXIT_OK;
use super::output::{NO_MEMORIES, one_line, padded, print_json, print_raw, print_untrusted};
use super::records::{LsArgs, ShowArgs};
use super::select::{SelectArgs, print_selection};
use crate::formats::{Backend, FormatError, ReadError};
use crate::memory::Memory;
use crate::session::Selector;
use crate::session::selection::Selection;

/// `memwb ls`: one line per memory in the set's order (`--json`: the read model's rows).
pub(super) fn ls(backend: &dyn Backend, args: &LsArgs) -> anyhow::Result<u8> {
    let reading = backend.read().map_err(reported)?;
    if args.json {
        print_json(&reading.memories)?;
        return Ok(EXIT_OK);
    }
    let width = super::output::widest(reading.memories.iter().map(|m| m.name.as_str()));
    let mut text = String::new();
    for memory in &reading.memories {
        text.push_str(&format!(
            "{}  {}  {}{}{}\n",
            padded(&memory.name, width),
            padded(memory.kind.as_deref().unwrap_or("-"), 9),
            one_line(memory.description.as_deref().unwrap_or("-")),
            if memory.position.is_some() {
                ""
            } else {
                "  (not in MEMORY.md)"
            },
            if memory.name_from_file {
                "  (no name: the file name is shown)"
            } else {
                ""
            },
        ));
    }
    for other in &reading.others {
        text.push_str(&format!(
            "not a memory: {} ({})\n",
            one_line(&other.file),
            one_line(&other.why)
        ));
    }
    if reading.memories.is_empty() {
        text.push_str(NO_MEMORIES);
        text.push('\n');
    }
    print_untrusted(&text)?;
    Ok(EXIT_OK)
}

/// `memwb show NAME`: the memory's file under a `# FILE` heading (made inert), its read-model
/// row (`--json`), or its exact bytes (`--raw`).
pub(super) fn show(backend: &dyn Backend, args: &ShowArgs) -> anyhow::Result<u8> {
    let reading = backend.read().map_err(reported)?;
    let memory = backend.find(&reading, &args.name).map_err(reported)?;
    if args.json {
        print_json(memory)?;
    } else if args.raw {
        print_raw(&backend.raw(memory).map_err(reported)?)?;
    } else {
        let text = backend.text(memory).map_err(reported)?;
        print_untrusted(&format!("# {}\n{text}", one_line(&memory.file)))?;
    }
    Ok(EXIT_OK)
}

/// `memwb select QUERY`, on the standard outputs.
pub(super) fn select(backend: &dyn Backend, args: &SelectArgs) -> anyhow::Result<u8> {
    select_to(
        backend,
        args,
        &|name| std::env::var(name).ok(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

/// [`select`] with the environment and both outputs given, for tests and embedders.
pub(super) fn select_to(
    backend: &dyn Backend,
    args: &SelectArgs,
    env: &dyn Fn(&str) -> Option<String>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    let selection = selection(backend, args, env)?;
    print_selection(&selection, args.json, out, err)?;
    Ok(EXIT_OK)
}

/// The selection `select` prints: the memories that read, in the set's order, and the
/// catalog a model is shown. Fails only when the model settings are contradictory or
/// unusable, or the set cannot be read.
pub(super) fn selection(
    backend: &dyn Backend,
    args: &SelectArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Selection<Memory>> {
    let selector = Selector::configured(&args.model.flags(), env)?;
    selector.select_from(&args.query, args.max, || {
        let reading = backend.read().map_err(reported)?;
        anyhow::Ok((reading.candidates(), reading.catalog))
    })
}

/// A backend's read error as a command reports it: the engine's own error where there is
/// one, so the hints that name the fix still find it.
pub(super) fn reported(error: ReadError) -> anyhow::Error {
    failed(error.into())
}

/// A backend's error as a command reports it: the engine's own error (which the hints and
/// the exit rules in `cli::main` tell apart), under the batch places it was found at.
pub(super) fn failed(error: FormatError) -> anyhow::Error {
    let (places, cause) = error.cause();
    let mut error: anyhow::Error = cause.into_error();
    for place in places.into_iter().rev() {
        error = error.context(place);
    }
    error
}
