#!/usr/bin/env bash
# loop-groups.sh: the event loop's CPU samples by group, the way
# docs/PERFORMANCE.md's forty-sixth pass took the 3,000-node run's excess
# apart.
#
#   go tool pprof -top -focus 'Kernel\).Run$|corostart' -nodecount=100000 \
#       -nodefraction=0 -unit=ms bin/clustersim PROFILE | bash docs/loop-groups.sh RUNS
#
# PROFILE is one CPU profile (CLUSTERSIM_CPUPROFILE) or several merged
# (`go tool pprof -proto A B ... > merged`), RUNS how many runs it holds.
# It prints, per run and in ms: the loop's flat samples in all, the
# scheduler's cumulative samples (`(*scheduler).Reconcile`), and the flat
# samples of three groups of functions, each function counted in the
# first group whose pattern its name matches (so that a function two
# patterns match, internal/runtime/maps.typedmemmove say, counts once):
#
#   hash maps   runtime.map*, the swiss tables (internal/runtime/maps), the
#               keys' hash and equality functions
#   collector   the write barriers, the copies they guard and the marking
#               the loop's thread does
#   allocation  mallocgc and its spans, their clearing and sweeping
set -euo pipefail

if [[ $# -ne 1 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
	echo "usage: go tool pprof -top ... -unit=ms BIN PROFILE | bash docs/loop-groups.sh RUNS" >&2
	exit 2
fi

awk -v runs="$1" '
function ms(v) { sub(/ms$/, "", v); return v + 0 }
# A listing line: flat, flat%, sum%, cum, cum%, the function.
$2 ~ /%$/ && $3 ~ /%$/ && $5 ~ /%$/ && NF >= 6 {
	name = $6
	for (i = 7; i <= NF; i++) name = name " " $i
	sub(/ \((partial-)?inline\)$/, "", name)
	flat = ms($1)
	loop += flat
	if (name ~ /^runtime\.map|internal\/runtime\/maps|aeshash|memeqbody|^type:\.(eq|hash)|strhash|memhash|interhash|memequal/)
		maps += flat
	else if (name ~ /bulkBarrierPreWrite|wbBuf|gcWriteBarrier|wbMove|typedmemmove|findObject|tryDeferToSpanScan|greyobject|markBits|spanOf/)
		gc += flat
	else if (name ~ /mallocgc|mspan|mcache|mcentral|memclrNoHeap|heapBits|nextFreeFast|refill|sweep/)
		alloc += flat
	if (name ~ /scheduler\.\(\*scheduler\)\.Reconcile$/)
		sched = ms($4)
	lines++
}
END {
	if (lines == 0) {
		print "loop-groups.sh: no pprof -top listing on standard input" > "/dev/stderr"
		exit 1
	}
	printf "loop        %.0f\n", loop / runs
	printf "scheduler   %.0f\n", sched / runs
	printf "hash maps   %.0f\n", maps / runs
	printf "collector   %.0f\n", gc / runs
	printf "allocation  %.0f\n", alloc / runs
}'
