package controller_test

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Two controllers run as one process, as kube-controller-manager runs
// its controllers: each member has its own client and actor, but both
// take their ConfigMap informer from the host's factory (one list, one
// watch), and a crash of either is a crash of the process.
func ExampleManager_Host() {
	k := kernel.New(1)
	srv := apiserver.New(k, store.New(k))
	t := client.NewDirect(srv)
	infs := map[string]*informer.Informer{}
	member := func(name string) *controller.Manager {
		return controller.NewManager(k, t, name, "system:serviceaccount:kube-system:"+name, func(m *controller.Manager) error {
			inf, err := m.Informer(api.KindConfigMap, informer.Options{})
			infs[name] = inf
			return err
		})
	}
	process := controller.NewManager(k, t, "kube-controller-manager", "system:kube-controller-manager", nil)
	a, b := member("a"), member("b")
	for _, m := range []*controller.Manager{a, b} {
		if err := process.Host(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := a.Start(); err != nil { // starts the process, and so b
		fmt.Println(err)
		return
	}
	k.Run(kernel.Limits{Until: kernel.Time(time.Second)})
	fmt.Println("one informer:", infs["a"] == infs["b"], "synced:", infs["a"].HasSynced())
	b.Crash() // crashes the process, and so a
	fmt.Println("running:", process.Running(), a.Running(), b.Running())
	// Output:
	// one informer: true synced: true
	// running: false false false
}
