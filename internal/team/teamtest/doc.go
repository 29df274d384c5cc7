// Package teamtest holds team mode's integration tests: a real team
// server on a real PostgreSQL (internal/team/pgtest), and airlock homes
// whose hooks decide through the real pipeline and whose syncs talk to
// that server over loopback. It has no code outside its tests.
package teamtest
