package result

import "github.com/peakload/workshop/internal/harness/course"

// Capacity is one variant's search: where it started, every probe, and
// the highest rate that passed.
type Capacity struct {
	Variant    course.Variant `json:"variant"`
	Route      string         `json:"route"`
	P99BoundMs float64        `json:"p99_bound_ms"`
	ClosedRPS  float64        `json:"closed_loop_rps"` // the closed loop's req/s the search started from
	ClosedP99  float64        `json:"closed_loop_p99_ms"`
	RPS        float64        `json:"capacity_rps"` // highest rate served; 0 if none was
	// Above is the lowest rate that failed (0: none failed, RPS is a floor).
	Above  float64 `json:"failed_at_rps,omitempty"`
	Probes []Probe `json:"probes"`
}

// Probe is one open-loop run of the search at a fixed rate.
type Probe struct {
	Rate float64 `json:"intended_rps"`
	OK   bool    `json:"served"`
	Why  string  `json:"why"`
	Run  Run     `json:"run"`
}

// CapacityOf returns the capacity search of a variant, or nil.
func (r *Result) CapacityOf(variant course.Variant) *Capacity {
	for i := range r.Capacity {
		if r.Capacity[i].Variant == variant {
			return &r.Capacity[i]
		}
	}
	return nil
}

// Achieved is the highest rate any probe of the search achieved.
func (c *Capacity) Achieved() float64 {
	var best float64
	for _, p := range c.Probes {
		if p.Run.Arrival != nil {
			best = max(best, p.Run.Arrival.AchievedRPS)
		}
	}
	return best
}
