package agentinstall

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/airlock-dev/airlock/internal/hookline"
)

// Scope is where an agent reads a hook from.
type Scope string

const (
	// User is the user's own configuration: every project.
	User Scope = "user"
	// Project is the project's configuration, shared with the repository.
	Project Scope = "project"
)

// Env is what installing needs to know about the machine.
type Env struct {
	// Home is the user's home directory.
	Home string
	// Project is the project's root directory, for the project scope.
	Project string
	// Getenv reads the environment (CODEX_HOME, XDG_CONFIG_HOME).
	Getenv func(string) string
	// Exe is the absolute path of the airlock binary the hook runs.
	Exe string
	// Client is the absolute path of the hook client (airlock-hook)
	// beside Exe that the hook line runs instead, for the resident
	// service (docs/HOOKD.md); "" writes the in-process line
	// "airlock hook AGENT". The caller checks it (hookline.Client).
	Client string
}

// runs is the program the hook line runs.
func (e Env) runs() string {
	if e.Client != "" {
		return e.Client
	}
	return e.Exe
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// xdgConfig is $XDG_CONFIG_HOME, or ~/.config.
func (e Env) xdgConfig() string {
	if d := e.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home, ".config")
}

// Agent is one agent airlock can install its hook into.
type Agent struct {
	// Name is the agent's name on airlock's command line ("codex").
	Name string
	// Title is the agent's name for people ("OpenAI Codex CLI").
	Title string
	// Scopes lists the scopes the installer supports, the default first.
	Scopes []Scope
	// NoScope explains, per scope the agent has but airlock does not
	// install to, why not and what to do instead.
	NoScope map[Scope]string
	// Timeout is the hook timeout airlock writes into the agent's
	// configuration. The adapter's own deadline must stay under it: past
	// it, most agents run the tool call (docs/AGENTS.md).
	Timeout time.Duration
	// Events are the agent's event names airlock hooks.
	Events []string

	// statusKey is where the agent's settings file keeps a command
	// status line (nil: none airlock installs into), settingsFile that
	// file (statusline.go).
	statusKey    []string
	settingsFile fileFor

	install   func(env Env, scope Scope, r reader) (*Plan, error)
	uninstall func(env Env, scope Scope, r reader) (*Plan, error)
	inspect   func(env Env, scope Scope, r reader) Status
}

// HookCommand is the command line the agent runs for an event: bin by
// absolute path, quoted for a POSIX shell. bin is airlock ("airlock hook
// AGENT ...") or the hook client beside it ("airlock-hook AGENT ...").
func HookCommand(bin, agent, event string) string {
	return hookline.Command(bin, agent, event)
}

// isOurs reports whether a hook command is airlock's hook for an agent,
// in either form, whatever binary path it names (hookline.Parse). A
// user's own command that merely mentions it ("notify.sh 'x hook codex'",
// "sh -c '… hook codex'", "airlock-hookx codex") is not airlock's, and is
// never replaced or removed.
func isOurs(command, agent string) bool {
	_, _, ok := hookline.Parse(command, agent)
	return ok
}

// HookBinary is the program a hook command line runs: its first word,
// unquoted.
func HookBinary(command string) string { return hookline.Binary(command) }

func shellQuote(s string) string { return hookline.Quote(s) }

// ErrScope is returned for a scope an agent's installer does not write.
var ErrScope = errors.New("scope not supported")

// ScopeError says why an agent is not installed to a scope.
type ScopeError struct {
	Agent string
	Scope Scope
	Why   string
}

func (e *ScopeError) Error() string {
	return fmt.Sprintf("airlock does not install %s's hook to the %s scope: %s", e.Agent, e.Scope, e.Why)
}

// Unwrap makes errors.Is(err, ErrScope) true.
func (e *ScopeError) Unwrap() error { return ErrScope }

func (a *Agent) scope(s Scope) error {
	for _, ok := range a.Scopes {
		if ok == s {
			return nil
		}
	}
	why := a.NoScope[s]
	if why == "" {
		why = "the agent has no such configuration"
	}
	return &ScopeError{Agent: a.Name, Scope: s, Why: why}
}

// Install computes what installing the hook writes; nothing is written
// until the Plan is applied.
func (a *Agent) Install(env Env, scope Scope) (*Plan, error) {
	if err := a.check(env, scope); err != nil {
		return nil, err
	}
	return a.install(env, scope, osReader{})
}

// Uninstall computes what removing the hook writes.
func (a *Agent) Uninstall(env Env, scope Scope) (*Plan, error) {
	if err := a.check(env, scope); err != nil {
		return nil, err
	}
	return a.uninstall(env, scope, osReader{})
}

// Inspect reports what is installed in a scope, for the doctor.
func (a *Agent) Inspect(env Env, scope Scope) Status {
	if err := a.scope(scope); err != nil {
		return Status{Agent: a.Name, Scope: scope}
	}
	return a.inspect(env, scope, osReader{})
}

func (a *Agent) check(env Env, scope Scope) error {
	if err := a.scope(scope); err != nil {
		return err
	}
	if !filepath.IsAbs(env.Exe) {
		return fmt.Errorf("the airlock binary's path %q is not absolute", env.Exe)
	}
	if env.Client != "" && (!filepath.IsAbs(env.Client) || hookline.FormOf(env.Client) != hookline.Service) {
		return fmt.Errorf("the hook client's path %q is not an absolute path to %s", env.Client, hookline.ClientName)
	}
	if env.Home == "" && scope == User {
		return errors.New("cannot find the home directory: set HOME")
	}
	if env.Project == "" && scope == Project {
		return errors.New("cannot find the project directory")
	}
	return nil
}

// Agents lists every agent this package installs into, by name.
func Agents() []*Agent {
	out := []*Agent{codex(), gemini(), copilot(), opencode(), factory(), qwen(), cursor(), kiro(), goose(), cline(), pi(), auggie(), antigravity(), crush()}
	return out
}

// Lookup finds an agent by name.
func Lookup(name string) (*Agent, bool) {
	for _, a := range Agents() {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// Names lists the agents' names, sorted.
func Names() []string {
	var out []string
	for _, a := range Agents() {
		out = append(out, a.Name)
	}
	sort.Strings(out)
	return out
}

// HookTimeout is the timeout airlock's installer gives an agent's hook;
// zero for an agent it does not know. The adapter's internal deadline
// must stay well under it.
func HookTimeout(agent string) time.Duration {
	if a, ok := Lookup(agent); ok {
		return a.Timeout
	}
	return 0
}

// hookTimeout is the timeout every installer writes, in the agent's unit:
// long enough for a cold start of the hook on a loaded machine, and the
// same everywhere so that one adapter deadline fits every agent.
const hookTimeout = 30 * time.Second
