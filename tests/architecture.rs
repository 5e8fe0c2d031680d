//! The module graph stays acyclic: the top-level modules of src/, and the sub-modules of
//! `review`, `claude` and `store` among themselves (issue 23). Read from the source, as `use`
//! lines and inline `crate::`/`super::` paths say; a cycle fails with the lines that make it.
//!
//! Not counted: a parent's own file (`mod.rs`) using its children (it owns them), test modules
//! (`#[cfg(test)]` to the end of the file) and comments. `cargo modules` would draw the graph
//! too, but it is a cargo subcommand built against rustc's internals, too heavy for CI here.

mod file_length;
mod format_names;
mod registration;
mod surface;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The parents whose children must not form a cycle among themselves.
const LAYERED: [&str; 3] = ["review", "claude", "store"];

/// One source file: its module path (`["review", "content", "fix"]`; `[]` for lib.rs) and
/// whether it is a parent's own file (mod.rs, lib.rs).
struct Source {
    file: String,
    module: Vec<String>,
    is_parent: bool,
    text: String,
}

/// A path one file names, with the line it is on.
struct Named {
    path: Vec<String>,
    line: usize,
    text: String,
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(&src).ok()?.to_string_lossy().into_owned();
            if relative == "main.rs" || relative.starts_with("bin/") {
                return None;
            }
            let mut module: Vec<String> = relative
                .trim_end_matches(".rs")
                .split('/')
                .map(str::to_owned)
                .collect();
            let is_parent = matches!(module.last().map(String::as_str), Some("mod" | "lib"));
            if is_parent {
                module.pop();
            }
            let text = std::fs::read_to_string(&path).ok()?;
            Some(Source {
                file: format!("src/{relative}"),
                module,
                is_parent,
                text,
            })
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read a source directory")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a file without its test module and comments, line by line (numbers kept).
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            break;
        }
        if trimmed.starts_with("//") {
            continue;
        }
        let code = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        lines.push((number + 1, code.to_owned()));
    }
    lines
}

/// `a::{b, c::{d, e}}` as `[a::b, a::c::d, a::c::e]`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![path.to_owned()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand)
        .map(|p| {
            if p == "self" {
                prefix.trim_end_matches("::").to_owned()
            } else {
                format!("{prefix}{p}")
            }
        })
        .collect()
}

/// Every `crate::`/`super::`/`self::` path the file names, resolved from the crate root.
fn named_paths(source: &Source) -> Vec<Named> {
    let lines = code_lines(&source.text);
    let mut named = Vec::new();
    // `use` statements, which may span lines and group paths in braces.
    let mut statement: Option<(usize, String, String)> = None;
    for (number, line) in &lines {
        let trimmed = line.trim();
        if statement.is_none() {
            let body = trimmed
                .strip_prefix("pub use ")
                .or_else(|| trimmed.strip_prefix("pub(crate) use "))
                .or_else(|| trimmed.strip_prefix("pub(super) use "))
                .or_else(|| trimmed.strip_prefix("use "));
            if let Some(body) = body {
                statement = Some((*number, trimmed.to_owned(), body.to_owned()));
            } else {
                for path in inline_paths(line) {
                    named.extend(resolve(source, &path).map(|path| Named {
                        path,
                        line: *number,
                        text: trimmed.to_owned(),
                    }));
                }
                continue;
            }
        } else if let Some((_, _, body)) = statement.as_mut() {
            body.push(' ');
            body.push_str(trimmed);
        }
        if let Some((start, first, body)) = statement.take() {
            if let Some(end) = body.find(';') {
                for path in expand(&body[..end]) {
                    named.extend(resolve(source, &path).map(|path| Named {
                        path,
                        line: start,
                        text: first.clone(),
                    }));
                }
            } else {
                statement = Some((start, first, body));
            }
        }
    }
    named
}

/// `crate::a::b` and `super::c` written inside code (not in a `use`).
fn inline_paths(line: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for prefix in ["crate::", "super::"] {
        let mut rest = line;
        while let Some(at) = rest.find(prefix) {
            let before = rest[..at].chars().last();
            let tail = &rest[at..];
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                paths.push(tail[..end].trim_end_matches(':').to_owned());
            }
            rest = &tail[end.max(prefix.len())..];
        }
    }
    paths
}

/// A path as segments from the crate root; `None` for an outside crate's.
fn resolve(source: &Source, path: &str) -> Option<Vec<String>> {
    let mut segments = path.split("::").map(str::trim).filter(|s| !s.is_empty());
    let first = segments.next()?;
    let mut base: Vec<String> = match first {
        "crate" => Vec::new(),
        "self" => source.module.clone(),
        "super" => {
            let mut base = source.module.clone();
            base.pop();
            base
        }
        _ => return None,
    };
    for segment in segments {
        if segment == "super" {
            base.pop();
        } else {
            base.push(segment.to_owned());
        }
    }
    Some(base)
}

/// Edges between nodes, each with the lines that make it.
type Graph = BTreeMap<String, BTreeMap<String, Vec<String>>>;

fn add(graph: &mut Graph, from: &str, to: &str, source: &Source, named: &Named) {
    if from == to {
        return;
    }
    let lines = graph
        .entry(from.to_owned())
        .or_default()
        .entry(to.to_owned())
        .or_default();
    let cited = format!("{}:{}: {}", source.file, named.line, named.text);
    if lines.len() < 3 && !lines.contains(&cited) {
        lines.push(cited);
    }
}

/// The children of `parent` a name in its own file (mod.rs) re-exports: `pub use child::X`.
fn re_exports(sources: &[Source], parent: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let Some(own) = sources
        .iter()
        .find(|s| s.is_parent && s.module == [parent.to_owned()])
    else {
        return names;
    };
    for (_, line) in code_lines(&own.text) {
        let trimmed = line.trim();
        let Some(body) = trimmed
            .strip_prefix("pub use ")
            .or_else(|| trimmed.strip_prefix("pub(crate) use "))
        else {
            continue;
        };
        for path in expand(body.trim_end_matches(';')) {
            let path = path.trim_start_matches("self::");
            let mut segments = path.split("::");
            let (Some(child), Some(name)) = (segments.next(), path.rsplit("::").next()) else {
                continue;
            };
            let alias = body
                .split(" as ")
                .nth(1)
                .filter(|_| !body.contains('{'))
                .map(|a| a.trim_end_matches(';').trim())
                .unwrap_or(name);
            names.insert(alias.to_owned(), child.to_owned());
        }
    }
    names
}

/// The two graphs the issue means: top-level modules, and each layered parent's children.
fn graphs() -> Vec<(String, Graph)> {
    let sources = sources();
    let top: BTreeSet<String> = sources
        .iter()
        .filter_map(|s| s.module.first().cloned())
        .collect();
    let mut top_level = Graph::new();
    let mut layered: BTreeMap<&str, Graph> = LAYERED.iter().map(|p| (*p, Graph::new())).collect();
    let children: BTreeMap<&str, BTreeSet<String>> = LAYERED
        .iter()
        .map(|parent| {
            let names = sources
                .iter()
                .filter(|s| s.module.len() >= 2 && s.module[0] == *parent)
                .map(|s| s.module[1].clone())
                .collect();
            (*parent, names)
        })
        .collect();
    let exports: BTreeMap<&str, BTreeMap<String, String>> = LAYERED
        .iter()
        .map(|parent| (*parent, re_exports(&sources, parent)))
        .collect();
    for source in &sources {
        let Some(from_top) = source.module.first() else {
            continue;
        };
        for named in named_paths(source) {
            let Some(to_top) = named.path.first() else {
                continue;
            };
            if top.contains(to_top) {
                add(&mut top_level, from_top, to_top, source, &named);
            }
            let parent = from_top.as_str();
            let Some(graph) = layered.get_mut(parent) else {
                continue;
            };
            // A parent's own file owns its children; only sibling edges count.
            if to_top != parent || (source.is_parent && source.module.len() == 1) {
                continue;
            }
            let Some(from) = source.module.get(1) else {
                continue;
            };
            let to = match named.path.get(1) {
                Some(child) if children[parent].contains(child) => child.clone(),
                Some(name) => match exports[parent].get(name) {
                    Some(child) => child.clone(),
                    None => format!("{parent} (mod.rs)"),
                },
                None => format!("{parent} (mod.rs)"),
            };
            add(graph, from, &to, source, &named);
        }
    }
    let mut all = vec![("top-level modules of src/".to_owned(), top_level)];
    all.extend(
        layered
            .into_iter()
            .map(|(parent, graph)| (format!("sub-modules of src/{parent}/"), graph)),
    );
    all
}

/// The strongly connected components of more than one node (Tarjan).
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(state: &mut State<'g>, node: &'g str) {
        let next = state.index.len();
        state.index.insert(node, next);
        state.low.insert(node, next);
        state.stack.push(node);
        state.on_stack.insert(node);
        if let Some(edges) = state.graph.get(node) {
            for to in edges.keys() {
                let to = to.as_str();
                if !state.index.contains_key(to) {
                    visit(state, to);
                    let low = state.low[node].min(state.low[to]);
                    state.low.insert(node, low);
                } else if state.on_stack.contains(to) {
                    let low = state.low[node].min(state.index[to]);
                    state.low.insert(node, low);
                }
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(top) = state.stack.pop() {
                state.on_stack.remove(top);
                component.push(top.to_owned());
                if top == node {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                state.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found
}

#[test]
fn no_module_cycles() {
    let mut report = Vec::new();
    let all = graphs();
    assert!(
        all[0].1.contains_key("cli") && all[0].1["cli"].contains_key("formats"),
        "the scanner sees no edge from cli to formats: it reads nothing"
    );
    for (level, graph) in &all {
        for component in cycles(graph) {
            let mut new_edges = Vec::new();
            for from in &component {
                for (to, lines) in &graph[from] {
                    if !component.contains(to) {
                        continue;
                    }
                    new_edges.push(format!("  {from} -> {to}:"));
                    new_edges.extend(lines.iter().map(|l| format!("    {l}")));
                }
            }
            if !new_edges.is_empty() {
                report.push(format!(
                    "a cycle among the {level}: {}",
                    component.join(", ")
                ));
                report.extend(new_edges);
            }
        }
    }
    assert!(
        report.is_empty(),
        "modules that import each other (move what both need into a leaf, or the import \
         downwards; see docs/architecture.md):\n{}",
        report.join("\n")
    );
}

#[test]
fn a_grouped_use_names_each_path() {
    assert_eq!(
        expand("crate::review::{journal::Entry, proposal::{self, Decision}}"),
        [
            "crate::review::journal::Entry",
            "crate::review::proposal",
            "crate::review::proposal::Decision"
        ]
    );
}
