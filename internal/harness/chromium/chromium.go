// Package chromium finds a Chromium-based browser: the handout prints the
// decks with it, and doctor says whether there is one.
package chromium

import (
	"fmt"
	"os/exec"
)

// Find returns the path of a Chromium-based browser (the handout
// prints with it; doctor says whether there is one), or an error that
// says how to install one.
func Find() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium: %s", Hint())
}

// Hint is how to install one.
func Hint() string {
	return "sudo apt-get install chromium (Debian/Ubuntu), brew install --cask chromium (macOS), or any Chrome on PATH as google-chrome"
}
