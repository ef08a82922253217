//go:build !unix

package store

// dirWritable reports whether this process may make files in dir; where
// it cannot be asked cheaply, it is taken to be so. Tests replace it.
var dirWritable = func(string) bool { return true }

// fileWritable reports whether this process may write the file at path;
// where it cannot be asked cheaply, it is taken to be so. Tests replace
// it.
var fileWritable = func(string) bool { return true }
