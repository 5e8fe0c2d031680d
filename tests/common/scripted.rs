//! A model double for the session's side-queries: answers each kind (selection, extraction,
//! consolidation) with a script and records every request. The session's lifecycle tests and
//! the conformance suite's session cases share it.

use std::sync::Mutex;

use memwb::session::{ModelClient, ModelError, ModelReply, ModelRequest};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Select,
    Extract,
    Consolidate,
}

pub type Handler = Box<dyn Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync>;

/// A model double: answers each side-query kind with a script and records every request.
#[derive(Default)]
pub struct Scripted {
    pub select: Option<Handler>,
    pub extract: Option<Handler>,
    pub consolidate: Option<Handler>,
    pub log: Mutex<Vec<(Kind, ModelRequest)>>,
}

/// The side-query kind, from the keys of the JSON input in the last message.
pub fn kind(request: &ModelRequest) -> Kind {
    let last = request.messages.last().expect("a message");
    let input: Value = serde_json::from_str(last.content()).expect("side-query input is JSON");
    if input.get("query").is_some() {
        Kind::Select
    } else if input.get("existing_catalog").is_some() {
        Kind::Extract
    } else if input.get("candidates").is_some() {
        Kind::Consolidate
    } else {
        panic!("unknown side-query input {input}")
    }
}

impl Scripted {
    fn on(
        mut self,
        which: Kind,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        let slot = match which {
            Kind::Select => &mut self.select,
            Kind::Extract => &mut self.extract,
            Kind::Consolidate => &mut self.consolidate,
        };
        *slot = Some(Box::new(f));
        self
    }
    pub fn select(
        self,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        self.on(Kind::Select, f)
    }
    pub fn extract(
        self,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        self.on(Kind::Extract, f)
    }
    pub fn consolidate(
        self,
        f: impl Fn(&ModelRequest) -> Result<ModelReply, ModelError> + Send + Sync + 'static,
    ) -> Self {
        self.on(Kind::Consolidate, f)
    }
    pub fn calls(&self, which: Kind) -> Vec<ModelRequest> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|(k, _)| *k == which)
            .map(|(_, r)| r.clone())
            .collect()
    }
}

impl ModelClient for Scripted {
    fn complete(&self, request: &ModelRequest) -> Result<ModelReply, ModelError> {
        let which = kind(request);
        self.log.lock().unwrap().push((which, request.clone()));
        let handler = match which {
            Kind::Select => &self.select,
            Kind::Extract => &self.extract,
            Kind::Consolidate => &self.consolidate,
        };
        match handler {
            Some(f) => f(request),
            None => Err(ModelError::Other(format!("no script for {which:?}"))),
        }
    }
}

pub fn reply(value: Value) -> Result<ModelReply, ModelError> {
    Ok(ModelReply::stop(value.to_string()))
}

pub fn item(name: &str, description: &str) -> Value {
    json!({"name": name, "type": "project", "description": description, "body": format!("Body of {name}.")})
}
