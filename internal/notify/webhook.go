package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// WebhookPayload is the JSON body POSTed to the webhook for each held
// action. It carries no button and no signed reply: a webhook receiver
// (a chat channel, say) is read by more people and programs than the
// human who decides, so approving goes through airlock's own channels
// (the terminal, the ntfy buttons, the dashboard).
type WebhookPayload struct {
	// Source is always "airlock".
	Source string `json:"source"`
	// Event is "held" (waits for a human) or "found" (the scanner found
	// it after the fact).
	Event string `json:"event"`
	// Text is a one-paragraph summary, which Slack-like receivers show.
	Text string `json:"text"`
	// Item is the action, rendered and redacted.
	Item *Notice `json:"item"`
	// Approve says how to approve: never over the webhook.
	Approve string `json:"approve"`
}

// webhookPayload builds the payload of a notice.
func webhookPayload(n *Notice) *WebhookPayload {
	p := &WebhookPayload{Source: "airlock", Event: "held", Item: n,
		Approve: "not over this webhook: run " + n.cli + " approve " + n.ID + " (or use the ntfy buttons or the dashboard)"}
	if n.Detected {
		p.Event = "found"
		p.Approve = "nothing to approve (it already happened): " + n.cli + " ack " + n.ID
	}
	p.Text = n.Title + "\n" + n.text(n.Time, false)
	return p
}

// postWebhook sends one payload.
func postWebhook(ctx context.Context, client *http.Client, w *Webhook, p *WebhookPayload) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "airlock-notify")
	for k, v := range w.Headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	defer resp.Body.Close()
	return statusError("webhook", resp)
}
