//! A chat-completions server on 127.0.0.1 for tests: canned replies, recorded requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{Value, json};

/// One canned answer of the test server.
pub struct Canned {
    pub status: u16,
    pub body: String,
    pub delay: Duration,
}

pub fn canned(status: u16, body: impl Into<String>) -> Canned {
    Canned {
        status,
        body: body.into(),
        delay: Duration::ZERO,
    }
}

pub fn completion(content: Value, finish_reason: &str) -> Canned {
    canned(
        200,
        json!({"id": "c", "object": "chat.completion", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}
        ]})
        .to_string(),
    )
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub request_line: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A chat-completions server on 127.0.0.1 that answers one connection per canned reply, in
/// order, then stops; it also stops by itself after ten seconds.
pub struct Server {
    pub base_url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
    thread: JoinHandle<()>,
    addr: SocketAddr,
    finished: Arc<AtomicBool>,
}

pub fn serve(replies: Vec<Canned>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let base_url = format!("http://{addr}/v1");
    let requests = Arc::new(Mutex::new(Vec::new()));
    let log = requests.clone();
    let finished = Arc::new(AtomicBool::new(false));
    let done = finished.clone();
    let thread = thread::spawn(move || {
        for reply in replies {
            // A blocking accept: `finish` wakes it with a connection of its own when the test
            // is over, so a client that never came ends the server instead of hanging it.
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            if done.load(Ordering::SeqCst) {
                return;
            }
            if let Some(recorded) = answer(stream, &reply) {
                log.lock().unwrap().push(recorded);
            }
        }
    });
    Server {
        base_url,
        requests,
        thread,
        addr,
        finished,
    }
}

fn answer(stream: TcpStream, reply: &Canned) -> Option<Recorded> {
    stream.set_nonblocking(false).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let recorded = Recorded {
        request_line: request_line.trim_end().to_owned(),
        headers,
        body: String::from_utf8(body).ok()?,
    };
    // A slow server on purpose: the client's timeout is what is under test.
    thread::sleep(reply.delay);
    let mut stream = stream;
    let head = format!(
        "HTTP/1.1 {} Canned\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reply.status,
        reply.body.len()
    );
    // The client may have given up already (timeout tests).
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(reply.body.as_bytes()));
    Some(recorded)
}

impl Server {
    pub fn finish(self) -> Vec<Recorded> {
        self.finished.store(true, Ordering::SeqCst);
        // Refused once the server has answered every canned reply and closed: nothing to wake.
        let _ = TcpStream::connect(self.addr);
        self.thread.join().expect("server thread");
        Arc::try_unwrap(self.requests)
            .expect("sole owner")
            .into_inner()
            .unwrap()
    }
}
