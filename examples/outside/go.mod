module example.com/outside

go 1.26

require github.com/clustersim/clustersim v0.0.0

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

replace github.com/clustersim/clustersim => ../..
