package scenarios

import (
	"bytes"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/manifest"
)

// IsScenario reports whether a YAML file declares kind: Scenario at its
// top level, as the loader reads it. A line "kind: Scenario" is enough; a
// file that may spell it otherwise (quoted, with a comment, in flow style,
// with CR line endings, in UTF-16 with a byte order mark) is parsed as the
// loader parses it, so that a command choosing between a scenario and
// manifests (clustersim validate) takes as a scenario every file a run
// would run.
func IsScenario(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if bytes.Equal(bytes.TrimSpace(line), []byte("kind: Scenario")) && !bytes.HasPrefix(line, []byte(" ")) {
			return true
		}
	}
	utf16 := bytes.HasPrefix(data, []byte{0xfe, 0xff}) || bytes.HasPrefix(data, []byte{0xff, 0xfe})
	if !utf16 && !bytes.Contains(data, []byte("Scenario")) {
		return false
	}
	// A syntax error after the first document is the loader's to report.
	docs, _ := manifest.Documents("", data)
	if len(docs) == 0 || docs[0].Kind != yaml.MappingNode {
		return false
	}
	m := docs[0].Content
	for i := 0; i+1 < len(m); i += 2 {
		if m[i].Value == "kind" {
			return m[i+1].Kind == yaml.ScalarNode && m[i+1].Value == "Scenario"
		}
	}
	return false
}
