package result

// Arrival is what an open-loop run adds to its Run: the schedule it was
// asked to keep, and how well the driver kept it.
type Arrival struct {
	IntendedRPS float64 `json:"intended_rps"`
	AchievedRPS float64 `json:"achieved_rps"` // responses received in the window ÷ its length
	Scheduled   int64   `json:"scheduled"`    // requests due in the window
	// Missed counts requests due in the window that no connection was free
	// to send on time (more than LateAfter late): they were sent late, and
	// their latency still runs from when they were due. NotSent of them
	// were never sent: the window's grace ran out with every connection
	// busy; each is in the histogram with the time it had waited by then.
	Missed  int64 `json:"missed_schedule"`
	NotSent int64 `json:"not_sent"`
	// Stalled counts requests due in the window that left more than
	// load.Options.StallAfter (1 ms unless set) after both their due time
	// and the moment their sender was ready for them: the server held no connection of theirs, so the delay
	// was the driver's own (its goroutine waiting for a CPU: a busy
	// machine). Their latency, timed from the due time, carries that delay.
	Stalled int64 `json:"stalled,omitempty"`
	// StalledMaxMs is the longest of those delays: no stalled request's
	// latency owes the driver more.
	StalledMaxMs float64 `json:"stalled_max_ms,omitempty"`
	// MaxInFlight is how many requests the driver allowed in flight (one
	// connection each); InFlightUsed how many it needed.
	MaxInFlight  int    `json:"max_in_flight"`
	InFlightUsed int    `json:"in_flight_used"`
	LatencyFrom  string `json:"latency_from"`
}

// MissedShare is the part of the schedule that was not sent on time.
func (a *Arrival) MissedShare() float64 {
	if a == nil || a.Scheduled == 0 {
		return 0
	}
	return float64(a.Missed) / float64(a.Scheduled)
}

// StalledShare is the part of the schedule the driver itself sent late
// (Stalled): a delay that is the machine's, not the server's.
func (a *Arrival) StalledShare() float64 {
	if a == nil || a.Scheduled == 0 {
		return 0
	}
	return float64(a.Stalled) / float64(a.Scheduled)
}
