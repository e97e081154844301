package result

import "fmt"

// Key names one of a run's step-specific figures (Run.Extra). Every key is
// declared here once, with what it measures and its unit: a misspelt key
// does not compile, where a misspelt string would read as 0. The values
// are the JSON names of results/*.json, so they never change;
// TestReferenceRunsUseOnlyDeclaredKeys holds the recorded runs to them.
type Key string

// The read path (steps 1–5, 10): counted by the server's /metrics.
const (
	RedisHitRatio     Key = "redis_hit_ratio"      // Redis lookups that hit, of all Redis lookups (0–1)
	MemoryHitRatio    Key = "memory_hit_ratio"     // in-process cache lookups that hit, of all (0–1)
	RedisGetsPerReq   Key = "redis_gets_per_req"   // Redis GETs per request
	DBQueriesInWindow Key = "db_queries_in_window" // every query sent in the window, by a request or not (count; step 4 per expiry)
	FailOpenPerReq    Key = "fail_open_per_req"    // reads that fell back to the database because Redis failed, per request
	CoalescedPerReq   Key = "coalesced_per_req"    // loads shared with a concurrent caller instead of run again, per request
	Status304Share    Key = "status_304_share"     // responses 304 Not Modified, of all (0–1)
	Status503Share    Key = "status_503_share"     // responses 503 Service Unavailable, of all (0–1)
	BodyBytesPerReq   Key = "body_bytes_per_req"   // response body bytes per request (headers not counted)
)

// Route stands, in a counter of CountedPerServed, for the route of the
// variant measured: its response bytes are counted per route.
const Route = "{route}"

// CountedPerServed are the figures the bench reads from the server's
// /metrics as a counter's rise over the window divided by the requests
// served (the window's edges stay in them), each key beside the counter it
// reads: a step adding such a figure adds one line here and the bench
// (load.extras) records it, no other file edited. Kept only when the
// counter moved.
// Data table: the keys above, each with its Prometheus counter.
var CountedPerServed = map[Key]string{
	FailOpenPerReq:  "peakload_cache_fail_open_total",
	CoalescedPerReq: "peakload_coalesced_total",
	Status304Share:  "peakload_http_requests_total{status=304}",
	Status503Share:  "peakload_http_requests_total{status=503}",
	BodyBytesPerReq: "peakload_http_response_bytes_total{route=" + Route + "}",
}

// The write path (steps 6–7): what the server accepted and what reached
// MongoDB once the variant settled.
const (
	Accepted            Key = "accepted"               // events the server accepted in the window (count)
	Persisted           Key = "persisted"              // events persisted, the settle included (count)
	Acknowledged        Key = "acknowledged"           // writes the server counted as persisted, where the database is counted too (count; step 7)
	LostAcknowledged    Key = "lost_acknowledged"      // acknowledged writes the database does not hold (count; step 7)
	Rejected            Key = "rejected"               // events dead-lettered: the database refused them for good (count)
	Unanswered          Key = "unanswered"             // requests cut at the window's end, outcome unknown (count)
	AdditionalS         Key = "additional_s"           // time after the load until every accepted event was persisted (s)
	PersistedPerS       Key = "persisted_per_s"        // events persisted per second, over the load and the additional time
	AcceptedPerS        Key = "accepted_per_s"         // events accepted per second of load
	DBRoundTripsPerReq  Key = "db_round_trips_per_req" // MongoDB insert and update commands per request
	DBWritesPerReq      Key = "db_writes_per_req"      // documents written (inserted or updated) per request
	DBWritesTotal       Key = "db_writes_total"        // documents written over the variant (count)
	Batches             Key = "batches"                // batches flushed (count)
	BatchedEvents       Key = "batched_events"         // events the flushed batches held (count)
	DistinctExpected    Key = "distinct_expected"      // distinct ids our workload's skew puts in those batches (count, our arithmetic)
	MaxWritesPerCounter Key = "max_writes_per_counter" // the most writes one counter document received (count)
	DBCPUusPerDoc       Key = "db_cpu_us_per_doc"      // the database's CPU per event persisted (µs)
	DBCPUShare          Key = "db_cpu_share"           // the database's CPU as a share of one core (0–1 per core)
)

// Step 8, the load tools and repeated rounds.
const (
	LockWaiting        Key = "lock_waiting"         // goroutines blocked on a lock, on average over the window
	K6ThresholdsFailed Key = "k6_thresholds_failed" // k6 thresholds crossed in the run (count)
	Rounds             Key = "rounds"               // rounds combined into the row (count)
	RPSWorstRound      Key = "rps_worst_round"      // the slowest round's rate (req/s)
)

// Step 10: a fleet of replicas behind a balancer, and its drills.
const (
	Replicas          Key = "replicas"             // replicas behind the balancer (count)
	ColdStartMS       Key = "cold_start_ms"        // a replica's mean time from start to serving (ms)
	ReplicaRSSMB      Key = "replica_rss_mb"       // a running replica's mean peak resident memory (MB)
	RedisLoadsPerTTL  Key = "redis_loads_per_ttl"  // loads from Redis into memory per burst-TTL window, all replicas (count)
	CopiesPerItem     Key = "copies_per_item"      // those loads per distinct item requested: ~1 hashed, up to N round-robin
	StopMS            Key = "stop_ms"              // when a replica was stopped, from the window's start (ms)
	Polls             Key = "polls"                // the stale drill's reads (count)
	Changes           Key = "changes"              // the stale drill's changes (count)
	StaleMSMax        Key = "stale_ms_max"         // the longest a replica listening for changes served a stale value (ms)
	StaleMSMean       Key = "stale_ms_mean"        // the mean of those (ms)
	StaleMissedMSMax  Key = "stale_missed_ms_max"  // the longest a replica that missed a change served it stale (ms)
	StaleMissedMSMean Key = "stale_missed_ms_mean" // the mean of those (ms)
	ForgetsPerChange  Key = "forgets_per_change"   // cache entries forgotten per change, all replicas
	BurstTTLMS        Key = "burst_ttl_ms"         // the in-process cache's TTL in the drill (ms)
)

// ShareOfReplica is replica n's share of the requests (0–1), n from 1:
// "share_r1".
func ShareOfReplica(n int) Key { return Key(fmt.Sprintf("share_r%d", n)) }

// Phase is a part of step 10's stop drill: its figures are measured
// before a replica stops, in the two TTLs after, and over the rest.
type Phase string

const (
	BeforeStop      Phase = "before_stop"
	TwoTTLAfterStop Phase = "2ttl_after_stop"
	RestAfterStop   Phase = "rest"
)

// Phases are the stop drill's phases, in order.
var Phases = []Phase{BeforeStop, TwoTTLAfterStop, RestAfterStop}

// A stop-drill phase's figures: each is the whole window's figure
// measured in phase p alone ("hit_ratio_before_stop").
func RPSIn(p Phase) Key              { return inPhase("rps", p) }            // requests served per second
func HitRatioIn(p Phase) Key         { return inPhase("hit_ratio", p) }      // in-process lookups that hit (0–1)
func RedisLoadsPerTTLIn(p Phase) Key { return inPhase(RedisLoadsPerTTL, p) } // as RedisLoadsPerTTL
func CopiesPerItemIn(p Phase) Key    { return inPhase(CopiesPerItem, p) }    // as CopiesPerItem

func inPhase(k Key, p Phase) Key { return k + "_" + Key(p) }

// PerRequestOf is a counter a user named to `workshop probe`, per request:
// "app_queries_total/req". Not a bench's figure: the probe measures any
// service, whose counters this file cannot declare.
func PerRequestOf(counter string) Key { return Key(counter + "/req") }
