package informer

import "github.com/clustersim/clustersim/sim/api"

// Handler is told of changes to an informer's cache (client-go's
// ResourceEventHandler). Its methods run on the event loop or inside
// whichever process caused the change; they must not block and must not
// mutate the objects they are given. Typically they only enqueue keys.
type Handler interface {
	// OnAdd is called for an object new to the cache.
	OnAdd(obj api.Object)
	// OnUpdate is called for an object that changed, and at each resync
	// (and for objects present again in a relist) with old == new.
	OnUpdate(old, new api.Object)
	// OnDelete is called with the last known state of an object that left
	// the cache: deleted, or no longer matching the informer's options.
	OnDelete(obj api.Object)
}

// HandlerFuncs adapts functions to Handler; nil functions are skipped.
type HandlerFuncs struct {
	// AddFunc handles OnAdd.
	AddFunc func(obj api.Object)
	// UpdateFunc handles OnUpdate.
	UpdateFunc func(old, new api.Object)
	// DeleteFunc handles OnDelete.
	DeleteFunc func(obj api.Object)
}

// OnAdd calls AddFunc if set.
func (f HandlerFuncs) OnAdd(obj api.Object) {
	if f.AddFunc != nil {
		f.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if set.
func (f HandlerFuncs) OnUpdate(old, new api.Object) {
	if f.UpdateFunc != nil {
		f.UpdateFunc(old, new)
	}
}

// OnDelete calls DeleteFunc if set.
func (f HandlerFuncs) OnDelete(obj api.Object) {
	if f.DeleteFunc != nil {
		f.DeleteFunc(obj)
	}
}
