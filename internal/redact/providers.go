package redact

import "regexp"

// providerRules are the fixed-shape credentials of services developers
// paste (issue 29): each a prefix the service documents and a body of a
// known alphabet and length, so prose and identifiers sharing the prefix
// (hf_hub_download, npm_config_cache, SG.init) stay.
func providerRules() []rule {
	return []rule{
		{hints: []string{"glpat-", "glrt-", "gldt-", "glptt-", "glsoat-"}, word: true, kind: "gitlab-token",
			re: regexp.MustCompile(`^gl(?:pat|rt|dt|ptt|soat)-[A-Za-z0-9_\-]{20,}`)},
		{hints: []string{"hf_"}, word: true, re: regexp.MustCompile(`^hf_[A-Za-z0-9]{30,}`), kind: "huggingface-token"},
		{hints: []string{"gocspx-"}, word: true, re: regexp.MustCompile(`^GOCSPX-[A-Za-z0-9_\-]{24,}`), kind: "google-oauth-secret"},
		{hints: []string{"sg."}, word: true, kind: "sendgrid-key",
			re: regexp.MustCompile(`^SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,}`)},
		{hints: []string{"xapp-"}, word: true, re: regexp.MustCompile(`^xapp-\d-[A-Za-z0-9\-]{20,}`), kind: "slack-token"},
		{hints: []string{"hooks.slack.com/"}, kind: "slack-webhook",
			re: regexp.MustCompile(`^hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{16,}`)},
		{hints: []string{"npm_"}, word: true, re: regexp.MustCompile(`^npm_[A-Za-z0-9]{36}\b`), kind: "npm-token"},
		{hints: []string{"pypi-age"}, word: true, re: regexp.MustCompile(`^pypi-AgE[A-Za-z0-9_\-]{40,}`), kind: "pypi-token"},
		{hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, word: true, kind: "digitalocean-token",
			re: regexp.MustCompile(`^do[opr]_v1_[a-f0-9]{64}`)},
		{hints: []string{"dapi"}, word: true, re: regexp.MustCompile(`^dapi[a-f0-9]{32}(?:-\d+)?`), kind: "databricks-token"},
		{hints: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, word: true, kind: "shopify-token",
			re: regexp.MustCompile(`^shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`)},
		{hints: []string{"pmak-"}, word: true, re: regexp.MustCompile(`^PMAK-[a-f0-9]{24}-[a-f0-9]{34}`), kind: "postman-key"},
		{hints: []string{"lin_api_"}, word: true, re: regexp.MustCompile(`^lin_api_[A-Za-z0-9]{40}`), kind: "linear-key"},
		{hints: []string{"age-secret-key-1"}, word: true, re: regexp.MustCompile(`^AGE-SECRET-KEY-1[0-9A-Z]{58}`), kind: "age-key"},
		{hints: []string{":aa"}, back: digitChar, kind: "telegram-token",
			re: regexp.MustCompile(`^[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}`)},
	}
}

// commandRules are passwords given on a command line or in a .netrc: the
// command or keyword stays, the password becomes the marker.
func commandRules() []rule {
	notMarker := func(v string) bool { return !isMarker(v) }
	return []rule{
		{hints: []string{"mysql"}, word: true, fn: keep("password", notMarker),
			re: regexp.MustCompile(`^(mysql(?:dump|admin|sh|import|check)?\b[^\n]*?[ \t]-p)([^\s'"\-][^\s'"]*)()`)},
		{hints: []string{"curl"}, word: true, fn: keep("password", notMarker),
			re: regexp.MustCompile(`^(curl\b[^\n]*?[ \t](?:-u|--user)[ \t=]*["']?[^\s:'"]+:)([^\s'"]+)()`)},
		{hints: []string{"docker"}, word: true, fn: keep("password", func(v string) bool { return notMarker(v) && v[0] != '-' }),
			re: regexp.MustCompile(`^(docker[ \t]+login\b[^\n]*?[ \t](?:-p|--password)(?:[ \t]+|=))([^\s'"]+)()`)},
		{hints: []string{"machine"}, word: true, multiLine: true, fn: keep("password", notMarker),
			re: regexp.MustCompile(`^(machine\s+\S+(?:\s+(?:login|account)\s+\S+)*\s+password\s+)(\S+)()`)},
	}
}

func digitChar(c byte) bool { return c >= '0' && c <= '9' }
