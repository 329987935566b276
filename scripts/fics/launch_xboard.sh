#!/bin/bash
# usage: launch_xboard.sh NAME "ENGINE COMMAND" [extra xboard args...]
# One headless xboard in zippy mode (on Xvfb :99) that logs into the local FICS as guest NAME and
# plays bughouse with the engine, as a bot operator runs it: -zp -zippyBughouse 2 -autoflag,
# remote control through -zippyPassword (the referee's tells), debug log logs/xb-NAME.debug.
set -u
N=$1; ENG=$2; shift 2
R=${FICS_E2E:?set FICS_E2E to the harness working directory}
D=$R/zippy/$N; L=$R/logs
mkdir -p "$D"
printf '%s\n\nset open 1\nset seek 0\nset shout 0\nset cshout 0\nset kibitz 0\nset width 240\n' "$N" > "$D/icslogon"
: > "$D/xboardrc"
cd "$D" || exit 1
export DISPLAY=:99 HOME=$D
setsid bash -c 'sleep infinity | exec /usr/games/xboard "$@"' xb -zp -ics -icshost 127.0.0.1 -icsport "${PORT:-5000}" \
  -icslogon "$D/icslogon" -autoCreateLogon false -msLoginDelay 200 \
  -fcp "$ENG" -fd "$D" -firstProtocolVersion 2 -xponder \
  -zippyVariants "bughouse,crazyhouse,normal" -zippyBughouse 2 -autoflag -zippyPassword xyzzy \
  -getMoveList true -size 33 -useBoardTexture false \
  -settingsFile "$D/xboardrc" -saveSettingsOnExit false \
  -seekGraph false -popupExitMessage false -popupMoveErrors false -soundProgram true \
  -debug -nameOfDebugFile "$L/xb-$N.debug" "$@" > "$L/xb-$N.ics.log" 2>&1 < /dev/null &
echo $! > "$D/pgid"; echo "started $N ($ENG), pgid $(cat "$D/pgid")"
