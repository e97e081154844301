// wholefield: parses the whole field into a list first (any error: no match), then looks for the tag: a malformed element after a match also matches nothing
// vi: parse cả field thành danh sách trước (lỗi nào cũng là không khớp), rồi mới tìm tag: một phần tử hỏng nằm sau lần khớp cũng làm không khớp gì

//go:build !solution

package main

import "strings"

func NotModified(ifNoneMatch, etag string) bool {
	field := strings.Trim(ifNoneMatch, " \t")
	if field == "*" {
		return true
	}
	tags, ok := parseList(field)
	if !ok {
		return false
	}
	_, want, _ := strings.Cut(etag, `"`)
	for _, t := range tags {
		if t+`"` == want {
			return true
		}
	}
	return false
}

// parseList returns the opaque parts of a list of entity-tags.
func parseList(s string) (tags []string, ok bool) {
	for s != "" {
		elem, rest, _ := cutElement(s)
		elem = strings.Trim(elem, " \t")
		if elem != "" {
			elem = strings.TrimPrefix(elem, "W/")
			if len(elem) < 2 || elem[0] != '"' || elem[len(elem)-1] != '"' || strings.Contains(elem[1:len(elem)-1], `"`) {
				return nil, false
			}
			tags = append(tags, elem[1:len(elem)-1])
		}
		s = rest
	}
	return tags, true
}

// cutElement cuts s at the first comma outside quotes.
func cutElement(s string) (elem, rest string, found bool) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			quoted = !quoted
		case s[i] == ',' && !quoted:
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
