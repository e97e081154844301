package main

import (
	"flag"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
)

// A switch set by its make variable reads it as the flag does (1, true, 0,
// false…), and a value it cannot read is an error naming the variable:
// compared with "1", ALLOW_REMOTE=true was silently off.
func TestSwitchVariablesParseAsTheirFlag(t *testing.T) {
	for _, c := range []struct {
		value string
		want  bool
	}{{"1", true}, {"true", true}, {"0", false}, {"false", false}} {
		var svc serviceFlags
		if err := svc.register(flag.NewFlagSet("t", flag.ContinueOnError), config.Verbs{AllowRemote: c.value}, "", "", ""); err != nil || svc.AllowRemote != c.want {
			t.Errorf("ALLOW_REMOTE=%s: %v, %v; want %v", c.value, svc.AllowRemote, err, c.want)
		}
	}
	var svc serviceFlags
	if err := svc.register(flag.NewFlagSet("t", flag.ContinueOnError), config.Verbs{AllowRemote: "yes"}, "", "", ""); err == nil || !strings.Contains(err.Error(), "ALLOW_REMOTE=yes") {
		t.Errorf("ALLOW_REMOTE=yes: %v, want an error naming it", err)
	}
	if _, _, _, err := auditFlags(config.Verbs{BurstPost: "maybe"}); err == nil || !strings.Contains(err.Error(), "BURST_POST=maybe") {
		t.Errorf("BURST_POST=maybe: %v, want an error naming it", err)
	}
}
