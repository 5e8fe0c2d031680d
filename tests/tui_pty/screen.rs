//! What the terminal shows: edits and outside changes live, escapes and colours, the demo, a panic,
//! a resize.

use super::*;

#[test]
fn open_edit_save_and_quit_restores_the_terminal() {
    let ws = workspace(vec![
        record("alpha", "alpha body"),
        record("beta", "beta body"),
    ]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Manifest (2)");
    pty.wait_for("Record: alpha");
    pty.send(b"e");
    pty.wait_for("Edit alpha");
    pty.send(b"hello ");
    pty.wait_for("hello alpha body");
    pty.send(b"\x13"); // Ctrl-S
    wait_saved(&mut pty, ws.path(), "alpha", "hello alpha body");
    assert_eq!(
        logged(&mut pty, "save alpha: written"),
        1,
        "{}",
        pty.screen()
    );
    pty.send(b"q");
    let status = pty.wait_exit();
    assert!(status.success(), "{status:?}");
    pty.assert_restored();
}

#[test]
fn an_external_add_appears_without_a_key_press() {
    let ws = workspace(vec![record("alpha", "a"), record("beta", "b")]);
    let mut pty = Pty::spawn(&["tui", "."], ws.path());
    pty.wait_for("Manifest (2)");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(ws.path())
        .args([
            "add",
            "--name",
            "gamma",
            "--type",
            "user",
            "--description",
            "added outside",
            "--body",
            "g",
        ])
        .output()
        .expect("memwb add");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    pty.wait_for("Manifest (3)");
    pty.wait_for("gamma");
    // said in the M log, which keeps it: the status line keeps a message only until the next
    // one (a later reading of the folder, say), within one chunk of output under load
    wait_logged(&mut pty, "changed on disk: added gamma");
    pty.send(b"q");
    pty.wait_exit();
    pty.assert_restored();
}

#[test]
fn escape_sequences_in_a_record_change_nothing_on_the_terminal() {
    let body = "title \u{1b}]0;pwned\u{7} clear \u{1b}[2J\u{1b}[H red \u{1b}[31mred\u{1b}[0m bell \u{7} c1 \u{9b}2J";
    let hostile = Record::new(
        "hostile",
        MemoryType::Reference,
        "desc \u{1b}]2;x\u{7}",
        body,
    )
    .expect("valid");
    let ws = workspace(vec![record("first", "plain"), hostile]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Manifest (2)");
    pty.send(b"j");
    pty.wait_for("Record: hostile");
    pty.wait_for("title ␛]0;pwned␇ clear ␛[2J␛[H red ␛[31mred␛[0m");
    // the rest of the screen is still there: nothing cleared it
    let screen = pty.screen();
    assert!(
        screen.contains("Manifest (2)") && screen.contains("first") && screen.contains("MEMORY.md"),
        "{screen}"
    );
    assert!(
        pty.parser.callbacks().titles.is_empty(),
        "the window title was set"
    );
    for raw in [
        &b"\x1b]0;pwned"[..],
        b"\x1b]2;x",
        b"\x1b[31mred",
        b"\xc2\x9b2J",
        b"\x07",
    ] {
        assert!(
            !pty.raw.windows(raw.len()).any(|w| w == raw),
            "{raw:?} reached the terminal"
        );
    }
    pty.send(b"q");
    pty.wait_exit();
    pty.assert_restored();
    assert!(pty.parser.callbacks().titles.is_empty());
}

/// The line of the screen after exit that names the demo copy, and the path in it.
fn demo_path(pty: &Pty) -> Option<std::path::PathBuf> {
    let text = pty.screen();
    let line = text
        .lines()
        .find(|l| l.contains("The demo workspace is in"))?;
    Some(line.rsplit(' ').next()?.trim().into())
}

/// Issue 26 item 22: a demo copy left as shipped is removed on exit (each run makes a fresh
/// one, so nothing piles up in the temporary directory); one that was changed is kept, and the
/// exit says where it is and how to open it again.
#[test]
fn demo_removes_an_unchanged_copy_and_keeps_a_changed_one() {
    let cwd = tempfile::tempdir().expect("dir");
    let mut pty = Pty::spawn(&["demo"], cwd.path());
    pty.wait_for("Manifest (8)");
    pty.wait_for("DRIFTED");
    pty.send(b"q");
    assert!(pty.wait_exit().success());
    pty.assert_restored();
    assert!(demo_path(&pty).is_none(), "{}", pty.screen());
    pty.wait_for("The demo workspace was left as shipped and is removed");

    let mut pty = Pty::spawn(&["demo"], cwd.path());
    pty.wait_for("Manifest (8)");
    pty.wait_for("set unreadable");
    // The invalid entry, fifth in the list: `d` drops it from the manifest (a commit).
    pty.send(b"jjjj");
    pty.wait_for("Record: deploy-notes");
    pty.send(b"d");
    pty.wait_for("y yes  n no");
    pty.send(b"y");
    pty.wait_for("Manifest (7)");
    pty.send(b"q");
    assert!(pty.wait_exit().success());
    pty.assert_restored();
    let path = demo_path(&pty).unwrap_or_else(|| panic!("where it is: {}", pty.screen()));
    assert!(path.join(".memory/manifest.json").is_file(), "{path:?}");
    assert!(
        pty.screen().contains("Open it again with:"),
        "{}",
        pty.screen()
    );
    std::fs::remove_dir_all(&path).expect("clean up the demo");
}

/// The SGR parameter lists (`ESC [ ... m`) in `raw`.
fn sgr_params(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut out = Vec::new();
    let mut rest = &text[..];
    while let Some(start) = rest.find("\u{1b}[") {
        rest = &rest[start + 2..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(rest.len());
        if rest[end..].starts_with('m') {
            out.push(rest[..end].to_owned());
        }
        rest = &rest[end..];
    }
    out
}

fn is_colour(params: &str) -> bool {
    let mut parts = params.split(';').filter_map(|p| p.parse::<u16>().ok());
    let first = parts.next();
    matches!(first, Some(30..=37 | 40..=47 | 90..=97 | 100..=107)) || matches!(first, Some(38 | 48))
}

#[test]
fn no_color_is_respected() {
    let ws = workspace(vec![record("alpha", "a")]);
    let mut colour = Pty::spawn(&[], ws.path());
    colour.wait_for("Manifest (1)");
    colour.send(b"q");
    colour.wait_exit();
    assert!(
        sgr_params(&colour.raw).iter().any(|p| is_colour(p)),
        "colours are used by default"
    );

    let mut plain = Pty::spawn_env(&[], ws.path(), &[("NO_COLOR", "1")]);
    plain.wait_for("Manifest (1)");
    plain.send(b"q");
    plain.wait_exit();
    let colours: Vec<String> = sgr_params(&plain.raw)
        .into_iter()
        .filter(|p| is_colour(p))
        .collect();
    assert!(colours.is_empty(), "colours with NO_COLOR: {colours:?}");
}

#[test]
fn a_proposal_filed_elsewhere_appears_live_and_a_approves_it() {
    let ws = workspace(vec![record("alpha", "a"), record("beta", "b")]);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Manifest (2)");
    // no .memory/.memwb yet: the first proposal creates it
    let reply = ws.path().join("reply.json");
    std::fs::write(
        &reply,
        r#"[{"name":"gamma","type":"user","description":"filed elsewhere","body":"g"}]"#,
    )
    .expect("reply");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(ws.path())
        .args(["propose", "import"])
        .arg(&reply)
        .output()
        .expect("memwb propose import");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let id = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert_eq!(id.len(), 12, "{id}");
    // announced without a key press (said in the M log, which keeps it: the status line keeps
    // a message only until the next one, within one chunk of output under load)
    wait_logged(&mut pty, &format!("new proposal: {id} (add gamma)"));
    pty.send(b"p");
    pty.wait_for("Proposals (1 pending, 0 decided)");
    pty.wait_for("── new memory");
    pty.send(b"a");
    pty.wait_for(&format!("Approve proposal {id}?"));
    pty.send(b"y");
    wait_logged(&mut pty, &format!("approve {id}: written (added gamma)"));
    let store = Store::open(ws.path(), StoreOptions::default()).expect("open");
    let names: Vec<String> = store
        .records()
        .expect("read")
        .iter()
        .map(|r| r.name().to_owned())
        .collect();
    assert_eq!(names, ["alpha", "beta", "gamma"]);
    pty.wait_for("✓ approved");
    pty.send(b"q");
    assert!(pty.wait_exit().success());
    pty.assert_restored();
}

#[test]
fn a_panic_restores_the_terminal() {
    let ws = workspace(vec![record("first", "plain")]);
    let mut pty = Pty::spawn_env(
        &[],
        ws.path(),
        &[
            ("MEMWB_TEST_PANIC_AFTER_DRAW", "1"),
            ("RUST_BACKTRACE", "0"),
        ],
    );
    let status = pty.wait_exit();
    assert!(!status.success(), "the workbench panicked");
    pty.assert_restored();
    assert!(
        pty.screen().contains("test panic after the first frame"),
        "the panic message is shown on the restored screen:\n{}",
        pty.screen()
    );
}

/// A list scrolled to its end keeps no stale offset when the terminal grows: at 80x24 the
/// Manifest shows 8 of 15 entries, at 120x40 all of them, so the first is on screen again.
#[test]
fn growing_the_terminal_shows_the_whole_list_again() {
    let records: Vec<Record> = (0..15)
        .map(|i| record(&format!("note-{i:02}"), "b"))
        .collect();
    let ws = workspace(records);
    let mut pty = Pty::spawn(&[], ws.path());
    pty.wait_for("Manifest (15)");
    pty.resize(24, 80);
    pty.send(b"G");
    pty.wait_for("Record: note-14");
    assert!(!pty.screen().contains("✓ note-00"), "{}", pty.screen());
    pty.resize(40, 120);
    pty.wait_for("✓ note-00");
    let screen = pty.screen();
    assert!(screen.contains("note-14"), "{screen}");
    pty.send(b"q");
    assert!(pty.wait_exit().success());
}
