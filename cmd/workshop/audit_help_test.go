package main

import (
	"flag"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/harness/config"
)

// TestAuditHelpNamesEveryFlagAndItsVariable: make audit HELP=1 (workshop
// audit -h) lists every flag the audit declares beside the make variable
// that sets it, and every variable it lists is one a flag reads.
func TestAuditHelpNamesEveryFlagAndItsVariable(t *testing.T) {
	fs, _, _, err := auditFlags(config.Verbs{})
	if err != nil {
		t.Fatal(err)
	}
	var help strings.Builder
	auditUsage(&help, fs)
	listed := map[string]bool{}
	for _, v := range auditVars {
		listed[v.flag] = true
		if fs.Lookup(v.flag) == nil {
			t.Errorf("the help lists -%s (%s), which the audit does not declare", v.flag, v.variable)
		}
		if !strings.Contains(help.String(), v.variable) || !strings.Contains(help.String(), "-"+v.flag+" ") {
			t.Errorf("the help does not name -%s with %s:\n%s", v.flag, v.variable, help.String())
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !listed[f.Name] {
			t.Errorf("-%s has no make variable in the audit's help (auditVars)", f.Name)
		}
	})
}

// A make variable that does not parse is an error naming it, not a
// default silently kept.
func TestAuditBadVariableIsNamed(t *testing.T) {
	if _, _, _, err := auditFlags(config.Verbs{Slowloris: "soon"}); err == nil || !strings.Contains(err.Error(), "SLOWLORIS=soon") {
		t.Errorf("SLOWLORIS=soon: %v, want an error naming it", err)
	}
}
