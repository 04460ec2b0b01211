package serve

import (
	"strconv"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// tableData is a meta.k8s.io/v1 Table: kubectl's printer columns of a
// kind and one row per object, computed at the virtual time of the
// response (ages are virtual).
type tableData struct {
	cols    []kubectl.Column
	rows    [][]string
	objs    []api.Object
	rv      string
	scale   bool   // the rows are the objects' Scales
	include string // includeObject: "Object", "None", else metadata only
}

// tableOf returns the columns and row function of a kind: kubectl's
// printer, else NAME and AGE (the server's default table).
func tableOf(info api.ResourceInfo) kubectl.Table {
	if t, ok := kubectl.TableOf(info.Kind, &info); ok {
		return t
	}
	return kubectl.Table{Columns: []kubectl.Column{{Name: "Name"}, {Name: "Age"}},
		Row: func(o api.Object, now time.Time) []string {
			m := o.GetObjectMeta()
			return []string{m.Name, kubectl.HumanDuration(now.Sub(m.CreationTimestamp.Time))}
		}}
}

// scaleTable is the table of an autoscaling/v1 Scale, made from the
// object whose scale subresource it is (k/k's printScale): its name, the
// desired and the current replicas, its age.
var scaleTable = kubectl.Table{Columns: []kubectl.Column{{Name: "Name"}, {Name: "Desired"}, {Name: "Available"}, {Name: "Age"}},
	Row: func(o api.Object, now time.Time) []string {
		spec, status, _ := replicasOf(o)
		m := o.GetObjectMeta()
		return []string{m.Name, strconv.Itoa(int(spec)), strconv.Itoa(int(status)), kubectl.HumanDuration(now.Sub(m.CreationTimestamp.Time))}
	}}

// newTable prints a get's object or a list's items at now; subresource
// "scale" prints the object's Scale, any other the object.
func newTable(info api.ResourceInfo, subresource string, resp *apiserver.Response, now time.Time, include string) *tableData {
	t := tableOf(info)
	if subresource == "scale" {
		t = scaleTable
	}
	td := &tableData{cols: t.Columns, include: include}
	objs := resp.Items
	if resp.Object != nil {
		objs = []api.Object{resp.Object}
		td.rv = resp.Object.GetObjectMeta().ResourceVersion
	} else {
		td.rv = strconv.FormatUint(resp.ResourceVersion, 10)
	}
	for _, o := range objs {
		td.rows = append(td.rows, t.Row(o, now))
		td.objs = append(td.objs, o)
	}
	td.scale = subresource == "scale"
	return td
}

// json is the Table's wire form.
func (td *tableData) json() map[string]any {
	cols := make([]map[string]any, len(td.cols))
	for i, c := range td.cols {
		col := map[string]any{"name": c.Name, "type": "string", "format": "", "description": "", "priority": 0}
		if i == 0 && c.Name == "Name" {
			col["format"] = "name"
		}
		if c.Wide {
			col["priority"] = 1
		}
		cols[i] = col
	}
	rows := make([]map[string]any, len(td.rows))
	for i, cells := range td.rows {
		cs := make([]any, len(cells))
		for j, c := range cells {
			cs[j] = c
		}
		row := map[string]any{"cells": cs}
		switch {
		case td.include == "None":
		case td.include == "Object" && td.scale:
			row["object"] = scaleOf(td.objs[i])
		case td.include == "Object":
			row["object"] = td.objs[i]
		case td.scale:
			row["object"] = map[string]any{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": scaleMeta(td.objs[i])}
		default:
			row["object"] = map[string]any{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": td.objs[i].GetObjectMeta()}
		}
		rows[i] = row
	}
	return map[string]any{"kind": "Table", "apiVersion": "meta.k8s.io/v1",
		"metadata": map[string]any{"resourceVersion": td.rv}, "columnDefinitions": cols, "rows": rows}
}
