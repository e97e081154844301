package slides

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/result"
)

// welcomeSources are the phrases with which each edition's welcome deck
// lists the claims whose source is not an article: "(A0, … and B9 are
// ours; B8, … rest on the author's repo; …)".
var welcomeSources = map[string]map[result.SourceKind]*regexp.Regexp{
	"00-welcome.slide": {
		result.FromOurs: regexp.MustCompile(`\(([^;()]*) are ours;`),
		result.FromRepo: regexp.MustCompile(`; ([^;()]*) rest on the author's repo`),
	},
	"vi/00-welcome.slide": {
		result.FromOurs: regexp.MustCompile(`\(([^;()]*) là của workshop;`),
		result.FromRepo: regexp.MustCompile(`; ([^;()]*) dựa vào repo của tác giả`),
	},
}

var claimID = regexp.MustCompile(`\b[A-D]\d*(?:-[a-z0-9]+)*\b`)

// twinSuffix is what a claim judged on a source's own stack adds to its Go
// twin's id (A4-fastify, B9-express-persisted): naming the Go claim names
// its twin when both have the same source; B2-koa (the repository's rows)
// beside B2 (the article's) must be named itself.
var twinSuffix = regexp.MustCompile(`-(?:express|koa|node|fastify|js)\b`)

// TestWelcomeDeckNamesEveryClaimNotFromAnArticle: the welcome decks tell a
// room which claims are ours and which rest on the author's repository;
// that list is read from the claims the reference runs record, so a new
// claim of ours cannot be presented as an article's by omission (S… claims
// are announced as a family: "S…: our own questions").
func TestWelcomeDeckNamesEveryClaimNotFromAnArticle(t *testing.T) {
	kinds := map[string]result.SourceKind{}
	for n := 0; ; n++ {
		if _, err := os.Stat(filepath.Join("..", "results", "reference", fmt.Sprintf("step-%d.json", n))); err != nil {
			break
		}
		for _, c := range reference(t, n).Claims {
			kinds[c.ID] = c.Source.Kind
		}
	}
	want := map[result.SourceKind]map[string]bool{result.FromOurs: {}, result.FromRepo: {}}
	for id, kind := range kinds {
		if want[kind] == nil || strings.HasPrefix(id, "S") {
			continue
		}
		if twin := twinSuffix.ReplaceAllString(id, ""); kinds[twin] == kind {
			id = twin // named with its Go twin
		}
		want[kind][id] = true
	}
	for deck, lists := range welcomeSources {
		b, err := os.ReadFile(deck)
		if err != nil {
			t.Fatal(err)
		}
		for kind, re := range lists {
			m := re.FindSubmatch(b)
			if m == nil {
				t.Errorf("%s: no list of the claims whose source is %q (%s)", deck, kind, re)
				continue
			}
			listed := claimID.FindAllString(string(m[1]), -1)
			for id := range want[kind] {
				if !slices.Contains(listed, id) {
					t.Errorf("%s: claim %s's source is %q in the reference runs, but the deck's list (%s) does not name it", deck, id, kind, m[1])
				}
			}
			for _, id := range listed {
				if !want[kind][id] {
					t.Errorf("%s: the deck lists %s among the claims whose source is %q, and the reference runs record no such claim", deck, id, kind)
				}
			}
		}
	}
}
