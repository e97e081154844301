package docs

// The regions of docs/scaling.md: the reference runs turned into unit costs
// (CPU µs, bytes, queries per request) and those costs multiplied out to the
// traffic of article A's target by its own rule of thumb (ours: A states
// no request rate) ×1, ×10 and ×100. The arithmetic lives here, not in the
// prose, so a re-recorded reference run re-sizes the fleet on `make docs`;
// every table says its formula, so a reader can redo it with their own
// figures.
//
// What transfers from a 2-core laptop to a fleet: CPU µs per request (the
// same code does the same work per request on a bigger machine) and counts
// per request (queries, bytes, GETs). What does not: absolute req/s, and the
// rate of anything the database paced, because the databases here share one
// core with the load driver.

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/result"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// Traffic levels. Article A aimed at "vạn CCU" (10k concurrent users) and
// reckons 10 CCU make 1 req/s (A1): its traffic is 1,000 req/s, and the
// levels are ×1, ×10, ×100 of that.
const (
	articleCCU   = 10000
	ccuPerRPS    = 10
	targetBusy   = 0.6 // plan cores to run at most 60 % busy: peaks, GC, deploys, a lost node
	owaspPBKDF2  = 600000
	pgMaxConns   = 100 // PostgreSQL's default max_connections
	littleRTTms  = 1.0 // an assumed write round trip with w:majority in one region, for Little's law
	hashSlots    = 16384
	exampleMaxAg = 1 // s: a CDN max-age for the poll example
)

var levels = []float64{1, 10, 100}

func baseRPS() float64 { return articleCCU / ccuPerRPS }

// shape is one measured row a sizing table extrapolates.
type shape struct {
	step     int
	variant  course.Variant
	what, vi string // the row's words, in English and in Vietnamese
}

// shapes are the rows the cost tables extrapolate, in their order: the
// read path's, then the write path's (the steps whose server writes to
// MongoDB, as their manifest entries say).
var shapes = []shape{
	{0, course.EmptyGet, "ceiling: the item's bytes from memory, no data access", "mức trần: byte của item lấy từ bộ nhớ, không đọc dữ liệu"},
	{1, course.DirectDB, "every read from PostgreSQL", "mọi lượt đọc đều đi thẳng vào PostgreSQL"},
	{2, course.CacheAside, "Redis get-or-set, no coalescing", "get-or-set qua Redis, không gộp miss"},
	{5, course.Singleflight, "cache-aside + singleflight", "cache-aside + singleflight"},
	{5, course.Burst, "burst cache in process, then Redis", "burst cache trong process, rồi tới Redis"},
	{3, course.CacheAsidePoll, "pollers, no ETag (paced clients)", "client polling, không ETag (client gửi theo nhịp)"},
	{3, course.ETagPoll, "pollers with ETag/304 (paced clients)", "client polling có ETag/304 (client gửi theo nhịp)"},
	{6, course.Sync, "insertOne, then answer", "insertOne rồi mới trả lời"},
	{6, course.Async, "answer, then insertOne (not awaited)", "trả lời rồi insertOne (không chờ)"},
	{6, course.Group, "answer, buffer, insert 100 at a time concurrently", "trả lời, gom vào buffer, insert đồng thời 100 cái một lượt"},
	{6, course.Bulk, "batcher: insertMany per 1000 events or interval", "batcher: insertMany mỗi 1000 event hoặc mỗi chu kỳ"},
	{7, course.Sync, "$inc per event, awaited", "$inc cho từng event, có chờ"},
	{7, course.Bulk, "buffer, bulkWrite (ordered: false) of one $inc per event", "gom vào buffer, bulkWrite (ordered: false) gồm một $inc cho mỗi event"},
	{7, course.Reduce, "count per id, one $inc per id per flush", "đếm theo id, mỗi flush một $inc cho mỗi id"},
}

// pathShapes are the write path's shapes (writes) or the read path's.
func pathShapes(writes bool) []shape {
	var out []shape
	for _, s := range shapes {
		if step, _ := course.Get(s.step); slices.Contains(step.Services, course.Mongo) == writes {
			out = append(out, s)
		}
	}
	return out
}

func (r *references) run(s shape) *result.Run {
	res := r.runs[s.step]
	if res == nil {
		return nil
	}
	return find(res, s.variant)
}

// scalingRegions are the regions of docs/scaling.md, in the page's order.
var scalingRegions = map[string]func(*references, *bytes.Buffer, messages.Lang){
	"scaling-levels": (*references).scalingLevels,
	"scaling-costs":  (*references).scalingCosts,
	"scaling-size":   (*references).scalingSize,
	"scaling-keys":   (*references).scalingKeys,
	"scaling-redis":  (*references).scalingRedis,
	"scaling-pg":     (*references).scalingPG,
	"scaling-cdn":    (*references).scalingCDN,
	"scaling-writes": (*references).scalingWrites,
	"scaling-lb":     (*references).scalingLB,
	"scaling-cores":  (*references).scalingCores,
	"scaling-pool":   (*references).scalingPool,
}

// scaling writes the region of docs/scaling.md called name, in language l.
func (r *references) scaling(name string, l messages.Lang) (string, error) {
	for _, s := range shapes {
		if r.run(s) == nil {
			return "", fmt.Errorf("region %s: results/reference/step-%d.json has no %q run", name, s.step, s.variant)
		}
	}
	write, ok := scalingRegions[name]
	if !ok {
		return "", fmt.Errorf("unknown region %q", name)
	}
	var b bytes.Buffer
	write(r, &b, l)
	return b.String(), nil
}

func extra(x *result.Run, k result.Key) float64 { return x.Extra[k] }

// busy is the share of the server's CPUs a run kept busy.
func (r *references) busy(s shape) float64 {
	x := r.run(s)
	return x.RPS * x.PerRequest.ServerCPUus / 1e6 / float64(max(1, r.runs[s.step].Machine.ServerGOMAXPROCS))
}

func cores(rate, us float64) int { return int(math.Ceil(rate * us / 1e6 / targetBusy)) }

// sig writes a figure with about three significant digits, grouped: 0.0035,
// 1.45, 14.7, 2 403, 100 000.
func sig(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "–"
	case a == 0:
		return "0"
	case a >= 100:
		return scenario.Rate(v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.*f", 2-int(math.Floor(math.Log10(math.Abs(v)))), v)
}

// tr is en or vi, as language l reads: each sentence of these regions is
// written in both languages beside each other, with its figures in the
// same order (TestVietnameseParity compares them).
func tr(l messages.Lang, en, vi string) string {
	if l == messages.Vietnamese {
		return vi
	}
	return en
}

// what is the shape's words in l.
func (s shape) in(l messages.Lang) string { return tr(l, s.what, s.vi) }

func pct(v float64) string { return fmt.Sprintf("%.1f %%", 100*v) }

func (r *references) scalingLevels(b *bytes.Buffer, l messages.Lang) {
	m := r.runs[1].Machine
	fmt.Fprintf(b, tr(l, "Article A's traffic, by its own rule of thumb (A1: 10 CCU make 1 req/s) at the %s CCU it aimed at (“vạn CCU”): **%s req/s** (our arithmetic: A states no request rate). The tables use ×1, ×10 and ×100 of it: ",
		"Lưu lượng của bài A, theo chính quy tắc ước lượng của bài (A1: 10 CCU tạo ra 1 req/s), ở mức %s CCU mà bài nhắm tới (“vạn CCU”): **%s req/s** (phép tính của workshop: bài A không nêu req/s). Các bảng dùng ×1, ×10 và ×100 của mức đó: "), scenario.Rate(articleCCU), scenario.Rate(baseRPS()))
	var parts []string
	for _, x := range levels {
		parts = append(parts, scenario.Rate(x*baseRPS())+" req/s")
	}
	b.WriteString(strings.Join(parts, ", ") + ".\n\n")
	var wide []string              // steps whose server had more than the one CPU
	other := map[string][]string{} // steps that ran on another CPU model
	for _, st := range r.steps {
		res := r.runs[st.N]
		if res == nil || r.unrecorded[st.N] {
			continue
		}
		if res.Machine.ServerGOMAXPROCS != m.ServerGOMAXPROCS {
			wide = append(wide, fmt.Sprintf(tr(l, "step %d: GOMAXPROCS=%d on CPUs %s", "bước %d: GOMAXPROCS=%d trên CPU %s"), st.N, res.Machine.ServerGOMAXPROCS, strings.Trim(fmt.Sprint(res.Machine.CPUPlan.Server), "[]")))
		}
		if res.Machine.CPUModel != m.CPUModel {
			other[res.Machine.CPUModel] = append(other[res.Machine.CPUModel], strconv.Itoa(st.N))
		}
	}
	model := m.CPUModel
	for _, name := range slices.Sorted(maps.Keys(other)) {
		model += fmt.Sprintf(tr(l, "; steps %s: %s", "; bước %s: %s"), strings.Join(other[name], ", "), name)
	}
	except := ""
	if len(wide) > 0 {
		except = " (" + strings.Join(wide, "; ") + ")"
	}
	fmt.Fprintf(b, tr(l, "Our figures: `results/reference/step-*.json`, %d CPUs (%s), the server pinned to its own CPU with GOMAXPROCS=%d%s; PostgreSQL, Redis, MongoDB and the load driver share the other. Cores are planned at most %.0f %% busy (`cores = ⌈rate × µs/req ÷ 10⁶ ÷ %.1f⌉`). Generated by `make docs`.\n",
		"Số liệu của workshop: `results/reference/step-*.json`, %d CPU (%s), server ghim vào CPU riêng với GOMAXPROCS=%d%s; PostgreSQL, Redis, MongoDB và công cụ tạo tải dùng chung CPU còn lại. Số core được tính để mỗi core bận tối đa %.0f %% (`cores = ⌈rate × µs/req ÷ 10⁶ ÷ %.1f⌉`). Do `make docs` sinh ra.\n"), m.CPUs, model, m.ServerGOMAXPROCS, except, 100*targetBusy, targetBusy)
}

func (r *references) scalingCosts(b *bytes.Buffer, l messages.Lang) {
	b.WriteString(tr(l, "| shape | step: run | server µs/req | server busy | req/s per core | CCU per core | public B/req | DB q/req | Redis GET/req | Redis B/req | hit ratio |\n",
		"| kiểu | bước: lần chạy | server µs/req | server bận | req/s mỗi core | CCU mỗi core | public B/req | DB q/req | Redis GET/req | Redis B/req | hit ratio |\n"))
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, s := range pathShapes(false) {
		x := r.run(s)
		us := x.PerRequest.ServerCPUus
		var hits []string
		if v, ok := x.Extra[result.RedisHitRatio]; ok {
			hits = append(hits, "Redis "+pct(v))
		}
		if v, ok := x.Extra[result.MemoryHitRatio]; ok {
			hits = append(hits, tr(l, "memory ", "bộ nhớ ")+pct(v))
		}
		if v, ok := x.Extra[result.Status304Share]; ok {
			hits = append(hits, "304 "+pct(v))
		}
		if len(hits) == 0 {
			hits = []string{"–"}
		}
		fmt.Fprintf(b, "| %s | %d: %s | %s | %.0f %% | %s | %s | %s | %s | %s | %s | %s |\n", s.in(l), s.step, s.variant,
			sig(us), 100*r.busy(s), scenario.Rate(1e6/us), scenario.Rate(ccuPerRPS*1e6/us), scenario.Rate(x.PerRequest.PublicBytes),
			sig(x.PerRequest.DBQueries), sig(extra(x, result.RedisGetsPerReq)), sig(x.PerRequest.RedisBytes), strings.Join(hits, ", "))
	}
	b.WriteString(tr(l, "\nreq/s per core = 10⁶ ÷ server µs/req (the core 100 % busy); CCU per core = 10 × that (A1's rule of thumb). Rows whose server was far from 100 % busy were paced by the database (1) or by the clients' poll clock (3): their µs/req was measured while the server also idled, and is the figure to use, not their req/s. The cached rows' DB q/req (and the burst row's Redis GET/req) are misses per request at our req/s and our TTLs: they do not transfer to another rate — count those tiers by keys and TTLs (below).\n",
		"\nreq/s mỗi core = 10⁶ ÷ server µs/req (core bận 100 %); CCU mỗi core = 10 × số đó (quy tắc ước lượng của A1). Ở những hàng mà server còn xa mức bận 100 %, nhịp là do database (1) hoặc nhịp poll của client (3) quyết định: µs/req của chúng đo lúc server còn có lúc ngồi không, nên hãy dùng con số đó, đừng dùng req/s của chúng. DB q/req của các hàng có cache (và Redis GET/req của hàng burst) là số miss mỗi request ở req/s và TTL của workshop: không đem sang mức tải khác được — các tầng đó hãy tính theo số key và TTL (phần dưới).\n"))
}

func (r *references) scalingSize(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	k := float64(p.Catalog.HotItems)
	b.WriteString(tr(l, "| shape | req/s | API cores | PG q/s | Redis GET/s | Redis Mbit/s | public Mbit/s |\n", "| kiểu | req/s | core API | PG q/s | Redis GET/s | Redis Mbit/s | public Mbit/s |\n"))
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range pathShapes(false)[1:5] {
		x := r.run(s)
		perGet := 0.0 // Redis bytes per GET, both directions
		if g := extra(x, result.RedisGetsPerReq); g > 0 {
			perGet = x.PerRequest.RedisBytes / g
		}
		for _, lv := range levels {
			rate := lv * baseRPS()
			n := cores(rate, x.PerRequest.ServerCPUus)
			procs := float64(n) // one process per API core
			pg := sig(rate * x.PerRequest.DBQueries)
			gets := rate * extra(x, result.RedisGetsPerReq)
			getsCell := sig(gets)
			switch s.variant {
			case course.CacheAside: // no coalescing: at least one miss per hot key per expiry
				pg = "≥ " + sig(k/p.Clock.RedisTTLS)
			case course.Singleflight:
				pg = "≤ " + sig(procs*k/p.Clock.RedisTTLS)
			case course.Burst:
				pg = "≤ " + sig(procs*k/p.Clock.RedisTTLS)
				gets = procs * k / p.Clock.BurstTTLS
				getsCell = "≤ " + sig(gets)
			}
			mbit := sig(gets * perGet * 8 / 1e6)
			if strings.HasPrefix(getsCell, "≤") {
				mbit = "≤ " + mbit
			}
			fmt.Fprintf(b, "| %d: %s | %s | %d | %s | %s | %s | %s |\n", s.step, s.variant, scenario.Rate(rate), n,
				pg, getsCell, mbit, sig(rate*x.PerRequest.PublicBytes*8/1e6))
		}
	}
	fmt.Fprintf(b, tr(l, "\nAPI cores = ⌈rate × µs/req ÷ 10⁶ ÷ %.1f⌉. A plain figure is rate × the row's per-request figure above. A ≤ or ≥ is the keys model of the next section instead, because a per-request miss rate does not transfer — it was measured at our req/s and our TTLs: with misses coalesced in each process (one process per API core), at most processes × %d hot keys ÷ TTL (Redis %g s, the article's; burst %g s, ours: the article sets its burst TTL to \"a few seconds\", 5 s in its example); without coalescing (step 2), at least one query per hot key per expiry, and as many more as requests race to the same miss (step 4). Redis Mbit/s = GET/s × the bytes per GET we measured (both directions); public Mbit/s counts what the clients received.\n",
		"\ncore API = ⌈rate × µs/req ÷ 10⁶ ÷ %.1f⌉. Ô chỉ có số là rate × số mỗi request của hàng đó ở bảng trên. Ô có dấu ≤ hay ≥ thì lấy theo mô hình theo key ở phần sau, vì tỉ lệ miss mỗi request không chuyển sang mức tải khác được — nó đo ở req/s và TTL của workshop: khi mỗi process gộp các lượt miss (mỗi core API một process), nhiều nhất là số process × %d key nóng ÷ TTL (Redis %g s, của bài; burst %g s, của workshop: bài đặt TTL của burst cache là \"vài giây\", ví dụ của bài là 5 s); không gộp (bước 2) thì ít nhất một truy vấn cho mỗi key nóng mỗi lần hết hạn, cộng thêm một truy vấn cho mỗi request cùng miss key đó một lúc (bước 4). Redis Mbit/s = GET/s × số byte mỗi GET đo được (cả hai chiều); public Mbit/s tính những gì client nhận về.\n"),
		targetBusy, p.Catalog.HotItems, p.Clock.RedisTTLS, p.Clock.BurstTTLS)
	e, bu := r.run(shape{3, course.ETagPoll, "", ""}), r.run(shape{5, course.Burst, "", ""})
	fmt.Fprintf(b, tr(l, "\nInternal (API↔Redis) against public bandwidth, per request in our runs: %s for our ETag pollers (article A, A5: internal bandwidth \"about 10 times\" the public one after its ETag work), %s behind the burst cache.\n",
		"\nBăng thông internal (API↔Redis) so với public, mỗi request trong các lần chạy của workshop: %s với client polling có ETag của workshop (bài A, A5: sau khi làm ETag, băng thông internal \"bằng khoảng 10 lần\" băng thông public), %s khi có burst cache.\n"),
		"×"+sig(e.PerRequest.RedisBytes/e.PerRequest.PublicBytes), "×"+sig(bu.PerRequest.RedisBytes/bu.PerRequest.PublicBytes))
}

// zipfTop is the share of the hottest of n keys under a Zipf law of exponent
// s: 1 / Σ 1/kˢ.
func zipfTop(n int, s float64) float64 {
	h := 0.0
	for k := 1; k <= n; k++ {
		h += 1 / math.Pow(float64(k), s)
	}
	return 1 / h
}

func (r *references) scalingKeys(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	k := float64(p.Catalog.HotItems)
	ttl := p.ForHitRatio(p.Clock.RedisTTLS).Seconds()
	burst := p.ForHitRatio(p.Clock.BurstTTLS).Seconds()
	fmt.Fprintf(b, tr(l, "Our runs read %d hot items (Zipf, s = %g) with the Redis TTL at %g s and the burst TTL at %g s (%g s and %g s on the ×%g clock: article A's Redis TTL, and a burst TTL of ours — A's example sets 5 s, \"a few seconds\" in general). A process that coalesces its misses loads each key at most once per TTL, whatever its req/s:\n\n",
		"Các lần chạy của workshop đọc %d item nóng (Zipf, s = %g) với TTL của Redis là %g s và TTL của burst là %g s (%g s và %g s trên đồng hồ ×%g: TTL Redis của bài A, và một TTL burst của workshop — ví dụ của bài A đặt 5 s, nói chung là \"vài giây\"). Process nào gộp các lượt miss thì mỗi TTL chỉ load mỗi key nhiều nhất một lần, req/s bao nhiêu cũng vậy:\n\n"),
		p.Catalog.HotItems, p.Catalog.ZipfS, ttl, burst, p.Clock.RedisTTLS, p.Clock.BurstTTLS, p.Clock.HitRatioScale)
	b.WriteString(tr(l, "| step: run | req/s | measured | per s | model: keys ÷ TTL |\n", "| bước: lần chạy | req/s | đo gì | mỗi s | mô hình: key ÷ TTL |\n"))
	b.WriteString("|---|---:|---|---:|---:|\n")
	row := func(s shape, what string, perReq, model float64) {
		x := r.run(s)
		fmt.Fprintf(b, "| %d: %s | %s | %s | %s | %s |\n", s.step, s.variant, scenario.Rate(x.RPS), what, sig(x.RPS*perReq), sig(model))
	}
	c, sf, bu := r.run(shape{2, course.CacheAside, "", ""}), r.run(shape{5, course.Singleflight, "", ""}), r.run(shape{5, course.Burst, "", ""})
	row(shape{2, course.CacheAside, "", ""}, tr(l, "DB queries", "truy vấn DB"), c.PerRequest.DBQueries, k/ttl)
	row(shape{5, course.Singleflight, "", ""}, tr(l, "DB queries", "truy vấn DB"), sf.PerRequest.DBQueries, k/ttl)
	row(shape{5, course.Burst, "", ""}, tr(l, "DB queries", "truy vấn DB"), bu.PerRequest.DBQueries, k/ttl)
	row(shape{5, course.Burst, "", ""}, tr(l, "Redis GETs", "GET Redis"), extra(bu, result.RedisGetsPerReq), k/burst)
	fmt.Fprintf(b, tr(l, "\nOn that clock (Redis 30 s as in article A, burst 3 s ours) the same model gives, per process: %s DB queries/s (%d keys ÷ %g s) and %s Redis GETs/s behind a burst cache (%d keys ÷ %g s) — at %s or %s req/s alike. Without coalescing (step 2's row) concurrent misses of one key each query: more than the model, and more the more concurrent the traffic (step 4).\n",
		"\nTrên đồng hồ đó (Redis 30 s như bài A, burst 3 s của workshop) cùng mô hình ấy cho ra, mỗi process: %s truy vấn DB/s (%d key ÷ %g s) và %s GET Redis/s sau burst cache (%d key ÷ %g s) — ở %s hay %s req/s cũng vậy. Không gộp (hàng của bước 2) thì các lượt miss cùng lúc của một key đều truy vấn: nhiều hơn mô hình, và request tới càng dồn cùng lúc thì càng nhiều (bước 4).\n"),
		sig(k/p.Clock.RedisTTLS), p.Catalog.HotItems, p.Clock.RedisTTLS, sig(k/p.Clock.BurstTTLS), p.Catalog.HotItems, p.Clock.BurstTTLS, scenario.Rate(levels[0]*baseRPS()), scenario.Rate(levels[len(levels)-1]*baseRPS()))
}

func (r *references) scalingRedis(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	top := zipfTop(p.Catalog.HotItems, p.Catalog.ZipfS)
	c := r.run(shape{2, course.CacheAside, "", ""})
	sf := shape{5, course.Singleflight, "", ""}
	floor := r.run(sf).RPS * extra(r.run(sf), result.RedisGetsPerReq)
	fmt.Fprintf(b, tr(l, "- **Per shard, a floor:** our Redis served %s GETs/s of an item (step 5: singleflight, %s Redis B/req) on a core it shared with PostgreSQL and the load driver — a floor for one shard's command rate, not its ceiling (measure yours with `redis-benchmark`).\n",
		"- **Mức sàn của một shard:** Redis của workshop phục vụ %s GET/s, mỗi GET một item (bước 5: singleflight, %s Redis B/req) trên một core dùng chung với PostgreSQL và công cụ tạo tải — đó là mức sàn cho tốc độ lệnh của một shard, không phải mức trần của nó (hãy đo Redis của bạn bằng `redis-benchmark`).\n"), scenario.Rate(floor), scenario.Rate(r.run(sf).PerRequest.RedisBytes))
	fmt.Fprintf(b, tr(l, "- **The hottest key:** %d hot items under Zipf s = %g send %s of all reads to rank 1 (1 ÷ Σₖ 1/kˢ). One key hashes to one of the %s slots, so one shard answers all of it:\n\n",
		"- **Key nóng nhất:** với %d item nóng theo Zipf s = %g thì %s tổng số lượt đọc dồn vào item hạng 1 (1 ÷ Σₖ 1/kˢ). Một key chỉ được hash vào một trong %s slot, nên cả key đó dồn vào một shard:\n\n"), p.Catalog.HotItems, p.Catalog.ZipfS, pct(top), scenario.Rate(hashSlots))
	b.WriteString(tr(l, "| req/s (step 2's shape) | Redis GET/s, all shards | GET/s on the hottest key's shard, at least | its Mbit/s | shards by GET/s ÷ floor |\n",
		"| req/s (kiểu của bước 2) | Redis GET/s, mọi shard | GET/s trên shard của key nóng nhất, ít nhất | Mbit/s của nó | số shard theo GET/s ÷ mức sàn |\n"))
	b.WriteString("|---:|---:|---:|---:|---:|\n")
	for _, lv := range levels {
		rate := lv * baseRPS()
		gets := rate * extra(c, result.RedisGetsPerReq)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d |\n", scenario.Rate(rate), sig(gets), sig(gets*top), sig(gets*top*c.PerRequest.RedisBytes/extra(c, result.RedisGetsPerReq)*8/1e6), int(math.Ceil(gets/floor)))
	}
	bu := r.run(shape{5, course.Burst, "", ""})
	fmt.Fprintf(b, tr(l, "\nThe busiest shard carries at least the larger of (all GETs ÷ shards) and (the hottest key's share × all GETs): past ⌊1 ÷ %s⌋ = %d shards, adding shards no longer lowers it — only fewer GETs of that key do. Step 5's burst cache is that answer (%s Redis GET/req instead of %s, measured), and so is Redis' own client-side caching below.\n",
		"\nShard bận nhất gánh ít nhất là số lớn hơn trong hai số (tổng GET ÷ số shard) và (phần của key nóng nhất × tổng GET): quá ⌊1 ÷ %s⌋ = %d shard thì thêm shard không làm nó giảm nữa — chỉ bớt GET vào key đó mới giảm được. Burst cache của bước 5 làm đúng việc đó (%s Redis GET/req thay vì %s, số đo được), và client-side caching của chính Redis (bên dưới) cũng vậy.\n"),
		pct(top), int(math.Floor(1/top)), sig(extra(bu, result.RedisGetsPerReq)), sig(extra(c, result.RedisGetsPerReq)))
}

func (r *references) scalingPG(b *bytes.Buffer, l messages.Lang) {
	d := shape{1, course.DirectDB, "", ""}
	x := r.run(d)
	floor := x.RPS * x.PerRequest.DBQueries
	fmt.Fprintf(b, tr(l, "Step 1's server was %.0f %% busy: PostgreSQL (and the load driver beside it on one core) set the pace at **%s queries/s** of the item query — so one PostgreSQL core does at least that (a floor: it shared its core). For the direct read that is:\n\n",
		"Server của bước 1 chỉ bận %.0f %%: PostgreSQL (chạy chung một core với công cụ tạo tải) giữ nhịp ở **%s truy vấn/s** cho truy vấn lấy item — nên một core PostgreSQL làm được ít nhất chừng đó (mức sàn: nó dùng chung core). Nếu mọi lượt đọc đi thẳng vào database thì ra:\n\n"), 100*r.busy(d), scenario.Rate(floor))
	b.WriteString(tr(l, "| req/s (step 1's shape) | PG q/s | PG cores, at most (q/s ÷ floor ÷ busy share) | 8-core servers: primary + read replicas |\n",
		"| req/s (kiểu của bước 1) | PG q/s | core PG, nhiều nhất (q/s ÷ mức sàn ÷ tỉ lệ bận) | server 8 core: primary + read replica |\n"))
	b.WriteString("|---:|---:|---:|---:|\n")
	for _, lv := range levels {
		rate := lv * baseRPS()
		q := rate * x.PerRequest.DBQueries
		c := int(math.Ceil(q / floor / targetBusy))
		fmt.Fprintf(b, "| %s | %s | %d | %d |\n", scenario.Rate(rate), scenario.Rate(q), c, int(math.Ceil(float64(c)/8)))
	}
	sf := r.run(shape{5, course.Singleflight, "", ""})
	fmt.Fprintf(b, tr(l, "\nBehind step 4–5's coalesced cache the same item costs %s queries per request here and, on that clock, about %s queries/s per API process whatever the rate (table above): a cached read needs no replica at all. Replicas earn their keep for the reads no cache absorbs: the long tail, a cold start after a Redis flush or failover (every key misses at once, once per process), and uncached endpoints.\n",
		"\nĐặt sau cache có gộp miss của bước 4–5 thì cùng item đó ở đây tốn %s truy vấn mỗi request, và trên đồng hồ đó chỉ khoảng %s truy vấn/s mỗi process API, tải bao nhiêu cũng vậy (bảng trên): lượt đọc qua cache không cần replica nào. Replica chỉ đáng tiền với những lượt đọc mà cache không đỡ được: phần đuôi dài, lúc khởi động nguội sau khi Redis bị flush hoặc failover (mọi key cùng miss một lúc, mỗi process một lần), và các endpoint không cache.\n"),
		sig(sf.PerRequest.DBQueries), sig(float64(r.params.Catalog.HotItems)/r.params.Clock.RedisTTLS))
}

func (r *references) scalingCDN(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	a, e := r.run(shape{3, course.CacheAsidePoll, "", ""}), r.run(shape{3, course.ETagPoll, "", ""})
	share := extra(e, result.Status304Share)
	model := 1 - p.Clock.PollS/p.Clock.ChangeS
	b200 := a.PerRequest.PublicBytes
	b304 := (e.PerRequest.PublicBytes - (1-share)*b200) / share
	fmt.Fprintf(b, tr(l, "- 304 share: measured %s; expected 1 − poll ÷ change = 1 − %g s ÷ %g s = %s.\n", "- Tỉ lệ 304: đo được %s; kỳ vọng 1 − poll ÷ change = 1 − %g s ÷ %g s = %s.\n"), pct(share), p.Clock.PollS, p.Clock.ChangeS, pct(model))
	saves := tr(l, "the 304 saves bytes, not the server's work (it still reads the item to compute the tag)", "304 tiết kiệm byte, không tiết kiệm việc của server (server vẫn đọc item để tính tag)")
	if e.PerRequest.ServerCPUus < 0.9*a.PerRequest.ServerCPUus {
		saves = tr(l, "the 304 saved some server CPU too (no body to write), though the item is still read to compute the tag", "304 cũng tiết kiệm được chút CPU của server (không phải ghi body), dù item vẫn phải đọc để tính tag")
	}
	fmt.Fprintf(b, tr(l, "- Bytes on the wire: a 200 costs %s B; a 304, derived as (B/req with ETag − (1 − share) × B₂₀₀) ÷ share, about %s B. Server µs/req: %s without ETag, %s with — %s.\n",
		"- Byte trên đường truyền: một response 200 tốn %s B; một response 304, suy ra bằng (B/req có ETag − (1 − tỉ lệ) × B₂₀₀) ÷ tỉ lệ, khoảng %s B. Server µs/req: %s khi không có ETag, %s khi có — %s.\n"),
		scenario.Rate(b200), scenario.Rate(b304), sig(a.PerRequest.ServerCPUus), sig(e.PerRequest.ServerCPUus), saves)
	b.WriteString(tr(l, "\n| CCU polling every 15 s | req/s | public Mbit/s, no ETag | with ETag | API cores (etag-poll µs) |\n",
		"\n| CCU poll mỗi 15 s | req/s | public Mbit/s, không ETag | có ETag | core API (µs của etag-poll) |\n"))
	b.WriteString("|---:|---:|---:|---:|---:|\n")
	for _, lv := range levels {
		ccu := lv * articleCCU
		rate := ccu / p.Clock.PollS
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d |\n", scenario.Rate(ccu), scenario.Rate(rate), sig(rate*b200*8/1e6), sig(rate*e.PerRequest.PublicBytes*8/1e6), cores(rate, e.PerRequest.ServerCPUus))
	}
	fmt.Fprintf(b, tr(l, "\nWith a shared cache in front and `Cache-Control: public, max-age=%d`, the origin sees at most (edge locations × %d hot items ÷ %d s) revalidations per second — %s req/s per edge location — whatever the CCU; each revalidation is a 304 (about %s B) when the item has not changed, a 200 (%s B) when it has.\n",
		"\nNếu có một shared cache đứng trước và `Cache-Control: public, max-age=%d` thì origin nhận nhiều nhất (số edge location × %d item nóng ÷ %d s) lượt revalidate mỗi giây — %s req/s mỗi edge location — bất kể CCU; mỗi lượt revalidate là một response 304 (khoảng %s B) khi item chưa đổi, một response 200 (%s B) khi nó đã đổi.\n"),
		exampleMaxAg, p.Catalog.HotItems, exampleMaxAg, scenario.Rate(float64(p.Catalog.HotItems)/exampleMaxAg), scenario.Rate(b304), scenario.Rate(b200))
}

func (r *references) scalingWrites(b *bytes.Buffer, l messages.Lang) {
	top := levels[len(levels)-1] * baseRPS()
	m := r.runs[6].Machine
	fmt.Fprintf(b, tr(l, "MongoDB here is %s; its rates are not mongod's. Per event, the counts transfer; per second, only as a floor. At %s events/s:\n\n",
		"MongoDB ở đây là %s; tốc độ của nó không phải của mongod. Tính theo event thì các số đếm chuyển sang được; tính theo giây thì chỉ là mức sàn. Ở mức %s event/s:\n\n"), m.Mongo, scenario.Rate(top))
	b.WriteString(tr(l, "| step: run | what | server µs/event | events/s per core | DB writes/event | round trips/event | persisted/s here | API cores | DB round trips/s | in flight at 1 ms/round trip |\n",
		"| bước: lần chạy | làm gì | server µs/event | event/s mỗi core | lượt ghi DB/event | round trip/event | ghi xuống/s tại đây | core API | round trip DB/s | đang chờ, với 1 ms/round trip |\n"))
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range pathShapes(true) {
		x := r.run(s)
		us := x.PerRequest.ServerCPUus
		rt := extra(x, result.DBRoundTripsPerReq)
		fmt.Fprintf(b, "| %d: %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |\n", s.step, s.variant, s.in(l), sig(us), scenario.Rate(1e6/us), sig(extra(x, result.DBWritesPerReq)), sig(rt),
			scenario.Rate(extra(x, result.PersistedPerS)), cores(top, us), sig(top*rt), sig(top*rt*littleRTTms/1e3))
	}
	raw, bulk := r.run(shape{6, course.RawSeq, "", ""}), r.run(shape{6, course.RawBulk, "", ""})
	if raw != nil && bulk != nil {
		fmt.Fprintf(b, tr(l, "\nThe database alone, no HTTP (step 6): %s documents/s one insert at a time on one connection, %s documents/s in insertMany batches — the round trip, not the document, is the unit of cost.\n",
			"\nRiêng database, không qua HTTP (bước 6): %s document/s khi insert từng cái một trên một connection, %s document/s khi insertMany theo lô — đơn vị chi phí là round trip, không phải document.\n"), scenario.Rate(extra(raw, result.PersistedPerS)), scenario.Rate(extra(bulk, result.PersistedPerS)))
	}
	fmt.Fprintf(b, tr(l, "\nIn flight = round trips/s × round-trip time (Little's law), with an assumed %g ms for a w:majority write acknowledged within one region: the connections (and goroutines) a fleet keeps busy waiting on the database.\n",
		"\nĐang chờ = round trip/s × thời gian một round trip (định luật Little), giả định %g ms cho một lượt ghi w:majority được xác nhận trong một region: số connection (và goroutine) mà cả fleet phải giữ để chờ database.\n"), littleRTTms)
}

func (r *references) scalingLB(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	k := float64(p.Catalog.HotItems)
	top := levels[len(levels)-1] * baseRPS()
	bu := r.run(shape{5, course.Burst, "", ""})
	fmt.Fprintf(b, tr(l, "At %s req/s of step 5's shape, N replicas behind round-robin, each with its own burst cache (%d hot keys, burst TTL %g s, Redis TTL %g s: A's Redis TTL, our burst TTL):\n\n",
		"Ở %s req/s theo kiểu của bước 5 và N replica sau round-robin, mỗi replica có burst cache riêng (%d key nóng, TTL burst %g s, TTL Redis %g s: TTL Redis của bài A, TTL burst của workshop):\n\n"), scenario.Rate(top), p.Catalog.HotItems, p.Clock.BurstTTLS, p.Clock.RedisTTLS)
	b.WriteString(tr(l, "| replicas N | req/s per replica | server busy per replica | Redis GET/s (N × keys ÷ burst TTL) | memory hit ratio, at best (1 − GET/s ÷ req/s) | DB q/s, at most (N × keys ÷ Redis TTL) |\n",
		"| N replica | req/s mỗi replica | server bận mỗi replica | Redis GET/s (N × key ÷ TTL burst) | hit ratio của bộ nhớ, cao nhất (1 − GET/s ÷ req/s) | DB q/s, nhiều nhất (N × key ÷ TTL Redis) |\n"))
	b.WriteString("|---:|---:|---:|---:|---:|---:|\n")
	for _, n := range []int{1, 2, 4, 16, 64} {
		per := top / float64(n)
		gets := float64(n) * k / p.Clock.BurstTTLS
		fmt.Fprintf(b, "| %d | %s | %.0f %% | %s | %.2f %% | %s |\n", n, scenario.Rate(per), 100*per*bu.PerRequest.ServerCPUus/1e6, sig(gets), 100*(1-gets/top), sig(float64(n)*k/p.Clock.RedisTTLS))
	}
	burstTTL := p.ForHitRatio(p.Clock.BurstTTLS).Seconds()
	fmt.Fprintf(b, tr(l, "\nA replica above 100 %% busy cannot serve its share: N must be at least %d here (%s µs/req), %d at the planned %.0f %%. The hit-ratio column counts one refresh per key per burst TTL; our one process measured %s at %s req/s, below what the model gives at that rate (%.2f %%), because requests that arrive while a key is loading wait on that load and count as misses; its Redis GETs/s are compared with the model in the table above. Read the hit-ratio column as an upper bound. Routing by item id (consistent hashing at the load balancer) makes N = 1 in the last three columns; a replica leaving moves only its keys.\n",
		"\nReplica nào bận quá 100 %% thì không phục vụ nổi phần của nó: ở đây N phải ít nhất là %d (%s µs/req), %d nếu theo mức %.0f %% đã định. Cột hit ratio tính mỗi key refresh một lần mỗi TTL burst; một process của workshop đo được %s ở %s req/s, thấp hơn mô hình ở cùng mức tải (%.2f %%), vì các request tới đúng lúc một key đang load sẽ chờ lượt load đó và bị tính là miss; GET Redis/s của nó được so với mô hình ở bảng trên. Vì vậy cột hit ratio chỉ là cận trên. Route theo id của item (consistent hashing ở load balancer) thì N = 1 ở ba cột cuối; một replica rời đi chỉ làm dời các key của nó.\n"),
		int(math.Ceil(top*bu.PerRequest.ServerCPUus/1e6)), sig(bu.PerRequest.ServerCPUus), cores(top, bu.PerRequest.ServerCPUus), 100*targetBusy, pct(extra(bu, result.MemoryHitRatio)), scenario.Rate(bu.RPS), 100*(1-k/burstTTL/bu.RPS))
	r.scaleOutRuns(b, l)
}

// scaleOutStep is the step that runs replicas behind a load balancer; its
// reference run, once recorded, is appended to the arithmetic as measured.
const scaleOutStep = 10

func (r *references) scaleOutRuns(b *bytes.Buffer, l messages.Lang) {
	res := r.runs[scaleOutStep]
	if res == nil {
		fmt.Fprintf(b, tr(l, "\nStep %d's reference run is not recorded yet: when `results/reference/step-%d.json` exists, `make docs` lists its measured rows here.\n",
			"\nBước %d chưa có lần chạy tham chiếu: khi có `results/reference/step-%d.json`, `make docs` sẽ liệt kê các hàng đo được ở đây.\n"), scaleOutStep, scaleOutStep)
		return
	}
	fmt.Fprintf(b, tr(l, "\nStep %d's reference run, measured (recorded %s, %d CPUs: the replicas share them, so read the counts, not req/s):\n\n",
		"\nBước %d: lần chạy tham chiếu, đo thật (ngày %s, %d CPU: các replica chạy chung trên đó, nên hãy đọc các số đếm, đừng đọc req/s):\n\n"), scaleOutStep, res.StartedAt.Format("2006-01-02"), res.Machine.CPUs)
	b.WriteString(tr(l, "| run | req/s | server µs/req | Redis GET/req | memory hit ratio | DB q/req |\n", "| lần chạy | req/s | server µs/req | Redis GET/req | hit ratio của bộ nhớ | DB q/req |\n"))
	b.WriteString("|---|---:|---:|---:|---:|---:|\n")
	for i := range res.Runs {
		x := &res.Runs[i]
		if x.Tool == "drill" {
			continue // the change-and-poll rows: their req/s is changes per second
		}
		mem := "–"
		if v, ok := x.Extra[result.MemoryHitRatio]; ok {
			mem = pct(v)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", x.Variant, scenario.Rate(x.RPS), sig(x.PerRequest.ServerCPUus), sig(extra(x, result.RedisGetsPerReq)), mem, sig(x.PerRequest.DBQueries))
	}
}

func (r *references) scalingCores(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	before, after := r.run(shape{8, course.Before, "", ""}), r.run(shape{8, course.After, "", ""})
	n := r.runs[8].Machine.ServerGOMAXPROCS
	us := after.PerRequest.ServerCPUus
	owasp := us * owaspPBKDF2 / float64(p.Login.Iterations)
	fmt.Fprintf(b, tr(l, "Step 8 on %d server CPUs: the serialised hash kept %s of them busy, the fixed one %s (req/s × µs/req ÷ 10⁶). A login costs %s ms of CPU at %s PBKDF2 iterations; at OWASP's %s, about %s ms (the cost is linear in iterations).\n\n",
		"Bước 8 trên %d CPU của server: bản hash chạy tuần tự giữ %s CPU bận, bản đã sửa %s (req/s × µs/req ÷ 10⁶). Một lượt login tốn %s ms CPU ở %s lần lặp PBKDF2; với mức của OWASP là %s, khoảng %s ms (chi phí tăng tuyến tính theo số lần lặp).\n\n"),
		n, sig(before.RPS*before.PerRequest.ServerCPUus/1e6), sig(after.RPS*us/1e6), sig(us/1e3), scenario.Rate(float64(p.Login.Iterations)), scenario.Rate(owaspPBKDF2), sig(owasp/1e3))
	b.WriteString(tr(l, "| logins/s | cores at our iterations | cores at OWASP's |\n", "| login/s | core ở số lần lặp của workshop | core ở mức của OWASP |\n"))
	b.WriteString("|---:|---:|---:|\n")
	for _, rate := range []float64{10, 100, 1000} {
		fmt.Fprintf(b, "| %s | %d | %d |\n", scenario.Rate(rate), cores(rate, us), cores(rate, owasp))
	}
}

func (r *references) scalingPool(b *bytes.Buffer, l messages.Lang) {
	p := r.params
	res := r.runs[9]
	var sizes []string
	for _, x := range res.Runs {
		if n, ok := course.PoolSize(x.Variant); ok {
			sizes = append(sizes, fmt.Sprintf(tr(l, "%s connections %s req/s", "%s connection %s req/s"), n, scenario.Rate(x.RPS)))
		}
	}
	verdict := tr(l, "more connections did not make the same core faster", "thêm connection không làm cùng một core nhanh hơn")
	if first, last := find(res, course.PoolRow(p.Frameworks.PoolSizes[0])), find(res, course.PoolRow(p.Frameworks.PoolSizes[len(p.Frameworks.PoolSizes)-1])); first != nil && last != nil && last.RPS > 1.1*first.RPS {
		verdict = tr(l, "here more connections helped: measure yours before copying the rule below", "ở đây thêm connection có giúp: hãy đo hệ thống của bạn trước khi chép quy tắc bên dưới")
	}
	fmt.Fprintf(b, tr(l, "- Pool size on one API core (step 9, echo, the item read): %s — %s.\n", "- Kích thước pool trên một core API (bước 9, echo, lượt đọc item): %s — %s.\n"), strings.Join(sizes, "; "), verdict)
	d := r.run(shape{1, course.DirectDB, "", ""})
	fmt.Fprintf(b, tr(l, "- A fleet multiplies it: connections = replicas × pool. For step 1's shape, one replica per API core, with the pool of %d our framework rows use:\n\n",
		"- Lên cả fleet thì số đó nhân lên: connection = replica × pool. Với kiểu của bước 1 thì mỗi core API một replica, với pool %d mà các hàng framework của workshop dùng:\n\n"), p.Frameworks.Pool)
	fmt.Fprintf(b, tr(l, "| req/s | API replicas | connections at pool %d | at pool %d | PostgreSQL's default max_connections |\n",
		"| req/s | replica API | connection với pool %d | với pool %d | max_connections mặc định của PostgreSQL |\n"), p.Frameworks.Pool, p.Frameworks.PoolSizes[len(p.Frameworks.PoolSizes)-1])
	b.WriteString("|---:|---:|---:|---:|---:|\n")
	for _, lv := range levels {
		rate := lv * baseRPS()
		n := cores(rate, d.PerRequest.ServerCPUus)
		fmt.Fprintf(b, "| %s | %d | %s | %s | %d |\n", scenario.Rate(rate), n, scenario.Rate(float64(n*p.Frameworks.Pool)), scenario.Rate(float64(n*p.Frameworks.PoolSizes[len(p.Frameworks.PoolSizes)-1])), pgMaxConns)
	}
	usOf := func(fw, ep string) float64 {
		return scenario.Field(find(res, course.FrameworkRow(fw, ep)), func(x *result.Run) float64 { return x.PerRequest.ServerCPUus })
	}
	burst, empty := r.run(shape{5, course.Burst, "", ""}), r.run(shape{5, course.EmptyGet, "", ""})
	share := empty.PerRequest.ServerCPUus / burst.PerRequest.ServerCPUus
	fmt.Fprintf(b, tr(l, "\n- Framework CPU (step 9, µs/req): empty GET echo %s, fasthttp %s (%s); item read echo %s, fasthttp %s (%s). Step 5's burst-cached read costs %s µs against %s for the empty ceiling in the same run: the HTTP server and the shell are %s of its cost, so at that shape the framework sets the core count; at step 1's shape they are a small part of it.\n",
		"\n- CPU của framework (bước 9, µs/req): empty GET echo %s, fasthttp %s (%s); đọc item echo %s, fasthttp %s (%s). Lượt đọc qua burst cache của bước 5 tốn %s µs, so với %s của mức trần route rỗng trong cùng lần chạy: HTTP server và vỏ server chiếm %s chi phí của nó, nên ở kiểu đó framework quyết định số core; ở kiểu của bước 1 thì chúng chỉ là một phần nhỏ.\n"),
		sig(usOf("echo", "empty")), sig(usOf("fasthttp", "empty")), scenario.Times(usOf("fasthttp", "empty"), usOf("echo", "empty")),
		sig(usOf("echo", "item")), sig(usOf("fasthttp", "item")), scenario.Times(usOf("fasthttp", "item"), usOf("echo", "item")),
		sig(burst.PerRequest.ServerCPUus), sig(empty.PerRequest.ServerCPUus), pct(math.Min(1, share)))
}
