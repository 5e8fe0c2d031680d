//! Chat history: the canonical conversation an agent keeps, and the messages of a side-query.
//!
//! Provider-neutral: a system, user or assistant message (the assistant's may carry tool
//! calls), or a tool result answering one call. The JSON form (used by the command client and
//! in stable JSON) is tagged by `role`: `system`, `user`, `assistant`, `tool`.

use std::collections::HashSet;

use serde::{Deserialize, Deserializer, Serialize};

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase")]
pub enum Message {
    System {
        content: String,
    },
    User {
        content: String,
    },
    Assistant(AssistantMessage),
    /// The result of one tool call, answering the call with the same id.
    Tool(ToolResult),
}

impl Message {
    pub fn system(content: impl Into<String>) -> Self {
        Self::System {
            content: content.into(),
        }
    }

    pub fn user(content: impl Into<String>) -> Self {
        Self::User {
            content: content.into(),
        }
    }

    /// An assistant message with text and no tool calls.
    pub fn assistant(content: impl Into<String>) -> Self {
        Self::Assistant(AssistantMessage {
            content: content.into(),
            tool_calls: Vec::new(),
        })
    }

    pub fn tool_result(tool_call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self::Tool(ToolResult {
            tool_call_id: tool_call_id.into(),
            content: content.into(),
        })
    }

    pub fn role(&self) -> &'static str {
        match self {
            Self::System { .. } => "system",
            Self::User { .. } => "user",
            Self::Assistant(_) => "assistant",
            Self::Tool(_) => "tool",
        }
    }

    /// The text of the message (empty for an assistant message that only calls tools).
    pub fn content(&self) -> &str {
        match self {
            Self::System { content } | Self::User { content } => content,
            Self::Assistant(message) => &message.content,
            Self::Tool(result) => &result.content,
        }
    }
}

/// What the assistant said: text, tool calls, or both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssistantMessage {
    /// The text; `null` in JSON reads as empty.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub content: String,
    #[serde(default)]
    pub tool_calls: Vec<ToolCall>,
}

/// One call of a tool by the assistant. `arguments` is the JSON text the model produced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolResult {
    pub tool_call_id: String,
    pub content: String,
}

fn null_as_empty<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_default())
}

/// Why a history's tool calls and results do not pair up. `index` is the message's position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    #[error("message {index}: a tool call needs a non-empty id")]
    EmptyCallId { index: usize },
    #[error("message {index}: tool call id {id:?} is used twice in the history")]
    DuplicateCallId { index: usize, id: String },
    #[error("message {index}: tool result for {id:?} answers no pending tool call")]
    UnmatchedResult { index: usize, id: String },
    #[error("message {index}: tool call {id:?} of message {call_index} has no result before it")]
    UnansweredCall {
        index: usize,
        id: String,
        call_index: usize,
    },
    #[error("the history ends with tool call {id:?} of message {call_index} unanswered")]
    UnansweredAtEnd { id: String, call_index: usize },
}

/// Checks that every tool call is answered by exactly one tool result, and that the results
/// follow their assistant message directly (only other results in between), as chat APIs
/// require.
pub fn validate_tool_pairing(history: &[Message]) -> Result<(), HistoryError> {
    let mut seen_ids: HashSet<&str> = HashSet::new();
    // Calls of the latest assistant message still waiting for a result, and that message.
    let mut pending: Vec<&str> = Vec::new();
    let mut call_index = 0;
    for (index, message) in history.iter().enumerate() {
        if let Message::Tool(result) = message {
            match pending.iter().position(|id| *id == result.tool_call_id) {
                Some(at) => {
                    pending.remove(at);
                }
                None => {
                    return Err(HistoryError::UnmatchedResult {
                        index,
                        id: result.tool_call_id.clone(),
                    });
                }
            }
            continue;
        }
        if let Some(id) = pending.first() {
            return Err(HistoryError::UnansweredCall {
                index,
                id: (*id).to_owned(),
                call_index,
            });
        }
        if let Message::Assistant(assistant) = message {
            for call in &assistant.tool_calls {
                if call.id.is_empty() {
                    return Err(HistoryError::EmptyCallId { index });
                }
                if !seen_ids.insert(&call.id) {
                    return Err(HistoryError::DuplicateCallId {
                        index,
                        id: call.id.clone(),
                    });
                }
                pending.push(&call.id);
            }
            call_index = index;
        }
    }
    match pending.first() {
        Some(id) => Err(HistoryError::UnansweredAtEnd {
            id: (*id).to_owned(),
            call_index,
        }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calling(ids: &[&str]) -> Message {
        Message::Assistant(AssistantMessage {
            content: String::new(),
            tool_calls: ids
                .iter()
                .map(|id| ToolCall {
                    id: (*id).to_owned(),
                    name: "read_file".into(),
                    arguments: "{}".into(),
                })
                .collect(),
        })
    }

    #[test]
    fn well_paired_history_passes() {
        let history = vec![
            Message::system("sys"),
            Message::user("hi"),
            calling(&["a", "b"]),
            Message::tool_result("b", "B"),
            Message::tool_result("a", "A"),
            calling(&["c"]),
            Message::tool_result("c", "C"),
            Message::assistant("done"),
        ];
        assert_eq!(validate_tool_pairing(&history), Ok(()));
        assert_eq!(validate_tool_pairing(&[]), Ok(()));
    }

    #[test]
    fn broken_pairings_are_named() {
        let unanswered = vec![Message::user("u"), calling(&["a"]), Message::assistant("x")];
        assert_eq!(
            validate_tool_pairing(&unanswered),
            Err(HistoryError::UnansweredCall {
                index: 2,
                id: "a".into(),
                call_index: 1
            })
        );
        let stray = vec![Message::user("u"), Message::tool_result("zz", "?")];
        assert!(matches!(
            validate_tool_pairing(&stray),
            Err(HistoryError::UnmatchedResult { index: 1, .. })
        ));
        let twice = vec![
            calling(&["a"]),
            Message::tool_result("a", "1"),
            Message::tool_result("a", "2"),
        ];
        assert!(matches!(
            validate_tool_pairing(&twice),
            Err(HistoryError::UnmatchedResult { index: 2, .. })
        ));
        let reused = vec![
            calling(&["a"]),
            Message::tool_result("a", "1"),
            calling(&["a"]),
        ];
        assert!(matches!(
            validate_tool_pairing(&reused),
            Err(HistoryError::DuplicateCallId { index: 2, .. })
        ));
        let open_end = vec![Message::user("u"), calling(&["a"])];
        assert!(matches!(
            validate_tool_pairing(&open_end),
            Err(HistoryError::UnansweredAtEnd { call_index: 1, .. })
        ));
        assert!(matches!(
            validate_tool_pairing(&[calling(&[""])]),
            Err(HistoryError::EmptyCallId { index: 0 })
        ));
    }

    #[test]
    fn json_form_is_role_tagged() {
        let message = calling(&["a"]);
        let json = serde_json::to_value(&message).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"role": "assistant", "content": "", "tool_calls": [{"id": "a", "name": "read_file", "arguments": "{}"}]})
        );
        let back: Message = serde_json::from_value(json).unwrap();
        assert_eq!(back, message);
        let null_content: Message =
            serde_json::from_str(r#"{"role":"assistant","content":null}"#).unwrap();
        assert_eq!(null_content, Message::assistant(""));
    }
}
