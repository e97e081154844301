package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Row is one item-detail row exactly as the query returns it.
type Row struct {
	ID            int32
	Title         string
	Description   string
	Language      string
	ThumbnailURL  string
	StartedAt     time.Time
	IsLive        bool
	StreamerID    int32
	Handle        string
	DisplayName   string
	AvatarURL     string
	Bio           string
	Followers     int32
	Verified      bool
	Country       string
	CategoryID    int32
	CategorySlug  string
	CategoryName  string
	Tags          []string
	Viewers       int32
	Likes         int32
	Comments      int32
	StatsUpdated  time.Time
	UniqueViewers int64
}

// Item is the public JSON response of GET /items/:id (~1.5 KB).
type Item struct {
	ID           int32     `json:"id"`
	Title        string    `json:"title"`
	Description  string    `json:"description"`
	Language     string    `json:"language"`
	ThumbnailURL string    `json:"thumbnail_url"`
	URL          string    `json:"url"`
	StartedAt    time.Time `json:"started_at"`
	IsLive       bool      `json:"is_live"`
	Streamer     Streamer  `json:"streamer"`
	Category     Category  `json:"category"`
	Tags         []string  `json:"tags"`
	Stats        Stats     `json:"stats"`
	Audience     Audience  `json:"audience"`
}

// Streamer is the channel an item is streamed on.
type Streamer struct {
	ID          int32  `json:"id"`
	Handle      string `json:"handle"`
	DisplayName string `json:"display_name"`
	AvatarURL   string `json:"avatar_url"`
	Bio         string `json:"bio"`
	Followers   int32  `json:"followers"`
	Verified    bool   `json:"verified"`
	Country     string `json:"country"`
}

// Category groups items ("Just Chatting", "Music", …).
type Category struct {
	ID   int32  `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// Stats is the hot part: the worker rewrites it about once a minute on the
// articles' clock, which is what makes caching and ETags interesting.
type Stats struct {
	Viewers   int32     `json:"viewers"`
	Likes     int32     `json:"likes"`
	Comments  int32     `json:"comments"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Audience is the expensive aggregate: distinct viewers of all the
// streamer's items in the last 24 hours.
type Audience struct {
	UniqueViewers24h int64 `json:"unique_viewers_24h"`
}

// Response transforms a database row into the public response. It is kept
// explicit (not a struct tag on the row) because the article's API, like
// most, returns a shape that differs from its tables.
func (r Row) Response() Item {
	tags := r.Tags
	if tags == nil {
		tags = []string{}
	}
	return Item{
		ID:           r.ID,
		Title:        r.Title,
		Description:  r.Description,
		Language:     r.Language,
		ThumbnailURL: r.ThumbnailURL,
		URL:          fmt.Sprintf("https://live.example.com/%s/%d", r.Handle, r.ID),
		StartedAt:    r.StartedAt.UTC(),
		IsLive:       r.IsLive,
		Streamer: Streamer{
			ID: r.StreamerID, Handle: r.Handle, DisplayName: r.DisplayName, AvatarURL: r.AvatarURL,
			Bio: r.Bio, Followers: r.Followers, Verified: r.Verified, Country: r.Country,
		},
		Category: Category{ID: r.CategoryID, Slug: r.CategorySlug, Name: r.CategoryName},
		Tags:     tags,
		Stats:    Stats{Viewers: r.Viewers, Likes: r.Likes, Comments: r.Comments, UpdatedAt: r.StatsUpdated.UTC()},
		Audience: Audience{UniqueViewers24h: r.UniqueViewers},
	}
}

// SampleJSON is Sample's public response as GET /items/:id writes it: the
// empty routes' body (server.EmptyBody), and its length the one the
// originals' empty routes copy (step 9, ORIGINAL=1).
func SampleJSON() []byte {
	b, err := json.Marshal(Sample().Response())
	if err != nil {
		panic(err) // a fixed value: cannot fail
	}
	return b
}

// Sample returns a representative row built by the same generator as the
// seeded data, without a database: the "empty" endpoints return a body of
// the same size so that the ceiling and the item read move equal bytes.
func Sample() Row {
	g := newGenerator(DefaultSeed)
	const id = 4242
	sid := int32(id%1000 + 1)
	s := g.streamer(sid)
	it := g.item(id, int32(DefaultItems))
	return Row{
		ID: it.id, Title: it.title, Description: it.description, Language: it.language,
		ThumbnailURL: it.thumbnail, StartedAt: it.startedAt, IsLive: it.isLive,
		StreamerID: sid, Handle: s.handle, DisplayName: s.displayName, AvatarURL: s.avatar, Bio: s.bio,
		Followers: s.followers, Verified: s.verified, Country: s.country,
		CategoryID: 7, CategorySlug: categories[6], CategoryName: strings.ToTitle(categories[6][:1]) + categories[6][1:],
		Tags:    tagNamesOf(it.tagIDs),
		Viewers: 1834, Likes: 20931, Comments: 4410, StatsUpdated: Epoch, UniqueViewers: 412,
	}
}

func tagNamesOf(ids []int32) []string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = tagNames[id-1]
	}
	return names
}
