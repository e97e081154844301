package scaffold

import "fmt"

type file struct{ path, tmpl string }

// files are the step's own files and its scenario, from the templates below.
func files(s Step) []file {
	deck := fmt.Sprintf("%02d-%s.slide", s.N, s.Slug)
	return []file{
		{s.Dir() + "/README.md", readmeTmpl},
		{s.Dir() + "/README.vi.md", readmeViTmpl},
		{s.Dir() + "/main.go", mainTmpl},
		{s.Dir() + "/exercise.go", exerciseTmpl},
		{s.Dir() + "/solution_swap.go", swapTmpl},
		{s.Dir() + "/check_test.go", checkTmpl},
		{s.Dir() + "/hints.txt", hintsTmpl},
		{s.Dir() + "/hints.vi.txt", hintsTmpl},
		{s.SolutionDir() + "/" + s.Pkg + ".go", solutionTmpl},
		{s.K6Script(), k6Tmpl},
		{"slides/" + deck, deckTmpl},
		{"slides/vi/" + deck, deckViTmpl},
		{fmt.Sprintf("internal/harness/scenario/step%02d.go", s.N), scenarioTmpl},
		{fmt.Sprintf("internal/harness/scenario/step%02d_test.go", s.N), scenarioTestTmpl},
	}
}

const entryTmpl = `	{N: {{.N}}, Slug: "{{.Slug}}", Exercise: true, Unrecorded: true,
		Panels: []Panel{CPUPanel},
		Row: Row{"TODO: what step {{.N}} adds", "TODO: claim ids", "TODO: the source's figure", "TODO: what the check proves",
			RowWords{"TODO: bước {{.N}} thêm gì", "TODO: id của các claim", "TODO: con số của nguồn", "TODO: check chứng minh điều gì"}},
		K6: []Variant{ {{- .Variant}}}},
`

const constTmpl = `
// {{.Variant}} is step {{.N}}'s row.
const {{.Variant}} Variant = "{{.Slug}}"
`

const readmeTmpl = `# Step {{.N}} — {{.Slug}}: TODO the lesson in one line

- **Edit** ` + "`exercise.go`" + `: your part, where the TODO is.
- **Read** ` + "`main.go`" + `: how your code is wired into the server.
- **Leave** the rest: ` + "`check_test.go`" + ` is the check, ` + "`solution_swap.go`" + ` swaps in the reference for ` + "`SOLUTION=1`" + `.

TODO: the situation, the source's claim (quoted), the technique, what the bench measures — what
the learner must read and do, at most 1,000 words (TestEachStepsMustReadPartFitsTheDay).

## Going deeper

TODO: what the check does not need (the figures, the whys).

## The check asserts

- TODO: each property the lesson promises, in the learner's words, naming the one test that asserts it: GET /{{.Slug}} answers 200 with a body (` + "`Test{{.Func}}`" + `).
`

const readmeViTmpl = `# Bước {{.N}} — {{.Slug}}: TODO bài học trong một dòng

- **Sửa** ` + "`exercise.go`" + `: phần của bạn, chỗ có TODO.
- **Đọc** ` + "`main.go`" + `: code của bạn được nối vào server thế nào.
- **Để nguyên** phần còn lại: ` + "`check_test.go`" + ` là bài check, ` + "`solution_swap.go`" + ` thay lời giải mẫu vào khi ` + "`SOLUTION=1`" + `.

TODO: tình huống, claim của nguồn (trích nguyên văn), kỹ thuật, bench đo gì — những gì học viên phải
đọc và làm, tối đa 1.400 tiếng (TestEachStepsMustReadPartFitsTheDay).

## Đi sâu hơn

TODO: những gì bài check không cần (các con số, các lý do).

## The check asserts

*(Tiêu đề, tên test và chữ "Not checked" giữ nguyên như bản tiếng Anh, nơi test của repo đọc
chúng. Bài check khẳng định những tính chất sau, mỗi tính chất gắn với đúng một test; dòng
"Not checked" là điều không kiểm tra, kèm lý do.)*

- TODO: mỗi tính chất bài học hứa, bằng lời của học viên, kèm tên test khẳng định nó: GET /{{.Slug}} trả 200 kèm body (` + "`Test{{.Func}}`" + `).
`

const mainTmpl = `// Step {{.N}} — {{.Slug}}. TODO: the situation in a few lines, and which
// function of exercise.go is the learner's.
package main

import (
	"github.com/labstack/echo/v4"

	"github.com/peakload/workshop/internal/given/server"
)

// Route is the step's endpoint.
const Route = "/{{.Slug}}"

func main() { newServer().Main() }

func newServer() *server.Server {
	srv := server.New("step {{.N}} — {{.Slug}}")
	srv.GET(Route, func(c echo.Context) error { return c.String(200, {{.Func}}()) })
	return srv
}
`

const exerciseTmpl = `//go:build !solution

package main

// {{.Func}} is what GET /{{.Slug}} answers.
//
// TODO(step {{.N}}): the one function the learner writes.
func {{.Func}}() string {
	return ""
}
`

const swapTmpl = `// DO NOT EDIT. This file only swaps in the reference answer under the
// ` + "`solution`" + ` build tag (make step-{{.N}} check SOLUTION=1). Your work goes in
// exercise.go.

//go:build solution

package main

import "github.com/peakload/workshop/{{.SolutionDir}}"

// {{.Func}} is the reference (make step-{{.N}} check SOLUTION=1).
var {{.Func}} = {{.Pkg}}.{{.Func}}
`

const checkTmpl = `package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TODO(maintainer): the check, one property of the lesson per test, each
// failure stating what was observed.
func Test{{.Func}}(t *testing.T) {
	srv := newServer()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, Route, nil))
	if rec.Code != http.StatusOK || rec.Body.Len() == 0 {
		t.Fatalf("GET %s answered %d with %d bytes of body, want 200 with a body", Route, rec.Code, rec.Body.Len())
	}
}
`

const hintsTmpl = `# One hint per line, from a nudge to nearly the answer (make step-{{.N}} hint shows the next one).
TODO: the first hint.
`

const solutionTmpl = `// Package {{.Pkg}} is the reference for step {{.N}}. TODO: what it answers and why.
package {{.Pkg}}

// {{.Func}} is what GET /{{.Slug}} answers.
func {{.Func}}() string { return "TODO: the reference answer" }
`

const k6Tmpl = `// Step {{.N}} — {{.Slug}}: TODO what the load is.
//
//   make step-{{.N}} run        # in one terminal
//   k6 run k6/{{printf "%02d" .N}}-{{.Slug}}.js
import { getOK, sequential } from './lib/common.js';

const params = JSON.parse(open('./lib/params.json'));

export const options = sequential(params, ['{{.Slug}}'], '{{.Slug}}');
export { handleSummary, meter } from './lib/common.js';

// TODO: the step's route, declared once in internal/given/routes (make docs writes lib/routes.js).
export function {{.Exec}}() { getOK('/{{.Slug}}'); }
`

const deckTmpl = `Step {{.N}} — {{.Slug}}
TODO the deck's subtitle
Tags: peakload

peakload workshop
steps/{{printf "%02d" .N}}-{{.Slug}}

: 5 minutes of slides; the exercise slot comes on top.

* The situation

- TODO: the source's situation and claim, quoted

: 1 minute. TODO: what to say.

* The technique

- TODO: the mechanism, and why it helps

: 1 minute. TODO: what to say.

* The exercise

.code ../steps/{{printf "%02d" .N}}-{{.Slug}}/exercise.go /TODO\(step {{.N}}\)/,/^}/

  make step-{{.N}} hint | make step-{{.N}} check | make step-{{.N}} diff

: 1 minute to introduce it; then the exercise slot, not counted in this deck's time.

* The answer

.code ../{{.SolutionDir}}/{{.Pkg}}.go /^func {{.Func}}/

: 1 minute. TODO: the pitfalls the check caught.

* What the bench shows

- TODO: once the reference run is recorded (make report REF=1 draws them into img/generated/),
  TestStepDecksShowTheReferenceRun asks for its chart and its claims, each a line of its own
  as in step 2's deck: .image of step-{{.N}}-slide.svg (_ 900), .html of step-{{.N}}-claims.html

: 1 minute. TODO: read the claim line before the verdict.
`

const deckViTmpl = `Bước {{.N}} — {{.Slug}}
TODO phụ đề của deck
Tags: peakload

peakload workshop
steps/{{printf "%02d" .N}}-{{.Slug}}

: 5 phút slide; thời gian làm bài tập tính riêng.

* Tình huống

- TODO: tình huống và claim của nguồn, trích nguyên văn

: 1 phút. TODO: nói gì.

* Kỹ thuật

- TODO: cơ chế, và vì sao nó giúp

: 1 phút. TODO: nói gì.

* Bài tập

.code ../../steps/{{printf "%02d" .N}}-{{.Slug}}/exercise.go /TODO\(step {{.N}}\)/,/^}/

  make step-{{.N}} hint | make step-{{.N}} check | make step-{{.N}} diff

: 1 phút để giới thiệu; rồi tới giờ làm bài tập, không tính vào thời gian của deck.

* Lời giải

.code ../../{{.SolutionDir}}/{{.Pkg}}.go /^func {{.Func}}/

: 1 phút. TODO: những cái bẫy mà bài check bắt được.

* Bench cho thấy gì

- TODO: khi đã ghi lại lần chạy tham chiếu (make report REF=1 vẽ chúng vào ../img/generated/),
  TestStepDecksShowTheReferenceRun đòi biểu đồ và các claim của nó, mỗi thứ một dòng riêng
  như deck của bước 2: .image của step-{{.N}}-slide.svg (_ 900), .html của step-{{.N}}-claims.html

: 1 phút. TODO: đọc dòng số đo trước chữ kết luận.
`

const scenarioTmpl = `package scenario

import (
	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/course"
	"github.com/peakload/workshop/internal/harness/load"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step {{.N}}: TODO what the bench measures and why.
func init() {
	register({{.N}}, Step{
		Variants: func(env Env) []load.Variant {
			return []load.Variant{
				{Name: course.{{.Variant}}, Route: "GET /{{.Slug}}", Path: "/{{.Slug}}"},
			}
		},
		Claims: func(r *result.Result, env Env) []result.Claim {
			return []result.Claim{ {ID: "TODO", Source: result.Ours(""), Article: "TODO: the claim", Measured: "not measured", Tolerance: "TODO",
				Vi: result.ClaimLines{Text: "TODO: claim", Tolerance: "TODO"}} }
		},
		Ours: step{{.N}}Ours,
		// TODO: the ids of the claims the learner's code controls, which
		// the reference run must reproduce (TestTheReferenceRewardsEveryExercise).
		// A claim judged on counts alone (or whose rate part is a bound
		// cleared many times over: result.Claim.LooseRate) also goes in
		// KeepOnBusy; TestWhichClaimsABusyMachineWithholds holds it to
		// result.MachineBound.
		Rewards: []string{"TODO"},
	})
}

// step{{.N}}Ours writes step {{.N}}'s "ours (reference run)" cell of README.md's
// step table, in language l. TODO: the figure that proves the mechanism, from the reference run.
func step{{.N}}Ours(r *result.Result, _ Env, l messages.Lang) string {
	return Say(l, "%s req/s", "%s req/s", Rate(RPS(r, course.{{.Variant}})))
}
`

const scenarioTestTmpl = `package scenario

import (
	"testing"

	"github.com/peakload/workshop/internal/given/params"
	"github.com/peakload/workshop/internal/harness/result"
)

// Step {{.N}}'s claims follow the figures, both ways. TODO: a run whose
// figures reproduce each claim and one whose figures do not, each verdict
// asserted (step10_test.go is an example).
func TestStep{{.N}}Claims(t *testing.T) {
	for _, s := range All() {
		if s.N == {{.N}} && len(s.Claims(&result.Result{}, Env{Params: params.Load()})) == 0 {
			t.Fatal("step {{.N}} judges no claim")
		}
	}
}
`
