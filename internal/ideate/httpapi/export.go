package httpapi

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paige-dev/paige/internal/ideate/core"
)

// maxTitleLen bounds a session's name, in characters.
const maxTitleLen = 200

// handleRename is PATCH /sessions/{id} {"title": "…"}: the session's name
// (trimmed, at most 200 characters; empty lets the problem name it again).
func (a *API) handleRename() http.Handler {
	type request struct {
		Title *string `json:"title"`
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		title, ok := a.decodeRequired(w, r, &req, "title", &req.Title)
		if !ok {
			return
		}
		title = strings.TrimSpace(title)
		if utf8.RuneCountInString(title) > maxTitleLen || !utf8.ValidString(title) || strings.ContainsAny(title, "\r\n") {
			a.writeError(w, r, core.Validation(core.FieldError{Field: "title",
				Message: "must be one line of at most 200 characters", Type: "string_too_long"}))
			return
		}
		s, e := a.load(r.Context(), r)
		if e != nil {
			a.writeError(w, r, e)
			return
		}
		if err := a.repo.RenameSession(r.Context(), s.ID, title); err != nil {
			a.writeError(w, r, a.repoError(err, "Session", s.ID, "rename session"))
			return
		}
		s.Title = title
		a.writeDetail(w, r, s)
	})
}

// exportResponse is the whole record of a session (GET …/export): the
// session detail (rounds, premises with scores, comments and parents, the
// answers to the agent's questions) and the spec.
type exportResponse struct {
	sessionDetailResponse
	Spec *string `json:"spec"`
}

// handleExport is GET /sessions/{id}/export?format=json|md: the session's
// whole record as a download.
func (a *API) handleExport() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		format := r.URL.Query().Get("format")
		if format == "" {
			format = "json"
		}
		if format != "json" && format != "md" {
			a.writeError(w, r, core.Validation(core.FieldError{Field: "query.format", Message: "must be json or md", Type: "enum"}))
			return
		}
		s, e := a.load(r.Context(), r)
		if e != nil {
			a.writeError(w, r, e)
			return
		}
		detail, err := a.sessionDetail(r.Context(), s)
		if err != nil {
			a.writeError(w, r, a.repoError(err, "Session", s.ID, "load rounds"))
			return
		}
		out := exportResponse{sessionDetailResponse: detail}
		if s.SpecPath != "" {
			b, err := os.ReadFile(s.SpecPath)
			if err != nil {
				a.log.Error("ghostpath: read spec for export", "path", s.SpecPath, "err", err)
			} else {
				spec := string(b)
				out.Spec = &spec
			}
		}
		name := "ghostpath-session-" + s.ID + "." + format
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		if format == "json" {
			a.writeJSON(w, http.StatusOK, out)
			return
		}
		md := exportMarkdown(out)
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(md)))
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(md))
	})
}

// exportMarkdown renders a session's record as Markdown: the problem, every
// round with its premises (type, lineage, the user's score and comment, the
// winner), the questions and answers, and the spec.
func exportMarkdown(x exportResponse) string {
	var b strings.Builder
	name := x.Title
	if name == "" {
		name = preview(x.Problem, 80)
	}
	fmt.Fprintf(&b, "# %s\n\n- Session: %s\n- Status: %s\n- Created: %s\n", oneLine(name), x.ID, x.Status, x.CreatedAt)
	if x.ResolvedAt != nil {
		fmt.Fprintf(&b, "- Resolved: %s\n", *x.ResolvedAt)
	}
	fmt.Fprintf(&b, "- Tokens used: %d\n\n## Problem\n\n%s\n", x.TotalTokensUsed, x.Problem)
	for _, r := range x.Rounds {
		fmt.Fprintf(&b, "\n## Round %d\n", r.RoundNumber)
		for _, p := range r.Premises {
			exportPremise(&b, p)
		}
	}
	if len(x.Answers) > 0 {
		b.WriteString("\n## Questions and answers\n")
		for _, qa := range x.Answers {
			q := qa.Question
			if q == "" {
				q = "(asked in the agent's text)"
			}
			fmt.Fprintf(&b, "\n- **Q:** %s\n  **A:** %s\n", oneLine(q), oneLine(qa.Answer))
		}
	}
	if x.Spec != nil {
		fmt.Fprintf(&b, "\n## Final spec\n\n%s\n", strings.TrimSpace(*x.Spec))
	}
	return b.String()
}

func exportPremise(b *strings.Builder, p premiseResponse) {
	winner := ""
	if p.IsWinner {
		winner = " — ★ the user's winner"
	}
	fmt.Fprintf(b, "\n### %s%s\n\n- ID: %s\n- Type: %s\n", oneLine(p.Title), winner, p.ID, p.PremiseType)
	for _, par := range p.Parents {
		verb := "Evolved from"
		if par.Relation == core.RelationCombined {
			verb = "Combined from"
		}
		fmt.Fprintf(b, "- %s: %s (round %d, %s)\n", verb, oneLine(par.Title), par.RoundNumber, par.ID)
	}
	if p.ViolatedAxiom != "" {
		fmt.Fprintf(b, "- Violated axiom: %s\n", oneLine(p.ViolatedAxiom))
	}
	if p.CrossDomainSource != "" {
		fmt.Fprintf(b, "- Source domain: %s\n", oneLine(p.CrossDomainSource))
	}
	if p.ObviousnessScore != nil {
		fmt.Fprintf(b, "- Obviousness: %.2f\n", *p.ObviousnessScore)
	}
	if p.Score != nil {
		fmt.Fprintf(b, "- Score: %.1f/10\n", *p.Score)
	} else {
		b.WriteString("- Score: not scored\n")
	}
	if p.UserComment != nil {
		fmt.Fprintf(b, "- Comment: %s\n", oneLine(*p.UserComment))
	}
	fmt.Fprintf(b, "\n%s\n", strings.TrimSpace(p.Body))
}

// oneLine folds line breaks so a value stays in its list item or heading.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
