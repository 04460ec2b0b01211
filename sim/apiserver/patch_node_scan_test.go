package apiserver

import (
	"reflect"
	"testing"
)

// TestScanConditionsPatch holds scanConditionsPatch to decodeConditionsPatch,
// the decoding through maps it stands in for: what it reads it reads as
// decoding does (the same patch, field for field), and what it declines
// is left to decoding whatever decoding makes of it (taken or refused).
// Each row says whether the scanner reads it and whether decoding takes
// it.
func TestScanConditionsPatch(t *testing.T) {
	heartbeat := `{"status":{"$setElementOrder/conditions":[{"type":"MemoryPressure"},{"type":"DiskPressure"},{"type":"PIDPressure"},{"type":"Ready"}],` +
		`"conditions":[{"type":"MemoryPressure","lastHeartbeatTime":"2026-01-01T00:05:00Z"},{"type":"Ready","lastHeartbeatTime":"2026-01-01T00:05:00Z"}]}}`
	for _, tc := range []struct {
		name          string
		patch         string
		scans, decode bool
	}{
		{"a kubelet's heartbeat", heartbeat, true, true},
		{"every field, a deletion", `{"status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status.","lastHeartbeatTime":"2026-01-01T00:05:00Z","lastTransitionTime":"2026-01-01T00:06:00Z"},{"type":"X","$patch":"delete"}]}}`, true, true},
		{"white space everywhere", " {\n\t\"status\" : { \"conditions\" : [ { \"type\" : \"Ready\" , \"status\" : \"False\" } ] } }\r\n", true, true},
		{"an empty status", `{"status":{}}`, true, true},
		{"empty lists", `{"status":{"conditions":[],"$setElementOrder/conditions":[]}}`, true, true},
		{"the element order alone", `{"status":{"$setElementOrder/conditions":[{"type":"Ready"},{"type":"MemoryPressure"}]}}`, true, true},
		{"a type of its own, valid UTF-8", `{"status":{"conditions":[{"type":"Prêt","message":"très bien ✓"}]}}`, true, true},
		{"an escape", `{"status":{"conditions":[{"type":"Ready","message":"a \"quoted\" word"}]}}`, false, true},
		{"an escaped key", `{"status":{"conditions":[{"typ\u0065":"Ready"}]}}`, false, true},
		{"invalid UTF-8 (decoding replaces it)", "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"message\":\"\xff\"}]}}", false, true},
		{"a key twice in a condition (decoding keeps the last)", `{"status":{"conditions":[{"type":"Ready","status":"True","status":"False"}]}}`, false, true},
		{"conditions twice", `{"status":{"conditions":[{"type":"A"}],"conditions":[{"type":"B"}]}}`, false, true},
		{"status twice", `{"status":{},"status":{"conditions":[{"type":"B"}]}}`, false, true},
		{"a key in another case", `{"status":{"conditions":[{"Type":"Ready"}]}}`, false, false},
		{"an unknown key", `{"status":{"conditions":[{"type":"Ready","probeTime":"2026-01-01T00:00:00Z"}]}}`, false, false},
		{"another status field", `{"status":{"phase":"Running"}}`, false, false},
		{"a null", `{"status":{"conditions":[{"type":"Ready","reason":null}]}}`, false, false},
		{"a number", `{"status":{"conditions":[{"type":"Ready","status":1}]}}`, false, false},
		{"no type", `{"status":{"conditions":[{"status":"True"}]}}`, false, false},
		{"an empty element", `{"status":{"conditions":[{}]}}`, false, false},
		{"a patch that keeps", `{"status":{"conditions":[{"type":"Ready","$patch":"merge"}]}}`, false, false},
		{"more than the type in the order", `{"status":{"$setElementOrder/conditions":[{"type":"Ready","status":"True"}]}}`, false, false},
		{"a bad time", `{"status":{"conditions":[{"type":"Ready","lastHeartbeatTime":"yesterday"}]}}`, false, false},
		{"something after the patch", `{"status":{}} {}`, false, false},
		{"a missing comma", `{"status":{"conditions":[{"type":"Ready" "status":"True"}]}}`, false, false},
		{"a missing comma between lists", `{"status":{"conditions":[] "$setElementOrder/conditions":[]}}`, false, false},
		{"a missing comma between conditions", `{"status":{"conditions":[{"type":"A"} {"type":"B"}]}}`, false, false},
		{"a trailing comma", `{"status":{"conditions":[{"type":"Ready"},]}}`, false, false},
		{"cut short", `{"status":{"conditions":[{"type":"Ready"`, false, false},
		{"a form feed, which is not JSON's white space", "{\"status\":\f{}}", false, false},
		{"a control character in a string", "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"message\":\"a\tb\"}]}}", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scanned, scans := scanConditionsPatch([]byte(tc.patch))
			decoded, decodes := decodeConditionsPatch([]byte(tc.patch))
			if scans != tc.scans || decodes != tc.decode {
				t.Fatalf("scanned %v, decoded %v; want %v and %v", scans, decodes, tc.scans, tc.decode)
			}
			if scans && !reflect.DeepEqual(scanned, decoded) {
				t.Fatalf("scanned\n%s\ndecoded\n%s", mustJSON(t, scanned), mustJSON(t, decoded))
			}
			parsed, parses := parseConditionsPatch([]byte(tc.patch))
			if parses != decodes || !reflect.DeepEqual(parsed, decoded) {
				t.Fatalf("parsed %v %s, decoded %v %s", parses, mustJSON(t, parsed), decodes, mustJSON(t, decoded))
			}
		})
	}
}

// FuzzScanConditionsPatch feeds arbitrary bytes to scanConditionsPatch.
// Beyond not panicking it checks that whatever the scanner reads,
// decoding through maps takes too and makes the same patch of: the
// scanner may leave any patch to decoding, never read one otherwise.
func FuzzScanConditionsPatch(f *testing.F) {
	for _, seed := range []string{
		`{"status":{"$setElementOrder/conditions":[{"type":"Ready"}],"conditions":[{"type":"Ready","lastHeartbeatTime":"2026-01-01T00:05:00Z"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown","message":"m"},{"type":"X","$patch":"delete"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","status":"True","status":"False"}]}}`,
		`{"status":{}}`,
		` { "status" : { "conditions" : [ ] } } `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, patch []byte) {
		scanned, ok := scanConditionsPatch(patch)
		if !ok {
			return
		}
		decoded, decodes := decodeConditionsPatch(patch)
		if !decodes {
			t.Fatalf("patch %q: scanned, decoding refuses it", patch)
		}
		if !reflect.DeepEqual(scanned, decoded) {
			t.Fatalf("patch %q:\nscanned %s\ndecoded %s", patch, mustJSON(t, scanned), mustJSON(t, decoded))
		}
	})
}
