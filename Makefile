# OpenBench builds engines with `make EXE=<path> [EVALFILE=<net>]` and runs
# `<path> bench`. This builds the release binary for this machine's CPU and
# copies it to $(EXE); EVALFILE embeds that network instead of the default.
# Everyday builds need no make: `cargo build --release`.

EXE ?= rukav
EVALFILE ?=

.PHONY: all clean

all:
	EVALFILE="$(EVALFILE)" cargo rustc --release --bin rukav -- -C target-cpu=native
	cp target/release/rukav "$(EXE)"

clean:
	cargo clean
