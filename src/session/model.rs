//! The provider-neutral model interface, and the checks every side-query reply must pass.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::history::{AssistantMessage, Message};
use crate::store::record::js_trim;

/// One request: the messages, and the tools the model may call (always none for the memory
/// side-queries).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelRequest {
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
}

impl ModelRequest {
    /// A request that offers no tools.
    pub fn tool_free(messages: Vec<Message>) -> Self {
        Self {
            messages,
            tools: Vec::new(),
        }
    }

    /// The request as stable JSON (keys sorted recursively): the same request always gives
    /// the same bytes.
    pub fn to_stable_json(&self) -> String {
        stable_json(&serde_json::to_value(self).unwrap_or(Value::Null))
    }
}

/// A tool offered to the model: name, description and the JSON Schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// The model's answer: an assistant message, why the model stopped (`stop`, `length`,
/// `tool_calls`, ... as the provider names it), and the tokens it cost when the endpoint says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelReply {
    pub message: AssistantMessage,
    pub finish_reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
}

/// Tokens one request cost, as the endpoint reported them (OpenAI's `usage` object).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    #[serde(default)]
    pub prompt_tokens: u64,
    #[serde(default)]
    pub completion_tokens: u64,
}

impl TokenUsage {
    pub fn total(&self) -> u64 {
        self.prompt_tokens.saturating_add(self.completion_tokens)
    }
}

impl ModelReply {
    /// A reply with text that finished normally.
    pub fn stop(text: impl Into<String>) -> Self {
        Self {
            message: AssistantMessage {
                content: text.into(),
                tool_calls: Vec::new(),
            },
            finish_reason: "stop".into(),
            usage: None,
        }
    }
}

/// Something that answers chat requests: an HTTP endpoint, a local program, a test double.
/// Synchronous; run it off the UI thread.
pub trait ModelClient: Send + Sync {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError>;
}

impl<T: ModelClient + ?Sized> ModelClient for std::sync::Arc<T> {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        (**self).complete(request)
    }
}

impl<T: ModelClient + ?Sized> ModelClient for Box<T> {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        (**self).complete(request)
    }
}

/// Why a model could not be asked, or answered with something that is not a reply.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("model settings are invalid: {0}")]
    Config(String),
    #[error("model request to {target} timed out after {}", crate::time::friendly(*.after))]
    Timeout { target: String, after: Duration },
    #[error("could not reach the model server at {url}: {detail}")]
    Connect { url: String, detail: String },
    #[error("model server at {url} answered HTTP {status}: {detail}")]
    Status {
        url: String,
        status: u16,
        detail: String,
    },
    #[error("model server at {url} sent a reply that is not a chat completion: {detail}")]
    MalformedReply { url: String, detail: String },
    #[error("model command {command:?} failed: {detail}")]
    Command { command: String, detail: String },
    #[error("{0}")]
    Other(String),
}

/// How much of a server's error body or a command's stderr is quoted in a [`ModelError`].
pub(crate) const MAX_DETAIL_CHARS: usize = 300;

/// `text` on one line and at most [`MAX_DETAIL_CHARS`] characters (then `…`).
pub(crate) fn shorten(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= MAX_DETAIL_CHARS {
        return one_line;
    }
    let mut cut: String = one_line.chars().take(MAX_DETAIL_CHARS).collect();
    cut.push('…');
    cut
}

/// Why a side-query gave no usable answer: the model failed, or its reply broke a rule.
#[derive(Debug, thiserror::Error)]
pub enum SideQueryError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error("reply has {0} tool call(s), but memory side-queries offer no tools")]
    ToolCalls(usize),
    #[error("reply finished with {0:?}, expected \"stop\"")]
    FinishReason(String),
    #[error("reply has no text")]
    EmptyText,
    #[error("reply is not JSON: {0}")]
    NotJson(String),
    #[error("reply is invalid: {0}")]
    Invalid(String),
}

/// Sends a tool-free request and checks the reply: no tool calls, finish reason exactly
/// `stop`, non-blank text. The text is then parsed whole as JSON: no fence stripping, no
/// search for a JSON-looking substring.
pub fn side_query(
    client: &dyn ModelClient,
    messages: Vec<Message>,
) -> Result<Value, SideQueryError> {
    let request = ModelRequest::tool_free(messages);
    let reply = client.complete(&request)?;
    if !reply.message.tool_calls.is_empty() {
        return Err(SideQueryError::ToolCalls(reply.message.tool_calls.len()));
    }
    if reply.finish_reason != "stop" {
        return Err(SideQueryError::FinishReason(reply.finish_reason));
    }
    let text = reply.message.content;
    if js_trim(&text).is_empty() {
        return Err(SideQueryError::EmptyText);
    }
    serde_json::from_str(&text).map_err(|e| SideQueryError::NotJson(e.to_string()))
}

/// JSON with every object's keys sorted (UTF-16 code unit order, like JavaScript's default
/// sort), compact, no trailing newline: the same value always gives the same bytes.
pub fn stable_json(value: &Value) -> String {
    let mut out = String::new();
    write_stable(value, &mut out);
    out
}

fn write_stable(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&scalar(&Value::String(key.clone())));
                out.push(':');
                if let Some(item) = map.get(key) {
                    write_stable(item, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_stable(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&scalar(other)),
    }
}

fn scalar(value: &Value) -> String {
    // Serializing a scalar Value cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stable_json_sorts_keys_recursively() {
        let value = json!({"b": 1, "a": {"z": [ {"y": "\u{1}", "x": null} ], "c": true}});
        assert_eq!(
            stable_json(&value),
            r#"{"a":{"c":true,"z":[{"x":null,"y":"\u0001"}]},"b":1}"#
        );
    }

    #[test]
    fn stable_json_orders_keys_by_utf16_code_units() {
        // By code point U+FF5E sorts before U+1F600; in UTF-16 after it (0xD83D < 0xFF5E).
        let value = json!({"\u{1F600}": 1, "\u{FF5E}": 2, "a": 3});
        assert_eq!(
            stable_json(&value),
            "{\"a\":3,\"\u{1F600}\":1,\"\u{FF5E}\":2}"
        );
    }

    #[test]
    fn request_json_is_byte_identical_across_builds() {
        let make =
            || ModelRequest::tool_free(vec![Message::system("s"), Message::user("{\"q\":1}")]);
        assert_eq!(make().to_stable_json(), make().to_stable_json());
        assert_eq!(
            make().to_stable_json(),
            r#"{"messages":[{"content":"s","role":"system"},{"content":"{\"q\":1}","role":"user"}],"tools":[]}"#
        );
    }
}
