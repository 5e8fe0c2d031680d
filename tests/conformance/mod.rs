//! The conformance suite: one body per behaviour, run on a `.memory` set and on a Claude Code
//! folder (`common::formats::BOTH`). A person sees one product: the same action behaves, and is
//! worded, the same on both formats (docs/cli.md, "One idea, one word"). One file per area; a
//! new backend joins every case by joining `BOTH`.

use crate::common;
use crate::tui_harness;

use common::formats::{Folder, Format};
use memwb::claude::LoadLimits;
use memwb::store::{IoHooks, StoreOptions};
use tui_harness::Harness;

mod adopt;
mod bodies;
mod concurrency;
mod copy;
mod editor;
mod edits;
mod eval;
mod faults;
mod history;
mod json_shapes;
mod messages;
mod proposal_detail;
mod proposal_edit;
mod proposals;
mod rebase;
mod redaction;
mod review;
mod session;
mod undo;
mod undo_orders;
mod watch;
mod wording;
mod workbench;

const TOKEN: &str = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5";

fn add(name: &'static str, body: &'static str) -> [&'static str; 9] {
    common::cli::add_args(name, "what it is about", body)
}

/// The workbench on `folder`, whichever its format.
fn workbench(folder: &Folder) -> Harness {
    workbench_hooked(folder, IoHooks::default())
}

/// [`workbench`] with every write step passing `hooks` (a fault injected), on either format.
fn workbench_hooked(folder: &Folder, hooks: IoHooks) -> Harness {
    workbench_sized(folder, hooks, (120, 40))
}

/// [`workbench_hooked`] on a screen of `width` by `height`.
fn workbench_sized(folder: &Folder, hooks: IoHooks, (width, height): (u16, u16)) -> Harness {
    match folder.format {
        Format::Memory => Harness::open(
            folder.dir.path().to_owned(),
            None,
            width,
            height,
            StoreOptions {
                hooks,
                ..StoreOptions::default()
            },
        ),
        Format::Claude => Harness::claude_hooked(
            folder.dir.path(),
            folder.state.path(),
            LoadLimits::default(),
            width,
            height,
            hooks,
        ),
    }
}

/// The path of the file that holds memory `name`, as `ls --json` lists it.
fn file_of(folder: &Folder, name: &str) -> std::path::PathBuf {
    let listed: Vec<serde_json::Value> =
        serde_json::from_str(&folder.ok(&["ls", "--json"])).expect("ls --json");
    let file = listed
        .iter()
        .find(|m| m["name"] == name)
        .and_then(|m| m["file"].as_str())
        .unwrap_or_else(|| panic!("{:?}: {name} is not listed", folder.format));
    folder.root().join(file)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The id `check --fix` printed last: the proposal it filed.
fn filed(folder: &Folder) -> String {
    let out = folder.run(&["check", "--fix"]);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .expect("the proposal's id")
        .to_owned()
}

/// Approves proposal `id` from the workbench's Proposals view (`a`, then `y`) and checks the
/// status line says it was written.
fn approve_in_workbench(h: &mut Harness, id: &str, format: Format) {
    h.keys("a");
    h.keys("y");
    assert!(
        h.screen().contains(&format!("approve {id}: written")),
        "{format:?}: {}",
        h.screen()
    );
}

/// Every file memwb keeps beside the memories (its journal, proposals, dropped copies), with
/// the path it is at: `.memory/.memwb/` on a `.memory` set, the state directory on a Claude
/// Code folder.
fn kept_files(folder: &Folder) -> Vec<(String, Vec<u8>)> {
    let state = match folder.format {
        Format::Memory => folder.root().join(".memwb"),
        Format::Claude => folder.state.path().to_owned(),
    };
    common::tree(&state).into_iter().collect()
}
