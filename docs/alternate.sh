#!/usr/bin/env bash
# alternate.sh: whole runs of clustersim binaries in alternation, the way
# docs/PERFORMANCE.md compares builds ("alt2.sh" in its passes).
#
#   bash docs/alternate.sh [-n ROUNDS] PROBE BINARY...
#
# Runs `BINARY run PROBE` for each binary in turn, ROUNDS times (default
# 3), and prints one line a run: the binary, the wall and user seconds and
# the peak resident set from /usr/bin/time, and the clock time it started
# (and "verdict: fail" when it exited 1: that is the scenario's
# verdict, not a failed run; any other status stops the comparison).
# Runs of one binary on this project's 2-core machines differ by 10 to 30%
# from one minute to the next (the host's state, not the build), so only
# runs taken in alternation compare. At the end it says whether every
# run printed the same report, every binary's in every round (a change
# meant to be invisible must leave it byte for byte the same, and a run
# must not differ from the one before it), and exits 1 if not.
#
# `make compare-scale` builds the binaries and the probe for you.
set -euo pipefail
SCRIPT=alternate.sh
source "$(dirname "${BASH_SOURCE[0]}")/timed-run.sh"

rounds=3
if [[ "${1:-}" == "-n" ]]; then
	rounds=${2:?"-n needs a number"}
	shift 2
fi
if [[ $# -lt 2 ]]; then
	echo "usage: bash docs/alternate.sh [-n ROUNDS] PROBE BINARY..." >&2
	exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
	echo "alternate.sh: -n wants a positive number of rounds, got \"$rounds\"" >&2
	exit 2
fi
probe=$1
shift
if [[ ! -r "$probe" ]]; then
	echo "alternate.sh: cannot read the probe \"$probe\"" >&2
	exit 2
fi
need_time
need_executable "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
same=yes
for ((r = 1; r <= rounds; r++)); do
	for b in "$@"; do
		timed_run "$b: the run" "$b" "$probe" "$out"
		verdict=""
		if [[ $status -eq 1 ]]; then
			verdict=", verdict: fail"
		fi
		echo "$b: $wall s wall, $user s user, $kb KB (round $r, $started$verdict)"
		if [[ ! -e "$out/first" ]]; then
			mv "$out/report" "$out/first"
		elif ! cmp -s "$out/first" "$out/report"; then
			echo "the report of $b in round $r differs from the report of $1 in round 1" >&2
			same=no
		fi
	done
done

if [[ $same == yes ]]; then
	echo "every binary printed the same report ($(wc -l <"$out/first") lines)"
else
	exit 1
fi
