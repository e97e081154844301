package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/harness/probe/probetest"
)

// nginxFiles are a static JSON item and a 2.6 MB file.
var nginxFiles = map[string]string{"items/1.json": `{"id":1,"name":"item"}`, "big.bin": strings.Repeat("x", 2_600_000)}

// TestNginxAsItShips: Debian's nginx, defaults untouched, gets true
// verdicts: ETag and its weak form, 413, keep-alive on a file larger than
// the audit looks at, and a slowloris connection "still open" (nginx
// closes at 60 s), said without a guessed reason.
func TestNginxAsItShips(t *testing.T) {
	base := probetest.Nginx(t, nginxFiles, "")
	got := verdicts(t, Config{Target: target(t, base+"/items/1.json"), SlowlorisBound: 2 * time.Second, Cold: 5})
	want(t, got, "ETag / 304 on a repeated GET", Pass)
	want(t, got, "ETag", Pass) // the weak form
	want(t, got, "oversized body", Pass)
	want(t, got, "keep-alive honoured", Pass)
	want(t, got, "a slowloris connection closed within 2s", Missing)
	if ev := got["a slowloris connection closed within 2s"].Evidence; !strings.Contains(ev, "still open after") {
		t.Errorf("slowloris evidence: %s", ev)
	}
	big := verdicts(t, Config{Target: target(t, base+"/big.bin"), SlowlorisBound: time.Second, Cold: 2})
	want(t, big, "keep-alive honoured", Pass)
	if ev := big["ETag / 304 on a repeated GET"].Evidence; !strings.Contains(ev, "2600000 bytes") {
		t.Errorf("the 2.6 MB file's size: %s", ev)
	}
}

// TestNginxWithoutKeepAlive: keepalive_timeout 0 closes every connection
// and says so (Connection: close, which Go's client takes out of the
// header and keeps in Response.Close).
func TestNginxWithoutKeepAlive(t *testing.T) {
	base := probetest.Nginx(t, nginxFiles, "keepalive_timeout 0;")
	got := verdicts(t, Config{Target: target(t, base+"/items/1.json"), SlowlorisBound: time.Second, Cold: 2})
	want(t, got, "keep-alive honoured", Missing)
	if f := got["keep-alive honoured"]; f.Verdict != "closed" {
		t.Errorf("keep-alive: %s (%s), want it closed, said by the service", f.Cell(), f.Evidence)
	}
}

// TestNginxRecoversAfterABurst: nginx serving a static file holds no queue
// past a burst; with each recovery window warmed up it is not called "not
// recovered" (a cold open loop's first requests were). Its CPU, read in
// /proc, is the service's evidence: on a busy machine its recovery windows
// run at a rate near what its share of a CPU serves (half the closed
// loop's), and a neighbour taking that CPU keeps its p99 high with nginx
// short of CPU, which the audit calls not judged, never ✗ (seen once
// before it had the CPU: p99s 161, 103, 286, 13 ms against a 4.2 ms
// baseline, beside two busy loops). A verdict the load tool's CPU decided
// is skipped, saying so.
func TestNginxRecoversAfterABurst(t *testing.T) {
	base, cpu := probetest.NginxCPU(t, nginxFiles, "", "")
	runs, fs := burst(t.Context(), Config{Target: target(t, base+"/items/1.json"), Burst: time.Second, P99Ms: 100, ServerCPU: cpu})
	logRuns(t, runs)
	for _, f := range fs {
		t.Logf("%s: %s — %s", f.Practice, f.Cell(), f.Evidence)
	}
	if fs[1].Mark == Missing {
		if strings.Contains(fs[0].Evidence, "the audit used") {
			t.Skipf("the load tool's CPU decided: %s", fs[0].Evidence)
		}
		t.Errorf("nginx: %s (%s)", fs[1].Cell(), fs[1].Evidence)
	}
}

// limitReq is nginx's own load shedding: 200 requests a second from an
// address, 50 of slack for arrivals that bunch, the excess refused at
// once with 503; shedAt adds the Retry-After that tells a client when to
// come back (nginx sends none of its own).
const (
	limitReqZone = "limit_req_zone $binary_remote_addr zone=peak:1m rate=200r/s;"
	limitReq     = "location / { limit_req zone=peak burst=50 nodelay; }"
	shedAt       = `location / { limit_req zone=peak burst=50 nodelay; error_page 503 @shed; }
  location @shed { add_header Retry-After 1 always; default_type application/json; return 503 '{"error":"busy"}'; }`
)

// TestNginxLimitReq: nginx with limit_req sheds what passes its rate with
// 503 at once; its verdict is "503 without Retry-After" as it ships and
// "sheds" once the 503 carries Retry-After. Half the rate it served is
// under its limit, so it is never "refuses below its own rate". A verdict
// the load tool's CPU or schedule decided is logged and skipped. Neither
// holds a queue past the burst: never "not recovered".
func TestNginxLimitReq(t *testing.T) {
	for _, c := range []struct{ name, server, want string }{
		{"without Retry-After", limitReq, english("table.audit.no_retry_after")},
		{"with Retry-After", shedAt, english("table.audit.sheds")},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, cpu := probetest.NginxCPU(t, nginxFiles, limitReqZone, c.server)
			runs, fs := burst(t.Context(), Config{Target: target(t, base+"/items/1.json"), Burst: time.Second, P99Ms: 100, ServerCPU: cpu})
			logRuns(t, runs)
			for _, f := range fs {
				t.Logf("%s: %s — %s", f.Practice, f.Cell(), f.Evidence)
			}
			if fs[0].Mark == NotJudged {
				t.Skipf("the machine decided: %s", fs[0].Evidence)
			}
			if fs[0].Verdict != c.want {
				t.Errorf("nginx limit_req %s: %s, want %s (%s)", c.name, fs[0].Cell(), c.want, fs[0].Evidence)
			}
			if fs[1].Mark == Missing { // a rate limit holds no queue past the burst
				t.Errorf("nginx limit_req %s: %s (%s)", c.name, fs[1].Cell(), fs[1].Evidence)
			}
		})
	}
}
