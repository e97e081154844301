package messages

import "testing"

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
	if got := Vietnamese.T("config.bad_switch", "QUICK", "maybe"); got != `QUICK="maybe": cần on hoặc off (1 hoặc 0)` {
		t.Errorf("config.bad_switch = %q", got)
	}
}
