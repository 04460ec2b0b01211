package manifest

import (
	"testing"
)

// roundTripCases hold the values most likely to be mangled by a YAML or
// JSON round trip. They also seed FuzzDecode.
var roundTripCases = []struct{ name, src string }{
	{"awkward strings", `apiVersion: v1
kind: ConfigMap
metadata: {name: s}
data:
  lead: "  two leading spaces"
  trail: "trailing space "
  hash: "# not a comment"
  colon: "key: value"
  dash: "- item"
  tab: "a\tb"
  ctl: "bell\a nul\0 esc\e"
  nel: "next\x85line"
  ls: "line\u2028sep"
  bom: "\ufeffbom"
  uni: "héllo wörld ✓ 日本"
  emoji: "🚀"
  quote: "it's \"quoted\""
  backslash: 'C:\path\to'
  block: |2
      indented first line
    less indented
  folded: >
    folded
    text

    paragraph
  keep: |+
    keep trailing

  strip: |-
    strip trailing
  empty_lines: "\n\n\n"
  spaces_only: "   "
  star: "*alias"
  amp: "&anchor"
  bang: "!tag"
  pct: "%directive"
  at: "@at"
  backtick: "` + "`" + `tick"
  brace: "{a: 1}"
  bracket: "[1, 2]"
  tilde: "~"
  null_word: "null"
  num: "1e3"
  oct: "0o17"
  hex: "0x1F"
  legacy_octal: "0755"
  sexagesimal: "1:20"
  date: "2024-01-01"
  inf: ".inf"
  yes: "yes"
  "1": numeric key
  "true": bool key
  "": empty key
`},
	{"numbers in opaque values", `apiVersion: v1
kind: Pod
metadata: {name: n}
spec:
  securityContext:
    runAsUser: 1_000
    fsGroup: 0x10
    a: 1e3
    b: -0
    c: .5
    d: +12
    e: 0o17
    f: 1.0
    g: 12345678901234567890
    h: -9223372036854775808
    i: 0755
    j: 1.5e-7
    k: null
    l: [true, false, ~, {}, []]
`},
	{"quantities", `apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec:
  hard:
    pods: 2
    cpu: 0.5
    memory: 1e3
    a: 1.5Gi
    b: 100m
    c: "2"
    d: 129e6
    e: +1
    f: 1Ki
    g: 0
`},
	{"int or string", `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 0, maxUnavailable: "0"}
`},
	{"times", `apiVersion: v1
kind: Pod
metadata:
  name: t
  creationTimestamp: 2024-01-01T10:00:00Z
  deletionTimestamp: "2024-01-01T10:00:00+02:00"
  managedFields:
  - manager: kubectl
    operation: Update
    time: "2024-01-01T10:00:00Z"
status:
  startTime: 2024-02-29T23:59:59Z
`},
	{"micro times", `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: l}
spec:
  acquireTime: "2024-05-01T10:00:00.000001Z"
  renewTime: 2024-05-01T10:00:00.5Z
`},
	{"binary data", `apiVersion: v1
kind: ConfigMap
metadata: {name: b}
binaryData:
  a: aGVsbG8=
  b: !!binary |
    aGVs
    bG8=
  e: ""
`},
	{"anchors and merges", `apiVersion: v1
kind: List
items:
- &base
  apiVersion: v1
  kind: ConfigMap
  metadata: &meta {name: a, labels: {x: "1"}}
  data: &data {k: v}
- <<: *base
  metadata: {<<: *meta, name: b}
  data: {<<: *data, k2: v2}
`},
}

// TestRoundTrip feeds roundTripCases through Decode, Encode and Decode
// again, and checks that no field was lost or invented on the way.
func TestRoundTrip(t *testing.T) {
	for _, tt := range roundTripCases {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Decode("in.yaml", []byte(tt.src))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			enc, err := Encode(objs...)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			again, err := Decode("out.yaml", enc)
			if err != nil {
				t.Fatalf("Decode(Encode(x)): %v\n%s", err, enc)
			}
			if d := firstDiff(objs, again); d != "" {
				t.Errorf("Decode(Encode(x)) differs: %s\n%s", d, enc)
			}
			compareTrees(t, genericDocs(t, "in.yaml", []byte(tt.src)), genericDocs(t, "out.yaml", enc))
		})
	}
}
