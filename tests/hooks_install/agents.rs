//! The agent program `memwb hooks` acts on: the one named, else the default (Claude Code, so
//! that `memwb hooks install` keeps its meaning); its `--mode` values and their help are the
//! agent's own.

use super::*;

/// `args` fail as a usage error (exit 2) that says why, and leave `path` as it was.
fn refused_untouched(home: &Path, args: &[&str], path: &Path, why: &str) {
    let before = fs::read(path).ok();
    let out = memwb(home, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(why), "{args:?}: {stderr}");
    assert_eq!(fs::read(path).ok(), before, "{args:?} changed the file");
}

#[test]
fn hooks_act_on_the_agent_named_else_on_the_default_one() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    let shown = path.display();
    assert_eq!(
        ok(memwb(
            home.path(),
            &["hooks", "install", "claude", "--mode", "record"]
        )),
        format!("installed memwb's hooks in {shown}: memwb hook claude --mode record\n")
    );
    // Without an agent, the same one: its hooks are there already.
    assert_eq!(
        ok(memwb(
            home.path(),
            &["hooks", "install", "--mode", "record"]
        )),
        format!("memwb's hooks are already installed in {shown}; nothing changed\n")
    );
    // An agent memwb does not know, or a mode the agent does not install, is refused.
    refused_untouched(
        home.path(),
        &["hooks", "install", "codex"],
        &path,
        "invalid value 'codex' for '[AGENT]'",
    );
    refused_untouched(
        home.path(),
        &["hooks", "uninstall", "codex"],
        &path,
        "invalid value 'codex' for '[AGENT]'",
    );
    refused_untouched(
        home.path(),
        &["hooks", "install", "claude", "--mode", "off"],
        &path,
        "invalid value 'off' for '--mode <MODE>'",
    );
    // Status of the agent named; without one, of every agent memwb knows (one, so the same).
    let named = ok(memwb(home.path(), &["hooks", "status", "claude"]));
    assert!(
        named.starts_with(&format!("user settings {shown}: installed\n")),
        "{named}"
    );
    assert!(
        named.contains("\nmode: record (--mode in the hook command)\n"),
        "{named}"
    );
    assert_eq!(ok(memwb(home.path(), &["hooks", "status"])), named);
    assert_eq!(
        ok(memwb(home.path(), &["hooks", "uninstall", "claude"])),
        format!("removed memwb's hooks from {shown}, and the file, which memwb had created\n")
    );
    assert!(!path.exists());
}

#[test]
fn the_help_gives_each_agent_and_its_modes_in_its_own_words() {
    let home = tempfile::tempdir().expect("temp");
    let help = |args: &[&str]| {
        let said = ok(memwb(home.path(), args));
        said.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let hook = help(&["hook", "claude", "-h"]);
    assert!(
        hook.contains(
            "The mode when neither MEMWB_CLAUDE_MODE nor memwb's config file sets one: review, record or off. [possible values: review, record, off]"
        ),
        "{hook}"
    );
    let install = help(&["hooks", "install", "-h"]);
    assert!(
        install.contains(
            "--mode <MODE> review: memory writes become proposals (the default); record: memory writes go through and are journaled. [possible values: review, record]"
        ),
        "{install}"
    );
    assert!(
        install.contains("[AGENT] The agent program whose settings to edit [default: claude]"),
        "{install}"
    );
    assert!(
        install.contains("Usage: memwb hooks install [OPTIONS] [AGENT]"),
        "{install}"
    );
    let status = help(&["hooks", "status", "-h"]);
    assert!(
        status
            .contains("[AGENT] The agent program to report on (every one memwb knows, without it)"),
        "{status}"
    );
}
