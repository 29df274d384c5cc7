package policy

import "path/filepath"

// Other homes: the resident service (airlock hookd) decides for hook
// processes of the same user whose HOME may differ from its own (an agent
// started with HOME pointed elsewhere), or be absent or relative. The
// decision follows the request's HOME, as the hook process's own would;
// the service's HOME is the same user's too, so its protected paths are
// added: the union of both homes, never fewer than the request's alone.

// addOtherHomes adds, for each absolute home other than the guard's own,
// the paths protected under a home (agent settings, shell start-up files,
// files that run later), airlock's default configuration and state
// directories there, and the secrets inside that state directory.
func (g *guard) addOtherHomes(homes []string) {
	for _, h := range homes {
		if h == "" || !filepath.IsAbs(h) {
			continue
		}
		h = filepath.Clean(h)
		if h == g.home || h == "/" {
			continue
		}
		// h is absolute and clean: its targets are built once per
		// home, as the request's own home's are (homeGuardTargets).
		g.targets = append(g.targets, homeGuardTargets(h)...)
		state := filepath.Join(h, ".local", "state", "airlock")
		conf := filepath.Join(h, ".config", "airlock")
		g.targets = append(g.targets,
			target{path: conf, dir: true, kind: kindAirlock, ascii: isASCII(conf)},
			target{path: state, dir: true, kind: kindAirlock, ascii: isASCII(state)})
		if sec := filepath.Join(state, "secrets"); sec != g.secrets.path {
			g.otherSecrets = append(g.otherSecrets, target{path: sec, dir: true, kind: kindSecret})
		}
	}
}
