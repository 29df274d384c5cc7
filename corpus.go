// Package airlock carries the project's labelled shell-command corpora
// into the binary, so that "make it a rule" can show, on the user's
// machine, what else a proposed rule would let through.
package airlock

import "embed"

// Corpus holds testdata/corpus.tsv and testdata/corpus-openworld.tsv:
// LABEL<TAB>COMMAND<TAB>NOTE lines, as documented at the top of each.
//
//go:embed testdata/corpus.tsv testdata/corpus-openworld.tsv
var Corpus embed.FS

// CorpusFiles are the files in Corpus, in the order they are read.
var CorpusFiles = []string{"testdata/corpus.tsv", "testdata/corpus-openworld.tsv"}
