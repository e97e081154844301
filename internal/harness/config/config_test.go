package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/peakload/workshop/internal/given/messages"
	"github.com/peakload/workshop/internal/harness/stack"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// A bad value is said at once, naming its variable; every bad value at once.
func TestBadValuesNameTheirVariable(t *testing.T) {
	for name, value := range map[string]string{"SOLUTION": "yes please", "VUS": "0", "ITERATIONS": "x", "DURATION": "-3",
		"RUNS": "21", "TOOL": "ab", "ARRIVAL": "poisson", "LATENCY": "fast", "PEAKLOAD_SERVER_URL": "app:8080",
		"STACK": "foo", "PEAKLOAD_PG_PORT": "-1", "PEAKLOAD_REDIS_PORT": "70000", "PEAKLOAD_MONGO_PORT": "x",
		"PEAKLOAD_MONGO_BACKEND": "mysql", "PEAKLOAD_ADDR": "8080", "PEAKLOAD_SEED": "x", "ALLOW_REMOTE": "yes",
		"BURST_POST": "maybe", "REF": "please", "COLD_N": "many", "SLOWLORIS": "soon", "BURST": "3", "FORMAT": "xml"} {
		_, err := parse(env(map[string]string{name: value}))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%q: error %v, want one naming %s", name, value, err, name)
		}
	}
	_, err := parse(env(map[string]string{"VUS": "x", "RUNS": "0"}))
	if err == nil || !strings.Contains(err.Error(), "VUS") || !strings.Contains(err.Error(), "RUNS") {
		t.Errorf("two bad values: %v, want both named", err)
	}
}

func TestValuesAreRead(t *testing.T) {
	c, err := parse(env(map[string]string{"SOLUTION": "1", "QUICK": "1", "VUS": "50", "DURATION": "2.5", "RUNS": "3",
		"TOOL": "wrk", "ARRIVAL": "rate", "RATE": "2000", "CAPACITY": "0", "PEAKLOAD_SERVER_URL": "http://app:8080/"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Solution: true, Quick: true, VUs: 50, Duration: 2500 * time.Millisecond, Runs: 3, Tool: "wrk",
		Arrival: "rate", Rate: 2000, ServerURL: "http://app:8080",
		ServerAddr: "127.0.0.1:8080", ResultsDir: "results", Lang: messages.English} // the defaults
	c.Stack = stack.Config{} // TestStackIsReadWithTheRest
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	off := map[string]string{"SOLUTION": "0", "QUICK": "false", "CAPACITY": "0", "ORIGINAL": "false", "PEAKLOAD_NO_PIN": "0"}
	if c, err := parse(env(off)); err != nil || c.Solution || c.Quick || c.Capacity || c.Original || c.NoPin {
		t.Errorf("%v: %+v, %v; want every switch off", off, c, err)
	}
}

// The values the issue found silently replaced by a default (RUNS=abc,
// PEAKLOAD_PG_PORT=-1) are errors that name the variable and say what is
// wanted, in the learner's language.
//
// Data table: the CLI's bad values, each with what it accepts in both
// languages; internal/given/serverenv's TestBadValuesNameTheirVariable
// holds the step server's, the other reader of the environment, the same way.
func TestBadValuesAreSaidInBothLanguages(t *testing.T) {
	for _, tc := range []struct{ name, value, en, vi string }{
		{"RUNS", "abc", "want a number of rounds from 1 to 20", "cần số vòng từ 1 đến 20"},
		{"DURATION", "x", "want a duration", "cần một khoảng thời gian"},
		{"VUS", "-1", "want a positive integer", "cần một số nguyên dương"},
		{"PEAKLOAD_PG_PORT", "-1", "want a port number from 1 to 65535", "cần số cổng từ 1 đến 65535"},
		{"STACK", "foo", "want auto, native or compose", "auto"},
		{"QUICK", "yes", "want on or off (1 or 0)", "cần on hoặc off (1 hoặc 0)"},
		{"ORIGINAL", "maybe", "want on or off (1 or 0)", "cần on hoặc off (1 hoặc 0)"},
	} {
		for lang, want := range map[messages.Lang]string{messages.English: tc.en, messages.Vietnamese: tc.vi} {
			restore := messages.Use(lang)
			_, err := parse(env(map[string]string{tc.name: tc.value}))
			restore()
			if err == nil || !strings.Contains(err.Error(), tc.name+"=") || !strings.Contains(err.Error(), tc.value) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s=%s in %s: error %v, want it to name %s=%q and say %q", tc.name, tc.value, lang, err, tc.name, tc.value, want)
			}
		}
	}
}

// The stack's variables are read with the rest: one parse, one value.
func TestStackIsReadWithTheRest(t *testing.T) {
	c, err := parse(env(map[string]string{"STACK": "native", "PEAKLOAD_PG_PORT": "15732", "PEAKLOAD_DIR": "/tmp/w",
		"PEAKLOAD_MONGO_URL": "mongodb://elsewhere:1/"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Stack.Kind != "native" || c.Stack.PGPort != 15732 || c.Stack.Dir != "/tmp/w" || c.MongoURL != "" {
		t.Errorf("got stack %+v, mongo_url %q; want native on PG port 15732 in /tmp/w, no mongo_url off STACK=given", c.Stack, c.MongoURL)
	}
	c, err = parse(env(map[string]string{"STACK": "given", "PEAKLOAD_MONGO_URL": "mongodb://mongo:27017/"}))
	if err != nil || c.MongoURL != "mongodb://mongo:27017/" || c.Stack.Endpoints().MongoURL != "mongodb://mongo:27017/" {
		t.Errorf("STACK=given: %v, mongo_url %q, endpoints %+v; want the given URL in both", err, c.MongoURL, c.Stack.Endpoints())
	}
}

// The variables the CLI hands on to the packages it calls, read with the
// rest: where results go, k6, pinning, the FerretDB binary, the server's
// address, the language, a test's seed and the team verbs' flags.
func TestPassedDownValuesAreRead(t *testing.T) {
	c, err := parse(env(map[string]string{"PEAKLOAD_RESULTS": "/tmp/r", "K6": "/opt/k6", "PEAKLOAD_NO_PIN": "1",
		"PEAKLOAD_MONGO_BIN": "/opt/mongo", "PEAKLOAD_ADDR": "0.0.0.0:8081", "PEAKLOAD_LANG": "vi", "PEAKLOAD_SEED": "42",
		"URL": "http://127.0.0.1:1/x", "COLD_N": "20", "GITHUB_ACTOR": "lan"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.ResultsDir != "/tmp/r" || c.K6 != "/opt/k6" || !c.NoPin || c.Stack.MongoBin != "/opt/mongo" || c.ServerAddr != "0.0.0.0:8081" ||
		c.Lang != messages.Vietnamese || c.Seed != 42 || !c.Replay || c.Verbs.URL != "http://127.0.0.1:1/x" || c.Verbs.ColdN != "20" || c.Verbs.Actor != "lan" {
		t.Errorf("TestPassedDownValuesAreRead: got %+v", c)
	}
	if c, _ := parse(env(nil)); c.Replay || c.ResultsDir != "results" {
		t.Errorf("TestPassedDownValuesAreRead: no PEAKLOAD_SEED, no PEAKLOAD_RESULTS: replay %v, results %q; want none, results", c.Replay, c.ResultsDir)
	}
}

// The errors speak the language the same environment asks for
// (PEAKLOAD_LANG=vi RUNS=abc is said in Vietnamese), and the parse leaves
// the process's language as it found it: main switches it, once.
func TestErrorsSpeakTheAskedLanguage(t *testing.T) {
	defer messages.Use(messages.English)()
	_, err := parse(env(map[string]string{"PEAKLOAD_LANG": "vi", "RUNS": "abc", "COLD_N": "x"}))
	if err == nil || !strings.Contains(err.Error(), "cần số vòng từ 1 đến 20") || !strings.Contains(err.Error(), `COLD_N="x": cần một số nguyên dương`) {
		t.Errorf("TestErrorsSpeakTheAskedLanguage: PEAKLOAD_LANG=vi RUNS=abc COLD_N=x: %v; want both said in Vietnamese", err)
	}
	if messages.Current() != messages.English {
		t.Errorf("TestErrorsSpeakTheAskedLanguage: the parse left the language %s; want it untouched (en)", messages.Current())
	}
}
