package catalog

import "math/rand/v2"

// Skew draws item ids the way a livestream site is read: most viewers on a
// few hot streams. With probability HotShare the id is one of Hot hot
// items, else any item. k6/lib/common.js implements the same rule.
type Skew struct {
	Items    int
	Hot      int
	HotShare float64
	Stride   int // spreads the hot ids over the id space (coprime with Items)
}

// HotID returns the k-th hot item's id.
func (s Skew) HotID(k int) int32 { return int32((k*s.Stride)%s.Items + 1) }

// HotIDs lists every hot id: the ones the worker keeps changing.
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
		return s.HotID(r.IntN(s.Hot))
	}
	return int32(r.IntN(s.Items) + 1)
}
