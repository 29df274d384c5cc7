package teamcmd

import (
	"bufio"
	"errors"
	"io"
	"os"
	"strings"
)

// readTokenFile reads a reviewer token from the first line of a file, or
// of stdin for "-": a token given this way is in neither ps nor the
// shell's history (FINDINGS-10 L1).
func readTokenFile(name string, stdin io.Reader) (string, error) {
	var r io.Reader
	if name == "-" {
		if stdin == nil {
			return "", errors.New("no stdin to read the token from")
		}
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	line, err := bufio.NewReader(io.LimitReader(r, 4<<10)).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	if t := strings.TrimSpace(line); t != "" {
		return t, nil
	}
	return "", errors.New("no token on its first line")
}
