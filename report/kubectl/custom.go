package kubectl

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// customTable is the table of a custom kind, as apiextensions-apiserver's
// tableconvertor serves it: NAME, then the version's
// additionalPrinterColumns (priority above 0: -o wide only), or NAME and
// AGE when it declares none (its default columns,
// pkg/apiserver/customresource_handler.go serveDefaultColumnsIfEmpty).
func customTable(info api.ResourceInfo) table {
	defs := info.Columns
	if len(defs) == 0 {
		defs = []api.PrinterColumn{{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"}}
	}
	columns := []column{{name: "Name"}}
	for _, d := range defs {
		columns = append(columns, column{name: d.Name, wide: d.Priority > 0})
	}
	row := func(o api.Object, now time.Time) []string {
		cells := []string{o.GetObjectMeta().Name}
		var doc any
		if b, err := json.Marshal(o); err == nil {
			_ = json.Unmarshal(b, &doc)
		}
		for _, d := range defs {
			cells = append(cells, columnValue(doc, d, now))
		}
		return cells
	}
	return table{columns: columns, row: row}
}

// columnValue renders one cell: a date as an age, a missing value as an
// empty cell, other values as kubectl prints them.
func columnValue(doc any, d api.PrinterColumn, now time.Time) string {
	v, ok := jsonPath(doc, d.JSONPath)
	if !ok || v == nil {
		return "<none>"
	}
	switch x := v.(type) {
	case string:
		if d.Type == "date" {
			t, err := time.Parse(time.RFC3339, x)
			if err != nil {
				return x
			}
			return since(api.NewTime(t), now)
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// jsonPath follows a simple JSONPath (".spec.replicas",
// ".status.items[0].name"); filters and wildcards find nothing.
func jsonPath(doc any, path string) (any, bool) {
	path = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(path, "{"), "}"), ".")
	cur := doc
	for part := range strings.SplitSeq(path, ".") {
		name, index, hasIndex := strings.Cut(part, "[")
		if name != "" {
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[name]; !ok {
				return nil, false
			}
		}
		if hasIndex {
			i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			a, ok := cur.([]any)
			if err != nil || !ok || i < 0 || i >= len(a) {
				return nil, false
			}
			cur = a[i]
		}
	}
	return cur, true
}
