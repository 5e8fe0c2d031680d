//! An OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, llama.cpp's server,
//! anything that speaks `POST <base>/chat/completions`). Blocking, with one overall timeout.

use std::fmt;
use std::time::Duration;

use serde_json::{Value, json};

use super::history::{AssistantMessage, Message, ToolCall};
use super::model::{
    ModelClient, ModelError, ModelReply, ModelRequest, TokenUsage, shorten, stable_json,
};

/// Replies larger than this are refused (a chat completion is a few kilobytes).
const MAX_REPLY_BYTES: u64 = 8 * 1024 * 1024;

pub struct OpenAiClient {
    endpoint: String,
    model: String,
    api_key: Option<String>,
    timeout: Duration,
    agent: ureq::Agent,
}

impl fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiClient")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl OpenAiClient {
    /// `base_url` is the API root (`https://api.openai.com/v1`, `http://localhost:11434/v1`);
    /// `/chat/completions` is appended unless the URL already ends with it. The key, when
    /// given, is sent as `Authorization: Bearer <key>`; `timeout` bounds the whole request.
    pub fn new(
        base_url: &str,
        model: &str,
        api_key: Option<String>,
        timeout: Duration,
    ) -> Result<Self, ModelError> {
        let base = base_url.trim();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(ModelError::Config(format!(
                "model URL must start with http:// or https:// (got {base:?})"
            )));
        }
        if model.trim().is_empty() {
            return Err(ModelError::Config(
                "a model name is required with a model URL".into(),
            ));
        }
        if timeout.is_zero() {
            return Err(ModelError::Config(
                "the model timeout must be more than zero".into(),
            ));
        }
        let trimmed = base.trim_end_matches('/');
        let endpoint = if trimmed.ends_with("/chat/completions") {
            trimmed.to_owned()
        } else {
            format!("{trimmed}/chat/completions")
        };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .user_agent(concat!("memwb/", env!("CARGO_PKG_VERSION")))
            .build()
            .into();
        Ok(Self {
            endpoint,
            model: model.to_owned(),
            api_key: api_key.filter(|k| !k.is_empty()),
            timeout,
            agent,
        })
    }

    /// The URL requests are posted to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The exact body sent for `request`: stable JSON, so byte-identical across runs. `tools`
    /// is left out when empty, since OpenAI refuses an empty array (no tools is the same).
    pub fn request_body(&self, request: &ModelRequest) -> String {
        let messages: Vec<Value> = request.messages.iter().map(wire_message).collect();
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "stream": false,
        });
        if !request.tools.is_empty() {
            let tools: Vec<Value> = request
                .tools
                .iter()
                .map(|t| {
                    json!({"type": "function", "function": {
                        "name": t.name, "description": t.description, "parameters": t.parameters}})
                })
                .collect();
            body["tools"] = Value::Array(tools);
        }
        stable_json(&body)
    }

    fn transport_error(&self, error: ureq::Error) -> ModelError {
        let timeout = || ModelError::Timeout {
            target: self.endpoint.clone(),
            after: self.timeout,
        };
        match error {
            ureq::Error::Timeout(_) => timeout(),
            ureq::Error::Io(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
                ) =>
            {
                timeout()
            }
            ureq::Error::BodyExceedsLimit(limit) => ModelError::MalformedReply {
                url: self.endpoint.clone(),
                detail: format!("the reply is larger than {limit} bytes"),
            },
            other => ModelError::Connect {
                url: self.endpoint.clone(),
                detail: other.to_string(),
            },
        }
    }
}

impl ModelClient for OpenAiClient {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        let mut call = self
            .agent
            .post(&self.endpoint)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json");
        if let Some(key) = &self.api_key {
            call = call.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = call
            .send(self.request_body(request))
            .map_err(|e| self.transport_error(e))?;
        let status = response.status();
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_REPLY_BYTES)
            .read_to_string()
            .map_err(|e| self.transport_error(e))?;
        if !status.is_success() {
            return Err(ModelError::Status {
                url: self.endpoint.clone(),
                status: status.as_u16(),
                detail: error_detail(status.canonical_reason().unwrap_or(""), &text),
            });
        }
        parse_completion(&text).map_err(|detail| ModelError::MalformedReply {
            url: self.endpoint.clone(),
            detail,
        })
    }
}

/// A message in the chat-completions wire format.
fn wire_message(message: &Message) -> Value {
    match message {
        Message::System { content } => json!({"role": "system", "content": content}),
        Message::User { content } => json!({"role": "user", "content": content}),
        Message::Assistant(assistant) if assistant.tool_calls.is_empty() => {
            json!({"role": "assistant", "content": assistant.content})
        }
        Message::Assistant(assistant) => {
            let calls: Vec<Value> = assistant
                .tool_calls
                .iter()
                .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                .collect();
            let content = if assistant.content.is_empty() {
                Value::Null
            } else {
                Value::String(assistant.content.clone())
            };
            json!({"role": "assistant", "content": content, "tool_calls": calls})
        }
        Message::Tool(result) => {
            json!({"role": "tool", "tool_call_id": result.tool_call_id, "content": result.content})
        }
    }
}

/// Reads `choices[0]` of a chat completion: its message (text and tool calls) and
/// `finish_reason`. The text may be a string, `null`, or an array of `{"type":"text"}` parts.
fn parse_completion(text: &str) -> Result<ModelReply, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("body is not JSON ({e})"))?;
    let choice = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or("no \"choices[0]\" in the body")?;
    let message = choice.get("message").ok_or("no \"choices[0].message\"")?;
    let content = match message.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect(),
        Some(_) => return Err("\"choices[0].message.content\" is neither text nor null".into()),
    };
    let mut tool_calls = Vec::new();
    if let Some(calls) = message.get("tool_calls").filter(|c| !c.is_null()) {
        let calls = calls.as_array().ok_or("\"tool_calls\" is not an array")?;
        for call in calls {
            let function = call.get("function");
            let field =
                |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or_default().to_owned();
            tool_calls.push(ToolCall {
                id: field(call.get("id")),
                name: field(function.and_then(|f| f.get("name"))),
                arguments: field(function.and_then(|f| f.get("arguments"))),
            });
        }
    }
    let finish_reason = match choice.get("finish_reason") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(reason)) => reason.clone(),
        Some(_) => return Err("\"choices[0].finish_reason\" is not a string".into()),
    };
    // Usage is informational: a server that reports it oddly still gave a reply.
    let usage = value
        .get("usage")
        .and_then(|u| serde_json::from_value::<TokenUsage>(u.clone()).ok());
    Ok(ModelReply {
        message: AssistantMessage {
            content,
            tool_calls,
        },
        finish_reason,
        usage,
    })
}

/// The server's own explanation when it gives one (`{"error":{"message":...}}` or
/// `{"error":"..."}`), else the start of the body, else the status text.
fn error_detail(reason: &str, body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|v| {
        let error = v.get("error")?;
        error
            .get("message")
            .and_then(Value::as_str)
            .or_else(|| error.as_str())
            .map(str::to_owned)
    });
    let detail = from_json.unwrap_or_else(|| body.trim().to_owned());
    let detail = if detail.is_empty() {
        reason.to_owned()
    } else {
        detail
    };
    shorten(&detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_is_derived_from_the_base_url() {
        let make = |url: &str| {
            OpenAiClient::new(url, "m", None, Duration::from_secs(1))
                .map(|c| c.endpoint().to_owned())
        };
        assert_eq!(
            make("http://h:1/v1").unwrap(),
            "http://h:1/v1/chat/completions"
        );
        assert_eq!(
            make("http://h:1/v1/").unwrap(),
            "http://h:1/v1/chat/completions"
        );
        assert_eq!(
            make("https://h/v1/chat/completions").unwrap(),
            "https://h/v1/chat/completions"
        );
        assert!(matches!(make("h:1/v1"), Err(ModelError::Config(_))));
        assert!(OpenAiClient::new("http://h", " ", None, Duration::from_secs(1)).is_err());
    }

    #[test]
    fn the_key_never_shows_in_debug() {
        let client = OpenAiClient::new(
            "http://h",
            "m",
            Some("sk-secret".into()),
            Duration::from_secs(1),
        )
        .unwrap();
        assert!(!format!("{client:?}").contains("sk-secret"));
    }

    #[test]
    fn completion_parsing() {
        let reply = parse_completion(r#"{"choices":[{"message":{"role":"assistant","content":"[]"},"finish_reason":"stop"}]}"#).unwrap();
        assert_eq!(reply, ModelReply::stop("[]"));
        let counted = parse_completion(
            r#"{"choices":[{"message":{"content":"[]"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}"#,
        )
        .unwrap();
        assert_eq!(
            counted.usage,
            Some(TokenUsage {
                prompt_tokens: 12,
                completion_tokens: 3
            })
        );
        let parts = parse_completion(
            r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"length"}]}"#,
        )
        .unwrap();
        assert_eq!(
            (parts.message.content.as_str(), parts.finish_reason.as_str()),
            ("ab", "length")
        );
        let calls = parse_completion(
            r#"{"choices":[{"message":{"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#,
        )
        .unwrap();
        assert_eq!(calls.message.tool_calls.len(), 1);
        assert!(parse_completion("{}").is_err());
        assert!(parse_completion("not json").is_err());
        assert!(parse_completion(r#"{"choices":[]}"#).is_err());
    }

    #[test]
    fn error_details_prefer_the_servers_message() {
        assert_eq!(
            error_detail("Unauthorized", r#"{"error":{"message":"bad key"}}"#),
            "bad key"
        );
        assert_eq!(
            error_detail("Not Found", r#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(error_detail("Bad Gateway", ""), "Bad Gateway");
        assert_eq!(error_detail("x", "plain\n text"), "plain text");
        assert!(
            error_detail("x", &"y".repeat(1000)).chars().count()
                <= super::super::model::MAX_DETAIL_CHARS + 1
        );
    }
}
