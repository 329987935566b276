//! The commands: a line split and dispatched to the method of its command
//! ([`Xboard::handle`]), the features announced (`protover`), and the
//! commands that set up games, sides, positions, moves and options.

use super::output::error;
use super::session::Xboard;
use crate::position::Position;
use crate::protocol::io::send;
use crate::protocol::options::{self, MAX_HASH_MB, MAX_THREADS};
use crate::protocol::uci::NAME;
use crate::rules::Variant;
use crate::types::Color;

/// The CECP variant names Rukav accepts, and ours.
pub fn variant_from_cecp(name: &str) -> Option<Variant> {
    match name {
        "normal" => Some(Variant::Chess),
        "crazyhouse" => Some(Variant::Crazyhouse),
        "bughouse" => Some(Variant::Bughouse),
        "antichess" => Some(Variant::Antichess),
        "suicide" => Some(Variant::Suicide),
        "giveaway" => Some(Variant::Giveaway),
        "kingschess" => Some(Variant::KingsChess),
        _ => None,
    }
}

impl Xboard {
    /// Handles one line; returns false on `quit`. Each command (or group
    /// of commands) has a method of its own.
    pub(super) fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        let arg = rest.join(" ");
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "draw" | "hint" | "bk" | "book" | "easy" | "hard" | "nps" | "ponder" => {}
            "egtpath" => self.egtpath(&arg),
            "cores" => self.set_clamped("Threads", rest.first().copied(), MAX_THREADS),
            "memory" => self.set_clamped("Hash", rest.first().copied(), MAX_HASH_MB),
            "option" => self.option(&arg),
            "protover" => Self::features(),
            "new" => self.new_game(),
            "variant" => self.variant(&arg),
            "analyze" => self.start_analysis(),
            "exit" => self.leave_analysis(),
            "." => self.status(),
            "force" => self.enter_force_mode(),
            "go" => self.go(),
            "playother" => self.playother(),
            "white" | "black" => self.set_colour(cmd),
            "?" => self.move_now(),
            "usermove" => self.usermove(&arg),
            "setboard" => self.setboard(&arg),
            "holding" => self.holding(&arg),
            "time" | "otim" => self.timing.set_clock(cmd, rest.first().copied(), &arg),
            "level" => self.timing.level(&rest, &arg),
            "st" => self.timing.set_st(&arg),
            "sd" => self.timing.set_sd(&arg),
            "ping" => send(&format!("pong {arg}")),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "result" => self.game_result(),
            "partner" => self.set_partner(&arg),
            "ptell" => self.ptell(&arg),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "quit" => {
                self.abort_search();
                return false;
            }
            _ => self.bare_move_or_unknown(cmd, &rest),
        }
        true
    }

    /// `protover`: the features, the options of the table, `done=1`.
    fn features() {
        send(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=1 \
             colors=0 san=0 memory=1 smp=1 pause=0 nps=0 debug=1 egt=\"syzygy\" \
             variants=\"normal,crazyhouse,bughouse,suicide,antichess,giveaway,kingschess\" myname=\"{NAME}\""
        ));
        for o in options::table() {
            if !matches!(
                o.name,
                "Hash"
                    | "Threads"
                    | "UCI_Variant"
                    | "UCI_Chess960"
                    | "UCI_Bughouse"
                    | "UCI_ShowWDL"
                    | "Ponder"
            ) {
                send(&options::cecp_feature(&o));
            }
        }
        send("feature done=1");
    }

    /// `egtpath syzygy PATH` (we announce `egt="syzygy"`): the Syzygy tables
    /// of PATH, as the option `SyzygyPath`; what was found is told as `#`
    /// comment lines. Other kinds of tables are ignored.
    fn egtpath(&mut self, arg: &str) {
        if let Some(path) = arg.strip_prefix("syzygy ") {
            self.abort_search();
            for line in self.engine.set_syzygy_path(path) {
                send(&format!("# {line}"));
            }
            self.analyse();
        }
    }

    /// `memory` and `cores`: the table's option, the value brought within its bounds.
    fn set_clamped(&mut self, option: &str, text: Option<&str>, max: i64) {
        match text.and_then(|t| t.parse::<i128>().ok()) {
            Some(v) => {
                self.abort_search();
                let v = v.clamp(1, i128::from(max));
                if let Err(e) = options::set(&mut self.engine, option, &v.to_string()) {
                    error(option, e);
                }
                self.analyse();
            }
            None => error(option, "needs a number"),
        }
    }

    /// `option NAME=VALUE`.
    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some((name, value)) => {
                self.abort_search();
                if let Err(e) = options::set(&mut self.engine, name, value) {
                    error("option", &e);
                }
                self.analyse();
            }
            None => error("option", "needs NAME=VALUE"),
        }
    }

    /// `new`: chess from the start, the engine Black, no depth or time limit.
    fn new_game(&mut self) {
        self.abort_search();
        self.engine.set_variant(Variant::Chess);
        self.engine.new_game();
        // In analysis mode: the start position is analysed.
        self.force = self.analyzing;
        self.engine_color = Color::Black;
        // The specification: `new` removes the `sd` limit and starts the
        // clocks of a new game; the time control itself stays.
        self.timing.sd = None;
        self.pockets_unknown = false;
        self.analyse();
    }

    /// `variant NAME`: a new game of that variant.
    fn variant(&mut self, arg: &str) {
        match variant_from_cecp(arg) {
            Some(v) => {
                self.abort_search();
                self.engine.set_variant(v);
                self.engine.new_game();
                self.pockets_unknown = false;
                self.analyse();
            }
            None => error("unsupported variant", arg),
        }
    }

    /// `usermove MOVE` (and a bare move): the opponent's move, then the
    /// engine's turn or a fresh analysis.
    fn usermove(&mut self, text: &str) {
        self.abort_search();
        let pos = *self.engine.position();
        let m = match pos.parse_uci_move(text) {
            Ok(m) => m,
            Err(_) => match self.drop_of_a_piece_on_its_way(text) {
                Some(m) => m,
                None => return send(&format!("Illegal move: {text}")),
            },
        };
        self.engine.play(m);
        self.maybe_think();
        self.analyse();
    }

    /// `force`: the engine plays neither side.
    fn enter_force_mode(&mut self) {
        // An analysis goes on until `exit`.
        if !self.analyzing {
            self.abort_search();
        }
        self.force = true;
    }

    /// `go`: the engine plays the side to move, and thinks.
    fn go(&mut self) {
        self.leave_analysis();
        self.force = false;
        self.engine_color = self.engine.position().side_to_move();
        self.maybe_think();
    }

    /// `playother`: the engine plays the side not to move.
    fn playother(&mut self) {
        self.leave_analysis();
        self.force = false;
        self.engine_color = self.engine.position().side_to_move().flip();
    }

    /// `white` / `black` (protocol 1): the side to move; the engine plays the other.
    fn set_colour(&mut self, cmd: &str) {
        self.engine_color = if cmd == "white" {
            Color::Black
        } else {
            Color::White
        };
    }

    /// `?`: play now.
    fn move_now(&mut self) {
        if self.searching && !self.analyzing {
            self.engine.stop();
        }
    }

    /// `setboard FEN`.
    fn setboard(&mut self, arg: &str) {
        self.abort_search();
        match Position::from_fen(arg, self.engine.rules()) {
            Ok(p) => {
                self.engine.set_position(p, Vec::new());
                self.pockets_unknown = p.rules().drops;
            }
            Err(e) => error("bad FEN", format!("{arg}: {e}")),
        }
        self.analyse();
    }

    /// `result ...`: the game is over; the engine waits in force mode.
    fn game_result(&mut self) {
        if !self.analyzing {
            self.abort_search();
        }
        self.force = true;
    }

    /// `undo` (one ply) / `remove` (two).
    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        self.engine.undo(plies);
        // The game is replayed from its start: pockets that came from
        // outside are whatever the next `holding` says.
        self.pockets_unknown = self.engine.position().rules().two_boards;
        self.analyse();
    }

    /// xboard sends moves without `usermove` when the feature is off: a
    /// bare move is played; anything else is an unknown command.
    fn bare_move_or_unknown(&mut self, cmd: &str, rest: &[&str]) {
        let pos = *self.engine.position();
        if pos.parse_uci_move(cmd).is_ok() && rest.is_empty() {
            self.usermove(cmd);
        } else {
            error("unknown command", cmd);
        }
    }
}
