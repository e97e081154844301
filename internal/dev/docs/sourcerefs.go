package docs

import "github.com/peakload/workshop/internal/given/messages"

// What the articles page's sources region (`make docs`) says of each
// claim's source. A claim's Source.Ref is stored English (results JSON
// keeps one language); its Vietnamese is here, keyed by that English, so a
// Ref changed in a claim without its twin falls back to English, which
// TestEveryVietnameseRegionIsVietnamese then reports, and a twin whose
// English no claim declares any more fails TestEverySourceRefTwinIsUsed.
var sourceRefTwins = []struct{ en, vi string }{
	{"article A's empty GET, asked of our load tool", "empty GET của bài A, dùng để kiểm tra chính công cụ tạo tải của workshop"},
	{"article A's ÷ ~4 (A3), asked of the whole response", "con số ÷ ~4 của bài A (A3), xét trên cả response"},
	{"article A lists it among a memory cache's costs, without a figure", "bài A kể nó là một cái giá của memory cache, không kèm con số"},
	{"the method of the author's repo (express-counter.js at ba1953e: $inc with upsert, ids uniform over 0–999, batches of 5000 events or 1000 ms), which publishes no figure for counters",
		"cách làm trong repo của tác giả (express-counter.js tại ba1953e: $inc với upsert, id phân bố đều trong 0–999, mỗi lô 5000 event hoặc 1000 ms); repo không công bố con số nào cho counter"},
	{"the method of the author's bulk.js at 39255d8: one insertMany per 1000 events or 1000 ms", "cách làm của bulk.js trong repo của tác giả tại 39255d8: một insertMany mỗi 1000 event hoặc 1000 ms"},
	{`README "Test Result" rows 5 and 9 (Express: Insert Sync, Insert Bulk) at 39255d8`, `README "Test Result", hàng 5 và 9 (Express: Insert Sync, Insert Bulk) tại 39255d8`},
	{`README "Test Result" rows 5 and 9 (Express Insert Sync and Insert Bulk: "Mongo CPU") at 39255d8`, `README "Test Result", hàng 5 và 9 (Express Insert Sync và Insert Bulk: "Mongo CPU") tại 39255d8`},
	{`README "Test Result" rows 2 and 9 (Express: Empty POST, Insert Bulk) at 39255d8`, `README "Test Result", hàng 2 và 9 (Express: Empty POST, Insert Bulk) tại 39255d8`},
	{`README "Test Result" rows 10 and 11 (Koa) at 39255d8`, `README "Test Result", hàng 10 và 11 (Koa) tại 39255d8`},
	{"the workshop's rule: accepted = persisted + dead-lettered, always", "luật của workshop: nhận = ghi xuống + dead-letter, luôn luôn"},
	{"the workshop's rule for a write path (accepted = persisted), counted at MongoDB", "luật của workshop cho đường ghi (nhận = ghi xuống), đếm tại MongoDB"},
	{"the workshop's rule for a write path (accepted = persisted), asked of express-counter.js's method at ba1953e", "luật của workshop cho đường ghi (nhận = ghi xuống), áp vào cách làm của express-counter.js tại ba1953e"},
}

// sourceRef is a claim's stored English Ref in language l: its twin, or
// the English when it has none.
func sourceRef(l messages.Lang, en string) string {
	if l != messages.Vietnamese {
		return en
	}
	for _, r := range sourceRefTwins {
		if r.en == en {
			return r.vi
		}
	}
	return en
}

// sourceRefs are the English Refs that have a Vietnamese twin.
func sourceRefs() []string {
	out := make([]string, len(sourceRefTwins))
	for i, r := range sourceRefTwins {
		out[i] = r.en
	}
	return out
}
