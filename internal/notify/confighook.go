package notify

import (
	"github.com/airlock-dev/airlock/internal/notify/config"
	"github.com/airlock-dev/airlock/internal/policy"
)

// The notify section's schema lives in internal/notify/config; these
// names let callers of the watcher use one package.
type (
	// Config is the user's "notify:" section, decoded.
	Config = config.Config
	// Ntfy configures the ntfy channel.
	Ntfy = config.Ntfy
	// Webhook configures the generic webhook.
	Webhook = config.Webhook
)

// Decode reads the notify section of the user's policy (config.Decode).
func Decode(sec *policy.Section) (*Config, error) { return config.Decode(sec) }

// DefaultExpireAfter is how long a notification's buttons stay valid by
// default.
const DefaultExpireAfter = config.DefaultExpireAfter

// ErrConfig is wrapped by every mistake in the notify section.
var ErrConfig = config.ErrConfig

func validTopic(s string) bool { return config.ValidTopic(s) }
