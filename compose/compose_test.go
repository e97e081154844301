// Package compose validates the Compose stack: no Docker engine runs in CI,
// so the file is loaded with the Compose specification's own loader and
// checked for what the workshop promises (pinned images, loopback ports,
// healthchecks, memory limits, the native stack's ports).
package compose

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/peakload/workshop/internal/given/dbaddr"
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
	wantPorts := map[string]string{"postgres": strconv.Itoa(dbaddr.DefaultPGPort), "redis": strconv.Itoa(dbaddr.DefaultRedisPort), "mongo": strconv.Itoa(dbaddr.DefaultMongoPort)} // the native stack's
	pinned := regexp.MustCompile(`^[a-z0-9/._-]+:\d+\.\d+(\.\d+)?(-[a-z0-9.]+)?$`)                                                                                                 // major.minor[.patch], never "latest"
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

// The bench profile: a learner with Docker alone builds and measures a
// step. Read as a Docker user would: the step server is built from the
// repository (pinned base images, non-root, SOLUTION and STEP build
// arguments), limited like the native plan (one CPU, GOMAXPROCS=1), and
// k6 is pinned, reads the scripts and writes its summary to results/.
func TestBenchProfile(t *testing.T) {
	project, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  ".",
		ConfigFiles: []types.ConfigFile{{Filename: "compose.yaml"}},
		Environment: types.Mapping{"STEP": "02-cache-aside", "SOLUTION": "1"},
	}, func(o *loader.Options) { o.SetProjectName("peakload", true); o.Profiles = []string{"bench"} })
	if err != nil {
		t.Fatalf("compose.yaml does not load with the bench profile: %v", err)
	}
	app, ok := project.Services["app"]
	if !ok || app.Build == nil {
		t.Fatalf("no app service built from the repository: %+v", app)
	}
	if app.Build.Dockerfile != "compose/Dockerfile" || app.Build.Target != "step" || *app.Build.Args["SOLUTION"] != "1" || *app.Build.Args["STEP"] != "02-cache-aside" {
		t.Errorf("app build %+v, want compose/Dockerfile target step with STEP and SOLUTION", app.Build)
	}
	if app.CPUS != 1 || app.MemLimit == 0 {
		t.Errorf("app: cpus %v, mem_limit %v; want one CPU and a memory limit", app.CPUS, app.MemLimit)
	}
	if len(app.Ports) != 1 || app.Ports[0].HostIP != "127.0.0.1" {
		t.Errorf("app ports %+v, want loopback only", app.Ports)
	}
	// An exact 1.x or 2.x release: the scripts and this command line were
	// checked against v1's and v2's changes (compose.yaml says which), and
	// a 0.x image predates them.
	k6, ok := project.Services["k6"]
	if !ok || !regexp.MustCompile(`^grafana/k6:[12]\.\d+\.\d+$`).MatchString(k6.Image) {
		t.Fatalf("k6 service %+v, want grafana/k6 pinned to an exact 1.x or 2.x release", k6.Image)
	}
	if cmd := strings.Join(k6.Command, " "); !strings.Contains(cmd, "/scripts/02-cache-aside.js") || !strings.Contains(cmd, "--summary-export /results/") {
		t.Errorf("k6 command %q, want the step's script and a summary in /results", cmd)
	}
	if _, err := os.Stat(filepath.Join("..", "k6", "02-cache-aside.js")); err != nil {
		t.Error(err)
	}
	// The workshop's own bench, one-shot, against the app container: the
	// same results file as a native bench, in results/.
	b, ok := project.Services["bench"]
	if !ok || b.Build == nil || b.Build.Target != "workshop" {
		t.Fatalf("no bench service built from compose/Dockerfile's workshop stage")
	}
	if cmd := strings.Join(b.Command, " "); cmd != "bench -step 02-cache-aside" {
		t.Errorf("bench command %q, want `bench -step 02-cache-aside`", cmd)
	}
	for k, want := range map[string]string{"STACK": "given", "PEAKLOAD_SERVER_URL": "http://app:8080", "PEAKLOAD_WORKER": "external",
		"PEAKLOAD_RESULTS": "/results", "SOLUTION": "1", "PEAKLOAD_REDIS_ADDR": "redis:6379"} {
		if v := b.Environment[k]; v == nil || *v != want {
			t.Errorf("bench: %s=%v, want %q", k, v, want)
		}
	}
	if len(b.Volumes) != 1 || b.Volumes[0].Target != "/results" || filepath.Base(b.Volumes[0].Source) != "results" {
		t.Errorf("bench volumes %+v, want results/ on /results", b.Volumes)
	}
	if b.DependsOn["app"].Condition != "service_healthy" || b.DependsOn["worker"].Condition != "service_started" {
		t.Errorf("bench depends on %+v, want a healthy app and the worker", b.DependsOn)
	}
	for _, name := range []string{"seed", "worker", "bench"} {
		if s, ok := project.Services[name]; !ok || s.Build == nil || s.Build.Target != "workshop" {
			t.Errorf("%s: want the workshop image built from compose/Dockerfile", name)
		}
	}

	dockerfile, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(dockerfile)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^ARG GO_IMAGE=golang:\d+\.\d+\.\d+-\w+$`),
		regexp.MustCompile(`(?m)^ARG RUNTIME_IMAGE=debian:\w+-\d{8}-slim$`),
		regexp.MustCompile(`(?m)^ARG SOLUTION=0$`),
		regexp.MustCompile(`(?m)^FROM \$\{RUNTIME_IMAGE\} AS step\n(?:.*\n)*?USER 10001`),
		regexp.MustCompile(`-tags=solution`),
	} {
		if !want.MatchString(df) {
			t.Errorf("compose/Dockerfile lacks %s", want)
		}
	}
	if strings.Contains(df, ":latest") {
		t.Error("compose/Dockerfile uses a :latest image")
	}
}

// The scale profile (step 10): replicas with no port of their own, behind
// a pinned HAProxy image published on loopback only, whose configuration
// is the file next to this one.
func TestScaleProfile(t *testing.T) {
	project, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  ".",
		ConfigFiles: []types.ConfigFile{{Filename: "compose.yaml"}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) { o.SetProjectName("peakload", true); o.Profiles = []string{"scale"} })
	if err != nil {
		t.Fatalf("compose.yaml does not load with the scale profile: %v", err)
	}
	r, ok := project.Services["replica"]
	if !ok || r.Build == nil || *r.Build.Args["STEP"] != "10-scale-out" || len(r.Ports) != 0 || r.MemLimit == 0 {
		t.Fatalf("replica %+v: want step 10 built from compose/Dockerfile, no published port (it scales), a memory limit", r)
	}
	if r.Environment["PEAKLOAD_REDIS_ADDR"] == nil {
		t.Error("replica: no database endpoints")
	}
	lb, ok := project.Services["balancer"]
	pinned := regexp.MustCompile(`^haproxy:\d+\.\d+\.\d+(-[a-z0-9.]+)?$`)
	if !ok || !pinned.MatchString(lb.Image) || lb.MemLimit == 0 {
		t.Fatalf("balancer %+v: want a pinned haproxy image and a memory limit", lb.Image)
	}
	if len(lb.Ports) != 1 || lb.Ports[0].HostIP != "127.0.0.1" {
		t.Errorf("balancer ports %+v, want one on loopback", lb.Ports)
	}
	cfg, err := os.ReadFile("haproxy.cfg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"server-template r 1-8 replica:8080", "option httpchk GET /healthz", "hash-type consistent", `balance "${BALANCE}"`} {
		if !strings.Contains(string(cfg), want) {
			t.Errorf("compose/haproxy.cfg lacks %q", want)
		}
	}
	// Where HAProxy is installed (step 10 needs it natively), it checks
	// the file itself, with both balances the profile documents.
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		bin = "/usr/sbin/haproxy"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Logf("haproxy not installed: compose/haproxy.cfg not checked by it")
		return
	}
	for _, balance := range []string{"roundrobin", "uri"} {
		cmd := exec.Command(bin, "-c", "-f", "haproxy.cfg")
		cmd.Env = append(os.Environ(), "BALANCE="+balance)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("haproxy -c -f compose/haproxy.cfg with BALANCE=%s: %v\n%s", balance, err, out)
		}
	}
}
