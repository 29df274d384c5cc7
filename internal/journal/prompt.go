package journal

// LastPrompt is the newest prompt the user gave in session before the
// event seq (the agent's last instruction before it acted): what a
// reviewer reads beside a held action. It reads the session's postings
// backwards from seq, so it costs the lines since that prompt, never the
// journal. It is nil when the session recorded no prompt before seq.
func (j *Journal) LastPrompt(session string, seq int64) (*Entry, error) {
	if session == "" {
		return nil, nil
	}
	var found *Entry
	err := j.locked(func(w *writer) error {
		found = nil
		ps, err := w.j.postings(sessionKey(session), w.head.Seq)
		if err != nil {
			return err
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		for i := len(ps) - 1; i >= 0; i-- {
			if ps[i].Seq >= seq {
				continue
			}
			e, _, err := r.entry(ps[i])
			if err != nil {
				return err
			}
			if e.Session == session && e.Prompt != "" {
				found = e
				return nil
			}
		}
		return nil
	})
	return found, err
}
