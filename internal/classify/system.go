package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file covers administration programs of the operating system (not
// its package managers): users and groups, mounts, kernel settings, macOS
// services, preferences and keychains, and volume managers. Changing them
// is shared state; deleting volumes, pools or snapshots loses data.

// systemSpec rates OS administration programs.
var systemSpec = &Spec{
	Programs: []string{
		"useradd", "adduser", "usermod", "groupadd", "groupmod", "groupdel", "delgroup", "gpasswd", "chpasswd",
		"userdel", "deluser", "passwd", "visudo", "mount", "umount", "swapoff", "swapon", "sysctl",
		"launchctl", "defaults", "security", "diskutil", "lvremove", "vgremove", "pvremove", "lvreduce",
		"zpool", "zfs", "btrfs",
	},
	Classify: classifySystem,
	Examples: []Example{
		{"useradd -m deploy", "shared"},
		{"sudo adduser bob", "shared"},
		{"usermod -aG docker me", "shared"},
		{"groupadd ops", "shared"},
		{"userdel bob", "shared"},
		{"userdel -r bob", "shared+destructive"},
		{"deluser --remove-home bob", "shared+destructive"},
		{"passwd bob", "shared"},
		{"echo 'bob:pw' | chpasswd", "shared"},
		{"passwd -S bob", "local"},
		{"visudo", "shared"},
		{"visudo -c", "local"},
		{"mount /dev/sdb1 /mnt", "shared"},
		{"mount -o remount,rw /", "shared"},
		{"umount /mnt", "shared"},
		{"mount", "local"},
		{"mount -l -t ext4", "local"},
		{"swapoff -a", "shared"},
		{"swapon --show", "local"},
		{"sysctl -w net.ipv4.ip_forward=1", "shared"},
		{"sysctl vm.swappiness=10", "shared"},
		{"sysctl -p", "shared"},
		{"sysctl net.ipv4.ip_forward", "local"},
		{"sysctl -a", "local"},
		{"launchctl load ~/Library/LaunchAgents/x.plist", "shared"},
		{"launchctl bootout gui/501/com.example.agent", "shared"},
		{"launchctl list", "local"},
		{"launchctl print system", "local"},
		{"launchctl reboot", "shared+destructive"},
		{"defaults write com.apple.dock autohide -bool true", "shared"},
		{"defaults -currentHost write -g AppleFontSmoothing -int 0", "shared"},
		{"defaults delete com.apple.dock", "shared"},
		{"defaults read com.apple.dock", "local"},
		{"defaults domains", "local"},
		{"security delete-generic-password -s service", "shared+destructive"},
		{"security delete-keychain old.keychain", "shared+destructive"},
		{"security add-generic-password -s svc -a me -w pw", "shared"},
		{"security import cert.p12 -k login.keychain", "shared"},
		{"security find-identity -v -p codesigning", "local"},
		{"security list-keychains", "local"},
		{"security list-keychains -s a.keychain", "shared"},
		{"diskutil eraseDisk APFS Blank disk2", "local+destructive"},
		{"diskutil eraseVolume JHFS+ Untitled disk2s1", "local+destructive"},
		{"diskutil partitionDisk disk2 GPT APFS Main 100%", "local+destructive"},
		{"diskutil apfs deleteVolume disk3s5", "local+destructive"},
		{"diskutil unmount /Volumes/USB", "shared"},
		{"diskutil list", "local"},
		{"diskutil info disk0", "local"},
		{"diskutil apfs list", "local"},
		{"lvremove -y vg0/data", "local+destructive"},
		{"vgremove vg0", "local+destructive"},
		{"pvremove /dev/sdb", "local+destructive"},
		{"lvreduce -L 10G vg0/data", "local+destructive"},
		{"lvremove --help", "local"},
		{"zpool destroy tank", "local+destructive"},
		{"zpool labelclear -f /dev/sdb", "local+destructive"},
		{"zpool scrub tank", "shared"},
		{"zpool status", "local"},
		{"zpool list", "local"},
		{"zfs destroy -r tank/data", "local+destructive"},
		{"zfs destroy tank/data@snap", "local+destructive"},
		{"zfs destroy -n tank/data", "local"},
		{"zfs rollback -r tank/data@yesterday", "local+destructive"},
		{"zfs receive -F tank/data < stream", "local+destructive"},
		{"zfs snapshot tank/data@now", "shared"},
		{"zfs set compression=lz4 tank", "shared"},
		{"zfs list -t snapshot", "local"},
		{"zfs get all tank", "local"},
		{"zfs send tank/data@snap > backup.zfs", "local"},
		{"btrfs subvolume delete /mnt/snapshots/old", "local+destructive"},
		{"btrfs sub del /mnt/snap", "local+destructive"},
		{"btrfs check --repair /dev/sdb", "local+destructive"},
		{"btrfs subvolume snapshot / /snapshots/now", "shared"},
		{"btrfs balance start /mnt", "shared"},
		{"btrfs subvolume list /", "local"},
		{"btrfs filesystem df /", "local"},
		{"btrfs fi show", "local"},
		{"btrfs check /dev/sdb", "local"},
		{"id -u", "local"},
		{"df -h", "local"},
	},
}

// classifySystem dispatches on the program name.
func classifySystem(_ *Classifier, inv *shell.Invocation) Effect {
	name := inv.Name()
	args := inv.Args[1:]
	if hasAny(args, "--help", "--version", "-h") && name != "defaults" && name != "security" {
		return nothing
	}
	ops := operandsOf(args)
	switch name {
	case "useradd", "adduser", "usermod", "groupadd", "groupmod", "groupdel", "delgroup", "gpasswd":
		if len(ops) == 0 {
			return nothing
		}
		return shared("system.users", name+" changes the system's users and groups")
	case "chpasswd":
		return shared("system.users", "chpasswd changes passwords")
	case "userdel", "deluser":
		if hasAny(args, "-r", "--remove", "--remove-home", "--remove-all-files") {
			return shared("system.userdel", name+" -r deletes the user and their home directory").destroys()
		}
		if len(ops) == 0 {
			return nothing
		}
		return shared("system.users", name+" deletes a user account")
	case "passwd":
		if hasAny(args, "-S", "--status", "-a", "--all") {
			return nothing
		}
		return shared("system.passwd", "passwd changes a password")
	case "visudo":
		if hasAny(args, "-c", "--check") {
			return nothing
		}
		return shared("system.sudoers", "visudo edits who may run commands as root")
	case "mount":
		p := argv.Spec{Short: "tOoLU", Long: []string{"--types", "--options", "--test-opts", "--label", "--uuid", "--source", "--target", "--bind"}}.Parse(args)
		if len(p.Operands) == 0 && !p.Has("-a", "--all") {
			return nothing // lists mounts
		}
		return shared("system.mount", "mount changes what is mounted where")
	case "umount":
		return shared("system.mount", "umount detaches a file system")
	case "swapon", "swapoff":
		if hasAny(args, "--show", "-s", "--summary") || len(args) == 0 {
			return nothing
		}
		return shared("system.swap", name+" changes swap space")
	case "sysctl":
		return systemSysctl(args)
	case "launchctl":
		return systemLaunchctl(ops)
	case "defaults":
		return systemDefaults(args)
	case "security":
		return systemSecurity(args)
	case "diskutil":
		return systemDiskutil(ops)
	case "lvremove", "vgremove", "pvremove", "lvreduce":
		if hasAny(args, "-t", "--test") || len(ops) == 0 {
			return nothing
		}
		return local("system.lvm", name+" deletes logical volume data on "+strings.Join(ops, " ")).destroys()
	case "zpool":
		return systemZpool(ops)
	case "zfs":
		return systemZfs(args, ops)
	default:
		return systemBtrfs(args, ops)
	}
}

// systemSysctl rates sysctl: assignments, -w and loading files change the
// running kernel; names alone read.
func systemSysctl(args []string) Effect {
	if hasAny(args, "-w", "--write", "-p", "--load", "--system") {
		return shared("system.sysctl", "sysctl changes kernel settings")
	}
	for _, a := range operandsOf(args) {
		if strings.Contains(a, "=") {
			return shared("system.sysctl", "sysctl "+a+" changes a kernel setting")
		}
	}
	return nothing
}

// systemLaunchctl rates launchctl by its verb.
func systemLaunchctl(ops []string) Effect {
	if len(ops) == 0 {
		return nothing
	}
	switch ops[0] {
	case "list", "print", "print-cache", "print-disabled", "blame", "getenv", "version", "help", "plist", "procinfo",
		"hostinfo", "resolveport", "examine", "dumpstate", "dumpjpcategory", "managerpid", "manageruid", "managername",
		"error", "limit":
		if ops[0] != "limit" || len(ops) <= 2 {
			return nothing
		}
	case "reboot", "halt":
		return shared("system.launchctl", "launchctl "+ops[0]+" stops the machine").destroys()
	}
	return shared("system.launchctl", "launchctl "+ops[0]+" changes background services")
}

// systemDefaults rates macOS defaults: write, delete, import and rename
// change preferences.
func systemDefaults(args []string) Effect {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-currentHost":
			continue
		case "-host":
			i++
			continue
		case "write", "delete", "import", "rename":
			return shared("system.defaults", "defaults "+args[i]+" changes application preferences")
		}
		return nothing
	}
	return nothing
}

// systemSecurity rates the macOS security tool: delete-* removes keychain
// items, reads (find-*, dump-*, show-*, list-*) report, the rest changes
// keychains.
func systemSecurity(args []string) Effect {
	ops := operandsOf(args)
	if len(ops) == 0 {
		return nothing
	}
	verb := ops[0]
	switch {
	case strings.HasPrefix(verb, "delete-"):
		return shared("system.keychain-delete", "security "+verb+" deletes from the keychain").destroys()
	case verb == "list-keychains" || verb == "default-keychain" || verb == "login-keychain":
		if hasAny(args, "-s") {
			return shared("system.keychain", "security "+verb+" -s changes the keychain search list")
		}
		return nothing
	case strings.HasPrefix(verb, "find-"), strings.HasPrefix(verb, "dump-"), strings.HasPrefix(verb, "show-"),
		strings.HasPrefix(verb, "list-"), strings.HasPrefix(verb, "verify-"), verb == "help", verb == "error",
		verb == "leaks", verb == "export", verb == "cms", verb == "smartcards", verb == "trust-settings-export":
		return nothing
	case verb == "authorizationdb":
		if len(ops) > 1 && ops[1] == "read" {
			return nothing
		}
	}
	return shared("system.keychain", "security "+verb+" changes the keychain")
}

// systemDiskutil rates macOS diskutil: erasing and partitioning lose
// data, mounting changes state, listing reads.
func systemDiskutil(ops []string) Effect {
	if len(ops) == 0 {
		return nothing
	}
	verb := strings.ToLower(ops[0])
	if (verb == "apfs" || verb == "cs" || verb == "corestorage" || verb == "ar" || verb == "appleraid") && len(ops) > 1 {
		sub := strings.ToLower(ops[1])
		switch {
		case strings.HasPrefix(sub, "delete") || strings.HasPrefix(sub, "erase"):
			return local("system.diskutil", "diskutil "+ops[0]+" "+ops[1]+" deletes a volume and its data").destroys()
		case sub == "list" || strings.HasPrefix(sub, "list") || sub == "info":
			return nothing
		}
		return shared("system.diskutil", "diskutil "+ops[0]+" "+ops[1]+" changes disks")
	}
	switch verb {
	case "erasedisk", "erasevolume", "partitiondisk", "zerodisk", "randomdisk", "secureerase", "reformat",
		"splitpartition", "mergepartitions", "erasecd", "eraseoptical":
		return local("system.diskutil", "diskutil "+ops[0]+" erases a disk or volume").destroys()
	case "list", "info", "information", "activity", "listfilesystems", "verifyvolume", "verifydisk", "verifypermissions":
		return nothing
	}
	return shared("system.diskutil", "diskutil "+ops[0]+" changes disks or volumes")
}

// systemZpool rates zpool: destroy and labelclear lose pools, reports read.
func systemZpool(ops []string) Effect {
	if len(ops) == 0 {
		return nothing
	}
	switch ops[0] {
	case "destroy", "labelclear":
		return local("system.zpool", "zpool "+ops[0]+" deletes a storage pool and its data").destroys()
	case "list", "status", "iostat", "get", "history", "events", "version", "help", "wait":
		return nothing
	}
	return shared("system.zpool", "zpool "+ops[0]+" changes a storage pool")
}

// systemZfs rates zfs: destroy, rollback and a forced receive lose data;
// list/get/send read.
func systemZfs(args, ops []string) Effect {
	if len(ops) == 0 {
		return nothing
	}
	switch ops[0] {
	case "destroy":
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'n') {
				return nothing // -n: dry run
			}
		}
		return local("system.zfs", "zfs destroy deletes a dataset or snapshot and its data").destroys()
	case "rollback":
		return local("system.zfs", "zfs rollback discards every change since the snapshot").destroys()
	case "receive", "recv":
		if hasAny(args, "-F") {
			return local("system.zfs", "zfs receive -F overwrites the dataset").destroys()
		}
	case "list", "get", "holds", "userspace", "groupspace", "projectspace", "diff", "version", "help", "send", "wait":
		return nothing
	}
	return shared("system.zfs", "zfs "+ops[0]+" changes a dataset")
}

// systemBtrfs rates btrfs, whose group and command words may be
// abbreviated to any unique prefix (btrfs sub del).
func systemBtrfs(args, ops []string) Effect {
	if len(ops) == 0 {
		return nothing
	}
	is := func(word, full string, min int) bool {
		return len(word) >= min && strings.HasPrefix(full, word)
	}
	group, cmd := ops[0], ""
	if len(ops) > 1 {
		cmd = ops[1]
	}
	switch {
	case is(group, "subvolume", 2):
		switch {
		case is(cmd, "delete", 1):
			return local("system.btrfs", "btrfs subvolume delete deletes a subvolume and its data").destroys()
		case is(cmd, "list", 1), is(cmd, "show", 2), is(cmd, "get-default", 1), is(cmd, "find-new", 1):
			return nothing
		}
	case is(group, "check", 1):
		if hasAny(args, "--repair") {
			return local("system.btrfs", "btrfs check --repair can make a damaged file system worse").destroys()
		}
		return nothing
	case is(group, "filesystem", 1):
		if is(cmd, "show", 2) || is(cmd, "df", 1) || is(cmd, "usage", 1) || is(cmd, "du", 2) || is(cmd, "label", 1) && len(ops) < 4 {
			return nothing
		}
	case is(group, "inspect-internal", 1), is(group, "version", 1), is(group, "help", 1):
		return nothing
	case is(group, "device", 2):
		if is(cmd, "stats", 2) || is(cmd, "usage", 1) || is(cmd, "ready", 1) {
			return nothing
		}
	case is(group, "qgroup", 2), is(group, "quota", 2), is(group, "property", 1), is(group, "scrub", 2):
		if is(cmd, "show", 2) || is(cmd, "list", 1) || is(cmd, "get", 1) || is(cmd, "status", 2) {
			return nothing
		}
	}
	return shared("system.btrfs", "btrfs "+strings.TrimSpace(group+" "+cmd)+" changes a file system")
}
