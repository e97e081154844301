package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The table names each claim's source, and a result recorded before
// sources existed (results/reference/*.json, older latest.json) still
// loads and prints as it did.
func TestClaimsPrintTheirSource(t *testing.T) {
	for _, tc := range []struct {
		src  Source
		want string
	}{
		{Article("A", "Chà, tốc độ khá tốt rồi đúng không?"), "A2  article A:  "},
		{Repo("README row 9"), "A2  author's repo:  "},
		{Guide("thông lượng tăng từ khoảng 5,3 lên 19,5 req"), "A2  Node.js guide:  "},
		{Ours(""), "A2  ours:  "},
		{Source{}, "A2  article:  "}, // an older result's claim
	} {
		r := &Result{Claims: []Claim{{ID: "A2", Source: tc.src, Article: "quite good"}}}
		var b bytes.Buffer
		r.Print(&b)
		if !strings.Contains(b.String(), tc.want+"quite good") {
			t.Errorf("%+v: want %q in\n%s", tc.src, tc.want, b.String())
		}
	}

	old := []byte(`{"step":2,"claims":[{"id":"A2","article":"quite good","measured":"x","tolerance":"y","reproduced":true}]}`)
	var r Result
	if err := json.Unmarshal(old, &r); err != nil {
		t.Fatal(err)
	}
	if r.Claims[0].Source.Name() != "article" || r.Claims[0].Article != "quite good" {
		t.Errorf("older result read as %+v", r.Claims[0])
	}

	r.Claims[0].Source = Article("A", "Chà, tốc độ khá tốt rồi đúng không?")
	b, _ := json.Marshal(&r)
	var back Result
	if err := json.Unmarshal(b, &back); err != nil || back.Claims[0].Source.Quote != r.Claims[0].Source.Quote || back.Claims[0].Source.Kind != FromArticle {
		t.Errorf("the source does not survive the JSON: %s", b)
	}
}
