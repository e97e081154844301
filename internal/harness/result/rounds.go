package result

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"

	"github.com/peakload/workshop/internal/harness/course"
)

// Repeated runs. A shared laptop drifts by ±30 % over minutes, so one run
// of a variant can land on either side of a claim's tolerance. RUNS=N
// measures every variant N times, interleaved (round 1 runs every variant,
// then round 2…), so a drift hits all rows alike; each row is then its
// median round, shows the spread of its rounds, and a claim whose rounds
// disagree is reported unstable instead of flipping from one rerun to the
// next.

// Spread is how a row's req/s varied over its rounds.
type Spread struct {
	Rounds int     `json:"rounds"`
	RPSMin float64 `json:"rps_min"`
	RPSMax float64 `json:"rps_max"`
}

// Combine turns interleaved rounds (rounds[i]: the runs of round i) into
// one row per variant, in the order the variants first appear. A row is
// its median round by req/s (with an even count, the slower of the middle
// two): a whole measured run, so its counters belong together. With best,
// a row is its fastest round instead (step 9, whose rows are compared with
// each other and where noise only ever slows a run down). Errors add up
// over the rounds either way.
func Combine(rounds [][]Run, best bool) []Run {
	var order []course.Variant
	byVariant := map[course.Variant][]Run{}
	for _, round := range rounds {
		for _, r := range round {
			if _, seen := byVariant[r.Variant]; !seen {
				order = append(order, r.Variant)
			}
			byVariant[r.Variant] = append(byVariant[r.Variant], r)
		}
	}
	out := make([]Run, 0, len(order))
	for _, name := range order {
		runs := slices.Clone(byVariant[name])
		if len(runs) == 1 {
			out = append(out, runs[0])
			continue
		}
		slices.SortStableFunc(runs, func(a, b Run) int { return cmp.Compare(a.RPS, b.RPS) })
		row := runs[(len(runs)-1)/2]
		if best {
			row = runs[len(runs)-1]
		}
		row.Extra = maps.Clone(row.Extra)
		if row.Extra == nil {
			row.Extra = map[Key]float64{}
		}
		row.Errors, row.FirstError = 0, ""
		for _, r := range byVariant[name] { // in round order: the first error seen
			row.Errors += r.Errors
			row.FirstError = cmp.Or(row.FirstError, r.FirstError)
		}
		row.Spread = &Spread{Rounds: len(runs), RPSMin: runs[0].RPS, RPSMax: runs[len(runs)-1].RPS}
		if best {
			row.Extra[Rounds], row.Extra[RPSWorstRound] = float64(len(runs)), runs[0].RPS
		}
		out = append(out, row)
	}
	return out
}

// Judge computes a step's claims on the combined rows of res and, with
// several rounds, on each round alone. A claim whose measured rounds do
// not all give the same verdict straddles its tolerance: it is marked
// Unstable and keeps the combined rows' verdict beside the rounds' own.
// A claim judged on rates measured on a busy machine (busy.go) gets no
// verdict from the busy rows: in one round it is not judged; with rounds,
// a busy round counts neither for nor against it, the quiet rounds judge
// it, and with no quiet round it is not judged.
func Judge(res *Result, rounds [][]Run, claims func(*Result) []Claim) []Claim {
	out := claims(res)
	if len(rounds) < 2 {
		for i := range out {
			noteBusy(&out[i], res.Runs)
		}
		return out
	}
	perRound := make([]map[string]*bool, len(rounds))
	busy := make([]map[string]bool, len(rounds))
	for i, round := range rounds {
		one := *res
		one.Runs = round
		perRound[i], busy[i] = map[string]*bool{}, map[string]bool{}
		for _, c := range claims(&one) {
			perRound[i][c.ID] = c.Reproduced
			if MachineBound(c) && busyRows(round, c.Rows) != "" {
				perRound[i][c.ID], busy[i][c.ID] = nil, true
			}
		}
	}
	for i := range out {
		c := &out[i]
		var yes, no int
		for r, verdicts := range perRound {
			v := verdicts[c.ID]
			c.Rounds = append(c.Rounds, v)
			switch {
			case busy[r][c.ID]:
				c.BusyRounds++
			case v == nil:
			case *v:
				yes++
			default:
				no++
			}
		}
		c.Unstable = yes > 0 && no > 0
		switch {
		case c.BusyRounds == 0 || c.Reproduced == nil || c.Unstable:
		case yes+no == 0: // every measured round busy
			c.Busy = cmp.Or(busyRows(res.Runs, c.Rows), "every round")
			c.IfJudged, c.Reproduced = c.Reproduced, nil
		default: // the quiet rounds agree: theirs, not the median rows' (which may be a busy round's)
			c.Reproduced = Verdict(yes > 0)
		}
	}
	return out
}

// Verdict is the claim's verdict as the table and `make compare` print it.
func (c Claim) Verdict() string { return c.VerdictIn(messages.English) }

// VerdictIn is the verdict in language l, for a terminal: Verdict's English
// is what docs, reports and tests compare.
func (c Claim) VerdictIn(l messages.Lang) string {
	if c.Withheld() {
		var why []string
		if c.NotJudged != "" {
			why = append(why, l.T("verdict.not_judged", c.NotJudged))
		}
		if c.Unjudged != "" {
			why = append(why, l.T("verdict.unjudged", c.LinesIn(l).Unjudged))
		}
		if c.Busy != "" {
			key := "verdict.busy"
			if busyBeside(c.Busy) {
				key = "verdict.busy_beside"
			}
			why = append(why, l.T(key, c.Busy))
		}
		v := strings.Join(why, "; ")
		if c.IfJudged != nil {
			v += l.T("verdict.as_measured", verdictWord(l, *c.IfJudged))
		}
		return v
	}
	if c.Reproduced == nil {
		return l.T("verdict.not_measured")
	}
	v := verdictWord(l, *c.Reproduced)
	if c.BusyRounds > 0 {
		v += l.T("verdict.busy_rounds", c.BusyRounds, len(c.Rounds))
	}
	if !c.Unstable {
		return v
	}
	var yes, measured int
	for _, r := range c.Rounds {
		if r != nil {
			measured++
			if *r {
				yes++
			}
		}
	}
	return l.T("verdict.unstable", yes, measured, v)
}

// verdictWord is REPRODUCED or NOT reproduced in language l.
func verdictWord(l messages.Lang, ok bool) string {
	if ok {
		return l.T("verdict.reproduced")
	}
	return l.T("verdict.not_reproduced")
}
