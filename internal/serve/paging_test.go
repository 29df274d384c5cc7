package serve

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestQueuePages checks that the queue page is bounded: 250 held items
// are shown 100 to a page, newest first, with the count and links to the
// other pages; the rows endpoint the live refresh reads pages the same
// way; a page past the end shows the last one; a bad page is refused.
func TestQueuePages(t *testing.T) {
	f := newFixture(t)
	f.login()
	var ids []string
	for i := 0; i < 250; i++ {
		ids = append(ids, f.hold(fmt.Sprintf("git push origin b%03d", i)))
	}
	rows := func(body string) int { return strings.Count(body, `<a class="id" href="/item/`) }
	resp, body := f.do("GET", "/", nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("queue page: %d", resp.StatusCode)
	}
	if n := rows(body); n != queuePageSize {
		t.Fatalf("first page has %d rows, want %d", n, queuePageSize)
	}
	if !strings.Contains(body, "1–100 of 250, newest first") || !strings.Contains(body, `href="/?page=2" rel="next"`) || strings.Contains(body, `rel="prev"`) {
		t.Fatalf("first page's pager is wrong:\n%s", body[strings.Index(body, `class="pager"`)-20:])
	}
	// Newest first: the last held item leads, the first is not on page 1.
	if i, j := strings.Index(body, ids[249]), strings.Index(body, ids[248]); i < 0 || j < 0 || i > j {
		t.Fatalf("page 1 does not start with the newest items")
	}
	if strings.Contains(body, ids[0]) {
		t.Fatalf("page 1 shows the oldest item")
	}
	_, body = f.do("GET", "/queue/rows?page=3", nil, nil)
	if n := rows(body); n != 50 || !strings.Contains(body, ids[0]) || !strings.Contains(body, "201–250 of 250") || strings.Contains(body, `rel="next"`) {
		t.Fatalf("page 3 of the rows: %d rows\n%s", n, body)
	}
	_, body = f.do("GET", "/?page=99", nil, nil)
	if !strings.Contains(body, "201–250 of 250") {
		t.Fatalf("a page past the end is not the last page")
	}
	for _, bad := range []string{"0", "-1", "x", "1e3"} {
		if resp, _ := f.do("GET", "/?page="+bad, nil, nil); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("page=%s: %d, want 400", bad, resp.StatusCode)
		}
	}
}
