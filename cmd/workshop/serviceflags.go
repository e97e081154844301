package main

import (
	"flag"
	"os"
)

// serviceFlags are the flags probe and audit share, each defaulting to the
// make variable of its name (make probe URL=… METRICS=… ALLOW_REMOTE=1):
// read here, once for both verbs.
type serviceFlags struct {
	URL, Metrics string
	AllowRemote  bool
}

// register adds -url, -metrics and -allow-remote to fs, with each verb's
// own help.
func (s *serviceFlags) register(fs *flag.FlagSet, urlHelp, metricsHelp, remoteHelp string) {
	fs.StringVar(&s.URL, "url", os.Getenv("URL"), urlHelp)
	fs.StringVar(&s.Metrics, "metrics", os.Getenv("METRICS"), metricsHelp)
	fs.BoolVar(&s.AllowRemote, "allow-remote", os.Getenv("ALLOW_REMOTE") == "1", remoteHelp)
}
