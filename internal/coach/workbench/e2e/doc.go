// Package e2e holds the workbench's end-to-end test: the real paige binary,
// Claude scripted with llmtest, headless Chromium driving web/workbench's
// e2e/journey.mjs, and the test acting as Claude Code over MCP. It has no
// non-test code.
package e2e
