package trail

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/paige-dev/paige/internal/learn"
)

// commonTools are programs every project uses: running them says nothing
// about the team's own tooling. Anything else that is not a recognised
// toolchain and runs successfully with a subcommand in two calls or more
// of a session is a team tool ("bd ready", "bd close": the team tracks its
// work with bd).
var commonTools = wordSet(`git gh ls cat head tail grep rg ag find fd sed awk echo printf cd pwd mkdir rmdir rm cp mv
	touch chmod chown ln curl wget wc sort uniq diff cmp which whereis type ps kill pkill sleep tree jq yq xargs tee
	env export source true false test date open code vim nvim nano less more man file stat du df tar zip unzip gzip
	gunzip ssh scp rsync sudo bash sh zsh fish python python3 node ruby perl php java go cargo mix iex npm pnpm yarn
	bun npx bunx pnpx pip pip3 uv poetry docker docker-compose make just task brew apt apt-get dnf yum apk
	systemctl journalctl lsof netstat ss ping dig nslookup top htop time timeout nohup nice watch clear history
	read exit set unset alias basename dirname realpath readlink mktemp seq yes base64 sha256sum md5sum shasum
	openssl hexdump xxd od strings cut tr paste join column fold fmt nl expand psql sqlite3 mysql redis-cli claude`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// subcommand matches a word that names a subcommand ("ready", "ash.codegen").
var subcommand = regexp.MustCompile(`^[a-z][a-z0-9_.:-]*$`)

// teamUse counts one successful call of a program that is no known
// toolchain.
type teamUse struct {
	cwd   string
	calls int
	subs  map[string]bool
}

// team records args, run successfully in cwd, as a possible team tool.
func (m *miner) team(cwd string, args []string) {
	if len(args) < 2 || !subcommand.MatchString(args[1]) {
		return
	}
	tool := path.Base(args[0])
	if commonTools[tool] || strings.Contains(args[0], "/") || !subcommand.MatchString(tool) {
		return
	}
	k := cwd + "\x00" + tool
	u := m.teams[k]
	if u == nil {
		u = &teamUse{cwd: cwd, subs: map[string]bool{}}
		m.teams[k] = u
		m.teamOrder = append(m.teamOrder, k)
	}
	u.calls++
	u.subs[args[1]] = true
}

// teamFacts adds the team tools of the session: programs run successfully
// in two calls or more.
func (m *miner) teamFacts() {
	for _, k := range m.teamOrder {
		u := m.teams[k]
		if u.calls < 2 {
			continue
		}
		tool := k[strings.IndexByte(k, 0)+1:]
		subs := make([]string, 0, len(u.subs))
		for s := range u.subs {
			subs = append(subs, s)
		}
		sort.Strings(subs)
		f := "team tool: " + tool
		m.add(Candidate{Type: learn.Fact, Key: "fact:" + f, Content: f + " (" + strings.Join(subs, ", ") + ")", Cwd: u.cwd, Entities: []string{tool}})
		m.out[len(m.out)-1].Runs = u.calls
	}
}

// hookFailure matches the output of a commit a git hook stopped.
var hookFailure = regexp.MustCompile(`(?i)pre-commit|husky|lefthook|hook (failed|exited)|overcommit`)

// commit records a git commit: one a pre-commit hook stopped is pending
// until the next successful commit; a recognised command run in between
// (what the hook wanted) is learned as what to run before committing.
func (m *miner) commit(c Call, args []string) {
	if len(args) < 2 || path.Base(args[0]) != "git" || args[1] != "commit" {
		return
	}
	k := c.Cwd
	switch {
	case c.Outcome == Failed && hookFailure.MatchString(c.Output):
		m.hooked[k] = &hookFix{why: firstLine(c.Output)}
	case c.Outcome == Succeeded:
		h := m.hooked[k]
		delete(m.hooked, k)
		if h == nil || h.cmd.Canonical == "" {
			return
		}
		label := "before committing (the pre-commit hook checks it)"
		if h.dir != "" {
			label += " (in " + h.dir + ")"
		}
		m.add(Candidate{Type: learn.Procedure, Key: "hook:" + h.dir + ":" + h.cmd.Canonical,
			Content: label + ": " + h.cmd.Canonical, Cwd: c.Cwd, Entities: []string{strings.Fields(h.cmd.Canonical)[0], "pre-commit"}, Final: true})
	}
}

// hookFix is a commit a hook stopped and the first command run since.
type hookFix struct {
	why string
	dir string
	cmd command
}

// afterHook records cmd as the fix of a commit stopped in cwd, if one is
// pending and this is the first recognised command since.
func (m *miner) afterHook(cwd, dir string, cmd command) {
	if h := m.hooked[cwd]; h != nil && h.cmd.Canonical == "" {
		h.dir, h.cmd = dir, cmd
	}
}
