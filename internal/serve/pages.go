package serve

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
)

var funcs = template.FuncMap{}

// row is one queue item as the list shows it. Every text the agent
// controls is rendered (internal/render) before html/template escapes
// it: control, bidi and zero-width characters show as visible marks,
// and no tag can form.
type row struct {
	ID, Status, When, Where, Effect, What string
}

func rowOf(it *journal.Item) row {
	where := ""
	switch {
	case it.Story != "":
		where = "story " + render.Line(it.Story, 40)
	case it.Session != "":
		where = "session " + render.Line(journal.ShortID(it.Session), 20)
	}
	if it.Detected {
		where += " (found after)"
	}
	return row{ID: it.ID, Status: string(it.Status), When: it.Time.Local().Format("2006-01-02 15:04:05 MST"),
		Where: where, Effect: journal.Effect(it), What: journal.What(it, 120)}
}

// queuePageSize bounds the rows of one queue page. Without a bound a
// queue of 100,000 held items made a 21.7 MB page, and a thousand loads
// at once took the dashboard to 12.9 GB.
const queuePageSize = 100

// rowsCache keeps the queue's open items, newest first, for as long as
// the queue has not moved (journal.QueueStamp: allowed calls do not move
// it), no approval in it has expired, and a minute has not passed: a
// page reloaded, or refreshed while the agent works, costs a stat and
// the rendering of one page. An index written in place without a change
// of size or time would go unseen for that minute, but only airlock
// writes it (self-protection keeps the agent out).
type rowsCache struct {
	mu    sync.Mutex
	stamp string
	until time.Time
	items []*journal.Item
}

// openItems returns the items the queue lists (pending, approved and
// not yet used, expired), newest first.
func (s *Server) openItems() ([]*journal.Item, error) {
	stamp := s.cfg.Journal.QueueStamp()
	now := s.cfg.Now()
	s.rows.mu.Lock()
	defer s.rows.mu.Unlock()
	if stamp != "" && stamp == s.rows.stamp && now.Before(s.rows.until) {
		return s.rows.items, nil
	}
	items, err := s.cfg.Journal.Open(now)
	if err != nil {
		return nil, err
	}
	until := now.Add(time.Minute)
	listed := make([]*journal.Item, 0, len(items))
	for _, it := range items {
		if it.Status != journal.Pending && it.Status != journal.Approved && it.Status != journal.Expired {
			continue
		}
		if it.Status == journal.Approved && it.Settled != nil && it.Settled.Expires != nil && it.Settled.Expires.Before(until) {
			until = *it.Settled.Expires
		}
		listed = append(listed, it)
	}
	sort.SliceStable(listed, func(a, b int) bool { return listed[a].Time.After(listed[b].Time) })
	s.rows.stamp, s.rows.until, s.rows.items = stamp, until, listed
	return listed, nil
}

// pageNumber reads ?page=N (1 when absent); anything else is refused, so
// a typo is not silently the first page.
func pageNumber(r *http.Request) (int, error) {
	v := r.URL.Query().Get("page")
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1<<20 {
		return 0, fmt.Errorf("page must be a number from 1 (got %q)", render.Line(v, 20))
	}
	return n, nil
}

// tableRows is the queue table's body for one page: at most
// queuePageSize items, newest first, each field rendered
// (internal/render) and HTML-escaped, then a row with the count and the
// links to the other pages. It is written by hand rather than by
// html/template, which spends most of a long page in reflection; the
// escaping is the same (template.HTMLEscapeString).
func (s *Server) tableRows(page int) (template.HTML, error) {
	items, err := s.openItems()
	if err != nil {
		return "", err
	}
	total := len(items)
	pages := max(1, (total+queuePageSize-1)/queuePageSize)
	page = min(page, pages)
	from := (page - 1) * queuePageSize
	to := min(from+queuePageSize, total)
	var b strings.Builder
	e := template.HTMLEscapeString
	for _, it := range items[from:to] {
		r := rowOf(it)
		b.WriteString(`<tr class="status-` + e(r.Status) + `">` + "\n" +
			`<td><a class="id" href="/item/` + e(r.ID) + `">` + e(r.ID) + `</a></td><td>` + e(r.Status) + `</td><td>` + e(r.When) +
			`</td><td>` + e(r.Where) + `</td><td>` + e(r.Effect) + `</td><td><code>` + e(r.What) + "</code></td>\n</tr>\n")
	}
	if total == 0 {
		b.WriteString(`<tr><td colspan="6" id="empty">nothing awaits review</td></tr>` + "\n")
		return template.HTML(b.String()), nil
	}
	b.WriteString(`<tr class="pager"><td colspan="6" id="queue-count">` + fmt.Sprintf("%d–%d of %d, newest first", from+1, to, total))
	if page > 1 {
		b.WriteString(fmt.Sprintf(` · <a href="/?page=%d" rel="prev">newer</a>`, page-1))
	}
	if page < pages {
		b.WriteString(fmt.Sprintf(` · <a href="/?page=%d" rel="next">older</a>`, page+1))
	}
	b.WriteString("</td></tr>\n")
	return template.HTML(b.String()), nil
}

func (s *Server) page(w http.ResponseWriter, name string, data map[string]any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
	}
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, journal.ErrNotFound):
		s.refuse(w, r, http.StatusNotFound, err.Error())
	case errors.Is(err, journal.ErrSettled), errors.Is(err, journal.ErrDetected), errors.Is(err, journal.ErrNotDetected), errors.Is(err, journal.ErrBadExpiry):
		s.refuse(w, r, http.StatusConflict, err.Error())
	default:
		s.refuse(w, r, http.StatusInternalServerError, err.Error())
	}
}

func (s *Server) queuePage(w http.ResponseWriter, r *http.Request) {
	page, err := pageNumber(r)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, err.Error())
		return
	}
	rows, err := s.tableRows(page)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.page(w, "queue.html", map[string]any{"Title": "queue", "Rows": rows})
}

// queueRows is the queue's table body, which the page's script fetches
// when the event stream says the journal moved.
func (s *Server) queueRows(w http.ResponseWriter, r *http.Request) {
	page, err := pageNumber(r)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, err.Error())
		return
	}
	rows, err := s.tableRows(page)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.page(w, "rows.html", map[string]any{"Rows": rows})
}

// item finds the item the path names by its whole id: a prefix that is
// unique today may name another item tomorrow, and a form acts on the
// item its page showed.
func (s *Server) item(r *http.Request) (*journal.Item, error) {
	id := r.PathValue("id")
	it, err := s.cfg.Journal.Item(id, s.cfg.Now())
	if err != nil {
		return nil, err
	}
	if it.ID != strings.ToLower(id) {
		return nil, journal.ErrNotFound
	}
	return it, nil
}

// approvalChoices are the durations the approve form offers.
var approvalChoices = []struct{ Value, Label string }{
	{"15m", "15 minutes"}, {"1h", "1 hour"}, {"24h", "24 hours"}, {"168h", "7 days"},
}

func (s *Server) itemPage(w http.ResponseWriter, r *http.Request) {
	it, err := s.item(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var text strings.Builder
	it.WriteText(&text)
	data := map[string]any{
		"Title": "item " + it.ID, "Item": rowOf(it), "Text": text.String(),
		"Session": render.Line(orDash(it.Session), 200), "Story": render.Line(orDash(it.Story), 200),
		"Cwd": render.Line(orDash(it.Cwd), 0), "Agent": render.Line(orDash(it.Agent), 100), "Tool": render.Line(orDash(it.Tool), 100),
		"Time": it.Time.Local().Format(time.RFC3339), "SessionID": it.Session, "StoryID": it.Story,
		"CSRF": s.csrfToken(s.session(r)), "Choices": approvalChoices, "Done": r.URL.Query().Get("done"),
	}
	open := it.Status == journal.Pending || it.Status == journal.Expired
	data["CanApprove"] = open && !it.Detected
	data["CanReject"] = (open || it.Status == journal.Approved) && !it.Detected
	data["CanRule"] = !it.Detected && it.Kind == "shell" && it.Command != ""
	if it.Settled != nil {
		data["Note"] = render.Line(it.Settled.Note, 1000)
	}
	if p, err := s.cfg.Journal.LastPrompt(it.Session, it.Seq); err == nil && p != nil {
		lines, hidden := render.Block(p.Prompt, render.Limits{Bytes: 4000, Lines: 40})
		data["Prompt"] = strings.Join(lines, "\n")
		data["PromptHidden"] = hidden
	}
	s.page(w, "item.html", data)
}

func (s *Server) approve(w http.ResponseWriter, r *http.Request) {
	it, err := s.item(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ttl, err := time.ParseDuration(r.PostForm.Get("for"))
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, "the approval's duration is not one such as 1h")
		return
	}
	if err := journal.CheckExpiry(ttl); err != nil {
		s.fail(w, r, err)
		return
	}
	if _, err := s.cfg.Journal.Settle(journal.EventApprove, it.ID, noteOf(r, "approved from the dashboard"), ttl); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/item/"+it.ID+"?done=approved", http.StatusSeeOther)
}

func (s *Server) reject(w http.ResponseWriter, r *http.Request) {
	it, err := s.item(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if _, err := s.cfg.Journal.Settle(journal.EventReject, it.ID, noteOf(r, "rejected from the dashboard"), 0); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/item/"+it.ID+"?done=rejected", http.StatusSeeOther)
}

// noteOf is the form's note, bounded, or def.
func noteOf(r *http.Request, def string) string {
	n := strings.TrimSpace(r.PostForm.Get("note"))
	if n == "" {
		return def
	}
	if len(n) > 2000 {
		n = n[:2000]
	}
	return n
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (s *Server) reportPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	scope := journal.Scope{Session: q.Get("session")}
	if st := q.Get("story"); st != "" {
		scope = journal.Scope{Stories: []string{st}}
	}
	data := map[string]any{"Title": "report", "Session": scope.Session, "Story": q.Get("story")}
	if scope.Session == "" && len(scope.Stories) == 0 {
		// Without a scope the page lists the sessions and stories of the
		// open items, not the whole journal.
		items, err := s.cfg.Journal.Open(s.cfg.Now())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		type scopeLink struct{ Kind, ID, Shown string }
		var links []scopeLink
		seen := map[string]bool{}
		for _, it := range items {
			if it.Story != "" && !seen["t"+it.Story] {
				seen["t"+it.Story] = true
				links = append(links, scopeLink{"story", it.Story, render.Line(it.Story, 80)})
			}
			if it.Session != "" && !seen["s"+it.Session] {
				seen["s"+it.Session] = true
				links = append(links, scopeLink{"session", it.Session, render.Line(it.Session, 80)})
			}
		}
		data["Links"] = links
		s.page(w, "report.html", data)
		return
	}
	rep, err := s.cfg.Journal.MakeReport(scope, s.cfg.Now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	data["Text"] = rep.Text()
	s.page(w, "report.html", data)
}

func (s *Server) auditPage(w http.ResponseWriter, r *http.Request) {
	a, err := s.cfg.Journal.Verify()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	data := map[string]any{"Title": "audit", "OK": a.OK(), "Audit": a}
	if a.Problem != nil {
		data["Problem"] = render.Line(a.Problem.Where()+": "+string(a.Problem.Kind)+" "+a.Problem.Detail, 1000)
	}
	var unauth []string
	for _, p := range a.Unauthenticated {
		unauth = append(unauth, render.Line(p.Where()+": "+p.Detail, 500))
	}
	data["Unauthenticated"] = unauth
	s.page(w, "audit.html", data)
}
