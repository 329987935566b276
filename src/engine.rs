//! The engine facade: the game (position and history), options, the hash
//! table, and searches running in the background. The protocol layers
//! (`uci`, later `xboard`) drive it; it never reads or writes stdio.

use crate::partner::PartnerState;
use crate::position::Position;
use crate::rules::{Rules, Variant};
use crate::search::{self, Info, Limits, SearchResult, Shared};
use crate::tt::TranspositionTable;
use crate::types::{Color, Move, PieceType};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Clock information of a `go` command.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// White's remaining time (ms).
    pub wtime: Option<u64>,
    /// Black's remaining time (ms).
    pub btime: Option<u64>,
    /// White's increment (ms).
    pub winc: u64,
    /// Black's increment (ms).
    pub binc: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Fixed time for this move (ms).
    pub movetime: Option<u64>,
}

/// Soft and hard time limits for the side to move. The soft limit ends
/// iterative deepening after an iteration; the hard limit stops at once.
pub fn time_limits(
    clock: &Clock,
    side: Color,
    overhead: u64,
) -> (Option<Duration>, Option<Duration>) {
    if let Some(mt) = clock.movetime {
        let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
        return (Some(t), Some(t));
    }
    let (time, inc) = match side {
        Color::White => (clock.wtime, clock.winc),
        Color::Black => (clock.btime, clock.binc),
    };
    let Some(time) = time else {
        return (None, None);
    };
    let left = time.saturating_sub(overhead);
    let moves = clock.movestogo.unwrap_or(30).clamp(1, 50);
    // Keep a reserve so that the clock never runs out: never plan to use more
    // than half of what is left, nor (sudden death) more than a fifth.
    let base = left / (moves + 2) + inc * 3 / 4;
    let cap = if clock.movestogo.is_some() {
        left / 2
    } else {
        left / 5
    };
    let soft = base.min(cap).max(1);
    let hard = (soft * 4)
        .min(left * 2 / 5 + inc / 2)
        .min(left.saturating_sub(10))
        .max(1);
    (
        Some(Duration::from_millis(soft)),
        Some(Duration::from_millis(hard.max(soft.min(left)))),
    )
}

struct Running {
    shared: Arc<Shared>,
    handle: JoinHandle<()>,
}

/// Engine state shared by the protocol front ends.
pub struct Engine {
    rules: Rules,
    base: Position,
    position: Position,
    history: Vec<u64>,
    moves: Vec<Move>,
    tt: Arc<TranspositionTable>,
    /// Number of search threads.
    pub threads: usize,
    /// Hash size in MB.
    pub hash_mb: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept back per move for communication delays.
    pub move_overhead: u64,
    /// Bughouse: what the partner asked for.
    pub partner: PartnerState,
    /// Bughouse: the partner's board, when the protocol told us.
    pub partner_board: Option<Position>,
    /// Bughouse: clocks in ms (own board White, Black; partner board White, Black).
    pub bughouse_clocks: Option<[u64; 4]>,
    running: Option<Running>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// A fresh engine: chess, start position, 16 MB hash, one thread.
    pub fn new() -> Engine {
        let rules = Variant::Chess.rules();
        let position = Position::start_with(rules);
        Engine {
            rules,
            base: position,
            history: vec![position.key()],
            position,
            moves: Vec::new(),
            tt: Arc::new(TranspositionTable::new(16)),
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead: 30,
            partner: PartnerState::default(),
            partner_board: None,
            bughouse_clocks: None,
            running: None,
        }
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules (variant or house rule); the position is reset to
    /// the start position when the variant changes, otherwise re-read.
    pub fn set_rules(&mut self, rules: Rules) {
        let variant_changed = rules.variant != self.rules.variant;
        self.rules = rules;
        if variant_changed {
            self.set_position(Position::start_with(rules), Vec::new());
        } else {
            let fen = self.position.fen();
            match Position::from_fen(&fen, rules) {
                Ok(p) => self.position.clone_from(&p),
                Err(_) => self.position.set_rules(rules),
            }
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the move list starts from.
    pub fn base_position(&self) -> &Position {
        &self.base
    }

    /// Moves played from the base position of the last `position` command.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Sets the position: a start position and moves that are already
    /// checked legal (see [`Engine::replay`]).
    pub fn set_position(&mut self, start: Position, moves: Vec<Move>) {
        self.base = start;
        let mut pos = start;
        let mut history = vec![pos.key()];
        for &m in &moves {
            pos.make_move(m);
            history.push(pos.key());
        }
        self.position = pos;
        self.history = history;
        self.moves = moves;
    }

    /// Parses and plays `moves` from `start`, failing (without changing the
    /// engine) at the first illegal one.
    pub fn replay(start: &Position, moves: &[&str]) -> Result<Vec<Move>, String> {
        let mut pos = *start;
        let mut out = Vec::with_capacity(moves.len());
        for text in moves {
            let m = pos.parse_uci_move(text)?;
            pos.make_move(m);
            out.push(m);
        }
        Ok(out)
    }

    /// Plays one more move on the current position (xboard `usermove`).
    pub fn play(&mut self, m: Move) {
        self.position.make_move(m);
        self.history.push(self.position.key());
        self.moves.push(m);
    }

    /// Adds a piece to a pocket of the current position (bughouse).
    pub fn add_to_pocket(&mut self, c: Color, k: PieceType) -> Result<(), String> {
        self.position.add_to_pocket(c, k)?;
        if let Some(last) = self.history.last_mut() {
            *last = self.position.key();
        }
        Ok(())
    }

    /// Sets both pockets of the current position (bughouse `holding`).
    pub fn set_pockets(&mut self, counts: [[u8; 5]; 2]) -> Result<(), String> {
        let mut pos = self.position;
        for c in Color::ALL {
            for k in PieceType::POCKET {
                while pos.pocket(c, k) > counts[c.index()][k.index()] {
                    pos.remove_from_pocket(c, k)?;
                }
                while pos.pocket(c, k) < counts[c.index()][k.index()] {
                    pos.add_to_pocket(c, k)?;
                }
            }
        }
        self.position = pos;
        if let Some(last) = self.history.last_mut() {
            *last = pos.key();
        }
        Ok(())
    }

    /// Ends a running search without reporting its result.
    pub fn abort(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.silent.store(true, Ordering::Relaxed);
            r.shared.stop.store(true, Ordering::Relaxed);
            r.handle.thread().unpark();
            let _ = r.handle.join();
        }
    }

    /// Bughouse: what the engine would most like its partner to send, and
    /// what must not reach the opponent, from short searches with one piece
    /// more in either pocket. Messages in the partner vocabulary.
    pub fn partner_requests(&self) -> Vec<String> {
        let pos = self.position;
        if !pos.rules().two_boards {
            return Vec::new();
        }
        let us = pos.side_to_move();
        let score = |p: &Position| -> i32 {
            let tt = Arc::new(TranspositionTable::new(1));
            let shared = Arc::new(Shared::new(tt));
            let limits = Limits {
                depth: Some(4),
                multipv: 1,
                ..Limits::default()
            };
            search::search(p, &[p.key()], &limits, 1, shared, &|_| {}).score
        };
        let base = score(&pos);
        let mut best_gain = (0, None);
        let mut worst_loss = (0, None);
        for k in PieceType::POCKET {
            let mut mine = pos;
            if mine.add_to_pocket(us, k).is_ok() {
                let gain = score(&mine) - base;
                if gain > best_gain.0 {
                    best_gain = (gain, Some(k));
                }
            }
            // Their piece in hand, seen with us still to move.
            let mut theirs = pos;
            if theirs.add_to_pocket(us.flip(), k).is_ok() {
                let loss = base - score(&theirs);
                if loss > worst_loss.0 {
                    worst_loss = (loss, Some(k));
                }
            }
        }
        let mut out = Vec::new();
        if let (gain, Some(k)) = best_gain {
            if gain >= 250 {
                out.push(crate::partner::need_message(k));
            }
        }
        if let (loss, Some(k)) = worst_loss {
            if loss >= 250 {
                out.push(crate::partner::dont_give_message(k));
            }
        }
        out
    }

    /// Resizes the hash table (waits for a running search first).
    pub fn set_hash(&mut self, mb: usize) {
        self.stop();
        self.hash_mb = mb.max(1);
        self.tt = Arc::new(TranspositionTable::new(self.hash_mb));
    }

    /// Empties the hash table.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.tt.clear();
    }

    /// Starts a search in the background. `report` receives every info line
    /// and `done` the result, after `stop` when the search is infinite or
    /// pondering.
    pub fn go<R, D>(&mut self, limits: Limits, ponder: bool, report: R, done: D)
    where
        R: Fn(&Info) + Send + Sync + 'static,
        D: FnOnce(SearchResult) + Send + 'static,
    {
        self.stop();
        let shared = Arc::new(Shared::new(self.tt.clone()));
        shared.pondering.store(ponder, Ordering::Relaxed);
        let root = self.position;
        let history = self.history.clone();
        let threads = self.threads;
        let bias = if root.rules().two_boards {
            self.partner.bias(root.side_to_move())
        } else {
            limits.bias
        };
        let limits = Limits {
            multipv: limits.multipv.max(self.multipv),
            bias,
            ..limits
        };
        let s = shared.clone();
        let handle = std::thread::spawn(move || {
            let result = search::search(&root, &history, &limits, threads, s.clone(), &report);
            // UCI: with `infinite` or while pondering, bestmove waits for stop/ponderhit.
            while !s.stop.load(Ordering::Relaxed)
                && (limits.infinite || s.pondering.load(Ordering::Relaxed))
            {
                std::thread::park_timeout(Duration::from_millis(1));
            }
            if !s.silent.load(Ordering::Relaxed) {
                done(result);
            }
        });
        self.running = Some(Running { shared, handle });
    }

    /// `ponderhit`: the expected move was played; the clock now runs.
    pub fn ponderhit(&mut self) {
        if let Some(r) = &self.running {
            if let Ok(mut s) = r.shared.start.lock() {
                *s = std::time::Instant::now();
            }
            r.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Stops a running search and waits until it has reported its result.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.stop.store(true, Ordering::Relaxed);
            r.handle.thread().unpark();
            let _ = r.handle.join();
        }
    }

    /// Is a search running?
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Waits for a running search to finish on its own.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    /// Runs a search to completion on this thread (bench, tests).
    pub fn search_sync(&mut self, limits: Limits, report: &(dyn Fn(&Info) + Sync)) -> SearchResult {
        self.stop();
        let shared = Arc::new(Shared::new(self.tt.clone()));
        let limits = Limits {
            multipv: limits.multipv.max(self.multipv),
            ..limits
        };
        search::search(
            &self.position,
            &self.history,
            &limits,
            self.threads,
            shared,
            report,
        )
    }

    /// A new game: clears the hash table.
    pub fn new_game(&mut self) {
        self.clear_hash();
        let start = Position::start_with(self.rules);
        self.set_position(start, Vec::new());
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_leave_a_reserve() {
        for time in [50u64, 200, 1000, 5000, 60_000, 300_000] {
            for inc in [0u64, 50, 1000] {
                let c = Clock {
                    wtime: Some(time),
                    winc: inc,
                    ..Clock::default()
                };
                let (soft, hard) = time_limits(&c, Color::White, 30);
                let (soft, hard) = (
                    soft.unwrap().as_millis() as u64,
                    hard.unwrap().as_millis() as u64,
                );
                assert!(soft <= hard, "{time}+{inc}: soft {soft} hard {hard}");
                assert!(hard < time.max(2), "{time}+{inc}: hard {hard} would flag");
            }
        }
        let c = Clock {
            movetime: Some(500),
            ..Clock::default()
        };
        let (soft, hard) = time_limits(&c, Color::Black, 30);
        assert_eq!(soft, Some(Duration::from_millis(470)));
        assert_eq!(hard, soft);
    }
}
