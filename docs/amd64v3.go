//go:build ignore

// amd64v3.go starts and exits 0: the Makefile runs it built for
// GOAMD64=v3 to learn whether this processor has the x86-64-v3
// instructions (AVX2, BMI1 and BMI2, FMA, LZCNT, MOVBE), since Go's
// runtime refuses to start a program built for them on a processor
// without them ("This program can only be run on AMD64 processors with
// v3 microarchitecture support."). See the Makefile's GOAMD64.
package main

func main() {}
