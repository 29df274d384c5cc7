// Command genjournal writes a synthetic journal of N events for the
// journal benchmarks (bench/journal-timing.sh): sessions of 2,000 tool
// calls, 1,000 deferred calls spread over the whole journal (all
// pending), and an MCP firewall line every 100 events. The lines are
// chained as airlock chains them; the index is left for airlock to build
// on first use, as it does for a journal written by an older release.
//
//	go run ./bench/genjournal -n 1000000 -dir /tmp/x/state/airlock/journal
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

func main() {
	n := flag.Int("n", 100000, "events")
	dir := flag.String("dir", "", "the journal directory to create")
	session := flag.String("last-session", "bench-session", "the session of the last 2,000 events")
	flag.Parse()
	if err := run(*n, *dir, *session); err != nil {
		fmt.Fprintln(os.Stderr, "genjournal:", err)
		os.Exit(1)
	}
}

func run(n int, dir, last string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	seg, size := 1, 0
	open := func() (*os.File, *bufio.Writer, error) {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("journal-%06d.jsonl", seg)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, nil, err
		}
		return f, bufio.NewWriterSize(f, 1<<20), nil
	}
	f, w, err := open()
	if err != nil {
		return err
	}
	prev := ""
	t := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)
	deferEvery := n / 1000
	if deferEvery == 0 {
		deferEvery = 1
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := 1; i <= n; i++ {
		t = t.Add(30 * time.Second)
		s := "session-" + strconv.Itoa(i/2000)
		if i > n-2000 {
			s = last
		}
		e := &journal.Entry{Seq: int64(i), Time: t, Event: "PreToolUse", Agent: "claude-code", Session: s, Cwd: "/home/u/proj",
			Tool: "Bash", Kind: "shell", Command: fmt.Sprintf("go test ./pkg%d/...", i%97), Decision: "allow", Rule: "table.local",
			Mode: "interactive", Prev: prev}
		switch {
		case i%deferEvery == 0:
			e.Command, e.Decision, e.Rule, e.Effect = fmt.Sprintf("git push origin b%d", i), "defer", "table.external", "external"
			e.Reasons = []journal.Reason{{Rule: "git.push", Message: "git push publishes commits to a remote repository"}}
			sum := sha256.Sum256([]byte(prev + "/" + strconv.Itoa(i)))
			e.ID = hex.EncodeToString(sum[:4])
		case i%100 == 0:
			e.Agent, e.Event, e.Tool, e.Kind, e.Command, e.Rule = "mcp-proxy", "tools/call", "mcp__mail__send", "local-tool", "", "mcp.sink"
			e.Detail = json.RawMessage(`{"server":"mail","tool":"send","class":"sink","phase":"call","decision":"allow","sent":true,"dedup_key":"k` + strconv.Itoa(i) + `"}`)
		}
		buf.Reset()
		if err := enc.Encode(e); err != nil {
			return err
		}
		line := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		sum := sha256.Sum256(line)
		prev = hex.EncodeToString(sum[:])
		if size >= journal.DefaultMaxSegment {
			if err := w.Flush(); err != nil {
				return err
			}
			f.Close()
			seg, size = seg+1, 0
			if f, w, err = open(); err != nil {
				return err
			}
		}
		w.Write(line)
		w.WriteByte('\n')
		size += len(line) + 1
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
