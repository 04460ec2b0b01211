module example.com/outside

go 1.26

require github.com/clustersim/clustersim v0.0.0

require gopkg.in/yaml.v3 v3.0.1 // indirect

replace github.com/clustersim/clustersim => ../..
