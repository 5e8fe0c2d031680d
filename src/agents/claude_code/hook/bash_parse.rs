//! Bash text to the flat list of commands it may run, with every word expanded as far as
//! the gate can know it ([`super::bash_word`]). Parsed by `brush-parser`
//! (docs/architecture.md says why); substitutions, `bash -c` strings and `eval` arguments
//! are parsed in turn, so what runs inside them is listed too. Bounded in input size and
//! nesting depth (the caller bounds the time); past a bound the command is refused, never
//! half-judged.

use brush_parser::ast;
use brush_parser::word::{
    Parameter, ParameterExpr, SpecialParameter, WordPiece, WordPieceWithSource,
};
use brush_parser::{ParserOptions, SourceInfo};

use super::bash::PathContext;
use super::bash_word::{Expanded, Seg, ansi_c, literal};

/// Longer commands are not parsed (the agent's commands are a few hundred bytes).
pub(crate) const MAX_COMMAND_BYTES: usize = 64 * 1024;
/// Deeper bracket nesting is not parsed (the parser recurses once per level).
const MAX_NESTING: usize = 64;
/// How deep `$(…)` within `bash -c` within `eval` … is followed.
const MAX_DEPTH: u8 = 6;

/// One command the text may run.
#[derive(Debug, Default, Clone)]
pub(crate) struct Exec {
    /// Its words, the program first (empty for a redirection of a `{ …; }` group).
    pub words: Vec<Expanded>,
    /// `NAME=value` before it (the value's candidates are checked like words).
    pub assignments: Vec<Expanded>,
    /// Files it opens for writing (`>`, `>>`, `>|`, `&>`, `<>`, `>&file`).
    pub writes: Vec<Expanded>,
    /// Files it reads (`<`).
    pub reads: Vec<Expanded>,
    /// Whether its standard input is the output of another command (`… | it`).
    pub piped_stdin: bool,
    /// Heredoc and here-string bodies fed to it, as written.
    pub stdin_texts: Vec<String>,
    /// Set when part of it cannot be judged at all: why.
    pub opaque: Option<String>,
}

/// Why a command was not parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refused(pub String);

/// The commands `command` may run, or why it was not parsed.
pub(crate) fn commands(command: &str, context: &PathContext) -> Result<Vec<Exec>, Refused> {
    let mut walker = Walker {
        ctx: OwnedContext::from(context),
        execs: Vec::new(),
    };
    walker.script(command, 0)?;
    Ok(walker.execs)
}

fn check_bounds(command: &str) -> Result<(), Refused> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Refused(format!(
            "the command is longer than {MAX_COMMAND_BYTES} bytes"
        )));
    }
    let mut depth = 0usize;
    for c in command.chars() {
        match c {
            '(' | '{' | '[' | '`' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_NESTING {
            return Err(Refused(format!(
                "the command nests deeper than {MAX_NESTING} levels"
            )));
        }
    }
    Ok(())
}

/// What expansion needs to know, owned so the parser thread can hold it.
struct OwnedContext {
    home: Option<String>,
    claude_config: Option<String>,
}

impl From<&PathContext<'_>> for OwnedContext {
    fn from(context: &PathContext) -> Self {
        let text = |p: Option<&std::path::Path>| p.and_then(|p| p.to_str()).map(str::to_owned);
        Self {
            home: text(context.home),
            claude_config: text(context.claude_config),
        }
    }
}

struct Walker {
    ctx: OwnedContext,
    execs: Vec<Exec>,
}

impl Walker {
    /// Parses `text` as a script and lists what it runs.
    pub(crate) fn script(&mut self, text: &str, depth: u8) -> Result<(), Refused> {
        if depth > MAX_DEPTH {
            return Err(Refused(format!(
                "commands nest deeper than {MAX_DEPTH} levels of substitution"
            )));
        }
        check_bounds(text)?;
        let options = ParserOptions::default();
        let mut parser =
            brush_parser::Parser::new(text.as_bytes(), &options, &SourceInfo::default());
        let program = parser
            .parse_program()
            .map_err(|e| Refused(format!("the shell parser refused it ({e})")))?;
        for list in &program.complete_commands {
            self.compound_list(list, depth)?;
        }
        Ok(())
    }

    fn compound_list(&mut self, list: &ast::CompoundList, depth: u8) -> Result<(), Refused> {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first, depth)?;
            for next in &and_or.additional {
                let (ast::AndOr::And(p) | ast::AndOr::Or(p)) = next;
                self.pipeline(p, depth)?;
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline, depth: u8) -> Result<(), Refused> {
        for (i, command) in pipeline.seq.iter().enumerate() {
            let first = self.execs.len();
            self.command(command, depth)?;
            if i > 0 {
                for exec in &mut self.execs[first..] {
                    exec.piped_stdin = true;
                }
            }
        }
        Ok(())
    }

    fn command(&mut self, command: &ast::Command, depth: u8) -> Result<(), Refused> {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, depth),
            ast::Command::Compound(compound, redirects) => {
                self.compound(compound, depth)?;
                self.group_redirects(redirects.as_ref(), depth)
            }
            ast::Command::Function(function) => {
                let ast::FunctionBody(body, redirects) = &function.body;
                self.compound(body, depth)?;
                self.group_redirects(redirects.as_ref(), depth)
            }
            ast::Command::ExtendedTest(test) => {
                let mut exec = Exec::default();
                self.test_expr(&test.expr, &mut exec, depth)?;
                exec.words.insert(0, literal("[["));
                self.execs.push(exec);
                Ok(())
            }
        }
    }

    fn test_expr(
        &mut self,
        expr: &ast::ExtendedTestExpr,
        exec: &mut Exec,
        depth: u8,
    ) -> Result<(), Refused> {
        match expr {
            ast::ExtendedTestExpr::And(a, b) | ast::ExtendedTestExpr::Or(a, b) => {
                self.test_expr(a, exec, depth)?;
                self.test_expr(b, exec, depth)
            }
            ast::ExtendedTestExpr::Not(a) | ast::ExtendedTestExpr::Parenthesized(a) => {
                self.test_expr(a, exec, depth)
            }
            ast::ExtendedTestExpr::UnaryTest(_, word) => {
                let expanded = self.word(&word.value, depth)?;
                exec.words.push(expanded);
                Ok(())
            }
            ast::ExtendedTestExpr::BinaryTest(_, left, right) => {
                for word in [left, right] {
                    let expanded = self.word(&word.value, depth)?;
                    exec.words.push(expanded);
                }
                Ok(())
            }
        }
    }

    fn compound(&mut self, compound: &ast::CompoundCommand, depth: u8) -> Result<(), Refused> {
        use ast::CompoundCommand as C;
        match compound {
            C::Arithmetic(arithmetic) => self.arithmetic(&arithmetic.expr.value, depth),
            C::ArithmeticForClause(clause) => {
                for expr in [&clause.initializer, &clause.condition, &clause.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arithmetic(&expr.value, depth)?;
                }
                self.compound_list(&clause.body.list, depth)
            }
            C::BraceGroup(group) => self.compound_list(&group.list, depth),
            C::Subshell(subshell) => self.compound_list(&subshell.list, depth),
            C::ForClause(clause) => {
                let mut exec = Exec {
                    words: vec![literal("for")],
                    ..Exec::default()
                };
                for value in clause.values.iter().flatten() {
                    let expanded = self.word(&value.value, depth)?;
                    exec.words.push(expanded);
                }
                self.execs.push(exec);
                self.compound_list(&clause.body.list, depth)
            }
            C::CaseClause(clause) => {
                let mut exec = Exec {
                    words: vec![literal("case")],
                    ..Exec::default()
                };
                let value = self.word(&clause.value.value, depth)?;
                exec.words.push(value);
                for item in &clause.cases {
                    for pattern in &item.patterns {
                        self.word(&pattern.value, depth)?;
                    }
                    if let Some(list) = &item.cmd {
                        self.compound_list(list, depth)?;
                    }
                }
                self.execs.push(exec);
                Ok(())
            }
            C::IfClause(clause) => {
                self.compound_list(&clause.condition, depth)?;
                self.compound_list(&clause.then, depth)?;
                for branch in clause.elses.iter().flatten() {
                    if let Some(condition) = &branch.condition {
                        self.compound_list(condition, depth)?;
                    }
                    self.compound_list(&branch.body, depth)?;
                }
                Ok(())
            }
            C::WhileClause(clause) | C::UntilClause(clause) => {
                let ast::WhileOrUntilClauseCommand(condition, body, _) = clause;
                self.compound_list(condition, depth)?;
                self.compound_list(&body.list, depth)
            }
        }
    }

    /// `$((…))` and `((…))` run what a `$(…)` inside them runs.
    fn arithmetic(&mut self, text: &str, depth: u8) -> Result<(), Refused> {
        if text.contains("$(") || text.contains('`') {
            self.word(&format!("\"{}\"", text.replace('"', "")), depth)?;
        }
        Ok(())
    }

    fn group_redirects(
        &mut self,
        redirects: Option<&ast::RedirectList>,
        depth: u8,
    ) -> Result<(), Refused> {
        let Some(ast::RedirectList(list)) = redirects else {
            return Ok(());
        };
        let mut exec = Exec::default();
        for redirect in list {
            self.redirect(redirect, &mut exec, depth)?;
        }
        self.execs.push(exec);
        Ok(())
    }

    fn simple(&mut self, simple: &ast::SimpleCommand, depth: u8) -> Result<(), Refused> {
        let mut exec = Exec::default();
        for item in simple.prefix.iter().flat_map(|p| p.0.iter()) {
            self.item(item, &mut exec, depth)?;
        }
        if let Some(program) = &simple.word_or_name {
            let expanded = self.word(&program.value, depth)?;
            exec.words.push(expanded);
        }
        for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
            self.item(item, &mut exec, depth)?;
        }
        self.execs.push(exec);
        Ok(())
    }

    fn item(
        &mut self,
        item: &ast::CommandPrefixOrSuffixItem,
        exec: &mut Exec,
        depth: u8,
    ) -> Result<(), Refused> {
        use ast::CommandPrefixOrSuffixItem as I;
        match item {
            I::IoRedirect(redirect) => self.redirect(redirect, exec, depth),
            I::Word(word) => {
                let expanded = self.word(&word.value, depth)?;
                exec.words.push(expanded);
                Ok(())
            }
            I::AssignmentWord(_, word) => {
                let expanded = self.word(&word.value, depth)?;
                if exec.words.is_empty() {
                    exec.assignments.push(expanded);
                } else {
                    // `declare x=…`, `export x=…`: an argument of the builtin.
                    exec.words.push(expanded);
                }
                Ok(())
            }
            I::ProcessSubstitution(_, subshell) => {
                self.compound_list(&subshell.list, depth + 1)?;
                exec.words.push(vec![Seg::Open]);
                Ok(())
            }
        }
    }

    fn redirect(
        &mut self,
        redirect: &ast::IoRedirect,
        exec: &mut Exec,
        depth: u8,
    ) -> Result<(), Refused> {
        use ast::IoFileRedirectKind as K;
        use ast::IoFileRedirectTarget as T;
        match redirect {
            ast::IoRedirect::File(_, kind, target) => match target {
                T::Filename(word) => {
                    let expanded = self.word(&word.value, depth)?;
                    if matches!(kind, K::Read) {
                        exec.reads.push(expanded);
                    } else {
                        exec.writes.push(expanded);
                    }
                }
                T::Fd(_) => {}
                T::Duplicate(word) => {
                    let expanded = self.word(&word.value, depth)?;
                    let is_descriptor = super::bash_word::known_text(&expanded).is_some_and(|t| {
                        t == "-" || t.trim_end_matches('-').parse::<u32>().is_ok()
                    });
                    if !is_descriptor {
                        // `>&file` writes the file; `<&file` is refused by Bash.
                        exec.writes.push(expanded);
                    }
                }
                T::ProcessSubstitution(_, subshell) => {
                    self.compound_list(&subshell.list, depth + 1)?;
                }
            },
            ast::IoRedirect::OutputAndError(word, _) => {
                let expanded = self.word(&word.value, depth)?;
                exec.writes.push(expanded);
            }
            ast::IoRedirect::HereDocument(_, here) => {
                if here.requires_expansion {
                    // An unquoted heredoc expands as a double-quoted word does, `"` aside:
                    // what its substitutions run is listed the same way.
                    let as_word = format!("\"{}\"", here.doc.value.replace('"', "\\\""));
                    self.word(&as_word, depth)?;
                }
                exec.stdin_texts.push(here.doc.value.clone());
            }
            ast::IoRedirect::HereString(_, word) => {
                let expanded = self.word(&word.value, depth)?;
                let text = super::bash_word::known_text(&expanded);
                match text {
                    Some(text) => exec.stdin_texts.push(text),
                    None => exec.piped_stdin = true,
                }
            }
        }
        Ok(())
    }

    /// Expands one word; what a substitution in it runs is listed as it goes.
    fn word(&mut self, raw: &str, depth: u8) -> Result<Expanded, Refused> {
        let pieces = brush_parser::word::parse(raw, &ParserOptions::default())
            .map_err(|e| Refused(format!("a word did not parse ({e})")))?;
        let mut out = Vec::new();
        self.pieces(&pieces, false, &mut out, depth)?;
        Ok(out)
    }

    fn pieces(
        &mut self,
        pieces: &[WordPieceWithSource],
        quoted: bool,
        out: &mut Expanded,
        depth: u8,
    ) -> Result<(), Refused> {
        for piece in pieces {
            match &piece.piece {
                WordPiece::Text(text) => {
                    for c in text.chars() {
                        let wild = !quoted && matches!(c, '*' | '?' | '[' | '{' | '(');
                        out.push(if wild { Seg::Wild } else { Seg::Lit(c) });
                    }
                }
                WordPiece::SingleQuotedText(text) => out.extend(literal(text)),
                WordPiece::AnsiCQuotedText(text) => out.extend(literal(&ansi_c(text))),
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    self.pieces(inner, true, out, depth)?;
                }
                WordPiece::TildePrefix(user) => {
                    let value = if out.is_empty() && user.is_empty() {
                        self.ctx.home.as_deref()
                    } else {
                        None
                    };
                    match value {
                        Some(home) => out.extend(literal(home)),
                        None => out.push(Seg::Open),
                    }
                }
                WordPiece::EscapeSequence(escaped) => {
                    let rest = escaped.strip_prefix('\\').unwrap_or(escaped);
                    if rest != "\n" {
                        out.extend(literal(rest));
                    }
                }
                WordPiece::ParameterExpansion(expr) => {
                    out.extend(self.parameter(expr));
                    let text = format!("{expr:?}");
                    if text.contains("$(") || text.contains('`') || text.contains("<(") {
                        self.execs.push(Exec {
                            opaque: Some(
                                "a command substitution inside a parameter expansion".into(),
                            ),
                            ..Exec::default()
                        });
                    }
                }
                WordPiece::CommandSubstitution(inner)
                | WordPiece::BackquotedCommandSubstitution(inner) => {
                    self.script(inner, depth + 1)?;
                    out.push(Seg::Open);
                }
                WordPiece::ArithmeticExpression(expr) => {
                    self.arithmetic(&expr.value, depth + 1)?;
                    out.push(Seg::Wild);
                }
            }
        }
        Ok(())
    }

    /// `$HOME` and `$CLAUDE_CONFIG_DIR` as the hook's environment has them (Claude Code runs
    /// hooks and Bash with the same); `$?`, `$$`, `$#`, `$!`, `$-` as a few characters that
    /// are no path; every other parameter as anything.
    fn parameter(&self, expr: &ParameterExpr) -> Expanded {
        let ParameterExpr::Parameter {
            parameter,
            indirect: false,
        } = expr
        else {
            return vec![Seg::Open];
        };
        let known = match parameter {
            Parameter::Named(name) if name == "HOME" => self.ctx.home.as_deref(),
            Parameter::Named(name) if name == "CLAUDE_CONFIG_DIR" => {
                self.ctx.claude_config.as_deref()
            }
            Parameter::Special(
                SpecialParameter::AllPositionalParameters { .. } | SpecialParameter::ShellName,
            ) => None,
            Parameter::Special(_) => return vec![Seg::Wild],
            _ => None,
        };
        known.map_or_else(|| vec![Seg::Open], literal)
    }
}
