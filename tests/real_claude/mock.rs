//! A mock of the Anthropic Messages API on 127.0.0.1 for the real Claude Code: every
//! `POST /v1/messages` is recorded and answered as a stream (SSE) with the next scripted turn
//! of its conversation (told apart by the text its first message holds). Side requests (one
//! without tools, e.g. a title) and conversations without a script (a background agent) get
//! the text `done` and use up no turn.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{Value, json};

/// One content block the model answers with.
#[derive(Debug, Clone)]
pub enum Block {
    Text(String),
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
}

/// One scripted answer of the main conversation.
pub type Turn = Vec<Block>;

pub fn text(text: &str) -> Turn {
    vec![Block::Text(text.to_owned())]
}

pub fn tool(id: &str, name: &str, input: Value) -> Turn {
    vec![Block::ToolUse {
        id: id.to_owned(),
        name: name.to_owned(),
        input,
    }]
}

pub struct Mock {
    pub base_url: String,
    state: Arc<State>,
    requests: Arc<Mutex<Vec<Value>>>,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

struct State {
    /// Scripts by the text that marks their conversation in its first message (`None`: any
    /// other conversation that offers tools).
    scripts: Mutex<Vec<(Option<String>, VecDeque<Turn>)>>,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl Mock {
    /// Serves `script` turn by turn; once it is used up, every answer is the text `done`.
    pub fn serve(script: Vec<Turn>) -> Self {
        Self::routed(vec![(None, script)])
    }

    /// Like `serve`, with one script per conversation: a request whose first message holds a
    /// script's marker gets that script's next turn (a subagent's conversation starts with
    /// its prompt), the others the script without a marker.
    pub fn routed(scripts: Vec<(Option<&str>, Vec<Turn>)>) -> Self {
        let scripts = scripts
            .into_iter()
            .map(|(marker, turns)| (marker.map(str::to_owned), turns.into()))
            .collect();
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the mock model");
        let addr = listener.local_addr().expect("mock address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let state = Arc::new(State {
            scripts: Mutex::new(scripts),
            requests: requests.clone(),
        });
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let serving = state.clone();
        let thread = thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let state = serving.clone();
                thread::spawn(move || serve_connection(stream, &state));
            }
        });
        Self {
            base_url: format!("http://{addr}"),
            state,
            requests,
            addr,
            stop,
            thread: Some(thread),
        }
    }

    /// Ties the script without a marker to the conversation that opens with `prompt` (the
    /// main agent's), so a background agent's request never takes one of its turns.
    pub fn expect_prompt(&self, prompt: &str) {
        let mut scripts = self.state.scripts.lock().expect("scripts");
        for (marker, _) in scripts.iter_mut().filter(|(m, _)| m.is_none()) {
            *marker = Some(prompt.to_owned());
        }
    }

    /// Every request body received so far, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().expect("requests").clone()
    }

    /// The requests of the main conversation (those that offer tools).
    pub fn conversation(&self) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| r["tools"].as_array().is_some_and(|t| !t.is_empty()))
            .collect()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the blocking accept so the thread sees the flag and ends.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve_connection(stream: TcpStream, state: &State) {
    if stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .is_err()
    {
        return;
    }
    let Ok(reading) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(reading);
    let mut writer = stream;
    // Keep-alive: one request after another on the connection until the client closes it.
    while let Some((request_line, body)) = read_request(&mut reader) {
        let reply = answer(&request_line, &body, state);
        if writer.write_all(&reply).is_err() {
            return;
        }
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<(String, Vec<u8>)> {
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).ok()? == 0 {
        return None;
    }
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((request_line, body))
}

fn answer(request_line: &str, body: &[u8], state: &State) -> Vec<u8> {
    let path = request_line.split_whitespace().nth(1).unwrap_or("");
    let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    if !path.starts_with("/v1/messages") || path.contains("count_tokens") {
        return response(
            "application/json",
            &json!({"input_tokens": 100}).to_string(),
        );
    }
    state
        .requests
        .lock()
        .expect("requests")
        .push(request.clone());
    let offers_tools = request["tools"].as_array().is_some_and(|t| !t.is_empty());
    let turn = if offers_tools {
        next_turn(state, &request)
    } else {
        None
    }
    .unwrap_or_else(|| text("done"));
    let model = request["model"].as_str().unwrap_or("claude-test");
    if request["stream"].as_bool() == Some(true) {
        response("text/event-stream", &stream_events(model, &turn))
    } else {
        response("application/json", &whole_message(model, &turn).to_string())
    }
}

fn next_turn(state: &State, request: &Value) -> Option<Turn> {
    let opening = request["messages"][0].to_string();
    let mut scripts = state.scripts.lock().expect("scripts");
    let marked = scripts
        .iter()
        .position(|(m, _)| m.as_deref().is_some_and(|m| opening.contains(m)));
    let index = marked.or_else(|| scripts.iter().position(|(m, _)| m.is_none()))?;
    scripts[index].1.pop_front()
}

fn response(content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn stop_reason(turn: &Turn) -> &'static str {
    if turn.iter().any(|b| matches!(b, Block::ToolUse { .. })) {
        "tool_use"
    } else {
        "end_turn"
    }
}

fn usage() -> Value {
    json!({"input_tokens": 100, "output_tokens": 10})
}

fn whole_message(model: &str, turn: &Turn) -> Value {
    let content: Vec<Value> = turn
        .iter()
        .map(|b| match b {
            Block::Text(t) => json!({"type": "text", "text": t}),
            Block::ToolUse { id, name, input } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": input})
            }
        })
        .collect();
    json!({"id": "msg_mock", "type": "message", "role": "assistant", "model": model,
           "content": content, "stop_reason": stop_reason(turn), "stop_sequence": null,
           "usage": usage()})
}

fn stream_events(model: &str, turn: &Turn) -> String {
    let mut events = vec![(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_mock", "type": "message",
               "role": "assistant", "model": model, "content": [], "stop_reason": null,
               "stop_sequence": null, "usage": usage()}}),
    )];
    for (index, block) in turn.iter().enumerate() {
        let (start, delta) = match block {
            Block::Text(t) => (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": t}),
            ),
            Block::ToolUse { id, name, input } => (
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": input.to_string()}),
            ),
        };
        events.push((
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": start}),
        ));
        events.push((
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        ));
        events.push((
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        ));
    }
    events.push((
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": stop_reason(turn),
               "stop_sequence": null}, "usage": {"output_tokens": 10}}),
    ));
    events.push(("message_stop", json!({"type": "message_stop"})));
    events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect()
}
