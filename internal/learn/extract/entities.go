package extract

import (
	"strings"
	"unicode"
)

// stopwords are words never taken as entities.
var stopwords = wordSet(`the a an and or but if then else when while for to of in on at by with from into onto over under
	about as is are was were be been being am do does did done doing have has had having will would shall should can could may might must
	i me my mine you your yours we us our ours they them their he she it its this that these those there here what which who whom whose why how
	not no nope yes never always usually often sometimes also just only very really too so than more most less least all any some each every
	prefer prefers preferred like likes love loves hate hates dislike dislikes want wants use uses using used let lets let's go going gone
	decided decide decision choose chose pick stick switch correction user users said say says meant mean wrong incorrect right correct
	instead other another same thing things stuff way make sure remember please run runs running push pushing before after first then
	don't doesn't didn't can't won't isn't aren't i'm i've i'll we'll we're you're that's it's there's one two three new old`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Entities returns up to six distinct words of s that look like names of
// tools, technologies or project things: not stopwords, at least two
// characters, punctuation trimmed (".env", "fly.io" and "tsconfig.json"
// survive).
func Entities(s string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, f := range strings.Fields(s) {
		w := strings.TrimFunc(f, func(r rune) bool {
			return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-' || r == '/' || r == '@' || r == '+' || r == '#')
		})
		w = strings.TrimRight(w, ".-/")
		lw := strings.ToLower(w)
		if len(w) < 2 || stopwords[lw] || seen[lw] || !hasLetter(w) {
			continue
		}
		seen[lw] = true
		out = append(out, w)
		if len(out) == 6 {
			break
		}
	}
	return out
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}
