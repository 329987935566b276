//! The engine's options, in one table that both protocols read: UCI lists
//! them in its `uci` answer and sets them with `setoption`; xboard lists
//! them as `feature option="..."` and sets them with `option NAME=VALUE`
//! (and `memory`, `cores`). Names, types, defaults and bounds are written
//! once, here; so is what setting each one does.

use super::error::{CommandError, ValueError};
use super::parse;
use crate::engine::Engine;
use crate::rules::{HouseRule, PawnDrop2nd, PromotionRule, Rules, Variant};
use crate::search::strength::{ELO_MAX, ELO_MIN, FULL_STRENGTH};

/// An option's type, default and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// true/false.
    Check(bool),
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// Default value.
        default: &'static str,
        /// The values.
        values: Vec<&'static str>,
    },
    /// An action.
    Button,
    /// Free text.
    Text(String),
}

/// One option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The name as clients write it.
    pub name: &'static str,
    /// Type, default, bounds.
    pub kind: Kind,
}

/// A parsed option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A check.
    Bool(bool),
    /// A spin.
    Int(i64),
    /// A combo or string.
    Text(String),
    /// A button press.
    Press,
}

/// What setting an option asks of the protocol session beyond the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more.
    Done,
    /// A line to tell the client (`info string ...` in UCI).
    Message(String),
    /// Lines to tell the client, one `info string ...` each in UCI.
    Messages(Vec<String>),
    /// `Ponder` (UCI: the GUI may send `go ponder`).
    Ponder(bool),
    /// `UCI_Bughouse`: the bughouse extension commands are accepted.
    BughouseExtension(bool),
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L`.
    ShowWdl(bool),
}

const PAWN_DROP_2ND: [(&str, PawnDrop2nd); 3] = [
    ("allowed", PawnDrop2nd::Allowed),
    ("forbidden", PawnDrop2nd::Forbidden),
    ("check-only", PawnDrop2nd::CheckOnly),
];
const PROMOTION_RULE: [(&str, PromotionRule); 2] = [
    ("standard", PromotionRule::Standard),
    ("gambler", PromotionRule::Gambler),
];

/// The largest hash table a client may ask for (MB).
pub const MAX_HASH_MB: i64 = 65536;
/// The most search threads.
pub const MAX_THREADS: i64 = 256;

/// Every option, in the order of the `uci` answer.
pub fn table() -> Vec<EngineOption> {
    let spin = |name, default, min, max| EngineOption {
        name,
        kind: Kind::Spin { default, min, max },
    };
    let check = |name, default| EngineOption {
        name,
        kind: Kind::Check(default),
    };
    let combo = |name, default, values| EngineOption {
        name,
        kind: Kind::Combo { default, values },
    };
    #[allow(unused_mut)]
    let mut options = vec![
        spin("Hash", 16, 1, MAX_HASH_MB),
        spin("Threads", 1, 1, MAX_THREADS),
        EngineOption {
            name: "Clear Hash",
            kind: Kind::Button,
        },
        check("Ponder", false),
        spin("MultiPV", 1, 1, 500),
        spin("Move Overhead", 30, 0, 5000),
        spin(
            "Skill Level",
            i64::from(FULL_STRENGTH),
            0,
            i64::from(FULL_STRENGTH),
        ),
        check("UCI_LimitStrength", false),
        spin(
            "UCI_Elo",
            i64::from(ELO_MAX),
            i64::from(ELO_MIN),
            i64::from(ELO_MAX),
        ),
        check("UCI_ShowWDL", false),
        combo(
            "UCI_Variant",
            "chess",
            Variant::ALL.iter().map(|v| v.name()).collect(),
        ),
        check("UCI_Chess960", false),
        check("DropCheck", true),
        check("DropMate", true),
        check("PawnDrop7th", true),
        combo(
            "PawnDrop2nd",
            "allowed",
            PAWN_DROP_2ND.iter().map(|p| p.0).collect(),
        ),
        check("PromotedRevert", true),
        check("DroppedRookCastles", false),
        combo(
            "PromotionRule",
            "standard",
            PROMOTION_RULE.iter().map(|p| p.0).collect(),
        ),
        check("UCI_Bughouse", false),
        check("PartnerMessages", true),
        EngineOption {
            name: "EvalFile",
            kind: Kind::Text(crate::eval::nnue::DEFAULT_NET_NAME.to_string()),
        },
        check("Use NNUE", crate::eval::nnue::USE_NNUE_DEFAULT),
        EngineOption {
            name: "AntichessTables",
            kind: Kind::Text("<builtin>".to_string()),
        },
        // Syzygy tablebases, as Stockfish offers them (lichess-bot's
        // config.yml sets SyzygyPath).
        EngineOption {
            name: "SyzygyPath",
            kind: Kind::Text("<empty>".to_string()),
        },
        spin("SyzygyProbeDepth", 1, 1, 100),
        check("Syzygy50MoveRule", true),
        spin("SyzygyProbeLimit", 7, 0, 7),
    ];
    #[cfg(feature = "tune")]
    for p in crate::engine::tuning::all() {
        options.push(spin(
            p.name,
            i64::from(p.default),
            i64::from(p.min),
            i64::from(p.max),
        ));
    }
    options
}

/// The option's line in the UCI `uci` answer.
pub fn uci_line(o: &EngineOption) -> String {
    match &o.kind {
        Kind::Check(d) => format!("option name {} type check default {d}", o.name),
        Kind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            o.name
        ),
        Kind::Combo { default, values } => {
            let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {} type combo default {default} {}",
                o.name,
                vars.join(" ")
            )
        }
        Kind::Button => format!("option name {} type button", o.name),
        Kind::Text(d) => format!("option name {} type string default {d}", o.name),
    }
}

/// The option's CECP `feature option="..."` line.
pub fn cecp_feature(o: &EngineOption) -> String {
    let spec = match &o.kind {
        Kind::Check(d) => format!("{} -check {}", o.name, u8::from(*d)),
        Kind::Spin { default, min, max } => format!("{} -spin {default} {min} {max}", o.name),
        Kind::Combo { default, values } => {
            let rest: Vec<String> = values
                .iter()
                .map(|v| {
                    if v == default {
                        format!("*{v}")
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("{} -combo {}", o.name, rest.join(" /// "))
        }
        Kind::Button => format!("{} -button", o.name),
        Kind::Text(d) => format!("{} -string {d}", o.name),
    };
    format!("feature option=\"{spec}\"")
}

/// Finds an option by name (case-insensitive).
pub fn find(name: &str) -> Option<EngineOption> {
    table()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
}

/// Parses `text` as a value of `o`, within its bounds.
pub fn parse_value(o: &EngineOption, text: &str) -> Result<Value, ValueError> {
    let text = text.trim();
    match &o.kind {
        Kind::Check(_) => parse::boolean(o.name, text).map(Value::Bool),
        Kind::Spin { min, max, .. } => {
            let v: i128 = parse::number(o.name, Some(text))?;
            if v < i128::from(*min) || v > i128::from(*max) {
                return Err(ValueError::OutOfRange {
                    what: o.name,
                    min: *min,
                    max: *max,
                    value: v,
                });
            }
            Ok(Value::Int(v as i64))
        }
        Kind::Combo { values, .. } => values
            .iter()
            .find(|v| v.eq_ignore_ascii_case(text))
            .map(|v| Value::Text(v.to_string()))
            .ok_or_else(|| ValueError::NotAChoice {
                what: o.name,
                text: text.to_string(),
                choices: values.clone(),
            }),
        Kind::Button => Ok(Value::Press),
        Kind::Text(_) => Ok(Value::Text(text.to_string())),
    }
}

/// The house rule an option sets, if it is one (`None` for other options).
/// `UCI_Chess960` counts as one: it changes how a game's FENs and castling
/// moves are read and written.
pub fn house_rule(name: &str, value: &Value) -> Option<HouseRule> {
    let b = match value {
        Value::Bool(b) => Some(*b),
        _ => None,
    };
    let text = match value {
        Value::Text(t) => t.as_str(),
        _ => "",
    };
    fn pick<T: Copy>(table: &[(&str, T)], text: &str) -> Option<T> {
        table.iter().find(|p| p.0 == text).map(|p| p.1)
    }
    match name.to_ascii_lowercase().as_str() {
        "dropcheck" => b.map(HouseRule::DropCheck),
        "dropmate" => b.map(HouseRule::DropMate),
        "pawndrop7th" => b.map(HouseRule::PawnDrop7th),
        "promotedrevert" => b.map(HouseRule::PromotedRevert),
        "droppedrookcastles" => b.map(HouseRule::DroppedRookCastles),
        "pawndrop2nd" => pick(&PAWN_DROP_2ND, text).map(HouseRule::PawnDrop2nd),
        "promotionrule" => pick(&PROMOTION_RULE, text).map(HouseRule::PromotionRule),
        "uci_chess960" => b.map(HouseRule::Chess960),
        _ => None,
    }
}

/// Applies an option that changes the rules (`UCI_Variant` or a house
/// rule), given as text (`PawnDrop2nd`, `check-only`), to `rules`: what the
/// tools' `--option NAME=VALUE`, BPGN's `HouseRules` tag and the perft
/// suites' `# options:` lines do. `UCI_Variant` keeps the house rules.
pub fn apply_rules_option(rules: &mut Rules, name: &str, value: &str) -> Result<(), CommandError> {
    let o = find(name).ok_or_else(|| CommandError::UnknownOption(name.to_string()))?;
    let v = parse_value(&o, value)?;
    *rules = match (o.name, &v) {
        ("UCI_Variant", Value::Text(t)) => rules.with_variant(t.parse()?),
        _ => rules.with(house_rule(o.name, &v).ok_or(CommandError::NotARule(o.name))?),
    };
    Ok(())
}

/// Sets option `name` to `text` on `engine`. On error nothing changes.
pub fn set(engine: &mut Engine, name: &str, text: &str) -> Result<Effect, CommandError> {
    let o = find(name).ok_or_else(|| CommandError::UnknownOption(name.trim().to_string()))?;
    let value = parse_value(&o, text)?;
    if let Some(rule) = house_rule(o.name, &value) {
        engine.set_rules(engine.rules().with(rule));
        return Ok(Effect::Done);
    }
    let int = |v: &Value| match v {
        Value::Int(i) => *i,
        _ => 0,
    };
    let flag = matches!(value, Value::Bool(true));
    match (o.name, &value) {
        ("Hash", _) => engine.set_hash(int(&value) as usize)?,
        ("Threads", _) => engine.set_threads(int(&value) as usize),
        ("Clear Hash", _) => engine.clear_hash(),
        ("Ponder", _) => return Ok(Effect::Ponder(flag)),
        ("MultiPV", _) => engine.set_multipv(int(&value) as usize),
        ("Move Overhead", _) => engine.set_move_overhead(int(&value) as u64),
        ("Skill Level", _) => engine.set_strength(|s| s.skill = int(&value) as i32),
        ("UCI_LimitStrength", _) => engine.set_strength(|s| s.limit = flag),
        ("UCI_Elo", _) => engine.set_strength(|s| s.elo = int(&value) as i32),
        ("UCI_ShowWDL", _) => return Ok(Effect::ShowWdl(flag)),
        ("UCI_Variant", Value::Text(v)) => {
            let variant: Variant = v.parse()?;
            engine.set_variant(variant);
        }
        ("UCI_Bughouse", _) => {
            engine.set_partner_talk(flag);
            return Ok(Effect::BughouseExtension(flag));
        }
        ("PartnerMessages", _) => engine.set_partner_messages(flag),
        ("EvalFile", Value::Text(t)) => {
            let text = engine.set_eval_file(t)?;
            return Ok(Effect::Message(format!("NNUE network {text}")));
        }
        ("AntichessTables", Value::Text(t)) => {
            let text = engine.set_endgame_file(t)?;
            return Ok(Effect::Message(text));
        }
        ("Use NNUE", _) => engine.set_use_nnue(flag),
        ("SyzygyPath", Value::Text(t)) => return Ok(Effect::Messages(engine.set_syzygy_path(t))),
        ("SyzygyProbeDepth", _) => engine.set_syzygy_config(|c| c.probe_depth = int(&value) as i32),
        ("SyzygyProbeLimit", _) => engine.set_syzygy_config(|c| c.probe_limit = int(&value) as u32),
        ("Syzygy50MoveRule", _) => engine.set_syzygy_config(|c| c.rule50 = flag),
        #[cfg(feature = "tune")]
        (name, Value::Int(v)) => crate::engine::tuning::set(name, *v as i32)?,
        (name, _) => return Err(CommandError::CannotSet(name)),
    }
    Ok(Effect::Done)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_the_table() {
        let hash = find("hash").unwrap();
        assert_eq!(parse_value(&hash, "64"), Ok(Value::Int(64)));
        assert!(parse_value(&hash, "0").is_err());
        assert!(parse_value(&hash, "65537").is_err());
        assert!(parse_value(&hash, "99999999999999999999999999").is_err());
        assert!(parse_value(&hash, "abc").is_err());
        let mut rules = Variant::Crazyhouse.rules();
        assert!(apply_rules_option(&mut rules, "PawnDrop2nd", "check-only").is_ok());
        assert_eq!(rules.pawn_drop_2nd, PawnDrop2nd::CheckOnly);
        assert!(apply_rules_option(&mut rules, "DropCheck", "false").is_ok());
        assert!(!rules.drop_check);
        assert!(apply_rules_option(&mut rules, "PawnDrop2nd", "sometimes").is_err());
        assert!(apply_rules_option(&mut rules, "Hash", "16").is_err());
        assert!(apply_rules_option(&mut rules, "Nope", "1").is_err());
        assert!(apply_rules_option(&mut rules, "UCI_Variant", "bughouse").is_ok());
        assert_eq!(rules.variant, Variant::Bughouse);
        assert_eq!(rules.pawn_drop_2nd, PawnDrop2nd::CheckOnly);
        assert!(apply_rules_option(&mut rules, "UCI_Chess960", "true").is_ok());
        assert!(rules.chess960);
        assert!(apply_rules_option(&mut rules, "UCI_Variant", "crazyhouse").is_ok());
        assert!(rules.chess960, "UCI_Chess960 survives a variant change");
        assert!(apply_rules_option(&mut rules, "UCI_Chess960", "maybe").is_err());
    }

    #[test]
    fn cecp_features_follow_the_table() {
        let lines: Vec<String> = table().iter().map(cecp_feature).collect();
        assert!(lines.contains(&"feature option=\"Hash -spin 16 1 65536\"".to_string()));
        assert!(lines
            .iter()
            .any(|l| l.starts_with("feature option=\"UCI_Variant -combo *chess /// crazyhouse")));
        assert!(lines.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(lines.contains(&"feature option=\"Skill Level -spin 20 0 20\"".to_string()));
        assert!(lines.contains(&"feature option=\"UCI_LimitStrength -check 0\"".to_string()));
    }
}
