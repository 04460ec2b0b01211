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
if [[ ! -x /usr/bin/time ]]; then
	echo "alternate.sh: needs /usr/bin/time (Debian: apt-get install -y time)" >&2
	exit 2
fi
for b in "$@"; do
	if [[ ! -x "$b" ]]; then
		echo "alternate.sh: \"$b\" is not an executable" >&2
		exit 2
	fi
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
same=yes
for ((r = 1; r <= rounds; r++)); do
	for b in "$@"; do
		started=$(date +%H:%M:%S)
		# clustersim exits 1 when an expectation failed: a verdict, the
		# run itself whole and its time as good as any. Anything else
		# (2: the probe refused; a crash) ends the comparison.
		status=0
		/usr/bin/time -o "$out/time" -f "%e s wall, %U s user, %M KB" "$b" run "$probe" >"$out/report" 2>"$out/stderr" || status=$?
		verdict=""
		case $status in
		0) ;;
		1) verdict=", verdict: fail" ;;
		*)
			echo "$b: the run ended with exit status $status; its standard error:" >&2
			cat "$out/stderr" >&2
			exit 1
			;;
		esac
		echo "$b: $(grep ' s wall, ' "$out/time" | tail -1) (round $r, $started$verdict)"
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
