#!/bin/bash
# usage: run.sh TAG "ENGINE_A ENGINE_B ENGINE_C ENGINE_D" GAMES [TC[,TC...]]
#   One run of the harness: four zippy bots (BugA+BugB vs BugC+BugD), GAMES bughouse games at the
#   time controls given (in rotation; default "2 0"), then the per-game table.
#   e.g. run.sh rukav4 "rukav rukav rukav rukav" 20
#        run.sh vs-sjeng "rukav rukav sjeng sjeng" 20
#        run.sh mixed "rukav sjeng sjeng rukav" 6 "2 0,3 0"
#        run.sh h-rukav "rukav human sjeng sjeng" 20      # H (scripts/human-partner.py) beside Rukav
#        run.sh h-sjeng "sjeng human sjeng sjeng" 20      # ... and beside Sjeng
#   Use a new TAG for each run. H's log goes to logs/TAG/h-BOT.jsonl (bots.sh: H_SEED, H_ARGS, DEPTH).
# The server and Xvfb must run (setup.sh, or start_server.sh after a reboot).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
R=${FICS_E2E:?set FICS_E2E to the harness working directory}
TAG=${1:?tag}; SEATS=${2:?four engines}; GAMES=${3:?games}; TC=${4:-2 0}
L=$R/logs
mkdir -p "$L/$TAG"
# Sjeng learns into ~/.sjeng (kept under each bot's directory): start every run from nothing.
rm -rf "$R"/zippy/Bug?/sjenghome
export H_LOG_DIR=$L/$TAG
# shellcheck disable=SC2086
"$HERE/bots.sh" start $SEATS || exit 2
python3 "$HERE/referee.py" --tag "$TAG" --games "$GAMES" --tc "$TC"
"$HERE/bots.sh" stop; sleep 2
for b in BugA BugB BugC BugD; do
    mv "$L/xb-$b.debug" "$L/xb-$b.ics.log" "$L/$TAG/" 2>/dev/null
    cp "$R/zippy/$b.engine" "$L/$TAG/$b.engine"
done
python3 "$HERE/analyze.py" "$TAG"
