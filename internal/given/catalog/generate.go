package catalog

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// DefaultSeed makes every learner's catalogue identical.
const DefaultSeed = 20211016

// DefaultItems is the catalogue size the steps are written for.
const DefaultItems = 100_000

// Epoch is the catalogue's "now": the views log ends here and the 24-hour
// audience window is measured back from it. A fixed time (not time.Now)
// keeps the query's cost the same whenever the learner seeded.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

var categories = []string{
	"just-chatting", "music", "gaming", "esports", "irl", "talk-shows", "sports", "cooking",
	"travel", "art", "science", "education", "fitness", "asmr", "fashion", "pets",
	"news", "comedy", "crypto", "retro", "mobile", "strategy", "racing", "shooters",
	"rpg", "mmo", "horror", "indie", "speedrun", "chess", "poker", "karaoke",
	"dance", "makeup", "tech", "coding", "anime", "movies", "books", "garden",
	"diy", "cars", "fishing", "camping", "podcasts", "radio", "meditation", "yoga",
}

var words = strings.Fields(`live stream tonight ranked grind chill vibes music chat road to top
	challenge speedrun world record duo squad solo finals highlights reaction tier list first time
	playthrough hardcore casual morning coffee late night karaoke unboxing review tutorial build
	guide tips tricks strategy season launch update patch event giveaway community special guest
	collab charity marathon birthday anniversary hanoi saigon danang weekend countdown qualifiers
	practice scrims tournament bracket semifinal cup league legends heroes battle royale arena`)

var tagNames = func() []string {
	var t []string
	for _, a := range []string{"english", "vietnamese", "chill", "competitive", "road-to-top", "esports", "live-music", "family-friendly", "no-backseat", "drops"} {
		for i := range 50 {
			t = append(t, fmt.Sprintf("%s-%02d", a, i))
		}
	}
	return t
}()

var countries = []string{"VN", "US", "JP", "KR", "TH", "PH", "ID", "SG", "DE", "FR", "BR", "GB"}
var languages = []string{"vi", "en", "ja", "ko", "th", "id"}

// generator derives every entity from (seed, id) alone, so the data does
// not depend on load order and Sample() matches what was seeded.
type generator struct{ seed uint64 }

func newGenerator(seed uint64) generator { return generator{seed: seed} }

func (g generator) rng(kind, id uint64) *rand.Rand {
	return rand.New(rand.NewPCG(g.seed^kind*0x9E3779B97F4A7C15, id))
}

func sentence(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

type streamerData struct {
	handle, displayName, avatar, bio, country string
	followers                                 int32
	verified                                  bool
}

func (g generator) streamer(id int32) streamerData {
	r := g.rng(1, uint64(id))
	handle := fmt.Sprintf("%s_%s%d", words[r.IntN(len(words))], words[r.IntN(len(words))], id)
	return streamerData{
		handle:      handle,
		displayName: strings.ToUpper(handle[:1]) + handle[1:],
		avatar:      fmt.Sprintf("https://cdn.example.com/avatars/%d/%x.webp", id, r.Uint32()),
		bio:         sentence(r, 18+r.IntN(10)),
		country:     countries[r.IntN(len(countries))],
		followers:   int32(r.ExpFloat64() * 20000),
		verified:    r.IntN(10) == 0,
	}
}

type itemData struct {
	id                                      int32
	title, description, language, thumbnail string
	startedAt                               time.Time
	isLive                                  bool
	categoryID                              int32
	tagIDs                                  []int32
}

func (g generator) item(id, _ int32) itemData {
	r := g.rng(2, uint64(id))
	tags := make([]int32, 0, 5)
	for len(tags) < 3+r.IntN(4) {
		t := int32(r.IntN(len(tagNames)) + 1)
		dup := false
		for _, x := range tags {
			dup = dup || x == t
		}
		if !dup {
			tags = append(tags, t)
		}
	}
	return itemData{
		id:          id,
		title:       sentence(r, 6+r.IntN(5)),
		description: sentence(r, 55+r.IntN(30)),
		language:    languages[r.IntN(len(languages))],
		thumbnail:   fmt.Sprintf("https://cdn.example.com/thumbs/%d/%x.jpg", id, r.Uint64()),
		startedAt:   Epoch.Add(-time.Duration(r.IntN(6*3600)) * time.Second),
		isLive:      r.IntN(5) != 0,
		categoryID:  int32(r.IntN(len(categories)) + 1),
		tagIDs:      tags,
	}
}
