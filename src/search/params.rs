//! Every tuning constant of the search, declared once with its default,
//! range and SPSA step.
//!
//! In a normal build each parameter is a `const fn` returning its default,
//! so the search pays nothing. Built with `--features tune`, each one is an
//! atomic that the UCI option of the same name sets (`setoption name
//! rfp_margin value 95`), so that SPSA (OpenBench, or any tuner that drives
//! UCI options) can tune them; `rukav` then also lists them in its `uci`
//! answer, and `rukav spsa-params` prints them ([`Param::spsa_line`]), with the hand-written
//! evaluation's weights ([`all`]), in OpenBench's input format.

/// One tunable parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Name (also the UCI option name in a tuning build).
    pub name: &'static str,
    /// Default value.
    pub default: i32,
    /// Smallest value.
    pub min: i32,
    /// Largest value.
    pub max: i32,
    /// SPSA step (the perturbation at the end of a tuning run).
    pub step: i32,
}

/// Declares a registry of tunable parameters in the module that invokes it:
/// `PARAMS`, one accessor function per parameter (a `const fn` returning
/// the default, or in a tuning build a read of an atomic), and in a tuning
/// build `store`. Used here for the search and by the engine's bughouse
/// brain (`engine::brain::params`).
macro_rules! tuning_params {
    ($( $(#[$doc:meta])* $name:ident: $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        #[allow(non_camel_case_types, dead_code)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        enum Id { $($name),* }

        /// Every parameter, in declaration order.
        pub const PARAMS: &[$crate::search::params::Param] = &[$($crate::search::params::Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        }),*];

        #[cfg(feature = "tune")]
        static VALUES: [std::sync::atomic::AtomicI32; PARAMS.len()] =
            [$(std::sync::atomic::AtomicI32::new($default)),*];

        /// Stores `value` as the parameter at `index` of [`PARAMS`] (a
        /// tuning build; the value is already checked against its range).
        #[cfg(feature = "tune")]
        pub fn store(index: usize, value: i32) {
            VALUES[index].store(value, std::sync::atomic::Ordering::Relaxed);
        }

        $(
            $(#[$doc])*
            #[inline(always)]
            #[cfg(not(feature = "tune"))]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[$doc])*
            #[inline(always)]
            #[cfg(feature = "tune")]
            pub fn $name() -> i32 {
                VALUES[Id::$name as usize].load(std::sync::atomic::Ordering::Relaxed)
            }
        )*
    };
}
pub(crate) use tuning_params;

tuning_params! {
    /// Half-width of the first aspiration window (centipawns).
    aspiration_delta: 25, 5, 100, 5;
    /// Reverse futility pruning: deepest depth.
    rfp_depth: 6, 3, 10, 1;
    /// Reverse futility pruning: margin per ply.
    rfp_margin: 90, 30, 200, 10;
    /// Reverse futility pruning: margin added back when the evaluation improves.
    rfp_improving: 40, 0, 120, 10;
    /// Null move: shallowest depth.
    nmp_min_depth: 3, 2, 6, 1;
    /// Null move: base reduction.
    nmp_base: 3, 2, 5, 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_div: 4, 2, 8, 1;
    /// Null move: one more ply of reduction per this margin above beta.
    nmp_eval_div: 200, 80, 400, 20;
    /// Null move: most plies of reduction from the margin above beta.
    nmp_eval_max: 3, 1, 5, 1;
    /// Internal iterative reduction: shallowest depth.
    iir_depth: 4, 2, 8, 1;
    /// Late move pruning: deepest depth.
    lmp_depth: 8, 4, 12, 1;
    /// Late move pruning: quiet moves tried before pruning start at (base + depth^2).
    lmp_base: 3, 1, 8, 1;
    /// Futility pruning: deepest depth.
    fut_depth: 6, 3, 10, 1;
    /// Futility pruning: base margin.
    fut_base: 120, 40, 300, 10;
    /// Futility pruning: margin per ply.
    fut_margin: 100, 40, 200, 10;
    /// Bad-capture pruning: deepest depth.
    see_capture_depth: 4, 2, 8, 1;
    /// Bad-capture pruning: exchange loss allowed per ply.
    see_capture_margin: 120, 40, 250, 10;
    /// Singular extensions: shallowest depth.
    se_depth: 8, 5, 12, 1;
    /// Singular extensions: the others must stay this far below the table's
    /// score (eighths of a centipawn per ply: 16 = 2 per ply).
    se_margin: 16, 4, 64, 2;
    /// Checks are extended at any depth from this one, below only when safe.
    check_ext_depth: 6, 3, 12, 1;
    /// Late move reductions: base (hundredths of a ply).
    lmr_base: 75, 0, 150, 5;
    /// Late move reductions: divisor of ln(depth) ln(moves) (hundredths).
    lmr_div: 225, 150, 400, 10;
    /// Late move reductions: one ply less per this much history.
    lmr_history_div: 6000, 2000, 16000, 500;
    /// Late move reductions: shallowest depth.
    lmr_min_depth: 3, 2, 6, 1;
    /// Late move reductions: history changes a reduction by at most this many plies.
    lmr_history_max: 2, 0, 4, 1;
    /// Late move pruning: moves always tried beyond the limit.
    lmp_extra: 2, 0, 6, 1;
    /// Late move pruning: the limit is divided by this when the evaluation does not improve.
    lmp_not_improving_div: 2, 1, 4, 1;
    /// Antichess, giveaway and suicide: margins on the static evaluation are this many times wider.
    losers_margin_scale: 2, 1, 6, 1;
    /// Antichess, giveaway and suicide: `lmp_base`.
    losers_lmp_base: 2, 1, 8, 1;
    /// Antichess, giveaway and suicide: `rfp_depth`.
    losers_rfp_depth: 4, 3, 10, 1;
    /// Antichess, giveaway and suicide: `rfp_margin`.
    losers_rfp_margin: 77, 30, 200, 10;
    /// Antichess, giveaway and suicide: `lmp_extra`.
    losers_lmp_extra: 0, 0, 6, 1;
    /// Antichess, giveaway and suicide: `lmp_not_improving_div`.
    losers_lmp_not_improving_div: 3, 1, 4, 1;
    /// Antichess, giveaway and suicide: `lmr_min_depth`.
    losers_lmr_min_depth: 2, 2, 6, 1;
    /// Antichess, giveaway and suicide: quiescence searches every compulsory capture
    /// (does not stand pat) when there are at most this many.
    losers_qs_forced: 1, 1, 4, 1;
    /// Antichess, giveaway and suicide: the network's share of the evaluation in
    /// percent, where a network serves the variant; the rest is the
    /// hand-written evaluation's. Alone, the antichess network lost by
    /// about 470 Elo to the hand-written evaluation (nets/README.md).
    losers_net_share: 30, 0, 100, 5;
    /// Singular extensions: the table's entry may be this many plies shallower than the node.
    se_tt_depth_slack: 3, 1, 6, 1;
    /// Check extensions stop at ply `check_ext_ply_mult * depth + check_ext_ply_add`.
    check_ext_ply_mult: 2, 1, 4, 1;
    /// See `check_ext_ply_mult`.
    check_ext_ply_add: 4, 0, 10, 1;
    /// Capture ordering: capture history counts one MVV unit per this much.
    capture_history_div: 16, 4, 64, 2;
    /// Largest history bonus of one cutoff.
    history_bonus_max: 1200, 400, 3000, 100;
    /// A stable best move ends the search after this share of the soft limit (percent).
    time_stable_percent: 60, 30, 100, 5;
    /// A best move counts as stable from this depth on (exclusive).
    time_stable_min_depth: 6, 3, 12, 1;
    /// A best move counts as stable with at most this many recent changes.
    time_stable_changes_max: 1, 0, 3, 1;
    /// Best-move changes decay once per iteration above this depth.
    time_changes_decay_depth: 8, 4, 16, 1;
    /// Best-move changes remembered at most.
    time_changes_cap: 3, 1, 8, 1;
    /// A best move that is not stable extends the soft limit by this much
    /// per recent change (percent).
    time_unstable_percent: 20, 0, 60, 5;
    /// The best move's share of the root nodes scales the soft limit from
    /// this depth on.
    time_effort_min_depth: 8, 4, 14, 1;
    /// The soft limit is scaled by `(time_effort_base - share) *
    /// time_effort_scale / 100` percent, where `share` is the percentage of
    /// the root nodes spent on the best move (a move that took all the
    /// effort is easy; one that took little is in doubt).
    time_effort_base: 150, 110, 200, 5;
    /// See `time_effort_base`.
    time_effort_scale: 140, 80, 200, 5;
    /// A score that fell since the last iteration extends the soft limit by
    /// this many percent per 10 centipawns of the fall ...
    time_falling_percent: 5, 0, 15, 1;
    /// ... up to this share of the soft limit (percent).
    time_falling_max: 150, 100, 250, 10;
    /// A score that rose shortens the soft limit the same way, down to
    /// this share (percent).
    time_rising_min: 85, 50, 100, 5;
    /// Time per move: moves a sudden-death clock is planned for (when
    /// `movestogo` is absent).
    moves_horizon: 30, 10, 60, 2;
    /// The same for antichess, giveaway and suicide: their games are decided early by
    /// long forced runs, and with the chess horizon Rukav left about half of
    /// its clock unused (3.3 s of 7 in the average 5+0.05 game against
    /// Fairy-Stockfish, which used 5.4 s). 20 moves gained about 28 Elo over
    /// 30 in self-play, 15 about 26 more over 20; with 15 Rukav still kept
    /// twice Fairy-Stockfish's clock after move 30, and 10 gained about 20
    /// over 15 (SPRT on non-exam openings, docs/measurements.md).
    losers_moves_horizon: 10, 4, 30, 1;
    /// Move ordering: quiet checks that lose material sit this far below their history.
    unsafe_check_penalty: 4000, 0, 16000, 500;
    /// Time per move: `movestogo` is read as at most this many moves.
    time_moves_max: 50, 20, 100, 5;
    /// Time per move: the clock is shared among this many more moves than planned.
    time_moves_extra: 2, 0, 8, 1;
    /// Time per move: share of the increment added (percent).
    time_inc_percent: 75, 25, 100, 5;
    /// Soft limit: at most this share of the clock with `movestogo` (percent).
    time_cap_movestogo_percent: 50, 20, 80, 5;
    /// Soft limit: at most this share of the clock in sudden death (percent).
    time_cap_sudden_percent: 20, 10, 40, 2;
    /// Hard limit: this many times the soft limit.
    time_hard_factor: 4, 2, 8, 1;
    /// Hard limit: at most this share of the clock (percent) ...
    time_hard_cap_percent: 40, 20, 60, 5;
    /// ... plus this share of the increment (percent).
    time_hard_inc_percent: 50, 0, 100, 5;
    /// Aspiration windows from this depth on.
    aspiration_min_depth: 5, 2, 10, 1;
    /// A failed aspiration window grows by this share of itself (percent).
    aspiration_growth_percent: 50, 25, 200, 5;
    /// An aspiration window wider than this (centipawns) becomes the full window.
    aspiration_max_delta: 800, 200, 2000, 50;
    /// Lazy SMP: a deeper helper result supplies the move unless it scores this much worse.
    smp_vote_margin: 20, 0, 100, 5;
}

/// `lmr_base` and `lmr_div` are in hundredths (of a ply, of the divisor).
pub const LMR_UNITS: f64 = 100.0;
/// A singular-extension test searches to `(depth - 1) / SE_DEPTH_DIVISOR`.
pub const SE_DEPTH_DIVISOR: i32 = 2;
/// `se_margin` is in eighths of a centipawn per ply.
pub const SE_MARGIN_UNITS: i32 = 8;

/// Why [`set`] refused a search parameter value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name.
    Unknown(String),
    /// The value is outside the parameter's bounds.
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// Its smallest value.
        min: i32,
        /// Its largest value.
        max: i32,
        /// The value refused.
        value: i32,
    },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "unknown tuning parameter '{name}'"),
            ParamError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(f, "{name} must be {min}..{max}, not {value}"),
        }
    }
}

impl std::error::Error for ParamError {}

/// Sets a parameter by name (a tuning build's `setoption`); `Err` for an
/// unknown name or a value out of range.
#[cfg(feature = "tune")]
pub fn set(name: &str, value: i32) -> Result<(), ParamError> {
    let i = find(all(), name, value)?;
    // `all()` lists the search parameters first, then the weights.
    match i.checked_sub(PARAMS.len()) {
        None => store(i, value),
        Some(weight) => crate::eval::hce::set_tuned_weight(weight, value),
    }
    Ok(())
}

/// The index in `params` of the parameter `name` (any case), once `value`
/// is checked against its range.
pub fn find<'a>(
    params: impl Iterator<Item = &'a Param>,
    name: &str,
    value: i32,
) -> Result<usize, ParamError> {
    let (i, p) = params
        .enumerate()
        .find(|(_, p)| p.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| ParamError::Unknown(name.to_string()))?;
    if !(p.min..=p.max).contains(&value) {
        return Err(ParamError::OutOfRange {
            name: p.name,
            min: p.min,
            max: p.max,
            value,
        });
    }
    Ok(i)
}

/// Every tunable parameter: the search's ([`PARAMS`]), then the weights of
/// the hand-written evaluation ([`weight_params`]).
pub fn all() -> impl Iterator<Item = &'static Param> {
    PARAMS.iter().chain(weight_params())
}

/// Every weight of the hand-written evaluation (`src/eval/hce.rs`) as a
/// tuning parameter, in weight-vector order (so a
/// parameter's index is its weight's index): named `hce_<group>` for a
/// one-value group and `hce_<group>_<i>` otherwise, in lowercase (for
/// example `hce_anti_capture`, `hce_anti_force_1`); range the default plus
/// or minus three times its size and 100, SPSA step an eighth of its size
/// (at least 5). A tuning build takes them as UCI options, as it takes the
/// search parameters.
pub fn weight_params() -> &'static [Param] {
    static NAMES: once_cell::sync::Lazy<Vec<String>> = once_cell::sync::Lazy::new(|| {
        let mut names = Vec::with_capacity(crate::eval::w::COUNT);
        for &(group, _, len) in crate::eval::WEIGHT_NAMES {
            let group = group.to_lowercase();
            for i in 0..len {
                names.push(if len == 1 {
                    format!("hce_{group}")
                } else {
                    format!("hce_{group}_{i}")
                });
            }
        }
        names
    });
    static PARAMS: once_cell::sync::Lazy<Vec<Param>> = once_cell::sync::Lazy::new(|| {
        NAMES
            .iter()
            .zip(crate::eval::DEFAULT_WEIGHTS.0)
            .map(|(name, default)| {
                let size = default.abs();
                Param {
                    name,
                    default,
                    min: default - 3 * size - 100,
                    max: default + 3 * size + 100,
                    step: (size / 8).max(5),
                }
            })
            .collect()
    });
    &PARAMS
}

impl Param {
    /// The parameter in OpenBench's SPSA input format:
    /// `name, int, default, min, max, step, 0.002` (the last field is the
    /// learning-rate ratio OpenBench suggests).
    pub fn spsa_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, 0.002",
            self.name, self.default, self.min, self.max, self.step
        )
    }
}

/// The network's share, in percent, of the evaluation of a variant that a
/// network serves; the rest is the hand-written evaluation's
/// ([`crate::eval::mix_evaluations`]). 100 but in antichess, giveaway and suicide
/// ([`losers_net_share`]).
pub fn net_share(rules: &crate::rules::Rules) -> i32 {
    if rules.losers_win {
        losers_net_share()
    } else {
        100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges() {
        for p in PARAMS {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.step > 0, "{p:?}");
        }
        assert_eq!(rfp_margin(), 90);
        assert_eq!(all().count(), PARAMS.len() + weight_params().len());
    }

    /// Each weight's tuning parameter sits at the weight's own index, under
    /// a name of its own.
    #[test]
    fn weight_params_name_each_weight_once() {
        use crate::eval::{w, DEFAULT_WEIGHTS};
        let params = weight_params();
        assert_eq!(params.len(), w::COUNT);
        assert_eq!(params[w::ANTI_CAPTURE].name, "hce_anti_capture");
        assert_eq!(params[w::ANTI_FORCE + 1].name, "hce_anti_force_1");
        assert_eq!(params[w::ANTI + 4].name, "hce_anti_4");
        assert_eq!(params[w::TEMPO].name, "hce_tempo");
        for (i, p) in params.iter().enumerate() {
            assert_eq!(p.default, DEFAULT_WEIGHTS.0[i], "{p:?}");
        }
        let mut names: Vec<_> = params.iter().map(|p| p.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), w::COUNT);
    }
}
