package dashboard

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestViewIssue(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("é", 400) // 800 bytes: cut to 500 on a rune boundary
	gh, _ := fakeGH(t, ghPrints(`{"number":7,"title":"Race","body":"`+body+`","labels":[{"name":"bug"}],"url":"https://x/7"}`))
	got, err := gh.ViewIssue(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Race" || len(got.Summary) != IssueSummaryMax || got.URL != "https://x/7" || len(got.Labels) != 1 {
		t.Errorf("issue = %+v", got)
	}
	for name, script := range map[string]string{
		"not an issue": ghPrints(`{"number":7}`),
		"garbage":      ghPrints(`nope`),
		"gh fails":     "echo 'could not resolve to an Issue' >&2; exit 1",
	} {
		gh, _ := fakeGH(t, script)
		var ge *GHError
		if _, err := gh.ViewIssue(context.Background(), 7); !errors.As(err, &ge) {
			t.Errorf("%s: err = %v, want *GHError", name, err)
		}
	}
}
