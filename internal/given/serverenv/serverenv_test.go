package serverenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/peakload/workshop/internal/given/dbaddr"
	"github.com/peakload/workshop/internal/given/messages"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Unset, every variable is the step's default: the full shell, echo,
// invalidation on, loopback, English.
func TestDefaults(t *testing.T) {
	c, err := Parse(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != dbaddr.DefaultServerAddr || !strings.HasPrefix(c.Addr, "127.0.0.1:") || c.Shell != Full || c.Framework != "echo" ||
		!c.Invalidation || !c.Listen || c.MutexProfile || c.PGPool != 0 || c.Pool != 0 || c.Lang != messages.English {
		t.Errorf("Parse(no environment) = %+v; want loopback, the full shell, echo, invalidation and listening on, English", c)
	}
}

func TestValuesAreRead(t *testing.T) {
	c, err := Parse(env(map[string]string{"PEAKLOAD_ADDR": "0.0.0.0:9", "PEAKLOAD_PG_POOL": "4", "PG_POOL": "100",
		"PEAKLOAD_MUTEX_PROFILE": "1", "PEAKLOAD_SHELL": "guards", "FRAMEWORK": "fasthttp", "PEAKLOAD_REPLICA": "r2",
		"PEAKLOAD_INVALIDATION": "on", "PEAKLOAD_LISTEN": "off", "LANG": "vi_VN.UTF-8", "PEAKLOAD_PG_PORT": "15514"}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{DB: dbaddr.For(dbaddr.DefaultHost, 15514, dbaddr.DefaultRedisPort, dbaddr.DefaultMongoPort), Addr: "0.0.0.0:9",
		PGPool: 4, Pool: 100, MutexProfile: true, Lang: messages.Vietnamese, Shell: Guards, Framework: "fasthttp",
		Replica: "r2", Invalidation: true, Listen: false}
	if c != want {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

// A bad value is an error naming the variable, the value and what it
// accepts, in both languages; all of them at once.
//
// Data table: the step server's bad values, each with what it accepts in
// both languages; internal/harness/cli's TestBadValuesAreSaidInBothLanguages
// holds the CLI's, the other reader of the environment, the same way.
func TestBadValuesNameTheirVariable(t *testing.T) {
	for _, tc := range []struct{ name, value, en, vi string }{
		{"PEAKLOAD_PG_POOL", "x", "want a positive integer", "cần một số nguyên dương"},
		{"PG_POOL", "0", "want a positive integer", "cần một số nguyên dương"},
		{"PEAKLOAD_INVALIDATION", "maybe", "want on or off", "cần on hoặc off"},
		{"PEAKLOAD_LISTEN", "nope", "want on or off", "cần on hoặc off"},
		{"PEAKLOAD_MUTEX_PROFILE", "please", "want on or off", "cần on hoặc off"},
		{"FRAMEWORK", "nope", "want one of echo, fasthttp, nethttp, yours", "cần một trong echo, fasthttp, nethttp, yours"},
		{"PEAKLOAD_SHELL", "everything", "want one of bare, timeouts, guards, full", "cần một trong bare"},
		{"PEAKLOAD_ADDR", "8080", "want host:port", "cần dạng host:port"},
		{"PEAKLOAD_PG_PORT", "-1", "want a port number from 1 to 65535", "cần số cổng từ 1 đến 65535"},
	} {
		for lang, want := range map[messages.Lang]string{messages.English: tc.en, messages.Vietnamese: tc.vi} {
			restore := messages.Use(lang)
			_, err := Parse(env(map[string]string{tc.name: tc.value}))
			restore()
			if err == nil || !strings.Contains(err.Error(), tc.name+"=") || !strings.Contains(err.Error(), tc.value) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s=%s in %s: error %v; want it to name %s=%q and say %q", tc.name, tc.value, lang, err, tc.name, tc.value, want)
			}
		}
	}
	_, err := Parse(env(map[string]string{"FRAMEWORK": "nope", "PEAKLOAD_PG_POOL": "x"}))
	if err == nil || !strings.Contains(err.Error(), "FRAMEWORK") || !strings.Contains(err.Error(), "PEAKLOAD_PG_POOL") {
		t.Errorf("two bad values: %v; want both named", err)
	}
}

// Names lists every variable Parse reads, the endpoints' included.
func TestNames(t *testing.T) {
	names := strings.Join(Names(), " ")
	for _, want := range []string{"PEAKLOAD_ADDR", "PEAKLOAD_PG_POOL", "PEAKLOAD_POSTGRES_URL", "PEAKLOAD_LANG", "FRAMEWORK", "PEAKLOAD_LISTEN"} {
		if !strings.Contains(" "+names+" ", " "+want+" ") {
			t.Errorf("Names() = %s; %s missing", names, want)
		}
	}
}

// A step server's errors speak the language its environment asks for, and
// Parse leaves the process's language as it found it (Must switches it).
func TestErrorsSpeakTheAskedLanguage(t *testing.T) {
	defer messages.Use(messages.English)()
	_, err := Parse(env(map[string]string{"LANG": "vi_VN.UTF-8", "PEAKLOAD_INVALIDATION": "maybe"}))
	if err == nil || !strings.Contains(err.Error(), `PEAKLOAD_INVALIDATION="maybe": cần on hoặc off`) {
		t.Errorf("TestErrorsSpeakTheAskedLanguage: LANG=vi_VN PEAKLOAD_INVALIDATION=maybe: %v; want it said in Vietnamese", err)
	}
	if messages.Current() != messages.English {
		t.Errorf("TestErrorsSpeakTheAskedLanguage: Parse left the language %s; want it untouched (en)", messages.Current())
	}
}

// TestFrameworksAreStep9s: FRAMEWORK accepts the names of step 9's table
// (steps/09-frameworks/main.go's frameworks), no more (main would have no
// server to run) and no fewer (a framework refused here could never be
// benched). Read from the source: a step's main package cannot be imported.
func TestFrameworksAreStep9s(t *testing.T) {
	path := filepath.Join("..", "..", "..", "steps", "09-frameworks", "main.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var served []string
	ast.Inspect(f, func(n ast.Node) bool {
		v, ok := n.(*ast.ValueSpec)
		if !ok || len(v.Names) != 1 || v.Names[0].Name != "frameworks" || len(v.Values) != 1 {
			return true
		}
		if table, ok := v.Values[0].(*ast.CompositeLit); ok {
			for _, e := range table.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if lit, ok := kv.Key.(*ast.BasicLit); ok {
						name, _ := strconv.Unquote(lit.Value)
						served = append(served, name)
					}
				}
			}
		}
		return false
	})
	slices.Sort(served)
	if !slices.Equal(served, Frameworks) {
		t.Errorf("TestFrameworksAreStep9s: %s serves %v, FRAMEWORK accepts %v (Frameworks): make them the same", path, served, Frameworks)
	}
}
