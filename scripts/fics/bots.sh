#!/bin/bash
# usage: bots.sh start ENGINE_A ENGINE_B ENGINE_C ENGINE_D  |  bots.sh stop
#   Four xboard zippy bots BugA, BugB (one team) and BugC, BugD (the other); each ENGINE is
#   rukav | sjeng | mock | human. Mixed teams: bots.sh start rukav sjeng sjeng rukav.
#   rukav runs $RUKAV (default: target/release/rukav of this checkout).
#   human runs H (scripts/human-partner.py --cecp) around an inner $RUKAV at Skill Level 8, its
#   log in $H_LOG_DIR/h-BOT.jsonl (default $FICS_E2E/logs; run.sh: logs/TAG), seed $H_SEED
#   (default 1), more arguments of H's in $H_ARGS.
#   DEPTH=N (plumbing tests): rukav and sjeng seats search to depth N only (depth_cap.py), human seats
#   inner engines too (H's --inner-depth); mock seats are unaffected.
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
words() { local a; read -ra a <<< "$*"; echo "${a[*]}"; }  # no empty word: xboard would pass it on
engine() { # ENGINE BOT
    local rukav=${RUKAV:-$HERE/../../target/release/rukav}
    case $1 in
    rukav) echo "${DEPTH:+python3 $HERE/depth_cap.py $DEPTH }$rukav";;
    sjeng) echo "${DEPTH:+python3 $HERE/depth_cap.py $DEPTH }$HERE/sjeng-nobody.sh";;
    mock)  echo "python3 $HERE/mock_engine.py";;
    human) words "python3 $HERE/../human-partner.py --cecp --rukav $rukav --name H" \
                 "--seed ${H_SEED:-1} --log ${H_LOG_DIR:-$R/logs}/h-$2.jsonl" \
                 "${DEPTH:+--inner-depth $DEPTH} ${H_ARGS:-}";;
    *) echo "unknown engine '$1' (rukav, sjeng, mock, human)" >&2; exit 2;;
esac; }
case ${1:-} in
    stop) stop;;
    start)
        [ $# -eq 5 ] || { echo "usage: bots.sh start A B C D"; exit 2; }
        stop; sleep 1
        shift; i=0
        for e in "$@"; do
            cmd=$(engine "$e" "${BOTS[$i]}") || exit 2
            mkdir -p "$R/zippy"; echo "$e" > "$R/zippy/${BOTS[$i]}.engine"
            "$HERE/launch_xboard.sh" "${BOTS[$i]}" "$cmd"; sleep 8; i=$((i + 1))
        done
        sleep 4;;
    *) echo "usage: bots.sh start A B C D | bots.sh stop"; exit 2;;
esac
