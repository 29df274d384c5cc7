package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates SQL clients whose server is named on the command line:
// sqlcmd (SQL Server) and usql (any database by URL). A server that is
// not this machine makes writes external, as for psql -h.

// sqlRemoteSpec rates the SQL Server clients and usql.
var sqlRemoteSpec = &Spec{
	Programs: []string{"sqlcmd", "mssql-cli", "usql"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		if inv.Name() == "usql" {
			return sqlUsql(c, inv)
		}
		return sqlSqlcmd(c, inv)
	},
	Examples: []Example{
		{`sqlcmd -S prod.example.com -Q "UPDATE t SET x=1 WHERE id=2"`, "external"},
		{`sqlcmd -S prod.example.com -Q "DROP TABLE t"`, "external+destructive"},
		{`sqlcmd -S prod.example.com -Q "SELECT 1"`, "local+netread"},
		{`sqlcmd -S localhost -Q "UPDATE t SET x=1 WHERE id=1"`, "shared"},
		{`sqlcmd -S tcp:db.example.com,1433 -d app`, "external"},
		{`sqlcmd -Q "SELECT 1"`, "local"},
		{`usql pg://db.example.com/app -c 'UPDATE t SET x=1 WHERE id=2'`, "external"},
		{`usql sqlite:app.db -c 'SELECT 1'`, "local"},
	},
}

var sqlcmdArgs = argv.Spec{Short: "SdUPQqiovHlAatsWhrRwcLbexKyYzZMfkNFEIXGu", Long: []string{"--server", "--database", "--query"}}

// sqlSqlcmd rates sqlcmd: -S names the server, -Q/-q the statements, -i
// a script file.
func sqlSqlcmd(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if sqlHelp(args) || hasAny(args, "-?") {
		return nothing
	}
	p := sqlcmdArgs.Parse(args)
	t := sqlTarget{prog: inv.Name()}
	if h, ok := sqlEnvHost(inv, "SQLCMDSERVER"); ok {
		t.setHost(sqlcmdHost(h), false)
	}
	var a sqlAnalysis
	commands := false
	for _, f := range p.Flags {
		dyn := inv.IsDynamic(1 + f.ValueIndex)
		switch f.Name {
		case "-S", "--server":
			t.setHost(sqlcmdHost(f.Value), dyn)
		case "-Q", "-q", "--query":
			commands = true
			sqlArg(c, &a, f.Value, dyn, sqlPlain)
		case "-i":
			commands = true
			a.add(sqlFinding{1, "sql.file", "SQL from the file " + f.Value, "may write the database"})
		}
	}
	if !commands {
		sqlInput(c, inv, &a, sqlPlain)
	}
	return sqlVerdict(t, a)
}

// sqlcmdHost reads the host of a SQL Server name: tcp:host,port or
// host\instance.
func sqlcmdHost(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "tcp:"), "np:")
	if i := strings.IndexAny(s, `,\`); i >= 0 {
		s = s[:i]
	}
	switch strings.ToLower(s) {
	case ".", "(local)", "(localdb)":
		return "localhost"
	}
	return s
}

// sqlUsql rates usql: the first operand is a database URL.
func sqlUsql(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if sqlHelp(args) {
		return nothing
	}
	p := argv.Spec{Short: "cfoUwWXJ", Long: []string{"--command", "--file", "--out", "--set", "--variable", "--config"}}.Parse(args)
	t := sqlTarget{prog: "usql"}
	if len(p.Operands) > 0 {
		u := p.Operands[0]
		if h, ok := sqlURLHost(u); ok {
			t.setHost(h, inv.IsDynamic(1+p.OperandIndex[0]))
		} else if i := strings.Index(u, "://"); i >= 0 {
			host := u[i+3:]
			if at := strings.LastIndexByte(host, '@'); at >= 0 {
				host = host[at+1:]
			}
			if j := strings.IndexAny(host, ":/?"); j >= 0 {
				host = host[:j]
			}
			t.setHost(host, false)
		}
	}
	var a sqlAnalysis
	commands := false
	for _, f := range p.Flags {
		switch f.Name {
		case "-c", "--command":
			commands = true
			sqlArg(c, &a, f.Value, inv.IsDynamic(1+f.ValueIndex), sqlPlain)
		case "-f", "--file":
			commands = true
			a.add(sqlFinding{1, "sql.file", "SQL from the file " + f.Value, "may write the database"})
		}
	}
	if !commands {
		sqlInput(c, inv, &a, sqlPlain)
	}
	return sqlVerdict(t, a)
}
