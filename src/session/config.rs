//! Which model answers the side-queries, from command-line values and environment variables.
//! A value given on the command line wins over the environment; an empty variable counts as
//! unset.

use std::time::Duration;

use super::command::CommandClient;
use super::model::{ModelClient, ModelError};

pub const ENV_MODEL_URL: &str = "MEMWB_MODEL_URL";
pub const ENV_MODEL: &str = "MEMWB_MODEL";
pub const ENV_MODEL_CMD: &str = "MEMWB_MODEL_CMD";
pub const ENV_MODEL_TIMEOUT: &str = "MEMWB_MODEL_TIMEOUT";
/// The variable the API key is read from unless another is named.
pub const DEFAULT_API_KEY_ENV: &str = "MEMWB_API_KEY";
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Where the model is.
#[derive(Clone, PartialEq, Eq)]
pub enum ModelEndpoint {
    /// An OpenAI-compatible chat-completions server.
    Http {
        url: String,
        model: String,
        api_key: Option<String>,
    },
    /// A program run through the shell for each request.
    Command { command_line: String },
}

impl std::fmt::Debug for ModelEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Http {
                url,
                model,
                api_key,
            } => f
                .debug_struct("Http")
                .field("url", url)
                .field("model", model)
                .field("api_key", &api_key.as_ref().map(|_| "<set>"))
                .finish(),
            Self::Command { command_line } => f
                .debug_struct("Command")
                .field("command_line", command_line)
                .finish(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSettings {
    pub endpoint: ModelEndpoint,
    pub timeout: Duration,
}

/// The model options as given on a command line (all optional).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelFlags {
    pub model_url: Option<String>,
    pub model: Option<String>,
    pub model_cmd: Option<String>,
    /// The name of the variable holding the API key (default [`DEFAULT_API_KEY_ENV`]).
    pub api_key_env: Option<String>,
    pub timeout_secs: Option<f64>,
}

impl ModelSettings {
    /// Combines flags with the environment (`env` looks a variable up). `Ok(None)`: no model
    /// is configured, so the keyword fallback selects.
    pub fn resolve(
        flags: &ModelFlags,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Self>, ModelError> {
        let config = |message: String| Err(ModelError::Config(message));
        let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let flag = |value: &Option<String>| value.clone().filter(|v| !v.trim().is_empty());
        let timeout = match (flags.timeout_secs, env(ENV_MODEL_TIMEOUT)) {
            (Some(secs), _) => secs,
            (None, Some(text)) => match text.trim().parse::<f64>() {
                Ok(secs) => secs,
                Err(_) => {
                    return config(format!(
                        "{ENV_MODEL_TIMEOUT} must be a number of seconds (got {text:?})"
                    ));
                }
            },
            (None, None) => DEFAULT_TIMEOUT.as_secs_f64(),
        };
        if !(timeout.is_finite() && timeout > 0.0 && timeout <= 86_400.0) {
            return config(format!(
                "the model timeout must be more than 0 and at most 86400 seconds (got {timeout})"
            ));
        }
        let timeout = Duration::from_secs_f64(timeout);

        let (flag_url, flag_cmd) = (flag(&flags.model_url), flag(&flags.model_cmd));
        if flag_url.is_some() && flag_cmd.is_some() {
            return config("--model-url and --model-cmd exclude each other; give one".into());
        }
        let (url, cmd) = match (flag_url, flag_cmd) {
            (Some(url), None) => (Some(url), None),
            (None, Some(cmd)) => (None, Some(cmd)),
            _ => {
                let (url, cmd) = (env(ENV_MODEL_URL), env(ENV_MODEL_CMD));
                if url.is_some() && cmd.is_some() {
                    return config(format!(
                        "{ENV_MODEL_URL} and {ENV_MODEL_CMD} are both set; unset one"
                    ));
                }
                (url, cmd)
            }
        };
        let flag_model = flag(&flags.model);
        if let Some(command_line) = cmd {
            if flag_model.is_some() {
                return config(
                    "--model names a model for --model-url; a --model-cmd program picks its own"
                        .into(),
                );
            }
            return Ok(Some(Self {
                endpoint: ModelEndpoint::Command { command_line },
                timeout,
            }));
        }
        let Some(url) = url else {
            if flag_model.is_some() {
                return config(format!("--model needs --model-url (or {ENV_MODEL_URL})"));
            }
            return Ok(None);
        };
        let Some(model) = flag_model.or_else(|| env(ENV_MODEL)) else {
            return config(format!(
                "a model URL needs a model name: --model NAME or {ENV_MODEL}"
            ));
        };
        let api_key = match flag(&flags.api_key_env) {
            Some(name) => match env(&name) {
                Some(key) => Some(key),
                None => return config(format!("--api-key-env names {name}, which is not set")),
            },
            None => env(DEFAULT_API_KEY_ENV),
        };
        Ok(Some(Self {
            endpoint: ModelEndpoint::Http {
                url,
                model,
                api_key,
            },
            timeout,
        }))
    }

    /// A client for these settings.
    pub fn client(&self) -> Result<Box<dyn ModelClient>, ModelError> {
        Ok(match &self.endpoint {
            ModelEndpoint::Http {
                url,
                model,
                api_key,
            } => http_client(url, model, api_key.clone(), self.timeout)?,
            ModelEndpoint::Command { command_line } => {
                Box::new(CommandClient::shell(command_line, self.timeout))
            }
        })
    }
}

#[cfg(feature = "http")]
fn http_client(
    url: &str,
    model: &str,
    api_key: Option<String>,
    timeout: Duration,
) -> Result<Box<dyn ModelClient>, ModelError> {
    Ok(Box::new(super::http::OpenAiClient::new(
        url, model, api_key, timeout,
    )?))
}

/// Settings still name an HTTP endpoint without the client compiled in: say so rather than
/// fall back, so a configured model is never silently ignored.
#[cfg(not(feature = "http"))]
fn http_client(
    url: &str,
    _model: &str,
    _api_key: Option<String>,
    _timeout: Duration,
) -> Result<Box<dyn ModelClient>, ModelError> {
    Err(ModelError::Config(format!(
        "{url} needs the HTTP model client, which this build leaves out (the `http` feature); use a model command"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn resolve(
        flags: ModelFlags,
        vars: &[(&str, &str)],
    ) -> Result<Option<ModelSettings>, ModelError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).into()))
            .collect();
        ModelSettings::resolve(&flags, &move |name| vars.get(name).cloned())
    }

    fn http(url: &str, model: &str, key: Option<&str>) -> ModelEndpoint {
        ModelEndpoint::Http {
            url: url.into(),
            model: model.into(),
            api_key: key.map(Into::into),
        }
    }

    #[test]
    fn nothing_configured_means_no_model() {
        assert_eq!(resolve(ModelFlags::default(), &[]).unwrap(), None);
        assert_eq!(
            resolve(ModelFlags::default(), &[(ENV_MODEL_URL, " ")]).unwrap(),
            None
        );
    }

    #[test]
    fn environment_alone_configures_http() {
        let settings = resolve(
            ModelFlags::default(),
            &[
                (ENV_MODEL_URL, "http://h/v1"),
                (ENV_MODEL, "m"),
                (DEFAULT_API_KEY_ENV, "k"),
                (ENV_MODEL_TIMEOUT, "2.5"),
            ],
        )
        .unwrap()
        .unwrap();
        assert_eq!(settings.endpoint, http("http://h/v1", "m", Some("k")));
        assert_eq!(settings.timeout, Duration::from_millis(2500));
        assert!(!format!("{settings:?}").contains("\"k\""));
    }

    #[test]
    fn flags_win_over_the_environment() {
        let flags = ModelFlags {
            model_cmd: Some("./fake-model".into()),
            timeout_secs: Some(3.0),
            ..ModelFlags::default()
        };
        let settings = resolve(
            flags,
            &[(ENV_MODEL_URL, "http://h/v1"), (ENV_MODEL_TIMEOUT, "x")],
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            settings.endpoint,
            ModelEndpoint::Command {
                command_line: "./fake-model".into()
            }
        );
        assert_eq!(settings.timeout, Duration::from_secs(3));
        let flags = ModelFlags {
            model_url: Some("http://flag/v1".into()),
            model: Some("fm".into()),
            api_key_env: Some("OPENAI_API_KEY".into()),
            ..ModelFlags::default()
        };
        let settings = resolve(
            flags,
            &[
                (ENV_MODEL_CMD, "cmd"),
                (ENV_MODEL, "em"),
                ("OPENAI_API_KEY", "sk"),
            ],
        )
        .unwrap()
        .unwrap();
        assert_eq!(settings.endpoint, http("http://flag/v1", "fm", Some("sk")));
    }

    #[test]
    fn contradictions_are_refused() {
        let both = ModelFlags {
            model_url: Some("http://h".into()),
            model_cmd: Some("c".into()),
            ..ModelFlags::default()
        };
        assert!(resolve(both, &[]).is_err());
        assert!(
            resolve(
                ModelFlags::default(),
                &[(ENV_MODEL_URL, "http://h"), (ENV_MODEL_CMD, "c")]
            )
            .is_err()
        );
        assert!(
            resolve(ModelFlags::default(), &[(ENV_MODEL_URL, "http://h")]).is_err(),
            "no model name"
        );
        let model_only = ModelFlags {
            model: Some("m".into()),
            ..ModelFlags::default()
        };
        assert!(resolve(model_only, &[]).is_err());
        let missing_key = ModelFlags {
            model_url: Some("http://h".into()),
            model: Some("m".into()),
            api_key_env: Some("NOPE".into()),
            ..ModelFlags::default()
        };
        assert!(resolve(missing_key, &[]).is_err());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let flags = ModelFlags {
                timeout_secs: Some(bad),
                ..ModelFlags::default()
            };
            assert!(resolve(flags, &[]).is_err(), "{bad}");
        }
        assert!(resolve(ModelFlags::default(), &[(ENV_MODEL_TIMEOUT, "soon")]).is_err());
    }

    #[cfg(not(feature = "http"))]
    #[test]
    fn without_the_http_client_an_http_endpoint_is_refused_not_ignored() {
        let settings = ModelSettings {
            endpoint: http("http://h/v1", "m", None),
            timeout: DEFAULT_TIMEOUT,
        };
        let error = settings
            .client()
            .err()
            .expect("no HTTP client in this build");
        assert!(matches!(error, ModelError::Config(_)), "{error:?}");
        assert!(error.to_string().contains("`http` feature"), "{error}");
    }
}
