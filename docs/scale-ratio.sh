#!/usr/bin/env bash
# scale-ratio.sh: how many times longer the scale probe takes at 3,000
# nodes than at 300, the figure issue 11 holds to at most 12, measured
# the way docs/PERFORMANCE.md measures it.
#
#   bash docs/scale-ratio.sh [-n ROUNDS] [-max RATIO] BINARY [SMALL LARGE]
#
# Generates the probe at SMALL (default 300) and LARGE (default 3000)
# nodes with BINARY (`generate scale --nodes N --qps 200 --burst 300
# --scheduler-qps 300 --scheduler-burst 400`, every pod running within
# the hour), then runs, ROUNDS times (default 3), the small probe twice
# and the large one once, each timed with /usr/bin/time. A round's ratio
# is its large run's wall time over the mean of its two small runs: runs
# of one binary on this project's 2-core machines differ by 10 to 30%
# from one minute to the next, so only runs taken side by side compare.
# It prints one line a run and one a round, then the rounds' ratios in
# order, their median and how many are at most RATIO (default 12), and
# checks that every run of a size printed the same report. Exit status:
# 0 when every run completed and the reports agree (whatever the ratios),
# 1 when a report differs or a run failed, 2 for bad arguments.
#
# `make scale-ratio` builds the binary and runs this.
set -euo pipefail
SCRIPT=scale-ratio.sh
source "$(dirname "${BASH_SOURCE[0]}")/timed-run.sh"

usage() {
	echo "usage: bash docs/scale-ratio.sh [-n ROUNDS] [-max RATIO] BINARY [SMALL LARGE]" >&2
	exit 2
}

rounds=3
max=12
while [[ $# -gt 0 ]]; do
	case "$1" in
	-n)
		[[ $# -ge 2 ]] || usage
		rounds=$2
		shift 2
		;;
	-max)
		[[ $# -ge 2 ]] || usage
		max=$2
		shift 2
		;;
	-*) usage ;;
	*) break ;;
	esac
done
if [[ $# -ne 1 && $# -ne 3 ]]; then
	usage
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
	echo "scale-ratio.sh: -n wants a positive number of rounds, got \"$rounds\"" >&2
	exit 2
fi
if ! [[ "$max" =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
	echo "scale-ratio.sh: -max wants a positive number, got \"$max\"" >&2
	exit 2
fi
bin=$1
small=${2:-300}
large=${3:-3000}
for n in "$small" "$large"; do
	if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
		echo "scale-ratio.sh: a size is a positive number of nodes, got \"$n\"" >&2
		exit 2
	fi
done
need_executable "$bin"
need_time

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for n in "$small" "$large"; do
	if ! "$bin" generate scale --nodes "$n" --qps 200 --burst 300 --scheduler-qps 300 --scheduler-burst 400 >"$out/probe-$n.yaml" 2>"$out/stderr"; then
		echo "scale-ratio.sh: $bin generate scale --nodes $n failed:" >&2
		cat "$out/stderr" >&2
		exit 1
	fi
done

# run N runs the N-node probe once, prints its line and sets wall to
# its wall seconds; it checks the report against the first of that size.
run() {
	local n=$1
	timed_run "scale-ratio.sh: the $n-node run" "$bin" "$out/probe-$n.yaml" "$out"
	echo "$n nodes: $wall s wall, $user s user, $kb KB (round $r, $started)"
	if [[ ! -e "$out/first-$n" ]]; then
		mv "$out/report" "$out/first-$n"
	elif ! cmp -s "$out/first-$n" "$out/report"; then
		echo "scale-ratio.sh: the $n-node report of round $r differs from round 1's" >&2
		exit 1
	fi
}

ratios=()
for ((r = 1; r <= rounds; r++)); do
	run "$small"
	a1=$wall
	run "$small"
	a2=$wall
	run "$large"
	if awk -v a="$a1" -v b="$a2" 'BEGIN { exit !(a + b > 0) }'; then
		ratio=$(awk -v l="$wall" -v a="$a1" -v b="$a2" 'BEGIN { printf "%.2f", l / ((a + b) / 2) }')
	else
		echo "scale-ratio.sh: the $small-node runs of round $r took 0 s by /usr/bin/time: too short to compare" >&2
		exit 1
	fi
	ratios+=("$ratio")
	echo "round $r: $large nodes $wall s over the mean of $a1 and $a2 s: $ratio times"
done
printf '%s\n' "${ratios[@]}" | sort -g >"$out/sorted"
median=$(awk '{ v[NR] = $1 } END { if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$out/sorted")
within=$(awk -v m="$max" '$1 <= m { k++ } END { print k + 0 }' "$out/sorted")
echo "ratios: ${ratios[*]}; median $median; at most $max in $within of $rounds rounds"
