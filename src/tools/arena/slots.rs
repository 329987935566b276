//! The game slots of a match and [`run`]: each slot is a thread with its
//! own engine processes that takes the next game index from a shared
//! counter; finished games go to the recorder, which keeps game order.

use super::config::{cfg_cmd, check_concurrency, split_command, ArenaConfig};
use super::engines::{Msg, Proc};
use super::recorder::{Played, Recorder, Update};
use super::summary::Summary;
use super::talk::TalkLog;
use rukav::bughouse::{board_letter, seat_name};
use rukav::{Color, Rules};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};

/// One game slot: the engine processes of both teams (team 1's first, one
/// per board), the channel their reader threads feed, and the state of the
/// game being played.
pub(super) struct Arena<'a> {
    /// The match.
    pub(super) cfg: &'a ArenaConfig,
    /// The rules of the boards.
    pub(super) rules: Rules,
    /// The engine processes, team 1's then team 2's, board A first.
    pub(super) procs: Vec<Proc>,
    /// Given to each reader thread.
    pub(super) tx: Sender<Msg>,
    /// The lines of all engines of this slot.
    pub(super) rx: Receiver<Msg>,
    /// A Gambler choice asked of an engine: (process, board, deadline ms).
    pub(super) gambler_wait: Option<(usize, usize, u64)>,
    /// The game slot (0 up to the concurrency); only slot 0 warns about
    /// engine options, which are the same in every slot.
    pub(super) slot: usize,
    /// The talk of the game being played.
    pub(super) talk: TalkLog,
}

impl<'a> Arena<'a> {
    /// A game slot with its own (not yet started) engine processes.
    pub(super) fn new(cfg: &'a ArenaConfig, rules: Rules, slot: usize) -> Arena<'a> {
        let (tx, rx) = channel();
        let procs = cfg
            .team1
            .iter()
            .chain(cfg.team2.iter())
            .map(|cmd| Proc {
                argv: split_command(cmd),
                name: cmd.clone(),
                child: None,
                stdin: None,
                generation: 0,
                alive: false,
                ext: false,
                options: Vec::new(),
                thinking: None,
            })
            .collect();
        Arena {
            cfg,
            rules,
            procs,
            tx,
            rx,
            gambler_wait: None,
            slot,
            talk: TalkLog::default(),
        }
    }

    /// Plays game `index` (0-based; odd games have the seats swapped).
    pub(super) fn play_indexed(&mut self, index: u64) -> Played {
        let swapped = index % 2 == 1;
        let (game, ptells) = self.play_game(swapped);
        // Taking the log leaves a fresh one for the next game.
        let talk = std::mem::take(&mut self.talk).stats;
        let mut seats = Vec::new();
        for b in 0..self.boards() {
            for c in Color::ALL {
                let p = self.proc_of(b, c, swapped);
                seats.push((seat_name(b, c), self.procs[p].name.clone()));
            }
        }
        Played {
            index,
            swapped,
            game,
            ptells,
            talk,
            seats,
        }
    }

    /// The team (0 for `--team1`, 1 for `--team2`) of engine process `p`.
    pub(super) fn engine_team(&self, p: usize) -> usize {
        usize::from(p >= self.cfg.team1.len())
    }
}

/// Runs a match; `progress` receives one update per game (and setup
/// messages), always in game order, also when several games are played at
/// the same time (`cfg.concurrency`).
pub fn run(cfg: &ArenaConfig, progress: &mut dyn FnMut(Update)) -> Result<Summary, String> {
    let n = cfg.form.boards();
    if cfg.team1.len() != n || cfg.team2.len() != n {
        return Err(format!("each team needs {n} engine commands"));
    }
    check_concurrency(cfg.concurrency)?;
    let rules = cfg.rules()?;
    // No more slots than games (but one, to check the engines of an empty match).
    let slots = (cfg.concurrency as usize).min(cfg.games as usize).max(1);
    let mut arenas: Vec<Arena> = (0..slots).map(|s| Arena::new(cfg, rules, s)).collect();
    // Every slot starts its engines at once; the handshakes overlap.
    let errors: Vec<Vec<(usize, String)>> = std::thread::scope(|s| {
        let handles: Vec<_> = arenas
            .iter_mut()
            .map(|arena| {
                s.spawn(move || {
                    let all: Vec<usize> = (0..arena.procs.len()).collect();
                    arena.start(&all)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    if let Some((p, e)) = errors.iter().flatten().next() {
        let message = format!("engine '{}': {e}", cfg_cmd(cfg, *p));
        for arena in &mut arenas {
            arena.quit_all();
        }
        return Err(message);
    }
    let first = &arenas[0];
    for p in 0..first.procs.len() {
        let label = if p < n { "team 1" } else { "team 2" };
        let line = format!(
            "{label} board {}: {}{}",
            board_letter(p % n),
            first.procs[p].name,
            if first.procs[p].ext {
                " (bughouse extension)"
            } else {
                ""
            }
        );
        progress(Update::Note(&line));
    }
    if slots > 1 {
        let line = format!(
            "{slots} games at a time, each with its own {} engine processes",
            2 * n
        );
        progress(Update::Note(&line));
    }
    let file = match &cfg.bpgn {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Some(f),
            Err(e) => {
                for arena in &mut arenas {
                    arena.quit_all();
                }
                return Err(format!("{}: {e}", path.display()));
            }
        },
        None => None,
    };
    let mut recorder = Recorder {
        cfg,
        file,
        summary: Summary::default(),
    };
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let outcome = std::thread::scope(|s| {
        let (done_tx, done_rx) = channel::<Played>();
        for mut arena in arenas {
            let done_tx = done_tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= u64::from(cfg.games) {
                        break;
                    }
                    if done_tx.send(arena.play_indexed(index)).is_err() {
                        break;
                    }
                }
                arena.quit_all();
            });
        }
        drop(done_tx);
        // Games finish in any order; they are recorded in index order.
        let mut waiting: BTreeMap<u64, Played> = BTreeMap::new();
        let mut want = 0u64;
        for played in done_rx {
            waiting.insert(played.index, played);
            while let Some(played) = waiting.remove(&want) {
                if let Err(e) = recorder.record(played, progress) {
                    // Slots finish the game they play and take no other.
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                want += 1;
            }
        }
        Ok(())
    });
    outcome.map(|()| recorder.summary)
}
