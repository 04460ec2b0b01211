# timed-run.sh: what docs/alternate.sh and docs/scale-ratio.sh share,
# sourced by both (bash, set -euo pipefail). SCRIPT names the script in
# what they say.

# need_time exits 2 unless /usr/bin/time is there.
need_time() {
	if [[ ! -x /usr/bin/time ]]; then
		echo "$SCRIPT: needs /usr/bin/time (Debian: apt-get install -y time)" >&2
		exit 2
	fi
}

# need_executable BIN... exits 2 unless every BIN is an executable.
need_executable() {
	local b
	for b in "$@"; do
		if [[ ! -x "$b" ]]; then
			echo "$SCRIPT: \"$b\" is not an executable" >&2
			exit 2
		fi
	done
}

# timed_run WHAT BIN PROBE DIR runs `BIN run PROBE` under /usr/bin/time,
# its report to DIR/report and its standard error to DIR/stderr, and
# sets started (the clock time it began), wall and user (seconds), kb
# (the peak resident set) and status: 0, or 1, which is clustersim's
# verdict (an expectation failed), the run itself whole and its time as
# good as any. Any other status (2: the probe refused; a crash) ends the
# script with exit 1, saying "WHAT ended with exit status S" and the
# run's standard error.
timed_run() {
	local what=$1 bin=$2 probe=$3 dir=$4
	started=$(date +%H:%M:%S)
	status=0
	/usr/bin/time -o "$dir/time" -f "%e %U %M" "$bin" run "$probe" >"$dir/report" 2>"$dir/stderr" || status=$?
	if [[ $status -ne 0 && $status -ne 1 ]]; then
		echo "$what ended with exit status $status; its standard error:" >&2
		cat "$dir/stderr" >&2
		exit 1
	fi
	# A non-zero status puts a line of its own before the format's.
	read -r wall user kb < <(tail -1 "$dir/time")
}
