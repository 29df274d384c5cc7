package classify

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestContainerMounts checks the host paths found in container runs:
// every spelling of a bind mount, and the words that only look like one
// (named volumes, an image's command, options of other subcommands).
func TestContainerMounts(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string // "src>dst[ ro][ dyn][ proj]; ..."
	}{
		{"docker run -v ~/.claude:/c alpine sh -c 'echo > /c/settings.json'", "~/.claude>/c"},
		{"docker run --volume ~/.config/airlock:/a:ro alpine cat /a/policy.yaml", "~/.config/airlock>/a ro"},
		{"docker run --volume=/home/u/.ssh:/root/.ssh alpine true", "/home/u/.ssh>/root/.ssh"},
		{"docker run -v/srv:/srv alpine true", "/srv>/srv"},
		{"podman run --mount type=bind,src=/home/u/.claude,dst=/c alpine true", "/home/u/.claude>/c"},
		{"podman run --mount type=bind,source=/etc,target=/e,readonly alpine true", "/etc>/e ro"},
		{"docker run --mount 'type=bind,src=/x,dst=/y' alpine true", "/x>/y"},
		{"docker run -v $PWD:/w img git push", "$PWD>/w dyn proj"},
		{"docker run -v \"$(pwd)\":/w -w /w golang go test ./...", "$(pwd)>/w dyn proj"},
		{"docker run -v .:/w img make", ".>/w proj"},
		{"sudo docker run -e A=1 -v ./data:/data --name x img", "./data>/data"},
		{"docker container create -v /tmp/x:/x img", "/tmp/x>/x"},
		{"docker -H unix:///run/docker.sock run -v ~/:/h img", "~/>/h"},
		{"docker compose run -v ~/.aws:/root/.aws app aws s3 ls", "~/.aws>/root/.aws"},
		{"docker-compose run --volume /srv/data:/d app", "/srv/data>/d"},
		{"nerdctl run -v /var/run/docker.sock:/var/run/docker.sock img", "/var/run/docker.sock>/var/run/docker.sock"},
		{"docker run -v $HOME/.claude:/c img", "$HOME/.claude>/c dyn"},
		// no host path
		{"docker run -v data:/var/lib/postgresql/data postgres", ""},
		{"docker run --mount type=volume,src=data,dst=/d img", ""},
		{"docker run -v /data img", ""},
		{"docker run img sh -c 'mount -v /x:/y'", ""},
		{"docker run --rm img -v /a:/b", ""},
		{"docker exec -it web sh", ""},
		{"docker volume create -v x", ""},
		{"kubectl run x --image=img -v 6", ""},
		{"echo docker run -v /a:/b img", ""},
	} {
		invs := shell.DefaultLimits.Parse(tc.cmd)
		var got []string
		for i := range invs {
			for _, m := range ContainerMounts(&invs[i]) {
				s := m.Source + ">" + m.Target
				if m.ReadOnly {
					s += " ro"
				}
				if m.Dynamic {
					s += " dyn"
				}
				if m.Project {
					s += " proj"
				}
				got = append(got, s)
			}
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%s\n  got  %q\n  want %q", tc.cmd, g, tc.want)
		}
	}
}

// TestContainerMountReasons checks that a bind mount is named in the
// run's reasons, and that a read-only one says read.
func TestContainerMountReasons(t *testing.T) {
	for _, tc := range []struct{ cmd, reason string }{
		{"docker run -v ~/.claude:/c alpine true", "mounts ~/.claude at /c: the container may read and write it"},
		{"docker run -v ~/.claude:/c:ro alpine true", "mounts ~/.claude at /c: the container may read it"},
		{"docker run -v /run/podman/podman.sock:/s alpine true", "engine's socket"},
	} {
		r := Command(tc.cmd)
		if !strings.Contains(reasonText(r.Effect), tc.reason) {
			t.Errorf("%s: reasons %v do not say %q", tc.cmd, r.Reasons, tc.reason)
		}
	}
}

// TestComposeMounts: the host paths a compose file's services mount, in
// both volume syntaxes and through a bind-backed named volume; what it
// hands over beyond paths makes it opaque; a run that starts containers
// reads its -f files or the defaults.
func TestComposeMounts(t *testing.T) {
	data := []byte(`services:
  a:
    volumes:
      - ~/.claude:/c
      - ./src:/src:ro
      - cache:/cache
      - type: bind
        source: /etc/x
        target: /x
        read_only: true
      - type: volume
        source: named
        target: /n
volumes:
  cache: {}
  dev:
    driver_opts: {type: none, o: bind, device: /home/u/.ssh}
`)
	ms, why, err := ComposeMounts(data)
	if err != nil || why != "" {
		t.Fatalf("ComposeMounts: %v %q", err, why)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.Source+map[bool]string{true: ":ro", false: ""}[m.ReadOnly])
	}
	want := "~/.claude ./src:ro /etc/x:ro /home/u/.ssh"
	if strings.Join(got, " ") != want {
		t.Errorf("mounts %v, want %s", got, want)
	}
	for _, y := range []string{"services:\n  a:\n    volumes_from: [b]\n", "services:\n  a:\n    privileged: true\n", "services:\n  a:\n    volumes: [/var/run/docker.sock:/s]\n"} {
		if _, why, _ := ComposeMounts([]byte(y)); why == "" {
			t.Errorf("%q: want opaque", y)
		}
	}
	if _, _, err := ComposeMounts([]byte("services: [\n")); err == nil {
		t.Error("a file that does not parse: want an error")
	}
	for _, tc := range []struct {
		cmd   string
		files string // "" when not a run that starts containers
	}{
		{"docker compose -f a.yml -f b.yml up -d", "a.yml b.yml"},
		{"docker-compose --file x.yml run web", "x.yml"},
		{"podman-compose up", strings.Join(composeDefaults, " ")},
		{"docker compose down", ""},
		{"docker compose -f a.yml config", ""},
		{"docker run alpine", ""},
	} {
		inv := shell.DefaultLimits.Parse(tc.cmd)[0]
		r, ok := Compose(&inv)
		if got := strings.Join(r.Files, " "); ok != (tc.files != "") || got != tc.files {
			t.Errorf("%s: files %q (%v), want %q", tc.cmd, got, ok, tc.files)
		}
	}
}
