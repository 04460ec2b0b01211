package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDecode measures loading the php-apache example (a Deployment
// and a Service): the cost of reading one small real manifest.
func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(repoExamples, "php-apache.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	var objects int
	for b.Loop() {
		objs, err := Decode("php-apache.yaml", data)
		if err != nil {
			b.Fatal(err)
		}
		objects += len(objs)
	}
	b.ReportMetric(float64(objects)/b.Elapsed().Seconds(), "objects/s")
}

// BenchmarkEncode measures writing the same objects back as YAML.
func BenchmarkEncode(b *testing.B) {
	objs, err := DecodeFile(filepath.Join(repoExamples, "php-apache.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		out, err := Encode(objs...)
		if err != nil {
			b.Fatal(err)
		}
		n += len(out)
	}
	b.ReportMetric(float64(n)/float64(b.N), "bytes/op")
}
