package dashboard

// The dashboard's results (story 12; NOTES.md › dashboard:state payload).
// They are plain data with the JSON shape of the dashboard:* messages, so
// the WebSocket adapter sends them as they are; wsapi's catalog names them
// through type aliases (wsapi.DashboardState = DashboardState, …), which is
// why some names repeat the package's. PriorityFactors and Resource have the
// fields of their prompt twins (issueassessment, learningmaterials) with the
// UI's camelCase tags: the payload converts one into the other, so a field
// added to only one side does not compile.

// Period is a dashboard statistics window: "7d", "30d" or "all".
type Period string

// DreyfusEntry is one skill area's assessment.
type DreyfusEntry struct {
	SkillArea  string  `json:"skillArea"`
	Stage      string  `json:"stage"`
	Confidence float64 `json:"confidence"`
	AssessedAt string  `json:"assessedAt"`
}

// DashboardStats are the counters over a Period.
type DashboardStats struct {
	Period                  Period  `json:"period"`
	SessionsCompleted       int     `json:"sessionsCompleted"`
	TotalCoachingMinutes    float64 `json:"totalCoachingMinutes"`
	IssuesWorkedOn          int     `json:"issuesWorkedOn"`
	KnowledgeGapsIdentified int     `json:"knowledgeGapsIdentified"`
	KnowledgeGapsAddressed  int     `json:"knowledgeGapsAddressed"`
	HintsUsed               int     `json:"hintsUsed"`
	// APICostTotal sums the calls whose price is known;
	// APICostUnpricedCalls counts the others (a model missing from the
	// price table: its cost is unknown, never $0).
	APICostTotal         float64 `json:"apiCostTotal"`
	APICostUnpricedCalls int     `json:"apiCostUnpricedCalls"`
}

// InProgressSession is a session the user can resume.
type InProgressSession struct {
	ID          string  `json:"id"`
	IssueNumber *int    `json:"issueNumber"`
	IssueTitle  *string `json:"issueTitle"`
	StartedAt   string  `json:"startedAt"`
}

// KataSummary is one kata on the dashboard.
type KataSummary struct {
	ID              string `json:"id"`
	Title           string `json:"title"`
	Topic           string `json:"topic"`
	AttemptsCount   int    `json:"attemptsCount"`
	BestLevel       *int   `json:"bestLevel"`
	ConstraintCount int    `json:"constraintCount"`
}

// DashboardState is the immediate part of the dashboard.
type DashboardState struct {
	Dreyfus            []DreyfusEntry      `json:"dreyfus"`
	Stats              DashboardStats      `json:"stats"`
	InProgressSessions []InProgressSession `json:"inProgressSessions"`
	Katas              []KataSummary       `json:"katas"`
}

// PriorityFactors explain an issue's priority score.
type PriorityFactors struct {
	UserTagged            bool   `json:"userTagged"`
	SimilarToRecentWork   bool   `json:"similarToRecentWork"`
	AddressesKnowledgeGap bool   `json:"addressesKnowledgeGap"`
	TeamUrgency           string `json:"teamUrgency"`
}

// IssueSuggestion is one assessed GitHub issue.
type IssueSuggestion struct {
	Number                int             `json:"number"`
	Title                 string          `json:"title"`
	Summary               string          `json:"summary"`
	Suitability           string          `json:"suitability"`
	SuitabilityReason     string          `json:"suitabilityReason"`
	EstimatedDifficulty   string          `json:"estimatedDifficulty"`
	RelevantSkills        []string        `json:"relevantSkills"`
	PriorityScore         float64         `json:"priorityScore"`
	PriorityFactors       PriorityFactors `json:"priorityFactors"`
	LearningOpportunities []string        `json:"learningOpportunities"`
}

// DashboardIssues lists assessed issues.
type DashboardIssues struct {
	Issues []IssueSuggestion `json:"issues"`
}

// Resource is one learning resource.
type Resource struct {
	Type          string `json:"type"`
	Title         string `json:"title"`
	URL           string `json:"url"`
	Description   string `json:"description"`
	Relevance     string `json:"relevance"`
	EstimatedTime string `json:"estimatedTime"`
}

// Recommendation groups resources for one knowledge gap.
type Recommendation struct {
	KnowledgeGap       string     `json:"knowledgeGap"`
	Resources          []Resource `json:"resources"`
	StudyOrder         string     `json:"studyOrder"`
	PracticeConnection *string    `json:"practiceConnection"`
}

// DashboardMaterials lists learning materials.
type DashboardMaterials struct {
	Recommendations []Recommendation `json:"recommendations"`
}
