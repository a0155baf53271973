package wsapi

import "github.com/paige-dev/paige/internal/coach/dashboard"

// Dashboard payloads (story 12; NOTES.md › dashboard:state payload). The
// dashboard service owns them (package dashboard, transport-free); these
// aliases keep the catalog's names.
type (
	// Period is a dashboard statistics window: "7d", "30d" or "all".
	Period = dashboard.Period
	// DreyfusEntry is [dashboard.DreyfusEntry].
	DreyfusEntry = dashboard.DreyfusEntry
	// DashboardStats is [dashboard.DashboardStats].
	DashboardStats = dashboard.DashboardStats
	// InProgressSession is [dashboard.InProgressSession].
	InProgressSession = dashboard.InProgressSession
	// KataSummary is [dashboard.KataSummary].
	KataSummary = dashboard.KataSummary
	// DashboardState is [dashboard.DashboardState].
	DashboardState = dashboard.DashboardState
	// PriorityFactors is [dashboard.PriorityFactors].
	PriorityFactors = dashboard.PriorityFactors
	// IssueSuggestion is [dashboard.IssueSuggestion].
	IssueSuggestion = dashboard.IssueSuggestion
	// DashboardIssues is [dashboard.DashboardIssues].
	DashboardIssues = dashboard.DashboardIssues
	// Resource is [dashboard.Resource].
	Resource = dashboard.Resource
	// Recommendation is [dashboard.Recommendation].
	Recommendation = dashboard.Recommendation
	// DashboardMaterials is [dashboard.DashboardMaterials].
	DashboardMaterials = dashboard.DashboardMaterials
)

// DashboardDreyfus is the radar data.
type DashboardDreyfus struct {
	SkillAreas   []DreyfusEntry `json:"skillAreas"`
	OverallStage string         `json:"overallStage"`
}
