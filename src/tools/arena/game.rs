//! One game of a match: the event loop over engine lines and clocks,
//! moves checked against the board, pocket changes and partner messages
//! passed on, Gambler promotions, forfeits.

use super::engines::{Msg, Think};
use super::slots::Arena;
use rukav::bughouse::{team_of, Game, PlayError, Report, Settings};
use rukav::{Color, Position, Square};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// How long an engine may take to choose the piece of a Gambler promotion
/// (the clocks are stopped meanwhile).
const GAMBLER_CHOICE_MS: u64 = 5000;

impl Arena<'_> {
    /// Sends the position (and extension data) and `go` to the engine on move.
    pub(super) fn start_search(&mut self, game: &Game, board: usize, swapped: bool, now: u64) {
        let c = game.to_move(board);
        let p = self.proc_of(board, c, swapped);
        let fen = game.position(board).fen();
        let clock = |b: usize, c: Color| game.clock_ms(b, c, now).max(1);
        let inc = self.cfg.tc.inc_ms;
        let mut lines = vec![format!("position fen {fen}")];
        if self.procs[p].ext {
            let partners = game.partner_boards(board);
            for (i, &pb) in partners.iter().enumerate() {
                let add = if i == 0 { "" } else { "add " };
                lines.push(format!(
                    "bughouse partner {add}fen {}",
                    game.position(pb).fen()
                ));
            }
            if let Some(&pb) = partners.first() {
                lines.push(format!(
                    "bughouse clocks {} {} {} {}",
                    clock(board, Color::White),
                    clock(board, Color::Black),
                    clock(pb, Color::White),
                    clock(pb, Color::Black)
                ));
            }
        }
        lines.push(format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            clock(board, Color::White),
            clock(board, Color::Black)
        ));
        for l in &lines {
            if !self.procs[p].send(l) {
                break;
            }
        }
        self.procs[p].thinking = Some(Think { board, fen });
    }

    pub(super) fn play_game(&mut self, swapped: bool) -> (Game, usize) {
        let mut settings = Settings::new(self.rules);
        settings.form = self.cfg.form;
        settings.time = Some(self.cfg.tc);
        settings.handover = self.cfg.handover;
        let mut game = Game::new(settings);
        let mut ptells = 0;
        self.gambler_wait = None;
        let errors = self.prepare();
        if !errors.is_empty() {
            // Engines that cannot play lose the game for their team.
            let mut losing = [false; 2];
            let mut texts = Vec::new();
            for (p, e) in &errors {
                let (b, c) = self.seat_of(*p, swapped);
                losing[team_of(b, c).index()] = true;
                texts.push(format!("{}: {e}", self.seat_label(*p, swapped)));
            }
            let reason = texts.join("; ");
            if losing[0] && losing[1] {
                game.draw(format!("no game: {reason}"), 0);
            } else {
                let (p, _) = errors[0];
                let (b, c) = self.seat_of(p, swapped);
                game.forfeit(b, c, reason, 0);
            }
            return (game, 0);
        }
        let start = Instant::now();
        let now = |s: &Instant| s.elapsed().as_millis() as u64;
        loop {
            if game.is_over() {
                break;
            }
            let t = now(&start);
            if game.plies() >= self.cfg.max_moves {
                game.draw(
                    format!("adjudicated a draw after {} moves", game.plies()),
                    t,
                );
                break;
            }
            if let Some(g) = game.gambler_pending().copied() {
                if let Some((p, b, deadline)) = self.gambler_wait {
                    if t >= deadline {
                        let label = self.seat_label(p, swapped);
                        let reason = format!("{label} chose no piece for the Gambler promotion");
                        game.forfeit(b, g.color.flip(), reason, t);
                        self.gambler_wait = None;
                        continue;
                    }
                } else {
                    match game.default_gambler_choice() {
                        Some((b, sq)) => {
                            // The partner of the promoting player chooses:
                            // an engine with the extension is asked, for
                            // others the arena takes the most valuable piece.
                            let p = self.proc_of(b, g.color.flip(), swapped);
                            let fen = game.position(b).fen();
                            let side = if g.color.flip().is_white() {
                                "white"
                            } else {
                                "black"
                            };
                            if self.procs[p].ext
                                && self.procs[p].alive
                                && self.procs[p].send(&format!("bughouse gambler {side} {fen}"))
                            {
                                self.gambler_wait = Some((p, b, t + GAMBLER_CHOICE_MS));
                            } else {
                                match game.complete_gambler(b, sq, t) {
                                    Ok(r) => self.after_change(&game, &r, swapped),
                                    Err(e) => {
                                        game.draw(format!("arena error: {e}"), t);
                                    }
                                }
                                continue;
                            }
                        }
                        None => {
                            game.draw("arena error: no Gambler choice".into(), t);
                            continue;
                        }
                    }
                }
            }
            let paused = self.gambler_wait.is_some();
            for b in 0..game.board_count() {
                if paused || !game.is_live(b) || game.waiting(b) {
                    continue;
                }
                let c = game.to_move(b);
                let p = self.proc_of(b, c, swapped);
                if self.procs[p].thinking.is_none() {
                    if !self.procs[p].alive {
                        let r = format!("{} crashed (not running)", self.seat_label(p, swapped));
                        game.forfeit(b, c, r, t);
                        break;
                    }
                    self.start_search(&game, b, swapped, t);
                }
            }
            if game.is_over() {
                break;
            }
            let t = now(&start);
            let wait = game
                .next_flag_ms()
                .map_or(1000, |f| f.saturating_sub(t) + 1)
                .min(1000);
            match self.rx.recv_timeout(Duration::from_millis(wait)) {
                Ok(msg) => {
                    let t = now(&start);
                    ptells += self.handle(&mut game, msg, swapped, t);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    game.draw("arena error: engine channel closed".into(), now(&start));
                }
            }
            let r = game.tick(now(&start));
            self.after_change(&game, &r, swapped);
        }
        // Searches still running are stopped; their answers are dropped.
        for proc in &mut self.procs {
            if proc.thinking.take().is_some() {
                proc.send("stop");
            }
        }
        (game, ptells)
    }

    /// Tells engines about a change (pockets during their search, boards that left play).
    pub(super) fn after_change(&mut self, game: &Game, r: &Report, swapped: bool) {
        self.talk.update(game);
        for &b in &r.pockets {
            if !game.is_live(b) {
                continue;
            }
            let p = self.proc_of(b, game.to_move(b), swapped);
            let thinking_here = self.procs[p]
                .thinking
                .as_ref()
                .is_some_and(|t| t.board == b);
            if thinking_here && self.procs[p].ext {
                let holding = game.position(b).pocket_string();
                let holding = if holding.is_empty() {
                    "-".into()
                } else {
                    holding
                };
                self.procs[p].send(&format!("bughouse holding {holding}"));
            }
        }
        for &b in &r.left_play {
            for c in Color::ALL {
                let p = self.proc_of(b, c, swapped);
                if self.procs[p].thinking.take().is_some() {
                    self.procs[p].send("stop");
                }
            }
        }
    }

    /// Handles one engine line during a game; returns the number of relayed ptells.
    pub(super) fn handle(&mut self, game: &mut Game, msg: Msg, swapped: bool, now: u64) -> usize {
        match msg {
            Msg::Eof(p, g) => {
                if g != self.procs[p].generation {
                    return 0;
                }
                self.procs[p].alive = false;
                self.procs[p].thinking = None;
                let (b, c) = self.seat_of(p, swapped);
                if game.is_live(b) {
                    let reason = format!("{} crashed (exited)", self.seat_label(p, swapped));
                    game.forfeit(b, c, reason, now);
                }
                0
            }
            Msg::Line(p, g, line) => {
                if g != self.procs[p].generation {
                    return 0;
                }
                if let Some(text) = line.strip_prefix("info string ptell ") {
                    let (b, c) = self.seat_of(p, swapped);
                    let team = self.engine_team(p);
                    self.talk.said(game, team, b, c, text.trim());
                    return self.relay(p, text.trim(), swapped);
                }
                if let Some(text) = line.strip_prefix("info string sitting ") {
                    let team = self.engine_team(p);
                    self.talk.sat(team, text.trim());
                    return 0;
                }
                if let Some(text) = line.strip_prefix("info string gambler ") {
                    self.gambler_answer(game, p, text.trim(), swapped, now);
                    return 0;
                }
                let mut words = line.split_whitespace();
                if words.next() != Some("bestmove") {
                    return 0;
                }
                let answer = words.next().unwrap_or("").to_string();
                let Some(think) = self.procs[p].thinking.take() else {
                    return 0;
                };
                if game.is_over() {
                    return 0;
                }
                let b = think.board;
                let pos = *game.position(b);
                let label = self.seat_label(p, swapped);
                let c = pos.side_to_move();
                match pos.parse_uci_move(&answer) {
                    Ok(mv) => match game
                        .play(b, mv, now)
                        .inspect(|_| self.talk.moving(b, c, mv))
                    {
                        Ok(r) => self.after_change(game, &r, swapped),
                        Err(PlayError::Illegal(e)) => {
                            game.forfeit(b, c, format!("{label} played an illegal move: {e}"), now);
                        }
                        Err(_) => {}
                    },
                    Err(_) => {
                        let was_legal = Position::from_fen(&think.fen, self.rules)
                            .ok()
                            .is_some_and(|sent| sent.parse_uci_move(&answer).is_ok());
                        let no_move = answer.is_empty() || answer == "(none)" || answer == "0000";
                        // A pocket change during the search left the board
                        // waiting (a check only a dropped piece could block,
                        // and none in hand): no move is the right answer,
                        // and the engine is asked again when a piece comes.
                        // Any other illegal answer still loses.
                        let ask_again = was_legal || (no_move && game.waiting(b));
                        if !ask_again {
                            let what = if no_move {
                                format!("{label} returned no move ('{line}')")
                            } else {
                                format!("{label} played an illegal move {answer}")
                            };
                            game.forfeit(b, c, what, now);
                        }
                        // Otherwise the board changed under the engine: it is asked again.
                    }
                }
                0
            }
        }
    }

    /// An engine's answer to `bughouse gambler`: the square of the piece it
    /// takes. A square that may not be taken loses the game for its team.
    pub(super) fn gambler_answer(
        &mut self,
        game: &mut Game,
        p: usize,
        text: &str,
        swapped: bool,
        now: u64,
    ) {
        let Some((asked, b, _)) = self.gambler_wait else {
            return;
        };
        let Some(g) = game.gambler_pending().copied() else {
            self.gambler_wait = None;
            return;
        };
        if asked != p {
            return;
        }
        self.gambler_wait = None;
        let label = self.seat_label(p, swapped);
        let result = Square::parse(text)
            .ok_or_else(|| format!("'{text}' is not a square"))
            .and_then(|sq| game.complete_gambler(b, sq, now).map_err(|e| e.to_string()));
        match result {
            Ok(r) => self.after_change(game, &r, swapped),
            Err(e) => {
                let reason = format!("{label} made an illegal Gambler choice: {e}");
                game.forfeit(b, g.color.flip(), reason, now);
            }
        }
    }
}
