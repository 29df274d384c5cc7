package journal

import "errors"

// A detected item (a scanner finding) already happened, or was only
// mentioned: there is nothing to let through or to refuse. A human
// settles it by acknowledging or dismissing it instead.
const (
	// EventAck is a human acknowledging a detected item: it happened and
	// the human knows (Ref names it).
	EventAck = "Acknowledge"
	// EventDismiss is a human dismissing a detected item as not an
	// outward action, e.g. a mention (Ref names it).
	EventDismiss = "Dismiss"

	// Acknowledged: a human saw the detected item and accepts it.
	Acknowledged Status = "acknowledged"
	// Dismissed: a human judged the detected item not to be an action.
	Dismissed Status = "dismissed"
)

var (
	// ErrDetected: approve (or reject, or run) asked of an item found
	// after the fact, which no retry will ever consume.
	ErrDetected = errors.New("found after the fact")
	// ErrNotDetected: ack or dismiss asked of an item a hook held, which
	// a human approves or rejects.
	ErrNotDetected = errors.New("held by a hook, not found after the fact")
)

// settledBy is the status an acknowledging or dismissing event gives.
func settledBy(event string) (Status, bool) {
	switch event {
	case EventAck:
		return Acknowledged, true
	case EventDismiss:
		return Dismissed, true
	}
	return "", false
}
