// Package stepflag reads the step a command names (-step 2, or its
// directory, 02-cache-aside, as the Compose bench profile's STEP says it).
package stepflag

import (
	"errors"
	"flag"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/scenario"
)

// Parse parses a verb's -step flag: a number, or the step's directory
// under steps/ (02-cache-aside: the Compose bench profile's STEP).
func Parse(name string, args []string) (scenario.Step, error) {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	arg := fs.String("step", "", "step number, or its directory under steps/ (02-cache-aside: the Compose bench profile's STEP)")
	_ = fs.Parse(args)
	num, _, named := strings.Cut(*arg, "-")
	n, err := strconv.Atoi(num)
	if err != nil {
		return scenario.Step{}, errors.New(messages.T("step.bad_flag", *arg))
	}
	step, err := scenario.Get(n)
	if err == nil && named && filepath.Base(step.Dir()) != *arg {
		return step, errors.New(messages.T("step.no_dir", *arg, n, step.Dir()))
	}
	return step, err
}
