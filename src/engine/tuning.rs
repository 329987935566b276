//! Every tunable parameter of the engine in one list: the search's and
//! the hand-written evaluation's weights ([`crate::search::params`]), then
//! the bughouse brain's ([`super::brain::params`]). `rukav spsa-params`
//! prints it; a tuning build (`--features tune`) offers each as a UCI
//! option and sets it through [`set`].

use super::brain;
use crate::search::params::{self, Param};

/// Every tunable parameter, the search's first.
pub fn all() -> impl Iterator<Item = &'static Param> {
    params::all().chain(brain::params::PARAMS)
}

/// The parameters in OpenBench's SPSA input format, one per line
/// ([`Param::spsa_line`]).
pub fn spsa_lines() -> Vec<String> {
    all().map(Param::spsa_line).collect()
}

/// Sets a parameter by name (a tuning build's `setoption`); `Err` for an
/// unknown name or a value out of range.
#[cfg(feature = "tune")]
pub fn set(name: &str, value: i32) -> Result<(), params::ParamError> {
    match params::set(name, value) {
        Err(params::ParamError::Unknown(_)) => {
            let i = params::find(brain::params::PARAMS.iter(), name, value)?;
            brain::params::store(i, value);
            Ok(())
        }
        done => done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter has one name, a default inside its range and a step.
    #[test]
    fn names_are_unique_and_defaults_in_range() {
        let mut names: Vec<String> = all().map(|p| p.name.to_lowercase()).collect();
        for p in all() {
            assert!(
                p.min <= p.default && p.default <= p.max && p.step > 0,
                "{p:?}"
            );
        }
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n);
        assert!(spsa_lines()
            .iter()
            .any(|l| l.starts_with("need_gain, int, 200,")));
    }
}
