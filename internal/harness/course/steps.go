package course

import (
	"fmt"
	"strings"
)

// The variants' names, shared by the Go driver, the k6 scripts, the docs
// and the scaling notes. A step's k6 list and its scenario must use these.
const (
	EmptyGet          Variant = "empty-get"
	EmptyPost         Variant = "empty-post"
	DirectDB          Variant = "direct-db"
	CacheAside        Variant = "cache-aside"
	CacheAsidePoll    Variant = "cache-aside-poll"
	ETagPoll          Variant = "etag-poll"
	Singleflight      Variant = "singleflight"
	Burst             Variant = "burst"
	Sync              Variant = "sync"
	Async             Variant = "async"
	Group             Variant = "group"
	Bulk              Variant = "bulk"
	Reduce            Variant = "reduce"
	RawSeq            Variant = "raw-seq"
	Raw100            Variant = "raw-100"
	RawAsync          Variant = "raw-async"
	RawBulk           Variant = "raw-bulk"
	RawBulkConcurrent Variant = "raw-bulk-concurrent"
	RawIncSeq         Variant = "raw-inc-seq"
	RawIncBulk        Variant = "raw-inc-bulk"
	RawIncReduce      Variant = "raw-inc-reduce"
	Before            Variant = "before"
	After             Variant = "after"
	EchoEmpty         Variant = "echo-empty"
	FasthttpEmpty     Variant = "fasthttp-empty"
	Single            Variant = "single"
	StaleTTL          Variant = "stale-ttl"
	StalePubSub       Variant = "stale-pubsub"
)

// Step 9's rows: each framework (its own server, in table order; "yours"
// is the learner's) on each endpoint, from no work to a database read,
// then echo's item read through PostgreSQL pools of each size.
var (
	Frameworks = []string{"echo", "nethttp", "fasthttp", "yours"}
	Endpoints  = []string{"empty", "validate", "item"}
	// OriginalFrameworks are article D's own stacks (ORIGINAL=1), the
	// "before" and the "after": Express on Node, Elysia on Bun.
	OriginalFrameworks = []string{Express, Elysia}
)

// FrameworkRow is step 9's row of framework fw on endpoint ep: echo-empty.
func FrameworkRow(fw, ep string) Variant { return Variant(fw + "-" + ep) }

// PoolRow is step 9's row of echo's item read through a pool of n connections.
func PoolRow(n int) Variant { return Variant(fmt.Sprintf("%s%d", poolPrefix, n)) }

// PoolSize is the pool size a step-9 row names, as it is written ("10"),
// and whether v is a pool row.
func PoolSize(v Variant) (string, bool) { return strings.CutPrefix(string(v), poolPrefix) }

const poolPrefix = "pool-"

// Step 10's fleet rows: n replicas behind the balancer, round-robin or
// hashed by item, and hashed with one replica stopped a third of the way in.
func RoundRobinRow(n int) Variant { return Variant(fmt.Sprintf("rr-%d", n)) }
func HashRow(n int) Variant       { return Variant(fmt.Sprintf("hash-%d", n)) }
func HashStopRow(n int) Variant   { return Variant(fmt.Sprintf("hash-%d-stop", n)) }

// ETagBand is step 3's tolerance on article A's public bandwidth ÷ ~4 (A3 on
// the bodies, A3-wire on every byte): the band around the article's 4 is ours.
var ETagBand = Band{Lo: 3.5, Hi: 4.5}

var (
	readPath  = []string{Postgres, Redis}
	writePath = []string{Mongo}
)

// steps declares every step, in order. To add one, run `make new-step`
// (CONTRIBUTING.md walks through it): it appends the entry here.
//
// Data table: one entry per step, each the same shape (the manifest).
var steps = []Step{
	{N: 0, Slug: "ceilings",
		Panels: []Panel{CPUPanel},
		Row: Row{"empty GET / POST, the bench method", "B2; A0, A0-open, S0 ours", "article B: empty POST 4026 vs GET 5498 req/s", "driver ≥ 0.9× wrk",
			RowWords{"GET / POST rỗng, cách bench", "B2; A0, A0-open, S0 của workshop", "bài B: POST rỗng 4026 so với GET 5498 req/s", "driver ≥ 0.9× wrk"}},
		K6: []Variant{EmptyGet, EmptyPost},
		Slide: Slide{"Reading a body: the write path's first cost", "req/s", []Variant{EmptyGet, EmptyPost}, ReqPerSec,
			&Mark{1, "article B", "4026 ÷ 5498", 4026, 5498}},
	},
	{N: 1, Slug: "direct-db", Services: []string{Postgres}, Worker: true, TestLatency: true,
		ServiceTests: []string{"TestBadIDs", "TestOneQueryPerRequest"},
		Panels:       []Panel{DBPanel, CPUPanel},
		Row: Row{"`GET /items/:id` from PostgreSQL", "A1", "645 req/s: 6k CCU by its rule of thumb", "1.00 DB query/request",
			RowWords{"`GET /items/:id` đọc từ PostgreSQL", "A1", "645 req/s: 6k CCU theo quy tắc ước lượng của bài", "1.00 truy vấn DB/request"}},
		K6:    []Variant{EmptyGet, DirectDB},
		Slide: Slide{"The database, not the framework, sets the pace", "req/s", []Variant{EmptyGet, DirectDB}, ReqPerSec, nil},
	},
	{N: 2, Slug: "cache-aside", Services: readPath, Worker: true, Exercise: true, ExerciseMinutes: 25, Drill: ReadDrill, TestLatency: true,
		ServiceTests: []string{"TestAFailedSETStillServesTheRead", "TestAGETEndedByTheRequestsContextStillCallsLoad", "TestALoadErrorIsReturnedAndNotCached", "TestASlowLoadDoesNotBlockOtherIds", "TestAnExpiredKeyIsLoadedAgainOnce", "TestAnUnknownIdIsA404EveryTime", "TestDistinctIdsGetTheirOwnBytes", "TestEveryWayAGETFailsIsServedFromPostgreSQL", "TestRedisDownFailsOpen", "TestSecondReadIsAHit", "TestTheKeyLivesTheTTLAndAHitDoesNotExtendIt", "TestTheLoadGetsTheRequestContext"},
		Panels:       []Panel{DBPanel, RedisPanel}, // and its drill: Redis gone, the reads fall through to PostgreSQL
		Row: Row{"Redis get-or-set, TTL", "A2", "\"quite good\" (figure in an image)", "0 DB queries on a hit",
			RowWords{"get-or-set qua Redis, TTL", "A2", "«khá tốt» (con số nằm trong ảnh)", "0 truy vấn DB khi cache hit"}},
		K6:    []Variant{EmptyGet, DirectDB, CacheAside},
		Slide: Slide{"A cache hit skips the query", "req/s", []Variant{DirectDB, CacheAside}, ReqPerSec, nil},
	},
	{N: 3, Slug: "etag", Services: readPath, Worker: true, Exercise: true, ExerciseMinutes: 25, TestLatency: true,
		ServiceTests: []string{"TestPollingGets304UntilTheDataChanges"},
		Panels:       []Panel{BodyPanel, CPUPanel},
		Row: Row{"weak ETag + 304 for pollers", "A3", "public bandwidth ÷ ~4", "304 share, bytes/request",
			RowWords{"ETag weak + 304 cho client short-polling", "A3", "băng thông public ÷ ~4", "tỉ lệ 304 và byte/request"}},
		K6: []Variant{CacheAsidePoll, ETagPoll},
		Slide: Slide{"A 304 carries no body", "response body bytes / request", []Variant{CacheAsidePoll, ETagPoll}, "body_bytes_per_req",
			&Mark{1, "article A", "÷ ~4", 1, 4}},
	},
	{N: 4, Slug: "singleflight", Services: readPath, Worker: true, Exercise: true, ExerciseMinutes: 25, TestLatency: true,
		ServiceTests: []string{"TestThousandConcurrentMissesMakeOneQuery"},
		Panels:       []Panel{DBPanel, CPUPanel},
		Row: Row{"coalesce concurrent misses", "A4", "1000 misses → 1 query", "DB queries per stampede",
			RowWords{"gộp các lượt miss cùng lúc", "A4", "1000 lượt miss → 1 truy vấn", "số truy vấn DB mỗi cache stampede"}},
		K6:    []Variant{CacheAside, Singleflight},
		Slide: Slide{"One load per stampede, not one per viewer", "DB queries / request", []Variant{CacheAside, Singleflight}, DBQueries, nil},
	},
	{N: 5, Slug: "burst-cache", Services: readPath, Worker: true, Exercise: true, ExerciseMinutes: 20, TestLatency: true,
		ServiceTests: []string{"TestAnEndedRequestLeavesAStalledRedis", "TestBurstReadsCostOneRedisGET"},
		Panels:       []Panel{RedisPanel, CPUPanel},
		Row: Row{"in-process cache before Redis", "A5", "Redis bandwidth ÷ 5–6, performance ~+10 %", "Redis bytes/request",
			RowWords{"cache trong process, đứng trước Redis", "A5", "băng thông Redis ÷ 5–6, performance ~+10 %", "byte Redis/request"}},
		K6: []Variant{EmptyGet, Singleflight, Burst},
		Slide: Slide{"Memory before Redis: far fewer Redis bytes", "Redis bytes / request", []Variant{Singleflight, Burst}, RedisBytes,
			&Mark{1, "article A", "÷ 5–6", 1, 5.5}},
	},
	{N: 6, Slug: "buffered-writes", Services: writePath, Exercise: true, ExerciseMinutes: 40, Drill: WriteDrill,
		ServiceTests: []string{"TestARefusalForGoodIsDeadLetteredNotRetried", "TestBadEventsAreRejected", "TestBulkPersistsEverythingInFewRoundTrips", "TestGeneratedBodiesNeverPoisonTheWritePath", "TestMongoRestartUnderLoadLosesNothing", "TestPoisonEventsUnderLoadAreSetAside", "TestSIGTERMUnderLoadLosesNothing"},
		Panels:       []Panel{PersistedPanel, QueuePanel},
		Row: Row{"sync, async, group, bulk batcher", "B1–B8", "group 2673 ops/s vs async 1968", "persisted == accepted, also across SIGTERM and a DB restart",
			RowWords{"sync, async, group, batcher bulk", "B1–B8", "group 2673 ops/s so với async 1968", "ghi xuống == nhận, kể cả qua SIGTERM và khi DB khởi động lại"}},
		K6:    []Variant{EmptyPost, Sync, Async, Group, Bulk},
		Slide: Slide{"One round trip per batch persists more", "events persisted / s", []Variant{Sync, Group, Bulk}, "persisted_per_s", nil},
	},
	{N: 7, Slug: "counters", Services: writePath, Exercise: true, ExerciseMinutes: 25, Drill: WriteDrill,
		ServiceTests: []string{"TestAFailedWriteReturnsEveryRequestToRetry", "TestAPoisonedCounterIsDeadLetteredNotRetried", "TestARetriedFlushCountsOnce", "TestEveryIncrementCounts", "TestOnFerretDBAFailingIDIsRetriedAlone", "TestReduceWritesOncePerDistinctID"},
		Panels:       []Panel{PersistedPanel, CPUPanel},
		Row: Row{"`$inc`: sync, async, bulkWrite, reduce", "B9", "— (no figure in the text)", "writes per flush = distinct ids",
			RowWords{"`$inc`: sync, async, bulkWrite, reduce", "B9", "— (bài không có con số)", "số lượt ghi mỗi flush = số id khác nhau"}},
		K6:    []Variant{Sync, Async, Bulk, Reduce},
		Slide: Slide{"Reduce before write: a fraction of the writes", "DB writes / request", []Variant{Sync, Bulk, Reduce}, "db_writes_per_req", nil},
	},
	{N: 8, Slug: "profiling", WideServer: true, Exercise: true, ExerciseMinutes: 30,
		Panels: []Panel{CPUPanel},
		Row: Row{"pprof finds a serialised password hash", "C1, C2", "the guide's, via article C: 5,3 → 19,5 req/s, 3,75 s → 1,03 s", "two logins hash at once; lockout still exact; the profile names the lock",
			RowWords{"pprof tìm ra chỗ hash mật khẩu bị chạy tuần tự", "C1, C2", "của hướng dẫn, qua bài C: 5,3 → 19,5 req/s, 3,75 s → 1,03 s", "hai lượt login hash cùng lúc; lockout vẫn chính xác; profile chỉ ra đúng cái lock"}},
		K6: []Variant{Before, After},
		Slide: Slide{"The lock narrowed: more logins per second", "logins / s", []Variant{Before, After}, ReqPerSec,
			&Mark{1, "the Node.js guide", "5.3 → 19.5 req/s", 19.5, 5.3}},
	},
	{N: 9, Slug: "frameworks", Services: []string{Postgres}, Exercise: true, ExerciseMinutes: 25,
		ServiceTests: []string{"TestEachItemReadIsOneQuery", "TestItemsAreReadFromPostgreSQL"},
		Panels:       []Panel{CPUPanel},
		Row: Row{"echo, net/http, fasthttp (+ yours), each on 1 CPU; pool 2/10/100", "D1–D4", "Node + Express 14,200 → Bun + Elysia 81,500 req/s, endpoint unspecified", "every framework keeps one contract, 1 query/item",
			RowWords{"echo, net/http, fasthttp (+ của bạn), mỗi cái trên 1 CPU; pool 2/10/100", "D1–D4", "Node + Express 14,200 → Bun + Elysia 81,500 req/s, bài không nói endpoint nào", "mọi framework giữ cùng một contract, 1 truy vấn/item"}},
		K6: nil, // built from params.json's frameworks and pool sizes
		Slide: Slide{"Frameworks differ less than article D's switch", "empty GET, req/s", []Variant{EchoEmpty, FasthttpEmpty}, ReqPerSec,
			&Mark{1, "article D", "14,200 → 81,500 req/s", 81500, 14200}},
	},
	{N: 10, Slug: "scale-out", Services: readPath, Exercise: true, ExerciseMinutes: 25,
		ServiceTests: []string{"TestAChangeIsAnnouncedWhenItsContextEndsAsItReturns", "TestAChangeIsAnsweredOnlyOnceItIsAnnounced", "TestAChangeWhoseAnnouncementFailsIsNotAnsweredOK", "TestAChangeReachesEveryReplicaWithinTheBound", "TestAReplicaThatMissedTheMessageConvergesWithinTheTTL", "TestEveryReplicaHearsEveryChangeUnderConcurrentWrites", "TestInvalidationSurvivesAKilledPubSubConnection", "TestTheChangeEndpointRefusesBadAndUnknownItems", "TestTheReplicaThatWroteServesItsOwnChange"},
		Panels:       []Panel{CPUPanel},
		Row: Row{"N replicas behind HAProxy: round-robin, hash by item, invalidation over Redis pub/sub", "S10a–c", "article A lists hard invalidation and a lower hit ratio under horizontal scale, no figure", "no listening replica serves an old ETag past the bound; a deaf one within the TTL",
			RowWords{"N replica sau HAProxy: round-robin, hash theo item, invalidation qua Redis pub/sub", "S10a–c", "bài A kể invalidation khó và hit ratio thấp hơn khi scale ngang, không có con số", "replica đang nghe không trả ETag cũ quá giới hạn; replica lỡ message thì cũng không quá TTL"}},
		K6:    []Variant{Single},
		Slide: Slide{"Hashing by item keeps one copy per item", "Redis loads per TTL window", []Variant{RoundRobinRow(1), RoundRobinRow(4), HashRow(4)}, "redis_loads_per_ttl", nil},
	},
}
