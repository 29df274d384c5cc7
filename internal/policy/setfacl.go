package policy

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// setfaclOperands returns the files a setfacl run takes the owner's
// access from (FINDINGS-10 X1): setfacl -R -m u::--- DIR is chmod -R 000
// DIR by another name, so its files are graded like chmod's (deletes.go).
// Only the owner's entry (u::, user::) counts, as for chmod: a named
// user's, the group's, the others' or the mask's leave the owner the
// files.
func setfaclOperands(inv *classify.Invocation, start int) ([]int, bool) {
	args := inv.Args
	takes := false
	var ops []int
	for i := start; i < len(args); i++ {
		a := args[i]
		var spec string
		switch {
		case a == "-m" || a == "--modify" || a == "--set" || a == "-M" || a == "--modify-file" || a == "--set-file":
			if i+1 >= len(args) {
				return nil, false
			}
			i++
			if inv.IsDynamic(i) || a == "-M" || a == "--modify-file" || a == "--set-file" {
				takes = true // an ACL read from a file or known at run time
				continue
			}
			spec = args[i]
		case strings.HasPrefix(a, "--modify=") || strings.HasPrefix(a, "--set="):
			_, spec, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			spec = a[2:]
		case a == "-x" || a == "--remove" || a == "-X" || a == "--remove-file":
			i++
			continue
		case strings.HasPrefix(a, "-"):
			continue
		default:
			ops = append(ops, i)
			continue
		}
		if aclTakesOwnerAccess(spec) {
			takes = true
		}
	}
	return ops, takes && len(ops) > 0
}

// aclTakesOwnerAccess reports whether an ACL names the owner's entry
// without read or write: u::---, user::r--, u::0.
func aclTakesOwnerAccess(spec string) bool {
	for _, entry := range strings.Split(spec, ",") {
		entry = strings.TrimPrefix(strings.TrimSpace(entry), "d:")
		entry = strings.TrimPrefix(entry, "default:")
		parts := strings.Split(entry, ":")
		if len(parts) != 3 || (parts[0] != "u" && parts[0] != "user") || parts[1] != "" {
			continue
		}
		perms := parts[2]
		if strings.Trim(perms, "01234567") == "" && perms != "" {
			if (perms[0]-'0')&6 != 6 {
				return true
			}
			continue
		}
		if !strings.Contains(perms, "r") || !strings.Contains(perms, "w") {
			return true
		}
	}
	return false
}
