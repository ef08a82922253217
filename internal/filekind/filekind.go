// Package filekind names the kind of a file, for the messages that
// refuse one that is not a regular file: the bank, an export's output.
package filekind

import "io/fs"

// Of names what a file of mode m is ("a directory", "a named pipe"), or
// returns "" for a regular file.
func Of(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
