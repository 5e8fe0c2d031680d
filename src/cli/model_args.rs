//! The model options shared by every command that asks a model.

use crate::session::config::ModelFlags;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct ModelArgs {
    /// OpenAI-compatible API root, e.g. https://api.openai.com/v1 or http://localhost:11434/v1
    /// [env: MEMWB_MODEL_URL]
    #[arg(long, value_name = "URL")]
    pub model_url: Option<String>,
    /// Model name for --model-url [env: MEMWB_MODEL]
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// A program that answers on stdout the request it reads on stdin, run through the shell
    /// [env: MEMWB_MODEL_CMD]
    #[arg(long, value_name = "CMD")]
    pub model_cmd: Option<String>,
    /// The environment variable holding the API key [default: MEMWB_API_KEY]
    #[arg(long, value_name = "VAR")]
    pub api_key_env: Option<String>,
    /// Seconds to wait for the model [env: MEMWB_MODEL_TIMEOUT] [default: 60]
    #[arg(long, value_name = "SECS")]
    pub model_timeout: Option<f64>,
}

impl ModelArgs {
    pub fn flags(&self) -> ModelFlags {
        ModelFlags {
            model_url: self.model_url.clone(),
            model: self.model.clone(),
            model_cmd: self.model_cmd.clone(),
            api_key_env: self.api_key_env.clone(),
            timeout_secs: self.model_timeout,
        }
    }
}
