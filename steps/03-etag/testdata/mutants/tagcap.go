// tagcap: reads at most 8 tags, to bound the work on a hostile header: a client holding 9 or more versions gets 200 for the 9th
// vi: đọc tối đa 8 tag, để giới hạn công xử lý khi gặp header độc hại: client giữ từ 9 phiên bản trở lên nhận 200 cho phiên bản thứ 9

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
	state, start, matched, tags := between, 0, false, 0
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
				if tags++; tags > 8 {
					return false
				}
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
