// Package testenv gives tests access to the real services CI starts
// (PostgreSQL, ChromaDB, Chromium) through environment variables.
//
// When a variable is unset the test is skipped locally, but fails when
// PAIGE_REQUIRE_SERVICES=1 (as .ci/run sets it), so CI never silently skips
// a test the issues require.
package testenv

import (
	"os"
	"testing"
)

// Service returns the value of the environment variable that locates a
// service (a URL, a path). If it is empty the test is skipped, or failed when
// PAIGE_REQUIRE_SERVICES=1.
func Service(tb testing.TB, envVar, what string) string {
	tb.Helper()
	if v := os.Getenv(envVar); v != "" {
		return v
	}
	if os.Getenv("PAIGE_REQUIRE_SERVICES") == "1" {
		tb.Fatalf("%s is required (PAIGE_REQUIRE_SERVICES=1) but %s is not set", what, envVar)
	}
	tb.Skipf("%s not available: set %s (scripts in scripts/ci start it)", what, envVar) // requireService
	return ""
}
