package scan

// matcher finds every occurrence of a fixed set of words in text in one
// pass, whatever their number: an Aho-Corasick automaton compiled to a
// dense table over byte classes.
//
// Two things keep it cheap on text with no hits, which is most text:
//   - A word can be bounded: it then matches only between two boundary
//     bytes (space, quote, operator, newline, …), which the automaton
//     reads as one class. Short program names ("r", "rm", "gh") would
//     otherwise stop the scan inside every other word.
//   - ASCII letters are folded to lower case by the class table, so
//     matching is case-insensitive at no cost; callers that want the
//     exact spelling check it at the hit.
//
// The inner loop is one table load and one comparison per byte: states
// are numbered so that every state ending a word comes last, and a hit is
// a state number at or above acceptFrom.
type matcher struct {
	class      [256]uint8
	nclass     int32
	delta      []int32 // state*nclass + class → next state*nclass
	acceptFrom int32   // first accepting state, times nclass
	start      int32   // the state after a boundary: where a line starts
	out        [][]int32
	words      []string
	bounded    []bool
}

// boundaryBytes delimit a bounded word: every byte that may come before
// or after a program name in a command line. They are one class for the
// automaton, except the backtick, which has its own so that "```" (a
// markdown fence) can be a word of its own; a bounded word is compiled
// once for each of the four ways a boundary and a backtick can frame it.
const boundaryBytes = " \t\r\n'\"()[]{};|&<>$=/"

// sentinel stands for the boundary class in a compiled pattern.
const sentinel = 0

// hit is one word found: the index of the word in the set and the offset
// just past its last byte (not counting the boundary after it).
type hit struct {
	word int32
	end  int
}

// newMatcher compiles the words (non-empty, without sentinel bytes);
// bounded[i] says word i matches only between boundaries.
func newMatcher(words []string, bounded []bool) *matcher {
	m := &matcher{words: words, bounded: bounded}
	// Class 0 is every byte no word uses; class 1 is the boundary, class
	// 2 the backtick.
	m.nclass = 3
	for i := 0; i < len(boundaryBytes); i++ {
		m.class[boundaryBytes[i]] = 1
	}
	m.class[sentinel] = 1
	m.class['`'] = 2
	var patterns []string
	var owner []int32
	for i, w := range words {
		variants := []string{w}
		if bounded[i] {
			b := string(rune(sentinel))
			variants = []string{b + w + b, "`" + w + b, b + w + "`", "`" + w + "`"}
		}
		for _, v := range variants {
			patterns = append(patterns, v)
			owner = append(owner, int32(i))
		}
	}
	for _, w := range patterns {
		for j := 0; j < len(w); j++ {
			c := w[j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if m.class[c] == 0 {
				m.class[c] = uint8(m.nclass)
				m.nclass++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	nc := int(m.nclass)

	// The trie, with goto edges by class.
	type node struct {
		next []int32
		fail int32
		out  []int32
	}
	nodes := []node{{next: make([]int32, nc)}}
	for wi, w := range patterns {
		s := int32(0)
		for i := 0; i < len(w); i++ {
			c := m.class[w[i]]
			if nodes[s].next[c] == 0 {
				nodes = append(nodes, node{next: make([]int32, nc)})
				nodes[s].next[c] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[c]
		}
		nodes[s].out = append(nodes[s].out, owner[wi])
	}

	// Failure links breadth first, turning the trie into a full DFA.
	queue := make([]int32, 0, len(nodes))
	for c := 0; c < nc; c++ {
		if t := nodes[0].next[c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[s].fail
		nodes[s].out = append(nodes[s].out, nodes[f].out...)
		for c := 0; c < nc; c++ {
			t := nodes[s].next[c]
			if t == 0 {
				nodes[s].next[c] = nodes[f].next[c]
				continue
			}
			nodes[t].fail = nodes[f].next[c]
			queue = append(queue, t)
		}
	}

	// Renumber: non-accepting states first.
	order := make([]int32, 0, len(nodes))
	for i := range nodes {
		if len(nodes[i].out) == 0 {
			order = append(order, int32(i))
		}
	}
	m.acceptFrom = int32(len(order) * nc)
	for i := range nodes {
		if len(nodes[i].out) != 0 {
			order = append(order, int32(i))
		}
	}
	renum := make([]int32, len(nodes))
	for newID, old := range order {
		renum[old] = int32(newID)
	}
	m.delta = make([]int32, len(nodes)*nc)
	m.out = make([][]int32, len(nodes))
	for newID, old := range order {
		for c := 0; c < nc; c++ {
			m.delta[newID*nc+c] = renum[nodes[old].next[c]] * int32(nc)
		}
		m.out[newID] = nodes[old].out
	}
	m.start = m.delta[1] // after one boundary, from the root
	return m
}

// find appends to hits every word occurring in line. The line is read as
// if a boundary came before and after it.
func (m *matcher) find(line []byte, hits []hit) []hit {
	delta, class, accept := m.delta, &m.class, m.acceptFrom
	s := m.start
	for i, b := range line {
		s = delta[s+int32(class[b])]
		if s >= accept {
			hits = m.hits(s, i, hits)
		}
	}
	if s = delta[s+1]; s >= accept {
		hits = m.hits(s, len(line), hits)
	}
	return hits
}

// hits appends the words ending in state s at byte i.
func (m *matcher) hits(s int32, i int, hits []hit) []hit {
	for _, w := range m.out[s/m.nclass] {
		end := i + 1
		if m.bounded[w] {
			end = i // the boundary read last is not part of the word
		}
		hits = append(hits, hit{word: w, end: end})
	}
	return hits
}

// index returns an offset inside the first line of b that holds a word,
// or -1: the prefilter over whole blocks of lines. b starts at the start
// of a line; a boundary is read before it and, when eof is set, after it.
func (m *matcher) index(b []byte, eof bool) int {
	delta, class, accept := m.delta, &m.class, m.acceptFrom
	s := m.start
	for i, c := range b {
		s = delta[s+int32(class[c])]
		if s >= accept {
			return i
		}
	}
	if eof && len(b) > 0 && delta[s+1] >= accept {
		return len(b) - 1
	}
	return -1
}
