// statemachine: a byte-by-byte state machine (between tags, in a tag, after a tag): the same grammar, and a malformed header anywhere matches nothing
// vi: một state machine đi từng byte (giữa các tag, trong một tag, sau một tag): cùng ngữ pháp, và header hỏng ở đâu cũng không khớp gì

//go:build !solution

package main

func NotModified(ifNoneMatch, etag string) bool {
	if len(etag) >= 2 && etag[:2] == "W/" {
		etag = etag[2:]
	}
	if len(etag) < 2 || etag[0] != '"' || etag[len(etag)-1] != '"' {
		return false
	}
	want := etag[1 : len(etag)-1]
	const (
		between = iota // before a tag or after a comma
		inTag          // after the opening quote
		after          // after the closing quote, before a comma
	)
	state, start, matched := between, 0, false
	for i := 0; i < len(ifNoneMatch); i++ {
		c := ifNoneMatch[i]
		switch state {
		case between:
			switch {
			case c == ' ' || c == '\t' || c == ',':
			case c == '*':
				return true
			case c == 'W' && i+1 < len(ifNoneMatch) && ifNoneMatch[i+1] == '/':
				i++
				if i+1 >= len(ifNoneMatch) || ifNoneMatch[i+1] != '"' {
					return false
				}
			case c == '"':
				state, start = inTag, i+1
			default:
				return false
			}
		case inTag:
			if c == '"' {
				matched = matched || ifNoneMatch[start:i] == want
				state = after
			}
		case after:
			switch c {
			case ' ', '\t':
			case ',':
				state = between
			default:
				return false
			}
		}
	}
	return matched && state != inTag
}
