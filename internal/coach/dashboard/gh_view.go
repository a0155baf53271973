package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// IssueSummaryMax bounds the summary ViewIssue derives from an issue body.
const IssueSummaryMax = 500

// IssueInfo is one issue as `gh issue view` reports it, with Summary the
// first [IssueSummaryMax] bytes of the body (cut on a rune boundary).
type IssueInfo struct {
	Number  int
	Title   string
	Summary string
	Labels  []string
	URL     string
}

// ViewIssue runs `gh issue view <number> --json number,title,body,labels,url`
// from Dir. Failures are *GHError, like [GH.ListIssues]; output that is
// not an issue with a title is MsgGHUnreadable.
func (g *GH) ViewIssue(ctx context.Context, number int) (IssueInfo, error) {
	out, err := g.run(ctx, "issue", "view", strconv.Itoa(number), "--json", "number,title,body,labels,url")
	if err != nil {
		return IssueInfo{}, err
	}
	var raw struct {
		Number int    `json:"number"`
		Title  string `json:"title"`
		Body   string `json:"body"`
		URL    string `json:"url"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
	}
	if err := json.Unmarshal(out, &raw); err != nil {
		return IssueInfo{}, &GHError{Message: MsgGHUnreadable, Err: err}
	}
	if strings.TrimSpace(raw.Title) == "" {
		return IssueInfo{}, &GHError{Message: MsgGHUnreadable, Err: errors.New("issue without a title")}
	}
	info := IssueInfo{Number: number, Title: raw.Title, Summary: cutRunes(strings.TrimSpace(raw.Body), IssueSummaryMax), URL: raw.URL}
	for _, l := range raw.Labels {
		info.Labels = append(info.Labels, l.Name)
	}
	return info, nil
}

// cutRunes returns s cut to at most n bytes without splitting a rune.
func cutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
