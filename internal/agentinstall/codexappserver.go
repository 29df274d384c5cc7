package agentinstall

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"time"
)

// This file asks a real Codex which hooks it trusts: "codex app-server"
// speaks JSON-RPC on standard input and output, and hooks/list returns
// each hook's key, current hash and trust status. The doctor uses it as a
// second opinion on the hash airlock computes (codextrust.go), so that a
// Codex release that hashes differently is noticed rather than silently
// skipping the hook.

// CodexHookState is what Codex says about one hook.
type CodexHookState struct {
	Key         string `json:"key"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
	Enabled     bool   `json:"enabled"`
}

// CodexHooks asks the codex binary, for a Codex home and a working
// directory, which hooks it would run and whether it trusts them.
func CodexHooks(ctx context.Context, codexBin, codexHome, cwd string, env []string, timeout time.Duration) ([]CodexHookState, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, codexBin, "app-server")
	cmd.Env = append(env, "CODEX_HOME="+codexHome)
	cmd.Dir = cwd
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	enc := json.NewEncoder(in)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	await := func(id int) (json.RawMessage, error) {
		for sc.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil || *m.ID != id {
				continue
			}
			if len(m.Error) > 0 {
				return nil, errors.New("codex app-server: " + string(m.Error))
			}
			return m.Result, nil
		}
		if ctx.Err() != nil {
			return nil, errors.New("codex app-server did not answer within " + timeout.String())
		}
		return nil, errors.New("codex app-server ended without answering")
	}
	if err := enc.Encode(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"clientInfo": map[string]any{"name": "airlock", "version": "1"}}}); err != nil {
		return nil, err
	}
	if _, err := await(1); err != nil {
		return nil, err
	}
	_ = enc.Encode(map[string]any{"method": "initialized"})
	_ = enc.Encode(map[string]any{"id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{cwd}}})
	res, err := await(2)
	if err != nil {
		return nil, err
	}
	var list struct {
		Data []struct {
			Hooks []CodexHookState `json:"hooks"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res, &list); err != nil {
		return nil, err
	}
	var hooks []CodexHookState
	for _, d := range list.Data {
		hooks = append(hooks, d.Hooks...)
	}
	return hooks, nil
}

// CodexHome is the Codex home airlock installs into for an Env.
func CodexHome(env Env) string {
	hooks, _ := codexFiles(env)
	return dirOf(hooks)
}

// CodexKeys lists the trust keys of airlock's hooks in the installed
// hooks.json, with the hash airlock computes for each.
func CodexKeys(env Env) (map[string]string, error) {
	hooksFile, _ := codexFiles(env)
	data, existed, err := osReader{}.read(hooksFile)
	if err != nil || !existed {
		return nil, err
	}
	want, err := codexTrustFor(hooksFile, data)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, t := range want {
		out[t.key] = t.hash
	}
	return out, nil
}
