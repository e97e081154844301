package messages_test

import (
	"testing"

	"github.com/peakload/workshop/internal/given/messages/messagestest"
)

// TestTexts holds the catalogue's own texts (the configurations' errors,
// given's words) to the catalogue's rules: both languages, the same verbs,
// the glossary.
func TestTexts(t *testing.T) { messagestest.Check(t) }
