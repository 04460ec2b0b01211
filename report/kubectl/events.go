package kubectl

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// EventsOption narrows what Events says of an empty list or adds the
// NAMESPACE column.
type EventsOption func(*eventsOptions)

type eventsOptions struct {
	namespace string
	all       bool
}

// EventsInNamespace names the namespace listed, for "No events found in
// <namespace> namespace." (default "default").
func EventsInNamespace(ns string) EventsOption {
	return func(o *eventsOptions) { o.namespace = ns }
}

// EventsAllNamespaces is `kubectl events -A`: a NAMESPACE column, and "No
// events found." for an empty list.
func EventsAllNamespaces() EventsOption {
	return func(o *eventsOptions) { o.all = true }
}

// Events prints events as `kubectl events` does at now: sorted by time
// (oldest first), columns LAST SEEN, TYPE, REASON, OBJECT (Kind/name) and
// MESSAGE, repeated events as "5s (x3 over 2m)". An empty list prints "No
// events found in default namespace.".
func Events(w io.Writer, events []*api.Event, now time.Time, opts ...EventsOption) error {
	o := eventsOptions{namespace: "default"}
	for _, f := range opts {
		f(&o)
	}
	list := make([]*api.Event, 0, len(events))
	for _, e := range events {
		if e != nil {
			list = append(list, e)
		}
	}
	if len(list) == 0 {
		msg := fmt.Sprintf("No events found in %s namespace.\n", o.namespace)
		if o.all {
			msg = "No events found.\n"
		}
		_, err := io.WriteString(w, msg)
		return err
	}
	sortEvents(list)
	tw := newTableWriter(w)
	if o.all {
		fmt.Fprint(tw, "NAMESPACE\t")
	}
	fmt.Fprint(tw, "LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n")
	for _, e := range list {
		if o.all {
			fmt.Fprintf(tw, "%s\t", e.Namespace)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s/%s\t%s\n", eventInterval(e, now), cell(e.Type), cell(e.Reason),
			cell(e.InvolvedObject.Kind), cell(e.InvolvedObject.Name), cell(strings.TrimSpace(e.Message)))
	}
	return tw.Flush()
}

// sortEvents orders events oldest first by eventTime, stably.
func sortEvents(list []*api.Event) {
	slices.SortStableFunc(list, func(a, b *api.Event) int { return eventTime(a).Compare(eventTime(b)) })
}

// eventInterval is the age cell of kubectl events and describe: the first
// occurrence's age, or "<last> (x<count> over <first>)" for a repeated
// event.
func eventInterval(e *api.Event, now time.Time) string {
	first := sinceMicro(e.EventTime, now)
	if e.EventTime.IsZero() {
		first = since(e.FirstTimestamp, now)
	}
	switch {
	case e.Series != nil:
		return fmt.Sprintf("%s (x%d over %s)", sinceMicro(e.Series.LastObservedTime, now), e.Series.Count, first)
	case e.Count > 1:
		return fmt.Sprintf("%s (x%d over %s)", since(e.LastTimestamp, now), e.Count, first)
	}
	return first
}
