#!/usr/bin/env bash
# fma-check.sh: no function of this module's own code has a fused
# multiply-add.
#
#   bash docs/fma-check.sh        (make fma-check; CI runs it)
#
# The Go specification lets a compiler fuse x*y + z into one instruction
# that rounds once instead of twice, and Go's compiler does so on arm64
# always and on amd64 when it may use FMA (GOAMD64=v3, which the
# Makefile builds with on processors that have it). A fused result can
# differ from the unfused one in its last bit, and a simulation whose
# arithmetic decides when a message lands, how far a load ramp has gone
# or which node scores higher would then not be byte for byte the same
# on every machine. An explicit conversion, float64(x*y) + z, rounds the
# product and keeps the two operations apart (the specification's own
# remedy), so that every build computes what an amd64 build without FMA
# computes.
#
# The check builds clustersim for arm64 (where the disassembler names
# the fused instructions; a cross-compile needs no arm64 machine) and
# lists each function of github.com/clustersim/clustersim holding one,
# with the source line it came from. It exits 1 when it finds any, 0
# when it finds none, 2 when the build or the disassembly fails.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! GOOS=linux GOARCH=arm64 "$GO" build -o "$tmp/clustersim" ./cmd/clustersim; then
	echo "fma-check: the arm64 build failed" >&2
	exit 2
fi
if ! "$GO" tool objdump "$tmp/clustersim" >"$tmp/dump"; then
	echo "fma-check: go tool objdump failed" >&2
	exit 2
fi
# The disassembly must hold some fused instruction (the standard library
# and gonum have them): none at all would mean the names below no longer
# match what objdump prints, and the check would pass for nothing.
fused='(FMADD|FMSUB|FNMADD|FNMSUB)[SD]|VFML[AS]'
if ! grep -Eq "[[:space:]]($fused)[[:space:]]" "$tmp/dump"; then
	echo "fma-check: the disassembly names no fused multiply-add at all; the check no longer recognises them" >&2
	exit 2
fi
# Each fused instruction's address goes to addr2line, which names the
# source file it came from in full: a file of this module's is its own
# code (wherever it was inlined); any other is a dependency's function
# inlined into one of clustersim's (gonum/plot's canvas arithmetic in the
# charts), listed but not held against the module, whose source cannot
# round it apart.
awk -v fused="^($fused)\$" '
/^TEXT / { fn = $2; next }
fn ~ /^github\.com\/clustersim\/clustersim\// {
	for (i = 3; i <= NF; i++) {
		if ($i ~ fused) { print $2 "\t" fn; break }
	}
}
' "$tmp/dump" >"$tmp/hits"
root=$(pwd -P)
: >"$tmp/found"
if [[ -s $tmp/hits ]]; then
	cut -f1 "$tmp/hits" | "$GO" tool addr2line "$tmp/clustersim" | paste - - >"$tmp/lines"
	paste "$tmp/hits" "$tmp/lines" | awk -F '\t' -v root="$root/" '{
		where = $4
		if (index(where, root) == 1) { print "own\t" $2 "\t" substr(where, length(root) + 1) }
		else { print "inlined\t" $2 "\t" where }
	}' | sort -u >"$tmp/found"
fi
if grep -q '^inlined' "$tmp/found"; then
	echo "fma-check: fused multiply-adds of dependencies' code inlined into clustersim's (function, source line), not counted:"
	grep '^inlined' "$tmp/found" | cut -f2-
fi
if grep -q '^own' "$tmp/found"; then
	echo "fma-check: fused multiply-adds in clustersim's code (function, source line); write float64(x*y) + z:" >&2
	grep '^own' "$tmp/found" | cut -f2- >&2
	exit 1
fi
echo "fma-check: no fused multiply-add in clustersim's code"
