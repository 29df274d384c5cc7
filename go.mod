module github.com/airlock-dev/airlock

go 1.26.8

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/rogpeppe/go-internal v1.16.0
	gopkg.in/yaml.v3 v3.0.1
	mvdan.cc/sh/v3 v3.14.1
)

require (
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
