// Package notify sends held actions to a human away from the terminal and
// takes their decisions back: ntfy push notifications with Approve and
// Reject buttons, and a generic JSON webhook (notification only).
//
// It follows the journal's queue off the hook's path (the hook never
// waits on a network), remembers what it sent in <state>/notify/ so that
// an item is sent once, and reads the buttons' replies from a private
// reply topic on the same ntfy server, so nothing needs to reach the
// developer's machine.
//
// A reply counts only when it carries an HMAC, keyed by
// <state>/secrets/notify.key (which self-protection keeps every agent
// away from), over the item id, the decision, the expiry, a nonce and the
// hash of the held action. Each nonce is used once. An expired, forged or
// replayed reply is refused and journaled. An accepted reply is a human
// act written by journal.Settle, exactly as "airlock queue approve"
// writes one, with its channel in the note.
//
// One phase per file: internal/notify/config decodes the user's
// "notify:" section (a package of its own, without HTTP, so that "airlock
// policy check" can use it), secrets.go keeps the key and the generated
// topics, redact.go hides secrets, message.go builds what is shown,
// reply.go signs and checks replies, state.go remembers what was sent and
// used, ntfy.go and webhook.go speak to the channels, run.go is the
// watcher. internal/notify/notifycmd is the airlock-notify command, and
// internal/notify/ntfytest a loopback ntfy server for tests.
package notify
