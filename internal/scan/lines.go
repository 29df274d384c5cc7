package scan

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// nearEnd is how far back from a piece's end a space is looked for, to
// cut an over-long line between words.
const nearEnd = 256

// readBuffer is the read buffer: lines that fit are handed out without a
// copy.
const readBuffer = 1 << 20

// lineReader hands out lines, numbered from 1, without their line ending.
// A line longer than max comes out in pieces of at most max bytes, all
// with the line's number, cut after a space when one is near the end so
// that a command is rarely split.
type lineReader struct {
	r     *bufio.Reader
	max   int
	n     int   // number of the last line handed out
	bytes int64 // bytes read
	// pend holds bytes of the current line not handed out yet; ended
	// reports that pend reaches the line's end.
	pend  []byte
	ended bool
	out   []byte
	// cont: the last piece handed out was cut, and the next one continues
	// the same line.
	cont bool
	eof  bool
}

// next returns the next line or piece and whether it is a piece of an
// over-long line (true for every piece of such a line). The slice is
// valid until the next call. At the end it returns io.EOF; any other
// error is a read failure.
func (lr *lineReader) next() (line []byte, piece bool, err error) {
	wasCut := lr.cont
	lr.cont = false
	if len(lr.pend) == 0 && !lr.ended {
		if lr.eof {
			return nil, false, io.EOF
		}
		b, err := lr.r.ReadSlice('\n')
		lr.bytes += int64(len(b))
		switch {
		case err == nil || errors.Is(err, io.EOF):
			if err != nil {
				lr.eof = true
				if len(b) == 0 {
					return nil, false, io.EOF
				}
			}
			if b = trimEOL(b); len(b) <= lr.max {
				lr.n++
				return b, false, nil
			}
			lr.pend, lr.ended = append(lr.pend[:0], b...), true
		case errors.Is(err, bufio.ErrBufferFull):
			lr.pend = append(lr.pend[:0], b...)
		default:
			return nil, false, err
		}
	}
	// A line that does not fit the read buffer: gather up to max bytes.
	for !lr.ended && len(lr.pend) <= lr.max {
		b, err := lr.r.ReadSlice('\n')
		lr.bytes += int64(len(b))
		switch {
		case err == nil:
			lr.pend, lr.ended = append(lr.pend, trimEOL(b)...), true
		case errors.Is(err, io.EOF):
			lr.pend, lr.ended, lr.eof = append(lr.pend, b...), true, true
		case errors.Is(err, bufio.ErrBufferFull):
			lr.pend = append(lr.pend, b...)
		default:
			return nil, false, err
		}
	}
	if !wasCut {
		lr.n++
	}
	if len(lr.pend) <= lr.max {
		lr.out = append(lr.out[:0], lr.pend...)
		lr.pend, lr.ended = lr.pend[:0], false
		return lr.out, wasCut, nil
	}
	cut := lr.max
	if i := bytes.LastIndexByte(lr.pend[:cut], ' '); i >= cut-nearEnd && i > 0 {
		cut = i + 1
	}
	lr.out = append(lr.out[:0], lr.pend[:cut]...)
	lr.pend = lr.pend[:copy(lr.pend, lr.pend[cut:])]
	lr.cont = true
	return lr.out, true, nil
}

// trimEOL drops a trailing "\n" or "\r\n".
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

// blockReader hands out blocks of whole lines, for plain text, where most
// lines are never looked at one by one.
type blockReader struct {
	r        io.Reader
	max      int
	buf      []byte
	off, end int // buf[off:end] is read and not handed out yet
	eof      bool
	bytes    int64
}

// blockSize is the size of a block read at once.
const blockSize = 1 << 20

// next returns the next block: whole lines, each ending with a newline
// except perhaps the input's last. When a line is longer than max, it
// returns a piece of it (piece is true) of at most max bytes, cut after a
// space near the end when there is one; the following blocks continue
// the line. The slice is valid until the next call.
func (b *blockReader) next() (block []byte, piece bool, err error) {
	if b.buf == nil {
		b.buf = make([]byte, min(blockSize, max(b.max, 1)))
	}
	b.end = copy(b.buf, b.buf[b.off:b.end])
	b.off = 0
	for {
		for !b.eof && b.end < len(b.buf) {
			k, err := b.r.Read(b.buf[b.end:])
			b.end += k
			b.bytes += int64(k)
			if errors.Is(err, io.EOF) {
				b.eof = true
			} else if err != nil {
				return nil, false, err
			}
		}
		if b.end == 0 {
			return nil, false, io.EOF
		}
		if b.eof {
			b.off = b.end
			return b.buf[:b.end], false, nil
		}
		if i := bytes.LastIndexByte(b.buf[:b.end], '\n'); i >= 0 {
			b.off = i + 1
			return b.buf[:b.off], false, nil
		}
		if len(b.buf) < b.max {
			grown := make([]byte, min(2*len(b.buf), b.max))
			b.end = copy(grown, b.buf[:b.end])
			b.buf = grown
			continue
		}
		cut := b.end
		if i := bytes.LastIndexByte(b.buf[:cut], ' '); i >= cut-nearEnd && i > 0 {
			cut = i + 1
		}
		b.off = cut
		return b.buf[:cut], true, nil
	}
}
