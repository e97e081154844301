// Package workshopbin finds the learner's command, which the maintainer's
// tools run (`workshop bench`, `workshop latency-proxy`).
package workshopbin

import (
	"os"
	"path/filepath"
)

// Path is the learner's command, which test and test-latency run
// (`workshop bench`, `workshop latency-proxy`): the one beside this binary,
// as the Makefile builds both into .workshop/bin/, else that directory's
// (with `go run ./cmd/workshop-dev` from the repository's root).
func Path() string {
	if self, err := os.Executable(); err == nil {
		if bin := filepath.Join(filepath.Dir(self), "workshop"); isFile(bin) {
			return bin
		}
	}
	return filepath.Join(".workshop", "bin", "workshop")
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
