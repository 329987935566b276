#!/bin/bash
# (Re)start the local FICS built by setup.sh on 127.0.0.1:5000, and Xvfb :99 for xboard.
R=${FICS_E2E:?set FICS_E2E to the harness working directory}
[ -f "$R/fics.pid" ] && kill "$(cat "$R/fics.pid")" 2>/dev/null && sleep 1
cd "$R/home/config" || exit 1
setsid nohup "$R/home/bin/fics" -p 5000 >> "$R/logs/fics-server.log" 2>&1 &
echo $! > "$R/fics.pid"
pgrep -x Xvfb > /dev/null || {
    setsid nohup Xvfb :99 -screen 0 1280x1024x24 -nolisten tcp > "$R/logs/xvfb.log" 2>&1 &
}
for _ in 1 2 3 4 5 6 7 8 9 10; do
    ss -ltn | grep -q '127.0.0.1:5000' && { echo "FICS listening on 127.0.0.1:5000"; exit 0; }
    sleep 1
done
echo "FICS did not start (see $R/logs/fics-server.log)"; exit 1
