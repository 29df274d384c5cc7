package server

import (
	"crypto/subtle"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/serve"
	"github.com/airlock-dev/airlock/internal/team/store"
	"github.com/airlock-dev/airlock/internal/team/teamview"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

//go:embed assets
var assets embed.FS

// dashPage is how many items one page of the team queue shows.
const dashPage = 50

// dashPoll is how often the live queue asks the database whether the
// queue moved (three index lookups).
const dashPoll = 2 * time.Second

type dash struct {
	s    *Server
	g    *serve.Guard
	tmpl *template.Template
}

type navLink struct{ Href, Label string }

var nav = []navLink{{"/", "team queue"}}

// dashboard is the team dashboard: the pages of "airlock serve" (its
// frame, its guard: Host and Origin, session, CSRF) over the team queue.
// A browser logs in with the admin URL printed at start, or with a
// reviewer's token; what it approves or rejects names that reviewer
// ("admin" for the admin login).
func (s *Server) dashboard() (http.Handler, error) {
	tmpl, err := serve.ParseTemplates(assets, "assets/*.html")
	if err != nil {
		return nil, err
	}
	var public []string
	if s.opts.PublicURL != "" {
		public = append(public, s.opts.PublicURL)
	}
	g, err := serve.NewGuard(serve.GuardConfig{Addr: s.opts.Addr, TLS: s.opts.TLS, Public: public, Templates: tmpl, Now: s.opts.Now,
		LoginHint: "log in with the admin link airlock team serve printed on its first line (good once, for " + serve.CodeLife.String() + "), or paste your reviewer token below"})
	if err != nil {
		return nil, err
	}
	d := &dash{s: s, g: g, tmpl: tmpl}
	s.guard = g
	mux := http.NewServeMux()
	mux.Handle("GET /static/", serve.Static())
	mux.HandleFunc("GET /login", d.login)
	mux.HandleFunc("POST /login", d.login)
	mux.HandleFunc("GET /{$}", d.authed(d.queuePage))
	mux.HandleFunc("GET /queue/rows", d.authed(d.queueRows))
	mux.HandleFunc("GET /events", d.authed(d.events))
	mux.HandleFunc("GET /item/{key}", d.authed(d.itemPage))
	mux.HandleFunc("POST /item/{key}/approve", d.authed(g.Posted(d.settle(wire.Approve))))
	mux.HandleFunc("POST /item/{key}/reject", d.authed(g.Posted(d.settle(wire.Reject))))
	return g.Wrap(mux), nil
}

// login takes a printed admin code, or a token posted in the form: the
// admin's or a live reviewer's (serve.Guard.Login; never a token in a
// URL).
func (d *dash) login(w http.ResponseWriter, r *http.Request) {
	d.g.Login(func(tok string) (string, bool) {
		if subtle.ConstantTimeCompare([]byte(tok), []byte(d.s.admin)) == 1 {
			return adminName, true
		}
		name, err := d.s.st.Authenticate(r.Context(), store.Reviewer, tok)
		return name, err == nil
	})(w, r)
}

// authed lets through a logged-in browser whose reviewer is still live:
// a revoke ends its sessions at their next request.
func (d *dash) authed(h http.HandlerFunc) http.HandlerFunc {
	return d.g.Authed(func(w http.ResponseWriter, r *http.Request) {
		if _, who := d.g.Session(r); who != adminName {
			live, err := d.s.st.Live(r.Context(), store.Reviewer, who)
			if err != nil {
				d.g.Refuse(w, r, http.StatusServiceUnavailable, "the team database did not answer: "+err.Error())
				return
			}
			if !live {
				d.g.Refuse(w, r, http.StatusUnauthorized, "the reviewer "+who+" was revoked")
				return
			}
		}
		h(w, r)
	})
}

func (d *dash) page(w http.ResponseWriter, name string, data map[string]any) {
	data["Brand"], data["Nav"] = "team", nav
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := d.tmpl.ExecuteTemplate(w, name, data); err != nil {
		http.Error(w, "template: "+err.Error(), http.StatusInternalServerError)
	}
}

// filterForm is the queue's filters as the form shows them back.
type filterForm struct{ Machine, Repo, MinAge, Status string }

var statuses = []string{"", "pending", "approved", "rejected", "used", "ran", "expired", "all"}

// rows reads the filters and the page from the query and renders one
// page of the queue.
func (d *dash) rows(r *http.Request) (map[string]any, error) {
	q := r.URL.Query()
	page := 1
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1<<20 {
			return nil, fmt.Errorf("%w: page must be a number from 1 (got %q)", store.ErrInvalid, teamview.Line(v, 20))
		}
		page = n
	}
	// The API's reading of the filters, with the page as an offset.
	q.Del("limit")
	q.Set("offset", strconv.Itoa((page-1)*dashPage))
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = q.Encode()
	f, err := d.s.queueFilter(r2, dashPage)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	items, total, err := d.s.st.Queue(r.Context(), f)
	if err != nil {
		return nil, err
	}
	now := d.s.opts.Now()
	rows := make([]teamview.Row, 0, len(items))
	for _, it := range items {
		row := teamview.RowOf(it)
		row.When = teamview.Age(now.Sub(it.Item.Time)) + " ago"
		rows = append(rows, row)
	}
	link := func(p int) string {
		v := url.Values{}
		for _, k := range []string{"machine", "repo", "min_age", "status"} {
			if x := q.Get(k); x != "" {
				v.Set(k, x)
			}
		}
		v.Set("page", strconv.Itoa(p))
		return "/?" + v.Encode()
	}
	data := map[string]any{"Rows": rows, "Total": total, "From": f.Offset + 1, "To": f.Offset + len(rows),
		"F": filterForm{Machine: q.Get("machine"), Repo: q.Get("repo"), MinAge: q.Get("min_age"), Status: q.Get("status")}, "Statuses": statuses}
	if page > 1 {
		data["Prev"] = link(page - 1)
	}
	if f.Offset+len(rows) < total {
		data["Next"] = link(page + 1)
	}
	return data, nil
}

func (d *dash) queuePage(w http.ResponseWriter, r *http.Request) {
	data, err := d.rows(r)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	data["Title"] = "team queue"
	d.page(w, "teamqueue.html", data)
}

// queueRows is the table body the live queue's script fetches.
func (d *dash) queueRows(w http.ResponseWriter, r *http.Request) {
	data, err := d.rows(r)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.page(w, "teamrows.html", data)
}

func (d *dash) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		d.g.Refuse(w, r, http.StatusNotFound, err.Error())
	case errors.Is(err, store.ErrSettled):
		d.g.Refuse(w, r, http.StatusConflict, err.Error())
	case errors.Is(err, store.ErrInvalid):
		d.g.Refuse(w, r, http.StatusBadRequest, err.Error())
	default:
		d.g.Refuse(w, r, http.StatusServiceUnavailable, "the team database did not answer: "+err.Error())
	}
}

// approvalChoices are the durations the approve form offers, as on
// "airlock serve".
var approvalChoices = []struct{ Value, Label string }{
	{"15m", "15 minutes"}, {"1h", "1 hour"}, {"24h", "24 hours"}, {"168h", "7 days"},
}

func (d *dash) item(r *http.Request) (wire.TeamItem, error) {
	m, id, err := wire.SplitKey(r.PathValue("key"))
	if err != nil {
		return wire.TeamItem{}, fmt.Errorf("%w: %v", store.ErrNotFound, err)
	}
	return d.s.st.Item(r.Context(), m, id)
}

func (d *dash) itemPage(w http.ResponseWriter, r *http.Request) {
	it, err := d.item(r)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	session, who := d.g.Session(r)
	d.page(w, "teamitem.html", map[string]any{
		"Title": "item " + teamview.Line(it.Key, 100), "Key": it.Key, "Machine": it.Machine, "Status": teamview.Line(it.Status, 40),
		"Text": teamview.Text(it, d.s.opts.Now()), "CanApprove": it.Status == "pending" || it.Status == "expired",
		"CSRF": d.g.CSRFToken(session), "Choices": approvalChoices, "Who": who, "Done": r.URL.Query().Get("done"),
	})
}

func (d *dash) settle(verdict string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_, who := d.g.Session(r)
		v := wire.Verdict{Note: strings.TrimSpace(r.PostForm.Get("note"))}
		if verdict == wire.Approve {
			ttl, err := time.ParseDuration(r.PostForm.Get("for"))
			if err != nil {
				d.g.Refuse(w, r, http.StatusBadRequest, "the approval's duration is not one such as 1h")
				return
			}
			v.TTLSeconds = int64(ttl / time.Second)
			if v.TTLSeconds <= 0 {
				d.g.Refuse(w, r, http.StatusBadRequest, "an approval lasts more than 0")
				return
			}
		}
		it, err := d.s.decide(r.Context(), r.PathValue("key"), verdict, who, v)
		if err != nil {
			d.fail(w, r, err)
			return
		}
		http.Redirect(w, r, "/item/"+url.PathEscape(it.Key)+"?done="+store.StatusOf(verdict), http.StatusSeeOther)
	}
}

// events is the live queue: a server-sent event "queue" each time the
// queue moves, which the page (serve's script) answers by fetching the
// table again.
func (d *dash) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	last, _ := d.s.st.Stamp(r.Context())
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	fl.Flush()
	tick := time.NewTicker(dashPoll)
	defer tick.Stop()
	beat := 0
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
		now, err := d.s.st.Stamp(r.Context())
		if err == nil && now != last {
			last = now
			fmt.Fprint(w, "event: queue\ndata: moved\n\n")
			fl.Flush()
			continue
		}
		if beat++; beat*int(dashPoll/time.Second) >= 15 {
			beat = 0
			fmt.Fprint(w, ": beat\n\n")
			fl.Flush()
		}
	}
}
