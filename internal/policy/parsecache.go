package policy

import (
	"slices"
	"sync"
)

// The resident service (airlock hookd) loads the policy for every call, and
// a policy file that exists was parsed every time: YAML, then the strict
// decode of every section and rule. The file is still read and hashed on
// every Load (its hash is what trust compares, and what keys this cache),
// so what is kept is a function of the bytes just read: a changed file,
// whatever its times or inode say, is a different key and is parsed again.
// Nothing about the file's identity (path, inode, times) is trusted.

// parseCacheMax bounds the documents kept: a user's file and the project
// files of the few projects one service answers for. Past it the cache is
// emptied and refilled, which costs one parse per file.
const parseCacheMax = 16

type parseKey struct {
	file, hash string
}

var parseCache struct {
	mu   sync.Mutex
	docs map[parseKey]*fileDoc
}

// cachedParse is parseLayer(file, data, mcp, egress) for data whose
// SHA-256 is hash. A kept document is the one parseLayer made of the same
// bytes, without the merges the two schemas made of its "mcp:" and
// "egress:" sections: those are bound to the schema values of one Load,
// so they are decoded again from the kept nodes for each Load. Only a
// document that parsed without a mistake is kept; if a schema refuses a
// kept section (a Load with a schema after one without), the file is
// parsed again in full, so that the error is the one parseLayer gives.
func cachedParse(file, hash string, data []byte, mcp MCPSchema, egress EgressSchema) (*fileDoc, error) {
	key := parseKey{file, hash}
	parseCache.mu.Lock()
	kept := parseCache.docs[key]
	parseCache.mu.Unlock()
	if kept != nil {
		doc := *kept
		var err error
		if doc.mcp != nil && mcp != nil {
			doc.mcpMerge, err = mcp.Decode(doc.mcp)
		}
		if err == nil && doc.egress != nil && egress != nil {
			doc.egressMerge, err = egress.Decode(doc.egress)
		}
		if err == nil {
			return &doc, nil
		}
	}
	doc, err := parseLayer(file, data, mcp, egress)
	if err != nil {
		return nil, err
	}
	keep := *doc
	keep.mcpMerge, keep.egressMerge = nil, nil
	// A compiled Rule shares its tool and host lists with the document
	// (compileRule): cut to their length, an append to a Rule's list
	// makes a new array instead of writing into the kept one.
	keep.rules = slices.Clip(slices.Clone(doc.rules))
	for i := range keep.rules {
		m := &keep.rules[i].match
		m.tool, m.host = slices.Clip(m.tool), slices.Clip(m.host)
	}
	parseCache.mu.Lock()
	if parseCache.docs == nil || len(parseCache.docs) >= parseCacheMax {
		parseCache.docs = map[parseKey]*fileDoc{}
	}
	parseCache.docs[key] = &keep
	parseCache.mu.Unlock()
	return doc, nil
}
