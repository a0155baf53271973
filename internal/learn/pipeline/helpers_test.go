package pipeline

import "time"

func fixedNow() time.Time { return time.Date(2026, 2, 11, 10, 0, 0, 0, time.UTC) }
