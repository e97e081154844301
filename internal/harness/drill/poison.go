package drill

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/peakload/workshop/internal/given/events"
)

// Poison is the poison phase of step 6's drill: events the database
// refuses for good although the edge cannot see why. A unique index on
// data.order_id (one checkout per order) is created on the drill's
// database, then every order is sent twice: the second copy is a
// duplicate key on that index, a refusal no retry can get past. The
// server must dead-letter it and go on: the good events around it are
// written, and the shutdown flush does not wait for it.
type Poison struct {
	Orders int    // orders sent twice each
	Route  string // where they are sent: /events/bulk
}

// Prepare creates the unique index (sparse: the other events have no
// order_id).
func (p Poison) Prepare(ctx context.Context, mongoURL string) error {
	return withStore(ctx, mongoURL, func(s *events.Store) error {
		_, err := s.Events.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "data.order_id", Value: 1}},
			Options: options.Index().SetUnique(true).SetSparse(true).SetName("one_checkout_per_order")})
		return err
	})
}

// Send posts every order twice and returns how many the server accepted;
// a 503 is sent again after its Retry-After, as the load's clients do.
func (p Poison) Send(ctx context.Context, target string) (accepted int64, err error) {
	client := &http.Client{Timeout: 5 * time.Second}
	now := time.Now().Unix()
	for i := range p.Orders {
		body := fmt.Sprintf(`{"event_name":"checkout","data":{"order_id":%d},"timestamp":%d}`, i, now)
		for range 2 {
			for try := 0; ; try++ {
				resp, err := client.Post(target+p.Route, "application/json", strings.NewReader(body))
				if err != nil {
					return accepted, fmt.Errorf("poison: POST %s: %w", p.Route, err)
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusServiceUnavailable && try < 20 {
					sleep(ctx, 200*time.Millisecond)
					continue
				}
				if resp.StatusCode/100 == 2 {
					accepted++
				}
				break
			}
		}
	}
	return accepted, nil
}

// DeadLettered counts the dead letters the drill's database holds.
func DeadLettered(ctx context.Context, mongoURL string) (n int64, err error) {
	err = withStore(ctx, mongoURL, func(s *events.Store) error {
		n, err = s.DeadLetterColl.CountDocuments(ctx, bson.D{})
		return err
	})
	return n, err
}

func withStore(ctx context.Context, url string, f func(*events.Store) error) error {
	s, err := events.Open(ctx, url)
	if err != nil {
		return err
	}
	defer s.Close(context.Background())
	return f(s)
}
