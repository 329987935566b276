//! What the engine searches with: the network, the antichess endgame
//! tables, the Syzygy tables and the hash table, each loaded or resized
//! here; and what every search of the current position starts from.

use super::request::HashResizeError;
use super::Engine;
use crate::endgames::TablesFileError;
use crate::eval::nnue::{Network, NetworkFileError};
use crate::search::strength::Weakening;
use crate::search::{EvalTrace, Evaluator, Limits, SearchSetup, TranspositionTable};
use crate::syzygy::{ProbeConfig, Tablebases};
use std::sync::Arc;

impl Engine {
    /// The network searches of the current variant evaluate with, when
    /// `Use NNUE` is on: the one loaded by `EvalFile` if it serves the
    /// variant, otherwise the embedded one that does (if any).
    pub fn active_net(&self) -> Option<Arc<Network>> {
        let variant = self.rules.variant;
        if !self.use_nnue {
            return None;
        }
        match &self.net {
            Some(n) if n.serves(variant) => Some(n.clone()),
            _ => crate::eval::nnue::embedded_for(variant).map(|(_, n)| n),
        }
    }

    /// Every part of the evaluation of the current position, as a search
    /// of it would evaluate it (the `eval` command prints it).
    pub fn trace_eval(&self) -> EvalTrace {
        Evaluator::for_rules(self.active_net(), &self.rules).trace(self.position())
    }

    /// The endgame tables for the current variant: the loaded file's, or
    /// the built-in ones; none outside antichess and giveaway.
    fn active_endgames(&self) -> Option<Arc<crate::endgames::Tables>> {
        use crate::endgames;
        endgames::covers(&self.rules)
            .then(|| self.endgames.clone().unwrap_or_else(endgames::builtin))
    }

    /// Loads antichess endgame tables from a file (`AntichessTables`;
    /// `<builtin>` or an empty name: the built-in tables). On
    /// error the current tables stay. Returns what is in use.
    pub fn set_endgame_file(&mut self, name: &str) -> Result<String, TablesFileError> {
        let name = name.trim();
        let loaded = match name {
            "" | "<builtin>" | "<empty>" => None,
            path => Some(Arc::new(crate::endgames::load_file(path)?)),
        };
        self.stop();
        let pieces = loaded
            .as_ref()
            .map_or(crate::endgames::MAX_PIECES, |t| t.max_pieces());
        self.endgames = loaded;
        Ok(format!(
            "antichess endgame tables: every position of up to {pieces} pieces"
        ))
    }

    /// Loads the Syzygy tables of the folders in `paths` (`SyzygyPath`,
    /// separated by `:`, `;` on Windows; empty or `<empty>`: no tables).
    /// Never fails: folders without tables and files that are not usable
    /// tables are reported in the returned lines (`error: ...` for the
    /// latter), the last of which says what is in use.
    pub fn set_syzygy_path(&mut self, paths: &str) -> Vec<String> {
        let paths = paths.trim();
        self.stop();
        if paths.is_empty() || paths == "<empty>" {
            self.syzygy = None;
            return vec!["Syzygy: no tables (SyzygyPath is empty)".to_string()];
        }
        let loaded = Tablebases::load(paths);
        self.syzygy = loaded.tables.map(Arc::new);
        loaded.lines
    }

    /// The Syzygy tables loaded (`None`: none).
    pub fn syzygy(&self) -> Option<&Tablebases> {
        self.syzygy.as_deref()
    }

    /// Changes how searches probe the Syzygy tables (`SyzygyProbeDepth`,
    /// `SyzygyProbeLimit`, `Syzygy50MoveRule`) through `change`.
    pub fn set_syzygy_config(&mut self, change: impl FnOnce(&mut ProbeConfig)) {
        change(&mut self.syzygy_config);
    }

    /// Loads the network `name` (`EvalFile`): the embedded default by its
    /// name (or `<default>`), otherwise a file. On error the current network
    /// stays. Returns a description of the loaded network.
    pub fn set_eval_file(&mut self, name: &str) -> Result<String, NetworkFileError> {
        let name = name.trim();
        let embedded = crate::eval::nnue::embedded();
        let (loaded, description) = match embedded.iter().find(|(n, _)| *n == name) {
            Some((_, net)) => (None, net.description().to_string()),
            None if name == "<default>" => (None, "the embedded networks".to_string()),
            None => {
                let net = Arc::new(crate::eval::nnue::load_file(name)?);
                let d = net.description().to_string();
                (Some(net), d)
            }
        };
        self.stop();
        self.net = loaded;
        self.eval_file = name.to_string();
        Ok(format!("{name}: {description}"))
    }

    /// Resizes the hash table (waits for a running search first). When the
    /// memory cannot be had, a table of the old size stays (emptied if its
    /// memory had to be given back to try) and the error says so.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashResizeError> {
        self.stop();
        let mb = mb.max(1);
        let table = TranspositionTable::try_new(mb).or_else(|_| {
            // The old table's memory may be what is missing: give it back, try again.
            self.tt = Arc::new(TranspositionTable::new(1));
            TranspositionTable::try_new(mb)
        });
        match table {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                self.hash_mb = mb;
                Ok(())
            }
            Err(refused) => {
                if self.tt.size_mb() < self.hash_mb {
                    let old = TranspositionTable::try_new(self.hash_mb);
                    let (tt, kept) = match old {
                        Ok(tt) => (tt, self.hash_mb),
                        Err(_) => (TranspositionTable::new(1), 1),
                    };
                    self.tt = Arc::new(tt);
                    self.hash_mb = kept;
                }
                Err(HashResizeError {
                    refused,
                    kept_mb: self.hash_mb,
                })
            }
        }
    }

    /// Empties the hash table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// What every search of the current position starts from: `limits`
    /// with the engine's MultiPV, the network, endgame and Syzygy tables in
    /// use, and the strength level applied.
    pub(super) fn limits_and_setup(&mut self, limits: Limits) -> (Limits, SearchSetup) {
        let mut limits = Limits {
            multipv: limits.multipv.max(self.multipv),
            ..limits
        };
        let mut setup = SearchSetup {
            net: self.active_net(),
            endgames: self.active_endgames(),
            syzygy: self.syzygy.clone(),
            syzygy_config: self.syzygy_config,
            ..SearchSetup::default()
        };
        self.weaken(&mut limits, &mut setup);
        (limits, setup)
    }

    /// Applies the strength level to a search's limits: its node budget,
    /// depth cap and move choice (nothing at full strength).
    fn weaken(&mut self, limits: &mut Limits, setup: &mut SearchSetup) {
        if let Some(level) = self.strength.level() {
            limits.nodes = Some(limits.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
            limits.depth = Some(limits.depth.map_or(level.depth, |d| d.min(level.depth)));
            setup.weakening = Weakening::of(&level, self.rng.next_u64());
        }
    }
}
