//! The engines of a match at their seats: starting them, the UCI
//! handshake, the reader threads that feed one channel, restarts, relaying
//! partner messages and shutdown.

use super::engines::Msg;
use super::slots::Arena;
use rukav::bughouse::{seat_name, team_of, Team};
use rukav::Color;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

impl Arena<'_> {
    pub(super) fn boards(&self) -> usize {
        self.cfg.form.boards()
    }

    /// Process index of a seat: team index (of the `--team` flags) * boards + board.
    pub(super) fn proc_of(&self, board: usize, color: Color, swapped: bool) -> usize {
        let mut team = team_of(board, color);
        if swapped {
            team = team.other();
        }
        team.index() * self.boards() + board
    }

    pub(super) fn seat_of(&self, p: usize, swapped: bool) -> (usize, Color) {
        let board = p % self.boards();
        let color = if self.proc_of(board, Color::White, swapped) == p {
            Color::White
        } else {
            Color::Black
        };
        (board, color)
    }

    pub(super) fn spawn(&mut self, p: usize) -> Result<(), String> {
        let argv = self.procs[p].argv.clone();
        let Some((prog, args)) = argv.split_first() else {
            return Err("empty engine command".into());
        };
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", argv.join(" ")))?;
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let proc = &mut self.procs[p];
        proc.generation += 1;
        let generation = proc.generation;
        let tx = self.tx.clone();
        if let Some(out) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(out);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(Msg::Line(p, generation, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Msg::Eof(p, generation));
            });
        }
        proc.child = Some(child);
        proc.stdin = stdin;
        proc.alive = true;
        proc.ext = false;
        proc.options.clear();
        proc.thinking = None;
        Ok(())
    }

    /// Waits until every process in `ids` said `token` (or died, or the
    /// deadline passed); returns those that did not.
    pub(super) fn wait_all(
        &mut self,
        ids: &[usize],
        token: &str,
        collect_options: bool,
    ) -> Vec<usize> {
        let deadline = Instant::now() + Duration::from_millis(self.cfg.handshake_ms);
        let mut missing: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&p| self.procs[p].alive)
            .collect();
        while !missing.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match self.rx.recv_timeout(left) {
                Ok(Msg::Line(p, g, line)) => {
                    if g != self.procs[p].generation {
                        continue;
                    }
                    if collect_options {
                        if let Some(rest) = line.strip_prefix("id name ") {
                            self.procs[p].name = rest.trim().to_string();
                        }
                        if let Some(rest) = line.strip_prefix("option name ") {
                            let name = rest.split(" type ").next().unwrap_or(rest).trim();
                            self.procs[p].options.push(name.to_ascii_lowercase());
                        }
                    }
                    if line == token {
                        missing.retain(|&q| q != p);
                    }
                }
                Ok(Msg::Eof(p, g)) => {
                    if g == self.procs[p].generation {
                        self.procs[p].alive = false;
                        missing.retain(|&q| q != p);
                    }
                }
                Err(_) => break,
            }
        }
        let mut failed: Vec<usize> = missing;
        failed.extend(ids.iter().copied().filter(|&p| !self.procs[p].alive));
        failed.sort_unstable();
        failed.dedup();
        failed
    }

    /// Starts (or restarts) processes and runs the `uci` handshake and options.
    pub(super) fn start(&mut self, ids: &[usize]) -> Vec<(usize, String)> {
        let mut errors = Vec::new();
        let mut started = Vec::new();
        for &p in ids {
            self.procs[p].kill();
            match self.spawn(p) {
                Ok(()) => {
                    if self.procs[p].send("uci") {
                        started.push(p);
                    } else {
                        errors.push((p, "engine closed its input".to_string()));
                    }
                }
                Err(e) => errors.push((p, e)),
            }
        }
        for p in self.wait_all(&started, "uciok", true) {
            errors.push((p, "no 'uciok' (engine did not start as UCI)".into()));
            self.procs[p].kill();
        }
        for &p in &started {
            if !self.procs[p].alive {
                continue;
            }
            let mut lines = Vec::new();
            if self.procs[p].has_option("UCI_Variant") {
                lines.push("setoption name UCI_Variant value bughouse".to_string());
            }
            for (k, v) in &self.cfg.house_rules {
                if self.procs[p].has_option(k) {
                    lines.push(format!("setoption name {k} value {v}"));
                }
            }
            if self.procs[p].has_option("UCI_Bughouse") {
                lines.push("setoption name UCI_Bughouse value true".to_string());
                self.procs[p].ext = true;
            }
            let team = usize::from(p >= self.cfg.team1.len());
            for (k, v) in &self.cfg.engine_options[team] {
                if self.procs[p].has_option(k) {
                    lines.push(format!("setoption name {k} value {v}"));
                } else if self.slot == 0 {
                    eprintln!(
                        "arena: {} has no option '{k}'; not sent",
                        self.procs[p].name
                    );
                }
            }
            for l in lines {
                self.procs[p].send(&l);
            }
        }
        errors
    }

    /// Before a game: `ucinewgame` and `isready`; unresponsive or dead
    /// engines are restarted. Returns the processes that could not be made ready.
    pub(super) fn prepare(&mut self) -> Vec<(usize, String)> {
        let all: Vec<usize> = (0..self.procs.len()).collect();
        let dead: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&p| !self.procs[p].alive)
            .collect();
        let mut errors = self.start(&dead);
        let live: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&p| self.procs[p].alive)
            .collect();
        for &p in &live {
            self.procs[p].thinking = None;
            self.procs[p].send("ucinewgame");
            self.procs[p].send("isready");
        }
        let stuck = self.wait_all(&live, "readyok", false);
        if !stuck.is_empty() {
            let restarted = self.start(&stuck);
            let ok: Vec<usize> = stuck
                .iter()
                .copied()
                .filter(|&p| self.procs[p].alive)
                .collect();
            for &p in &ok {
                self.procs[p].send("ucinewgame");
                self.procs[p].send("isready");
            }
            for p in self.wait_all(&ok, "readyok", false) {
                errors.push((p, "no 'readyok'".into()));
                self.procs[p].kill();
            }
            errors.extend(restarted);
        }
        errors.sort_by_key(|e| e.0);
        errors.dedup_by_key(|e| e.0);
        errors
    }

    pub(super) fn seat_label(&self, p: usize, swapped: bool) -> String {
        let (b, c) = self.seat_of(p, swapped);
        format!("{} ({})", seat_name(b, c), self.procs[p].name)
    }

    /// Relays a partner message to the team mates that speak the extension.
    pub(super) fn relay(&mut self, from: usize, text: &str, swapped: bool) -> usize {
        let (b, c) = self.seat_of(from, swapped);
        let team: Team = team_of(b, c);
        let mut n = 0;
        let text: String = text
            .chars()
            .filter(|ch| !ch.is_control())
            .take(200)
            .collect();
        for p in 0..self.procs.len() {
            if p == from {
                continue;
            }
            let (pb, pc) = self.seat_of(p, swapped);
            if team_of(pb, pc) == team && self.procs[p].ext && self.procs[p].alive {
                self.procs[p].send(&format!("bughouse ptell {text}"));
                n += 1;
            }
        }
        n
    }

    pub(super) fn quit_all(&mut self) {
        for p in &mut self.procs {
            p.send("quit");
            p.stdin = None;
        }
        let deadline = Instant::now() + Duration::from_millis(1000);
        for p in &mut self.procs {
            if let Some(child) = p.child.as_mut() {
                loop {
                    match child.try_wait() {
                        Ok(Some(_)) | Err(_) => break,
                        Ok(None) if Instant::now() < deadline => {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        Ok(None) => {
                            let _ = child.kill();
                            let _ = child.wait();
                            break;
                        }
                    }
                }
            }
            p.child = None;
            p.alive = false;
        }
    }
}
