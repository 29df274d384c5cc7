package notify

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// SecretsFile is where the reply key and the generated topic names live,
// under the state directory: self-protection refuses every agent tool
// call that reads <state>/secrets/.
const SecretsFile = "secrets/notify.json"

// secrets are what only airlock may know: the key that signs the buttons'
// replies, and the topic names airlock made up when the policy names
// none (on a server anyone can read, a topic's name is its only lock).
type secrets struct {
	Key        string `json:"key"`
	Topic      string `json:"topic"`
	ReplyTopic string `json:"reply_topic"`
	key        []byte
}

// secretsPath is where the watcher called name keeps its secrets:
// SecretsFile for the machine's, secrets/<name>.json for another.
func secretsPath(stateDir, name string) string {
	return filepath.Join(stateDir, "secrets", name+".json")
}

// loadSecrets reads the secrets of the watcher called name, making each
// missing one.
func loadSecrets(stateDir, name string) (*secrets, error) {
	path := secretsPath(stateDir, name)
	var s *secrets
	err := withLock(filepath.Join(stateDir, name), func() error {
		if err := safeDir(filepath.Dir(path)); err != nil {
			return err
		}
		data, err := readSmall(path, 4096)
		if err != nil {
			return err
		}
		s = &secrets{}
		if data != nil {
			if err := json.Unmarshal(data, s); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
		changed := false
		if s.key, err = hex.DecodeString(s.Key); err != nil || len(s.key) < 32 {
			s.Key, changed = randomHex(32), true
			s.key, _ = hex.DecodeString(s.Key)
		}
		if !validTopic(s.Topic) {
			s.Topic, changed = secretTopic(), true
		}
		if !validTopic(s.ReplyTopic) || s.ReplyTopic == s.Topic {
			s.ReplyTopic, changed = secretTopic(), true
		}
		if !changed {
			return nil
		}
		out, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		return writeAtomic(path, out)
	})
	if err != nil {
		return nil, fmt.Errorf("notify: secrets: %w", err)
	}
	return s, nil
}

// secretTopic is a topic name nobody can guess: 130 random bits.
func secretTopic() string {
	b := make([]byte, 17)
	if _, err := rand.Read(b); err != nil {
		panic("notify: crypto/rand: " + err.Error())
	}
	return "airlock-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}
