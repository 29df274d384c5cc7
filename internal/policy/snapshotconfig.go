package policy

import (
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// SnapshotSettings bound the snapshots airlock takes before destruction
// inside a project, and how long they are kept:
//
//	snapshots:
//	  max_mib: 512     # one snapshot larger than this is not taken
//	  keep_days: 30    # airlock snapshots prune drops older ones
//	  keep_mib: 4096   # … and then the oldest, down to this total
//
// An untrusted project file may only tighten them: lower the bound (fewer
// deletions allowed) and raise the retention (nothing dropped sooner).
type SnapshotSettings struct {
	MaxMiB   int
	KeepDays int
	KeepMiB  int
}

// The defaults of SnapshotSettings.
const (
	defaultSnapshotMaxMiB   = 512
	defaultSnapshotKeepDays = 30
	defaultSnapshotKeepMiB  = 4096
)

// MaxBytes is the bound on one snapshot.
func (s SnapshotSettings) MaxBytes() int64 {
	return int64(orDefault(s.MaxMiB, defaultSnapshotMaxMiB)) << 20
}

// KeepAge is how long prune keeps a snapshot.
func (s SnapshotSettings) KeepAge() time.Duration {
	return time.Duration(orDefault(s.KeepDays, defaultSnapshotKeepDays)) * 24 * time.Hour
}

// KeepBytes is the total size prune keeps.
func (s SnapshotSettings) KeepBytes() int64 {
	return int64(orDefault(s.KeepMiB, defaultSnapshotKeepMiB)) << 20
}

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// snapshotDoc is the snapshots entry as written.
type snapshotDoc struct{ maxMiB, keepDays, keepMiB int }

func (d *snapshotDoc) decode(n *yaml.Node) error {
	num := func(dst *int, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, what)
			if err != nil {
				return err
			}
			k, err := strconv.Atoi(s)
			if err != nil || k <= 0 || k > 1<<20 {
				return strictyaml.At(v.Line, ErrBadValue, "%s must be a whole number from 1 to %d, not %q", what, 1<<20, s)
			}
			*dst = k
			return nil
		}
	}
	return strictyaml.Fields(n, "snapshots", map[string]func(*yaml.Node) error{
		"max_mib":   num(&d.maxMiB, "snapshots.max_mib"),
		"keep_days": num(&d.keepDays, "snapshots.keep_days"),
		"keep_mib":  num(&d.keepMiB, "snapshots.keep_mib"),
	})
}

// mergeSnapshots applies a file's snapshots entry: with authority as
// written, without it only lower.
func (p *Policy) mergeSnapshots(d *snapshotDoc, authority bool) {
	if d == nil {
		return
	}
	set := func(dst *int, v, def int, lower bool) {
		cur := orDefault(*dst, def)
		if v != 0 && (authority || lower && v < cur || !lower && v > cur) {
			*dst = v
		}
	}
	set(&p.Snapshots.MaxMiB, d.maxMiB, defaultSnapshotMaxMiB, true)
	set(&p.Snapshots.KeepDays, d.keepDays, defaultSnapshotKeepDays, false)
	set(&p.Snapshots.KeepMiB, d.keepMiB, defaultSnapshotKeepMiB, false)
}
