package probetest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/proc"
)

// Nginx starts Debian's nginx as it ships (its defaults: a 60 s header
// timeout, 1 MiB body limit, ETags on static files) on a free loopback
// port, serving files (name → content) with the server block's extra
// directives, and returns its base URL. It skips the test, saying why,
// where nginx is not installed (apt-get install nginx-light).
func Nginx(t testing.TB, files map[string]string, extra string) string {
	t.Helper()
	return NginxHTTP(t, files, "", extra)
}

// NginxHTTP is Nginx with directives for the http block too (http), where
// some must go: limit_req_zone, for one.
func NginxHTTP(t testing.TB, files map[string]string, http, extra string) string {
	t.Helper()
	base, _ := NginxCPU(t, files, http, extra)
	return base
}

// NginxCPU is NginxHTTP with a reader of the CPU seconds its one process
// has used so far (-1 where /proc cannot tell): nginx exports no
// process_cpu_seconds_total, and a verdict that rests on the service's CPU
// (audit.Config.ServerCPU) needs it.
func NginxCPU(t testing.TB, files map[string]string, http, extra string) (string, func() float64) {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if bin, err = exec.LookPath("/usr/sbin/nginx"); err != nil {
			t.Skip("nginx is not installed here (apt-get install nginx-light): the audit's verdicts on it are not checked")
		}
	}
	dir := t.TempDir()
	www := filepath.Join(dir, "www")
	for name, body := range files {
		p := filepath.Join(www, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	addr := freeAddr(t)
	conf := fmt.Sprintf(`daemon off; master_process off; worker_processes 1;
pid %[1]s/nginx.pid; error_log %[1]s/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s/body; proxy_temp_path %[1]s/proxy; fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi; scgi_temp_path %[1]s/scgi;
  types { application/json json; application/octet-stream bin; }
  %[4]s
  server { listen %[2]s; root %[1]s/www; %[3]s }
}
`, dir, addr, extra, http)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", path)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			pid := cmd.Process.Pid
			return "http://" + addr, func() float64 {
				if s := proc.TreeCPUSeconds([]int{pid}); s > 0 {
					return s
				}
				return -1
			}
		}
	}
	log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
	t.Fatalf("nginx did not listen on %s within 10 s: %s %s", addr, out.String(), log)
	return "", nil
}

// freeAddr is a loopback address nothing listens on, for a server that
// cannot be handed a listener.
func freeAddr(t testing.TB) string {
	t.Helper()
	return strings.TrimPrefix(ClosedPort(t), "http://")
}
