package redact

// providerRules are the fixed-shape credentials of services developers
// paste (issue 29): each a prefix the service documents and a body of a
// known alphabet and length, so prose and identifiers sharing the prefix
// (hf_hub_download, npm_config_cache, SG.init) stay.
func providerRules() []rule {
	return []rule{
		{hints: []string{"glpat-", "glrt-", "gldt-", "glptt-", "glsoat-"}, word: true, kind: "gitlab-token",
			re: compile(`^gl(?:pat|rt|dt|ptt|soat)-[A-Za-z0-9_\-]{20,}`)},
		{hints: []string{"hf_"}, word: true, re: compile(`^hf_[A-Za-z0-9]{30,}`), kind: "huggingface-token"},
		{hints: []string{"gocspx-"}, word: true, re: compile(`^GOCSPX-[A-Za-z0-9_\-]{24,}`), kind: "google-oauth-secret"},
		{hints: []string{"sg."}, word: true, kind: "sendgrid-key",
			re: compile(`^SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{30,}`)},
		{hints: []string{"xapp-"}, word: true, re: compile(`^xapp-\d-[A-Za-z0-9\-]{20,}`), kind: "slack-token"},
		{hints: []string{"hooks.slack.com/"}, kind: "slack-webhook",
			re: compile(`^hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{16,}`)},
		{hints: []string{"npm_"}, word: true, re: compile(`^npm_[A-Za-z0-9]{36}\b`), kind: "npm-token"},
		{hints: []string{"pypi-age"}, word: true, re: compile(`^pypi-AgE[A-Za-z0-9_\-]{40,}`), kind: "pypi-token"},
		{hints: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, word: true, kind: "digitalocean-token",
			re: compile(`^do[opr]_v1_[a-f0-9]{64}`)},
		{hints: []string{"dapi"}, word: true, re: compile(`^dapi[a-f0-9]{32}(?:-\d+)?`), kind: "databricks-token"},
		{hints: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, word: true, kind: "shopify-token",
			re: compile(`^shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`)},
		{hints: []string{"pmak-"}, word: true, re: compile(`^PMAK-[a-f0-9]{24}-[a-f0-9]{34}`), kind: "postman-key"},
		{hints: []string{"lin_api_"}, word: true, re: compile(`^lin_api_[A-Za-z0-9]{40}`), kind: "linear-key"},
		{hints: []string{"age-secret-key-1"}, word: true, re: compile(`^AGE-SECRET-KEY-1[0-9A-Z]{58}`), kind: "age-key"},
		{hints: []string{":aa"}, back: digitChar, kind: "telegram-token",
			re: compile(`^[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}`)},
	}
}

// commandRules are passwords given on a command line or in a .netrc: the
// command or keyword stays, the password becomes the marker.
func commandRules() []rule {
	notMarker := func(v string) bool { return !isMarker(v) }
	return []rule{
		{hints: []string{"mysql"}, word: true, fn: keep("password", notMarker),
			re: compile(`^(mysql(?:dump|admin|sh|import|check)?\b[^\n]*?[ \t]-p)([^\s'"\-][^\s'"]*)()`)},
		{hints: []string{"curl"}, word: true, fn: keep("password", notMarker),
			re: compile(`^(curl\b[^\n]*?[ \t](?:-u|--user)[ \t=]*["']?[^\s:'"]+:)([^\s'"]+)()`)},
		{hints: []string{"docker"}, word: true, fn: keep("password", func(v string) bool { return notMarker(v) && v[0] != '-' }),
			re: compile(`^(docker[ \t]+login\b[^\n]*?[ \t](?:-p|--password)(?:[ \t]+|=))([^\s'"]+)()`)},
		{hints: []string{"machine"}, word: true, multiLine: true, fn: keep("password", notMarker),
			re: compile(`^(machine\s+\S+(?:\s+(?:login|account)\s+\S+)*\s+password\s+)(\S+)()`)},
	}
}

func digitChar(c byte) bool { return c >= '0' && c <= '9' }
