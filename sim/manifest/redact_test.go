package manifest

import "testing"

// TestDecodeReferencedRedacts: a referenced file's errors say what was
// expected and what kind of value was found, never the value, where
// DecodeLocated (a file named on the command line) quotes it.
func TestDecodeReferencedRedacts(t *testing.T) {
	for _, tc := range []struct {
		name, src, located, referenced string
	}{
		{"text file", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n",
			`f.yaml:1:1: expected a mapping, got string "root:x:0:0:root:/root:/bin/bash daemon:x:1:1::/usr/sbin:/usr/sbi..."`,
			`f.yaml:1:1: expected a mapping, got a string of 73 bytes`},
		{"string for an integer", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec: {replicas: hunter2}\n",
			`f.yaml:4:18: spec.replicas: expected an integer, got string "hunter2"`,
			`f.yaml:4:18: spec.replicas: expected an integer, got a string of 7 bytes`},
		{"integer for a mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata: 12345\n",
			`f.yaml:3:11: metadata: expected a mapping, got integer 12345`,
			`f.yaml:3:11: metadata: expected a mapping, got an integer`},
		{"overflow", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec: {replicas: 99999999999}\n",
			`f.yaml:4:18: spec.replicas: value 99999999999 overflows int32`,
			`f.yaml:4:18: spec.replicas: value of 11 bytes overflows int32`},
		{"bad integer", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec: {replicas: !!int secret}\n",
			`f.yaml:4:18: spec.replicas: invalid integer "secret"`,
			`f.yaml:4:18: spec.replicas: invalid integer of 6 bytes`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeLocated("f.yaml", []byte(tc.src))
			if err == nil || err.Error() != tc.located {
				t.Errorf("DecodeLocated: %v\nwant %s", err, tc.located)
			}
			_, err = DecodeReferenced("f.yaml", []byte(tc.src))
			if err == nil || err.Error() != tc.referenced {
				t.Errorf("DecodeReferenced: %v\nwant %s", err, tc.referenced)
			}
		})
	}
}
