#!/bin/bash
# Build, configure and start a local FICS (uhlin/fics) for the bughouse end-to-end harness.
# usage: FICS_E2E=/some/dir scripts/fics/setup.sh GITDIR
#   GITDIR: a git directory of uhlin/fics that you fetched yourself (this script downloads nothing).
# Everything is built and kept under $FICS_E2E, outside the repository. Needs root (apt-get; the
# server drops to 'nobody' itself). Applies two edits to the server source:
#   (a) listen on 127.0.0.1 only (FICS/network.c);
#   (b) a wild/bughouse match gets TYPE_BUGHOUSE (FICS/matchproc.c), so the server announces
#       "Creating unrated bughouse match" as freechess.org does (else xboard never sends
#       `variant bughouse` to its engine).
set -eu
R=${FICS_E2E:?set FICS_E2E to a working directory outside the repository}
GITDIR=${1:?usage: setup.sh GITDIR (a git directory of uhlin/fics)}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$R/logs"
apt-get install -y --no-install-recommends \
    libbsd-dev libcrypt-dev g++ make xboard xvfb sjeng >> "$R/logs/apt.log" 2>&1

rm -rf "$R/fics" && mkdir -p "$R/fics"
git --git-dir="$GITDIR" archive HEAD | tar -x -C "$R/fics"
git --git-dir="$GITDIR" rev-parse HEAD > "$R/fics-commit.txt"
cd "$R/fics"
sed -i 's/htonl(INADDR_ANY)/htonl(INADDR_LOOPBACK)/' FICS/network.c
python3 - FICS/matchproc.c <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
anchor = "category, board);\n"
i = s.index("garray[g].type\t\t= game_isblitz("); j = s.index(anchor, i) + len(anchor)
add = ('\tif (garray[g].type == TYPE_WILD && board != NULL &&\n'
       '\t    strcmp(board, "bughouse") == 0)\n\t\tgarray[g].type = TYPE_BUGHOUSE;\n')
open(p, "w").write(s[:j] + add + s[j:])
PY
grep -q 'INADDR_LOOPBACK' FICS/network.c && grep -q 'TYPE_BUGHOUSE;' FICS/matchproc.c

# Plain make, as the server's README says. An incremental rebuild fails (the Makefile strips
# main from ficsmain.o for its helper programs): always from clean.
M="FICS_HOME=$R/home/config PREFIX=$R/home"
make clean $M > /dev/null 2>&1 || true
make -j2 $M > "$R/logs/build.log" 2>&1
make install $M > "$R/logs/install.log" 2>&1

# A hostname is required; 'nogroup' exists (else the server adds a 'chess' group to /etc/group).
sed -i 's/^server_hostname = "";/server_hostname = "localhost";/; s/^sysgroup = "chess";/sysgroup = "nogroup";/;
        s/^HADMINHANDLE = "";/HADMINHANDLE = "admin";/; s/^HADMINEMAIL = "";/HADMINEMAIL = "admin@localhost";/;
        s/^REGMAIL = "";/REGMAIL = "admin@localhost";/' "$R/home/config/fics.conf"
echo "built uhlin/fics $(cat "$R/fics-commit.txt")"
"$HERE/start_server.sh"
