package report

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

func references(t *testing.T) ([]int, map[int]string, map[int]*result.Result) {
	t.Helper()
	var steps []int
	slugs, rs := map[int]string{}, map[int]*result.Result{}
	for n := 0; n <= 9; n++ {
		r, err := Load(filepath.Join("..", "..", "..", "results"), n, true)
		if err != nil {
			t.Fatal(err)
		}
		if r == nil {
			continue
		}
		steps, slugs[n], rs[n] = append(steps, n), r.Slug, r
	}
	if len(steps) == 0 {
		t.Fatal("no reference runs in results/reference")
	}
	return steps, slugs, rs
}

// TestPageIsSelfContained: the report opens from disk with no network —
// no URL but the SVG namespace, no script, no stylesheet or image link.
func TestPageIsSelfContained(t *testing.T) {
	steps, slugs, rs := references(t)
	page := Page("t", steps, slugs, rs, true)
	rest := strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
	rest = strings.ReplaceAll(rest, "url(#", "") // a fill from a pattern in the same SVG reaches nothing
	if m := regexp.MustCompile(`(?i)(https?:|//[a-z0-9.-]+\.[a-z]{2,}/|<script|<link|<img|<iframe|url\()`).FindString(rest); m != "" {
		t.Errorf("the page reaches out: %q", m)
	}
	for _, n := range steps {
		if !strings.Contains(page, fmt.Sprintf(`id="step-%d"`, n)) {
			t.Errorf("step %d has no section", n)
		}
		for _, c := range rs[n].Claims {
			if !strings.Contains(page, "<b>"+c.ID+"</b>") {
				t.Errorf("claim %s is missing", c.ID)
			}
		}
	}
}

// TestRatiosAreTheRuns: the article-beside-ours figures are computed from
// the runs (a chart of constants would pass a snapshot test).
func TestRatiosAreTheRuns(t *testing.T) {
	_, _, rs := references(t)
	r := rs[3]
	if r == nil {
		t.Skip("no step 3 reference")
	}
	before := RatiosChart(r)
	r.Find("etag-poll").Extra[result.BodyBytesPerReq] *= 2
	if RatiosChart(r) == before {
		t.Error("doubling etag's body bytes left step 3's ratios chart unchanged")
	}
	for n, s := range Steps {
		for _, q := range s.Ratios {
			if rs[n] != nil && claimOf(rs[n], q.Claim) == nil {
				t.Errorf("step %d: ratio for claim %s, which its reference run does not judge", n, q.Claim)
			}
		}
	}
}

// TestPageRendersInChromium opens the report in headless Chromium, with a
// proxy on a closed port so any request off the machine would fail, and
// checks every chart is in the rendered page and the screenshot is not blank.
func TestPageRendersInChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" || testing.Short() {
		t.Skip("no Chromium (CI installs it) or -short")
	}
	steps, slugs, rs := references(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "index.html")
	html := Page("t", steps, slugs, rs, true)
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--proxy-server=127.0.0.1:9", "--user-data-dir=" + filepath.Join(dir, "profile")}
	dom, err := exec.Command(browser, append(flags, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	if got, want := bytes.Count(dom, []byte("<svg")), strings.Count(html, "<svg"); got != want || want < len(steps) {
		t.Errorf("the rendered page has %d charts, the report %d, for %d steps", got, want, len(steps))
	}
	shot := filepath.Join(dir, "shot.png")
	if out, err := exec.Command(browser, append(flags, "--window-size=1100,1600", "--screenshot="+shot, "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b, ink := img.Bounds(), 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if r, g, bl, _ := img.At(x, y).RGBA(); r+g+bl < 3*0xe000 {
				ink++
			}
		}
	}
	if share := float64(ink) / float64(b.Dx()*b.Dy()/4); share < 0.01 {
		t.Errorf("the screenshot is blank: %.2f%% of pixels drawn", 100*share)
	}
}
