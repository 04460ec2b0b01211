# clustersim: `make run` runs the default built-in scenario, `make test` runs
# every check CI runs. Targets are listed by `make help`.

GO       ?= go
BIN      := bin/clustersim
PKGS     := ./...
FUZZTIME ?= 10s

# GOAMD64: on an amd64 processor with the x86-64-v3 instructions (AVX2,
# BMI2, FMA; Intel's since 2013, AMD's since 2015) every build and test
# is compiled for them, 6 to 10% less processor time at 5,000 nodes
# (docs/PERFORMANCE.md, fifty-fourth pass); on any other processor, or
# with GOAMD64 set, Go's default. Whether this one has them: a program
# built for v3 (docs/amd64v3.go) starts, as Go's runtime refuses to start
# one on a processor without them (some 5 s to build the first time,
# with an empty build cache; 0.05 s after).
# The results are the same either way: no expression of this module's
# is fused into a multiply-add, which v3 allows (make fma-check).
ifeq ($(origin GOAMD64),undefined)
ifeq ($(shell $(GO) env GOARCH),amd64)
GOAMD64 := $(shell GOAMD64=v3 $(GO) run docs/amd64v3.go >/dev/null 2>&1 && echo v3 || echo v1)
export GOAMD64
endif
endif

.PHONY: help build run test race vet fmt-check fma-check lint bench bench-sweep bench-scale compare-scale scale-ratio verify-replicaset fuzz update tidy-check clean lessons lessons-check outside soak adapter

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | sort

build: ## build bin/clustersim
	$(GO) build -o $(BIN) ./cmd/clustersim

run: build ## run the default built-in scenario
	./$(BIN) run

# go vet ./... has just run every analyzer go test's own vet step runs (and
# more), so the tests run with -vet=off: that step would only type-check
# each package a second time (some 8 s of a fresh clone's make test).
# -parallel 4: most of cmd/clustersim's parallel tests wait on kubectl,
# Chromium or a served cluster's clock rather than compute (its tests take
# 43 s so against 50 s two at a time).
test: vet fmt-check outside ## go vet, gofmt check, then every test
	$(GO) test -count=1 -vet=off -parallel 4 $(PKGS)

# The race detector compiles the packages it covers a second time, with
# their instrumentation (some 30 s of a fresh clone's build): a target of its
# own, which .ci/run runs after make test, keeps make test within two minutes.
race: ## the tests of the kernel, the store and the runtime (client, informer, work queue, controller, cluster) under the race detector, and the report's analysis read in parts side by side
	$(GO) test -count=1 -race ./sim/kernel/ ./sim/store/ ./sim/workqueue/ ./sim/client/ ./sim/informer/ ./sim/controller/ ./sim/cluster/
	$(GO) test -count=1 -race -run '^(TestFlapsAndFightsInParts|TestSegmentsMatchReference)$$' ./report/measure/

# go test ./... skips nested modules: the outside module (its own go.mod,
# requiring this one through a replace directive) is built and tested on its
# own, as an operator's repository would be.
outside: ## vet and test examples/outside, a module outside this one that registers its controller through package harness
	cd examples/outside && $(GO) vet ./... && $(GO) test -count=1 -vet=off ./...

# The controller-runtime adapter is a nested module too (crt/, whose
# go.mod holds the Kubernetes modules the core module does without). Its
# first build downloads and compiles some 70 modules (about a minute) and
# its tests run a 500-seed swarm, more than make test's two-minute budget
# allows, so it is a target of its own that .ci/run runs after make test.
# crt/servetest builds bin/clustersim's source into a temporary directory
# and points client-go's clients and a controller-runtime manager at
# clustersim serve (a missing or unbuildable binary fails it).
adapter: ## vet and test crt/: the controller-runtime adapter and its example operator (a 500-seed swarm), and real client-go and controller-runtime clients against clustersim serve (crt/servetest)
	cd crt && $(GO) vet ./... && $(GO) test -count=1 ./...

soak: ## the example operator's swarms at 1,000 seeds per fault profile, the rolling-update invariants at 500 seeds per profile (a few minutes)
	$(GO) test -count=1 -run '^TestCorrect$$' -v ./examples/configset/ -args -clustersim.seeds=1000
	$(GO) test -count=1 -run '^TestRollingUpdateInvariantsUnderFaults$$' -v ./scenarios/runner/ -args -runner.invariant-seeds=500

vet: ## go vet
	$(GO) vet $(PKGS)

fma-check: ## fail if any of this module's float expressions compiles to a fused multiply-add (an arm64 cross-build, disassembled: docs/fma-check.sh)
	GO=$(GO) bash docs/fma-check.sh

fmt-check: ## fail if gofmt would change a file
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

lint: vet fmt-check tidy-check ## vet, gofmt, and go mod tidy leaving no diff

tidy-check: ## fail if go mod tidy would change go.mod or go.sum
	@cp go.mod /tmp/clustersim.go.mod.bak; cp go.sum /tmp/clustersim.go.sum.bak; \
	$(GO) mod tidy; \
	if ! cmp -s go.mod /tmp/clustersim.go.mod.bak || ! cmp -s go.sum /tmp/clustersim.go.sum.bak; then \
	  echo "go mod tidy changed go.mod/go.sum"; cp /tmp/clustersim.go.mod.bak go.mod; cp /tmp/clustersim.go.sum.bak go.sum; exit 1; fi

bench: ## every benchmark once, with allocations, but the whole-run scale ones (figures go to docs/PERFORMANCE.md)
	$(GO) test -run=NONE -bench=. -skip='BenchmarkScaleRun|BenchmarkSweepOverhead' -benchmem -count=1 $(PKGS)

SCALE ?= 300|1000|5000

SWEEP_SEEDS ?= 100

bench-sweep: ## sweep overhead: 10 values x SWEEP_SEEDS seeds of a 20-node scenario against run --seeds of 10 x SWEEP_SEEDS (default 100; slow)
	$(GO) test -run=NONE -bench='BenchmarkSweepOverhead' -benchtime=1x -count=1 ./cmd/clustersim -args -sweep.seeds=$(SWEEP_SEEDS)

bench-scale: ## whole runs of the scale probe (clustersim generate scale) at SCALE nodes (default 300|1000|5000; 5000,qps=200 paces the controllers at 200 QPS; 300,services adds a Service per Deployment; 300 or 3000,qps=200,spread,anti=preferred gives the Deployments placement rules; 10000,qps=200 is past run's caps, some 2.5 min; slow)
	$(GO) test -run=NONE -bench='BenchmarkScaleRun/nodes=($(SCALE))$$' -benchtime=1x -timeout=0 -count=1 ./cmd/clustersim

# compare-scale: OLD's build (a revision, default HEAD) against the working
# tree's, on the scale probe at NODES nodes with every pod running within
# the hour, ROUNDS rounds taken in alternation (docs/alternate.sh says why
# only such runs compare). OLD=HEAD on a clean tree measures the noise.
# It removes only what it made: the worktree it builds OLD in is git's to
# remove, and a directory of that name git does not know stops it.
OLD         ?= HEAD
NODES       ?= 3000
ROUNDS      ?= 3
COMPARE_DIR ?= /tmp/clustersim-compare

compare-scale: ## OLD's build (default HEAD) against the working tree's on the scale probe at NODES nodes (default 3000), ROUNDS rounds in alternation; checks the reports are the same (slow)
	mkdir -p $(COMPARE_DIR)
	git worktree prune
	git worktree remove --force $(COMPARE_DIR)/clustersim-old-src 2>/dev/null || true
	git worktree add --detach $(COMPARE_DIR)/clustersim-old-src $(OLD)
	cd $(COMPARE_DIR)/clustersim-old-src && $(GO) build -o $(COMPARE_DIR)/clustersim-old ./cmd/clustersim; status=$$?; cd $(CURDIR) && git worktree remove --force $(COMPARE_DIR)/clustersim-old-src; exit $$status
	$(GO) build -o $(COMPARE_DIR)/clustersim-new ./cmd/clustersim
	$(COMPARE_DIR)/clustersim-new generate scale --nodes $(NODES) --qps 200 --burst 300 --scheduler-qps 300 --scheduler-burst 400 > $(COMPARE_DIR)/probe-$(NODES)q.yaml
	bash docs/alternate.sh -n $(ROUNDS) $(COMPARE_DIR)/probe-$(NODES)q.yaml $(COMPARE_DIR)/clustersim-old $(COMPARE_DIR)/clustersim-new

# scale-ratio: issue 11's 300 to 3,000 nodes ratio as docs/PERFORMANCE.md
# measures it: this tree's build, the probe at SMALL nodes twice and at
# LARGE once a round, ROUNDS rounds; each round's ratio, their median and
# how many are at most 12 (docs/scale-ratio.sh; some 30 s a round).
SMALL ?= 300
LARGE ?= 3000

scale-ratio: build ## issue 11's ratio: the scale probe at LARGE nodes (default 3000) over SMALL (default 300), ROUNDS rounds side by side (default 3; slow)
	bash docs/scale-ratio.sh -n $(ROUNDS) ./$(BIN) $(SMALL) $(LARGE)

verify-replicaset: ## every scenario test and the 300-node probe with the ReplicaSet controller checking, on every sync, its pod aggregates against the full path (exit 3 at the first difference; slow)
	$(GO) test -count=1 -tags replicasetverify ./cmd/clustersim ./scenarios/...
	$(GO) run -tags replicasetverify ./cmd/clustersim generate scale --nodes 300 > /tmp/clustersim-verify-300.yaml
	$(GO) run -tags replicasetverify ./cmd/clustersim run /tmp/clustersim-verify-300.yaml > /tmp/clustersim-verify-300.txt
	tail -1 /tmp/clustersim-verify-300.txt

fuzz: ## each fuzz target for FUZZTIME (default 10s); each states in its doc comment what it checks beyond not panicking (docs/fuzz-target.sh: Go 1.26's own deadline race passes)
	GO=$(GO) bash docs/fuzz-target.sh FuzzQueue ./sim/kernel/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzParseQuantity ./sim/api/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzParseSelector ./sim/api/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzMergePatch ./sim/api/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzApply ./sim/strategicpatch/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzDecode ./sim/manifest/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzNode ./sim/manifest/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzParsePath ./sim/manifest/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzCheckText ./sim/manifest/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzNodeConditionsPatch ./sim/apiserver/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzScanConditionsPatch ./sim/apiserver/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzFrozenEvent ./sim/store/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzEventCreate ./sim/store/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzPodStatusUpdate ./sim/store/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzPodCreate ./sim/store/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzResolverFind ./sim/store/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzParseKeyed ./sim/store/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzCacheHint ./sim/informer/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzLoad ./scenarios/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzGapChart ./report/chart/ $(FUZZTIME)
	GO=$(GO) bash docs/fuzz-target.sh FuzzDistribution ./report/chart/ $(FUZZTIME)

lessons: build ## regenerate docs/lessons.md: every lesson's figures from a fresh run (about three minutes)
	./$(BIN) lesson --all -o markdown > docs/lessons.md

# Every lesson on its full seeds takes about three minutes on the
# two-core machine, more than make test's budget of two, so it is a check
# of its own; .ci/run runs it after make test.
lessons-check: build ## every lesson on its seeds: each claim must hold (exit 0) and docs/lessons.md must equal the fresh output
	@./$(BIN) lesson --all -o markdown > bin/lessons.md
	@if ! cmp -s bin/lessons.md docs/lessons.md; then \
	  echo "docs/lessons.md differs from a fresh run of every lesson; run make lessons and read the diff:"; \
	  diff -u docs/lessons.md bin/lessons.md | head -40; exit 1; fi
	@echo "docs/lessons.md matches a fresh run of every lesson"

GOLDEN_PKGS := ./cmd/clustersim ./report/chart ./report/kubectl ./scenarios ./sim/manifest

update: ## regenerate golden files and docs/lessons.md (read the diff before committing)
	$(GO) test -count=1 $(GOLDEN_PKGS) -update
	$(MAKE) lessons

clean: ## remove build output
	rm -rf bin
