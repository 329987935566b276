//! Analysis mode (`analyze` .. `exit`): an infinite search of the current
//! position, restarted whenever the position changes, and its status line
//! (`.`).

use super::output::XboardOutput;
use super::session::Xboard;
use crate::engine::GoRequest;
use crate::protocol::io::send;
use crate::search::Limits;
use std::sync::{Arc, Mutex};

impl Xboard {
    /// `analyze`: analysis mode, which goes on until `exit`.
    pub(super) fn start_analysis(&mut self) {
        self.analyzing = true;
        self.force = true;
        self.analyse();
    }

    /// Leaves analysis mode (`exit`, and before `go` and `playother`).
    pub(super) fn leave_analysis(&mut self) {
        if self.analyzing {
            self.abort_search();
            self.analyzing = false;
        }
    }

    /// Analysis mode: (re)starts the infinite search of the current
    /// position, thinking lines always on. Nothing outside analysis mode.
    pub(super) fn analyse(&mut self) {
        if !self.analyzing {
            return;
        }
        self.abort_search();
        let request = GoRequest {
            limits: Limits {
                infinite: true,
                multipv: 1,
                ..Limits::default()
            },
            analysis: true,
            ..GoRequest::default()
        };
        let output = XboardOutput {
            post: true,
            done: Mutex::new(self.tx.clone()),
            generation: self.generation,
            words: false,
        };
        self.searching = true;
        self.engine.go(request, Arc::new(output));
    }

    /// `.` in analysis mode: the status line
    /// `stat01: <time cs> <nodes> <depth> <moves left> <moves in all> <move>`.
    pub(super) fn status(&self) {
        if !self.analyzing {
            return;
        }
        let line = match self.engine.progress() {
            Some((time, nodes, Some(p))) => format!(
                "stat01: {} {} {} {} {} {}",
                time.as_millis() / 10,
                nodes,
                p.depth,
                p.total.saturating_sub(p.number),
                p.total,
                p.current
            ),
            Some((time, nodes, None)) => {
                format!("stat01: {} {} 0 0 0", time.as_millis() / 10, nodes)
            }
            None => "stat01: 0 0 0 0 0".to_string(),
        };
        send(&line);
    }
}
