package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file covers database clients: SQL through psql, mysql, sqlite3,
// duckdb, cqlsh and clickhouse-client, plus redis-cli and the mongo shells.
// Databases are shared state, so writes are shared, losing data (DROP,
// TRUNCATE, DELETE or UPDATE without WHERE) is destructive, and a write to
// a database on another host is external.

// sqlDialect says how a client's SQL is lexed.
type sqlDialect struct {
	hash   bool // '#' starts a comment and backslash escapes in strings (MySQL)
	dollar bool // $tag$ … $tag$ quoting (PostgreSQL)
	meta   byte // what starts a client command at the start of a line: '\\' (psql, mysql) or '.' (sqlite3, duckdb)
	depth  int  // internal: how deep inside dollar-quoted blocks the lexer is
}

// sqlMaxDollarDepth bounds how deep dollar-quoted bodies are lexed as
// code, so crafted nesting cannot make lexing quadratic.
const sqlMaxDollarDepth = 3

var (
	sqlPostgres = sqlDialect{dollar: true, meta: '\\'}
	sqlMySQL    = sqlDialect{hash: true, meta: '\\'}
	sqlLite     = sqlDialect{meta: '.'}
	sqlPlain    = sqlDialect{}
)

// sqlToken is one word, symbol or literal of SQL text. Words are upper
// case in up and as written in raw; literals start with their quote.
type sqlToken struct{ up, raw string }

// sqlLex splits SQL text into statements of tokens, leaving the contents of
// strings and comments out of the words (so a string holding "DROP TABLE"
// is not a DROP). The body of a dollar-quoted block (a DO or function
// body) is code, so its statements are returned too.
func sqlLex(s string, d sqlDialect) [][]sqlToken {
	// Words are cut from one upper-cased copy of the text (ASCII only, so
	// byte offsets match) and statements from one token array, so that a
	// long script costs a handful of allocations rather than one a word.
	up := sqlASCIIUpper(s)
	var out [][]sqlToken
	var extra [][]sqlToken
	toks := make([]sqlToken, 0, len(s)/6+1)
	start := 0
	flush := func() {
		if len(toks) > start {
			out = append(out, toks[start:len(toks):len(toks)])
		}
		start = len(toks)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '#' && d.hash:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = sqlBlockCommentEnd(s, i)
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(s) {
				if s[j] == '\\' && d.hash && c != '`' {
					j += 2
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(s))
			toks = append(toks, sqlToken{s[i:end], s[i:end]})
			i = end
		case c == '$' && d.dollar:
			j := i + 1
			for j < len(s) && sqlWordByte(s[j]) && s[j] != '$' {
				j++
			}
			if j < len(s) && s[j] == '$' && (j == i+1 || !(s[i+1] >= '0' && s[i+1] <= '9')) {
				tag := s[i : j+1]
				body := s[j+1:]
				end := strings.Index(body, tag)
				next := len(s)
				if end >= 0 {
					body, next = body[:end], j+1+end+len(tag)
				}
				if d.depth < sqlMaxDollarDepth {
					inner := d
					inner.depth++
					extra = append(extra, sqlLex(body, inner)...)
				}
				toks = append(toks, sqlToken{"'$$'", tag})
				i = next
				continue
			}
			toks = append(toks, sqlToken{"$", "$"})
			i++
		case c == ';':
			flush()
			i++
		case sqlWordByte(c):
			j := i
			for j < len(s) && (sqlWordByte(s[j]) || s[j] == '$') {
				j++
			}
			toks = append(toks, sqlToken{up[i:j], s[i:j]})
			i = j
		default:
			toks = append(toks, sqlToken{s[i : i+1], s[i : i+1]})
			i++
		}
	}
	flush()
	return append(out, extra...)
}

// sqlASCIIUpper upper-cases ASCII letters only, keeping every byte offset.
func sqlASCIIUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// sqlWordByte reports whether c can be part of an SQL word (non-ASCII
// bytes included, so identifiers in any script stay one word).
func sqlWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// sqlFinding is what one statement does: level 0 reads, 1 writes, 2 loses
// data; head is the statement as a human would name it.
type sqlFinding struct {
	level int
	rule  string
	head  string
	what  string
}

// sqlReads lists statements that only read or set up the session.
func sqlReads(name string) bool {
	switch name {
	case "SELECT", "VALUES", "TABLE", "SHOW", "DESCRIBE", "DESC", "USE", "SET", "RESET", "BEGIN", "START",
		"COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE", "LISTEN", "UNLISTEN", "NOTIFY", "FETCH",
		"MOVE", "CLOSE", "DECLARE", "DISCARD", "PREPARE", "DEALLOCATE", "CHECKPOINT", "HELP", "STATUS",
		"ANALYZE", "ANALYSE", "ATTACH", "DETACH", "EXISTS", "CHECK", "CONSISTENCY", "SERIAL", "TRACING",
		"PAGING", "EXPAND", "CAPTURE", "LOGIN", "SUMMARIZE", "FROM", "PIVOT", "UNPIVOT", "WATCH", "HANDLER",
		"CACHE":
		return true
	}
	return false
}

// sqlWrites lists statements that change the database.
var sqlWrites = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"INSERT": "adds rows", "REPLACE": "writes rows", "UPSERT": "writes rows", "MERGE": "changes rows",
		"CREATE": "creates a database object", "GRANT": "changes permissions", "REVOKE": "changes permissions",
		"COMMENT": "changes the schema", "VACUUM": "rewrites tables", "REINDEX": "rebuilds indexes",
		"CLUSTER": "rewrites a table", "REFRESH": "rewrites a materialized view", "LOCK": "locks tables",
		"CALL": "runs a stored procedure", "DO": "runs a code block", "RENAME": "renames objects",
		"OPTIMIZE": "rewrites tables", "REPAIR": "repairs tables", "FLUSH": "flushes server state",
		"KILL": "kills a server session", "INSTALL": "installs a plugin", "UNINSTALL": "removes a plugin",
		"IMPORT": "imports data", "LOAD": "loads data or code", "SECURITY": "changes security labels",
		"REASSIGN": "changes ownership", "EXECUTE": "runs a prepared statement", "EXEC": "runs a procedure",
		"SYSTEM": "runs a server command", "BACKUP": "writes a backup", "RESTORE": "restores a backup over the data",
		"SOURCE": "runs SQL from a file", "EXPORT": "exports data", "RENAME_TABLE": "renames tables",
	}
}}

// sqlStatement rates one statement.
func sqlStatement(st []sqlToken) sqlFinding {
	for len(st) > 0 && st[0].up == "(" {
		st = st[1:]
	}
	if len(st) == 0 {
		return sqlFinding{}
	}
	verb := st[0].up
	switch verb {
	case "DROP":
		kind, name := sqlObject(st[1:])
		what := "deletes the " + strings.ToLower(kind)
		switch kind {
		case "TABLE", "DATABASE", "SCHEMA", "KEYSPACE", "COLLECTION", "OWNED":
			what += " and all its data"
		}
		return sqlFinding{2, "sql.drop", strings.TrimSpace("DROP " + kind + " " + name), what}
	case "TRUNCATE":
		name := sqlName(st[1:])
		return sqlFinding{2, "sql.truncate", strings.TrimSpace("TRUNCATE " + name), "deletes every row of the table"}
	case "DELETE":
		name := sqlAfter(st, "FROM")
		if w, trivial := sqlWhere(st); !w || trivial {
			return sqlFinding{2, "sql.delete-all", "DELETE FROM " + name + " without a WHERE that limits it", "deletes every row of the table"}
		}
		return sqlFinding{1, "sql.write", "DELETE FROM " + name + " … WHERE", "deletes matching rows"}
	case "UPDATE":
		name := ""
		if len(st) > 1 {
			name = st[1].raw
		}
		if w, trivial := sqlWhere(st); !w || trivial {
			return sqlFinding{2, "sql.update-all", "UPDATE " + name + " without a WHERE that limits it", "overwrites every row of the table"}
		}
		return sqlFinding{1, "sql.write", "UPDATE " + name + " … WHERE", "changes matching rows"}
	case "ALTER":
		kind, name := sqlObject(st[1:])
		head := strings.TrimSpace("ALTER " + kind + " " + name)
		depth := 0
		for i, t := range st {
			switch t.up {
			case "(":
				depth++
			case ")":
				depth--
			case "DROP", "TRUNCATE":
				if depth != 0 {
					continue
				}
				if i+1 < len(st) && t.up == "DROP" {
					switch st[i+1].up {
					case "DEFAULT", "NOT", "IDENTITY", "EXPRESSION", "STATISTICS":
						continue
					}
				}
				return sqlFinding{2, "sql.alter-drop", head + " … " + t.up, "removes part of the " + strings.ToLower(kind) + " with its data"}
			}
		}
		return sqlFinding{1, "sql.write", head, "changes the schema"}
	case "EXPLAIN":
		analyze := false
		for i, t := range st {
			if t.up == "ANALYZE" || t.up == "ANALYSE" {
				analyze = true
			}
			if analyze && i > 0 && (sqlWrites.Get()[t.up] != "" || t.up == "DELETE" || t.up == "UPDATE" || t.up == "WITH") {
				return sqlStatement(st[i:])
			}
		}
		return sqlFinding{}
	case "WITH":
		worst := sqlFinding{}
		for i, t := range st {
			if i == 0 || t.up != "DELETE" && t.up != "UPDATE" && t.up != "INSERT" && t.up != "MERGE" {
				continue
			}
			switch st[i-1].up {
			case "FOR", "ON", "DO", "KEY", "NO":
				continue
			}
			if f := sqlStatement(sqlGroup(st[i:])); f.level > worst.level {
				worst = f
			}
		}
		return worst
	case "SELECT":
		for i, t := range sqlTop(st) {
			if t.up == "INTO" && i+1 < len(st) {
				n := st[i+1].up
				if n != "OUTFILE" && n != "DUMPFILE" && n != "@" && !strings.HasPrefix(n, "@") {
					return sqlFinding{1, "sql.write", "SELECT … INTO", "creates a table"}
				}
			}
		}
		return sqlFinding{}
	case "COPY":
		for _, t := range sqlTop(st) {
			if t.up == "FROM" {
				return sqlFinding{1, "sql.write", "COPY … FROM", "loads rows into a table"}
			}
			if t.up == "PROGRAM" {
				return sqlFinding{1, "sql.write", "COPY … PROGRAM", "runs a program on the database server"}
			}
		}
		return sqlFinding{}
	case "PRAGMA":
		for _, t := range st {
			if t.up == "=" {
				return sqlFinding{1, "sql.write", "PRAGMA", "changes database settings"}
			}
		}
		return sqlFinding{}
	}
	if sqlReads(verb) {
		return sqlFinding{}
	}
	if what, ok := sqlWrites.Get()[verb]; ok {
		return sqlFinding{1, "sql.write", verb, what}
	}
	if verb[0] == '\'' || verb[0] == '"' || verb[0] == '`' || verb[0] >= '0' && verb[0] <= '9' || len(verb) == 1 {
		return sqlFinding{} // a stray literal or symbol, not a statement
	}
	return sqlFinding{1, "sql.unknown", clip(st[0].raw), "is a statement airlock does not know, so it may write"}
}

// sqlObject reads the kind and name after DROP, TRUNCATE or ALTER,
// skipping modifiers such as TEMPORARY and IF EXISTS.
func sqlObject(st []sqlToken) (kind, name string) {
	i := 0
	for i < len(st) {
		switch st[i].up {
		case "TEMPORARY", "TEMP", "MATERIALIZED", "FOREIGN", "UNLOGGED", "GLOBAL", "LOCAL", "EXTERNAL", "ONLY":
			i++
			continue
		}
		break
	}
	if i < len(st) && st[i].up != "IF" {
		kind = st[i].up
		i++
	}
	for i < len(st) {
		switch st[i].up {
		case "IF", "EXISTS", "NOT", "CONCURRENTLY", "TABLE", "ONLY":
			i++
			continue
		}
		break
	}
	if i < len(st) {
		name = st[i].raw
		for i+2 < len(st) && st[i+1].up == "." {
			name += "." + st[i+2].raw
			i += 2
		}
	}
	return kind, name
}

// sqlName returns the table named after TRUNCATE, skipping TABLE, ONLY
// and IF EXISTS.
func sqlName(st []sqlToken) string {
	for len(st) > 0 {
		switch st[0].up {
		case "TABLE", "ONLY", "IF", "EXISTS":
			st = st[1:]
			continue
		}
		return st[0].raw
	}
	return ""
}

// sqlAfter returns the word after the first top-level keyword kw.
func sqlAfter(st []sqlToken, kw string) string {
	top := sqlTop(st)
	for i, t := range top {
		if t.up == kw && i+1 < len(top) {
			return top[i+1].raw
		}
	}
	if len(st) > 1 {
		return st[1].raw
	}
	return ""
}

// sqlTop returns the tokens outside parentheses.
func sqlTop(st []sqlToken) []sqlToken {
	paren := false
	for _, t := range st {
		paren = paren || t.up == "("
	}
	if !paren {
		return st
	}
	var out []sqlToken
	depth := 0
	for _, t := range st {
		switch t.up {
		case "(":
			depth++
			continue
		case ")":
			depth--
			continue
		}
		if depth == 0 {
			out = append(out, t)
		}
	}
	return out
}

// sqlGroup cuts a statement found inside parentheses (a data-modifying
// CTE) at the parenthesis that closes it.
func sqlGroup(st []sqlToken) []sqlToken {
	depth := 0
	for i, t := range st {
		switch t.up {
		case "(":
			depth++
		case ")":
			if depth == 0 {
				return st[:i]
			}
			depth--
		}
	}
	return st
}

// sqlWhere reports whether a DELETE or UPDATE has a top-level WHERE, and
// whether that WHERE is always true (WHERE 1, WHERE TRUE, WHERE 1=1).
func sqlWhere(st []sqlToken) (has, trivial bool) {
	top := sqlTop(st)
	for i, t := range top {
		if t.up != "WHERE" {
			continue
		}
		rest := top[i+1:]
		switch {
		case len(rest) == 0:
			return true, true
		case len(rest) == 1 && (rest[0].up == "TRUE" || rest[0].up == "1"):
			return true, true
		case len(rest) >= 3 && rest[1].up == "=" && rest[0].up == rest[2].up && (len(rest) == 3 || rest[3].up == "OR"):
			return true, true
		case rest[0].up == "CURRENT" && len(rest) > 1 && rest[1].up == "OF":
			return true, false
		}
		return true, false
	}
	return false, false
}

// sqlAnalysis is what a whole piece of SQL input does: the most severe
// finding, and the effect of any shell command or script file it runs.
type sqlAnalysis struct {
	worst  sqlFinding
	nested Effect
	// interactive says the client reads statements typed at a terminal,
	// which airlock cannot see.
	interactive bool
}

// add keeps the most severe finding: its reason is the one a reviewer
// needs, and one reason reads better than one per statement.
func (a *sqlAnalysis) add(f sqlFinding) {
	if f.level > a.worst.level {
		a.worst = f
	}
}

// sqlText analyses SQL input with the client's own commands: backslash
// commands for psql and mysql, dot commands for sqlite3 and duckdb.
func sqlText(c *Classifier, a *sqlAnalysis, text string, d sqlDialect) {
	if d.meta == 0 {
		for _, st := range sqlLex(text, d) {
			a.add(sqlStatement(st))
		}
		return
	}
	if d.meta == '.' {
		sqliteCode(a, text)
	}
	var sql strings.Builder
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && t[0] == d.meta || d.hash && sqlMySQLCommand(t) {
			sqlClientCommand(c, a, t, d)
			continue
		}
		sql.WriteString(line)
		sql.WriteByte('\n')
	}
	for _, st := range sqlLex(sql.String(), d) {
		if a.worst.level >= 2 {
			break // nothing is worse than losing data
		}
		a.add(sqlStatement(st))
	}
}

// sqlMySQLCommand reports whether a line is one of the mysql client's
// word commands (system, source), which take no semicolon.
func sqlMySQLCommand(t string) bool {
	w, _, _ := strings.Cut(t, " ")
	w = strings.ToLower(w)
	return w == "system" || w == "source" || w == "pager"
}

// sqlClientCommand rates one client command line: a shell escape runs
// shell text, reading a file runs unknown SQL, the rest is display.
func sqlClientCommand(c *Classifier, a *sqlAnalysis, line string, d sqlDialect) {
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	if cmd == "\\!" || cmd == ".shell" || cmd == ".system" || strings.EqualFold(cmd, "system") {
		if arg != "" {
			a.nested.Add(c.sqlShell(cmd, arg))
		}
		return
	}
	if strings.HasPrefix(cmd, "\\!") && len(cmd) > 2 {
		a.nested.Add(c.sqlShell("\\!", cmd[2:]+" "+arg))
		return
	}
	if sqlPipeCommand(c, a, cmd, arg) {
		return
	}
	switch strings.ToLower(cmd) {
	case "\\i", "\\ir", "\\include", "\\include_relative", ".read", "\\.", "source":
		if !c.sqlFile(a, strings.Trim(arg, `"'`), d) {
			a.add(sqlFinding{1, "sql.file", "SQL from the file " + arg + " (" + cmd + ")", "may write the database"})
		}
	case "\\gexec":
		a.add(sqlFinding{1, "sql.gexec", "\\gexec", "runs the SQL a query produces, which may write the database"})
	case "\\copy":
		if strings.Contains(strings.ToLower(arg), " from ") {
			a.add(sqlFinding{1, "sql.write", "\\copy … from", "loads rows into a table"})
		}
	case ".import":
		a.add(sqlFinding{1, "sql.write", ".import", "loads rows into a table"})
	case ".restore":
		a.add(sqlFinding{2, "sql.restore", ".restore", "overwrites the database with a backup"})
	case ".load":
		// An extension is native code the client runs (FINDINGS-9 P16).
		a.nested.Add(opaque("sql.load", cmd+" "+clip(arg)+" loads an extension, native code the client runs, which airlock does not read"))
	}
}

// sqlHostLocal reports whether a database host names this machine: empty,
// localhost, a loopback address or a Unix socket directory.
func sqlHostLocal(h string) bool {
	h = strings.Trim(h, "[]")
	switch strings.ToLower(h) {
	case "", "localhost", "127.0.0.1", "::1", "0.0.0.0", "localhost.localdomain":
		return true
	}
	return strings.HasPrefix(h, "/") || strings.HasPrefix(h, "@") || strings.HasPrefix(h, "127.")
}

// sqlURLHost returns the host of a URL such as postgres://u:p@host:5432/db,
// and whether the word is a URL at all.
func sqlURLHost(u string) (string, bool) {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", false
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if i := strings.IndexByte(rest, ']'); i >= 0 {
			return rest[:i+1], true
		}
	}
	if i := strings.IndexByte(rest, ','); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		rest = rest[:i]
	}
	return rest, true
}

// sqlConninfoHost returns host=… from a libpq conninfo string.
func sqlConninfoHost(s string) (string, bool) {
	for _, f := range strings.Fields(s) {
		if k, v, ok := strings.Cut(f, "="); ok && (k == "host" || k == "hostaddr") {
			return strings.Trim(v, `'"`), true
		}
	}
	return "", false
}

// sqlEnvHost finds the host a client is pointed at through its
// environment (PGHOST=db.example psql …, env DOCKER_HOST=… docker …).
func sqlEnvHost(inv *shell.Invocation, name string) (string, bool) {
	v, ok := inv.Getenv(name)
	return strings.Trim(v, `'"`), ok
}

// sqlTarget is where a client connects: the host, whether it is another
// machine, and the client's name for messages.
type sqlTarget struct {
	prog   string
	host   string
	remote bool
}

// setHost records a host; a host computed at run time counts as remote,
// since nothing shows it is this machine. A host read out of a dynamic
// word (postgres://localhost/$DB) is as good as a static one.
func (t *sqlTarget) setHost(h string, dynamic bool) {
	t.host = h
	t.remote = dynamic && strings.ContainsAny(h, "$`") || !sqlHostLocal(h)
}

// sqlDynamicAddress reports whether a word computed at run time is shaped
// like a connection string ($DATABASE_URL, "$PG_DSN"), whose host cannot
// be known; a computed database name ($DB) is not.
func sqlDynamicAddress(w string) bool {
	u := strings.ToUpper(w)
	for _, k := range []string{"URL", "URI", "DSN", "CONN", "://", "HOST="} {
		if strings.Contains(u, k) {
			return true
		}
	}
	return false
}

// sqlVerdict turns an analysis into an effect: reads stay local (reading
// the network when remote), writes are shared (external when remote),
// losing data is destructive.
func sqlVerdict(t sqlTarget, a sqlAnalysis) Effect {
	f := a.worst
	var e Effect
	switch {
	case f.level == 0 && t.remote && a.interactive:
		e = external("sql.remote-session", t.prog+" opens a session on the database at "+t.host+", whose statements airlock cannot see")
	case f.level == 0 && t.remote:
		e = netRead("sql.remote-read", t.prog+" reads from the database at "+t.host)
	case f.level == 0:
		e = nothing
	default:
		msg := t.prog + " runs " + f.head + ", which " + f.what
		if t.remote {
			msg += " (on the database at " + t.host + ")"
		}
		e = shared(f.rule, msg)
		if t.remote {
			e.Tier = External
		}
		e.Destructive = f.level >= 2
	}
	e.Add(a.nested)
	return e
}

// sqlInput analyses what a client would read on standard input when no
// command was given on the command line.
func sqlInput(c *Classifier, inv *shell.Invocation, a *sqlAnalysis, d sqlDialect) {
	switch {
	case inv.StdinKnown:
		sqlText(c, a, inv.StdinText, d)
	case inv.Stdin != "":
		a.add(sqlFinding{1, "sql.stdin", "SQL read from its input", "may write the database"})
	default:
		for _, r := range inv.Redirects {
			if r.Op == "<" {
				if !r.Dynamic && c.sqlInputFile(inv, a, r.Target, d) {
					return
				}
				a.add(sqlFinding{1, "sql.file", "SQL from " + r.Target, "may write the database"})
				return
			}
		}
		a.interactive = true
	}
}

// sqlArg analyses SQL given as an option's value or an operand. A word
// computed at run time is read from its source text; if nothing of it is
// known, it may write.
func sqlArg(c *Classifier, a *sqlAnalysis, text string, dynamic bool, d sqlDialect) {
	if dynamic {
		text = strings.TrimSuffix(strings.TrimPrefix(text, `"`), `"`)
		sts := sqlLex(text, sqlPlain)
		if len(sts) == 0 || sts[0][0].up == "$" || sts[0][0].up == "`" {
			a.add(sqlFinding{1, "sql.dynamic", "SQL computed at run time (" + clip(text) + ")", "may write the database"})
			return
		}
	}
	sqlText(c, a, text, d)
}

// sqlHelp reports whether the arguments only ask for help or a version.
func sqlHelp(args []string) bool {
	return hasAny(args, "--help", "--version", "-?")
}

var sqlPsqlArgs = argv.Spec{Short: "cdfhpUvoLPFRT", Long: []string{"--command", "--dbname", "--file", "--host", "--port",
	"--username", "--set", "--variable", "--output", "--log-file", "--pset", "--field-separator", "--record-separator", "--table-attr"}}

// sqlPsql rates psql: -c and -f in order, else its input.
func sqlPsql(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if sqlHelp(args) || hasAny(args, "-V") {
		return nothing
	}
	p := sqlPsqlArgs.Parse(args)
	t := sqlTarget{prog: "psql"}
	if h, ok := sqlEnvHost(inv, "PGHOST"); ok {
		t.setHost(h, false)
	}
	conn := func(w string, dyn bool) {
		if h, ok := sqlURLHost(w); ok {
			t.setHost(h, dyn)
		} else if h, ok := sqlConninfoHost(w); ok {
			t.setHost(h, dyn)
		} else if dyn && sqlDynamicAddress(w) {
			t.setHost(w, true)
		}
	}
	if len(p.Operands) > 0 {
		conn(p.Operands[0], inv.IsDynamic(1+p.OperandIndex[0]))
	}
	var a sqlAnalysis
	if !p.Has("-X", "--no-psqlrc") {
		c.sqlStartFiles(inv, &a, sqlPostgres)
	}
	commands := false
	for _, f := range p.Flags {
		dyn := inv.IsDynamic(1 + f.ValueIndex)
		switch f.Name {
		case "-h", "--host":
			t.setHost(f.Value, dyn)
		case "-d", "--dbname":
			conn(f.Value, dyn)
		case "-c", "--command":
			commands = true
			sqlArg(c, &a, f.Value, inv.IsDynamic(1+f.ValueIndex), sqlPostgres)
		case "-f", "--file":
			commands = true
			if f.Value == "-" {
				sqlInput(c, inv, &a, sqlPostgres)
			} else if dyn || !c.sqlInputFile(inv, &a, f.Value, sqlPostgres) {
				a.add(sqlFinding{1, "sql.file", "SQL from the file " + f.Value, "may write the database"})
			}
		case "-l", "--list":
			commands = true
		}
	}
	if !commands {
		sqlInput(c, inv, &a, sqlPostgres)
	}
	return sqlVerdict(t, a)
}

var sqlMysqlArgs = argv.Spec{Short: "ehPuDSO", Long: []string{"--execute", "--host", "--port", "--user", "--database",
	"--socket", "--protocol", "--default-character-set", "--init-command", "--defaults-file", "--defaults-extra-file",
	"--login-path", "--tee", "--pager", "--prompt", "--connect-timeout", "--max-allowed-packet", "--net-buffer-length",
	"--delimiter", "--bind-address", "--plugin-dir", "--default-auth", "--character-sets-dir", "--ssl-ca", "--ssl-cert",
	"--ssl-key", "--ssl-mode", "--ssl-cipher", "--tls-version", "--server-public-key-path", "--load-data-local-dir",
	"--histignore", "--compression-algorithms", "--zstd-compression-level", "--dns-srv-name", "--local-infile"}}

// sqlMysqlPassword returns a copy of the arguments with -pSECRET as -p:
// MySQL programs take the password attached, never as a separate word, so
// its letters must not be read as bundled options.
func sqlMysqlPassword(in []string) []string {
	args := make([]string, len(in))
	for i, a := range in {
		if strings.HasPrefix(a, "-p") && len(a) > 2 {
			a = "-p"
		}
		args[i] = a
	}
	return args
}

// sqlMysql rates mysql and mariadb: -e, else the input.
func sqlMysql(c *Classifier, inv *shell.Invocation) Effect {
	args := sqlMysqlPassword(inv.Args[1:])
	if sqlHelp(args) || hasAny(args, "-V") {
		return nothing
	}
	p := sqlMysqlArgs.Parse(args)
	t := sqlTarget{prog: inv.Name()}
	if h, ok := sqlEnvHost(inv, "MYSQL_HOST"); ok {
		t.setHost(h, false)
	}
	var a sqlAnalysis
	commands := false
	for _, f := range p.Flags {
		dyn := inv.IsDynamic(1 + f.ValueIndex)
		switch f.Name {
		case "-h", "--host":
			t.setHost(f.Value, dyn)
		case "-e", "--execute":
			commands = true
			sqlArg(c, &a, f.Value, inv.IsDynamic(1+f.ValueIndex), sqlMySQL)
		case "--init-command":
			sqlArg(c, &a, f.Value, inv.IsDynamic(1+f.ValueIndex), sqlMySQL)
		}
	}
	if !commands {
		sqlInput(c, inv, &a, sqlMySQL)
	}
	return sqlVerdict(t, a)
}

// sqliteArgs parses sqlite3's and duckdb's words (they accept -opt and
// --opt alike), and reports a run that only asks for help or a version.
func sqliteArgs(inv *shell.Invocation) (argv.Parsed, bool) {
	args := make([]string, len(inv.Args)-1)
	for i, a := range inv.Args[1:] {
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			a = a[1:]
		}
		args[i] = a
	}
	p := argv.Spec{LongSingleDash: true, Short: "cfsA", Long: []string{"-init", "-cmd", "-c", "-s", "-f", "-separator", "-nullvalue", "-newline",
		"-vfs", "-mmap", "-maxsize", "-lookaside", "-pagecache", "-heap", "-escape", "-A"}}.Parse(args)
	return p, hasAny(args, "-help", "-version", "-h")
}

// sqlLocalFile rates sqlite3 and duckdb: the first operand is the database
// file, the rest are SQL or dot commands; without a file (or with
// :memory:) nothing outlives the process, so writes stay local.
func sqlLocalFile(c *Classifier, inv *shell.Invocation) Effect {
	p, help := sqliteArgs(inv)
	if help {
		return nothing
	}
	t := sqlTarget{prog: inv.Name()}
	var a sqlAnalysis
	commands := false
	for _, f := range p.Flags {
		switch f.Name {
		case "-cmd", "-c", "-s":
			commands = commands || f.Name != "-cmd"
			sqlArg(c, &a, f.Value, inv.IsDynamic(1+f.ValueIndex), sqlLite)
		case "-init", "-f":
			// The file's commands are read as the client reads them, dot
			// commands and .shell included (FINDINGS-9 P16).
			commands = commands || f.Name == "-f"
			if !c.sqliteFile(inv, &a, f.Value, inv.IsDynamic(1+f.ValueIndex)) {
				a.add(sqlFinding{1, "sql.file", "SQL from the file " + f.Value, "may write the database"})
			}
		}
	}
	if !p.Has("-init") {
		c.sqlStartFiles(inv, &a, sqlLite)
	}
	for i := 1; i < len(p.Operands); i++ {
		commands = true
		sqlArg(c, &a, p.Operands[i], inv.IsDynamic(1+p.OperandIndex[i]), sqlLite)
	}
	if !commands {
		sqlInput(c, inv, &a, sqlLite)
	}
	memory := len(p.Operands) == 0 || p.Operands[0] == ":memory:" || p.Operands[0] == ""
	if memory || p.Has("-readonly") {
		a.worst = sqlFinding{} // writes to an in-memory or read-only database vanish or fail
	}
	return sqlVerdict(t, a)
}

// sqlCqlsh rates cqlsh: -e or -f, else the input; the first operand is the
// host.
func sqlCqlsh(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if sqlHelp(args) {
		return nothing
	}
	p := argv.Spec{Short: "efukpb", Long: []string{"--execute", "--file", "--username", "--keyspace", "--password",
		"--cqlversion", "--protocol-version", "--connect-timeout", "--request-timeout", "--encoding", "--cqlshrc",
		"--credentials", "--browser"}}.Parse(args)
	t := sqlTarget{prog: "cqlsh"}
	if len(p.Operands) > 0 {
		t.setHost(p.Operands[0], inv.IsDynamic(1+p.OperandIndex[0]))
	}
	var a sqlAnalysis
	commands := false
	for _, f := range p.Flags {
		switch f.Name {
		case "-e", "--execute":
			commands = true
			sqlArg(c, &a, f.Value, inv.IsDynamic(1+f.ValueIndex), sqlPlain)
		case "-f", "--file":
			commands = true
			a.add(sqlFinding{1, "sql.file", "CQL from the file " + f.Value, "may write the database"})
		}
	}
	if !commands {
		sqlInput(c, inv, &a, sqlPlain)
	}
	return sqlVerdict(t, a)
}

// sqlClickhouse rates clickhouse-client (and "clickhouse client"):
// --query, --queries-file, else the input.
func sqlClickhouse(c *Classifier, inv *shell.Invocation, from int) Effect {
	args := inv.Args[from:]
	if sqlHelp(args) {
		return nothing
	}
	p := argv.Spec{Short: "qhudCf", Long: []string{"--query", "--host", "--port", "--user", "--password", "--database",
		"--queries-file", "--config-file", "--format"}}.Parse(args)
	t := sqlTarget{prog: "clickhouse-client"}
	var a sqlAnalysis
	commands := false
	for _, f := range p.Flags {
		switch f.Name {
		case "-h", "--host":
			t.setHost(f.Value, inv.IsDynamic(from+f.ValueIndex))
		case "-q", "--query":
			commands = true
			sqlArg(c, &a, f.Value, inv.IsDynamic(from+f.ValueIndex), sqlPlain)
		case "--queries-file":
			commands = true
			a.add(sqlFinding{1, "sql.file", "SQL from the file " + f.Value, "may write the database"})
		}
	}
	if !commands {
		sqlInput(c, inv, &a, sqlPlain)
	}
	return sqlVerdict(t, a)
}

// sqlAdminHost finds -h/--host in the options of the PostgreSQL and MySQL
// admin programs.
func sqlAdminHost(inv *shell.Invocation, p argv.Parsed, prog string) sqlTarget {
	t := sqlTarget{prog: prog}
	if f, ok := p.Last("-h", "--host"); ok {
		t.setHost(f.Value, inv.IsDynamic(1+f.ValueIndex))
	}
	return t
}

// sqlPgAdmin rates dropdb, dropuser, createdb, createuser and pg_restore.
func sqlPgAdmin(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	name := inv.Name()
	if sqlHelp(args) || hasAny(args, "-V") {
		return nothing
	}
	spec := argv.Spec{Short: "hpUDElOTSgcd", Long: []string{"--host", "--port", "--username", "--tablespace", "--encoding",
		"--locale", "--lc-collate", "--lc-ctype", "--icu-locale", "--icu-rules", "--locale-provider", "--maintenance-db",
		"--owner", "--template", "--strategy", "--connection-limit", "--role", "--member-of", "--with-admin",
		"--with-member", "--valid-until"}}
	if name == "pg_restore" {
		spec = argv.Spec{Short: "hpUdfnIPLtTjFSOW", Long: []string{"--host", "--port", "--username", "--dbname", "--file",
			"--schema", "--index", "--function", "--trigger", "--table", "--use-list", "--jobs", "--format",
			"--role", "--superuser", "--exclude-schema", "--section", "--filter"}}
	}
	p := spec.Parse(args)
	t := sqlAdminHost(inv, p, name)
	var a sqlAnalysis
	target := strings.Join(p.Operands, " ")
	switch name {
	case "dropdb":
		a.add(sqlFinding{2, "sql.drop", "DROP DATABASE " + target, "deletes the database and all its data"})
	case "dropuser":
		a.add(sqlFinding{2, "sql.drop", "DROP ROLE " + target, "deletes the role"})
	case "createdb", "createuser":
		a.add(sqlFinding{1, "sql.write", "CREATE", "creates a database object"})
	case "pg_restore":
		if p.Has("-l", "--list") {
			return nothing
		}
		if _, ok := p.Value("-d", "--dbname"); !ok {
			return nothing // without a database it writes a script
		}
		if p.Has("-c", "--clean") {
			a.add(sqlFinding{2, "sql.restore", "a restore with --clean", "drops existing objects before recreating them"})
		} else {
			a.add(sqlFinding{1, "sql.restore", "a restore", "writes the dump into the database"})
		}
		if d, _ := p.Value("-d", "--dbname"); d != "" {
			if h, ok := sqlURLHost(d); ok {
				t.setHost(h, false)
			}
		}
	}
	return sqlVerdict(t, a)
}

// sqlMysqladmin rates mysqladmin: drop loses a database, status commands
// read, the rest changes the server.
func sqlMysqladmin(inv *shell.Invocation) Effect {
	args := sqlMysqlPassword(inv.Args[1:])
	if sqlHelp(args) || hasAny(args, "-V") {
		return nothing
	}
	p := argv.Spec{Short: "hPuSciw", Long: []string{"--host", "--port", "--user", "--socket", "--count", "--sleep",
		"--wait", "--defaults-file", "--defaults-extra-file", "--login-path", "--protocol", "--ssl-mode", "--ssl-ca"}}.Parse(args)
	t := sqlAdminHost(inv, p, inv.Name())
	var a sqlAnalysis
	for i, op := range p.Operands {
		switch strings.ToLower(op) {
		case "drop":
			db := ""
			if i+1 < len(p.Operands) {
				db = p.Operands[i+1]
			}
			a.add(sqlFinding{2, "sql.drop", "DROP DATABASE " + db, "deletes the database and all its data"})
		case "status", "extended-status", "ping", "processlist", "variables", "version":
		case "create", "shutdown", "kill", "password", "reload", "refresh", "start-replica", "stop-replica",
			"start-slave", "stop-slave", "flush-hosts", "flush-logs", "flush-privileges", "flush-status", "flush-tables", "flush-threads", "debug":
			a.add(sqlFinding{1, "sql.admin", "mysqladmin " + op, "changes the server"})
		}
	}
	return sqlVerdict(t, a)
}

// sqlSpec rates SQL clients.
var sqlSpec = &Spec{
	Programs: []string{"psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "cqlsh", "clickhouse-client", "clickhouse",
		"dropdb", "dropuser", "createdb", "createuser", "pg_restore", "mysqladmin", "mariadb-admin"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		switch inv.Name() {
		case "psql":
			return sqlPsql(c, inv)
		case "mysql", "mariadb":
			return sqlMysql(c, inv)
		case "sqlite3", "sqlite", "duckdb":
			return sqlLocalFile(c, inv)
		case "cqlsh":
			return sqlCqlsh(c, inv)
		case "clickhouse-client":
			return sqlClickhouse(c, inv, 1)
		case "clickhouse":
			if len(inv.Args) > 1 && inv.Args[1] == "client" {
				return sqlClickhouse(c, inv, 2)
			}
			return nothing // clickhouse local, server and tools work on this machine
		case "mysqladmin", "mariadb-admin":
			return sqlMysqladmin(inv)
		default:
			return sqlPgAdmin(inv)
		}
	},
	Examples: []Example{
		// psql -c: the statement decides.
		{`psql -c "DROP TABLE users"`, "shared+destructive"},
		{`psql -c "drop table if exists users cascade"`, "shared+destructive"},
		{`psql -d app -c "DROP DATABASE app"`, "shared+destructive"},
		{`psql -c "TRUNCATE logs"`, "shared+destructive"},
		{`psql -c "DELETE FROM users"`, "shared+destructive"},
		{`psql -c "DELETE FROM users WHERE 1=1"`, "shared+destructive"},
		{`psql -c "DELETE FROM users WHERE id = 1"`, "shared"},
		{`psql -c "DELETE FROM users WHERE id IN (SELECT id FROM old)"`, "shared"},
		{`psql -c "DELETE FROM t USING (SELECT 1 WHERE true) s"`, "shared+destructive"},
		{`psql -c "UPDATE users SET admin = true"`, "shared+destructive"},
		{`psql -c "UPDATE users SET admin = true WHERE id = 7"`, "shared"},
		{`psql -c "ALTER TABLE users DROP COLUMN email"`, "shared+destructive"},
		{`psql -c "ALTER TABLE users ALTER COLUMN email DROP NOT NULL"`, "shared"},
		{`psql -c "ALTER TABLE users ADD COLUMN age int"`, "shared"},
		{`psql -c "INSERT INTO users (name) VALUES ('DROP TABLE x')"`, "shared"},
		{`psql -c "CREATE TABLE t (id int)"`, "shared"},
		{`psql -c "GRANT SELECT ON t TO bob"`, "shared"},
		{`psql -c "WITH gone AS (DELETE FROM t RETURNING *) SELECT count(*) FROM gone"`, "shared+destructive"},
		{`psql -c "DO \$\$ BEGIN EXECUTE 'x'; DROP TABLE t; END \$\$"`, "shared+destructive"},
		{`psql -c "EXPLAIN ANALYZE DELETE FROM t"`, "shared+destructive"},
		{`psql -c "EXPLAIN DELETE FROM t"`, "local"},
		{`psql -c "SELECT 1"`, "local"},
		{`psql -c "select * from users -- drop table users"`, "local"},
		{`psql -c "SELECT 'DROP TABLE users'"`, "local"},
		{`psql -c "SELECT * FROM t FOR UPDATE"`, "local"},
		{`psql -c "\dt"`, "local"},
		{`psql -c '\! rm -rf /'`, "local+destructive"},
		{`psql -c "SELECT $ID"`, "local"},
		{`psql -c "$SQL"`, "shared"},
		{`psql -l`, "local"},
		{`psql --version`, "local"},
		{`psql`, "local"},
		{`psql -f migrate.sql`, "shared"},
		{`psql app < schema.sql`, "shared"},
		{`cat schema.sql | psql app`, "shared"},
		{"psql <<'EOF'\nDROP TABLE users;\nEOF", "shared+destructive"},
		{"psql <<'EOF'\nSELECT count(*) FROM users;\n\\dt\nEOF", "local"},
		{`echo "TRUNCATE sessions" | psql`, "shared+destructive"},
		{`psql <<< "SELECT 1"`, "local"},
		{`sudo -u postgres psql -c "DROP DATABASE app"`, "shared+destructive"},
		// remote databases: writes leave the machine, reads only read.
		{`psql -h db.example.com -c "DROP TABLE users"`, "external+destructive"},
		{`psql -h db.example.com -c "INSERT INTO t VALUES (1)"`, "external"},
		{`psql -h db.example.com -c "SELECT 1"`, "local+netread"},
		{`psql postgres://app@db.example.com:5432/app -c "UPDATE t SET x = 1 WHERE id = 2"`, "external"},
		{`psql "host=10.0.0.5 dbname=app" -c "SELECT 1"`, "local+netread"},
		{`psql -h localhost -c "DROP TABLE t"`, "shared+destructive"},
		{`psql -h /var/run/postgresql -c "SELECT 1"`, "local"},
		{`psql postgresql://localhost/app -c "SELECT 1"`, "local"},
		{`PGHOST=db.example.com psql -c "DELETE FROM t WHERE id = 1"`, "external"},
		{`psql -h $DB_HOST -c "SELECT 1"`, "local+netread"},
		{`psql "$DATABASE_URL" -c "DROP TABLE users"`, "external+destructive"},
		{`psql $DATABASE_URL -c "SELECT 1"`, "local+netread"},
		{`psql "postgres://localhost/$DB" -c "INSERT INTO t VALUES (1)"`, "shared"},
		{`psql -d "$DB" -c "INSERT INTO t VALUES (1)"`, "shared"},
		// mysql and mariadb.
		{`mysql -e "DELETE FROM users"`, "shared+destructive"},
		{`mysql -e "DELETE FROM users WHERE id=1"`, "shared"},
		{`mysql -u root -psecret -e "DROP DATABASE shop"`, "shared+destructive"},
		{`mysql --execute="TRUNCATE TABLE orders" shop`, "shared+destructive"},
		{`mysql -e"DROP TABLE orders" shop`, "shared+destructive"},
		{`psql --command="DROP SCHEMA app CASCADE"`, "shared+destructive"},
		{`mysql -e "SELECT * FROM users # DROP TABLE users"`, "local"},
		{`mysql -e "SHOW TABLES" shop`, "local"},
		{`mysql -e "SELECT 'it\\'s; DROP TABLE t' FROM dual"`, "local"},
		{`mysql shop < dump.sql`, "shared"},
		{`mysql -h prod-db.internal -u app -e "UPDATE t SET x=1"`, "external+destructive"},
		{`mysql -h 127.0.0.1 -e "SELECT 1"`, "local"},
		{`mariadb -e "ALTER TABLE t DROP c"`, "shared+destructive"},
		{`mysql -e "system rm -rf /data"`, "local+destructive"},
		{`mysql --version`, "local"},
		{`mysqladmin -u root drop shop`, "shared+destructive"},
		{`mysqladmin status`, "local"},
		{`mysqladmin -h db.example.com create shop`, "external"},
		// sqlite3 and duckdb: first operand is the file.
		{`sqlite3 app.db "DROP TABLE t"`, "shared+destructive"},
		{`sqlite3 app.db "DELETE FROM t"`, "shared+destructive"},
		{`sqlite3 app.db "INSERT INTO t VALUES (1)"`, "shared"},
		{`sqlite3 app.db "SELECT * FROM t"`, "local"},
		{`sqlite3 app.db .tables`, "local"},
		{`sqlite3 app.db ".schema t"`, "local"},
		{`sqlite3 app.db ".read migrate.sql"`, "shared"},
		{`sqlite3 app.db ".shell rm -rf /"`, "local+destructive"},
		{`sqlite3 app.db < schema.sql`, "shared"},
		{"sqlite3 app.db <<EOF\nPRAGMA journal_mode=WAL;\nEOF", "shared"},
		{`sqlite3 -readonly app.db "DELETE FROM t"`, "local"},
		{`sqlite3 :memory: "CREATE TABLE t(x); DROP TABLE t"`, "local"},
		{`sqlite3 -cmd ".mode csv" app.db "DROP TABLE t"`, "shared+destructive"},
		{`sqlite3 --version`, "local"},
		{`duckdb analytics.db -c "DROP TABLE events"`, "shared+destructive"},
		{`duckdb -c "SELECT 42"`, "local"},
		{`duckdb -c "CREATE TABLE t AS SELECT 1"`, "local"},
		// cqlsh and clickhouse.
		{`cqlsh -e "DROP KEYSPACE shop"`, "shared+destructive"},
		{`cqlsh -e "SELECT * FROM shop.users"`, "local"},
		{`cqlsh cass.example.com -e "TRUNCATE shop.users"`, "external+destructive"},
		{`cqlsh -f schema.cql`, "shared"},
		{`clickhouse-client --query "DROP TABLE events"`, "shared+destructive"},
		{`clickhouse-client -q "SELECT count() FROM events"`, "local"},
		{`clickhouse client --host ch.example.com --query "INSERT INTO t VALUES (1)"`, "external"},
		{`clickhouse local -q "SELECT 1"`, "local"},
		// PostgreSQL admin programs.
		{`dropdb app`, "shared+destructive"},
		{`dropdb -h db.example.com app`, "external+destructive"},
		{`dropuser bob`, "shared+destructive"},
		{`createdb app_test`, "shared"},
		{`pg_restore -d app --clean dump.pgc`, "shared+destructive"},
		{`pg_restore -d app dump.pgc`, "shared"},
		{`pg_restore -l dump.pgc`, "local"},
		{`pg_dump app > dump.sql`, "local"},
	},
}

// sqlRedisReads lists Redis commands that only read.
func sqlRedisReads(name string) bool {
	switch name {
	case "GET", "MGET", "GETRANGE", "STRLEN", "EXISTS", "TYPE", "TTL", "PTTL", "EXPIRETIME", "PEXPIRETIME",
		"KEYS", "SCAN", "RANDOMKEY", "DBSIZE", "INFO", "PING", "ECHO", "TIME", "LASTSAVE", "ROLE", "MONITOR",
		"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "HGET", "HMGET", "HGETALL", "HKEYS", "HVALS", "HLEN",
		"HEXISTS", "HSTRLEN", "HSCAN", "HRANDFIELD", "LRANGE", "LLEN", "LINDEX", "LPOS", "SMEMBERS",
		"SISMEMBER", "SMISMEMBER", "SCARD", "SRANDMEMBER", "SSCAN", "SINTER", "SUNION", "SDIFF", "SINTERCARD",
		"ZRANGE", "ZRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGE", "ZREVRANGEBYSCORE", "ZREVRANGEBYLEX", "ZRANK",
		"ZREVRANK", "ZSCORE", "ZMSCORE", "ZCARD", "ZCOUNT", "ZLEXCOUNT", "ZSCAN", "ZRANDMEMBER", "ZINTER",
		"ZUNION", "ZDIFF", "ZINTERCARD", "XRANGE", "XREVRANGE", "XLEN", "XREAD", "XINFO", "XPENDING",
		"GEOPOS", "GEODIST", "GEOHASH", "GEORADIUS_RO", "GEORADIUSBYMEMBER_RO", "GEOSEARCH", "BITCOUNT",
		"BITPOS", "GETBIT", "PFCOUNT", "DUMP", "TOUCH", "OBJECT", "MEMORY", "SLOWLOG", "LATENCY", "COMMAND",
		"SELECT", "AUTH", "HELLO", "QUIT", "READONLY", "READWRITE", "WATCH", "UNWATCH", "MULTI", "EXEC",
		"DISCARD", "WAIT", "LOLWUT", "JSON.GET", "JSON.MGET", "JSON.TYPE", "FT.SEARCH", "FT.INFO",
		"FT.AGGREGATE", "FT._LIST", "TS.GET", "TS.RANGE", "TS.MRANGE", "TS.INFO":
		return true
	}
	return false
}

// sqlRedisReadSubs lists the reading subcommands of Redis container
// commands (CONFIG GET, CLIENT LIST …); other subcommands change the server.
func sqlRedisReadSubs(name string) bool {
	switch name {
	case "GET", "LIST", "INFO", "GETNAME", "ID", "NODES", "SLOTS", "SHARDS", "MYID", "KEYSLOT",
		"COUNTKEYSINSLOT", "GETKEYSINSLOT", "WHOAMI", "CAT", "GETUSER", "USERS", "LOG", "EXISTS", "DUMP",
		"STATS", "HELP", "CHANNELS", "NUMSUB", "NUMPAT", "COUNT", "DOCS", "GETKEYS", "USAGE", "DOCTOR",
		"LATEST", "HISTORY", "LEN", "ENCODING", "FREQ", "IDLETIME", "REFCOUNT", "GRAPH", "HISTOGRAM",
		"GENPASS", "TRACKINGINFO", "GETREDIR", "STREAM", "GROUPS", "CONSUMERS":
		return true
	}
	return false
}

// sqlRedisContainers are the Redis commands whose subcommand decides.
func sqlRedisContainers(name string) bool {
	switch name {
	case "CONFIG", "CLIENT", "CLUSTER", "ACL", "SCRIPT", "FUNCTION", "PUBSUB", "XINFO", "OBJECT", "MEMORY",
		"SLOWLOG", "LATENCY", "COMMAND":
		return true
	}
	return false
}

// sqlRedisCommand rates one Redis command and its arguments.
func sqlRedisCommand(words []string) sqlFinding {
	if len(words) == 0 {
		return sqlFinding{}
	}
	cmd := strings.ToUpper(words[0])
	sub := ""
	if len(words) > 1 {
		sub = strings.ToUpper(words[1])
	}
	switch {
	case cmd == "FLUSHALL":
		return sqlFinding{2, "redis.flush", "FLUSHALL", "deletes every key in every database"}
	case cmd == "FLUSHDB":
		return sqlFinding{2, "redis.flush", "FLUSHDB", "deletes every key in the database"}
	case cmd == "FUNCTION" && sub == "FLUSH":
		return sqlFinding{2, "redis.flush", "FUNCTION FLUSH", "deletes every stored function"}
	case cmd == "SHUTDOWN" && len(words) > 1 && sub == "NOSAVE":
		return sqlFinding{2, "redis.shutdown", "SHUTDOWN NOSAVE", "stops the server and drops unsaved data"}
	case sqlRedisContainers(cmd):
		if sqlRedisReadSubs(sub) || sub == "" {
			return sqlFinding{}
		}
		return sqlFinding{1, "redis.write", cmd + " " + sub, "changes the server"}
	case sqlRedisReads(cmd):
		return sqlFinding{}
	case cmd == "DEL" || cmd == "UNLINK":
		return sqlFinding{1, "redis.write", cmd, "deletes keys"}
	}
	return sqlFinding{1, "redis.write", cmd, "writes to the database"}
}

var sqlRedisArgs = argv.Spec{Short: "hpsaurindD", StopAtOperand: true, Long: []string{"--user", "--pass", "--sni",
	"--cacert", "--cacertdir", "--cert", "--key", "--tls-ciphers", "--tls-ciphersuites", "--rdb", "--functions-rdb",
	"--pipe-timeout", "--eval", "--pattern", "--quoted-pattern", "--count", "--memkeys-samples", "--intrinsic-latency",
	"--lru-test", "--cluster", "--cluster-replicas", "--cluster-yes", "--latency-history", "--latency-dist"}}

// sqlRedis rates redis-cli (and valkey-cli, keydb-cli): the command given
// as operands, or the commands on its input.
func sqlRedis(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if sqlHelp(args) || hasAny(args, "-v") && len(args) == 1 {
		return nothing
	}
	p := sqlRedisArgs.Parse(args)
	t := sqlTarget{prog: inv.Name()}
	var a sqlAnalysis
	for _, f := range p.Flags {
		dyn := inv.IsDynamic(1 + f.ValueIndex)
		switch f.Name {
		case "-h":
			t.setHost(f.Value, dyn)
		case "-u":
			if h, ok := sqlURLHost(f.Value); ok {
				t.setHost(h, dyn)
			} else if dyn {
				t.setHost(f.Value, true)
			}
		case "--eval":
			a.add(sqlFinding{1, "redis.eval", "the Lua script " + f.Value, "may write the database"})
		case "--cluster":
			switch f.Value {
			case "check", "info", "help", "backup":
			default:
				a.add(sqlFinding{1, "redis.cluster", "--cluster " + f.Value, "changes the cluster"})
			}
			return sqlVerdict(t, a)
		case "--scan", "--bigkeys", "--memkeys", "--hotkeys", "--stat", "--latency", "--rdb", "--functions-rdb",
			"--replica", "--intrinsic-latency", "--latency-history", "--latency-dist", "--lru-test":
			return sqlVerdict(t, a)
		}
	}
	ops := args[p.Rest:]
	if len(ops) > 0 {
		a.add(sqlRedisCommand(ops))
		return sqlVerdict(t, a)
	}
	switch {
	case inv.StdinKnown:
		for _, line := range strings.Split(inv.StdinText, "\n") {
			a.add(sqlRedisCommand(strings.Fields(line)))
		}
	case inv.Stdin != "" || hasAny(args, "--pipe"):
		a.add(sqlFinding{1, "redis.stdin", "commands read from its input", "may write the database"})
	default:
		for _, r := range inv.Redirects {
			if r.Op == "<" {
				a.add(sqlFinding{1, "redis.stdin", "commands from " + r.Target, "may write the database"})
			}
		}
	}
	return sqlVerdict(t, a)
}

// sqlRedisSpec rates the Redis command-line clients.
var sqlRedisSpec = &Spec{
	Programs: []string{"redis-cli", "valkey-cli", "keydb-cli"},
	Classify: sqlRedis,
	Examples: []Example{
		{"redis-cli FLUSHALL", "shared+destructive"},
		{"redis-cli flushdb", "shared+destructive"},
		{"redis-cli -n 2 FLUSHDB ASYNC", "shared+destructive"},
		{"redis-cli -h cache.example.com FLUSHALL", "external+destructive"},
		{"redis-cli -u redis://user:pw@cache.example.com:6379/0 SET k v", "external"},
		{"redis-cli DEL session:1", "shared"},
		{"redis-cli SET k v", "shared"},
		{"redis-cli CONFIG SET maxmemory 1gb", "shared"},
		{"redis-cli FUNCTION FLUSH", "shared+destructive"},
		{"redis-cli SHUTDOWN NOSAVE", "shared+destructive"},
		{"redis-cli --eval script.lua k1 , a1", "shared"},
		{"echo FLUSHALL | redis-cli", "shared+destructive"},
		{"redis-cli < commands.txt", "shared"},
		{"redis-cli --scan --pattern 'session:*' | xargs redis-cli DEL", "shared"},
		{"redis-cli GET k", "local"},
		{"redis-cli -h 127.0.0.1 -p 6379 KEYS 'user:*'", "local"},
		{"redis-cli -h cache.example.com GET k", "local+netread"},
		{`redis-cli -u "$REDIS_URL" FLUSHDB`, "external+destructive"},
		{"redis-cli CONFIG GET maxmemory", "local"},
		{"redis-cli INFO memory", "local"},
		{"redis-cli ping", "local"},
		{"redis-cli --bigkeys", "local"},
		{"redis-cli --rdb dump.rdb", "local"},
		{"redis-cli", "local"},
		{"redis-cli --help", "local"},
		{"valkey-cli flushall", "shared+destructive"},
	},
}

// sqlMongoScrub blanks the strings and comments of JavaScript, so that a
// string mentioning drop() is not a call.
func sqlMongoScrub(js string) string {
	var b strings.Builder
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(js) && js[j] != c {
				if js[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString(`""`)
			i = j
		case c == '/' && i+1 < len(js) && js[i+1] == '/':
			for i < len(js) && js[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(js) && js[i+1] == '*':
			i = sqlBlockCommentEnd(js, i) - 1 // the loop steps past the last byte
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sqlMongoWrites are the shell methods that change data or the server.
var sqlMongoWrites = []string{
	"insertOne(", "insertMany(", "insert(", "updateOne(", "updateMany(", "update(", "replaceOne(", "deleteOne(",
	"deleteMany(", "remove(", "findOneAndUpdate(", "findOneAndReplace(", "findOneAndDelete(", "findAndModify(",
	"bulkWrite(", "save(", "createCollection(", "createIndex(", "createIndexes(", "createView(",
	"renameCollection(", "createUser(", "updateUser(", "grantRolesToUser(", "revokeRolesFromUser(",
	"createRole(", "runCommand(", "adminCommand(", "shutdownServer(", "mapReduce(", "copyDatabase(",
	"cloneCollection(", "convertToCapped(", "setProfilingLevel(", "fsyncLock(", "hideIndex(", "compact(",
	"load(", "$out", "$merge",
}

// sqlMongoEmptyCall reports whether every call of method in js has an
// empty filter: method() or method({}) or method({}, …).
func sqlMongoEmptyCall(js, method string) bool {
	found := false
	for rest := js; ; {
		i := strings.Index(rest, method)
		if i < 0 {
			return found
		}
		rest = rest[i+len(method):]
		arg := strings.TrimLeft(rest, " \t\n")
		if strings.HasPrefix(arg, ")") {
			return true
		}
		if strings.HasPrefix(arg, "{") && strings.HasPrefix(strings.TrimLeft(arg[1:], " \t\n"), "}") {
			return true
		}
	}
}

// sqlMongoJS rates a mongo shell script.
func sqlMongoJS(js string) (sqlFinding, bool) {
	s := sqlMongoScrub(js)
	for _, spawn := range []string{"runProgram(", "runMongoProgram(", "startMongoProgram(", "startParallelShell(", "_runMongoProgram("} {
		if strings.Contains(s, spawn) {
			return sqlFinding{}, true
		}
	}
	switch {
	case strings.Contains(s, "dropDatabase"):
		return sqlFinding{2, "mongo.drop", "dropDatabase()", "deletes the whole database"}, false
	case strings.Contains(s, ".drop(") || strings.Contains(s, "drop:") || strings.Contains(s, `"drop"`):
		return sqlFinding{2, "mongo.drop", "drop()", "deletes a collection and all its documents"}, false
	case strings.Contains(s, "dropUser(") || strings.Contains(s, "dropAllUsers(") || strings.Contains(s, "dropRole(") ||
		strings.Contains(s, "dropAllRoles(") || strings.Contains(s, "dropIndex(") || strings.Contains(s, "dropIndexes(") ||
		strings.Contains(s, "dropSearchIndex("):
		return sqlFinding{2, "mongo.drop", "a drop method", "deletes users, roles or indexes"}, false
	case sqlMongoEmptyCall(s, "deleteMany(") || sqlMongoEmptyCall(s, ".remove("):
		return sqlFinding{2, "mongo.delete-all", "a delete with an empty filter", "deletes every document of the collection"}, false
	case sqlMongoEmptyCall(s, "updateMany(") || sqlMongoEmptyCall(s, "replaceOne("):
		return sqlFinding{2, "mongo.update-all", "an update with an empty filter", "overwrites every document of the collection"}, false
	}
	for _, w := range sqlMongoWrites {
		if (w == "runCommand(" || w == "adminCommand(") && sqlMongoReadCommand(js) {
			continue
		}
		if strings.Contains(s, w) || strings.HasPrefix(w, "$") && strings.Contains(js, w) {
			return sqlFinding{1, "mongo.write", strings.TrimSuffix(w, "(") + "()", "writes to the database"}, false
		}
	}
	return sqlFinding{}, false
}

// sqlMongoReadCommand reports whether a runCommand or adminCommand call
// names a command that only reads (ping, serverStatus …).
func sqlMongoReadCommand(js string) bool {
	for _, r := range []string{"ping", "serverStatus", "listDatabases", "buildInfo", "hello", "isMaster", "getParameter",
		"replSetGetStatus", "dbStats", "collStats", "listCollections", "currentOp", "connectionStatus", "hostInfo", "getLog"} {
		if strings.Contains(js, r) {
			return true
		}
	}
	return false
}

var sqlMongoArgs = argv.Spec{Short: "upf", Long: []string{"--host", "--port", "--username", "--password", "--eval", "--file",
	"--authenticationDatabase", "--authenticationMechanism", "--tlsCAFile", "--tlsCertificateKeyFile",
	"--tlsCertificateKeyFilePassword", "--tlsCRLFile", "--apiVersion", "--awsAccessKeyId", "--awsSecretAccessKey",
	"--awsSessionToken", "--gssapiServiceName", "--sspiHostnameCanonicalization", "--sspiRealmOverride",
	"--tlsCertificateSelector", "--tlsDisabledProtocols", "--cryptSharedLibPath", "--keyVaultNamespace", "--kmsURL",
	"--oidcFlows", "--oidcRedirectUri", "--browser", "--jsContext", "--db"}}

// sqlMongoHost returns the host of a mongo address: a mongodb:// URL,
// host:port/db, or rs/host1,host2.
func sqlMongoHost(w string) (string, bool) {
	if strings.HasPrefix(w, "mongodb+srv://") {
		h, _ := sqlURLHost(w)
		return h, true
	}
	if h, ok := sqlURLHost(w); ok {
		return h, true
	}
	if !strings.ContainsAny(w, ":/") {
		return "", false // a database name
	}
	h, _, _ := strings.Cut(w, "/")
	if _, after, ok := strings.Cut(w, "/"); ok && !strings.ContainsAny(h, ".:") && h != "localhost" {
		h = after // rs0/host1:27017
	}
	h, _, _ = strings.Cut(h, ",")
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		h = h[:i]
	}
	return h, true
}

// sqlMongo rates mongosh and the legacy mongo shell: --eval scripts,
// script files, or the input.
func sqlMongo(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if sqlHelp(args) {
		return nothing
	}
	p := sqlMongoArgs.Parse(args)
	t := sqlTarget{prog: inv.Name()}
	var a sqlAnalysis
	commands := false
	spawn := false
	js := func(text string, dynamic bool) {
		if dynamic && (strings.HasPrefix(strings.Trim(text, `"`), "$") || strings.HasPrefix(text, "`")) {
			a.add(sqlFinding{1, "mongo.dynamic", "a script computed at run time", "may write the database"})
			return
		}
		f, sp := sqlMongoJS(text)
		a.add(f)
		spawn = spawn || sp
	}
	for i, o := range p.Operands {
		switch {
		case strings.HasSuffix(o, ".js") || strings.HasSuffix(o, ".mongodb"):
			commands = true
			a.add(sqlFinding{1, "mongo.file", "the script " + o, "may write the database"})
		default:
			dyn := inv.IsDynamic(1 + p.OperandIndex[i])
			if h, ok := sqlMongoHost(o); ok {
				t.setHost(h, dyn)
			} else if dyn && sqlDynamicAddress(o) {
				t.setHost(o, true)
			}
		}
	}
	for _, f := range p.Flags {
		switch f.Name {
		case "--host":
			h, _ := sqlMongoHost(f.Value)
			if h == "" {
				h = f.Value
			}
			t.setHost(h, inv.IsDynamic(1+f.ValueIndex))
		case "--eval":
			commands = true
			js(f.Value, inv.IsDynamic(1+f.ValueIndex))
		case "-f", "--file":
			commands = true
			a.add(sqlFinding{1, "mongo.file", "the script " + f.Value, "may write the database"})
		case "--nodb":
			t.remote = false
		}
	}
	if !commands {
		switch {
		case inv.StdinKnown:
			f, sp := sqlMongoJS(inv.StdinText)
			a.add(f)
			spawn = spawn || sp
		case inv.Stdin != "":
			a.add(sqlFinding{1, "mongo.stdin", "a script read from its input", "may write the database"})
		default:
			for _, r := range inv.Redirects {
				if r.Op == "<" {
					a.add(sqlFinding{1, "mongo.file", "the script " + r.Target, "may write the database"})
				}
			}
		}
	}
	e := sqlVerdict(t, a)
	if spawn {
		e.Add(opaque("mongo.spawn", inv.Name()+" runs a program from its script, which cannot be known"))
	}
	return e
}

// sqlMongoSpec rates the MongoDB shells.
var sqlMongoSpec = &Spec{
	Programs: []string{"mongosh", "mongo"},
	Classify: sqlMongo,
	Examples: []Example{
		{`mongosh --eval "db.dropDatabase()"`, "shared+destructive"},
		{`mongosh shop --eval "db.orders.drop()"`, "shared+destructive"},
		{`mongosh --eval "db.users.deleteMany({})"`, "shared+destructive"},
		{`mongosh --eval "db.users.deleteMany( { } )"`, "shared+destructive"},
		{`mongosh --eval "db.users.remove({})"`, "shared+destructive"},
		{`mongosh --eval "db.users.updateMany({}, {\$set: {admin: true}})"`, "shared+destructive"},
		{`mongosh --eval "db.runCommand({dropDatabase: 1})"`, "shared+destructive"},
		{`mongosh --eval "db.users.deleteMany({age: {\$lt: 18}})"`, "shared"},
		{`mongosh --eval "db.users.insertOne({name: 'x'})"`, "shared"},
		{`mongosh --eval "db.users.updateOne({_id: 1}, {\$set: {a: 1}})"`, "shared"},
		{`mongosh --eval "db.orders.aggregate([{\$match: {}}, {\$out: 'copy'}])"`, "shared"},
		{`mongosh "mongodb+srv://cluster0.example.net/shop" --eval "db.users.drop()"`, "external+destructive"},
		{`mongosh --host db.example.com --eval "db.users.insertOne({})"`, "external"},
		{`mongosh mongodb://localhost:27017/shop --eval "db.users.drop()"`, "shared+destructive"},
		{`mongosh migrate.js`, "shared"},
		{`mongosh --file seed.js`, "shared"},
		{"mongosh shop <<'EOF'\ndb.sessions.drop()\nEOF", "shared+destructive"},
		{`mongo --eval "runProgram('sh', '-c', 'x')"`, "local+opaque"},
		{`mongosh --eval "db.users.find()"`, "local"},
		{`mongosh --eval "db.users.find({note: 'db.dropDatabase()'})"`, "local"},
		{`mongosh --eval "db.users.countDocuments({})"`, "local"},
		{`mongosh --eval "show dbs"`, "local"},
		{`mongosh --host db.example.com --eval "db.users.findOne()"`, "local+netread"},
		{`mongosh --quiet --eval "db.adminCommand('ping')"`, "local"},
		{`mongosh --eval "db.adminCommand({setParameter: 1, x: 1})"`, "shared"},
		{`mongosh --version`, "local"},
		{`mongosh "$MONGODB_URI" --eval "db.users.insertOne({})"`, "external"},
		{`mongosh`, "local"},
	},
}

// sqlBlockCommentEnd returns the index just past the /* ... */ comment that
// starts at i, or len(s) when it is not closed.
func sqlBlockCommentEnd(s string, i int) int {
	end := strings.Index(s[i+2:], "*/")
	if end < 0 {
		return len(s)
	}
	return i + end + 4
}

// ---- SQL clients' script files (FINDINGS-9 P10, P11) ----

// sqlShell classifies a SQL client's shell escape (sqlite3 .shell,
// .system, psql \!, mysql system): the command is one of the command's
// runs, so that self-protection reads it as it reads a script's line.
func (c *Classifier) sqlShell(cmd, text string) Effect {
	return c.embedded("the SQL client's "+cmd, text, false)
}

// sqlFile reads a SQL script a client command names (.read FILE, \i FILE,
// source FILE) as the client would; false when it cannot be read.
func (c *Classifier) sqlFile(a *sqlAnalysis, name string, d sqlDialect) bool {
	if c.FS == nil || name == "" || strings.ContainsAny(name, "$`") {
		return false
	}
	inner, ok := c.deeper()
	if !ok {
		a.nested.Add(fileLimit(name))
		return true
	}
	data, err := c.readFile(name)
	if err != nil {
		return false
	}
	c.keepCode("the SQL script "+name, name, data)
	sqlText(inner, a, string(data), d)
	return true
}

// sqlInputFile reads a SQL script a client is given as its input (<
// FILE) or with -f FILE, also one the same command writes (opaque then).
func (c *Classifier) sqlInputFile(inv *shell.Invocation, a *sqlAnalysis, name string, d sqlDialect) bool {
	if c.FS == nil {
		return false
	}
	data, failed, ok := c.readScript(inv, name, false)
	if !ok {
		if failed.Reasons != nil {
			a.nested.Add(failed)
			return true
		}
		return false
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		a.nested.Add(fileLimit(name))
		return true
	}
	c.keepCode(inv.Name()+" "+name, name, data)
	sqlText(inner, a, string(data), d)
	return true
}
