package classify

import (
	"strings"
	"unicode/utf8"
)

// MaxTextBytes is how much of a turn classification and extraction look
// at. What someone types to be learned from fits many times over; a longer
// turn is a paste (a log, a dump, a file), whose opening says what the user
// meant and whose bulk carries no instruction. Bounding it keeps a run
// linear in the transcript's size with a small constant, whatever one turn
// holds (a 60 MB single-line message included).
const MaxTextBytes = 32 << 10

// Bound returns the part of text that is classified: all of it when it is
// at most [MaxTextBytes] long; otherwise its first MaxTextBytes, cut back
// to the last line break in their second half (the structure of a paste),
// else (one huge line) to the last sentence end, else space, there, else
// to a UTF-8 boundary: no line, sentence, word or character is split.
func Bound(text string) string {
	if len(text) <= MaxTextBytes {
		return text
	}
	head := text[:MaxTextBytes]
	for _, sep := range []string{"\n", ". ", "! ", "? ", " "} {
		if i := strings.LastIndex(head, sep); i >= MaxTextBytes/2 {
			return head[:i+len(sep)-1]
		}
	}
	for len(head) > 0 && !utf8.RuneStart(text[len(head)]) {
		head = head[:len(head)-1]
	}
	return head
}
