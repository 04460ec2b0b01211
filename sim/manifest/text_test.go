package manifest

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// readerProblems are yaml.v3's reader errors (readerc.go) for text that
// is not UTF-8 or holds a control character: checkText finds each first.
var readerProblems = []string{
	"control characters are not allowed",
	"invalid leading UTF-8 octet",
	"incomplete UTF-8 octet sequence",
	"invalid trailing UTF-8 octet",
	"invalid length of a UTF-8 sequence",
	"invalid Unicode character",
}

// yamlV3Error parses every document of data with yaml.v3 alone.
func yamlV3Error(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := parse(dec, &n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// FuzzCheckText: checkText refuses only text that yaml.v3 refuses too,
// and refuses all text that yaml.v3's reader refuses (a bad byte or a
// control character), so that the pre-scan changes where such an error
// points and never what loads.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"a: b\n", "a: \x00\n", "a:\r b\x7f", "\xff\xfea\x00:\x00\x01\x00", "\xef\xbb\xbfa: \xc3", "a: \xed\xa0\x80", "k: \u2028\x85x\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mine := checkText("f.yaml", data)
		theirs := yamlV3Error(data)
		if mine != nil && theirs == nil {
			t.Fatalf("checkText refuses text yaml.v3 parses: %v", mine)
		}
		if theirs != nil && mine == nil {
			for _, p := range readerProblems {
				if strings.HasSuffix(theirs.Error(), p) {
					t.Fatalf("yaml.v3 refuses the text (%v), checkText does not", theirs)
				}
			}
		}
	})
}
