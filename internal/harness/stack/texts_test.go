package stack

import (
	"testing"

	"github.com/peakload/workshop/internal/given/messages/messagestest"
)

// TestTexts holds this package's texts, and every table it links, to the
// catalogue's rules: both languages, the same verbs, the glossary.
func TestTexts(t *testing.T) { messagestest.Check(t) }
