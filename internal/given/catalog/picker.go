package catalog

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Skew draws item ids the way a livestream site is read: viewers are on the
// few streams that are live, and most of them on the biggest. With
// probability HotShare the id is one of Hot live items, ranked by a Zipf
// law of exponent ZipfS (rank 1 the most watched); otherwise any item of
// the catalogue (old videos, the cold tail). k6/lib/common.js implements
// the same rule.
type Skew struct {
	Items    int
	Hot      int
	HotShare float64
	Stride   int     // spreads the live ids over the id space (coprime with Items)
	ZipfS    float64 // 0: every live item equally watched
	cdf      []float64
}

// NewSkew precomputes the rank distribution.
func NewSkew(items, hot int, hotShare float64, stride int, zipfS float64) Skew {
	s := Skew{Items: items, Hot: hot, HotShare: hotShare, Stride: stride, ZipfS: zipfS}
	s.cdf = make([]float64, hot)
	total := 0.0
	for k := range hot {
		total += 1 / math.Pow(float64(k+1), zipfS)
		s.cdf[k] = total
	}
	for k := range s.cdf {
		s.cdf[k] /= total
	}
	return s
}

// HotID returns the id of the live item of rank k (0 = most watched).
func (s Skew) HotID(k int) int32 { return int32((k*s.Stride)%s.Items + 1) }

// HotIDs lists every live id: the ones the worker keeps changing.
func (s Skew) HotIDs() []int32 {
	ids := make([]int32, s.Hot)
	for k := range ids {
		ids[k] = s.HotID(k)
	}
	return ids
}

// Pick draws one id.
func (s Skew) Pick(r *rand.Rand) int32 {
	if r.Float64() < s.HotShare {
		return s.HotID(s.Rank(r.Float64()))
	}
	return int32(r.IntN(s.Items) + 1)
}

// Rank maps a uniform u in [0,1) to a live rank by the Zipf law.
func (s Skew) Rank(u float64) int {
	return min(sort.SearchFloat64s(s.cdf, u), s.Hot-1)
}
