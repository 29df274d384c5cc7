// Package serve is airlock's web dashboard: the live review queue, each
// held action in detail, approve and reject, "make it a rule", reports by
// session and story, and the journal's audit status.
//
// It is server-rendered (html/template, the assets embedded), and its one
// script only listens to server-sent events. The server trusts nothing
// the browser did not earn: a login token that changes at each start and
// is printed only to the human who started it (and kept in the state
// directory's secrets/, which self-protection keeps the agent out of); a
// session cookie; a CSRF token on every POST; the Host checked against the
// address it listens on, and cross-origin changes refused by the standard
// library's http.CrossOriginProtection and the Origin rules guard.go adds
// to it, so a page on another site, or a DNS-rebound name, cannot drive
// it. Approvals go through journal.Settle,
// the same human path "airlock queue approve" takes, with its MAC.
//
// The guard (Guard) and the page frame (ParseTemplates, Static) are
// exported for the team server's dashboard (internal/team/server), which
// shows the team queue with the same safety.
//
// Files: server.go (configuration, routes), guard.go (login, session,
// CSRF, Host and Origin, headers), pages.go (queue, item, approve,
// reject, reports, audit), rule.go (make it a rule), events.go (the live
// queue over server-sent events).
package serve
