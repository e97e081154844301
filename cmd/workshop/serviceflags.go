package main

import (
	"errors"
	"flag"

	"github.com/peakload/workshop/internal/harness/config"

	"github.com/peakload/workshop/internal/given/messages"
)

// serviceFlags are the flags probe and audit share, each defaulting to the
// make variable of its name (make probe URL=… METRICS=… ALLOW_REMOTE=1),
// from the one parse (config.Verbs): declared here, once for both verbs.
type serviceFlags struct {
	URL, Metrics string
	AllowRemote  bool
}

// register adds -url, -metrics and -allow-remote to fs, with each verb's
// own help.
func (s *serviceFlags) register(fs *flag.FlagSet, v config.Verbs, urlHelp, metricsHelp, remoteHelp string) error {
	fs.StringVar(&s.URL, "url", v.URL, urlHelp)
	fs.StringVar(&s.Metrics, "metrics", v.Metrics, metricsHelp)
	fs.BoolVar(&s.AllowRemote, "allow-remote", false, remoteHelp)
	return setFromVars(fs, varFlag{"allow-remote", "ALLOW_REMOTE", v.AllowRemote})
}

// varFlag is a flag, the make variable that sets it and the variable's
// value ("" when it is not set).
type varFlag struct{ flag, variable, value string }

// setFromVars sets each flag whose make variable is set through the flag's
// own parser (a duration, a count, a switch: 1 or true), before the
// command line, which then wins. A value the flag refuses is an error
// naming the variable: a switch compared with "1" read ALLOW_REMOTE=true
// as off, without a word.
func setFromVars(fs *flag.FlagSet, vars ...varFlag) error {
	for _, v := range vars {
		if v.value == "" {
			continue
		}
		if err := fs.Set(v.flag, v.value); err != nil {
			return errors.New(messages.T("config.bad_variable", v.variable, v.value, err))
		}
	}
	return nil
}
