package wsapi

// Direction says who sends a message type.
type Direction string

// Directions of [MessageSpec].
const (
	ClientToServer Direction = "client→server"
	ServerToClient Direction = "server→client"
)

// Status is how a client→server message is handled (the spec's status table).
type Status string

// Statuses of [MessageSpec]. Server→client messages have StatusSent.
const (
	StatusFull    Status = "full"    // handled completely here
	StatusMinimal Status = "minimal" // state kept, nothing answered
	StatusNoOp    Status = "no-op"   // accepted and ignored
	// StatusSeam: routed and validated; the behaviour is plugged in by the
	// model-driven stories through [Extensions]. Unplugged, the client gets
	// connection:error NOT_IMPLEMENTED (scenario 5.7).
	StatusSeam Status = "seam"
	StatusSent Status = "sent" // server→client
)

// MessageSpec describes one message type of the protocol.
type MessageSpec struct {
	Type      string
	Direction Direction
	Status    Status
	Story     int        // spec story that introduced it; 0: added by Paige (workbench)
	Payload   func() any // a new zero payload (pointer), for decoding and docs
}

func p[T any]() func() any { return func() any { return new(T) } }

// Catalog is every message type of the protocol, client→server first. It is
// the one list the router, the tests and docs/websocket.md are checked
// against.
var Catalog = []MessageSpec{
	{TypeConnectionHello, ClientToServer, StatusFull, 5, p[ConnectionHello]()},
	{TypeDashboardRequest, ClientToServer, StatusSeam, 12, p[DashboardRequest]()},
	{TypeDashboardRefreshIssues, ClientToServer, StatusSeam, 12, p[Empty]()},
	{TypeSessionStart, ClientToServer, StatusFull, 9, p[SessionStart]()},
	{TypeSessionResume, ClientToServer, StatusFull, 9, p[SessionResume]()},
	{TypeSessionEnd, ClientToServer, StatusFull, 9, p[Empty]()},
	{TypeFileOpen, ClientToServer, StatusFull, 5, p[PathPayload]()},
	{TypeFileSave, ClientToServer, StatusFull, 5, p[FileSave]()},
	{TypeFileClose, ClientToServer, StatusFull, 5, p[PathPayload]()},
	{TypeBufferUpdate, ClientToServer, StatusFull, 5, p[BufferUpdate]()},
	{TypeEditorTabSwitch, ClientToServer, StatusFull, 5, p[EditorTabSwitch]()},
	{TypeEditorSelection, ClientToServer, StatusFull, 5, p[EditorSelection]()},
	{TypeEditorScroll, ClientToServer, StatusNoOp, 5, p[EditorScroll]()},
	{TypeExplorerExpandDir, ClientToServer, StatusNoOp, 5, p[PathPayload]()},
	{TypeExplorerCollapseDir, ClientToServer, StatusNoOp, 5, p[PathPayload]()},
	{TypeHintsLevelChange, ClientToServer, StatusFull, 5, p[HintsLevelChange]()},
	{TypeUserExplain, ClientToServer, StatusSeam, 11, p[UserExplain]()},
	{TypeUserReview, ClientToServer, StatusSeam, 11, p[UserReview]()},
	{TypeUserIdleStart, ClientToServer, StatusFull, 10, p[UserIdleStart]()},
	{TypeUserIdleEnd, ClientToServer, StatusFull, 10, p[Empty]()},
	{TypeObserverMute, ClientToServer, StatusFull, 10, p[ObserverMute]()},
	{TypePracticeSubmitSolution, ClientToServer, StatusSeam, 11, p[PracticeSubmitSolution]()},
	{TypeTerminalReady, ClientToServer, StatusMinimal, 5, p[TerminalSize]()},
	{TypeTerminalInput, ClientToServer, StatusNoOp, 5, p[TerminalInput]()},
	{TypeTerminalResize, ClientToServer, StatusMinimal, 5, p[TerminalSize]()},
	{TypeFSGetTree, ClientToServer, StatusFull, 0, p[Empty]()},
	{TypeSessionGetState, ClientToServer, StatusFull, 0, p[Empty]()},
	{TypeRefreshMaterials, ClientToServer, StatusSeam, 0, p[Empty]()},
	{TypePracticeOpen, ClientToServer, StatusSeam, 0, p[PracticeOpen]()},
	{TypeFSCreate, ClientToServer, StatusFull, 0, p[FSCreate]()},
	{TypeFSRename, ClientToServer, StatusFull, 0, p[FSRename]()},
	{TypeFSDelete, ClientToServer, StatusFull, 0, p[PathPayload]()},
	{TypeFSSearch, ClientToServer, StatusFull, 0, p[FSSearch]()},

	{TypeConnectionInit, ServerToClient, StatusSent, 5, p[ConnectionInit]()},
	{TypeConnectionError, ServerToClient, StatusSent, 5, p[ConnectionError]()},
	{TypeDashboardDreyfus, ServerToClient, StatusSent, 12, p[DashboardDreyfus]()},
	{TypeDashboardState, ServerToClient, StatusSent, 12, p[DashboardState]()},
	{TypeDashboardIssues, ServerToClient, StatusSent, 12, p[DashboardIssues]()},
	{TypeDashboardIssuesError, ServerToClient, StatusSent, 12, p[ErrorText]()},
	{TypeDashboardMaterials, ServerToClient, StatusSent, 12, p[DashboardMaterials]()},
	{TypeDashboardMaterialsError, ServerToClient, StatusSent, 12, p[ErrorText]()},
	{TypeFSTree, ServerToClient, StatusSent, 5, p[FSTree]()},
	{TypeFSTreeUpdate, ServerToClient, StatusSent, 5, p[FSTreeUpdate]()},
	{TypeFSContent, ServerToClient, StatusSent, 5, p[FileContent]()},
	{TypeFSSaveAck, ServerToClient, StatusSent, 5, p[FSSaveAck]()},
	{TypeFSSaveError, ServerToClient, StatusSent, 5, p[FSSaveError]()},
	{TypeEditorDecorations, ServerToClient, StatusSent, 6, p[EditorDecorations]()},
	{TypeEditorClearDecorations, ServerToClient, StatusSent, 6, p[PathOptional]()},
	{TypeEditorHoverHint, ServerToClient, StatusSent, 6, p[EditorHoverHint]()},
	{TypeEditorOpenFile, ServerToClient, StatusSent, 6, p[FileContent]()},
	{TypeEditorHighlightLines, ServerToClient, StatusSent, 6, p[HighlightLines]()},
	{TypeEditorClearHighlights, ServerToClient, StatusSent, 6, p[PathOptional]()},
	{TypeExplorerHintFiles, ServerToClient, StatusSent, 6, p[ExplorerHintFiles]()},
	{TypeExplorerClearHints, ServerToClient, StatusSent, 6, p[Empty]()},
	{TypeSessionStarted, ServerToClient, StatusSent, 9, p[SessionStarted]()},
	{TypeSessionResumed, ServerToClient, StatusSent, 9, p[SessionResumed]()},
	{TypeSessionEnded, ServerToClient, StatusSent, 9, p[SessionEnded]()},
	{TypeSessionCompleted, ServerToClient, StatusSent, 9, p[SessionCompleted]()},
	{TypeCoachingPhaseUpdate, ServerToClient, StatusSent, 6, p[PhaseUpdate]()},
	{TypeCoachingMessage, ServerToClient, StatusSent, 6, p[CoachingMessage]()},
	{TypeCoachingIssueContext, ServerToClient, StatusSent, 6, p[IssueContext]()},
	{TypeCoachingPlanReady, ServerToClient, StatusSent, 9, p[PlanReady]()},
	{TypeObserverNudge, ServerToClient, StatusSent, 10, p[ObserverNudge]()},
	{TypeObserverStatus, ServerToClient, StatusSent, 10, p[ObserverStatus]()},
	{TypeExplainResponse, ServerToClient, StatusSent, 11, p[ExplainResponse]()},
	{TypeExplainError, ServerToClient, StatusSent, 11, p[ExplainError]()},
	{TypeReviewResponse, ServerToClient, StatusSent, 11, p[ReviewResponse]()},
	{TypeReviewError, ServerToClient, StatusSent, 11, p[ReviewError]()},
	{TypePracticeKataLoad, ServerToClient, StatusSent, 11, p[KataLoad]()},
	{TypePracticeSolutionReview, ServerToClient, StatusSent, 11, p[ReviewResponse]()},
	{TypeSessionState, ServerToClient, StatusSent, 0, p[SessionState]()},
	{TypeFSCreated, ServerToClient, StatusSent, 0, p[FSCreate]()},
	{TypeFSRenamed, ServerToClient, StatusSent, 0, p[FSRename]()},
	{TypeFSDeleted, ServerToClient, StatusSent, 0, p[PathPayload]()},
	{TypeFSSearchResult, ServerToClient, StatusSent, 0, p[FSSearchResult]()},
}

// Lookup returns the spec of typ and whether it is known.
func Lookup(typ string) (MessageSpec, bool) {
	for _, m := range Catalog {
		if m.Type == typ {
			return m, true
		}
	}
	return MessageSpec{}, false
}
