package api

import "encoding/json"

// LifecycleHooks is what the simulation reads of a container's lifecycle
// (Container.Lifecycle, kept opaque): its postStart and preStop hooks,
// nil when absent (or null).
type LifecycleHooks struct {
	PostStart *LifecycleHandler `json:"postStart"`
	PreStop   *LifecycleHandler `json:"preStop"`
}

// LifecycleHandler is one hook: an exec command, a sleep, or an HTTP GET
// or TCP socket, the last two kept opaque.
type LifecycleHandler struct {
	Exec *struct {
		Command []string `json:"command"`
	} `json:"exec"`
	HTTPGet   json.RawMessage `json:"httpGet"`
	TCPSocket json.RawMessage `json:"tcpSocket"`
	Sleep     *struct {
		Seconds int64 `json:"seconds"`
	} `json:"sleep"`
}

// Hooks decodes c's lifecycle hooks; ok is false when c has no lifecycle
// or it does not decode (the API server's validation is where a
// malformed one is refused).
// A container without a lifecycle allocates nothing (the API server's
// validation of a pod does not: TestValidatePodAllocatesNothing).
func (c *Container) Hooks() (LifecycleHooks, bool) {
	if c.Lifecycle == nil || len(*c.Lifecycle) == 0 {
		return LifecycleHooks{}, false
	}
	h := new(LifecycleHooks)
	if json.Unmarshal(*c.Lifecycle, h) != nil {
		return LifecycleHooks{}, false
	}
	return *h, true
}
