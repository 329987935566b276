//! Progress of long jobs (datagen, train, arena): a bar with rate and time
//! left (indicatif) when stderr is a terminal, plain lines otherwise (logs,
//! CI, a job run under `nohup`).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// One job's progress report.
pub struct Progress {
    bar: Option<ProgressBar>,
    label: String,
    total: u64,
    start: Instant,
    last_line: Option<Instant>,
    /// Plain mode: at most one line per this interval (the last is always printed).
    every: Duration,
}

impl Progress {
    /// A report for `total` units of `label` (games, epochs, ...), starting
    /// at `done` (a resumed run).
    pub fn new(label: &str, done: u64, total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            let style = ProgressStyle::with_template(
                "{prefix} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, {eta} left) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar.set_position(done);
            bar.reset_eta();
            bar
        });
        Progress {
            bar,
            label: label.to_string(),
            total,
            start: Instant::now(),
            last_line: None,
            every: Duration::from_secs(10),
        }
    }

    /// Sets the units done so far, with a short note (`positions 1234`, a loss).
    pub fn update(&mut self, done: u64, note: &str) {
        match &self.bar {
            Some(bar) => {
                bar.set_position(done);
                bar.set_message(note.to_string());
            }
            None => {
                let due = self.last_line.is_none_or(|t| t.elapsed() >= self.every);
                if due || done >= self.total {
                    self.last_line = Some(Instant::now());
                    let secs = self.start.elapsed().as_secs_f64();
                    eprintln!(
                        "{} {done}/{} {note} ({:.0} s)",
                        self.label, self.total, secs
                    );
                }
            }
        }
    }

    /// A message line that does not disturb the bar.
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Ends the bar (plain mode prints nothing more).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}
