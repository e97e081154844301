package params

import "testing"

func TestParamsParse(t *testing.T) {
	p := Load()
	if p.Load.VUs < 1 || p.Catalog.Items < p.Catalog.HotItems || p.Clock.Scale <= 0 || len(p.Event) == 0 {
		t.Fatalf("implausible params: %+v", p)
	}
}

// The articles' clock runs ×scale faster on the bench: 60 s at ×100 is 600 ms.
func TestScaled(t *testing.T) {
	var p Params
	p.Clock.Scale = 100
	if got := p.Scaled(60); got.Milliseconds() != 600 {
		t.Errorf("Scaled(60) at ×100 = %s, want 600ms", got)
	}
}
