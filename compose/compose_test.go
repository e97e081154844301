// Package compose validates the Compose stack: no Docker engine runs in CI,
// so the file is loaded with the Compose specification's own loader and
// checked for what the workshop promises (pinned images, loopback ports,
// healthchecks, memory limits, the native stack's ports).
package compose

import (
	"context"
	"regexp"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

func TestComposeStack(t *testing.T) {
	project, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  ".",
		ConfigFiles: []types.ConfigFile{{Filename: "compose.yaml"}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) { o.SetProjectName("peakload", true) })
	if err != nil {
		t.Fatalf("compose.yaml does not load: %v", err)
	}
	wantPorts := map[string]string{"postgres": "55432", "redis": "56379", "mongo": "57017"}
	pinned := regexp.MustCompile(`^[a-z0-9/._-]+:\d+\.\d+(\.\d+)?(-[a-z0-9.]+)?$`) // major.minor[.patch], never "latest"
	for name, port := range wantPorts {
		s, ok := project.Services[name]
		if !ok {
			t.Errorf("service %s missing", name)
			continue
		}
		if !pinned.MatchString(s.Image) {
			t.Errorf("%s: image %q is not pinned to an exact version", name, s.Image)
		}
		if s.HealthCheck == nil || len(s.HealthCheck.Test) == 0 {
			t.Errorf("%s: no healthcheck (make up waits on it)", name)
		}
		if s.MemLimit == 0 {
			t.Errorf("%s: no memory limit", name)
		}
		if len(s.Ports) != 1 || s.Ports[0].HostIP != "127.0.0.1" || s.Ports[0].Published != port {
			t.Errorf("%s: ports %+v, want one published on 127.0.0.1:%s", name, s.Ports, port)
		}
	}
}
