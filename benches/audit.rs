//! `cargo bench --bench audit`: `check --all` over 1,000 `.memory` sets of 50 records each —
//! the walk that finds them and the whole check of every set (the folder audit and the content
//! audit: secrets, paths, dates, duplicates) on every core, as `memwb check --all ROOT` runs
//! it. Plain std, no harness. The goal (under 10 s on two cores) and the figures are in
//! docs/performance.md.
//!
//! Environment: `MEMWB_BENCH_DIR` (where the tree is made; default: Cargo's target tmp dir),
//! `MEMWB_BENCH_SETS` (default 1000; 20 under `cargo test --benches`).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use memwb::review::content::AuditContext;
use memwb::review::content::discover::find_sets;
use memwb::review::content::report::check_sets;
use memwb::store::{MemoryType, Record, Store, StoreOptions};

const RECORDS: usize = 50;
const GOAL: Duration = Duration::from_secs(10);
const RUNS: usize = 3;

/// Realistic bodies (~250 bytes): paths, dates, commands; one record in ten holds a token.
fn record(set: usize, i: usize) -> Record {
    let mut body = format!(
        "Run `scripts/test-{i}.sh` before pushing; the pipeline in docs/ci-{i}.md explains why.\n\
         The owners asked on review {set}-{i} that every change keeps src/lib.rs small.\n\
         Freeze until 2025-0{}-1{}; next Thursday the release notes go out.",
        1 + i % 9,
        i % 10
    );
    if i % 10 == 3 {
        body.push_str(&format!(
            "\nCI token: {}{:0>36}",
            "ghp_",
            format!("{set:x}aB3dE5fG7hI9jK1lM3nO5pQ{i:02}")
        ));
    }
    Record::new(
        format!("memory-{set}-{i:02}"),
        MemoryType::ALL[i % 4],
        format!("What set {set} learned about topic {i} of its project"),
        body,
    )
    .expect("a valid record")
}

fn make_tree(root: &Path, sets: usize) {
    let options = StoreOptions {
        max_index_bytes: 64 * 1024,
        ..StoreOptions::default()
    };
    for set in 0..sets {
        let project = root
            .join(format!("group-{}", set % 10))
            .join(format!("project-{set}"));
        std::fs::create_dir_all(&project).expect("mkdir");
        let store = Store::open(&project, options.clone()).expect("open");
        store
            .extend((0..RECORDS).map(|i| record(set, i)).collect())
            .expect("seed");
    }
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let sets: usize = std::env::var("MEMWB_BENCH_SETS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if quick { 20 } else { 1000 });
    let base = std::env::var_os("MEMWB_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    std::fs::create_dir_all(&base).expect("bench dir");
    let tree = tempfile::tempdir_in(&base).expect("temp dir");
    let made = Instant::now();
    make_tree(tree.path(), sets);
    println!(
        "made {sets} sets of {RECORDS} records in {:.1?}",
        made.elapsed()
    );

    let options = StoreOptions {
        max_index_bytes: 64 * 1024,
        ..StoreOptions::default()
    };
    let context = AuditContext::new(None);
    let mut times = Vec::new();
    for run in 1..=RUNS {
        let start = Instant::now();
        let found = find_sets(&[tree.path().to_owned()]);
        let walked = start.elapsed();
        let reports = check_sets(&found, &options, &context, false, &|| {});
        let took = start.elapsed();
        assert_eq!(reports.len(), sets);
        let records: usize = reports.iter().map(|r| r.records).sum();
        assert_eq!(records, sets * RECORDS);
        let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
        assert!(reports.iter().all(|r| !r.ok), "every set has a token");
        println!(
            "run {run}: {sets} sets, {records} records, {findings} findings in {took:.2?} (walk {walked:.2?})"
        );
        times.push(took);
    }
    times.sort();
    let median = times[times.len() / 2];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "check --all, median of {RUNS}: {median:.2?} on {cores} cores; goal for 1000 sets: under {GOAL:?} ({})",
        if sets == 1000 && median < GOAL {
            "met"
        } else if sets == 1000 {
            "MISSED"
        } else {
            "not measured at this size"
        }
    );
}
