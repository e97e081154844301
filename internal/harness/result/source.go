package result

import (
	"strings"

	"github.com/peakload/workshop/internal/given/messages"
)

// SourceKind says whose figure a claim is judged against. A room reads
// "article:" as "the article said so": a claim the article does not make
// must say whose it is.
type SourceKind string

const (
	// FromArticle: the article's own text, quoted (a figure only in one of
	// its images is not the text's).
	FromArticle SourceKind = "article"
	// FromRepo: the author's companion repository of article B,
	// minhpq331/write-heavy-application, at RepoCommit.
	FromRepo SourceKind = "repo"
	// FromGuide: the Node.js guide "Profiling Node.js Applications", which
	// article C summarises; its figures reach us through article C's text.
	FromGuide SourceKind = "guide"
	// FromOurs: the workshop's own question, with no outside figure.
	FromOurs SourceKind = "ours"
)

// RepoCommit is the commit of the author's repository whose README
// "Test Result" table and scripts the repo claims cite.
const RepoCommit = "39255d8"

// Source is where one claim comes from, declared beside the claim.
type Source struct {
	Kind SourceKind `json:"kind"`
	// Article is the article ("A"–"D") whose text carries the claim: the
	// article itself, or C for the guide it summarises.
	Article string `json:"article,omitempty"`
	// Quote is the original Vietnamese sentence the claim rests on, short
	// and verbatim from the article (a test checks it against the seeds).
	Quote string `json:"quote,omitempty"`
	// Ref names the file or README row (repo), the guide's section, or,
	// for ours, what outside text the question starts from.
	Ref string `json:"ref,omitempty"`
	// Ours lists the figures of the claim's text that we computed or chose
	// (a ratio, a rate from a time, a parameter of our workload), which the
	// text marks as ours: every other figure must be found in the source.
	Ours []string `json:"ours,omitempty"`
}

// Article returns the source of a claim in article a's text.
func Article(a, quote string, ours ...string) Source {
	return Source{Kind: FromArticle, Article: a, Quote: quote, Ours: ours}
}

// Repo returns the source of a claim in the author's repository (ref: the
// file or README row).
func Repo(ref string, ours ...string) Source {
	return Source{Kind: FromRepo, Ref: ref, Ours: ours}
}

// Guide returns the source of a figure of the Node.js guide, as article
// C's sentence (quote) carries it.
func Guide(quote string, ours ...string) Source {
	return Source{Kind: FromGuide, Article: "C", Quote: quote, Ref: "Profiling Node.js Applications (nodejs.org guide)", Ours: ours}
}

// Ours returns the source of the workshop's own question; ref, when set,
// says what outside text it starts from.
func Ours(ref string) Source { return Source{Kind: FromOurs, Ref: ref} }

// OursFrom returns the source of the workshop's own question asked of
// article a's sentence (quote, verbatim: the seed test checks it): the
// verdict is ours, the sentence it starts from is the article's.
func OursFrom(a, quote, ref string) Source {
	return Source{Kind: FromOurs, Article: a, Quote: quote, Ref: ref}
}

// Name is what the claims table prints before the claim's text. A result
// written before sources existed has none: it reads "article", as it
// printed then.
func (s Source) Name() string { return s.NameIn(messages.English) }

// NameIn is the source's name in language l, for a terminal.
func (s Source) NameIn(l messages.Lang) string {
	switch s.Kind {
	case FromArticle:
		return l.T("source.article", s.Article)
	case FromRepo:
		return l.T("source.repo")
	case FromGuide:
		return l.T("source.guide")
	case FromOurs:
		return l.T("source.ours")
	}
	return l.T("source.unknown")
}

// SourcesStack begins the place of a claim judged on a source's own stack
// (ORIGINAL=1): internal/harness/scenario writes it, in brackets, before
// the claim's text ("[on the source's stack, here: Fastify on Node…] …"),
// and the report sets those claims apart by it (OnSourcesStack). Declared
// here, below both, so the words are typed once.
const SourcesStack = "on the source's stack, here: "

// OnSourcesStack says whether c was judged on a source's own stack.
func (c *Claim) OnSourcesStack() bool { return strings.HasPrefix(c.Article, "["+SourcesStack) }
