package kubectl

import (
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Column is one column of the table kubectl prints for a kind, as the API
// server's table convertor declares it (metav1.TableColumnDefinition):
// its name as served ("Name", "Ready"; kubectl upper-cases it) and whether
// it is an -o wide column (priority 1).
type Column struct {
	Name string
	Wide bool
}

// Table is the server-side printing of one kind: its columns and the
// cells of one object's row at a time (every cell a string, as kubectl
// prints it).
type Table struct {
	Columns []Column
	Row     func(o api.Object, now time.Time) []string
}

// TableOf returns the table of kind: kubectl's own printer columns for the
// built-in kinds, a custom kind's additionalPrinterColumns (custom must
// describe it). ok is false for a kind with no table (clients then print
// NAME and AGE).
func TableOf(kind api.Kind, custom *api.ResourceInfo) (t Table, ok bool) {
	tbl, ok := tables[kind]
	if !ok && custom != nil && custom.Kind == kind && custom.Custom {
		tbl, ok = customTable(*custom), true
	}
	if !ok {
		return Table{}, false
	}
	cols := make([]Column, len(tbl.columns))
	for i, c := range tbl.columns {
		cols[i] = Column{Name: c.name, Wide: c.wide}
	}
	return Table{Columns: cols, Row: tbl.row}, true
}
