package messages

import (
	"regexp"
	"testing"
)

// verbs are the formatting verbs of a message, in order: a translation
// that drops or reorders one would print %!d(MISSING) or the wrong figure.
var verbs = regexp.MustCompile(`%[-+#0-9.]*[a-zA-Z%]`)

// TestEveryKeyIsTranslated: every English message has a Vietnamese one
// with the same verbs in the same order, and Vietnamese has no key English
// lacks (a renamed key left behind).
func TestEveryKeyIsTranslated(t *testing.T) {
	for key, e := range en {
		v, ok := vi[key]
		if !ok || v == "" {
			t.Errorf("%q has no Vietnamese message", key)
			continue
		}
		if a, b := verbs.FindAllString(e, -1), verbs.FindAllString(v, -1); !equal(a, b) {
			t.Errorf("%q: English verbs %q, Vietnamese %q", key, a, b)
		}
	}
	for key := range vi {
		if _, ok := en[key]; !ok {
			t.Errorf("%q is Vietnamese only: English lacks it", key)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestParse: PEAKLOAD_LANG wins over LANG; English is the default.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		peakload, lang string
		want           Lang
	}{
		{"", "", English},
		{"", "C.UTF-8", English},
		{"", "vi_VN.UTF-8", Vietnamese},
		{"vi", "", Vietnamese},
		{"VI", "en_US.UTF-8", Vietnamese},
		{"en", "vi_VN.UTF-8", English},
		{"fr", "", English},
	} {
		if got := Parse(c.peakload, c.lang); got != c.want {
			t.Errorf("Parse(%q, %q) = %s, want %s", c.peakload, c.lang, got, c.want)
		}
	}
}

// TestFallback: an unknown key prints itself, visibly, rather than nothing.
func TestFallback(t *testing.T) {
	if got := Vietnamese.T("no.such.key"); got != "no.such.key" {
		t.Errorf("unknown key printed %q", got)
	}
	if got := Vietnamese.T("check.passed", 2); got != "check bước 2 đã pass\n" {
		t.Errorf("check.passed = %q", got)
	}
}
