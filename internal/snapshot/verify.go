package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// objects reads a snapshot's objects from its store through one git
// cat-file --batch, and checks each against its id by hashing it here:
// git is trusted to find an object, not to say what it holds.
type objects struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
}

func openObjects(ctx context.Context, gitDir string) (*objects, error) {
	o := &objects{cmd: gitCmd(ctx, gitDir, "", nil, "cat-file", "--batch")}
	o.cmd.Stderr = &o.stderr
	var err error
	if o.in, err = o.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	pipe, err := o.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := o.cmd.Start(); err != nil {
		return nil, err
	}
	o.out = bufio.NewReaderSize(pipe, 64<<10)
	return o, nil
}

func (o *objects) close() {
	o.in.Close()
	_, _ = io.Copy(io.Discard, o.out)
	_ = o.cmd.Wait()
}

// read copies the object id, which must be of type kind, into w, and
// fails with ErrUnverified when it is missing, of another type, or its
// bytes do not hash to id. w has had every byte by then: a caller that
// writes somewhere that counts keeps it aside until read returns nil.
func (o *objects) read(id, kind string, w io.Writer) error {
	if len(id) != 40 || strings.Trim(id, "0123456789abcdef") != "" {
		return fmt.Errorf("%w: %q is not an object id", ErrUnverified, id)
	}
	if _, err := io.WriteString(o.in, id+"\n"); err != nil {
		return fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(o.stderr.String()))
	}
	header, err := o.out.ReadString('\n')
	if err != nil {
		return fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(o.stderr.String()))
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[0] != id || f[1] != kind {
		return fmt.Errorf("%w: %s %s is %s", ErrUnverified, kind, id, strings.TrimSpace(strings.TrimPrefix(header, id)))
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
	}
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", kind, n)
	copied, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(o.out, n))
	if err != nil {
		return err
	}
	if copied != n {
		return fmt.Errorf("git cat-file: %s: short read", id)
	}
	if _, err := o.out.Discard(1); err != nil { // the newline after the content
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != id {
		return fmt.Errorf("%w: %s %s holds bytes that hash to %s", ErrUnverified, kind, id, got)
	}
	return nil
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	mode, name, sha string
}

// readTree reads and verifies a tree and parses its entries. A name that
// could leave the directory it is in is refused.
func (o *objects) readTree(id string) ([]treeEntry, error) {
	var buf bytes.Buffer
	if err := o.read(id, "tree", &buf); err != nil {
		return nil, err
	}
	var out []treeEntry
	b := buf.Bytes()
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || len(b) < nul+21 {
			return nil, fmt.Errorf("%w: tree %s is malformed", ErrUnverified, id)
		}
		e := treeEntry{mode: string(b[:sp]), name: string(b[sp+1 : nul]), sha: hex.EncodeToString(b[nul+1 : nul+21])}
		if e.name == "" || e.name == "." || e.name == ".." || strings.ContainsAny(e.name, "/\x00") {
			return nil, fmt.Errorf("%w: tree %s names %q", ErrUnverified, id, e.name)
		}
		out = append(out, e)
		b = b[nul+21:]
	}
	return out, nil
}

// walkTree lists every file under a tree, verified, with its path
// relative to the tree (slash-separated).
func (o *objects) walkTree(id, prefix string, out []treeEntry) ([]treeEntry, error) {
	entries, err := o.readTree(id)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		e.name = prefix + e.name
		switch e.mode {
		case "40000":
			if out, err = o.walkTree(e.sha, e.name+"/", out); err != nil {
				return nil, err
			}
		case "100644", "100755", "120000":
			out = append(out, e)
		default:
			return nil, fmt.Errorf("%w: %s has mode %s", ErrUnverified, e.name, e.mode)
		}
	}
	return out, nil
}
