//! Who made a change: the user and host, as recorded in the journal and on proposals.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Who {
    pub user: String,
    pub host: String,
}

impl Who {
    pub fn current() -> Self {
        Self::from_env(|var| std::env::var(var).ok())
    }

    /// `$USER` (or `$USERNAME`, `$LOGNAME`), else the system account of the process (the
    /// password database, through `whoami`), and the host; "unknown" only when all fail.
    fn from_env(var: impl Fn(&str) -> Option<String>) -> Self {
        let user = ["USER", "USERNAME", "LOGNAME"]
            .iter()
            .find_map(|name| var(name).filter(|v| !v.is_empty()))
            .or_else(|| whoami::username().ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| "unknown".into());
        let host = var("HOSTNAME")
            .filter(|h| !h.is_empty())
            .or_else(|| {
                std::fs::read_to_string("/proc/sys/kernel/hostname")
                    .or_else(|_| std::fs::read_to_string("/etc/hostname"))
                    .ok()
                    .map(|h| h.trim().to_owned())
                    .filter(|h| !h.is_empty())
            })
            .or_else(|| whoami::hostname().ok().filter(|h| !h.is_empty()))
            .unwrap_or_else(|| "unknown".into());
        Self { user, host }
    }
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}@{}", self.user, self.host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_comes_from_the_environment_first() {
        let who = Who::from_env(|var| (var == "LOGNAME").then(|| "ana".to_owned()));
        assert_eq!(who.user, "ana");
    }

    #[test]
    fn without_user_variables_the_system_account_is_used() {
        let who = Who::from_env(|_| None);
        assert_ne!(who.user, "unknown");
        assert_eq!(Some(who.user), whoami::username().ok());
    }
}
