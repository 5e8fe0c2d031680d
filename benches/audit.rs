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

use memwb::claude::LoadLimits;
use memwb::content::AuditContext;
use memwb::content::report::check_sets;
use memwb::folder::sets::discover;
use memwb::formats::OpenOptions;
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

/// Writes each set's files directly, byte for byte what the engine writes (record files, the
/// manifest, MEMORY.md) but without its fsyncs: seeding 50,000 records through transactions
/// takes minutes on a shared disk and is not what is measured. One set goes through the
/// engine and must read back identically, so the shortcut cannot drift from the contract.
fn make_tree(root: &Path, sets: usize) {
    for set in 0..sets {
        let project = root
            .join(format!("group-{}", set % 10))
            .join(format!("project-{set}"));
        let folder = project.join(".memory");
        std::fs::create_dir_all(&folder).expect("mkdir");
        let records: Vec<Record> = (0..RECORDS).map(|i| record(set, i)).collect();
        let files: Vec<String> = records
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{}-{:032x}.md", r.name(), set * RECORDS + i))
            .collect();
        for (file, record) in files.iter().zip(&records) {
            std::fs::write(folder.join(file), record.to_file_text()).expect("write record");
        }
        let index = memwb::store::index::render(files.iter().map(String::as_str).zip(&records));
        std::fs::write(folder.join("MEMORY.md"), index).expect("write index");
        std::fs::write(
            folder.join("manifest.json"),
            memwb::store::manifest::render(&files),
        )
        .expect("write manifest");
    }
    let check = root.join("through-the-engine");
    std::fs::create_dir_all(&check).expect("mkdir");
    let store = Store::open(&check, options()).expect("open");
    store
        .extend((0..RECORDS).map(|i| record(0, i)).collect())
        .expect("seed");
    let direct = Store::open(root.join("group-0/project-0"), options()).expect("open");
    let same = |s: &Store| s.records().expect("reads");
    assert_eq!(
        same(&store),
        same(&direct),
        "the direct tree reads as the engine's"
    );
    assert_eq!(
        direct.inspect().findings(),
        Vec::new(),
        "and is well-formed"
    );
    std::fs::remove_dir_all(&check).expect("cleanup");
}

fn options() -> StoreOptions {
    StoreOptions {
        max_index_bytes: 64 * 1024,
        ..StoreOptions::default()
    }
}

/// User plus system CPU time this process has used.
fn cpu_time() -> Duration {
    let spent = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(spent.tv_sec as u64, spent.tv_nsec as u32)
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

    let options = OpenOptions::new(options(), LoadLimits::default());
    let context = AuditContext::new(None);
    let mut times = Vec::new();
    for run in 1..=RUNS {
        let start = Instant::now();
        let cpu = cpu_time();
        let found = discover(None, &[tree.path().to_owned()], &mut |_| {}).found;
        let walked = start.elapsed();
        let reports = check_sets(&found, &options, &context, false, &|| {});
        let took = start.elapsed();
        let cpu = cpu_time() - cpu;
        assert_eq!(reports.len(), sets);
        let records: usize = reports.iter().map(|r| r.records).sum();
        assert_eq!(records, sets * RECORDS);
        let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
        assert!(reports.iter().all(|r| !r.ok), "every set has a token");
        println!(
            "run {run}: {sets} sets, {records} records, {findings} findings in {took:.2?} (walk {walked:.2?}; CPU {cpu:.2?} user+system)"
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
