// Package journal is airlock's append-only, hash-chained event log, and
// the projections read from it: the deferred queue, the session report
// and the audit.
//
// The journal is a directory of JSON-lines segments
// (journal-000001.jsonl, journal-000002.jsonl, ...). Every line is one
// Entry carrying a sequence number and prev, the SHA-256 of the line
// before it (across segments), so that an edited, removed or reordered
// line breaks the chain where it happened. Writers are separate hook
// processes running in parallel; each append takes an exclusive flock on
// the directory's lock file, reads the tail, and writes its line with one
// write call. A line that does not end in a newline is a torn write from
// a crash: the next writer (or "airlock audit repair") sets it aside in a
// .torn file next to the segment and carries on from the last complete
// line, so no complete event is ever lost.
//
// Beside the segments: HEAD, the anchored head (last seq, hash, count,
// where the last line ends), rewritten after every append so that a
// deleted segment or a cut tail is reported rather than taken for a new
// install; index/, posting files derived from the journal (the queue,
// the entry points' details, each session and story) so that the hook,
// the queue, a session's report and the MCP guard cost what they show,
// not the journal's length; CHECKPOINT and archive/, what "airlock audit
// archive" moved out of the live journal. Human acts carry a MAC keyed by
// <state>/secrets/human.key and count only with it.
//
// Nothing here decides anything: the journal records what the policy
// decided and what humans did about it.
package journal
