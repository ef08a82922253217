//go:build unix

package store

import "syscall"

// dirWritable reports whether this process may make files in dir, as
// SQLite would make a bank's -wal and -shm there. Tests replace it.
var dirWritable = func(dir string) bool {
	return syscall.Access(dir, 0x2 /* W_OK */) == nil
}

// fileWritable reports whether this process may write the file at path.
// Tests replace it.
var fileWritable = func(path string) bool {
	return syscall.Access(path, 0x2 /* W_OK */) == nil
}
