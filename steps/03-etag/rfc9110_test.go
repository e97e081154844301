package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/peakload/workshop/internal/harness/testseed"
)

// An If-None-Match reader written from RFC 9110 alone, to compare yours with:
//
//	If-None-Match = "*" / #entity-tag               (§13.1.2)
//	entity-tag    = [ weak ] opaque-tag             (§8.8.3)
//	weak          = %s"W/"                          (case-sensitive)
//	opaque-tag    = DQUOTE *etagc DQUOTE
//	etagc         = %x21 / %x23-7E / obs-text       (obs-text = %x80-FF)
//	#element      = [ element ] *( OWS "," OWS [ element ] )   (§5.6.1: empty elements ignored)
//
// The field value excludes leading and trailing OWS (§5.5). If-None-Match
// compares weakly: W/ is ignored on both sides. A field that does not
// parse cannot be evaluated, so it matches nothing: the client gets a 200.
//
// Some headers no client sends are read two ways by right answers: what
// follows the first matching tag (the hints, and net/http, stop reading
// there: "*" as a list element included), tags with no comma between them,
// a tag holding a space or a control byte (the hints say "up to the next
// quote"), and Unicode spaces around the commas (strings.TrimSpace). For
// those, the loose reading below says what such an answer does, and the
// check accepts either verdict.

// verdict is what a reading says of one header.
type verdict struct {
	match bool
	why   string // the reading, in words, for a failure message
}

const chkOWS = " \t"

// strict reads field as RFC 9110 does.
func chkStrict(field, etag string) verdict {
	want := chkOpaqueOf(etag)
	s := strings.Trim(field, chkOWS)
	if s == "*" {
		return verdict{true, "the field is the wildcard *: any current item matches"}
	}
	var tags []string
	matched := ""
	for i := 0; ; {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == ',') {
			i++ // OWS and empty list elements
		}
		if i == len(s) {
			break
		}
		start := i
		if strings.HasPrefix(s[i:], "W/") {
			i += 2
		}
		if i == len(s) || s[i] != '"' {
			why := "an element is neither W/\"…\" nor \"…\""
			if s[start] == '*' {
				why = "* is the wildcard only as the whole field"
			}
			return chkMalformed(s, start, why)
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if !chkEtagc(s[j]) {
				return chkMalformed(s, j, fmt.Sprintf("byte %#02x is not allowed inside a tag (etagc)", s[j]))
			}
			j++
		}
		if j == len(s) {
			return chkMalformed(s, start, "a tag has no closing quote")
		}
		tags = append(tags, s[start:j+1])
		if s[i+1:j] == want && matched == "" {
			matched = s[start : j+1]
		}
		i = j + 1
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i < len(s) && s[i] != ',' {
			return chkMalformed(s, i, "after a tag comes a comma or the end")
		}
	}
	if matched != "" {
		return verdict{true, fmt.Sprintf("a list of %d tag(s) where %s has the opaque part %q", len(tags), matched, want)}
	}
	return verdict{false, fmt.Sprintf("a list of %d tag(s), none with the opaque part %q", len(tags), want)}
}

func chkMalformed(s string, at int, why string) verdict {
	return verdict{false, fmt.Sprintf("malformed at byte %d (%s): %s; a malformed field matches nothing", at, show(s[at:]), why)}
}

func chkEtagc(c byte) bool { return c == 0x21 || c >= 0x23 && c <= 0x7e || c >= 0x80 }

// opaqueOf is the quoted part of the server's own tag: W/"abc" → abc.
func chkOpaqueOf(etag string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(etag, "W/"), `"`), `"`)
}

// loose reads field left to right as net/http's checkIfNoneMatch does,
// with the hints' tags (any byte up to the next quote) and any Unicode
// space as whitespace; it stops at the first match or the first element it
// cannot read.
func chkLoose(field, etag string) bool {
	want := chkOpaqueOf(etag)
	s := strings.TrimFunc(field, unicode.IsSpace)
	if s == "*" {
		return true
	}
	for {
		for s != "" {
			r, n := utf8.DecodeRuneInString(s)
			if r != ',' && !unicode.IsSpace(r) {
				break
			}
			s = s[n:]
		}
		switch {
		case s == "":
			return false
		case s[0] == '*':
			return true
		}
		s = strings.TrimPrefix(s, "W/")
		if s == "" || s[0] != '"' {
			return false
		}
		tag, rest, ok := strings.Cut(s[1:], `"`)
		if !ok {
			return false
		}
		if tag == want {
			return true
		}
		s = rest
	}
}

// disagreement says what NotModified answered where every reading agrees
// on the other answer, or "" if it answered as they do (or they differ).
func disagreement(header, etag string) string {
	v := chkStrict(header, etag)
	if chkLoose(header, etag) != v.match {
		return "" // a header only the readings above differ on: either answer passes
	}
	got, panicked := call(header, etag)
	switch {
	case panicked != nil:
		return fmt.Sprintf("NotModified(%s, %s) panicked: %v; RFC 9110 reads that header as %s: want %v",
			show(header), show(etag), panicked, v.why, v.match)
	case got == v.match:
		return ""
	}
	return fmt.Sprintf("NotModified(%s, %s) = %v; RFC 9110 reads that header as %s: want %v",
		show(header), show(etag), got, v.why, v.match)
}

// call runs NotModified, turning a panic into a value, so one header that
// crashes it is reported like any other wrong answer.
func call(header, etag string) (got bool, panicked any) {
	defer func() { panicked = recover() }()
	return NotModified(header, etag), nil
}

// show quotes s for a message: in backticks when it is plain printable
// ASCII, Go-quoted (%q, so \t and \x80 are visible) otherwise.
func show(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e || s[i] == '`' {
			return fmt.Sprintf("%q (Go-quoted)", s)
		}
	}
	return "`" + s + "`"
}

// shrink drops bytes of header one at a time while NotModified still
// disagrees, so the message shows the shortest header it can.
func shrink(header, etag string) string {
	for i := 0; i < len(header); {
		if shorter := header[:i] + header[i+1:]; disagreement(shorter, etag) != "" {
			header = shorter
			continue
		}
		i++
	}
	return header
}

// The pieces generated headers are made of: the grammar's own tokens, the
// near misses a hurried parser makes of them, and the server's tag.
var pieces = []string{
	`"`, `"`, `"`, `W/`, `W/`, `w/`, `W`, `/`, `*`, `,`, `,`, `, `, ` `, "\t", `\`, `\"`,
	`5d1e2a`, `5d1e2a`, `5d1e2`, `5D1E2A`, `x`, `a*`, `\x35`, "\x00", "\x7f", "\x80", "\xff",
	"\v", "\u00a0", `"5d1e2a"`, `W/"5d1e2a"`, `"other"`, `"*"`, `W/"W/`, `""`, `";`, `'`,
}

// generate draws a header: a list of entity-tags, some of them the server's,
// then (most of the time) a few pieces inserted, deleted or replaced.
func generate(r *rand.Rand) string {
	elems := []string{}
	n := r.IntN(4)
	if r.IntN(8) == 0 {
		n = 8 + r.IntN(40) // a client that kept many versions: the grammar has no limit
	}
	for range n {
		opaque := []string{"5d1e2a", "other", "a,b", "", "x5d1e2a", "*", `a\`}[r.IntN(7)]
		weak := []string{"", "W/"}[r.IntN(2)]
		elems = append(elems, weak+`"`+opaque+`"`)
	}
	sep := []string{",", ", ", " , ", ",\t", ",,", " ,, "}[r.IntN(6)]
	h := strings.Join(elems, sep)
	if r.IntN(8) == 0 {
		h = "*"
	}
	for range r.IntN(4) {
		at := r.IntN(len(h) + 1)
		switch r.IntN(3) {
		case 0:
			h = h[:at] + pieces[r.IntN(len(pieces))] + h[at:]
		case 1:
			if at < len(h) {
				h = h[:at] + h[at+1:]
			}
		default:
			if at < len(h) {
				h = h[:at] + pieces[r.IntN(len(pieces))] + h[at+1:]
			}
		}
	}
	return h
}

// Every header the generator makes, against the model: whatever is in the
// header, NotModified must answer as RFC 9110 reads it.
func TestGeneratedHeadersAgreeWithRFC9110(t *testing.T) {
	seeds := 20000
	first := uint64(1)
	if s, ok := testseed.Replay(t); ok {
		first, seeds = s, 1
	}
	failures := 0
	for seed := first; seed < first+uint64(seeds); seed++ {
		r := rand.New(rand.NewPCG(seed, 3))
		etag := []string{`W/"5d1e2a"`, `"5d1e2a"`}[r.IntN(2)]
		header := generate(r)
		if disagreement(header, etag) == "" {
			continue
		}
		failures++
		msg := disagreement(header, etag)
		if short := shrink(header, etag); short != header {
			msg += "\n\tthe shortest header that still shows it: " + disagreement(short, etag)
		}
		t.Errorf("seed %d (replay: PEAKLOAD_SEED=%d): %s", seed, seed, msg)
		if failures == 3 {
			t.Fatalf("stopping after %d generated headers disagreed", failures)
		}
	}
}

// FuzzIfNoneMatchAgreesWithRFC9110 compares NotModified with the model on
// any header the fuzzer makes. `go test` runs its seeds (below, and
// testdata/fuzz/); `go test -fuzz FuzzIfNoneMatchAgreesWithRFC9110
// ./steps/03-etag/` searches further. The server's tag is W/"opaque" or
// "opaque" (opaque made of etagc bytes); pick > 0 takes the opaque part from
// the pick-th quoted piece of the header, so matches are common.
func FuzzIfNoneMatchAgreesWithRFC9110(f *testing.F) {
	for _, c := range examples() {
		for _, cs := range c.cases {
			f.Add(cs.inm, chkOpaqueOf(cs.etag), strings.HasPrefix(cs.etag, "W/"), uint8(0))
		}
	}
	for _, h := range []string{
		`"5d1e2a" x`, `x, "5d1e2a"`, `"5d1e2a", x`, `"a"x, "5d1e2a"`, `,"5d1e2a`, // malformed elements
		`"a*"`, `"*"`, `*, "5d1e2a"`, `"5d1e2a", *`, `"*", "a"`, // * inside a tag, * in a list
		`W/W/"5d1e2a"`, `w/"5d1e2a"`, `W/5d1e2a"`, `W/ "5d1e2a"`, `W"5d1e2a"`, `/"5d1e2a"`, `"W/5d1e2a"`, `W/"W/5d1e2a"`, // W/ variants
		`"\x35d1e2a"`, `"5d1e2a\"`, `"a\", "5d1e2a"`, `"\"5d1e2a"`, `"5d1e2a\\"`, `"\u0035d1e2a"`, // Go escapes are bytes here
		"\"\x80\xff\", \"5d1e2a\"", "\"5d1e2a\x80\"", "\"\xc2\xa0\"", // obs-text
		`,`, `, ,`, `,,"5d1e2a",,`, ` , "5d1e2a" , `, // empty elements
		"\t\"5d1e2a\"\t", "\"a\"\t,\t\"5d1e2a\"", "\"a\"\v,\"5d1e2a\"", " * ", "\t*", // OWS and tabs
		`"a" "5d1e2a"`, `"a""5d1e2a"`, "\"a b\", \"5d1e2a\"", "\"5d1e2a\", \"a\x01\"", // readings differ: either passes
	} {
		f.Add(h, "5d1e2a", true, uint8(0))
		f.Add(h, "5d1e2a", false, uint8(1))
	}
	f.Fuzz(func(t *testing.T, header, opaque string, weak bool, pick uint8) {
		if quoted := strings.Split(header, `"`); pick > 0 && len(quoted) > 2 {
			opaque = quoted[1+2*(int(pick)%(len(quoted)/2))]
		}
		opaque = strings.Map(func(r rune) rune { // the server's tags hold etagc bytes only
			if r == utf8.RuneError || r < 0x80 && !chkEtagc(byte(r)) {
				return -1
			}
			return r
		}, opaque)
		etag := `"` + opaque + `"`
		if weak {
			etag = "W/" + etag
		}
		if d := disagreement(header, etag); d != "" {
			if short := shrink(header, etag); short != header {
				d += "\n\tthe shortest header that still shows it: " + disagreement(short, etag)
			}
			t.Error(d)
		}
	})
}
