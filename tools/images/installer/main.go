// install-runtime: the runtime image's only program besides Node.js. The plan's init container runs
//
//	/seatunnel-app/bin/install-runtime /seatunnel-app /opt/seatunnel-app
//
// to copy Node.js and the runtime bundle into the shared volume the master container (the user's
// stock SeaTunnel image) runs them from. It is a static binary so that the image needs no shell, no
// libc and no root filesystem from a distribution: the image is built from pinned inputs only
// (tools/images/build.sh), and the same sources give the same digest on any machine.
//
// Without arguments it lists what the image holds (the image's command). Directories and regular
// files are copied with their modes; anything else (a link, a device) is refused, since the image
// holds none. Each file is written under a temporary name and renamed, so an init container that
// is restarted finds either the whole file or none.
package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

func main() {
	args := os.Args[1:]
	switch len(args) {
	case 0:
		if err := list("/seatunnel-app"); err != nil {
			fail(err)
		}
	case 2:
		if err := copyTree(args[0], args[1]); err != nil {
			fail(err)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: install-runtime [<source dir> <target dir>]")
		os.Exit(64)
	}
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "install-runtime: %v\n", err)
	os.Exit(1)
}

func list(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Printf("%s %10d %s\n", info.Mode(), info.Size(), p)
		return nil
	})
}

// copyTree copies the contents of src into dst (which must exist: the volume's mount point, whose
// owner and times are left alone, as a non-root user cannot change them).
func copyTree(src, dst string) error {
	if st, err := os.Stat(dst); err != nil {
		return err
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dst)
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil || rel == "." {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case info.IsDir():
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
			return os.Chmod(target, info.Mode().Perm())
		case info.Mode().IsRegular():
			return copyFile(p, target, info.Mode().Perm())
		default:
			return fmt.Errorf("%s: not a directory or a regular file (%s)", p, info.Mode().Type())
		}
	})
}

func copyFile(src, dst string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".partial"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	// The mode is set after the write: umask would otherwise narrow it.
	if err := os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
