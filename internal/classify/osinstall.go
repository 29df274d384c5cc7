package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"github.com/airlock-dev/airlock/internal/shell"
)

// osInstallVerbs maps the package managers of operating systems and of
// tool installers (not language registries: see publish.go) to the verbs
// that install, remove or upgrade software.
var osInstallVerbs = firstuse.Table[map[string]map[string]bool]{Build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"dnf":      {"install": true, "remove": true, "erase": true, "upgrade": true, "update": true, "reinstall": true, "downgrade": true, "autoremove": true},
		"yum":      {"install": true, "remove": true, "erase": true, "upgrade": true, "update": true, "reinstall": true, "downgrade": true, "autoremove": true},
		"microdnf": {"install": true, "remove": true, "upgrade": true, "update": true},
		"apk":      {"add": true, "del": true, "upgrade": true, "fix": true},
		"pacman":   {"-S": true, "-Syu": true, "-Sy": true, "-R": true, "-Rs": true, "-U": true},
		"zypper":   {"install": true, "in": true, "remove": true, "rm": true, "update": true, "up": true, "dist-upgrade": true, "dup": true},
		"snap":     {"install": true, "remove": true, "refresh": true},
		"flatpak":  {"install": true, "uninstall": true, "update": true},
		"pipx":     {"install": true, "uninstall": true, "upgrade": true, "upgrade-all": true, "reinstall": true, "inject": true},
		"port":     {"install": true, "uninstall": true, "upgrade": true, "selfupdate": true},
		"nix-env":  {"-i": true, "-iA": true, "--install": true, "-e": true, "--uninstall": true, "-u": true},
	}
}}

var osInstallSpec = &Spec{
	Programs: []string{"dnf", "yum", "microdnf", "apk", "pacman", "zypper", "snap", "flatpak", "pipx", "port", "nix-env"},
	Classify: classifyOSInstall,
	Examples: []Example{
		{"sudo dnf install -y git", "shared+netread"},
		{"yum remove httpd", "shared+netread"},
		{"apk add --no-cache curl", "shared+netread"},
		{"pacman -Syu", "shared+netread"},
		{"zypper in vim", "shared+netread"},
		{"snap install code --classic", "shared+netread"},
		{"pipx install black", "shared+netread"},
		{"nix-env -iA nixpkgs.hello", "shared+netread"},
		{"dnf search git", "local"},
		{"dnf list installed", "local"},
		{"apk info", "local"},
		{"pacman -Q", "local"},
		{"pipx list", "local"},
		{"snap list", "local"},
	},
}

// classifyOSInstall: installing or removing software changes the machine
// for everyone on it, and downloads from a package source.
func classifyOSInstall(_ *Classifier, inv *shell.Invocation) Effect {
	verbs := osInstallVerbs.Get()[inv.Name()]
	for i, a := range inv.Args[1:] {
		if inv.IsDynamic(i + 1) {
			continue
		}
		if verbs[a] {
			return shared("os.install", inv.Name()+" "+a+" changes the software installed on this machine").reads()
		}
		if len(a) > 0 && a[0] != '-' {
			break // the first operand was not an install verb
		}
	}
	return nothing
}
