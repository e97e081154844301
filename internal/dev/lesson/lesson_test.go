package lesson

import "testing"

// TestMustReadCountsProseBeforeTheSplit: code blocks, HTML comments and the
// generated regions' markers are not read as prose; the split is either
// language's heading, on a line of its own.
func TestMustReadCountsProseBeforeTheSplit(t *testing.T) {
	for _, c := range []struct {
		name, in string
		words    int
		split    bool
	}{
		{"no split: all of it", "# Title\n\none two three\n", 5, false},
		{"English split", "# T\n\none two\n\n## Going deeper\n\nthree four five\n", 4, true},
		{"Vietnamese split", "# T\n\nmột hai\n\n## Đi sâu hơn\n\nba bốn\n", 4, true},
		{"fences and comments out", "a b\n\n```sh\nmake step-1 bench\n```\n\n<!-- reference:step-1 -->\nc\n<!-- /reference -->\n", 3, false},
		{"a heading that only begins alike is no split", "a\n\n## Going deeper still\n\nb\n", 6, false},
	} {
		must, split := MustRead(c.in)
		if n := Words(must); n != c.words || split != c.split {
			t.Errorf("%s: %d words, split %v; want %d, %v", c.name, n, split, c.words, c.split)
		}
	}
	if h := Headings("# A\n\n```\n# not a heading\n```\n\n## B\n"); len(h) != 2 {
		t.Errorf("Headings = %q, want the two outside the fence", h)
	}
}
