package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/rulemake"
)

// plan proposes the rule of an item and places it in the user's policy
// file.
func (s *Server) plan(it *journal.Item) (*rulemake.Plan, error) {
	if it.Detected || it.Kind != "shell" {
		return nil, rulemake.ErrNotShell
	}
	p, err := rulemake.Propose(it.Command, it.ID)
	if err != nil {
		return nil, err
	}
	return rulemake.Prepare(p, s.cfg.Getenv)
}

// planDigest names exactly the file content a human confirmed.
func planDigest(pl *rulemake.Plan) string {
	h := sha256.New()
	h.Write([]byte(pl.File))
	h.Write([]byte{0})
	h.Write(pl.Old)
	h.Write([]byte{0})
	h.Write(pl.New)
	return hex.EncodeToString(h.Sum(nil))
}

// changeRow is a corpus command a rule changes, as the page shows it.
type changeRow struct{ Command, Label, Before, After string }

func (s *Server) rulePage(w http.ResponseWriter, r *http.Request) {
	it, err := s.item(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	data := map[string]any{"Title": "rule from " + it.ID, "Item": rowOf(it)}
	pl, err := s.plan(it)
	if err != nil {
		data["Refused"] = ruleRefusal(err)
		s.page(w, "rule.html", data)
		return
	}
	var loosened []changeRow
	for _, c := range pl.Loosened {
		loosened = append(loosened, changeRow{render.Line(c.Command, 200), c.Label, c.Before.String(), c.After.String()})
	}
	data["File"] = render.Line(pl.File, 0)
	data["YAML"] = pl.YAML
	data["Mode"] = pl.Mode.String()
	data["Loosened"] = loosened
	data["Changes"] = len(pl.Changes)
	data["ExampleAfter"] = pl.ExampleAfter.String()
	data["StillHeld"] = pl.ExampleAfter.Holds()
	data["Plan"] = planDigest(pl)
	data["CSRF"] = s.csrfToken(s.session(r))
	s.page(w, "rule.html", data)
}

func (s *Server) ruleWrite(w http.ResponseWriter, r *http.Request) {
	it, err := s.item(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pl, err := s.plan(it)
	if err != nil {
		s.refuse(w, r, http.StatusConflict, ruleRefusal(err))
		return
	}
	// The rule is written only as the human saw it: the same file, the
	// same content before and after.
	if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("plan")), []byte(planDigest(pl))) != 1 {
		s.refuse(w, r, http.StatusConflict, "the policy file or the proposed rule changed since the page was shown: review it again")
		return
	}
	if err := pl.Write(); err != nil {
		s.refuse(w, r, http.StatusConflict, ruleRefusal(err))
		return
	}
	http.Redirect(w, r, "/item/"+it.ID+"?done=rule", http.StatusSeeOther)
}

// ruleRefusal says why an item does not become a rule, and what to do
// instead.
func ruleRefusal(err error) string {
	switch {
	case errors.Is(err, rulemake.ErrOpaque):
		return err.Error() + ": a rule could not say what it allows; approve this one run instead"
	case errors.Is(err, rulemake.ErrDestructive):
		return err.Error() + ": a standing rule would let every later run lose data; approve this one run instead"
	case errors.Is(err, rulemake.ErrNothingHeld), errors.Is(err, rulemake.ErrNotShell):
		return err.Error() + ": write a rule by hand in the policy file (docs/POLICY.md)"
	case errors.Is(err, rulemake.ErrChanged):
		return err.Error() + ": review it again"
	}
	return err.Error()
}
