//go:build !linux

package main

// adviseHugePages does nothing where the kernel is not Linux's: see
// hugepages_linux.go.
func adviseHugePages() (stop func()) { return func() {} }
