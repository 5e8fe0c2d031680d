//! Writers together: a live consolidation, two processes on the state lock, concurrent writers
//! retrying.

use super::*;

#[test]
fn a_live_consolidation_refuses_every_write_and_a_stale_one_does_not() {
    let fixture = fixture();
    let lock = fixture.memory().join(".consolidate-lock");
    fs::write(&lock, std::process::id().to_string()).expect("lock");
    let before = files(&fixture);
    let error =
        journaled(&fixture.folder(), consolidation(), meta(Op::Consolidate)).expect_err("refused");
    assert!(
        error
            .to_string()
            .starts_with("Claude Code is consolidating this folder; try again when it finishes"),
        "{error}"
    );
    assert!(matches!(
        error.engine_error::<ClaudeError>(),
        Some(ClaudeError::Consolidating { .. })
    ));
    assert_eq!(files(&fixture), before, "nothing written");
    assert!(consistent_journal(&fixture).is_empty());
    // A PID no process can have (above Linux's pid_max).
    fs::write(&lock, "999999999\n").expect("lock");
    journaled(&fixture.folder(), consolidation(), meta(Op::Consolidate)).expect("allowed");
    assert_eq!(fixture.read("merged.md").as_deref(), Some(MERGED));
    assert_only_memories(&fixture, &[".consolidate-lock"]);
}

#[test]
fn two_memwb_processes_serialize_on_the_state_lock() {
    let fixture = fixture();
    let mut holder = child("child_holds_the_state_lock", &fixture)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    let stdout = holder.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    assert!(
        lines.any(|l| l.is_ok_and(|l| l.contains("LOCKED"))),
        "the child never took the lock"
    );
    let state = ClaudeState::for_folder(&fixture.folder()).expect("state");
    assert!(
        state.try_lock().expect("try").is_none(),
        "the child holds it"
    );
    drop(holder.stdin.take());
    assert!(holder.wait().expect("wait").success());
    assert!(state.try_lock().expect("try").is_some(), "released at exit");
    journaled(&fixture.folder(), consolidation(), meta(Op::Consolidate)).expect("then writes");
    assert_only_memories(&fixture, &[]);
}

#[test]
fn concurrent_writers_each_land_once_through_conflicts_and_retries() {
    let fixture = fixture();
    const WRITERS: usize = 4;
    std::thread::scope(|scope| {
        for n in 0..WRITERS {
            let fixture = &fixture;
            scope.spawn(move || {
                let folder = fixture.folder();
                let mut attempts = 0;
                loop {
                    attempts += 1;
                    assert!(attempts < 1000, "writer {n} never got through");
                    let base = fixture.read("alpha.md").expect("alpha");
                    let after = format!("{base}line from writer {n}\n");
                    match journaled(
                        &folder,
                        vec![write("alpha.md", Some(&base), Some(&after))],
                        meta(Op::Set),
                    ) {
                        Ok(_) => break,
                        Err(e) if e.is_conflict() => continue,
                        Err(e) => panic!("writer {n}: {e}"),
                    }
                }
            });
        }
    });
    let text = fixture.read("alpha.md").expect("alpha");
    for n in 0..WRITERS {
        let line = format!("line from writer {n}\n");
        assert_eq!(
            text.matches(&line).count(),
            1,
            "writer {n} landed once: {text}"
        );
    }
    assert!(text.starts_with(ALPHA), "the original text is kept");
    let entries = consistent_journal(&fixture);
    let mut ids: Vec<u64> = entries.iter().map(|e| e.id).collect();
    ids.dedup();
    assert_eq!(
        ids,
        (1..=WRITERS as u64).collect::<Vec<_>>(),
        "one entry each, in order"
    );
    assert_only_memories(&fixture, &[]);
}
