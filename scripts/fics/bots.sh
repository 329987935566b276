#!/bin/bash
# usage: bots.sh start ENGINE_A ENGINE_B ENGINE_C ENGINE_D  |  bots.sh stop
#   Four xboard zippy bots BugA, BugB (one team) and BugC, BugD (the other); each ENGINE is
#   rukav | sjeng | mock. Mixed teams: bots.sh start rukav sjeng sjeng rukav.
#   rukav runs $RUKAV (default: target/release/rukav of this checkout).
HERE=$(cd "$(dirname "$0")" && pwd)
R=${FICS_E2E:?set FICS_E2E to the harness working directory}
BOTS=(BugA BugB BugC BugD)
stop() {
    for n in "${BOTS[@]}"; do
        f=$R/zippy/$n/pgid
        [ -f "$f" ] && kill -- "-$(cat "$f")" 2>/dev/null && echo "stopped $n"
        rm -f "$f"
    done
}
engine() { case $1 in
    rukav) echo "${RUKAV:-$HERE/../../target/release/rukav}";;
    sjeng) echo "$HERE/sjeng-nobody.sh";;
    mock)  echo "python3 $HERE/mock_engine.py";;
    *) echo "unknown engine '$1' (rukav, sjeng, mock)" >&2; exit 2;;
esac; }
case ${1:-} in
    stop) stop;;
    start)
        [ $# -eq 5 ] || { echo "usage: bots.sh start A B C D"; exit 2; }
        stop; sleep 1
        shift; i=0
        for e in "$@"; do
            cmd=$(engine "$e") || exit 2
            mkdir -p "$R/zippy"; echo "$e" > "$R/zippy/${BOTS[$i]}.engine"
            "$HERE/launch_xboard.sh" "${BOTS[$i]}" "$cmd"; sleep 8; i=$((i + 1))
        done
        sleep 4;;
    *) echo "usage: bots.sh start A B C D | bots.sh stop"; exit 2;;
esac
